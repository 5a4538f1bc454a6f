"""jax.lax.scatter_apply and the `.at[idx].apply(func)` of arrays.

JAX's scatter_apply is a scatter whose combiner calls `func` on the operand
element (XLA applies it once per update, so an element indexed k times gets
`func` applied k times). mlax's scatter op has fixed combiners, so here the
number of hits of each element is a scatter-add of ones (with the same
indices, dimension numbers and mode), and a while loop applies `func`
(elementwise: vmapped over the flattened operand, as JAX traces it on
scalars) to the elements hit more than `i` times at step `i`. With
`unique_indices=True` it is one application, no loop."""
from __future__ import annotations

import numpy as np

from mlax._src.core.primitives import aval_of
from mlax._src.lax import lax
from mlax._src.lax import slicing
from mlax._src.lax.control_flow import while_loop
from mlax._src.transforms.vmap import vmap


def apply_counted(operand, counts, func, unique_indices=False):
    """`operand` with `func` applied counts[i] times to element i."""
    aval = aval_of(operand)
    dtype, shape = aval.dtype, tuple(aval.shape)
    size = int(np.prod(shape, dtype=np.int64))
    operand = lax.convert_element_type(operand, dtype)  # an array, also for a Python scalar
    if size == 0:
        return operand

    def scalar_func(v):
        return lax.convert_element_type(func(v), dtype)

    def apply_all(v):
        return lax.reshape(vmap(scalar_func)(lax.reshape(v, (size,))), shape)

    if unique_indices:
        return lax.select(lax.gt(counts, lax.full_like(counts, 0)), apply_all(operand), operand)
    n = lax.reduce_max(lax.reshape(counts, (size,)), (0,))

    def cond(carry):
        return lax.lt(carry[0], n)

    def body(carry):
        i, v = carry
        hit = lax.gt(counts, lax.broadcast(i, shape))
        return lax.add(i, np.int32(1)), lax.select(hit, apply_all(v), v)

    return while_loop(cond, body, (np.int32(0), operand))[1]


def scatter_apply(operand, scatter_indices, func, dimension_numbers, *, update_shape=(),
                  indices_are_sorted=False, unique_indices=False, mode=None):
    """Like `jax.lax.scatter_apply`: `operand` with `func` applied to each
    element a scatter with these indices and dimension numbers (and updates
    of `update_shape`) writes, once per update that reaches it."""
    zeros = lax.full(aval_of(operand).shape, 0, np.int32)
    ones = lax.full(tuple(update_shape), 1, np.int32)
    counts = slicing.scatter_add(zeros, scatter_indices, ones, dimension_numbers,
                                 indices_are_sorted=indices_are_sorted,
                                 unique_indices=unique_indices, mode=mode)
    return apply_counted(operand, counts, func, unique_indices)

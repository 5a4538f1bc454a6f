"""lax's reductions (reduce_sum/prod/max/min/and/or), cumsum and sort.
"""
from __future__ import annotations

import builtins

import numpy as np
from mlir import ir

from mlax._src.base import dtypes
from mlax._src.core import tracer as core
from mlax._src.core.primitives import Primitive, _ops, aval_of, bind, shape_error
from mlax._src.core.tracer import ShapedArray

from mlax._src.lax.elementwise import _check_kind, _i64, _i64_array


def _reduction(name, op_class, kind):
    # The result type is the op's C++ rule (`inferReduce` in
    # MlaxReductionOps.cpp); Python checks the dtype kind.
    def check(x, *, axes):
        _check_kind(name, kind, x)

    def emit(values, avals, *, axes):
        return getattr(_ops(), op_class)(values[0], _i64_array(axes)).result

    prim = Primitive(name, None, emit, check=check,
                     errors={"out of range": ValueError, "appears twice": ValueError})

    def fn(x, axes):
        axes = tuple(sorted(int(a) for a in axes))
        return bind(prim, x, axes=axes)

    fn.__name__ = name
    return fn


reduce_sum = _reduction("reduce_sum", "ReduceSumOp", "number")
reduce_prod = _reduction("reduce_prod", "ReduceProdOp", "number")
reduce_max = _reduction("reduce_max", "ReduceMaxOp", "any")
reduce_min = _reduction("reduce_min", "ReduceMinOp", "any")
_reduce_and = _reduction("reduce_and", "ReduceAndOp", "any")
_reduce_or = _reduction("reduce_or", "ReduceOrOp", "any")


def reduce_and(x, axes):
    if aval_of(x).dtype != dtypes.bool_:
        raise shape_error("lax.reduce_and", "needs a bool operand")
    return _reduce_and(x, axes)


def reduce_or(x, axes):
    if aval_of(x).dtype != dtypes.bool_:
        raise shape_error("lax.reduce_or", "needs a bool operand")
    return _reduce_or(x, axes)


def _sort_eval(*operands, dimension, is_stable, num_keys):
    name = "lax.sort"
    first = operands[0]
    if not 0 <= dimension < builtins.max(first.ndim, 1) or first.ndim == 0:
        raise shape_error(name, f"dimension {dimension} is out of range for shape "
                          f"{first.shape}", ValueError)
    if not 1 <= num_keys <= len(operands):
        raise shape_error(name, f"num_keys={num_keys} must be in [1, {len(operands)}]",
                          ValueError)
    for o in operands[1:]:
        if o.shape != first.shape:
            raise shape_error(name, f"operands must have one shape, got {first.shape} "
                              f"and {o.shape}")
    for o in operands[:num_keys]:
        if dtypes.is_complex(o.dtype):
            raise shape_error(name, f"cannot sort by complex keys ({o.dtype.name})")
    return [o for o in operands]


def _sort_emit(values, avals, out_avals, *, dimension, is_stable, num_keys):
    op = _ops().SortOp([o.mlir_type() for o in out_avals], values, _i64(dimension),
                       ir.BoolAttr.get(bool(is_stable)), _i64(num_keys))
    return list(op.results)


_sort_p = Primitive("sort", _sort_eval, _sort_emit, multiple_results=True)


def sort(operand, dimension=-1, is_stable=True, num_keys=1):
    """Sorts `operand` (an array or a sequence of arrays sorted together by
    the first `num_keys`) along `dimension`, as jax.lax.sort."""
    single = not isinstance(operand, (tuple, list))
    operands = (operand,) if single else tuple(operand)
    if not operands:
        raise ValueError("lax.sort: needs at least one operand")
    ndim = aval_of(operands[0]).ndim
    if ndim == 0:
        raise TypeError("lax.sort: cannot sort a scalar (0-d array)")
    dim = int(dimension)
    if not -ndim <= dim < ndim:
        raise ValueError(f"lax.sort: dimension {dimension} is out of range for rank {ndim}")
    out = bind(_sort_p, *operands, dimension=dim % ndim, is_stable=bool(is_stable),
               num_keys=int(num_keys))
    return out[0] if single else tuple(out)


def sort_key_val(keys, values, dimension=-1, is_stable=True):
    """Sorts `keys` along `dimension` and applies the same permutation to `values`."""
    return sort((keys, values), dimension=dimension, is_stable=is_stable, num_keys=1)


def _cumsum_eval(x, *, axis, reverse):
    _check_kind("cumsum", "number", x)
    if dtypes.is_complex(x.dtype):
        raise shape_error("lax.cumsum", "complex inputs are not supported yet")
    return x


def _cumsum_emit(values, avals, out_aval, *, axis, reverse):
    return _ops().CumsumOp(values[0], _i64(axis), reverse=bool(reverse),
                           results=[out_aval.mlir_type()]).result


_cumsum_p = Primitive("cumsum", _cumsum_eval, _cumsum_emit)


def cumsum(operand, axis=0, reverse=False):
    """Inclusive cumulative sum along `axis` (jax.lax.cumsum)."""
    ndim = aval_of(operand).ndim
    if not -ndim <= int(axis) < ndim:
        raise ValueError(f"lax.cumsum: axis {axis} is out of bounds for array of rank {ndim}")
    if aval_of(operand).shape[int(axis)] == 0:
        return operand  # nothing to sum (XLA has no empty windows)
    return bind(_cumsum_p, operand, axis=int(axis) % ndim, reverse=bool(reverse))

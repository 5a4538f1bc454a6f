"""Ragged (grouped) matrix products, as jax.lax.ragged_dot and
ragged_dot_general.

JAX lowers these on CPU by the same decomposition (its
`_ragged_dot_general_impl`): the lhs's ragged dimension is expanded into a
leading group dimension whose slice g keeps only the rows of group g (a
mask from the cumulative group sizes), and one `dot_general` contracts it
with the rhs's group dimension (mode 1, ragged non-contracting: a row of
group g meets rhs[g]) or batches over it (mode 2, ragged contracting: one
product per group). Mode 3 (a ragged batch dimension) is a plain
dot_general. Derivatives and batching are those of the ops it is built of.
Rows past the sum of the group sizes are zero, as in JAX.
"""
from __future__ import annotations

import dataclasses
import enum
import functools
from typing import Sequence

import numpy as np

from mlax._src.base import dtypes
from mlax._src.core.primitives import aval_of
from mlax._src.lax import lax
from mlax._src.lax.linalg import canonicalize_precision


@dataclasses.dataclass(frozen=True)
class RaggedDotDimensionNumbers:
    """The dot dimension numbers `((lhs_contracting, rhs_contracting),
    (lhs_batch, rhs_batch))` of a ragged dot, its lhs ragged dimension and
    rhs group dimension (JAX's class)."""

    dot_dimension_numbers: tuple
    lhs_ragged_dimensions: Sequence[int]
    rhs_group_dimensions: Sequence[int]

    def __init__(self, dot_dimension_numbers, lhs_ragged_dimensions, rhs_group_dimensions):
        object.__setattr__(self, "dot_dimension_numbers",
                           tuple(tuple(map(tuple, t)) for t in dot_dimension_numbers))
        object.__setattr__(self, "lhs_ragged_dimensions", tuple(lhs_ragged_dimensions))
        object.__setattr__(self, "rhs_group_dimensions", tuple(rhs_group_dimensions))


_BASIC = RaggedDotDimensionNumbers((([1], [1]), ([], [])), [0], [0])


class _Mode(enum.Enum):
    NONCONTRACTING = 1  # [b,m,k], [g,b,k,n], [b,g] -> [b,m,n]
    CONTRACTING = 2     # [b,m,k], [b,k,n],   [b,g] -> [g,b,m,n]
    BATCH = 3           # [b,m,k], [b,k,n],   [g]   -> [b,m,n]


def _remaining(n, *taken):
    used = set().union(*map(set, taken))
    return [i for i in range(n) if i not in used]


def _mode_and_dim(lhs_rank, dnums):
    lhs_ragged = dnums.lhs_ragged_dimensions[0]
    (l_contract, _), (l_batch, _) = dnums.dot_dimension_numbers
    noncontract = _remaining(lhs_rank, l_contract, l_batch)
    if lhs_ragged in noncontract:
        return _Mode.NONCONTRACTING, lhs_ragged
    if lhs_ragged in l_contract:
        return _Mode.CONTRACTING, lhs_ragged
    if lhs_ragged in l_batch:
        return _Mode.BATCH, lhs_ragged
    raise TypeError(f"lhs_ragged_dim {lhs_ragged} not found in lhs_noncontracting "
                    f"{noncontract}, lhs_contracting {list(l_contract)}, or lhs_batch "
                    f"{list(l_batch)}.")


def _prefix_dims(mode, rank, ragged_dim, batch, contract):
    """The dimensions of an operand group_sizes is indexed by, before `g`."""
    batch, contract = list(batch), list(contract)
    noncontract = _remaining(rank, contract, batch)
    if mode is _Mode.NONCONTRACTING:
        return batch + noncontract[:noncontract.index(ragged_dim)]
    if mode is _Mode.CONTRACTING:
        return batch + contract[:contract.index(ragged_dim)]
    return batch[:batch.index(ragged_dim)]


def _check(lhs, rhs, group_sizes, dnums, group_offset):
    la, ra, ga = aval_of(lhs), aval_of(rhs), aval_of(group_sizes)

    def in_range(dim, rank, dim_name, arg_name):
        if dim < 0 or dim >= rank:
            raise TypeError(f"ragged_dot_general requires {dim_name} numbers to be nonnegative "
                            f"and less than the number of axes of the {arg_name} value, got "
                            f"{dim} for {arg_name} of rank {rank}.")

    if not isinstance(dnums, RaggedDotDimensionNumbers):
        raise TypeError("ragged_dot_general: ragged_dot_dimension_numbers must be a "
                        f"RaggedDotDimensionNumbers, got {dnums!r}")
    if group_offset is not None:
        raise NotImplementedError("Unimplemented group_offset support.")
    if not dtypes.is_int(ga.dtype):
        raise TypeError("ragged_dot_general requires that group_sizes.dtype is subtype of "
                        "np.integer.")
    if len(dnums.lhs_ragged_dimensions) != 1:
        raise TypeError("ragged_dot_general expects exactly one lhs ragged dimension.")
    in_range(dnums.lhs_ragged_dimensions[0], la.ndim, "lhs ragged dimension", "lhs")
    mode, ragged = _mode_and_dim(la.ndim, dnums)
    (l_contract, r_contract), (l_batch, r_batch) = dnums.dot_dimension_numbers
    if ga.ndim == 0:
        raise TypeError("expected rank of group_sizes to be >=1.")
    if ga.ndim != 1:
        prefix = _prefix_dims(mode, la.ndim, ragged, l_batch, l_contract)
        want = tuple(la.shape[i] for i in prefix) + (ga.shape[-1],)
        if tuple(ga.shape) != want:
            raise TypeError(f"expected group_sizes to have shape {want}, got {ga.shape}.")
    groups = ga.shape[-1]
    group_dims = dnums.rhs_group_dimensions
    if mode is _Mode.NONCONTRACTING:
        if len(group_dims) != 1:
            raise TypeError("ragged_dot_general requires exactly one rhs group dimension when "
                            "lhs ragged dimension is noncontracting.")
        in_range(group_dims[0], ra.ndim, "rhs group dimension", "rhs")
        if group_dims[0] in r_batch or group_dims[0] in r_contract:
            raise TypeError("ragged_dot_general requires rhs group dimension numbers to be "
                            "distinct from contracting and batch dimensions.")
        if ra.shape[group_dims[0]] != groups:
            raise TypeError(f"expected rhs group dimension size to be {groups}, got "
                            f"{ra.shape[group_dims[0]]}.")
    elif group_dims:
        raise TypeError("ragged_dot_general requires zero group dimensions in the rhs when "
                        "lhs ragged dimension is contracting or batch.")
    return mode, ragged


def _ragged_to_dense(x, gs, dim):
    """[g, *x.shape]: slice g keeps x's entries whose index along `dim` lies
    in group g (gs: the 1-D group sizes), zeros elsewhere."""
    shape = aval_of(gs).shape + aval_of(x).shape
    x = lax.broadcast_in_dim(x, shape, list(range(1, len(shape))))
    iota = lax.broadcasted_iota(aval_of(gs).dtype, shape, dim + 1)
    ends = lax.cumsum(gs)
    starts = lax.concatenate([lax.full((1,), 0, aval_of(gs).dtype), ends[:-1]], 0)
    ends = lax.broadcast_in_dim(ends, shape, (0,))
    starts = lax.broadcast_in_dim(starts, shape, (0,))
    mask = lax.bitwise_and(lax.le(starts, iota), lax.lt(iota, ends))
    return lax.select(mask, x, lax.full_like(x, 0))


def _batched_to_dense(dim, *axes):
    if not axes:
        return functools.partial(_ragged_to_dense, dim=dim)
    from mlax._src.transforms.vmap import vmap

    axis, *rest = axes

    def decr(d):
        return d - 1 if d >= axis else d

    return vmap(_batched_to_dense(decr(dim), *[decr(a) for a in rest]), in_axes=(axis, 0))


def _expand(x, dim, gs, *axes):
    """x with its ragged `dim` expanded into a leading group dimension;
    `axes`: x's dimensions group_sizes is batched over."""
    dense = _batched_to_dense(dim, *axes)(x, gs)
    ndim = aval_of(x).ndim
    order = [a + 1 for a in axes] + [0] + [d + 1 for d in _remaining(ndim, axes)]
    return lax.transpose(dense, tuple(int(i) for i in np.argsort(order)))


def ragged_dot_general(lhs, rhs, group_sizes, ragged_dot_dimension_numbers, precision=None,
                       preferred_element_type=None, group_offset=None, out_sharding=None):
    """Ragged matrix multiplication with general dimension numbers (see the
    module's docstring for the three modes), as jax.lax.ragged_dot_general."""
    if out_sharding is not None:
        raise NotImplementedError("ragged_dot_general: out_sharding is not supported")
    dnums = ragged_dot_dimension_numbers
    mode, ragged = _check(lhs, rhs, group_sizes, dnums, group_offset)
    (l_contract, r_contract), (l_batch, r_batch) = dnums.dot_dimension_numbers
    l_contract, r_contract = list(l_contract), list(r_contract)
    l_batch, r_batch = list(l_batch), list(r_batch)
    la = aval_of(lhs)
    l_prefix = _prefix_dims(mode, la.ndim, ragged, l_batch, l_contract)
    if aval_of(group_sizes).ndim == 1:
        group_sizes = lax.broadcast(group_sizes, [la.shape[i] for i in l_prefix])
    precision = canonicalize_precision(precision)
    dot = functools.partial(lax.dot_general, precision=precision,
                            preferred_element_type=preferred_element_type)

    def incr(dims):
        return [d + 1 for d in dims]

    if mode is _Mode.NONCONTRACTING:
        return dot(_expand(lhs, ragged, group_sizes, *l_prefix), rhs,
                   ((incr(l_contract) + [0], r_contract + [dnums.rhs_group_dimensions[0]]),
                    (incr(l_batch), r_batch)))
    if mode is _Mode.CONTRACTING:
        r_ragged = r_contract[l_contract.index(ragged)]
        r_prefix = _prefix_dims(mode, aval_of(rhs).ndim, r_ragged, r_batch, r_contract)
        return dot(_expand(lhs, ragged, group_sizes, *l_prefix),
                   _expand(rhs, r_ragged, group_sizes, *r_prefix),
                   ((incr(l_contract), incr(r_contract)), ([0] + incr(l_batch),
                                                           [0] + incr(r_batch))))
    return dot(lhs, rhs, dnums.dot_dimension_numbers)


def ragged_dot(lhs, rhs, group_sizes, precision=None, preferred_element_type=None,
               group_offset=None, out_sharding=None):
    """lhs (m, k) times rhs (g, k, n) by groups: rows of group i (group_sizes
    (g,) gives the groups' consecutive sizes) meet rhs[i]; (m, n)."""
    return ragged_dot_general(lhs, rhs, group_sizes, _BASIC, precision=precision,
                              preferred_element_type=preferred_element_type,
                              group_offset=group_offset, out_sharding=out_sharding)

"""lax's shape ops: broadcast_in_dim, reshape, transpose, slice,
concatenate, pad, iota, rev, the filled arrays built by broadcasting
(full, full_like), and the helpers built from them (squeeze, expand_dims,
collapse, index_in_dim, broadcast_to_rank).

Result types come from the ops' C++ shape rules (`MlaxShapeOps.cpp`):
transpose, slice, concatenate and pad infer theirs; broadcast_in_dim,
reshape and iota take the result type the caller asks for and their
verifiers check it. `rev` (an indexing-family op) still checks in Python.
"""
from __future__ import annotations

import builtins
import operator

import numpy as np

from mlir import ir

from mlax._src.base import dtypes
from mlax._src.core import tracer as core
from mlax._src.core.primitives import Primitive, _ops, aval_of, bind, shape_error, verified
from mlax._src.core.tracer import ShapedArray

from mlax._src.lax.elementwise import _as_array, _i64, _i64_array, convert_element_type


def _result_type(shape, dtype):
    """The result type a caller asks for; a negative size is no shape."""
    if builtins.any(d < 0 for d in shape):
        raise ir.MLIRError(f"negative dimension in shape {shape}", [])
    return ShapedArray(shape, dtype).mlir_type()


_broadcast_p = Primitive(
    "broadcast_in_dim", None,
    lambda v, a, *, shape, broadcast_dimensions: verified(_ops().BroadcastInDimOp(
        _result_type(shape, a[0].dtype), v[0], _i64_array(broadcast_dimensions))).result)


def broadcast_in_dim(x, shape, broadcast_dimensions):
    shape, dims = tuple(int(s) for s in shape), tuple(int(d) for d in broadcast_dimensions)
    aval = aval_of(x)
    if aval.shape == shape and dims == tuple(range(len(shape))) and not isinstance(
            x, (bool, int, float, complex)):
        return x
    return bind(_broadcast_p, x, shape=shape, broadcast_dimensions=dims)


def broadcast(x, sizes):
    aval = aval_of(x)
    sizes = tuple(sizes)
    return broadcast_in_dim(x, sizes + aval.shape,
                            tuple(range(len(sizes), len(sizes) + aval.ndim)))


_reshape_p = Primitive(
    "reshape", None,
    lambda v, a, *, new_sizes: verified(_ops().ReshapeOp(
        _result_type(new_sizes, a[0].dtype), v[0])).result,
    errors={"": ValueError})


def reshape(x, new_sizes, dimensions=None):
    new_sizes = tuple(int(s) for s in new_sizes)
    if dimensions is not None:
        x = transpose(x, dimensions)
    if aval_of(x).shape == new_sizes:
        return x
    return bind(_reshape_p, x, new_sizes=new_sizes)


_transpose_p = Primitive(
    "transpose", None,
    lambda v, a, *, permutation: _ops().TransposeOp(v[0], _i64_array(permutation)).result,
    errors={"": ValueError})


def transpose(x, permutation):
    permutation = tuple(int(p) for p in permutation)
    if permutation == tuple(range(len(permutation))) and len(permutation) == aval_of(x).ndim:
        return x
    return bind(_transpose_p, x, permutation=permutation)


_slice_p = Primitive(
    "slice", None,
    lambda v, a, *, start_indices, limit_indices, strides: _ops().SliceOp(
        v[0], _i64_array(start_indices), _i64_array(limit_indices),
        _i64_array(strides)).result,
    errors={"out of bounds": IndexError})


def slice(x, start_indices, limit_indices, strides=None):  # noqa: A001
    start = tuple(int(s) for s in start_indices)
    limit = tuple(int(s) for s in limit_indices)
    strides = tuple(int(s) for s in strides) if strides is not None else (1,) * len(start)
    return bind(_slice_p, x, start_indices=start, limit_indices=limit, strides=strides)


def slice_in_dim(x, start, limit, stride=1, axis=0):
    aval = aval_of(x)
    starts, limits, strides = [0] * aval.ndim, list(aval.shape), [1] * aval.ndim
    starts[axis], limits[axis], strides[axis] = start, limit, stride
    return slice(x, starts, limits, strides)


_concatenate_p = Primitive(
    "concatenate", None,
    lambda v, a, *, dimension: _ops().ConcatenateOp(v, _i64(dimension)).result,
    errors={"out of range": ValueError})


def concatenate(operands, dimension):
    operands = list(operands)
    if not operands:
        raise ValueError("lax.concatenate: need at least one array to concatenate")
    if len(operands) == 1:
        return operands[0]
    return bind(_concatenate_p, *operands, dimension=int(dimension))


_pad_p = Primitive(
    "pad", None,
    lambda v, a, *, padding_config: _ops().PadOp(
        v[0], v[1], _i64_array([c[0] for c in padding_config]),
        _i64_array([c[1] for c in padding_config]),
        _i64_array([c[2] for c in padding_config])).result,
    errors={"padding per dimension": ValueError, "interior padding": ValueError,
            "negative padding": ValueError})


def pad(x, padding_value, padding_config):
    config = tuple((int(lo), int(hi), int(i)) for lo, hi, i in padding_config)
    return bind(_pad_p, x, padding_value, padding_config=config)


_iota_p = Primitive(
    "iota", None,
    lambda v, a, *, dtype, shape, dimension: verified(_ops().IotaOp(
        _result_type(shape, dtype), _i64(dimension))).result,
    errors={"": ValueError})


def broadcasted_iota(dtype, shape, dimension):
    return bind(_iota_p, dtype=dtypes.canonicalize(dtype), shape=tuple(int(s) for s in shape),
                dimension=int(dimension))


def iota(dtype, size):
    return broadcasted_iota(dtype, (int(size),), 0)


def full(shape, fill_value, dtype=None):
    shape = tuple(int(s) for s in shape)
    if dtype is None:
        # As jax.lax.full: a weakly typed fill value gives a weak result.
        fill_aval = aval_of(fill_value)
        return _full(shape, fill_value, fill_aval.dtype, fill_aval.weak_type)
    return _full(shape, fill_value, dtypes.canonicalize(dtype), False)


def _full(shape, fill_value, dtype, weak_type):
    value = convert_element_type(fill_value, dtype, weak_type=weak_type)
    return broadcast(value, shape)


def full_like(x, fill_value, dtype=None, shape=None):
    aval = aval_of(x)
    shape = aval.shape if shape is None else tuple(int(s) for s in shape)
    if dtype is None:
        # As jax.lax.full_like: the result is weak when `x` is.
        return _full(shape, fill_value, aval.dtype, aval.weak_type)
    return _full(shape, fill_value, dtypes.canonicalize(dtype), False)


def _rev_eval(x, *, dimensions):
    if len(set(dimensions)) != len(dimensions) or builtins.any(
            not 0 <= d < x.ndim for d in dimensions):
        raise shape_error("lax.rev", f"dimensions {dimensions} must be distinct axes of an "
                          f"array of shape {x.shape}", ValueError)
    return x


_rev_p = Primitive(
    "rev", _rev_eval,
    lambda v, a, o, *, dimensions: _ops().ReverseOp(v[0], _i64_array(dimensions),
                                                    results=[o.mlir_type()]).result)


def rev(operand, dimensions):
    """Reverses `operand` along `dimensions` (jax.lax.rev)."""
    dims = tuple(int(d) for d in dimensions)
    if not dims:
        return operand
    return bind(_rev_p, operand, dimensions=dims)


# ---------------------------------------------------------------------------
# Shape helpers
# ---------------------------------------------------------------------------

def _axis(name, axis, ndim):
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise shape_error(f"lax.{name}", f"axis {axis} is out of bounds for rank {ndim}",
                          ValueError)
    return axis % ndim


def squeeze(array, dimensions):
    """`array` without the size-1 `dimensions` (jax.lax.squeeze)."""
    aval = aval_of(array)
    dims = {_axis("squeeze", d, aval.ndim) for d in dimensions}
    for d in dims:
        if aval.shape[d] != 1:
            raise shape_error("lax.squeeze", f"cannot squeeze dimension {d} of size "
                              f"{aval.shape[d]} (shape {aval.shape})", ValueError)
    return _as_array(reshape(array, [s for i, s in enumerate(aval.shape) if i not in dims]))


def expand_dims(array, dimensions):
    """`array` with size-1 dimensions inserted at `dimensions` (positions in the
    result), as jax.lax.expand_dims."""
    aval = aval_of(array)
    out_ndim = aval.ndim + len(dimensions)
    dims = sorted(_axis("expand_dims", d, out_ndim) for d in dimensions)
    if len(set(dims)) != len(dims):
        raise shape_error("lax.expand_dims", f"repeated dimensions {tuple(dimensions)}",
                          ValueError)
    shape = list(aval.shape)
    for d in dims:
        shape.insert(d, 1)
    return _as_array(reshape(array, shape))


def collapse(operand, start_dimension, stop_dimension=None):
    """`operand` with dimensions [start, stop) merged into one (jax.lax.collapse)."""
    aval = aval_of(operand)
    start = _axis("collapse", start_dimension, aval.ndim) if aval.ndim else 0
    if stop_dimension is None:
        stop = aval.ndim
    else:
        stop = operator.index(stop_dimension)
        if stop < 0:
            stop += aval.ndim
    if not start <= stop <= aval.ndim:
        raise shape_error("lax.collapse", f"invalid dimensions [{start_dimension}, "
                          f"{stop_dimension}) for shape {aval.shape}", ValueError)
    size = int(np.prod(aval.shape[start:stop], dtype=np.int64))
    return _as_array(reshape(operand, aval.shape[:start] + (size,) + aval.shape[stop:]))


def index_in_dim(operand, index, axis=0, keepdims=True):
    """operand[..., index, ...] along `axis` for a static `index` (negative
    counts from the end), as jax.lax.index_in_dim."""
    aval = aval_of(operand)
    axis = _axis("index_in_dim", axis, aval.ndim)
    index = operator.index(index)
    n = aval.shape[axis]
    if not -n <= index < n:
        raise shape_error("lax.index_in_dim", f"index {index} is out of bounds for axis "
                          f"{axis} of size {n}", IndexError)
    index %= n
    starts, limits = [0] * aval.ndim, list(aval.shape)
    starts[axis], limits[axis] = index, index + 1
    out = slice(operand, starts, limits)
    if keepdims:
        return out
    return reshape(out, aval.shape[:axis] + aval.shape[axis + 1:])


def broadcast_to_rank(x, rank):
    """`x` with leading size-1 dimensions added up to `rank` (jax.lax.broadcast_to_rank)."""
    aval = aval_of(x)
    rank = operator.index(rank)
    if rank < aval.ndim:
        raise shape_error("lax.broadcast_to_rank", f"rank {rank} is less than the array's "
                          f"rank {aval.ndim}", ValueError)
    if rank == aval.ndim:
        return _as_array(x)
    return broadcast(x, (1,) * (rank - aval.ndim))

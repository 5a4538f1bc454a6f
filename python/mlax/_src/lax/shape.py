"""lax's shape ops: broadcast_in_dim, reshape, transpose, slice,
concatenate, pad, iota, rev, the filled arrays built by broadcasting
(full, full_like), and the helpers built from them (squeeze, expand_dims,
collapse, index_in_dim, broadcast_to_rank).
"""
from __future__ import annotations

import builtins
import operator

import numpy as np
from mlir import ir

from mlax._src.base import dtypes
from mlax._src.core import tracer as core
from mlax._src.core.primitives import Primitive, _ops, aval_of, bind, shape_error
from mlax._src.core.tracer import ShapedArray

from mlax._src.lax.elementwise import _as_array, _i64, _i64_array, convert_element_type


def _broadcast_eval(x, *, shape, broadcast_dimensions):
    if len(broadcast_dimensions) != x.ndim:
        raise shape_error("lax.broadcast_in_dim",
                          f"operand of shape {x.shape} needs {x.ndim} broadcast dimensions, "
                          f"got {broadcast_dimensions}")
    for i, d in enumerate(broadcast_dimensions):
        if not 0 <= d < len(shape) or (i and d <= broadcast_dimensions[i - 1]):
            raise shape_error("lax.broadcast_in_dim",
                              f"broadcast_dimensions {broadcast_dimensions} must be increasing "
                              f"and in range for shape {shape}")
        if x.shape[i] not in (1, shape[d]):
            raise shape_error("lax.broadcast_in_dim",
                              f"cannot broadcast shape {x.shape} to {shape} "
                              f"(broadcast_dimensions={broadcast_dimensions})")
    return x.update(shape=shape)


_broadcast_p = Primitive(
    "broadcast_in_dim", _broadcast_eval,
    lambda v, a, o, **p: _ops().BroadcastInDimOp(o.mlir_type(), v[0],
                                                 _i64_array(p["broadcast_dimensions"])).result)


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


def _reshape_eval(x, *, new_sizes):
    if builtins.any(d < 0 for d in new_sizes) or int(np.prod(new_sizes, dtype=np.int64)) != x.size:
        raise shape_error("reshape", f"cannot reshape array of shape {x.shape} "
                          f"(size {x.size}) into shape {new_sizes}", ValueError)
    return x.update(shape=new_sizes)


_reshape_p = Primitive(
    "reshape", _reshape_eval,
    lambda v, a, o, **p: _ops().ReshapeOp(o.mlir_type(), v[0]).result)


def reshape(x, new_sizes, dimensions=None):
    new_sizes = tuple(int(s) for s in new_sizes)
    if dimensions is not None:
        x = transpose(x, dimensions)
    if aval_of(x).shape == new_sizes:
        return x
    return bind(_reshape_p, x, new_sizes=new_sizes)


def _transpose_eval(x, *, permutation):
    if sorted(permutation) != list(range(x.ndim)):
        raise shape_error("lax.transpose", f"permutation {permutation} is not a permutation "
                          f"of the {x.ndim} axes of shape {x.shape}", ValueError)
    return x.update(shape=tuple(x.shape[p] for p in permutation))


_transpose_p = Primitive(
    "transpose", _transpose_eval,
    lambda v, a, o, **p: _ops().TransposeOp(v[0], _i64_array(p["permutation"]),
                                            results=[o.mlir_type()]).result)


def transpose(x, permutation):
    permutation = tuple(int(p) for p in permutation)
    if permutation == tuple(range(len(permutation))) and len(permutation) == aval_of(x).ndim:
        return x
    return bind(_transpose_p, x, permutation=permutation)


def _slice_eval(x, *, start_indices, limit_indices, strides):
    n = x.ndim
    if not len(start_indices) == len(limit_indices) == len(strides) == n:
        raise shape_error("lax.slice", f"needs {n} start/limit/stride values for shape {x.shape}")
    shape = []
    for i in range(n):
        s, l, st = start_indices[i], limit_indices[i], strides[i]
        if not (0 <= s <= l <= x.shape[i]) or st < 1:
            raise shape_error("lax.slice", f"start {start_indices}, limit {limit_indices}, "
                              f"strides {strides} out of bounds for shape {x.shape}", IndexError)
        shape.append((l - s + st - 1) // st)
    return x.update(shape=tuple(shape))


_slice_p = Primitive(
    "slice", _slice_eval,
    lambda v, a, o, **p: _ops().SliceOp(v[0], _i64_array(p["start_indices"]),
                                        _i64_array(p["limit_indices"]),
                                        _i64_array(p["strides"]),
                                        results=[o.mlir_type()]).result)


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


def _concatenate_eval(*xs, dimension):
    first = xs[0]
    if not 0 <= dimension < first.ndim:
        raise shape_error("lax.concatenate", f"dimension {dimension} out of range for "
                          f"rank {first.ndim}", ValueError)
    size = 0
    for x in xs:
        if x.dtype != first.dtype or x.ndim != first.ndim or builtins.any(
                x.shape[i] != first.shape[i] for i in range(x.ndim) if i != dimension):
            raise shape_error("lax.concatenate", "arrays must agree except along dimension "
                              f"{dimension}, got {first.str_short()} and {x.str_short()}")
        size += x.shape[dimension]
    shape = list(first.shape)
    shape[dimension] = size
    return first.update(shape=tuple(shape),
                        weak_type=builtins.all(x.weak_type for x in xs))


_concatenate_p = Primitive(
    "concatenate", _concatenate_eval,
    lambda v, a, o, **p: _ops().ConcatenateOp(v, _i64(p["dimension"]),
                                              results=[o.mlir_type()]).result)


def concatenate(operands, dimension):
    operands = list(operands)
    if not operands:
        raise ValueError("lax.concatenate: need at least one array to concatenate")
    if len(operands) == 1:
        return operands[0]
    return bind(_concatenate_p, *operands, dimension=int(dimension))


def _pad_eval(x, pad_value, *, padding_config):
    if pad_value.shape != () or pad_value.dtype != x.dtype:
        raise shape_error("lax.pad", f"padding value must be a scalar of dtype {x.dtype.name}, "
                          f"got {pad_value.str_short()}")
    if len(padding_config) != x.ndim:
        raise shape_error("lax.pad", f"needs {x.ndim} (low, high, interior) triples, "
                          f"got {len(padding_config)}", ValueError)
    shape = []
    for n, (lo, hi, interior) in zip(x.shape, padding_config):
        if interior < 0:
            raise shape_error("lax.pad", f"interior padding must be >= 0, got {interior}",
                              ValueError)
        size = lo + hi + n + builtins.max(n - 1, 0) * interior
        if size < 0:
            raise shape_error("lax.pad", f"negative padding {padding_config} removes more than "
                              f"shape {x.shape} holds", ValueError)
        shape.append(size)
    return x.update(shape=tuple(shape), weak_type=x.weak_type and pad_value.weak_type)


_pad_p = Primitive(
    "pad", _pad_eval,
    lambda v, a, o, *, padding_config: _ops().PadOp(
        v[0], v[1], _i64_array([c[0] for c in padding_config]),
        _i64_array([c[1] for c in padding_config]),
        _i64_array([c[2] for c in padding_config]), results=[o.mlir_type()]).result)


def pad(x, padding_value, padding_config):
    config = tuple((int(lo), int(hi), int(i)) for lo, hi, i in padding_config)
    return bind(_pad_p, x, padding_value, padding_config=config)


def _iota_eval(*, dtype, shape, dimension):
    if not 0 <= dimension < len(shape):
        raise shape_error("lax.iota", f"dimension {dimension} out of range for shape {shape}",
                          ValueError)
    return ShapedArray(shape, dtype)


_iota_p = Primitive(
    "iota", _iota_eval,
    lambda v, a, o, *, dtype, shape, dimension: _ops().IotaOp(o.mlir_type(), _i64(dimension)).result)


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

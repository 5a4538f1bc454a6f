"""lax's shape ops: broadcast_in_dim, reshape, transpose, slice,
concatenate, pad, iota, the filled arrays built by broadcasting
(full, full_like, empty), and the helpers built from them (squeeze,
expand_dims, collapse, index_in_dim, broadcast_to_rank, split, tile, stack,
unstack) and broadcast_shapes. `rev` (an indexing-family op) lives in
slicing.py.

Result types come from the ops' C++ shape rules (`MlaxShapeOps.cpp`):
transpose, slice, concatenate and pad infer theirs; broadcast_in_dim,
reshape and iota take the result type the caller asks for and their
verifiers check it.
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
    "broadcast_in_dim",
    lambda v, a, *, shape, broadcast_dimensions: verified(_ops().BroadcastInDimOp(
        _result_type(shape, a[0].dtype), v[0], _i64_array(broadcast_dimensions))).result,
    splat=lambda a, *, shape, broadcast_dimensions:
        a.update(shape=shape) if not a.shape and not broadcast_dimensions
        and min(shape, default=0) >= 0 else None)


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
    "reshape",
    lambda v, a, *, new_sizes: verified(_ops().ReshapeOp(
        _result_type(new_sizes, a[0].dtype), v[0])).result,
    errors={"": ValueError})


def reshape(x, new_sizes, dimensions=None):
    new_sizes = tuple(int(s) for s in new_sizes)
    if builtins.any(s < 0 for s in new_sizes):  # (JAX's class: no -1 in lax)
        raise shape_error("lax.reshape", f"new_sizes must all be nonnegative, got {new_sizes}")
    if dimensions is not None:
        x = transpose(x, dimensions)
    if aval_of(x).shape == new_sizes:
        return x
    return bind(_reshape_p, x, new_sizes=new_sizes)


_transpose_p = Primitive(
    "transpose",
    lambda v, a, *, permutation: _ops().TransposeOp(v[0], _i64_array(permutation)).result,
    errors={"": TypeError})  # as JAX's "transpose permutation isn't a permutation"


def transpose(x, permutation):
    permutation = tuple(int(p) for p in permutation)
    if permutation == tuple(range(len(permutation))) and len(permutation) == aval_of(x).ndim:
        return x
    return bind(_transpose_p, x, permutation=permutation)


_slice_p = Primitive(
    "slice",
    lambda v, a, *, start_indices, limit_indices, strides: _ops().SliceOp(
        v[0], _i64_array(start_indices), _i64_array(limit_indices),
        _i64_array(strides)).result,
    errors={"out of bounds": TypeError})  # as JAX's slice shape rule


def slice(x, start_indices, limit_indices, strides=None):  # noqa: A001
    start = tuple(int(s) for s in start_indices)
    limit = tuple(int(s) for s in limit_indices)
    strides = tuple(int(s) for s in strides) if strides is not None else (1,) * len(start)
    return bind(_slice_p, x, start_indices=start, limit_indices=limit, strides=strides)


def slice_in_dim(operand, start_index, limit_index, stride=1, axis=0):
    """operand[start_index:limit_index:stride] along `axis` (jax.lax's:
    None means the axis' start or end, negative indices count from the end)."""
    aval = aval_of(operand)
    starts, limits, strides = [0] * aval.ndim, list(aval.shape), [1] * aval.ndim
    n = aval.shape[axis]
    start = 0 if start_index is None else operator.index(start_index)
    limit = n if limit_index is None else operator.index(limit_index)
    starts[axis] = start + n if start < 0 else start
    limits[axis] = limit + n if limit < 0 else limit
    strides[axis] = stride
    return slice(operand, starts, limits, strides)


_concatenate_p = Primitive(
    "concatenate",
    lambda v, a, *, dimension: _ops().ConcatenateOp(v, _i64(dimension)).result,
    errors={"out of range": TypeError})  # JAX: "concatenate dimension out of bounds"


def concatenate(operands, dimension):
    operands = list(operands)
    if not operands:
        raise ValueError("lax.concatenate: need at least one array to concatenate")
    if len(operands) == 1:
        return operands[0]
    return bind(_concatenate_p, *operands, dimension=int(dimension))


_pad_p = Primitive(
    "pad",
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
    "iota",
    lambda v, a, *, dtype, shape, dimension: verified(_ops().IotaOp(
        _result_type(shape, dtype), _i64(dimension))).result,
    errors={"": ValueError})


def broadcasted_iota(dtype, shape, dimension):
    dtype, shape = dtypes.canonicalize(dtype), tuple(int(s) for s in shape)
    # JAX's classes: TypeErrors for a bool dtype and for a negative size
    if dtypes.is_bool(dtype):
        raise shape_error("lax.iota", "does not accept dtype bool; needs an integer, "
                          "floating-point or complex dtype")
    if builtins.any(s < 0 for s in shape):
        raise shape_error("lax.iota", f"shape must have every element be nonnegative, got "
                          f"{shape}")
    if dtypes.is_complex(dtype):  # the real counts, converted (as JAX's lowering)
        return convert_element_type(broadcasted_iota(dtypes.real_part(dtype), shape,
                                                     dimension), dtype)
    return bind(_iota_p, dtype=dtype, shape=shape, dimension=int(dimension))


def iota(dtype, size):
    return broadcasted_iota(dtype, (int(size),), 0)


def full(shape, fill_value, dtype=None):
    shape = tuple(int(s) for s in shape)
    if dtype is None:
        # As jax.lax.full: a weakly typed fill value gives a weak result.
        fill_aval = aval_of(fill_value)
        return _full(shape, fill_value, fill_aval.dtype, fill_aval.weak_type)
    return _full(shape, fill_value, dtypes.canonicalize(dtype), False)


def empty(shape, dtype, *, out_sharding=None):
    """jax.lax.empty: an array whose values are unspecified (zeros here)."""
    shape = (shape,) if np.ndim(shape) == 0 else shape
    return _full(tuple(operator.index(s) for s in shape), 0, dtypes.canonicalize(dtype), False)


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
    listed = [_axis("squeeze", d, aval.ndim) for d in dimensions]
    dims = set(listed)
    if len(dims) != len(listed):  # as jax.lax.squeeze
        raise shape_error("lax.squeeze", f"dimensions are not unique: {tuple(dimensions)}",
                          ValueError)
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


def broadcast_shape(shapes, label):
    """The NumPy broadcast of `shapes`; a ValueError naming `label` when they
    do not broadcast (mlax.numpy's broadcast_shapes shares it)."""
    ndim = builtins.max((len(s) for s in shapes), default=0)
    result = []
    for i in range(-ndim, 0):
        sizes = {s[i] for s in shapes if len(s) >= -i and s[i] != 1}
        if len(sizes) > 1:
            raise ValueError(
                f"{label}: incompatible shapes for broadcasting: "
                f"{', '.join(str(tuple(s)) for s in shapes)} (at {core.user_location_str()})")
        result.append(sizes.pop() if sizes else 1)
    return tuple(result)


def broadcast_shapes(*shapes):
    """jax.lax.broadcast_shapes: the shape NumPy broadcasting gives `shapes`."""
    shapes = [tuple(operator.index(d) for d in s) for s in shapes]
    for s in shapes:
        if builtins.any(d < 0 for d in s):
            raise TypeError("Only non-negative indices are allowed when broadcasting static "
                            f"shapes, but got shape {s}.")
    return broadcast_shape(shapes, "lax.broadcast_shapes")


def broadcast_like(arr, like_arr):
    """jax.lax.broadcast_like: `arr` broadcast (NumPy's rules) to the shape of `like_arr`."""
    aval, shape = aval_of(arr), aval_of(like_arr).shape
    if broadcast_shape([aval.shape, shape], "lax.broadcast_like") != shape:
        raise ValueError(f"lax.broadcast_like: cannot broadcast shape {aval.shape} to {shape} "
                         f"(at {core.user_location_str()})")
    return _as_array(broadcast_to(arr, shape))


def broadcast_to(x, shape):
    """`x` broadcast to `shape`, which NumPy's rules allow (checked by the
    caller). A size-1 dimension that grows is dropped first: broadcast_in_dim
    maps each operand dimension to an equal result dimension."""
    aval = aval_of(x)
    lead = len(shape) - aval.ndim
    keep = [i for i, d in enumerate(aval.shape) if d == shape[lead + i]]
    if len(keep) != aval.ndim:
        x = reshape(x, [aval.shape[i] for i in keep])
    return broadcast_in_dim(x, shape, [lead + i for i in keep])


def shape_as_value(shape):
    """jax.lax.shape_as_value: a static shape as an int32 vector (mlax shapes
    are never symbolic)."""
    shape = tuple(operator.index(d) for d in shape)
    if not shape:
        return full((0,), 0, dtypes.int32)
    return np.asarray(shape, dtype=dtypes.int32)


def split(operand, sizes, axis=0):
    """jax.lax.split: `operand` cut along `axis` into pieces of `sizes`."""
    aval = aval_of(operand)
    axis = _axis("split", axis, aval.ndim)
    sizes = [operator.index(s) for s in sizes]
    if builtins.any(s < 0 for s in sizes):
        raise shape_error("lax.split", f"Sizes passed to split must be nonnegative, got {sizes}",
                          ValueError)
    if builtins.sum(sizes) != aval.shape[axis]:
        raise shape_error("lax.split", f"Sum of sizes {builtins.sum(sizes)} must be equal to "
                          f"dimension {axis} of the operand shape {aval.shape}", ValueError)
    pieces, start = [], 0
    for size in sizes:
        pieces.append(slice_in_dim(operand, start, start + size, axis=axis))
        start += size
    return pieces


def tile(operand, reps):
    """jax.lax.tile: `operand` repeated `reps[i]` times along dimension i."""
    aval = aval_of(operand)
    reps = tuple(operator.index(r) for r in reps)
    if len(reps) != aval.ndim:
        raise shape_error("lax.tile", f"reps length must be equal to the ndim of x, got "
                          f"len(reps)={len(reps)} and x.ndim={aval.ndim}")
    if builtins.any(r < 0 for r in reps):
        raise shape_error("lax.tile", f"reps must be non-negative, got {reps}", ValueError)
    # Broadcast to (r0, d0, r1, d1, ...) and merge each pair.
    interleaved = tuple(n for pair in zip(reps, aval.shape) for n in pair)
    out = broadcast_in_dim(operand, interleaved, tuple(range(1, 2 * aval.ndim, 2)))
    return _as_array(reshape(out, tuple(r * d for r, d in zip(reps, aval.shape))))


def stack(operands, axis=0):
    """jax.lax.stack: equal-shaped `operands` joined along a new `axis`."""
    avals = [aval_of(x) for x in operands]
    axis = _axis("stack", axis, avals[0].ndim + 1)  # IndexError without operands, as JAX
    if len({a.ndim for a in avals}) > 1:
        raise shape_error("lax.stack", "Cannot stack arrays with different numbers of "
                          f"dimensions: got {', '.join(str(a.shape) for a in avals)}", ValueError)
    if len({a.shape for a in avals}) > 1:
        raise shape_error("lax.stack", "All input arrays must have the same shape. Got "
                          f"{', '.join(str(a.shape) for a in avals)}", ValueError)
    if len({a.dtype for a in avals}) > 1:
        raise shape_error("lax.stack", "requires arguments to have the same dtypes, got "
                          f"{', '.join(a.dtype.name for a in avals)}")
    return _as_array(concatenate([expand_dims(x, (axis,)) for x in operands], axis))


def unstack(x, axis=0):
    """jax.lax.unstack: the slices of `x` along `axis`, as a tuple."""
    aval = aval_of(x)
    axis = _axis("unstack", axis, aval.ndim)
    return tuple(index_in_dim(x, i, axis, keepdims=False) for i in range(aval.shape[axis]))

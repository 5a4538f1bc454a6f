"""lax's indexing ops (jax/_src/lax/slicing.py): rev, dynamic_slice,
dynamic_update_slice, gather, scatter and take, and the conveniences built
from them (the *_in_dim forms, index_take, scatter_sub).

Result types come from the ops' C++ shape rules (`inferReturnTypes` in
`MlaxIndexingOps.cpp`); Python decides weak types and normalises arguments
(wrapped and clamped start indices, gather/scatter modes).
"""
from __future__ import annotations

import builtins
import collections
import enum

import numpy as np
from mlir import ir

from mlax._src.base import dtypes
from mlax._src.core.primitives import Primitive, _ops, aval_of, bind, shape_error

from mlax._src.lax.elementwise import (
    _check_kind, _i64, _i64_array, add, bitwise_and, convert_element_type, ge, le, lt, max,
    min, rem, select, sub)
from mlax._src.lax.reductions import reduce_and
from mlax._src.lax.shape import (
    broadcast_in_dim, concatenate, expand_dims, full_like, reshape, slice)


_rev_p = Primitive(
    "rev",
    lambda v, a, *, dimensions: _ops().ReverseOp(v[0], _i64_array(dimensions)).result)


def rev(operand, dimensions):
    """Reverses `operand` along `dimensions` (jax.lax.rev)."""
    dims = tuple(int(d) for d in dimensions)
    if not dims:
        return operand
    return bind(_rev_p, operand, dimensions=dims)


_dynamic_slice_p = Primitive(
    "dynamic_slice",
    lambda v, a, *, slice_sizes: _ops().DynamicSliceOp(v[0], v[1:],
                                                       _i64_array(slice_sizes)).result,
    weak_type=lambda x, *starts, slice_sizes: x.weak_type)


_dus_p = Primitive(
    "dynamic_update_slice",
    lambda v, a: _ops().DynamicUpdateSliceOp(v[0], v[1], v[2:]).result,
    weak_type=lambda x, update, *starts: x.weak_type and update.weak_type)


def _start_indices(name, operand_shape, start_indices):
    """Start indices as int32 scalars, negative ones wrapped once (as jax.lax)."""
    if isinstance(start_indices, (list, tuple)):
        starts = list(start_indices)
    else:
        aval = aval_of(start_indices)
        if aval.ndim != 1:
            raise shape_error(name, f"start_indices must be a sequence of scalars or a 1-D "
                              f"array, got shape {aval.shape}")
        starts = [index_in_dim_static(start_indices, i) for i in range(aval.shape[0])]
    if len(starts) != len(operand_shape):
        raise shape_error(name, f"needs one start index per dimension of shape "
                          f"{operand_shape}, got {len(starts)}", ValueError)  # (JAX's class)
    out = []
    for s, d in zip(starts, operand_shape):
        if isinstance(s, (int, np.integer)) and not isinstance(s, bool):
            s = builtins.max(builtins.min(int(s), d), -d)  # the same clamped result
            out.append(np.int32(s + d if s < 0 else s))
            continue
        aval = aval_of(s)
        if aval.shape != () or not dtypes.is_int(aval.dtype):
            raise shape_error(name, f"start indices must be integer scalars, got "
                              f"{aval.str_short()}")
        if aval.dtype != dtypes.int32:
            s = convert_element_type(s, dtypes.int32)
        if not dtypes.is_unsigned(aval.dtype):
            s = select(lt(s, full_like(s, 0)), add(s, full_like(s, d)), s)
        out.append(s)
    return out


def index_in_dim_static(x, i):
    """x[i] along axis 0 of a 1-D array, as a scalar (a static slice)."""
    return reshape(slice(x, (i,), (i + 1,)), ())


def dynamic_slice(operand, start_indices, slice_sizes):
    """A `slice_sizes` block of `operand` at `start_indices`, which may be traced;
    negative starts wrap once and every start is clamped so that the block fits
    (jax.lax.dynamic_slice)."""
    aval = aval_of(operand)
    sizes = tuple(int(s) for s in slice_sizes)
    starts = _start_indices("lax.dynamic_slice", aval.shape, start_indices)
    return bind(_dynamic_slice_p, operand, *starts, slice_sizes=sizes)


def dynamic_update_slice(operand, update, start_indices):
    """`operand` with `update` written at `start_indices` (wrapped once, then
    clamped so that it fits), as jax.lax.dynamic_update_slice."""
    aval = aval_of(operand)
    starts = _start_indices("lax.dynamic_update_slice", aval.shape, start_indices)
    return bind(_dus_p, operand, update, *starts)


def dynamic_slice_in_dim(operand, start_index, slice_size=1, axis=0):
    aval = aval_of(operand)
    axis = int(axis) % builtins.max(aval.ndim, 1)
    starts = [0] * aval.ndim
    starts[axis] = start_index
    sizes = list(aval.shape)
    sizes[axis] = int(slice_size)
    return dynamic_slice(operand, starts, sizes)


def dynamic_index_in_dim(operand, index, axis=0, keepdims=True):
    out = dynamic_slice_in_dim(operand, index, 1, axis)
    if keepdims:
        return out
    shape = list(aval_of(out).shape)
    del shape[int(axis) % len(shape)]
    return reshape(out, shape)


def dynamic_update_slice_in_dim(operand, update, start_index, axis):
    aval = aval_of(operand)
    starts = [0] * aval.ndim
    starts[int(axis) % aval.ndim] = start_index
    return dynamic_update_slice(operand, update, starts)


def dynamic_update_index_in_dim(operand, update, index, axis, *, allow_negative_indices=True):
    """jax.lax.dynamic_update_index_in_dim: `update` (with or without the
    size-1 `axis`) written at `index` along `axis`. Negative indices always
    count from the end (JAX leaves them undefined without
    allow_negative_indices)."""
    aval, uaval = aval_of(operand), aval_of(update)
    axis = int(axis)
    if uaval.ndim != aval.ndim:
        if uaval.ndim + 1 != aval.ndim:
            raise shape_error("lax.dynamic_update_index_in_dim",
                              f"update of shape {uaval.shape} needs rank {aval.ndim} or "
                              f"{aval.ndim - 1} for an operand of shape {aval.shape}")
        update = expand_dims(update, (axis,))
    return dynamic_update_slice_in_dim(operand, update, index, axis)


class GatherDimensionNumbers(collections.namedtuple(
        "GatherDimensionNumbers", ["offset_dims", "collapsed_slice_dims", "start_index_map",
                                   "operand_batching_dims", "start_indices_batching_dims"],
        defaults=((), ()))):
    """What each dimension of a gather means (jax.lax.GatherDimensionNumbers);
    the index vector is the last dimension of the start indices."""


class ScatterDimensionNumbers(collections.namedtuple(
        "ScatterDimensionNumbers", ["update_window_dims", "inserted_window_dims",
                                    "scatter_dims_to_operand_dims", "operand_batching_dims",
                                    "scatter_indices_batching_dims"],
        defaults=((), ()))):
    """What each dimension of a scatter means (jax.lax.ScatterDimensionNumbers);
    the index vector is the last dimension of the scatter indices."""


class GatherScatterMode(enum.Enum):
    CLIP = 0
    FILL_OR_DROP = 1
    PROMISE_IN_BOUNDS = 2


def _tuple(dims):
    return tuple(int(d) for d in dims)


def _unit(flag):
    return ir.UnitAttr.get() if flag else None


def _gather_emit(values, avals, *, offset_dims, collapsed_slice_dims, operand_batching_dims,
                 start_indices_batching_dims, start_index_map, slice_sizes,
                 indices_are_sorted):
    return _ops().GatherOp(
        values[0], values[1], _i64_array(offset_dims),
        _i64_array(collapsed_slice_dims), _i64_array(operand_batching_dims),
        _i64_array(start_indices_batching_dims), _i64_array(start_index_map),
        _i64(avals[1].ndim - 1), _i64_array(slice_sizes),
        indices_are_sorted=_unit(indices_are_sorted)).result


_gather_p = Primitive("gather", _gather_emit,
                      weak_type=lambda x, idx, **params: x.weak_type)


_MODE_ALIASES = {"CLIP": "CLIP", "FILL": "FILL_OR_DROP", "DROP": "FILL_OR_DROP",
                 "FILL_OR_DROP": "FILL_OR_DROP", "PROMISE_IN_BOUNDS": "PROMISE_IN_BOUNDS",
                 "ONE_HOT": "ONE_HOT"}


def _check_mode(name, mode, allowed):
    """The name of a gather/scatter mode (None for None), as JAX's
    GatherScatterMode.from_any reads it: 'clip', 'fill' / 'drop',
    'promise_in_bounds', or a GatherScatterMode (mlax's or JAX's)."""
    if mode is None:
        return None
    raw = mode if isinstance(mode, str) else getattr(mode, "name", None)
    key = _MODE_ALIASES.get(str(raw).upper()) if raw is not None else None
    if key is None:
        raise ValueError(f"{name}: unknown mode {mode!r}; use 'clip', 'fill' (or 'drop') or "
                         f"'promise_in_bounds'")
    if key not in allowed:
        raise NotImplementedError(f"{name}: mode={mode!r} is not supported; mlax supports "
                                  f"{', '.join(sorted(allowed)).lower()}")
    return key


def gather_fill_value(dtype, fill_value=None):
    """JAX's default fill of mode 'fill': NaN for inexact dtypes, the minimum
    of signed integers, the maximum of unsigned ones, True for bool."""
    if fill_value is not None:
        return fill_value
    dtype = np.dtype(dtype)
    if dtypes.is_inexact(dtype):
        return np.nan
    if dtypes.is_bool(dtype):
        return True
    return dtypes.iinfo(dtype).max if dtypes.is_unsigned(dtype) else dtypes.iinfo(dtype).min


def gather(operand, start_indices, dimension_numbers, slice_sizes, *, unique_indices=False,
           indices_are_sorted=False, mode=None, fill_value=None):
    """jax.lax.gather. Modes as JAX's: 'promise_in_bounds' (the default:
    out-of-bounds starts are clamped, as XLA does), 'clip' (starts clamped
    first, so the gradient goes to the clamped windows), 'fill' (windows
    whose start is out of bounds are `fill_value`: NaN for inexact dtypes,
    the minimum of signed ints, the maximum of unsigned ones, True for bool;
    they get no gradient). The gradient of an unclamped gather drops the
    windows of out-of-bounds starts."""
    key = _check_mode("lax.gather", mode, {"CLIP", "PROMISE_IN_BOUNDS", "FILL_OR_DROP"})
    dn = GatherDimensionNumbers(*dimension_numbers)
    if key == "CLIP":
        start_indices = _clamp_starts(operand, start_indices, dn.start_index_map, slice_sizes)
    out = bind(_gather_p, operand, start_indices, offset_dims=_tuple(dn.offset_dims),
               collapsed_slice_dims=_tuple(dn.collapsed_slice_dims),
               operand_batching_dims=_tuple(dn.operand_batching_dims),
               start_indices_batching_dims=_tuple(dn.start_indices_batching_dims),
               start_index_map=_tuple(dn.start_index_map),
               slice_sizes=_tuple(slice_sizes), indices_are_sorted=bool(indices_are_sorted))
    if key == "FILL_OR_DROP":
        out = _gather_fill(out, operand, start_indices, dn, slice_sizes, fill_value)
    return out


def _gather_fill(out, operand, start_indices, dn, slice_sizes, fill_value):
    """`out` (the gather) with the windows whose start is out of bounds
    (not in [0, size - slice size] in some indexed dimension) replaced by
    the fill value, as JAX's _gather_fill: a mask from the indices, then a
    select, so grad and vmap come from those ops."""
    x, idx, o = aval_of(operand), aval_of(start_indices), aval_of(out)
    dims = [int(d) for d in dn.start_index_map]
    dt = np.dtype(idx.dtype)
    bounds = np.array([x.shape[d] - int(slice_sizes[d]) for d in dims], np.int64)
    bounds = np.minimum(bounds, dtypes.iinfo(dt).max).astype(dt)
    upper = broadcast_in_dim(bounds, idx.shape, (idx.ndim - 1,))
    ok = le(start_indices, upper)
    if not dtypes.is_unsigned(dt):
        ok = bitwise_and(ok, ge(start_indices, broadcast_in_dim(np.zeros((), dt), idx.shape,
                                                                ())))
    mask = reduce_and(ok, (idx.ndim - 1,))
    offset = set(int(d) for d in dn.offset_dims)
    batch_dims = tuple(d for d in range(o.ndim) if d not in offset)
    mask = broadcast_in_dim(mask, o.shape, batch_dims)
    fill = gather_fill_value(o.dtype, fill_value)
    if isinstance(fill, (np.ndarray, np.generic)) and np.ndim(fill) == 0:
        fill = fill.item()
    return select(mask, out, full_like(out, fill))


def _clamp_starts(operand, start_indices, start_index_map, slice_sizes):
    """The start indices clamped into [0, size - slice size] (JAX's mode
    'clip'), or as they are where the shapes are invalid (the gather's shape
    rule then names the error)."""
    try:
        x, idx = aval_of(operand), aval_of(start_indices)
        dims = [int(d) for d in start_index_map]
        sizes = [int(s) for s in slice_sizes]
        ok = (dtypes.is_int(idx.dtype) and idx.ndim >= 1 and len(dims) == idx.shape[-1]
              and len(sizes) == x.ndim and builtins.all(0 <= d < x.ndim for d in dims))
        bounds = [x.shape[d] - sizes[d] for d in dims] if ok else []
    except (TypeError, ValueError):
        return start_indices
    if not ok or not dims or builtins.any(b < 0 for b in bounds):
        return start_indices
    dt = np.dtype(idx.dtype)
    bounds = np.minimum(np.array(bounds, np.int64), dtypes.iinfo(dt).max).astype(dt)
    upper = broadcast_in_dim(bounds, idx.shape, (idx.ndim - 1,))
    lower = broadcast_in_dim(np.zeros((), dt), idx.shape, ())
    return min(max(start_indices, lower), upper)


_COMBINERS = {"set": 0, "add": 1, "mul": 2, "min": 3, "max": 4}


def _scatter_emit(values, avals, *, combiner, update_window_dims, inserted_window_dims,
                  operand_batching_dims, scatter_indices_batching_dims,
                  scatter_dims_to_operand_dims, indices_are_sorted, unique_indices):
    attr = ir.IntegerAttr.get(ir.IntegerType.get_signless(32), _COMBINERS[combiner])
    return _ops().ScatterOp(
        attr, values[0], values[1], values[2], _i64_array(update_window_dims),
        _i64_array(inserted_window_dims), _i64_array(operand_batching_dims),
        _i64_array(scatter_indices_batching_dims), _i64_array(scatter_dims_to_operand_dims),
        _i64(avals[1].ndim - 1), indices_are_sorted=_unit(indices_are_sorted),
        unique_indices=_unit(unique_indices)).result


_scatter_p = Primitive(
    "scatter", _scatter_emit,
    weak_type=lambda x, idx, upd, **params: x.weak_type and upd.weak_type,
    label=lambda params: "lax.scatter" + ("" if params["combiner"] == "set"
                                          else "_" + params["combiner"]))


def _scatter(combiner):
    def fn(operand, scatter_indices, updates, dimension_numbers, *, indices_are_sorted=False,
           unique_indices=False, mode=None):
        key = _check_mode(f"lax.{fn.__name__}", mode,
                          {"FILL_OR_DROP", "PROMISE_IN_BOUNDS", "CLIP"})
        dn = ScatterDimensionNumbers(*dimension_numbers)
        if key == "CLIP":
            scatter_indices = _clamp_scatter_indices(operand, scatter_indices, updates, dn)
        if combiner in ("min", "max") and dtypes.is_complex(aval_of(operand).dtype) \
                and dtypes.is_complex(aval_of(updates).dtype):
            return _complex_scatter_extreme(fn, operand, scatter_indices, updates, dn,
                                            combiner)
        return bind(_scatter_p, operand, scatter_indices, updates, combiner=combiner,
                    update_window_dims=_tuple(dn.update_window_dims),
                    inserted_window_dims=_tuple(dn.inserted_window_dims),
                    operand_batching_dims=_tuple(dn.operand_batching_dims),
                    scatter_indices_batching_dims=_tuple(dn.scatter_indices_batching_dims),
                    scatter_dims_to_operand_dims=_tuple(dn.scatter_dims_to_operand_dims),
                    indices_are_sorted=bool(indices_are_sorted),
                    unique_indices=bool(unique_indices))

    fn.__name__ = "scatter" if combiner == "set" else f"scatter_{combiner}"
    fn.__doc__ = (f"jax.lax.{fn.__name__}: updates whose window does not fit are dropped "
                  "(modes 'fill'/'drop', the default, and 'promise_in_bounds'); mode 'clip' "
                  "clamps the indices so that every window fits.")
    return fn


def _window_sizes(operand, updates, dn):
    """The size of a scatter's update window along each operand dimension."""
    x, upd = aval_of(operand), aval_of(updates)
    window = iter(int(d) for d in dn.update_window_dims)
    return [1 if (d in dn.inserted_window_dims or d in dn.operand_batching_dims)
            else upd.shape[next(window)] for d in range(x.ndim)]


def _complex_scatter_extreme(scatter_fn, operand, indices, updates, dn, combiner):
    """scatter_max / scatter_min of complex values, ordered by real part,
    then imaginary part (as JAX's; XLA's own complex max / min are not
    that order): the extreme real part first, then, among the values that
    have it (the updates' found by gathering it back through the same
    indices), the extreme imaginary part."""
    from mlax._src.lax.elementwise import complex as lax_complex, eq, imag, real

    worst = np.inf if combiner == "min" else -np.inf
    re = scatter_fn(real(operand), indices, real(updates), dn, mode="drop")
    re_at = gather(re, indices, GatherDimensionNumbers(
        offset_dims=dn.update_window_dims, collapsed_slice_dims=dn.inserted_window_dims,
        start_index_map=dn.scatter_dims_to_operand_dims,
        operand_batching_dims=dn.operand_batching_dims,
        start_indices_batching_dims=dn.scatter_indices_batching_dims),
        _window_sizes(operand, updates, dn), mode="clip")
    im_x = select(eq(real(operand), re), imag(operand), full_like(re, worst))
    im_u = select(eq(real(updates), re_at), imag(updates), full_like(re_at, worst))
    return lax_complex(re, scatter_fn(im_x, indices, im_u, dn, mode="drop"))


def _clamp_scatter_indices(operand, scatter_indices, updates, dn):
    """JAX's _clamp_scatter_indices: the indices clamped so that each update
    window fits (the window size along inserted and batching dimensions is 1)."""
    try:
        sizes = _window_sizes(operand, updates, dn)
    except (TypeError, ValueError, IndexError, StopIteration):
        return scatter_indices  # malformed: the scatter's shape rule names the error
    return _clamp_starts(operand, scatter_indices, dn.scatter_dims_to_operand_dims, sizes)


scatter = _scatter("set")
scatter_add = _scatter("add")
scatter_mul = _scatter("mul")
scatter_min = _scatter("min")
scatter_max = _scatter("max")


_take_p = Primitive(
    "take",
    lambda v, a, *, axis: _ops().TakeOp(v[0], v[1], _i64(axis)).result,
    weak_type=lambda x, indices, *, axis: x.weak_type, label=lambda params: "take")


def take(x, indices, axis):
    """x's slices at `indices` along `axis` (out-of-range indices clamp), as
    jnp.take for in-range indices. Private to mlax for now (no jax.lax twin)."""
    aval = aval_of(x)
    if not 0 <= axis < aval.ndim:
        raise ValueError(f"take: axis {axis} is out of range for rank {aval.ndim}")
    return bind(_take_p, x, indices, axis=int(axis))


def index_take(src, idxs, axes):
    """jax.lax.index_take: src[idxs[0], idxs[1], ...] over `axes`, the
    indices taken modulo each axis' size (Python's sign convention)."""
    aval = aval_of(src)
    axes = tuple(int(a) for a in axes)
    indices = concatenate([expand_dims(i, (1,)) for i in idxs], 1)
    iaval = aval_of(indices)
    sizes = np.broadcast_to(np.array([aval.shape[a] for a in axes], iaval.dtype), iaval.shape)
    sizes = convert_element_type(sizes, iaval.dtype)
    r = rem(indices, sizes)
    indices = select(lt(r, full_like(r, 0)), add(r, sizes), r)
    slice_sizes = list(aval.shape)
    for a in axes:
        slice_sizes[a] = 1
    dnums = GatherDimensionNumbers(
        offset_dims=tuple(range(1, aval.ndim - iaval.shape[1] + 1)),
        collapsed_slice_dims=axes, start_index_map=axes)
    return gather(src, indices, dimension_numbers=dnums, slice_sizes=tuple(slice_sizes))


def scatter_sub(operand, scatter_indices, updates, dimension_numbers, *,
                indices_are_sorted=False, unique_indices=False, mode=None):
    """jax.lax.scatter_sub: scatter_add of the negated updates (0 - u, which
    wraps for unsigned integers as the subtraction does)."""
    _check_kind("scatter_sub", "number", aval_of(updates))
    return scatter_add(operand, scatter_indices, sub(full_like(updates, 0), updates),
                       dimension_numbers, indices_are_sorted=indices_are_sorted,
                       unique_indices=unique_indices, mode=mode)

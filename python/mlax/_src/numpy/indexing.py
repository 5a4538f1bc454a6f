"""NumPy indexing of mlax arrays and tracers: `x[idx]` and `x.at[idx]`.

As in JAX:

* static ints, slices (any step, negative ones through `lax.rev`), `None`
  and `...` become `slice`/`rev`/`reshape`;
* traced integer scalars become a `dynamic_slice`;
* integer arrays (lists, NumPy arrays, mlax arrays, tracers) become a
  `gather`, with NumPy's rules for where the broadcast index dimensions go;
* boolean masks work on concrete values (they become integer arrays through
  `nonzero`); a traced mask raises `NonConcreteBooleanIndexError`;
* negative indices wrap once; out-of-bounds array indices are clamped when
  reading and dropped when writing (`x.at[idx].set(...)` is one `scatter`).
"""
from __future__ import annotations

import builtins

import numpy as np

from mlax._src.core import dslice
from mlax._src.core import tracer as core
from mlax._src.base import dtypes
from mlax._src.base import errors
from mlax._src.lax import lax
from mlax._src.lax import shape as lax_shape
from mlax._src.lax import scatter_apply as scatter_apply_lib
from mlax._src.core.array import Array
from mlax._src.core.tracer import Tracer
from mlax._src.core.primitives import aval_of
from mlax._src.numpy import lax_numpy as mnp
from mlax._src.numpy import ufuncs

_NONE, _SLICE, _INT, _ARRAY = "none", "slice", "int", "array"

_VALID = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and "
          "integer or boolean arrays are valid indices")


def _index_error(message):
    return IndexError(f"{message} (at {core.user_location_str()})")


def _is_scalar_bool(i):
    return isinstance(i, (bool, np.bool_)) or (
        isinstance(i, np.ndarray) and i.ndim == 0 and i.dtype == np.bool_)


def _is_static_int(i):
    return isinstance(i, (int, np.integer)) and not isinstance(i, (bool, np.bool_))


def _classify(i):
    """One index element as a list of (kind, value) entries (a boolean mask
    becomes one integer array per mask dimension)."""
    if i is None:
        return [(_NONE, None)]
    if i is Ellipsis:
        return [(Ellipsis, None)]
    if isinstance(i, builtins.slice):
        return [(_SLICE, i)]
    if isinstance(i, (bool, np.bool_)):
        raise _index_error("mlax: a boolean scalar index is not supported; use None "
                           "(numpy.newaxis) to add an axis")
    if _is_static_int(i):
        return [(_INT, int(i))]
    if isinstance(i, (list, tuple)):
        if builtins.any(isinstance(e, (Tracer, Array)) for e in mnp._flat(i)):
            i = mnp.array(i)
        else:
            try:
                i = np.asarray(i)
            except ValueError as e:
                raise _index_error(f"{_VALID}; got a ragged sequence ({e})") from None
            if i.size == 0:
                i = i.astype(np.int32)  # [] indexes nothing, as in NumPy
    if isinstance(i, Tracer) and dtypes.is_bool(i.dtype):
        # A mask whose value is known (an eager transformation) picks its
        # elements as a NumPy mask would, as JAX's does.
        i = core.concretize(i)
    if isinstance(i, Tracer):
        if dtypes.is_bool(i.dtype):
            raise errors.non_concrete_boolean_index(i)
        if not dtypes.is_int(i.dtype):
            raise _indexer_type_error(i.dtype)
        return [(_ARRAY, i)]
    if isinstance(i, Array) or isinstance(i, (np.ndarray, np.generic)) or hasattr(
            i, "__jax_array__") or type(i).__module__.startswith("jax"):
        dt = np.dtype(i.dtype)
        if dt == np.bool_:
            mask = np.asarray(i)
            if mask.ndim == 0:
                raise _index_error("mlax: a boolean scalar index is not supported; use None "
                                   "(numpy.newaxis) to add an axis")
            return [(_ARRAY, np.asarray(nz, np.int32)) for nz in np.nonzero(mask)] + [
                ("mask", mask.shape)]
        if not (np.issubdtype(dt, np.integer)):
            raise _indexer_type_error(dt)
        if np.ndim(i) == 0:
            return [(_INT, int(np.asarray(i)))]
        return [(_ARRAY, i if isinstance(i, Array) else np.asarray(i))]
    if isinstance(i, str):
        raise TypeError(f"JAX does not support string indexing; got idx={i!r} "
                        f"(at {core.user_location_str()})")
    if isinstance(i, (float, complex)):
        raise _indexer_type_error(np.dtype(type(i)))
    raise _index_error(f"{_VALID}; got {type(i).__name__} {i!r}")


def _indexer_type_error(dtype):
    # (JAX's class and words: a float or complex index is a type error)
    return TypeError(f"Indexer must have integer or boolean type, got indexer with type "
                     f"{np.dtype(dtype).name} (at {core.user_location_str()})")


def _entries(shape, index, *, static_ints_in_bounds=True):
    """The index as one entry per output-shaping element: ('none',),
    ('slice', (start, stop, step, n), dim), ('int', k, dim), ('array', a, dim),
    with `...` expanded and missing trailing dimensions filled with `:`."""
    if isinstance(index, list):
        raise TypeError("Using a non-tuple sequence for multidimensional indexing is not "
                        "allowed; use `arr[array(seq)]` instead of `arr[seq]` (as in JAX) "
                        f"(at {core.user_location_str()})")
    if not isinstance(index, tuple):
        index = (index,)
    raw = []
    for i in index:
        parts = _classify(i)
        if parts and parts[-1][0] == "mask":
            mask_shape = parts.pop()[1]
            raw.append(("maskgroup", parts, mask_shape))
        else:
            raw.extend(parts)
    n_ellipsis = builtins.sum(1 for r in raw if r[0] is Ellipsis)
    if n_ellipsis > 1:
        raise _index_error("an index can only have a single ellipsis ('...')")
    n_real = builtins.sum(len(r[1]) if r[0] == "maskgroup" else 1 for r in raw
                          if r[0] not in (_NONE, Ellipsis))
    ndim = len(shape)
    if n_real > ndim:
        raise _index_error(f"too many indices for array: array is {ndim}-dimensional, but "
                           f"{n_real} were indexed")
    fill = [(_SLICE, builtins.slice(None))] * (ndim - n_real)
    if n_ellipsis:
        k = next(j for j, r in enumerate(raw) if r[0] is Ellipsis)
        raw = raw[:k] + fill + raw[k + 1:]
    else:
        raw = raw + fill
    out, dim = [], 0
    for r in raw:
        kind = r[0]
        if kind == _NONE:
            out.append((_NONE,))
            continue
        if kind == "maskgroup":
            parts, mask_shape = r[1], r[2]
            for j, m in enumerate(mask_shape):
                if shape[dim + j] != m:
                    raise _index_error(
                        f"boolean index did not match indexed array along axis {dim + j}; "
                        f"size of axis is {shape[dim + j]} but size of corresponding "
                        f"boolean axis is {m}")
            for p in parts:
                out.append((_ARRAY, p[1], dim))
                dim += 1
            continue
        size = shape[dim]
        if kind == _SLICE:
            try:
                start, stop, step = r[1].indices(size)
            except errors.TracerIntegerConversionError:
                # (a bound whose value is known reads it; an abstract one is
                # JAX's IndexError)
                raise _index_error(f"Slice entries must be static integers. Got {r[1]} at "
                                   f"position {dim}") from None
            n = len(range(start, stop, step))
            out.append((_SLICE, (start, stop, step, n), dim))
        elif kind == _INT:
            k = r[1]
            if static_ints_in_bounds:
                if size == 0:
                    raise _index_error(f"index {k} is out of bounds for axis {dim} with size 0")
                # As jax 0.10: a negative index wraps once, then an out-of-bounds
                # one is clamped (x[7] of 5 elements is x[4]), statically.
                k = k + size if k < 0 else k
                out.append((_INT, builtins.min(builtins.max(k, 0), size - 1), dim))
            else:
                if size == 0:  # as JAX: nothing to clamp or drop to
                    raise _index_error(f"index is out of bounds for axis {dim} with size 0")
                # Clipped so that it fits int32 and stays out of bounds if it was.
                out.append((_ARRAY, np.int32(builtins.min(builtins.max(k, -size - 1), size)),
                            dim))
        else:
            out.append((_ARRAY, r[1], dim))
        dim += 1
    return out


def _ds_split(index, shape):
    """An index with mlax.ds Slices as (the starts and sizes of the window of
    its unit-stride Slices, its strided Slice (dim, start, size, stride) or
    None, the index on that window, each Slice a `:`). JAX's semantics: a
    unit-stride Slice is a dynamic_slice's window (its start wrapped once if
    negative, then clamped to fit); a strided one the integer indices
    start, start+stride, ... (clamped when read, dropped when written)."""
    parts = index if isinstance(index, tuple) else (index,)

    def dims_of(i):
        if i is None or i is Ellipsis:
            return 0
        if isinstance(i, (np.ndarray, Array, Tracer)) and np.dtype(i.dtype) == np.bool_:
            return builtins.max(np.ndim(i), 1)
        return 1
    ndim = len(shape)
    n_real = builtins.sum(dims_of(i) for i in parts)
    if n_real > ndim:
        raise _index_error(f"too many indices for array: array is {ndim}-dimensional, but "
                           f"{n_real} were indexed")
    starts, sizes, strided, rest, dim = [0] * ndim, list(shape), None, [], 0
    for i in parts:
        if i is Ellipsis:
            dim += ndim - n_real
        elif isinstance(i, dslice.Slice):
            if i.is_dynamic_size:
                raise TypeError(f"mlax.ds: the size of a slice must be a static integer, "
                                f"got {i.size!r}")
            if i.stride > 1 and i.size > 1:
                if strided is not None:
                    raise NotImplementedError("mlax.ds: one strided Slice per index")
                strided = (dim, i.start, i.size, i.stride)
            else:
                if i.size > shape[dim]:
                    raise _index_error(f"mlax.ds: a slice of size {i.size} does not fit in "
                                       f"axis {dim} of size {shape[dim]}")
                starts[dim], sizes[dim] = i.start, i.size
            i = builtins.slice(None)
        rest.append(i)
        dim += dims_of(i)
    return starts, sizes, strided, tuple(rest)


def _strided_indices(start, n, stride, size, clamp):
    """The int32 indices start + stride * k (k < n) of a strided Slice along
    an axis of `size`: clamped into it, or those outside it (negative
    ones too) moved past its end, where a scatter drops them."""
    if _is_static_int(start):
        idx = np.arange(n, dtype=np.int64) * stride + int(start)
        return (np.clip(idx, 0, size - 1) if clamp else np.where(idx < 0, size, idx)
                ).astype(np.int32)
    start = lax.convert_element_type(start, np.int32)
    idx = ufuncs.add(ufuncs.multiply(lax.iota(np.int32, n), np.int32(stride)), start)
    if clamp:
        return ufuncs.minimum(ufuncs.maximum(idx, np.int32(0)), np.int32(size - 1))
    return mnp.where(ufuncs.less(idx, 0), np.int32(size), idx)


def _ds_update(x, shape, index, values, combiner, indices_are_sorted, unique_indices, mode):
    """`x.at[index]` updated where `index` has mlax.ds Slices: the window of
    the unit-stride ones updated and put back (mode 'clip', a Ref's write:
    clamped to fit, as dynamic_update_slice; otherwise, as JAX's scatter,
    dropped unless it fits); a strided Slice's elements updated through a
    gather and a scatter that drops those out of bounds."""
    starts, sizes, strided, rest = _ds_split(index, shape)
    windowed = sizes != list(shape)
    w = lax.dynamic_slice(x, starts, sizes) if windowed else x
    if strided is None:
        w = _scatter_update(w, rest, values, combiner, indices_are_sorted, unique_indices, mode)
    else:
        d, first, n, stride = strided
        pre = (builtins.slice(None),) * d
        part = getitem(w, pre + (_strided_indices(first, n, stride, shape[d], clamp=True),))
        part = _scatter_update(part, rest, values, combiner, indices_are_sorted,
                               unique_indices, mode)
        w = _scatter_update(w, pre + (_strided_indices(first, n, stride, shape[d], False),),
                            part, "set", indices_are_sorted, unique_indices, None)
    if not windowed:
        return w
    new = lax.dynamic_update_slice(x, w, starts)
    if mode == "CLIP":
        return new
    fits = True
    for s, n, size in zip(starts, sizes, shape):
        if n == size:
            continue
        if _is_static_int(s):
            s = s + size if s < 0 else s
            fits = fits and (0 <= s and s + n <= size) if fits is True or fits is False \
                else ufuncs.logical_and(fits, 0 <= s and s + n <= size)
            continue
        s = lax.convert_element_type(s, np.int32)
        s = mnp.where(ufuncs.less(s, 0), ufuncs.add(s, np.int32(size)), s)
        ok = ufuncs.logical_and(ufuncs.greater_equal(s, 0),
                                ufuncs.less_equal(s, np.int32(size - n)))
        fits = ok if fits is True else (fits if fits is False else
                                        ufuncs.logical_and(fits, ok))
    if fits is True:
        return new
    if fits is False:
        return x
    return mnp.where(fits, new, x)


def _apply_slices(x, entries):
    """`x` with every slice entry applied (static slice + rev for negative
    steps); other dimensions are kept whole."""
    shape = aval_of(x).shape
    rev_dims, starts, limits, strides = [], [], [], []
    for d, size in enumerate(shape):
        e = next((e for e in entries if e[0] == _SLICE and e[2] == d), None)
        if e is None:
            starts.append(0), limits.append(size), strides.append(1)
            continue
        start, stop, step, n = e[1]
        if step < 0:
            rev_dims.append(d)
            start, step = size - 1 - start, -step
        if n == 0:
            starts.append(0), limits.append(0), strides.append(1)
        else:
            starts.append(start), limits.append(start + (n - 1) * step + 1)
            strides.append(step)
    x = lax.rev(x, rev_dims)
    if (tuple(starts), tuple(limits), tuple(strides)) != ((0,) * len(shape), shape,
                                                          (1,) * len(shape)):
        x = lax.slice(x, starts, limits, strides)
    return x


def _as_index_array(a, size):
    """An integer index as an int32 array (or scalar), negative entries
    wrapped once by `size`."""
    if isinstance(a, (np.ndarray, np.generic)):
        a = np.asarray(a)
        if a.size and (a.max() > np.iinfo(np.int32).max or a.min() < np.iinfo(np.int32).min):
            a = np.clip(a, -size - 1, size)
        a = a.astype(np.int32)
        return np.where(a < 0, a + size, a).astype(np.int32)
    aval = aval_of(a)
    if aval.dtype != dtypes.int32:
        a = lax.convert_element_type(a, dtypes.int32)
    if dtypes.is_unsigned(aval.dtype):
        return a
    return mnp.where(ufuncs.less(a, 0), ufuncs.add(a, np.int32(size)), a)


def _advanced_layout(entries):
    """Where the broadcast advanced-index dimensions go: at the first
    advanced entry if the advanced entries are adjacent (NumPy's rule),
    else in front."""
    positions = [j for j, e in enumerate(entries) if e[0] in (_ARRAY, _INT)]
    contiguous = positions == list(range(positions[0], positions[-1] + 1))
    return positions, contiguous


def getitem(x, index, mode=None, fill_value=None):
    """x[index]; `mode` 'clip' (from .at[].get) clamps array indices before
    gathering, so the gradient goes to the clamped elements, as in JAX;
    mode 'fill' gives `fill_value` (lax.gather's default fill when None)
    where an index (after negative ones wrap once) is out of bounds."""
    aval = aval_of(x)
    if dslice.has_slices(index):  # mlax.ds (see _ds_split)
        starts, sizes, strided, rest = _ds_split(index, aval.shape)
        if sizes != list(aval.shape):
            x = lax.dynamic_slice(x, starts, sizes)
        if strided is not None:
            d, first, n, stride = strided
            x = getitem(x, (builtins.slice(None),) * d + (
                _strided_indices(first, n, stride, aval.shape[d], clamp=True),))
        return getitem(x, rest, mode, fill_value)
    parts = index if isinstance(index, tuple) else (index,)
    if builtins.any(_is_scalar_bool(i) for i in parts):
        return _scalar_bool_getitem(x, parts, mode, fill_value)
    if mode is not None and lax._check_mode(".at[...].get", mode, {
            "CLIP", "PROMISE_IN_BOUNDS", "FILL_OR_DROP"}) == "FILL_OR_DROP":
        # Every integer index (static ones too: out of bounds is allowed)
        # goes through the gather, whose mode 'fill' masks the result.
        entries = _entries(aval.shape, index, static_ints_in_bounds=False)
        if not builtins.any(e[0] == _ARRAY for e in entries):
            return _static_getitem(x, entries)
        return _gather_getitem(x, entries, "fill", fill_value)
    entries = _entries(aval.shape, index)
    if not builtins.any(e[0] == _ARRAY for e in entries):
        return _static_getitem(x, entries)
    adv = [e for e in entries if e[0] in (_ARRAY, _INT)]
    if builtins.all(np.ndim(e[1]) == 0 if e[0] == _ARRAY else True for e in adv):
        return _dynamic_scalar_getitem(x, entries)
    return _gather_getitem(x, entries, mode)


def _consumed(i):
    """How many dimensions of the array an index element consumes (`...`
    aside; a scalar boolean consumes none: it indexes a new axis)."""
    if i is None or _is_scalar_bool(i):
        return 0
    if isinstance(i, builtins.slice):
        return 1
    if isinstance(i, (list, tuple)):
        try:
            a = np.asarray(i)
        except ValueError:
            return 1
        return a.ndim if a.dtype == np.bool_ else 1
    dt = getattr(i, "dtype", None)
    if dt is not None and np.dtype(dt) == np.bool_:
        return np.ndim(i)
    return 1


def _expand_scalar_bools(ndim, parts):
    """A scalar boolean index is an integer array index arange(1) (True) or
    arange(0) (False) of a new axis of length 1 inserted where it stands,
    as in JAX (and NumPy): it broadcasts with the other advanced indices.
    Returns the new axes' positions and the index with the booleans
    replaced. (JAX inserts the axis at the boolean's position in the index
    tuple, counting `None`s, so that x[None, True] drops all but x[0]; the
    axis here goes where the boolean stands among x's dimensions, as
    NumPy's x[None, True] and JAX's own x[None][:, True].)"""
    n_real = builtins.sum(_consumed(i) for i in parts if i is not Ellipsis)
    dims, new, dim = [], [], 0
    for i in parts:
        if _is_scalar_bool(i):
            dims.append(dim + len(dims))
            new.append(np.arange(int(bool(i)), dtype=np.int32))
            continue
        dim += ndim - n_real if i is Ellipsis else _consumed(i)
        new.append(i)
    return dims, tuple(new)


def _scalar_bool_getitem(x, parts, mode, fill_value):
    """x[..., True, ...]: a new axis of length 1 indexed by arange(1) (or
    arange(0) for False; see _expand_scalar_bools)."""
    dims, index = _expand_scalar_bools(aval_of(x).ndim, parts)
    return getitem(lax_shape.expand_dims(x, dims), index, mode, fill_value)


def _static_getitem(x, entries):
    if core.current_trace() is None and builtins.all(
            e[1][2] == 1 for e in entries if e[0] == _SLICE):
        return _eager_window_getitem(x, entries)
    x = _apply_slices(x, entries)
    shape = aval_of(x).shape
    starts, limits = [0] * len(shape), list(shape)
    out_shape = []
    for e in entries:
        if e[0] == _NONE:
            out_shape.append(1)
        elif e[0] == _INT:
            starts[e[2]], limits[e[2]] = e[1], e[1] + 1
        else:
            out_shape.append(shape[e[2]])
    if (starts, limits) != ([0] * len(shape), list(shape)):
        x = lax.slice(x, starts, limits)
    return lax.reshape(x, out_shape)


def _eager_window_getitem(x, entries):
    """x[ints and unit-step slices], run eagerly: one dynamic_slice whose
    starts are arguments of its program (as JAX's eager indexing), so x[1]
    and x[2], or x[0:2] and x[1:3], share one compiled program instead of
    compiling a static slice per index. The starts are in bounds, so the
    slice's clamping never moves them: the values are the static slice's."""
    shape = aval_of(x).shape
    starts, sizes, out_shape = [0] * len(shape), list(shape), []
    for e in entries:
        if e[0] == _NONE:
            out_shape.append(1)
        elif e[0] == _INT:
            starts[e[2]], sizes[e[2]] = e[1], 1
        else:
            start, _, _, n = e[1]
            starts[e[2]], sizes[e[2]] = (start if n else 0), n
            out_shape.append(n)
    if sizes != list(shape):
        x = lax.dynamic_slice(x, starts, sizes)
    return lax.reshape(x, out_shape)


def _check_nonempty_axes(entries, shape, allow_empty_index):
    for e in entries:
        if e[0] in (_ARRAY, _INT) and shape[e[2]] == 0 and not allow_empty_index:
            raise _index_error(f"index is out of bounds for axis {e[2]} with size 0")


def _dynamic_scalar_getitem(x, entries):
    x = _apply_slices(x, entries)
    shape = aval_of(x).shape
    _check_nonempty_axes(entries, shape, False)
    starts, sizes = [0] * len(shape), list(shape)
    out_shape = []
    for e in entries:
        if e[0] == _NONE:
            out_shape.append(1)
        elif e[0] == _INT:
            starts[e[2]], sizes[e[2]] = e[1], 1
        elif e[0] == _ARRAY:
            starts[e[2]], sizes[e[2]] = e[1], 1
        else:
            out_shape.append(shape[e[2]])
    return lax.reshape(lax.dynamic_slice(x, starts, sizes), out_shape)


def _broadcast_indices(entries, shape):
    """The advanced indices (ints and arrays) as int32 arrays broadcast to
    one shape, in entry order, with their operand dimensions."""
    arrays, dims = [], []
    for e in entries:
        if e[0] in (_ARRAY, _INT):
            arrays.append(_as_index_array(e[1] if e[0] == _ARRAY else np.int32(e[1]),
                                          shape[e[2]]))
            dims.append(e[2])
    try:
        bshape = np.broadcast_shapes(*(np.shape(a) if not hasattr(a, "aval") else
                                       aval_of(a).shape for a in arrays))
    except ValueError:
        # (a ValueError, as JAX's: NumPy's IndexError is not what JAX code catches)
        shapes = ", ".join(str(tuple(aval_of(a).shape)) for a in arrays)
        raise ValueError(f"Incompatible shapes for broadcasting: shapes=[{shapes}]: the "
                         f"indexing arrays could not be broadcast together "
                         f"(at {core.user_location_str()})") from None
    arrays = [mnp.broadcast_to(mnp.asarray(a) if isinstance(a, (np.ndarray, np.generic))
                               else a, bshape) for a in arrays]
    return arrays, dims, tuple(bshape)


def _gather_getitem(x, entries, mode=None, fill_value=None):
    x = _apply_slices(x, entries)
    shape = aval_of(x).shape
    arrays, adv_dims, bshape = _broadcast_indices(entries, shape)
    nb = len(bshape)
    empty_index = int(np.prod(bshape, dtype=np.int64)) == 0
    _check_nonempty_axes(entries, shape, empty_index)
    if empty_index or builtins.any(shape[d] == 0 for d in adv_dims):
        positions, contiguous = _advanced_layout(entries)
        return mnp.zeros(_indexed_shape(entries, bshape, contiguous, True, shape),
                         aval_of(x).dtype)
    indices = mnp.stack(arrays, axis=-1)
    full_dims = [d for d in range(len(shape)) if d not in adv_dims]
    slice_sizes = [1 if d in adv_dims else shape[d] for d in range(len(shape))]
    dn = lax.GatherDimensionNumbers(offset_dims=tuple(range(nb, nb + len(full_dims))),
                                    collapsed_slice_dims=tuple(sorted(adv_dims)),
                                    start_index_map=tuple(adv_dims))
    out = lax.gather(x, indices, dn, slice_sizes, mode=mode, fill_value=fill_value)
    # Gathered layout: the index dimensions, then the whole dimensions in
    # order. Move the index block where NumPy puts it and add the new axes.
    positions, contiguous = _advanced_layout(entries)
    order, final_shape, placed = [], [], False
    if not contiguous:
        order.extend(range(nb))
        final_shape.extend(bshape)
        placed = True
    for j, e in enumerate(entries):
        if e[0] == _NONE:
            final_shape.append(1)
        elif e[0] == _SLICE:
            order.append(nb + full_dims.index(e[2]))
            final_shape.append(shape[e[2]])
        elif not placed:
            order.extend(range(nb))
            final_shape.extend(bshape)
            placed = True
    out = lax.transpose(out, order)
    return lax.reshape(out, final_shape)


# ---------------------------------------------------------------------------
# x.at[idx]
# ---------------------------------------------------------------------------

def _scalar_bool_update(x, parts, values, combiner, indices_are_sorted, unique_indices, mode):
    """x.at[..., True, ...].op(values), as JAX's: the update of x with a new
    axis of length 1 indexed by arange(1) (or arange(0) for False; see
    _expand_scalar_bools), the axis then removed."""
    dims, index = _expand_scalar_bools(aval_of(x).ndim, parts)
    out = _scatter_update(lax_shape.expand_dims(x, dims), index, values, combiner,
                          indices_are_sorted, unique_indices, mode)
    return lax_shape.squeeze(out, dims)


def _scatter_update(x, index, values, combiner, indices_are_sorted, unique_indices, mode):
    name = {"set": "set", "add": "add", "mul": "multiply", "min": "min",
            "max": "max"}[combiner]
    # As JAX: 'fill'/'drop' (the default) and 'promise_in_bounds' drop the
    # updates of out-of-bounds indices; 'clip' clamps the indices.
    mode = lax._check_mode(f".at[...].{name}", mode,
                           {"FILL_OR_DROP", "PROMISE_IN_BOUNDS", "CLIP"})
    x = x if isinstance(x, (Array, Tracer)) else mnp.asarray(x)
    aval = aval_of(x)
    if dslice.has_slices(index):  # mlax.ds (see _ds_split)
        return _ds_update(x, aval.shape, index, values, combiner, indices_are_sorted,
                          unique_indices, mode)
    parts = index if isinstance(index, tuple) else (index,)
    if builtins.any(_is_scalar_bool(i) for i in parts):
        return _scalar_bool_update(x, parts, values, combiner, indices_are_sorted,
                                   unique_indices, mode)
    entries = _entries(aval.shape, index, static_ints_in_bounds=False)
    # The scatter's update shape: x[idx].shape without the new axes.
    has_adv = builtins.any(e[0] in (_ARRAY, _INT) for e in entries)
    if has_adv:
        arrays, adv_dims, bshape = _broadcast_indices(entries, aval.shape)
        positions, contiguous = _advanced_layout(entries)
    else:
        arrays, adv_dims, bshape, contiguous = [], [], (), True
    # Output axes (without the new axes): ('adv',) block or a slice's dim.
    axes, placed = [], False
    if has_adv and not contiguous:
        axes.append("adv")
        placed = True
    for e in entries:
        if e[0] == _SLICE:
            axes.append(e[2])
        elif e[0] in (_ARRAY, _INT) and not placed:
            axes.append("adv")
            placed = True
    out_shape, adv_at, axis_pos = [], None, {}
    for a in axes:
        if a == "adv":
            adv_at = len(out_shape)
            out_shape.extend(bshape)
        else:
            axis_pos[a] = len(out_shape)
            out_shape.append(next(e[1][3] for e in entries if e[0] == _SLICE and e[2] == a))
    out_shape = tuple(out_shape)
    # The updates: broadcast to x[idx].shape (new axes included), then
    # reshaped to the scatter's shape (without them).
    indexed_shape = _indexed_shape(entries, bshape, contiguous, has_adv)
    if aval.size == 0 or 0 in indexed_shape:  # (out_shape is it without the new axes)
        # Nothing is updated: x, whatever the updates' shape (as JAX, whose
        # scatter returns x for an empty slice before broadcasting them: so
        # x.at[False].set(ones(5)) is x); no empty scatter in the IR (the
        # C++ scatter derivative mishandles empty operands).
        return x
    values = values if isinstance(values, (Array, Tracer)) else mnp.asarray(values)
    vaval = aval_of(values)
    try:
        bs = np.broadcast_shapes(vaval.shape, indexed_shape)
    except ValueError:
        bs = None
    if bs != tuple(indexed_shape):
        raise ValueError(f"mlax: .at[...].{name}: cannot broadcast updates of shape "
                         f"{vaval.shape} to the indexed shape {tuple(indexed_shape)} "
                         f"(at {core.user_location_str()})")
    values = mnp.broadcast_to(values, tuple(indexed_shape))
    values = lax.reshape(values, out_shape)
    # As JAX: combine in the promoted dtype, then cast back to x's dtype.
    dt, _ = dtypes.result_type((aval.dtype, aval.weak_type), (vaval.dtype, vaval.weak_type))
    if combiner in ("add", "mul") and dtypes.is_bool(dt):
        raise TypeError(f"mlax: .at[...].{name} does not accept dtype bool (as lax."
                        f"{combiner}); use .set, .min or .max, or integer updates "
                        f"(at {core.user_location_str()})")
    if combiner == "set":
        dt = aval.dtype
    work = x if dt == aval.dtype else mnp.astype(x, dt)
    values = lax.convert_element_type(mnp.astype(values, dt), dt, weak_type=aval.weak_type)
    fn = {"set": lax.scatter, "add": lax.scatter_add, "mul": lax.scatter_mul,
          "min": lax.scatter_min, "max": lax.scatter_max}[combiner]
    if aval.ndim == 0:
        # A 0-d operand: every index is `()` or `...`; the result is the
        # combination with the (broadcast) update.
        out = {"set": lambda: values, "add": lambda: ufuncs.add(work, values),
               "mul": lambda: ufuncs.multiply(work, values),
               "min": lambda: ufuncs.minimum(work, values),
               "max": lambda: ufuncs.maximum(work, values)}[combiner]()
    else:
        slices = [e for e in entries if e[0] == _SLICE]
        if bshape == () and builtins.all(abs(e[1][2]) == 1 and e[1][3] > 0 for e in slices):
            # One block (scalar indices, unit-step slices): a single window.
            indices, values, dn = _window_scatter(entries, arrays, adv_dims, values, aval.ndim)
        else:
            indices, dn = _elementwise_scatter(entries, arrays, adv_dims, bshape, axes,
                                               adv_at, axis_pos, out_shape, aval.ndim)
        out = fn(work, indices, values, dn, indices_are_sorted=indices_are_sorted,
                 unique_indices=unique_indices, mode=mode)
    if dt != aval.dtype:
        out = lax.convert_element_type(mnp.astype(out, aval.dtype), aval.dtype,
                                       weak_type=aval.weak_type)
    return out


def _window_scatter(entries, arrays, adv_dims, values, ndim):
    """Indices and dimension numbers writing `values` as one window: scalar
    indices are inserted dimensions, slices (step 1 or -1; the values are
    reversed for -1) are window dimensions."""
    starts, flip_axes, pos = [], [], 0
    for d in range(ndim):
        if d in adv_dims:
            starts.append(arrays[adv_dims.index(d)])
            continue
        start, stop, step, n = next(e[1] for e in entries if e[0] == _SLICE and e[2] == d)
        if step < 0:
            start = start - n + 1
            flip_axes.append(pos)
        starts.append(np.int32(start))
        pos += 1
    indices = mnp.stack([mnp.asarray(st) for st in starts])
    values = lax.rev(values, flip_axes)
    dn = lax.ScatterDimensionNumbers(update_window_dims=tuple(range(pos)),
                                     inserted_window_dims=tuple(sorted(adv_dims)),
                                     scatter_dims_to_operand_dims=tuple(range(ndim)))
    return indices, values, dn


def _elementwise_scatter(entries, arrays, adv_dims, bshape, axes, adv_at, axis_pos, out_shape,
                         ndim):
    """Indices and dimension numbers writing each element on its own: one
    index vector per element (slices become ranges along their axis,
    advanced indices broadcast together)."""
    columns = []
    for d in range(ndim):
        if d in adv_dims:
            a = arrays[adv_dims.index(d)]
            col = lax.broadcast_in_dim(a, out_shape, tuple(range(adv_at, adv_at + len(bshape))))
        else:
            start, stop, step, n = next(e[1] for e in entries if e[0] == _SLICE and e[2] == d)
            rng = np.arange(start, stop, step, dtype=np.int32)
            col = lax.broadcast_in_dim(rng, out_shape, (axis_pos[d],))
        columns.append(lax.reshape(col, out_shape + (1,)))
    dn = lax.ScatterDimensionNumbers(update_window_dims=(),
                                     inserted_window_dims=tuple(range(ndim)),
                                     scatter_dims_to_operand_dims=tuple(range(ndim)))
    return lax.concatenate(columns, len(out_shape)), dn


def _indexed_shape(entries, bshape, contiguous, has_adv, sliced_shape=None):
    """x[idx].shape: the scatter's output axes with the new axes put back
    (slice sizes from `sliced_shape` when the slices are already applied)."""
    shape, placed = [], False
    if has_adv and not contiguous:
        shape.extend(bshape)
        placed = True
    for e in entries:
        if e[0] == _NONE:
            shape.append(1)
        elif e[0] == _SLICE:
            shape.append(e[1][3] if sliced_shape is None else sliced_shape[e[2]])
        elif not placed:
            shape.extend(bshape)
            placed = True
    return tuple(shape)


class _IndexUpdateRef:
    """`x.at[idx]`: functional updates of the indexed elements."""

    __slots__ = ("array", "index")

    def __init__(self, array, index):
        self.array = array
        self.index = index

    def __repr__(self):
        return f"_IndexUpdateRef({self.array!r}, {self.index!r})"

    def get(self, *, indices_are_sorted=False, unique_indices=False, mode=None,
            fill_value=None):
        """x[idx]: out-of-bounds array indices clamp (the default, 'clip' and
        'promise_in_bounds'), or give `fill_value` with mode 'fill' (NaN for
        inexact dtypes, the minimum of signed ints, the maximum of unsigned
        ones, True for bool), as in JAX."""
        return getitem(self.array, self.index, mode, fill_value)

    def set(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """x with x[idx] = values (out-of-bounds updates are dropped)."""
        return _scatter_update(self.array, self.index, values, "set", indices_are_sorted,
                               unique_indices, mode)

    def add(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """x with x[idx] += values (repeated indices accumulate)."""
        return _scatter_update(self.array, self.index, values, "add", indices_are_sorted,
                               unique_indices, mode)

    def multiply(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """x with x[idx] *= values (repeated indices accumulate)."""
        return _scatter_update(self.array, self.index, values, "mul", indices_are_sorted,
                               unique_indices, mode)

    mul = multiply

    def subtract(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """x with x[idx] -= values (repeated indices accumulate): adding the
        negated values, which is the same in IEEE and two's-complement
        arithmetic."""
        values = values if isinstance(values, (Array, Tracer)) else mnp.asarray(values)
        return _scatter_update(self.array, self.index, ufuncs.negative(values), "add",
                               indices_are_sorted, unique_indices, mode)

    def divide(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """x with x[idx] /= values, as JAX's: x divided by ones scattered-
        multiplied by `values` (so the result is inexact, as x / y)."""
        ones = mnp.ones_like(self.array)
        return ufuncs.divide(self.array, _scatter_update(
            ones, self.index, values, "mul", indices_are_sorted, unique_indices, mode))

    def power(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """x with x[idx] **= values, as JAX's (x ** (ones scattered-multiplied
        by `values`))."""
        ones = mnp.ones_like(self.array)
        return ufuncs.power(self.array, _scatter_update(
            ones, self.index, values, "mul", indices_are_sorted, unique_indices, mode))

    def min(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """x with x[idx] = minimum(x[idx], values)."""
        return _scatter_update(self.array, self.index, values, "min", indices_are_sorted,
                               unique_indices, mode)

    def max(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """x with x[idx] = maximum(x[idx], values)."""
        return _scatter_update(self.array, self.index, values, "max", indices_are_sorted,
                               unique_indices, mode)

    def apply(self, func, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """x with x[idx] = func(x[idx]), `func` a unary elementwise function,
        applied once per index that hits an element (again for a repeated
        index), as JAX's (see lax.scatter_apply)."""
        x = self.array if isinstance(self.array, (Array, Tracer)) else mnp.asarray(self.array)
        counts = _scatter_update(mnp.zeros(aval_of(x).shape, np.int32), self.index,
                                 np.int32(1), "add", indices_are_sorted, unique_indices, mode)
        return scatter_apply_lib.apply_counted(x, counts, func, unique_indices)


class _IndexUpdateHelper:
    """The `.at` property: `x.at[idx].set(y)` and friends, as in JAX."""

    __slots__ = ("array",)

    def __init__(self, array):
        self.array = array

    def __getitem__(self, index):
        return _IndexUpdateRef(self.array, index)

    def __repr__(self):
        return f"_IndexUpdateHelper({self.array!r})"


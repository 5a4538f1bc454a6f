"""mlax.numpy functions composed from other mlax.numpy/lax functions:
reordering (flip, roll, tile, repeat), indexing (take, take_along_axis),
splitting and stacking, triangles, argmax/argmin, cumulative sums and
products, sorting and searching, contractions (tensordot, einsum, trace),
and floating-point helpers (nan_to_num, logaddexp, hypot, isclose,
allclose). Signatures, dtype promotion and errors follow jax.numpy.
"""
from __future__ import annotations

import builtins
import operator
import string

import numpy as np

from mlax._src.core import tracer as core
from mlax._src.base import dtypes
from mlax._src.base import errors
from mlax._src.lax import lax
from mlax._src.numpy import lax_numpy as mnp
from mlax._src.numpy.lax_numpy import _arr
from mlax._src.numpy.reductions import cumsum
from mlax._src.core.tracer import Tracer
from mlax._src.core.primitives import aval_of
from mlax._src.numpy import array_creation
from mlax._src.numpy import reductions
from mlax._src.numpy import ufuncs
from mlax._src.numpy import util


def _where():
    return core.user_location_str()


def _static_int(name, what, value):
    value = core.concretize(value)
    if isinstance(value, Tracer):
        raise errors.concretization(value, f"the {what} argument of mnp.{name}")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"mnp.{name}: {what} must be an integer, got {type(value).__name__} "
                        f"(at {_where()})") from None


def _axis_list(name, axis, ndim):
    if axis is None:
        return list(range(ndim))
    if isinstance(axis, (tuple, list)):
        axes = [mnp._normalize_axis(name, a, ndim) for a in axis]
        if len(set(axes)) != len(axes):
            raise ValueError(f"mnp.{name}: repeated axis in {axis} (at {_where()})")
        return axes
    return [mnp._normalize_axis(name, axis, ndim)]


# ---------------------------------------------------------------------------
# Reordering
# ---------------------------------------------------------------------------

def flip(m, axis=None):
    """Reverses the order of elements along `axis` (all axes when None)."""
    m = _arr(m)
    return lax.rev(m, _axis_list("flip", axis, aval_of(m).ndim))


def fliplr(m):
    m = _arr(m)
    if aval_of(m).ndim < 2:
        raise ValueError(f"mnp.fliplr: needs an array of at least 2 dimensions (at {_where()})")
    return flip(m, 1)


def flipud(m):
    m = _arr(m)
    if aval_of(m).ndim < 1:
        raise ValueError(f"mnp.flipud: needs an array of at least 1 dimension (at {_where()})")
    return flip(m, 0)


def roll(a, shift, axis=None):
    """Elements shifted along `axis` (of the flattened array when None),
    wrapping around; `shift` may be traced."""
    a = _arr(a)
    aval = aval_of(a)
    if axis is None:
        return mnp.reshape(roll(mnp.ravel(a), shift, 0), aval.shape)
    axes = list(axis) if isinstance(axis, (tuple, list)) else [axis]
    shifts = list(shift) if isinstance(shift, (tuple, list)) else (
        [shift] * len(axes) if np.ndim(shift) == 0 else None)
    if shifts is None or len(shifts) != len(axes):
        if shifts is None and not isinstance(shift, Tracer):
            shifts = list(np.asarray(shift).reshape(-1))
        if shifts is None or len(shifts) != len(axes):
            raise ValueError(f"mnp.roll: shift and axis must have the same length, got "
                             f"{shift!r} and {axis!r} (at {_where()})")
    for s, ax in zip(shifts, axes):
        ax = mnp._normalize_axis("roll", ax, aval.ndim)
        n = aval.shape[ax]
        if n == 0:
            continue
        if isinstance(s, Tracer) or (util._is_array(s) and not isinstance(s, (int, np.integer))
                                     and not hasattr(s, "_value_np")):
            # A traced shift: slice the doubled array at (-shift) mod n.
            start = ufuncs.remainder(ufuncs.negative(mnp.astype(s, dtypes.int32)), n)
            a = lax.dynamic_slice_in_dim(mnp.concatenate([a, a], ax), start, n, ax)
        else:
            k = int(np.asarray(s)) % n
            if k:
                a = mnp.concatenate([lax.slice_in_dim(a, n - k, n, axis=ax),
                                     lax.slice_in_dim(a, 0, n - k, axis=ax)], ax)
    return a


def tile(A, reps):
    """A repeated `reps` times along each axis (numpy.tile)."""
    A = _arr(A)
    reps = (reps,) if np.ndim(reps) == 0 and not isinstance(reps, (tuple, list)) else reps
    reps = tuple(_static_int("tile", "reps", r) for r in reps)
    if builtins.any(r < 0 for r in reps):
        raise ValueError(f"mnp.tile: negative repetitions {reps} (at {_where()})")
    aval = aval_of(A)
    ndim = builtins.max(len(reps), aval.ndim)
    shape = (1,) * (ndim - aval.ndim) + aval.shape
    reps = (1,) * (ndim - len(reps)) + reps
    A = lax.reshape(A, shape)
    # broadcast to (r0, s0, r1, s1, ...) then merge each pair
    big = tuple(v for r, s in zip(reps, shape) for v in (r, s))
    out = lax.broadcast_in_dim(A, big, tuple(range(1, 2 * ndim, 2)))
    return lax.reshape(out, tuple(r * s for r, s in zip(reps, shape)))


def repeat(a, repeats, axis=None, *, total_repeat_length=None, out_sharding=None):
    """Each element repeated (numpy.repeat); `repeats` must be concrete
    unless `total_repeat_length` is given.
    `out_sharding`: only None (JAX's default); mlax has no sharding yet, and
    any other value raises NotImplementedError."""
    util._check_out_sharding("repeat", out_sharding)
    a = _arr(a)
    if axis is None:
        a = mnp.ravel(a)
        axis = 0
    aval = aval_of(a)
    axis = mnp._normalize_axis("repeat", axis, aval.ndim)
    n = aval.shape[axis]
    if total_repeat_length is None:
        repeats = core.concretize(repeats)
    if isinstance(repeats, Tracer):
        if total_repeat_length is None:
            raise errors.concretization(
                repeats, "the repeats argument of mnp.repeat (pass total_repeat_length "
                "to repeat by a traced amount)")
        reps = mnp.broadcast_to(mnp.astype(repeats, dtypes.int32), (n,))
        ends = cumsum(reps)
        positions = array_creation.arange(total_repeat_length, dtype=dtypes.int32)
        idx = searchsorted(ends, positions, side="right")
        return take(a, idx, axis=axis, mode="clip")
    reps = np.asarray(repeats)
    if reps.dtype.kind not in "iub":
        raise TypeError(f"mnp.repeat: repeats must be integers, got {reps.dtype} (at {_where()})")
    if reps.ndim > 1 or (reps.ndim == 1 and reps.shape[0] not in (1, n)):
        raise ValueError(f"mnp.repeat: repeats of shape {reps.shape} cannot be broadcast to "
                         f"the {n} elements along axis {axis} (at {_where()})")
    if (reps < 0).any():
        raise ValueError(f"mnp.repeat: negative repeats {reps.tolist()} (at {_where()})")
    if reps.ndim == 0 or reps.shape[0] == 1:
        r = int(reps.reshape(-1)[0])
        shape = aval.shape
        expanded = shape[:axis + 1] + (r,) + shape[axis + 1:]
        out = lax.broadcast_in_dim(a, expanded, tuple(
            d if d <= axis else d + 1 for d in range(aval.ndim)))
        out = lax.reshape(out, shape[:axis] + (n * r,) + shape[axis + 1:])
    else:
        idx = np.repeat(np.arange(n, dtype=np.int32), reps)
        out = take(a, idx, axis=axis, mode="clip")
    if total_repeat_length is not None:
        length = aval_of(out).shape[axis]
        if length >= total_repeat_length:
            out = lax.slice_in_dim(out, 0, total_repeat_length, axis=axis)
        else:
            pad = [(0, 0, 0)] * aval.ndim
            pad[axis] = (0, total_repeat_length - length, 0)
            last = lax.slice_in_dim(out, length - 1, length, axis=axis) if length else None
            if last is None:
                raise ValueError(f"mnp.repeat: cannot pad an empty result to "
                                 f"total_repeat_length={total_repeat_length} (at {_where()})")
            fill = tile(last, [total_repeat_length - length if d == axis else 1
                               for d in range(aval.ndim)])
            out = mnp.concatenate([out, fill], axis)
    return out


# ---------------------------------------------------------------------------
# Indexing helpers
# ---------------------------------------------------------------------------

def _fill_value(dtype, fill_value):
    if fill_value is not None:
        return fill_value
    if dtypes.is_inexact(dtype):
        return np.nan
    if dtypes.is_bool(dtype):
        return True
    if dtypes.is_unsigned(dtype):
        return dtypes.iinfo(dtype).max
    return dtypes.iinfo(dtype).min


def _normalize_mode(name, mode):
    m = "fill" if mode is None else str(getattr(mode, "name", mode)).lower()
    m = {"fill_or_drop": "fill", "promise_in_bounds": "clip"}.get(m, m)
    if m not in ("fill", "clip", "wrap"):
        raise ValueError(f"mnp.{name}: invalid mode {mode!r}; use 'fill', 'clip' or 'wrap' "
                         f"(at {_where()})")
    return m


def _prepare_indices(name, indices, n, mode, negative_from_end=False, wrap_negative=True):
    """int32 indices for a dimension of size n and a mask of the valid ones
    (None unless mode is 'fill'). With `negative_from_end`, 'clip' first counts
    negative indices from the end (jax.numpy.take_along_axis); without it they
    clip to 0 (numpy.take and jax.numpy.take). Without `wrap_negative`, 'fill'
    takes negative indices as out of bounds (take_along_axis's
    wrap_negative_indices=False)."""
    idx = _arr(indices)
    if not dtypes.is_int(aval_of(idx).dtype):
        # (JAX's classes: take's ValueError, take_along_axis's TypeError)
        raise (ValueError if name == "take" else TypeError)(
            f"mnp.{name}: indices must be integers, got {aval_of(idx).dtype.name} "
            f"(at {_where()})")
    idx = mnp.astype(idx, dtypes.int32)
    if mode == "wrap":
        return ufuncs.remainder(idx, n) if n else idx, None
    if mode == "clip":
        if negative_from_end:
            idx = mnp.where(ufuncs.less(idx, 0), ufuncs.add(idx, n), idx)
        return ufuncs.clip(idx, 0, builtins.max(n - 1, 0)), None
    if wrap_negative:
        idx = mnp.where(ufuncs.less(idx, 0), ufuncs.add(idx, n), idx)
    valid = ufuncs.logical_and(ufuncs.greater_equal(idx, 0), ufuncs.less(idx, n))
    return idx, valid


def take(a, indices, axis=None, out=None, mode=None, unique_indices=False,
         indices_are_sorted=False, fill_value=None):
    """Elements of `a` at `indices` along `axis` (flattened when None). As
    jax.numpy.take: mode 'fill' (the default) gives `fill_value` (NaN for
    floats) for out-of-bounds indices, 'clip' clamps, 'wrap' wraps."""
    if out is not None:
        raise NotImplementedError("mnp.take: the out argument is not supported")
    a = _arr(a)
    if axis is None:
        a = mnp.ravel(a)
        axis = 0
    aval = aval_of(a)
    axis = mnp._normalize_axis("take", axis, aval.ndim)
    m = _normalize_mode("take", mode)
    n = aval.shape[axis]
    idx, valid = _prepare_indices("take", indices, n, m)
    if n == 0:
        if aval_of(idx).size:  # in every mode, as jax.numpy.take
            raise IndexError(f"mnp.take: cannot do a non-empty take from an empty axis "
                             f"(at {_where()})")
        shape = aval.shape[:axis] + aval_of(idx).shape + aval.shape[axis + 1:]
        return mnp.full(shape, _fill_value(aval.dtype, fill_value), aval.dtype)
    out_ = a[(slice(None),) * axis + (ufuncs.clip(idx, 0, n - 1),)]
    if valid is None:
        return out_
    nidx = aval_of(idx).ndim
    mask = lax.broadcast_in_dim(valid, aval_of(out_).shape, tuple(range(axis, axis + nidx)))
    fill = mnp.full((), _fill_value(aval.dtype, fill_value), aval.dtype)
    return mnp.where(mask, out_, fill)


# One jit dispatch when called eagerly, as jax.numpy.take (jitted there).
take = util._eager_jit(take, ("axis", "out", "mode", "unique_indices", "indices_are_sorted"))


def take_along_axis(arr, indices, axis=-1, mode=None, fill_value=None, *,
                    wrap_negative_indices=None):
    """Elements of `arr` at `indices` along `axis`, the other axes
    broadcast (numpy.take_along_axis); out-of-bounds indices as in take.
    `wrap_negative_indices`: whether a negative index counts from the end,
    as in NumPy (else it is out of bounds); None is JAX's legacy default,
    True unless mode is 'promise_in_bounds'."""
    arr = _arr(arr)
    indices = _arr(indices)
    if axis is None:
        arr = mnp.ravel(arr)
        indices = mnp.ravel(indices)
        axis = 0
    aval, iaval = aval_of(arr), aval_of(indices)
    if aval.ndim != iaval.ndim:
        raise ValueError(f"mnp.take_along_axis: indices and arr must have the same number of "
                         f"dimensions; {iaval.ndim} vs. {aval.ndim} (at {_where()})")
    axis = mnp._normalize_axis("take_along_axis", axis, aval.ndim)
    m = _normalize_mode("take_along_axis", mode)
    if wrap_negative_indices is None:
        wrap_negative_indices = str(getattr(mode, "name", mode)).lower() != "promise_in_bounds"
    wrap = bool(wrap_negative_indices)
    n = aval.shape[axis]
    idx, valid = _prepare_indices("take_along_axis", indices, n, m, negative_from_end=wrap,
                                  wrap_negative=wrap)
    shape = []
    for d in range(aval.ndim):
        if d == axis:
            shape.append(iaval.shape[d])
            continue
        a_, i_ = aval.shape[d], iaval.shape[d]
        if a_ != i_ and 1 not in (a_, i_):
            raise ValueError(f"mnp.take_along_axis: shapes {aval.shape} and {iaval.shape} "
                             f"do not broadcast outside axis {axis} (at {_where()})")
        shape.append(builtins.max(a_, i_) if 0 not in (a_, i_) else 0)
    shape = tuple(shape)
    if n == 0 or 0 in shape:
        return mnp.full(shape, _fill_value(aval.dtype, fill_value), aval.dtype)
    index = []
    for d in range(aval.ndim):
        if d == axis:
            index.append(mnp.broadcast_to(ufuncs.clip(idx, 0, n - 1), shape))
        else:
            rng = np.arange(aval.shape[d], dtype=np.int32).reshape(
                [-1 if k == d else 1 for k in range(aval.ndim)])
            index.append(np.broadcast_to(rng, shape) if aval.shape[d] != 1
                         else np.zeros(shape, np.int32))
    out_ = arr[tuple(index)]
    if valid is None:
        return out_
    fill = mnp.full((), _fill_value(aval.dtype, fill_value), aval.dtype)
    return mnp.where(mnp.broadcast_to(valid, shape), out_, fill)


# ---------------------------------------------------------------------------
# Splitting and stacking
# ---------------------------------------------------------------------------

def split(ary, indices_or_sections, axis=0):
    """Sub-arrays along `axis` (numpy.split): equal sections or cut points."""
    ary = _arr(ary)
    aval = aval_of(ary)
    axis = mnp._normalize_axis("split", axis, aval.ndim)
    n = aval.shape[axis]
    indices_or_sections = core.concretize(indices_or_sections)
    if isinstance(indices_or_sections, Tracer):
        raise errors.concretization(indices_or_sections,
                                    "the indices_or_sections argument of mnp.split")
    if np.ndim(indices_or_sections) == 0:
        sections = _static_int("split", "indices_or_sections", indices_or_sections)
        if sections <= 0 or n % sections:
            raise ValueError(f"mnp.split: array split does not result in an equal division: "
                             f"{n} elements along axis {axis} into {sections} sections "
                             f"(at {_where()})")
        cuts = [i * (n // sections) for i in range(1, sections)]
    else:
        cuts = [int(c) for c in np.asarray(indices_or_sections).reshape(-1)]
    bounds = [0] + cuts + [n]
    out = []
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        lo, hi = builtins.min(builtins.max(lo if lo >= 0 else lo + n, 0), n), \
            builtins.min(builtins.max(hi if hi >= 0 else hi + n, 0), n)
        out.append(lax.slice_in_dim(ary, lo, builtins.max(lo, hi), axis=axis))
    return out


def array_split(ary, indices_or_sections, axis=0):
    ary = _arr(ary)
    if np.ndim(indices_or_sections) != 0:
        return split(ary, indices_or_sections, axis)
    n = aval_of(ary).shape[mnp._normalize_axis("array_split", axis, aval_of(ary).ndim)]
    sections = _static_int("array_split", "indices_or_sections", indices_or_sections)
    if sections <= 0:
        raise ValueError(f"mnp.array_split: number sections must be larger than 0 "
                         f"(at {_where()})")
    q, r = divmod(n, sections)
    sizes = [q + 1] * r + [q] * (sections - r)
    return split(ary, list(np.cumsum(sizes)[:-1]), axis)


def atleast_1d(*arys):
    out = [mnp.reshape(_arr(a), (1,)) if aval_of(_arr(a)).ndim == 0 else _arr(a)
           for a in arys]
    return out[0] if len(out) == 1 else out


def atleast_2d(*arys):
    out = []
    for a in arys:
        a = _arr(a)
        nd = aval_of(a).ndim
        out.append(mnp.reshape(a, (1,) * (2 - nd) + aval_of(a).shape) if nd < 2 else a)
    return out[0] if len(out) == 1 else out


def atleast_3d(*arys):
    out = []
    for a in arys:
        a = _arr(a)
        shape = aval_of(a).shape
        if len(shape) == 0:
            a = mnp.reshape(a, (1, 1, 1))
        elif len(shape) == 1:
            a = mnp.reshape(a, (1, shape[0], 1))
        elif len(shape) == 2:
            a = mnp.reshape(a, shape + (1,))
        out.append(a)
    return out[0] if len(out) == 1 else out


def _sequence(name, tup):
    if util._is_array(tup) or isinstance(tup, np.ndarray):
        return [tup[i] for i in range(aval_of(tup).shape[0])]
    tup = list(tup)
    if not tup:
        raise ValueError(f"mnp.{name}: need at least one array to concatenate (at {_where()})")
    return tup


def hstack(tup, dtype=None):
    arrs = [atleast_1d(a) for a in _sequence("hstack", tup)]
    out = mnp.concatenate(arrs, 0 if aval_of(arrs[0]).ndim == 1 else 1)
    return out if dtype is None else mnp.astype(out, dtype)


def vstack(tup, dtype=None):
    arrs = [atleast_2d(a) for a in _sequence("vstack", tup)]
    out = mnp.concatenate(arrs, 0)
    return out if dtype is None else mnp.astype(out, dtype)


def dstack(tup, dtype=None):
    arrs = [atleast_3d(a) for a in _sequence("dstack", tup)]
    out = mnp.concatenate(arrs, 2)
    return out if dtype is None else mnp.astype(out, dtype)


def column_stack(tup):
    arrs = []
    for a in _sequence("column_stack", tup):
        a = _arr(a)
        arrs.append(mnp.reshape(a, (-1, 1)) if aval_of(a).ndim < 2 else a)
    return mnp.concatenate(arrs, 1)


# ---------------------------------------------------------------------------
# Triangles and grids
# ---------------------------------------------------------------------------

def tri(N, M=None, k=0, dtype=None):
    """Ones at and below the k-th diagonal of an N x M matrix."""
    N = _static_int("tri", "N", N)
    M = N if M is None else _static_int("tri", "M", M)
    k = _static_int("tri", "k", k)
    # float32 by default, even with 64-bit floats enabled (as jnp.tri)
    dt = dtypes.float32 if dtype is None else dtypes.canonicalize(dtype)
    rows = lax.broadcasted_iota(dtypes.int32, (N, M), 0)
    cols = lax.broadcasted_iota(dtypes.int32, (N, M), 1)
    return mnp.astype(ufuncs.greater_equal(ufuncs.add(rows, k), cols), dt)


def _tri_mask(name, m, k):
    m = _arr(m)
    aval = aval_of(m)
    if aval.ndim < 2:
        raise ValueError(f"mnp.{name}: input array must be at least 2-d, got shape "
                         f"{aval.shape} (at {_where()})")
    k = _static_int(name, "k", k)
    n_, m_ = aval.shape[-2:]
    rows = lax.broadcasted_iota(dtypes.int32, (n_, m_), 0)
    cols = lax.broadcasted_iota(dtypes.int32, (n_, m_), 1)
    return m, aval, ufuncs.greater_equal(ufuncs.add(rows, k), cols)


def tril(m, k=0):
    """The lower triangle (at and below the k-th diagonal) of the last two axes."""
    m, aval, below = _tri_mask("tril", m, k)
    return mnp.where(mnp.broadcast_to(below, aval.shape), m, mnp.zeros((), aval.dtype))


def triu(m, k=0):
    """The upper triangle (at and above the k-th diagonal) of the last two axes."""
    m, aval, below = _tri_mask("triu", m, k - 1)
    return mnp.where(mnp.broadcast_to(below, aval.shape), mnp.zeros((), aval.dtype), m)


def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    """Coordinate grids from 1-D coordinate arrays (numpy.meshgrid)."""
    if indexing not in ("xy", "ij"):
        raise ValueError(f"mnp.meshgrid: indexing must be 'xy' or 'ij', got {indexing!r} "
                         f"(at {_where()})")
    xs = [_arr(x) for x in xi]
    for i, x in enumerate(xs):
        if aval_of(x).ndim != 1:
            raise ValueError(f"mnp.meshgrid: arguments must be 1-D, got shape "
                             f"{aval_of(x).shape} for argument {i} (at {_where()})")
    if not xs:
        return []
    shape = [aval_of(x).shape[0] for x in xs]
    if indexing == "xy" and len(xs) >= 2:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    for i, x in enumerate(xs):
        axis = i
        if indexing == "xy" and len(xs) >= 2 and i < 2:
            axis = 1 - i
        s = [1] * len(xs)
        s[axis] = shape[axis]
        x = mnp.reshape(x, s)
        out.append(x if sparse else mnp.broadcast_to(x, tuple(shape)))
    return out


# ---------------------------------------------------------------------------
# argmax / argmin
# ---------------------------------------------------------------------------

def _arg_extreme(name, a, axis, keepdims, reduce_fn):
    a = _arr(a)
    aval = aval_of(a)
    if axis is None:
        if aval.size == 0:
            raise ValueError(f"mnp.{name}: attempt to get {name} of an empty sequence "
                             f"(at {_where()})")
        out = _arg_extreme(name, mnp.ravel(a), 0, False, reduce_fn)
        return mnp.reshape(out, (1,) * aval.ndim) if keepdims else out
    axis = mnp._normalize_axis(name, axis, aval.ndim)
    n = aval.shape[axis]
    if n == 0:
        raise ValueError(f"mnp.{name}: attempt to get {name} of an empty sequence "
                         f"(at {_where()})")
    if dtypes.is_complex(aval.dtype):
        # As JAX: complex values have no order argmax/argmin accept.
        raise TypeError(f"mnp.{name}: does not accept dtype {aval.dtype.name}; accepted "
                        f"dtypes are integer, floating and bool (at {_where()})")
    best = reduce_fn(a, axis=axis, keepdims=True)
    target = ufuncs.equal(a, best)
    if dtypes.is_float(aval.dtype):
        # NaN wins, as in NumPy: the first NaN along the axis.
        target = mnp.where(ufuncs.isnan(best), ufuncs.isnan(a), target)
    int_ = dtypes.default_int()
    iota = lax.broadcasted_iota(int_, aval.shape, axis)
    idx = mnp.where(target, iota, np.asarray(n, int_))
    return reductions.min(idx, axis=axis, keepdims=bool(keepdims))


def argmax(a, axis=None, out=None, keepdims=None):
    """Index of the (first) maximum along `axis` (NaN counts as the maximum)."""
    if out is not None:
        raise NotImplementedError("mnp.argmax: the out argument is not supported")
    return _arg_extreme("argmax", a, axis, keepdims, reductions.max)


def argmin(a, axis=None, out=None, keepdims=None):
    """Index of the (first) minimum along `axis` (NaN counts as the minimum)."""
    if out is not None:
        raise NotImplementedError("mnp.argmin: the out argument is not supported")
    return _arg_extreme("argmin", a, axis, keepdims, reductions.min)


# ---------------------------------------------------------------------------
# Sorting and searching
# ---------------------------------------------------------------------------

def sort(a, axis=-1, *, kind=None, order=None, stable=True, descending=False):
    """Sorted copy along `axis` (flattened when None); NaNs sort last."""
    if order is not None:
        raise TypeError("mnp.sort: the order argument is not supported")
    a = _arr(a)
    if axis is None:
        a, axis = mnp.ravel(a), 0
    aval = aval_of(a)
    if aval.ndim == 0:
        raise ValueError(f"mnp.sort: cannot sort a 0-d array along axis {axis} "
                         f"(at {_where()})")
    axis = mnp._normalize_axis("sort", axis, aval.ndim)
    if descending:
        return lax.rev(lax.sort(lax.rev(a, (axis,)), dimension=axis, is_stable=stable),
                       (axis,))
    return lax.sort(a, dimension=axis, is_stable=stable)


def argsort(a, axis=-1, *, kind=None, order=None, stable=True, descending=False,
            dtype=None):
    """Indices that sort `a` along `axis` (stable by default)."""
    if order is not None:
        raise TypeError("mnp.argsort: the order argument is not supported")
    a = _arr(a)
    if axis is None:
        a, axis = mnp.ravel(a), 0
    aval = aval_of(a)
    if aval.ndim == 0:
        raise ValueError(f"mnp.argsort: cannot sort a 0-d array along axis {axis} "
                         f"(at {_where()})")
    axis = mnp._normalize_axis("argsort", axis, aval.ndim)
    n = aval.shape[axis]
    int_ = dtypes.default_int()
    iota = lax.broadcasted_iota(int_, aval.shape, axis)
    if descending:
        _, perm = lax.sort_key_val(lax.rev(a, (axis,)), iota, dimension=axis,
                                   is_stable=stable)
        out = lax.rev(ufuncs.subtract(np.asarray(n - 1, int_), perm), (axis,))
    else:
        _, out = lax.sort_key_val(a, iota, dimension=axis, is_stable=stable)
    return out if dtype is None else mnp.astype(out, dtype)


def _total_lt(x, y):
    """x < y with NaN greater than everything (the order sort uses)."""
    if dtypes.is_float(aval_of(x).dtype):
        return ufuncs.logical_or(ufuncs.less(x, y),
                              ufuncs.logical_and(ufuncs.isnan(y), ufuncs.logical_not(ufuncs.isnan(x))))
    return ufuncs.less(x, y)


def searchsorted(a, v, side="left", sorter=None, *, method="scan"):
    """Where `v` would be inserted into the sorted 1-D `a` to keep it
    sorted (NaNs sort last). Compares every pair (jax's 'compare_all')."""
    if side not in ("left", "right"):
        raise ValueError(f"mnp.searchsorted: side must be 'left' or 'right', got {side!r} "
                         f"(at {_where()})")
    if method not in ("scan", "scan_unrolled", "sort", "compare_all"):
        raise ValueError(f"mnp.searchsorted: invalid method {method!r} (at {_where()})")
    a = _arr(a)
    if aval_of(a).ndim != 1:
        raise ValueError(f"mnp.searchsorted: a should be 1-dimensional, got shape "
                         f"{aval_of(a).shape} (at {_where()})")
    if sorter is not None:
        a = take(a, sorter, mode="clip")
    a, v = util.promote_dtypes("searchsorted", a, _arr(v))
    vshape = aval_of(v).shape
    n = aval_of(a).shape[0]
    if n == 0:
        return mnp.zeros(vshape, dtypes.int32)
    # (broadcast explicitly: the user's rank-promotion mode governs only
    # the user's own operands)
    pairs = vshape + (n,)
    vv = mnp.broadcast_to(mnp.expand_dims(v, -1), pairs)
    a = mnp.broadcast_to(a, pairs)
    cmp = _total_lt(a, vv) if side == "left" else ufuncs.logical_not(_total_lt(vv, a))
    return reductions.sum(mnp.astype(cmp, dtypes.int32), axis=-1, dtype=dtypes.int32)


# ---------------------------------------------------------------------------
# Contractions
# ---------------------------------------------------------------------------

def tensordot(a, b, axes=2, *, precision=None, preferred_element_type=None,
              out_sharding=None):
    """Sum of products over the given axes (numpy.tensordot).
    `out_sharding`: only None (JAX's default); mlax has no sharding yet, and
    any other value raises NotImplementedError."""
    util._check_out_sharding("tensordot", out_sharding)
    a, b = util.promote_dtypes("tensordot", _arr(a), _arr(b))
    la, lb = aval_of(a), aval_of(b)
    if isinstance(axes, (int, np.integer)):
        k = int(axes)
        if k < 0 or k > builtins.min(la.ndim, lb.ndim):
            raise TypeError(f"mnp.tensordot: number of contracting dimensions {k} must be "
                            f"in [0, {builtins.min(la.ndim, lb.ndim)}] for shapes "
                            f"{la.shape} and {lb.shape} (at {_where()})")
        ca, cb = list(range(la.ndim - k, la.ndim)), list(range(k))
    else:
        try:
            ax_a, ax_b = axes
        except (TypeError, ValueError):
            raise TypeError(f"mnp.tensordot: axes must be an int or a pair of sequences, got "
                            f"{axes!r} (at {_where()})") from None
        ax_a = [ax_a] if np.ndim(ax_a) == 0 else list(ax_a)
        ax_b = [ax_b] if np.ndim(ax_b) == 0 else list(ax_b)
        if len(ax_a) != len(ax_b):
            raise TypeError(f"mnp.tensordot: the axes for a and b must have one length, got "
                            f"{ax_a} and {ax_b} (at {_where()})")
        ca = [mnp._normalize_axis("tensordot", x, la.ndim) for x in ax_a]
        cb = [mnp._normalize_axis("tensordot", x, lb.ndim) for x in ax_b]
    for x, y in zip(ca, cb):
        if la.shape[x] != lb.shape[y]:
            raise TypeError(f"mnp.tensordot: shape mismatch: axis {x} of a (size "
                            f"{la.shape[x]}) vs axis {y} of b (size {lb.shape[y]}); shapes "
                            f"{la.shape} and {lb.shape} (at {_where()})")
    return lax.dot_general(a, b, ((tuple(ca), tuple(cb)), ((), ())), precision=precision,
                           preferred_element_type=preferred_element_type)


def _einsum_parse(subscripts, shapes):
    subscripts = subscripts.replace(" ", "")
    if "->" in subscripts:
        ins, out = subscripts.split("->")
        explicit = True
    else:
        ins, out, explicit = subscripts, None, False
    inputs = ins.split(",")
    if len(inputs) != len(shapes):
        raise ValueError(f"mnp.einsum: {len(inputs)} operand subscripts for {len(shapes)} "
                         f"operands in {subscripts!r} (at {_where()})")
    used = set(subscripts)
    free = [c for c in map(_einsum_symbol, range(len(used) + 64)) if c not in used]
    ell_rank = 0
    for s, shape in zip(inputs, shapes):
        if "..." in s:
            ell_rank = builtins.max(ell_rank, len(shape) - len(s.replace("...", "")))
    ell = "".join(free[:ell_rank])
    labels = []
    for s, shape in zip(inputs, shapes):
        if "..." in s:
            n = len(shape) - len(s.replace("...", ""))
            s = s.replace("...", ell[ell_rank - n:] if n else "")
        for c in s:
            if c in ".,->":
                raise ValueError(f"mnp.einsum: invalid subscript {c!r} in {subscripts!r} "
                                 f"(at {_where()})")
        if len(s) != len(shape):
            raise ValueError(f"mnp.einsum: operand subscripts {s!r} do not match an operand "
                             f"of shape {shape} (at {_where()})")
        labels.append(s)
    if explicit:
        out = out.replace("...", ell)
    else:
        counts = {}
        for s in labels:
            for c in s:
                counts[c] = counts.get(c, 0) + 1
        out = ell + "".join(sorted(c for c, k in counts.items() if k == 1 and c not in ell))
    return labels, out


def _einsum_symbol(i):
    """The i-th label character, as opt_einsum's get_symbol (which JAX's
    einsum uses): the 52 ASCII letters, then Unicode from chr(192), skipping
    the surrogates."""
    if i < 52:
        return string.ascii_letters[i]
    return chr(i + 2048) if i >= 55296 else chr(i + 140)


def _einsum_sublists(name, args):
    """NumPy's operand-list form, (op0, sublist0, op1, sublist1, ...[,
    output sublist]) with Ellipsis and any hashable, mutually comparable
    labels, as the subscripts string and the operands. As JAX's (opt_einsum's
    convert_interleaved_input): the k-th smallest label is the k-th symbol
    (_einsum_symbol), and the implicit output follows the symbols' order."""
    args = list(args)
    out = args.pop() if len(args) % 2 else None
    ops, subs = args[0::2], args[1::2]
    for sub in subs:
        if not isinstance(sub, (list, tuple)):
            raise TypeError(f"mnp.{name}: in the operand-list form each operand is followed "
                            f"by a list of subscripts, got {type(sub).__name__}")
    try:
        labels = set(c for sub in subs for c in sub)
        labels.discard(Ellipsis)
        symbol = {c: _einsum_symbol(k) for k, c in enumerate(sorted(labels))}
    except TypeError:
        raise TypeError(f"mnp.{name}: in the operand-list form the subscripts must be "
                        "Ellipsis or hashable, mutually comparable labels (e.g. ints)") from None

    def letters(sub):
        text = ""
        for c in sub:
            if c is Ellipsis:
                text += "..."
            elif c in symbol:
                text += symbol[c]
            else:
                raise ValueError(f"mnp.{name}: output subscript {c!r} does not appear in "
                                 f"any input's subscripts")
        return text

    subscripts = ",".join(letters(t) for t in subs)
    if out is not None:
        subscripts += "->" + letters(out)
    return subscripts, tuple(ops)


def einsum(subscripts, /, *operands, out=None, optimize="auto", precision=None,
           preferred_element_type=None, _dot_general=None, out_sharding=None):
    """Einstein summation (numpy.einsum), contracting pairwise left to right
    with dot_general.
    `out_sharding`: only None (JAX's default); mlax has no sharding yet, and
    any other value raises NotImplementedError."""
    if out is not None:
        raise NotImplementedError("mnp.einsum: the out argument is not supported")
    util._check_out_sharding("einsum", out_sharding)
    if not isinstance(subscripts, str):
        subscripts, operands = _einsum_sublists("einsum", (subscripts,) + operands)
    ops = util.promote_dtypes("einsum", *[_arr(o) for o in operands])
    ops = [_arr(o) for o in ops]
    labels, out_labels = _einsum_parse(subscripts, [aval_of(o).shape for o in ops])
    sizes = {}
    for s, o in zip(labels, ops):
        for c, d in zip(s, aval_of(o).shape):
            if sizes.setdefault(c, d) != d and 1 not in (d, sizes[c]):
                raise ValueError(f"mnp.einsum: size of label {c!r} differs: {sizes[c]} vs "
                                 f"{d} in {subscripts!r} (at {_where()})")
            sizes[c] = builtins.max(sizes[c], d)
    for c in out_labels:
        if c not in sizes or out_labels.count(c) > 1:
            raise ValueError(f"mnp.einsum: output subscript {c!r} must appear once in the "
                             f"output and in some input of {subscripts!r} (at {_where()})")

    def diag(x, s):
        # Repeated labels within one operand: take the diagonal.
        while True:
            dup = next((c for c in s if s.count(c) > 1), None)
            if dup is None:
                return x, s
            i = s.index(dup)
            j = s.index(dup, i + 1)
            shape = aval_of(x).shape
            eye_ = ufuncs.equal(lax.broadcasted_iota(dtypes.int32, shape, i),
                             lax.broadcasted_iota(dtypes.int32, shape, j))
            x = reductions.sum(mnp.where(eye_, x, mnp.zeros((), aval_of(x).dtype)), axis=j)
            s = s[:j] + s[j + 1:]

    def expand(x, s):
        # size-1 dimensions that broadcast against another operand's
        shape = aval_of(x).shape
        target = tuple(sizes[c] for c in s)
        return (mnp.broadcast_to(x, target) if shape != target else x), s

    terms = [expand(*diag(o, s)) for o, s in zip(ops, labels)]
    pet = None if preferred_element_type is None else dtypes.canonicalize(preferred_element_type)

    def widest(*dts):
        return dtypes.result_type(*((d, False) for d in dts))[0]

    def widened(x):
        # As JAX: sums run in preferred_element_type when it is the wider type.
        if pet is not None and widest(aval_of(x).dtype, pet) != aval_of(x).dtype:
            return lax.convert_element_type(x, pet)
        return x

    def needed_after(k):
        keep = set(out_labels)
        for _, s in terms[k:]:
            keep |= set(s)
        return keep

    def sum_out(x, s, keep):
        axes = [i for i, c in enumerate(s) if c not in keep]
        if axes:
            x = reductions.sum(widened(x), axis=tuple(axes))
            s = "".join(c for c in s if c in keep)
        return x, s

    x, s = terms[0]
    x, s = sum_out(x, s, needed_after(1))
    for k in range(1, len(terms)):
        y, t = terms[k]
        keep = needed_after(k + 1)
        y, t = sum_out(y, t, keep | set(s))
        batch = [c for c in s if c in t and c in keep]
        contract = [c for c in s if c in t and c not in keep]
        dn = ((tuple(s.index(c) for c in contract), tuple(t.index(c) for c in contract)),
              (tuple(s.index(c) for c in batch), tuple(t.index(c) for c in batch)))
        if aval_of(x).dtype != aval_of(y).dtype:  # (an earlier product in pet)
            common = widest(aval_of(x).dtype, aval_of(y).dtype)
            x, y = lax.convert_element_type(x, common), lax.convert_element_type(y, common)
        x = lax.dot_general(x, y, dn, precision=precision,
                            preferred_element_type=preferred_element_type)
        s = ("".join(batch) + "".join(c for c in s if c not in batch and c not in contract)
             + "".join(c for c in t if c not in batch and c not in contract))
    x, s = sum_out(x, s, set(out_labels))
    x = lax.transpose(x, tuple(s.index(c) for c in out_labels))
    if pet is not None and (aval_of(x).dtype != pet or aval_of(x).weak_type):
        x = lax.convert_element_type(x, pet, weak_type=False)  # (JAX's result type)
    return x


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """Sum along a diagonal (numpy.trace)."""
    if out is not None:
        raise NotImplementedError("mnp.trace: the out argument is not supported")
    a = _arr(a)
    aval = aval_of(a)
    if aval.ndim < 2:
        raise ValueError(f"mnp.trace: needs an array of at least 2 dimensions, got shape "
                         f"{aval.shape} (at {_where()})")
    offset = _static_int("trace", "offset", offset)
    a1 = mnp._normalize_axis("trace", axis1, aval.ndim)
    a2 = mnp._normalize_axis("trace", axis2, aval.ndim)
    if a1 == a2:
        raise ValueError(f"mnp.trace: axis1 and axis2 cannot be the same (at {_where()})")
    rows = lax.broadcasted_iota(dtypes.int32, aval.shape, a1)
    cols = lax.broadcasted_iota(dtypes.int32, aval.shape, a2)
    on_diag = ufuncs.equal(ufuncs.add(rows, offset), cols)
    masked = mnp.where(on_diag, a, mnp.zeros((), aval.dtype))
    return reductions.sum(masked, axis=(a1, a2), dtype=dtype)


def diagonal(a, offset=0, axis1=0, axis2=1):
    """The diagonal of the (axis1, axis2) planes, as the last axis."""
    a = _arr(a)
    aval = aval_of(a)
    if aval.ndim < 2:
        raise ValueError(f"mnp.diagonal: needs an array of at least 2 dimensions, got shape "
                         f"{aval.shape} (at {_where()})")
    offset = _static_int("diagonal", "offset", offset)
    a1 = mnp._normalize_axis("diagonal", axis1, aval.ndim)
    a2 = mnp._normalize_axis("diagonal", axis2, aval.ndim)
    if a1 == a2:
        raise ValueError(f"mnp.diagonal: axis1 and axis2 cannot be the same (at {_where()})")
    rest = [d for d in range(aval.ndim) if d not in (a1, a2)]
    a = mnp.transpose(a, rest + [a1, a2])
    n, m = aval.shape[a1], aval.shape[a2]
    r0, c0 = (0, offset) if offset >= 0 else (-offset, 0)
    length = builtins.max(0, builtins.min(n - r0, m - c0))
    rows = np.arange(r0, r0 + length, dtype=np.int32)
    cols = np.arange(c0, c0 + length, dtype=np.int32)
    return a[(Ellipsis, rows, cols)]


# ---------------------------------------------------------------------------
# Floating-point helpers
# ---------------------------------------------------------------------------

def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """NaN -> `nan`, +inf -> `posinf` (the largest float), -inf -> `neginf`."""
    x = _arr(x)
    dt = aval_of(x).dtype
    if not dtypes.is_inexact(dt):
        return x
    if dtypes.is_complex(dt):
        # As JAX: the real and imaginary parts each, with the same values.
        return lax.complex(
            nan_to_num(ufuncs.real(x), copy, nan, posinf, neginf),
            nan_to_num(ufuncs.imag(x), copy, nan, posinf, neginf))
    info = dtypes.finfo(dt)
    posinf = info.max if posinf is None else posinf
    neginf = info.min if neginf is None else neginf
    out = mnp.where(ufuncs.isnan(x), mnp.asarray(nan, dt), x)
    out = mnp.where(ufuncs.logical_and(ufuncs.isinf(out), ufuncs.greater(out, 0)),
                    mnp.asarray(posinf, dt), out)
    return mnp.where(ufuncs.logical_and(ufuncs.isinf(out), ufuncs.less(out, 0)),
                     mnp.asarray(neginf, dt), out)


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """|a - b| <= atol + rtol * |b| where b is finite, or a == b (so equal
    infinities are close); NaNs are close only with `equal_nan`. Exactly
    JAX's rule: integer and bool inputs compare as floats, tolerances are of
    the real dtype (the component dtype for complex input)."""
    a, b = util.promote_args("isclose", _arr(a), _arr(b))
    a, b = util._promote_inexact("isclose", a, b)
    dt = aval_of(a).dtype
    rdt = dtypes.finfo(dt).dtype
    rtol = mnp.astype(rtol, rdt) if util._is_array(rtol) else util._Literal(rtol, rdt, False)
    atol = mnp.astype(atol, rdt) if util._is_array(atol) else util._Literal(atol, rdt, False)
    in_range = ufuncs.less_equal(ufuncs.abs(ufuncs.subtract(a, b)),
                                 ufuncs.add(atol, ufuncs.multiply(rtol, ufuncs.abs(b))))
    out = ufuncs.logical_or(ufuncs.equal(a, b),
                            ufuncs.logical_and(ufuncs.isfinite(b), in_range))
    if equal_nan:
        out = ufuncs.logical_or(out, ufuncs.logical_and(ufuncs.isnan(a), ufuncs.isnan(b)))
    return out


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether every element is close (see isclose)."""
    return reductions.all(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan))


# ---------------------------------------------------------------------------
# nonzero and friends (value-dependent shapes: concrete, or a static size)
# ---------------------------------------------------------------------------

def nonzero(a, *, size=None, fill_value=None):
    """Indices of the nonzero elements, one array per dimension. Under jit
    pass `size` (the result is cut or padded with `fill_value`, default 0),
    as in JAX."""
    a = _arr(a)
    aval = aval_of(a)
    if aval.ndim == 0:
        raise ValueError("mnp.nonzero: calling nonzero on 0d arrays is not allowed; use "
                         f"mnp.atleast_1d(scalar).nonzero() instead (at {_where()})")
    int_ = dtypes.default_int()
    mask = util._to_bool(a) if aval.dtype != dtypes.bool_ else a
    if size is None:
        mask = core.concretize(mask)
        if isinstance(mask, Tracer):
            raise errors.concretization(
                a, "the size of mnp.nonzero's result (pass size=... to fix it statically)")
        return tuple(mnp.asarray(i.astype(int_)) for i in np.nonzero(np.asarray(mask)))
    size = _static_int("nonzero", "size", size)
    fills = fill_value if isinstance(fill_value, (tuple, list)) else (
        [0 if fill_value is None else fill_value] * aval.ndim)
    if len(fills) != aval.ndim:
        raise ValueError(f"mnp.nonzero: fill_value must be a scalar or a tuple of length "
                         f"{aval.ndim}, got {fill_value!r} (at {_where()})")
    n = aval.size
    flat = mnp.astype(mnp.ravel(mask), int_)
    before = ufuncs.subtract(cumsum(flat), flat)  # output slot of each nonzero element
    slot = mnp.where(ufuncs.greater(flat, 0), before, np.asarray(size, int_))
    positions = mnp.zeros((size,), int_).at[slot].set(array_creation.arange(n, dtype=int_), mode="drop")
    valid = ufuncs.less(array_creation.arange(size, dtype=int_), reductions.sum(flat))
    out, stride = [], n
    for d, dim in enumerate(aval.shape):
        stride //= builtins.max(dim, 1)
        coord = ufuncs.remainder(ufuncs.floor_divide(positions, np.asarray(builtins.max(stride, 1),
                                                                    int_)),
                              np.asarray(builtins.max(dim, 1), int_))
        out.append(mnp.where(valid, coord, mnp.asarray(fills[d], int_)))
    return tuple(out)


def flatnonzero(a, *, size=None, fill_value=None):
    """Indices of the nonzero elements of the flattened array."""
    return nonzero(mnp.ravel(_arr(a)), size=size, fill_value=fill_value)[0]


def argwhere(a, *, size=None, fill_value=None):
    """Indices of the nonzero elements as rows of an (N, ndim) array."""
    a = _arr(a)
    if aval_of(a).ndim == 0:  # one row of no coordinates per nonzero element
        count = nonzero(mnp.reshape(a, (1,)), size=size)[0]
        return mnp.zeros((aval_of(count).shape[0], 0), dtypes.default_int())
    return mnp.stack(nonzero(a, size=size, fill_value=fill_value), -1)


def count_nonzero(a, axis=None, keepdims=False):
    """The number of nonzero elements along `axis`."""
    a = _arr(a)
    mask = util._to_bool(a) if aval_of(a).dtype != dtypes.bool_ else a
    return reductions.sum(mnp.astype(mask, dtypes.default_int()), axis=axis, keepdims=keepdims)


mnp.register_nonzero(nonzero)  # mnp.where(condition) (lax_numpy is below this module)


# One jit dispatch each when called outside a trace, as jax.numpy's are
# (JAX's static arguments; traced in place inside a trace).
allclose = util._eager_jit(allclose, ('equal_nan',))
argsort = util._eager_jit(argsort, ('axis', 'kind', 'order', 'stable', 'descending', 'dtype'))
count_nonzero = util._eager_jit(count_nonzero, ('axis', 'keepdims'))
diagonal = util._eager_jit(diagonal, ('offset', 'axis1', 'axis2'))
isclose = util._eager_jit(isclose, ('equal_nan',))
nan_to_num = util._eager_jit(nan_to_num, ('copy',))
searchsorted = util._eager_jit(searchsorted, ('side', 'method'))
sort = util._eager_jit(sort, ('axis', 'kind', 'order', 'stable', 'descending'))
trace = util._eager_jit(trace, ('axis1', 'axis2', 'dtype', 'offset'))
tril = util._eager_jit(tril, ('k',))
triu = util._eager_jit(triu, ('k',))
argmax = util._eager_jit_axes(argmax, ('axis', 'keepdims'))
argmin = util._eager_jit_axes(argmin, ('axis', 'keepdims'))
# (a shift of ints is static, as JAX's _roll_static; an array shift known
# eagerly is read as ints too)
roll = util._eager_jit_axes(roll, ('shift', 'axis'), axes=('shift', 'axis'))
tile = util._eager_jit_axes(tile, ('reps',), axes=('reps',))
meshgrid = util._eager_jit(meshgrid, ('copy', 'sparse', 'indexing'))
split = util._eager_jit_axes(split, ('indices_or_sections', 'axis'),
                             axes=('indices_or_sections', 'axis'))
take_along_axis = util._eager_jit_axes(take_along_axis, ('axis', 'mode', 'fill_value',
                                                        'wrap_negative_indices'))

"""mlax.numpy's statistics (NumPy's "Statistics" routines): the NaN-ignoring
reductions (nansum ... nanargmin, nancumsum, nancumprod), order statistics
(median, quantile, percentile and their nan forms), average, cov, corrcoef,
histogram, bincount and digitize. Still here until they find their modules:
the shape and creation helpers (empty_like, moveaxis, select, pad, diag, rot90,
logspace, geomspace) and diff, ediff1d, cross, kron, array_equal, array_equiv,
interp. Signatures, dtypes and errors follow jax.numpy.
"""
from __future__ import annotations

import builtins

import numpy as np

from mlax._src.core import tracer as core
from mlax._src.base import dtypes
from mlax._src.base import errors
from mlax._src.lax import lax
from mlax._src.numpy import array_creation
from mlax._src.numpy import manipulation as mnc
from mlax._src.numpy import lax_numpy as mnp
from mlax._src.numpy.lax_numpy import _arr
from mlax._src.core.tracer import Tracer
from mlax._src.core.primitives import aval_of
from mlax._src.numpy import reductions
from mlax._src.numpy import tensor_contractions
from mlax._src.numpy import ufuncs
from mlax._src.numpy import util


def _where():
    return core.user_location_str()


_inexact_dtype = dtypes.to_inexact  # JAX's to_inexact_dtype, canonicalized


def _to_inexact(x):
    aval = aval_of(x)
    if dtypes.is_inexact(aval.dtype):
        return x
    return lax.convert_element_type(x, _inexact_dtype(aval.dtype), weak_type=aval.weak_type)


def _promote_inexact(name, *args):
    """Arrays promoted to one dtype, then made inexact (as JAX's
    promote_dtypes_inexact)."""
    args = util.promote_dtypes(name, *[_arr(a) for a in args])
    return [_to_inexact(_arr(a)) for a in args]


def _static_int(name, what, value):
    return mnc._static_int(name, what, value)


def _concrete_scalar(name, what, value):
    """`value` (a Python or NumPy scalar), which must not be traced."""
    if isinstance(value, Tracer):
        raise errors.concretization(value, f"the {what} argument of mnp.{name}")
    return value


def _keepdims_shape(shape, axes):
    return tuple(1 if i in axes else d for i, d in enumerate(shape))


def _fill(x, mask, value):
    """x where mask holds, else `value` (of x's dtype)."""
    return mnp.where(mask, x, mnp.full((), value, aval_of(x).dtype))


# ---------------------------------------------------------------------------
# Shapes and creation
# ---------------------------------------------------------------------------

def empty_like(prototype, dtype=None, shape=None, *, device=None):
    """An array like `prototype` (zeros, as in JAX), placed on `device` as
    mnp.zeros_like places it."""
    return mnp.zeros_like(_arr(prototype), dtype=dtype, shape=shape, device=device)


def moveaxis(a, source, destination):
    """`a` with the axes at `source` moved to `destination`."""
    a = _arr(a)
    ndim = aval_of(a).ndim
    src = source if isinstance(source, (tuple, list)) else (source,)
    dst = destination if isinstance(destination, (tuple, list)) else (destination,)
    if len(src) != len(dst):
        raise ValueError(f"mnp.moveaxis: source and destination must have the same number of "
                         f"elements, got {source!r} and {destination!r} (at {_where()})")
    src = [mnp._normalize_axis("moveaxis", s, ndim) for s in src]
    dst = [mnp._normalize_axis("moveaxis", d, ndim) for d in dst]
    if len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise ValueError(f"mnp.moveaxis: repeated axis in {source!r} or {destination!r} "
                         f"(at {_where()})")
    order = [i for i in range(ndim) if i not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return a if order == list(range(ndim)) else lax.transpose(a, tuple(order))


def select(condlist, choicelist, default=0):
    """The first choice whose condition holds, elementwise; `default` where none does."""
    if len(condlist) != len(choicelist):
        raise ValueError(f"mnp.select: condlist must have length equal to choicelist "
                         f"({len(condlist)} vs {len(choicelist)}) (at {_where()})")
    if len(condlist) == 0:
        raise ValueError(f"mnp.select: condlist must be non-empty (at {_where()})")
    conds = [util._to_bool(_arr(c)) for c in condlist]
    choices = util.promote_dtypes("select", default, *choicelist)
    out = choices[0]
    for c, v in reversed(list(zip(conds, choices[1:]))):
        out = mnp.where(c, v, out)
    return util._materialize(out)


def _pad_width(name, pad_width, ndim):
    pad_width = core.concretize_seq(pad_width)
    if isinstance(pad_width, Tracer):
        raise errors.concretization(pad_width, f"the pad_width argument of mnp.{name}")
    pw = np.asarray(pad_width)
    if pw.dtype.kind not in "iu":
        raise TypeError(f"mnp.{name}: pad_width must be of integral type, got {pw.dtype} "
                        f"(at {_where()})")
    try:
        pw = np.broadcast_to(pw, (ndim, 2))
    except ValueError:
        raise ValueError(f"mnp.{name}: pad_width {pad_width!r} cannot be broadcast to "
                         f"({ndim}, 2) (at {_where()})") from None
    if (pw < 0).any():
        raise ValueError(f"mnp.{name}: index can't contain negative values (at {_where()})")
    return [(int(lo), int(hi)) for lo, hi in pw]


_PAD_KWARGS = {
    "constant": ("constant_values",), "edge": (), "wrap": (), "empty": (),
    "reflect": ("reflect_type",), "symmetric": ("reflect_type",),
    "linear_ramp": ("end_values",), "maximum": ("stat_length",),
    "minimum": ("stat_length",), "mean": ("stat_length",), "median": ("stat_length",),
}


def _pad_pairs(name, values, ndim):
    """`values` (a scalar, (v,), (before, after), ((before, after),) or one
    pair per axis) as one (before, after) pair of static values per axis."""
    values = core.concretize_seq(values)
    if isinstance(values, Tracer):
        raise errors.concretization(values, f"the {name} argument of mnp.pad")
    v = np.asarray(values)
    if v.shape in ((), (1,), (2,), (1, 2), (ndim, 2)):
        return [tuple(p) for p in np.broadcast_to(v, (ndim, 2))]
    raise ValueError(f"mnp.pad: {name} with nd={ndim} has unsupported shape {v.shape}; valid "
                     f"shapes are ({ndim}, 2), (1, 2), (2,), (1,) or () (at {_where()})")


def _pad_axis(parts, d):
    parts = [p for p in parts if aval_of(p).shape[d]]
    return lax.concatenate(parts, d) if parts else None


def _pad_reflect_odd(a, d, lo, hi, mode):
    """Axis d of `a` padded by reflection about its edge values (numpy's
    reflect_type='odd': 2 * edge - mirrored values), a block at a time as
    NumPy does when the pad is longer than the axis."""
    n = aval_of(a).shape[d]
    shift = 1 if (mode == "reflect" and n > 1) else 0
    for before, amount in ((True, lo), (False, hi)):
        edge = lax.slice_in_dim(a, 0, 1, axis=d) if before else lax.slice_in_dim(a, -1, None, axis=d)
        while amount > 0:
            step = builtins.min(amount, n - shift)
            amount -= step
            if before:
                block = lax.slice_in_dim(a, shift, shift + step, axis=d)
            else:
                block = lax.slice_in_dim(a, -(step + shift),
                                         None if (mode == "symmetric" or n == 1) else -1, axis=d)
            block = mnc.flip(block, d)
            block = ufuncs.subtract(ufuncs.multiply(2, edge), block)
            if n > 1:
                edge = (lax.slice_in_dim(block, 0, 1, axis=d) if before
                        else lax.slice_in_dim(block, -1, None, axis=d))
            a = lax.concatenate([block, a] if before else [a, block], d)
    return a


def _pad_stat(a, d, lo, hi, lengths, stat):
    n = aval_of(a).shape[d]
    fn = {"maximum": reductions.max, "minimum": reductions.min, "mean": reductions.mean,
          "median": median}[stat]
    if lengths is None:
        s_lo = s_hi = fn(a, axis=d, keepdims=True)
    else:
        l_lo, l_hi = (int(v) for v in lengths)
        if l_lo == 0 or l_hi == 0:
            raise ValueError(f"mnp.pad: stat_length of 0 yields no value for padding "
                             f"(at {_where()})")
        s_lo = fn(lax.slice_in_dim(a, 0, builtins.min(l_lo, n), axis=d), axis=d, keepdims=True)
        s_hi = fn(lax.slice_in_dim(a, n - builtins.min(l_hi, n), n, axis=d), axis=d,
                  keepdims=True)
    aval = aval_of(a)
    outs = []
    for s, amount in ((s_lo, lo), (s_hi, hi)):
        if np.issubdtype(aval.dtype, np.integer):
            s = ufuncs.round(s)
        s = lax.convert_element_type(s, aval.dtype, weak_type=aval.weak_type)
        outs.append(mnc.repeat(s, amount, axis=d))
    return _pad_axis([outs[0], a, outs[1]], d)


def _pad_ramp(a, d, lo, hi, ends):
    aval = aval_of(a)
    ramps = []
    for before, amount, end in ((True, lo, ends[0]), (False, hi, ends[1])):
        edge = lax.slice_in_dim(a, 0, 1, axis=d) if before else lax.slice_in_dim(a, -1, None, axis=d)
        r = array_creation.linspace(end, mnp.squeeze(edge, d), amount, endpoint=False,
                                    dtype=aval.dtype, axis=d)
        r = lax.convert_element_type(r, aval.dtype, weak_type=aval.weak_type)
        ramps.append(r if before else mnc.flip(r, d))
    return _pad_axis([ramps[0], a, ramps[1]], d)


def pad(array, pad_width, mode="constant", **kwargs):
    """`array` padded as numpy.pad pads it, in any of its modes ('constant',
    'edge', 'wrap', 'reflect', 'symmetric' (reflect_type 'even' or 'odd'),
    'linear_ramp', 'maximum', 'minimum', 'mean', 'median', 'empty' (zeros, as
    JAX's)) or with a callable mode applied along each axis in turn."""
    a = _arr(array)
    aval = aval_of(a)
    widths = _pad_width("pad", pad_width, aval.ndim)
    if callable(mode):
        return _pad_callable(a, widths, mode, kwargs)
    if mode not in _PAD_KWARGS:
        raise NotImplementedError(f"mnp.pad: unimplemented padding mode {mode!r} "
                                  f"(at {_where()})")
    extra = set(kwargs) - set(_PAD_KWARGS[mode])
    if extra:
        raise ValueError(f"mnp.pad: unsupported keyword arguments for mode {mode!r}: "
                         f"{sorted(extra)} (at {_where()})")
    if aval.ndim == 0:  # (as JAX: a 0-d array is returned as it is)
        return a
    if mode == "constant":
        cv = kwargs.pop("constant_values", 0)
        if isinstance(cv, Tracer) or util._is_array(cv):
            cv_arr = mnp.astype(cv, aval.dtype)
            if aval_of(cv_arr).ndim != 0:
                raise NotImplementedError("mnp.pad: array constant_values must be a scalar")
            return lax.pad(a, cv_arr, [(lo, hi, 0) for lo, hi in widths])
        cvs = np.broadcast_to(np.asarray(cv), (aval.ndim, 2)) if aval.ndim else np.zeros((0, 2))
        if len({float(v) for v in np.ravel(cvs)} | set()) <= 1:
            value = mnp.asarray(np.asarray(np.ravel(cvs)[0] if cvs.size else 0).astype(aval.dtype))
            return lax.pad(a, value, [(lo, hi, 0) for lo, hi in widths])
        for d, (lo, hi) in enumerate(widths):
            for amount, value, before in ((lo, cvs[d][0], True), (hi, cvs[d][1], False)):
                if amount:
                    cfg = [(0, 0, 0)] * aval.ndim
                    cfg[d] = (amount, 0, 0) if before else (0, amount, 0)
                    a = lax.pad(a, mnp.asarray(np.asarray(value).astype(aval.dtype)), cfg)
        return a
    if mode == "empty":  # (zeros, as jnp.empty)
        zero = lax.convert_element_type(mnp.zeros((), aval.dtype), aval.dtype,
                                        weak_type=aval.weak_type)
        return lax.pad(a, zero, [(lo, hi, 0) for lo, hi in widths])
    reflect_type = kwargs.pop("reflect_type", "even")
    if mode in ("reflect", "symmetric") and reflect_type not in ("even", "odd"):
        raise ValueError(f"mnp.pad: reflect_type must be 'even' or 'odd', got "
                         f"{reflect_type!r} (at {_where()})")
    stat_length = kwargs.get("stat_length")
    if stat_length is not None:
        stat_length = _pad_pairs("stat_length", stat_length, aval.ndim)
    ends = _pad_pairs("end_values", kwargs.get("end_values", 0), aval.ndim)
    for d, (lo, hi) in enumerate(widths):
        n = aval_of(a).shape[d]
        if mode in ("maximum", "minimum", "mean", "median"):
            a = _pad_stat(a, d, lo, hi, None if stat_length is None else stat_length[d], mode)
            continue
        if not (lo or hi):
            continue
        if mode == "linear_ramp":
            a = _pad_ramp(a, d, lo, hi, ends[d])
            continue
        if n == 0:
            raise ValueError(f"mnp.pad: can't extend empty axis {d} using modes other than "
                             f"'constant' or 'empty' (at {_where()})")
        if reflect_type == "odd" and mode in ("reflect", "symmetric"):
            a = _pad_reflect_odd(a, d, lo, hi, mode)
            continue
        idx = np.pad(np.arange(n, dtype=np.int32), (lo, hi), mode=mode)
        a = mnc.take(a, idx, axis=d, mode="clip")
    return a


def _pad_callable(a, widths, func, kwargs):
    """numpy.pad's callable mode, as JAX's: zero padding, then
    func(vector, (before, after), axis, kwargs) applied to every 1-d slice
    along each axis in turn (its result is the slice's new value)."""
    from mlax._src.transforms.vmap import vmap

    aval = aval_of(a)
    zero = lax.convert_element_type(mnp.zeros((), aval.dtype), aval.dtype,
                                    weak_type=aval.weak_type)
    out = lax.pad(a, zero, [(lo, hi, 0) for lo, hi in widths])
    for d in range(aval.ndim):
        moved = moveaxis(out, d, -1)
        shape = aval_of(moved).shape
        rows = mnp.reshape(moved, (-1, shape[-1]))
        rows = vmap(lambda v, d=d: mnp.asarray(func(v, widths[d], d, kwargs)))(rows)
        out = moveaxis(mnp.reshape(rows, shape), -1, d)
    return out


def diag(v, k=0):
    """A 1-D array's 2-D matrix with it on the k-th diagonal, or a 2-D
    array's k-th diagonal."""
    v = _arr(v)
    aval = aval_of(v)
    k = _static_int("diag", "k", k)
    if aval.ndim == 1:
        n = aval.shape[0] + builtins.abs(k)
        rows = lax.broadcasted_iota(dtypes.int32, (n, n), 0)
        cols = lax.broadcasted_iota(dtypes.int32, (n, n), 1)
        on = ufuncs.equal(ufuncs.add(rows, k), cols)
        pad_cfg = [(builtins.max(k, 0), builtins.max(-k, 0), 0)]
        vv = lax.pad(v, mnp.zeros((), aval.dtype), pad_cfg) if k else v
        # row r of the matrix holds vv[c] on the diagonal (c = r + k)
        full = mnp.broadcast_to(mnp.reshape(vv, (1, n)), (n, n))
        return mnp.where(on, full, mnp.zeros((), aval.dtype))
    if aval.ndim == 2:
        return mnc.diagonal(v, k)
    raise ValueError(f"mnp.diag: input must be 1d or 2d, got shape {aval.shape} "
                     f"(at {_where()})")


def rot90(m, k=1, axes=(0, 1)):
    """`m` rotated by 90 degrees k times in the plane of `axes`."""
    m = _arr(m)
    ndim = aval_of(m).ndim
    if len(axes) != 2:
        raise ValueError(f"mnp.rot90: len(axes) must be 2, got {axes!r} (at {_where()})")
    if ndim < 2:
        raise ValueError(f"mnp.rot90: array must be at least 2-d, got {ndim} dimensions "
                         f"(at {_where()})")
    a0 = mnp._normalize_axis("rot90", axes[0], ndim)
    a1 = mnp._normalize_axis("rot90", axes[1], ndim)
    if a0 == a1:
        raise ValueError(f"mnp.rot90: axes must be different, got {axes!r} (at {_where()})")
    k = _static_int("rot90", "k", k) % 4
    if k == 0:
        return m
    if k == 2:
        return mnc.flip(mnc.flip(m, a0), a1)
    perm = list(range(ndim))
    perm[a0], perm[a1] = perm[a1], perm[a0]
    if k == 1:
        return lax.transpose(mnc.flip(m, a1), tuple(perm))
    return mnc.flip(lax.transpose(m, tuple(perm)), a1)


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """base ** linspace(start, stop, num), as JAX's (one compiled program)."""
    num = _static_int("logspace", "num", num)
    if num < 0:
        raise ValueError(f"mnp.logspace: number of samples, {num}, must be non-negative "
                         f"(at {_where()})")
    dtype = None if dtype is None else dtypes.canonicalize(dtype)
    return _logspace(_arr(start), _arr(stop), _arr(base), num=num, endpoint=bool(endpoint),
                     dtype=dtype, axis=int(axis))


def _space_dtypes(start, stop, dtype):
    if dtype is None:
        dtype = dtypes.to_inexact(dtypes.result_type(
            *((aval_of(x).dtype, aval_of(x).weak_type) for x in (start, stop)))[0])
    return dtype, dtypes.to_inexact(dtype)


def _logspace(start, stop, base, *, num, endpoint, dtype, axis):
    dt, cdt = _space_dtypes(start, stop, dtype)
    lin = array_creation.linspace(mnp.astype(start, cdt), mnp.astype(stop, cdt), num,
                                  endpoint=endpoint, axis=axis)
    return mnp.astype(ufuncs.power(base, lin), dt)


_logspace = util._eager_jit(_logspace, ("num", "endpoint", "dtype", "axis"))


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """Numbers evenly spaced on a log scale from `start` to `stop`, as JAX's:
    sign(start) * logspace(log10(start / sign), log10(stop / sign))."""
    num = _static_int("geomspace", "num", num)
    if num < 0:
        raise ValueError(f"mnp.geomspace: number of samples, {num}, must be non-negative "
                         f"(at {_where()})")
    dtype = None if dtype is None else dtypes.canonicalize(dtype)
    return _geomspace(_arr(start), _arr(stop), num=num, endpoint=bool(endpoint),
                      dtype=dtype, axis=int(axis))


def _geomspace(start, stop, *, num, endpoint, dtype, axis):
    dt, cdt = _space_dtypes(start, stop, dtype)
    start, stop = mnp.astype(start, cdt), mnp.astype(stop, cdt)
    sign = ufuncs.sign(start)
    res = ufuncs.multiply(sign, logspace(ufuncs.log10(ufuncs.divide(start, sign)),
                                         ufuncs.log10(ufuncs.divide(stop, sign)), num,
                                         endpoint=endpoint, base=10.0, dtype=cdt))
    ax = mnp._normalize_axis("geomspace", axis, aval_of(res).ndim)
    if ax:
        res = moveaxis(res, 0, ax)
    return mnp.astype(res, dt)


_geomspace = util._eager_jit(_geomspace, ("num", "endpoint", "dtype", "axis"))


# ---------------------------------------------------------------------------
# NaN-ignoring reductions
# ---------------------------------------------------------------------------

def _nan_prep(name, a, where):
    a = reductions._strongly_typed(_arr(a))
    aval = aval_of(a)
    return a, aval, reductions._where_mask(name, where, aval.shape)


def _apply_initial(out, initial, fn):
    if initial is None:
        return out
    return fn(out, mnp.asarray(initial, aval_of(out).dtype))


def nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    """Sum ignoring NaNs (they count as 0)."""
    if out is not None:
        raise NotImplementedError("mnp.nansum: the out argument is not supported")
    a, aval, mask = _nan_prep("nansum", a, where)
    if dtypes.is_inexact(aval.dtype):
        a = _fill(a, ufuncs.logical_not(ufuncs.isnan(a)), 0)
    if mask is not None:
        a = _fill(a, mask, 0) if not dtypes.is_bool(aval.dtype) else ufuncs.logical_and(a, mask)
    res = reductions.sum(a, axis=axis, dtype=dtype, keepdims=keepdims)
    return _apply_initial(res, initial, ufuncs.add)


def nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    """Product ignoring NaNs (they count as 1)."""
    if out is not None:
        raise NotImplementedError("mnp.nanprod: the out argument is not supported")
    a, aval, mask = _nan_prep("nanprod", a, where)
    if dtypes.is_inexact(aval.dtype):
        a = _fill(a, ufuncs.logical_not(ufuncs.isnan(a)), 1)
    if mask is not None:
        a = _fill(a, mask, 1) if not dtypes.is_bool(aval.dtype) else ufuncs.logical_or(
            a, ufuncs.logical_not(mask))
    res = reductions.prod(a, axis=axis, dtype=dtype, keepdims=keepdims)
    return _apply_initial(res, initial, ufuncs.multiply)


def _nan_extreme(name, a, axis, keepdims, initial, where, is_max):
    a, aval, mask = _nan_prep(name, a, where)
    axes = mnp._axes(name, axis, aval.ndim)
    if mask is not None and initial is None:
        raise ValueError(f"mnp.{name}: reduction operation {name} with where= needs an "
                         f"initial value (at {_where()})")
    reduce_ = lax.reduce_max if is_max else lax.reduce_min  # (complex: lexicographic)
    combine = ufuncs.maximum if is_max else ufuncs.minimum
    if initial is None and builtins.any(aval.shape[d] == 0 for d in axes):
        raise ValueError(f"mnp.{name}: zero-size array to reduction operation {name} which "
                         f"has no identity (at {_where()})")
    inexact = dtypes.is_inexact(aval.dtype)
    x = a
    if inexact:
        x = _fill(x, ufuncs.logical_not(ufuncs.isnan(x)), -np.inf if is_max else np.inf)
    if mask is not None:
        if inexact:
            x = _fill(x, mask, -np.inf if is_max else np.inf)
        elif dtypes.is_bool(aval.dtype):
            x = ufuncs.logical_and(x, mask) if is_max else ufuncs.logical_or(x, ufuncs.logical_not(mask))
        else:
            info = dtypes.iinfo(aval.dtype)
            x = _fill(x, mask, info.min if is_max else info.max)
    res = reduce_(x, axes)
    if initial is not None:
        res = combine(res, mnp.asarray(initial, aval.dtype))
    elif inexact:
        all_nan = reductions.all(ufuncs.isnan(a), axis=axes)
        res = mnp.where(all_nan, mnp.full((), np.nan, aval.dtype), res)
    if keepdims:
        res = lax.reshape(res, _keepdims_shape(aval.shape, axes))
    return res


def nanmax(a, axis=None, out=None, keepdims=False, initial=None, where=None):
    """Maximum ignoring NaNs (NaN where every element is NaN)."""
    if out is not None:
        raise NotImplementedError("mnp.nanmax: the out argument is not supported")
    return _nan_extreme("nanmax", a, axis, keepdims, initial, where, True)


def nanmin(a, axis=None, out=None, keepdims=False, initial=None, where=None):
    """Minimum ignoring NaNs (NaN where every element is NaN)."""
    if out is not None:
        raise NotImplementedError("mnp.nanmin: the out argument is not supported")
    return _nan_extreme("nanmin", a, axis, keepdims, initial, where, False)


def _count(name, a, axis, keepdims, mask, dtype):
    valid = ufuncs.logical_not(ufuncs.isnan(a))
    if mask is not None:
        valid = ufuncs.logical_and(valid, mask)
    return reductions.sum(valid, axis=axis, dtype=dtype, keepdims=keepdims)


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, where=None):
    """Mean of the non-NaN elements."""
    if out is not None:
        raise NotImplementedError("mnp.nanmean: the out argument is not supported")
    a, aval, mask = _nan_prep("nanmean", a, where)
    if not dtypes.is_inexact(aval.dtype):  # (as JAX: no NaNs, the mean)
        return reductions.mean(a, axis=axis, dtype=dtype, keepdims=keepdims, where=mask)
    dt = aval.dtype if dtype is None else dtypes.canonicalize(dtype)
    reductions._check_div_dtype("nanmean", dt)
    # As JAX: the NaNs are dropped before the conversion to dtype (an integer
    # dtype= sums and divides in integers, truncating).
    total = nansum(a, axis=axis, dtype=dt, keepdims=keepdims, where=mask)
    count = _count("nanmean", a, axis, keepdims, mask, dt)
    if not dtypes.is_inexact(dt):
        return lax.div(total, count)
    return ufuncs.divide(total, count)


def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, where=None, mean=None):
    """Variance of the non-NaN elements (divisor: count - ddof); `mean`: their
    mean along `axis` (keepdims-shaped), if already known."""
    if out is not None:
        raise NotImplementedError("mnp.nanvar: the out argument is not supported")
    a, aval, mask = _nan_prep("nanvar", a, where)
    axes = mnp._axes("nanvar", axis, aval.ndim)
    dt, cdt = reductions._var_dtypes(aval.dtype, dtype)
    a = mnp.astype(a, cdt)
    a_mean = (nanmean(a, axis=axes, dtype=cdt, keepdims=True, where=mask) if mean is None
              else mnp.astype(_arr(mean), cdt))
    nan = ufuncs.isnan(a)
    centered = mnp.where(nan, mnp.zeros((), cdt), ufuncs.subtract(a, a_mean))
    if dtypes.is_complex(cdt):  # |a - mean|^2, real, as var's
        sq = lax.real(ufuncs.multiply(centered, lax.conj(centered)))
        cdt = aval_of(sq).dtype
    else:
        sq = ufuncs.multiply(centered, centered)
    if mask is not None:
        sq = _fill(sq, mask, 0)
    normalizer = _count("nanvar", a, axes, keepdims, mask, dtypes.default_int())
    normalizer = ufuncs.subtract(normalizer, ddof)
    bad = ufuncs.less_equal(normalizer, 0)
    result = reductions.sum(sq, axis=axes, keepdims=keepdims)
    # (as JAX: with an integer dtype=, the NaN makes this a float division,
    # converted back to dtype)
    result = mnp.where(bad, np.nan, result)
    divisor = mnp.astype(mnp.where(bad, mnp.ones_like(normalizer), normalizer),
                         aval_of(result).dtype)
    return mnp.astype(ufuncs.divide(result, divisor), dt)


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, where=None, mean=None):
    """Standard deviation of the non-NaN elements."""
    if out is not None:
        raise NotImplementedError("mnp.nanstd: the out argument is not supported")
    a = _arr(a)
    where = reductions._where_mask("nanstd", where, aval_of(a).shape)
    if dtype is not None and not dtypes.is_inexact(dtypes.canonicalize(dtype)):
        # As JAX (its lax.sqrt of the integer nanvar).
        raise TypeError(f"mnp.nanstd: sqrt does not accept dtype "
                        f"{dtypes.canonicalize(dtype)}. Accepted dtypes are subtypes of "
                        f"floating, complexfloating.")
    return ufuncs.sqrt(nanvar(a, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims,
                              where=where, mean=mean))


def _nanarg(name, a, axis, keepdims, is_max):
    a = _arr(a)
    aval = aval_of(a)
    argfn = mnc.argmax if is_max else mnc.argmin
    if not dtypes.is_inexact(aval.dtype):
        return argfn(a, axis=axis, keepdims=keepdims)
    nan = ufuncs.isnan(a)
    filled = _fill(a, ufuncs.logical_not(nan), -np.inf if is_max else np.inf)
    res = argfn(filled, axis=axis, keepdims=keepdims)
    all_nan = reductions.all(nan, axis=axis, keepdims=bool(keepdims))
    return mnp.where(all_nan, mnp.full((), -1, aval_of(res).dtype), res)


def nanargmax(a, axis=None, out=None, keepdims=None):
    """Index of the maximum ignoring NaNs (-1 where every element is NaN, as JAX)."""
    if out is not None:
        raise NotImplementedError("mnp.nanargmax: the out argument is not supported")
    return _nanarg("nanargmax", a, axis, keepdims, True)


def nanargmin(a, axis=None, out=None, keepdims=None):
    """Index of the minimum ignoring NaNs (-1 where every element is NaN, as JAX)."""
    if out is not None:
        raise NotImplementedError("mnp.nanargmin: the out argument is not supported")
    return _nanarg("nanargmin", a, axis, keepdims, False)


def nancumsum(a, axis=None, dtype=None, out=None):
    """Cumulative sum with NaNs counted as 0."""
    a = _arr(a)
    if dtypes.is_inexact(aval_of(a).dtype):
        a = _fill(a, ufuncs.logical_not(ufuncs.isnan(a)), 0)
    return reductions.cumsum(a, axis=axis, dtype=dtype, out=out)


def nancumprod(a, axis=None, dtype=None, out=None):
    """Cumulative product with NaNs counted as 1."""
    a = _arr(a)
    if dtypes.is_inexact(aval_of(a).dtype):
        a = _fill(a, ufuncs.logical_not(ufuncs.isnan(a)), 1)
    return reductions.cumprod(a, axis=axis, dtype=dtype, out=out)


# ---------------------------------------------------------------------------
# Order statistics: quantile, percentile, median
# ---------------------------------------------------------------------------

_METHODS = ("linear", "lower", "higher", "midpoint", "nearest", "inverted_cdf")


def _quantile(name, a, q, axis, method, keepdims, squash_nans, out, overwrite_input,
              weights=None):
    if out is not None or overwrite_input:
        raise ValueError(f"mnp.{name} does not support overwrite_input=True or out != None "
                         f"(at {_where()})")
    if method not in _METHODS:
        raise ValueError(f"mnp.{name}: method can only be 'linear', 'lower', 'higher', "
                         f"'midpoint', 'nearest' or 'inverted_cdf', got {method!r} "
                         f"(at {_where()})")
    a = _arr(a)
    w = None
    if weights is not None:
        a, w = _quantile_weights(name, a, _arr(weights), axis, method)
    a = _to_inexact(a)
    aval = aval_of(a)
    if dtypes.is_complex(aval.dtype):
        raise ValueError(f"mnp.{name}: quantile does not support complex input, as the "
                         f"operation is poorly defined (at {_where()})")
    q = _to_inexact(_arr(q))
    qaval = aval_of(q)
    if qaval.ndim > 1:
        raise ValueError(f"mnp.{name}: q must be have rank <= 1, got shape {qaval.shape} "
                         f"(at {_where()})")
    qdt = qaval.dtype
    axes = mnp._axes(name, axis, aval.ndim)
    keep_shape = _keepdims_shape(aval.shape, axes)
    rest = [d for d in range(aval.ndim) if d not in axes]
    # reduced axes last, merged into one
    a = lax.transpose(a, tuple(rest + list(axes))) if aval.ndim else a
    lead = tuple(aval.shape[d] for d in rest)
    n = int(np.prod([aval.shape[d] for d in axes], dtype=np.int64))
    a = lax.reshape(a, lead + (n,))
    if w is not None:
        w = lax.reshape(lax.transpose(w, tuple(rest + list(axes))) if aval.ndim else w,
                        lead + (n,))
    qs = lax.reshape(q, (qaval.size,)) if qaval.ndim else lax.reshape(q, (1,))
    k = aval_of(qs).shape[0]
    if n == 0:
        res = mnp.full(qaval.shape + lead, np.nan, aval.dtype)
    else:
        nan = ufuncs.isnan(a)
        if squash_nans:
            srt, w = _sort(a, w, len(lead))
            counts = reductions.sum(ufuncs.logical_not(nan), axis=-1, dtype=qdt)  # lead
            counts_b = mnp.reshape(counts, lead + (1,))
            pos = ufuncs.multiply(mnp.reshape(qs, (1,) * len(lead) + (k,)),
                               ufuncs.subtract(counts_b, 1))  # lead + (k,)
            hi_lim = ufuncs.subtract(counts_b, 1)
        else:
            any_nan = reductions.any(nan, axis=-1, keepdims=True)
            a = mnp.where(any_nan, mnp.full((), np.nan, aval.dtype), a)
            srt, w = _sort(a, w, len(lead))
            pos = ufuncs.multiply(qs, np.asarray(n - 1, qdt))  # (k,)
            hi_lim = np.asarray(n - 1, qdt)
        if w is not None:
            res = _weighted_inverted_cdf(srt, w, qs, counts if squash_nans else n, squash_nans)
        elif method == "inverted_cdf":
            # The first sorted value whose rank (1-based) reaches q * count:
            # index ceil(q * count) - 1, as JAX's unweighted inverted_cdf.
            cnt = counts_b if squash_nans else np.asarray(n, qdt)
            qb = mnp.reshape(qs, (1,) * len(lead) + (k,)) if squash_nans else qs
            pos = ufuncs.subtract(ufuncs.ceil(ufuncs.multiply(qb, cnt)), 1)
        if w is None:
            res = _interpolate(srt, pos, hi_lim, lead, k, method, qdt, aval.dtype)
        res = mnp.astype(res, aval.dtype)
        # (lead..., k) -> (k, lead...) -> q's shape + lead
        res = moveaxis(res, -1, 0)
        res = lax.reshape(res, qaval.shape + lead)
    if keepdims:
        res = lax.reshape(res, qaval.shape + keep_shape)
    return res


def _sort(a, w, dimension):
    if w is None:
        return lax.sort(a, dimension=dimension), None
    return lax.sort_key_val(a, w, dimension=dimension)


def _quantile_weights(name, a, w, axis, method):
    """`a` and `weights` promoted to a common inexact dtype and `weights`
    broadcast to a's shape, with JAX's checks (only inverted_cdf weighs)."""
    if dtypes.is_complex(aval_of(w).dtype):
        raise ValueError(f"mnp.{name}: Weights cannot be complex types.")
    if method != "inverted_cdf":
        raise NotImplementedError(f"mnp.{name}: {method} doesn't support weights. Only "
                                  f"method 'inverted_cdf' supports weights.")
    dt = dtypes.to_inexact(dtypes.result_type(
        *((aval_of(x).dtype, aval_of(x).weak_type) for x in (a, w)))[0])
    a, w = mnp.astype(a, dt), mnp.astype(w, dt)
    ashape, wshape = aval_of(a).shape, aval_of(w).shape
    if wshape != ashape:
        if axis is None:
            raise ValueError(f"mnp.{name}: Weights shape must match 'a' shape when axis is "
                             f"None.")
        axes = mnp._axes(name, axis, len(ashape))
        if wshape != tuple(ashape[d] for d in axes):
            raise ValueError(f"mnp.{name}: Weights shape {wshape} must match reduction axes "
                             f"{tuple(ashape[d] for d in axes)}")
        order = sorted(range(len(axes)), key=lambda i: axes[i])
        w = lax.broadcast_in_dim(lax.transpose(w, tuple(order)), ashape,
                                 tuple(sorted(axes)))
    return a, w


def _weighted_inverted_cdf(srt, w, qs, count, squash_nans):
    """JAX's weighted inverted_cdf along the last axis of the sorted `srt`
    (lead + (n,)) with its weights `w`: the first value whose cumulative weight
    reaches q * the total weight, NaN where any weight is negative or NaN (or
    a value is NaN, or, ignoring NaNs, all are)."""
    lead = aval_of(srt).shape[:-1]
    k = aval_of(qs).shape[0]
    n = aval_of(srt).shape[-1]
    bad = ufuncs.logical_or(ufuncs.less(w, 0), ufuncs.isnan(w))
    nan_d = ufuncs.isnan(srt)
    clean = mnp.where(ufuncs.logical_or(bad, nan_d), mnp.zeros((), aval_of(w).dtype), w)
    cum = reductions.cumsum(clean, axis=-1)  # lead + (n,)
    total = lax.slice_in_dim(cum, n - 1, n, axis=len(lead))  # lead + (1,)
    target = ufuncs.multiply(mnp.reshape(qs, (1,) * len(lead) + (k,)), total)  # lead + (k,)
    is_less = ufuncs.less(mnp.expand_dims(cum, -2), mnp.expand_dims(target, -1))
    idx = reductions.sum(is_less, axis=-1, dtype=dtypes.default_int())  # lead + (k,)
    limit = (mnp.astype(mnp.reshape(count, lead + (1,)), dtypes.default_int())
             if squash_nans else n)
    idx = ufuncs.maximum(0, ufuncs.minimum(idx, ufuncs.subtract(limit, 1)))
    res = mnc.take_along_axis(srt, idx, axis=-1, mode="clip")
    force = reductions.any(bad, axis=-1, keepdims=True)
    if squash_nans:
        force = ufuncs.logical_or(force, ufuncs.equal(mnp.reshape(count, lead + (1,)), 0))
    else:
        force = ufuncs.logical_or(force, reductions.any(nan_d, axis=-1, keepdims=True))
    return mnp.where(force, mnp.full((), np.nan, aval_of(srt).dtype), res)


def _interpolate(srt, pos, hi_lim, lead, k, method, qdt, dt):
    """The quantiles at the (fractional) sorted positions `pos` by `method`."""
    low = ufuncs.floor(pos)
    high = ufuncs.ceil(pos)
    high_w = ufuncs.subtract(pos, low)
    low_w = ufuncs.subtract(1, high_w)
    low = ufuncs.maximum(0, ufuncs.minimum(low, hi_lim))
    high = ufuncs.maximum(0, ufuncs.minimum(high, hi_lim))
    shape = lead + (k,)
    low_i = mnp.broadcast_to(mnp.astype(low, dtypes.int32), shape)
    high_i = mnp.broadcast_to(mnp.astype(high, dtypes.int32), shape)
    lo_v = mnc.take_along_axis(srt, low_i, axis=-1, mode="clip")
    hi_v = mnc.take_along_axis(srt, high_i, axis=-1, mode="clip")
    high_w = mnp.broadcast_to(high_w, shape)
    low_w = mnp.broadcast_to(low_w, shape)
    if method == "linear":
        res = ufuncs.add(ufuncs.multiply(mnp.astype(lo_v, qdt), low_w),
                         ufuncs.multiply(mnp.astype(hi_v, qdt), high_w))
    elif method in ("lower", "inverted_cdf"):
        res = lo_v
    elif method == "higher":
        res = hi_v
    elif method == "nearest":
        res = mnp.where(ufuncs.less_equal(high_w, 0.5), lo_v, hi_v)
    else:  # midpoint
        res = ufuncs.multiply(ufuncs.add(lo_v, hi_v), np.asarray(0.5, dt))
    return res


# One jit dispatch per call when eager (as jax.numpy's quantile family).
_quantile = util._eager_jit(_quantile, ("name", "axis", "method", "keepdims", "squash_nans",
                                        "out", "overwrite_input"))


def _check_quantile_args(name, *args):
    """As JAX's ensure_arraylike: a list or tuple is not an array."""
    for x in args:
        if x is not None:
            util._check_arg(name, x)


def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
             keepdims=False, *, weights=None):
    """The q-th quantiles of `a` along `axis` (an int, a tuple or None)."""
    _check_quantile_args("quantile", a, q, weights)
    return _quantile("quantile", a, q, axis, method, keepdims, False, out, overwrite_input,
                     weights)


def nanquantile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                keepdims=False, *, weights=None):
    """quantile ignoring NaNs."""
    _check_quantile_args("nanquantile", a, q, weights)
    return _quantile("nanquantile", a, q, axis, method, keepdims, True, out, overwrite_input,
                     weights)


def _percent(q):
    q = _to_inexact(_arr(q))
    return ufuncs.divide(q, 100)


def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
               keepdims=False, *, weights=None, out_sharding=None):
    """The q-th percentiles (q in [0, 100]) of `a` along `axis`.
    `out_sharding`: only None (JAX's default); mlax has no sharding yet, and
    any other value raises NotImplementedError."""
    _check_quantile_args("percentile", a, q, weights)
    util._check_out_sharding("percentile", out_sharding)
    return _quantile("percentile", a, _percent(q), axis, method, keepdims, False, out,
                     overwrite_input, weights)


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                  keepdims=False, *, weights=None):
    """percentile ignoring NaNs."""
    _check_quantile_args("nanpercentile", a, q, weights)
    return _quantile("nanpercentile", a, _percent(q), axis, method, keepdims, True, out,
                     overwrite_input, weights)


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """The median along `axis` (quantile 0.5, method 'midpoint', as JAX)."""
    _check_quantile_args("median", a)
    return _quantile("median", a, 0.5, axis, "midpoint", keepdims, False, out,
                     overwrite_input)


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """The median ignoring NaNs."""
    _check_quantile_args("nanmedian", a)
    return _quantile("nanmedian", a, 0.5, axis, "midpoint", keepdims, True, out,
                     overwrite_input)


# ---------------------------------------------------------------------------
# Differences, products, comparisons
# ---------------------------------------------------------------------------

def diff(a, n=1, axis=-1, prepend=None, append=None):
    """The n-th discrete difference along `axis` (!= for bools)."""
    a = _arr(a)
    aval = aval_of(a)
    n = _static_int("diff", "n", n)
    if n < 0:
        raise ValueError(f"mnp.diff: order must be non-negative but got {n} (at {_where()})")
    if aval.ndim == 0:
        raise ValueError(f"mnp.diff: diff requires input that is at least one dimensional; "
                         f"got a 0-d array (at {_where()})")
    if n == 0:
        return a
    axis = mnp._normalize_axis("diff", axis, aval.ndim)
    combined = []
    edge = list(aval.shape)
    edge[axis] = 1
    if prepend is not None:
        p = _arr(prepend)
        combined.append(mnp.broadcast_to(p, tuple(edge)) if aval_of(p).ndim == 0 else p)
    combined.append(a)
    if append is not None:
        p = _arr(append)
        combined.append(mnp.broadcast_to(p, tuple(edge)) if aval_of(p).ndim == 0 else p)
    if len(combined) > 1:
        a = mnp.concatenate(combined, axis)
    is_bool = dtypes.is_bool(aval_of(a).dtype)
    for _ in range(n):
        m = aval_of(a).shape[axis]
        hi = lax.slice_in_dim(a, builtins.min(1, m), m, axis=axis)
        lo = lax.slice_in_dim(a, 0, builtins.max(m - 1, 0), axis=axis)
        a = ufuncs.not_equal(hi, lo) if is_bool else ufuncs.subtract(hi, lo)
    return a


def ediff1d(ary, to_end=None, to_begin=None):
    """Differences between consecutive elements of the flattened array."""
    arr = mnp.ravel(_arr(ary))
    m = aval_of(arr).shape[0]
    res = ufuncs.subtract(lax.slice_in_dim(arr, builtins.min(1, m), m),
                       lax.slice_in_dim(arr, 0, builtins.max(m - 1, 0)))
    dt = aval_of(arr).dtype
    if to_begin is not None:
        res = mnp.concatenate([mnp.ravel(mnp.astype(_arr(to_begin), dt)), res])
    if to_end is not None:
        res = mnp.concatenate([res, mnp.ravel(mnp.astype(_arr(to_end), dt))])
    return res


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """The cross product of 2- or 3-element vectors."""
    a, b = util.promote_dtypes("cross", _arr(a), _arr(b))
    if axis is not None:
        axisa = axisb = axisc = axis
    a = moveaxis(a, axisa, -1)
    b = moveaxis(b, axisb, -1)
    na, nb = aval_of(a).shape[-1], aval_of(b).shape[-1]
    if na not in (2, 3) or nb not in (2, 3):
        raise ValueError(f"mnp.cross: incompatible dimensions for cross product (dimension "
                         f"must be 2 or 3), got {na} and {nb} (at {_where()})")

    def comp(x, i, nx):
        if i < nx:
            return x[..., i]
        return mnp.zeros_like(x[..., 0])

    if na == 2 and nb == 2:
        return ufuncs.subtract(ufuncs.multiply(a[..., 0], b[..., 1]),
                            ufuncs.multiply(a[..., 1], b[..., 0]))
    a0, a1, a2 = (comp(a, i, na) for i in range(3))
    b0, b1, b2 = (comp(b, i, nb) for i in range(3))
    c = mnp.stack([ufuncs.subtract(ufuncs.multiply(a1, b2), ufuncs.multiply(a2, b1)),
                   ufuncs.subtract(ufuncs.multiply(a2, b0), ufuncs.multiply(a0, b2)),
                   ufuncs.subtract(ufuncs.multiply(a0, b1), ufuncs.multiply(a1, b0))])
    return moveaxis(c, 0, axisc)


def kron(a, b):
    """The Kronecker product."""
    a, b = util.promote_dtypes("kron", _arr(a), _arr(b))
    a, b = _arr(a), _arr(b)
    na, nb = aval_of(a).ndim, aval_of(b).ndim
    nd = builtins.max(na, nb)
    sa = (1,) * (nd - na) + aval_of(a).shape
    sb = (1,) * (nd - nb) + aval_of(b).shape
    a = lax.reshape(a, tuple(v for s in sa for v in (s, 1)))
    b = lax.reshape(b, tuple(v for s in sb for v in (1, s)))
    return mnp.reshape(ufuncs.multiply(a, b), tuple(x * y for x, y in zip(sa, sb)))


def array_equal(a1, a2, equal_nan=False):
    """Whether the arrays have one shape and equal elements."""
    a1, a2 = _arr(a1), _arr(a2)
    if aval_of(a1).shape != aval_of(a2).shape:
        return mnp.asarray(False)
    eq = ufuncs.equal(a1, a2)
    if equal_nan:
        eq = ufuncs.logical_or(eq, ufuncs.logical_and(ufuncs.isnan(a1), ufuncs.isnan(a2)))
    return reductions.all(eq)


def array_equiv(a1, a2):
    """Whether the arrays broadcast to one shape with equal elements."""
    a1, a2 = _arr(a1), _arr(a2)
    try:
        util.broadcast_shapes(aval_of(a1).shape, aval_of(a2).shape, name="array_equiv")
    except ValueError:
        return mnp.asarray(False)
    return reductions.all(ufuncs.equal(a1, a2))


# ---------------------------------------------------------------------------
# Statistics
# ---------------------------------------------------------------------------

def average(a, axis=None, weights=None, returned=False, keepdims=False):
    """The (weighted) mean along `axis`; with `returned`, also the sum of weights."""
    a = _arr(a)
    aval = aval_of(a)
    axes = mnp._axes("average", axis, aval.ndim)
    if weights is None:
        a = _to_inexact(a)
        avg = reductions.mean(a, axis=axis, keepdims=keepdims)
        wsum = mnp.full((), int(np.prod([aval.shape[d] for d in axes], dtype=np.int64)),
                        aval_of(avg).dtype)
    else:
        a, w = _promote_inexact("average", a, _arr(weights))
        a, w = _arr(a), _arr(w)
        wshape = aval_of(w).shape
        if wshape != aval.shape:
            if axis is None:
                raise ValueError(f"mnp.average: axis must be specified when shapes of a and "
                                 f"weights differ (at {_where()})")
            if wshape != tuple(aval.shape[d] for d in axes):
                raise ValueError(f"mnp.average: shape of weights {wshape} must be consistent "
                                 f"with shape of a {aval.shape} along axis {axis} "
                                 f"(at {_where()})")
            order = list(axes) if not isinstance(axis, (tuple, list)) else [
                mnp._normalize_axis("average", x, aval.ndim) for x in axis]
            # weights' axis k lies along a's axis order[k]: sort them into a's order.
            w = mnp.transpose(w, tuple(int(i) for i in np.argsort(order)))
            w = lax.reshape(w, tuple(d if i in axes else 1 for i, d in enumerate(aval.shape)))
            w = mnp.broadcast_to(w, aval.shape)
        wsum = reductions.sum(w, axis=axis, keepdims=keepdims)
        avg = ufuncs.divide(reductions.sum(ufuncs.multiply(a, w), axis=axis, keepdims=keepdims), wsum)
    if returned:
        if aval_of(wsum).shape != aval_of(avg).shape:
            wsum = mnp.broadcast_to(wsum, aval_of(avg).shape)
        return avg, wsum
    return avg


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None,
        dtype=None):
    """The covariance matrix of the variables in the rows (columns if not rowvar) of m."""
    if y is not None:
        m, y = _promote_inexact("cov", _arr(m), _arr(y))
        m, y = _arr(m), _arr(y)
        if aval_of(y).ndim > 2:
            raise ValueError(f"mnp.cov: y has more than 2 dimensions (at {_where()})")
    else:
        m = _to_inexact(_arr(m))
    if aval_of(m).ndim > 2:
        raise ValueError(f"mnp.cov: m has more than 2 dimensions (at {_where()})")
    if dtype is not None and not dtypes.is_inexact(dtypes.canonicalize(dtype)):
        raise ValueError(f"mnp.cov: dtype must be a subclass of float or complex; got "
                         f"{dtype!r} (at {_where()})")
    X = mnc.atleast_2d(m)
    if not rowvar and aval_of(m).ndim != 1:
        X = mnp.transpose(X)
    if aval_of(X).shape[0] == 0:
        return mnp.zeros((0, 0), aval_of(X).dtype)
    if y is not None:
        Y = mnc.atleast_2d(y)
        if not rowvar and aval_of(Y).shape[0] != 1:
            Y = mnp.transpose(Y)
        X = mnp.concatenate([X, Y], 0)
    nvar, nobs = aval_of(X).shape
    if nobs == 0:
        return mnp.full(() if nvar == 1 else (nvar, nvar), np.nan, aval_of(X).dtype)
    if ddof is None:
        ddof = 1 if not bias else 0
    w = None
    if fweights is not None:
        fw = _arr(fweights)
        if aval_of(fw).ndim > 1:
            raise RuntimeError("mnp.cov: cannot handle multidimensional fweights")
        if aval_of(fw).shape[0] != nobs:
            raise RuntimeError("mnp.cov: incompatible numbers of samples and fweights")
        if not dtypes.is_int(aval_of(fw).dtype):
            raise TypeError(f"mnp.cov: fweights must be integer (at {_where()})")
        w = ufuncs.abs(fw)
    aw = None
    if aweights is not None:
        aw = _arr(aweights)
        if aval_of(aw).ndim > 1:
            raise RuntimeError("mnp.cov: cannot handle multidimensional aweights")
        if aval_of(aw).shape[0] != nobs:
            raise RuntimeError("mnp.cov: incompatible numbers of samples and aweights")
        aw = ufuncs.abs(aw)
        w = aw if w is None else ufuncs.multiply(w, aw)
    if dtype is not None:
        X = mnp.astype(X, dtype)
        w = mnp.astype(w, dtype) if w is not None else w
    avg, w_sum = average(X, axis=1, weights=w, returned=True)
    w_sum = w_sum[0]
    if w is None:
        f = nobs - ddof
    elif ddof == 0:
        f = w_sum
    elif aw is None:
        f = ufuncs.subtract(w_sum, ddof)
    else:
        f = ufuncs.subtract(w_sum, ufuncs.divide(ufuncs.multiply(ddof, reductions.sum(ufuncs.multiply(w, aw))),
                                           w_sum))
    X = ufuncs.subtract(X, mnp.reshape(avg, (-1, 1)))
    XT = mnp.transpose(X if w is None else ufuncs.multiply(X, mnp.reshape(w, (1, -1))))
    c = ufuncs.divide(tensor_contractions.dot(X, ufuncs.conjugate(XT)), f)  # (X X^H)
    return mnp.squeeze(c)


cov = util._eager_jit(cov, ("rowvar", "bias", "ddof", "dtype"))


def corrcoef(x, y=None, rowvar=True, dtype=None):
    """Pearson correlation coefficients: cov normalized by the std devs,
    clipped to [-1, 1] (complex: each part clipped, as JAX's)."""
    if dtype is not None and not dtypes.is_inexact(dtypes.canonicalize(dtype)):
        raise ValueError(f"mnp.corrcoef: dtype must be a subclass of float or complex; got "
                         f"{dtype!r} (at {_where()})")
    c = cov(x, y, rowvar, dtype=dtype)
    if aval_of(c).ndim == 0:
        return ufuncs.divide(c, c)
    dt = aval_of(c).dtype
    sd = mnp.astype(ufuncs.sqrt(ufuncs.real(mnc.diagonal(c))), dt)
    c = ufuncs.divide(ufuncs.divide(c, mnp.reshape(sd, (-1, 1))), mnp.reshape(sd, (1, -1)))
    if dtypes.is_complex(dt):
        return lax.complex(ufuncs.clip(ufuncs.real(c), -1, 1), ufuncs.clip(ufuncs.imag(c), -1, 1))
    return ufuncs.clip(c, -1, 1)


corrcoef = util._eager_jit(corrcoef, ("rowvar", "dtype"))


def histogram_bin_edges(a, bins=10, range=None, weights=None):  # noqa: A002
    """The edges of histogram's bins."""
    if isinstance(bins, str):
        raise NotImplementedError("mnp.histogram_bin_edges: string values for bins are not "
                                  "supported")
    arr = _arr(a)
    dt = aval_of(_to_inexact(arr)).dtype
    if not isinstance(bins, Tracer) and np.ndim(bins) == 1 or (
            util._is_array(bins) and aval_of(bins).ndim == 1):
        return mnp.astype(_arr(bins), dt)
    bins = core.concretize(bins)
    if isinstance(bins, Tracer):
        raise errors.concretization(bins, "the bins argument of mnp.histogram_bin_edges")
    nbins = _static_int("histogram_bin_edges", "bins", bins)
    if nbins < 1:
        raise ValueError(f"mnp.histogram_bin_edges: bins must be positive, got {nbins} "
                         f"(at {_where()})")
    if range is None:
        flat = mnp.ravel(arr)
        lo, hi = reductions.min(flat), reductions.max(flat)
    else:
        if isinstance(range, (tuple, list)) and len(range) == 2:
            lo, hi = range
        else:
            r = _arr(range)
            if aval_of(r).shape != (2,):
                raise ValueError(f"mnp.histogram_bin_edges: range must be either None or a "
                                 f"sequence of two scalars, got {range!r} (at {_where()})")
            lo, hi = r[0], r[1]
    lo, hi = mnp.astype(_arr(lo), dt), mnp.astype(_arr(hi), dt)
    same = ufuncs.equal(lo, hi)
    lo = mnp.where(same, ufuncs.subtract(lo, np.asarray(0.5, dt)), lo)
    hi = mnp.where(same, ufuncs.add(hi, np.asarray(0.5, dt)), hi)
    return array_creation.linspace(lo, hi, nbins + 1)


def histogram(a, bins=10, range=None, weights=None, density=None):  # noqa: A002
    """Counts (or weight sums) of `a`'s elements in the bins, and the bin edges."""
    a = _arr(a)
    if weights is None:
        a = _to_inexact(a)
        w = mnp.ones_like(a)
    else:
        w = _arr(weights)
        if aval_of(w).shape != aval_of(a).shape:
            raise ValueError(f"mnp.histogram: weights should have the same shape as a, got "
                             f"{aval_of(w).shape} and {aval_of(a).shape} (at {_where()})")
        a, w = _promote_inexact("histogram", a, w)
        a, w = _arr(a), _arr(w)
    edges = histogram_bin_edges(a, bins, range)
    ne = aval_of(edges).shape[0]
    flat = mnp.ravel(a)
    idx = mnc.searchsorted(edges, flat, side="right")
    idx = mnp.where(ufuncs.equal(flat, edges[ne - 1]), np.asarray(ne - 1, aval_of(idx).dtype), idx)
    counts = mnp.zeros((ne,), aval_of(w).dtype).at[idx].add(mnp.ravel(w))
    counts = lax.slice_in_dim(counts, 1, ne)
    if density:
        widths = diff(edges)
        counts = ufuncs.divide(ufuncs.divide(counts, widths), reductions.sum(counts))
    return counts, edges


def bincount(x, weights=None, minlength=0, *, length=None, out_sharding=None):
    """Counts (or weight sums) of each non-negative integer in x; under jit
    pass a static `length` (larger values are dropped, negative ones count as 0).
    `out_sharding`: only None (JAX's default); mlax has no sharding yet, and
    any other value raises NotImplementedError."""
    util._check_out_sharding("bincount", out_sharding)
    x_in = x
    x = _arr(x)
    xd = aval_of(x).dtype
    if dtypes.is_bool(xd):
        x = mnp.astype(x, dtypes.int32)
    elif not dtypes.is_int(xd):
        raise TypeError(f"mnp.bincount: x argument to bincount must have an integer type; "
                        f"got {xd.name} (at {_where()})")
    if aval_of(x).ndim != 1:
        raise ValueError(f"mnp.bincount: only 1-dimensional input supported, got shape "
                         f"{aval_of(x).shape} (at {_where()})")
    minlength = _static_int("bincount", "minlength", minlength)
    if minlength < 0:
        raise ValueError(f"mnp.bincount: minlength must be non-negative, got {minlength} "
                         f"(at {_where()})")
    if length is None:
        known = core.concretize(x_in)
        if isinstance(known, Tracer):
            raise errors.concretization(
                x_in, "the x argument of mnp.bincount (pass a static length=... under jit)")
        xs = np.asarray(known).astype(np.int64)
        length = builtins.max(minlength, xs.size and int(builtins.max(0, xs.max())) + 1)
    else:
        length = _static_int("bincount", "length", length)
    if weights is None:
        w = mnp.ones(aval_of(x).shape, dtypes.default_int())
    else:
        w = _arr(weights)
        if aval_of(w).shape != aval_of(x).shape:
            raise ValueError(f"mnp.bincount: weights must have the shape of x, got "
                             f"{aval_of(w).shape} and {aval_of(x).shape} (at {_where()})")
    return mnp.zeros((length,), aval_of(w).dtype).at[ufuncs.maximum(x, 0)].add(w, mode="drop")


def digitize(x, bins, right=False, *, method=None):
    """Indices of the bins (increasing or decreasing) each value of x falls in
    (`method`: searchsorted's)."""
    x, bins = _arr(x), _arr(bins)
    if aval_of(bins).ndim != 1:
        raise ValueError(f"mnp.digitize: bins must be a 1-dimensional array, got shape "
                         f"{aval_of(bins).shape} (at {_where()})")
    nb = aval_of(bins).shape[0]
    if nb == 0:
        return mnp.zeros(aval_of(x).shape, dtypes.int32)
    side = "left" if right else "right"
    kw = {} if method is None else {"method": method}
    inc = mnc.searchsorted(bins, x, side=side, **kw)
    dec = ufuncs.subtract(nb, mnc.searchsorted(mnc.flip(bins), x, side=side, **kw))
    return mnp.where(ufuncs.greater_equal(bins[nb - 1], bins[0]), inc, dec)


def _interp(x, xp, fp, left=None, right=None, period=None):
    """Piecewise-linear interpolation of (xp, fp) at x (numpy.interp)."""
    x, xp, fp = _arr(x), _arr(xp), _arr(fp)
    if aval_of(xp).shape != aval_of(fp).shape or aval_of(xp).ndim != 1:
        raise ValueError(f"mnp.interp: xp and fp must be one-dimensional arrays of equal "
                         f"size, got {aval_of(xp).shape} and {aval_of(fp).shape} "
                         f"(at {_where()})")
    x, xp = _promote_inexact("interp", x, xp)
    x, xp = _arr(x), _arr(xp)
    fp = _to_inexact(fp)
    ext_l = ext_r = False
    for side, v in (("left", left), ("right", right)):
        if isinstance(v, str):
            if v != "extrapolate":
                raise ValueError(f"mnp.interp: the only valid string value of `{side}` is "
                                 f"'extrapolate', but got: {v!r} (at {_where()})")
            if side == "left":
                ext_l = True
            else:
                ext_r = True
    if dtypes.is_complex(aval_of(x).dtype):
        raise ValueError(f"mnp.interp: complex x values not supported (at {_where()})")
    if period is not None:
        if np.ndim(period) != 0:
            raise ValueError(f"mnp.interp: period must be a scalar; got {period!r} "
                             f"(at {_where()})")
        period = ufuncs.abs(_arr(period))
        x = ufuncs.remainder(x, period)
        xp = ufuncs.remainder(xp, period)
        xp, fp = lax.sort_key_val(xp, fp)
        m0 = aval_of(xp).shape[0]
        xp = mnp.concatenate([ufuncs.subtract(xp[m0 - 1:], period), xp,
                              ufuncs.add(xp[:1], period)])
        fp = mnp.concatenate([fp[m0 - 1:], fp, fp[:1]])
    m = aval_of(xp).shape[0]
    i = ufuncs.clip(mnc.searchsorted(xp, x, side="right"), 1, m - 1)
    im1 = ufuncs.subtract(i, 1)
    fpi, fpm = mnc.take(fp, i, mode="clip"), mnc.take(fp, im1, mode="clip")
    xpi, xpm = mnc.take(xp, i, mode="clip"), mnc.take(xp, im1, mode="clip")
    df = ufuncs.subtract(fpi, fpm)
    dx = ufuncs.subtract(xpi, xpm)
    delta = ufuncs.subtract(x, xpm)
    eps = np.spacing(dtypes.finfo(aval_of(xp).dtype).eps)
    dx0 = ufuncs.less_equal(ufuncs.abs(dx), eps)
    f = mnp.where(dx0, fpm, ufuncs.add(fpm, ufuncs.multiply(
        ufuncs.divide(delta, mnp.where(dx0, mnp.ones_like(dx), dx)), df)))
    if period is None:
        if not ext_l:
            f = mnp.where(ufuncs.less(x, xp[0]), fp[0] if left is None else left, f)
        if not ext_r:
            f = mnp.where(ufuncs.greater(x, xp[m - 1]), fp[m - 1] if right is None else right, f)
    return f


_INTERP_JITS = {}


def interp(x, xp, fp, left=None, right=None, period=None):
    """Piecewise-linear interpolation of (xp, fp) at x (numpy.interp). One
    jit dispatch when eager, as JAX's: `left`/`right` are static when None
    or a string ('extrapolate'), `period` when None; otherwise traced."""
    static = tuple(name for name, v in (("left", left), ("right", right), ("period", period))
                   if v is None or (name != "period" and isinstance(v, str)))
    fn = _INTERP_JITS.get(static)
    if fn is None:
        fn = _INTERP_JITS[static] = util._eager_jit(_interp, static)
    return fn(x, xp, fp, left, right, period)


# One jit dispatch each when called outside a trace, as jax.numpy's are
# (JAX's static arguments; traced in place inside a trace).
cross = util._eager_jit(cross, ('axisa', 'axisb', 'axisc', 'axis'))
diff = util._eager_jit(diff, ('n', 'axis'))
digitize = util._eager_jit(digitize, ('right', 'method'))
ediff1d = util._eager_jit(ediff1d)
kron = util._eager_jit(kron)
median = util._eager_jit(median, ('axis', 'overwrite_input', 'keepdims'))
nancumprod = util._eager_jit(nancumprod, ('axis', 'dtype'))
nancumsum = util._eager_jit(nancumsum, ('axis', 'dtype'))
nanmax = util._eager_jit(nanmax, ('axis', 'keepdims'))
nanmean = util._eager_jit(nanmean, ('axis', 'dtype', 'keepdims'))
nanmedian = util._eager_jit(nanmedian, ('axis', 'overwrite_input', 'keepdims'))
nanmin = util._eager_jit(nanmin, ('axis', 'keepdims'))
nanpercentile = util._eager_jit(
    nanpercentile, ('axis', 'overwrite_input', 'keepdims', 'method'))
nanprod = util._eager_jit(nanprod, ('axis', 'dtype', 'keepdims'))
nanquantile = util._eager_jit(
    nanquantile, ('axis', 'overwrite_input', 'keepdims', 'method'))
nanstd = util._eager_jit(nanstd, ('axis', 'dtype', 'keepdims'))
nansum = util._eager_jit(nansum, ('axis', 'dtype', 'keepdims'))
nanvar = util._eager_jit(nanvar, ('axis', 'dtype', 'keepdims'))
quantile = util._eager_jit(quantile, ('axis', 'overwrite_input', 'keepdims', 'method'))
rot90 = util._eager_jit(rot90, ('k', 'axes'))
average = util._eager_jit_axes(average, ('axis', 'returned', 'keepdims'))
corrcoef = util._eager_jit(corrcoef, ('rowvar', 'dtype'))
cov = util._eager_jit(cov, ('rowvar', 'bias', 'ddof', 'dtype'))
nanargmax = util._eager_jit_axes(nanargmax, ('axis', 'keepdims'))
nanargmin = util._eager_jit_axes(nanargmin, ('axis', 'keepdims'))

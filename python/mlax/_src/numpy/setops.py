"""mlax.numpy's set operations (isin, union1d, setdiff1d, intersect1d, setxor1d,
unique_values/counts/inverse/all), with a static `size` under jit as in JAX.
"""
from __future__ import annotations

import numpy as np

from mlax._src.core import tracer as core
from mlax._src.base import dtypes
from mlax._src.base import errors
from mlax._src.numpy import manipulation as mnc
from mlax._src.numpy import lax_numpy as mnp
from mlax._src.core.tracer import Tracer
from mlax._src.lax import lax
from mlax._src.core.primitives import aval_of
from mlax._src.numpy.manipulation import _static_int
from mlax._src.numpy.statistics import _where, moveaxis
from mlax._src.numpy.lax_numpy import _arr
from mlax._src.numpy.library import _concrete, size
from mlax._src.numpy import reductions
from mlax._src.numpy import array_creation
from mlax._src.numpy import ufuncs
from mlax._src.numpy import util


def isin(element, test_elements, assume_unique=False, invert=False, *, method="auto"):
    element, test = _arr(element), mnp.ravel(_arr(test_elements))
    pairs = aval_of(element).shape + aval_of(test).shape
    eq = ufuncs.equal(mnp.broadcast_to(mnp.expand_dims(element, -1), pairs),
                      mnp.broadcast_to(test, pairs))
    found = reductions.any(eq, axis=-1) if aval_of(test).shape[0] else mnp.zeros(
        aval_of(element).shape, dtypes.bool_)
    return ufuncs.logical_not(found) if invert else found


def _set_size(name, size):
    if size is not None:
        return mnc._static_int(name, "size", size)
    return None


def _unique1d(name, a, size, fill_value):
    return unique(mnp.ravel(_arr(a)), size=size, fill_value=fill_value)


def union1d(ar1, ar2, *, size=None, fill_value=None):
    both = mnp.concatenate([mnp.ravel(_arr(ar1)), mnp.ravel(_arr(ar2))])
    return unique(both, size=_set_size("union1d", size), fill_value=fill_value)


def _select_sorted(name, values, keep, size, fill_value, default_fill=None):
    """values[keep] (1-d, order kept); with `size`, padded with fill_value
    (default: the first kept value, as JAX)."""
    if size is None:
        mask = _concrete(name, keep, "the result (without size=)")
        # (values known to an eager transformation are read, as JAX's set
        # operations read their operands: the result is a constant there)
        values = core.concretize(values)
        if isinstance(values, Tracer):
            raise errors.ConcretizationTypeError(
                f"mnp.{name}: pass size= to use it under jit (at {core.user_location_str()})")
        return mnc.take(values, mnp.asarray(np.nonzero(mask)[0].astype(np.int32)))
    if not aval_of(values).shape[0]:  # nothing to pick: all padding
        fill = 0 if fill_value is None else fill_value
        return mnp.full((size,), fill, aval_of(values).dtype)
    (idx,) = mnc.nonzero(keep, size=size, fill_value=-1)
    picked = mnc.take(values, ufuncs.maximum(idx, 0))
    if fill_value is None and default_fill is not None:
        fill = mnp.asarray(default_fill, dtype=aval_of(values).dtype)
    elif fill_value is None:  # (as JAX: 0 when nothing is kept)
        fill = mnp.where(idx[0] >= 0, mnc.take(values, ufuncs.maximum(idx[0], 0)),
                         mnp.zeros((), aval_of(values).dtype))
    else:
        # (as JAX's: converted, so an out-of-range int wraps as unique's does)
        fill = mnp.astype(fill_value, aval_of(values).dtype)
    return mnp.where(idx >= 0, picked, fill)


def setdiff1d(ar1, ar2, assume_unique=False, *, size=None, fill_value=None):
    a = unique(mnp.ravel(_arr(ar1))) if size is None and not isinstance(ar1, Tracer) \
        else mnc.sort(mnp.ravel(_arr(ar1)))
    size = _set_size("setdiff1d", size)
    keep = ufuncs.logical_not(isin(a, ar2))
    if size is not None and not assume_unique:
        keep = ufuncs.logical_and(keep, _firsts(a))
    return _select_sorted("setdiff1d", a, keep, size, fill_value, default_fill=0)


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False, *, size=None,
                fill_value=None):
    """The sorted values found in both ar1 and ar2 (promoted to one dtype);
    with return_indices, also where each first occurs in ar1 and in ar2
    (padded with len(ar1) and len(ar2) when `size` pads the values)."""
    size = _set_size("intersect1d", size)
    a1, a2 = util.promote_dtypes("intersect1d", _arr(ar1), _arr(ar2))
    a1, a2 = mnp.ravel(a1), mnp.ravel(a2)
    n1, n2 = aval_of(a1).shape[0], aval_of(a2).shape[0]
    order1 = mnc.argsort(a1, stable=True)
    a = mnc.take(a1, order1)
    keep = ufuncs.logical_and(_firsts(a), isin(a, a2))
    values = _select_sorted("intersect1d", a, keep, size, fill_value)
    if not return_indices:
        return values
    # (a stable sort puts each value's first occurrence first)
    idx1 = _select_sorted("intersect1d", order1, keep, size, n1)
    order2 = mnc.argsort(a2, stable=True)
    if n2:
        pos = mnc.searchsorted(mnc.take(a2, order2), values, side="left")
        idx2 = mnc.take(order2, ufuncs.minimum(pos, n2 - 1))
    else:
        idx2 = mnp.zeros(aval_of(values).shape, aval_of(order2).dtype)
    if size is not None:
        valid = ufuncs.less(array_creation.arange(size), reductions.sum(keep))
        idx2 = mnp.where(valid, idx2, mnp.asarray(n2, aval_of(idx2).dtype))
    return values, idx1, idx2


def _firsts(a):
    """Where each value of the sorted 1-d `a` first occurs."""
    if not aval_of(a).shape[0]:
        return mnp.zeros((0,), dtypes.bool_)
    return mnp.concatenate([mnp.ones((1,), dtypes.bool_), a[1:] != a[:-1]])


def setxor1d(ar1, ar2, assume_unique=False, *, size=None, fill_value=None):
    size = _set_size("setxor1d", size)
    a1 = unique(mnp.ravel(_arr(ar1))) if size is None else mnp.ravel(_arr(ar1))
    a2 = unique(mnp.ravel(_arr(ar2))) if size is None else mnp.ravel(_arr(ar2))
    if size is not None and not assume_unique:
        # Under jit (no unique without size): the first occurrence of each
        # value of either array not found in the other, sorted.
        a1, a2 = util.promote_dtypes("setxor1d", a1, a2)
        a1, a2 = mnc.sort(a1), mnc.sort(a2)
        keep1 = ufuncs.logical_and(_firsts(a1), ufuncs.logical_not(isin(a1, a2)))
        keep2 = ufuncs.logical_and(_firsts(a2), ufuncs.logical_not(isin(a2, a1)))
        both, keep = lax.sort_key_val(mnp.concatenate([a1, a2]),
                                      mnp.concatenate([keep1, keep2]))
        return _select_sorted("setxor1d", both, keep, size, fill_value)
    both = mnc.sort(mnp.concatenate([a1, a2]))
    n = aval_of(both).shape[0]
    if n == 0:
        return both
    differs = both[1:] != both[:-1]
    t = mnp.ones((1,), dtypes.bool_)
    # An element is kept when it differs from both neighbours.
    keep = ufuncs.logical_and(mnp.concatenate([t, differs]), mnp.concatenate([differs, t]))
    return _select_sorted("setxor1d", both, keep, size, fill_value)


def unique_values(x, /, *, size=None, fill_value=None):
    return unique(x, size=size, fill_value=fill_value)


def unique_counts(x, /, *, size=None, fill_value=None):
    from collections import namedtuple

    values, counts = unique(x, return_counts=True, size=size, fill_value=fill_value)
    return namedtuple("UniqueCountsResult", ["values", "counts"])(values, counts)


def unique_inverse(x, /, *, size=None, fill_value=None):
    from collections import namedtuple

    values, inv = unique(x, return_inverse=True, size=size, fill_value=fill_value)
    inv = mnp.reshape(inv, aval_of(_arr(x)).shape)
    return namedtuple("UniqueInverseResult", ["values", "inverse_indices"])(values, inv)


def unique_all(x, /, *, size=None, fill_value=None):
    from collections import namedtuple

    values, index, inv, counts = unique(x, return_index=True, return_inverse=True,
                                            return_counts=True, size=size,
                                            fill_value=fill_value)
    inv = mnp.reshape(inv, aval_of(_arr(x)).shape)
    return namedtuple("UniqueAllResult", ["values", "indices", "inverse_indices", "counts"])(
        values, index, inv, counts)


# ---------------------------------------------------------------------------
# unique
# ---------------------------------------------------------------------------

_UNIQUE_HINT = ("the size of mnp.unique's result (pass size=... and optionally "
                "fill_value=... to fix it statically under jit)")


def _unique_sorted_mask(ar, equal_nan):
    """ar (axis 0 first) sorted lexicographically by rows, a mask of the
    first row of each run of equal rows, and the sorting permutation."""
    aval = aval_of(ar)
    size = aval.shape[0]
    m = int(np.prod(aval.shape[1:], dtype=np.int64))
    int_ = dtypes.default_int()
    iota = lax.iota(int_, size)
    if m == 0:
        return ar, mnp.zeros((size,), dtypes.bool_), iota
    flat = lax.reshape(ar, (size, m))
    keys = [lax.reshape(lax.slice_in_dim(flat, j, j + 1, axis=1), (size,)) for j in range(m)]
    if dtypes.is_bool(aval.dtype):
        keys = [mnp.astype(c, dtypes.int32) for c in keys]
    out = lax.sort(tuple(keys) + (iota,), dimension=0, num_keys=m)
    perm = out[-1]
    aux = mnc.take(ar, perm, axis=0, mode="clip")
    if size == 0:
        return aux, mnp.zeros((0,), dtypes.bool_), perm
    a1, a0 = lax.slice_in_dim(aux, 1, size, axis=0), lax.slice_in_dim(aux, 0, size - 1, axis=0)
    neq = ufuncs.not_equal(a1, a0)
    if equal_nan and dtypes.is_inexact(aval.dtype):
        neq = ufuncs.logical_and(neq, ufuncs.logical_not(ufuncs.logical_and(ufuncs.isnan(a1),
                                                                    ufuncs.isnan(a0))))
    if aval.ndim > 1:
        neq = reductions.any(neq, axis=tuple(range(1, aval.ndim)))
    mask = mnp.concatenate([mnp.ones((1,), dtypes.bool_), neq])
    return aux, mask, perm


def _count_unique(x, axis, equal_nan):
    """How many unique elements (rows along `axis`) a concrete array has."""
    if x.dtype == dtypes.bfloat16:
        x = x.astype(np.float32)
    if axis is None:
        x = x.reshape(-1)
        axis = 0
    if x.shape[axis] == 0:
        return 0
    rows = np.moveaxis(x, axis, 0).reshape(x.shape[axis], -1)
    if rows.shape[1] == 0:
        return 1
    if rows.shape[1] == 1 and x.dtype.kind in "fc":
        v = rows[:, 0]
        nan = np.isnan(v)
        k = len(np.unique(v[~nan]))
        return k + (int(nan.any()) if equal_nan else int(nan.sum()))
    return len(np.unique(rows, axis=0))


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None,
           *, equal_nan=True, size=None, fill_value=None, sorted=True):  # noqa: A002
    """The sorted unique elements (rows along `axis`), optionally with the
    first indices, the inverse indices and the counts. Under jit pass a
    static `size` (the result is cut or padded with `fill_value`, default
    the smallest element). Eagerly the number of unique elements is counted
    first, then the rest is one jit dispatch (as JAX's)."""
    arr = _arr(ar)
    exact = size is None
    if size is None:
        # As JAX's: an eager transformation's unique is of the known value
        # (a constant there).
        ar = arr = core.concretize(arr)
        if isinstance(ar, Tracer):
            raise errors.concretization(ar, _UNIQUE_HINT)
        ax = None if axis is None else _unique_axis(axis, aval_of(arr).ndim)
        size = _count_unique(np.asarray(arr), ax, equal_nan)
    else:
        size = _static_int("unique", "size", size)
        if size < 0:
            raise ValueError(f"mnp.unique: size must be non-negative, got {size} "
                             f"(at {_where()})")
    return _unique_jit(arr, bool(return_index), bool(return_inverse), bool(return_counts),
                       axis, equal_nan, size, fill_value, exact)


def _unique_axis(axis, ndim):
    ax = mnp._normalize_axis("unique", axis, ndim)
    if ndim == 0:
        raise np.exceptions.AxisError(f"mnp.unique: axis {axis} is out of bounds for "
                                      f"array of dimension 0 (at {_where()})")
    return ax


def _unique(arr, return_index, return_inverse, return_counts, axis, equal_nan, size,
            fill_value, exact):
    aval = aval_of(arr)
    if axis is None:
        arr = mnp.ravel(arr)
        ax = 0
    else:
        ax = _unique_axis(axis, aval.ndim)
    n = aval_of(arr).shape[ax]
    if n == 0 and size and fill_value is None:
        raise ValueError("mnp.unique: for zero-sized input with nonzero size argument, "
                         f"fill_value must be specified (at {_where()})")
    work = moveaxis(arr, ax, 0)
    aux, mask, perm = _unique_sorted_mask(work, equal_nan)
    int_ = dtypes.default_int()
    has_rows = aval_of(aux).size > 0
    ind = mnc.nonzero(mask, size=size)[0] if n else mnp.zeros((size,), int_)
    out_n = size
    if has_rows:
        result = mnc.take(aux, ind, axis=0, mode="clip")
    else:
        result = mnp.zeros((out_n,) + aval_of(aux).shape[1:], aval.dtype)
    if not exact and fill_value is not None:
        fv = mnp.astype(fill_value, aval.dtype)
        valid = ufuncs.less(array_creation.arange(size, dtype=int_), reductions.sum(mask, dtype=int_))
        valid = mnp.reshape(valid, (size,) + (1,) * (aval_of(result).ndim - 1))
        result = mnp.where(valid, result, fv)
    result = moveaxis(result, 0, ax)
    ret = (result,)
    if return_index:
        ret += (mnc.take(perm, ind, mode="clip") if n else mnp.zeros((size,), int_),)
    if return_inverse:
        if n:
            imask = ufuncs.subtract(reductions.cumsum(mnp.astype(mask, int_)), 1)
            inv = mnp.zeros((n,), int_).at[perm].set(imask)
        else:
            inv = mnp.zeros((0,), int_)
        if axis is None:
            inv = mnp.reshape(inv, aval.shape)
        ret += (inv,)
    if return_counts:
        if n and has_rows:
            idx = mnc.nonzero(mask, size=size + 1)[0]
            tail = lax.slice_in_dim(idx, 1, size + 1)
            tail = mnp.where(ufuncs.not_equal(tail, 0), tail, np.asarray(n, int_))
            idx = mnp.concatenate([lax.slice_in_dim(idx, 0, 1), tail])
            counts = ufuncs.subtract(lax.slice_in_dim(idx, 1, out_n + 1),
                                  lax.slice_in_dim(idx, 0, out_n))
        elif n:
            counts = mnp.full((1,), n, int_)
        else:
            counts = mnp.zeros((0,), int_)
        ret += (counts,)
    return ret[0] if len(ret) == 1 else ret


_unique_jit = util._eager_jit(_unique, ("return_index", "return_inverse", "return_counts", "axis",
                                        "equal_nan", "size", "exact"))

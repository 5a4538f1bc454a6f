"""mlax.numpy's set operations (isin, union1d, setdiff1d, intersect1d, setxor1d,
unique_values/counts/inverse/all), with a static `size` under jit as in JAX.
"""
from __future__ import annotations

import numpy as np

from mlax._src.core import tracer as core
from mlax._src.base import dtypes
from mlax._src.base import errors
from mlax._src.numpy import manipulation as mnc
from mlax._src.numpy import statistics as mne
from mlax._src.numpy import lax_numpy as mnp
from mlax._src.core.tracer import Tracer
from mlax._src.core.primitives import aval_of
from mlax._src.numpy.lax_numpy import _arr
from mlax._src.numpy.library import _concrete, size
from mlax._src.numpy import reductions
from mlax._src.numpy import ufuncs


def isin(element, test_elements, assume_unique=False, invert=False, *, method="auto"):
    element, test = _arr(element), mnp.ravel(_arr(test_elements))
    eq = ufuncs.equal(mnp.expand_dims(element, -1), test)
    found = reductions.any(eq, axis=-1) if aval_of(test).shape[0] else mnp.zeros(
        aval_of(element).shape, dtypes.bool_)
    return ufuncs.logical_not(found) if invert else found


def _set_size(name, size):
    if size is not None:
        return mnc._static_int(name, "size", size)
    return None


def _unique1d(name, a, size, fill_value):
    return mne.unique(mnp.ravel(_arr(a)), size=size, fill_value=fill_value)


def union1d(ar1, ar2, *, size=None, fill_value=None):
    both = mnp.concatenate([mnp.ravel(_arr(ar1)), mnp.ravel(_arr(ar2))])
    return mne.unique(both, size=_set_size("union1d", size), fill_value=fill_value)


def _select_sorted(name, values, keep, size, fill_value, default_fill=None):
    """values[keep] (1-d, order kept); with `size`, padded with fill_value
    (default: the first kept value, as JAX)."""
    if size is None:
        mask = _concrete(name, keep, "the result (without size=)")
        vals = values if not isinstance(values, Tracer) else None
        if vals is None:
            raise errors.ConcretizationTypeError(
                f"mnp.{name}: pass size= to use it under jit (at {core.user_location_str()})")
        return mnc.take(values, mnp.asarray(np.nonzero(mask)[0].astype(np.int32)))
    (idx,) = mnc.nonzero(keep, size=size, fill_value=-1)
    picked = mnc.take(values, ufuncs.maximum(idx, 0))
    if fill_value is None and default_fill is not None:
        fill = mnp.asarray(default_fill, dtype=aval_of(values).dtype)
    elif fill_value is None:
        fill = mnc.take(values, ufuncs.maximum(idx[0], 0)) if aval_of(values).shape[0] else \
            mnp.zeros((), aval_of(values).dtype)
    else:
        fill = mnp.asarray(fill_value, dtype=aval_of(values).dtype)
    return mnp.where(idx >= 0, picked, fill)


def setdiff1d(ar1, ar2, assume_unique=False, *, size=None, fill_value=None):
    a = mne.unique(mnp.ravel(_arr(ar1))) if size is None and not isinstance(ar1, Tracer) \
        else mnc.sort(mnp.ravel(_arr(ar1)))
    size = _set_size("setdiff1d", size)
    keep = ufuncs.logical_not(isin(a, ar2))
    if size is not None and not assume_unique:
        first = mnp.concatenate([mnp.ones((1,), dtypes.bool_), a[1:] != a[:-1]]) \
            if aval_of(a).shape[0] else mnp.zeros((0,), dtypes.bool_)
        keep = ufuncs.logical_and(keep, first)
    return _select_sorted("setdiff1d", a, keep, size, fill_value, default_fill=0)


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False, *, size=None,
                fill_value=None):
    if return_indices:
        raise NotImplementedError("mnp.intersect1d: return_indices=True is not supported")
    size = _set_size("intersect1d", size)
    a = mnc.sort(mnp.ravel(_arr(ar1)))
    n = aval_of(a).shape[0]
    first = mnp.concatenate([mnp.ones((1,), dtypes.bool_), a[1:] != a[:-1]]) if n else \
        mnp.zeros((0,), dtypes.bool_)
    keep = ufuncs.logical_and(first, isin(a, ar2))
    return _select_sorted("intersect1d", a, keep, size, fill_value)


def setxor1d(ar1, ar2, assume_unique=False, *, size=None, fill_value=None):
    size = _set_size("setxor1d", size)
    a1 = mne.unique(mnp.ravel(_arr(ar1))) if size is None else mnp.ravel(_arr(ar1))
    a2 = mne.unique(mnp.ravel(_arr(ar2))) if size is None else mnp.ravel(_arr(ar2))
    both = mnc.sort(mnp.concatenate([a1, a2]))
    n = aval_of(both).shape[0]
    if n == 0:
        return both
    differs = both[1:] != both[:-1]
    t = mnp.ones((1,), dtypes.bool_)
    # An element is kept when it differs from both neighbours.
    keep = ufuncs.logical_and(mnp.concatenate([t, differs]), mnp.concatenate([differs, t]))
    if size is not None and not assume_unique:
        raise NotImplementedError("mnp.setxor1d: size= needs assume_unique=True")
    return _select_sorted("setxor1d", both, keep, size, fill_value)


def unique_values(x, /, *, size=None, fill_value=None):
    return mne.unique(x, size=size, fill_value=fill_value)


def unique_counts(x, /, *, size=None, fill_value=None):
    from collections import namedtuple

    values, counts = mne.unique(x, return_counts=True, size=size, fill_value=fill_value)
    return namedtuple("UniqueCountsResult", ["values", "counts"])(values, counts)


def unique_inverse(x, /, *, size=None, fill_value=None):
    from collections import namedtuple

    values, inv = mne.unique(x, return_inverse=True, size=size, fill_value=fill_value)
    inv = mnp.reshape(inv, aval_of(_arr(x)).shape)
    return namedtuple("UniqueInverseResult", ["values", "inverse_indices"])(values, inv)


def unique_all(x, /, *, size=None, fill_value=None):
    from collections import namedtuple

    values, index, inv, counts = mne.unique(x, return_index=True, return_inverse=True,
                                            return_counts=True, size=size,
                                            fill_value=fill_value)
    inv = mnp.reshape(inv, aval_of(_arr(x)).shape)
    return namedtuple("UniqueAllResult", ["values", "indices", "inverse_indices", "counts"])(
        values, index, inv, counts)

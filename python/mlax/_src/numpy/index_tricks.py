"""mlax.numpy's index helpers, as jax.numpy's: ix_, indices, mgrid/ogrid, r_/c_/s_,
tril/triu/diag/mask indices, unravel_index and ravel_multi_index.
"""
from __future__ import annotations

import builtins
import math

import numpy as np

from mlax._src.base import dtypes
from mlax._src.numpy import manipulation as mnc
from mlax._src.numpy import util
from mlax._src.numpy import lax_numpy as mnp
from mlax._src.core.primitives import aval_of
from mlax._src.numpy.lax_numpy import _arr
from mlax._src.numpy.library import _concrete, ndim, result_type, shape, size
from mlax._src.numpy import array_creation
from mlax._src.numpy import ufuncs
from mlax._src.numpy import util


def ix_(*args):
    n = len(args)
    out = []
    for i, a in enumerate(args):
        a = _arr(a)
        if aval_of(a).ndim != 1:
            raise ValueError(f"mnp.ix_: arguments must be 1-d, got shape {aval_of(a).shape}")
        if aval_of(a).dtype == dtypes.bool_:
            raise NotImplementedError("mnp.ix_: boolean arguments are not supported")
        out.append(mnp.reshape(a, (1,) * i + (aval_of(a).shape[0],) + (1,) * (n - i - 1)))
    return tuple(out)


def indices(dimensions, dtype=None, sparse=False):
    dtype = dtypes.canonicalize(dtype or np.int64)
    dimensions = tuple(int(d) for d in dimensions)
    n = len(dimensions)
    out = []
    for i, d in enumerate(dimensions):
        shp = (1,) * i + (d,) + (1,) * (n - i - 1)
        r = mnp.reshape(array_creation.arange(d, dtype=dtype), shp)
        out.append(r if sparse else mnp.broadcast_to(r, dimensions))
    return tuple(out) if sparse else (mnp.stack(out) if out else
                                      mnp.zeros((0,) + dimensions, dtype))


def _range_from_slice(s, name):
    start = 0 if s.start is None else s.start
    step = 1 if s.step is None else s.step
    stop = s.stop
    if isinstance(step, complex):
        num = int(abs(step))
        return array_creation.linspace(start, stop, num, endpoint=True)
    if builtins.any(isinstance(v, float) for v in (start, stop, step)):
        return array_creation.arange(start, stop, step, dtype=dtypes.canonicalize(np.float64))
    return array_creation.arange(start, stop, step)


class _Grid:
    def __init__(self, sparse, name):
        self.sparse = sparse
        self.name = name

    def __getitem__(self, key):
        if isinstance(key, slice):
            return _range_from_slice(key, self.name)
        ranges = [_range_from_slice(k, self.name) for k in key]
        if not ranges:
            return mnp.zeros((0,), dtypes.canonicalize(np.int64))
        dt = result_type(*ranges)
        ranges = [r.astype(dt) if util._is_array(r) else r for r in ranges]
        grids = mnc.meshgrid(*ranges, indexing="ij", sparse=self.sparse)
        return tuple(grids) if self.sparse else mnp.stack(grids)


mgrid = _Grid(False, "mgrid")


ogrid = _Grid(True, "ogrid")


class _Concat:
    """np.r_ / np.c_: slices become ranges, arrays are concatenated."""

    def __init__(self, axis, ndmin, trans1d, name):
        self.axis, self.ndmin, self.trans1d, self.name = axis, ndmin, trans1d, name

    def __getitem__(self, key):
        key = key if isinstance(key, tuple) else (key,)
        axis, ndmin, trans1d = self.axis, self.ndmin, self.trans1d
        items = list(key)
        if items and isinstance(items[0], str):
            spec = [int(x) for x in items.pop(0).split(",")]
            if len(spec) > 3 or not spec:
                raise ValueError(f"mnp.{self.name}: could not understand directive")
            axis = spec[0]
            if len(spec) > 1:
                ndmin = spec[1]
            if len(spec) > 2:
                trans1d = spec[2]
        parts = []
        for item in items:
            if isinstance(item, str):
                raise ValueError(f"mnp.{self.name}: only one string directive is supported")
            a = _range_from_slice(item, self.name) if isinstance(item, slice) else _arr(item)
            nd = aval_of(a).ndim
            if nd < ndmin:
                shp = aval_of(a).shape
                pad = ndmin - nd
                t = trans1d if trans1d >= 0 else trans1d + ndmin
                new = [1] * ndmin
                # NumPy: the original axes go to start at `trans1d`.
                start = t if t < ndmin - nd + 1 else ndmin - nd
                new[start:start + nd] = list(shp)
                del pad
                a = mnp.reshape(a, tuple(new))
            parts.append(a)
        if not parts:
            return mnp.zeros((0,), dtypes.canonicalize(np.float64))
        return mnp.concatenate(parts, axis=axis)


r_ = _Concat(0, 1, -1, "r_")


c_ = _Concat(-1, 2, 0, "c_")


s_ = np.s_


index_exp = np.index_exp


def tril_indices(n, k=0, m=None):
    r, c = np.tril_indices(n, k, m)
    dt = dtypes.default_int()
    return mnp.asarray(r.astype(dt)), mnp.asarray(c.astype(dt))


def triu_indices(n, k=0, m=None):
    r, c = np.triu_indices(n, k, m)
    dt = dtypes.default_int()
    return mnp.asarray(r.astype(dt)), mnp.asarray(c.astype(dt))


def _square_2d(name, arr):
    shp = aval_of(arr).shape if not isinstance(arr, np.ndarray) else arr.shape
    if len(shp) != 2:
        raise ValueError(f"mnp.{name}: input array must be 2-d, got shape {tuple(shp)}")
    return shp


def tril_indices_from(arr, k=0):
    shp = _square_2d("tril_indices_from", arr)
    return tril_indices(shp[0], k, shp[1])


def triu_indices_from(arr, k=0):
    shp = _square_2d("triu_indices_from", arr)
    return triu_indices(shp[0], k, shp[1])


def diag_indices(n, ndim=2):
    if n < 0 or ndim < 0:
        raise ValueError("mnp.diag_indices: n and ndim must be non-negative")
    i = array_creation.arange(n, dtype=dtypes.default_int())
    return (i,) * ndim


def diag_indices_from(arr):
    shp = aval_of(_arr(arr)).shape
    if len(shp) < 2 or len(set(shp)) != 1:
        raise ValueError("mnp.diag_indices_from: input must be at least 2-d with all "
                         "dimensions equal")
    return diag_indices(shp[0], len(shp))


def mask_indices(n, mask_func, k=0, *, size=None):
    a = mask_func(mnp.ones((n, n)), k)
    return mnc.nonzero(a, size=size)


def unravel_index(indices, shape):
    """The coordinates of flat `indices` in an array of `shape` (JAX clips
    out-of-range indices into range rather than raising)."""
    shape = tuple(int(s) for s in (shape if isinstance(shape, (tuple, list)) else (shape,)))
    idx = _arr(indices)
    if not dtypes.is_int(aval_of(idx).dtype):
        raise TypeError("mnp.unravel_index: only int indices permitted")
    total = int(np.prod(shape, dtype=np.int64))
    idx = ufuncs.clip(mnp.where(idx < 0, idx + total, idx), 0, builtins.max(total - 1, 0))
    out = []
    for s in reversed(shape):
        out.append(ufuncs.remainder(idx, s) if s else idx * 0)
        idx = ufuncs.floor_divide(idx, s) if s else idx
    return tuple(reversed(out))


def ravel_multi_index(multi_index, dims, mode="raise", order="C", *, dtype=None):
    """Flat indices of coordinate arrays (mode 'clip' or 'wrap'; 'raise'
    needs concrete indices, as in JAX), computed in and returned as `dtype`
    (None: the indices' integer type, as JAX's result_type(int, *indices)),
    which must hold the largest flat index."""
    dims = tuple(int(d) for d in dims)
    if len(multi_index) != len(dims):
        raise ValueError(f"mnp.ravel_multi_index: parameter multi_index must be a sequence "
                         f"of length {len(dims)}")
    if order not in ("C", "F"):
        raise ValueError("mnp.ravel_multi_index: only 'C' or 'F' order is permitted")
    idx = [_arr(i) for i in multi_index]
    if dtype is None:
        dtype = dtypes.result_type((dtypes.default_int(), True),
                                   *((aval_of(i).dtype, aval_of(i).weak_type) for i in idx))[0]
    else:
        dtype = dtypes.canonicalize(dtype)
    if not dtypes.is_int(dtype):
        raise ValueError(f"dtype={dtype!r} is not an integer type.")
    if math.prod(dims) - 1 > dtypes.iinfo(dtype).max:
        raise ValueError(
            f"jnp.ravel_multi_index: dtype={dtype!r} not large enough to hold flattened"
            f" index for dims={dims}. Use the dtype argument to pass a suitable"
            " dtype (e.g. dtype=np.min_scalar_type(prod(dims))).")
    for i in idx:
        if not dtypes.is_int(aval_of(i).dtype):
            raise TypeError("mnp.ravel_multi_index: only int indices permitted")
    if mode == "raise":
        for i, d in zip(idx, dims):
            v = _concrete("ravel_multi_index", i, "multi_index with mode='raise'")
            if v.size and ((v < 0).any() or (v >= d).any()):
                raise ValueError("mnp.ravel_multi_index: invalid entry in coordinates array")
    elif mode == "clip":
        idx = [ufuncs.clip(i, 0, d - 1) for i, d in zip(idx, dims)]
    elif mode == "wrap":
        idx = [ufuncs.remainder(i, d) for i, d in zip(idx, dims)]
    else:
        raise ValueError(f"mnp.ravel_multi_index: invalid mode={mode!r}")
    order_dims = dims if order == "C" else dims[::-1]
    order_idx = idx if order == "C" else idx[::-1]
    strides = np.cumprod((1,) + order_dims[::-1][:-1])[::-1]
    out = mnp.asarray(0, dtype=dtype)
    for i, s in zip(order_idx, strides):
        out = out + mnp.astype(i, dtype) * int(s)
    return out


# One jit dispatch eagerly (a program without inputs per signature).
indices = util._eager_jit_axes(indices, ('dimensions', 'dtype', 'sparse'), axes=('dimensions',))

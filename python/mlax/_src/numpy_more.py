"""Still more of mlax.numpy, composed from mlax.numpy/lax: copies and
queries (copy, shape, ndim, size, result_type, finfo ...), array building
and reshaping (broadcast_arrays, block, append, insert, delete, unstack,
h/v/dsplit, resize ...), index helpers (ix_, indices, mgrid/ogrid, r_/c_,
tril/triu/diag indices, unravel_index, ravel_multi_index), set operations
(isin, intersect1d, union1d, setdiff1d, setxor1d, unique_*), selection
(choose, compress, extract, lexsort, partition, argpartition), calculus and
polynomials (trapezoid, gradient, vander, poly*), window functions and
vectorization helpers (vectorize, apply_along_axis, piecewise,
fromfunction). Signatures, dtypes and errors follow jax.numpy.
"""
from __future__ import annotations

import builtins
import functools
import operator

import numpy as np

from mlax._src import core, dtypes, errors, lax
from mlax._src import numpy_composite as mnc
from mlax._src import numpy_extra as mne
from mlax._src import numpy_impl as mnp
from mlax._src.core import Tracer
from mlax._src.primitives import aval_of


def _arr(x):
    return x if mnp._is_array(x) else mnp.asarray(x)


def _concrete(name, x, what):
    """The NumPy value of `x`, which must not be traced (as JAX: the result's
    shape depends on it)."""
    if isinstance(x, Tracer):
        raise errors.ConcretizationTypeError(
            f"mnp.{name}: {what} must be concrete (its value decides the shape of the "
            f"result), but got a traced array {x.aval.str_short()}; pass a static size= "
            f"where {name} takes one, or compute it outside jit (at {core.user_location_str()})")
    return np.asarray(x)


# ---------------------------------------------------------------------------
# Copies and queries
# ---------------------------------------------------------------------------

def copy(a, order=None):
    """A copy of `a` (arrays are immutable, so this is `asarray(a)` with a
    fresh buffer; inside a trace the value itself)."""
    return mnp.array(a, copy=True)


def shape(a):
    return tuple(aval_of(a).shape) if not isinstance(a, (list, tuple)) else np.shape(a)


def ndim(a):
    return len(shape(a))


def size(a, axis=None):
    s = shape(a)
    if axis is None:
        return int(np.prod(s, dtype=np.int64))
    return s[axis]


def isscalar(element):
    """True for Python and NumPy scalars and for 0-d arrays (as jax.numpy)."""
    if isinstance(element, (np.generic, builtins.bool, int, float, complex)):
        return True
    if mnp._is_array(element):
        return aval_of(element).ndim == 0
    return False


def iterable(y):
    return np.iterable(y)


def _typed(x):
    """(dtype, weak) of an array, a scalar or a dtype-like, for promotion."""
    if dtypes.is_python_scalar(x):
        return dtypes.scalar_type_of(x)
    if mnp._is_array(x) or isinstance(x, (np.ndarray, np.generic)):
        aval = aval_of(x)
        return aval.dtype, aval.weak_type
    try:  # a dtype: narrowed first without x64, as JAX does
        return dtypes.canonicalize(np.dtype(x)), False
    except TypeError:
        aval = aval_of(x)
        return aval.dtype, aval.weak_type


def result_type(*args):
    """The dtype JAX's promotion gives `args` (arrays, scalars or dtypes)."""
    if not args:
        raise ValueError("at least one array or dtype is required")
    dt, _ = dtypes.result_type(*[_typed(a) for a in args])
    return dtypes.canonicalize(dt)


def promote_types(a, b):
    """JAX's promotion of two dtypes (no weak types, no x64 narrowing)."""
    a, b = np.dtype(a), np.dtype(b)
    node = dtypes._promote_nodes((dtypes._node(a, False), dtypes._node(b, False)))
    if node == dtypes._F:  # 64-bit unsigned with signed: float64, as JAX
        return np.dtype(np.float64)
    out = np.dtype(node)
    # Without x64, JAX keeps signed/unsigned mixes of <= 32 bits at int32.
    if (out == np.int64 and not dtypes.config.x64_enabled
            and a.itemsize < 8 and b.itemsize < 8):
        return np.dtype(np.int32)
    return out


def can_cast(from_, to, casting="safe"):
    if mnp._is_array(from_):
        from_ = aval_of(from_).dtype
    return np.can_cast(from_, to, casting=casting)


def issubdtype(arg1, arg2):
    return np.issubdtype(arg1, arg2)


def isdtype(dtype, kind):
    """The array API's isdtype (kinds: 'bool', 'signed integer', 'unsigned
    integer', 'integral', 'real floating', 'complex floating', 'numeric', or
    dtypes; bfloat16 is a real floating type)."""
    dt = np.dtype(dtype)
    kinds = kind if isinstance(kind, tuple) else (kind,)
    for k in kinds:
        if isinstance(k, str):
            ok = {"bool": dt.kind == "b",
                  "signed integer": dt.kind == "i",
                  "unsigned integer": dt.kind == "u",
                  "integral": dt.kind in "iu",
                  "real floating": dtypes.is_float(dt),
                  "complex floating": dt.kind == "c",
                  "numeric": dt.kind in "iufc" or dt == dtypes.bfloat16}.get(k)
            if ok is None:
                raise ValueError(f"mnp.isdtype: unknown kind {k!r}")
            if ok:
                return True
        elif np.dtype(k) == dt:
            return True
    return False


def finfo(dtype):
    import ml_dtypes

    return ml_dtypes.finfo(aval_of(dtype).dtype if mnp._is_array(dtype) else dtype)


def iinfo(int_type):
    import ml_dtypes

    return ml_dtypes.iinfo(aval_of(int_type).dtype if mnp._is_array(int_type) else int_type)


# ---------------------------------------------------------------------------
# Building and reshaping
# ---------------------------------------------------------------------------

def broadcast_arrays(*args):
    arrays = [_arr(a) for a in args]
    shp = mnp.broadcast_shapes(*[aval_of(a).shape for a in arrays])
    return [mnp.broadcast_to(a, shp) for a in arrays]


def concat(arrays, /, *, axis=0):
    if axis is None:
        return mnp.concatenate([mnp.ravel(_arr(a)) for a in arrays])
    return mnp.concatenate(arrays, axis=axis)


def permute_dims(a, /, axes):
    return mnp.transpose(a, axes)


def matrix_transpose(x, /):
    x = _arr(x)
    if aval_of(x).ndim < 2:
        raise ValueError(f"mnp.matrix_transpose: x must be at least 2-dimensional, got "
                         f"shape {aval_of(x).shape}")
    return mnp.swapaxes(x, -1, -2)


def unstack(x, /, *, axis=0):
    x = _arr(x)
    nd = aval_of(x).ndim
    if nd == 0:
        raise ValueError("mnp.unstack: requires an array of at least one dimension")
    axis = mnc._canon_axis("unstack", axis, nd) if hasattr(mnc, "_canon_axis") else axis % nd
    return tuple(mnp.squeeze(p, axis) for p in mnc.split(x, aval_of(x).shape[axis], axis=axis))


def rollaxis(a, axis, start=0):
    a = _arr(a)
    n = aval_of(a).ndim
    axis = axis + n if axis < 0 else axis
    start = start + n if start < 0 else start
    if not (0 <= axis < n) or not (0 <= start <= n):
        raise np.exceptions.AxisError(f"mnp.rollaxis: axis {axis} / start {start} out of "
                                      f"range for an array of {n} dimensions")
    if axis < start:
        start -= 1
    if axis == start:
        return a
    return mne.moveaxis(a, axis, start)


def append(arr, values, axis=None):
    arr, values = _arr(arr), _arr(values)
    if axis is None:
        return mnp.concatenate([mnp.ravel(arr), mnp.ravel(values)])
    return mnp.concatenate([arr, values], axis=axis)


def _norm_axis(name, axis, nd):
    if not -nd <= axis < nd:
        raise np.exceptions.AxisError(f"mnp.{name}: axis {axis} is out of bounds for an "
                                      f"array of dimension {nd}")
    return axis % nd


def delete(arr, obj, axis=None, *, assume_unique_indices=False):
    """`arr` without the entries `obj` (an int, slice or concrete index
    array) along `axis` (the flattened array when None)."""
    arr = _arr(arr)
    if axis is None:
        arr, axis = mnp.ravel(arr), 0
    nd = aval_of(arr).ndim
    axis = _norm_axis("delete", axis, nd)
    n = aval_of(arr).shape[axis]
    if isinstance(obj, slice):
        drop = np.arange(n)[obj]
    elif not isinstance(obj, (int, np.integer)) and np.asarray(
            _concrete("delete", obj, "obj")).dtype == np.bool_:
        # A boolean obj is a mask of the entries to drop (as NumPy), not indices 0/1.
        mask = np.asarray(_concrete("delete", obj, "obj"))
        if mask.shape != (n,):
            raise ValueError(f"mnp.delete: boolean array argument obj to delete must be "
                             f"one dimensional and match the axis length of {n}")
        drop = np.flatnonzero(mask)
    else:
        drop = _concrete("delete", obj, "obj").astype(np.int64).ravel() \
            if not isinstance(obj, (int, np.integer)) else np.array([obj])
        if drop.size and ((drop < -n).any() or (drop >= n).any()):
            raise IndexError(f"mnp.delete: index out of bounds for axis {axis} with size {n}")
        drop = np.where(drop < 0, drop + n, drop)
    keep = np.setdiff1d(np.arange(n), drop)
    return mnc.take(arr, mnp.asarray(keep.astype(np.int32)), axis=axis)


def insert(arr, obj, values, axis=None):
    """`arr` with `values` inserted before the indices `obj` (an int, a
    slice or a concrete index array) along `axis` (flattened when None)."""
    arr = _arr(arr)
    if axis is None:
        arr, axis = mnp.ravel(arr), 0
    nd = aval_of(arr).ndim
    axis = _norm_axis("insert", axis, nd)
    n = aval_of(arr).shape[axis]
    values = mnp.asarray(values, dtype=aval_of(arr).dtype) if not mnp._is_array(values) \
        else lax.convert_element_type(values, aval_of(arr).dtype)
    if isinstance(obj, slice):
        idx = np.arange(n)[obj]
    else:
        idx = _concrete("insert", obj, "obj").astype(np.int64)
    scalar_index = idx.ndim == 0
    idx = np.atleast_1d(idx)
    if ((idx < -n) | (idx > n)).any():
        raise IndexError(f"mnp.insert: index out of bounds for axis {axis} with size {n}")
    idx = np.where(idx < 0, idx + n, idx)
    vshape = list(aval_of(arr).shape)
    vals = values
    if scalar_index:
        # As NumPy: values get at least arr's rank (new axes in front), their
        # first axis moves to `axis`, and fill a block of that length there.
        vnd = aval_of(vals).ndim
        if vnd < nd:
            vals = mnp.reshape(vals, (1,) * (nd - vnd) + aval_of(vals).shape)
        vals = mne.moveaxis(vals, 0, axis)
        count = aval_of(vals).shape[axis]
        vshape[axis] = count
        positions = np.full(count, idx[0])
    else:
        vshape[axis] = len(idx)
        positions = idx
    vals = mnp.broadcast_to(vals, tuple(vshape))
    # Output order: a stable sort of (original positions, inserted positions).
    keys = np.concatenate([np.arange(n), positions])
    tiebreak = np.concatenate([np.ones(n), np.zeros(len(positions))])
    order = np.lexsort((tiebreak, keys))
    both = mnp.concatenate([arr, vals], axis=axis)
    return mnc.take(both, mnp.asarray(order.astype(np.int32)), axis=axis)


def _split_axis(name, ary, indices_or_sections, axis, min_ndim):
    ary = _arr(ary)
    if aval_of(ary).ndim < min_ndim:
        raise ValueError(f"mnp.{name} only works on arrays of {min_ndim} or more dimensions")
    return mnc.split(ary, indices_or_sections, axis=axis)


def hsplit(ary, indices_or_sections):
    ary = _arr(ary)
    return _split_axis("hsplit", ary, indices_or_sections, 0 if aval_of(ary).ndim == 1 else 1,
                       1)


def vsplit(ary, indices_or_sections):
    return _split_axis("vsplit", ary, indices_or_sections, 0, 2)


def dsplit(ary, indices_or_sections):
    return _split_axis("dsplit", ary, indices_or_sections, 2, 3)


def resize(a, new_shape):
    """`a` flattened, repeated as needed and reshaped to `new_shape`."""
    a = mnp.ravel(_arr(a))
    new_shape = (int(new_shape),) if isinstance(new_shape, (int, np.integer)) else \
        tuple(int(s) for s in new_shape)
    if any(s < 0 for s in new_shape):
        raise ValueError("mnp.resize: all elements of new_shape must be non-negative")
    total = int(np.prod(new_shape, dtype=np.int64))
    n = aval_of(a).shape[0]
    if n == 0:
        return mnp.zeros(new_shape, aval_of(a).dtype)
    reps = -(-total // n)
    return mnp.reshape(mnc.tile(a, reps)[:total], new_shape)


def block(arrays):
    """An array assembled from nested lists of blocks (as np.block)."""
    def depth(x):
        return 1 + depth(x[0]) if isinstance(x, list) and x else (1 if isinstance(x, list)
                                                                  else 0)

    def max_ndim(x):
        if isinstance(x, list):
            return builtins.max((max_ndim(e) for e in x), default=0)
        return aval_of(_arr(x)).ndim

    if isinstance(arrays, tuple):
        raise TypeError("mnp.block: arrays is a tuple; only lists can be used to arrange "
                        "blocks")
    d = depth(arrays)
    nd = builtins.max(max_ndim(arrays), d)

    def rec(x, level):
        if isinstance(x, list):
            if not x:
                raise ValueError("mnp.block: lists cannot be empty")
            parts = [rec(e, level + 1) for e in x]
            return mnp.concatenate(parts, axis=-(d - level))
        a = _arr(x)
        return mnp.reshape(a, (1,) * (nd - aval_of(a).ndim) + aval_of(a).shape)

    return rec(arrays, 0)


def diagflat(v, k=0):
    return mne.diag(mnp.ravel(_arr(v)), k)


def fill_diagonal(a, val, wrap=False, *, inplace=True):
    """`a` with its main diagonal set to `val` (JAX requires inplace=False:
    arrays are immutable)."""
    if inplace:
        raise NotImplementedError("mnp.fill_diagonal: JAX arrays are immutable; pass "
                                  "inplace=False and use the returned array")
    a = _arr(a)
    shp = aval_of(a).shape
    if len(shp) < 2:
        raise ValueError("mnp.fill_diagonal: array must be at least 2-d")
    if len(shp) > 2 and len(set(shp)) != 1:
        raise ValueError("mnp.fill_diagonal: all dimensions of an array of more than 2 "
                         "dimensions must be of equal length")
    n = builtins.min(shp)
    if len(shp) == 2 and wrap and shp[0] > shp[1] + 1:
        flat = np.arange(0, shp[0] * shp[1], shp[1] + 1)
    else:
        flat = np.ravel_multi_index(tuple(np.arange(n) for _ in shp), shp)
    val = mnp.ravel(mnp.asarray(val, dtype=aval_of(a).dtype))
    vals = resize(val, (len(flat),))
    out = mnp.ravel(a).at[mnp.asarray(flat.astype(np.int32))].set(vals)
    return mnp.reshape(out, shp)


# ---------------------------------------------------------------------------
# Index helpers
# ---------------------------------------------------------------------------

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
        r = mnp.reshape(mnp.arange(d, dtype=dtype), shp)
        out.append(r if sparse else mnp.broadcast_to(r, dimensions))
    return tuple(out) if sparse else (mnp.stack(out) if out else
                                      mnp.zeros((0,) + dimensions, dtype))


def _range_from_slice(s, name):
    start = 0 if s.start is None else s.start
    step = 1 if s.step is None else s.step
    stop = s.stop
    if isinstance(step, complex):
        num = int(abs(step))
        return mnp.linspace(start, stop, num, endpoint=True)
    if builtins.any(isinstance(v, float) for v in (start, stop, step)):
        return mnp.arange(start, stop, step, dtype=dtypes.canonicalize(np.float64))
    return mnp.arange(start, stop, step)


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
        ranges = [r.astype(dt) if mnp._is_array(r) else r for r in ranges]
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
    i = mnp.arange(n, dtype=dtypes.default_int())
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
    idx = mnp.clip(mnp.where(idx < 0, idx + total, idx), 0, builtins.max(total - 1, 0))
    out = []
    for s in reversed(shape):
        out.append(mnp.remainder(idx, s) if s else idx * 0)
        idx = mnp.floor_divide(idx, s) if s else idx
    return tuple(reversed(out))


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    """Flat indices of coordinate arrays (mode 'clip' or 'wrap'; 'raise'
    needs concrete indices, as in JAX)."""
    dims = tuple(int(d) for d in dims)
    if len(multi_index) != len(dims):
        raise ValueError(f"mnp.ravel_multi_index: parameter multi_index must be a sequence "
                         f"of length {len(dims)}")
    if order not in ("C", "F"):
        raise ValueError("mnp.ravel_multi_index: only 'C' or 'F' order is permitted")
    idx = [_arr(i) for i in multi_index]
    for i in idx:
        if not dtypes.is_int(aval_of(i).dtype):
            raise TypeError("mnp.ravel_multi_index: only int indices permitted")
    if mode == "raise":
        for i, d in zip(idx, dims):
            v = _concrete("ravel_multi_index", i, "multi_index with mode='raise'")
            if v.size and ((v < 0).any() or (v >= d).any()):
                raise ValueError("mnp.ravel_multi_index: invalid entry in coordinates array")
    elif mode == "clip":
        idx = [mnp.clip(i, 0, d - 1) for i, d in zip(idx, dims)]
    elif mode == "wrap":
        idx = [mnp.remainder(i, d) for i, d in zip(idx, dims)]
    else:
        raise ValueError(f"mnp.ravel_multi_index: invalid mode={mode!r}")
    order_dims = dims if order == "C" else dims[::-1]
    order_idx = idx if order == "C" else idx[::-1]
    strides = np.cumprod((1,) + order_dims[::-1][:-1])[::-1]
    out = None
    for i, s in zip(order_idx, strides):
        term = i * int(s)
        out = term if out is None else out + term
    return out if out is not None else mnp.asarray(0)


# ---------------------------------------------------------------------------
# Set operations
# ---------------------------------------------------------------------------

def isin(element, test_elements, assume_unique=False, invert=False, *, method="auto"):
    element, test = _arr(element), mnp.ravel(_arr(test_elements))
    eq = mnp.equal(mnp.expand_dims(element, -1), test)
    found = mnp.any(eq, axis=-1) if aval_of(test).shape[0] else mnp.zeros(
        aval_of(element).shape, dtypes.bool_)
    return mnp.logical_not(found) if invert else found


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
    picked = mnc.take(values, mnp.maximum(idx, 0))
    if fill_value is None and default_fill is not None:
        fill = mnp.asarray(default_fill, dtype=aval_of(values).dtype)
    elif fill_value is None:
        fill = mnc.take(values, mnp.maximum(idx[0], 0)) if aval_of(values).shape[0] else \
            mnp.zeros((), aval_of(values).dtype)
    else:
        fill = mnp.asarray(fill_value, dtype=aval_of(values).dtype)
    return mnp.where(idx >= 0, picked, fill)


def setdiff1d(ar1, ar2, assume_unique=False, *, size=None, fill_value=None):
    a = mne.unique(mnp.ravel(_arr(ar1))) if size is None and not isinstance(ar1, Tracer) \
        else mnc.sort(mnp.ravel(_arr(ar1)))
    size = _set_size("setdiff1d", size)
    keep = mnp.logical_not(isin(a, ar2))
    if size is not None and not assume_unique:
        first = mnp.concatenate([mnp.ones((1,), dtypes.bool_), a[1:] != a[:-1]]) \
            if aval_of(a).shape[0] else mnp.zeros((0,), dtypes.bool_)
        keep = mnp.logical_and(keep, first)
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
    keep = mnp.logical_and(first, isin(a, ar2))
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
    keep = mnp.logical_and(mnp.concatenate([t, differs]), mnp.concatenate([differs, t]))
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


# ---------------------------------------------------------------------------
# Selection and sorting
# ---------------------------------------------------------------------------

def choose(a, choices, out=None, mode="raise"):
    if out is not None:
        raise NotImplementedError("mnp.choose: the out argument is not supported")
    a = _arr(a)
    choices = [_arr(c) for c in choices]
    n = len(choices)
    if mode == "raise":
        if not isinstance(a, Tracer):
            v = np.asarray(a)
            if v.size and ((v < 0).any() or (v >= n).any()):
                raise ValueError("mnp.choose: invalid entry in choice array")
        idx = a
    elif mode == "wrap":
        idx = mnp.remainder(a, n)
    elif mode == "clip":
        idx = mnp.clip(a, 0, n - 1)
    else:
        raise ValueError(f"mnp.choose: invalid mode={mode!r}")
    arrays = broadcast_arrays(idx, *choices)
    idx, choices = arrays[0], arrays[1:]
    stacked = mnp.stack(choices)
    return mnp.squeeze(mnc.take_along_axis(stacked, mnp.expand_dims(idx, 0), axis=0), 0)


def compress(condition, a, axis=None, *, size=None, fill_value=0, out=None):
    if out is not None:
        raise NotImplementedError("mnp.compress: the out argument is not supported")
    cond = mnp.ravel(_arr(condition))
    if aval_of(cond).dtype != dtypes.bool_:
        cond = cond != 0
    a = _arr(a)
    if axis is None:
        a, axis = mnp.ravel(a), 0
    axis = _norm_axis("compress", axis, aval_of(a).ndim)
    n = aval_of(a).shape[axis]
    m = aval_of(cond).shape[0]
    if m > n:
        raise ValueError(f"mnp.compress: condition is longer ({m}) than the axis ({n})")
    if m < n:
        cond = mnp.concatenate([cond, mnp.zeros((n - m,), dtypes.bool_)])
    if size is None:
        mask = _concrete("compress", cond, "condition (without size=)")
        return mnc.take(a, mnp.asarray(np.nonzero(mask)[0].astype(np.int32)), axis=axis)
    (idx,) = mnc.nonzero(cond, size=size, fill_value=-1)
    picked = mnc.take(a, mnp.maximum(idx, 0), axis=axis)
    shp = [1] * aval_of(a).ndim
    shp[axis] = size
    valid = mnp.reshape(idx >= 0, tuple(shp))
    return mnp.where(valid, picked, mnp.asarray(fill_value, dtype=aval_of(a).dtype))


def extract(condition, arr, *, size=None, fill_value=0):
    return compress(mnp.ravel(_arr(condition)), mnp.ravel(_arr(arr)), size=size,
                    fill_value=fill_value)


def lexsort(keys, axis=-1):
    """Indices that sort by the last key, then the one before, ... (stable)."""
    keys = [_arr(k) for k in keys] if not mnp._is_array(keys) else \
        [keys[i] for i in range(aval_of(keys).shape[0])]
    if not keys:
        raise TypeError("mnp.lexsort: need sequence of keys with len > 0")
    shp = aval_of(keys[0]).shape
    if builtins.any(aval_of(k).shape != shp for k in keys):
        raise ValueError("mnp.lexsort: all keys need to be the same shape")
    order = None
    for k in keys:  # least significant first: successive stable sorts
        if order is None:
            order = mnc.argsort(k, axis=axis, stable=True)
        else:
            moved = mnc.take_along_axis(k, order, axis=axis)
            order = mnc.take_along_axis(order, mnc.argsort(moved, axis=axis, stable=True),
                                        axis=axis)
    return order


def _kth(name, a, kth, axis):
    a = _arr(a)
    nd = aval_of(a).ndim
    if nd == 0:
        raise ValueError(f"mnp.{name}: the input must be at least 1-d")
    axis = _norm_axis(name, axis, nd)
    n = aval_of(a).shape[axis]
    kth = operator.index(kth)
    if not -n <= kth < n:
        raise ValueError(f"mnp.{name}: kth={kth} out of range for axis of size {n}")
    return mne.moveaxis(a, axis, -1), kth % n, axis


def partition(a, kth, axis=-1):
    """As jax.numpy.partition: the kth+1 smallest values first (ascending),
    then the others (descending), along `axis`."""
    arr, kth, axis = _kth("partition", a, kth, axis)
    s = mnc.sort(arr, axis=-1)
    out = mnp.concatenate([s[..., :kth + 1], mnc.flip(s[..., kth + 1:], axis=-1)], axis=-1)
    return mne.moveaxis(out, -1, axis)


def argpartition(a, kth, axis=-1):
    """As jax.numpy.argpartition: the indices of the kth+1 smallest values
    (by value), then the other indices (in increasing order)."""
    arr, kth, axis = _kth("argpartition", a, kth, axis)
    order = mnc.argsort(arr, axis=-1, stable=True)
    out = mnp.concatenate([order[..., :kth + 1], mnc.sort(order[..., kth + 1:], axis=-1)],
                          axis=-1)
    return mne.moveaxis(out, -1, axis)


def sort_complex(a):
    a = _arr(a)
    dt = aval_of(a).dtype
    out = mnc.sort(a, axis=-1)
    if dt.kind != "c":
        target = np.complex128 if dt.itemsize == 8 or dt == np.float64 else np.complex64
        return lax.convert_element_type(out, dtypes.canonicalize(target))
    return out


def trim_zeros(filt, trim="fb"):
    f = _concrete("trim_zeros", filt, "filt")
    nz = np.nonzero(f)[0]
    start = nz[0] if "f" in trim.lower() and nz.size else (len(f) if not nz.size else 0)
    end = nz[-1] + 1 if "b" in trim.lower() and nz.size else (len(f) if nz.size else 0)
    if not nz.size:
        return _arr(filt)[:0]
    return _arr(filt)[start:end]


# ---------------------------------------------------------------------------
# Products, calculus and polynomials
# ---------------------------------------------------------------------------

def vecdot(x1, x2, /, *, axis=-1, precision=None, preferred_element_type=None):
    x1, x2 = _arr(x1), _arr(x2)
    if aval_of(x1).shape[axis] != aval_of(x2).shape[axis]:
        raise ValueError(f"mnp.vecdot: axes must match, got shapes {aval_of(x1).shape} and "
                         f"{aval_of(x2).shape} at axis {axis}")
    if dtypes.is_complex(aval_of(x1).dtype):  # the array API's vecdot conjugates x1
        from mlax._src.numpy_math import _conj_complex
        x1 = _conj_complex(x1)
    return mnp.sum(x1 * x2, axis=axis)


def matvec(x1, x2, /):
    x1, x2 = _arr(x1), _arr(x2)
    if aval_of(x1).ndim < 2 or aval_of(x2).ndim < 1:
        raise ValueError("mnp.matvec: x1 must be at least 2-d and x2 at least 1-d")
    return mnp.matmul(x1, mnp.expand_dims(x2, -1))[..., 0]


def vecmat(x1, x2, /):
    x1, x2 = _arr(x1), _arr(x2)
    if aval_of(x1).ndim < 1 or aval_of(x2).ndim < 2:
        raise ValueError("mnp.vecmat: x1 must be at least 1-d and x2 at least 2-d")
    return mnp.matmul(mnp.expand_dims(x1, -2), x2)[..., 0, :]


def trapezoid(y, x=None, dx=1.0, axis=-1):
    y = mne._promote_inexact("trapezoid", y)[0]
    ndim = aval_of(y).ndim
    y = mne.moveaxis(y, axis, -1)
    if x is not None:
        x = mne._promote_inexact("trapezoid", x)[0]
        if aval_of(x).ndim == 1:
            d = x[1:] - x[:-1]
        else:
            d = mne.moveaxis(x, axis, -1)
            d = d[..., 1:] - d[..., :-1]
    elif aval_of(dx).ndim if mnp._is_array(dx) else np.ndim(dx):
        # An array dx broadcasts against y as given (NumPy), so it moves with y's axis.
        d = _arr(dx)
        d = lax.reshape(d, (1,) * (ndim - aval_of(d).ndim) + aval_of(d).shape)
        d = mne.moveaxis(d, axis, -1)
    else:
        d = dx
    return mnp.sum(d * (y[..., 1:] + y[..., :-1]), axis=-1) * 0.5


def gradient(f, *varargs, axis=None, edge_order=None):
    """Central differences inside, one-sided at the edges (edge_order 1),
    as jax.numpy.gradient."""
    if edge_order is not None and edge_order != 1:
        raise NotImplementedError("mnp.gradient: only edge_order=1 is supported")
    f = mne._promote_inexact("gradient", f)[0]
    nd = aval_of(f).ndim
    axes = list(range(nd)) if axis is None else (
        [axis] if isinstance(axis, int) else list(axis))
    axes = [_norm_axis("gradient", a, nd) for a in axes]
    if not varargs:
        spacings = [1.0] * len(axes)
    elif len(varargs) == 1 and np.ndim(varargs[0]) == 0:
        spacings = [varargs[0]] * len(axes)
    elif len(varargs) == len(axes):
        spacings = list(varargs)
    else:
        raise TypeError("mnp.gradient: invalid number of spacing arguments")
    out = []
    for ax, h in zip(axes, spacings):
        n = aval_of(f).shape[ax]
        if n < 2:
            raise ValueError("mnp.gradient: shape of the array along each axis must be at "
                             "least 2")
        g = mne.moveaxis(f, ax, -1)
        if np.ndim(h) == 0:
            inner = (g[..., 2:] - g[..., :-2]) / (2.0 * h)
            first = (g[..., 1:2] - g[..., :1]) / h
            last = (g[..., -1:] - g[..., -2:-1]) / h
        else:
            x = _arr(h)
            dx = x[1:] - x[:-1]
            a, b = dx[:-1], dx[1:]
            inner = (-(b / (a * (a + b))) * g[..., :-2] + ((b - a) / (a * b)) * g[..., 1:-1]
                     + (a / (b * (a + b))) * g[..., 2:])
            first = (g[..., 1:2] - g[..., :1]) / dx[0]
            last = (g[..., -1:] - g[..., -2:-1]) / dx[-1]
        out.append(mne.moveaxis(mnp.concatenate([first, inner, last], axis=-1), -1, ax))
    return out[0] if len(out) == 1 else out


def vander(x, N=None, increasing=False):
    x = _arr(x)
    if aval_of(x).ndim != 1:
        raise ValueError("mnp.vander: x must be a one-dimensional array")
    n = aval_of(x).shape[0] if N is None else int(N)
    if n < 0:
        raise ValueError("mnp.vander: N must be nonnegative")
    powers = mnp.arange(n)
    if not increasing:
        powers = powers[::-1]
    return mnp.power(mnp.expand_dims(x, -1), powers.astype(aval_of(x).dtype)
                     if dtypes.is_inexact(aval_of(x).dtype) else powers)


def _poly1d(name, p):
    p = _arr(p)
    if aval_of(p).ndim != 1:
        raise ValueError(f"mnp.{name}: input must be a 1-d array of coefficients")
    return p


def polyadd(a1, a2):
    a1, a2 = mnp.promote_dtypes("polyadd", _poly1d("polyadd", a1), _poly1d("polyadd", a2))
    n1, n2 = aval_of(a1).shape[0], aval_of(a2).shape[0]
    if n1 < n2:
        a1 = mnp.concatenate([mnp.zeros((n2 - n1,), aval_of(a1).dtype), a1])
    elif n2 < n1:
        a2 = mnp.concatenate([mnp.zeros((n1 - n2,), aval_of(a2).dtype), a2])
    return a1 + a2


def polysub(a1, a2):
    return polyadd(a1, -_arr(a2))


def polymul(a1, a2, *, trim_leading_zeros=False):
    from mlax._src import numpy_conv

    a1, a2 = mnp.promote_dtypes("polymul", _poly1d("polymul", a1), _poly1d("polymul", a2))
    if aval_of(a1).shape[0] == 0 or aval_of(a2).shape[0] == 0:
        return mnp.zeros((1,), aval_of(a1).dtype)
    return numpy_conv.convolve(a1, a2, mode="full")


def polyder(p, m=1):
    p = mne._promote_inexact("polyder", _poly1d("polyder", p))[0] \
        if not dtypes.is_int(aval_of(_arr(p)).dtype) else _poly1d("polyder", p)
    m = int(m)
    if m < 0:
        raise ValueError("mnp.polyder: order of derivative must be positive")
    for _ in range(m):
        n = aval_of(p).shape[0]
        if n <= 1:
            return mnp.zeros((0,), aval_of(p).dtype) if n == 0 else p[:0]
        p = p[:-1] * mnp.arange(n - 1, 0, -1).astype(aval_of(p).dtype)
    return p


def polyint(p, m=1, k=None):
    p = mne._promote_inexact("polyint", _poly1d("polyint", p))[0]
    m = int(m)
    if m < 0:
        raise ValueError("mnp.polyint: order of integral must be positive")
    ks = np.zeros(m) if k is None else np.atleast_1d(np.asarray(k, dtype=np.float64))
    if ks.size == 1 and m > 1:
        ks = np.full(m, ks[0])
    if ks.size != m:
        raise ValueError("mnp.polyint: k must be a scalar or a rank-1 array of length m")
    for i in range(m):
        n = aval_of(p).shape[0]
        p = mnp.concatenate([p / mnp.arange(n, 0, -1).astype(aval_of(p).dtype),
                             mnp.asarray([ks[i]], dtype=aval_of(p).dtype)])
    return p


def polydiv(u, v, *, trim_leading_zeros=False):
    u, v = mne._promote_inexact("polydiv", _poly1d("polydiv", u), _poly1d("polydiv", v))
    m, n = aval_of(u).shape[0] - 1, aval_of(v).shape[0] - 1
    scale = 1.0 / v[0]
    q = mnp.zeros((builtins.max(m - n + 1, 1),), aval_of(u).dtype)
    r = u
    for k in range(0, m - n + 1):
        d = scale * r[k]
        q = q.at[k].set(d)
        r = r.at[k:k + n + 1].add(-d * v)
    return q, r


def poly(seq_of_zeros):
    """The coefficients of the monic polynomial with the given roots (a
    square matrix's characteristic polynomial needs eigenvalues, which mlax
    does not compute for general matrices)."""
    z = _arr(seq_of_zeros)
    if aval_of(z).ndim == 2 and aval_of(z).shape[0] == aval_of(z).shape[1] \
            and aval_of(z).shape[0] > 0:
        raise NotImplementedError("mnp.poly: the characteristic polynomial of a matrix "
                                  "needs general eigenvalues, which are not supported")
    if aval_of(z).ndim != 1:
        raise ValueError("mnp.poly: input must be 1d or non-empty square 2d array")
    z = mne._promote_inexact("poly", z)[0]
    a = mnp.ones((1,), aval_of(z).dtype)
    for i in range(aval_of(z).shape[0]):
        a = polymul(a, mnp.stack([mnp.ones((), aval_of(z).dtype), -z[i]]))
    return a


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """Least-squares polynomial fit (normal equations solved through the
    QR-free route mlax has: lstsq when mnp.linalg provides it)."""
    from mlax._src import numpy_composite  # noqa: F401
    import mlax.numpy.linalg as la

    if full or cov:
        raise NotImplementedError("mnp.polyfit: full=True and cov=True are not supported")
    if not hasattr(la, "lstsq"):
        raise NotImplementedError("mnp.polyfit needs mnp.linalg.lstsq")
    deg = int(deg)
    if deg < 0:
        raise ValueError("mnp.polyfit: expected deg >= 0")
    x, y = mne._promote_inexact("polyfit", x, y)
    lhs = vander(x, deg + 1)
    rhs = y
    if w is not None:
        w = _arr(w)
        lhs = lhs * mnp.expand_dims(w, -1)
        rhs = rhs * (w if aval_of(rhs).ndim == 1 else mnp.expand_dims(w, -1))
    scale = mnp.sqrt(mnp.sum(lhs * lhs, axis=0))
    sol = la.lstsq(lhs / scale, rhs, rcond=rcond)[0]
    return (sol.T / scale).T


# ---------------------------------------------------------------------------
# Window functions
# ---------------------------------------------------------------------------

def _window(name, M, fn):
    M = mnc._static_int(name, "M", M)
    dt = dtypes.default_float()
    if M <= 0:
        return mnp.zeros((0,), dt)
    if M == 1:
        return mnp.ones((1,), dt)
    n = mnp.arange(M).astype(dt)
    return fn(n, M)


def bartlett(M):
    return _window("bartlett", M, lambda n, M: 1 - mnp.abs(2 * n / (M - 1) - 1))


def hanning(M):
    return _window("hanning", M, lambda n, M: 0.5 - 0.5 * mnp.cos(2 * np.pi * n / (M - 1)))


def hamming(M):
    return _window("hamming", M, lambda n, M: 0.54 - 0.46 * mnp.cos(2 * np.pi * n / (M - 1)))


def blackman(M):
    return _window("blackman", M, lambda n, M: (0.42 - 0.5 * mnp.cos(2 * np.pi * n / (M - 1))
                                                + 0.08 * mnp.cos(4 * np.pi * n / (M - 1))))


# ---------------------------------------------------------------------------
# Functions of functions
# ---------------------------------------------------------------------------

def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """func1d on every 1-d slice of `arr` along `axis` (by vmap over the
    other axes, as jax.numpy.apply_along_axis)."""
    from mlax._src.vmap import vmap

    arr = _arr(arr)
    nd = aval_of(arr).ndim
    axis = _norm_axis("apply_along_axis", axis, nd)

    def f(x):
        return func1d(x, *args, **kwargs)

    for i in range(1, nd - axis):
        f = vmap(f, in_axes=i, out_axes=-1)
    for i in range(axis):
        f = vmap(f, in_axes=0, out_axes=0)
    return f(arr)


def apply_over_axes(func, a, axes):
    a = _arr(a)
    for axis in axes:
        b = func(a, axis)
        a = b if aval_of(b).ndim == aval_of(a).ndim else mnp.expand_dims(b, axis)
    return a


def fromfunction(function, shape, *, dtype=float, **kwargs):
    dt = dtypes.canonicalize(dtype)
    shape = tuple(int(s) for s in shape)
    grids = indices(shape, dtype=dt) if shape else ()
    return function(*(grids[i] for i in range(len(shape))), **kwargs)


def piecewise(x, condlist, funclist, *args, **kw):
    """Evaluates every function and selects per element (as JAX does under
    jit), the last true condition winning (as NumPy); one extra function is
    the default."""
    x = _arr(x)
    if mnp._is_array(condlist) and aval_of(condlist).ndim == aval_of(x).ndim:
        condlist = [condlist]
    condlist = [_arr(c) for c in condlist]
    n = len(condlist)
    if len(funclist) not in (n, n + 1):
        raise ValueError(f"mnp.piecewise: with {n} condition(s), either {n} or {n + 1} "
                         f"functions are needed")
    default = funclist[n] if len(funclist) == n + 1 else 0

    def value(f):
        if callable(f):
            return mnp.broadcast_to(mnp.asarray(f(x, *args, **kw), dtype=aval_of(x).dtype)
                                    if not mnp._is_array(f(x, *args, **kw))
                                    else f(x, *args, **kw), aval_of(x).shape)
        return mnp.full(aval_of(x).shape, f, aval_of(x).dtype)

    out = value(default)
    for c, f in zip(condlist, funclist[:n]):  # later conditions overwrite earlier ones
        out = mnp.where(c, lax.convert_element_type(value(f), aval_of(x).dtype), out)
    return out


class vectorize:  # noqa: N801
    """numpy.vectorize through vmap: `pyfunc` sees scalars (or the core
    dimensions of `signature`, e.g. '(n),(n)->()'), every other axis is
    mapped."""

    def __init__(self, pyfunc, *, excluded=frozenset(), signature=None):
        self.pyfunc = pyfunc
        self.excluded = set(excluded)
        self.signature = signature
        functools.update_wrapper(self, pyfunc)

    def _core_dims(self):
        if self.signature is None:
            return None, None
        import re

        m = re.fullmatch(r"\s*(.*?)\s*->\s*(.*?)\s*", self.signature)
        if m is None:
            raise ValueError(f"mnp.vectorize: not a valid gufunc signature: "
                             f"{self.signature!r}")

        def parse(s):
            return [tuple(d.strip() for d in g.split(",") if d.strip())
                    for g in re.findall(r"\(([^)]*)\)", s)]

        return parse(m.group(1)), parse(m.group(2))

    def __call__(self, *args, **kwargs):
        from mlax._src.vmap import vmap

        if kwargs:
            raise NotImplementedError("mnp.vectorize: keyword arguments are not supported")
        excluded = {i for i in self.excluded if isinstance(i, int)}
        dyn_idx = [i for i in range(len(args)) if i not in excluded]
        ins, _ = self._core_dims()
        if ins is not None and len(ins) != len(dyn_idx):
            raise TypeError(f"mnp.vectorize: wrong number of positional arguments: expected "
                            f"{len(ins)}, got {len(dyn_idx)}")
        arrays = [_arr(args[i]) for i in dyn_idx]
        core = [len(c) for c in ins] if ins is not None else [0] * len(arrays)
        batch_shapes = [aval_of(a).shape[:aval_of(a).ndim - c] for a, c in zip(arrays, core)]
        bshape = mnp.broadcast_shapes(*batch_shapes) if batch_shapes else ()
        arrays = [mnp.broadcast_to(a, bshape + aval_of(a).shape[aval_of(a).ndim - c:])
                  for a, c in zip(arrays, core)]

        def call(*dyn):
            full = list(args)
            for i, v in zip(dyn_idx, dyn):
                full[i] = v
            return self.pyfunc(*full)

        f = call
        for _ in range(len(bshape)):
            f = vmap(f)
        return f(*arrays)


def unwrap(p, discont=None, axis=-1, period=2 * np.pi):
    p = mne._promote_inexact("unwrap", p)[0]
    if discont is None:
        discont = period / 2
    d = mne.diff(p, axis=axis)
    interval_high = period / 2
    interval_low = -interval_high
    dd = mnp.remainder(d - interval_low, period) + interval_low
    dd = mnp.where((dd == interval_low) & (d > 0), interval_high, dd)
    correction = mnp.where(mnp.abs(d) < discont, 0.0, dd - d)
    correction = mnc.cumsum(correction, axis=axis)
    first = mnc.take(p, mnp.asarray([0]), axis=axis) if aval_of(p).ndim else p
    rest = lax.convert_element_type(correction, aval_of(p).dtype)
    zero_first = mnp.zeros_like(first)
    return p + mnp.concatenate([zero_first, rest], axis=axis)


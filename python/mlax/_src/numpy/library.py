"""mlax.numpy functions composed from mlax.numpy/lax that fit no narrower
topic module: copies and queries (copy, shape, ndim, size, result_type,
finfo ...), array building and reshaping (broadcast_arrays, block, append,
insert, delete, unstack, h/v/dsplit, resize ...), selection (choose,
compress, extract, lexsort, partition, argpartition, trim_zeros), the array
API's products (vecdot, matvec, vecmat), trapezoid, gradient and unwrap.
Index helpers, set operations, polynomials, window functions and vectorize
have modules of their own. Signatures, dtypes and errors follow jax.numpy.
"""
from __future__ import annotations

import builtins
import functools
import operator

import numpy as np

from mlax._src.core import tracer as core
from mlax._src.base import dtypes
from mlax._src.base import errors
from mlax._src.lax import lax
from mlax._src.numpy import manipulation as mnc
from mlax._src.numpy import statistics as mne
from mlax._src.numpy import lax_numpy as mnp
from mlax._src.numpy.lax_numpy import _arr
from mlax._src.core.tracer import Tracer
from mlax._src.core.primitives import aval_of
from mlax._src.numpy import reductions
from mlax._src.numpy import tensor_contractions
from mlax._src.numpy import ufuncs
from mlax._src.numpy import util


def _concrete(name, x, what):
    """The NumPy value of `x`, which must not be abstract (as JAX: the result's
    shape depends on it); a tracer whose value is known gives that value."""
    x = core.concretize(x)
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
    if util._is_array(element):
        return aval_of(element).ndim == 0
    return False


def iterable(y):
    return np.iterable(y)


def _typed(x):
    """(dtype, weak) of an array, a scalar or a dtype-like, for promotion."""
    if dtypes.is_python_scalar(x):
        return dtypes.scalar_type_of(x)
    if util._is_array(x) or isinstance(x, (np.ndarray, np.generic)):
        aval = aval_of(x)
        return aval.dtype, aval.weak_type
    try:  # a dtype: narrowed first without x64, as JAX does
        return dtypes.canonicalize(np.dtype(x)), False
    except TypeError:
        aval = aval_of(x)
        return aval.dtype, aval.weak_type


def result_type(*args, return_weak_type_flag=False):
    """The dtype JAX's promotion gives `args` (arrays, scalars or dtypes);
    with `return_weak_type_flag` (jax.dtypes'), (dtype, weak_type)."""
    if not args:
        raise ValueError("at least one array or dtype is required")
    dt, weak = dtypes.result_type(*[_typed(a) for a in args])
    dt = dtypes.canonicalize(dt)
    return (dt, weak) if return_weak_type_flag else dt


def promote_types(a, b):
    """JAX's promotion of two dtypes (no x64 narrowing). As JAX's, the
    Python types int, float and complex (by identity) are its weak types:
    promote_types(float, float32) is float32; under
    jax_numpy_dtype_promotion=strict only JAX's strict lattice applies."""
    weak = {int: dtypes._I, float: dtypes._F, complex: dtypes._C}
    nodes = tuple(weak[t] if builtins.any(t is w for w in weak) else np.dtype(t)
                  for t in (a, b))
    node = dtypes._promote_nodes(nodes, dtypes.config.jax_numpy_dtype_promotion == "strict")
    if isinstance(node, str):  # a weak result: the Python type's dtype
        return np.dtype({dtypes._I: int, dtypes._F: float, dtypes._C: complex}[node])
    out = np.dtype(node)
    # Without x64, JAX keeps signed/unsigned mixes of <= 32 bits at int32.
    if (out == np.int64 and not dtypes.config.x64_enabled
            and all(isinstance(n, np.dtype) and n.itemsize < 8 for n in nodes)):
        return np.dtype(np.int32)
    return out


def can_cast(from_, to, casting="safe"):
    if util._is_array(from_):
        from_ = aval_of(from_).dtype
    return np.can_cast(from_, to, casting=casting)


def isdtype(dtype, kind):
    """The array API's isdtype (kinds: 'bool', 'signed integer', 'unsigned
    integer', 'integral', 'real floating', 'complex floating', 'numeric', or
    dtypes; bfloat16 is a real floating type)."""
    dt = np.dtype(dtype)
    kinds = kind if isinstance(kind, tuple) else (kind,)
    for k in kinds:
        if isinstance(k, str):
            ok = {"bool": dt.kind == "b",
                  "signed integer": dtypes.is_signed_int(dt),
                  "unsigned integer": dtypes.is_unsigned(dt),
                  "integral": dtypes.is_int(dt),
                  "real floating": dtypes.is_float(dt),
                  "complex floating": dt.kind == "c",
                  "numeric": dtypes.is_int(dt) or dtypes.is_inexact(dt)}.get(k)
            if ok is None:
                raise ValueError(f"mnp.isdtype: unknown kind {k!r}")
            if ok:
                return True
        elif np.dtype(k) == dt:
            return True
    return False


def finfo(dtype):
    import ml_dtypes

    return ml_dtypes.finfo(aval_of(dtype).dtype if util._is_array(dtype) else dtype)


def iinfo(int_type):
    import ml_dtypes

    return ml_dtypes.iinfo(aval_of(int_type).dtype if util._is_array(int_type) else int_type)


# ---------------------------------------------------------------------------
# Building and reshaping
# ---------------------------------------------------------------------------

def broadcast_arrays(*args):
    arrays = [_arr(a) for a in args]
    shp = util.broadcast_shapes(*[aval_of(a).shape for a in arrays])
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
    values = mnp.asarray(values, dtype=aval_of(arr).dtype) if not util._is_array(values) \
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
        idx = ufuncs.remainder(a, n)
    elif mode == "clip":
        idx = ufuncs.clip(a, 0, n - 1)
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
    picked = mnc.take(a, ufuncs.maximum(idx, 0), axis=axis)
    shp = [1] * aval_of(a).ndim
    shp[axis] = size
    valid = mnp.reshape(idx >= 0, tuple(shp))
    return mnp.where(valid, picked, mnp.asarray(fill_value, dtype=aval_of(a).dtype))


def extract(condition, arr, *, size=None, fill_value=0):
    return compress(mnp.ravel(_arr(condition)), mnp.ravel(_arr(arr)), size=size,
                    fill_value=fill_value)


def lexsort(keys, axis=-1):
    """Indices that sort by the last key, then the one before, ... (stable)."""
    keys = [_arr(k) for k in keys] if not util._is_array(keys) else \
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


def trim_zeros(filt, trim="fb", axis=None):
    """`filt` without its leading ('f' in `trim`) and trailing ('b') zeros
    along each axis of `axis` (None: every axis), as jax.numpy.trim_zeros:
    along one axis a slice is all-zero when every element of it is. `filt`
    must be concrete (the result's shape depends on its values)."""
    f = _concrete("trim_zeros", filt, "filt")
    arr = _arr(filt)
    axes = set(mnp._axes("trim_zeros", axis, f.ndim))
    trim = trim.lower()
    if not axes or ("f" not in trim and "b" not in trim):
        return arr

    def _slice(ax):
        if ax not in axes:
            return slice(None)
        mask = f.any(axis=tuple(i for i in range(f.ndim) if i != ax))
        if not mask.any():
            return slice(0, 0)
        start = int(mask.argmax()) if "f" in trim else None
        stop = f.shape[ax] - int(mask[::-1].argmax()) if "b" in trim else None
        return slice(start, stop)

    return arr[tuple(_slice(ax) for ax in range(f.ndim))]


def issubdtype(arg1, arg2):
    """Whether dtype arg1 is arg2 or below it in NumPy's type hierarchy
    (jax.numpy.issubdtype, with JAX's parameter names; mlax.dtypes.issubdtype
    is the same test as jax.dtypes.issubdtype(a, b))."""
    return dtypes.issubdtype(arg1, arg2)


# ---------------------------------------------------------------------------
# Products and calculus
# ---------------------------------------------------------------------------

def vecdot(x1, x2, /, *, axis=-1, precision=None, preferred_element_type=None):
    x1, x2 = _arr(x1), _arr(x2)
    if aval_of(x1).shape[axis] != aval_of(x2).shape[axis]:
        raise ValueError(f"mnp.vecdot: axes must match, got shapes {aval_of(x1).shape} and "
                         f"{aval_of(x2).shape} at axis {axis}")
    if dtypes.is_complex(aval_of(x1).dtype):  # the array API's vecdot conjugates x1
        from mlax._src.numpy.ufuncs import _conj_complex
        x1 = _conj_complex(x1)
    # As JAX's (a vectorized dot): the promoted input dtype, integers not
    # widened as sum would, or preferred_element_type.
    if preferred_element_type is not None:
        dt = dtypes.canonicalize(preferred_element_type)
        x1, x2 = mnp.astype(x1, dt), mnp.astype(x2, dt)
    prod = x1 * x2
    if dtypes.is_bool(aval_of(prod).dtype):
        return reductions.any(prod, axis=axis)
    return reductions.sum(prod, axis=axis, dtype=aval_of(prod).dtype)


def matvec(x1, x2, /):
    x1, x2 = _arr(x1), _arr(x2)
    if aval_of(x1).ndim < 2 or aval_of(x2).ndim < 1:
        raise ValueError("mnp.matvec: x1 must be at least 2-d and x2 at least 1-d")
    # (JAX's matvec is a jnp.vectorize of this signature, with its check)
    util.vectorize_rank_promotion([aval_of(x1).shape, aval_of(x2).shape], [2, 1],
                                  "(n,m),(m)->(n)")
    return tensor_contractions.matmul(x1, mnp.expand_dims(x2, -1))[..., 0]


def vecmat(x1, x2, /):
    x1, x2 = _arr(x1), _arr(x2)
    if aval_of(x1).ndim < 1 or aval_of(x2).ndim < 2:
        raise ValueError("mnp.vecmat: x1 must be at least 1-d and x2 at least 2-d")
    util.vectorize_rank_promotion([aval_of(x1).shape, aval_of(x2).shape], [1, 2],
                                  "(n),(n,m)->(m)")
    return tensor_contractions.matmul(mnp.expand_dims(x1, -2), x2)[..., 0, :]


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
    elif aval_of(dx).ndim if util._is_array(dx) else np.ndim(dx):
        # An array dx broadcasts against y as given (NumPy), so it moves with y's axis.
        d = _arr(dx)
        d = lax.reshape(d, (1,) * (ndim - aval_of(d).ndim) + aval_of(d).shape)
        d = mne.moveaxis(d, axis, -1)
    else:
        d = dx
    return reductions.sum(d * (y[..., 1:] + y[..., :-1]), axis=-1) * 0.5


def gradient(f, *varargs, axis=None, edge_order=None):
    """Central differences inside, one-sided at the edges (edge_order 1),
    as jax.numpy.gradient. `varargs`: one scalar spacing, or one scalar or
    coordinate array per axis."""
    # (the spacings passed as one tuple: the jit's static names are keywords)
    return _gradient(f, varargs, axis=axis, edge_order=edge_order)


def _gradient(f, varargs, axis=None, edge_order=None):
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


# ---------------------------------------------------------------------------
# Phase unwrapping
# ---------------------------------------------------------------------------

def unwrap(p, discont=None, axis=-1, period=2 * np.pi):
    p = util.promote_dtypes("unwrap", p, period)[0]  # as JAX: p's dtype with period's
    if dtypes.is_complex(aval_of(p).dtype):
        raise ValueError("mnp.unwrap does not support complex inputs.")
    p = mne._promote_inexact("unwrap", p)[0]
    if discont is None:
        discont = period / 2
    d = mne.diff(p, axis=axis)
    interval_high = period / 2
    interval_low = -interval_high
    dd = ufuncs.remainder(d - interval_low, period) + interval_low
    dd = mnp.where((dd == interval_low) & (d > 0), interval_high, dd)
    correction = mnp.where(ufuncs.abs(d) < discont, 0.0, dd - d)
    correction = reductions.cumsum(correction, axis=axis)
    first = mnc.take(p, mnp.asarray([0]), axis=axis) if aval_of(p).ndim else p
    rest = lax.convert_element_type(correction, aval_of(p).dtype)
    zero_first = mnp.zeros_like(first)
    return p + mnp.concatenate([zero_first, rest], axis=axis)



# One jit dispatch each when called outside a trace, as jax.numpy's are
# (JAX's static arguments; traced in place inside a trace).
append = util._eager_jit(append, ('axis',))
argpartition = util._eager_jit(argpartition, ('kth', 'axis'))
block = util._eager_jit(block)
_gradient = util._eager_jit(_gradient, ('axis', 'edge_order'))
lexsort = util._eager_jit(lexsort, ('axis',))
matvec = util._eager_jit(matvec)
partition = util._eager_jit(partition, ('kth', 'axis'))
resize = util._eager_jit(resize, ('new_shape',))
sort_complex = util._eager_jit(sort_complex)
trapezoid = util._eager_jit(trapezoid, ('axis',))
unwrap = util._eager_jit(unwrap, ('axis',))
vecmat = util._eager_jit(vecmat)
diagflat = util._eager_jit(diagflat, ('k',))

"""mlax.numpy's reductions: sum, prod, max, min, all, any, mean, var, std
(with `where=` and `initial=`), their NaN-ignoring twins, the cumulative
reductions, ptp, average and the order statistics (quantile, percentile,
median)."""
from __future__ import annotations

import builtins

import numpy as np

from mlax._src.base import dtypes
from mlax._src.lax import lax
from mlax._src.core.primitives import aval_of
from mlax._src.core.tracer import Tracer
from mlax._src.numpy import lax_numpy as mnp
from mlax._src.numpy.util import (
    _Literal, _broadcast_to_shape, _check_arg, _is_array, _to_bool, broadcast_shapes)
from mlax._src.numpy.lax_numpy import _arr, _axes, asarray, astype
from mlax._src.numpy.ufuncs import (
    _dtype, _where, add, divide, greater, maximum, minimum, multiply, sqrt, subtract)
from mlax._src.numpy import ufuncs
from mlax._src.numpy import util


# ---------------------------------------------------------------------------
# Reductions
# ---------------------------------------------------------------------------

def _where_mask(name, where, shape):
    """The `where=` argument of a reduction as a bool mask of `shape` (None: no mask)."""
    if where is None:
        return None
    w = where if _is_array(where) else asarray(where)
    if aval_of(w).dtype != dtypes.bool_:
        raise ValueError(f"mnp.{name}: where must be None or a boolean array; got "
                         f"{aval_of(w).dtype}")
    return _broadcast_to_shape(w, broadcast_shapes(aval_of(w).shape, shape, name=name)) \
        if aval_of(w).shape != shape else w


def _upcast_f16(dt):
    # As JAX: half-precision floats accumulate in float32 (a float16 sum of many
    # small terms otherwise stalls or rounds to zero).
    return dtypes.float32 if dt in (dtypes.float16, dtypes.bfloat16) else dt


def _strongly_typed(a):
    """As JAX's reductions (their convert_element_type to the computation
    dtype): a weakly typed input (a Python scalar) reduces to a strong result."""
    aval = aval_of(a)
    return lax.convert_element_type(a, aval.dtype, weak_type=False) if aval.weak_type else a


def _reduce(name, a, axis, keepdims, lax_fn, dtype=None, upcast_ints=False, where=None,
            identity=None, initial=None, combine=None):
    """Reduce `a` over `axis` with `lax_fn`; masked-out elements (`where=`) become
    `identity`, `initial` is combined in after; float16/bfloat16 sums and products
    (`upcast_ints`) accumulate in float32 and round back once, as JAX's."""
    _check_arg(name, a)  # as JAX: a list is not an array (mnp.sum([1, 2]))
    a = _strongly_typed(a if _is_array(a) else asarray(a))
    aval = aval_of(a)
    axes = _axes(name, axis, aval.ndim)
    mask = _where_mask(name, where, aval.shape)
    if mask is not None and identity is None and initial is None:
        raise ValueError(f"mnp.{name}: reduction operation {name} does not have an identity, "
                         f"so to use a where mask one has to specify 'initial'")
    if dtype is not None:
        out_dt = dtypes.canonicalize(dtype)
        a = astype(a, out_dt)
    else:
        out_dt = aval.dtype
        if upcast_ints:
            if dtypes.is_bool(out_dt):
                out_dt = dtypes.default_int()
            elif out_dt in dtypes.NARROW_INTS:
                # JAX's promotion fails here too (NumPy's iinfo has no int4).
                raise ValueError(
                    f"mnp.{name}: {out_dt} cannot be promoted to the default integer; pass "
                    f"promote_integers=False or cast first, e.g. x.astype('int32')")
            elif dtypes.is_int(out_dt) and out_dt.itemsize < dtypes.default_int().itemsize:
                # As JAX: to the default (unsigned) int, 64-bit with x64.
                out_dt = (dtypes.canonicalize(dtypes.uint64) if dtypes.is_unsigned(out_dt)
                          else dtypes.default_int())
            a = astype(a, _upcast_f16(out_dt))
    comp_dt = aval_of(a).dtype
    if mask is not None:
        # No identity (max/min): `initial` stands in; combining it twice is harmless.
        fill = identity if identity is not None else initial
        # (A traced `initial`, as under the jit of mnp.maximum.reduce, converts in lax.)
        fill = fill if isinstance(fill, Tracer) else np.asarray(fill, comp_dt)
        a = lax.select(mask, a, _broadcast_to_shape(
            lax.convert_element_type(fill, comp_dt), aval.shape))
    out = lax_fn(a, axes)
    if initial is not None:
        out = combine(out, astype(asarray(initial), comp_dt))
    if aval_of(out).dtype != out_dt:
        out = astype(out, out_dt)
    if keepdims:
        out = lax.reshape(out, [1 if i in axes else d for i, d in enumerate(aval.shape)])
    return out


def _no_out(name, out):
    """jax.numpy's reductions take `out` for NumPy's signature, and only None."""
    if out is not None:
        raise NotImplementedError(f"The 'out' argument to jnp.{name} is not supported.")


# The reductions take JAX's parameters in JAX's order (positional calls
# written for jax.numpy or NumPy mean the same here).
def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None,  # noqa: A001
        where=None, promote_integers=True):
    _no_out("sum", out)
    if _is_bool_dtype(dtype):  # (as JAX: a sum in bool is an or)
        return _reduce("sum", a, axis, keepdims, lax.reduce_or, dtype, promote_integers, where,
                       False, initial, ufuncs.logical_or)
    return _reduce("sum", a, axis, keepdims, lax.reduce_sum, dtype, promote_integers, where, 0,
                   initial, add)


def _is_bool_dtype(dtype):
    return dtype is not None and dtypes.is_bool(dtypes.canonicalize(dtype))


def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None,
         promote_integers=True):
    _no_out("prod", out)
    if _is_bool_dtype(dtype):  # (as JAX: a product in bool is an and)
        return _reduce("prod", a, axis, keepdims, lax.reduce_and, dtype, promote_integers,
                       where, True, initial, ufuncs.logical_and)
    return _reduce("prod", a, axis, keepdims, lax.reduce_prod, dtype, promote_integers, where,
                   1, initial, multiply)


def _check_nonempty(name, a, axis):
    aval = aval_of(a)
    axes = _axes(name, axis, aval.ndim)
    if builtins.any(aval.shape[x] == 0 for x in axes):
        raise ValueError(f"zero-size array to reduction operation {name} which has no identity")


def max(a, axis=None, out=None, keepdims=False, initial=None, where=None):  # noqa: A001
    _no_out("max", out)
    _check_arg("max", a)
    a = a if _is_array(a) else asarray(a)
    if initial is None:
        _check_nonempty("max", a, axis)
    return _reduce("max", a, axis, keepdims, lax.reduce_max, where=where, initial=initial,
                   combine=maximum)


def min(a, axis=None, out=None, keepdims=False, initial=None, where=None):  # noqa: A001
    _no_out("min", out)
    _check_arg("min", a)
    a = a if _is_array(a) else asarray(a)
    if initial is None:
        _check_nonempty("min", a, axis)
    return _reduce("min", a, axis, keepdims, lax.reduce_min, where=where, initial=initial,
                   combine=minimum)


amax, amin = max, min


def all(a, axis=None, out=None, keepdims=False, *, where=None):  # noqa: A001
    _no_out("all", out)
    a = a if _is_array(a) else asarray(a)
    return _reduce("all", _to_bool(a), axis, keepdims, lax.reduce_and, where=where,
                   identity=True)


def any(a, axis=None, out=None, keepdims=False, *, where=None):  # noqa: A001
    _no_out("any", out)
    a = a if _is_array(a) else asarray(a)
    return _reduce("any", _to_bool(a), axis, keepdims, lax.reduce_or, where=where,
                   identity=False)


def _count(aval, axes):
    return int(np.prod([aval.shape[x] for x in axes], dtype=np.int64))


def _reduction_count(name, aval, axes, keepdims, where, dt):
    """How many elements each output of a reduction saw: a Python int, or, with
    `where=`, an array of `dt` counting the mask."""
    mask = _where_mask(name, where, aval.shape)
    if mask is None:
        return _count(aval, axes)
    return sum(mask, axis=axes, dtype=dt, keepdims=keepdims)


def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=None):
    _no_out("mean", out)
    _check_arg("mean", a)
    a = a if _is_array(a) else asarray(a)
    aval = aval_of(a)
    axes = _axes("mean", axis, aval.ndim)
    where = _where_mask("mean", where, aval.shape)  # checked here, so errors name mean
    dt = dtypes.canonicalize(dtype) if dtype is not None else dtypes.to_inexact(aval.dtype)
    _check_div_dtype("mean", dt)
    comp = _upcast_f16(dt) if dtype is None else dt  # as JAX: f16/bf16 accumulate in f32
    n = _reduction_count("mean", aval, axes, keepdims, where, comp)
    if not dtypes.is_inexact(comp):
        # As JAX (its lax.div): an integer dtype= sums and divides in that
        # integer type, truncating.
        total = sum(astype(a, comp), axis=axes, dtype=comp, keepdims=keepdims, where=where)
        return lax.div(total, lax.full_like(total, n) if isinstance(n, int) else n)
    total = sum(astype(a, comp), axis=axes, keepdims=keepdims, where=where)
    if isinstance(n, int):
        n = _Literal(n if n else np.nan, comp, False)
    return astype(divide(total, n), dt)


def _check_div_dtype(name, dt):
    """As JAX's mean/var, whose lax.div refuses a bool dtype=."""
    if dtypes.is_bool(dt):
        raise TypeError(f"mnp.{name}: div does not accept dtype bool at position 0. Accepted "
                        f"dtypes at position 0 are subtypes of integer, floating, "
                        f"complexfloating.")


def _var_dtypes(a_dtype, dtype):
    """(result dtype, computation dtype) of var / std, as JAX's: the variance
    of complex numbers is real (|x - mean|^2), in their real part's type."""
    if dtype is not None:
        dt = dtypes.canonicalize(dtype)
        if dtypes.is_complex(a_dtype) and not dtypes.is_complex(dt):
            raise ValueError(
                "mlax.numpy.var does not yet support real dtype parameters when computing "
                "the variance of an array of complex values (as jax.numpy.var)")
        return dt, _upcast_f16(dt)
    comp = dtypes.to_inexact(a_dtype)
    dt = np.empty(0, comp).real.dtype if dtypes.is_complex(comp) else comp
    return dt, _upcast_f16(comp)


_mean = mean  # (var's `mean` parameter shadows the function)


def _correction(ddof, correction):
    """JAX's `correction` (the array API's name for ddof)."""
    if correction is None:
        return ddof
    if not isinstance(ddof, int) or ddof != 0:
        raise ValueError("ddof and correction can't be provided simultaneously.")
    return correction


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None, mean=None,
        correction=None):
    """`mean`: the mean along `axis` (keepdims-shaped), if already known."""
    _no_out("var", out)
    ddof = _correction(ddof, correction)
    _check_arg("var", a)
    a = a if _is_array(a) else asarray(a)
    aval = aval_of(a)
    axes = _axes("var", axis, aval.ndim)
    where = _where_mask("var", where, aval.shape)
    dt, comp = _var_dtypes(aval.dtype, dtype)  # as JAX: f16/bf16 accumulate in f32
    _check_div_dtype("var", comp)
    a = astype(a, comp)
    a_mean = (_mean(a, axis=axes, dtype=comp, keepdims=True, where=where) if mean is None
              else astype(asarray(mean), comp))
    centered = subtract(a, a_mean)
    if dtypes.is_complex(comp):
        sq = lax.real(multiply(centered, lax.conj(centered)))
        comp = aval_of(sq).dtype
    else:
        sq = multiply(centered, centered)
    total = sum(sq, axis=axes, keepdims=keepdims, where=where)
    n = _reduction_count("var", aval, axes, keepdims, where, comp)
    if not dtypes.is_inexact(comp):
        # As JAX: an integer dtype= computes in integers (the mean and the
        # division truncate), then NaN where count - ddof <= 0 makes the result
        # a weakly typed float.
        total = sum(sq, axis=axes, dtype=comp, keepdims=keepdims, where=where)
        n = subtract(lax.full_like(total, n) if isinstance(n, int) else n,
                     _Literal(ddof, comp, False))
        ok = greater(n, _Literal(0, comp, False))
        out = astype(lax.div(total, mnp.where(ok, n, lax.full_like(n, 1))), dt)
        return mnp.where(ok, out, np.nan)
    if isinstance(n, int):
        out = divide(total, _Literal(n - ddof if n - ddof > 0 else np.nan, comp, False))
    else:
        n = subtract(n, _Literal(ddof, comp, False))
        ratio = divide(total, n)
        out = lax.select(greater(n, _Literal(0, comp, False)), ratio, _broadcast_to_shape(
            lax.convert_element_type(np.asarray(np.nan, comp), comp), aval_of(ratio).shape))
    return astype(out, dt)


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None, mean=None,
        correction=None):
    _no_out("std", out)
    if dtype is not None and not dtypes.is_inexact(dtypes.canonicalize(dtype)):
        raise ValueError(f"dtype argument to mnp.std must be inexact; got "
                         f"{dtypes.canonicalize(dtype)}")
    ddof = _correction(ddof, correction)
    _check_arg("std", a)
    a = a if _is_array(a) else asarray(a)
    where = _where_mask("std", where, aval_of(a).shape)
    return sqrt(var(a, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims, where=where,
                    mean=mean))


# ---------------------------------------------------------------------------
# Cumulative sums and products
# ---------------------------------------------------------------------------

def _cumulative_setup(name, a, axis, dtype):
    a = _strongly_typed(_arr(a))
    if axis is None:
        a = mnp.ravel(a)
        axis = 0
    aval = aval_of(a)
    axis = mnp._normalize_axis(name, axis, aval.ndim)  # a 0-d `a` has no axis 0 (as JAX)
    if dtype is not None and dtypes.is_bool(dtypes.canonicalize(dtype)):
        # As JAX: a bool result accumulates a != 0 in the default int (so
        # that [-1, 1] does not cancel), converted back to bool after.
        a = mnp.astype(ufuncs.not_equal(a, 0) if aval.dtype != dtypes.bool_ else a,
                       dtypes.default_int())
    elif dtype is not None:
        a = mnp.astype(a, dtype)
    else:
        dt = aval.dtype
        if dtypes.is_bool(dt):
            a = mnp.astype(a, dtypes.default_int())
    if aval_of(a).ndim == 0:
        a = mnp.reshape(a, (1,))
    return a, axis


def cumsum(a, axis=None, dtype=None, out=None):
    """Cumulative sum along `axis` (of the flattened array when None)."""
    if out is not None:
        raise NotImplementedError("mnp.cumsum: the out argument is not supported")
    a, axis = _cumulative_setup("cumsum", a, axis, dtype)
    out = lax.cumsum(a, axis)
    return out if dtype is None else mnp.astype(out, dtype)


def cumprod(a, axis=None, dtype=None, out=None):
    """Cumulative product along `axis` (log-step doubling: exact with zeros,
    differentiable)."""
    if out is not None:
        raise NotImplementedError("mnp.cumprod: the out argument is not supported")
    a, axis = _cumulative_setup("cumprod", a, axis, dtype)
    aval = aval_of(a)
    n = aval.shape[axis]
    one = mnp.ones((), aval.dtype)
    k = 1
    while k < n:
        config = [(0, 0, 0)] * aval.ndim
        config[axis] = (k, -k, 0)
        a = ufuncs.multiply(a, lax.pad(a, one, config))
        k *= 2
    return a if dtype is None else mnp.astype(a, dtype)


def _cumulative(name, scan, fill, x, axis, dtype, include_initial):
    """cumulative_sum/cumulative_prod: `scan` along `axis` (required for
    arrays of rank > 1), optionally starting with `fill` (zeros, ones)."""
    x = _arr(x)
    if axis is None:
        if aval_of(x).ndim > 1:
            raise ValueError(f"mnp.{name}: axis must be given for arrays with more "
                             f"than one dimension (at {_where()})")
        axis = 0
    dt = aval_of(x).dtype
    if (dtype is None and scan is cumsum and dtypes.is_int(dt) and dt not in dtypes.NARROW_INTS
            and dt.itemsize < dtypes.default_int().itemsize):
        # As JAX: cumulative_sum (not cumsum, nor cumulative_prod) promotes
        # small integers as sum does, to the default (unsigned) int.
        dtype = (dtypes.canonicalize(dtypes.uint64) if dtypes.is_unsigned(dt)
                 else dtypes.default_int())
    out = scan(x, axis=axis, dtype=dtype)
    if include_initial:
        ax = mnp._normalize_axis(name, axis, aval_of(out).ndim)
        shape = list(aval_of(out).shape)
        shape[ax] = 1
        out = mnp.concatenate([fill(shape, aval_of(out).dtype), out], ax)
    return out


def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
    return _cumulative("cumulative_sum", cumsum, mnp.zeros, x, axis, dtype, include_initial)


# ---------------------------------------------------------------------------
# cumulative_prod, ptp
# ---------------------------------------------------------------------------


def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False):
    """Cumulative product along `axis` (required for arrays of rank > 1),
    optionally starting with the initial 1 (the array API's cumulative_prod)."""
    return _cumulative("cumulative_prod", cumprod, mnp.ones, x, axis, dtype, include_initial)


def ptp(a, axis=None, out=None, keepdims=False):
    """max(a) - min(a) along `axis` (the peak-to-peak range)."""
    if out is not None:
        raise NotImplementedError("mnp.ptp: the out argument is not supported")
    a = a if util._is_array(a) else mnp.asarray(a)
    if dtypes.is_bool(_dtype(a)):
        raise TypeError(f"mnp.ptp does not accept bool arrays (at {_where()})")
    return ufuncs.subtract(max(a, axis=axis, keepdims=keepdims),
                        min(a, axis=axis, keepdims=keepdims))


# One jit dispatch each when called outside a trace, as jax.numpy's are
# (JAX's static arguments; traced in place inside a trace).
cumprod = util._eager_jit(cumprod, ('axis', 'dtype'))
cumsum = util._eager_jit(cumsum, ('axis', 'dtype'))
# (their axes normalized first, as JAX's `_ensure_optional_axes`: a list or
# a NumPy integer is taken)
_REDUCE_STATIC = ('axis', 'dtype', 'keepdims', 'promote_integers')
sum = util._eager_jit_axes(sum, _REDUCE_STATIC)  # noqa: A001
prod = util._eager_jit_axes(prod, _REDUCE_STATIC)
max = util._eager_jit_axes(max, ('axis', 'keepdims'))  # noqa: A001
min = util._eager_jit_axes(min, ('axis', 'keepdims'))  # noqa: A001
amax, amin = max, min
all = util._eager_jit_axes(all, ('axis', 'keepdims'))  # noqa: A001
any = util._eager_jit_axes(any, ('axis', 'keepdims'))  # noqa: A001
mean = util._eager_jit_axes(mean, ('axis', 'dtype', 'keepdims'))
var = util._eager_jit_axes(var, ('axis', 'dtype', 'keepdims', 'ddof', 'correction'))
std = util._eager_jit_axes(std, ('axis', 'dtype', 'keepdims', 'ddof', 'correction'))
ptp = util._eager_jit_axes(ptp, ('axis', 'keepdims'))

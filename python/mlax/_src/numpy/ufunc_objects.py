"""mnp's ufunc objects: jax.numpy's binary ufuncs (add, multiply, maximum,
logical_and, ...) and negative as mnp.ufunc instances. Each is called as the
plain function of mlax._src.numpy.ufuncs (which mlax uses internally) and
takes its reduce / accumulate / at from the faster equivalent where one
exists (add.reduce is sum, add.accumulate cumsum, add.at x.at[].add, ...),
as JAX's do; the rest run the generic loops of mnp.ufunc."""
from __future__ import annotations

import numpy as np

from mlax._src.base import dtypes
from mlax._src.core.primitives import aval_of
from mlax._src.lax import lax
from mlax._src.numpy import lax_numpy as mnp
from mlax._src.numpy import reductions
from mlax._src.numpy import ufuncs as U
from mlax._src.numpy import util
from mlax._src.numpy.lax_numpy import asarray, astype
from mlax._src.numpy.ufunc_api import ufunc


def _lax_reduction(name):
    from mlax._src.lax import reductions as lax_reductions
    return getattr(lax, name, None) or getattr(lax_reductions, name)


def _reduce_with(name, lax_fn_name, identity, combine, preproc=None):
    """`<ufunc>.reduce` by one lax reduction (numpy.reductions._reduce)."""
    def reduce(a, axis=0, dtype=None, keepdims=False, initial=None, where=None):
        util._check_arg(name, a)
        a = asarray(a) if not util._is_array(a) else a
        if preproc is not None:
            a = preproc(a)
        if dtype is not None:
            # As JAX's: the (bool or integer) input converted to dtype, reduced
            # there by the bitwise op, which refuses a float dtype.
            dt = dtypes.canonicalize(dtype)
            if not (dtypes.is_int(dt) or dtypes.is_bool(dt)):
                op = lax_fn_name[len("reduce_"):]
                raise TypeError(f"{name}: {op} does not accept dtype {dt.name} at position 0. "
                                f"Accepted dtypes at position 0 are subtypes of integer, "
                                f"bool.")
            a = astype(a, dt)
        dt = aval_of(a).dtype
        return reductions._reduce(name, a, axis, keepdims, _lax_reduction(lax_fn_name),
                                  where=where, identity=np.array(identity).astype(dt),
                                  initial=initial, combine=combine)
    return reduce


def _require_integral(name):
    def check(a):
        dt = aval_of(a).dtype
        if not (dtypes.is_int(dt) or dtypes.is_bool(dt)):
            raise ValueError(f"integer argument required; got dtype={dt.name}")
        return a
    return check


def _max_reduce(a, axis=0, dtype=None, keepdims=False, initial=None, where=None):
    out = reductions.max(a, axis=axis, keepdims=keepdims, initial=initial, where=where)
    return out if dtype is None else astype(out, dtype)


def _min_reduce(a, axis=0, dtype=None, keepdims=False, initial=None, where=None):
    out = reductions.min(a, axis=axis, keepdims=keepdims, initial=initial, where=where)
    return out if dtype is None else astype(out, dtype)


def _sum_reduce(a, axis=0, dtype=None, keepdims=False, initial=None, where=None):
    return reductions.sum(a, axis=axis, dtype=dtype, keepdims=keepdims, initial=initial,
                          where=where)


def _prod_reduce(a, axis=0, dtype=None, keepdims=False, initial=None, where=None):
    return reductions.prod(a, axis=axis, dtype=dtype, keepdims=keepdims, initial=initial,
                           where=where)


def _cumsum(a, axis=0, dtype=None):
    return reductions.cumsum(a, axis=axis, dtype=dtype)


def _cumprod(a, axis=0, dtype=None):
    return reductions.cumprod(a, axis=axis, dtype=dtype)


def _logsumexp(a, axis=0, dtype=None, keepdims=False, initial=None, where=None, base2=False):
    """log(sum(exp(a))) without overflow (jax.numpy's logaddexp.reduce; as JAX's,
    `dtype` is checked but not used)."""
    util._check_arg("logsumexp", a)
    a, = util._promote_inexact("logsumexp", a)
    a = util._materialize(a)
    if base2:
        ln2 = float(np.log(2))
        a = U.multiply(a, ln2)
        if initial is not None:
            initial = U.multiply(initial, ln2)
    ndim = aval_of(a).ndim
    axes = mnp._axes("logaddexp.reduce", axis, ndim)
    amax = reductions.max(U.real(a), axis=axes, keepdims=True, where=where, initial=-np.inf)
    amax = lax.stop_gradient(lax.select(lax.is_finite(amax), amax, lax.full_like(amax, 0)))
    exp_a = lax.exp(lax.sub(a, lax.convert_element_type(
        mnp.broadcast_to(amax, aval_of(a).shape), aval_of(a).dtype)))
    sumexp = reductions.sum(exp_a, axis=axes, keepdims=keepdims, where=where)
    amax = amax if keepdims else lax.reshape(amax, aval_of(sumexp).shape)
    out = lax.add(lax.log(sumexp), lax.convert_element_type(amax, aval_of(sumexp).dtype))
    if initial is not None:
        out = U.logaddexp(initial, out)
    if base2:
        out = U.divide(out, ln2)
    return out


def _logsumexp2(a, axis=0, dtype=None, keepdims=False, initial=None, where=None):
    return _logsumexp(a, axis, dtype, keepdims, initial, where, base2=True)


def _bool_via_int(method):
    def at(a, indices, b):
        a = asarray(a)
        if aval_of(a).dtype == dtypes.bool_:
            a = astype(a, dtypes.int32)
            b = astype(astype(asarray(b), dtypes.bool_), dtypes.int32)
            return astype(getattr(a.at[indices], method)(b), dtypes.bool_)
        return getattr(a.at[indices], method)(b)
    return at


def _subtract_at(a, indices, b):
    return asarray(a).at[indices].subtract(b)


def _binary_ufunc(fn, name, identity, **methods):
    return ufunc(fn, 2, 1, name=name, call=fn, identity=identity, **methods)


add = _binary_ufunc(U.add, "add", 0, reduce=_sum_reduce, accumulate=_cumsum,
                    at=_bool_via_int("add"))
multiply = _binary_ufunc(U.multiply, "multiply", 1, reduce=_prod_reduce, accumulate=_cumprod,
                         at=_bool_via_int("multiply"))
subtract = _binary_ufunc(U.subtract, "subtract", None, at=_subtract_at)
maximum = _binary_ufunc(U.maximum, "maximum", None, reduce=_max_reduce)
minimum = _binary_ufunc(U.minimum, "minimum", None, reduce=_min_reduce)
bitwise_and = _binary_ufunc(U.bitwise_and, "bitwise_and", -1, reduce=_reduce_with(
    "bitwise_and.reduce", "reduce_and", -1, U.bitwise_and,
    _require_integral("bitwise_and.reduce")))
bitwise_or = _binary_ufunc(U.bitwise_or, "bitwise_or", 0, reduce=_reduce_with(
    "bitwise_or.reduce", "reduce_or", 0, U.bitwise_or, _require_integral("bitwise_or.reduce")))
bitwise_xor = _binary_ufunc(U.bitwise_xor, "bitwise_xor", 0, reduce=_reduce_with(
    "bitwise_xor.reduce", "reduce_xor", 0, U.bitwise_xor,
    _require_integral("bitwise_xor.reduce")))
logical_and = _binary_ufunc(U.logical_and, "logical_and", True, reduce=_reduce_with(
    "logical_and.reduce", "reduce_and", True, U.logical_and, util._to_bool))
logical_or = _binary_ufunc(U.logical_or, "logical_or", False, reduce=_reduce_with(
    "logical_or.reduce", "reduce_or", False, U.logical_or, util._to_bool))
logical_xor = _binary_ufunc(U.logical_xor, "logical_xor", False, reduce=_reduce_with(
    "logical_xor.reduce", "reduce_xor", False, U.logical_xor, util._to_bool))
logaddexp = _binary_ufunc(U.logaddexp, "logaddexp", -np.inf, reduce=_logsumexp)
logaddexp2 = _binary_ufunc(U.logaddexp2, "logaddexp2", -np.inf, reduce=_logsumexp2)
negative = ufunc(U.negative, 1, 1, name="negative", call=U.negative)

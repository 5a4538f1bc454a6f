"""mlax.numpy's elementwise functions (ufuncs): arithmetic, powers and logs,
comparisons, logical and bitwise operations, rounding, signs, trigonometric
and hyperbolic functions, gcd/lcm, frexp/ldexp, ..., each written as
jax.numpy writes it so that results and derivatives agree with JAX's."""
from __future__ import annotations

import functools
import operator

import numpy as np

from mlax._src.core import tracer as core
from mlax._src.base import dtypes
from mlax._src.lax import lax
from mlax._src.lax import fft as lax_fft
from mlax._src.lax import math as lax_math
from mlax._src.lax import reductions as lax_reductions
from mlax._src.lax import special as lax_special
from mlax._src.core import primitives
from mlax._src.core.primitives import aval_of
from mlax._src.numpy import lax_numpy as mnp
from mlax._src.numpy.util import (
    _binary, _check_arg, _eager_jit, _is_array, _materialize, _to_bool, _unary, promote_args,
    promote_dtypes)
from mlax._src.numpy.lax_numpy import asarray, astype, full
from mlax._src.numpy import util


# ---------------------------------------------------------------------------
# Elementwise math
# ---------------------------------------------------------------------------

exp = _unary("exp", lax.exp, True)
log = _unary("log", lax.log, True)
sin = _unary("sin", lax.sin, True)
cos = _unary("cos", lax.cos, True)
tan = _unary("tan", lax.tan, True)
tanh = _unary("tanh", lax.tanh, True)
sqrt = _unary("sqrt", lax.sqrt, True)
log1p = _unary("log1p", lax.log1p, True)
expm1 = _unary("expm1", lax.expm1, True)
negative = _unary("negative", lambda x: lax.neg(x) if not dtypes.is_unsigned(aval_of(x).dtype)
                  else lax.sub(lax.full_like(x, 0), x))
positive = _unary("positive", lambda x: x)


def _abs(x):
    dt = aval_of(x).dtype
    if dtypes.is_unsigned(dt) or dtypes.is_bool(dt):
        return x
    return lax.abs(x)


abs = absolute = _unary("absolute", _abs)  # noqa: A001


def _sign(x):
    dt = aval_of(x).dtype
    if dtypes.is_unsigned(dt):
        return lax.convert_element_type(lax.ne(x, lax.full_like(x, 0)), dt)
    return lax.sign(x)


sign = _unary("sign", _sign)


def _float_or_identity(lax_fn, name):
    def fn(x):
        dt = aval_of(x).dtype
        if dtypes.is_complex(dt):  # as JAX (its lax op's dtype check)
            raise TypeError(f"{name} does not accept dtype {dt.name}. Accepted dtypes are "
                            f"subtypes of floating.")
        return lax_fn(x) if dtypes.is_float(dt) else x
    return fn


floor = _unary("floor", _float_or_identity(lax.floor, "floor"))
ceil = _unary("ceil", _float_or_identity(lax.ceil, "ceil"))
trunc = _unary("trunc", _float_or_identity(
    lambda x: lax.select(lax.lt(x, lax.full_like(x, 0)), lax.ceil(x), lax.floor(x)), "trunc"))


def round(a, decimals=0, out=None):  # noqa: A001
    """Round half to even, as numpy.round."""
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.round is not supported.")
    x, = promote_dtypes("round", a)
    dt = aval_of(x).dtype
    if dtypes.is_int(dt):
        if decimals < 0:
            raise NotImplementedError("integer np.round not implemented for decimals < 0")
        return _materialize(x)
    if not dtypes.is_inexact(dt):  # as JAX (its finfo of bool)
        raise ValueError(f"data type {dt.type} not inexact")

    def round_float(x):
        if decimals == 0:
            return lax.round(x, lax.RoundingMethod.TO_NEAREST_EVEN)
        # As JAX: float16 scales in float32 (10**decimals overflows it early).
        y = lax.convert_element_type(x, dtypes.float32) if dt == dtypes.float16 else x
        factor = lax.full_like(y, 10.0 ** decimals)
        y = lax.div(lax.round(lax.mul(y, factor), lax.RoundingMethod.TO_NEAREST_EVEN), factor)
        return lax.convert_element_type(y, dt) if dt == dtypes.float16 else y

    import ml_dtypes

    if decimals > np.log10(float(ml_dtypes.finfo(dt).max)):
        return _materialize(x)  # beyond the dtype's precision: a no-op, as JAX
    if dtypes.is_complex(dt):
        return lax.complex(round_float(lax.real(x)), round_float(lax.imag(x)))
    return round_float(x)


around = round

add = _binary("add", lambda x, y: lax.bitwise_or(x, y) if dtypes.is_bool(aval_of(x).dtype)
              else lax.add(x, y))
subtract = _binary("subtract", lax.sub)
multiply = _binary("multiply", lambda x, y: lax.bitwise_and(x, y)
                   if dtypes.is_bool(aval_of(x).dtype) else lax.mul(x, y))
true_divide = divide = _binary("divide", lax.div, inexact=True)
_power_promoted = _binary("power", lambda x, y: _power(x, y))


def power(x, y):
    """mnp.power, as numpy.power (integer powers are exact and wrap). As
    jax.numpy.power: a concrete integer exponent (a Python int, a NumPy
    integer, a 0-d integer array) is lax.integer_pow of the base, whose
    derivative is integer_pow's (x ** 2.0 is lax.pow's, nan at 0 for
    x ** 0.0)."""
    if not isinstance(y, core.Tracer) and not primitives.sparsify_notes:
        # (sparsify reads lax.pow with a noted integer exponent as integer_pow)
        try:
            exponent = operator.index(y)
        except TypeError:
            pass
        else:
            return _integer_power(x, exponent)
    out = _power_promoted(x, y)
    if primitives.sparsify_notes and not isinstance(y, core.Tracer):
        try:
            exponent = operator.index(y)
        except TypeError:
            pass
        else:  # (a power by a concrete integer: JAX's integer_pow)
            primitives.note_for_sparsify("integer_pow", out, exponent)
    ax, ay = aval_of(x), aval_of(y)
    if dtypes.is_inexact(ax.dtype) and dtypes.is_int(ay.dtype) and not ay.weak_type:
        # As JAX (lax.pow of a float base and an integer exponent): the result
        # is weak only if the exponent is.
        out = lax.convert_element_type(out, aval_of(out).dtype, weak_type=False)
    elif (dtypes.is_bool(ax.dtype) or dtypes.is_bool(ay.dtype)) and \
            dtypes.is_int(aval_of(out).dtype) and aval_of(out).weak_type:
        # As JAX: a power with a bool operand is a strong integer power.
        out = lax.convert_element_type(out, aval_of(out).dtype, weak_type=False)
    return out


def _integer_power_impl(x, *, exponent):
    (x,) = util.promote_dtypes("power", x)
    if dtypes.is_bool(aval_of(x).dtype):  # (as JAX's promote_dtypes_numeric)
        x = lax.convert_element_type(x, dtypes.int32, weak_type=aval_of(x).weak_type)
    aval = aval_of(x)
    if exponent < 0 and dtypes.is_inexact(aval.dtype):
        # lax.pow of an integral constant, whose derivative is integer_pow's
        # in JAX (-inf for x ** -2 at 0, where differentiating the reciprocal
        # of integer_pow's product gives nan)
        y = lax.full_like(x, exponent)
        return lax.convert_element_type(lax.pow(x, y), aval.dtype, weak_type=aval.weak_type)
    return lax_math.integer_pow(x, exponent)


_integer_power_jit = util._eager_jit(_integer_power_impl, static_argnames=("exponent",))


def _integer_power(x, exponent):
    util._check_arg("power", x)
    return _integer_power_jit(x, exponent=exponent)


maximum = _binary("maximum", lax.max)
minimum = _binary("minimum", lax.min)
arctan2 = _binary("arctan2", lax.atan2, inexact=True)
fmod = _binary("fmod", lambda x, y: _bool_as_int(
    lambda a, b: lax.rem(a, _nonzero_int_divisor(b)))(x, y))


def _power(x, y):
    aval = aval_of(x)
    dt, weak = aval.dtype, aval.weak_type and aval_of(y).weak_type
    if dtypes.is_inexact(dt):
        return lax.pow(x, y)
    if dtypes.is_bool(dt):  # as JAX: bool ** bool is an int32 power, even with x64
        dt = dtypes.int32
        x, y = lax.convert_element_type(x, dt), lax.convert_element_type(y, dt)
    # Integer power by binary exponentiation over the exponent's low 6 bits
    # (anything more overflows for |x| > 1), exactly as JAX's _pow_int_int:
    # exact, and wrapping on overflow like NumPy.
    zero, one = lax.full_like(x, 0), lax.full_like(x, 1)
    acc = lax.select(lax.bitwise_and(lax.eq(x, zero), lax.ne(y, zero)), zero, one)
    for bit in range(6):
        set_ = lax.ne(lax.bitwise_and(y, lax.full_like(y, 1 << bit)), zero)
        acc = lax.select(set_, lax.mul(acc, x), acc)
        if bit < 5:
            x = lax.mul(x, x)
    return lax.convert_element_type(acc, dt, weak_type=weak)


def _float_divmod(x1, x2):
    # CPython's float_divmod, as jax.numpy.
    mod = lax.rem(x1, x2)
    # x / 0 keeps its sign (+-inf, nan for 0/0): x - rem(x, 0) would be nan.
    div = lax.div(lax.select(lax.eq(x2, lax.full_like(x2, 0)), x1, lax.sub(x1, mod)), x2)
    ind = lax.bitwise_and(lax.ne(mod, lax.full_like(mod, 0)), lax.ne(lax.sign(x2), lax.sign(mod)))
    mod = lax.select(ind, lax.add(mod, x2), mod)
    div = lax.select(ind, lax.sub(div, lax.full_like(div, 1)), div)
    return lax.round(div), mod


def _complex_parts(x):
    """(Re x, Im x) of a complex array. mlax has no real/imag op yet; an IRFFT of
    length 1 returns the real part of its single term, exactly."""
    x = _materialize(asarray(x) if not _is_array(x) else x)
    shape = aval_of(x).shape
    col = lax.reshape(x, shape + (1,))
    minus_i = asarray(-1j, aval_of(x).dtype)
    re = lax_fft.fft(col, "IRFFT", (1,))
    im = lax_fft.fft(multiply(col, minus_i), "IRFFT", (1,))
    return lax.reshape(re, shape), lax.reshape(im, shape)


def _conj_complex(x):
    """The conjugate of a complex array, for the functions that need one inside
    (vdot, vecdot) while the public real/imag/conj still wait for their own ops."""
    dt = aval_of(asarray(x) if not _is_array(x) else x).dtype
    re, im = _complex_parts(x)
    return subtract(lax.convert_element_type(re, dt),
                    multiply(lax.convert_element_type(im, dt), asarray(1j, dt)))


def _floor_divide(x, y):
    dt = aval_of(x).dtype
    if dtypes.is_float(dt):
        # CPython's float floor division, as NumPy and JAX: floor(1 / 0.1) would be
        # 10 where 1 // 0.1 is 9, and inf // 2 is nan.
        return _float_divmod(x, y)[0]
    if dtypes.is_unsigned(dt):
        return lax.div(x, y)
    q = lax.div(x, y)
    zero = lax.full_like(x, 0)
    r = lax.rem(x, y)
    # JAX's rule: the signs of the operands (not of the remainder) decide, so
    # a division by zero (XLA: quotient -1, remainder x) gives JAX's -2 for x > 0.
    fix = lax.bitwise_and(lax.ne(r, zero), lax.ne(lax.sign(x), lax.sign(y)))
    return lax.select(fix, lax.sub(q, lax.full_like(q, 1)), q)


def _nonzero_int_divisor(y):
    """An integer divisor with its zeros replaced by 1, so that remainders by 0 are 0
    (as NumPy and JAX) rather than XLA's dividend; floats are unchanged."""
    if not dtypes.is_int(aval_of(y).dtype):
        return y
    return lax.select(lax.eq(y, lax.full_like(y, 0)), lax.full_like(y, 1), y)


def _remainder(x, y):
    y = _nonzero_int_divisor(y)
    r = lax.rem(x, y)
    dt = aval_of(x).dtype
    if dtypes.is_unsigned(dt):
        return r
    zero = lax.full_like(r, 0)
    fix = lax.bitwise_and(lax.ne(r, zero), lax.ne(lax.lt(r, zero), lax.lt(y, zero)))
    return lax.select(fix, lax.add(r, y), r)


def _bool_as_int(fn):
    """As JAX's promote_args_numeric: bools divide as (strong) int32, with
    or without x64 (dtypes.to_numeric_dtype)."""
    def g(x, y):
        if dtypes.is_bool(aval_of(x).dtype):
            dt = dtypes.int32
            x = lax.convert_element_type(x, dt, weak_type=False)
            y = lax.convert_element_type(y, dt, weak_type=False)
        return fn(x, y)
    return g


floor_divide = _binary("floor_divide", _bool_as_int(_floor_divide))
remainder = mod = _binary("remainder", _bool_as_int(_remainder))


def square(x):
    x = x if _is_array(x) or not isinstance(x, (list, tuple)) else asarray(x)
    if isinstance(x, bool) or _is_array(x) and dtypes.is_bool(aval_of(x).dtype):
        x = astype(x, dtypes.int32)  # as JAX (promote_args_numeric): bool -> int32
    return multiply(x, x)


reciprocal = _unary("reciprocal", lambda x: lax.div(lax.full_like(x, 1), x), True)


def _comparison(name, lax_fn):
    return _binary(name, lax_fn)


equal = _comparison("equal", lax.eq)
not_equal = _comparison("not_equal", lax.ne)
less = _comparison("less", lax.lt)
less_equal = _comparison("less_equal", lax.le)
greater = _comparison("greater", lax.gt)
greater_equal = _comparison("greater_equal", lax.ge)


def _logical(name, lax_fn):
    def fn(x, y):
        _check_arg(name, x)
        _check_arg(name, y)
        # Promoted first, then each compared with zero (JAX's order: two
        # Python scalars give a weakly typed bool).
        x, y = promote_args(name, x, y)
        return lax_fn(_to_bool(x), _to_bool(y))

    fn.__name__ = name
    return fn


logical_and = _logical("logical_and", lax.bitwise_and)
logical_or = _logical("logical_or", lax.bitwise_or)
logical_xor = _logical("logical_xor", lax.bitwise_xor)


def logical_not(x):
    _check_arg("logical_not", x)
    return lax.bitwise_not(_to_bool(x))


def _require_int_or_bool(name, x):
    dt = aval_of(x).dtype
    if not (dtypes.is_int(dt) or dtypes.is_bool(dt)):
        raise TypeError(f"mnp.{name} is only defined for integer and bool arrays, "
                        f"got {dt.name} (at {core.user_location_str()})")


def _bitwise(name, lax_fn):
    def fn(x, y):
        x, y = promote_args(name, x, y)
        _require_int_or_bool(name, x)
        return lax_fn(x, y)

    fn.__name__ = name
    return fn


bitwise_and = _bitwise("bitwise_and", lax.bitwise_and)
bitwise_or = _bitwise("bitwise_or", lax.bitwise_or)
bitwise_xor = _bitwise("bitwise_xor", lax.bitwise_xor)


def invert(x):
    x, = promote_dtypes("invert", x)
    _require_int_or_bool("invert", x)
    return lax.bitwise_not(x)


bitwise_not = invert


def _of_parts(test, combine, x):
    """A complex number's test from its parts' (JAX's rule for isfinite,
    isnan and isinf)."""
    return combine(test(lax.real(x)), test(lax.imag(x)))


def isfinite(x):
    x, = promote_dtypes("isfinite", x)
    dt = aval_of(x).dtype
    if dtypes.is_complex(dt):
        return _of_parts(isfinite, lax.bitwise_and, x)
    if dtypes.is_float(dt):
        r = lax.is_finite(x)
        if aval_of(x).weak_type and not aval_of(r).weak_type:
            # As JAX's lax.is_finite: a weakly typed operand gives a weak bool.
            r = lax.convert_element_type(r, dtypes.bool_, weak_type=True)
        return r
    return full(aval_of(x).shape, True)


def isnan(x):
    x, = promote_dtypes("isnan", x)
    if dtypes.is_complex(aval_of(x).dtype):
        return _of_parts(isnan, lax.bitwise_or, x)
    # x != x for every real type (not a constant False for integers): as
    # JAX, a Python int gives a weakly typed bool.
    return lax.ne(x, x)


def isinf(x):
    x, = promote_dtypes("isinf", x)
    if dtypes.is_complex(aval_of(x).dtype):
        return _of_parts(isinf, lax.bitwise_or, x)
    if dtypes.is_float(aval_of(x).dtype):
        # (against a strongly typed inf: as JAX, never a weak bool)
        return lax.eq(lax.abs(x), _strong(x, np.inf))
    return full(aval_of(x).shape, False)


def clip(x, min=None, max=None):  # noqa: A002
    if any(iscomplexobj(t) for t in (x, min, max)):
        raise ValueError(
            "Clip received a complex value either through the input or the min/max "
            "keywords. Complex values have no ordering and cannot be clipped. "
            "Please convert to a real value or array by taking the real or "
            "imaginary components via jax.numpy.real/imag respectively.")
    # (JAX's operand order, which its rank-promotion messages show)
    if min is not None:
        x = maximum(min, x)
    if max is not None:
        x = minimum(max, x)
    return _materialize(asarray(x))  # (an array, as JAX's, when x is a Python scalar)


# jax.lax.reduce recognises jax.numpy's functions as monoids too (the ufunc
# objects of mnp are registered by ufunc_objects).
lax_reductions.register_monoid("add", add)
lax_reductions.register_monoid("mul", multiply)
lax_reductions.register_monoid("max", maximum)
lax_reductions.register_monoid("min", minimum)
lax_reductions.register_monoid("and", logical_and, bitwise_and)
lax_reductions.register_monoid("or", logical_or, bitwise_or)


def _where():
    return core.user_location_str()


def _dtype(x):
    return aval_of(x).dtype


def _const(x, value):
    """`value` as a (weakly typed when x is) array of x's dtype and shape."""
    return lax.full_like(x, value)


def _lax_const(x, value):
    """`value` as jax.numpy's `lax._const(x, value)` makes it: weakly typed
    only when x is a weakly typed scalar (a Python number), so that an op
    of a weak array with it gives a strongly typed result."""
    return _const(x, value) if aval_of(x).ndim == 0 else _strong(x, value)


def _strong(x, value):
    """`value` as a strongly typed array of x's dtype and shape (jax.numpy's
    `_constant_like`: the result of an op with it is not weakly typed)."""
    return lax.full_like(x, value, dtype=_dtype(x))


def _no_complex(name, x):
    if dtypes.is_complex(_dtype(x)):
        raise TypeError(f"mnp.{name} does not accept complex input ({_dtype(x).name}) "
                        f"(at {_where()})")


def _real_unary(name, fn):
    """A unary ufunc on real floats (ints and bools promote to float)."""
    def impl(x):
        _no_complex(name, x)
        return fn(x)

    return _unary(name, impl, True)


def _require_int(name, *xs, exc=TypeError):
    for x in xs:
        if not dtypes.is_int(_dtype(x)):
            raise exc(f"mnp.{name} is only defined for integer arrays, got "
                            f"{_dtype(x).name} (at {_where()})")


# ---------------------------------------------------------------------------
# Hyperbolic and inverse trigonometric functions
# ---------------------------------------------------------------------------

sinh = _unary("sinh", lax_math.sinh, True)
cosh = _unary("cosh", lax_math.cosh, True)
arcsin = asin = _unary("arcsin", lax_math.asin, True)
arccos = acos = _unary("arccos", lax_math.acos, True)
arctan = atan = _unary("arctan", lax_math.atan, True)
arcsinh = asinh = _unary("arcsinh", lax_math.asinh, True)
arccosh = acosh = _unary("arccosh", lax_math.acosh, True)
arctanh = atanh = _unary("arctanh", lax_math.atanh, True)
atan2 = arctan2
pow = power  # noqa: A001 (the array API name)

# ---------------------------------------------------------------------------
# Logs, powers, roots
# ---------------------------------------------------------------------------

def _exp2(x):
    if dtypes.is_complex(_dtype(x)):  # (as JAX's lax.exp2 of complex)
        return lax.exp(lax.mul(x, _const(x, np.log(2))))  # (keeps x's weak type)
    return lax_math.exp2(x)


def _log2(x):
    if dtypes.is_complex(_dtype(x)):  # as JAX: each part of log(x) over ln 2
        r = lax.log(x)
        re, im = lax.real(r), lax.imag(r)
        ln2 = lax.log(_strong(re, 2))
        return lax.complex(lax.div(re, ln2), lax.div(im, ln2))
    return lax.div(lax.log(x), lax.log(_strong(x, 2)))


def _log10(x):
    if dtypes.is_complex(_dtype(x)):  # as JAX: each part of log(x) times 1/ln 10
        r = lax.log(x)
        re, im = lax.real(r), lax.imag(r)
        return lax.complex(lax.mul(re, _strong(re, 0.4342944819032518)),
                           lax.mul(im, _strong(im, 0.4342944819032518)))
    return lax.mul(lax.log(x), _strong(x, 0.4342944819032518))


log2 = _unary("log2", _log2, True)
log10 = _unary("log10", _log10, True)
exp2 = _unary("exp2", _exp2, True)
cbrt = _real_unary("cbrt", lax_math.cbrt)
float_power = _binary("float_power", lax.pow, inexact=True)


def _wrap_between(x, a):
    """x wrapped into [-a, a) (JAX's _wrap_between)."""
    rem = lax.rem(lax.add(x, _const(x, a)), _const(x, 2 * a))
    rem = lax.select(lax.lt(rem, _const(x, 0)), lax.add(rem, _const(x, 2 * a)), rem)
    return lax.sub(rem, _const(x, a))


def _logaddexp_complex(x1, x2, base2):
    """JAX's complex logaddexp: amax + log1p(exp(x1 + x2 - 2 amax)), amax the
    larger (real part first), the imaginary part wrapped into [-pi, pi)
    (over ln 2 with base2)."""
    amax = lax.max(x1, x2)
    delta = lax.sub(lax.add(x1, x2), lax.mul(amax, _const(amax, 2)))
    if base2:
        out = lax.add(amax, lax.mul(_const(amax, 1 / np.log(2)), lax.log1p(_exp2(delta))))
    else:
        out = lax.add(amax, lax.log1p(lax.exp(delta)))
    return lax.complex(lax.real(out),
                       _wrap_between(lax.imag(out), np.pi / np.log(2) if base2 else np.pi))


def _logaddexp_value(x1, x2, base2):
    """log(exp(x1) + exp(x2)) (log2/exp2 with base2) without overflow, as
    JAX computes it: amax + log1p(exp(-|x1 - x2|)); NaNs and same-signed
    infinities (a NaN difference) give x1 + x2."""
    if dtypes.is_complex(_dtype(x1)):
        return _logaddexp_complex(x1, x2, base2)
    amax = lax.max(x1, x2)
    delta = lax.sub(x1, x2)
    neg = lax.neg(lax.abs(delta))
    if base2:
        from mlax._src.lax import math as lax_math

        tail = lax.mul(lax.full_like(amax, 1 / np.log(2)), lax.log1p(lax_math.exp2(neg)))
    else:
        tail = lax.log1p(lax.exp(neg))
    return lax.select(lax.ne(delta, delta), lax.add(x1, x2), lax.add(amax, tail))


def _logaddexp_weights(x1, x2, out, base2):
    """d out / d x1 and d out / d x2, as JAX's custom JVP rule gives them:
    b**(ri(x_i) - ri(out)) with ri(+inf) = 0 (b = e, or 2 with base2).

    Where out is finite this is written as sigmoid(+-(x1 - x2) * ln b),
    which equals it but depends on the inputs alone and is smooth, so that
    the derivatives of the rule (higher derivatives of logaddexp) are exact
    at x1 == x2 too (JAX gets those by recursing into its custom JVP; the
    amax/|delta| formula has no second derivative at x1 == x2). Both
    branches are kept finite where they are not selected, so a where()
    never multiplies a zero cotangent by inf or NaN.

    Complex: JAX's rule as it is written, ri(x) = 0 where real(x) = +inf."""
    if dtypes.is_complex(_dtype(out)):
        def ri(x):
            re = lax.real(x)
            return lax.select(lax.eq(re, lax.full_like(re, np.inf)), lax.full_like(x, 0), x)

        exp = _exp2 if base2 else lax.exp
        return exp(lax.sub(ri(x1), ri(out))), exp(lax.sub(ri(x2), ri(out)))
    inf = lax.full_like(out, np.inf)
    zero = lax.full_like(out, 0)
    out_inf = lax.eq(out, inf)
    delta = lax.select(out_inf, zero, lax.sub(x1, x2))
    if base2:
        delta = lax.mul(delta, lax.full_like(delta, np.log(2)))
    w1, w2 = lax.logistic(delta), lax.logistic(lax.neg(delta))

    def at_inf(x):  # b**ri(x), selected only where out is +inf
        x = lax.select(out_inf, lax.select(lax.eq(x, inf), zero, x), zero)
        if base2:
            from mlax._src.lax import math as lax_math

            return lax_math.exp2(x)
        return lax.exp(x)

    return (lax.select(out_inf, at_inf(x1), w1), lax.select(out_inf, at_inf(x2), w2))


# Custom-JVP levels: the rule of level k takes its primal output from level
# k + 1 (mlax traces rules eagerly, so a rule calling its own function gets
# the plain formula); the last level is the plain formula. The tangents do not
# depend on the primal output, so every order of grad / jacfwd / jacrev /
# hessian is exact; the primal output's derivative, seen only by forward
# mode nested over forward mode, is exact to _LOGADDEXP_LEVELS nestings.
_LOGADDEXP_LEVELS = 3
_logaddexp_fns: dict = {}


def _logaddexp_fn(base2, level=0):
    key = (base2, level)
    fn = _logaddexp_fns.get(key)
    if fn is not None:
        return fn
    if level >= _LOGADDEXP_LEVELS:
        fn = functools.partial(_logaddexp_value, base2=base2)
    else:
        from mlax._src.transforms.autodiff import custom_jvp

        def value(x1, x2):
            return _logaddexp_value(x1, x2, base2)

        value.__name__ = "logaddexp2" if base2 else "logaddexp"
        fn = custom_jvp(value)

        @fn.defjvp
        def _jvp(primals, tangents):
            x1, x2 = primals
            t1, t2 = tangents
            out = _logaddexp_fn(base2, level + 1)(x1, x2)
            w1, w2 = _logaddexp_weights(x1, x2, out, base2)
            return out, lax.add(lax.mul(t1, w1), lax.mul(t2, w2))

    _logaddexp_fns[key] = fn
    return fn


def _logaddexp(name, x1, x2, base2):
    x1, x2 = util._promote_inexact(name, x1, x2)
    x1, x2 = util.promote_args(name, x1, x2)
    x1, x2 = util._materialize(x1), util._materialize(x2)
    return _logaddexp_fn(base2)(x1, x2)


def logaddexp(x1, x2):
    """log(exp(x1) + exp(x2)) without overflow; derivatives as JAX's (a
    custom JVP: exact to every order, also at x1 == x2)."""
    return _logaddexp("logaddexp", x1, x2, False)


def logaddexp2(x1, x2):
    """log2(2**x1 + 2**x2) without overflow; derivatives as JAX's."""
    return _logaddexp("logaddexp2", x1, x2, True)


logaddexp = util._eager_jit(logaddexp)
logaddexp2 = util._eager_jit(logaddexp2)


def hypot(x1, x2):
    """sqrt(x1**2 + x2**2) without overflow."""
    if iscomplexobj(x1) or iscomplexobj(x2):  # (JAX's ValueError)
        raise ValueError("mnp.hypot is not well defined for complex-valued inputs. Please "
                         "convert to real values first, such as by using abs(x)")
    x1, x2 = util._promote_inexact("hypot", x1, x2)
    x1, x2 = util.promote_args("hypot", x1, x2)
    x1, x2 = abs(x1), abs(x2)
    any_inf = logical_or(isinf(x1), isinf(x2))
    big, small = maximum(x1, x2), minimum(x1, x2)
    zero = equal(big, 0)
    safe = mnp.where(zero, mnp.ones_like(big), big)
    out = mnp.where(zero, big, multiply(big, sqrt(
        add(1, square(divide(small, safe))))))
    return mnp.where(any_inf, _lax_const(out, np.inf), out)

# ---------------------------------------------------------------------------
# Rounding, angles, signs
# ---------------------------------------------------------------------------


def rint(x):
    """Round to the nearest integer, ties to even (integers become floats)."""
    util._check_arg("rint", x)
    dt = _dtype(x)
    if dtypes.is_bool(dt) or dtypes.is_int(dt):
        return lax.convert_element_type(x, dtypes.default_float())
    if dtypes.is_complex(dt):  # as JAX: each part rounded
        return lax.complex(lax.round(lax.real(x), lax.RoundingMethod.TO_NEAREST_EVEN),
                           lax.round(lax.imag(x), lax.RoundingMethod.TO_NEAREST_EVEN))
    return lax.round(x, lax.RoundingMethod.TO_NEAREST_EVEN)


rint = _eager_jit(rint)
fabs = _real_unary("fabs", lax.abs)
deg2rad = radians = _unary("deg2rad", lambda x: lax.mul(x, _const(x, np.pi / 180)), True)
rad2deg = degrees = _unary("rad2deg", lambda x: lax.mul(x, _const(x, 180 / np.pi)), True)


def _signbit(x):
    dt = _dtype(x)
    if dtypes.is_bool(dt):
        return lax.full_like(x, False, dtype=dtypes.bool_)
    if dtypes.is_int(dt):
        if dtypes.is_unsigned(dt):
            return lax.full_like(x, False, dtype=dtypes.bool_)
        return lax.lt(x, _strong(x, 0))
    if not dtypes.is_float(dt):  # (JAX's ValueError)
        raise ValueError(f"mnp.signbit is not well defined for {dt.name} (at {_where()})")
    bits = np.dtype(dt).itemsize * 8
    u = lax.bitcast_convert_type(x, np.dtype(f"uint{bits}"))
    return lax.ne(lax.shift_right_logical(u, _const(u, bits - 1)), _const(u, 0))


signbit = _unary("signbit", _signbit)


def _copysign(x1, x2):
    _no_complex("copysign", x1)
    return lax.select(_signbit(x2), lax.neg(lax.abs(x1)), lax.abs(x1))


copysign = _binary("copysign", _copysign, inexact=True)


def _heaviside(x1, x2):
    _no_complex("heaviside", x1)
    zero = _lax_const(x1, 0)
    return lax.select(lax.lt(x1, zero), zero,
                      lax.select(lax.gt(x1, zero), _lax_const(x1, 1),
                                 lax.select(_isnan(x1), x1, x2)))


heaviside = _binary("heaviside", _heaviside, inexact=True)


def _isnan(x):
    return lax.ne(x, x) if dtypes.is_inexact(_dtype(x)) else lax.full_like(
        x, False, dtype=dtypes.bool_)


def _fmax(x1, x2):  # (complex ordered by real part, then imaginary part, as JAX's)
    return lax.select(lax.bitwise_or(lax.gt(x1, x2), _isnan(x2)), x1, x2)


def _fmin(x1, x2):
    return lax.select(lax.bitwise_or(lax.lt(x1, x2), _isnan(x2)), x1, x2)


def fmax(x1, x2):
    """The elementwise maximum, ignoring NaNs (numpy.fmax); JAX's parameter
    names x1, x2."""
    return _fmax(*promote_args("fmax", x1, x2))


def fmin(x1, x2):
    """The elementwise minimum, ignoring NaNs (numpy.fmin); JAX's parameter
    names x1, x2."""
    return _fmin(*promote_args("fmin", x1, x2))


fmax = _eager_jit(fmax)
fmin = _eager_jit(fmin)


def _sinc_maclaurin_value(k):
    # The k-th derivative of sin(x)/x at 0.
    return 0.0 if k % 2 else (-1.0) ** (k // 2) / (k + 1)


_SINC_EXACT_ORDERS = 4  # derivatives at 0 exact up to this order


@functools.lru_cache(maxsize=None)
def _sinc_maclaurin(k):
    """x -> the k-th derivative of sin(x)/x at 0, as a function of x whose
    derivative is the next one (jax's `_sinc_maclaurin`), so that sinc is
    differentiable at 0 to the order `_SINC_EXACT_ORDERS`."""
    from mlax._src.transforms.autodiff import custom_jvp

    def value(x):
        return lax.add(lax.mul(x, _const(x, 0)), _const(x, _sinc_maclaurin_value(k)))

    if k >= _SINC_EXACT_ORDERS:
        return value
    f = custom_jvp(value)

    @f.defjvp
    def f_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return value(x), lax.mul(_sinc_maclaurin(k + 1)(x), t)

    return f


def _sinc(x):
    eq_zero = lax.eq(x, _const(x, 0))
    pi_x = lax.mul(_const(x, np.pi), x)
    safe_pi_x = lax.select(eq_zero, _const(x, 1), pi_x)
    return lax.select(eq_zero, _sinc_maclaurin(0)(pi_x),
                      lax.div(lax.sin(safe_pi_x), safe_pi_x))


sinc = _unary("sinc", _sinc, True)


def _modf(x):
    _no_complex("modf", x)
    whole = lax.select(lax.ge(x, _const(x, 0)), lax.floor(x), lax.ceil(x))
    return lax.sub(x, whole), whole


def modf(x, /, out=None):
    """The fractional and integral parts of x, both with x's sign."""
    if out is not None:
        raise NotImplementedError("mnp.modf: the out argument is not supported")
    util._check_arg("modf", x)
    x, = util._promote_inexact("modf", x)
    return tuple(util._materialize(v) for v in _modf(x))


modf = _eager_jit(modf)


def divmod(x1, x2, /):  # noqa: A001
    """(floor_divide(x1, x2), remainder(x1, x2))."""
    util._check_arg("divmod", x1)
    util._check_arg("divmod", x2)
    a, b = util.promote_args("divmod", x1, x2)
    dt = _dtype(a)
    if dtypes.is_complex(dt):
        raise TypeError(f"mnp.divmod does not accept complex input (at {_where()})")
    if dtypes.is_float(dt):
        return _float_divmod(a, b)
    return floor_divide(x1, x2), remainder(x1, x2)


divmod = _eager_jit(divmod)

# ---------------------------------------------------------------------------
# Infinities, real and complex parts (mlax has no complex real/imag op yet)
# ---------------------------------------------------------------------------


def _isposneginf(name, infinity, x):
    x, = util.promote_dtypes(name, x)
    dt = _dtype(x)
    if dtypes.is_complex(dt):
        raise ValueError(f"mnp.{name} is not well defined for complex input (at {_where()})")
    if dtypes.is_float(dt):
        return lax.eq(x, _strong(x, infinity))
    return lax.full_like(x, False, dtype=dtypes.bool_)


def isposinf(x, /, out=None):
    """x == +inf, elementwise (False for integers)."""
    if out is not None:
        raise NotImplementedError("mnp.isposinf: the out argument is not supported")
    return util._materialize(_isposneginf("isposinf", np.inf, x))


def isneginf(x, /, out=None):
    """x == -inf, elementwise (False for integers)."""
    if out is not None:
        raise NotImplementedError("mnp.isneginf: the out argument is not supported")
    return util._materialize(_isposneginf("isneginf", -np.inf, x))


def iscomplexobj(x):
    """Whether x has a complex dtype (a Python bool)."""
    if x is None:
        return False
    dt = getattr(x, "dtype", None)
    if dt is None:
        dt = aval_of(x).dtype
    return dtypes.is_complex(dt)


def isrealobj(x):
    """Whether x has a non-complex dtype (a Python bool)."""
    return not iscomplexobj(x)


def real(val, /):
    """The real part (x itself for real input)."""
    util._check_arg("real", val)
    return lax.real(val) if iscomplexobj(val) else mnp.asarray(val)


def imag(val, /):
    """The imaginary part (zeros for real input)."""
    util._check_arg("imag", val)
    return lax.imag(val) if iscomplexobj(val) else mnp.zeros_like(val)


def conjugate(x, /):
    """The complex conjugate (x itself for real input)."""
    util._check_arg("conjugate", x)
    return lax.conj(x) if iscomplexobj(x) else mnp.asarray(x)


conj = conjugate


def _imag_compared(name, x, direction):
    """imag(x) compared with 0, as jnp.isreal / jnp.iscomplex."""
    util._check_arg(name, x)
    i = imag(x)
    # A zero weakly typed as imag(x) is: as JAX, a Python scalar's answer is
    # a weakly typed bool.
    zero = lax.full_like(i, 0)
    return direction(i, zero)


def isreal(x):
    """imag(x) == 0, elementwise (all True for real input)."""
    return _imag_compared("isreal", x, lax.eq)


def iscomplex(x):
    """imag(x) != 0, elementwise (all False for real input)."""
    return _imag_compared("iscomplex", x, lax.ne)


def angle(z, deg=False):
    """The argument of z in radians (or degrees): atan2(imag(z), real(z))."""
    util._check_arg("angle", z)
    re, im = real(z), imag(z)
    dt = aval_of(re).dtype
    # As JAX: integers, and real scalars, give the default float.
    if not dtypes.is_inexact(dt) or (not iscomplexobj(z) and aval_of(z).ndim == 0):
        dt = dtypes.default_float()
        re, im = lax.convert_element_type(re, dt), lax.convert_element_type(im, dt)
    result = lax.atan2(im, re)
    return degrees(result) if deg else result


# ---------------------------------------------------------------------------
# Bits: shifts, popcount, frexp / ldexp, spacing
# ---------------------------------------------------------------------------


def _left_shift(x, y):
    _require_int("left_shift", x)
    return lax.shift_left(x, y)


def _right_shift(x, y):
    _require_int("right_shift", x)
    fn = lax.shift_right_logical if dtypes.is_unsigned(_dtype(x)) else \
        lax.shift_right_arithmetic
    return fn(x, y)


left_shift = bitwise_left_shift = _binary("left_shift", _bool_as_int(_left_shift))
right_shift = bitwise_right_shift = _binary("right_shift", _bool_as_int(_right_shift))
bitwise_invert = invert


def _bitwise_count(x):
    if dtypes.is_bool(_dtype(x)):  # as JAX: a bool counts its one bit
        return lax.convert_element_type(x, dtypes.uint8)
    _require_int("bitwise_count", x)
    return lax.convert_element_type(lax_math.population_count(_abs(x)), dtypes.uint8)


bitwise_count = _unary("bitwise_count", _bitwise_count)

_INT_OF_BITS = {16: dtypes.int16, 32: dtypes.int32, 64: dtypes.int64}


def _float_info(name, dt):
    import ml_dtypes

    info = ml_dtypes.finfo(dt)
    if info.bits not in _INT_OF_BITS:
        raise NotImplementedError(f"mnp.{name} supports 16-, 32- and 64-bit floats, got "
                                  f"{np.dtype(dt).name} (at {_where()})")
    return info


def _pow2(k, dt, info):
    """2.0 ** k exactly, for an integer array k within the normal exponents."""
    int_type = _INT_OF_BITS[info.bits]
    bias = 1 - info.minexp
    k = lax.convert_element_type(k, int_type)
    bits = lax.shift_left(lax.add(k, _const(k, bias)), _const(k, info.nmant))
    return lax.bitcast_convert_type(bits, dt)


def _frexp(x):
    dt = _dtype(x)
    info = _float_info("frexp", dt)
    int_type = _INT_OF_BITS[info.bits]
    mask = (1 << info.nexp) - 1
    bias = 1 - info.minexp
    # jax.numpy's bit manipulation: subnormals are scaled into the normal
    # range first, then the exponent field is read and replaced.
    tiny = lax.lt(lax.abs(x), _const(x, float(info.tiny)))
    scaled = lax.select(tiny, lax.mul(x, _const(x, float(1 << info.nmant))), x)
    e = lax.select(tiny, lax.full_like(x, -info.nmant, dtype=int_type),
                   lax.full_like(x, 0, dtype=int_type))
    bits = lax.bitcast_convert_type(scaled, int_type)
    field = lax.bitwise_and(lax.shift_right_arithmetic(bits, _const(bits, info.nmant)),
                            _const(bits, mask))
    e = lax.add(e, lax.add(field, _const(field, 1 - bias)))
    bits = lax.bitwise_and(bits, _const(bits, ~(mask << info.nmant)))
    bits = lax.bitwise_or(bits, _const(bits, (bias - 1) << info.nmant))
    m = lax.bitcast_convert_type(bits, dt)
    special = lax.bitwise_or(lax.bitwise_or(lax.ne(x, x),
                                            lax.eq(lax.abs(x), _const(x, np.inf))),
                             lax.eq(x, _const(x, 0)))
    e = lax.select(special, lax.full_like(e, 0), e)
    # The derivative of the mantissa is 2**-e (jax's custom rule): add
    # x * 2**-e - stop_gradient(x * 2**-e), which is zero, computed with two
    # exact power-of-two factors.
    half = lax.div(e, _const(e, 2))
    neg_half = lax.neg(half)
    rest = lax.sub(lax.neg(e), neg_half)
    scaled = lax.mul(lax.mul(x, _pow2(neg_half, dt, info)), _pow2(rest, dt, info))
    m = lax.add(m, lax.sub(scaled, lax.stop_gradient(scaled)))
    return lax.select(special, x, m), lax.convert_element_type(e, dtypes.int32)


def frexp(x, /):
    """Mantissa in [0.5, 1) (with x's sign) and int32 exponent: x = m * 2**e."""
    util._check_arg("frexp", x)
    x, = util._promote_inexact("frexp", x)
    _no_complex("frexp", x)
    return tuple(util._materialize(v) for v in _frexp(x))


frexp = _eager_jit(frexp)


def ldexp(x1, x2, /):
    """x1 * 2**x2 for integer x2, without intermediate overflow (as jax.numpy)."""
    util._check_arg("ldexp", x1)
    util._check_arg("ldexp", x2)
    d1, d2 = aval_of(x1).dtype, aval_of(x2).dtype
    if dtypes.is_complex(d1) or dtypes.is_inexact(d2):
        raise ValueError(f"mnp.ldexp: not supported for input types ({d1.name}, {d2.name}); "
                        f"x2 must be an integer (at {_where()})")
    x1, = util._promote_inexact("ldexp", x1)
    x1 = util._materialize(x1)
    dt = _dtype(x1)
    x2 = mnp.astype(x2, dt)
    x1, x2 = mnp._broadcast_all("ldexp", x1, x2)
    m, e = _frexp(x1)
    e = lax.add(lax.convert_element_type(e, dt), x2)
    pos = lax.gt(e, _const(e, 0))
    m = lax.select(pos, lax.mul(m, _const(m, 2)), m)
    e = lax.select(pos, lax.sub(e, _const(e, 1)), e)
    x = lax.mul(m, lax.pow(_const(e, 2), e))
    keep = lax.bitwise_or(lax.eq(lax.abs(x1), _const(x1, np.inf)), lax.eq(x1, _const(x1, 0)))
    return lax.select(keep, x1, x)


ldexp = _eager_jit(ldexp)


def _spacing(x):
    if dtypes.is_complex(_dtype(x)):  # (JAX's ValueError)
        raise ValueError(f"mnp.spacing is not defined for complex inputs (at {_where()})")
    dt = _dtype(x)
    inf = _const(x, np.inf)
    if dt == dtypes.float16:
        return lax.sub(lax.nextafter(x, inf), x)
    result = lax.sub(lax.nextafter(x, _copysign(inf, x)), x)
    tiny = _float_info("spacing", dt).smallest_subnormal
    return lax.select(lax.eq(result, _const(result, 0)),
                      _copysign(_strong(x, float(tiny)), x), result)


spacing = _unary("spacing", _spacing, True)

# ---------------------------------------------------------------------------
# gcd, lcm
# ---------------------------------------------------------------------------


def _gcd(x1, x2):
    from mlax._src.lax.control_flow import while_loop

    def cond(xs):
        nonzero = lax.ne(xs[1], _const(xs[1], 0))
        ndim = aval_of(nonzero).ndim
        return lax.reduce_or(nonzero, tuple(range(ndim))) if ndim else nonzero

    def body(xs):
        a, b = xs
        nz = lax.ne(b, _const(b, 0))
        safe_b = lax.select(nz, b, _const(b, 1))
        a, b = lax.select(nz, b, a), lax.select(nz, lax.rem(a, safe_b), _const(b, 0))
        swap = lax.lt(a, b)
        return lax.select(swap, b, a), lax.select(swap, a, b)

    g, _ = while_loop(cond, body, (_abs(x1), _abs(x2)))
    return g


def gcd(x1, x2, /):
    """Greatest common divisor of |x1| and |x2|, elementwise (integers)."""
    util._check_arg("gcd", x1)
    util._check_arg("gcd", x2)
    x1, x2 = util.promote_args("gcd", x1, x2)
    _require_int("gcd", x1, exc=ValueError)  # (JAX's class)
    x1, x2 = util._materialize(x1), util._materialize(x2)
    return _gcd(x1, x2)


def lcm(x1, x2, /):
    """Least common multiple of |x1| and |x2|, elementwise (integers)."""
    util._check_arg("lcm", x1)
    util._check_arg("lcm", x2)
    x1, x2 = util.promote_args("lcm", x1, x2)
    _require_int("lcm", x1, exc=ValueError)  # (JAX's class)
    x1, x2 = _abs(util._materialize(x1)), _abs(util._materialize(x2))
    d = _gcd(x1, x2)
    zero = lax.eq(d, _const(d, 0))
    safe_d = lax.select(zero, _const(d, 1), d)
    # |x1| * (|x2| // d), wrapping on overflow as NumPy and JAX (an abs() of the
    # product would turn a wrapped -124 into 124).
    return lax.select(zero, _const(d, 0), lax.mul(x1, floor_divide(x2, safe_d)))


gcd = _eager_jit(gcd)
lcm = _eager_jit(lcm)


# ---------------------------------------------------------------------------
# nextafter, i0
# ---------------------------------------------------------------------------

def _nextafter(x1, x2):
    return lax.nextafter(x1, x2)


nextafter = _binary("nextafter", _nextafter, inexact=True)


def _i0_value(x):
    ax = lax.abs(x)
    return lax.mul(lax.exp(ax), lax_special.bessel_i0e(ax))


def _make_i0():
    from mlax._src.transforms.autodiff import custom_jvp, jvp

    f = custom_jvp(_i0_value)

    @f.defjvp
    def f_jvp(primals, tangents):
        out, t_out = jvp(_i0_value, primals, tangents)
        x, = primals
        # As JAX: the derivative at 0 is 0 (|x|'s derivative there is not).
        return out, lax.select(lax.eq(x, _const(x, 0)), lax.full_like(t_out, 0), t_out)

    return f


_i0 = None


def i0(x):
    """The modified Bessel function of the first kind, order 0 (real floats)."""
    global _i0
    util._check_arg("i0", x)
    x, = util._promote_inexact("i0", x)
    if not dtypes.is_float(_dtype(x)):
        raise ValueError(f"Unsupported input type to mnp.i0: {_dtype(x).name}")
    if _i0 is None:
        _i0 = _make_i0()
    return _i0(util._materialize(x))


i0 = _eager_jit(i0)


# One jit dispatch each when called outside a trace, as jax.numpy's are
# (JAX's static arguments; traced in place inside a trace).
angle = util._eager_jit(angle, ('deg',))
around = util._eager_jit(around, ('decimals',))
clip = util._eager_jit(clip)
hypot = util._eager_jit(hypot)
iscomplex = util._eager_jit(iscomplex)
isreal = util._eager_jit(isreal)
round = util._eager_jit(round, ('decimals',))
isfinite = util._eager_jit(isfinite)
isinf = util._eager_jit(isinf)
isnan = util._eager_jit(isnan)
isneginf = util._eager_jit(isneginf)
isposinf = util._eager_jit(isposinf)
logical_and = util._eager_jit(logical_and)
logical_not = util._eager_jit(logical_not)
logical_or = util._eager_jit(logical_or)
logical_xor = util._eager_jit(logical_xor)

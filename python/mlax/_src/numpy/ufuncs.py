"""mlax.numpy's remaining math ufuncs (hyperbolic and inverse trigonometric
functions, logs and powers of 2 and 10, rounding, sign and bit helpers,
gcd/lcm, frexp/ldexp, ...), each written as jax.numpy writes it so that
results and derivatives agree with JAX's."""
from __future__ import annotations

import functools

import numpy as np

from mlax._src.core import tracer as core
from mlax._src.base import dtypes
from mlax._src.lax import lax
from mlax._src.lax import math as lax_math
from mlax._src.numpy import lax_numpy as mnp
from mlax._src.numpy.lax_numpy import _complex_parts, _conj_complex, _float_divmod  # noqa: F401
from mlax._src.numpy.lax_numpy import _binary, _eager_jit, _unary
from mlax._src.core.primitives import aval_of


def _where():
    return core.user_location_str()


def _dtype(x):
    return aval_of(x).dtype


def _const(x, value):
    """`value` as a (weakly typed when x is) array of x's dtype and shape."""
    return lax.full_like(x, value)


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


def _require_int(name, *xs):
    for x in xs:
        if not dtypes.is_int(_dtype(x)):
            raise TypeError(f"mnp.{name} is only defined for integer arrays, got "
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
atan2 = mnp.arctan2
pow = mnp.power  # noqa: A001 (the array API name)

# ---------------------------------------------------------------------------
# Logs, powers, roots
# ---------------------------------------------------------------------------

log2 = _real_unary("log2", lambda x: lax.div(lax.log(x), lax.log(_strong(x, 2))))
log10 = _real_unary("log10", lambda x: lax.mul(lax.log(x), _strong(x, 0.4342944819032518)))
exp2 = _real_unary("exp2", lax_math.exp2)
cbrt = _real_unary("cbrt", lax_math.cbrt)
float_power = _binary("float_power", lax.pow, inexact=True)


def logaddexp2(x1, x2):
    """log2(2**x1 + 2**x2) without overflow; with logaddexp's custom JVP
    (numpy.manipulation), so its derivatives are JAX's to every order."""
    from mlax._src.numpy import manipulation

    return manipulation.logaddexp2(x1, x2)

# ---------------------------------------------------------------------------
# Rounding, angles, signs
# ---------------------------------------------------------------------------


def rint(x):
    """Round to the nearest integer, ties to even (integers become floats)."""
    mnp._check_arg("rint", x)
    dt = _dtype(x)
    if dtypes.is_bool(dt) or dtypes.is_int(dt):
        return lax.convert_element_type(x, dtypes.default_float())
    _no_complex("rint", x)
    return lax.round(x, lax.RoundingMethod.TO_NEAREST_EVEN)


rint = _eager_jit(rint)
fabs = _real_unary("fabs", lax.abs)
deg2rad = radians = _real_unary("deg2rad", lambda x: lax.mul(x, _const(x, np.pi / 180)))
rad2deg = degrees = _real_unary("rad2deg", lambda x: lax.mul(x, _const(x, 180 / np.pi)))


def _signbit(x):
    dt = _dtype(x)
    if dtypes.is_bool(dt):
        return lax.full_like(x, False, dtype=dtypes.bool_)
    if dtypes.is_int(dt):
        if dtypes.is_unsigned(dt):
            return lax.full_like(x, False, dtype=dtypes.bool_)
        return lax.lt(x, _strong(x, 0))
    if not dtypes.is_float(dt):
        raise TypeError(f"mnp.signbit is not defined for {dt.name} (at {_where()})")
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
    zero = _const(x1, 0)
    return lax.select(lax.lt(x1, zero), zero,
                      lax.select(lax.gt(x1, zero), _const(x1, 1),
                                 lax.select(_isnan(x1), x1, x2)))


heaviside = _binary("heaviside", _heaviside, inexact=True)


def _isnan(x):
    return lax.ne(x, x) if dtypes.is_inexact(_dtype(x)) else lax.full_like(
        x, False, dtype=dtypes.bool_)


def _fmax(x1, x2):
    _no_complex("fmax", x1)
    return lax.select(lax.bitwise_or(lax.gt(x1, x2), _isnan(x2)), x1, x2)


def _fmin(x1, x2):
    _no_complex("fmin", x1)
    return lax.select(lax.bitwise_or(lax.lt(x1, x2), _isnan(x2)), x1, x2)


fmax = _binary("fmax", _fmax)
fmin = _binary("fmin", _fmin)


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
    _no_complex("sinc", x)
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
    mnp._check_arg("modf", x)
    x, = mnp._promote_inexact("modf", x)
    return tuple(mnp._materialize(v) for v in _modf(x))


modf = _eager_jit(modf)


def divmod(x1, x2, /):  # noqa: A001
    """(floor_divide(x1, x2), remainder(x1, x2))."""
    mnp._check_arg("divmod", x1)
    mnp._check_arg("divmod", x2)
    a, b = mnp.promote_args("divmod", x1, x2)
    dt = _dtype(a)
    if dtypes.is_complex(dt):
        raise TypeError(f"mnp.divmod does not accept complex input (at {_where()})")
    if dtypes.is_float(dt):
        return _float_divmod(a, b)
    return mnp.floor_divide(x1, x2), mnp.remainder(x1, x2)


divmod = _eager_jit(divmod)

# ---------------------------------------------------------------------------
# Infinities, real and complex parts (mlax has no complex real/imag op yet)
# ---------------------------------------------------------------------------


def _isposneginf(name, infinity, x):
    x, = mnp.promote_dtypes(name, x)
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
    return mnp._materialize(_isposneginf("isposinf", np.inf, x))


def isneginf(x, /, out=None):
    """x == -inf, elementwise (False for integers)."""
    if out is not None:
        raise NotImplementedError("mnp.isneginf: the out argument is not supported")
    return mnp._materialize(_isposneginf("isneginf", -np.inf, x))


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


def _complex_unsupported(name):
    return NotImplementedError(f"mnp.{name}: complex arrays are not supported yet (mlax has "
                               f"no real/imag op) (at {_where()})")


def real(val, /):
    """The real part (x itself for real input)."""
    mnp._check_arg("real", val)
    if iscomplexobj(val):
        raise _complex_unsupported("real")
    return mnp.asarray(val)


def imag(val, /):
    """The imaginary part (zeros for real input)."""
    mnp._check_arg("imag", val)
    if iscomplexobj(val):
        raise _complex_unsupported("imag")
    return mnp.zeros_like(val)


def conjugate(x, /):
    """The complex conjugate (x itself for real input)."""
    mnp._check_arg("conjugate", x)
    if iscomplexobj(x):
        raise _complex_unsupported("conjugate")
    return mnp.asarray(x)


conj = conjugate


def isreal(x):
    """imag(x) == 0, elementwise (all True for real input)."""
    mnp._check_arg("isreal", x)
    if iscomplexobj(x):
        raise _complex_unsupported("isreal")
    return mnp.full(aval_of(x).shape, True)


def iscomplex(x):
    """imag(x) != 0, elementwise (all False for real input)."""
    mnp._check_arg("iscomplex", x)
    if iscomplexobj(x):
        raise _complex_unsupported("iscomplex")
    return mnp.full(aval_of(x).shape, False)


def angle(z, deg=False):
    """The argument of z in radians (or degrees): 0 or pi for real input."""
    mnp._check_arg("angle", z)
    if iscomplexobj(z):
        raise _complex_unsupported("angle")
    z = mnp.asarray(z)
    aval = aval_of(z)
    dt = aval.dtype
    if not dtypes.is_inexact(dt) or aval.ndim == 0:
        dt = dtypes.default_float()
    re = lax.convert_element_type(z, dt)
    result = lax.atan2(lax.full_like(re, 0), re)
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


left_shift = bitwise_left_shift = _binary("left_shift", _left_shift)
right_shift = bitwise_right_shift = _binary("right_shift", _right_shift)
bitwise_invert = mnp.invert


def _bitwise_count(x):
    _require_int("bitwise_count", x)
    return lax.convert_element_type(lax_math.population_count(mnp._abs(x)), dtypes.uint8)


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
    mnp._check_arg("frexp", x)
    x, = mnp._promote_inexact("frexp", x)
    _no_complex("frexp", x)
    return tuple(mnp._materialize(v) for v in _frexp(x))


frexp = _eager_jit(frexp)


def ldexp(x1, x2, /):
    """x1 * 2**x2 for integer x2, without intermediate overflow (as jax.numpy)."""
    mnp._check_arg("ldexp", x1)
    mnp._check_arg("ldexp", x2)
    d1, d2 = aval_of(x1).dtype, aval_of(x2).dtype
    if dtypes.is_complex(d1) or dtypes.is_inexact(d2):
        raise TypeError(f"mnp.ldexp: not supported for input types ({d1.name}, {d2.name}); "
                        f"x2 must be an integer (at {_where()})")
    x1, = mnp._promote_inexact("ldexp", x1)
    x1 = mnp._materialize(x1)
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
    _no_complex("spacing", x)
    dt = _dtype(x)
    inf = _const(x, np.inf)
    if dt == dtypes.float16:
        return lax.sub(lax.nextafter(x, inf), x)
    result = lax.sub(lax.nextafter(x, _copysign(inf, x)), x)
    tiny = _float_info("spacing", dt).smallest_subnormal
    return lax.select(lax.eq(result, _const(result, 0)),
                      _copysign(_strong(x, float(tiny)), x), result)


spacing = _real_unary("spacing", _spacing)

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

    g, _ = while_loop(cond, body, (mnp._abs(x1), mnp._abs(x2)))
    return g


def gcd(x1, x2, /):
    """Greatest common divisor of |x1| and |x2|, elementwise (integers)."""
    mnp._check_arg("gcd", x1)
    mnp._check_arg("gcd", x2)
    x1, x2 = mnp.promote_args("gcd", x1, x2)
    _require_int("gcd", x1)
    x1, x2 = mnp._materialize(x1), mnp._materialize(x2)
    return _gcd(x1, x2)


def lcm(x1, x2, /):
    """Least common multiple of |x1| and |x2|, elementwise (integers)."""
    mnp._check_arg("lcm", x1)
    mnp._check_arg("lcm", x2)
    x1, x2 = mnp.promote_args("lcm", x1, x2)
    _require_int("lcm", x1)
    x1, x2 = mnp._abs(mnp._materialize(x1)), mnp._abs(mnp._materialize(x2))
    d = _gcd(x1, x2)
    zero = lax.eq(d, _const(d, 0))
    safe_d = lax.select(zero, _const(d, 1), d)
    # |x1| * (|x2| // d), wrapping on overflow as NumPy and JAX (an abs() of the
    # product would turn a wrapped -124 into 124).
    return lax.select(zero, _const(d, 0), lax.mul(x1, mnp.floor_divide(x2, safe_d)))


gcd = _eager_jit(gcd)
lcm = _eager_jit(lcm)

# ---------------------------------------------------------------------------
# Reductions: cumulative_prod, ptp
# ---------------------------------------------------------------------------


def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False):
    """Cumulative product along `axis` (required for arrays of rank > 1),
    optionally starting with the initial 1 (the array API's cumulative_prod)."""
    from mlax._src.numpy import manipulation

    x = x if mnp._is_array(x) else mnp.asarray(x)
    if axis is None:
        if aval_of(x).ndim > 1:
            raise ValueError("mnp.cumulative_prod: axis must be given for arrays with more "
                             f"than one dimension (at {_where()})")
        axis = 0
    out = manipulation.cumprod(x, axis=axis, dtype=dtype)
    if include_initial:
        ax = mnp._normalize_axis("cumulative_prod", axis, aval_of(out).ndim)
        shape = list(aval_of(out).shape)
        shape[ax] = 1
        out = mnp.concatenate([mnp.ones(shape, aval_of(out).dtype), out], ax)
    return out


def ptp(a, axis=None, out=None, keepdims=False):
    """max(a) - min(a) along `axis` (the peak-to-peak range)."""
    if out is not None:
        raise NotImplementedError("mnp.ptp: the out argument is not supported")
    a = a if mnp._is_array(a) else mnp.asarray(a)
    if dtypes.is_bool(_dtype(a)):
        raise TypeError(f"mnp.ptp does not accept bool arrays (at {_where()})")
    return mnp.subtract(mnp.max(a, axis=axis, keepdims=keepdims),
                        mnp.min(a, axis=axis, keepdims=keepdims))

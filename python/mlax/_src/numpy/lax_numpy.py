"""mlax.numpy: NumPy's API with NumPy broadcasting and JAX's type promotion,
built on mlax.lax."""
from __future__ import annotations

import builtins
import math
import operator

import numpy as np

from mlax._src.core import tracer as core
from mlax._src.base import dtypes
from mlax._src.lax import lax
from mlax._src.lax import fft as lax_fft
from mlax._src.lax import reductions as lax_reductions
from mlax._src.transforms import autodiff
from mlax._src.core.array import Array
from mlax._src.core.tracer import ShapedArray, Tracer
from mlax._src.core.primitives import aval_of, shape_error


class _Literal:
    """A Python scalar converted to a promoted dtype, keeping its weak type."""

    __slots__ = ("aval", "_np")

    def __init__(self, value, dtype, weak):
        self._np = np.asarray(value, dtype=dtype)
        self.aval = ShapedArray((), dtype, weak)

    def _value_np(self):
        return self._np

    def __array__(self, dtype=None, copy=None):
        return self._np if dtype is None else self._np.astype(dtype)


_ARRAY_TYPES = (Array, Tracer)


def _materialize(x):
    """A _Literal left as a function's result becomes a real (0-d) array of
    its dtype and weak type; anything else is returned unchanged."""
    if isinstance(x, _Literal):
        return lax.convert_element_type(x._np, x.aval.dtype, weak_type=x.aval.weak_type)
    return x


def _is_array(x):
    return isinstance(x, _ARRAY_TYPES)


def _check_arg(name, x):
    if _is_array(x) or isinstance(x, (bool, int, float, complex, np.ndarray, np.generic,
                                      _Literal)):
        return
    if isinstance(x, (list, tuple)):
        raise TypeError(f"mnp.{name} requires ndarray or scalar arguments, got "
                        f"{type(x).__name__}; wrap it with mnp.array(...) "
                        f"(at {core.user_location_str()})")
    aval_of(x)  # raises the general message


def _convert(x, dtype, weak):
    """`x` as `dtype` (a Python scalar becomes a literal, no op emitted)."""
    if dtypes.is_python_scalar(x):
        return _Literal(x, dtype, weak)
    aval = aval_of(x)
    if aval.dtype == dtype and aval.weak_type == weak:
        return x
    return lax.convert_element_type(x, dtype, weak_type=weak)


def broadcast_shapes(*shapes, name="broadcast_shapes"):
    ndim = builtins.max((len(s) for s in shapes), default=0)
    result = []
    for i in range(-ndim, 0):
        sizes = {s[i] for s in shapes if len(s) >= -i and s[i] != 1}
        if len(sizes) > 1:
            raise ValueError(
                f"mnp.{name}: incompatible shapes for broadcasting: "
                f"{', '.join(str(tuple(s)) for s in shapes)} (at {core.user_location_str()})")
        result.append(sizes.pop() if sizes else 1)
    return tuple(result)


def _broadcast_to_shape(x, shape):
    aval = aval_of(x)
    if aval.shape == shape and not isinstance(x, _Literal):
        return x
    nlead = len(shape) - aval.ndim
    # Drop size-1 dims that must grow, then broadcast_in_dim the rest.
    keep = [i for i, d in enumerate(aval.shape) if d == shape[nlead + i]]
    if len(keep) != aval.ndim:
        x = lax.reshape(x, [aval.shape[i] for i in keep])
    return lax.broadcast_in_dim(x, shape, [nlead + i for i in keep])


def promote_dtypes(name, *args):
    """Converts args to their JAX-promoted common dtype."""
    for a in args:
        _check_arg(name, a)
    avals = [aval_of(a) for a in args]
    dtype, weak = dtypes.result_type(*((a.dtype, a.weak_type) for a in avals))
    return [_convert(a, dtype, weak) for a in args]


def promote_args(name, *args):
    """Promotes dtypes and broadcasts shapes, NumPy style."""
    args = promote_dtypes(name, *args)
    shape = broadcast_shapes(*(aval_of(a).shape for a in args), name=name)
    return [_broadcast_to_shape(a, shape) for a in args]


def _promote_inexact(name, *args):
    """JAX's promote_dtypes_inexact: the promoted dtype made inexact
    (dtypes.to_inexact: int32 -> float32 even with x64, int64 -> float64)."""
    args = promote_dtypes(name, *args)
    out = []
    for a in args:
        aval = aval_of(a)
        if not dtypes.is_inexact(aval.dtype):
            a = _convert(a, dtypes.to_inexact(aval.dtype), aval.weak_type)
        out.append(a)
    return out


def _unary(name, lax_fn, inexact=False):
    def fn(x):
        _check_arg(name, x)
        x, = _promote_inexact(name, x) if inexact else promote_dtypes(name, x)
        return _materialize(lax_fn(x))

    fn.__name__ = name
    fn.__doc__ = f"mnp.{name}, as numpy.{name}."
    return _eager_jit(fn)


def _binary(name, lax_fn, inexact=False):
    def fn(x, y):
        if inexact:
            _check_arg(name, x)
            _check_arg(name, y)
            x, y = _promote_inexact(name, x, y)
        x, y = promote_args(name, x, y)
        return lax_fn(x, y)

    fn.__name__ = name
    fn.__doc__ = f"mnp.{name}, as numpy.{name}."
    return _eager_jit(fn)


def _eager_jit(fn):
    # Eagerly, one jit dispatch of the whole function (promotion included),
    # as jax.numpy does; traced, the function itself (mlax._src.jit.api.eager_jit).
    from mlax._src.jit import api

    return api.eager_jit(fn)


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


def _float_or_identity(lax_fn):
    return lambda x: lax_fn(x) if dtypes.is_float(aval_of(x).dtype) else x


floor = _unary("floor", _float_or_identity(lax.floor))
ceil = _unary("ceil", _float_or_identity(lax.ceil))
trunc = _unary("trunc", _float_or_identity(
    lambda x: lax.select(lax.lt(x, lax.full_like(x, 0)), lax.ceil(x), lax.floor(x))))


def round(x, decimals=0):  # noqa: A001
    """Round half to even, as numpy.round."""
    x, = promote_dtypes("round", x)
    if not dtypes.is_float(aval_of(x).dtype):
        return _materialize(x)
    if decimals == 0:
        return lax.round(x, lax.RoundingMethod.TO_NEAREST_EVEN)
    factor = 10.0 ** decimals
    return divide(lax.round(multiply(x, factor), lax.RoundingMethod.TO_NEAREST_EVEN), factor)


around = round

add = _binary("add", lambda x, y: lax.bitwise_or(x, y) if dtypes.is_bool(aval_of(x).dtype)
              else lax.add(x, y))
subtract = _binary("subtract", lax.sub)
multiply = _binary("multiply", lambda x, y: lax.bitwise_and(x, y)
                   if dtypes.is_bool(aval_of(x).dtype) else lax.mul(x, y))
true_divide = divide = _binary("divide", lax.div, inexact=True)
_power_promoted = _binary("power", lambda x, y: _power(x, y))


def power(x, y):
    """mnp.power, as numpy.power (integer powers are exact and wrap)."""
    out = _power_promoted(x, y)
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
    fix = lax.bitwise_and(lax.ne(r, zero), lax.ne(lax.lt(r, zero), lax.lt(y, zero)))
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
    if _is_array(x) and dtypes.is_bool(aval_of(x).dtype):
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


def _to_bool(x):
    aval = aval_of(x)
    if aval.dtype == dtypes.bool_:
        return x
    if isinstance(x, (bool, int, float, complex)):
        return _Literal(bool(x), dtypes.bool_, aval.weak_type)
    # x != 0, keeping x's weak type (as JAX: logical_not(1.0) is a weak bool).
    zero = _broadcast_to_shape(_Literal(0, aval.dtype, aval.weak_type), aval.shape)
    return lax.ne(x, zero)


def _logical(name, lax_fn):
    def fn(x, y):
        _check_arg(name, x)
        _check_arg(name, y)
        x, y = promote_args(name, _to_bool(x), _to_bool(y))
        return lax_fn(x, y)

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


def isfinite(x):
    x, = promote_dtypes("isfinite", x)
    dt = aval_of(x).dtype
    if dtypes.is_float(dt):
        return lax.is_finite(x)
    return full(aval_of(x).shape, True)


def isnan(x):
    x, = promote_dtypes("isnan", x)
    if dtypes.is_float(aval_of(x).dtype):
        return lax.ne(x, x)
    return full(aval_of(x).shape, False)


def isinf(x):
    x, = promote_dtypes("isinf", x)
    if dtypes.is_float(aval_of(x).dtype):
        return lax.eq(lax.abs(x), lax.full_like(x, np.inf))
    return full(aval_of(x).shape, False)


def _nonzero(condition, *, size=None, fill_value=None):
    # Replaced by manipulation.nonzero when that module is imported (it is
    # built on this one, so it registers itself here).
    raise NotImplementedError("mnp.where(condition) needs mlax._src.numpy.manipulation")


def register_nonzero(fn):
    global _nonzero
    _nonzero = fn


def where(condition, x=None, y=None, /, *, size=None, fill_value=None):
    """where(condition, x, y): x where condition holds, else y; with only
    the condition, nonzero(condition, size=size, fill_value=fill_value)."""
    if x is None and y is None:
        return _nonzero(condition, size=size, fill_value=fill_value)
    if x is None or y is None:
        raise ValueError("mnp.where: either both or neither of x and y should be given "
                         f"(at {core.user_location_str()})")
    _check_arg("where", condition)
    cond = _to_bool(condition)
    x, y = promote_dtypes("where", x, y)
    cond, x, y = _broadcast_all("where", cond, x, y)
    return lax.select(cond, x, y)


def _broadcast_all(name, *args):
    shape = broadcast_shapes(*(aval_of(a).shape for a in args), name=name)
    return [_broadcast_to_shape(a, shape) for a in args]


def clip(x, min=None, max=None):  # noqa: A002
    if min is not None:
        x = maximum(x, min)
    if max is not None:
        x = minimum(x, max)
    return x


# ---------------------------------------------------------------------------
# Creation
# ---------------------------------------------------------------------------

def _dtype_arg(dtype):
    return None if dtype is None else dtypes.canonicalize(dtype)


def array(object, dtype=None, copy=True):  # noqa: A002
    """An mlax array from a NumPy array, nested lists/tuples, scalars or arrays."""
    if _is_array(object):
        return object if dtype is None else astype(object, dtype)
    if isinstance(object, (list, tuple)) and builtins.any(_is_array(o) for o in _flat(object)):
        return stack([array(o) for o in object]) if dtype is None else \
            astype(stack([array(o) for o in object]), dtype)
    value = np.asarray(object)
    if value.dtype.kind in "OUS" or (value.dtype.kind == "V" and value.dtype != dtypes.bfloat16):
        raise TypeError(f"mnp.array: cannot make an array from {type(object).__name__} "
                        f"holding {value.dtype}")
    weak = False
    if dtype is None:
        if dtypes.is_python_scalar(object):
            # A Python scalar keeps its weak type, as in JAX.
            dt, weak = dtypes.scalar_type_of(object)
        else:
            # Python ints/floats in lists are 32-bit by default, as in JAX.
            dt = dtypes.canonicalize(value.dtype)
    else:
        dt = dtypes.canonicalize(dtype)
        if not isinstance(object, (np.ndarray, np.generic)):
            # Python numbers converted directly: one out of the dtype's range
            # is NumPy's (and JAX's) OverflowError, not a wrapped value.
            value = np.asarray(object, dtype=dt)
    value = np.asarray(value, dtype=dt)
    if core.current_trace() is None:
        from mlax._src.backend import runtime

        return Array(runtime.device_put(value), ShapedArray(value.shape, dt, weak))
    return lax.convert_element_type(value, dt, weak_type=weak)


def _flat(seq):
    for s in seq:
        if isinstance(s, (list, tuple)):
            yield from _flat(s)
        else:
            yield s


def asarray(a, dtype=None):
    return array(a, dtype=dtype, copy=False)


def _shape_arg(name, shape):
    if isinstance(shape, Tracer):
        raise core_errors().concretization(shape, f"the shape argument of mnp.{name}")
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    out = []
    for s in shape:
        if isinstance(s, Tracer):
            raise core_errors().concretization(s, f"the shape argument of mnp.{name}")
        out.append(operator.index(s))
    if builtins.any(s < 0 for s in out):
        raise ValueError(f"mnp.{name}: negative dimensions are not allowed, got {tuple(out)}")
    return tuple(out)


def core_errors():
    from mlax._src.base import errors

    return errors


def full(shape, fill_value, dtype=None):
    shape = _shape_arg("full", shape)
    if dtype is None:
        # As JAX: a weakly typed fill value (a Python scalar) gives a weak result.
        fill_aval = aval_of(fill_value)
        return _full(shape, fill_value, fill_aval.dtype, fill_aval.weak_type)
    return _full(shape, fill_value, dtypes.canonicalize(dtype), False)


def _full(shape, fill_value, dt, weak):
    value = _convert(fill_value, dt, weak)
    return _materialize(_broadcast_to_shape(value, shape))


def zeros(shape, dtype=None):
    return full(shape, 0, dtype or dtypes.default_float())


def ones(shape, dtype=None):
    return full(shape, 1, dtype or dtypes.default_float())


def empty(shape, dtype=None):
    return zeros(shape, dtype)


def full_like(a, fill_value, dtype=None, shape=None):
    aval = aval_of(a)
    shape = aval.shape if shape is None else _shape_arg("full_like", shape)
    if dtype is None:
        # As JAX: the result is weak when `a` is.
        return _full(shape, fill_value, aval.dtype, aval.weak_type)
    return _full(shape, fill_value, dtypes.canonicalize(dtype), False)


def zeros_like(a, dtype=None, shape=None):
    return full_like(a, 0, dtype, shape)


def ones_like(a, dtype=None, shape=None):
    return full_like(a, 1, dtype, shape)


def arange(start, stop=None, step=None, dtype=None):
    for v in (start, stop, step):
        if isinstance(v, Tracer):
            raise core_errors().concretization(v, "mnp.arange's start/stop/step")
    if stop is None:
        start, stop = 0, start
    if step is None:
        step = 1
    if dtype is None:
        dt = dtypes.result_type(*(dtypes.scalar_type_of(v) for v in (start, stop, step)))[0]
    else:
        dt = dtypes.canonicalize(dtype)
    n = builtins.max(int(math.ceil((stop - start) / step)), 0)
    if dtypes.is_int(dt) and builtins.all(isinstance(v, (int, np.integer)) for v in (start, step)):
        out = lax.iota(dt, n)
        if step != 1:
            out = multiply(out, _Literal(step, dt, False))
        if start != 0:
            out = add(out, _Literal(start, dt, False))
        return out
    idx = lax.iota(dt if dtypes.is_inexact(dt) else dtypes.default_float(), n)
    out = add(multiply(idx, step), start)
    return astype(out, dt)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"mnp.linspace: number of samples, {num}, must be non-negative")
    dt = dtypes.canonicalize(dtype) if dtype is not None else dtypes.default_float()
    ft = dt if dtypes.is_inexact(dt) else dtypes.default_float()
    div = (num - 1) if endpoint else num
    start_a = astype(asarray(start), ft)
    stop_a = astype(asarray(stop), ft)
    step = divide(subtract(stop_a, start_a), div) if div > 0 else full((), np.nan, ft)
    idx = lax.iota(ft, num)
    if div > 0:
        out = add(start_a, multiply(idx, step))
    else:  # num == 1 with endpoint (or num == 0): just `start`
        out = broadcast_to(start_a, (num,))
    if endpoint and num > 1:
        out = where(equal(lax.iota(dtypes.int32, num), num - 1), stop_a, out)
    out = astype(out, dt)
    return (out, step) if retstep else out


def eye(N, M=None, k=0, dtype=None):
    M = N if M is None else M
    dt = dtypes.canonicalize(dtype) if dtype is not None else dtypes.default_float()
    rows = lax.broadcasted_iota(dtypes.int32, (N, M), 0)
    cols = lax.broadcasted_iota(dtypes.int32, (N, M), 1)
    return astype(equal(add(rows, k), cols), dt)


def identity(n, dtype=None):
    return eye(n, dtype=dtype)


def astype(x, dtype):
    dt = dtypes.canonicalize(dtype)
    if isinstance(x, (bool, int, float, complex, np.ndarray, np.generic)):
        x = asarray(x)
    if dt == dtypes.bool_ and aval_of(x).dtype != dtypes.bool_:
        return _to_bool(x)
    return lax.convert_element_type(x, dt)


# ---------------------------------------------------------------------------
# Shapes
# ---------------------------------------------------------------------------

def _normalize_axis(name, axis, ndim):
    if isinstance(axis, Tracer):
        raise core_errors().concretization(axis, f"the axis argument of mnp.{name}")
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise np.exceptions.AxisError(
            f"mnp.{name}: axis {axis} is out of bounds for array of dimension {ndim}")
    return axis % ndim if ndim else 0


def _axes(name, axis, ndim):
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (tuple, list)):
        axes = tuple(_normalize_axis(name, a, ndim) for a in axis)
        if len(set(axes)) != len(axes):
            raise ValueError(f"mnp.{name}: repeated axis in {axis}")
        return axes
    return (_normalize_axis(name, axis, ndim),)


def reshape(a, newshape=None, order="C", *, shape=None):
    if shape is not None:
        newshape = shape
    if order != "C":
        raise NotImplementedError("mnp.reshape supports only order='C'")
    aval = aval_of(asarray(a) if not _is_array(a) else a)
    a = a if _is_array(a) else asarray(a)
    if isinstance(newshape, (int, np.integer)):
        newshape = (int(newshape),)
    newshape = [operator.index(s) if not isinstance(s, Tracer) else
                _raise(core_errors().concretization(s, "the new shape of reshape"))
                for s in newshape]
    if newshape.count(-1) > 1:
        raise ValueError("mnp.reshape: can only specify one unknown dimension (-1)")
    if -1 in newshape:
        known = int(np.prod([s for s in newshape if s != -1], dtype=np.int64))
        if known == 0 or aval.size % known:
            raise ValueError(f"cannot reshape array of shape {aval.shape} (size {aval.size}) "
                             f"into shape {tuple(newshape)} (at {core.user_location_str()})")
        newshape[newshape.index(-1)] = aval.size // known
    return lax.reshape(a, tuple(newshape))


def _raise(e):
    raise e


def ravel(a):
    return reshape(a, (-1,))


def transpose(a, axes=None):
    a = a if _is_array(a) else asarray(a)
    ndim = aval_of(a).ndim
    axes = tuple(range(ndim))[::-1] if axes is None else tuple(
        _normalize_axis("transpose", x, ndim) for x in axes)
    return lax.transpose(a, axes)


def swapaxes(a, axis1, axis2):
    ndim = aval_of(a).ndim
    perm = list(range(ndim))
    i, j = _normalize_axis("swapaxes", axis1, ndim), _normalize_axis("swapaxes", axis2, ndim)
    perm[i], perm[j] = perm[j], perm[i]
    return lax.transpose(a, perm)


def expand_dims(a, axis):
    a = a if _is_array(a) else asarray(a)
    aval = aval_of(a)
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    out_ndim = aval.ndim + len(axes)
    axes = sorted(_normalize_axis("expand_dims", x, out_ndim) for x in axes)
    if len(set(axes)) != len(axes):
        raise ValueError(f"mnp.expand_dims: repeated axis in {axis}")
    shape = list(aval.shape)
    for x in axes:
        shape.insert(x, 1)
    return lax.reshape(a, shape)


def squeeze(a, axis=None):
    a = a if _is_array(a) else asarray(a)
    aval = aval_of(a)
    if axis is None:
        axes = [i for i, d in enumerate(aval.shape) if d == 1]
    else:
        axes = _axes("squeeze", axis, aval.ndim)
        for x in axes:
            if aval.shape[x] != 1:
                raise ValueError(f"mnp.squeeze: cannot select an axis to squeeze out which "
                                 f"has size not equal to one (axis {x} of shape {aval.shape})")
    return lax.reshape(a, [d for i, d in enumerate(aval.shape) if i not in axes])


def broadcast_to(a, shape):
    a = a if _is_array(a) else asarray(a)
    shape = _shape_arg("broadcast_to", shape)
    aval = aval_of(a)
    if broadcast_shapes(aval.shape, shape, name="broadcast_to") != shape:
        raise ValueError(f"mnp.broadcast_to: cannot broadcast shape {aval.shape} to {shape}")
    return _broadcast_to_shape(a, shape)


def concatenate(arrays, axis=0):
    arrays = [a if _is_array(a) else asarray(a) for a in arrays]
    if not arrays:
        raise ValueError("need at least one array to concatenate")
    arrays = promote_dtypes("concatenate", *arrays)
    if axis is None:
        return concatenate([ravel(a) for a in arrays], 0)
    ndim = aval_of(arrays[0]).ndim
    if ndim == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    return lax.concatenate(arrays, _normalize_axis("concatenate", axis, ndim))


def stack(arrays, axis=0):
    arrays = [a if _is_array(a) else asarray(a) for a in arrays]
    if not arrays:
        raise ValueError("need at least one array to stack")
    shapes = {aval_of(a).shape for a in arrays}
    if len(shapes) != 1:
        raise ValueError(f"mnp.stack: all input arrays must have the same shape, got "
                         f"{sorted(shapes)}")
    axis = _normalize_axis("stack", axis, aval_of(arrays[0]).ndim + 1)
    return concatenate([expand_dims(a, axis) for a in arrays], axis)


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


def _reduce(name, a, axis, keepdims, lax_fn, dtype=None, upcast_ints=False, where=None,
            identity=None, initial=None, combine=None):
    """Reduce `a` over `axis` with `lax_fn`; masked-out elements (`where=`) become
    `identity`, `initial` is combined in after; float16/bfloat16 sums and products
    (`upcast_ints`) accumulate in float32 and round back once, as JAX's."""
    a = a if _is_array(a) else asarray(a)
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
            elif dtypes.is_int(out_dt) and out_dt.itemsize < dtypes.default_int().itemsize:
                # As JAX: to the default (unsigned) int, 64-bit with x64.
                out_dt = (dtypes.canonicalize(dtypes.uint64) if dtypes.is_unsigned(out_dt)
                          else dtypes.default_int())
            a = astype(a, _upcast_f16(out_dt))
    comp_dt = aval_of(a).dtype
    if mask is not None:
        # No identity (max/min): `initial` stands in; combining it twice is harmless.
        fill = identity if identity is not None else initial
        a = lax.select(mask, a, _broadcast_to_shape(
            lax.convert_element_type(np.asarray(fill, comp_dt), comp_dt), aval.shape))
    out = lax_fn(a, axes)
    if initial is not None:
        out = combine(out, astype(asarray(initial), comp_dt))
    if aval_of(out).dtype != out_dt:
        out = astype(out, out_dt)
    if keepdims:
        out = lax.reshape(out, [1 if i in axes else d for i, d in enumerate(aval.shape)])
    return out


def sum(a, axis=None, dtype=None, keepdims=False, where=None, initial=None):  # noqa: A001
    return _reduce("sum", a, axis, keepdims, lax.reduce_sum, dtype, True, where, 0, initial,
                   add)


def prod(a, axis=None, dtype=None, keepdims=False, where=None, initial=None):
    return _reduce("prod", a, axis, keepdims, lax.reduce_prod, dtype, True, where, 1, initial,
                   multiply)


def _check_nonempty(name, a, axis):
    aval = aval_of(a)
    axes = _axes(name, axis, aval.ndim)
    if builtins.any(aval.shape[x] == 0 for x in axes):
        raise ValueError(f"zero-size array to reduction operation {name} which has no identity")


def max(a, axis=None, keepdims=False, where=None, initial=None):  # noqa: A001
    a = a if _is_array(a) else asarray(a)
    if initial is None:
        _check_nonempty("max", a, axis)
    return _reduce("max", a, axis, keepdims, lax.reduce_max, where=where, initial=initial,
                   combine=maximum)


def min(a, axis=None, keepdims=False, where=None, initial=None):  # noqa: A001
    a = a if _is_array(a) else asarray(a)
    if initial is None:
        _check_nonempty("min", a, axis)
    return _reduce("min", a, axis, keepdims, lax.reduce_min, where=where, initial=initial,
                   combine=minimum)


amax, amin = max, min


def all(a, axis=None, keepdims=False, where=None):  # noqa: A001
    a = a if _is_array(a) else asarray(a)
    return _reduce("all", _to_bool(a), axis, keepdims, lax.reduce_and, where=where,
                   identity=True)


def any(a, axis=None, keepdims=False, where=None):  # noqa: A001
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


def mean(a, axis=None, dtype=None, keepdims=False, where=None):
    a = a if _is_array(a) else asarray(a)
    aval = aval_of(a)
    axes = _axes("mean", axis, aval.ndim)
    dt = dtypes.canonicalize(dtype) if dtype is not None else dtypes.to_inexact(aval.dtype)
    comp = _upcast_f16(dt) if dtype is None else dt  # as JAX: f16/bf16 accumulate in f32
    total = sum(astype(a, comp), axis=axes, keepdims=keepdims, where=where)
    n = _reduction_count("mean", aval, axes, keepdims, where, comp)
    if isinstance(n, int):
        n = _Literal(n if n else np.nan, comp, False)
    return astype(divide(total, n), dt)


def var(a, axis=None, dtype=None, ddof=0, keepdims=False, where=None):
    a = a if _is_array(a) else asarray(a)
    aval = aval_of(a)
    axes = _axes("var", axis, aval.ndim)
    dt = dtypes.canonicalize(dtype) if dtype is not None else dtypes.to_inexact(aval.dtype)
    comp = _upcast_f16(dt)  # as JAX: f16/bf16 accumulate in f32
    a = astype(a, comp)
    centered = subtract(a, mean(a, axis=axes, keepdims=True, where=where))
    sq = (multiply(centered, lax_conj(centered)) if dtypes.is_complex(comp)
          else multiply(centered, centered))
    total = sum(sq, axis=axes, keepdims=keepdims, where=where)
    n = _reduction_count("var", aval, axes, keepdims, where, comp)
    if isinstance(n, int):
        out = divide(total, _Literal(n - ddof if n - ddof > 0 else np.nan, comp, False))
    else:
        n = subtract(n, _Literal(ddof, comp, False))
        ratio = divide(total, n)
        out = lax.select(greater(n, _Literal(0, comp, False)), ratio, _broadcast_to_shape(
            lax.convert_element_type(np.asarray(np.nan, comp), comp), aval_of(ratio).shape))
    return astype(out, dt)


def lax_conj(x):
    raise NotImplementedError("complex variance needs lax.conj (not yet an op)")


def std(a, axis=None, dtype=None, ddof=0, keepdims=False, where=None):
    return sqrt(var(a, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims, where=where))


# ---------------------------------------------------------------------------
# Linear algebra
# ---------------------------------------------------------------------------

def dot(a, b, precision=None, preferred_element_type=None):
    a, b = promote_dtypes("dot", a, b)
    a = a if _is_array(a) else asarray(a)
    b = b if _is_array(b) else asarray(b)
    la, lb = aval_of(a), aval_of(b)
    if la.ndim == 0 or lb.ndim == 0:
        return multiply(a, b)
    contract_b = 0 if lb.ndim == 1 else lb.ndim - 2
    if la.shape[-1] != lb.shape[contract_b]:
        raise TypeError(f"mnp.dot: shapes {la.shape} and {lb.shape} are not aligned: "
                        f"{la.shape[-1]} (dim {la.ndim - 1}) != {lb.shape[contract_b]} "
                        f"(dim {contract_b}) (at {core.user_location_str()})")
    return lax.dot_general(a, b, (((la.ndim - 1,), (contract_b,)), ((), ())),
                           preferred_element_type=preferred_element_type)


def matmul(a, b, precision=None, preferred_element_type=None):
    a, b = promote_dtypes("matmul", a, b)
    a = a if _is_array(a) else asarray(a)
    b = b if _is_array(b) else asarray(b)
    la, lb = aval_of(a), aval_of(b)
    if la.ndim == 0 or lb.ndim == 0:
        raise ValueError("mnp.matmul: operands must be at least 1-dimensional, got shapes "
                         f"{la.shape} and {lb.shape}")
    a2 = expand_dims(a, 0) if la.ndim == 1 else a
    b2 = expand_dims(b, -1) if lb.ndim == 1 else b
    sa, sb = aval_of(a2).shape, aval_of(b2).shape
    if sa[-1] != sb[-2]:
        raise ValueError(
            f"mnp.matmul: input operand 1 has a mismatch in its core dimension 0 "
            f"(size {sb[-2]} is different from {sa[-1]}); shapes {la.shape} and {lb.shape} "
            f"(at {core.user_location_str()})")
    batch = broadcast_shapes(sa[:-2], sb[:-2], name="matmul")
    a2 = _broadcast_to_shape(a2, batch + sa[-2:])
    b2 = _broadcast_to_shape(b2, batch + sb[-2:])
    nb = len(batch)
    out = lax.dot_general(a2, b2, (((nb + 1,), (nb,)), (tuple(range(nb)), tuple(range(nb)))),
                          preferred_element_type=preferred_element_type)
    if la.ndim == 1:
        out = squeeze(out, -2)
    if lb.ndim == 1:
        out = squeeze(out, -1)
    return out


def vdot(a, b):
    a = a if _is_array(a) else asarray(a)
    if dtypes.is_complex(aval_of(a).dtype):  # as NumPy: conjugates the first argument
        a = _conj_complex(a)
    return dot(ravel(a), ravel(b))


def inner(a, b):
    a, b = promote_dtypes("inner", a, b)
    la, lb = aval_of(a), aval_of(b)
    if la.ndim == 0 or lb.ndim == 0:
        return multiply(a, b)
    return lax.dot_general(a, b, (((la.ndim - 1,), (lb.ndim - 1,)), ((), ())))


def outer(a, b):
    return multiply(reshape(ravel(a), (-1, 1)), ravel(b))



# The functions autodiff (a lower layer) calls on arrays.
autodiff.register_array_functions(
    convert_element_type=lax.convert_element_type, broadcast_in_dim=lax.broadcast_in_dim,
    reshape=reshape, zeros_like=zeros_like)

# jax.lax.reduce recognises jax.numpy's functions as monoids too.
lax_reductions.register_monoid("add", add)
lax_reductions.register_monoid("mul", multiply)
lax_reductions.register_monoid("max", maximum)
lax_reductions.register_monoid("min", minimum)
lax_reductions.register_monoid("and", logical_and, bitwise_and)
lax_reductions.register_monoid("or", logical_or, bitwise_or)

"""lax's elementwise ops: unary and binary arithmetic, comparisons,
select_n, convert_element_type and dtype, the complex parts (real, imag,
conj, complex), rounding, bit-level ops (shifts, clz, bitcast_convert_type,
mulhi), erf / erf_inv / nextafter. Strict as jax.lax: binary
ops need equal shapes and dtypes.

Result types come from the ops' C++ shape rules (`MlaxElementwiseOps.td`:
one type for operands and result, compare's and select_n's
`inferReturnTypes`; bitcast_convert_type and convert_element_type state
the result type the caller asks for, which their verifiers check); Python
checks the dtype kinds and, for the binary ops, equal dtypes, with the hint
to the promoting mlax.numpy function.
"""
from __future__ import annotations

import builtins
import functools
import operator

import numpy as np
from mlir import ir

from mlax._src.base import dtypes, errors
from mlax._src.core import tracer as core
from mlax._src.core.primitives import Primitive, _ops, aval_of, bind, shape_error, verified
from mlax._src.core.tracer import ShapedArray
from mlax._src.lax.accuracy import accuracy_param


def _i64_array(values):
    return ir.DenseI64ArrayAttr.get([int(v) for v in values])


def _i64(value):
    return ir.IntegerAttr.get(ir.IntegerType.get_signless(64), int(value))


# ---------------------------------------------------------------------------
# Elementwise
# ---------------------------------------------------------------------------

_KIND_CHECKS = {
    "float": (dtypes.is_inexact, "floating-point or complex"),
    "real_float": (dtypes.is_float, "floating-point"),
    "signed": (lambda d: dtypes.is_inexact(d) or dtypes.is_signed_int(d),
               "signed integer, floating-point or complex"),
    "number": (lambda d: not dtypes.is_bool(d), "numeric (not bool)"),
    "real": (lambda d: not dtypes.is_bool(d) and not dtypes.is_complex(d),
             "integer or floating-point"),
    "signed_real": (lambda d: dtypes.is_float(d) or dtypes.is_signed_int(d),
                    "signed integer or floating-point"),
    # As JAX's lax.abs: XLA's support for 4-bit integers is basic arithmetic.
    "abs": (lambda d: (dtypes.is_float(d) or dtypes.is_signed_int(d))
            and d not in dtypes.NARROW_INTS,
            "signed integer or floating-point; support for narrow-width integers is "
            "platform-dependent and limited to basic arithmetic"),
    "int_or_bool": (lambda d: dtypes.is_int(d) or dtypes.is_bool(d), "integer or bool"),
    "any": (lambda d: True, "any"),
}


def _check_kind(name, kind, aval):
    ok, desc = _KIND_CHECKS[kind]
    if not ok(aval.dtype):
        raise shape_error(f"lax.{name}",
                          f"does not accept dtype {aval.dtype.name}; needs {desc}")


@functools.cache
def _op_name(op_class: str) -> str:
    return getattr(_ops(), op_class).OPERATION_NAME


def _create(op_class: str, operands, attributes=None):
    """An elementwise op, its result type inferred in C++ (each of them has
    InferTypeOpInterface): ir.Operation.create is about 5x cheaper than the
    generated Python builder, and this is tracing's commonest op."""
    return ir.Operation.create(_op_name(op_class), operands=operands, attributes=attributes,
                               infer_type=True)


def _unary(name, op_class, kind, *, accuracy=False):
    """lax.<name>; with `accuracy`, it takes JAX's `accuracy=` (a Tolerance
    or an AccuracyMode), which becomes the op's `result_accuracy`."""
    def check(x, **params):
        _check_kind(name, kind, x)

    def emit(values, avals, accuracy=None):
        attributes = None if accuracy is None else \
            {"result_accuracy": ir.Attribute.parse(accuracy)}
        return _create(op_class, values, attributes).result

    prim = Primitive(name, emit, check=check)

    if accuracy:
        def fn(x, *, accuracy=None):
            accuracy = accuracy_param(name, accuracy)
            return bind(prim, x) if accuracy is None else bind(prim, x, accuracy=accuracy)
    else:
        def fn(x):
            return bind(prim, x)

    fn.__name__ = name
    fn.__doc__ = f"Elementwise {name} (mlax.{name.removesuffix('_p')})."
    fn.primitive = prim
    return fn


neg = _unary("neg", "NegOp", "signed")
exp = _unary("exp", "ExpOp", "float", accuracy=True)
log = _unary("log", "LogOp", "float", accuracy=True)
sin = _unary("sin", "SinOp", "float", accuracy=True)
cos = _unary("cos", "CosOp", "float", accuracy=True)
tan = _unary("tan", "TanOp", "float", accuracy=True)
tanh = _unary("tanh", "TanhOp", "float", accuracy=True)
sqrt = _unary("sqrt", "SqrtOp", "float", accuracy=True)
rsqrt = _unary("rsqrt", "RsqrtOp", "float", accuracy=True)
abs = _unary("abs", "AbsOp", "abs")  # noqa: A001 (lax.abs, as in JAX)
sign = _unary("sign", "SignOp", "signed")


def _unsigned_too(signed_fn, unsigned_fn):
    """As JAX's neg and sign, which take unsigned integers too (neg wraps
    around; sign is 0 or 1): the op itself takes signed types only."""
    def fn(x):
        if dtypes.is_unsigned(aval_of(x).dtype):
            return unsigned_fn(x, sub(x, x))  # (zeros of x's shape and type)
        return signed_fn(x)

    fn.__name__, fn.__doc__, fn.primitive = (signed_fn.__name__, signed_fn.__doc__,
                                             signed_fn.primitive)
    return fn


neg = _unsigned_too(neg, lambda x, zero: sub(zero, x))
sign = _unsigned_too(sign, lambda x, zero: convert_element_type(ne(x, zero), aval_of(x).dtype))
floor = _unary("floor", "FloorOp", "real_float")
ceil = _unary("ceil", "CeilOp", "real_float")
_round_afz = _unary("round", "RoundOp", "real_float")
_round_even = _unary("round_even", "RoundEvenOp", "real_float")
logistic = _unary("logistic", "LogisticOp", "float", accuracy=True)
log1p = _unary("log1p", "Log1pOp", "float", accuracy=True)
expm1 = _unary("expm1", "Expm1Op", "float", accuracy=True)
bitwise_not = _unary("not", "NotOp", "int_or_bool")


class RoundingMethod:
    AWAY_FROM_ZERO = 0
    TO_NEAREST_EVEN = 1


def round(x, rounding_method=RoundingMethod.AWAY_FROM_ZERO):  # noqa: A001
    """lax.round: ties away from zero by default, or to even."""
    if rounding_method == RoundingMethod.TO_NEAREST_EVEN:
        return _round_even(x)
    return _round_afz(x)


_is_finite_p = Primitive(
    "is_finite", lambda v, a: _ops().IsFiniteOp(v[0]).result,
    check=lambda x: _check_kind("is_finite", "real_float", x),
    weak_type=lambda x: False)


def is_finite(x):
    return bind(_is_finite_p, x)


def _reduce_precision_check(x, *, exponent_bits, mantissa_bits):
    _check_kind("reduce_precision", "real_float", x)
    if exponent_bits < 1:
        raise ValueError(f"reduce_precision: exponent_bits must be positive; got {exponent_bits}")
    if mantissa_bits < 0:
        raise ValueError(
            f"reduce_precision: mantissa_bits must be non-negative; got {mantissa_bits}")


def _reduce_precision_emit(values, avals, *, exponent_bits, mantissa_bits):
    i32 = ir.IntegerType.get_signless(32)
    return _ops().ReducePrecisionOp(
        values[0], ir.IntegerAttr.get(i32, exponent_bits),
        ir.IntegerAttr.get(i32, mantissa_bits)).result


_reduce_precision_p = Primitive("reduce_precision", _reduce_precision_emit,
                                check=_reduce_precision_check)


def reduce_precision(operand, exponent_bits, mantissa_bits):
    """lax.reduce_precision: `operand` rounded to the range and precision of a
    float with `exponent_bits` exponent and `mantissa_bits` mantissa bits
    (e.g. 5 and 10 for float16), kept in its own dtype."""
    def static_int(value, what):
        if isinstance(value, core.Tracer):  # as jax: a ConcretizationTypeError
            raise errors.concretization(value, f"the {what} argument of lax.reduce_precision")
        return operator.index(value)

    return bind(_reduce_precision_p, operand,
                exponent_bits=static_int(exponent_bits, "exponent_bits"),
                mantissa_bits=static_int(mantissa_bits, "mantissa_bits"))


def _binary(name, op_class, kind):
    def check(x, y):
        # The dtype rule stays here for its hint (as jax.lax's message); the
        # op's verifier checks the shapes.
        if x.dtype != y.dtype:
            raise TypeError(
                f"lax.{name} requires arguments to have the same dtypes, got "
                f"{x.dtype.name}, {y.dtype.name}. (Tip: mlax.numpy.{_NUMPY_NAME.get(name, name)} "
                f"is a similar function that does automatic type promotion on inputs.) "
                f"(at {core.user_location_str()})")
        _check_kind(name, kind, x)

    def emit(values, avals):
        return verified(_create(op_class, values)).result

    prim = Primitive(name, emit, check=check)

    def fn(x, y):
        return bind(prim, x, y)

    fn.__name__ = name
    fn.primitive = prim
    return fn


_NUMPY_NAME = {"sub": "subtract", "mul": "multiply", "div": "divide", "pow": "power",
               "max": "maximum", "min": "minimum", "rem": "remainder",
               "and": "logical_and", "or": "logical_or", "xor": "logical_xor",
               "atan2": "arctan2"}

add = _binary("add", "AddOp", "number")
sub = _binary("sub", "SubOp", "number")
mul = _binary("mul", "MulOp", "number")
div = _binary("div", "DivOp", "number")
_pow = _binary("pow", "PowOp", "float")


def pow(x, y):  # noqa: A001
    """x ** y, elementwise (jax.lax.pow): x float or complex; y of x's dtype,
    or of any integer dtype. An integer y converts to x's dtype; where it is
    0 the result is 1 and, as JAX's, so is x's derivative 0 (never 0 * inf)."""
    ax, ay = aval_of(x), aval_of(y)
    if not (dtypes.is_int(ay.dtype) and dtypes.is_inexact(ax.dtype)):
        return _pow(x, _float_exponent(y, ay))
    if ax.shape != ay.shape:
        return _pow(x, y)  # the strict op's error, naming both shapes
    zero = eq(y, convert_element_type(np.zeros(ay.shape, ay.dtype), ay.dtype))
    one = convert_element_type(np.ones(ax.shape, ax.dtype), ax.dtype, weak_type=ax.weak_type)
    out = _pow(select(zero, one, x), convert_element_type(y, ax.dtype, weak_type=ay.weak_type))
    return select(zero, convert_element_type(one, ax.dtype, weak_type=aval_of(out).weak_type),
                  out)


def _float_exponent(y, ay):
    """A float exponent whose value is known here (a Python float, a NumPy
    value) and integral, emitted as a convert from another float type: the
    pow's derivative rule (MlaxElementwiseOps.cpp) reads an integral constant
    exponent as an integer one (its derivative 0 where y = 0), which is what
    x ** 2 (a Python int, JAX's integer_pow) and lax.pow(x, 2) want; a float
    exponent takes JAX's float rule, y * x ** (y - 1), nan at 0 for y = 0.
    (The convert folds away after differentiation.)"""
    if isinstance(y, core.Tracer) or not dtypes.is_float(ay.dtype):
        return y
    try:
        v = np.asarray(y).astype(np.float64)
    except Exception:  # noqa: BLE001 (not a value known here: as it is)
        return y
    if not v.size or not np.all(np.isfinite(v)) or not np.all(v == np.round(v)) or \
            np.max(np.abs(v)) > 256:
        return y
    src = np.float32 if ay.dtype.itemsize <= 2 else np.float16
    return convert_element_type(v.astype(src), ay.dtype, weak_type=ay.weak_type)


pow.primitive = _pow.primitive
_max = _binary("max", "MaxOp", "any")
_min = _binary("min", "MinOp", "any")


def _both_complex(x, y):
    return dtypes.is_complex(aval_of(x).dtype) and dtypes.is_complex(aval_of(y).dtype)


def _lexicographic(compare, x, y):
    """compare(x, y) of complex x, y by real part, then imaginary part: the
    order of jax.lax's max / min and jax.numpy's comparisons (XLA's own
    max, min and ordered compares of complex disagree with it where the
    real parts tie)."""
    rx, ry = real(x), real(y)
    return select_n(eq(rx, ry), compare(rx, ry), compare(imag(x), imag(y)))


def max(x, y):  # noqa: A001
    """The elementwise maximum: of real numbers NaN-propagating, of complex
    ones by real part, then imaginary part (jax.lax.max)."""
    return select_n(_lexicographic(gt, x, y), y, x) if _both_complex(x, y) else _max(x, y)


def min(x, y):  # noqa: A001
    """The elementwise minimum: of real numbers NaN-propagating, of complex
    ones by real part, then imaginary part (jax.lax.min)."""
    return select_n(_lexicographic(lt, x, y), y, x) if _both_complex(x, y) else _min(x, y)


max.primitive, min.primitive = _max.primitive, _min.primitive
rem = _binary("rem", "RemOp", "real")
atan2 = _binary("atan2", "Atan2Op", "float")
bitwise_and = _binary("and", "AndOp", "int_or_bool")
bitwise_or = _binary("or", "OrOp", "int_or_bool")
bitwise_xor = _binary("xor", "XorOp", "int_or_bool")

# ---------------------------------------------------------------------------
# Complex numbers: real, imag, conj, complex (complex64 / complex128)
# ---------------------------------------------------------------------------

_COMPLEX_PARTS = (np.dtype(np.float32), np.dtype(np.float64))


def _complex_part(name, op_class):
    def check(x):
        if not dtypes.is_complex(x.dtype):
            raise shape_error(f"lax.{name}", f"does not accept dtype {x.dtype.name}; "
                              "needs complex")

    prim = Primitive(name, lambda v, a: getattr(_ops(), op_class)(v[0]).result,
                     check=check)

    def fn(x):
        return bind(prim, x)

    fn.__name__ = name
    fn.__doc__ = f"lax.{name}: the {name} part of a complex array (mlax.{name})."
    return fn


real = _complex_part("real", "RealOp")
imag = _complex_part("imag", "ImagOp")


def _complex_check(x, y):
    if x.dtype != y.dtype:
        raise TypeError(
            f"lax.complex requires arguments to have the same dtypes, got {x.dtype.name}, "
            f"{y.dtype.name}. (Tip: x + 1j * y in mlax.numpy promotes.) "
            f"(at {core.user_location_str()})")
    if x.dtype not in _COMPLEX_PARTS:
        raise shape_error("lax.complex", f"does not accept dtype {x.dtype.name}; needs "
                          "float32 or float64")


_complex_p = Primitive("complex",
                       lambda v, a: verified(_ops().ComplexOp(v[0], v[1])).result,
                       check=_complex_check)


def complex(x, y):  # noqa: A001 (lax.complex, as in JAX)
    """lax.complex: x + i*y from two real arrays of one float dtype."""
    return bind(_complex_p, x, y)


def _conj_check(x):
    if not dtypes.is_complex(x.dtype):
        raise shape_error("lax.conj", f"does not accept dtype {x.dtype.name}; needs float32, "
                          "float64 or complex")


_conj_p = Primitive("conj", lambda v, a: _ops().ConjOp(v[0]).result, check=_conj_check)


def conj(x):
    """lax.conj: the complex conjugate; a float32/float64 input becomes complex
    first (as jax.lax.conj, whose result is always complex)."""
    dt = aval_of(x).dtype
    if dt in _COMPLEX_PARTS:
        x = convert_element_type(x, dtypes.canonicalize(np.result_type(dt, np.complex64)),
                                 weak_type=aval_of(x).weak_type)
    return bind(_conj_p, x)


# ---------------------------------------------------------------------------
# compare, select_n, convert
# ---------------------------------------------------------------------------

_DIRECTIONS = {"eq": 0, "ne": 1, "lt": 2, "le": 3, "gt": 4, "ge": 5}


def _compare_emit(values, avals, *, direction):
    attr = ir.IntegerAttr.get(ir.IntegerType.get_signless(32), _DIRECTIONS[direction])
    return _ops().CompareOp(attr, values[0], values[1]).result


# As jax.lax: the result is weak when both operands are (the default).
_compare_p = Primitive("compare", _compare_emit,
                       label=lambda params: f"lax.{params['direction']}")


def _comparison(direction):
    def compare(x, y):
        return bind(_compare_p, x, y, direction=direction)

    def fn(x, y):
        if direction not in ("eq", "ne") and _both_complex(x, y):
            return _lexicographic(compare, x, y)
        return compare(x, y)

    fn.__name__ = direction
    return fn


eq, ne, lt, le, gt, ge = (_comparison(d) for d in ("eq", "ne", "lt", "le", "gt", "ge"))


def _select_n_check(which, *cases):
    if which.dtype not in (dtypes.bool_, dtypes.int32):
        raise shape_error("lax.select_n", f"`which` must be bool or int32, got {which.dtype.name}")


_select_n_p = Primitive(
    "select_n", lambda v, a: _ops().SelectNOp(v[0], v[1:]).result,
    check=_select_n_check,
    weak_type=lambda which, *cases: bool(cases) and builtins.all(c.weak_type for c in cases),
    errors={"needs at least one case": ValueError, "at most 2 cases": TypeError})


def select_n(which, *cases):
    """cases[which], elementwise (`which` bool or any integer, as JAX's)."""
    dt = aval_of(which).dtype
    if dtypes.is_int(dt) and dt != dtypes.int32 and dt not in dtypes.NARROW_INTS:
        which = convert_element_type(which, dtypes.int32)  # (the op takes int32)
    return bind(_select_n_p, which, *cases)


def select(pred, on_true, on_false):
    return select_n(pred, on_false, on_true)


def _convert_emit(values, avals, *, new_dtype, weak_type=False):
    if avals[0].dtype == new_dtype:
        return values[0]
    # The result type is the operand's shape with the new element type: the
    # verifier's rule holds by construction.
    return _ops().ConvertOp(avals[0].update(dtype=new_dtype).mlir_type(), values[0]).result


_convert_p = Primitive("convert_element_type", _convert_emit,
                       weak_type=lambda x, *, new_dtype, weak_type=False: weak_type)


def convert_element_type(x, new_dtype, weak_type=False):
    new_dtype = dtypes.canonicalize(new_dtype)
    if type(x) is int:
        # As JAX: a Python int converts as NumPy converts it (wrapping into
        # an integer type, rounding into a float type), so no default-width
        # integer has to hold it first: convert_element_type(2**32, int32) is 0.
        try:
            x = np.asarray(x).astype(new_dtype)
        except OverflowError:
            raise OverflowError(f"lax.convert_element_type: Python int {x} does not fit "
                                f"{new_dtype.name}") from None
    aval = aval_of(x)
    if aval.dtype == new_dtype and aval.weak_type == weak_type and not isinstance(
            x, (bool, int, float, builtins.complex, np.ndarray, np.generic)):
        return x
    return bind(_convert_p, x, new_dtype=new_dtype, weak_type=weak_type)


def dtype(x):
    """jax.lax.dtype: the dtype of a value, array or dtype-like, canonicalized
    (float64 is float32 unless x64 is on)."""
    if dtypes.is_python_scalar(x) or isinstance(x, (np.ndarray, np.generic)) or isinstance(
            getattr(x, "aval", None), ShapedArray):
        return aval_of(x).dtype
    if isinstance(x, type) and x in (bool, int, float, complex):
        return aval_of(x(0)).dtype
    try:
        return dtypes.canonicalize(np.dtype(x if isinstance(x, type) else getattr(x, "dtype", x)))
    except TypeError:
        raise TypeError(f"Cannot determine dtype of {x}") from None


def square(x):
    return mul(x, x)


# ---------------------------------------------------------------------------
# Bit-level ops and what jax.random needs: shifts, bitcast_convert_type,
# erf / erf_inv / nextafter
# ---------------------------------------------------------------------------

_KIND_CHECKS["int"] = (dtypes.is_int, "integer (signed or unsigned, not bool)")

shift_left = _binary("shift_left", "ShiftLeftOp", "int")
shift_right_logical = _binary("shift_right_logical", "ShiftRightLogicalOp", "int")
shift_right_arithmetic = _binary("shift_right_arithmetic", "ShiftRightArithmeticOp", "int")
shift_left.__doc__ = "Elementwise x << y (0 once y reaches the bit width), as jax.lax."
shift_right_logical.__doc__ = "Elementwise logical x >> y (zeros shifted in), as jax.lax."
shift_right_arithmetic.__doc__ = "Elementwise arithmetic x >> y (sign shifted in), as jax.lax."
clz = _unary("clz", "ClzOp", "int")
clz.__doc__ = "Elementwise count of leading zero bits (jax.lax.clz)."
erf = _unary("erf", "ErfOp", "real_float")
erf_inv = _unary("erf_inv", "ErfInvOp", "real_float")
_nextafter = _binary("nextafter", "NextAfterOp", "real_float")


def nextafter(x1, x2):
    """The next float after x1 towards x2, elementwise (jax.lax.nextafter)."""
    return _nextafter(x1, x2)


def _bits_of(dtype) -> int:
    dtype = np.dtype(dtype)
    return 0 if dtype == dtypes.bool_ else dtypes.itemsize_bits(dtype)


def _bitcast_emit(values, avals, *, new_dtype):
    # The caller picks the element type, so the op states its result type
    # and the verifier is the shape rule: the type asked for is the
    # operand's shape, with a last dimension added (narrower elements) or
    # taken away (wider ones); the verifier rejects bools and a last
    # dimension of the wrong size.
    x = avals[0]
    in_bits, out_bits = _bits_of(x.dtype), _bits_of(new_dtype)
    shape = x.shape
    if in_bits and out_bits and in_bits != out_bits:
        shape = shape + (in_bits // out_bits,) if in_bits > out_bits else shape[:-1]
    return verified(_ops().BitcastConvertOp(ShapedArray(shape, new_dtype).mlir_type(),
                                            values[0])).result


_bitcast_p = Primitive(
    "bitcast_convert_type", _bitcast_emit,
    weak_type=lambda x, *, new_dtype: False,
    errors={"last dimension": ValueError})  # as JAX's


def bitcast_convert_type(operand, new_dtype):
    """Reinterprets the bits of each element as `new_dtype` (jax.lax)."""
    new_dtype = np.dtype(new_dtype)
    if new_dtype not in dtypes.SUPPORTED:
        raise TypeError(f"lax.bitcast_convert_type: unsupported dtype {new_dtype}")
    if aval_of(operand).dtype == new_dtype:
        return operand
    return bind(_bitcast_p, operand, new_dtype=new_dtype)


def _as_array(x):
    """`x` itself when it is already an mlax array or tracer, else `x` as an
    array (as jax.lax functions that return their input still return an Array)."""
    aval = aval_of(x)
    return convert_element_type(x, aval.dtype, weak_type=aval.weak_type)


def mulhi(x, y):
    """jax.lax.mulhi: the high half of the bits of x * y (integers of one
    dtype), from the four products of the operands' half-width halves in the
    unsigned type of their width, as JAX's fallback lowering."""
    ax, ay = aval_of(x), aval_of(y)
    if ax.dtype != ay.dtype:
        raise TypeError(f"lax.mulhi requires arguments to have the same dtypes, got "
                        f"{ax.dtype.name}, {ay.dtype.name} (at {core.user_location_str()})")
    _check_kind("mulhi", "int", ax)
    if ax.shape != ay.shape:  # strict (mlax.lax.mulhi broadcasts first)
        raise shape_error("lax.mulhi", f"needs operands of one shape, got {ax.shape} and "
                          f"{ay.shape}")
    bits = _bits_of(ax.dtype)
    half = bits // 2
    unsigned = np.dtype(f"uint{bits}")
    xu, yu = bitcast_convert_type(x, unsigned), bitcast_convert_type(y, unsigned)

    def const(v):
        return convert_element_type(np.full(ax.shape, v, unsigned), unsigned)

    low_mask, shift = const((1 << half) - 1), const(half)
    x_lo, x_hi = bitwise_and(xu, low_mask), shift_right_logical(xu, shift)
    y_lo, y_hi = bitwise_and(yu, low_mask), shift_right_logical(yu, shift)
    lo_lo, lo_hi, hi_lo = mul(x_lo, y_lo), mul(x_lo, y_hi), mul(x_hi, y_lo)
    cross = add(add(bitwise_and(lo_hi, low_mask), bitwise_and(hi_lo, low_mask)),
                shift_right_logical(lo_lo, shift))
    hi = add(mul(x_hi, y_hi), add(shift_right_logical(lo_hi, shift),
                                  add(shift_right_logical(hi_lo, shift),
                                      shift_right_logical(cross, shift))))
    if dtypes.is_signed_int(ax.dtype):
        # Two's complement: the signed high half is the unsigned one less y
        # when x < 0 and less x when y < 0.
        sign = const(bits - 1)
        hi = sub(hi, add(mul(shift_right_logical(xu, sign), yu),
                         mul(shift_right_logical(yu, sign), xu)))
    return convert_element_type(bitcast_convert_type(hi, ax.dtype), ax.dtype,
                                weak_type=ax.weak_type and ay.weak_type)

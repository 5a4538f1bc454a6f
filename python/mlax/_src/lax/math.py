"""The ops of MlaxMathOps.td: hyperbolic and inverse trigonometric functions,
special functions, clamp, top_k and the cumulative reductions other than
cumsum; with exp2, reciprocal, integer_pow and approx_max_k / approx_min_k
built from them.

Each function with its own op (MlaxMathOps.td) is a primitive here; the rest
are compositions of mlax.lax functions, so their derivatives and batching
come from the ops they use.
"""
from __future__ import annotations

import operator

import numpy as np

from mlax._src.core import tracer as core
from mlax._src.base import dtypes
from mlax._src.lax.accuracy import accuracy_param
from mlax._src.lax.elementwise import _as_array
from mlax._src.lax.lax import (
    _binary, _check_kind, _i64, _unary, broadcast_in_dim, convert_element_type, div, exp,
    full_like, max, min, mul, neg, transpose)
from mlax._src.core.primitives import Primitive, _ops, aval_of, bind, shape_error


# ---------------------------------------------------------------------------
# Elementwise functions with their own op
# ---------------------------------------------------------------------------

sinh = _unary("sinh", "SinhOp", "float")
cosh = _unary("cosh", "CoshOp", "float")
asin = _unary("asin", "AsinOp", "float")
acos = _unary("acos", "AcosOp", "float")
atan = _unary("atan", "AtanOp", "float")
asinh = _unary("asinh", "AsinhOp", "float")
acosh = _unary("acosh", "AcoshOp", "float")
atanh = _unary("atanh", "AtanhOp", "float")
lgamma = _unary("lgamma", "LgammaOp", "real_float")
digamma = _unary("digamma", "DigammaOp", "real_float")
erfc = _unary("erfc", "ErfcOp", "real_float")
cbrt = _unary("cbrt", "CbrtOp", "real_float", accuracy=True)
population_count = _unary("population_count", "PopcntOp", "int")
polygamma = _binary("polygamma", "PolygammaOp", "real_float")
zeta = _binary("zeta", "ZetaOp", "real_float")

lgamma.__doc__ = "Elementwise log|Gamma(x)| (jax.lax.lgamma)."
digamma.__doc__ = "Elementwise digamma, d/dx lgamma(x) (jax.lax.digamma)."
erfc.__doc__ = "Elementwise complementary error function 1 - erf(x) (jax.lax.erfc)."
cbrt.__doc__ = "Elementwise cube root (jax.lax.cbrt)."
population_count.__doc__ = "Elementwise number of set bits (jax.lax.population_count)."
polygamma.__doc__ = ("polygamma(m, x): the m-th derivative of digamma (jax.lax.polygamma); "
                     "differentiable in x only.")
zeta.__doc__ = "The Hurwitz zeta function zeta(x, q) (jax.lax.zeta); differentiable in q only."


def exp2(x, *, accuracy=None):
    """Elementwise 2**x, as jax.lax.exp2: exp(log(2) * x), the exp at
    `accuracy` (a Tolerance or an AccuracyMode)."""
    _check_kind("exp2", "float", aval_of(x))
    accuracy_param("exp2", accuracy)  # (its errors name exp2)
    return exp(mul(full_like(x, np.log(2)), x), accuracy=accuracy)


def reciprocal(x):
    """Elementwise 1 / x (jax.lax.reciprocal, i.e. integer_pow(x, -1))."""
    return integer_pow(x, -1)


def integer_pow(x, y):
    """x ** y for a static Python int y, by repeated squaring as jax.lax does
    (a negative y takes the reciprocal of the result)."""
    name = "lax.integer_pow"
    if isinstance(y, bool) or not isinstance(y, (int, np.integer)):
        raise TypeError(f"{name}: the exponent must be a Python int, got {y!r} "
                        f"(at {core.user_location_str()})")
    y = int(y)
    aval = aval_of(x)
    if dtypes.is_bool(aval.dtype):
        raise shape_error(name, "does not accept dtype bool; needs a number")
    if y < 0 and dtypes.is_int(aval.dtype):
        raise shape_error(name, f"integers cannot be raised to negative powers, got "
                          f"integer_pow(x, {y}) for {aval.dtype.name}")
    if y == 0:
        return full_like(x, 1)
    if y == 1:
        return _as_array(x)
    is_reciprocal = y < 0
    y = -y if is_reciprocal else y
    acc = None
    while y > 0:
        if y & 1:
            acc = x if acc is None else mul(acc, x)
        y >>= 1
        if y > 0:
            x = mul(x, x)
    return div(full_like(acc, 1), acc) if is_reciprocal else acc


# ---------------------------------------------------------------------------
# clamp
# ---------------------------------------------------------------------------

# The result type is ClampOp's C++ rule (MlaxMathOps.cpp: bounds scalar or of
# the operand's shape, one element type); Python checks the dtype kind. The
# result is weak when the operand is (as JAX's clamp).
_clamp_p = Primitive(
    "clamp", lambda v, a: _ops().ClampOp(v[0], v[1], v[2]).result,
    check=lambda lo, x, hi: _check_kind("clamp", "real", x),
    weak_type=lambda lo, x, hi: x.weak_type)


def clamp(min, x, max):  # noqa: A002
    """min(max(x, min), max) elementwise, `min` and `max` scalars or of x's shape
    (jax.lax.clamp). Python scalar bounds take x's dtype."""
    dtype = aval_of(x).dtype
    if dtypes.is_python_scalar(min):
        min = convert_element_type(min, dtype)
    if dtypes.is_python_scalar(max):
        max = convert_element_type(max, dtype)
    if dtypes.is_bool(dtype):
        return _clamp_bools(min, x, max)
    return bind(_clamp_p, min, x, max)


def _clamp_bools(lo, x, hi):
    """clamp of bools, which JAX's clamp takes too (the op is for numbers):
    the max with `lo`, then the min with `hi`. (Complex numbers stay refused:
    XLA's clamp of them follows no order lax.max and lax.min share.)"""
    ax = aval_of(x)
    bounds = []
    for b in (lo, hi):
        ab = aval_of(b)
        if ab.dtype != ax.dtype or ab.shape not in ((), ax.shape):
            raise shape_error("lax.clamp", f"needs bounds of the operand's dtype "
                              f"({ax.dtype.name}), scalar or of its shape {ax.shape}; got "
                              f"{ab.dtype.name}{list(ab.shape)}")
        bounds.append(b if ab.shape == ax.shape else broadcast_in_dim(b, ax.shape, ()))
    return min(max(x, bounds[0]), bounds[1])


# ---------------------------------------------------------------------------
# top_k
# ---------------------------------------------------------------------------

# The result types are TopKOp's C++ rule (the last dimension becomes k; int32
# indices); Python checks the dtype kind.
_top_k_p = Primitive(
    "top_k", lambda v, a, *, k: list(_ops().TopKOp(v[0], _i64(k)).results),
    multiple_results=True, check=lambda x, *, k: _check_kind("top_k", "real", x),
    errors={"must be in": ValueError})


def top_k(operand, k, *, axis=-1):
    """The `k` largest entries along `axis` in descending order and their int32
    indices (ties: lower index first), as jax.lax.top_k."""
    name = "lax.top_k"
    aval = aval_of(operand)
    try:
        k = operator.index(k)
    except TypeError:
        raise TypeError(f"{name}: k must be an int, got {k!r} "
                        f"(at {core.user_location_str()})") from None
    if aval.ndim == 0:
        raise shape_error(name, "operand must have at least one dimension, got a scalar")
    if dtypes.is_complex(aval.dtype):  # (JAX's class and words)
        raise shape_error(name, "top_k is not compatible with complex inputs", ValueError)
    axis = operator.index(axis)
    if not -aval.ndim <= axis < aval.ndim:
        raise shape_error(name, f"axis {axis} is out of range for shape {aval.shape}",
                          ValueError)
    axis %= aval.ndim
    if not 0 <= k <= aval.shape[axis]:
        raise shape_error(name, f"k={k} must be in [0, {aval.shape[axis]}] (the size of "
                          f"axis {axis} of shape {aval.shape})", ValueError)
    last = aval.ndim - 1
    if axis == last:
        values, indices = bind(_top_k_p, operand, k=k)
        return values, indices
    perm = list(range(aval.ndim))
    perm[axis], perm[last] = last, axis
    values, indices = bind(_top_k_p, transpose(operand, perm), k=k)
    return transpose(values, perm), transpose(indices, perm)


def _approx_top_k(name, operand, k, reduction_dimension, is_max_k):
    aval = aval_of(operand)
    k = operator.index(k)
    if k <= 0:
        raise shape_error(name, f"k must be positive, got {k}", ValueError)
    if aval.ndim == 0:
        raise shape_error(name, f"operand must have >= 1 dimension, got {aval.shape}")
    size = aval.shape[reduction_dimension]
    if size < k:
        raise shape_error(name, f"k must be smaller than the size of reduction_dim {size}, "
                          f"got {k}", ValueError)
    if not dtypes.is_float(aval.dtype):
        raise shape_error(name, f"operand must be a floating type, got {aval.dtype.name}",
                          ValueError)
    if is_max_k:
        return list(top_k(operand, k, axis=reduction_dimension))
    values, indices = top_k(neg(operand), k, axis=reduction_dimension)
    return [neg(values), indices]


def approx_max_k(operand, k, reduction_dimension=-1, recall_target=0.95,
                 reduction_input_size_override=-1, aggregate_to_topk=True):
    """jax.lax.approx_max_k as JAX computes it off TPU: the exact top k
    (sorted, so also a valid result without aggregate_to_topk)."""
    return _approx_top_k("lax.approx_max_k", operand, k, reduction_dimension, True)


def approx_min_k(operand, k, reduction_dimension=-1, recall_target=0.95,
                 reduction_input_size_override=-1, aggregate_to_topk=True):
    """jax.lax.approx_min_k as JAX computes it off TPU: the exact bottom k."""
    return _approx_top_k("lax.approx_min_k", operand, k, reduction_dimension, False)


# ---------------------------------------------------------------------------
# cumprod, cummax, cummin, cumlogsumexp
# ---------------------------------------------------------------------------

def _cumulative(name, op_class, kind, complex_combine=None):
    # The result type is the op's C++ rule (the operand's, for an axis in
    # range); Python checks the dtype kind. The op takes real numbers; complex
    # ones (where `complex_combine` is given) are JAX's associative scan of
    # it, the form JAX differentiates these by. (JAX computes complex values
    # by a windowed fold; they agree but for NaNs in cummax / cummin, where
    # complex max / min are not associative: which NaN or number survives
    # depends on the order of evaluation, in JAX's and in mlax's.)
    def check(x, *, axis, reverse):
        _check_kind(name, kind, x)

    def emit(values, avals, *, axis, reverse):
        return getattr(_ops(), op_class)(values[0], _i64(axis), reverse=bool(reverse)).result

    prim = Primitive(name, emit, check=check, errors={"out of range": ValueError})

    def fn(operand, axis=0, reverse=False):
        aval = aval_of(operand)
        axis = operator.index(axis)
        if not -aval.ndim <= axis < aval.ndim:
            raise shape_error(f"lax.{name}", f"axis {axis} is out of bounds for an array of "
                              f"shape {aval.shape}", ValueError)
        if not (complex_combine and dtypes.is_complex(aval.dtype)):
            _check_kind(name, kind, aval)
        if aval.shape[axis] == 0:
            return _as_array(operand)  # nothing to combine (XLA has no empty windows)
        if dtypes.is_complex(aval.dtype):
            from mlax._src.lax.control_flow import associative_scan

            return associative_scan(complex_combine, operand, reverse=bool(reverse), axis=axis)
        return bind(prim, operand, axis=axis % aval.ndim, reverse=bool(reverse))

    fn.__name__ = name
    fn.__doc__ = f"Inclusive cumulative {name[3:]} along `axis` (jax.lax.{name})."
    fn.primitive = prim
    return fn


cumprod = _cumulative("cumprod", "CumprodOp", "real", mul)
cummax = _cumulative("cummax", "CummaxOp", "real", max)
cummin = _cumulative("cummin", "CumminOp", "real", min)
cumlogsumexp = _cumulative("cumlogsumexp", "CumlogsumexpOp", "real_float")

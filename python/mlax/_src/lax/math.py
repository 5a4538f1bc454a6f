"""The rest of jax.lax's math: hyperbolic and inverse trigonometric functions,
special functions, clamp, top_k, argmax/argmin, the cumulative reductions
other than cumsum, integer_pow, reduce over the standard monoids and a few
shape helpers (squeeze, expand_dims, collapse, index_in_dim,
broadcast_to_rank).

Each function with its own op (MlaxMathOps.td) is a primitive here; the rest
are compositions of mlax.lax functions, so their derivatives and batching
come from the ops they use.
"""
from __future__ import annotations

import builtins
import operator

import numpy as np

from mlax._src.core import tracer as core
from mlax._src.base import dtypes
from mlax._src.core.tracer import ShapedArray
from mlax._src.lax.lax import (
    _binary, _check_kind, _i64, _unary, add, bitwise_and, bitwise_or, broadcast,
    broadcast_in_dim, broadcasted_iota, convert_element_type, div, eq, exp, full_like, max, min,
    mul, ne, reduce_and, reduce_max, reduce_min, reduce_or, reduce_prod, reduce_sum, reshape,
    select, slice, transpose)
from mlax._src.core.primitives import Primitive, _ops, aval_of, bind, shape_error

def _as_array(x):
    """`x` itself when it is already an mlax array or tracer, else `x` as an
    array (as jax.lax functions that return their input still return an Array)."""
    aval = aval_of(x)
    return convert_element_type(x, aval.dtype, weak_type=aval.weak_type)


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
cbrt = _unary("cbrt", "CbrtOp", "real_float")
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


def exp2(x):
    """Elementwise 2**x, as jax.lax.exp2: exp(log(2) * x)."""
    _check_kind("exp2", "float", aval_of(x))
    return exp(mul(full_like(x, np.log(2)), x))


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

def _clamp_eval(lo, x, hi):
    name = "lax.clamp"
    for what, b in (("min", lo), ("max", hi)):
        if b.shape not in ((), x.shape):
            raise shape_error(name, f"{what} must be a scalar or have the operand's shape "
                              f"{x.shape}, got shape {b.shape}")
        if b.dtype != x.dtype:
            raise shape_error(name, f"{what} dtype {b.dtype.name} must match the operand's "
                              f"{x.dtype.name}")
    _check_kind("clamp", "real", x)
    return x


_clamp_p = Primitive(
    "clamp", _clamp_eval,
    lambda v, a, o: _ops().ClampOp(v[0], v[1], v[2], results=[o.mlir_type()]).result)


def clamp(min, x, max):  # noqa: A002
    """min(max(x, min), max) elementwise, `min` and `max` scalars or of x's shape
    (jax.lax.clamp). Python scalar bounds take x's dtype."""
    dtype = aval_of(x).dtype
    if dtypes.is_python_scalar(min):
        min = convert_element_type(min, dtype)
    if dtypes.is_python_scalar(max):
        max = convert_element_type(max, dtype)
    return bind(_clamp_p, min, x, max)


# ---------------------------------------------------------------------------
# top_k
# ---------------------------------------------------------------------------

def _top_k_eval(x, *, k):
    _check_kind("top_k", "real", x)
    shape = x.shape[:-1] + (k,)
    return [x.update(shape=shape), ShapedArray(shape, dtypes.int32)]


def _top_k_emit(values, avals, out_avals, *, k):
    op = _ops().TopKOp(out_avals[0].mlir_type(), out_avals[1].mlir_type(), values[0], _i64(k))
    return list(op.results)


_top_k_p = Primitive("top_k", _top_k_eval, _top_k_emit, multiple_results=True)


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


# ---------------------------------------------------------------------------
# argmax, argmin
# ---------------------------------------------------------------------------

def _argminmax(name, operand, axis, index_dtype, reduce_fn):
    full_name = f"lax.{name}"
    aval = aval_of(operand)
    try:
        index_dtype = dtypes.canonicalize(index_dtype)
    except TypeError:
        raise TypeError(f"{full_name}: index_dtype must be an integer type, got "
                        f"{index_dtype!r} (at {core.user_location_str()})") from None
    if not dtypes.is_int(index_dtype):
        raise shape_error(full_name, f"index_dtype must be an integer type, got "
                          f"{np.dtype(index_dtype).name}")
    if dtypes.is_complex(aval.dtype):
        raise shape_error(full_name, f"does not accept dtype {aval.dtype.name}")
    axis = operator.index(axis)
    if not 0 <= axis < aval.ndim:
        raise shape_error(full_name, f"invalid axis {axis} for operand shape {aval.shape}",
                          ValueError)
    n = aval.shape[axis]
    if n == 0:
        raise shape_error(full_name, f"needs a non-empty axis {axis}, got shape {aval.shape}",
                          ValueError)
    kept = [d for d in range(aval.ndim) if d != axis]
    extreme = broadcast_in_dim(reduce_fn(operand, (axis,)), aval.shape, kept)
    hit = eq(operand, extreme)
    if dtypes.is_float(aval.dtype):
        hit = bitwise_or(hit, ne(operand, operand))  # NaN is the extreme, as in JAX
    positions = broadcasted_iota(index_dtype, aval.shape, axis)
    candidates = select(hit, positions, full_like(positions, n))
    return reduce_min(candidates, (axis,))


def argmax(operand, axis, index_dtype):
    """The index of the maximum along `axis` (the first on ties; NaN counts as
    the maximum), as jax.lax.argmax."""
    return _argminmax("argmax", operand, axis, index_dtype, reduce_max)


def argmin(operand, axis, index_dtype):
    """The index of the minimum along `axis` (the first on ties; NaN counts as
    the minimum), as jax.lax.argmin."""
    return _argminmax("argmin", operand, axis, index_dtype, reduce_min)


# ---------------------------------------------------------------------------
# cumprod, cummax, cummin, cumlogsumexp
# ---------------------------------------------------------------------------

def _cumulative(name, op_class, kind):
    def abstract_eval(x, *, axis, reverse):
        _check_kind(name, kind, x)
        return x

    def emit(values, avals, out_aval, *, axis, reverse):
        return getattr(_ops(), op_class)(values[0], _i64(axis), reverse=bool(reverse),
                                         results=[out_aval.mlir_type()]).result

    prim = Primitive(name, abstract_eval, emit)

    def fn(operand, axis=0, reverse=False):
        aval = aval_of(operand)
        axis = operator.index(axis)
        if not -aval.ndim <= axis < aval.ndim:
            raise shape_error(f"lax.{name}", f"axis {axis} is out of bounds for an array of "
                              f"shape {aval.shape}", ValueError)
        _check_kind(name, kind, aval)
        if aval.shape[axis] == 0:
            return _as_array(operand)  # nothing to combine (XLA has no empty windows)
        return bind(prim, operand, axis=axis % aval.ndim, reverse=bool(reverse))

    fn.__name__ = name
    fn.__doc__ = f"Inclusive cumulative {name[3:]} along `axis` (jax.lax.{name})."
    fn.primitive = prim
    return fn


cumprod = _cumulative("cumprod", "CumprodOp", "real")
cummax = _cumulative("cummax", "CummaxOp", "real")
cummin = _cumulative("cummin", "CumminOp", "real")
cumlogsumexp = _cumulative("cumlogsumexp", "CumlogsumexpOp", "real_float")


# ---------------------------------------------------------------------------
# reduce over the standard monoids
# ---------------------------------------------------------------------------

# The computations `reduce` recognises, by monoid. The numpy layer adds its
# own functions (mnp.add, mnp.maximum, ...) when it is imported.
_MONOIDS = {}


def register_monoid(kind, *functions):
    for f in functions:
        _MONOIDS[f] = kind


def _monoids():
    return _MONOIDS


register_monoid("add", add, operator.add)
register_monoid("mul", mul, operator.mul)
register_monoid("max", max)
register_monoid("min", min)
register_monoid("and", bitwise_and, operator.and_)
register_monoid("or", bitwise_or, operator.or_)


def _identity(kind, dtype):
    if kind == "add":
        return 0
    if kind == "mul":
        return 1
    if kind in ("and", "or"):
        return kind == "and"
    if dtypes.is_float(dtype):
        return -np.inf if kind == "max" else np.inf
    if dtypes.is_bool(dtype):
        return kind == "min"
    info = np.iinfo(dtype)
    return info.min if kind == "max" else info.max


def reduce(operands, init_values, computation, dimensions):  # noqa: A001
    """jax.lax.reduce for one operand and a standard monoid computation
    (lax.add, lax.mul, lax.max, lax.min, lax.bitwise_and, lax.bitwise_or or
    their mlax.numpy / operator twins). A non-identity init value is combined
    into the result once."""
    name = "lax.reduce"
    if isinstance(operands, (tuple, list)):
        if len(operands) != 1 or not isinstance(init_values, (tuple, list)) or len(
                init_values) != 1:
            raise NotImplementedError(f"{name}: only a single operand is supported, got "
                                      f"{len(operands)} (at {core.user_location_str()})")
        # As jax.lax.reduce with a monoid: the one result, not a tuple.
        return reduce(operands[0], init_values[0], computation, dimensions)
    kind = _monoids().get(computation)
    if kind is None:
        raise NotImplementedError(
            f"{name}: computation {getattr(computation, '__name__', computation)!r} is not "
            "supported; mlax reduces with the standard monoids only (lax.add, lax.mul, "
            "lax.max, lax.min, lax.bitwise_and, lax.bitwise_or) "
            f"(at {core.user_location_str()})")
    aval = aval_of(operands)
    dims = tuple(int(d) for d in dimensions)
    if builtins.any(not 0 <= d < aval.ndim for d in dims) or len(set(dims)) != len(dims):
        raise shape_error(name, f"dimensions {dims} must be distinct axes of shape "
                          f"{aval.shape}", ValueError)
    init_aval = aval_of(init_values)
    if init_aval.shape != ():
        raise shape_error(name, f"init value must be a scalar, got shape {init_aval.shape}")
    if dtypes.is_python_scalar(init_values):
        init = convert_element_type(init_values, aval.dtype)
    elif init_aval.dtype != aval.dtype:
        raise shape_error(name, f"init value dtype {init_aval.dtype.name} must match the "
                          f"operand's {aval.dtype.name}")
    else:
        init = init_values
    if kind in ("and", "or"):
        if not dtypes.is_bool(aval.dtype):
            raise NotImplementedError(f"{name}: bitwise and/or reductions of "
                                      f"{aval.dtype.name} are not supported (bool only) "
                                      f"(at {core.user_location_str()})")
        out = (reduce_and if kind == "and" else reduce_or)(operands, dims)
        combine = bitwise_and if kind == "and" else bitwise_or
    else:
        fn = {"add": reduce_sum, "mul": reduce_prod, "max": reduce_max,
              "min": reduce_min}[kind]
        out = fn(operands, dims)
        combine = {"add": add, "mul": mul, "max": max, "min": min}[kind]
    try:
        concrete = np.asarray(init_values)
    except Exception:  # a tracer
        concrete = None
    if concrete is not None and concrete.dtype != object and concrete == _identity(
            kind, aval.dtype):
        return out
    return combine(out, broadcast(init, aval_of(out).shape))


# ---------------------------------------------------------------------------
# Shape helpers
# ---------------------------------------------------------------------------

def _axis(name, axis, ndim):
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise shape_error(f"lax.{name}", f"axis {axis} is out of bounds for rank {ndim}",
                          ValueError)
    return axis % ndim


def squeeze(array, dimensions):
    """`array` without the size-1 `dimensions` (jax.lax.squeeze)."""
    aval = aval_of(array)
    dims = {_axis("squeeze", d, aval.ndim) for d in dimensions}
    for d in dims:
        if aval.shape[d] != 1:
            raise shape_error("lax.squeeze", f"cannot squeeze dimension {d} of size "
                              f"{aval.shape[d]} (shape {aval.shape})", ValueError)
    return _as_array(reshape(array, [s for i, s in enumerate(aval.shape) if i not in dims]))


def expand_dims(array, dimensions):
    """`array` with size-1 dimensions inserted at `dimensions` (positions in the
    result), as jax.lax.expand_dims."""
    aval = aval_of(array)
    out_ndim = aval.ndim + len(dimensions)
    dims = sorted(_axis("expand_dims", d, out_ndim) for d in dimensions)
    if len(set(dims)) != len(dims):
        raise shape_error("lax.expand_dims", f"repeated dimensions {tuple(dimensions)}",
                          ValueError)
    shape = list(aval.shape)
    for d in dims:
        shape.insert(d, 1)
    return _as_array(reshape(array, shape))


def collapse(operand, start_dimension, stop_dimension=None):
    """`operand` with dimensions [start, stop) merged into one (jax.lax.collapse)."""
    aval = aval_of(operand)
    start = _axis("collapse", start_dimension, aval.ndim) if aval.ndim else 0
    if stop_dimension is None:
        stop = aval.ndim
    else:
        stop = operator.index(stop_dimension)
        if stop < 0:
            stop += aval.ndim
    if not start <= stop <= aval.ndim:
        raise shape_error("lax.collapse", f"invalid dimensions [{start_dimension}, "
                          f"{stop_dimension}) for shape {aval.shape}", ValueError)
    size = int(np.prod(aval.shape[start:stop], dtype=np.int64))
    return _as_array(reshape(operand, aval.shape[:start] + (size,) + aval.shape[stop:]))


def index_in_dim(operand, index, axis=0, keepdims=True):
    """operand[..., index, ...] along `axis` for a static `index` (negative
    counts from the end), as jax.lax.index_in_dim."""
    aval = aval_of(operand)
    axis = _axis("index_in_dim", axis, aval.ndim)
    index = operator.index(index)
    n = aval.shape[axis]
    if not -n <= index < n:
        raise shape_error("lax.index_in_dim", f"index {index} is out of bounds for axis "
                          f"{axis} of size {n}", IndexError)
    index %= n
    starts, limits = [0] * aval.ndim, list(aval.shape)
    starts[axis], limits[axis] = index, index + 1
    out = slice(operand, starts, limits)
    if keepdims:
        return out
    return reshape(out, aval.shape[:axis] + aval.shape[axis + 1:])


def broadcast_to_rank(x, rank):
    """`x` with leading size-1 dimensions added up to `rank` (jax.lax.broadcast_to_rank)."""
    aval = aval_of(x)
    rank = operator.index(rank)
    if rank < aval.ndim:
        raise shape_error("lax.broadcast_to_rank", f"rank {rank} is less than the array's "
                          f"rank {aval.ndim}", ValueError)
    if rank == aval.ndim:
        return _as_array(x)
    return broadcast(x, (1,) * (rank - aval.ndim))


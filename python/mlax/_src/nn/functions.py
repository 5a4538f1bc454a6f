"""mlax.nn: activation functions, softmax / log_softmax, logsumexp, one_hot,
standardize and dot_product_attention, composed from mlax.numpy and mlax.lax with jax.nn's
numerics: the softmax family subtracts stop_gradient(max), relu and relu6
have JAX's custom derivatives (zero at the kinks), softplus is
logaddexp(x, 0), gelu has the tanh (approximate=True) and erf forms.
"""
from __future__ import annotations

import math
import operator

import numpy as np

from mlax._src.transforms import autodiff
from mlax._src.core import tracer as core
from mlax._src.base import dtypes
from mlax._src.base import errors
from mlax._src.base.config import config
from mlax._src.lax import lax
from mlax._src.numpy import manipulation as mnc
from mlax._src.numpy import lax_numpy as mnp
from mlax._src.core.tracer import Tracer
from mlax._src.core.primitives import aval_of
from mlax._src.numpy import array_creation
from mlax._src.numpy import reductions
from mlax._src.numpy import ufuncs
from mlax._src.numpy import util


def _where():
    return core.user_location_str()


def _arr(name, x):
    if util._is_array(x):
        return x
    if isinstance(x, (list, tuple)):
        raise TypeError(f"nn.{name} requires ndarray or scalar arguments, got "
                        f"{type(x).__name__}; wrap it with mnp.array(...) (at {_where()})")
    if not isinstance(x, (bool, int, float, complex, np.ndarray, np.generic)):
        raise TypeError(f"nn.{name}: expected an array or a scalar, got "
                        f"{type(x).__name__} (at {_where()})")
    return mnp.asarray(x)


def _inexact(name, x):
    """x as an array of an inexact dtype (integers and bools become the
    default float, keeping a Python scalar's weak type)."""
    x = _arr(name, x)
    aval = aval_of(x)
    if not dtypes.is_inexact(aval.dtype):
        # as JAX's to_inexact_dtype: 64-bit integers -> float64, others -> float32
        dt = np.float64 if aval.dtype.itemsize == 8 else np.float32
        x = lax.convert_element_type(x, dtypes.canonicalize(dt), weak_type=aval.weak_type)
    return x


def _refuse_bool(name, x):
    """As JAX's softmax/log_softmax, whose x - max(x) refuses bool."""
    x = _arr(name, x)
    if aval_of(x).dtype == dtypes.bool_:
        raise TypeError(f"nn.{name}: sub does not accept dtype bool at position 0. Accepted "
                        f"dtypes at position 0 are subtypes of integer, floating, "
                        f"complexfloating.")
    return x


def _require_float(name, x):
    x = _arr(name, x)
    dt = aval_of(x).dtype
    if not dtypes.is_inexact(dt):
        raise TypeError(f"nn.{name} does not accept dtype {dt.name}. Accepted dtypes are "
                        f"subtypes of floating, complexfloating (at {_where()})")
    return x


def _axes(name, axis, ndim):
    """`axis` (an int, a sequence of ints or None) as a sorted tuple of
    non-negative axes."""
    if axis is None:
        return tuple(range(ndim))
    seq = axis if isinstance(axis, (tuple, list)) else (axis,)
    out = []
    for a in seq:
        if isinstance(a, Tracer):
            raise errors.concretization(a, f"the axis argument of nn.{name}")
        try:
            a = operator.index(a)
        except TypeError:
            raise TypeError(f"nn.{name}: axis must be an integer, a tuple of integers or None, "
                            f"got {axis!r} (at {_where()})") from None
        if not -ndim <= a < ndim:
            raise np.exceptions.AxisError(
                f"nn.{name}: axis {a} is out of bounds for array of dimension {ndim} "
                f"(at {_where()})")
        out.append(a % ndim)
    if len(set(out)) != len(out):
        raise ValueError(f"nn.{name}: repeated axis in {axis!r} (at {_where()})")
    return tuple(sorted(out))


def _keep(x, shape, axes):
    """A reduction's result reshaped with size-1 dimensions at `axes`."""
    return lax.reshape(x, tuple(1 if i in axes else d for i, d in enumerate(shape)))


def _mask(name, where, shape):
    if where is None:
        return None
    w = _arr(name, where)
    if aval_of(w).dtype != dtypes.bool_:
        w = mnp.astype(w, dtypes.bool_)
    return mnp.broadcast_to(w, shape)


def _max_keep(x, axes, mask):
    """max over `axes` (keepdims) of x, masked elements and empty axes giving -inf."""
    aval = aval_of(x)
    if mask is not None:
        x = mnp.where(mask, x, mnp.full((), -np.inf, aval.dtype))
    return _keep(lax.reduce_max(x, axes), aval.shape, axes)


def _sum(x, axes, mask, keepdims=True):
    aval = aval_of(x)
    if mask is not None:
        x = mnp.where(mask, x, mnp.zeros((), aval.dtype))
    # (mnp.sum: 16-bit floats are summed in float32, as jnp.sum does)
    return reductions.sum(x, axis=axes, keepdims=keepdims)


# ---------------------------------------------------------------------------
# Activations
# ---------------------------------------------------------------------------

def identity(x):
    """The identity activation."""
    return _arr("identity", x)


@autodiff.custom_jvp
def relu(x):
    """max(x, 0); the derivative at 0 is 0, as in JAX."""
    return ufuncs.maximum(_arr("relu", x), 0)


relu.defjvps(lambda g, ans, x: mnp.where(ufuncs.greater(x, 0), g, mnp.zeros_like(g)))


@autodiff.custom_jvp
def relu6(x):
    """min(max(x, 0), 6); the derivative at 0 and at 6 is 0, as in JAX."""
    return ufuncs.minimum(ufuncs.maximum(_arr("relu6", x), 0), 6.0)


relu6.defjvps(lambda g, ans, x: mnp.where(
    ufuncs.logical_and(ufuncs.greater(x, 0), ufuncs.less(x, 6)), g, mnp.zeros_like(g)))


def _sigmoid(name, x):
    return lax.logistic(_require_float(name, x))


def sigmoid(x):
    """1 / (1 + exp(-x)) (lax.logistic)."""
    return _sigmoid("sigmoid", x)


def silu(x):
    """x * sigmoid(x) (also called swish)."""
    x = _arr("silu", x)
    return ufuncs.multiply(x, _sigmoid("silu", x))



def _softplus(x):
    # logaddexp carries JAX's custom JVP (exact to every order at x = 0, and
    # JAX's values at +-inf).
    return ufuncs.logaddexp(x, 0)


def softplus(x):
    """log(1 + exp(x)), as logaddexp(x, 0)."""
    x, _ = util.promote_dtypes("softplus", _arr("softplus", x), 0)  # as logaddexp(x, 0)
    return _softplus(_inexact("softplus", util._materialize(x)))


def log_sigmoid(x):
    """log(sigmoid(x)) = -softplus(-x)."""
    x = _arr("log_sigmoid", x)
    return ufuncs.negative(softplus(ufuncs.negative(x)))


def elu(x, alpha=1.0):
    """x for x > 0, alpha * (exp(x) - 1) otherwise."""
    x = _arr("elu", x)
    pos = ufuncs.greater(x, 0)
    return mnp.where(pos, x, ufuncs.multiply(alpha, ufuncs.expm1(mnp.where(pos, 0.0, x))))


def leaky_relu(x, negative_slope=1e-2):
    """x for x >= 0, negative_slope * x otherwise."""
    x = _arr("leaky_relu", x)
    return mnp.where(ufuncs.greater_equal(x, 0), x, ufuncs.multiply(negative_slope, x))


def hard_tanh(x):
    """x clipped to [-1, 1]."""
    x = _arr("hard_tanh", x)
    if dtypes.is_unsigned(aval_of(x).dtype):
        # Nothing is below -1 (JAX compares x < -1 with -1 wrapped to the
        # type's maximum, which turns 0 and 1 into that maximum).
        return mnp.where(ufuncs.greater(x, 1), 1, x)
    return mnp.where(ufuncs.greater(x, 1), 1, mnp.where(ufuncs.less(x, -1), -1, x))


def celu(x, alpha=1.0):
    """max(x, 0) + alpha * expm1(min(x, 0) / alpha)."""
    x = _arr("celu", x)
    return ufuncs.add(ufuncs.maximum(x, 0.0),
                   ufuncs.multiply(alpha, ufuncs.expm1(ufuncs.divide(ufuncs.minimum(x, 0.0), alpha))))


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def selu(x):
    """scale * elu(x, alpha) with the self-normalizing constants."""
    return ufuncs.multiply(_SELU_SCALE, elu(_arr("selu", x), _SELU_ALPHA))


def gelu(x, approximate=True):
    """x * Phi(x): with approximate=True the tanh form
    0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), else 0.5 x erfc(-x / sqrt 2)."""
    x = _inexact("gelu", x)
    dt = aval_of(x).dtype
    if approximate:
        c = np.asarray(np.sqrt(2 / np.pi)).astype(dt)
        cube = ufuncs.multiply(ufuncs.multiply(x, x), x)
        inner = ufuncs.multiply(c, ufuncs.add(x, ufuncs.multiply(0.044715, cube)))
        cdf = ufuncs.multiply(0.5, ufuncs.add(1.0, ufuncs.tanh(inner)))
        return ufuncs.multiply(x, cdf)
    s = np.asarray(np.sqrt(0.5)).astype(dt)
    # erfc(-x s) = 1 + erf(x s)
    erfc = ufuncs.add(1.0, lax.erf(ufuncs.multiply(x, s)))
    return ufuncs.multiply(ufuncs.multiply(0.5, x), erfc)


# ---------------------------------------------------------------------------
# softmax, log_softmax, logsumexp
# ---------------------------------------------------------------------------

def softmax(x, axis=-1, where=None):
    """exp(x) / sum(exp(x)) along `axis` (an int, a tuple or None), computed
    as exp(x - stop_gradient(max x)); masked-out elements (`where`) give 0.
    Under jax_softmax_custom_jvp it has JAX's custom_jvp rule instead
    (y * (dx - sum(y * dx))), which differentiates to the same values."""
    x = _arr("softmax", x)
    axes = _axes("softmax", axis, aval_of(x).ndim)  # (checked first, as JAX's)
    x = _inexact("softmax", _refuse_bool("softmax", x))
    aval = aval_of(x)
    mask = _mask("softmax", where, aval.shape)
    if config.jax_softmax_custom_jvp:
        return _softmax_custom(x, axes, mask)
    return _softmax(x, axes, mask, stop_max=True)


def _softmax(x, axes, mask, stop_max):
    aval = aval_of(x)
    x_max = _max_keep(x, axes, mask)
    if stop_max:
        x_max = lax.stop_gradient(x_max)
    x_safe = x if mask is None else mnp.where(mask, x, mnp.full((), -np.inf, aval.dtype))
    unnormalized = ufuncs.exp(ufuncs.subtract(x_safe, x_max))
    result = ufuncs.divide(unnormalized, _sum(unnormalized, axes, mask))
    if mask is not None:
        result = mnp.where(mask, result, mnp.zeros((), aval.dtype))
    return result


def _softmax_custom_fn(axes, x, mask):
    return _softmax(x, axes, mask, stop_max=False)


def _softmax_custom_jvp(axes, primals, tangents):
    x, mask = primals
    x_dot = tangents[0]
    y = _softmax_custom(x, axes, mask)
    return y, ufuncs.multiply(y, ufuncs.subtract(x_dot, _sum(ufuncs.multiply(y, x_dot),
                                                                 axes, mask)))


_softmax_custom_rule = autodiff.custom_jvp(_softmax_custom_fn, nondiff_argnums=(0,))
_softmax_custom_rule.defjvp(_softmax_custom_jvp)


def _softmax_custom(x, axes, mask):
    return _softmax_custom_rule(axes, x, mask)


def log_softmax(x, axis=-1, where=None):
    """x - logsumexp(x) along `axis`, computed stably; masked-out elements
    (`where`) give -inf."""
    x = _arr("log_softmax", x)
    axes = _axes("log_softmax", axis, aval_of(x).ndim)  # (checked first, as JAX's)
    x = _inexact("log_softmax", _refuse_bool("log_softmax", x))
    aval = aval_of(x)
    mask = _mask("log_softmax", where, aval.shape)
    x_max = _max_keep(x, axes, mask)
    x_safe = x if mask is None else mnp.where(mask, x, mnp.full((), -np.inf, aval.dtype))
    shifted = ufuncs.subtract(x_safe, lax.stop_gradient(x_max))
    shifted_lse = ufuncs.log(_sum(ufuncs.exp(shifted), axes, mask))
    result = ufuncs.subtract(shifted, shifted_lse)
    if mask is not None:
        result = mnp.where(mask, result, mnp.full((), -np.inf, aval.dtype))
    return result


def logsumexp(a, axis=None, b=None, keepdims=False, return_sign=False, where=None):
    """log(sum(b * exp(a))) over `axis`, without overflow (as
    jax.nn.logsumexp / jax.scipy.special.logsumexp). With `return_sign`,
    (log|sum|, sign(sum)); otherwise a negative sum gives NaN."""
    name = "logsumexp"
    a = _arr(name, a)
    if where is not None:
        a = mnp.where(_arr(name, where), a, 0)
    if b is not None:
        a, b = util.promote_args(name, a, _arr(name, b))
        a, b = _inexact(name, a), _inexact(name, b)
        a = mnp.where(ufuncs.not_equal(b, 0), a, -np.inf)
    else:
        a = _inexact(name, a)
    aval = aval_of(a)
    is_complex = dtypes.is_complex(aval.dtype)
    axes = _axes(name, axis, aval.ndim)
    mask = _mask(name, where, aval.shape)
    # (complex: shifted by the largest real part, as JAX's)
    amax = _max_keep(ufuncs.real(a) if is_complex else a, axes, mask)
    amax = lax.stop_gradient(mnp.where(ufuncs.isfinite(amax), amax,
                                       mnp.zeros((), aval_of(amax).dtype)))
    exp_a = ufuncs.exp(ufuncs.subtract(a, amax.astype(aval.dtype)))
    if b is not None:
        exp_a = ufuncs.multiply(exp_a, b)
    sumexp = _sum(exp_a, axes, mask, keepdims=keepdims)
    if not keepdims:
        amax = lax.reshape(amax, aval_of(sumexp).shape)
    sign = ufuncs.sign(sumexp)
    if return_sign or not is_complex:  # (complex: the log of the complex sum)
        sumexp = ufuncs.abs(sumexp)
    out = ufuncs.add(ufuncs.log(sumexp), amax.astype(aval_of(sumexp).dtype))
    if return_sign:
        return out, sign
    if b is not None and not is_complex:
        out = mnp.where(ufuncs.less(sign, 0), mnp.full((), np.nan, aval.dtype), out)
    return out


# ---------------------------------------------------------------------------
# one_hot, standardize
# ---------------------------------------------------------------------------

def one_hot(x, num_classes, *, dtype=None, axis=-1):
    """x's indices encoded as vectors of length `num_classes` along `axis`
    (out-of-range indices give all zeros)."""
    num_classes = core.concretize(num_classes)
    if isinstance(num_classes, Tracer):
        raise errors.concretization(num_classes, "the num_classes argument of nn.one_hot")
    try:
        num_classes = operator.index(num_classes)
    except TypeError:
        raise TypeError(f"nn.one_hot: num_classes must be an integer, got "
                        f"{type(num_classes).__name__} (at {_where()})") from None
    if num_classes < 0:
        raise ValueError(f"nn.one_hot: num_classes must be non-negative, got {num_classes} "
                         f"(at {_where()})")
    # (JAX's one_hot takes any array-like, a list too: jnp.asarray(x).)
    x = mnp.asarray(x) if isinstance(x, (list, tuple)) else _arr("one_hot", x)
    aval = aval_of(x)
    if dtypes.is_bool(aval.dtype):  # (as JAX's, whose iota of x's dtype refuses bool)
        raise TypeError("nn.one_hot: iota does not accept dtype bool. Accepted dtypes are "
                        "subtypes of integer, floating, complexfloating.")
    dt = dtypes.default_float() if dtype is None else dtypes.canonicalize(dtype)
    if isinstance(axis, Tracer) or not isinstance(axis, (int, np.integer)):
        raise TypeError(f"nn.one_hot: axis must be an integer, got {axis!r} (at {_where()})")
    pos = _axes("one_hot", axis, aval.ndim + 1)[0]
    shape = aval.shape[:pos] + (1,) + aval.shape[pos:]
    lhs = lax.reshape(x, shape)
    rhs_shape = [1] * aval.ndim
    rhs_shape.insert(pos, num_classes)
    rhs = lax.broadcasted_iota(aval.dtype, tuple(rhs_shape), pos)
    return mnp.astype(ufuncs.equal(lhs, rhs), dt)


def standardize(x, axis=-1, mean=None, variance=None, epsilon=1e-5, where=None, *,
                algorithm="fast"):
    """(x - mean) / sqrt(variance + epsilon) along `axis`; the mean and the
    variance are computed (over the `where` elements) unless given."""
    name = "standardize"
    x = _arr(name, x)
    aval = aval_of(x)
    if algorithm not in ("fast", "stable"):
        raise ValueError(f"nn.standardize: unknown algorithm {algorithm!r}; expected 'fast' "
                         f"or 'stable' (at {_where()})")
    axes = _axes(name, axis, aval.ndim)

    def _mean(v):
        v = _inexact(name, v)
        if where is None:
            return reductions.mean(v, axis=axes, keepdims=True)
        mask = _mask(name, where, aval_of(v).shape)
        count = _sum(mnp.astype(mask, aval_of(v).dtype), axes, None)
        return ufuncs.divide(_sum(v, axes, mask), count)

    if mean is None:
        mean = _mean(x)
    else:
        mean = _arr(name, mean)
    if variance is None:
        if algorithm == "stable":
            variance = _mean(ufuncs.square(ufuncs.subtract(x, mean)))
        else:
            variance = ufuncs.subtract(_mean(ufuncs.square(x)), ufuncs.square(mean))
            variance = ufuncs.clip(variance, 0)
    else:
        variance = _arr(name, variance)
    var_eps = _inexact(name, ufuncs.add(variance, epsilon))
    return ufuncs.multiply(ufuncs.subtract(x, mean), lax.rsqrt(var_eps))


# ---------------------------------------------------------------------------
# The rest of jax.nn's activations (glu, hard_sigmoid, hard_silu, mish,
# soft_sign, squareplus, sparse_plus, sparse_sigmoid, log1mexp, logmeanexp)
# ---------------------------------------------------------------------------

def tanh(x):
    """Hyperbolic tangent (jax.nn.tanh is jax.numpy.tanh)."""
    return ufuncs.tanh(x)


def hard_sigmoid(x):
    """relu6(x + 3) / 6."""
    return relu6(_arr("hard_sigmoid", x) + 3.0) / 6.0


def hard_silu(x):
    """x * hard_sigmoid(x) (also hard_swish)."""
    x = _arr("hard_silu", x)
    return x * hard_sigmoid(x)



def glu(x, axis=-1):
    """Gated linear unit: the first half of `x` along `axis` times the
    sigmoid of the second half."""
    x = _arr("glu", x)
    aval = aval_of(x)
    if aval.ndim == 0:
        raise ValueError(f"nn.glu: the input must have at least one dimension (at {_where()})")
    n = aval.shape[axis]
    if n % 2:
        raise ValueError(f"nn.glu: axis {axis} of shape {aval.shape} must have an even size "
                         f"(at {_where()})")
    a, b = mnc.split(x, 2, axis=axis)
    return a * sigmoid(b)


# These six are written as JAX writes them, with no promotion of their own:
# integers and bools promote through the arithmetic (mlax's promotion is
# JAX's), so results' dtypes and weak types are JAX's too.
def mish(x):
    """x * tanh(softplus(x))."""
    x = _arr("mish", x)
    return x * ufuncs.tanh(softplus(x))


def soft_sign(x):
    """x / (|x| + 1)."""
    x = _arr("soft_sign", x)
    return x / (ufuncs.abs(x) + 1)


def squareplus(x, b=4):
    """(x + sqrt(x^2 + b)) / 2."""
    x, b = _arr("squareplus", x), _arr("squareplus", b)
    return (x + ufuncs.sqrt(ufuncs.square(x) + b)) / 2


def sparse_plus(x):
    """0 for x <= -1, x for x >= 1, (x + 1)^2 / 4 between."""
    x = _arr("sparse_plus", x)
    return mnp.where(x <= -1.0, 0.0, mnp.where(x >= 1.0, x, (x + 1.0) ** 2 / 4))


def sparse_sigmoid(x):
    """clip((x + 1) / 2, 0, 1)."""
    return 0.5 * ufuncs.clip(x + 1.0, 0.0, 2.0)


@autodiff.custom_jvp
def _log1mexp(x):
    c = ufuncs.log(2.0)
    return mnp.where(x < c, ufuncs.log(-ufuncs.expm1(-x)), ufuncs.log1p(-ufuncs.exp(-x)))


# JAX's rule, 1 / expm1(x): differentiating the where gave NaN below eps (the
# unused log1p(-exp(-x)) branch's infinite slope times a zero cotangent)
_log1mexp.defjvps(lambda g, ans, x: g / ufuncs.expm1(x))


def log1mexp(x):
    """log(1 - exp(-x)) for x > 0, computed stably (NaN for x < 0)."""
    return _log1mexp(_arr("log1mexp", x))


def logmeanexp(x, axis=None, where=None, keepdims=False):
    """log(mean(exp(x))) along `axis`, stably."""
    x = _inexact("logmeanexp", x)
    lse = logsumexp(x, axis=axis, where=where, keepdims=keepdims)
    aval = aval_of(x)
    axes = _axes("logmeanexp", axis, aval.ndim)
    if where is None:
        count = int(np.prod([aval.shape[a] for a in axes], dtype=np.int64))
        return lse - math.log(count) if count else lse - ufuncs.log(mnp.zeros((), aval.dtype))
    mask = mnp.broadcast_to(mnp.asarray(where), aval.shape)
    count = reductions.sum(mask.astype(aval.dtype), axis=tuple(axes), keepdims=keepdims)
    return lse - ufuncs.log(count)


# ---------------------------------------------------------------------------
# dot_product_attention
# ---------------------------------------------------------------------------

def _large_negative(dtype):
    return np.asarray(0.7 * float(dtypes.finfo(np.dtype(dtype)).min), dtype=np.dtype(dtype))


def dot_product_attention(query, key, value, bias=None, mask=None, *, scale=None,
                          is_causal=False, query_seq_lengths=None,
                          key_value_seq_lengths=None, local_window_size=None,
                          implementation=None, return_residual=False):
    """softmax(Q K^T * scale + bias, masked) V, as jax.nn.dot_product_attention.

    query: [B, T, N, H] (or [T, N, H]); key, value: [B, S, K, H] with K
    dividing N (grouped-query attention). bias and mask broadcast to
    [B, N, T, S]. The softmax runs in float32."""
    if implementation not in (None, "xla", "cudnn"):
        raise ValueError(f"Unsupported implementation option: {implementation}")
    if implementation == "cudnn":
        raise NotImplementedError(f"nn.dot_product_attention: implementation="
                                  f"{implementation!r} is not supported (mlax has 'xla')")
    if return_residual:
        raise NotImplementedError("nn.dot_product_attention: return_residual=True is not "
                                  "supported")
    q, k, v = (mnp.asarray(a) if not util._is_array(a) else a for a in (query, key, value))
    qa, ka, va = aval_of(q), aval_of(k), aval_of(v)
    unbatched = qa.ndim == 3
    if unbatched:
        q, k, v = (mnp.expand_dims(a, 0) for a in (q, k, v))
        qa, ka, va = aval_of(q), aval_of(k), aval_of(v)
    if qa.ndim != 4 or ka.ndim != 4 or va.ndim != 4:
        raise ValueError(f"nn.dot_product_attention: query, key and value must be 3-d or "
                         f"4-d ([B,] T, N, H); got {qa.shape}, {ka.shape}, {va.shape} "
                         f"(at {_where()})")
    B, T, N, H = qa.shape
    _, S, K, _ = ka.shape
    if ka.shape != va.shape or ka.shape[0] != B or ka.shape[3] != H or N % K:
        raise ValueError(f"nn.dot_product_attention: key {ka.shape} and value {va.shape} must "
                         f"be equal, with the query's batch {B} and head dim {H}, and a number "
                         f"of heads dividing the query's {N} (at {_where()})")
    if qa.dtype != ka.dtype or qa.dtype != va.dtype:
        raise ValueError(f"nn.dot_product_attention: query, key and value must have one "
                         f"dtype; got {qa.dtype}, {ka.dtype}, {va.dtype} (at {_where()})")
    if isinstance(local_window_size, int):
        local_window_size = (local_window_size, local_window_size)
    scale = 1.0 / math.sqrt(H) if scale is None else scale
    G = N // K
    qg = mnp.reshape(q, (B, T, K, G, H))
    logits = mnc.einsum("BTKGH,BSKH->BKGTS", qg, k, preferred_element_type=np.float32) \
        if _einsum_takes_pet() else mnc.einsum("BTKGH,BSKH->BKGTS", qg.astype(np.float32),
                                                k.astype(np.float32))
    logits = mnp.reshape(logits, (B, N, T, S)) * np.float32(scale)
    if bias is not None:
        b = mnp.asarray(bias) if not util._is_array(bias) else bias
        if aval_of(b).ndim == 3 and unbatched:
            b = mnp.expand_dims(b, 0)
        logits = (logits + b).astype(logits.dtype)
    big_neg = _large_negative(np.float32)
    combined = None
    if mask is not None:
        m = mnp.asarray(mask) if not util._is_array(mask) else mask
        if aval_of(m).dtype != dtypes.bool_:
            raise ValueError(f"nn.dot_product_attention: mask must be boolean, got "
                             f"{aval_of(m).dtype} (at {_where()})")
        if aval_of(m).ndim == 3 and unbatched:
            m = mnp.expand_dims(m, 0)
        combined = m
    if is_causal:
        causal = mnc.tril(mnp.ones((T, S), dtypes.bool_))
        combined = causal if combined is None else ufuncs.logical_and(combined, causal)
    if local_window_size is not None:
        # As JAX's _get_window_mask: query i sees keys j with
        # i - left <= j <= i + right.
        left, right = local_window_size
        qpos = array_creation.arange(T)[:, None]
        kpos = array_creation.arange(S)[None, :]
        window = ufuncs.logical_and(qpos >= kpos - right, qpos <= kpos + left)
        combined = window if combined is None else ufuncs.logical_and(combined, window)
    if query_seq_lengths is not None or key_value_seq_lengths is not None:
        qlen = mnp.full((B,), T, np.int32) if query_seq_lengths is None else \
            mnp.asarray(query_seq_lengths)
        kvlen = mnp.full((B,), S, np.int32) if key_value_seq_lengths is None else \
            mnp.asarray(key_value_seq_lengths)
        qmask = array_creation.arange(T)[None, :] < qlen[:, None]
        kmask = array_creation.arange(S)[None, :] < kvlen[:, None]
        pad = ufuncs.logical_and(qmask[:, None, :, None], kmask[:, None, None, :])
        combined = pad if combined is None else ufuncs.logical_and(combined, pad)
    if combined is not None:
        logits = mnp.where(combined, logits, big_neg)
    probs = softmax(logits.astype(np.float32), axis=-1).astype(ka.dtype)
    probs = mnp.reshape(probs, (B, K, G, T, S))
    out = mnc.einsum("BKGTS,BSKH->BTKGH", probs, v)
    out = mnp.reshape(out, (B, T, N, H))
    if query_seq_lengths is not None:  # padded query rows give 0, as JAX
        qvalid = array_creation.arange(T)[None, :] < mnp.asarray(query_seq_lengths)[:, None]
        out = mnp.where(qvalid[:, :, None, None], out, mnp.zeros((), aval_of(out).dtype))
    return out[0] if unbatched else out


def _einsum_takes_pet():
    import inspect

    return "preferred_element_type" in inspect.signature(mnc.einsum).parameters


# One jit dispatch each when called outside a trace, as jax.nn's are (JAX's
# static arguments; traced in place inside a trace).
identity = util._eager_jit(identity, ())
relu = util._eager_jit(relu, ())
squareplus = util._eager_jit(squareplus, ())
softplus = util._eager_jit(softplus, ())
sparse_plus = util._eager_jit(sparse_plus, ())
soft_sign = util._eager_jit(soft_sign, ())
sigmoid = util._eager_jit(sigmoid, ())
sparse_sigmoid = util._eager_jit(sparse_sigmoid, ())
silu = util._eager_jit(silu, ())
mish = util._eager_jit(mish, ())
log_sigmoid = util._eager_jit(log_sigmoid, ())
elu = util._eager_jit(elu, ())
leaky_relu = util._eager_jit(leaky_relu, ())
hard_tanh = util._eager_jit(hard_tanh, ())
celu = util._eager_jit(celu, ())
selu = util._eager_jit(selu, ())
gelu = util._eager_jit(gelu, ('approximate',))
glu = util._eager_jit(glu, ('axis',))
logmeanexp = util._eager_jit(logmeanexp, ('axis', 'keepdims'))
log_softmax = util._eager_jit(log_softmax, ('axis',))
softmax = util._eager_jit(softmax, ('axis',))
standardize = util._eager_jit(standardize, ('axis', 'algorithm'))
relu6 = util._eager_jit(relu6, ())
hard_sigmoid = util._eager_jit(hard_sigmoid, ())
hard_silu = util._eager_jit(hard_silu, ())
# (the aliases name the jitted functions: one dispatch, JAX arrays taken alike)
swish = silu
hard_swish = hard_silu
log1mexp = util._eager_jit(log1mexp, ())
# (also scipy.special.logsumexp: one dispatch here, though JAX runs it op by
# op; its first eager call compiled 14 programs before)
logsumexp = util._eager_jit(logsumexp, ('axis', 'keepdims', 'return_sign'))

"""More of mlax.nn: the remaining activations of jax.nn (glu, hard_sigmoid,
hard_silu, mish, soft_sign, squareplus, sparse_plus, sparse_sigmoid,
log1mexp, logmeanexp), dot_product_attention, and mlax.nn.initializers.
Definitions follow jax.nn's, so values (and, for initializers, the random
bits) match JAX's.
"""
from __future__ import annotations

import math

import numpy as np

from mlax._src.core import tracer as core
from mlax._src.base import dtypes
from mlax._src.lax import lax
from mlax._src.nn import functions as _nn
from mlax._src.numpy import manipulation as mnc
from mlax._src.numpy import lax_numpy as mnp
from mlax._src.core.primitives import aval_of


def _where():
    return core.user_location_str()


def tanh(x):
    """Hyperbolic tangent (jax.nn.tanh is jax.numpy.tanh)."""
    return mnp.tanh(x)


def hard_sigmoid(x):
    """relu6(x + 3) / 6."""
    return _nn.relu6(_nn._arr("hard_sigmoid", x) + 3.0) / 6.0


def hard_silu(x):
    """x * hard_sigmoid(x) (also hard_swish)."""
    x = _nn._arr("hard_silu", x)
    return x * hard_sigmoid(x)


hard_swish = hard_silu


def glu(x, axis=-1):
    """Gated linear unit: the first half of `x` along `axis` times the
    sigmoid of the second half."""
    x = _nn._arr("glu", x)
    aval = aval_of(x)
    if aval.ndim == 0:
        raise ValueError(f"nn.glu: the input must have at least one dimension (at {_where()})")
    n = aval.shape[axis]
    if n % 2:
        raise ValueError(f"nn.glu: axis {axis} of shape {aval.shape} must have an even size "
                         f"(at {_where()})")
    a, b = mnc.split(x, 2, axis=axis)
    return a * _nn.sigmoid(b)


def mish(x):
    """x * tanh(softplus(x))."""
    x = _nn._require_float("mish", x)
    return x * mnp.tanh(_nn.softplus(x))


def soft_sign(x):
    """x / (|x| + 1)."""
    x = _nn._require_float("soft_sign", x)
    return x / (mnp.abs(x) + 1)


def squareplus(x, b=4):
    """(x + sqrt(x^2 + b)) / 2."""
    x = _nn._require_float("squareplus", x)
    b = mnp.asarray(b, dtype=aval_of(x).dtype)
    return (x + mnp.sqrt(mnp.square(x) + b)) / 2


def sparse_plus(x):
    """0 for x <= -1, x for x >= 1, (x + 1)^2 / 4 between."""
    x = _nn._require_float("sparse_plus", x)
    return mnp.where(x <= -1.0, mnp.zeros_like(x),
                     mnp.where(x >= 1.0, x, mnp.square(x + 1) / 4))


def sparse_sigmoid(x):
    """clip((x + 1) / 2, 0, 1)."""
    x = _nn._require_float("sparse_sigmoid", x)
    return 0.5 * mnp.clip(x + 1.0, 0.0, 2.0)


def log1mexp(x):
    """log(1 - exp(-x)) for x > 0, computed stably (NaN for x < 0)."""
    x = _nn._require_float("log1mexp", x)
    c = math.log(2.0)
    return mnp.where(x < c, mnp.log(-mnp.expm1(-x)), mnp.log1p(-mnp.exp(-x)))


def logmeanexp(x, axis=None, where=None, keepdims=False):
    """log(mean(exp(x))) along `axis`, stably."""
    x = _nn._inexact("logmeanexp", x)
    lse = _nn.logsumexp(x, axis=axis, where=where, keepdims=keepdims)
    aval = aval_of(x)
    axes = _nn._axes("logmeanexp", axis, aval.ndim)
    if where is None:
        count = int(np.prod([aval.shape[a] for a in axes], dtype=np.int64))
        return lse - math.log(count) if count else lse - mnp.log(mnp.zeros((), aval.dtype))
    mask = mnp.broadcast_to(mnp.asarray(where), aval.shape)
    count = mnp.sum(mask.astype(aval.dtype), axis=tuple(axes), keepdims=keepdims)
    return lse - mnp.log(count)


# ---------------------------------------------------------------------------
# dot_product_attention
# ---------------------------------------------------------------------------

def _large_negative(dtype):
    return np.asarray(0.7 * float(np.finfo(np.dtype(dtype)).min), dtype=np.dtype(dtype))


def dot_product_attention(query, key, value, bias=None, mask=None, *, scale=None,
                          is_causal=False, query_seq_lengths=None,
                          key_value_seq_lengths=None, local_window_size=None,
                          implementation=None, return_residual=False):
    """softmax(Q K^T * scale + bias, masked) V, as jax.nn.dot_product_attention.

    query: [B, T, N, H] (or [T, N, H]); key, value: [B, S, K, H] with K
    dividing N (grouped-query attention). bias and mask broadcast to
    [B, N, T, S]. The softmax runs in float32."""
    if implementation not in (None, "xla"):
        raise NotImplementedError(f"nn.dot_product_attention: implementation="
                                  f"{implementation!r} is not supported (mlax has 'xla')")
    if return_residual:
        raise NotImplementedError("nn.dot_product_attention: return_residual=True is not "
                                  "supported")
    q, k, v = (mnp.asarray(a) if not mnp._is_array(a) else a for a in (query, key, value))
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
    if local_window_size is not None:
        raise NotImplementedError("nn.dot_product_attention: local_window_size is not "
                                  "supported")
    scale = 1.0 / math.sqrt(H) if scale is None else scale
    G = N // K
    qg = mnp.reshape(q, (B, T, K, G, H))
    logits = mnc.einsum("BTKGH,BSKH->BKGTS", qg, k, preferred_element_type=np.float32) \
        if _einsum_takes_pet() else mnc.einsum("BTKGH,BSKH->BKGTS", qg.astype(np.float32),
                                                k.astype(np.float32))
    logits = mnp.reshape(logits, (B, N, T, S)) * np.float32(scale)
    if bias is not None:
        b = mnp.asarray(bias) if not mnp._is_array(bias) else bias
        if aval_of(b).ndim == 3 and unbatched:
            b = mnp.expand_dims(b, 0)
        logits = (logits + b).astype(logits.dtype)
    big_neg = _large_negative(np.float32)
    combined = None
    if mask is not None:
        m = mnp.asarray(mask) if not mnp._is_array(mask) else mask
        if aval_of(m).dtype != dtypes.bool_:
            raise ValueError(f"nn.dot_product_attention: mask must be boolean, got "
                             f"{aval_of(m).dtype} (at {_where()})")
        if aval_of(m).ndim == 3 and unbatched:
            m = mnp.expand_dims(m, 0)
        combined = m
    if is_causal:
        causal = mnc.tril(mnp.ones((T, S), dtypes.bool_))
        combined = causal if combined is None else mnp.logical_and(combined, causal)
    if query_seq_lengths is not None or key_value_seq_lengths is not None:
        qlen = mnp.full((B,), T, np.int32) if query_seq_lengths is None else \
            mnp.asarray(query_seq_lengths)
        kvlen = mnp.full((B,), S, np.int32) if key_value_seq_lengths is None else \
            mnp.asarray(key_value_seq_lengths)
        qmask = mnp.arange(T)[None, :] < qlen[:, None]
        kmask = mnp.arange(S)[None, :] < kvlen[:, None]
        pad = mnp.logical_and(qmask[:, None, :, None], kmask[:, None, None, :])
        combined = pad if combined is None else mnp.logical_and(combined, pad)
    if combined is not None:
        logits = mnp.where(combined, logits, big_neg)
    probs = _nn.softmax(logits.astype(np.float32), axis=-1).astype(ka.dtype)
    probs = mnp.reshape(probs, (B, K, G, T, S))
    out = mnc.einsum("BKGTS,BSKH->BTKGH", probs, v)
    out = mnp.reshape(out, (B, T, N, H))
    if query_seq_lengths is not None:  # padded query rows give 0, as JAX
        qvalid = mnp.arange(T)[None, :] < mnp.asarray(query_seq_lengths)[:, None]
        out = mnp.where(qvalid[:, :, None, None], out, mnp.zeros((), aval_of(out).dtype))
    return out[0] if unbatched else out


def _einsum_takes_pet():
    import inspect

    return "preferred_element_type" in inspect.signature(mnc.einsum).parameters


# ---------------------------------------------------------------------------
# mlax.nn.initializers
# ---------------------------------------------------------------------------

def _init_dtype(dtype):
    return dtypes.default_float() if dtype is None else dtypes.canonicalize(dtype)


def _shape(shape):
    return (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(int(d) for d in shape)


def init_zeros(key, shape, dtype=None, out_sharding=None):
    return mnp.zeros(_shape(shape), _init_dtype(dtype))


def init_ones(key, shape, dtype=None, out_sharding=None):
    return mnp.ones(_shape(shape), _init_dtype(dtype))


def constant(value, dtype=None):
    def init(key, shape, dtype=dtype, out_sharding=None):
        return mnp.full(_shape(shape), value, _init_dtype(dtype))
    return init


def uniform(scale=1e-2, dtype=None):
    from mlax._src.random import prng as random

    def init(key, shape, dtype=dtype, out_sharding=None):
        dt = _init_dtype(dtype)
        return random.uniform(key, _shape(shape), dt) * mnp.asarray(scale, dtype=dt)
    return init


def normal(stddev=1e-2, dtype=None):
    from mlax._src.random import prng as random

    def init(key, shape, dtype=dtype, out_sharding=None):
        dt = _init_dtype(dtype)
        return random.normal(key, _shape(shape), dt) * mnp.asarray(stddev, dtype=dt)
    return init


def truncated_normal(stddev=1e-2, dtype=None, lower=-2.0, upper=2.0):
    from mlax._src.random import prng as random

    def init(key, shape, dtype=dtype, out_sharding=None):
        dt = _init_dtype(dtype)
        return random.truncated_normal(key, lower, upper, _shape(shape), dt) * \
            mnp.asarray(stddev, dtype=dt)
    return init


def _compute_fans(shape, in_axis=-2, out_axis=-1, batch_axis=()):
    if isinstance(in_axis, int) and in_axis == -2 and len(shape) <= 1:
        raise ValueError(f"Can't compute input and output sizes of a {len(shape)}-dimensional "
                         "weights tensor with default in_axis. Must be at least 2D or specify "
                         "in_axis explicitly.")

    def size(axes):
        return shape[axes] if isinstance(axes, int) else math.prod([shape[i] for i in axes])

    in_size, out_size, batch_size = size(in_axis), size(out_axis), size(batch_axis)
    receptive = math.prod(shape) / in_size / out_size / batch_size
    return in_size * receptive, out_size * receptive


def variance_scaling(scale, mode, distribution, in_axis=-2, out_axis=-1, batch_axis=(),
                     dtype=None):
    """Samples with variance scale / n, n from the weight shape's fans (as
    jax.nn.initializers.variance_scaling; real dtypes)."""
    from mlax._src.random import prng as random

    if distribution not in ("truncated_normal", "normal", "uniform"):
        raise ValueError(f"invalid distribution for variance scaling initializer: "
                         f"{distribution}")
    if mode not in ("fan_in", "fan_out", "fan_avg", "fan_geo_avg"):
        raise ValueError(f"invalid mode for variance scaling initializer: {mode}")

    def init(key, shape, dtype=dtype, out_sharding=None):
        shape = _shape(shape)
        dt = _init_dtype(dtype)
        if dtypes.is_complex(dt):
            raise NotImplementedError("nn.initializers.variance_scaling: complex dtypes are "
                                      "not supported")
        fan_in, fan_out = _compute_fans(shape, in_axis, out_axis, batch_axis)
        denominator = {"fan_in": fan_in, "fan_out": fan_out,
                       "fan_avg": (fan_in + fan_out) / 2,
                       "fan_geo_avg": (fan_in * fan_out) ** 0.5}[mode]
        variance = mnp.asarray(scale / denominator, dtype=dt)
        if distribution == "truncated_normal":
            stddev = mnp.sqrt(variance) / mnp.asarray(.87962566103423978, dtype=dt)
            return random.truncated_normal(key, -2, 2, shape, dt) * stddev
        if distribution == "normal":
            return random.normal(key, shape, dt) * mnp.sqrt(variance)
        return random.uniform(key, shape, dt, -1) * mnp.sqrt(3 * variance)
    return init


def _vs(scale, mode, distribution):
    def make(in_axis=-2, out_axis=-1, batch_axis=(), dtype=None):
        return variance_scaling(scale, mode, distribution, in_axis=in_axis,
                                out_axis=out_axis, batch_axis=batch_axis, dtype=dtype)
    return make


glorot_uniform = _vs(1.0, "fan_avg", "uniform")
glorot_normal = _vs(1.0, "fan_avg", "truncated_normal")
lecun_uniform = _vs(1.0, "fan_in", "uniform")
lecun_normal = _vs(1.0, "fan_in", "truncated_normal")
he_uniform = _vs(2.0, "fan_in", "uniform")
he_normal = _vs(2.0, "fan_in", "truncated_normal")
for _n, _f in (("glorot_uniform", glorot_uniform), ("glorot_normal", glorot_normal),
               ("lecun_uniform", lecun_uniform), ("lecun_normal", lecun_normal),
               ("he_uniform", he_uniform), ("he_normal", he_normal)):
    _f.__name__ = _f.__qualname__ = _n
del _n, _f

"""mlax.nn.initializers: jax.nn.initializers' functions, whose values (and
random bits) match JAX's.
"""
from __future__ import annotations

import math
from typing import Protocol

import numpy as np

from mlax._src.base import dtypes
from mlax._src.numpy import lax_numpy as mnp
from mlax._src.numpy import ufuncs


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


def _complex_uniform(key, shape, dtype):
    """As JAX's: uniform in the disk of the complex plane of unit variance."""
    from mlax._src.random import prng as random

    key_r, key_theta = random.split(key)
    real_dtype = np.zeros((), dtype).real.dtype
    r = ufuncs.sqrt(2 * random.uniform(key_r, shape, real_dtype)).astype(dtype)
    theta = 2 * np.pi * random.uniform(key_theta, shape, real_dtype).astype(dtype)
    return r * ufuncs.exp(1j * theta)


def _complex_truncated_normal(key, upper, shape, dtype):
    """As JAX's: the complex normal of unit variance, its modulus truncated
    to `upper`."""
    from mlax._src.random import prng as random

    key_r, key_theta = random.split(key)
    real_dtype = np.zeros((), dtype).real.dtype
    t = ((1 - ufuncs.exp(mnp.array(-(upper ** 2), dtype)))
         * random.uniform(key_r, shape, real_dtype).astype(dtype))
    r = ufuncs.sqrt(-ufuncs.log(1 - t))
    theta = 2 * np.pi * random.uniform(key_theta, shape, real_dtype).astype(dtype)
    return r * ufuncs.exp(1j * theta)


def variance_scaling(scale, mode, distribution, in_axis=-2, out_axis=-1, batch_axis=(),
                     dtype=None):
    """Samples with variance scale / n, n from the weight shape's fans (as
    jax.nn.initializers.variance_scaling; complex dtypes draw JAX's complex
    uniform disk and modulus-truncated complex normal)."""
    from mlax._src.random import prng as random

    if distribution not in ("truncated_normal", "normal", "uniform"):
        raise ValueError(f"invalid distribution for variance scaling initializer: "
                         f"{distribution}")
    if mode not in ("fan_in", "fan_out", "fan_avg", "fan_geo_avg"):
        raise ValueError(f"invalid mode for variance scaling initializer: {mode}")

    def init(key, shape, dtype=dtype, out_sharding=None):
        shape = _shape(shape)
        dt = _init_dtype(dtype)
        fan_in, fan_out = _compute_fans(shape, in_axis, out_axis, batch_axis)
        denominator = {"fan_in": fan_in, "fan_out": fan_out,
                       "fan_avg": (fan_in + fan_out) / 2,
                       "fan_geo_avg": (fan_in * fan_out) ** 0.5}[mode]
        variance = mnp.asarray(scale / denominator, dtype=dt)
        if distribution == "truncated_normal":
            if dtypes.is_complex(dt):
                # (the stddev of the complex standard normal truncated to 2)
                stddev = ufuncs.sqrt(variance) / mnp.asarray(.95311164380491208, dtype=dt)
                return _complex_truncated_normal(key, 2, shape, dt) * stddev
            stddev = ufuncs.sqrt(variance) / mnp.asarray(.87962566103423978, dtype=dt)
            return random.truncated_normal(key, -2, 2, shape, dt) * stddev
        if distribution == "normal":
            return random.normal(key, shape, dt) * ufuncs.sqrt(variance)
        if dtypes.is_complex(dt):
            return _complex_uniform(key, shape, dt) * ufuncs.sqrt(variance)
        return random.uniform(key, shape, dt, -1) * ufuncs.sqrt(3 * variance)
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


class Initializer(Protocol):
    """What the initializers return: init(key, shape, dtype=None,
    out_sharding=None) -> Array (jax.nn.initializers.Initializer)."""

    def __call__(self, key, shape, dtype=None, out_sharding=None):
        raise NotImplementedError


def orthogonal(scale=1.0, column_axis=-1, dtype=None):
    """Weights whose columns (along column_axis) are orthonormal, times scale."""
    from mlax._src.numpy.statistics import moveaxis
    from mlax._src.random import distributions

    def init(key, shape, dtype=dtype, out_sharding=None):
        if out_sharding is not None:
            raise NotImplementedError
        dt = _init_dtype(dtype)
        shape = _shape(shape)
        if len(shape) < 2:
            raise ValueError("orthogonal initializer requires at least a 2D shape")
        if any(d == 0 for d in shape):
            return mnp.zeros(shape, dt)
        n_rows, n_cols = math.prod(shape) // shape[column_axis], shape[column_axis]
        q = distributions.orthogonal(key, n_rows, (), dt, n_cols)
        q = mnp.reshape(q, tuple(np.delete(shape, column_axis)) + (shape[column_axis],))
        q = moveaxis(q, -1, column_axis)
        return mnp.asarray(scale, dtype=dt) * q
    return init


def delta_orthogonal(scale=1.0, column_axis=-1, dtype=None):
    """Convolution kernels (3-D to 5-D) that are zero except at the spatial
    centre, where they hold an orthogonal matrix (Xiao et al. 2018)."""
    def init(key, shape, dtype=dtype, out_sharding=None):
        if out_sharding is not None:
            raise NotImplementedError
        dt = _init_dtype(dtype)
        shape = _shape(shape)
        if len(shape) not in (3, 4, 5):
            raise ValueError("Delta orthogonal initializer requires a 3D, 4D or 5D shape.")
        if shape[-1] < shape[-2]:
            raise ValueError("`fan_in` must be less or equal than `fan_out`. ")
        ortho = orthogonal(scale=scale, column_axis=column_axis, dtype=dt)(key, shape[-2:])
        centre = tuple((k - 1) // 2 for k in shape[:-2])
        return mnp.zeros(shape, dt).at[centre].set(ortho)
    return init

"""jax.random's distributions beyond the basic ones, bit for bit as JAX: the transforms of uniform,
normal and exponential (cauchy, laplace, logistic, pareto, rademacher,
rayleigh, maxwell, double_sided_maxwell, lognormal, geometric, triangular,
weibull_min, wald) and the gamma family (gamma, loggamma, beta, dirichlet,
chisquare, f, t, generalized_normal, ball).

Each sampler reproduces JAX's formula with the same op order and dtype
handling (bit-exactness depends on it), is jitted as JAX's is, and works
eagerly, under `mlax.jit` and under `mlax.vmap` over keys.
"""
from __future__ import annotations

import operator

import numpy as np

from mlax._src.base import dtypes
from mlax._src.base import errors
from mlax._src.transforms import autodiff
from mlax._src.lax import lax
from mlax._src.lax import special as lax_special
from mlax._src.numpy import lax_numpy as mnp
from mlax._src.core.tracer import Tracer, concretize
from mlax._src.core.primitives import aval_of
from mlax._src.random.prng import (
    _THREEFRY, _canonicalize_shape, _check_key, _check_shape, _const, _finfo, _float_dtype, _jit,
    _normal_impl, _normal_real, _split_key, _uniform_impl, clone)
from mlax._src.numpy import reductions
from mlax._src.numpy import ufuncs
from mlax._src.numpy import util


class TypePromotionError(ValueError):
    """As jax's dtypes.TypePromotionError."""


# ---------------------------------------------------------------------------
# Argument checks (JAX's _check_broadcast_shapes / _check_all_safe_to_cast)
# ---------------------------------------------------------------------------

def _shape_of(x):
    return tuple(aval_of(x).shape)


def _broadcast_shapes(name, shape, *args):
    arg_shapes = [_shape_of(a) for a in args]
    if shape is None:
        if not arg_shapes:
            return ()
        try:
            return tuple(util.broadcast_shapes(*arg_shapes))
        except ValueError:
            raise ValueError(f"{name}: incompatible shapes for broadcasting: "
                             f"{', '.join(map(str, arg_shapes))}") from None
    shape = _canonicalize_shape(shape, name)
    _check_shape(name, shape, *arg_shapes)
    return shape


def _typed(x):
    if dtypes.is_python_scalar(x):
        return dtypes.scalar_type_of(x)
    aval = aval_of(x)
    return aval.dtype, aval.weak_type


def _check_safe_to_cast(name, dtype, *args):
    for a in args:
        src = _typed(a)
        if dtypes.result_type(src, (dtype, False))[0] != dtype:
            raise TypePromotionError(f"In arguments to {name}, cannot safely cast argument "
                                     f"of type {dtypes.canonicalize(src[0])} to {dtype}")


def _check_params(name, *args):
    for a in args:
        util._check_arg(name, a)


def _float_kind_dtype(dtype, name):
    """JAX's `dtype` check for float samplers (ValueError naming `name`)."""
    return _float_dtype(dtype, name)


def _int_dtype(dtype):
    return dtypes.default_int() if dtype is None else dtypes.canonicalize(dtype)


def _cvt(x, dtype):
    return lax.convert_element_type(x, dtype)


def _bcast(x, shape):
    return x if _shape_of(x) == tuple(shape) else mnp.broadcast_to(x, shape)


# ---------------------------------------------------------------------------
# Transforms of uniform / normal / exponential
# ---------------------------------------------------------------------------

@_jit(static_argnums=(1, 2))
def _cauchy_jit(key, shape, dtype):
    _check_shape("cauchy", shape)
    u = _uniform_impl(key, np.asarray(_finfo(dtype).eps, dtype), 1.0, shape, dtype)
    pi = lax.full(shape, np.pi, dtype)
    return lax.tan(lax.mul(pi, lax.sub(u, lax.full(shape, 0.5, dtype))))


def cauchy(key, shape=(), dtype=None):
    """Standard Cauchy floats."""
    typed_key, _ = _check_key("cauchy", key)
    dtype = _float_kind_dtype(dtype, "cauchy")
    shape = _canonicalize_shape(shape, "cauchy")
    return _cauchy_jit(typed_key, shape, dtype)


@_jit(static_argnums=(1, 2))
def _laplace_jit(key, shape, dtype):
    _check_shape("laplace", shape)
    lo = np.asarray(-1.0 + _finfo(dtype).epsneg, dtype)
    u = _uniform_impl(key, lo, 1.0, shape, dtype)
    return lax.mul(lax.sign(u), lax.log1p(lax.neg(lax.abs(u))))


def laplace(key, shape=(), dtype=None):
    """Standard Laplace floats."""
    typed_key, _ = _check_key("laplace", key)
    dtype = _float_kind_dtype(dtype, "laplace")
    shape = _canonicalize_shape(shape, "laplace")
    return _laplace_jit(typed_key, shape, dtype)


@_jit(static_argnums=(1, 2))
def _logistic_jit(key, shape, dtype):
    _check_shape("logistic", shape)
    x = _uniform_impl(key, np.asarray(_finfo(dtype).tiny, dtype), 1.0, shape, dtype)
    return lax.sub(lax.log(x), lax.log1p(lax.neg(x)))


def logistic(key, shape=(), dtype=None):
    """Standard logistic floats."""
    typed_key, _ = _check_key("logistic", key)
    dtype = _float_kind_dtype(dtype, "logistic")
    shape = _canonicalize_shape(shape, "logistic")
    return _logistic_jit(typed_key, shape, dtype)


def _exponential_impl(key, shape, dtype):
    u = _uniform_impl(key, 0.0, 1.0, shape, dtype)
    return lax.neg(lax.log1p(lax.neg(u)))


@_jit(static_argnums=(2, 3))
def _pareto_jit(key, b, shape, dtype):
    b = _cvt(b, dtype)
    e = _exponential_impl(key, shape, dtype)
    return lax.exp(ufuncs.divide(e, b))


def pareto(key, b, shape=None, dtype=None):
    """Pareto floats with shape parameter b."""
    typed_key, _ = _check_key("pareto", key)
    dtype = _float_kind_dtype(dtype, "pareto")
    _check_params("pareto", b)
    shape = _broadcast_shapes("pareto", shape, b)
    _check_safe_to_cast("pareto", dtype, b)
    return _pareto_jit(typed_key, b, shape, dtype)


def _bernoulli_half(key, shape):
    # bernoulli(key, p=0.5, shape): p is a weakly typed default float.
    u = _uniform_impl(key, 0.0, 1.0, shape, dtypes.default_float())
    return ufuncs.less(u, 0.5)


def _rademacher_impl(key, shape, dtype):
    b = mnp.astype(_bernoulli_half(key, shape), dtype)
    return mnp.astype(ufuncs.subtract(ufuncs.multiply(2, b), 1), dtype)


_rademacher_jit = _jit(static_argnums=(1, 2))(_rademacher_impl)


def rademacher(key, shape=(), dtype=None):
    """Uniform random signs, -1 or 1, of `dtype` (default int)."""
    typed_key, _ = _check_key("rademacher", key)
    dtype = _int_dtype(dtype)
    shape = _canonicalize_shape(shape, "rademacher")
    return _rademacher_jit(typed_key, shape, dtype)


@_jit(static_argnums=(2, 3))
def _rayleigh_jit(key, scale, shape, dtype):
    u = _uniform_impl(key, 0.0, 1.0, shape, dtype)
    scale = _bcast(_cvt(scale, dtype), shape)
    log_u = lax.log(u)
    n_two = lax.full(shape, -2, dtype)
    return lax.mul(scale, lax.sqrt(lax.mul(log_u, n_two)))


def rayleigh(key, scale, shape=None, dtype=None):
    """Rayleigh floats with the given scale."""
    typed_key, _ = _check_key("rayleigh", key)
    dtype = _float_kind_dtype(dtype, "rayleigh")
    _check_params("rayleigh", scale)
    shape = _broadcast_shapes("rayleigh", shape, scale)
    _check_safe_to_cast("rayleigh", dtype, scale)
    return _rayleigh_jit(typed_key, scale, shape, dtype)


def _norm_last(x):
    """jnp.linalg.norm(x, axis=-1): sqrt(sum(x * x)), the sum in float32 for
    16-bit floats (as jnp.sum upcasts them)."""
    dtype = aval_of(x).dtype
    sq = lax.mul(x, x)
    nd = aval_of(x).ndim
    if dtype.itemsize < 4:
        s = _cvt(lax.reduce_sum(_cvt(sq, dtypes.float32), (nd - 1,)), dtype)
    else:
        s = lax.reduce_sum(sq, (nd - 1,))
    return lax.sqrt(s)


def _maxwell_impl(key, shape, dtype):
    return _norm_last(_normal_real(key, tuple(shape) + (3,), dtype))


_maxwell_jit = _jit(static_argnums=(1, 2))(_maxwell_impl)


def maxwell(key, shape=(), dtype=None):
    """One-sided Maxwell floats."""
    typed_key, _ = _check_key("maxwell", key)
    dtype = _float_kind_dtype(dtype, "maxwell")
    shape = _canonicalize_shape(shape, "maxwell")
    return _maxwell_jit(typed_key, shape, dtype)


@_jit(static_argnums=(3, 4))
def _double_sided_maxwell_jit(key, loc, scale, shape, dtype):
    params_shapes = tuple(util.broadcast_shapes(_shape_of(loc), _shape_of(scale)))
    if not shape:
        shape = params_shapes
    shape = tuple(shape) + params_shapes
    keys = _split_key(key, (2,))
    maxwell_rvs = _maxwell_impl(keys[0], shape, dtype)
    random_sign = _rademacher_impl(keys[1], shape, dtype)
    return ufuncs.add(ufuncs.multiply(ufuncs.multiply(random_sign, maxwell_rvs), scale), loc)


def double_sided_maxwell(key, loc, scale, shape=(), dtype=None):
    """Double-sided Maxwell floats with the given location and scale."""
    typed_key, _ = _check_key("double_sided_maxwell", key)
    dtype = _float_kind_dtype(dtype, "double_sided_maxwell")
    shape = _canonicalize_shape(shape, "double_sided_maxwell")
    _check_params("double_sided_maxwell", loc, scale)
    try:
        util.broadcast_shapes(_shape_of(loc), _shape_of(scale))
    except ValueError:
        raise ValueError(f"double_sided_maxwell: incompatible shapes for broadcasting: "
                         f"{_shape_of(loc)}, {_shape_of(scale)}") from None
    return _double_sided_maxwell_jit(typed_key, loc, scale, shape, dtype)


@_jit(static_argnums=(3, 4))
def _weibull_min_jit(key, scale, concentration, shape, dtype):
    u = _uniform_impl(key, 0, 1, shape, dtype)
    x = ufuncs.negative(lax.log1p(ufuncs.negative(u)))
    return ufuncs.multiply(ufuncs.power(x, ufuncs.divide(1.0, concentration)), scale)


def weibull_min(key, scale, concentration, shape=(), dtype=None):
    """Weibull floats with the given scale and concentration."""
    typed_key, _ = _check_key("weibull_min", key)
    dtype = _float_kind_dtype(dtype, "weibull_min")
    shape = _canonicalize_shape(shape, "weibull_min")
    _check_params("weibull_min", scale, concentration)
    return _weibull_min_jit(typed_key, scale, concentration, shape, dtype)


@_jit(static_argnums=(2, 3))
def _lognormal_jit(key, sigma, shape, dtype):
    sigma = _cvt(sigma, dtype)
    return lax.exp(ufuncs.multiply(_normal_impl(key, shape, dtype), sigma))


def lognormal(key, sigma=np.float32(1), shape=None, dtype=None):
    """Lognormal floats: exp(sigma * normal)."""
    typed_key, _ = _check_key("lognormal", key)
    dt = dtypes.default_float() if dtype is None else dtypes.canonicalize(dtype)
    if not dtypes.is_inexact(dt):
        raise ValueError(f"dtype argument to `lognormal` must be a float or complex dtype, "
                         f"got {dt}")
    _check_params("lognormal", sigma)
    shape = _broadcast_shapes("lognormal", shape, sigma)
    _check_safe_to_cast("lognormal", dt, sigma)
    return _lognormal_jit(typed_key, sigma, shape, dt)


@_jit(static_argnums=(2, 3))
def _geometric_jit(key, p, shape, dtype):
    p, = util._promote_inexact("geometric", p)
    p = mnp.asarray(p)
    u = _uniform_impl(key, 0.0, 1.0, shape, aval_of(p).dtype)
    u = mnp.where(ufuncs.equal(u, 0), 1, u)
    log_u = lax.log(u)
    log_one_minus_p = _bcast(lax.log1p(ufuncs.negative(p)), shape)
    g = ufuncs.add(lax.floor(ufuncs.divide(log_u, log_one_minus_p)), 1)
    return mnp.astype(g, dtype)


def geometric(key, p, shape=None, dtype=None):
    """Geometric integers: the number of trials up to the first success."""
    typed_key, _ = _check_key("geometric", key)
    dtype = _int_dtype(dtype)
    if not dtypes.is_int(dtype):
        raise ValueError(f"dtype argument to `geometric` must be an int dtype, got {dtype}")
    _check_params("geometric", p)
    shape = _broadcast_shapes("geometric", shape, p)
    return _geometric_jit(typed_key, p, shape, dtype)


@_jit(static_argnums=(4, 5))
def _triangular_jit(key, left, mode, right, shape, dtype):
    left = _bcast(_cvt(left, dtype), shape)
    right = _bcast(_cvt(right, dtype), shape)
    mode = _bcast(_cvt(mode, dtype), shape)
    fc = ufuncs.divide(ufuncs.subtract(mode, left), ufuncs.subtract(right, left))
    u = _uniform_impl(key, 0.0, 1.0, shape, dtype)
    out1 = ufuncs.add(left, lax.sqrt(ufuncs.multiply(ufuncs.multiply(u, ufuncs.subtract(right, left)),
                                               ufuncs.subtract(mode, left))))
    out2 = ufuncs.subtract(right, lax.sqrt(
        ufuncs.multiply(ufuncs.multiply(ufuncs.subtract(1, u), ufuncs.subtract(right, left)),
                     ufuncs.subtract(right, mode))))
    return lax.select(ufuncs.less(u, fc), out1, out2)


def triangular(key, left, mode, right, shape=None, dtype=None):
    """Triangular floats on [left, right] peaking at mode."""
    typed_key, _ = _check_key("triangular", key)
    dtype = _float_kind_dtype(dtype, "triangular")
    _check_params("triangular", left, mode, right)
    shape = _broadcast_shapes("triangular", shape, left, mode, right)
    _check_safe_to_cast("triangular", dtype, left, mode, right)
    return _triangular_jit(typed_key, left, mode, right, shape, dtype)


@_jit(static_argnums=(2, 3))
def _wald_jit(key, mean, shape, dtype):
    keys = _split_key(key, (2,))
    mean = _bcast(mnp.astype(mean, dtype), shape)
    v = _normal_real(keys[0], shape, dtype)
    z = _uniform_impl(keys[1], 0.0, 1.0, shape, dtype)
    y = lax.mul(v, v)
    y_sq = lax.mul(y, y)
    mean_sq = lax.mul(mean, mean)
    sqrt_term = lax.sqrt(ufuncs.add(ufuncs.multiply(ufuncs.multiply(4, mean), y),
                                 ufuncs.multiply(mean_sq, y_sq)))
    x = ufuncs.subtract(ufuncs.add(mean, ufuncs.divide(ufuncs.multiply(mean_sq, y), 2)),
                     ufuncs.multiply(ufuncs.divide(mean, 2), sqrt_term))
    return lax.select(lax.le(z, ufuncs.divide(mean, ufuncs.add(mean, x))), x,
                      ufuncs.divide(mean_sq, x))


def wald(key, mean, shape=None, dtype=None):
    """Wald (inverse Gaussian) floats with the given mean."""
    typed_key, _ = _check_key("wald", key)
    dtype = _float_kind_dtype(dtype, "wald")
    _check_params("wald", mean)
    shape = _broadcast_shapes("wald", shape, mean)
    _check_safe_to_cast("wald", dtype, mean)
    return _wald_jit(typed_key, mean, shape, dtype)


# ---------------------------------------------------------------------------
# The gamma family: Marsaglia-Tsang, one while loop per element (vmapped),
# as JAX's random_gamma lowering (use_vmap=True)
# ---------------------------------------------------------------------------

def _gamma_one(key, alpha, log_space):
    from mlax._src.lax.control_flow import while_loop

    dtype = aval_of(alpha).dtype
    c_ = lambda v: _const(v, dtype)  # noqa: E731
    zero, one, minus_one = c_(0), c_(1), c_(-1)
    one_over_two, one_over_three, squeeze_const = c_(0.5), c_(1. / 3.), c_(0.0331)

    boost_mask = lax.ge(alpha, one)
    alpha_orig = alpha
    alpha = lax.select(boost_mask, alpha, lax.add(alpha, one))
    d = lax.sub(alpha, one_over_three)
    c = lax.div(one_over_three, lax.sqrt(d))

    def cond_fn(kxvu):
        _, X, V, U = kxvu
        return lax.bitwise_and(
            lax.ge(U, lax.sub(one, lax.mul(squeeze_const, lax.mul(X, X)))),
            lax.ge(lax.log(U), lax.add(lax.mul(X, one_over_two),
                                       lax.mul(d, lax.add(lax.sub(one, V), lax.log(V))))))

    def body_fn(kxvu):
        def next_kxv(kxv):
            keys = _split_key(kxv[0], (2,))
            x = _normal_real(keys[1], (), dtype)
            return keys[0], x, lax.add(one, lax.mul(x, c))

        keys = _split_key(kxvu[0], (3,))
        _, x, v = while_loop(lambda kxv: lax.le(kxv[2], zero), next_kxv,
                             (keys[1], zero, minus_one))
        X = lax.mul(x, x)
        V = lax.mul(lax.mul(v, v), v)
        U = _uniform_impl(keys[2], 0.0, 1.0, (), dtype)
        return keys[0], X, V, U

    keys = _split_key(key, (2,))
    _, _, V, _ = while_loop(cond_fn, body_fn, (keys[0], zero, one, c_(2)))
    subkey = keys[1]
    if log_space:
        log_samples = lax.neg(_exponential_impl(subkey, (), dtype))
        log_boost = lax.select(lax.bitwise_or(boost_mask, lax.eq(log_samples, zero)), zero,
                               lax.mul(log_samples, lax.div(one, alpha_orig)))
        return lax.add(lax.add(lax.log(d), lax.log(V)), log_boost)
    samples = lax.sub(one, _uniform_impl(subkey, 0.0, 1.0, (), dtype))
    boost = lax.select(boost_mask, one, lax.pow(samples, lax.div(one, alpha_orig)))
    return lax.mul(lax.mul(d, V), boost)


def _gamma_impl(key, a, shape, dtype, log_space):
    from mlax._src.lax.control_flow import map as lax_map
    from mlax._src.transforms.vmap import vmap

    if shape is None:
        shape = _shape_of(a)
    else:
        _check_shape("gamma", shape, _shape_of(a))
    shape = tuple(shape)
    a = _cvt(a, dtype)
    a = _bcast(a, shape)
    n = int(np.prod(shape, dtype=np.int64))
    if n == 0:
        return lax.full(shape, 0, dtype)
    keys = _split_key(key, (n,))

    # JAX's random_gamma_p is differentiable in a (implicit
    # reparameterization: d sample / d a = random_gamma_grad(a, sample));
    # the rejection loops themselves are not.
    def draw(keys, alphas):
        if key._impl is _THREEFRY:
            return vmap(lambda k, al: _gamma_one(k, al, log_space))(keys, alphas)
        # As JAX: a loop, since a vmapped rng_bit_generator draws every
        # row from the batch's first key.
        return lax_map(lambda args: _gamma_one(*args, log_space), (keys, alphas))

    draw = autodiff.custom_jvp(draw)

    @draw.defjvp
    def _draw_jvp(primals, tangents):
        (keys, alphas), (_, t) = primals, tangents
        ans = draw(keys, alphas)
        return ans, lax.mul(t, _gamma_grad(ans, alphas, log_space))

    return lax.reshape(draw(keys, lax.reshape(a, (n,))), shape)


def _gamma_grad(sample, a, log_space):
    """JAX's _gamma_grad: the derivative of a gamma draw (or, in log space,
    of its log) with respect to its shape parameter."""
    if log_space:
        # d log(x) = dx / x; exp(log x) may round to 0, taken as the
        # smallest normal float then, as JAX does.
        samples = lax.exp(sample)
        tiny = lax.full_like(samples, _finfo(aval_of(samples).dtype).tiny)
        samples = lax.select(lax.eq(samples, lax.full_like(samples, 0)), tiny, samples)
        return lax.div(lax_special.random_gamma_grad(a, samples), samples)
    return lax_special.random_gamma_grad(a, sample)


_gamma_jit = _jit(static_argnums=(2, 3, 4))(_gamma_impl)


def _gamma_args(name, key, a, shape, dtype, err_name=None):
    typed_key, _ = _check_key(name, key)
    dtype = _float_kind_dtype(dtype, err_name or name)
    _check_params(name, a)
    if shape is not None:
        shape = _canonicalize_shape(shape, name)
    return typed_key, dtype, shape


def gamma(key, a, shape=None, dtype=None):
    """Standard gamma floats with shape parameter a (Marsaglia-Tsang)."""
    typed_key, dtype, shape = _gamma_args("gamma", key, a, shape, dtype)
    return _gamma_jit(typed_key, a, shape, dtype, False)


def loggamma(key, a, shape=None, dtype=None):
    """Logs of standard gamma floats, accurate for small a."""
    typed_key, dtype, shape = _gamma_args("loggamma", key, a, shape, dtype, err_name="gamma")
    return _gamma_jit(typed_key, a, shape, dtype, True)


@_jit(static_argnums=(3, 4))
def _beta_jit(key, a, b, shape, dtype):
    if shape is None:
        shape = tuple(util.broadcast_shapes(_shape_of(a), _shape_of(b)))
    else:
        _check_shape("beta", shape, _shape_of(a), _shape_of(b))
    a = _cvt(a, dtype)
    b = _cvt(b, dtype)
    keys = _split_key(key, (2,))
    a = mnp.broadcast_to(a, shape)
    b = mnp.broadcast_to(b, shape)
    log_gamma_a = _gamma_impl(keys[0], a, shape, dtype, True)
    log_gamma_b = _gamma_impl(keys[1], b, shape, dtype, True)
    log_max = lax.max(log_gamma_a, log_gamma_b)
    gamma_a_scaled = lax.exp(lax.sub(log_gamma_a, log_max))
    gamma_b_scaled = lax.exp(lax.sub(log_gamma_b, log_max))
    return lax.div(gamma_a_scaled, lax.add(gamma_a_scaled, gamma_b_scaled))


def beta(key, a, b, shape=None, dtype=None):
    """Beta floats with parameters a and b."""
    typed_key, _ = _check_key("beta", key)
    dtype = _float_kind_dtype(dtype, "beta")
    _check_params("beta", a, b)
    _check_safe_to_cast("beta", dtype, a, b)
    shape = _broadcast_shapes("beta", shape, a, b)
    return _beta_jit(typed_key, a, b, shape, dtype)


def _softmax_last(x):
    """jax.nn.softmax(x, -1): exp(x - stop_gradient(max)) / sum."""
    nd = aval_of(x).ndim
    shape = _shape_of(x)
    dims = tuple(range(nd - 1))
    m = lax.broadcast_in_dim(lax.reduce_max(x, (nd - 1,)), shape, dims)
    unnormalized = lax.exp(lax.sub(x, lax.stop_gradient(m)))
    dtype = aval_of(x).dtype
    if dtype.itemsize < 4:  # jnp.sum accumulates 16-bit floats in float32
        total = _cvt(lax.reduce_sum(_cvt(unnormalized, dtypes.float32), (nd - 1,)), dtype)
    else:
        total = lax.reduce_sum(unnormalized, (nd - 1,))
    s = lax.broadcast_in_dim(total, shape, dims)
    return lax.div(unnormalized, s)


@_jit(static_argnums=(2, 3))
def _dirichlet_jit(key, alpha, shape, dtype):
    if aval_of(alpha).ndim < 1:
        raise ValueError(f"dirichlet requires alpha.ndim >= 1, got alpha.ndim == "
                         f"{aval_of(alpha).ndim}")
    if shape is None:
        shape = _shape_of(alpha)[:-1]
    else:
        _check_shape("dirichlet", shape, _shape_of(alpha)[:-1])
    alpha = _cvt(alpha, dtype)
    log_gamma_samples = _gamma_impl(key, alpha, tuple(shape) + _shape_of(alpha)[-1:], dtype,
                                    True)
    return _softmax_last(log_gamma_samples)


def dirichlet(key, alpha, shape=None, dtype=None):
    """Dirichlet floats with concentration alpha (shape (..., n))."""
    typed_key, _ = _check_key("dirichlet", key)
    dtype = _float_kind_dtype(dtype, "dirichlet")
    _check_params("dirichlet", alpha)
    if shape is not None:
        shape = _canonicalize_shape(shape, "dirichlet")
    return _dirichlet_jit(typed_key, alpha, shape, dtype)


def _chisquare_impl(key, df, shape, dtype):
    df = _cvt(df, dtype)
    two = lax.full_like(df, 2)
    half_df = lax.div(df, two)
    log_g = _gamma_impl(key, half_df, shape, dtype, True)
    return lax.mul(lax.exp(log_g), lax.full_like(log_g, 2) if _shape_of(log_g) != _shape_of(two)
                   else two)


_chisquare_jit = _jit(static_argnums=(2, 3))(_chisquare_impl)


def chisquare(key, df, shape=None, dtype=None):
    """Chi-square floats with df degrees of freedom."""
    typed_key, _ = _check_key("chisquare", key)
    dtype = _float_kind_dtype(dtype, "chisquare")
    _check_params("chisquare", df)
    shape = _broadcast_shapes("chisquare", shape, df)
    _check_safe_to_cast("chisquare", dtype, df)
    return _chisquare_jit(typed_key, df, shape, dtype)


@_jit(static_argnums=(3, 4))
def _f_jit(key, dfnum, dfden, shape, dtype):
    dfden = _cvt(dfden, dtype)
    dfnum = _cvt(dfnum, dtype)
    keys = _split_key(key, (2,))
    chi2_dfn = _chisquare_impl(keys[1], dfnum, shape, dtype)
    chi2_dfd = _chisquare_impl(keys[0], dfden, shape, dtype)
    num = ufuncs.divide(chi2_dfn, dfnum)
    den = ufuncs.divide(chi2_dfd, dfden)
    return lax.div(num, den)


def f(key, dfnum, dfden, shape=None, dtype=None):
    """F-distribution floats."""
    typed_key, _ = _check_key("f", key)
    dtype = _float_kind_dtype(dtype, "f")
    _check_params("f", dfnum, dfden)
    shape = _broadcast_shapes("f", shape, dfnum, dfden)
    _check_safe_to_cast("f", dtype, dfnum, dfden)
    return _f_jit(typed_key, dfnum, dfden, shape, dtype)


@_jit(static_argnums=(2, 3))
def _t_jit(key, df, shape, dtype):
    if shape is None:
        shape = _shape_of(df)
    else:
        _check_shape("t", shape, _shape_of(df))
    df = _cvt(df, dtype)
    keys = _split_key(key, (2,))
    n = _normal_real(keys[0], shape, dtype)
    half_df = lax.div(df, lax.full_like(df, 2))
    g = _gamma_impl(keys[1], half_df, shape, dtype, False)
    return ufuncs.multiply(n, lax.sqrt(ufuncs.divide(half_df, g)))


def t(key, df, shape=None, dtype=None):
    """Student's t floats with df degrees of freedom."""
    typed_key, _ = _check_key("t", key)
    dtype = _float_kind_dtype(dtype, "t")
    _check_params("t", df)
    shape = _broadcast_shapes("t", shape, df)
    _check_safe_to_cast("t", dtype, df)
    return _t_jit(typed_key, df, shape, dtype)


def _generalized_normal_impl(key, p, shape, dtype):
    keys = _split_key(key, (2,))
    g = _gamma_impl(keys[0], ufuncs.divide(1, p), shape, dtype, False)
    r = _rademacher_impl(keys[1], shape, dtype)
    return ufuncs.multiply(r, ufuncs.power(g, ufuncs.divide(1, p)))


_generalized_normal_jit = _jit(static_argnums=(2, 3))(_generalized_normal_impl)


def generalized_normal(key, p, shape=(), dtype=None):
    """Generalized normal floats, density proportional to exp(-|x|^p)."""
    shape = _canonicalize_shape(shape, "generalized_normal")
    typed_key, _ = _check_key("generalized_normal", key)
    dtype = _float_kind_dtype(dtype, "generalized_normal")
    _check_params("generalized_normal", p)
    return _generalized_normal_jit(typed_key, p, shape, dtype)


@_jit(static_argnums=(2, 3, 4))
def _ball_jit(key, p, d, shape, dtype):
    keys = _split_key(key, (2,))
    g = _generalized_normal_impl(keys[0], p, (*shape, d), dtype)
    e = _exponential_impl(keys[1], shape, dtype)
    s = ufuncs.add(reductions.sum(ufuncs.power(ufuncs.abs(g), p), axis=-1), e)
    return ufuncs.divide(g, ufuncs.power(s, ufuncs.divide(1, p))[..., None])


def ball(key, d, p=2, shape=(), dtype=None):
    """Uniform samples from the unit Lp ball in d dimensions."""
    shape = _canonicalize_shape(shape, "ball")
    typed_key, _ = _check_key("ball", key)
    dtype = _float_kind_dtype(dtype, "ball")
    d = concretize(d)
    if isinstance(d, Tracer):
        raise errors.concretization(d, "The error occurred in mlax.random.ball()")
    d = operator.index(d)
    _check_params("ball", p)
    return _ball_jit(typed_key, p, d, shape, dtype)


# ---------------------------------------------------------------------------
# Counts: poisson, binomial, multinomial (JAX's algorithms, same key use, so
# the same draws)
# ---------------------------------------------------------------------------

_MAX_ITERS = int(np.iinfo(np.int32).max)


def _split2(key):
    keys = _split_key(key, (2,))
    return keys[0], keys[1]


def _poisson_knuth(key, lam, shape, dtype):
    """Knuth's product of uniforms, for lam < 10."""
    from mlax._src.lax.control_flow import while_loop

    def body_fn(carry):
        i, k, rng, log_prod = carry
        rng, subkey = _split2(rng)
        k = lax.select(log_prod > -lam, k + 1, k)
        u = _uniform_impl(subkey, 0.0, 1.0, shape, np.dtype(np.float32))
        return i + 1, k, rng, log_prod + lax.log(u)

    def cond_fn(carry):
        i, log_prod = carry[0], carry[3]
        return reductions.any(log_prod > -lam) & (i < _MAX_ITERS)

    init = (0, lax.full(shape, 0, dtype), key, lax.full(shape, 0, np.float32))
    k = while_loop(cond_fn, body_fn, init)[1]
    return _cvt(k - 1, dtype)


def _poisson_rejection(key, lam, shape, dtype):
    """Hormann's transformed rejection (PTRS), for lam >= 10."""
    from mlax._src.lax.control_flow import while_loop
    from mlax._src.lax.math import lgamma

    log_lam = lax.log(lam)
    b = 0.931 + 2.53 * lax.sqrt(lam)
    a = -0.059 + 0.02483 * b
    inv_alpha = 1.1239 + 1.1328 / (b - 3.4)
    v_r = 0.9277 - 3.6224 / (b - 2)

    def body_fn(carry):
        i, k_out, accepted, key = carry
        keys = _split_key(key, (3,))
        key, subkey_0, subkey_1 = keys[0], keys[1], keys[2]
        u = _uniform_impl(subkey_0, 0.0, 1.0, shape, aval_of(lam).dtype) - 0.5
        v = _uniform_impl(subkey_1, 0.0, 1.0, shape, aval_of(lam).dtype)
        u_shifted = 0.5 - ufuncs.abs(u)
        k = lax.floor((2 * a / u_shifted + b) * u + lam + 0.43)
        s = lax.log(v * inv_alpha / (a / (u_shifted * u_shifted) + b))
        t = -lam + k * log_lam - lgamma(k + 1)
        accept1 = (u_shifted >= 0.07) & (v <= v_r)
        reject = (k < 0) | ((u_shifted < 0.013) & (v > u_shifted))
        accept = accept1 | (~reject & (s <= t))
        return i + 1, lax.select(accept, k, k_out), accepted | accept, key

    def cond_fn(carry):
        return reductions.any(~carry[2]) & (carry[0] < _MAX_ITERS)

    init = (0, lax.full(shape, -1, aval_of(lam).dtype), lax.full(shape, False, np.bool_), key)
    return _cvt(while_loop(cond_fn, body_fn, init)[1], dtype)


@_jit(static_argnums=(2, 3))
def _poisson_jit(key, lam, shape, dtype):
    lam = _cvt(_bcast(mnp.asarray(lam), shape), np.float32)
    use_knuth = ufuncs.isnan(lam) | (lam < 10)
    lam_knuth = lax.select(use_knuth, lam, lax.full(shape, 0.0, np.float32))
    lam_rejection = lax.select(use_knuth, lax.full(shape, 1e5, np.float32), lam)
    # Both algorithms draw from the same key, as JAX's (each element takes
    # one of the two): cloned, so that jax_debug_key_reuse accepts it.
    result = lax.select(use_knuth, _poisson_knuth(key, lam_knuth, shape, dtype),
                        _poisson_rejection(clone(key), lam_rejection, shape, dtype))
    return lax.select(lam == 0, lax.full(shape, 0, dtype), result)


def poisson(key, lam, shape=None, dtype=None):
    """Poisson integers with rate lam (Knuth below 10, transformed rejection
    above), as JAX's sampler."""
    typed_key, _ = _check_key("poisson", key)
    if typed_key._impl is not _THREEFRY:
        # As JAX, whose sampler is written for threefry's key use.
        raise NotImplementedError("`poisson` is only implemented for the threefry2x32 RNG, "
                                  f"not {typed_key._impl}")
    dtype = _int_dtype(dtype)
    _check_params("poisson", lam)
    shape = (_shape_of(lam) if shape is None
             else _canonicalize_shape(shape, "poisson"))
    return _poisson_jit(typed_key, lam, shape, dtype)


def _stirling_approx_tail(k):
    """log k! minus its Stirling approximation: a table up to 9, a series beyond."""
    dtype = aval_of(k).dtype
    table = mnp.asarray(np.array([
        0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509,
        0.0166446911898211, 0.0138761288230707, 0.0118967099458917, 0.0104112652619720,
        0.00925546218271273, 0.00833056343336287], dtype))
    use_table = k <= 9
    k = ufuncs.clip(k, 0.0, 9.0)
    kp1sq = (k + 1) * (k + 1)
    approx = (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)
    return lax.select(use_table, table[_cvt(lax.floor(k), np.int32)], approx)


def _binomial_inversion(key, count, prob, shape, dtype):
    """Sums of geometric waiting times, for count * min(p, 1-p) <= 10."""
    from mlax._src.lax.control_flow import while_loop

    log1minusprob = ufuncs.log1p(-prob)
    pdt = aval_of(prob).dtype

    def body_fn(carry):
        i, num_geom, geom_sum, key = carry
        subkey, key = _split2(key)
        num_geom_out = lax.select(geom_sum <= count, num_geom + 1, num_geom)
        u = _uniform_impl(subkey, 0.0, 1.0, shape, pdt)
        geom = lax.ceil(lax.log(u) / log1minusprob)
        return i + 1, num_geom_out, geom_sum + geom, key

    def cond_fn(carry):
        return reductions.any(carry[2] <= count) & (carry[0] < _MAX_ITERS)

    init = (0, lax.full(shape, 0, pdt), lax.full(shape, 0, pdt), key)
    return _cvt(while_loop(cond_fn, body_fn, init)[1] - 1, dtype)


def _btrs(key, count, prob, shape, dtype):
    """Hormann's BTRS transformed rejection, for large count * p."""
    from mlax._src.lax.control_flow import while_loop

    pdt = aval_of(prob).dtype
    stddev = lax.sqrt(count * prob * (1 - prob))
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * prob
    c = count * prob + 0.5
    v_r = 0.92 - 4.2 / b
    r = prob / (1 - prob)
    alpha = (2.83 + 5.1 / b) * stddev
    m = lax.floor((count + 1) * prob)

    def body_fn(carry):
        i, k_out, accepted, key = carry
        keys = _split_key(key, (3,))
        key, subkey_0, subkey_1 = keys[0], keys[1], keys[2]
        u = _uniform_impl(subkey_0, 0.0, 1.0, shape, pdt)
        v = _uniform_impl(subkey_1, 0.0, 1.0, shape, pdt)
        u = u - 0.5
        us = 0.5 - ufuncs.abs(u)
        accept1 = (us >= 0.07) & (v <= v_r)
        k = lax.floor((2 * a / us + b) * u + c)
        reject = (k < 0) | (k > count)
        v = lax.log(v * alpha / (a / (us * us) + b))
        ub = ((m + 0.5) * lax.log((m + 1) / (r * (count - m + 1)))
              + (count + 1) * lax.log((count - m + 1) / (count - k + 1))
              + (k + 0.5) * lax.log(r * (count - k + 1) / (k + 1))
              + _stirling_approx_tail(m) + _stirling_approx_tail(count - m)
              - _stirling_approx_tail(k) - _stirling_approx_tail(count - k))
        accept = accept1 | (~reject & (v <= ub))
        return i + 1, lax.select(accept, k, k_out), accepted | accept, key

    def cond_fn(carry):
        return reductions.any(~carry[2]) & (carry[0] < _MAX_ITERS)

    init = (0, lax.full(shape, -1, pdt), lax.full(shape, False, np.bool_), key)
    return _cvt(while_loop(cond_fn, body_fn, init)[1], dtype)


def _binomial_impl(key, count, prob, shape, dtype):
    if shape is None:
        shape = tuple(util.broadcast_shapes(_shape_of(count), _shape_of(prob)))
    else:
        _check_shape("binomial", shape, _shape_of(count), _shape_of(prob))
    prob, = util._promote_inexact("binomial", prob)
    prob = mnp.asarray(prob)
    pdt = aval_of(prob).dtype
    count = _bcast(_cvt(mnp.asarray(count), pdt), shape)
    prob = _bcast(prob, shape)
    full = lambda v: lax.full(shape, v, pdt)  # noqa: E731
    p_lt_half = prob < 0.5
    q = lax.select(p_lt_half, prob, 1.0 - prob)
    count_nan_or_neg = ufuncs.isnan(count) | (count < 0.0)
    count_inf = ufuncs.isinf(count)
    q_is_nan = ufuncs.isnan(q)
    q_l_0 = q < 0.0
    q = lax.select(q_is_nan | q_l_0, full(0.01), q)
    use_inversion = count_nan_or_neg | (count * q <= 10.0)
    count = lax.floor(count)
    count_inv = lax.select(use_inversion, count, full(0.0))
    count_btrs = lax.select(use_inversion, full(1e4), count)
    q_btrs = lax.select(use_inversion, full(0.5), q)
    # One key for both algorithms, as JAX's (see _poisson_jit).
    samples = lax.select(use_inversion,
                         _binomial_inversion(key, count_inv, q, shape, dtype),
                         _btrs(clone(key), count_btrs, q_btrs, shape, dtype))
    invalid = q_l_0 | q_is_nan | count_nan_or_neg
    samples = lax.select(invalid, lax.full(shape, np.nan, dtype), samples)
    samples = lax.select(count_inf & ~invalid, lax.full(shape, np.inf, dtype), samples)
    return lax.select(p_lt_half | count_nan_or_neg | q_is_nan | count_inf, samples,
                      _cvt(count, dtype) - samples)


_binomial_jit = _jit(static_argnums=(3, 4))(_binomial_impl)


def _binomial_args(name, key, n, p, dtype):
    typed_key, _ = _check_key(name, key)
    _check_params(name, n, p)
    dtype = dtypes.default_float() if dtype is None else dtypes.canonicalize(dtype)
    if not dtypes.is_float(dtype):
        raise ValueError(f"dtype argument to `{name}` must be a float dtype, got {dtype}")
    return typed_key, dtype


def binomial(key, n, p, shape=None, dtype=None):
    """Binomial counts of n trials with success probability p, as floats
    (inversion for small n * p, BTRS rejection above), as JAX's sampler."""
    typed_key, dtype = _binomial_args("binomial", key, n, p, dtype)
    if shape is not None:
        shape = _canonicalize_shape(shape, "binomial")
    return _binomial_jit(typed_key, n, p, shape, dtype)


@_jit(static_argnums=(3, 4, 5))
def _multinomial_jit(key, n, p, shape, dtype, unroll):
    from mlax._src.lax.control_flow import scan
    from mlax._src.lax.reductions import cumsum
    from mlax._src.numpy.statistics import moveaxis

    n, p = util._promote_inexact("multinomial", n, p)
    n = mnp.broadcast_to(mnp.asarray(n), shape[:-1])
    p = mnp.broadcast_to(mnp.asarray(p), shape)
    rdt = aval_of(n).dtype

    def f(remainder, ratio_key):
        ratio, key = ratio_key
        count = _binomial_impl(key, remainder, ufuncs.clip(ratio, 0, 1), None, rdt)
        return remainder - count, count

    p = moveaxis(p, -1, 0)
    remaining = cumsum(p, 0, reverse=True)
    ratios = p / mnp.where(remaining == 0, 1, remaining)
    keys = _split_key(key, (shape[-1],))
    _, counts = scan(f, n, (ratios, keys), unroll=unroll)
    counts = moveaxis(counts, 0, -1)
    return counts if dtype is None else _cvt(counts, dtype)


def multinomial(key, n, p, *, shape=None, dtype=None, unroll=1):
    """Multinomial counts of n trials over the categories of p's last axis
    (a binomial per category, conditioned on the rest), as JAX's sampler."""
    typed_key, _ = _check_key("multinomial", key)
    _check_params("multinomial", n, p)
    dtype = None if dtype is None else dtypes.canonicalize(dtype)
    shape = _shape_of(p) if shape is None else _canonicalize_shape(shape, "multinomial")
    return _multinomial_jit(typed_key, n, p, shape, dtype, unroll)


# ---------------------------------------------------------------------------
# Random orthogonal matrices (Mezzadri 2007)
# ---------------------------------------------------------------------------

@_jit(static_argnums=(1, 2, 3, 4))
def _orthogonal_jit(key, n, m, shape, dtype):
    from mlax._src.numpy.linalg import qr

    z = _normal_impl(key, (*shape, max(n, m), min(n, m)), dtype)
    q, r = qr(z, full_matrices=False)
    d = mnp.asarray(r)[..., np.arange(min(n, m)), np.arange(min(n, m))]
    x = q * ufuncs.sign(d)[..., None, :]
    return mnp.swapaxes(x, -1, -2) if n < m else x


def orthogonal(key, n, shape=(), dtype=None, m=None):
    """Haar-random (n, m) matrices with orthonormal columns (or rows when
    n < m), batched by shape: QR of a normal matrix with R's diagonal signs
    folded into Q."""
    shape = _canonicalize_shape(shape, "orthogonal")
    typed_key, _ = _check_key("orthogonal", key)
    # (JAX's check is normal's: float or complex; complex draws are unitary.)
    dtype = _float_dtype(dtype, "normal", allow_complex=True)
    _check_shape("orthogonal", shape)
    n, m = concretize(n), concretize(m)
    for v in (n, m):
        if isinstance(v, Tracer):
            raise errors.concretization(v, "The error occurred in mlax.random.orthogonal()")
    n = operator.index(n)
    m = n if m is None else operator.index(m)
    return _orthogonal_jit(typed_key, n, m, shape, dtype)

"""Cases from a sweep of JAX's special-function and stats test grids
(tests/lax_scipy_special_functions_test.py, lax_scipy_test.py,
scipy_stats_test.py) on which mlax disagreed with JAX or with SciPy: each
compared with JAX (values, dtypes, weak types, error classes) or, where JAX
itself hangs or is wrong, with SciPy and finite differences."""
from __future__ import annotations

import jax
import numpy as np
import pytest
import scipy.special as osp

import mlax
import mlax.scipy.special as msp

from _helpers import param_id


# gammainc / gammaincc for a large a near x: the power series needs about
# sqrt(a) terms, so a jitted call never returned (as in JAX). Temme's uniform
# asymptotic expansion (Cephes' choice) takes over for a > 200, |x - a| / a < 0.3.
_LARGE_A = [(1e20, 1e20), (1e12, 1e12), (1e12, 1e12 + 3e6), (1e6, 1e6 - 2500.0), (250.0, 200.0),
            (500.0, 600.0), (1e4, 1.02e4), (150.0, 160.0)]


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=param_id)
def test_gammainc_large_a_returns_scipy_values(x64, dtype):
    a, x = (np.array(v, dtype) for v in zip(*_LARGE_A))
    p, q = mlax.jit(lambda a, x: (msp.gammainc(a, x), msp.gammaincc(a, x)))(a, x)
    assert p.dtype == q.dtype == dtype
    rtol = 1e-12 if dtype == np.float64 else 1e-4
    a64, x64_ = a.astype(np.float64), x.astype(np.float64)
    np.testing.assert_allclose(np.asarray(p), osp.gammainc(a64, x64_), rtol=rtol, atol=1e-300)
    np.testing.assert_allclose(np.asarray(q), osp.gammaincc(a64, x64_), rtol=rtol, atol=1e-300)


def test_gammainc_large_a_gradients(x64):
    # Against central differences of SciPy's P where those are exact enough,
    # and against P's normal limit (dP/dx -> phi(z) / sqrt(a), dP/da -> -phi(z)
    # / sqrt(a), z = (x - a) / sqrt(a)) for the huge a.
    a = np.array([250.0, 500.0, 1e4, 1e12, 1e20])
    x = np.array([260.0, 480.0, 1.01e4, 1e12 + 1e6, 1e20])
    grads = mlax.jit(mlax.vmap(lambda a, x: (mlax.grad(msp.gammainc, argnums=(0, 1))(a, x),
                                             mlax.grad(msp.gammaincc)(a, x))))
    (ga, gx), gq = jax.tree_util.tree_map(np.asarray, grads(a, x))
    h = 1e-5 * a[:3]
    fd_a = (osp.gammainc(a[:3] + h, x[:3]) - osp.gammainc(a[:3] - h, x[:3])) / (2 * h)
    fd_x = (osp.gammainc(a[:3], x[:3] + h) - osp.gammainc(a[:3], x[:3] - h)) / (2 * h)
    np.testing.assert_allclose(ga[:3], fd_a, rtol=1e-6)
    np.testing.assert_allclose(gx[:3], fd_x, rtol=1e-6)
    z = (x[3:] - a[3:]) / np.sqrt(a[3:])
    phi = np.exp(-z * z / 2) / np.sqrt(2 * np.pi * a[3:])
    np.testing.assert_allclose(gx[3:], phi, rtol=1e-5)
    np.testing.assert_allclose(ga[3:], -phi, rtol=1e-5)
    np.testing.assert_allclose(gq, -ga, rtol=1e-12)


def test_random_gamma_grad_large_a():
    # A Gamma(a, 1) sample's derivative in a, -(dP/da) / (dP/dx): float32 near
    # a = 1e6 loses every digit of x^a e^-x / Gamma(a) (JAX gives 1.055 here);
    # float64 finite differences of SciPy's P give the value.
    a, x = 1e6, 1e6 + 500.0
    got = float(mlax.jit(mlax.lax.random_gamma_grad)(np.float32(a), np.float32(x)))
    h = 1e-3
    dp_da = (osp.gammainc(a + h, x) - osp.gammainc(a - h, x)) / (2 * h)
    dp_dx = (osp.gammainc(a, x + h) - osp.gammainc(a, x - h)) / (2 * h)
    assert got == pytest.approx(-dp_da / dp_dx, rel=1e-5)


# cauchy.cdf as 1/2 + arctan(z)/pi cancelled in the lower tail: logcdf(-1e10)
# was log(~1e-8) = -18.9 in float32 instead of -24.2 (JAX gives -18.9 under jit
# and -inf eagerly), and logsf mirrored it.
@pytest.mark.parametrize("fname", ["cdf", "logcdf", "sf", "logsf"])
def test_cauchy_tails(fname):
    import scipy.stats as oss
    x = np.array([-np.inf, -1e30, -1e10, -3.0, 0.0, 0.7, 1e10, 1e30, np.inf, np.nan], np.float32)
    loc, scale = np.float32(0.5), np.float32(2.0)
    got = mlax.jit(getattr(mlax.scipy.stats.cauchy, fname))(x, loc, scale)
    want = getattr(jax.scipy.stats.cauchy, fname)(x, loc, scale)
    assert (got.dtype, got.weak_type, got.shape) == (want.dtype, want.weak_type, want.shape)
    ref = getattr(oss.cauchy, fname)(x.astype(np.float64), loc, scale)
    np.testing.assert_allclose(np.asarray(got), ref, rtol=2e-6, atol=1e-37)


# cauchy.ppf/isf as tan(pi q - pi/2): the angle rounds beside the pole, so
# ppf(0) was +3.4e7 (not -inf) and ppf(1e-30) +3.4e7 (not -3.2e29), as in JAX.
@pytest.mark.parametrize("fname", ["ppf", "isf"])
def test_cauchy_quantile_tails(fname):
    import scipy.stats as oss
    q = np.array([0.0, 1e-30, 1e-7, 0.1, 0.25, 0.4999, 0.5, 0.75, 0.9, 1 - 1e-7, 1.0, np.nan],
                 np.float32)
    loc, scale = np.float32(0.5), np.float32(2.0)
    got = mlax.jit(getattr(mlax.scipy.stats.cauchy, fname))(q, loc, scale)
    want = getattr(jax.scipy.stats.cauchy, fname)(q, loc, scale)
    assert (got.dtype, got.weak_type, got.shape) == (want.dtype, want.weak_type, want.shape)
    ref = getattr(oss.cauchy, fname)(q.astype(np.float64), loc, scale)
    np.testing.assert_allclose(np.asarray(got), ref, rtol=1e-6)


# JAX's lax._const is weak only for a weakly typed *scalar*: a weak array of
# rank > 0 (promote_args_inexact's of an integer k beside a Python float p)
# gets a strong constant, and the result is strong. mlax kept such results weak.
@pytest.mark.parametrize("dist,fname,args", [
    ("bernoulli", "logpmf", (0.35,)), ("geom", "pmf", (0.35,)), ("nbinom", "logpmf", (6, 0.35)),
    ("bernoulli", "cdf", (0.35,))], ids=param_id)
@pytest.mark.parametrize("k", [np.array([0, 1, 2], np.int32), 2], ids=["int32_array", "pyint"])
def test_pmf_weak_type_of_integer_k(dist, fname, args, k):
    got = getattr(getattr(mlax.scipy.stats, dist), fname)(k, *args)
    want = getattr(getattr(jax.scipy.stats, dist), fname)(k, *args)
    assert (got.dtype, got.weak_type, got.shape) == (want.dtype, want.weak_type, want.shape)
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-6)


# norm.isf as ppf(1 - q): 1 - q rounds a small q away in float32, so isf(1e-7)
# was 5.1666 (not 5.1993) and isf(1e-30) inf (not 11.46), as in JAX.
def test_norm_isf_small_q():
    import scipy.stats as oss
    q = np.array([0.0, 1e-30, 1e-7, 0.1, 0.5, 0.9, 1.0, np.nan], np.float32)
    got = mlax.jit(mlax.scipy.stats.norm.isf)(q, 0.5, 1.5)
    want = jax.scipy.stats.norm.isf(q, 0.5, 1.5)
    assert (got.dtype, got.weak_type, got.shape) == (want.dtype, want.weak_type, want.shape)
    np.testing.assert_allclose(np.asarray(got), oss.norm.isf(q.astype(np.float64), 0.5, 1.5),
                               rtol=1e-6)

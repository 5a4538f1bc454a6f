"""mlax.scipy.stats.gaussian_kde against jax.scipy.stats.gaussian_kde:
the fitted state (covariance, neff), evaluate / pdf / logpdf, the
integrals, resample (same key, same draws), bandwidth methods, weights,
d = 1 and d > 1, float64, the pytree registration (jit / vmap / grad
through the estimator) and the errors JAX raises."""
from __future__ import annotations

import jax
import jax.scipy.stats as jst
import numpy as np
import pytest
from jax._src import config as jax_config

import mlax
import mlax.scipy.stats as mst

from _helpers import jgrad


def _close(got, want, rtol=2e-5, atol=1e-6):
    assert isinstance(got, mlax.Array)
    assert got.shape == want.shape and got.dtype == want.dtype, (got.aval, want.aval)
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=rtol, atol=atol)


def _data(d, n, dtype=np.float32, seed=0):
    rng = np.random.default_rng(seed)
    data = rng.normal(size=(d, n)).astype(dtype)
    return data[0] if d == 1 else data, rng.uniform(0.2, 2.0, n).astype(dtype), \
        rng.normal(size=(d, 5)).astype(dtype)


BW = {"default": None, "scott": "scott", "silverman": "silverman", "scalar": 0.4,
      "callable": lambda kde: kde.neff ** -0.3}


@pytest.mark.parametrize("d", [1, 3])
@pytest.mark.parametrize("bw", list(BW))
@pytest.mark.parametrize("weighted", [False, True])
def test_fit_and_evaluate(d, bw, weighted):
    data, w, pts = _data(d, 25)
    w = w if weighted else None
    k, j = mst.gaussian_kde(data, BW[bw], w), jst.gaussian_kde(data, BW[bw], w)
    for name in ("neff", "dataset", "weights", "covariance", "inv_cov"):
        _close(getattr(k, name), getattr(j, name), rtol=1e-5)
    assert (k.d, k.n) == (j.d, j.n)
    q = pts[0] if d == 1 else pts
    _close(k(q), j(q))
    _close(k.pdf(q), j.pdf(q))
    _close(k.logpdf(q), j.logpdf(q), rtol=1e-5)
    _close(k.evaluate(q[..., 0]), j.evaluate(q[..., 0]))  # one point as a (d,) vector


def test_integrals():
    for d in (1, 2):
        data, w, _ = _data(d, 20, seed=1)
        other, _, _ = _data(d, 12, seed=2)
        k, j = mst.gaussian_kde(data, weights=w), jst.gaussian_kde(data, weights=w)
        mean, cov = np.full(d, 0.3, np.float32), np.eye(d, dtype=np.float32) * 0.7
        _close(k.integrate_gaussian(mean, cov), j.integrate_gaussian(mean, cov))
        _close(k.integrate_kde(mst.gaussian_kde(other)), j.integrate_kde(jst.gaussian_kde(other)))
        _close(mst.gaussian_kde(other).integrate_kde(k), jst.gaussian_kde(other).integrate_kde(j))
    data, w, _ = _data(1, 20, seed=3)
    k, j = mst.gaussian_kde(data, weights=w), jst.gaussian_kde(data, weights=w)
    _close(k.integrate_box_1d(-0.5, 1.2), j.integrate_box_1d(-0.5, 1.2))


def test_resample_matches_jax_draws():
    data, w, _ = _data(2, 15, seed=4)
    k, j = mst.gaussian_kde(data, weights=w), jst.gaussian_kde(data, weights=w)
    _close(k.resample(mlax.random.key(3), (4,)), j.resample(jax.random.key(3), (4,)), rtol=1e-5)
    _close(k.resample(mlax.random.key(5)), j.resample(jax.random.key(5)), rtol=1e-5)
    data1, _, _ = _data(1, 15, seed=4)
    _close(mst.gaussian_kde(data1).resample(mlax.random.key(1), (3,)),
           jst.gaussian_kde(data1).resample(jax.random.key(1), (3,)), rtol=1e-5)
    # JAX's .T of a (2, 3, 1) draw cannot add to the (1, 2, 3) picks: the same TypeError.
    with pytest.raises(TypeError, match="incompatible shapes"):
        jst.gaussian_kde(data1).resample(jax.random.key(1), (2, 3))
    with pytest.raises(TypeError, match="incompatible shapes"):
        mst.gaussian_kde(data1).resample(mlax.random.key(1), (2, 3))


def test_float64():
    old = mlax.config.jax_enable_x64
    mlax.config.update("jax_enable_x64", True)
    try:
        with jax_config.enable_x64(True):
            data, w, pts = _data(2, 20, np.float64, seed=6)
            k, j = mst.gaussian_kde(data, "silverman", w), jst.gaussian_kde(data, "silverman", w)
            _close(k(pts), j(pts), rtol=1e-12, atol=1e-14)
            _close(k.logpdf(pts), j.logpdf(pts), rtol=1e-12, atol=1e-14)
    finally:
        mlax.config.update("jax_enable_x64", old)


def test_pytree_jit_vmap_grad():
    data, w, pts = _data(2, 10, seed=7)
    k, j = mst.gaussian_kde(data, weights=w), jst.gaussian_kde(data, weights=w)
    leaves, tree = mlax.tree_util.tree_flatten(k)
    jleaves, _ = jax.tree_util.tree_flatten(j)
    assert len(leaves) == len(jleaves) == 5
    rebuilt = mlax.tree_util.tree_unflatten(tree, leaves)
    assert isinstance(rebuilt, mst.gaussian_kde)
    _close(rebuilt(pts), j(pts))
    _close(mlax.jit(lambda kde, p: kde.logpdf(p))(k, pts), j.logpdf(pts), rtol=1e-5)
    # vmap over points (the estimator closed over) and grad through the dataset.
    _close(mlax.vmap(lambda p: k(p[:, None])[0], in_axes=1)(pts),
           jax.vmap(lambda p: j(p[:, None])[0], in_axes=1)(pts))
    _close(mlax.grad(lambda x: mst.gaussian_kde(x).logpdf(pts).sum())(data),
           jgrad(lambda x: jst.gaussian_kde(x).logpdf(pts).sum())(data), rtol=1e-4, atol=1e-5)


def test_errors():
    data, _, pts = _data(2, 10, seed=8)
    k = mst.gaussian_kde(data)
    with pytest.raises(ValueError, match="points have dimension 3"):
        k(np.ones((3, 4), np.float32))
    with pytest.raises(ValueError, match="bw_method"):
        mst.gaussian_kde(data, bw_method="nope")
    with pytest.raises(ValueError, match="multiple elements"):
        mst.gaussian_kde(np.ones(1, np.float32))
    with pytest.raises(ValueError, match="length n"):
        mst.gaussian_kde(data, weights=np.ones(3, np.float32))
    with pytest.raises(ValueError, match="only handles 1D"):
        k.integrate_box_1d(0.0, 1.0)
    with pytest.raises(ValueError, match="mean does not have dimension"):
        k.integrate_gaussian(np.zeros(3, np.float32), np.eye(2, dtype=np.float32))
    with pytest.raises(ValueError, match="same dimensionality"):
        k.integrate_kde(mst.gaussian_kde(data[0]))
    with pytest.raises(NotImplementedError):
        k.set_bandwidth("silverman")
    with pytest.raises(NotImplementedError):
        k.integrate_box(np.zeros(2), np.ones(2))
    with pytest.raises(NotImplementedError, match="complex"):
        mst.gaussian_kde(np.ones(4, np.complex64))
    with pytest.raises(TypeError):
        mst.gaussian_kde([1.0, 2.0, 3.0])  # lists are rejected, as JAX's check_arraylike
    with pytest.raises(TypeError):
        jst.gaussian_kde([1.0, 2.0, 3.0])

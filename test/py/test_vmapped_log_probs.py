"""JAX's "Autobatching for Bayesian inference" notebook (vmapped_log_probs),
run with mlax and with JAX: a Bayesian logistic regression log-joint
written for one parameter vector (scipy.stats.norm.logpdf prior), batched
with vmap, differentiated, and fitted by ADVI (value_and_grad of a
reparameterized ELBO under jit). The noise is drawn by NumPy, so both
libraries see the same numbers.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import jax.scipy as jsp
import numpy as np
import pytest

import mlax
import mlax.numpy as mnp
import mlax.scipy as msp

NUM_FEATURES, NUM_POINTS, BATCH = 10, 100, 10


@pytest.fixture(scope="module")
def data():
    rng = np.random.RandomState(10009)
    true_beta = rng.randn(NUM_FEATURES).astype(np.float32)
    all_x = rng.randn(NUM_POINTS, NUM_FEATURES).astype(np.float32)
    p = 1 / (1 + np.exp(-all_x.dot(true_beta)))
    y = (rng.rand(NUM_POINTS) < p).astype(np.int32)
    return all_x, y, rng


def _log_joint(np_mod, sp_mod, all_x, y):
    def log_joint(beta):
        result = 0.
        # No axis: written for a single beta, vmap batches it.
        result = result + np_mod.sum(sp_mod.stats.norm.logpdf(beta, 0., 1.))
        result = result + np_mod.sum(
            -np_mod.log(1 + np_mod.exp(-(2 * y - 1) * np_mod.dot(all_x, beta))))
        return result
    return log_joint


def _programs(api, np_mod, sp_mod, all_x, y):
    batched = api.vmap(_log_joint(np_mod, sp_mod, all_x, y))

    def elbo(beta_loc, beta_log_scale, epsilon):
        beta_sample = beta_loc + np_mod.exp(beta_log_scale) * epsilon
        return (np_mod.mean(batched(beta_sample), 0)
                + np_mod.sum(beta_log_scale - 0.5 * np.log(2 * np.pi)))

    return batched, api.jit(api.value_and_grad(elbo, argnums=(0, 1)))


def test_vmapped_log_joint_and_advi_match_jax(data):
    all_x, y, rng = data
    m_batched, m_step = _programs(mlax, mnp, msp, all_x, y)
    j_batched, j_step = _programs(jax, jnp, jsp, all_x, y)

    beta = rng.randn(BATCH, NUM_FEATURES).astype(np.float32)
    got, want = m_batched(beta), j_batched(beta)
    assert got.shape == want.shape == (BATCH,) and got.dtype == want.dtype
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=2e-5)
    # Unbatched equals batched, row by row.
    single = _log_joint(mnp, msp, all_x, y)
    np.testing.assert_allclose(float(single(beta[3])), float(want[3]), rtol=2e-5)
    # The gradient of the batch's total log-joint.
    g = mlax.grad(lambda b: mnp.sum(m_batched(b)))(beta)
    gj = jax.grad(lambda b: jnp.sum(j_batched(b)))(beta)
    np.testing.assert_allclose(np.asarray(g), np.asarray(gj), rtol=1e-4, atol=1e-4)

    # ADVI: a few steps of gradient ascent on the ELBO, same noise for both.
    step_size = 0.01
    m_loc = j_loc = np.zeros(NUM_FEATURES, np.float32)
    m_scale = j_scale = np.zeros(NUM_FEATURES, np.float32)
    for _ in range(25):
        eps = rng.randn(BATCH, NUM_FEATURES).astype(np.float32)
        m_val, (m_gl, m_gs) = m_step(m_loc, m_scale, eps)
        j_val, (j_gl, j_gs) = j_step(j_loc, j_scale, eps)
        np.testing.assert_allclose(float(m_val), float(j_val), rtol=1e-4)
        m_loc, m_scale = m_loc + step_size * m_gl, m_scale + step_size * m_gs
        j_loc, j_scale = j_loc + step_size * j_gl, j_scale + step_size * j_gs
    np.testing.assert_allclose(np.asarray(m_loc), np.asarray(j_loc), rtol=1e-3, atol=1e-4)
    np.testing.assert_allclose(np.asarray(m_scale), np.asarray(j_scale), rtol=1e-3, atol=1e-4)
    # The fit moved towards the data: the ELBO improved.
    assert float(m_step(m_loc, m_scale, eps)[0]) > float(m_step(
        np.zeros_like(m_loc), np.zeros_like(m_scale), eps)[0])

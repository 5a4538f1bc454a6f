"""mlax.random's count and matrix samplers (poisson, binomial, multinomial,
orthogonal), key_dtype, and the orthogonal initializers: JAX's algorithms
with the same key use, so the draws equal JAX's bit for bit (JAX's side is
jitted, as its samplers are)."""
from __future__ import annotations

import jax
import numpy as np
import pytest

import mlax
import mlax.nn.initializers as minit

MKEY, JKEY = mlax.random.PRNGKey(7), jax.random.PRNGKey(7)


def _same(ours, theirs, exact=True):
    assert ours.shape == theirs.shape and ours.dtype == theirs.dtype, (ours, theirs)
    if exact:
        np.testing.assert_array_equal(np.asarray(ours), np.asarray(theirs))
    else:
        np.testing.assert_allclose(np.asarray(ours), np.asarray(theirs), rtol=1e-5, atol=1e-5)


def test_poisson_matches_jax():
    # Knuth (< 10), rejection (>= 10) and lam == 0 in one draw
    lam = np.array([0.0, 0.7, 4.0, 12.0, 80.0], np.float32)
    _same(mlax.random.poisson(MKEY, lam, (3, 5)),
          jax.jit(lambda k: jax.random.poisson(k, lam, (3, 5)))(JKEY))


def test_binomial_matches_jax():
    # inversion (n * min(p, 1 - p) <= 10), BTRS, p > 1/2, and invalid parameters
    n = np.array([4.0, 40.0, 500.0, 20.0, -1.0, np.inf], np.float32)
    p = np.array([0.3, 0.6, 0.2, 0.95, 0.5, 0.5], np.float32)
    _same(mlax.random.binomial(MKEY, n, p, (2, 6)),
          jax.jit(lambda k: jax.random.binomial(k, n, p, (2, 6)))(JKEY))
    with pytest.raises(ValueError, match="float dtype"):
        mlax.random.binomial(MKEY, 5.0, 0.5, dtype="int32")


def test_multinomial_matches_jax():
    p = np.array([[0.2, 0.3, 0.5], [0.1, 0.0, 0.9]], np.float32)
    n = np.array([30.0, 5.0], np.float32)
    _same(mlax.random.multinomial(MKEY, n, p, shape=(3, 2, 3), dtype="int32"),
          jax.jit(lambda k: jax.random.multinomial(k, n, p, shape=(3, 2, 3),
                                                   dtype="int32"))(JKEY))


@pytest.mark.parametrize("n,m", [(4, 2), (2, 5)])
def test_orthogonal_matches_jax(n, m):
    ours = mlax.random.orthogonal(MKEY, n, (2,), m=m)
    _same(ours, jax.jit(lambda k: jax.random.orthogonal(k, n, (2,), m=m))(JKEY), exact=False)
    q = np.asarray(ours[0])
    small = q.T @ q if q.shape[0] >= q.shape[1] else q @ q.T
    np.testing.assert_allclose(small, np.eye(small.shape[0]), atol=1e-5)


def test_key_dtype():
    dt = mlax.random.key_dtype()
    assert str(dt) == str(jax.random.key_dtype()) == "key<fry>"
    assert mlax.random.key(0).dtype == dt
    assert mlax.dtypes.issubdtype(dt, mlax.dtypes.prng_key)
    # A key array is not an implementation (it has one): JAX's TypeError.
    with pytest.raises(TypeError, match="unrecognized type"):
        jax.random.key_dtype(jax.random.key(0))
    with pytest.raises(TypeError, match="unrecognized type"):
        mlax.random.key_dtype(mlax.random.key(0))


@pytest.mark.parametrize("name,shape", [("orthogonal", (3, 4, 5)),
                                        ("delta_orthogonal", (3, 3, 4, 6))])
def test_orthogonal_initializers_match_jax(name, shape):
    ours = getattr(minit, name)(scale=1.5)(MKEY, shape)
    theirs = jax.jit(lambda k: getattr(jax.nn.initializers, name)(scale=1.5)(k, shape))(JKEY)
    _same(ours, theirs, exact=False)
    with pytest.raises(ValueError):
        getattr(minit, name)()(MKEY, (4,))

"""The Poisson distribution (jax.scipy.stats.poisson)."""
from __future__ import annotations

import numpy as np

from mlax._src.scipy import common as jnp
from mlax._src.scipy.common import dispatched, promote_args_inexact

from mlax._src.numpy.ufuncs import round as _round  # noqa: F401
from mlax._src.scipy.special import entr, gammaincc, gammaln, xlogy


@dispatched
def logpmf(k, mu, loc=0):
    k, mu, loc = promote_args_inexact("poisson.logpmf", k, mu, loc)
    x = k - loc
    log_probs = xlogy(x, mu) - gammaln(x + 1) - mu
    return jnp.where((x < 0) | (_round(k) != k), -np.inf, log_probs)


@dispatched
def pmf(k, mu, loc=0):
    return jnp.exp(logpmf(k, mu, loc))


@dispatched
def cdf(k, mu, loc=0):
    k, mu, loc = promote_args_inexact("poisson.cdf", k, mu, loc)
    x = k - loc
    return jnp.where(x < 0, jnp.const(k, 0), gammaincc(jnp.floor(1 + x), mu))


def _entropy_by_sum(mu, max_k, upper):
    """-sum p log p over k < upper (the rest is negligible), k < max_k."""
    k = jnp.arange(max_k, dtype=jnp.dtype(mu))[:, None]
    probs = pmf(k, mu, 0)
    probs = jnp.where(k < jnp.ceil(upper)[None, :], probs, 0.0)
    return jnp.sum(entr(probs), axis=0)


@dispatched
def entropy(mu, loc=0):
    """The entropy of Poisson(mu): summed for mu < 100, Stirling's series above."""
    mu, loc = jnp._promote_inexact("poisson.entropy", mu, loc)
    mu, loc = jnp.asarray(mu), jnp.asarray(loc)
    shape = jnp.broadcast_shapes(mu.shape, loc.shape)
    flat = jnp.reshape(mu, (-1,))
    small = _entropy_by_sum(flat, 35, flat + 20)
    medium = _entropy_by_sum(flat, 250, flat + 10 * jnp.sqrt(flat) + 20)
    large = 0.5 * jnp.log(2 * np.pi * np.e * flat) - 1.0 / (12 * flat)
    out = jnp.where(flat == 0, jnp.zeros_like(flat),
                    jnp.where(flat < 10, small, jnp.where(flat < 100, medium, large)))
    return jnp.broadcast_to(jnp.reshape(out, mu.shape), shape)

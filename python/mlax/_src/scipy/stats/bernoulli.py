"""The Bernoulli distribution (jax.scipy.stats.bernoulli)."""
from __future__ import annotations

import numpy as np

from mlax._src.scipy import common as jnp
from mlax._src.scipy.common import dispatched, promote_args_inexact

from mlax._src.scipy.special import xlog1py, xlogy


@dispatched
def logpmf(k, p, loc=0):
    k, p, loc = promote_args_inexact("bernoulli.logpmf", k, p, loc)
    x = k - loc
    log_probs = xlogy(x, p) + xlog1py(jnp.const(k, 1) - x, -p)
    return jnp.where((x < 0) | (x > 1), -np.inf, log_probs)


@dispatched
def pmf(k, p, loc=0):
    return jnp.exp(logpmf(k, p, loc))


@dispatched
def cdf(k, p):
    k, p = promote_args_inexact("bernoulli.cdf", k, p)
    zero, one = jnp.const(k, 0), jnp.const(k, 1)
    return jnp.select(
        [jnp.isnan(k) | jnp.isnan(p) | (p < 0) | (p > 1), k < 0, (k >= 0) & (k < 1), k >= 1],
        [np.nan, zero, one - p, one])


@dispatched
def ppf(q, p):
    q, p = promote_args_inexact("bernoulli.ppf", q, p)
    zero, one = jnp.const(q, 0), jnp.const(q, 1)
    invalid = jnp.isnan(q) | jnp.isnan(p) | (p < 0) | (p > 1) | (q < 0) | (q > 1)
    return jnp.where(invalid, np.nan, jnp.where(q <= one - p, zero, one))

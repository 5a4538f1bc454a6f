"""The beta-binomial distribution (jax.scipy.stats.betabinom)."""
from __future__ import annotations

import numpy as np

from mlax._src.scipy import common as jnp
from mlax._src.scipy.common import dispatched, promote_args_inexact

from mlax._src.scipy.special import betaln


@dispatched
def logpmf(k, n, a, b, loc=0):
    k, n, a, b, loc = promote_args_inexact("betabinom.logpmf", k, n, a, b, loc)
    y = jnp.floor(k) - loc
    combiln = -(jnp.log1p(n) + betaln(n - y + 1, y + 1))
    log_probs = combiln + (betaln(y + a, n - y + b) - betaln(a, b))
    log_probs = jnp.where((y == 0) & (n == 0), 0.0, log_probs)
    log_probs = jnp.where((y < -loc) | (y > n) | (y + a <= 0), -np.inf, log_probs)
    return jnp.where((n < 0) | (a <= 0) | (b <= 0), np.nan, log_probs)


@dispatched
def pmf(k, n, a, b, loc=0):
    return jnp.exp(logpmf(k, n, a, b, loc))

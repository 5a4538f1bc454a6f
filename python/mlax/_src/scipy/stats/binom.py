"""The binomial distribution (jax.scipy.stats.binom)."""
from __future__ import annotations

import numpy as np

from mlax._src.scipy import common as jnp
from mlax._src.scipy.common import dispatched, promote_args_inexact

from mlax._src.scipy.special import gammaln, xlog1py, xlogy


@dispatched
def logpmf(k, n, p, loc=0):
    k, n, p, loc = promote_args_inexact("binom.logpmf", k, n, p, loc)
    y = k - loc
    comb_term = gammaln(n + 1) - (gammaln(y + 1) + gammaln(n - y + 1))
    log_linear_term = xlogy(y, p) + xlog1py(n - y, -p)
    log_probs = comb_term + log_linear_term
    log_probs = jnp.where(((y == 0) & (n == 0)) | (log_linear_term == 0), 0.0, log_probs)
    return jnp.where((k >= loc) & (k < loc + n + 1), log_probs, -np.inf)


@dispatched
def pmf(k, n, p, loc=0):
    return jnp.exp(logpmf(k, n, p, loc))

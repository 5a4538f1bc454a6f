"""The negative binomial distribution (jax.scipy.stats.nbinom)."""
from __future__ import annotations

import numpy as np

from mlax._src.scipy import common as jnp
from mlax._src.scipy.common import dispatched, promote_args_inexact

from mlax._src.scipy.special import gammaln, xlogy


@dispatched
def logpmf(k, n, p, loc=0):
    k, n, p, loc = promote_args_inexact("nbinom.logpmf", k, n, p, loc)
    one = jnp.const(k, 1)
    y = k - loc
    comb_term = gammaln(y + n) - gammaln(n) - gammaln(y + one)
    log_probs = comb_term + (xlogy(n, p) + xlogy(y, one - p))
    return jnp.where(k < loc, -np.inf, log_probs)


@dispatched
def pmf(k, n, p, loc=0):
    return jnp.exp(logpmf(k, n, p, loc))

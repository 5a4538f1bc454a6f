"""The exponential distribution (jax.scipy.stats.expon)."""
from __future__ import annotations

import numpy as np

from mlax._src.scipy import common as jnp
from mlax._src.scipy.common import dispatched, promote_args_inexact

from mlax._src.nn.functions import log1mexp


@dispatched
def logpdf(x, loc=0, scale=1):
    x, loc, scale = promote_args_inexact("expon.logpdf", x, loc, scale)
    log_probs = -((x - loc) / scale + jnp.log(scale))
    return jnp.where(x < loc, -np.inf, log_probs)


@dispatched
def pdf(x, loc=0, scale=1):
    return jnp.exp(logpdf(x, loc, scale))


@dispatched
def cdf(x, loc=0, scale=1):
    x, loc, scale = promote_args_inexact("expon.cdf", x, loc, scale)
    neg_scaled_x = (loc - x) / scale
    return jnp.where(x < loc, jnp.zeros_like(neg_scaled_x), -jnp.expm1(neg_scaled_x))


@dispatched
def logcdf(x, loc=0, scale=1):
    # log(1 - e^-z) by log1mexp: log1p(-sf) was -inf for z below eps
    # (logcdf(1e-10) in float32; SciPy: -23.03)
    x, loc, scale = promote_args_inexact("expon.logcdf", x, loc, scale)
    below = x < loc
    scaled_x = jnp.where(below, jnp.const(x, 1), (x - loc) / scale)
    return jnp.where(below, -np.inf, log1mexp(scaled_x))


@dispatched
def logsf(x, loc=0, scale=1):
    x, loc, scale = promote_args_inexact("expon.logsf", x, loc, scale)
    neg_scaled_x = (loc - x) / scale
    return jnp.where(x < loc, jnp.zeros_like(neg_scaled_x), neg_scaled_x)


@dispatched
def sf(x, loc=0, scale=1):
    return jnp.exp(logsf(x, loc, scale))


@dispatched
def ppf(q, loc=0, scale=1):
    q, loc, scale = promote_args_inexact("expon.ppf", q, loc, scale)
    return jnp.where(jnp.isnan(q) | (q < 0) | (q > 1), np.nan, loc - scale * jnp.log1p(-q))

"""The normal distribution truncated to [a, b] (in standard units)
(jax.scipy.stats.truncnorm)."""
from __future__ import annotations

import numpy as np

from mlax._src.scipy import common as jnp
from mlax._src.scipy.common import dispatched, promote_args_inexact

from mlax._src.nn.functions import logsumexp
from mlax._src.scipy.special import log_ndtr, ndtr
from mlax._src.scipy.stats import norm


def _log_diff(x, y):
    """log(exp(x) - exp(y)), stably."""
    return logsumexp(jnp.stack([x, y]), b=jnp.stack([jnp.ones_like(x), -jnp.ones_like(y)]),
                     axis=0)


def _log_gauss_mass(a, b):
    """log P(a < Z < b) for a standard normal Z: by the tail nearest each
    interval, or 1 - both tails when it holds the median."""
    a, b = jnp.promote_args("truncnorm", jnp.asarray(a), jnp.asarray(b))
    left = b <= 0
    right = a > 0
    central = ~(left | right)
    a_tail = jnp.where(right, -b, a)
    b_tail = jnp.where(right, -a, b)
    mass_tail = _log_diff(log_ndtr(b_tail), log_ndtr(a_tail))
    mass_central = jnp.log1p(-ndtr(a) - ndtr(-b))
    return jnp.where(central, mass_central, mass_tail)


@dispatched
def logpdf(x, a, b, loc=0, scale=1):
    x, a, b, loc, scale = promote_args_inexact("truncnorm.logpdf", x, a, b, loc, scale)
    val = norm.logpdf(x, loc, scale) - _log_gauss_mass(a, b)
    x_scaled = (x - loc) / scale
    val = jnp.where((x_scaled < a) | (x_scaled > b), -np.inf, val)
    return jnp.where(a >= b, np.nan, val)


@dispatched
def pdf(x, a, b, loc=0, scale=1):
    return jnp.exp(logpdf(x, a, b, loc, scale))


@dispatched
def logcdf(x, a, b, loc=0, scale=1):
    x, a, b, loc, scale = promote_args_inexact("truncnorm.logcdf", x, a, b, loc, scale)
    x = (x - loc) / scale
    mass = _log_gauss_mass(a, b)
    log_cdf = _log_gauss_mass(a, x) - mass
    log_sf = _log_gauss_mass(x, b) - mass
    # Near 1 the complement is the accurate one.
    out = jnp.select([x >= b, x <= a, log_cdf > -0.1, x > a],
                     [0, -np.inf, jnp.log1p(-jnp.exp(log_sf)), log_cdf])
    return jnp.where(a >= b, np.nan, out)


@dispatched
def cdf(x, a, b, loc=0, scale=1):
    return jnp.exp(logcdf(x, a, b, loc, scale))


@dispatched
def logsf(x, a, b, loc=0, scale=1):
    x, a, b, loc, scale = promote_args_inexact("truncnorm.logsf", x, a, b, loc, scale)
    return logcdf(-x, -b, -a, -loc, scale)


@dispatched
def sf(x, a, b, loc=0, scale=1):
    return jnp.exp(logsf(x, a, b, loc, scale))

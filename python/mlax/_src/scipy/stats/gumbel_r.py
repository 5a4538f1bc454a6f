"""The right-skewed Gumbel distribution (jax.scipy.stats.gumbel_r)."""
from __future__ import annotations

import numpy as np

from mlax._src.scipy import common as jnp
from mlax._src.scipy.common import dispatched, promote_args_inexact

from mlax._src.nn.functions import log1mexp
from mlax._src.scipy.special import xlogy


@dispatched
def logpdf(x, loc=0, scale=1):
    x, loc, scale = promote_args_inexact("gumbel_r.logpdf", x, loc, scale)
    z = (x - loc) / scale
    return jnp.where(scale > 0, xlogy(-1, scale) - (z + jnp.exp(-z)), np.nan)


@dispatched
def pdf(x, loc=0, scale=1):
    return jnp.exp(logpdf(x, loc, scale))


@dispatched
def logcdf(x, loc=0, scale=1):
    x, loc, scale = promote_args_inexact("gumbel_r.logcdf", x, loc, scale)
    z = (x - loc) / scale
    return jnp.where(scale > 0, -jnp.exp(-z), np.nan)


@dispatched
def cdf(x, loc=0, scale=1):
    return jnp.exp(logcdf(x, loc, scale))


@dispatched
def ppf(p, loc=0, scale=1):
    p, loc, scale = promote_args_inexact("gumbel_r.ppf", p, loc, scale)
    quantile = loc - scale * jnp.log(xlogy(-1, p))
    return jnp.where((p > 0) & (p < 1), quantile, np.nan)


@dispatched
def sf(x, loc=0, scale=1):
    x, loc, scale = promote_args_inexact("gumbel_r.sf", x, loc, scale)
    neg_z = (loc - x) / scale
    return jnp.where(scale > 0, 1 - jnp.exp(-jnp.exp(neg_z)), np.nan)


@dispatched
def logsf(x, loc=0, scale=1):
    x, loc, scale = promote_args_inexact("gumbel_r.logsf", x, loc, scale)
    neg_z = (loc - x) / scale
    return jnp.where(scale > 0, log1mexp(jnp.exp(neg_z)), np.nan)

"""The left-skewed Gumbel distribution (jax.scipy.stats.gumbel_l)."""
from __future__ import annotations

import numpy as np

from mlax._src.scipy import common as jnp
from mlax._src.scipy.common import dispatched, promote_args_inexact

from mlax._src.scipy.special import xlog1py, xlogy
from mlax._src.scipy.stats.gumbel_r import log1mexp_exp


@dispatched
def logpdf(x, loc=0, scale=1):
    x, loc, scale = promote_args_inexact("gumbel_l.logpdf", x, loc, scale)
    z = (x - loc) / scale
    return jnp.where(scale > 0, xlogy(-1, scale) + (z - jnp.exp(z)), np.nan)


@dispatched
def pdf(x, loc=0, scale=1):
    return jnp.exp(logpdf(x, loc, scale))


@dispatched
def logcdf(x, loc=0, scale=1):
    x, loc, scale = promote_args_inexact("gumbel_l.logcdf", x, loc, scale)
    z = (x - loc) / scale
    return jnp.where(scale > 0, log1mexp_exp(z), np.nan)


@dispatched
def cdf(x, loc=0, scale=1):
    return jnp.exp(logcdf(x, loc, scale))


@dispatched
def ppf(p, loc=0, scale=1):
    p, loc, scale = promote_args_inexact("gumbel_l.ppf", p, loc, scale)
    # -inf at p = 0 and inf at p = 1, as SciPy (JAX gives NaN)
    quantile = loc + scale * jnp.log(xlog1py(-1, -p))
    return jnp.where((p >= 0) & (p <= 1), quantile, np.nan)


@dispatched
def sf(x, loc=0, scale=1):
    return jnp.exp(logsf(x, loc, scale))


@dispatched
def logsf(x, loc=0, scale=1):
    x, loc, scale = promote_args_inexact("gumbel_l.logsf", x, loc, scale)
    z = (x - loc) / scale
    return jnp.where(scale > 0, -jnp.exp(z), np.nan)

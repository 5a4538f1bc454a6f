"""The normal distribution (jax.scipy.stats.norm)."""
from __future__ import annotations

import numpy as np

from mlax._src.scipy import common as jnp
from mlax._src.scipy import special
from mlax._src.scipy.common import dispatched, promote_args_inexact


@dispatched
def logpdf(x, loc=0, scale=1):
    x, loc, scale = promote_args_inexact("norm.logpdf", x, loc, scale)
    scale_sqrd = scale * scale
    log_normalizer = jnp.log(jnp.const(x, 2 * np.pi) * scale_sqrd)
    quadratic = (x - loc) ** 2 / scale_sqrd
    return (log_normalizer + quadratic) / jnp.const(x, -2)


@dispatched
def pdf(x, loc=0, scale=1):
    return jnp.exp(logpdf(x, loc, scale))


@dispatched
def cdf(x, loc=0, scale=1):
    x, loc, scale = promote_args_inexact("norm.cdf", x, loc, scale)
    return special.ndtr((x - loc) / scale)


@dispatched
def logcdf(x, loc=0, scale=1):
    x, loc, scale = promote_args_inexact("norm.logcdf", x, loc, scale)
    return special.log_ndtr((x - loc) / scale)


@dispatched
def ppf(q, loc=0, scale=1):
    return jnp.asarray(special.ndtri(q) * scale + loc, float)


@dispatched
def logsf(x, loc=0, scale=1):
    x, loc, scale = promote_args_inexact("norm.logsf", x, loc, scale)
    return logcdf(-x, -loc, scale)


@dispatched
def sf(x, loc=0, scale=1):
    x, loc, scale = promote_args_inexact("norm.sf", x, loc, scale)
    return cdf(-x, -loc, scale)


@dispatched
def isf(q, loc=0, scale=1):
    # -ndtri(q), not ndtri(1 - q): 1 - q rounds away a small q (float32
    # isf(1e-7) was 5.199, not 5.199338..., and isf(1e-30) inf, not 11.46).
    return jnp.asarray(loc - special.ndtri(jnp.asarray(q)) * scale, float)

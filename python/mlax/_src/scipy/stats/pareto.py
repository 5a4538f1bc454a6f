"""The Pareto distribution (jax.scipy.stats.pareto)."""
from __future__ import annotations

import numpy as np

from mlax._src.scipy import common as jnp
from mlax._src.scipy.common import dispatched, promote_args_inexact

from mlax._src.lax import lax


@dispatched
def logpdf(x, b, loc=0, scale=1):
    x, b, loc, scale = promote_args_inexact("pareto.logpdf", x, b, loc, scale)
    scaled_x = (x - loc) / scale
    log_probs = -(jnp.log(scale / b) + (b + 1) * jnp.log(scaled_x))
    return jnp.where(x < loc + scale, -np.inf, log_probs)


@dispatched
def pdf(x, b, loc=0, scale=1):
    return jnp.exp(logpdf(x, b, loc, scale))


@dispatched
def cdf(x, b, loc=0, scale=1):
    x, b, loc, scale = promote_args_inexact("pareto.cdf", x, b, loc, scale)
    out = 1 - lax.pow((x - loc) / scale, -b)
    return jnp.where(x < loc + scale, jnp.const(x, 0), out)


@dispatched
def logcdf(x, b, loc=0, scale=1):
    x, b, loc, scale = promote_args_inexact("pareto.logcdf", x, b, loc, scale)
    out = jnp.log1p(-lax.pow((x - loc) / scale, -b))
    return jnp.where(x < loc + scale, -np.inf, out)


@dispatched
def logsf(x, b, loc=0, scale=1):
    x, b, loc, scale = promote_args_inexact("pareto.logsf", x, b, loc, scale)
    out = -(b * jnp.log((x - loc) / scale))
    return jnp.where(x < loc + scale, jnp.const(x, 0), out)


@dispatched
def sf(x, b, loc=0, scale=1):
    return jnp.exp(logsf(x, b, loc, scale))


@dispatched
def ppf(q, b, loc=0, scale=1):
    q, b, loc, scale = promote_args_inexact("pareto.ppf", q, b, loc, scale)
    out = loc + scale * lax.pow(1 - q, -(1 / b))
    return jnp.where(jnp.isnan(q) | (q < 0) | (q > 1), np.nan, out)

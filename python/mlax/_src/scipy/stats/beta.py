"""The beta distribution (jax.scipy.stats.beta)."""
from __future__ import annotations

import numpy as np

from mlax._src.lax.math import clamp
from mlax._src.scipy import common as jnp
from mlax._src.scipy.common import dispatched, promote_args_inexact

from mlax._src.scipy.special import betainc, betaln, xlog1py, xlogy


@dispatched
def logpdf(x, a, b, loc=0, scale=1):
    x, a, b, loc, scale = promote_args_inexact("beta.logpdf", x, a, b, loc, scale)
    y = (x - loc) / scale
    log_probs = -betaln(a, b) + (xlogy(a - 1, y) + xlog1py(b - 1, -y)) - jnp.log(scale)
    out = jnp.where((x > loc + scale) | (x < loc), -np.inf, log_probs)
    return jnp.where((a <= 0) | (b <= 0) | (scale <= 0), np.nan, out)


@dispatched
def pdf(x, a, b, loc=0, scale=1):
    return jnp.exp(logpdf(x, a, b, loc, scale))


@dispatched
def cdf(x, a, b, loc=0, scale=1):
    x, a, b, loc, scale = promote_args_inexact("beta.cdf", x, a, b, loc, scale)
    return betainc(a, b, clamp(0.0, (x - loc) / scale, 1.0))


@dispatched
def logcdf(x, a, b, loc=0, scale=1):
    return jnp.log(cdf(x, a, b, loc, scale))


@dispatched
def sf(x, a, b, loc=0, scale=1):
    x, a, b, loc, scale = promote_args_inexact("beta.sf", x, a, b, loc, scale)
    return betainc(b, a, 1 - clamp(0.0, (x - loc) / scale, 1.0))


@dispatched
def logsf(x, a, b, loc=0, scale=1):
    return jnp.log(sf(x, a, b, loc, scale))

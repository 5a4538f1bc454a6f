"""The gamma distribution (jax.scipy.stats.gamma)."""
from __future__ import annotations

import numpy as np

from mlax._src.lax.math import clamp
from mlax._src.scipy import common as jnp
from mlax._src.scipy.common import dispatched, promote_args_inexact

from mlax._src.lax.special import log_igamma, log_igammac
from mlax._src.scipy.special import gammainc, gammaincc, gammaln, xlogy


@dispatched
def logpdf(x, a, loc=0, scale=1):
    x, a, loc, scale = promote_args_inexact("gamma.logpdf", x, a, loc, scale)
    ok = x >= loc
    y = jnp.where(ok, (x - loc) / scale, jnp.const(x, 1))
    log_probs = (xlogy(a - 1, y) - y) - (gammaln(a) + jnp.log(scale))
    return jnp.where(ok, log_probs, -np.inf)


@dispatched
def pdf(x, a, loc=0, scale=1):
    return jnp.exp(logpdf(x, a, loc, scale))


@dispatched
def cdf(x, a, loc=0, scale=1):
    x, a, loc, scale = promote_args_inexact("gamma.cdf", x, a, loc, scale)
    return gammainc(a, clamp(0.0, (x - loc) / scale, np.inf))


@dispatched
def logcdf(x, a, loc=0, scale=1):
    # log P in log space: finite where the cdf underflows (JAX: -inf)
    x, a, loc, scale = promote_args_inexact("gamma.logcdf", x, a, loc, scale)
    return log_igamma(a, clamp(0.0, (x - loc) / scale, np.inf))


@dispatched
def sf(x, a, loc=0, scale=1):
    x, a, loc, scale = promote_args_inexact("gamma.sf", x, a, loc, scale)
    y = (x - loc) / scale
    return jnp.where(y < 0, 1, gammaincc(a, y))


@dispatched
def logsf(x, a, loc=0, scale=1):
    # log Q in log space: finite where the sf underflows (JAX: -inf)
    x, a, loc, scale = promote_args_inexact("gamma.logsf", x, a, loc, scale)
    return log_igammac(a, clamp(0.0, (x - loc) / scale, np.inf))

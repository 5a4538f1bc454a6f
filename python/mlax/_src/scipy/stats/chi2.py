"""The chi-squared distribution (jax.scipy.stats.chi2)."""
from __future__ import annotations

import numpy as np

from mlax._src.lax.math import clamp
from mlax._src.scipy import common as jnp
from mlax._src.scipy.common import dispatched, promote_args_inexact

from mlax._src.lax import math as lax_math
from mlax._src.lax.special import log_igamma, log_igammac
from mlax._src.scipy.special import gammainc, gammaincc


@dispatched
def logpdf(x, df, loc=0, scale=1):
    x, df, loc, scale = promote_args_inexact("chi2.logpdf", x, df, loc, scale)
    y = (x - loc) / scale
    half_df = df / 2
    kernel = (half_df - 1) * jnp.log(y) - y / 2
    normalizer = -(lax_math.lgamma(half_df) + jnp.log(jnp.const(x, 2)) * df / 2)
    return jnp.where(x < loc, -np.inf, normalizer - jnp.log(scale) + kernel)


@dispatched
def pdf(x, df, loc=0, scale=1):
    return jnp.exp(logpdf(x, df, loc, scale))


@dispatched
def cdf(x, df, loc=0, scale=1):
    x, df, loc, scale = promote_args_inexact("chi2.cdf", x, df, loc, scale)
    return gammainc(df / 2, clamp(0.0, (x - loc) / (scale * 2), np.inf))


@dispatched
def logcdf(x, df, loc=0, scale=1):
    # log P in log space: finite where the cdf underflows (JAX: -inf)
    x, df, loc, scale = promote_args_inexact("chi2.logcdf", x, df, loc, scale)
    return log_igamma(df / 2, clamp(0.0, (x - loc) / (scale * 2), np.inf))


@dispatched
def sf(x, df, loc=0, scale=1):
    x, df, loc, scale = promote_args_inexact("chi2.sf", x, df, loc, scale)
    return gammaincc(df / 2, clamp(0.0, (x - loc) / (scale * 2), np.inf))


@dispatched
def logsf(x, df, loc=0, scale=1):
    # log Q in log space: finite where the sf underflows (JAX: -inf)
    x, df, loc, scale = promote_args_inexact("chi2.logsf", x, df, loc, scale)
    return log_igammac(df / 2, clamp(0.0, (x - loc) / (scale * 2), np.inf))

"""The right-skewed Gumbel distribution (jax.scipy.stats.gumbel_r)."""
from __future__ import annotations

import numpy as np

from mlax._src.scipy import common as jnp
from mlax._src.scipy.common import dispatched, promote_args_inexact

from mlax._src.nn.functions import log1mexp
from mlax._src.scipy.special import xlogy


def log1mexp_exp(u):
    """log(1 - exp(-exp(u))), the log of the standard right Gumbel's survival
    function at -u: log1mexp(exp(u)), and u - e^u / 2 + e^2u / 24 where
    e^u < 1e-3 (there to 4e-17; e^u underflows to 0 for u below about -87 in
    float32, which gave -inf for a log that is about u)."""
    t = jnp.exp(u)
    small = t < 1e-3
    series = u - t * (0.5 - t / 24)
    return jnp.where(small, series, log1mexp(jnp.where(small, jnp.const(t, 1), t)))


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
    # -inf at p = 0 and inf at p = 1, as SciPy (JAX gives NaN)
    quantile = loc - scale * jnp.log(xlogy(-1, p))
    return jnp.where((p >= 0) & (p <= 1), quantile, np.nan)


@dispatched
def sf(x, loc=0, scale=1):
    x, loc, scale = promote_args_inexact("gumbel_r.sf", x, loc, scale)
    neg_z = (loc - x) / scale
    # -expm1, not 1 - exp: the tail (about e^-z) is not lost to rounding
    return jnp.where(scale > 0, -jnp.expm1(-jnp.exp(neg_z)), np.nan)


@dispatched
def logsf(x, loc=0, scale=1):
    x, loc, scale = promote_args_inexact("gumbel_r.logsf", x, loc, scale)
    neg_z = (loc - x) / scale
    return jnp.where(scale > 0, log1mexp_exp(neg_z), np.nan)

"""The logistic distribution (jax.scipy.stats.logistic)."""
from __future__ import annotations

from mlax._src.scipy import common as jnp
from mlax._src.scipy.common import dispatched, promote_args_inexact

from mlax._src.scipy.special import expit, logit


@dispatched
def logpdf(x, loc=0, scale=1):
    x, loc, scale = promote_args_inexact("logistic.logpdf", x, loc, scale)
    half_x = (x - loc) / scale / 2
    return -2 * jnp.logaddexp(half_x, -half_x) - jnp.log(scale)


@dispatched
def pdf(x, loc=0, scale=1):
    return jnp.exp(logpdf(x, loc, scale))


@dispatched
def ppf(x, loc=0, scale=1):
    x, loc, scale = promote_args_inexact("logistic.ppf", x, loc, scale)
    return logit(x) * scale + loc


@dispatched
def sf(x, loc=0, scale=1):
    x, loc, scale = promote_args_inexact("logistic.sf", x, loc, scale)
    return expit(-((x - loc) / scale))


@dispatched
def isf(x, loc=0, scale=1):
    x, loc, scale = promote_args_inexact("logistic.isf", x, loc, scale)
    return -logit(x) * scale + loc


@dispatched
def cdf(x, loc=0, scale=1):
    x, loc, scale = promote_args_inexact("logistic.cdf", x, loc, scale)
    return expit((x - loc) / scale)

"""The Laplace distribution (jax.scipy.stats.laplace)."""
from __future__ import annotations

from mlax._src.scipy import common as jnp
from mlax._src.scipy.common import dispatched, promote_args_inexact


@dispatched
def logpdf(x, loc=0, scale=1):
    x, loc, scale = promote_args_inexact("laplace.logpdf", x, loc, scale)
    return -(jnp.abs(x - loc) / scale + jnp.log(2 * scale))


@dispatched
def pdf(x, loc=0, scale=1):
    return jnp.exp(logpdf(x, loc, scale))


@dispatched
def cdf(x, loc=0, scale=1):
    x, loc, scale = promote_args_inexact("laplace.cdf", x, loc, scale)
    diff = (x - loc) / scale
    return jnp.where(diff <= 0, 0.5 * jnp.exp(diff), 1 - 0.5 * jnp.exp(-diff))

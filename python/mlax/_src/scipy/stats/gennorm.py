"""The generalized normal distribution (jax.scipy.stats.gennorm)."""
from __future__ import annotations

from mlax._src.scipy import common as jnp
from mlax._src.scipy.common import dispatched, promote_args_inexact

from mlax._src.lax import math as lax_math
from mlax._src.lax import special as lax_special


@dispatched
def logpdf(x, beta):
    x, beta = promote_args_inexact("gennorm.logpdf", x, beta)
    return jnp.log(0.5 * beta) - lax_math.lgamma(1 / beta) - jnp.abs(x) ** beta


@dispatched
def cdf(x, beta):
    x, beta = promote_args_inexact("gennorm.cdf", x, beta)
    return 0.5 * (1 + jnp.sign(x) * lax_special.igamma(1 / beta, jnp.abs(x) ** beta))


@dispatched
def pdf(x, beta):
    return jnp.exp(logpdf(x, beta))

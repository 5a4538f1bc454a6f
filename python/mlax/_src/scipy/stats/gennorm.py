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
    # Q / 2 below 0 and 1 - Q / 2 above, Q = igammac(1/beta, |x|^beta): the
    # lower tail without 1 - P's cancellation (cdf(-30., 1.) in float32 was
    # 0, JAX too; SciPy: 4.7e-14)
    half_q = 0.5 * lax_special.igammac(1 / beta, jnp.abs(x) ** beta)
    return jnp.where(x < 0, half_q, 1 - half_q)


@dispatched
def pdf(x, beta):
    return jnp.exp(logpdf(x, beta))

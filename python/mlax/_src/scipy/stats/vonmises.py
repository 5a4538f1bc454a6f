"""The von Mises distribution (jax.scipy.stats.vonmises)."""
from __future__ import annotations

import numpy as np

from mlax._src.scipy import common as jnp
from mlax._src.scipy.common import dispatched, promote_args_inexact

from mlax._src.lax import special as lax_special


@dispatched
def logpdf(x, kappa):
    x, kappa = promote_args_inexact("vonmises.logpdf", x, kappa)
    out = kappa * (jnp.cos(x) - 1) - jnp.log(2 * np.pi * lax_special.bessel_i0e(kappa))
    return jnp.where(kappa > 0, out, np.nan)


@dispatched
def pdf(x, kappa):
    return jnp.exp(logpdf(x, kappa))

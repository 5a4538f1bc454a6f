"""The wrapped Cauchy distribution on [0, 2 pi] (jax.scipy.stats.wrapcauchy)."""
from __future__ import annotations

import numpy as np

from mlax._src.scipy import common as jnp
from mlax._src.scipy.common import dispatched, promote_args_inexact


@dispatched
def logpdf(x, c):
    x, c = promote_args_inexact("wrapcauchy.logpdf", x, c)
    inside = jnp.log(1 - c * c) - jnp.log(2 * np.pi) - jnp.log(1 + c * c - 2 * c * jnp.cos(x))
    in_support = jnp.where((x >= 0) & (x <= np.pi * 2), inside, -np.inf)
    return jnp.where((c > 0) & (c < 1), in_support, np.nan)


@dispatched
def pdf(x, c):
    return jnp.exp(logpdf(x, c))

"""The uniform distribution on [loc, loc + scale] (jax.scipy.stats.uniform)."""
from __future__ import annotations

import numpy as np

from mlax._src.scipy import common as jnp
from mlax._src.scipy.common import dispatched, promote_args_inexact


@dispatched
def logpdf(x, loc=0, scale=1):
    x, loc, scale = promote_args_inexact("uniform.logpdf", x, loc, scale)
    return jnp.where((x > loc + scale) | (x < loc), -np.inf, -jnp.log(scale))


@dispatched
def pdf(x, loc=0, scale=1):
    return jnp.exp(logpdf(x, loc, scale))


@dispatched
def cdf(x, loc=0, scale=1):
    x, loc, scale = promote_args_inexact("uniform.cdf", x, loc, scale)
    zero, one = np.asarray(0, jnp.dtype(x)), np.asarray(1, jnp.dtype(x))  # strong, as JAX
    return jnp.select([x < loc, x > loc + scale, (x >= loc) & (x <= loc + scale)],
                      [zero, one, (x - loc) / scale])


@dispatched
def ppf(q, loc=0, scale=1):
    q, loc, scale = promote_args_inexact("uniform.ppf", q, loc, scale)
    return jnp.where(jnp.isnan(q) | (q < 0) | (q > 1), np.nan, loc + scale * q)

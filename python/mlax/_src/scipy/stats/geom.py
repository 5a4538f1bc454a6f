"""The geometric distribution (jax.scipy.stats.geom)."""
from __future__ import annotations

import numpy as np

from mlax._src.scipy import common as jnp
from mlax._src.scipy.common import dispatched, promote_args_inexact

from mlax._src.scipy.special import xlog1py


@dispatched
def logpmf(k, p, loc=0):
    k, p, loc = promote_args_inexact("geom.logpmf", k, p, loc)
    x = k - loc
    return jnp.where(x <= 0, -np.inf, xlog1py(x - jnp.const(k, 1), -p) + jnp.log(p))


@dispatched
def pmf(k, p, loc=0):
    return jnp.exp(logpmf(k, p, loc))

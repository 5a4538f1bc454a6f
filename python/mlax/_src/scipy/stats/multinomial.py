"""The multinomial distribution (jax.scipy.stats.multinomial)."""
from __future__ import annotations

import numpy as np

from mlax._src.scipy import common as jnp
from mlax._src.scipy.common import dispatched, promote_args_inexact

from mlax._src.base import dtypes
from mlax._src.numpy.lax_numpy import promote_dtypes
from mlax._src.scipy.special import gammaln, xlogy


@dispatched
def logpmf(x, n, p):
    p, = promote_args_inexact("multinomial.logpmf", p)
    x, n = (jnp.asarray(v) for v in promote_dtypes("multinomial.logpmf", x, n))
    if not dtypes.is_int(x.dtype):
        raise ValueError(f"x and n must be of integer type; got x.dtype={x.dtype}, "
                         f"n.dtype={n.dtype}")
    x, n = x.astype(p.dtype), n.astype(p.dtype)
    log_probs = gammaln(n + 1) + jnp.sum(xlogy(x, p) - gammaln(x + 1), axis=-1)
    return jnp.where(jnp.sum(x) == n, log_probs, -np.inf)


@dispatched
def pmf(x, n, p):
    return jnp.exp(logpmf(x, n, p))

"""The beta distribution (jax.scipy.stats.beta)."""
from __future__ import annotations

import numpy as np

from mlax._src.lax.math import clamp
from mlax._src.scipy import common as jnp
from mlax._src.scipy.common import dispatched, promote_args_inexact

from mlax._src.scipy.special import betainc, betaln, xlog1py, xlogy


@dispatched
def logpdf(x, a, b, loc=0, scale=1):
    x, a, b, loc, scale = promote_args_inexact("beta.logpdf", x, a, b, loc, scale)
    y = (x - loc) / scale
    log_probs = -betaln(a, b) + (xlogy(a - 1, y) + xlog1py(b - 1, -y)) - jnp.log(scale)
    out = jnp.where((x > loc + scale) | (x < loc), -np.inf, log_probs)
    return jnp.where((a <= 0) | (b <= 0) | (scale <= 0), np.nan, out)


@dispatched
def pdf(x, a, b, loc=0, scale=1):
    return jnp.exp(logpdf(x, a, b, loc, scale))


@dispatched
def cdf(x, a, b, loc=0, scale=1):
    x, a, b, loc, scale = promote_args_inexact("beta.cdf", x, a, b, loc, scale)
    return betainc(a, b, clamp(0.0, (x - loc) / scale, 1.0))


def _smaller_tail(x, a, b, loc, scale):
    """(v, upper): v the tail of y = (x - loc) / scale on the far side of the
    mean a / (a + b), I_y(a, b) below it and I_(1-y)(b, a) above (upper),
    the small one away from the bulk; the other tail is 1 - v and its log
    log1p(-v). One betainc, as before. sf's betainc(b, a, 1 - y) rounded
    1 - 1e-30 to 1 (sf(1e-30, 0.01, 5.) was 1.0, JAX too; SciPy: 0.488) and
    logcdf's log(cdf) rounded to 0 (logcdf(0.9, 50., 50.): -3.2e-24)."""
    y = clamp(0.0, (x - loc) / scale, 1.0)
    upper = y > a / (a + b)
    return betainc(jnp.where(upper, b, a), jnp.where(upper, a, b),
                   jnp.where(upper, 1 - y, y)), upper


@dispatched
def logcdf(x, a, b, loc=0, scale=1):
    x, a, b, loc, scale = promote_args_inexact("beta.logcdf", x, a, b, loc, scale)
    v, upper = _smaller_tail(x, a, b, loc, scale)
    return jnp.where(upper, jnp.log1p(-v), jnp.log(v))


@dispatched
def sf(x, a, b, loc=0, scale=1):
    x, a, b, loc, scale = promote_args_inexact("beta.sf", x, a, b, loc, scale)
    v, upper = _smaller_tail(x, a, b, loc, scale)
    return jnp.where(upper, v, 1 - v)


@dispatched
def logsf(x, a, b, loc=0, scale=1):
    x, a, b, loc, scale = promote_args_inexact("beta.logsf", x, a, b, loc, scale)
    v, upper = _smaller_tail(x, a, b, loc, scale)
    return jnp.where(upper, jnp.log(v), jnp.log1p(-v))

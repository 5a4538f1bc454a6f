"""The Cauchy distribution (jax.scipy.stats.cauchy)."""
from __future__ import annotations

import numpy as np

from mlax._src.scipy import common as jnp
from mlax._src.scipy.common import dispatched, promote_args_inexact

from mlax._src.numpy.ufuncs import arctan2
from mlax._src.numpy.ufuncs import tan  # noqa: F401


@dispatched
def logpdf(x, loc=0, scale=1):
    x, loc, scale = promote_args_inexact("cauchy.logpdf", x, loc, scale)
    scaled_x = (x - loc) / scale
    return -(jnp.log(jnp.const(x, np.pi) * scale) + jnp.log1p_square(scaled_x))


@dispatched
def pdf(x, loc=0, scale=1):
    return jnp.exp(logpdf(x, loc, scale))


def _cdf(z):
    # 1/2 + arctan(z)/pi as arctan2(1, -z)/pi: no cancellation in the lower
    # tail (1/2 + arctan(-1e10)/pi rounds to ~1e-8 in float32, not 3.2e-11).
    return arctan2(jnp.ones_like(z), -z) / jnp.const(z, np.pi)


def _logcdf(z):
    # log(cdf) in the lower half, log1p(-sf) in the upper one.
    return jnp.where(z > 0, jnp.log1p(-_cdf(-z)), jnp.log(_cdf(z)))


@dispatched
def cdf(x, loc=0, scale=1):
    x, loc, scale = promote_args_inexact("cauchy.cdf", x, loc, scale)
    return _cdf((x - loc) / scale)


@dispatched
def logcdf(x, loc=0, scale=1):
    x, loc, scale = promote_args_inexact("cauchy.logcdf", x, loc, scale)
    return _logcdf((x - loc) / scale)


@dispatched
def sf(x, loc=0, scale=1):
    x, loc, scale = promote_args_inexact("cauchy.sf", x, loc, scale)
    return _cdf((loc - x) / scale)


@dispatched
def logsf(x, loc=0, scale=1):
    x, loc, scale = promote_args_inexact("cauchy.logsf", x, loc, scale)
    return _logcdf((loc - x) / scale)


def _standard_ppf(q):
    # tan(pi (q - 1/2)), with no angle that rounds near a pole: q - 1/2 and
    # 1 - q are exact where used, and the tails go through -1/tan(pi q) and
    # 1/tan(pi (1 - q)). tan(pi q - pi/2) gave ppf(0) = +3.4e7, not -inf, and
    # ppf(1e-30) = +3.4e7, not -3.2e29.
    pi = jnp.const(q, np.pi)
    one, half = jnp.const(q, 1), jnp.const(q, 0.5)
    middle = tan(pi * (q - half))
    lower = -one / tan(pi * q)
    upper = one / tan(pi * (one - q))
    return jnp.where(q < 0.25, lower, jnp.where(q > 0.75, upper, middle))


@dispatched
def isf(q, loc=0, scale=1):
    q, loc, scale = promote_args_inexact("cauchy.isf", q, loc, scale)
    return loc - _standard_ppf(q) * scale


@dispatched
def ppf(q, loc=0, scale=1):
    q, loc, scale = promote_args_inexact("cauchy.ppf", q, loc, scale)
    return _standard_ppf(q) * scale + loc

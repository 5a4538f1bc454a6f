"""Student's t distribution (jax.scipy.stats.t)."""
from __future__ import annotations

import numpy as np

from mlax._src.scipy import common as jnp
from mlax._src.scipy.common import dispatched, promote_args_inexact

from mlax._src.lax import math as lax_math


@dispatched
def logpdf(x, df, loc=0, scale=1):
    x, df, loc, scale = promote_args_inexact("t.logpdf", x, df, loc, scale)
    scaled_x = (x - loc) / scale
    half_df = df / 2
    half_df_plus_half = half_df + 0.5
    normalize = (lax_math.lgamma(half_df) + jnp.log(scale * scale * jnp.const(x, np.pi)
                                                     * df) / 2) - lax_math.lgamma(half_df_plus_half)
    return -(normalize + half_df_plus_half * jnp.log1p(scaled_x * scaled_x / df))


@dispatched
def pdf(x, df, loc=0, scale=1):
    return jnp.exp(logpdf(x, df, loc, scale))

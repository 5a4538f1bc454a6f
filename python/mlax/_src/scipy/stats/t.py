"""Student's t distribution (jax.scipy.stats.t)."""
from __future__ import annotations

from mlax._src.scipy import common as jnp
from mlax._src.scipy.common import dispatched, promote_args_inexact

from mlax._src.scipy.special import betaln


@dispatched
def logpdf(x, df, loc=0, scale=1):
    x, df, loc, scale = promote_args_inexact("t.logpdf", x, df, loc, scale)
    scaled_x = (x - loc) / scale
    half_df = df / 2
    # log(Gamma(df/2) / Gamma(df/2 + 1/2)) as betaln(1/2, df/2) - log(pi)/2:
    # the lgamma difference cancels (logpdf(0., 1e6) in float32 was -1.0,
    # JAX too; SciPy: -0.919)
    normalize = betaln(jnp.const(df, 0.5), half_df) + jnp.log(df) / 2 + jnp.log(scale)
    return -(normalize + (half_df + 0.5) * jnp.log1p_square(scaled_x / jnp.sqrt(df)))


@dispatched
def pdf(x, df, loc=0, scale=1):
    return jnp.exp(logpdf(x, df, loc, scale))

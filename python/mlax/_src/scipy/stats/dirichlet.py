"""The Dirichlet distribution (jax.scipy.stats.dirichlet); the simplex
axis is the first axis of x."""
from __future__ import annotations

import numpy as np

from mlax._src.scipy import common as jnp
from mlax._src.scipy.common import dispatched

from mlax._src.core import tracer as core
from mlax._src.lax import lax
from mlax._src.scipy.special import gammaln, xlogy


def _is_simplex(x):
    return jnp.all(x > 0, axis=0) & (jnp.abs(jnp.sum(x, axis=0) - 1) < 1e-6)


@dispatched
def logpdf(x, alpha):
    x, alpha = (jnp.asarray(v) for v in jnp._promote_inexact("dirichlet.logpdf", x, alpha))
    if alpha.ndim != 1:
        raise ValueError(f"`alpha` must be one-dimensional; got alpha.shape={alpha.shape} "
                         f"(dirichlet.logpdf, at {core.user_location_str()})")
    if x.ndim == 0 or x.shape[0] not in (alpha.shape[0], alpha.shape[0] - 1):
        raise ValueError("`x` must have either the same number of entries as `alpha` or one "
                         f"entry fewer; got x.shape={x.shape}, alpha.shape={alpha.shape} "
                         f"(dirichlet.logpdf, at {core.user_location_str()})")
    if x.shape[0] != alpha.shape[0]:
        x = jnp.concatenate([x, 1 - jnp.sum(x, axis=0, keepdims=True)], axis=0)
    normalize_term = jnp.sum(gammaln(alpha)) - gammaln(jnp.sum(alpha))
    if x.ndim > 1:
        alpha = lax.broadcast_in_dim(alpha, alpha.shape + (1,) * (x.ndim - 1), (0,))
    log_probs = jnp.sum(xlogy(alpha - 1, x), axis=0) - normalize_term
    return jnp.where(_is_simplex(x), log_probs, -np.inf)


@dispatched
def pdf(x, alpha):
    return jnp.exp(logpdf(x, alpha))

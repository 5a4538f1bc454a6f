"""The multivariate normal distribution (jax.scipy.stats.multivariate_normal):
a scalar, scalar-times-identity or full covariance, through its Cholesky
factor."""
from __future__ import annotations

import numpy as np

from mlax._src.scipy import common as jnp
from mlax._src.scipy.common import dispatched

from mlax._src.numpy import linalg


@dispatched
def logpdf(x, mean, cov, allow_singular=None):
    if allow_singular is not None:
        raise NotImplementedError("allow_singular argument of multivariate_normal.logpdf")
    x, mean, cov = (jnp.asarray(v) for v in jnp._promote_inexact(
        "multivariate_normal.logpdf", x, mean, cov))
    log_2pi = np.log(2 * np.pi)
    if not mean.shape:
        return -1 / 2 * jnp.square(x - mean) / cov - 1 / 2 * (log_2pi + jnp.log(cov))
    n = mean.shape[-1]
    if not cov.shape:
        y = x - mean
        return (-1 / 2 * jnp.einsum("...i,...i->...", y, y) / cov
                - n / 2 * (log_2pi + jnp.log(cov)))
    if cov.ndim < 2 or cov.shape[-2:] != (n, n):
        raise ValueError("multivariate_normal.logpdf got incompatible shapes")
    chol = linalg.lax_cholesky(cov)
    diff = x - mean
    # Solve L y = (x - mean) for every batch element of the broadcast shapes.
    batch = jnp.broadcast_shapes(chol.shape[:-2], diff.shape[:-1])
    chol_b = jnp.broadcast_to(chol, batch + (n, n))
    diff_b = jnp.broadcast_to(diff, batch + (n,))
    y = linalg.triangular_solve(chol_b, diff_b[..., None], left_side=True, lower=True)[..., 0]
    return (-1 / 2 * jnp.einsum("...i,...i->...", y, y) - n / 2 * log_2pi
            - jnp.sum(jnp.log(jnp.diagonal(chol, axis1=-1, axis2=-2)), -1))


@dispatched
def pdf(x, mean, cov):
    return jnp.exp(logpdf(x, mean, cov))

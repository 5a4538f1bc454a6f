"""gaussian_kde (jax.scipy.stats.gaussian_kde): a Gaussian kernel density
estimate over a (d, n) dataset with optional weights, registered as a pytree
of (neff, dataset, weights, covariance, inv_cov) as JAX's, so it passes
through jit / vmap / grad."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mlax._src.base import dtypes
from mlax._src.base.tree import register_pytree_node_class
from mlax._src.core.primitives import aval_of
from mlax._src.numpy import linalg
from mlax._src.numpy.library import isscalar
from mlax._src.numpy.manipulation import atleast_1d, atleast_2d
from mlax._src.numpy.reductions import prod
from mlax._src.numpy.statistics import cov as _cov, diag
from mlax._src.numpy.tensor_contractions import dot
from mlax._src.numpy.ufuncs import power
from mlax._src.numpy.lax_numpy import squeeze
from mlax._src.numpy.util import _check_arg, _materialize, _promote_inexact
from mlax._src.random import prng as random
from mlax._src.scipy import common as jnp
from mlax._src.scipy.special import logsumexp, ndtr


def _inexact(*args):
    return [jnp.asarray(_materialize(a)) for a in _promote_inexact("gaussian_kde", *args)]


@register_pytree_node_class
@dataclass(frozen=True, init=False)
class gaussian_kde:  # noqa: N801 (JAX's name)
    """Gaussian kernel density estimator (jax.scipy.stats.gaussian_kde).

    dataset: (n,) or (d, n) real data; bw_method: "scott" (default),
    "silverman", a scalar factor or a callable of the estimator; weights:
    optional (n,) weights."""
    neff: object
    dataset: object
    weights: object
    covariance: object
    inv_cov: object

    def __init__(self, dataset, bw_method=None, weights=None):
        _check_arg("gaussian_kde", dataset)
        dataset = atleast_2d(jnp.asarray(dataset))
        if dtypes.is_complex(aval_of(dataset).dtype):
            raise NotImplementedError("gaussian_kde does not support complex data")
        if not int(np.prod(aval_of(dataset).shape)) > 1:
            raise ValueError("`dataset` input should have multiple elements.")
        d, n = aval_of(dataset).shape
        if weights is not None:
            _check_arg("gaussian_kde", weights)
            dataset, weights = _inexact(dataset, weights)
            weights = atleast_1d(weights)
            weights = weights / jnp.sum(weights)
            if weights.ndim != 1:
                raise ValueError("`weights` input should be one-dimensional.")
            if weights.shape[0] != n:
                raise ValueError("`weights` input should be of length n")
        else:
            dataset, = _inexact(dataset)
            weights = jnp.full(n, 1.0 / n, dtype=jnp.dtype(dataset))
        self._setattr("dataset", dataset)
        self._setattr("weights", weights)
        neff = self._setattr("neff", 1 / jnp.sum(weights ** 2))
        bw_method = "scott" if bw_method is None else bw_method
        if isinstance(bw_method, str) and bw_method == "scott":
            factor = power(neff, -1. / (d + 4))
        elif isinstance(bw_method, str) and bw_method == "silverman":
            factor = power(neff * (d + 2) / 4.0, -1. / (d + 4))
        elif isscalar(bw_method) and not isinstance(bw_method, str):
            factor = bw_method
        elif callable(bw_method):
            factor = bw_method(self)
        else:
            raise ValueError(
                "`bw_method` should be 'scott', 'silverman', a scalar, or a callable.")
        data_covariance = atleast_2d(_cov(dataset, rowvar=1, bias=False, aweights=weights))
        data_inv_cov = linalg.inv(data_covariance)
        self._setattr("covariance", data_covariance * factor ** 2)
        self._setattr("inv_cov", data_inv_cov / factor ** 2)

    def _setattr(self, name, value):
        object.__setattr__(self, name, value)
        return value

    def tree_flatten(self):
        return (self.neff, self.dataset, self.weights, self.covariance, self.inv_cov), None

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        del aux_data
        kde = cls.__new__(cls)
        for name, value in zip(("neff", "dataset", "weights", "covariance", "inv_cov"),
                               children):
            kde._setattr(name, value)
        return kde

    @property
    def d(self):
        return self.dataset.shape[0]

    @property
    def n(self):
        return self.dataset.shape[1]

    def evaluate(self, points):
        """The estimated density at `points` ((d, m), or (m,) when d == 1)."""
        _check_arg("evaluate", points)
        points = self._reshape_points(points)
        return _gaussian_kernel_eval(False, self.dataset.T, self.weights, points.T,
                                     self.inv_cov)

    def __call__(self, points):
        return self.evaluate(points)

    def pdf(self, x):
        """Probability density function."""
        return self.evaluate(x)

    def logpdf(self, x):
        """Log probability density function (a logsumexp over the kernels)."""
        _check_arg("logpdf", x)
        x = self._reshape_points(x)
        return _gaussian_kernel_eval(True, self.dataset.T, self.weights, x.T, self.inv_cov)

    def integrate_gaussian(self, mean, cov):
        """The integral of the density times a Gaussian N(mean, cov)."""
        mean = atleast_1d(squeeze(jnp.asarray(mean)))
        cov = atleast_2d(jnp.asarray(cov))
        if mean.shape != (self.d,):
            raise ValueError(f"mean does not have dimension {self.d}")
        if cov.shape != (self.d, self.d):
            raise ValueError(f"covariance does not have dimension {self.d}")
        chol = linalg.cho_factor(self.covariance + cov)
        norm = 1.0 / (jnp.sqrt(2 * np.pi) ** self.d * prod(diag(chol[0])))
        return _gaussian_kernel_convolve(chol, norm, self.dataset, self.weights, mean)

    def integrate_box_1d(self, low, high):
        """The integral of a 1-d density over [low, high]."""
        if self.d != 1:
            raise ValueError("integrate_box_1d() only handles 1D pdfs")
        if np.ndim(low) != 0 or np.ndim(high) != 0:
            raise ValueError("the limits of integration in integrate_box_1d must be scalars")
        sigma = squeeze(jnp.sqrt(self.covariance))
        low = squeeze((low - self.dataset) / sigma)
        high = squeeze((high - self.dataset) / sigma)
        return jnp.sum(self.weights * (ndtr(high) - ndtr(low)))

    def integrate_kde(self, other):
        """The integral of the product of two Gaussian KDEs."""
        if other.d != self.d:
            raise ValueError("KDEs are not the same dimensionality")
        chol = linalg.cho_factor(self.covariance + other.covariance)
        norm = 1.0 / (jnp.sqrt(2 * np.pi) ** self.d * prod(diag(chol[0])))
        sm, lg = (self, other) if self.n < other.n else (other, self)
        result = _convolve_all(chol, norm, lg.dataset, lg.weights, sm.dataset)
        return jnp.sum(result * sm.weights)

    def resample(self, key, shape=()):
        """`shape` draws from the estimate: an array of shape (d, *shape)."""
        shape = tuple(shape)
        ind_key, eps_key = random.split(key)
        ind = random.choice(ind_key, self.n, shape=shape, p=self.weights)
        eps = random.multivariate_normal(
            eps_key, jnp.zeros(self.d, jnp.dtype(self.covariance)), self.covariance,
            shape=shape, dtype=jnp.dtype(self.dataset)).T
        return self.dataset[:, ind] + eps

    def integrate_box(self, low_bounds, high_bounds, maxpts=None):
        """Not implemented (as in JAX)."""
        del low_bounds, high_bounds, maxpts
        raise NotImplementedError(
            "only 1D box integrations are supported; use `integrate_box_1d`")

    def set_bandwidth(self, bw_method=None):
        """Not implemented (as in JAX): the estimator is immutable; build a new
        one with the bw_method."""
        del bw_method
        raise NotImplementedError("dynamically changing the bandwidth method is not supported")

    def _reshape_points(self, points):
        points = jnp.asarray(points)
        if dtypes.is_complex(aval_of(points).dtype):
            raise NotImplementedError("gaussian_kde does not support complex coordinates")
        points = atleast_2d(points)
        d, m = points.shape
        if d != self.d:
            if d == 1 and m == self.d:
                points = jnp.reshape(points, (self.d, 1))
            else:
                raise ValueError(
                    f"points have dimension {d}, dataset has dimension {self.d}")
        return points


def _gaussian_kernel_convolve(chol, norm, target, weights, mean):
    diff = target - mean[:, None]
    alpha = linalg.cho_solve(chol, diff)
    arg = 0.5 * jnp.sum(diff * alpha, axis=0)
    return norm * jnp.sum(jnp.exp(-arg) * weights)


def _convolve_all(chol, norm, target, weights, means):
    """_gaussian_kernel_convolve for each column of `means` (JAX's vmap)."""
    diff = target[:, None, :] - means[:, :, None]  # (d, m, n)
    d, m, n = diff.shape
    alpha = jnp.reshape(linalg.cho_solve(chol, jnp.reshape(diff, (d, m * n))), (d, m, n))
    arg = 0.5 * jnp.sum(diff * alpha, axis=0)
    return norm * jnp.sum(jnp.exp(-arg) * weights, axis=1)


def _gaussian_kernel_eval(in_log, points, values, xi, precision):
    """sum_j values_j N(xi_i; points_j, precision^-1) (or its log), for each i."""
    points, values, xi, precision = _inexact(points, values, xi, precision)
    d = points.shape[1]
    if xi.shape[1] != d:
        raise ValueError("points and xi must have same trailing dim")
    if precision.shape != (d, d):
        raise ValueError("precision matrix must match data dims")
    whitening = linalg.sp_cholesky(precision, lower=True)
    points = dot(points, whitening)
    xi = dot(xi, whitening)
    log_norm = jnp.sum(jnp.log(diag(whitening))) - 0.5 * d * jnp.log(2 * np.pi)
    arg = log_norm - 0.5 * jnp.sum(jnp.square(points[None, :, :] - xi[:, None, :]), axis=-1)
    if in_log:
        return logsumexp(jnp.log(values)[None, :] + arg, axis=1)
    return jnp.sum(values[None, :] * jnp.exp(arg), axis=1)

"""mlax.scipy.stats: as jax.scipy.stats, one module per distribution."""
from mlax.scipy.stats import (  # noqa: F401
    bernoulli, beta, betabinom, binom, cauchy, chi2, dirichlet, expon, gamma, gennorm, geom,
    gumbel_l, gumbel_r, laplace, logistic, multinomial, multivariate_normal, nbinom, norm,
    pareto, poisson, t, truncnorm, uniform, vonmises, wrapcauchy)
from mlax._src.scipy.stats.core import ModeResult, mode, rankdata, sem  # noqa: F401
from mlax._src.scipy.stats.kde import gaussian_kde  # noqa: F401

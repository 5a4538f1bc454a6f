"""mlax.scipy.stats.bernoulli: as jax.scipy.stats.bernoulli."""
from mlax._src.scipy.stats.bernoulli import (  # noqa: F401
    cdf, logpmf, pmf, ppf)

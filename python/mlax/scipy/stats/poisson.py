"""mlax.scipy.stats.poisson: as jax.scipy.stats.poisson."""
from mlax._src.scipy.stats.poisson import (  # noqa: F401
    cdf, entropy, logpmf, pmf)

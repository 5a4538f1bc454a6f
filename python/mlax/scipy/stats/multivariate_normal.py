"""mlax.scipy.stats.multivariate_normal: as jax.scipy.stats.multivariate_normal."""
from mlax._src.scipy.stats.multivariate_normal import (  # noqa: F401
    logpdf, pdf)

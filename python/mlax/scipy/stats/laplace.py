"""mlax.scipy.stats.laplace: as jax.scipy.stats.laplace."""
from mlax._src.scipy.stats.laplace import (  # noqa: F401
    cdf, logpdf, pdf)

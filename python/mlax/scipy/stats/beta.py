"""mlax.scipy.stats.beta: as jax.scipy.stats.beta."""
from mlax._src.scipy.stats.beta import (  # noqa: F401
    cdf, logcdf, logpdf, logsf, pdf, sf)

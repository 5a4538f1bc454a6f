"""mlax.scipy.stats.truncnorm: as jax.scipy.stats.truncnorm."""
from mlax._src.scipy.stats.truncnorm import (  # noqa: F401
    cdf, logcdf, logpdf, logsf, pdf, sf)

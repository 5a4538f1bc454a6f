"""mlax.scipy.stats.gamma: as jax.scipy.stats.gamma."""
from mlax._src.scipy.stats.gamma import (  # noqa: F401
    cdf, logcdf, logpdf, logsf, pdf, sf)

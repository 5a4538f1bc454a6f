"""mlax.scipy.stats.norm: as jax.scipy.stats.norm."""
from mlax._src.scipy.stats.norm import (  # noqa: F401
    cdf, isf, logcdf, logpdf, logsf, pdf, ppf, sf)

"""mlax.scipy.stats.cauchy: as jax.scipy.stats.cauchy."""
from mlax._src.scipy.stats.cauchy import (  # noqa: F401
    cdf, isf, logcdf, logpdf, logsf, pdf, ppf, sf)

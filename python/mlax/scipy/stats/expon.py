"""mlax.scipy.stats.expon: as jax.scipy.stats.expon."""
from mlax._src.scipy.stats.expon import (  # noqa: F401
    cdf, logcdf, logpdf, logsf, pdf, ppf, sf)

"""mlax.scipy.stats.chi2: as jax.scipy.stats.chi2."""
from mlax._src.scipy.stats.chi2 import (  # noqa: F401
    cdf, logcdf, logpdf, logsf, pdf, sf)

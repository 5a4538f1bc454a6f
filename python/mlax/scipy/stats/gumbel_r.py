"""mlax.scipy.stats.gumbel_r: as jax.scipy.stats.gumbel_r."""
from mlax._src.scipy.stats.gumbel_r import (  # noqa: F401
    cdf, logcdf, logpdf, logsf, pdf, ppf, sf)

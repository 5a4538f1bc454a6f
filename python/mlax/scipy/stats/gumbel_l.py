"""mlax.scipy.stats.gumbel_l: as jax.scipy.stats.gumbel_l."""
from mlax._src.scipy.stats.gumbel_l import (  # noqa: F401
    cdf, logcdf, logpdf, logsf, pdf, ppf, sf)

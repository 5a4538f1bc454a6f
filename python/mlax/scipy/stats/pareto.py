"""mlax.scipy.stats.pareto: as jax.scipy.stats.pareto."""
from mlax._src.scipy.stats.pareto import (  # noqa: F401
    cdf, logcdf, logpdf, logsf, pdf, ppf, sf)

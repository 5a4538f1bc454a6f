"""mlax.scipy.stats.logistic: as jax.scipy.stats.logistic."""
from mlax._src.scipy.stats.logistic import (  # noqa: F401
    cdf, isf, logpdf, pdf, ppf, sf)

"""mlax.scipy.stats.uniform: as jax.scipy.stats.uniform."""
from mlax._src.scipy.stats.uniform import (  # noqa: F401
    cdf, logpdf, pdf, ppf)

"""mlax.scipy.stats.gennorm: as jax.scipy.stats.gennorm."""
from mlax._src.scipy.stats.gennorm import (  # noqa: F401
    cdf, logpdf, pdf)

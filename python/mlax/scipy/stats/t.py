"""mlax.scipy.stats.t: as jax.scipy.stats.t."""
from mlax._src.scipy.stats.t import (  # noqa: F401
    logpdf, pdf)

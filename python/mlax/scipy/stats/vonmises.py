"""mlax.scipy.stats.vonmises: as jax.scipy.stats.vonmises."""
from mlax._src.scipy.stats.vonmises import (  # noqa: F401
    logpdf, pdf)

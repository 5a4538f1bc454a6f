"""mlax.scipy.stats.wrapcauchy: as jax.scipy.stats.wrapcauchy."""
from mlax._src.scipy.stats.wrapcauchy import (  # noqa: F401
    logpdf, pdf)

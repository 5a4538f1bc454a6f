"""mlax.scipy.stats.dirichlet: as jax.scipy.stats.dirichlet."""
from mlax._src.scipy.stats.dirichlet import (  # noqa: F401
    logpdf, pdf)

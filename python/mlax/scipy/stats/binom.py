"""mlax.scipy.stats.binom: as jax.scipy.stats.binom."""
from mlax._src.scipy.stats.binom import (  # noqa: F401
    logpmf, pmf)

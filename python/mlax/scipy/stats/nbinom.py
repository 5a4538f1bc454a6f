"""mlax.scipy.stats.nbinom: as jax.scipy.stats.nbinom."""
from mlax._src.scipy.stats.nbinom import (  # noqa: F401
    logpmf, pmf)

"""mlax.scipy.stats.betabinom: as jax.scipy.stats.betabinom."""
from mlax._src.scipy.stats.betabinom import (  # noqa: F401
    logpmf, pmf)

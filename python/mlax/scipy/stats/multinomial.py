"""mlax.scipy.stats.multinomial: as jax.scipy.stats.multinomial."""
from mlax._src.scipy.stats.multinomial import (  # noqa: F401
    logpmf, pmf)

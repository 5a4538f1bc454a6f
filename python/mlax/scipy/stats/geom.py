"""mlax.scipy.stats.geom: as jax.scipy.stats.geom."""
from mlax._src.scipy.stats.geom import (  # noqa: F401
    logpmf, pmf)

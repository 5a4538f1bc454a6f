"""mlax.scipy.spatial: as jax.scipy.spatial."""
from mlax.scipy.spatial import transform  # noqa: F401

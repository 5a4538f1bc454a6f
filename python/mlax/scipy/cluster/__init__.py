"""mlax.scipy.cluster: as jax.scipy.cluster."""
from mlax.scipy.cluster import vq  # noqa: F401

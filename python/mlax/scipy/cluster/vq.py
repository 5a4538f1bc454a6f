"""mlax.scipy.cluster.vq: as jax.scipy.cluster.vq."""
from mlax._src.scipy.cluster.vq import vq  # noqa: F401

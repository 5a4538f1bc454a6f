"""mlax.scipy.special: as jax.scipy.special."""
from mlax._src.nn import logsumexp  # noqa: F401

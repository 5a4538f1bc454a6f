"""mlax.scipy.special: as jax.scipy.special."""
from mlax._src.nn.functions import logsumexp  # noqa: F401

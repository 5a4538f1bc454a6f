"""mlax.numpy.linalg: linear algebra on mlax arrays (as jax.numpy.linalg)."""
from mlax._src.numpy_composite import norm  # noqa: F401

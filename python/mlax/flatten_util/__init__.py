"""mlax.flatten_util: ravel_pytree, as jax.flatten_util."""
from mlax._src.flatten_util import ravel_pytree  # noqa: F401

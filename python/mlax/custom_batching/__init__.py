"""mlax.custom_batching: user-defined batching rules, as jax.custom_batching."""
from mlax._src.lax.custom_batching import custom_vmap, sequential_vmap  # noqa: F401

"""mlax.experimental.compilation_cache, as jax.experimental.compilation_cache."""
from mlax.experimental.compilation_cache import compilation_cache  # noqa: F401

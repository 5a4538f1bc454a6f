"""mlax.experimental.compilation_cache.compilation_cache, as JAX's: the
persistent compilation cache's directory."""
from mlax._src.jit.compilation_cache import reset_cache, set_cache_dir  # noqa: F401

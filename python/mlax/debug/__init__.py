"""mlax.debug, as jax.debug: printing and host callbacks that work under jit,
grad and vmap."""
from mlax._src.jit.callbacks import debug_callback as callback  # noqa: F401
from mlax._src.jit.callbacks import debug_print as print  # noqa: F401,A001
from mlax._src.jit.global_arrays import visualize_array_sharding  # noqa: F401

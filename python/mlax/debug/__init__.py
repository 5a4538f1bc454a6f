"""mlax.debug, as jax.debug: printing, logging, host callbacks and a
breakpoint that work under jit, grad and vmap, and sharding inspection."""
from mlax._src.jit.callbacks import debug_callback as callback  # noqa: F401
from mlax._src.jit.callbacks import debug_log as log  # noqa: F401
from mlax._src.jit.callbacks import debug_print as print  # noqa: F401,A001
from mlax._src.jit.debugger import breakpoint  # noqa: F401,A004
from mlax._src.jit.debugging import (  # noqa: F401
    inspect_array_sharding, visualize_array_sharding, visualize_sharding)

"""mlax.experimental, as jax.experimental: io_callback, checkify, compilation_cache,
jet, mesh_utils, multihost_utils, ode and serialize_executable."""
from mlax._src.jit.callbacks import io_callback  # noqa: F401
from mlax.experimental import (  # noqa: F401,E402
    checkify, compilation_cache, jet, mesh_utils, multihost_utils, ode, serialize_executable)

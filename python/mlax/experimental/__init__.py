"""mlax.experimental, as jax.experimental: io_callback, checkify, mesh_utils,
multihost_utils and ode."""
from mlax._src.jit.callbacks import io_callback  # noqa: F401
from mlax.experimental import checkify, mesh_utils, multihost_utils, ode  # noqa: F401,E402

"""mlax.experimental, as jax.experimental: io_callback, mesh_utils, multihost_utils and
ode; mlax.experimental.sparse is imported on its own, as JAX's is."""
from mlax._src.jit.callbacks import io_callback  # noqa: F401
from mlax.experimental import mesh_utils, multihost_utils, ode  # noqa: F401,E402

"""mlax.experimental, as jax.experimental: io_callback."""
from mlax._src.jit.callbacks import io_callback  # noqa: F401
from mlax.experimental import mesh_utils, multihost_utils  # noqa: F401,E402

"""mlax.distributed: several processes forming one set of devices, as
jax.distributed (jaxlib's distributed runtime; CPU collectives over TCP
with gloo)."""
from mlax._src.jit.distributed import initialize, is_initialized, shutdown  # noqa: F401

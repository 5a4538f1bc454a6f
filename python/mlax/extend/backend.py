"""mlax.extend.backend: the PJRT clients mlax runs on (jax.extend.backend)."""
from mlax._src.jit.api import clear_caches as clear_in_memory_compilation_cache  # noqa: F401
from mlax._src.jit.devices import (  # noqa: F401
    backend_xla_version, backends, get_backend, get_default_device)

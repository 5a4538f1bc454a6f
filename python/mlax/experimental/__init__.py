"""mlax.experimental, as jax.experimental: io_callback, checkify, compilation_cache,
jet, mesh_utils, multihost_utils, ode, random (a stateful PRNG), rnn (LSTM) and
serialize_executable; mlax.experimental.sparse is imported on its own, as JAX's is."""
from mlax._src.jit.callbacks import io_callback  # noqa: F401
from mlax.experimental import (  # noqa: F401,E402
    checkify, compilation_cache, jet, mesh_utils, multihost_utils, ode, random, rnn,
    serialize_executable)

"""mlax.extend: JAX's jax.extend for libraries built on mlax: the PJRT
clients (mlax.extend.backend), user-defined PRNG implementations
(mlax.extend.random) and user-defined primitives (mlax.extend.core)."""
from mlax.extend import backend, core, random  # noqa: F401

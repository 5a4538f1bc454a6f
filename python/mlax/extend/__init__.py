"""mlax.extend: JAX's jax.extend for libraries built on mlax: the PJRT
clients (mlax.extend.backend) and user-defined PRNG implementations
(mlax.extend.random)."""
from mlax.extend import backend, random  # noqa: F401

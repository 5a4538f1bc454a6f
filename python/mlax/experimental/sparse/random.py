"""mlax.experimental.sparse.random, as jax.experimental.sparse.random: random
BCOO arrays."""
from mlax._src.experimental.sparse.random import random_bcoo  # noqa: F401

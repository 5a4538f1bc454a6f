"""mlax.experimental.random, as jax.experimental.random: a stateful PRNG."""
from mlax._src.experimental.random import StatefulPRNG, stateful_rng  # noqa: F401

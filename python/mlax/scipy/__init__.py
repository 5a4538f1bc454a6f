"""mlax.scipy: the parts of jax.scipy that mlax has."""
from mlax.scipy import integrate, linalg, signal, special, stats  # noqa: F401

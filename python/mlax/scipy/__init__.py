"""mlax.scipy: the parts of jax.scipy that mlax has."""
from mlax.scipy import integrate, linalg, special, stats  # noqa: F401

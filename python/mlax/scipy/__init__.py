"""mlax.scipy: the parts of jax.scipy that mlax has."""
from mlax.scipy import linalg, special  # noqa: F401

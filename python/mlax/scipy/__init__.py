"""mlax.scipy: the parts of jax.scipy that mlax has."""
from mlax.scipy import special  # noqa: F401

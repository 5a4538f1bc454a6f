"""mlax.scipy: the parts of jax.scipy that mlax has."""
from mlax.scipy import fft, integrate, linalg, ndimage, signal, special, stats  # noqa: F401

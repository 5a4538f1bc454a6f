"""mlax.scipy: the parts of jax.scipy that mlax has."""
from mlax.scipy import fft, integrate, interpolate, linalg, ndimage, optimize, signal, special, stats  # noqa: F401

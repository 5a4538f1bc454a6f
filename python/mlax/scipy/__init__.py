"""mlax.scipy: the parts of jax.scipy that mlax has."""
from mlax.scipy import (  # noqa: F401
    cluster, fft, integrate, interpolate, linalg, ndimage, optimize, signal, sparse, spatial,
    special, stats)

"""mlax.scipy.signal: as jax.scipy.signal."""
from mlax._src.scipy.signal import (  # noqa: F401
    convolve, convolve2d, correlate, correlate2d, csd, detrend, fftconvolve, istft, stft, welch)

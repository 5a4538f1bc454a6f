"""mlax.scipy.fft: as jax.scipy.fft (type-2 DCTs)."""
from mlax._src.scipy.fft import dct, dctn, idct, idctn  # noqa: F401

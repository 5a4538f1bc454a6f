"""mlax.dlpack: zero-copy exchange with NumPy, JAX, PyTorch (as jax.dlpack)."""
from mlax._src.jit.dlpack import SUPPORTED_DTYPES, from_dlpack, is_supported_dtype  # noqa: F401

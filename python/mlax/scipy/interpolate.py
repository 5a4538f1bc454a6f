"""mlax.scipy.interpolate: as jax.scipy.interpolate."""
from mlax._src.scipy.interpolate import RegularGridInterpolator  # noqa: F401

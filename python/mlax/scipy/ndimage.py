"""mlax.scipy.ndimage: as jax.scipy.ndimage."""
from mlax._src.scipy.ndimage import map_coordinates  # noqa: F401

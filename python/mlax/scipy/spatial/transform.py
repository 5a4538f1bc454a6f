"""mlax.scipy.spatial.transform: as jax.scipy.spatial.transform."""
from mlax._src.scipy.spatial.transform import Rotation, Slerp  # noqa: F401

"""mlax.scipy.integrate: as jax.scipy.integrate."""
from mlax._src.scipy.integrate import trapezoid  # noqa: F401

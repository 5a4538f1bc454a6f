"""jax.scipy.integrate: trapezoid, the trapezoidal rule of mlax.numpy."""
from mlax._src.numpy.library import trapezoid  # noqa: F401

"""mlax.scipy.optimize: as jax.scipy.optimize (minimize with BFGS)."""
from mlax._src.scipy.optimize import OptimizeResults, minimize  # noqa: F401

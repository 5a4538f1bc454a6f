"""mlax.scipy.optimize: as jax.scipy.optimize (minimize with BFGS, and JAX's experimental
L-BFGS, method "l-bfgs-experimental-do-not-rely-on-this")."""
from mlax._src.scipy.optimize import OptimizeResults, minimize  # noqa: F401

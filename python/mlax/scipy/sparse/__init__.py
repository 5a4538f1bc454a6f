"""mlax.scipy.sparse: as jax.scipy.sparse (the iterative solvers of its linalg)."""
from mlax.scipy.sparse import linalg  # noqa: F401

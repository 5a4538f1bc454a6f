"""mlax.scipy.sparse.linalg: as jax.scipy.sparse.linalg (cg, bicgstab, gmres)."""
from mlax._src.scipy.sparse.linalg import bicgstab, cg, gmres  # noqa: F401

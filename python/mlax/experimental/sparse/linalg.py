"""mlax.experimental.sparse.linalg, as jax.experimental.sparse.linalg:
lobpcg_standard (top-k eigenpairs of a symmetric operator) and spsolve (a
CSR linear solve)."""
from mlax._src.experimental.sparse.linalg import lobpcg_standard, spsolve  # noqa: F401

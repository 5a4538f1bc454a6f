"""mlax.lax.linalg: the linear-algebra primitives (as jax.lax.linalg)."""
from mlax._src.numpy.linalg import eigh, qr, svd, triangular_solve  # noqa: F401
from mlax._src.numpy.linalg import lax_cholesky as cholesky  # noqa: F401
from mlax._src.lax.linalg import EigImplementation, lu  # noqa: F401
from mlax._src.lax.linalg import (hessenberg, householder_product, schur,  # noqa: F401
                                  tridiagonal, tridiagonal_solve)
from mlax._src.numpy.linalg import eig  # noqa: F401
from mlax._src.numpy.linalg import lu_pivots_to_permutation  # noqa: F401
from mlax._src.numpy.linalg import (EighImplementation, SvdAlgorithm,  # noqa: F401
                                    cholesky_update, ormqr, qdwh, symmetric_product)

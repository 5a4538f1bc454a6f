"""mlax.scipy.linalg: the parts of jax.scipy.linalg that mlax has."""
from mlax._src.numpy.linalg import cho_factor, cho_solve, solve_triangular  # noqa: F401
from mlax._src.numpy.linalg import sp_cholesky as cholesky  # noqa: F401
from mlax._src.numpy.linalg import sp_det as det  # noqa: F401
from mlax._src.numpy.linalg import sp_eigh as eigh  # noqa: F401
from mlax._src.numpy.linalg import sp_inv as inv  # noqa: F401
from mlax._src.numpy.linalg import sp_qr as qr  # noqa: F401
from mlax._src.numpy.linalg import sp_solve as solve  # noqa: F401
from mlax._src.numpy.linalg import sp_svd as svd  # noqa: F401
from mlax._src.numpy.linalg import lu_factor, lu_solve  # noqa: F401
from mlax._src.numpy.linalg import sp_lu as lu  # noqa: F401
from mlax._src.scipy.linalg import block_diag, expm, hankel, toeplitz  # noqa: F401
from mlax._src.scipy.linalg import (eigh_tridiagonal, expm_frechet, funm,  # noqa: F401
                                   hessenberg, qr_multiply, rsf2csf, schur,
                                   solve_sylvester, sqrtm)
from mlax._src.scipy.special_matrices import (  # noqa: F401
    circulant, companion, convolution_matrix, dft, fiedler, fiedler_companion, hadamard, helmert,
    hilbert, invhilbert, invpascal, leslie, pascal, polar)

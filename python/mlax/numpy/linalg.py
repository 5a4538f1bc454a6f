"""mlax.numpy.linalg: linear algebra on mlax arrays (as jax.numpy.linalg)."""
from mlax._src.numpy.linalg import norm  # noqa: F401
from mlax._src.numpy.linalg import (  # noqa: F401
    EigResult, EighResult, QRResult, SlogdetResult, SVDResult, det, eigvals, eigvalsh, inv,
    lstsq, matrix_power, matrix_rank, pinv, slogdet, solve, svdvals, tensorinv, tensorsolve)
from mlax._src.numpy.linalg import (  # noqa: F401
    cond, cross, diagonal, matmul, matrix_norm, matrix_transpose, multi_dot, outer, tensordot,
    trace, vecdot, vector_norm)
from mlax._src.numpy.linalg import _np_cholesky as cholesky  # noqa: F401
from mlax._src.numpy.linalg import _np_eigh as eigh  # noqa: F401
from mlax._src.numpy.linalg import _np_qr as qr  # noqa: F401
from mlax._src.numpy.linalg import _np_svd as svd  # noqa: F401
from mlax._src.numpy.linalg import _np_eig as eig  # noqa: F401

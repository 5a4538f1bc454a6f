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


def _refuse_list_arguments():
    """As jax.numpy.linalg's: an array argument given as a Python list or
    tuple raises TypeError (wrap it with mnp.array)."""
    import inspect

    from mlax._src.numpy.util import _refuse_lists
    binary = {"solve", "lstsq", "cross", "outer", "matmul", "vecdot", "tensordot",
              "tensorsolve"}
    g = globals()
    for fname in ("norm", "det", "eigvals", "eigvalsh", "inv", "lstsq", "matrix_power",
                  "matrix_rank", "pinv", "slogdet", "solve", "svdvals", "tensorinv",
                  "tensorsolve", "cond", "cross", "diagonal", "matmul", "matrix_norm",
                  "matrix_transpose", "multi_dot", "outer", "tensordot", "trace", "vecdot",
                  "vector_norm", "cholesky", "eigh", "qr", "svd", "eig"):
        names = list(inspect.signature(g[fname]).parameters)
        params = (f"*{names[0]}",) if fname == "multi_dot" else tuple(
            names[:2] if fname in binary else names[:1])
        g[fname] = _refuse_lists(g[fname], f"mnp.linalg.{fname}", params)


_refuse_list_arguments()
del _refuse_list_arguments

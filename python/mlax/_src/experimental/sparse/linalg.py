"""jax.experimental.sparse.linalg: lobpcg_standard (the top-k eigenpairs of a
symmetric operator by LOBPCG) and spsolve (the solution of a CSR linear
system).

lobpcg_standard follows the steps of JAX's implementation one for one
(SVQB orthonormalization, Householder extension of the initial basis,
Rayleigh-Ritz on [X, P, R]) so that both converge alike. spsolve has no
SciPy or cuSOLVER behind it: see its docstring."""
from __future__ import annotations

import functools
import operator

import numpy as np

from mlax._src.base import dtypes
from mlax._src.core.array import Array
from mlax._src.core.primitives import aval_of
from mlax._src.core.tracer import Tracer
from mlax._src.jit.api import jit
from mlax._src.lax import linalg as lax_linalg
from mlax._src.lax.control_flow import while_loop
from mlax._src.numpy import lax_numpy as mnp
from mlax._src.numpy import linalg as mla
from mlax._src.numpy import reductions
from mlax._src.numpy.array_creation import eye
from mlax._src.numpy.manipulation import diagonal
from mlax._src.numpy.ufuncs import logical_and, maximum
from mlax._src.experimental.sparse.util import csr_to_coo

_HIGHEST = "highest"


def _mm(a, b):
    return lax_linalg.dot(a, b, precision=(_HIGHEST, _HIGHEST))


def _norms(x, keepdims=True):
    return mla.norm(x, ord=2, axis=0, keepdims=keepdims)


def lobpcg_standard(A, X, m=100, tol=None):  # noqa: N803 (JAX's names)
    """The k largest eigenvalues and their eigenvectors of a symmetric
    (Hermitian) operator by LOBPCG (locally optimal block preconditioned
    conjugate gradient), without preconditioning.

    A: an (n, n) symmetric matrix, or a callable mapping an (n, j) block of
    vectors to A times it (e.g. a BCOO product). X: (n, k) starting
    directions, linearly independent but not necessarily orthonormal, with
    0 < 5 k < n. m: the most iterations. tol: an eigenpair (w, v) counts as
    converged when |A v - w v| < tol * 10 n (w + |A v|); the iteration stops
    once all k have (default: the machine epsilon of X's dtype).

    Returns (w, V, i): the (k,) eigenvalues in descending order, the (n, k)
    eigenvectors and the number of iterations run."""
    if isinstance(A, (Array, Tracer, np.ndarray)):
        return _lobpcg_matrix(A, X, operator.index(m), tol)
    if not callable(A):
        raise TypeError(f"lobpcg_standard: A must be an (n, n) array or a callable, "
                        f"got {type(A).__name__}")
    return _lobpcg_callable(A, X, operator.index(m), tol)


@functools.partial(jit, static_argnames=("m",))
def _lobpcg_matrix(A, X, m, tol):  # noqa: N803
    return _lobpcg(functools.partial(_mm, A), X, m, tol)


@functools.partial(jit, static_argnames=("A", "m"))
def _lobpcg_callable(A, X, m, tol):  # noqa: N803
    return _lobpcg(A, X, m, tol)


def _check_inputs(A, X):  # noqa: N803
    if X.ndim != 2:
        raise ValueError(f"lobpcg_standard: X must be an (n, k) array, got shape {X.shape}")
    n, k = X.shape
    if k == 0:
        raise ValueError(f"lobpcg_standard: must have search dim > 0, got {k}")
    if k * 5 >= n:
        raise ValueError(f"lobpcg_standard: expected search dim * 5 < matrix dim "
                         f"(got {k * 5}, {n})")
    out = aval_of(A(mnp.zeros((n, 1), dtype=X.dtype)))
    if out.dtype != X.dtype:
        raise ValueError(f"lobpcg_standard: A, X must have same dtypes (were {out.dtype}, "
                         f"{X.dtype})")
    if tuple(out.shape) != (n, 1):
        raise ValueError(f"lobpcg_standard: A must be an ({n}, {n}) matrix, got output of "
                         f"shape {tuple(out.shape)} for an ({n}, 1) input")


def _lobpcg(A, X, m, tol):  # noqa: N803
    _check_inputs(A, X)
    n, k = X.shape
    dt = X.dtype
    if tol is None:
        tol = float(dtypes.finfo(dt).eps)
    X = _orthonormalize(X)
    P = _extend_basis(X, k)
    AX = A(X)
    theta = reductions.sum(X * AX, axis=0, keepdims=True)
    R = AX - theta * X

    def cond(state):
        i, _, _, _, converged, _ = state
        return logical_and(i < m, converged < k)

    def body(state):
        i, X, P, R, _, theta = state  # noqa: N806
        # The residual's component outside span[X, P], then Rayleigh-Ritz on [X, P, R].
        R = _project_out(mnp.concatenate((X, P), axis=1), R)  # noqa: N806
        XPR = mnp.concatenate((X, P, R), axis=1)  # noqa: N806
        theta, Q = _rayleigh_ritz_orth(A, XPR)  # noqa: N806
        # The new X: the top-k Ritz vectors.
        B = Q[:, :k]  # noqa: N806
        B = B / _norms(B)  # noqa: N806
        X = _mm(XPR, B)  # noqa: N806
        X = X / _norms(X)  # noqa: N806
        # The new P: the part of the other Ritz vectors that moves X, orthonormalized
        # within the Ritz basis (a QR of the top block of Q's other columns).
        q, _ = mla._np_qr(Q[:k, k:].T)
        P = _mm(XPR, _mm(Q[:, k:], q))  # noqa: N806
        normP = _norms(P)  # noqa: N806
        P = P / mnp.where(normP == 0, 1.0, normP)  # noqa: N806
        AX = A(X)  # noqa: N806
        R = AX - theta[None, :k] * X  # noqa: N806
        resid = _norms(R, keepdims=False)
        reltol = (_norms(AX, keepdims=False) + theta[:k]) * n * 10
        converged = reductions.sum(resid < tol * reltol)
        return i + 1, X, P, R, converged, theta[None, :k]

    state = (0, X, P, R, 0, theta)
    i, X, _, _, _, theta = while_loop(cond, body, state)
    return theta[0, :], X, i


def _eigh_descending(a):
    w, v = mla._np_eigh(a)
    return w[::-1], v[:, ::-1]


def _svqb(X):  # noqa: N803
    """An orthonormal basis of span(X) through the eigendecomposition of the
    small Gram matrix X^T X (SVQB); directions that the Gram matrix shows to
    be numerically dependent come back as zero columns."""
    norms = _norms(X)
    X = X / mnp.where(norms == 0, 1.0, norms)  # noqa: N806
    inner = _mm(X.T, X)
    w, V = _eigh_descending(inner)  # noqa: N806
    tau = dtypes.finfo(X.dtype).eps * w[0]
    scale = mnp.where(tau > 0, maximum(w, tau), 1.0) ** (-0.5)
    ortho = _mm(X, V * scale[None, :])
    keep = ((w > tau) * (diagonal(inner) > 0.0))[None, :]
    ortho = ortho * keep.astype(ortho.dtype)
    norms = _norms(ortho)
    keep = keep * (norms > 0.0)
    return ortho / mnp.where(keep, norms, 1.0)


def _orthonormalize(basis):
    for _ in range(2):
        basis = _svqb(basis)
    return basis


def _project_out(basis, U):  # noqa: N803
    """U's component orthogonal to the orthonormal (zero columns allowed)
    `basis`, orthonormalized; columns that were (nearly) inside span(basis)
    are zeroed rather than blown up."""
    for _ in range(2):
        U = U - _mm(basis, _mm(basis.T, U))  # noqa: N806
        U = _orthonormalize(U)  # noqa: N806
    for _ in range(2):
        U = U - _mm(basis, _mm(basis.T, U))  # noqa: N806
    return U * (_norms(U) >= 0.99).astype(U.dtype)


def _rayleigh_ritz_orth(A, S):  # noqa: N803
    return _eigh_descending(_mm(S.T, A(S)))


def _extend_basis(X, m):  # noqa: N803
    """m orthonormal columns orthogonal to the orthonormal (n, k) X, from a
    block Householder reflector that maps X to the first k unit vectors: the
    reflector's next m columns, deterministic and exactly complementary."""
    n, k = X.shape
    upper, lower = X[:k], X[k:]
    u, s, vt = mla._np_svd(upper)
    y = mnp.concatenate([upper + _mm(u, vt), lower], axis=0)
    other = mnp.concatenate([eye(m, dtype=X.dtype), mnp.zeros((n - k - m, m), dtype=X.dtype)],
                            axis=0)
    w = _mm(y, vt.T * ((2 * (1 + s)) ** (-1 / 2))[None, :])
    h = -2 * mla.multi_dot([w, w[k:, :].T, other], precision=_HIGHEST)
    return h.at[k:].add(other)


def spsolve(data, indices, indptr, b, tol=1e-6, reorder=1):
    """x with A x = b for the square CSR matrix A = (data, indices, indptr)
    of size b.size (duplicate entries add up, as in SciPy).

    Method: A is scattered into a dense (n, n) array and solved by LU with
    partial pivoting (mlax.numpy.linalg.solve): O(n^2) memory and O(n^3)
    work, exact to rounding for any nonsingular A, on every backend; a
    singular A gives non-finite values. JAX calls SciPy (CPU) or cuSOLVER's
    sparse QR (GPU) instead; `tol` (their singularity threshold) and
    `reorder` (their fill-reducing ordering) are validated but have no
    effect on a dense LU.

    Differentiable in data and b: the derivative solves with the same LU
    factors (dx = A^-1 (db - dA x)), so grad, jvp and vjp follow the linear
    solve rather than the factorization. Also batches under vmap."""
    data, indices, indptr, b = (mnp.asarray(a) for a in (data, indices, indptr, b))
    if data.dtype != b.dtype:
        raise ValueError(f"spsolve: data types do not match: data.dtype={data.dtype} "
                         f"b.dtype={b.dtype}")
    if not (dtypes.issubdtype(indices.dtype, np.integer)
            and dtypes.issubdtype(indptr.dtype, np.integer)):
        raise ValueError(f"spsolve: index arrays must be integer typed; got "
                         f"indices.dtype={indices.dtype} indptr.dtype={indptr.dtype}")
    if not data.ndim == indices.ndim == indptr.ndim == b.ndim == 1:
        raise ValueError(f"spsolve: arrays must be one-dimensional; got data.shape={data.shape} "
                         f"indices.shape={indices.shape} indptr.shape={indptr.shape} "
                         f"b.shape={b.shape}")
    if indptr.size != b.size + 1 or data.shape != indices.shape:
        raise ValueError(f"spsolve: invalid CSR buffer sizes: data.shape={data.shape} "
                         f"indices.shape={indices.shape} indptr.shape={indptr.shape} "
                         f"for b.shape={b.shape}")
    if reorder not in (0, 1, 2, 3):
        raise ValueError(f"spsolve: reorder={reorder!r} not valid, must be one of 0, 1, 2, 3")
    float(tol)
    n = b.size
    row, col = csr_to_coo(indices, indptr)
    a = mnp.zeros((n, n), data.dtype).at[row, col].add(data)
    return mla.solve(a, b)

"""Linear algebra: the public wrappers of jax.lax.linalg's primitives
(cholesky, triangular_solve, eigh, qr, geqrf, svd; the primitives themselves
are in mlax._src.lax.linalg) and jax.numpy.linalg / jax.scipy.linalg
composed from them.

Each primitive emits one op (mlax.cholesky, mlax.triangular_solve, mlax.eigh,
mlax.qr, mlax.geqrf, mlax.svd); their shape rules, derivative and batching
rules live in dialects/Mlax/MlaxLinalgOps.cpp and their lowerings (jaxlib's
LAPACK kernels on CPU, as JAX's) in passes/ConvertLinalgOps.cpp.

The composites take real matrices (float32/float64; integers are promoted
to the default float type) and, where JAX does, complex ones (docs/linalg.md
lists them). solve, inv, det and slogdet go through LU
(getrf, as JAX's), with JAX's derivative rules (custom_jvp); pinv, lstsq
and matrix_rank through the SVD.
"""
from __future__ import annotations

import builtins
import collections
import enum
import operator

import numpy as np

from mlax._src.core import tracer as core
from mlax._src.base import dtypes
from mlax._src.base import errors
from mlax._src.lax import lax as _lax
from mlax._src.lax import slicing
from mlax._src.core.tracer import Tracer
from mlax._src.core.primitives import aval_of, bind
from mlax._src.lax.linalg import lu
from mlax._src.lax.linalg import eig as lax_eig
from mlax._src.lax.linalg import _check_eig_implementation
from mlax._src.lax.linalg import (_check_dtype, _eigh_p, _geqp3_p, _geqrf_p, _LINALG_DTYPES,
                                  _qr_p, _svd_p, _triangular_solve_p)
from mlax._src.numpy import lax_numpy as mnp
from mlax._src.numpy import manipulation as mnc
from mlax._src.numpy import array_creation
from mlax._src.numpy import library as mnl
from mlax._src.numpy import reductions
from mlax._src.numpy import statistics as mne
from mlax._src.numpy import tensor_contractions
from mlax._src.numpy import ufuncs
from mlax._src.numpy.util import _promote_inexact


def _where():
    return core.user_location_str()


def _err(name, message, exc=ValueError):
    return exc(f"{name}: {message} (at {_where()})")


# ---------------------------------------------------------------------------
# jax.lax.linalg
# ---------------------------------------------------------------------------

def _mT(x):
    return mnp.swapaxes(x, -1, -2)


def _mH(x):
    """The conjugate transpose (the transpose for real matrices: conjugate
    emits no op for them)."""
    return ufuncs.conjugate(_mT(x))


def _symmetrize(x):
    """(x + x^H) / 2, JAX's `symmetrize` (Hermitian for complex matrices)."""
    return ufuncs.divide(ufuncs.add(x, _mH(x)),
                         mnp.asarray(2, aval_of(x).dtype))


def lax_cholesky(x, *, symmetrize_input=True):
    """The lower Cholesky factor (jax.lax.linalg.cholesky). With
    symmetrize_input=False only the lower triangle of `x` is read."""
    x = mnp.asarray(x)
    if not symmetrize_input and aval_of(x).ndim >= 2:
        # The op factors (x + x^H) / 2; mirror the lower triangle (conjugated)
        # so that is x's.
        x = ufuncs.add(mnc.tril(x), _mH(mnc.tril(x, -1)))
    return _lax.cholesky(x)


def triangular_solve(a, b, *, left_side=False, lower=False, transpose_a=False,
                     conjugate_a=False, unit_diagonal=False):
    """Solves op(a) x = b (left_side) or x op(a) = b for triangular `a`, where
    op transposes (and conjugates) as asked (jax.lax.linalg.triangular_solve).
    `a` and `b` need equal batch dimensions; a `b` of one dimension fewer
    than `a` is a (batch of) vector(s), solved as one column (left_side) or
    row, as JAX does."""
    a, b = mnp.asarray(a), mnp.asarray(b)
    if aval_of(b).ndim == aval_of(a).ndim - 1:
        x = triangular_solve(a, mnp.expand_dims(b, -1 if left_side else -2),
                             left_side=left_side, lower=lower, transpose_a=transpose_a,
                             conjugate_a=conjugate_a, unit_diagonal=unit_diagonal)
        return mnp.squeeze(x, -1 if left_side else -2)
    sa, sb = aval_of(a).shape, aval_of(b).shape
    if len(sa) >= 2 and len(sb) >= 2 and sa[-1] != sb[-2 if left_side else -1]:
        raise _err("lax.linalg.triangular_solve", "Incompatible shapes for arguments to "
                   f"triangular_solve: {sa} and {sb}.")
    if transpose_a:
        kind = "adjoint" if conjugate_a else "transpose"
    else:
        kind = "none"
        if conjugate_a:
            # LAPACK's trsm has no conjugate-without-transpose mode: solve with
            # conj(a), as JAX's lowering does (no op for real matrices).
            a = ufuncs.conjugate(a)
    return bind(_triangular_solve_p, a, b, left_side=bool(left_side), lower=bool(lower),
                unit_diagonal=bool(unit_diagonal), transpose=kind)


class EighImplementation(enum.Enum):
    """jax.lax.linalg.EighImplementation: the eigh algorithm. mlax calls
    LAPACK's syevd/heevd (JAX's QR on CPU) whatever is asked for."""

    QR = "qr"
    JACOBI = "jacobi"
    QDWH = "qdwh"


class SvdAlgorithm(enum.Enum):
    """jax.lax.linalg.SvdAlgorithm: the SVD algorithm. mlax calls LAPACK's
    gesdd (JAX's DEFAULT on CPU); the others are not built."""

    DEFAULT = "default"
    QR = "QR"
    JACOBI = "Jacobi"
    POLAR = "polar"
    DIVIDE_AND_CONQUER = "divide_and_conquer"


def eigh(x, *, lower=True, symmetrize_input=True, sort_eigenvalues=True,
         subset_by_index=None, implementation=None):
    """Eigenvectors (columns) and ascending eigenvalues of a symmetric matrix,
    as `(v, w)` (jax.lax.linalg.eigh)."""
    if implementation is not None and EighImplementation(implementation) != \
            EighImplementation.QR:
        raise _err("lax.linalg.eigh", f"implementation={implementation} is not supported; "
                   "mlax calls LAPACK (EighImplementation.QR)", NotImplementedError)
    x = mnp.asarray(x)
    n = aval_of(x).shape[-1] if aval_of(x).ndim else 0
    if subset_by_index is not None and tuple(subset_by_index) != (0, n):
        raise _err("lax.linalg.eigh", "subset_by_index is not supported", NotImplementedError)
    if not sort_eigenvalues:
        pass  # LAPACK's eigenvalues come sorted anyway
    if symmetrize_input and aval_of(x).ndim >= 2:
        x = _symmetrize(x)
    v, w = bind(_eigh_p, x, lower=bool(lower))
    return v, w


def qr(x, *, pivoting=False, full_matrices=True):
    """Q and R of the Householder QR decomposition (jax.lax.linalg.qr); with
    `pivoting`, also the column permutation `p` (`x[..., p] = q @ r`, the
    columns ordered by LAPACK geqp3 so that |R|'s diagonal decreases)."""
    x = mnp.asarray(x)
    if not pivoting:
        return tuple(bind(_qr_p, x, full_matrices=bool(full_matrices)))
    # geqp3 picks the columns (integers: nothing to differentiate); Q and R
    # are the QR of the permuted matrix, whose derivative rules (jvp,
    # transpose, batching) are qr's own: JAX's pivoted jvp permutes the
    # tangent's columns the same way. (A second factorization, the price of
    # reusing them.)
    aval = aval_of(x)
    _check_dtype("lax.linalg.qr", aval)
    if aval.ndim < 2:
        return bind(_qr_p, x, full_matrices=bool(full_matrices))  # qr's own error
    n = aval.shape[-1]
    if aval.shape[-2] == 0 or n == 0:
        q, r = bind(_qr_p, x, full_matrices=bool(full_matrices))
        return q, r, mnp.zeros(aval.shape[:-2] + (n,), np.int32)
    p = pivots(x)
    xp = mnc.take_along_axis(x, mnp.broadcast_to(p[..., None, :], aval.shape), axis=-1)
    q, r = bind(_qr_p, xp, full_matrices=bool(full_matrices))
    return q, r, p


def geqp3(x, jpvt):
    """LAPACK's pivoted compact QR (jax._src.lax.linalg.geqp3): `(r, jpvt,
    taus)`, R with the Householder vectors below it, the 1-based columns in
    the order factored, and the reflectors' scale factors."""
    r, p, taus = bind(_geqp3_p, mnp.asarray(x), mnp.asarray(jpvt))
    return r, p, taus


def pivots(x):
    """The 0-based column order geqp3 factors `x` in (int32 `[..., n]`)."""
    aval = aval_of(x)
    jpvt = mnp.zeros(aval.shape[:-2] + aval.shape[-1:], np.int32)
    _, p, _ = geqp3(_lax.stop_gradient(x), jpvt)
    return p - 1


def geqrf(x):
    """LAPACK's compact QR: R with the Householder vectors below it, and
    their scale factors (jax._src.lax.linalg.geqrf; used by det)."""
    r, taus = bind(_geqrf_p, mnp.asarray(x))
    return r, taus


def svd(x, *, full_matrices=True, compute_uv=True, subset_by_index=None, algorithm=None):
    """`(u, s, vh)`, or `s` without compute_uv (jax.lax.linalg.svd)."""
    if algorithm is not None and SvdAlgorithm(algorithm) not in (
            SvdAlgorithm.DEFAULT, SvdAlgorithm.DIVIDE_AND_CONQUER):
        raise _err("lax.linalg.svd", f"algorithm={algorithm} is not supported; mlax calls "
                   "LAPACK's gesdd (SvdAlgorithm.DIVIDE_AND_CONQUER)", NotImplementedError)
    x = mnp.asarray(x)
    if subset_by_index is not None and aval_of(x).ndim >= 2 and tuple(subset_by_index) != (
            0, builtins.min(aval_of(x).shape[-2:])):
        raise _err("lax.linalg.svd", "subset_by_index is not supported", NotImplementedError)
    s, u, vt = bind(_svd_p, x, full_matrices=bool(full_matrices) if compute_uv else False)
    if not compute_uv:
        return s
    return u, s, vt


def _check_args(name, *args):
    """As JAX's lax functions: lists and tuples are not arrays."""
    for x in args:
        if isinstance(x, (list, tuple)):
            raise TypeError(f"{name}: expected an array, got {type(x).__name__} (at {_where()})")


def symmetric_product(a_matrix, c_matrix, *, alpha=1.0, beta=0.0, symmetrize_output=False):
    """`alpha a a^T + beta c` (jax.lax.linalg.symmetric_product; JAX's
    composition on CPU); with symmetrize_output, the lower triangle mirrored
    onto the upper one."""
    _check_args("lax.linalg.symmetric_product", a_matrix, c_matrix)
    a, c = mnp.asarray(a_matrix), mnp.asarray(c_matrix)
    for i, x in enumerate((a, c)):
        if not dtypes.is_float(aval_of(x).dtype):
            raise TypeError(f"symmetric_product does not accept dtype {aval_of(x).dtype.name} "
                            f"at position {i}. Accepted dtypes at position {i} are subtypes "
                            "of floating.")
    sa, sc = aval_of(a).shape, aval_of(c).shape
    if len(sa) < 2 or len(sc) < 2 or sa[-2] != sc[-1] or sc[-2] != sc[-1]:
        raise ValueError("symmetric_update expects a rectangular matrix of shape (m, n) and a "
                         f"square matrix of shape (n, n). Got shapes {sa[-2:]} and {sc[-2:]}.")
    out = ufuncs.add(ufuncs.multiply(alpha, tensor_contractions.matmul(a, _mT(a))),
                     ufuncs.multiply(beta, c))
    if symmetrize_output:
        low = mnc.tril(out)
        out = ufuncs.add(low, _mT(mnc.tril(low, -1)))
    return out


def cholesky_update(r_matrix, w_vector):
    """The upper Cholesky factor of `r^T r + w w^T` from that of `r^T r`
    (jax.lax.linalg.cholesky_update): JAX's sequence of Givens rotations."""
    _check_args("lax.linalg.cholesky_update", r_matrix, w_vector)
    r, w = mnp.asarray(r_matrix), mnp.asarray(w_vector)
    sr, sw = aval_of(r).shape, aval_of(w).shape
    if len(sr) != 2 or len(sw) != 1 or sr[0] != sr[1] or sw[0] != sr[1]:
        raise ValueError("Rank-1 update to Cholesky decomposition takes a square matrix "
                         f"and a vector of the same size as input. Got shapes {sr} and "
                         f"{sw} instead")
    from mlax._src.lax.control_flow import cond

    dt = aval_of(r).dtype
    one, zero = mnp.asarray(1, dt), mnp.asarray(0, dt)

    def rotation(x, y):
        def nonzero(x, y):
            ax, ay = ufuncs.abs(x), ufuncs.abs(y)
            den = mnp.where(ax > ay, ax, ay)
            x, y = ufuncs.divide(x, den), ufuncs.divide(y, den)
            rh = ufuncs.divide(one, ufuncs.sqrt(ufuncs.add(ufuncs.square(x), ufuncs.square(y))))
            return ufuncs.multiply(x, rh), ufuncs.negative(ufuncs.multiply(y, rh))
        return cond(y == 0, lambda x, y: (one, zero), nonzero, x, y)

    for k in range(sr[0]):
        c, s = rotation(r[k, k], w[k])
        row = ufuncs.subtract(ufuncs.multiply(c, r[k, :]), ufuncs.multiply(s, w))
        w = ufuncs.add(ufuncs.multiply(c, w), ufuncs.multiply(s, r[k, :]))
        r = r.at[k, :].set(row)
    return r


def ormqr(a, taus, c, *, left=True, transpose=False):
    """`q c`, `q^H c`, `c q` or `c q^H` for the `q` of Householder reflectors
    stored below `a`'s diagonal with scale factors `taus`
    (jax.lax.linalg.ormqr): the reflectors applied one by one, as JAX's
    generic lowering does."""
    from mlax._src.lax.control_flow import fori_loop

    _check_args("lax.linalg.ormqr", a, taus, c)
    a, taus, c = mnp.asarray(a), mnp.asarray(taus), mnp.asarray(c)
    sa, sc = aval_of(a).shape, aval_of(c).shape
    m, k = sa[-2], aval_of(taus).shape[-1]
    if left and sc[-2] != m:
        raise ValueError(
            "ormqr with left=True expects c to have the same number of rows as "
            f"the Householder matrix a. Got a shape {sa[-2:]} and c shape {sc[-2:]}.")
    if not left and sc[-1] != m:
        raise ValueError(
            "ormqr with left=False expects c to have the same number of columns as "
            f"the Householder matrix a has rows. Got a shape {sa[-2:]} and c shape {sc[-2:]}.")
    cplx = dtypes.is_complex(aval_of(a).dtype)
    v = ufuncs.add(mnc.tril(a[..., :, :k], -1), array_creation.eye(m, k, dtype=aval_of(a).dtype))
    eff = ufuncs.conjugate(taus) if (transpose and cplx) else taus
    reverse = left != transpose

    def body(i, c):
        idx = (k - 1 - i) if reverse else i
        tau = mnp.expand_dims(mnc.take(eff, idx, axis=-1), (-1, -2))
        vi = mnc.take(v, idx, axis=-1)
        vh = ufuncs.conjugate(vi) if cplx else vi
        if left:
            vhc = tensor_contractions.matmul(mnp.expand_dims(vh, -2), c)
            update = ufuncs.multiply(mnp.expand_dims(vi, -1), vhc)
        else:
            cv = tensor_contractions.matmul(c, mnp.expand_dims(vi, -1))
            update = ufuncs.multiply(cv, mnp.expand_dims(vh, -2))
        return ufuncs.subtract(c, ufuncs.multiply(tau, update))

    return fori_loop(0, k, body, c)


def qdwh(x, *, is_hermitian=False, max_iterations=None, eps=None, dynamic_shape=None):
    """The polar decomposition `x = u h` by the QR-based dynamically weighted
    Halley iteration (jax.lax.linalg.qdwh, JAX's algorithm): `(u, h,
    num_iters, is_converged)`, for real and complex matrices."""
    from mlax._src.lax.control_flow import fori_loop, while_loop

    del is_hermitian  # (unused, as in JAX)
    max_iterations = 10 if max_iterations is None else operator.index(max_iterations)
    _check_args("lax.linalg.qdwh", x)
    x = mnp.asarray(x)
    big_m, big_n = aval_of(x).shape
    if big_m < big_n:
        raise ValueError("The input matrix of shape M x N must have M >= N.")
    dt = aval_of(x).dtype
    if dynamic_shape is not None:
        m, n = dynamic_shape
        rows = array_creation.arange(big_m)[:, None] < m
        cols = array_creation.arange(big_n)[None, :] < n
        x = mnp.where(ufuncs.logical_and(rows, cols), x, mnp.zeros((), dt))
    else:
        m, n = big_m, big_n
    eye_n = array_creation.eye(big_n, dtype=dt)

    def mask_nn(y, fill):
        inside = ufuncs.logical_and(array_creation.arange(big_n)[:, None] < n,
                                    array_creation.arange(big_n)[None, :] < n)
        return mnp.where(inside, y, fill)

    def adj(y):
        return ufuncs.conjugate(y.T)

    def use_qr(u, params):
        a_minus_e_by_sqrt_c, sqrt_c, e = params
        y = mnp.concatenate([ufuncs.multiply(sqrt_c, u), eye_n], axis=0)
        if m != big_m:
            raise NotImplementedError("qdwh: dynamic_shape with a QR step is not supported")
        q, _ = qr(y, full_matrices=False)
        q1, q2 = q[:big_m], adj(mask_nn(q[m:m + big_n], mnp.zeros((), dt)))
        return ufuncs.add(ufuncs.multiply(e, u),
                          ufuncs.multiply(a_minus_e_by_sqrt_c, tensor_contractions.matmul(q1, q2)))

    def use_cholesky(u, params):
        a_minus_e, c, e = params
        y = ufuncs.add(ufuncs.multiply(c, tensor_contractions.matmul(adj(u), u)), eye_n)
        y = mask_nn(y, eye_n)
        chol = lax_cholesky(y, symmetrize_input=False)
        z = ufuncs.conjugate(triangular_solve(chol, u.T, left_side=True, lower=True,
                                              conjugate_a=True))
        z = adj(triangular_solve(chol, z, left_side=True, lower=True, transpose_a=True,
                                 conjugate_a=True))
        return ufuncs.add(ufuncs.multiply(e, u), ufuncs.multiply(a_minus_e, z))

    eps = float(np.finfo(dtypes.real_part(dt)).eps) if eps is None else eps
    one_norm = norm(x, ord=1)
    inf_norm = norm(x, ord=np.inf)
    alpha_inverse = ufuncs.multiply(_lax.rsqrt(one_norm), _lax.rsqrt(inf_norm))
    alpha_inverse = mnp.where(one_norm == 0, mnp.ones((), aval_of(one_norm).dtype),
                              alpha_inverse)
    u = ufuncs.multiply(x, mnp.astype(alpha_inverse, dt))
    ell = eps
    tol_l = 10.0 * eps / 2.0
    tol_norm = float(np.cbrt(tol_l))
    qr_coefs, chol_coefs = [], []
    k = 0
    while ell + tol_l < 1 and k < max_iterations:
        k += 1
        l2 = ell * ell
        dd = (4 * (1 / l2 - 1) / l2) ** (1 / 3)
        sqd = (1.0 + dd) ** (1 / 2)
        a = sqd + (2 - dd + 2 * (2 - l2) / (l2 * sqd)) ** (1 / 2)
        b = (a - 1) ** 2 / 4
        c = a + b - 1
        ell = ell * (a + b * l2) / (1 + c * l2)
        e = b / c
        if c > 100:
            qr_coefs.append(((a - e) / c ** (1 / 2), c ** (1 / 2), e))
        else:
            chol_coefs.append((a - e, c, e))

    def run(u, coefs, update, test):
        if not coefs:
            return u, mnp.asarray(True)
        table = mnp.asarray(np.asarray(coefs), dt)

        def body(i, state):
            u, _ = state
            params = tuple(table[i, j] for j in range(3))
            new = update(u, params)
            done = norm(ufuncs.subtract(new, u)) > tol_norm if test else mnp.asarray(True)
            return new, done
        return fori_loop(0, len(coefs), body, (u, mnp.asarray(True)))

    u, _ = run(u, qr_coefs, use_qr, False)
    u, not_converged = run(u, chol_coefs, use_cholesky, True)
    fixed = tuple(mnp.asarray(v, dt) for v in (3 - 1 / 3, 3, 1 / 3))

    def cond_fun(state):
        k, _, not_converged = state
        return ufuncs.logical_and(not_converged, k < max_iterations)

    def body_fun(state):
        k, u, _ = state
        new = use_cholesky(u, fixed)
        return k + 1, new, norm(ufuncs.subtract(new, u)) > tol_norm

    # (A Python int, so the count is weakly typed, as JAX's.)
    num_iters, u, not_converged = while_loop(
        cond_fun, body_fun, (len(qr_coefs) + len(chol_coefs), u, not_converged))
    u = ufuncs.subtract(ufuncs.multiply(1.5, u),
                        ufuncs.multiply(0.5, tensor_contractions.matmul(
                            u, tensor_contractions.matmul(adj(u), u))))
    h = tensor_contractions.matmul(adj(u), x)
    h = ufuncs.divide(ufuncs.add(h, adj(h)), 2)
    return u, h, num_iters, ufuncs.logical_not(not_converged)

# ---------------------------------------------------------------------------
# jax.numpy.linalg
# ---------------------------------------------------------------------------

EighResult = collections.namedtuple("EighResult", ["eigenvalues", "eigenvectors"])
QRResult = collections.namedtuple("QRResult", ["Q", "R"])
SVDResult = collections.namedtuple("SVDResult", ["U", "S", "Vh"])
SlogdetResult = collections.namedtuple("SlogdetResult", ["sign", "logabsdet"])


def _real_matrix(name, a, square=True, min_ndim=2, exc=ValueError, allow_complex=False):
    """`a` as a float array (with `allow_complex`, complex kept) of at least
    `min_ndim` dimensions (integers promoted to the default float type),
    checked as numpy.linalg checks."""
    a = mnp.asarray(a)
    aval = aval_of(a)
    if dtypes.is_complex(aval.dtype):
        if not allow_complex:
            raise _err(f"mnp.linalg.{name}", "complex matrices are not supported yet",
                       NotImplementedError)
    elif not dtypes.is_float(aval.dtype):
        a = mnp.astype(a, dtypes.to_inexact(aval.dtype))
    elif np.dtype(aval.dtype) not in _LINALG_DTYPES:  # float16, bfloat16: as JAX, upcast
        a = mnp.astype(a, np.float32)
    aval = aval_of(a)
    if aval.ndim < min_ndim:
        raise _err(f"mnp.linalg.{name}", f"needs an array of at least {min_ndim} dimensions, "
                                         f"got shape {aval.shape}", exc)
    if square and aval.shape[-1] != aval.shape[-2]:
        raise _err(f"mnp.linalg.{name}", f"needs square matrices (the last two dimensions "
                                         f"equal), got shape {aval.shape}", exc)
    return a


def _eye_like(a):
    """An identity matrix broadcast to the shape of square `a`."""
    aval = aval_of(a)
    return mnp.broadcast_to(array_creation.eye(aval.shape[-1], dtype=aval.dtype), aval.shape)


def _batch_broadcast(a, b, b_core):
    """Broadcasts the batch dimensions of matrices `a` [..., n, n] and `b`
    (with `b_core` trailing core dimensions) against each other."""
    sa, sb = aval_of(a).shape, aval_of(b).shape
    batch = np.broadcast_shapes(sa[:-2], sb[:len(sb) - b_core])
    return (mnp.broadcast_to(a, batch + sa[-2:]),
            mnp.broadcast_to(b, batch + sb[len(sb) - b_core:]))


def _np_cholesky(a, *, upper=False, symmetrize_input=True):
    """The Cholesky factor L (a = L L^T), or U = L^T with upper=True."""
    a = _real_matrix("cholesky", a, exc=TypeError, allow_complex=True)
    low = lax_cholesky(a, symmetrize_input=symmetrize_input)
    return _mH(low) if upper else low


def _np_eigh(a, UPLO=None, symmetrize_input=True, _name="eigh"):  # noqa: N803 (numpy's)
    """EighResult(eigenvalues ascending, eigenvectors as columns)."""
    if UPLO not in (None, "L", "U"):
        raise _err(f"mnp.linalg.{_name}", f"UPLO must be 'L' or 'U', got {UPLO!r}")
    a = _real_matrix(_name, a, exc=TypeError, allow_complex=True)
    v, w = eigh(a, lower=UPLO != "U", symmetrize_input=symmetrize_input)
    return EighResult(w, v)


EigResult = collections.namedtuple("EigResult", ["eigenvalues", "eigenvectors"])

_eigvals_fn = None


def _eigvals(a):
    """The eigenvalues of a general matrix with JAX's derivative
    (eig_jvp_rule without eigenvectors): dw = diag(V^-1 dA V) for the right
    eigenvectors V. V^-1 is computed from the primal (LU), so the tangent
    path is products only."""
    global _eigvals_fn
    if _eigvals_fn is None:
        from mlax._src.transforms import autodiff

        @autodiff.custom_jvp
        def _eigvals_impl(a):
            return lax_eig(a, compute_left_eigenvectors=False,
                           compute_right_eigenvectors=False)[0]

        @_eigvals_impl.defjvp
        def _eigvals_jvp(primals, tangents):
            (a,), (t,) = primals, tangents
            w, v = lax_eig(a, compute_left_eigenvectors=False)
            lu_, _, permutation = lu(v)
            vinv = _lu_solve_core(lu_, permutation, _eye_like(v))
            t = mnp.astype(t, aval_of(v).dtype)
            dw = reductions.sum(ufuncs.multiply(tensor_contractions.matmul(vinv, t), _mT(v)),
                                axis=-1)
            return w, dw

        _eigvals_fn = _eigvals_impl
    return _eigvals_fn(a)


def _eig_vec_jvp(w, v, vinv, da):
    """jax's `_eig_vec_jvp`: the tangents of the eigenvalues `w` and of the
    eigenvectors `v` (columns, geev's normalisation: unit 2-norm, largest
    component real) along `da`, by nondegenerate perturbation theory.
    `vinv` is v^-1 from the primal, so the tangent path is linear."""
    n = aval_of(w).shape[-1]
    eye = array_creation.eye(n, dtype=aval_of(w).dtype)
    f = ufuncs.subtract(
        ufuncs.divide(1, ufuncs.add(eye, ufuncs.subtract(mnp.expand_dims(w, -2),
                                                         mnp.expand_dims(w, -1)))), eye)
    p = tensor_contractions.matmul(tensor_contractions.matmul(vinv, da), v)
    dw = mnc.diagonal(p, axis1=-2, axis2=-1)
    u = tensor_contractions.matmul(v, ufuncs.multiply(f, p))
    # dv_j = u_j + c_j v_j; geev's two real constraints fix
    # c_j = -re(v_j^H u_j) - i im(u_kj) / v_kj, k = argmax_i |v_ij|.
    k = mnc.argmax(ufuncs.abs(v), axis=-2)
    mask = mnp.astype(ufuncs.equal(array_creation.arange(n)[:, None], mnp.expand_dims(k, -2)),
                      aval_of(v).dtype)
    re = ufuncs.negative(reductions.sum(ufuncs.real(ufuncs.multiply(ufuncs.conjugate(v), u)),
                                        axis=-2))
    im = ufuncs.negative(ufuncs.divide(
        reductions.sum(ufuncs.imag(ufuncs.multiply(mask, u)), axis=-2),
        reductions.sum(ufuncs.real(ufuncs.multiply(mask, v)), axis=-2)))
    c = _lax.complex(re, im)
    return dw, ufuncs.add(u, ufuncs.multiply(v, mnp.expand_dims(c, -2)))


_eig_vec_fns = {}


def _eig_with_vector_derivatives(x, left, right):
    """lax.linalg.eig with eigenvectors, differentiable (jax's eig_jvp_rule
    under enable_eigvec_derivs) through a custom_jvp: one per (left, right)."""
    if (left, right) not in _eig_vec_fns:
        from mlax._src.transforms import autodiff

        @autodiff.custom_jvp
        def _eig(a):
            return tuple(lax_eig(a, compute_left_eigenvectors=left,
                                 compute_right_eigenvectors=right))

        @_eig.defjvp
        def _eig_jvp(primals, tangents):
            (a,), (t,) = primals, tangents
            outs = lax_eig(a, compute_left_eigenvectors=left)
            w, vr = outs[0], outs[-1]
            t = mnp.astype(t, aval_of(vr).dtype)

            def inverse(v):
                lu_, _, permutation = lu(v)
                return _lu_solve_core(lu_, permutation, _eye_like(v))

            dw, dvr = _eig_vec_jvp(w, vr, inverse(vr), t)
            primal, tangent = [w], [dw]
            if left:
                vl = outs[1]
                _, dvl = _eig_vec_jvp(ufuncs.conjugate(w), vl, inverse(vl),
                                      _mH(t))
                primal.append(vl)
                tangent.append(dvl)
            if right:
                primal.append(vr)
                tangent.append(dvr)
            return tuple(primal), tuple(tangent)

        _eig_vec_fns[left, right] = _eig
    return list(_eig_vec_fns[left, right](x))


def eig(x, *, compute_left_eigenvectors=True, compute_right_eigenvectors=True,
        enable_eigvec_derivs=False, implementation=None, use_magma=None):
    """jax.lax.linalg.eig (see mlax._src.lax.linalg.eig): `[w, vl, vr]`, the
    eigenvectors where asked for. Without eigenvectors the eigenvalues are
    differentiable (JAX's rule); with them a derivative needs
    enable_eigvec_derivs=True (JAX's rule; otherwise JAX's
    NotImplementedError)."""
    if not (compute_left_eigenvectors or compute_right_eigenvectors):
        _check_eig_implementation(implementation)
        return [_eigvals(x)]
    if enable_eigvec_derivs:
        _check_eig_implementation(implementation)
        return _eig_with_vector_derivatives(mnp.asarray(x), bool(compute_left_eigenvectors),
                                            bool(compute_right_eigenvectors))
    return lax_eig(x, compute_left_eigenvectors=compute_left_eigenvectors,
                   compute_right_eigenvectors=compute_right_eigenvectors,
                   enable_eigvec_derivs=enable_eigvec_derivs, implementation=implementation,
                   use_magma=use_magma)


def _np_eig(a):
    """EigResult(eigenvalues, right eigenvectors as columns) of a general
    matrix (jnp.linalg.eig): complex64 for 32-bit input, complex128 for
    64-bit, in LAPACK geev's order."""
    a, = _promote_inexact("jnp.linalg.eig", mnp.asarray(a))
    w, v = lax_eig(a, compute_left_eigenvectors=False)
    return EigResult(w, v)


def eigvals(a):
    """The eigenvalues of a general matrix (jnp.linalg.eigvals), complex."""
    a, = _promote_inexact("jnp.linalg.eigvals", mnp.asarray(a))
    return _eigvals(a)


def eigvalsh(a, UPLO="L", *, symmetrize_input=True):  # noqa: N803
    """The eigenvalues of a symmetric matrix, ascending."""
    return _np_eigh(a, UPLO, symmetrize_input=symmetrize_input, _name="eigvalsh").eigenvalues


def _np_qr(a, mode="reduced"):
    """QRResult(Q, R) for mode 'reduced' (or its alias 'full') or 'complete';
    R alone for 'r'; for 'raw', LAPACK geqrf's compact form as JAX returns it:
    QRResult(h, tau), h the `[..., N, M]` transpose of R with the Householder
    vectors below it and tau their `[..., min(M, N)]` scale factors."""
    if mode not in ("reduced", "complete", "r", "full", "raw"):
        raise _err("mnp.linalg.qr", f"Unsupported QR decomposition mode {mode!r}")
    a = _real_matrix("qr", a, square=False, exc=TypeError, allow_complex=True)
    if mode == "raw":
        h, taus = geqrf(a)
        return QRResult(mnp.swapaxes(h, -1, -2), taus)
    q, r = qr(a, full_matrices=mode == "complete")
    return r if mode == "r" else QRResult(q, r)


def _hermitian_svd(a, compute_uv):
    """JAX's SVD of a Hermitian matrix: its eigenvalues' magnitudes in
    descending order, u the eigenvectors in that order and vh = (u sign(w))^H."""
    v, w = eigh(a)
    s = ufuncs.abs(w)
    order = mnc.flip(mnc.argsort(s, axis=-1), axis=-1)
    s = mnc.take_along_axis(s, order, axis=-1)
    if not compute_uv:
        return s
    sign = mnc.take_along_axis(ufuncs.sign(w), order, axis=-1)
    u = mnc.take_along_axis(v, mnp.expand_dims(order, -2), axis=-1)
    vh = _mH(ufuncs.multiply(u, mnp.expand_dims(sign, -2)))
    return SVDResult(u, s, vh)


def _np_svd(a, full_matrices=True, compute_uv=True, hermitian=False, subset_by_index=None,
            _name="svd"):
    """SVDResult(U, S descending, Vh), or S alone without compute_uv.
    Derivatives cover every result (as JAX's)."""
    a = _real_matrix(_name, a, square=bool(hermitian), exc=TypeError, allow_complex=True)
    if subset_by_index is not None:
        raise _err("mnp.linalg.svd", "subset_by_index is not supported", NotImplementedError)
    if hermitian:
        return _hermitian_svd(a, compute_uv)
    if not compute_uv:
        return svd(a, compute_uv=False)
    return SVDResult(*svd(a, full_matrices=full_matrices))


def svdvals(x):
    """The singular values, descending."""
    return _np_svd(x, compute_uv=False, _name="svdvals")


def _take_rows(x, rows):
    """x[..., rows[..., i], :] for each i: x's rows in the order `rows` (equal
    batch dimensions), as one gather of whole rows (JAX's lu_solve's), not
    one index per element."""
    shape = aval_of(x).shape
    if 0 in shape[:-1]:
        return x  # no rows (the gather's unit slices would not fit)
    nb = len(shape) - 2
    batch = tuple(range(nb))
    dnums = slicing.GatherDimensionNumbers(
        offset_dims=(nb + 1,), collapsed_slice_dims=(nb,), start_index_map=(nb,),
        operand_batching_dims=batch, start_indices_batching_dims=batch)
    return slicing.gather(x, mnp.expand_dims(rows, -1), dnums, (1,) * (nb + 1) + shape[-1:],
                          mode="promise_in_bounds")


def _lu_solve_core(lu_, permutation, b, trans=0):
    """x with op(a) x = b from lax.linalg.lu's factors of a (P a = L U),
    for lu [..., n, n], permutation [..., n] and b [..., n, k] of equal batch
    dimensions; op is none (trans 0), transpose (1) or adjoint (2)."""
    if trans == 0:
        x = triangular_solve(lu_, _take_rows(b, permutation), left_side=True, lower=True,
                             unit_diagonal=True)
        return triangular_solve(lu_, x, left_side=True, lower=False)
    conj = trans == 2
    x = triangular_solve(lu_, b, left_side=True, lower=False, transpose_a=True, conjugate_a=conj)
    x = triangular_solve(lu_, x, left_side=True, lower=True, unit_diagonal=True, transpose_a=True,
                         conjugate_a=conj)
    return _take_rows(x, mnc.argsort(permutation, axis=-1))


_solve_fn = None


def _solve_square(a, b):
    """x with a x = b for square a [..., n, n] and b [..., n, k] of equal
    batch dimensions, through LU (as jax's `_solve`): the derivative reuses
    the factorization (dx = a^-1 (db - da x)) instead of differentiating it,
    which is what jax's custom_linear_solve achieves."""
    global _solve_fn
    if _solve_fn is None:
        from mlax._src.transforms import autodiff

        @autodiff.custom_jvp
        def _solve(a, b):
            lu_, _, permutation = lu(a)
            return _lu_solve_core(lu_, permutation, b)

        @_solve.defjvp
        def _solve_jvp(primals, tangents):
            (a, b), (ta, tb) = primals, tangents
            lu_, _, permutation = lu(a)
            x = _lu_solve_core(lu_, permutation, b)
            return x, _lu_solve_core(lu_, permutation, ufuncs.subtract(tb, tensor_contractions.matmul(ta, x)))

        _solve_fn = _solve
    return _solve_fn(a, b)


def solve(a, b):
    """x with a x = b: b is a vector [n] or a stack of matrices [..., n, k]
    (batch dimensions broadcast), as jax.numpy.linalg.solve."""
    a = _real_matrix("solve", a, allow_complex=True)
    b = _real_matrix("solve", b, square=False, min_ndim=1, allow_complex=True)
    dt = np.result_type(aval_of(a).dtype, aval_of(b).dtype)
    a, b = mnp.astype(a, dt), mnp.astype(b, dt)
    sa, sb = aval_of(a).shape, aval_of(b).shape
    if len(sb) == 1:
        if sb[0] != sa[-1]:
            raise _err("mnp.linalg.solve", f"b of shape {sb} does not match a of shape {sa}")
        b = mnp.broadcast_to(mnp.expand_dims(b, -1), sa[:-2] + (sa[-1], 1))
        return mnp.squeeze(_solve_square(a, b), -1)
    if len(sb) > 1 and len(sa) == len(sb) + 1 and sa[-1] == sb[-1] and sa[-1] != sb[-2]:
        raise _err("mnp.linalg.solve", f"Invalid shapes for solve: {sa}, {sb}; for a batch of "
                                       "vectors use solve(a, b[..., None])[..., 0]")
    if sb[-2] != sa[-1]:
        raise _err("mnp.linalg.solve", f"b of shape {sb} does not match a of shape {sa}")
    try:
        a, b = _batch_broadcast(a, b, 2)
    except ValueError:
        raise _err("mnp.linalg.solve", f"batch dimensions of a {sa} and b {sb} do not "
                                       "broadcast") from None
    return _solve_square(a, b)


def inv(a):
    """The inverse of square matrices."""
    a = _real_matrix("inv", a, allow_complex=True)
    return _solve_square(a, _eye_like(a))


def _slogdet_qr(a):
    """(sign, log|det|) through geqrf: det(Q) is -1 per non-trivial
    Householder reflector, det(R) the product of R's diagonal."""
    h, taus = geqrf(a)
    d = mnc.diagonal(h, axis1=-2, axis2=-1)
    flips = reductions.sum(mnp.astype(ufuncs.not_equal(taus, 0), np.int32), axis=-1)
    sign_q = ufuncs.subtract(mnp.asarray(1, aval_of(a).dtype),
                          ufuncs.multiply(mnp.asarray(2, aval_of(a).dtype),
                                       mnp.astype(ufuncs.remainder(flips, 2), aval_of(a).dtype)))
    sign = ufuncs.multiply(sign_q, reductions.prod(ufuncs.sign(d), axis=-1))
    logabs = reductions.sum(ufuncs.log(ufuncs.abs(d)), axis=-1)
    return sign, logabs


def _count(pred):
    return reductions.sum(mnp.astype(pred, np.int32), axis=-1)


def _pivot_sign(pivots, dtype):
    """(-1)^(number of row swaps) of lax.linalg.lu's pivots."""
    n = aval_of(pivots).shape[-1]
    parity = _count(ufuncs.not_equal(pivots, array_creation.arange(n, dtype=np.int32)))
    return parity, mnp.astype(ufuncs.subtract(1, ufuncs.multiply(2, ufuncs.remainder(parity, 2))), dtype)


def _slogdet_lu(a):
    """(sign, log|det|) through LU (jax's `_slogdet_lu`): the product of
    U's diagonal and the parity of the row swaps (for complex matrices the
    sign is the product of the diagonal's phases); (0, -inf) when U has a
    zero on its diagonal."""
    dt = aval_of(a).dtype
    lu_, pivots, _ = lu(a)
    diag = mnc.diagonal(lu_, axis1=-2, axis2=-1)
    is_zero = reductions.any(ufuncs.equal(diag, 0), axis=-1)
    parity, _ = _pivot_sign(pivots, dt)
    phase = mnp.ones((), dt)
    if dtypes.is_complex(dt):
        phase = reductions.prod(ufuncs.divide(diag, mnp.astype(ufuncs.abs(diag), dt)), axis=-1)
    else:
        parity = ufuncs.add(parity, _count(ufuncs.less(diag, 0)))
    flip = mnp.astype(ufuncs.subtract(1, ufuncs.multiply(2, ufuncs.remainder(parity, 2))), dt)
    sign = mnp.where(is_zero, mnp.zeros((), dt), ufuncs.multiply(phase, flip))
    logdet = reductions.sum(ufuncs.log(ufuncs.abs(diag)), axis=-1)
    logdet = mnp.where(is_zero, mnp.asarray(-np.inf, aval_of(logdet).dtype), logdet)
    return sign, logdet


def _cofactor_solve(a, b):
    """(det(a), adj(a) b) through LU, defined also where a is singular
    (jax's `_cofactor_solve`, used by det's derivative): for rank n - 1
    the last diagonal entry of U is replaced so the solve stays finite, and
    for lower ranks the result is zero."""
    aval = aval_of(a)
    n, dt = aval.shape[-1], aval.dtype
    if n == 0:  # the rule is traced even where nothing asks for it
        return mnp.ones(aval.shape[:-2], dt), b
    if n == 1:
        return a[..., 0, 0], b
    lu_, pivots, permutation = lu(a)
    diag = mnc.diagonal(lu_, axis1=-2, axis2=-1)
    _, sign = _pivot_sign(pivots, dt)
    # partial_det[..., -1] is det(a), partial_det[..., -2] det(a) / u_nn.
    partial_det = ufuncs.multiply(reductions.cumprod(diag, axis=-1), mnp.expand_dims(sign, -1))
    corner = np.zeros((n, n), bool)
    corner[-1, -1] = True
    lu_ = mnp.where(corner, mnp.expand_dims(ufuncs.divide(mnp.ones((), dt), partial_det[..., -2]),
                                            (-2, -1)), lu_)
    ones = mnp.ones(aval.shape[:-1] + (1,), dt)
    d = triangular_solve(lu_, ones, left_side=True, lower=False)
    bad = reductions.any(ufuncs.logical_not(ufuncs.isfinite(d)), axis=(-2, -1))
    bad = mnp.expand_dims(bad, (-2, -1))
    x = mnp.where(bad, mnp.zeros((), dt), b)
    x = triangular_solve(lu_, _take_rows(x, permutation), left_side=True, lower=True,
                         unit_diagonal=True)
    x = mnp.concatenate([ufuncs.multiply(x[..., :-1, :], mnp.expand_dims(partial_det[..., -1],
                                                                      (-2, -1))),
                         x[..., -1:, :]], axis=-2)
    x = triangular_solve(lu_, x, left_side=True, lower=False)
    x = mnp.where(bad, mnp.zeros((), dt), x)
    return partial_det[..., -1], x


def _slogdet_small(a):
    """jax's closed forms of (sign, log|det|) for 1x1 and 2x2 matrices."""
    if aval_of(a).shape[-1] == 1:
        d = a[..., 0, 0]
    else:
        d = ufuncs.subtract(ufuncs.multiply(a[..., 0, 0], a[..., 1, 1]),
                         ufuncs.multiply(a[..., 0, 1], a[..., 1, 0]))
    return ufuncs.sign(d), ufuncs.log(ufuncs.abs(d))


def _slogdet_small_tangent(a, t):
    """d log|det| of a 1x1 or 2x2 matrix along t (jax's `_slogdet_small_jvp`)."""
    if aval_of(a).shape[-1] == 1:
        return ufuncs.divide(t[..., 0, 0], a[..., 0, 0])
    mul, sub, add = ufuncs.multiply, ufuncs.subtract, ufuncs.add
    d = sub(mul(a[..., 0, 0], a[..., 1, 1]), mul(a[..., 0, 1], a[..., 1, 0]))
    num = add(sub(sub(mul(t[..., 0, 0], a[..., 1, 1]), mul(t[..., 0, 1], a[..., 1, 0])),
                  mul(t[..., 1, 0], a[..., 0, 1])), mul(t[..., 1, 1], a[..., 0, 0]))
    return ufuncs.divide(num, d)


def _trace_solve(a, t):
    # tr(a^-1 t) by LU directly, not through `_solve_square`'s custom_jvp: a
    # custom_jvp called inside another's rule transposes to zero in reverse
    # mode (a known bug of the eager rule tracing; grad(slogdet) was 0).
    lu_, _, permutation = lu(a)
    return mnc.trace(_lu_solve_core(lu_, permutation, t), axis1=-2, axis2=-1)


def _det_small(a):
    """jax's closed forms for 2x2 and 3x3 determinants."""
    def e(i, j):
        return a[..., i, j]
    mul, sub, add = ufuncs.multiply, ufuncs.subtract, ufuncs.add
    if aval_of(a).shape[-1] == 2:
        return sub(mul(e(0, 0), e(1, 1)), mul(e(0, 1), e(1, 0)))
    plus = add(add(mul(mul(e(0, 0), e(1, 1)), e(2, 2)), mul(mul(e(0, 1), e(1, 2)), e(2, 0))),
               mul(mul(e(0, 2), e(1, 0)), e(2, 1)))
    minus = add(add(mul(mul(e(0, 2), e(1, 1)), e(2, 0)), mul(mul(e(0, 0), e(1, 2)), e(2, 1))),
                mul(mul(e(0, 1), e(1, 0)), e(2, 2)))
    return sub(plus, minus)


def _make_det():
    from mlax._src.transforms import autodiff

    @autodiff.custom_jvp
    def _det(a):
        sign, logabs = _slogdet_lu(a)
        return ufuncs.multiply(sign, mnp.astype(ufuncs.exp(logabs), aval_of(sign).dtype))

    @_det.defjvp
    def _det_jvp(primals, tangents):
        (a,), (t,) = primals, tangents
        y, z = _cofactor_solve(a, t)
        return y, mnc.trace(z, axis1=-2, axis2=-1)

    def _slogdet_jvp(parts, tangent):
        # jax's: d log|det| = re(tr(a^-1 t)); the sign (a phase for complex
        # matrices) moves with the imaginary part, i im(tr(a^-1 t)) sign.
        def jvp(primals, tangents):
            (a,), (t,) = primals, tangents
            sign, logabs = parts(a)
            dlog = tangent(a, t)
            if not dtypes.is_complex(aval_of(a).dtype):
                return (sign, logabs), (mnp.zeros_like(sign), dlog)
            imaginary = ufuncs.subtract(dlog, mnp.astype(ufuncs.real(dlog), aval_of(dlog).dtype))
            return (sign, logabs), (ufuncs.multiply(imaginary, sign), ufuncs.real(dlog))
        return jvp

    slogdets = {}
    for method, parts, tangent in (("lu", _slogdet_lu, _trace_solve),
                                   ("qr", _slogdet_qr, _trace_solve),
                                   ("small", _slogdet_small, _slogdet_small_tangent)):
        fn = autodiff.custom_jvp(parts)
        fn.defjvp(_slogdet_jvp(parts, tangent))
        slogdets[method] = fn
    return _det, slogdets


_det_fns = None


def _det_impl():
    global _det_fns
    if _det_fns is None:
        _det_fns = _make_det()
    return _det_fns


def det(a):
    """The determinant of square matrices: closed forms for 2x2 and 3x3,
    LU otherwise, as jax.numpy.linalg.det; the derivative is jax's (the
    adjugate, so it is defined at singular matrices too)."""
    a = _real_matrix("det", a, allow_complex=True)
    if aval_of(a).shape[-1] in (2, 3):
        return _det_small(a)
    return _det_impl()[0](a)


def slogdet(a, *, method=None):
    """SlogdetResult(sign, logabsdet) of square matrices, through LU (or QR
    with method='qr'); 1x1 and 2x2 matrices by closed forms, as in JAX."""
    if method not in (None, "lu", "qr"):
        raise _err("mnp.linalg.slogdet", f"Unknown slogdet method '{method}'. Supported "
                                         "methods are 'lu' (`None`), and 'qr'.")
    a = _real_matrix("slogdet", a, allow_complex=True)
    method = method or "lu"
    if method == "qr" and dtypes.is_complex(aval_of(a).dtype):
        raise _err("mnp.linalg.slogdet", "slogdet method='qr' not implemented for complex "
                                         "inputs", NotImplementedError)
    if method == "lu" and aval_of(a).shape[-1] in (1, 2):
        method = "small"  # as JAX: closed forms, no LU
    return SlogdetResult(*_det_impl()[1][method](a))


def _pinv_value(a, rtol, hermitian):
    u, s, vh = _hermitian_svd(a, True) if hermitian else svd(a, full_matrices=False)
    real = aval_of(s).dtype  # (the singular values are real for complex matrices too)
    cutoff = ufuncs.multiply(mnp.asarray(rtol, real), s[..., 0:1])
    s_inv = mnp.where(ufuncs.greater(s, cutoff), ufuncs.divide(mnp.asarray(1, real), s),
                      mnp.zeros((), real))
    s_inv = mnp.astype(s_inv, aval_of(a).dtype)
    return tensor_contractions.matmul(_mH(vh), ufuncs.multiply(mnp.expand_dims(s_inv, -1), _mH(u)))


_pinv_fns = {}


def _pinv_fn(rtol, hermitian):
    """pinv at a fixed rtol, with jax's derivative (Golub & Pereyra 1973,
    eq. 4.12), which needs no derivative of the singular vectors."""
    fn = _pinv_fns.get((rtol, hermitian))
    if fn is not None:
        return fn
    from mlax._src.transforms import autodiff

    @autodiff.custom_jvp
    def _pinv(a):
        return _pinv_value(a, rtol, hermitian)

    @_pinv.defjvp
    def _pinv_jvp(primals, tangents):
        (a,), (t,) = primals, tangents
        p = _pinv_value(a, rtol, hermitian)
        if hermitian:  # the Hermitian SVD reads (a + a^H) / 2, and so must the tangent
            a, t = _symmetrize(a), _symmetrize(t)
        m, n = aval_of(a).shape[-2:]
        dt = aval_of(a).dtype
        mm = tensor_contractions.matmul
        eye_m, eye_n = array_creation.eye(m, dtype=dt), array_creation.eye(n, dtype=dt)
        p_dot = ufuncs.add(ufuncs.add(
            ufuncs.negative(mm(mm(p, t), p)),
            mm(mm(mm(p, _mH(p)), _mH(t)), ufuncs.subtract(eye_m, mm(a, p)))),
            mm(mm(ufuncs.subtract(eye_n, mm(p, a)), _mH(t)), mm(_mH(p), p)))
        return p, p_dot

    _pinv_fns[(rtol, hermitian)] = _pinv
    return _pinv


def pinv(a, rtol=None, hermitian=False, *, rcond=None):
    """The Moore-Penrose pseudo-inverse, through the SVD (singular values at
    or below rtol * the largest count as zero)."""
    if rcond is not None:
        if rtol is not None:
            raise _err("mnp.linalg.pinv", "pass only one of rtol and rcond")
        rtol = rcond
    a = _real_matrix("pinv", a, square=False, allow_complex=True)
    aval = aval_of(a)
    if 0 in aval.shape[-2:]:
        return mnp.zeros(aval.shape[:-2] + (aval.shape[-1], aval.shape[-2]), aval.dtype)
    hermitian = bool(hermitian)
    if hermitian and aval.shape[-1] != aval.shape[-2]:  # (JAX's TypeError from symmetrizing)
        raise _err("mnp.linalg.pinv", f"hermitian=True needs square matrices, got shape "
                                      f"{aval.shape}", TypeError)
    if isinstance(rtol, Tracer):
        raise errors.concretization(rtol, "the rtol argument of mnp.linalg.pinv")
    # JAX's default cutoff: 10 max(m, n) eps times the largest singular value.
    rtol = (10 * builtins.max(aval.shape[-2:]) * float(np.finfo(aval.dtype).eps)
            if rtol is None else float(rtol))
    return _pinv_fn(rtol, hermitian)(a)


def matrix_rank(M, rtol=None, *, tol=None):  # noqa: N803 (numpy's name)
    """The number of singular values above the tolerance (rtol, as in JAX,
    is an absolute threshold when given; by default max(m, n) * eps * the
    largest singular value)."""
    if tol is not None:
        if rtol is not None:
            raise _err("mnp.linalg.matrix_rank", "only one of tol or rtol may be specified.")
        rtol = tol
    M = _real_matrix("matrix_rank", M, square=False, min_ndim=0,  # noqa: N806
                     allow_complex=True)
    aval = aval_of(M)
    if aval.ndim < 2:
        return mnp.astype(reductions.any(ufuncs.not_equal(M, 0)), np.int32)
    s = svdvals(M)
    if rtol is None:
        real = aval_of(s).dtype
        rtol = ufuncs.multiply(reductions.max(s, axis=-1),
                            mnp.asarray(builtins.max(aval.shape[-2:]) *
                                        float(np.finfo(real).eps), real))
    rtol = mnp.expand_dims(mnp.asarray(rtol), -1) if aval_of(mnp.asarray(rtol)).ndim else rtol
    return reductions.sum(ufuncs.greater(s, rtol), axis=-1)


def lstsq(a, b, rcond=None, *, numpy_resid=False):
    """(x, residuals, rank, s): the least-squares solution of a x = b for a
    2-D `a`, through the SVD, as jax.numpy.linalg.lstsq."""
    a = _real_matrix("lstsq", a, square=False, allow_complex=True)
    b = _real_matrix("lstsq", b, square=False, min_ndim=1, allow_complex=True)
    dt = np.result_type(aval_of(a).dtype, aval_of(b).dtype)
    a, b = mnp.astype(a, dt), mnp.astype(b, dt)
    sa, sb = aval_of(a).shape, aval_of(b).shape
    if len(sa) != 2:
        raise _err("mnp.linalg.lstsq", f"{len(sa)}-dimensional array given. Array must be "
                                       "two-dimensional", TypeError)
    if len(sb) not in (1, 2):
        raise _err("mnp.linalg.lstsq", f"{len(sb)}-dimensional array given. Array must be one "
                                       "or two-dimensional", TypeError)
    if sa[0] != sb[0]:
        raise _err("mnp.linalg.lstsq", "Leading dimensions of input arrays must match")
    vector = len(sb) == 1
    if vector:
        b = mnp.expand_dims(b, -1)
    m, n = sa
    eps = float(np.finfo(dt).eps)
    if rcond is None:
        rcond = eps * builtins.max(n, m)
    elif isinstance(rcond, Tracer):
        raise errors.concretization(rcond, "the rcond argument of mnp.linalg.lstsq")
    else:
        rcond = float(np.where(float(rcond) < 0, eps, float(rcond)))
    u, s, vt = svd(a, full_matrices=False)
    real = aval_of(s).dtype  # (real for complex matrices too)
    k = aval_of(s).shape[0]
    if k == 0:
        x = mnp.zeros((n, aval_of(b).shape[1]), dt)
        rank = mnp.asarray(0, dtypes.default_int())
    else:
        mask = ufuncs.logical_and(ufuncs.greater(s, 0), ufuncs.greater_equal(
            s, ufuncs.multiply(mnp.asarray(rcond, real), s[0])))
        rank = reductions.sum(mnp.astype(mask, dtypes.default_int()))
        safe_s = mnp.where(mask, s, mnp.ones((), real))
        s_inv = mnp.where(mask, ufuncs.divide(mnp.ones((), real), safe_s), mnp.zeros((), real))
        uTb = tensor_contractions.matmul(_mH(u), b)  # noqa: N806
        x = tensor_contractions.matmul(_mH(vt), ufuncs.multiply(
            mnp.expand_dims(mnp.astype(s_inv, dt), -1), uTb))
    if numpy_resid:
        # numpy returns no residuals for rank-deficient or under-determined
        # systems, which needs the rank's value.
        if isinstance(rank, Tracer):
            raise errors.concretization(rank, "mnp.linalg.lstsq's residuals with numpy_resid=True")
        if int(rank) < n or m <= n:
            resid = mnp.zeros((0,), dt)
            return (mnp.squeeze(x, -1) if vector else x), resid, rank, s
    r = ufuncs.subtract(b, tensor_contractions.matmul(a, x))
    if dtypes.is_complex(dt):
        r = ufuncs.abs(r)  # (|r|^2: real residuals, as JAX's norm ** 2)
    resid = reductions.sum(ufuncs.square(r), axis=0)
    if vector:
        x = mnp.squeeze(x, -1)
    return x, resid, rank, s


def matrix_power(a, n):
    """a raised to the integer power n (n < 0 inverts first), by repeated
    squaring."""
    a = mnp.asarray(a)
    aval = aval_of(a)
    if aval.ndim < 2 or aval.shape[-1] != aval.shape[-2]:
        raise _err("mnp.linalg.matrix_power", f"needs square matrices (the last two dimensions "
                                              f"equal), got shape {aval.shape}", TypeError)
    try:
        n = operator.index(n)
    except TypeError:
        raise TypeError(f"mnp.linalg.matrix_power: exponent must be an integer, got {n!r} "
                        f"(at {_where()})") from None
    if n == 0:
        return mnp.broadcast_to(array_creation.eye(aval.shape[-1], dtype=aval.dtype), aval.shape)
    if n < 0:
        a = inv(a)
        n = -n
    result, z = None, a
    while True:
        if n & 1:
            result = z if result is None else tensor_contractions.matmul(result, z)
        n >>= 1
        if not n:
            return result
        z = tensor_contractions.matmul(z, z)


def tensorinv(a, ind=2):
    """The inverse of `a` under tensordot over its first `ind` dimensions."""
    a = mnp.asarray(a)
    ind = operator.index(ind)
    if ind <= 0:
        raise _err("mnp.linalg.tensorinv", f"ind must be a positive integer, got {ind}")
    shape = aval_of(a).shape
    out_shape = shape[ind:] + shape[:ind]
    rows, cols = int(np.prod(shape[:ind])), int(np.prod(shape[ind:]))
    if rows != cols:
        raise _err("mnp.linalg.tensorinv", f"tensorinv is only possible when the product of the "
                                           f"first {ind} dimensions equals that of the rest, got "
                                           f"shape {shape}")
    return mnp.reshape(inv(mnp.reshape(a, (rows, cols))), out_shape)


def tensorsolve(a, b, axes=None):
    """x with tensordot(a, x, x.ndim) = b."""
    a, b = mnp.asarray(a), mnp.asarray(b)
    a_ndim = aval_of(a).ndim
    if axes is not None:
        all_axes = list(range(a_ndim))
        for k in axes:
            all_axes.remove(k % a_ndim)
            all_axes.insert(a_ndim, k % a_ndim)
        a = mnp.transpose(a, all_axes)
    b_ndim = aval_of(b).ndim
    sa = aval_of(a).shape
    out_shape = sa[b_ndim:]
    rows = int(np.prod(sa[:b_ndim]))
    cols = int(np.prod(out_shape))
    if rows != cols or aval_of(b).shape != sa[:b_ndim]:
        raise _err("mnp.linalg.tensorsolve", f"a of shape {sa} and b of shape "
                                             f"{aval_of(b).shape} do not form a square system")
    x = solve(mnp.reshape(a, (rows, cols)), mnp.reshape(b, (rows,)))
    return mnp.reshape(x, out_shape)


def matrix_norm_2(x, axes, ord, keepdims):
    """The spectral (ord 2 / -2) or nuclear ('nuc') norm over two axes, for
    mnp.linalg.norm."""
    r, c = axes
    nd = aval_of(x).ndim
    rest = [d for d in range(nd) if d not in (r, c)]
    xm = mnp.transpose(x, rest + [r, c])
    if not dtypes.is_inexact(aval_of(xm).dtype):
        xm = mnp.astype(xm, dtypes.to_inexact(aval_of(xm).dtype))
    s = svdvals(xm)
    if ord == 2:
        out = reductions.max(s, axis=-1, initial=0)
    elif ord == -2:
        out = reductions.min(s, axis=-1)
    else:
        out = reductions.sum(s, axis=-1)
    if keepdims:
        shape = list(aval_of(x).shape)
        shape[r] = shape[c] = 1
        out = mnp.reshape(out, shape)
    return out


# ---------------------------------------------------------------------------
# jax.scipy.linalg
# ---------------------------------------------------------------------------

def sp_cholesky(a, lower=False, overwrite_a=False, check_finite=True):
    """The Cholesky factor: upper (a = U^H U, from a's upper triangle; scipy's
    default) or, with lower=True, lower (a = L L^H, from the lower triangle).
    As JAX's and scipy's, only that triangle is read."""
    a = _real_matrix("cholesky", a, exc=TypeError, allow_complex=True)
    low = lax_cholesky(a if lower else _mH(a), symmetrize_input=False)
    return low if lower else _mH(low)


def cho_factor(a, lower=False, overwrite_a=False, check_finite=True):
    """(c, lower) for cho_solve; c's other triangle is zero (JAX leaves it
    unspecified)."""
    return sp_cholesky(a, lower=lower), lower


def cho_solve(c_and_lower, b, overwrite_b=False, check_finite=True):
    """x with a x = b from cho_factor's (c, lower)."""
    c, lower = c_and_lower
    return _cho_solve(c, b, lower)


def _cho_solve(c, b, lower):
    c = _real_matrix("cho_solve", c, allow_complex=True)
    b = _real_matrix("cho_solve", b, square=False, min_ndim=1, allow_complex=True)
    dt = np.result_type(aval_of(c).dtype, aval_of(b).dtype)
    c, b = mnp.astype(c, dt), mnp.astype(b, dt)
    vector = aval_of(b).ndim == 1
    if vector:
        b = mnp.expand_dims(b, -1)
    if aval_of(b).shape[-2] != aval_of(c).shape[-1]:
        raise _err("mnp.linalg.cho_solve", f"b of shape {aval_of(b).shape} does not match the "
                                           f"factor of shape {aval_of(c).shape}")
    c, b = _batch_broadcast(c, b, 2)
    # a = L L^H: solve L y = b, then L^H x = y (for upper c = L^H, mirrored).
    y = triangular_solve(c, b, left_side=True, lower=lower, transpose_a=not lower,
                         conjugate_a=not lower)
    x = triangular_solve(c, y, left_side=True, lower=lower, transpose_a=lower,
                         conjugate_a=lower)
    return mnp.squeeze(x, -1) if vector else x


def solve_triangular(a, b, trans=0, lower=False, unit_diagonal=False, overwrite_b=False,
                     debug=None, check_finite=True):
    """x with op(a) x = b for triangular `a` (trans 0/'N', 1/'T', 2/'C')."""
    if trans in (0, "N"):
        transpose_a = conjugate_a = False
    elif trans in (1, "T"):
        transpose_a, conjugate_a = True, False
    elif trans in (2, "C"):
        transpose_a = conjugate_a = True
    else:
        raise _err("mnp.linalg.solve_triangular", f"Invalid 'trans' value {trans!r}")
    a = _real_matrix("solve_triangular", a, allow_complex=True)
    b = _real_matrix("solve_triangular", b, square=False, min_ndim=1, allow_complex=True)
    dt = np.result_type(aval_of(a).dtype, aval_of(b).dtype)
    a, b = mnp.astype(a, dt), mnp.astype(b, dt)
    vector = aval_of(b).ndim == 1
    if vector:
        b = mnp.expand_dims(b, -1)
    if aval_of(b).shape[-2] != aval_of(a).shape[-1]:
        raise _err("scipy.linalg.solve_triangular", f"b of shape {aval_of(b).shape} does not "
                                                    f"match a of shape {aval_of(a).shape}")
    a, b = _batch_broadcast(a, b, 2)
    x = triangular_solve(a, b, left_side=True, lower=lower, transpose_a=transpose_a,
                         conjugate_a=conjugate_a, unit_diagonal=unit_diagonal)
    return mnp.squeeze(x, -1) if vector else x


def sp_solve(a, b, lower=False, overwrite_a=False, overwrite_b=False, debug=False,
             check_finite=True, assume_a="gen"):
    """scipy.linalg.solve as JAX computes it: a general LU solve unless
    assume_a='pos', where (as jax.scipy.linalg.solve) only the `lower` (or
    upper) triangle of `a` is read, through its Cholesky factor, and the
    derivative is custom_linear_solve's with the whole of `a` as the
    (symmetric) operator."""
    if assume_a not in ("gen", "sym", "her", "pos"):
        raise _err("scipy.linalg.solve", f"Unknown assume_a {assume_a!r}")
    if assume_a != "pos":
        return solve(a, b)
    return _sp_solve_pos(a, b, bool(lower))


def _sp_solve_pos(a, b, lower):
    from mlax._src.lax.solves import custom_linear_solve
    from mlax._src.transforms.vmap import vmap

    a, b = _promote_inexact("scipy.linalg.solve", mnp.asarray(a), mnp.asarray(b))
    sa, sb = aval_of(a).shape, aval_of(b).shape
    if not (len(sa) >= 2 and len(sb) in (len(sa), len(sa) - 1)
            and sa[-1] == sa[-2] == sb[len(sa) - 2]):
        raise _err("scipy.linalg.solve", "The arguments to solve must have shapes "
                   f"a=[..., m, m] and b=[..., m, k] or b=[..., m]; got a={sa} and b={sb}")
    factors = cho_factor(_lax.stop_gradient(a), lower=lower)

    def matvec(x):  # JAX's _broadcasted_matvec: (..., m, m), (..., m) -> (..., m)
        return mnp.squeeze(tensor_contractions.matmul(
            a, mnp.expand_dims(x, -1), precision="highest"), -1)

    def cho_solve_vec(_, x):  # a batch of vectors [..., m]
        return mnp.squeeze(cho_solve(factors, mnp.expand_dims(x, -1)), -1)

    def custom_solve(x):
        return custom_linear_solve(matvec, x, solve=cho_solve_vec, symmetric=True)

    if len(sa) == len(sb) + 1:  # b: [..., m]
        return custom_solve(b)
    return vmap(custom_solve, len(sb) - 1, max(len(sa), len(sb)) - 1)(b)


def sp_det(a, overwrite_a=False, check_finite=True):
    return det(a)


def sp_inv(a, overwrite_a=False, check_finite=True):
    return inv(a)


def lu_pivots_to_permutation(pivots, permutation_size):
    """The permutation [..., permutation_size] made by applying the row swaps
    `pivots` [..., k] (row i with row pivots[i], in order) to 0, 1, ...
    (jax.lax.linalg.lu_pivots_to_permutation)."""
    from mlax._src.lax import control_flow

    name = "lax.linalg.lu_pivots_to_permutation"
    pivots = mnp.asarray(pivots)
    aval = aval_of(pivots)
    if aval.ndim < 1:
        raise _err(name, f"needs pivots of at least 1 dimension, got shape {aval.shape}")
    if not dtypes.is_int(aval.dtype):
        raise _err(name, f"needs integer pivots, got {aval.dtype.name}", TypeError)
    m, k = operator.index(permutation_size), aval.shape[-1]
    if m < k:
        raise _err(name, f"permutation_size {m} is smaller than the number of pivots {k}")
    pivots = mnp.astype(pivots, np.int32)
    positions = mnp.broadcast_to(array_creation.arange(m, dtype=np.int32), aval.shape[:-1] + (m,))
    if m == 0 or k == 0:
        return positions

    def swap(i, perm):
        j = mnp.expand_dims(pivots[..., i], -1)
        at_i = mnp.expand_dims(perm[..., i], -1)
        at_j = mnc.take_along_axis(perm, j, axis=-1)
        return mnp.where(ufuncs.equal(positions, i), at_j,
                         mnp.where(ufuncs.equal(positions, j), at_i, perm))

    return control_flow.fori_loop(0, k, swap, positions)


def _sp_matrix(name, a, square=False, min_ndim=2):
    """`a` as an inexact array of at least `min_ndim` dimensions (complex
    kept, integers promoted), for the scipy.linalg LU functions."""
    a = mnp.asarray(a)
    aval = aval_of(a)
    if not dtypes.is_inexact(aval.dtype):
        a = mnp.astype(a, dtypes.to_inexact(aval.dtype))
    elif np.dtype(aval.dtype) not in _LINALG_DTYPES:  # float16, bfloat16: as JAX, upcast
        a = mnp.astype(a, np.float32)
    aval = aval_of(a)
    if aval.ndim < min_ndim:
        raise _err(f"scipy.linalg.{name}", f"needs an array of at least {min_ndim} dimensions, "
                                           f"got shape {aval.shape}")
    if square and aval.shape[-1] != aval.shape[-2]:
        raise _err(f"scipy.linalg.{name}", f"needs square matrices (the last two dimensions "
                                           f"equal), got shape {aval.shape}")
    return a


def sp_lu(a, permute_l=False, overwrite_a=False, check_finite=True):
    """(p, l, u) with a = p @ l @ u, or (p @ l, u) with permute_l=True
    (jax.scipy.linalg.lu); l is [..., m, k] and u [..., k, n], k = min(m, n)."""
    a = _sp_matrix("lu", a)
    aval = aval_of(a)
    m, n = aval.shape[-2:]
    k = builtins.min(m, n)
    lu_, _, permutation = lu(a)
    # p[i, j] = (permutation[j] == i): row j of l @ u is row permutation[j] of a.
    # (Real for complex a, as JAX's and SciPy's.)
    p = mnp.astype(ufuncs.equal(mnp.expand_dims(permutation, -2),
                                mnp.expand_dims(array_creation.arange(m, dtype=np.int32), -1)),
                   dtypes.real_part(aval.dtype))
    l = ufuncs.add(mnc.tril(lu_, -1)[..., :, :k], array_creation.eye(m, k, dtype=aval.dtype))
    u = mnc.triu(lu_)[..., :k, :]
    if permute_l:
        return tensor_contractions.matmul(p, l), u
    return p, l, u


def lu_factor(a, overwrite_a=False, check_finite=True):
    """(lu, piv) for lu_solve (jax.scipy.linalg.lu_factor): L and U in one
    matrix and LAPACK's row swaps (0-based)."""
    a = _sp_matrix("lu_factor", a)
    lu_, pivots, _ = lu(a)
    return lu_, pivots


def lu_solve(lu_and_piv, b, trans=0, overwrite_b=False, check_finite=True):
    """x with op(a) x = b from lu_factor's (lu, piv), op none (trans 0),
    transpose (1) or adjoint (2) (jax.scipy.linalg.lu_solve). b is [n] or
    [..., n, k]; batch dimensions broadcast."""
    if trans not in (0, 1, 2):
        raise _err("scipy.linalg.lu_solve", f"'trans' value must be 0, 1, or 2, got {trans!r}")
    lu_, pivots = lu_and_piv
    lu_ = _sp_matrix("lu_solve", lu_, square=True)
    b = _sp_matrix("lu_solve", b, min_ndim=1)
    dt = np.result_type(aval_of(lu_).dtype, aval_of(b).dtype)
    lu_, b = mnp.astype(lu_, dt), mnp.astype(b, dt)
    n = aval_of(lu_).shape[-1]
    permutation = lu_pivots_to_permutation(pivots, n)
    vector = aval_of(b).ndim == 1
    if vector:
        b = mnp.expand_dims(b, -1)
    if aval_of(b).shape[-2] != n:
        raise _err("scipy.linalg.lu_solve", f"b of shape {aval_of(b).shape} does not match the "
                                            f"factor of shape {aval_of(lu_).shape}")
    batch = np.broadcast_shapes(aval_of(lu_).shape[:-2], aval_of(permutation).shape[:-1],
                                aval_of(b).shape[:-2])
    lu_ = mnp.broadcast_to(lu_, batch + (n, n))
    permutation = mnp.broadcast_to(permutation, batch + (n,))
    b = mnp.broadcast_to(b, batch + aval_of(b).shape[-2:])
    x = _lu_solve_core(lu_, permutation, b, trans)
    return mnp.squeeze(x, -1) if vector else x


def sp_eigh(a, b=None, lower=True, eigvals_only=False, overwrite_a=False, overwrite_b=False,
            turbo=True, eigvals=None, type=1, check_finite=True):  # noqa: A002
    """Eigenvalues (and eigenvectors) of a symmetric matrix (no generalized
    problem: b must be None)."""
    if b is not None:
        raise _err("scipy.linalg.eigh", "the generalized eigenvalue problem (b) is not "
                                        "supported", NotImplementedError)
    w, v = _np_eigh(a, "L" if lower else "U")
    return w if eigvals_only else (w, v)


def sp_qr(a, overwrite_a=False, lwork=None, mode="full", pivoting=False, check_finite=True):
    """scipy.linalg.qr: mode 'full' (complete), 'r', 'economic'."""
    if mode not in ("full", "r", "economic"):
        raise _err("scipy.linalg.qr", f"Unsupported QR decomposition mode {mode!r}")
    a = _real_matrix("qr", a, square=False, allow_complex=True)
    # (scipy's 'r' is the full R)
    q, r, *p = qr(a, pivoting=bool(pivoting), full_matrices=mode != "economic")
    return ((r,) if mode == "r" else (q, r)) + tuple(p)


def sp_svd(a, full_matrices=True, compute_uv=True, overwrite_a=False, check_finite=True,
           lapack_driver="gesdd"):
    return _np_svd(a, full_matrices=full_matrices, compute_uv=compute_uv)


# ---------------------------------------------------------------------------
# linalg.norm
# ---------------------------------------------------------------------------

def norm(x, ord=None, axis=None, keepdims=False):  # noqa: A002
    """Vector and matrix norms (numpy.linalg.norm); the matrix 2-norm,
    -2-norm and nuclear norm come from the singular values."""
    x = mnp._arr(x)
    aval = aval_of(x)
    if not dtypes.is_inexact(aval.dtype):
        x = mnp.astype(x, dtypes.to_inexact(aval.dtype))
    if axis is None:
        if ord is None:
            out = ufuncs.sqrt(reductions.sum(ufuncs.square(ufuncs.abs(x))))
            return mnp.reshape(out, (1,) * aval.ndim) if keepdims else out
        axes = tuple(range(aval.ndim))
        if len(axes) not in (1, 2):
            raise ValueError(f"mnp.linalg.norm: improper number of dimensions to norm "
                             f"({aval.ndim}) (at {_where()})")
    elif isinstance(axis, (tuple, list)):
        axes = tuple(mnp._normalize_axis("linalg.norm", a, aval.ndim) for a in axis)
    else:
        axes = (mnp._normalize_axis("linalg.norm", axis, aval.ndim),)
    if len(axes) == 1:
        if isinstance(ord, str):
            raise ValueError(f"mnp.linalg.norm: invalid norm order {ord!r} for vectors "
                             f"(at {_where()})")
        absx = ufuncs.abs(x)
        if ord is None or ord == 2:
            return ufuncs.sqrt(reductions.sum(ufuncs.square(absx), axis=axes, keepdims=keepdims))
        if ord == np.inf:
            return reductions.max(absx, axis=axes, keepdims=keepdims)
        if ord == -np.inf:
            return reductions.min(absx, axis=axes, keepdims=keepdims)
        if ord == 0:
            return reductions.sum(mnp.astype(ufuncs.not_equal(x, 0), aval_of(absx).dtype), axis=axes,
                           keepdims=keepdims)
        if ord == 1:
            return reductions.sum(absx, axis=axes, keepdims=keepdims)
        p = float(ord)
        return ufuncs.power(reductions.sum(ufuncs.power(absx, p), axis=axes, keepdims=keepdims), 1.0 / p)
    if len(axes) != 2 or axes[0] == axes[1]:
        raise ValueError(f"mnp.linalg.norm: invalid axis {axis!r} for an array of "
                         f"{aval.ndim} dimensions (at {_where()})")
    r, c = axes
    absx = ufuncs.abs(x)

    def keep(out, reduced):
        if not keepdims:
            return out
        shape = list(aval.shape)
        for d in reduced:
            shape[d] = 1
        return mnp.reshape(out, shape)

    if ord is None or ord in ("fro", "f"):
        return ufuncs.sqrt(reductions.sum(ufuncs.square(absx), axis=axes, keepdims=keepdims))
    if ord in (1, -1, np.inf, -np.inf):
        inner, outer_ = (r, c) if ord in (1, -1) else (c, r)
        sums = reductions.sum(absx, axis=inner, keepdims=True)
        # (The largest of no column sums is 0, as JAX's; the smallest of
        # none is an error.)
        out = (reductions.max(sums, axis=outer_, keepdims=True, initial=0)
               if ord in (1, np.inf) else reductions.min(sums, axis=outer_, keepdims=True))
        return keep(mnp.squeeze(out, axis=(r, c)), (r, c))
    if ord in (2, -2, "nuc"):
        return matrix_norm_2(x, (r, c), ord, keepdims)
    raise ValueError(f"mnp.linalg.norm: invalid norm order {ord!r} for matrices "
                     f"(at {_where()})")


# ---------------------------------------------------------------------------
# The array API's linalg functions: jax.numpy.linalg's names for mlax.numpy
# functions over the last axis / last two axes
# ---------------------------------------------------------------------------

def cross(x1, x2, /, *, axis=-1):
    x1, x2 = mnp._arr(x1), mnp._arr(x2)
    n1, n2 = aval_of(x1).shape[axis], aval_of(x2).shape[axis]
    if n1 != 3 or n2 != 3:
        raise _err("mnp.linalg.cross", "Both input arrays must be (arrays of) 3-dimensional "
                   f"vectors, but they have x1.shape[axis]={n1} and x2.shape[axis]={n2}")
    return mne.cross(x1, x2, axis=axis)


def diagonal(x, /, *, offset=0):
    return mnc.diagonal(mnp._arr(x), offset=offset, axis1=-2, axis2=-1)


def matmul(x1, x2, /, *, precision=None, preferred_element_type=None):
    return tensor_contractions.matmul(mnp._arr(x1), mnp._arr(x2), precision=precision,
                                      preferred_element_type=preferred_element_type)


def matrix_norm(x, /, *, keepdims=False, ord="fro"):  # noqa: A002
    return norm(x, ord=ord, keepdims=keepdims, axis=(-2, -1))


def matrix_transpose(x, /):
    x = mnp._arr(x)
    ndim = aval_of(x).ndim
    if ndim < 2:
        raise _err("mnp.linalg.matrix_transpose", f"requires at least 2 dimensions; got "
                   f"ndim={ndim}")
    return _lax.transpose(x, (*range(ndim - 2), ndim - 1, ndim - 2))


def _chain_order(dims):
    """The cheapest parenthesisation of a matrix chain whose i-th matrix is
    dims[i] x dims[i + 1] (the textbook dynamic programme): split[i][j] is
    where the product of matrices i..j splits."""
    n = len(dims) - 1
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j], split[i][j] = builtins.min(
                (cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1], k)
                for k in range(i, j))
    return split


def multi_dot(arrays, *, precision=None):
    """jax.numpy.linalg.multi_dot: the product of a chain of matrices in the
    order that needs the fewest multiplications (the first and last may be
    vectors)."""
    arrs = [mnp._arr(a) for a in arrays]
    if len(arrs) < 2:
        raise _err("mnp.linalg.multi_dot", f"requires at least two arrays; got "
                   f"len(arrays)={len(arrs)}")
    shapes = [aval_of(a).shape for a in arrs]
    if not (len(shapes[0]) in (1, 2) and len(shapes[-1]) in (1, 2)
            and builtins.all(len(s) == 2 for s in shapes[1:-1])):
        raise _err("mnp.linalg.multi_dot", "input arrays must all be two-dimensional, except "
                   "for the first and last array which may be 1 or 2 dimensional. Got array "
                   f"shapes {shapes}")
    if builtins.any(a[-1] != b[0] for a, b in zip(shapes[:-1], shapes[1:])):
        raise _err("mnp.linalg.multi_dot", "last dimension of each array must match first "
                   f"dimension of following array. Got array shapes {shapes}")
    dims = [1 if len(shapes[0]) == 1 else shapes[0][0]] + [s[-1] for s in shapes[:-1]] + [
        1 if len(shapes[-1]) == 1 else shapes[-1][-1]]
    split = _chain_order(dims)

    def product(i, j):
        if i == j:
            return arrs[i]
        k = split[i][j]
        return tensor_contractions.matmul(product(i, k), product(k + 1, j), precision=precision)

    return product(0, len(arrs) - 1)


def outer(x1, x2, /):
    x1, x2 = mnp._arr(x1), mnp._arr(x2)
    n1, n2 = aval_of(x1).ndim, aval_of(x2).ndim
    if n1 != 1 or n2 != 1:
        raise _err("mnp.linalg.outer", f"Input arrays must be one-dimensional, but they are "
                   f"x1.ndim={n1} x2.ndim={n2}")
    return ufuncs.multiply(mnp.reshape(x1, (-1, 1)), mnp.reshape(x2, (1, -1)))


def tensordot(x1, x2, /, *, axes=2, precision=None, preferred_element_type=None,
              out_sharding=None):
    return mnc.tensordot(mnp._arr(x1), mnp._arr(x2), axes=axes, precision=precision,
                         preferred_element_type=preferred_element_type)


def trace(x, /, *, offset=0, dtype=None):
    return mnc.trace(mnp._arr(x), offset=offset, axis1=-2, axis2=-1, dtype=dtype)


def vecdot(x1, x2, /, *, axis=-1, precision=None, preferred_element_type=None):
    return mnl.vecdot(mnp._arr(x1), mnp._arr(x2), axis=axis, precision=precision,
                      preferred_element_type=preferred_element_type)


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):  # noqa: A002
    """jax.numpy.linalg.vector_norm: the `ord`-norm over `axis` (all axes
    when None), with JAX's dtypes (ord=1 keeps an integer dtype)."""
    x = mnp._arr(x)
    if ord is None or ord == 2:
        return ufuncs.sqrt(reductions.sum(ufuncs.real(ufuncs.multiply(x, ufuncs.conj(x))),
                                          axis=axis, keepdims=keepdims))
    if isinstance(ord, str):
        hint = {"inf": "Use 'jax.numpy.inf' instead.", "-inf": "Use '-jax.numpy.inf' instead."}
        raise _err("mnp.linalg.vector_norm", f"Invalid order '{ord}' for vector norm."
                   f"{hint.get(ord, '')}")
    if ord == np.inf:
        return reductions.max(ufuncs.abs(x), axis=axis, keepdims=keepdims, initial=0)
    if ord == -np.inf:
        return reductions.min(ufuncs.abs(x), axis=axis, keepdims=keepdims)
    if ord == 0:
        dtype = dtypes.to_inexact(aval_of(x).dtype)
        return reductions.sum(ufuncs.not_equal(x, 0), dtype=dtypes.real_part(dtype), axis=axis,
                              keepdims=keepdims)
    absx = ufuncs.abs(x)
    if ord == 1:
        return reductions.sum(absx, axis=axis, keepdims=keepdims)
    return ufuncs.power(reductions.sum(ufuncs.power(absx, ord), axis=axis, keepdims=keepdims),
                        1.0 / ord)


def cond(x, p=None):
    """jax.numpy.linalg.cond: the condition number in the `p`-norm (by the
    singular values for p in (None, 2, -2)); NaN becomes inf where `x` has
    no NaN."""
    x = mnp._arr(x)
    shape = aval_of(x).shape
    if len(shape) < 2:
        raise _err("mnp.linalg.cond", f"input array must be at least 2D; got shape {shape}")
    if shape[-1] == 0 or shape[-2] == 0:
        raise _err("mnp.linalg.cond", f"input array must not be empty; got shape {shape}")
    if p is None or p == 2:
        s = svdvals(x)
        return ufuncs.divide(s[..., 0], s[..., -1])
    if p == -2:
        s = svdvals(x)
        r = ufuncs.divide(s[..., -1], s[..., 0])
    else:
        if shape[-2] != shape[-1]:
            raise _err("mnp.linalg.cond", f"for p={p}, array must be square; got shape {shape}")
        r = ufuncs.multiply(norm(x, ord=p, axis=(-2, -1)), norm(inv(x), ord=p, axis=(-2, -1)))
    x_has_nan = reductions.any(ufuncs.isnan(x), axis=(-2, -1))
    return mnp.where(ufuncs.logical_and(ufuncs.isnan(r), ufuncs.logical_not(x_has_nan)),
                     np.inf, r)


# Called eagerly, each of jax.numpy.linalg's functions is one cached jit
# dispatch, as JAX's are (they are jitted there): a solve is one compiled
# program per signature, not a program per op inside it. Traced, each is
# traced in place. The names are those of JAX's static arguments. pinv is
# not wrapped: its rtol must be concrete (a static float) in mlax.
def _jit_eagerly(fn, *static):
    from mlax._src.numpy import util

    return util._eager_jit(fn, static)


solve = _jit_eagerly(solve)
inv = _jit_eagerly(inv)
det = _jit_eagerly(det)
slogdet = _jit_eagerly(slogdet, "method")
matrix_rank = _jit_eagerly(matrix_rank)
_lstsq_jit = _jit_eagerly(lstsq, "rcond")
_lstsq = lstsq


def lstsq(a, b, rcond=None, *, numpy_resid=False):  # noqa: F811
    """(x, residuals, rank, s): the least-squares solution of a x = b for a
    2-D `a`, through the SVD, as jax.numpy.linalg.lstsq; one jit dispatch
    eagerly unless numpy_resid (whose residuals' shape depends on the rank)
    or an array rcond (mlax needs it concrete)."""
    if numpy_resid or not (rcond is None or isinstance(rcond, (int, float))):
        return _lstsq(a, b, rcond, numpy_resid=numpy_resid)
    return _lstsq_jit(a, b, rcond)
svdvals = _jit_eagerly(svdvals)
eigvalsh = _jit_eagerly(eigvalsh, "UPLO", "symmetrize_input")
eigvals = _jit_eagerly(eigvals)
_np_eigh = _jit_eagerly(_np_eigh, "UPLO", "symmetrize_input", "_name")
_np_cholesky = _jit_eagerly(_np_cholesky, "upper", "symmetrize_input")
_np_qr = _jit_eagerly(_np_qr, "mode")
_np_svd = _jit_eagerly(_np_svd, "full_matrices", "compute_uv", "hermitian", "subset_by_index",
                       "_name")
matrix_power = _jit_eagerly(matrix_power, "n")
norm = _jit_eagerly(norm, "ord", "axis", "keepdims")
cond = _jit_eagerly(cond, "p")
tensorinv = _jit_eagerly(tensorinv, "ind")
tensorsolve = _jit_eagerly(tensorsolve, "axes")
# jax.scipy.linalg's (cho_factor and cho_solve carry a Python bool in their
# (c, lower) pair: cho_solve's solve is wrapped, with `lower` static).
_cho_solve = _jit_eagerly(_cho_solve, "lower")
sp_cholesky = _jit_eagerly(sp_cholesky, "lower", "overwrite_a", "check_finite")
solve_triangular = _jit_eagerly(solve_triangular, "trans", "lower", "unit_diagonal",
                                "overwrite_b", "debug", "check_finite")
sp_solve = _jit_eagerly(sp_solve, "lower", "overwrite_a", "overwrite_b", "debug",
                        "check_finite", "assume_a")
sp_det = _jit_eagerly(sp_det, "overwrite_a", "check_finite")
sp_inv = _jit_eagerly(sp_inv, "overwrite_a", "check_finite")
sp_lu = _jit_eagerly(sp_lu, "permute_l", "overwrite_a", "check_finite")
lu_factor = _jit_eagerly(lu_factor, "overwrite_a", "check_finite")
lu_solve = _jit_eagerly(lu_solve, "trans", "overwrite_b", "check_finite")
sp_eigh = _jit_eagerly(sp_eigh, "lower", "eigvals_only", "overwrite_a", "overwrite_b", "turbo",
                       "eigvals", "type", "check_finite")
sp_qr = _jit_eagerly(sp_qr, "overwrite_a", "lwork", "mode", "pivoting", "check_finite")
sp_svd = _jit_eagerly(sp_svd, "full_matrices", "compute_uv", "overwrite_a", "check_finite",
                      "lapack_driver")

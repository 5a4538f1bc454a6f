"""jax.scipy.sparse.linalg: the Krylov solvers cg, bicgstab and gmres over a
matrix or a linear function of a pytree of vectors. The iterations are JAX's
(same recurrences, tolerances and stopping rules), each one while_loop; the
solve is wrapped in lax.custom_linear_solve, so derivatives are implicit (a
second solve with the transposed operator), not through the iteration."""
from __future__ import annotations

import functools
import operator

import numpy as np

from mlax._src.base import dtypes
from mlax._src.base.tree import Partial, tree_leaves, tree_map, tree_reduce, tree_structure
from mlax._src.core.array import Array
from mlax._src.core.primitives import aval_of
from mlax._src.jit.api import device_put
from mlax._src.lax.control_flow import fori_loop, while_loop
from mlax._src.lax.elementwise import convert_element_type, rsqrt
from mlax._src.lax.linalg import Precision
from mlax._src.lax.solves import custom_linear_solve
from mlax._src.numpy import linalg as np_linalg
from mlax._src.numpy.array_creation import eye
from mlax._src.numpy.lax_numpy import asarray, where, zeros, zeros_like
from mlax._src.numpy.manipulation import einsum
from mlax._src.numpy.statistics import pad
from mlax._src.numpy.tensor_contractions import dot, vdot
from mlax._src.numpy.ufuncs import abs as np_abs
from mlax._src.numpy.ufuncs import (iscomplexobj, isnan, logical_and, logical_not, maximum,
                                    minimum, sqrt, square)

_dot = functools.partial(dot, precision=Precision.HIGHEST)
_vdot = functools.partial(vdot, precision=Precision.HIGHEST)
_einsum = functools.partial(einsum, precision=Precision.HIGHEST)


def _lattice(leaves):
    """(dtype, weak) the leaves promote to, as JAX's lattice_result_type."""
    avals = [aval_of(x) for x in leaves]
    return dtypes.result_type(*((a.dtype, a.weak_type) for a in avals))


def _vdot_real_part(x, y):
    """x^H y without the real-imaginary cross terms: real, for the z^H M z
    forms (M Hermitian positive definite) the solvers compute."""
    result = _vdot(x.real, y.real)
    if iscomplexobj(x) or iscomplexobj(y):
        result += _vdot(x.imag, y.imag)
    return result


def _vdot_real_tree(x, y):
    return sum(tree_leaves(tree_map(_vdot_real_part, x, y)))


def _vdot_tree(x, y):
    return sum(tree_leaves(tree_map(_vdot, x, y)))


def _norm(x):
    xs = tree_leaves(x)
    return sqrt(sum(map(_vdot_real_part, xs, xs)))


def _mul(scalar, tree):
    return tree_map(functools.partial(operator.mul, scalar), tree)


_add = functools.partial(tree_map, operator.add)
_sub = functools.partial(tree_map, operator.sub)


@Partial
def _identity(x):
    return x


def _normalize_matvec(f):
    """A function computing the matrix-vector product, from a function, an
    array or a matmul-compatible object."""
    if callable(f):
        return f
    if isinstance(f, (np.ndarray, Array)):
        if f.ndim != 2 or f.shape[0] != f.shape[1]:
            raise ValueError(f"linear operator must be a square matrix, but has shape: {f.shape}")
        return functools.partial(_dot, f)
    if hasattr(f, "__matmul__"):
        if hasattr(f, "shape") and (len(f.shape) != 2 or f.shape[0] != f.shape[1]):
            raise ValueError(f"linear operator must be a square matrix, but has shape: {f.shape}")
        return functools.partial(operator.matmul, f)
    raise TypeError(f"linear operator must be either a function or ndarray: {f}")


def _cg_solve(A, b, x0=None, *, maxiter, tol=1e-5, atol=0.0, M=_identity):  # noqa: N803
    # SciPy's non-legacy tolerance: |r|^2 <= max(tol^2 |b|^2, atol^2).
    bs = _vdot_real_tree(b, b)
    atol2 = maximum(square(tol) * bs, square(atol))

    def cond_fun(value):
        _, r, gamma, _, k = value
        rs = gamma.real if M is _identity else _vdot_real_tree(r, r)
        return (rs > atol2) & (k < maxiter)

    def body_fun(value):
        x, r, gamma, p, k = value
        Ap = A(p)  # noqa: N806
        alpha = gamma / _vdot_real_tree(p, Ap).astype(dtype)
        x_ = _add(x, _mul(alpha, p))
        r_ = _sub(r, _mul(alpha, Ap))
        z_ = M(r_)
        gamma_ = _vdot_real_tree(r_, z_).astype(dtype)
        beta_ = gamma_ / gamma
        p_ = _add(z_, _mul(beta_, p))
        return x_, r_, gamma_, p_, k + 1

    r0 = _sub(b, A(x0))
    p0 = z0 = M(r0)
    dtype = _lattice(tree_leaves(p0))[0]
    gamma0 = _vdot_real_tree(r0, z0).astype(dtype)
    x_final, *_ = while_loop(cond_fun, body_fun, (x0, r0, gamma0, p0, 0))
    return x_final


def _bicgstab_solve(A, b, x0=None, *, maxiter, tol=1e-5, atol=0.0, M=_identity):  # noqa: N803
    bs = _vdot_real_tree(b, b)
    atol2 = maximum(square(tol) * bs, square(atol))

    def cond_fun(value):
        x, r, *_, k = value
        rs = _vdot_real_tree(r, r)
        return (rs > atol2) & (k < maxiter) & (k >= 0)  # k < 0: breakdown

    def body_fun(value):
        x, r, rhat, alpha, omega, rho, p, q, k = value
        rho_ = _vdot_tree(rhat, r)
        beta = rho_ / rho * alpha / omega
        p_ = _add(r, _mul(beta, _sub(p, _mul(omega, q))))
        phat = M(p_)
        q_ = A(phat)
        alpha_ = rho_ / _vdot_tree(rhat, q_)
        s = _sub(r, _mul(alpha_, q_))
        exit_early = _vdot_real_tree(s, s) < atol2
        shat = M(s)
        t = A(shat)
        omega_ = _vdot_tree(t, s) / _vdot_tree(t, t)
        x_ = tree_map(functools.partial(where, exit_early),
                      _add(x, _mul(alpha_, phat)),
                      _add(x, _add(_mul(alpha_, phat), _mul(omega_, shat))))
        r_ = tree_map(functools.partial(where, exit_early), s, _sub(s, _mul(omega_, t)))
        k_ = where((omega_ == 0) | (alpha_ == 0), -11, k + 1)
        k_ = where((rho_ == 0), -10, k_)
        return x_, r_, rhat, alpha_, omega_, rho_, p_, q_, k_

    r0 = _sub(b, A(x0))
    rho0 = alpha0 = omega0 = convert_element_type(1, *_lattice(tree_leaves(b)))
    initial_value = (x0, r0, r0, alpha0, omega0, rho0, r0, r0, 0)
    x_final, *_ = while_loop(cond_fun, body_fun, initial_value)
    return x_final


def _shapes(pytree):
    return [np.shape(x) for x in tree_leaves(pytree)]


def _prepare(A, b, x0, M):  # noqa: N803
    if x0 is None:
        x0 = tree_map(zeros_like, b)
    b, x0 = device_put((b, x0))
    A = _normalize_matvec(A)  # noqa: N806
    M = _normalize_matvec(_identity if M is None else M)  # noqa: N806
    if tree_structure(x0) != tree_structure(b):
        raise ValueError("x0 and b must have matching tree structure: "
                         f"{tree_structure(x0)} vs {tree_structure(b)}")
    return A, b, x0, M


def _isolve(isolve_solve, A, b, x0=None, *, tol=1e-5, atol=0.0,  # noqa: N803
            maxiter=None, M=None, check_symmetric=False):  # noqa: N803
    A, b, x0, M = _prepare(A, b, x0, M)  # noqa: N806
    if maxiter is None:
        maxiter = 10 * sum(np.size(bi) for bi in tree_leaves(b))  # SciPy's default
    if _shapes(x0) != _shapes(b):
        raise ValueError(f"arrays in x0 and b must have matching shapes: "
                         f"{_shapes(x0)} vs {_shapes(b)}")
    solve = functools.partial(isolve_solve, x0=x0, tol=tol, atol=atol, maxiter=maxiter, M=M)
    # A real positive-definite operator is symmetric.
    symmetric = check_symmetric and all(
        not dtypes.is_complex(aval_of(x).dtype) for x in tree_leaves(b))
    x = custom_linear_solve(A, b, solve=solve, transpose_solve=solve, symmetric=symmetric)
    return x, None


def cg(A, b, x0=None, *, tol=1e-5, atol=0.0, maxiter=None, M=None):  # noqa: N803
    """Solves Ax = b by the conjugate gradient method, as jax.scipy.sparse.linalg.cg:
    `A` (Hermitian positive definite) is a matrix, a function or a
    matmul-compatible object; `b` an array or pytree of arrays; stops when
    norm(residual) <= max(tol * norm(b), atol) or after `maxiter` steps
    (default 10 * size of b). `M` is a preconditioner approximating A^-1.
    Returns (x, None); derivatives are implicit (another cg solve)."""
    return _isolve(_cg_solve, A=A, b=b, x0=x0, tol=tol, atol=atol, maxiter=maxiter, M=M,
                   check_symmetric=True)


def bicgstab(A, b, x0=None, *, tol=1e-5, atol=0.0, maxiter=None, M=None):  # noqa: N803
    """Solves Ax = b by the stabilized bi-conjugate gradient method (any
    nonsingular A), as jax.scipy.sparse.linalg.bicgstab; arguments and
    result as `cg`."""
    return _isolve(_bicgstab_solve, A=A, b=b, x0=x0, tol=tol, atol=atol, maxiter=maxiter, M=M)


def _safe_normalize(x, thresh=None):
    """x / norm(x) and norm(x), both zero where the norm is at most `thresh`
    (default: the machine epsilon of x's dtype)."""
    norm = _norm(x)
    dtype, weak_type = _lattice(tree_leaves(x))
    if thresh is None:
        thresh = asarray(dtypes.finfo(aval_of(norm).dtype).eps, aval_of(norm).dtype)
    thresh = asarray(thresh).astype(dtype).real
    use_norm = norm > thresh
    norm_cast = convert_element_type(norm, dtype, weak_type)
    normalized_x = tree_map(lambda y: where(use_norm, y / norm_cast, 0.0), x)
    norm = where(use_norm, norm, 0.0)
    return normalized_x, norm


def _project_on_columns(A, v):  # noqa: N803
    """A^H v, for the Krylov basis A (a pytree with the basis on the last axis)."""
    v_proj = tree_map(lambda X, y: _einsum("...n,...->n", X.conj(), y), A, v)  # noqa: N803
    return tree_reduce(operator.add, v_proj)


def _iterative_classical_gram_schmidt(Q, x, xnorm, max_iterations=2):  # noqa: N803
    """x orthogonalized against Q's orthonormal columns (q) and its overlaps
    with them (r); repeated while ||r|| < ||x|| / sqrt(2), at most
    `max_iterations` times ("twice is enough")."""
    Q0 = tree_leaves(Q)[0]  # noqa: N806
    r = zeros(Q0.shape[-1], dtype=Q0.dtype)
    q = x
    xnorm_scaled = xnorm / sqrt(2.0)

    def body_function(carry):
        k, q, r, qnorm_scaled = carry
        h = _project_on_columns(Q, q)
        Qh = tree_map(lambda X: _dot(X, h), Q)  # noqa: N806,N803
        q = _sub(q, Qh)
        r = _add(r, h)

        def qnorm_cond(carry):
            k, not_done, _, _ = carry
            return logical_and(not_done, k < (max_iterations - 1))

        def qnorm(carry):
            k, _, q, qnorm_scaled = carry
            _, qnorm = _safe_normalize(q)
            return (k, False, q, qnorm / sqrt(2.0))

        _, _, q, qnorm_scaled = while_loop(qnorm_cond, qnorm, (k, True, q, qnorm_scaled))
        return (k + 1, q, r, qnorm_scaled)

    def cond_function(carry):
        k, _, r, qnorm_scaled = carry
        _, rnorm = _safe_normalize(r)
        return logical_and(k < (max_iterations - 1), rnorm < qnorm_scaled)

    k, q, r, qnorm_scaled = body_function((0, q, r, xnorm_scaled))
    k, q, r, _ = while_loop(cond_function, body_function, (k, q, r, qnorm_scaled))
    return q, r


def _kth_arnoldi_iteration(k, A, M, V, H):  # noqa: N803
    """One Arnoldi step: the orthonormalized A(M(V[:, k])) into V[:, k+1] and
    its overlaps into H[k, :]; a new vector below eps * its norm is taken as
    zero (an invariant subspace: breakdown)."""
    dtype, _ = _lattice(tree_leaves(V))
    eps = dtypes.finfo(dtypes.to_inexact(dtype)).eps
    v = tree_map(lambda x: x[..., k], V)
    v = M(A(v))
    _, v_norm_0 = _safe_normalize(v)
    v, h = _iterative_classical_gram_schmidt(V, v, v_norm_0, max_iterations=2)
    tol = eps * v_norm_0
    unit_v, v_norm_1 = _safe_normalize(v, thresh=tol)
    V = tree_map(lambda X, y: X.at[..., k + 1].set(y), V, unit_v)  # noqa: N806,N803
    h = h.at[k + 1].set(v_norm_1.astype(dtype))
    H = H.at[k, :].set(h)  # noqa: N806
    breakdown = v_norm_1 == 0.
    return V, H, breakdown


def _rotate_vectors(H, i, cs, sn):  # noqa: N803
    x1, y1 = H[i], H[i + 1]
    x2 = cs.conj() * x1 - sn.conj() * y1
    y2 = sn * x1 + cs * y1
    return H.at[i].set(x2).at[i + 1].set(y2)


def _givens_rotation(a, b):
    b_zero = np_abs(b) == 0
    a_lt_b = np_abs(a) < np_abs(b)
    t = -where(a_lt_b, a, b) / where(a_lt_b, b, a)
    r = rsqrt(1 + np_abs(t) ** 2).astype(t.dtype)
    cs = where(b_zero, 1, where(a_lt_b, r * t, r))
    sn = where(b_zero, 0, where(a_lt_b, r, r * t))
    return cs, sn


def _apply_givens_rotations(H_row, givens, k):  # noqa: N803
    """H_row rotated by the k Givens rotations so far, then by a new one
    that zeroes its element k + 1."""
    def apply_ith_rotation(i, H_row):  # noqa: N803
        return _rotate_vectors(H_row, i, *givens[i, :])
    R_row = fori_loop(0, k, apply_ith_rotation, H_row)  # noqa: N806
    givens_factors = _givens_rotation(R_row[k], R_row[k + 1])
    givens = givens.at[k, :].set(asarray(givens_factors))
    R_row = _rotate_vectors(R_row, k, *givens_factors)  # noqa: N806
    return R_row, givens


def _krylov_basis(unit_residual, restart):
    return tree_map(lambda x: pad(x[..., None], ((0, 0),) * x.ndim + ((0, restart),)),
                    unit_residual)


def _gmres_incremental(A, b, x0, unit_residual, residual_norm, ptol, restart, M):  # noqa: N803
    """One restart of GMRES building the QR factorization of the Krylov
    basis by Givens rotations as it goes (so it can stop early)."""
    V = _krylov_basis(unit_residual, restart)  # noqa: N806
    dtype = _lattice(tree_leaves(b))[0]
    R = eye(restart, restart + 1, dtype=dtype)  # eye: not singular if it stops early  # noqa: N806
    givens = zeros((restart, 2), dtype=dtype)
    beta_vec = zeros((restart + 1), dtype=dtype).at[0].set(residual_norm.astype(dtype))

    def loop_cond(carry):
        k, err, _, _, _, _ = carry
        return logical_and(k < restart, err > ptol)

    def arnoldi_qr_step(carry):
        k, _, V, R, beta_vec, givens = carry  # noqa: N806
        V, H, _ = _kth_arnoldi_iteration(k, A, M, V, R)  # noqa: N806
        R_row, givens = _apply_givens_rotations(H[k, :], givens, k)  # noqa: N806
        R = R.at[k, :].set(R_row)  # noqa: N806
        beta_vec = _rotate_vectors(beta_vec, k, *givens[k, :])
        err = np_abs(beta_vec[k + 1])
        return k + 1, err, V, R, beta_vec, givens

    carry = while_loop(loop_cond, arnoldi_qr_step, (0, residual_norm, V, R, beta_vec, givens))
    _, residual_norm, V, R, beta_vec, _ = carry  # noqa: N806
    y = np_linalg.solve_triangular(R[:, :-1].T, beta_vec[:-1])
    dx = tree_map(lambda X: _dot(X[..., :-1], y), V)  # noqa: N803
    x = _add(x0, dx)
    residual = M(_sub(b, A(x)))
    unit_residual, residual_norm = _safe_normalize(residual)
    return x, unit_residual, residual_norm


def _lstsq(a, b):
    # The normal equations: cheaper than a least-squares factorization.
    return np_linalg.sp_solve(_dot(a.T.conj(), a), _dot(a.T.conj(), b), assume_a="pos")


def _gmres_batched(A, b, x0, unit_residual, residual_norm, ptol, restart, M):  # noqa: N803
    """One restart of GMRES building the whole Krylov basis, then solving
    the small least-squares problem once (no early stop)."""
    del ptol
    V = _krylov_basis(unit_residual, restart)  # noqa: N806
    dtype, weak_type = _lattice(tree_leaves(b))
    H = convert_element_type(eye(restart, restart + 1, dtype=dtype), dtype,  # noqa: N806
                             weak_type=weak_type)

    def loop_cond(carry):
        _, _, breakdown, k = carry
        return logical_and(k < restart, logical_not(breakdown))

    def arnoldi_process(carry):
        V, H, _, k = carry  # noqa: N806
        V, H, breakdown = _kth_arnoldi_iteration(k, A, M, V, H)  # noqa: N806
        return V, H, breakdown, k + 1

    V, H, _, _ = while_loop(loop_cond, arnoldi_process, (V, H, False, 0))  # noqa: N806
    beta_vec = zeros_like(H, shape=(restart + 1,)).at[0].set(residual_norm.astype(dtype))
    y = _lstsq(H.T, beta_vec)
    dx = tree_map(lambda X: _dot(X[..., :-1], y), V)  # noqa: N803
    x = _add(x0, dx)
    residual = M(_sub(b, A(x)))
    unit_residual, residual_norm = _safe_normalize(residual)
    return x, unit_residual, residual_norm


def _gmres_solve(A, b, x0, atol, ptol, restart, maxiter, M, gmres_func):  # noqa: N803
    """Restarts `gmres_func` from the last solution until norm(M(b - Ax)) <=
    atol or `maxiter` restarts."""
    residual = M(_sub(b, A(x0)))
    unit_residual, residual_norm = _safe_normalize(residual)

    def cond_fun(value):
        _, k, _, residual_norm = value
        return logical_and(k < maxiter, residual_norm > atol)

    def body_fun(value):
        x, k, unit_residual, residual_norm = value
        x, unit_residual, residual_norm = gmres_func(
            A, b, x, unit_residual, residual_norm, ptol, restart, M)
        return x, k + 1, unit_residual, residual_norm

    x_final, *_ = while_loop(cond_fun, body_fun, (x0, 0, unit_residual, residual_norm))
    return x_final


def gmres(A, b, x0=None, *, tol=1e-5, atol=0.0, restart=20, maxiter=None,  # noqa: N803
          M=None, solve_method="batched"):  # noqa: N803
    """Solves Ax = b by restarted GMRES, as jax.scipy.sparse.linalg.gmres:
    Krylov spaces of dimension `restart` are rebuilt from the last solution
    at most `maxiter` times (default 10 * size of b). `solve_method`
    'incremental' builds a QR factorization by Givens rotations during the
    Arnoldi process (stops early inside a restart); 'batched' solves the
    least-squares problem at the end of each restart. Returns (x, info),
    info -1 where x is NaN, else 0; derivatives are implicit."""
    A, b, x0, M = _prepare(A, b, x0, M)  # noqa: N806
    size = sum(np.size(bi) for bi in tree_leaves(b))
    if maxiter is None:
        maxiter = 10 * size  # SciPy's default
    restart = min(restart, size)
    b_norm = _norm(b)
    atol = maximum(tol * b_norm, atol)
    Mb_norm = _norm(M(b))  # noqa: N806
    ptol = Mb_norm * minimum(1.0, atol / b_norm)
    if solve_method == "incremental":
        gmres_func = _gmres_incremental
    elif solve_method == "batched":
        gmres_func = _gmres_batched
    else:
        raise ValueError(f"invalid solve_method {solve_method}, must be either "
                         "'incremental' or 'batched'")

    def _solve(A, b):  # noqa: N803
        return _gmres_solve(A, b, x0, atol, ptol, restart, maxiter, M, gmres_func)
    x = custom_linear_solve(A, b, solve=_solve, transpose_solve=_solve)
    info = where(isnan(_norm(x)), -1, 0)
    return x, info

"""mlax.scipy.linalg's functions built on the Schur, Hessenberg and
tridiagonal reductions (schur, rsf2csf, sqrtm, funm, solve_sylvester,
hessenberg, eigh_tridiagonal) and expm_frechet and qr_multiply, against
jax.scipy.linalg: the same LAPACK kernels and JAX's algorithms, so values
are compared directly, plus the defining identity of each (sqrtm(a)^2 = a,
a x + x b = c, ...). Real and complex inputs in 32 and 64 bits, batches,
jit, and JAX's errors.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import jax.scipy.linalg as JS
import numpy as np
import pytest

import mlax
import mlax.numpy as mnp
import mlax.scipy.linalg as MS

from _helpers import assert_tree_like, param_id, standard_normal

DTYPES = [np.dtype(d) for d in ("float32", "float64", "complex64", "complex128")]


def _wide(dtype):
    return np.dtype(dtype) in (np.float64, np.complex128)


def _tol(dtype):
    return 1e-9 if _wide(dtype) else 5e-4


def _a(dtype, shape=(4, 4), seed=0):
    return standard_normal(shape, dtype, seed)


def _spd(dtype, n=4, seed=7):
    """A matrix with positive real eigenvalues (sqrtm's principal root)."""
    x = standard_normal((n, n), dtype, seed)
    return (x @ np.conj(x.T) + n * np.eye(n)).astype(dtype)


# (name, function of (module, numpy module), arguments from a dtype)
CASES = {
    "schur_real": (lambda S, N: lambda a: S.schur(a), lambda dt: (_a(dt, (2, 4, 4)),)),
    "schur_complex": (lambda S, N: lambda a: S.schur(a, output="complex"),
                      lambda dt: (_a(dt),)),
    "rsf2csf": (lambda S, N: lambda a: S.rsf2csf(*S.schur(a)), lambda dt: (_a(dt, (2, 4, 4)),)),
    "sqrtm": (lambda S, N: S.sqrtm, lambda dt: (_spd(dt),)),
    "funm": (lambda S, N: lambda a: S.funm(a, N.sin), lambda dt: (_a(dt),)),
    "funm_error": (lambda S, N: lambda a: S.funm(a, N.exp, disp=False), lambda dt: (_a(dt),)),
    "solve_sylvester": (lambda S, N: S.solve_sylvester,
                        lambda dt: (_a(dt, (2, 4, 4)), _a(dt, (3, 3), 1) + 6 * np.eye(3,
                                                                                     dtype=dt),
                                    _a(dt, (4, 3), 2))),
    "solve_sylvester_eigen": (
        lambda S, N: lambda *x: S.solve_sylvester(*x, method="eigen"),
        lambda dt: (_a(dt), _a(dt, (3, 3), 1) + 6 * np.eye(3, dtype=dt), _a(dt, (4, 3), 2))),
    "hessenberg": (lambda S, N: S.hessenberg, lambda dt: (_a(dt, (2, 4, 4)),)),
    "hessenberg_q": (lambda S, N: lambda a: S.hessenberg(a, calc_q=True),
                     lambda dt: (_a(dt, (2, 4, 4)),)),
    "expm": (lambda S, N: S.expm, lambda dt: (_a(dt, (2, 3, 3)),)),
    "expm_large": (lambda S, N: S.expm, lambda dt: (8 * _a(dt),)),  # (squarings)
    "expm_frechet": (lambda S, N: S.expm_frechet, lambda dt: (_a(dt) / 2, _a(dt, seed=3))),
    "expm_frechet_only": (lambda S, N: lambda a, e: S.expm_frechet(a, e, compute_expm=False),
                          lambda dt: (_a(dt, (2, 3, 3)), _a(dt, (2, 3, 3), 3))),
    "qr_multiply_right": (lambda S, N: S.qr_multiply,
                          lambda dt: (_a(dt, (5, 3)), _a(dt, (2, 5), 1))),
    "qr_multiply_left": (lambda S, N: lambda a, c: S.qr_multiply(a, c, mode="left"),
                         lambda dt: (_a(dt, (5, 3)), _a(dt, (3, 2), 1))),
    "qr_multiply_conjugate": (
        lambda S, N: lambda a, c: S.qr_multiply(a, c, mode="left", conjugate=True),
        lambda dt: (_a(dt, (3, 5)), _a(dt, (3,), 1))),
    # (columns scaled apart: a definite pivot order)
    "qr_multiply_pivoting": (
        lambda S, N: lambda a, c: S.qr_multiply(a, c, mode="left", pivoting=True),
        lambda dt: (_a(dt, (2, 5, 3)) * np.array([1, 4, 2], dt), _a(dt, (3, 2), 1))),
}


# Two dtypes a case, rotating, so that each dtype meets several cases (the
# full product costs a compile per case for little more).
_CASE_DTYPES = [(n, DTYPES[(i + k) % 4]) for i, n in enumerate(CASES) for k in (0, 1)]


@pytest.mark.parametrize("name,dtype", _CASE_DTYPES, ids=param_id)
def test_equal_jax(name, dtype, request):
    if _wide(dtype):
        request.getfixturevalue("x64")
    make_fn, make_args = CASES[name]
    args = make_args(dtype)
    got = mlax.jit(make_fn(MS, mnp))(*args)
    want = jax.jit(make_fn(JS, jnp))(*args)
    tol = _tol(dtype)
    assert_tree_like(got, want, rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", [np.dtype(np.float32), np.dtype(np.complex128)],
                         ids=param_id)
def test_identities(dtype, request):
    """The results do what they are for, eagerly: a = z t z^H with t upper
    triangular after rsf2csf, sqrtm(a)^2 = a, funm(a, exp) = expm(a),
    a x + x b = c, a = q h q^H."""
    if _wide(dtype):
        request.getfixturevalue("x64")
    tol = _tol(dtype) * 10
    a = _a(dtype)
    t, z = (np.asarray(v) for v in MS.rsf2csf(*MS.schur(a)))
    np.testing.assert_allclose(z @ t @ np.conj(z.T), a, atol=tol)
    assert np.all(np.tril(t, -1) == 0)
    s = _spd(dtype)
    r = np.asarray(MS.sqrtm(s))
    np.testing.assert_allclose(r @ r, s, atol=tol * 10)
    np.testing.assert_allclose(np.asarray(MS.funm(a, mnp.exp)), np.asarray(MS.expm(a)),
                               atol=tol * 10)
    b = _a(dtype, (3, 3), 1) + 6 * np.eye(3, dtype=dtype)
    c = _a(dtype, (4, 3), 2)
    x = np.asarray(MS.solve_sylvester(a, b, c))
    np.testing.assert_allclose(a @ x + x @ b, c, atol=tol)
    h, q = (np.asarray(v) for v in MS.hessenberg(a, calc_q=True))
    np.testing.assert_allclose(q @ h @ np.conj(q.T), a, atol=tol)
    assert np.all(np.tril(h, -2) == 0)


@pytest.mark.parametrize("dtype", [np.dtype(np.float32), np.dtype(np.float64)], ids=param_id)
def test_eigh_tridiagonal(dtype, request):
    """JAX's bisection: the eigenvalues equal JAX's (and numpy's), also a
    selected index range; the eigenvectors (inverse iteration from JAX's
    default key) are JAX's and satisfy the eigen-equation."""
    if _wide(dtype):
        request.getfixturevalue("x64")
    tol = _tol(dtype) * 10
    d = standard_normal((6,), dtype, 0)
    e = standard_normal((5,), dtype, 1)

    def calls(S):
        return lambda d, e: (S.eigh_tridiagonal(d, e, eigvals_only=True),
                             S.eigh_tridiagonal(d, e, eigvals_only=True, select="i",
                                                select_range=(1, 3)),
                             S.eigh_tridiagonal(d, e))
    # JAX's references in one jitted program (eagerly, JAX's loops would
    # compile op by op); mlax's eigenvalues under jit, the rest eagerly.
    want, want_range, (wj, vj) = jax.jit(calls(JS))(d, e)
    got = mlax.jit(lambda d, e: MS.eigh_tridiagonal(d, e, eigvals_only=True))(d, e)
    assert_tree_like(got, want, rtol=tol, atol=tol)
    full = np.diag(d) + np.diag(e, 1) + np.diag(e, -1)
    np.testing.assert_allclose(np.asarray(got), np.linalg.eigvalsh(full), atol=tol)
    got = MS.eigh_tridiagonal(d, e, eigvals_only=True, select="i", select_range=(1, 3))
    assert_tree_like(got, want_range, rtol=tol, atol=tol)
    w, v = MS.eigh_tridiagonal(d, e)
    assert_tree_like([w, v], [wj, vj], rtol=tol * 10, atol=tol * 10)
    np.testing.assert_allclose(full @ np.asarray(v), np.asarray(v) * np.asarray(w),
                               atol=tol * 10)


f32 = np.float32
ERRORS = {
    "schur_output": lambda S: S.schur(np.eye(3, dtype=f32), output="both"),
    "schur_not_square": lambda S: S.schur(np.ones((3, 2), f32)),
    "rsf2csf_not_square": lambda S: S.rsf2csf(np.ones((3, 2), f32), np.eye(3, dtype=f32)),
    "rsf2csf_shapes": lambda S: S.rsf2csf(np.eye(3, dtype=f32), np.eye(2, dtype=f32)),
    "sqrtm_blocksize": lambda S: S.sqrtm(np.eye(3, dtype=f32), blocksize=2),
    "funm_not_square": lambda S: S.funm(np.ones((3, 2), f32), lambda x: x),
    "sylvester_shapes": lambda S: S.solve_sylvester(np.eye(3, dtype=f32), np.eye(2, dtype=f32),
                                                    np.ones((2, 2), f32)),
    "sylvester_method": lambda S: S.solve_sylvester(np.eye(2, dtype=f32), np.eye(2, dtype=f32),
                                                    np.ones((2, 2), f32), method="lu"),
    "eigh_tridiagonal_dtypes": lambda S: S.eigh_tridiagonal(np.ones(3, f32),
                                                            np.ones(2, np.int32)),
    "eigh_tridiagonal_select_v": lambda S: S.eigh_tridiagonal(np.ones(3, f32), np.ones(2, f32),
                                                              select="v"),
    "eigh_tridiagonal_select_range": lambda S: S.eigh_tridiagonal(
        np.ones(3, f32), np.ones(2, f32), select="i"),
    "expm_frechet_shapes": lambda S: S.expm_frechet(np.eye(3, dtype=f32), np.eye(2, dtype=f32)),
    "qr_multiply_mode": lambda S: S.qr_multiply(np.eye(3, dtype=f32), np.eye(3, dtype=f32),
                                                mode="up"),
    "qr_multiply_shapes": lambda S: S.qr_multiply(np.ones((4, 3), f32), np.ones((2, 3), f32)),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_match_jax(name):
    with pytest.raises(Exception) as theirs:
        ERRORS[name](JS)
    with pytest.raises(Exception) as ours:
        ERRORS[name](MS)
    assert type(ours.value) is type(theirs.value), (ours.value, theirs.value)

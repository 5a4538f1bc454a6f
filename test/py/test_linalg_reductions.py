"""The Schur, Hessenberg and tridiagonal reductions of mlax.lax.linalg
(schur, hessenberg, tridiagonal, householder_product, tridiagonal_solve)
and its compositions (symmetric_product, cholesky_update, ormqr, qdwh),
against JAX.

On CPU both call the same LAPACK kernels (gees, gehrd, sytrd/hetrd,
orgqr/ungqr, gtsv), so the factorizations are compared directly, not only
through reconstructions; a reconstruction is checked too, so that a shared
misreading of a kernel's output would not pass. Real and complex inputs in
32 and 64 bits, batched, eagerly, under jit and under vmap; the derivative
of tridiagonal_solve (JAX's rule) and JAX's errors.
"""
from __future__ import annotations

import jax
import jax.lax.linalg as JL
import numpy as np
import pytest

import mlax
import mlax.lax.linalg as ML

from _helpers import assert_tree_like, pairwise, param_id, run, standard_normal

DTYPES = [np.dtype(d) for d in ("float32", "float64", "complex64", "complex128")]


def _tol(dtype):
    return 1e-10 if np.dtype(dtype) in (np.float64, np.complex128) else 2e-5


def _wide(dtype):
    return np.dtype(dtype) in (np.float64, np.complex128)


def _square(dtype, shape=(2, 4, 4), seed=0):
    return standard_normal(shape, dtype, seed)


def _diagonals(dtype, batch=(2,), m=5, seed=1):
    dl, d, du = (standard_normal(batch + (m,), dtype, seed + i) for i in range(3))
    return dl, d + 4, du  # (diagonally dominant: well conditioned)


def _mT(x):
    return np.swapaxes(x, -1, -2)


def _adj(x):
    return np.conj(_mT(x))


def _unitary(q, tol):
    q = np.asarray(q)
    np.testing.assert_allclose(_adj(q) @ q, np.broadcast_to(np.eye(q.shape[-1]), q.shape),
                               atol=tol * 10)


# (name, mlax function, JAX function, arguments from a dtype)
CASES = {
    "schur": (ML.schur, JL.schur, lambda dt: (_square(dt),)),
    "schur_no_vectors": (lambda a: ML.schur(a, compute_schur_vectors=False),
                         lambda a: JL.schur(a, compute_schur_vectors=False),
                         lambda dt: (_square(dt),)),
    "hessenberg": (ML.hessenberg, JL.hessenberg, lambda dt: (_square(dt),)),
    "tridiagonal_lower": (ML.tridiagonal, JL.tridiagonal, lambda dt: (_square(dt),)),
    "tridiagonal_upper": (lambda a: ML.tridiagonal(a, lower=False),
                          lambda a: JL.tridiagonal(a, lower=False), lambda dt: (_square(dt),)),
    "householder_product": (ML.householder_product, JL.householder_product,
                            lambda dt: (standard_normal((2, 5, 3), dt, 2),
                                        standard_normal((2, 2), dt, 3) * 0.5)),
    "tridiagonal_solve": (ML.tridiagonal_solve, JL.tridiagonal_solve,
                          lambda dt: (*_diagonals(dt), standard_normal((2, 5, 3), dt, 4))),
    "tridiagonal_solve_perturbed": (
        lambda *a: ML.tridiagonal_solve(*a, perturb_singular=True),
        lambda *a: JL.tridiagonal_solve(*a, perturb_singular=True),
        lambda dt: (*(0 * v for v in _diagonals(dt)), standard_normal((2, 5, 3), dt, 4))),
}


@pytest.mark.parametrize("name,dtype,mode", pairwise(list(CASES), DTYPES, ["eager", "jit"]),
                         ids=param_id)
def test_ops_equal_jax(name, dtype, mode, request):
    if _wide(dtype):
        request.getfixturevalue("x64")
    ours, theirs, make = CASES[name]
    args = make(dtype)
    got = run(ours, args, mode)
    want = jax.jit(theirs)(*args)
    tol = _tol(dtype)
    assert_tree_like(got, want, rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", DTYPES, ids=param_id)
def test_reconstructions(dtype, request):
    """a = q t q^H (t quasi upper triangular), a = q h q^H from hessenberg's
    reflectors, and the tridiagonal system solved."""
    if _wide(dtype):
        request.getfixturevalue("x64")
    tol = _tol(dtype) * 10
    a = _square(dtype)
    t, q = (np.asarray(v) for v in ML.schur(a))
    _unitary(q, tol)
    np.testing.assert_allclose(q @ t @ _adj(q), a, atol=tol * 10)
    below = np.tril(t, -2) if np.isrealobj(t) else np.tril(t, -1)
    assert np.all(below == 0)
    h, taus = ML.hessenberg(a)
    qh = np.asarray(ML.householder_product(h[..., 1:, :-1], taus))
    qfull = np.zeros_like(a)
    qfull[..., 0, 0] = 1
    qfull[..., 1:, 1:] = qh
    np.testing.assert_allclose(qfull @ np.triu(np.asarray(h), -1) @ _adj(qfull), a,
                               atol=tol * 10)
    dl, d, du = _diagonals(dtype)
    b = standard_normal((2, 5, 3), dtype, 4)
    x = np.asarray(ML.tridiagonal_solve(dl, d, du, b))
    mat = np.zeros(d.shape + (5,), dtype)
    idx = np.arange(5)
    mat[..., idx, idx] = d
    mat[..., idx[1:], idx[:-1]] = dl[..., 1:]
    mat[..., idx[:-1], idx[1:]] = du[..., :-1]
    np.testing.assert_allclose(mat @ x, b, atol=tol * 10)


def test_vmap():
    a = _square(np.float32, (3, 4, 4))
    v = _diagonals(np.float32, batch=(3,))
    b = standard_normal((5, 2), np.float32, 4)
    for ours, theirs, args, axes in [
            (ML.schur, JL.schur, (a,), (0,)),
            (ML.hessenberg, JL.hessenberg, (a,), (0,)),
            (ML.tridiagonal, JL.tridiagonal, (a,), (0,)),
            (ML.householder_product, JL.householder_product,
             (a, standard_normal((2,), np.float32, 5)), (0, None)),
            (ML.tridiagonal_solve, JL.tridiagonal_solve, (*v, b), (0, 0, 0, None))]:
        got = mlax.vmap(ours, in_axes=axes)(*args)
        want = jax.vmap(theirs, in_axes=axes)(*args)
        assert_tree_like(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dtype", [np.dtype(np.float32), np.dtype(np.float64),
                                   np.dtype(np.complex64)], ids=param_id)
def test_tridiagonal_solve_derivatives(dtype, request):
    """JAX's rule: forward through every argument, reverse (its transpose)
    to every argument, also against finite differences."""
    if _wide(dtype):
        request.getfixturevalue("x64")
    dl, d, du = _diagonals(dtype, batch=())
    b = standard_normal((5, 2), dtype, 4)
    w = standard_normal((5, 2), dtype, 6)
    args = (dl, d, du, b)
    tangents = tuple(standard_normal(np.shape(x), dtype, 10 + i) for i, x in enumerate(args))
    tol = 1e-10 if _wide(dtype) else 5e-4

    def loss(f):
        return lambda *a: (f(*a) * w).sum().real

    got = mlax.jit(mlax.grad(loss(ML.tridiagonal_solve), argnums=(0, 1, 2, 3)))(*args)
    want = jax.jit(jax.grad(loss(JL.tridiagonal_solve), argnums=(0, 1, 2, 3)))(*args)
    assert_tree_like(list(got), list(want), rtol=tol, atol=tol)
    got = mlax.jvp(ML.tridiagonal_solve, args, tangents)
    want = jax.jvp(JL.tridiagonal_solve, args, tangents)
    assert_tree_like(list(got), list(want), rtol=tol, atol=tol)
    if _wide(dtype):
        eps = 1e-6
        plus = np.asarray(ML.tridiagonal_solve(*(x + eps * t for x, t in zip(args, tangents))))
        minus = np.asarray(ML.tridiagonal_solve(*(x - eps * t for x, t in zip(args, tangents))))
        np.testing.assert_allclose(np.asarray(got[1]), (plus - minus) / (2 * eps), atol=1e-6)


@pytest.mark.parametrize("name", ["schur", "hessenberg", "tridiagonal", "householder_product"])
def test_no_derivative(name):
    """As in JAX: a NotImplementedError."""
    a = _square(np.float32, (4, 4))
    fns = {"schur": lambda L: lambda x: L.schur(x)[0].sum(),
           "hessenberg": lambda L: lambda x: L.hessenberg(x)[0].sum(),
           "tridiagonal": lambda L: lambda x: L.tridiagonal(x)[1].sum(),
           "householder_product": lambda L: lambda x: L.householder_product(
               x, np.ones(2, np.float32)).sum()}
    with pytest.raises(NotImplementedError):
        jax.grad(fns[name](JL))(a)
    with pytest.raises(NotImplementedError):
        mlax.grad(fns[name](ML))(a)


f32 = np.float32
_v = np.ones(4, f32)
ERRORS = {
    "schur_vector": lambda L: L.schur(np.ones(3, f32)),
    "schur_not_square": lambda L: L.schur(np.ones((3, 2), f32)),
    "schur_int": lambda L: L.schur(np.ones((3, 3), np.int32)),
    "schur_float16": lambda L: L.schur(np.ones((3, 3), np.float16)),
    "schur_sort": lambda L: L.schur(np.eye(3, dtype=f32), sort_eig_vals=True),
    "hessenberg_not_square": lambda L: L.hessenberg(np.ones((3, 2), f32)),
    "hessenberg_vector": lambda L: L.hessenberg(np.ones(3, f32)),
    "tridiagonal_empty": lambda L: L.tridiagonal(np.ones((0, 0), f32)),
    "tridiagonal_int": lambda L: L.tridiagonal(np.ones((3, 3), np.int32)),
    "householder_wide": lambda L: L.householder_product(np.ones((2, 3), f32), np.ones(2, f32)),
    "householder_taus": lambda L: L.householder_product(np.ones((4, 3), f32), np.ones(4, f32)),
    "solve_diagonals": lambda L: L.tridiagonal_solve(_v, _v, np.ones(3, f32),
                                                     np.ones((4, 2), f32)),
    "solve_b": lambda L: L.tridiagonal_solve(_v, _v, _v, np.ones((3, 2), f32)),
    "solve_b_vector": lambda L: L.tridiagonal_solve(_v, _v, _v, _v),
    "solve_int": lambda L: L.tridiagonal_solve(*(np.ones(4, np.int32),) * 3,
                                               np.ones((4, 2), np.int32)),
    "symmetric_product_shapes": lambda L: L.symmetric_product(np.ones((3, 2), f32),
                                                              np.ones((2, 2), f32)),
    "cholesky_update_shapes": lambda L: L.cholesky_update(np.eye(3, dtype=f32), _v),
    "ormqr_shapes": lambda L: L.ormqr(np.ones((4, 3), f32), np.ones(3, f32),
                                      np.ones((3, 2), f32)),
    "qdwh_wide": lambda L: L.qdwh(np.ones((2, 3), f32)),
    "schur_list": lambda L: L.schur([[1.0, 2.0], [3.0, 4.0]]),
    "tridiagonal_list": lambda L: L.tridiagonal([[1.0, 2.0], [2.0, 1.0]]),
    "symmetric_product_list": lambda L: L.symmetric_product([[1.0]], [[1.0]]),
    "ormqr_list": lambda L: L.ormqr([[1.0]], [0.5], [[1.0]]),
    "symmetric_product_complex": lambda L: L.symmetric_product(np.ones((2, 2), np.complex64),
                                                               np.ones((2, 2), np.complex64)),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_match_jax(name):
    with pytest.raises(Exception) as theirs:
        ERRORS[name](JL)
    with pytest.raises(Exception) as ours:
        ERRORS[name](ML)
    assert type(ours.value) is type(theirs.value), (ours.value, theirs.value)


@pytest.mark.parametrize("dtype", [np.dtype(np.float32), np.dtype(np.complex128)],
                         ids=param_id)
def test_compositions(dtype, request):
    """symmetric_product, cholesky_update, ormqr (all four products) and
    qdwh: JAX's algorithms."""
    if _wide(dtype):
        request.getfixturevalue("x64")
    tol = _tol(dtype) * 20
    real = np.float32 if dtype == np.float32 else np.float64
    a = standard_normal((2, 3, 4), real, 0)  # (JAX's symmetric_product: real only)
    c = standard_normal((2, 3, 3), real, 1)
    for kw in ({}, dict(alpha=2.0, beta=0.5, symmetrize_output=True)):
        assert_tree_like(mlax.jit(lambda x, y: ML.symmetric_product(x, y, **kw))(a, c),
                           jax.jit(lambda x, y: JL.symmetric_product(x, y, **kw))(a, c),
                           rtol=tol, atol=tol)
    spd = standard_normal((4, 4), real, 2)
    r = np.linalg.cholesky(spd @ spd.T + 4 * np.eye(4)).T.astype(real)
    w = standard_normal((4,), real, 3)
    assert_tree_like(ML.cholesky_update(r, w), JL.cholesky_update(r, w), rtol=tol, atol=tol)
    from jax._src.lax.linalg import geqrf  # (not public in JAX)
    h, taus = jax.jit(geqrf)(standard_normal((2, 5, 3), dtype, 4))
    h, taus = np.asarray(h), np.asarray(taus)
    for left in (True, False):
        for transpose in (True, False):
            cc = standard_normal((2, 5, 2) if left else (2, 2, 5), dtype, 5)
            assert_tree_like(
                mlax.jit(lambda *x: ML.ormqr(*x, left=left, transpose=transpose))(h, taus, cc),
                jax.jit(lambda *x: JL.ormqr(*x, left=left, transpose=transpose))(h, taus, cc),
                rtol=tol, atol=tol)


# Each dtype in one mode, alternating (qdwh is mostly one while loop, a few
# seconds to compile on each side: eager and jit each meet real and complex,
# single and double precision).
@pytest.mark.parametrize("dtype,mode", [(DTYPES[0], "eager"), (DTYPES[1], "jit"),
                                        (DTYPES[2], "jit"), (DTYPES[3], "eager")],
                         ids=param_id)
def test_qdwh(dtype, mode, request):
    """qdwh, JAX's algorithm, on real and complex matrices: the polar factors,
    the iteration count (weakly typed, as JAX's) and the convergence flag."""
    if _wide(dtype):
        request.getfixturevalue("x64")
    tol = _tol(dtype) * 200
    for shape, kw in (((5, 3), {}), ((4, 4), dict(max_iterations=2)), ((3, 3), dict(eps=1e-3))):
        x = standard_normal(shape, dtype, 6)
        got = run(lambda y: ML.qdwh(y, **kw), (x,), mode)
        want = jax.jit(lambda y: JL.qdwh(y, **kw))(x)
        assert_tree_like(list(got), list(want), rtol=tol, atol=tol)
        u, h = np.asarray(got[0]), np.asarray(got[1])
        if bool(want[3]):
            np.testing.assert_allclose(u @ h, x, atol=tol)
            np.testing.assert_allclose(_adj(u) @ u, np.eye(u.shape[-1]), atol=tol)


# Real and complex, single and double precision (one rule for all four).
@pytest.mark.parametrize("dtype", [np.dtype(np.float32), np.dtype(np.complex128)],
                         ids=param_id)
def test_qdwh_derivatives(dtype, request):
    """qdwh's forward derivative (through the iteration) is JAX's; reverse
    mode through its while_loop is JAX's ValueError."""
    if _wide(dtype):
        request.getfixturevalue("x64")
    tol = _tol(dtype) * 200
    x, t = standard_normal((5, 3), dtype, 7), standard_normal((5, 3), dtype, 8)
    got = mlax.jvp(lambda y: ML.qdwh(y)[:2], (x,), (t,))
    want = jax.jit(lambda y, ty: jax.jvp(lambda z: JL.qdwh(z)[:2], (y,), (ty,)))(x, t)
    assert_tree_like(list(got), list(want), rtol=tol, atol=tol)
    for grad, lib in ((mlax.grad, ML), (jax.grad, JL)):
        with pytest.raises(ValueError, match="Reverse-mode differentiation does not work"):
            grad(lambda y: lib.qdwh(y)[0].real.sum())(x)

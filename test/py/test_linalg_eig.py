"""Nonsymmetric eigendecomposition: mlax.lax.linalg.eig, mlax.numpy.linalg.eig /
eigvals and mlax.numpy.roots, against JAX (the same LAPACK geev kernel on
CPU).

Eigenvalues are compared after matching each of JAX's to the nearest of
mlax's (the order is LAPACK's either way, but a test of the order alone
would hide a wrong value behind a right permutation); eigenvectors through
the eigen-equations (a vr = vr diag(w), vl^H a = diag(w) vl^H) and against
JAX's up to a per-column phase. Real and complex inputs in 32 and 64 bits,
batched, eagerly, under jit and under vmap.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mlax
import mlax.lax.linalg as ML
import mlax.numpy as mnp

from _helpers import pairwise, param_id, run, standard_normal as _random

MODES = ["eager", "jit"]
DTYPES = ["float32", "float64", "complex64", "complex128"]



@pytest.fixture(params=DTYPES)
def dtype(request):
    if request.param in ("float64", "complex128"):
        request.getfixturevalue("x64")
    return np.dtype(request.param)


def _tol(dtype):
    return 1e-9 if np.dtype(dtype) in (np.float64, np.complex128) else 2e-3


def _match(got, want):
    """The permutation of `got`'s last axis nearest to `want` (per batch
    element), asserting it is a permutation."""
    got, want = np.asarray(got), np.asarray(want)
    perm = np.zeros(want.shape, dtype=np.int64)
    for idx in np.ndindex(*want.shape[:-1]):
        free = list(range(want.shape[-1]))
        for j, w in enumerate(want[idx]):
            k = min(free, key=lambda i: abs(got[idx][i] - w))
            free.remove(k)
            perm[idx + (j,)] = k
    return perm


def _check_values(got, want, tol):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, got.dtype,
                                                                  want.shape, want.dtype)
    perm = _match(got, want)
    scale = max(1.0, float(np.max(np.abs(want)))) if want.size else 1.0
    np.testing.assert_allclose(np.take_along_axis(got, perm, -1), want, rtol=tol,
                               atol=tol * scale)
    return perm


def _check_vectors(got, want, perm, tol):
    """`got`'s columns (reordered by `perm`) equal `want`'s up to a phase each."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape and got.dtype == want.dtype
    got = np.take_along_axis(got, perm[..., None, :], -1)
    c = np.sum(np.conj(got) * want, axis=-2, keepdims=True)
    phase = c / np.where(np.abs(c) == 0, 1, np.abs(c))
    np.testing.assert_allclose(got * phase, want, rtol=tol, atol=tol)


def _check_equations(a, w, vl, vr, tol):
    a, w = np.asarray(a).astype(np.complex128), np.asarray(w).astype(np.complex128)
    scale = max(1.0, float(np.max(np.abs(a)))) if a.size else 1.0
    if vr is not None:
        vr = np.asarray(vr).astype(np.complex128)
        np.testing.assert_allclose(a @ vr, vr * w[..., None, :], atol=tol * scale * 10)
        np.testing.assert_allclose(np.linalg.norm(vr, axis=-2), 1.0, atol=tol * 10)
    if vl is not None:
        vl = np.asarray(vl).astype(np.complex128)
        vh = np.conj(np.swapaxes(vl, -1, -2))
        np.testing.assert_allclose(vh @ a, w[..., :, None] * vh, atol=tol * scale * 10)


def _with_x64(request, dtype_name):
    if dtype_name in ("float64", "complex128"):
        request.getfixturevalue("x64")
    return np.dtype(dtype_name)


# Shapes x dtypes x modes pairwise (every pair of values appears once).
@pytest.mark.parametrize("shape,dtype_name,mode", pairwise(
    [(4, 4), (2, 3, 3), (2, 1, 5, 5), (1, 1)], DTYPES, MODES), ids=param_id)
def test_lax_eig(request, dtype_name, shape, mode):
    dtype = _with_x64(request, dtype_name)
    a = _random(shape, dtype)
    got = run(ML.eig, (a,), mode)
    want = jax.lax.linalg.eig(a)
    assert len(got) == len(want) == 3
    tol = _tol(dtype)
    perm = _check_values(got[0], want[0], tol)
    _check_vectors(got[1], want[1], perm, tol)
    _check_vectors(got[2], want[2], perm, tol)
    _check_equations(a, got[0], got[1], got[2], tol)


@pytest.mark.parametrize("flags,dtype_name,mode", pairwise(
    [(False, False), (True, False), (False, True)], DTYPES, MODES), ids=param_id)
def test_lax_eig_flags(request, flags, dtype_name, mode):
    dtype = _with_x64(request, dtype_name)
    left, right = flags
    a = _random((2, 4, 4), dtype, seed=1)

    def f(x):
        return ML.eig(x, compute_left_eigenvectors=left, compute_right_eigenvectors=right)

    got = run(f, (a,), mode)
    want = jax.lax.linalg.eig(a, compute_left_eigenvectors=left,
                              compute_right_eigenvectors=right)
    assert isinstance(got, list) and len(got) == len(want) == 1 + left + right
    tol = _tol(dtype)
    perm = _check_values(got[0], want[0], tol)
    for g, w in zip(got[1:], want[1:]):
        _check_vectors(g, w, perm, tol)
    _check_equations(a, got[0], got[1] if left else None, got[-1] if right else None, tol)


@pytest.mark.parametrize("mode", MODES)
def test_real_matrix_complex_pairs(mode, x64):
    # A rotation (eigenvalues +-i) next to a real eigenvalue: geev's packed
    # conjugate-pair eigenvectors must come out as complex conjugate columns.
    a = np.array([[0., -2., 0.], [2., 0., 0.], [0., 0., 3.]])
    w, vl, vr = run(ML.eig, (a,), mode)
    jw, jvl, jvr = jax.lax.linalg.eig(a)
    perm = _check_values(w, jw, 1e-12)
    _check_vectors(vr, jvr, perm, 1e-12)
    _check_vectors(vl, jvl, perm, 1e-12)
    _check_equations(a, w, vl, vr, 1e-12)
    w = np.asarray(w)
    assert sorted(np.round(w.imag, 12)) == [-2., 0., 2.]


def test_eig_vmap(dtype):
    a = _random((3, 3, 4), dtype, seed=2)  # batch along the last axis

    def f(x):
        return ML.eig(x, compute_left_eigenvectors=False)

    got = mlax.vmap(f, in_axes=2)(a)
    want = jax.vmap(lambda x: jax.lax.linalg.eig(x, compute_left_eigenvectors=False),
                    in_axes=2)(a)
    tol = _tol(dtype)
    perm = _check_values(got[0], want[0], tol)
    _check_vectors(got[1], want[1], perm, tol)
    got_jit = mlax.jit(mlax.vmap(f, in_axes=2))(a)
    _check_values(got_jit[0], want[0], tol)


@pytest.mark.parametrize("shape", [(0, 0), (0, 3, 3), (2, 0, 0)])
def test_eig_empty(shape, x64):
    a = np.zeros(shape, np.float64)
    got = ML.eig(a)
    want = jax.lax.linalg.eig(a)
    for g, w in zip(got, want):
        assert np.asarray(g).shape == w.shape and np.asarray(g).dtype == w.dtype


def test_eig_nonfinite_is_nan():
    # geev fails on non-finite input (or returns NaNs); JAX's result and
    # mlax's agree on which elements are NaN.
    a = _random((2, 3, 3), np.float32, seed=3)
    a[1, 0, 0] = np.nan
    got = ML.eig(a)
    want = jax.lax.linalg.eig(a)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(np.isnan(np.asarray(g)), np.isnan(np.asarray(w)))
    assert np.all(np.isfinite(np.asarray(got[0])[0]))


@pytest.mark.parametrize("x,exc", [
    (np.ones((3,), np.float32), TypeError),
    (np.ones((2, 3), np.float32), ValueError),
    (np.ones((3, 3), np.int32), TypeError),
    (np.ones((3, 3), np.float16), NotImplementedError),
])
def test_lax_eig_errors(x, exc):
    with pytest.raises(exc):
        jax.lax.linalg.eig(x)
    with pytest.raises(exc):
        ML.eig(x)


def test_lax_eig_implementation():
    a = _random((3, 3), np.float32)
    w = ML.eig(a, implementation=ML.EigImplementation.LAPACK)[0]
    _check_values(w, jax.lax.linalg.eig(a)[0], 2e-3)
    with pytest.raises(NotImplementedError):
        ML.eig(a, implementation=ML.EigImplementation.MAGMA)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("shape", [(4, 4), (2, 3, 3)])
def test_numpy_eig(dtype, shape, mode):
    a = _random(shape, dtype, seed=4)
    got = run(mnp.linalg.eig, (a,), mode)
    want = jnp.linalg.eig(a)
    assert type(got).__name__ == "EigResult"
    assert got._fields == ("eigenvalues", "eigenvectors")
    tol = _tol(dtype)
    perm = _check_values(got.eigenvalues, want.eigenvalues, tol)
    _check_vectors(got.eigenvectors, want.eigenvectors, perm, tol)
    _check_values(run(mnp.linalg.eigvals, (a,), mode), jnp.linalg.eigvals(a), tol)


def test_numpy_eig_promotes_integers():
    a = np.array([[2, 1], [0, 3]], np.int32)
    got, want = mnp.linalg.eigvals(a), jnp.linalg.eigvals(a)
    _check_values(got, want, 1e-5)
    got, want = mnp.linalg.eig(a), jnp.linalg.eig(a)
    perm = _check_values(got[0], want[0], 1e-5)
    _check_vectors(got[1], want[1], perm, 1e-5)
    # A Python list is refused, as jax.numpy's ensure_arraylike refuses it.
    for lib in (mnp, jnp):
        with pytest.raises(TypeError):
            lib.linalg.eig(a.tolist())


@pytest.mark.parametrize("fn", ["eig", "eigvals"])
def test_numpy_eig_errors(fn):
    for x, exc in [(np.ones((3,), np.float32), TypeError),
                   (np.ones((2, 3), np.float32), ValueError)]:
        with pytest.raises(exc):
            getattr(jnp.linalg, fn)(x)
        with pytest.raises(exc):
            getattr(mnp.linalg, fn)(x)


def test_eigenvector_derivative_raises():
    # JAX raises NotImplementedError for eigenvector derivatives without
    # enable_eigvec_derivs; so does mlax (with it: test_linalg_derivatives).
    a = _random((3, 3), np.float32, seed=5)
    with pytest.raises(NotImplementedError):
        jax.grad(lambda x: jnp.sum(jax.lax.linalg.eig(x)[2].real))(a)
    with pytest.raises(NotImplementedError):
        mlax.grad(lambda x: mnp.sum(ML.eig(x)[2].real))(a)
    with pytest.raises(NotImplementedError):
        mlax.grad(lambda x: mnp.sum(mnp.linalg.eig(x)[0].real))(a)


def _eigvals_loss(np_, fn):
    def loss(x):
        w = fn(x)
        return np_.sum(np_.real(w) * np_.arange(1.0, 5.0)) + np_.sum(np_.imag(w) ** 2)
    return loss


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("fn", ["eigvals", "lax"])
def test_eigvals_grad(mode, fn, x64):
    # JAX's eigenvalue derivative, dw = diag(V^-1 dA V); the test matrix has
    # complex eigenvalue pairs.
    a = _random((4, 4), np.float64, seed=6)
    w = np.linalg.eigvals(a)
    assert np.any(np.abs(w.imag) > 1e-3)
    m = {"eigvals": mnp.linalg.eigvals,
         "lax": lambda x: ML.eig(x, compute_left_eigenvectors=False,
                                 compute_right_eigenvectors=False)[0]}[fn]
    got = run(mlax.grad(_eigvals_loss(mnp, m)), (a,), mode)
    want = jax.grad(_eigvals_loss(jnp, jnp.linalg.eigvals))(a)
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-8, atol=1e-8)
    # Forward mode, against JAX's and finite differences.
    t = _random((4, 4), np.float64, seed=7)
    _, got_t = mlax.jvp(m, (a,), (t,))
    _, want_t = jax.jvp(jnp.linalg.eigvals, (a,), (t,))
    perm = _check_values(mnp.linalg.eigvals(a), jnp.linalg.eigvals(a), 1e-10)
    np.testing.assert_allclose(np.take(np.asarray(got_t), perm), np.asarray(want_t),
                               rtol=1e-8, atol=1e-8)
    eps = 1e-6
    fd = (np.asarray(jnp.linalg.eigvals(a + eps * t)) -
          np.asarray(jnp.linalg.eigvals(a - eps * t))) / (2 * eps)
    np.testing.assert_allclose(np.asarray(want_t), fd, rtol=1e-5, atol=1e-5)


def test_eigvals_grad_vmap(x64):
    a = _random((3, 4, 4), np.float64, seed=8)
    loss_m = _eigvals_loss(mnp, mnp.linalg.eigvals)
    loss_j = _eigvals_loss(jnp, jnp.linalg.eigvals)
    got = mlax.vmap(mlax.grad(loss_m))(a)
    want = jax.vmap(jax.grad(loss_j))(a)
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-8, atol=1e-8)


def test_roots_grad(x64):
    p = np.array([1., -3., 0.5, 2.])

    def loss(np_, roots):
        return lambda q: np_.sum(np_.real(roots(q)) ** 2 + np_.imag(roots(q)))

    got = mlax.grad(loss(mnp, lambda q: mnp.roots(q, strip_zeros=False)))(p)
    want = jax.grad(loss(jnp, lambda q: jnp.roots(q, strip_zeros=False)))(p)
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-8, atol=1e-8)


# --------------------------------------------------------------------------
# roots
# --------------------------------------------------------------------------

ROOTS = [
    [1., -3., 2.],
    [1., 0., 1.],                # +-i
    [2., -1., 0.5, 3.],
    [0., 0., 1., 2., 3.],        # leading zeros
    [0., 1., -3., 2.],
    [1., 2., 0., 0.],            # zero roots
    [0., 0.],                    # all zeros
    [5.],
    [0., 3.],
]


def _check_roots(got, want, tol):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape and got.dtype == want.dtype, (got, want)
    finite = ~np.isnan(want)
    np.testing.assert_array_equal(np.isnan(got), ~finite)
    _check_values(got[finite], want[finite], tol)


@pytest.mark.parametrize("p", ROOTS, ids=str)
def test_roots(p):
    _check_roots(mnp.roots(np.array(p, np.float32)), jnp.roots(jnp.array(p, jnp.float32)), 2e-3)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("p", ROOTS, ids=str)
def test_roots_keep_zeros(p, mode):
    def f(x):
        return mnp.roots(x, strip_zeros=False)

    got = run(f, (np.array(p, np.float32),), mode)
    want = jnp.roots(jnp.array(p, jnp.float32), strip_zeros=False)
    _check_roots(got, want, 2e-3)


def test_roots_dtypes(x64):
    for p in (np.array([1, -3, 2]), np.array([1., 0., -4.], np.float64),
              np.array([1, 1j, 2], np.complex128), np.array([1, 1j, 2], np.complex64)):
        got, want = mnp.roots(p), jnp.roots(jnp.asarray(p))
        _check_roots(got, want, 1e-4)
    for lib in (mnp, jnp):  # a Python list is refused, as by JAX
        with pytest.raises(TypeError):
            lib.roots([1, -3, 2])


def test_roots_errors():
    with pytest.raises(ValueError):
        jnp.roots(jnp.ones((2, 2)))
    with pytest.raises(ValueError):
        mnp.roots(np.ones((2, 2)))
    # The number of leading zeros decides the result's shape.
    with pytest.raises(jax.errors.ConcretizationTypeError):
        jax.jit(jnp.roots)(jnp.ones(3))
    with pytest.raises(mlax.errors.ConcretizationTypeError):
        mlax.jit(mnp.roots)(np.ones(3, np.float32))

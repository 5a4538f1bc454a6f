"""Cases from JAX's own linalg/scipy/fft test grids (tests/linalg_test.py,
lax_scipy_test.py, lax_scipy_special_functions_test.py, scipy_stats_test.py,
fft_test.py, scipy_signal_test.py) on which mlax disagreed with JAX: each
compared with JAX (values, dtypes, weak types, exception classes)."""
from __future__ import annotations

import warnings

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mlax
import mlax.numpy as mnp

from _helpers import assert_leaves_like, param_id


def _rand(shape, dtype, seed=0):
    rng = np.random.RandomState(seed)
    dtype = np.dtype(dtype)
    x = rng.randn(*shape) * 3
    if dtype.kind == "c":
        x = x + 1j * rng.randn(*shape) * 3
    return x.astype(dtype)


# linalg_test.py testQr's modes: numpy's 'raw' (LAPACK geqrf's compact form,
# h transposed) and the deprecated 'full' alias of 'reduced' were refused.
@pytest.mark.parametrize("shape", [(4, 3), (2, 3, 5)], ids=param_id)
@pytest.mark.parametrize("dtype", [np.float32, np.complex64], ids=param_id)
@pytest.mark.parametrize("mode", ["raw", "full"])
def test_qr_raw_and_full_modes(shape, dtype, mode):
    x = _rand(shape, dtype)
    got = mlax.jit(lambda a: mnp.linalg.qr(a, mode=mode))(x)
    want = jax.jit(lambda a: jnp.linalg.qr(a, mode=mode))(x)
    assert_leaves_like(got, want, rtol=1e-5, atol=1e-5)


# lax_scipy_test / linalg_test testSolve's (sym_pos / assume_a='pos', lower)
# grid: a given as one triangle only. mlax ran a general LU solve on it, a
# silently wrong answer; JAX reads the `lower` (or upper) triangle through
# cho_factor, and accepts a batch of vectors b [..., m].
@pytest.mark.parametrize("lower", [False, True])
@pytest.mark.parametrize("a_shape,b_shape", [((4, 4), (4, 2)), ((2, 4, 4), (2, 4, 3)),
                                             ((2, 4, 4), (2, 4))], ids=param_id)
@pytest.mark.parametrize("dtype", [np.float32, np.complex64], ids=param_id)
def test_scipy_solve_pos_reads_one_triangle(lower, a_shape, b_shape, dtype):
    import jax.scipy.linalg as jsl
    import mlax.scipy.linalg as msl
    a = _rand(a_shape, dtype)
    a = a @ np.conj(np.swapaxes(a, -1, -2)) + 4 * np.eye(a_shape[-1], dtype=dtype)
    a = np.tril(a) if lower else np.triu(a)
    b = _rand(b_shape, dtype, seed=1)
    got = mlax.jit(lambda a, b: msl.solve(a, b, assume_a="pos", lower=lower))(a, b)
    with warnings.catch_warnings():  # JAX's batched-1D cho_solve FutureWarning
        warnings.simplefilter("ignore", FutureWarning)
        want = jax.jit(lambda a, b: jsl.solve(a, b, assume_a="pos", lower=lower))(a, b)
    assert_leaves_like(got, want, rtol=2e-4, atol=2e-5)


def test_scipy_solve_pos_gradient_and_shape_error(x64):
    import jax.scipy.linalg as jsl
    import mlax.scipy.linalg as msl
    a = _rand((3, 3), np.float64)
    a = a @ a.T + 3 * np.eye(3)
    b = _rand((3, 2), np.float64, seed=1)
    loss = lambda sl: (lambda a, b: (sl.solve(a, b, assume_a="pos") ** 2).sum())
    got = mlax.grad(loss(msl), argnums=(0, 1))(a, b)
    want = jax.jit(jax.grad(loss(jsl), argnums=(0, 1)))(a, b)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-9, atol=1e-10)
    eps = 1e-6  # the b gradient against central differences
    e = np.zeros_like(b)
    e[1, 0] = eps
    fd = (loss(msl)(a, b + e) - loss(msl)(a, b - e)) / (2 * eps)
    np.testing.assert_allclose(got[1][1, 0], fd, rtol=1e-6)
    with pytest.raises(ValueError):
        jsl.solve(a, np.ones((2, 3)), assume_a="pos")
    with pytest.raises(ValueError, match="scipy.linalg.solve: The arguments to solve"):
        msl.solve(a, np.ones((2, 3)), assume_a="pos")


# linalg_test.py testTriangularSolveGrad's grid has b of one dimension fewer
# than a ((4, 4) with (4,)): JAX solves it as one column (left_side) or row;
# mlax refused it. A b that does not fit is JAX's ValueError (mlax: TypeError).
@pytest.mark.parametrize("left_side", [False, True])
@pytest.mark.parametrize("a_shape,b_shape", [((4, 4), (4,)), ((2, 3, 3), (2, 3))], ids=param_id)
def test_triangular_solve_vector_b(left_side, a_shape, b_shape, x64):
    a = np.tril(_rand(a_shape, np.complex128)) + 5 * np.eye(a_shape[-1])
    b = _rand(b_shape, np.complex128, seed=1)
    t = _rand(a_shape, np.complex128, seed=2)
    kw = dict(left_side=left_side, lower=True, transpose_a=True, conjugate_a=True)
    f = lambda lib: (lambda a, b: lib.lax.linalg.triangular_solve(a, b, **kw))
    got = mlax.jvp(f(mlax), (a, b), (t, b))
    want = jax.jit(lambda a, b, t: jax.jvp(f(jax), (a, b), (t, b)))(a, b, t)
    assert_leaves_like(got, want, rtol=1e-10, atol=1e-12)


def test_triangular_solve_incompatible_shapes():
    with pytest.raises(ValueError, match="Incompatible shapes"):
        jax.lax.linalg.triangular_solve(np.eye(4), np.ones((4, 2)), left_side=False)
    with pytest.raises(ValueError, match="lax.linalg.triangular_solve: Incompatible shapes"):
        mlax.lax.linalg.triangular_solve(np.eye(4), np.ones((4, 2)), left_side=False)

"""mlax.experimental.sparse.random (random_bcoo) and .linalg (lobpcg_standard,
spsolve) against jax.experimental.sparse's: random_bcoo bit for bit for the
same key, LOBPCG's eigenvalues against JAX's and numpy's, spsolve's solution
and its gradients against JAX's, numpy's and finite differences."""
from __future__ import annotations

import jax
import jax.experimental.sparse as jsparse
import jax.experimental.sparse.linalg as jlinalg
import jax.numpy as jnp
import numpy as np
import pytest

import mlax
import mlax.experimental.sparse as msparse
import mlax.experimental.sparse.linalg as mlinalg
import mlax.experimental.sparse.random as mrandom
import mlax.numpy as mnp


def test_submodules_are_attributes():
    from mlax.experimental.sparse import linalg, random
    assert msparse.random is random is mrandom and msparse.linalg is linalg is mlinalg
    assert random.random_bcoo is msparse.random_bcoo


# (shape, keyword arguments, the generator's name in jax.random / mlax.random):
# nse as a fraction and as a count, batch and dense dimensions, repeated and
# sorted indices, narrow index and data dtypes, and an integer generator
# with its own keywords.
RANDOM_CASES = [
    ((5, 4), dict(nse=0.3), "uniform"),
    ((3, 6, 2), dict(nse=4, n_batch=1, unique_indices=False, dtype=np.float16), "normal"),
    ((2, 3, 4, 2), dict(nse=5, n_batch=1, n_dense=1, indices_dtype=np.int8,
                        sorted_indices=True), "normal"),
    ((6, 7), dict(nse=9, dtype=np.int32, minval=-3, maxval=9), "randint"),
]


def _random_all(lib, key):
    keys = lib.random.split(key, len(RANDOM_CASES))
    sparse = jsparse if lib is jax else msparse
    return [sparse.random_bcoo(k, shape, generator=getattr(lib.random, gen), **kw)
            for k, (shape, kw, gen) in zip(keys, RANDOM_CASES)]


def _same_bits(got, want):
    assert type(got).__name__ == type(want).__name__ == "BCOO"
    assert got.shape == want.shape and (got.n_batch, got.n_dense) == (want.n_batch, want.n_dense)
    for g, w in ((got.data, want.data), (got.indices, want.indices)):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_array_equal(np.asarray(g), np.asarray(w))
    assert got.indices_sorted == want.indices_sorted
    assert got.unique_indices == want.unique_indices


def test_random_bcoo_matches_jax_bit_for_bit():
    got = mlax.jit(lambda k: _random_all(mlax, k))(mlax.random.PRNGKey(7))
    want = jax.jit(lambda k: _random_all(jax, k))(jax.random.PRNGKey(7))
    for g, w in zip(got, want):
        _same_bits(g, w)
    # Distinct indices per batch where asked for (so the test sees real draws).
    for g, (_, kw, _) in zip(got, RANDOM_CASES):
        if kw.get("unique_indices", True) and g.nse:
            flat = np.asarray(g.indices).reshape(-1, g.nse, g.indices.shape[-1])
            assert all(len({tuple(r) for r in b}) == g.nse for b in flat)
    # Eagerly, with a new-style key and the default generator.
    _same_bits(mrandom.random_bcoo(mlax.random.key(3), (4, 6), nse=5),
               jsparse.random_bcoo(jax.random.key(3), (4, 6), nse=5))


@pytest.mark.parametrize("shape,kw", [
    ((2, 3), dict(n_batch=2, n_dense=1)), ((2, 3), dict(nse=6)), ((2, 3), dict(nse=-1)),
    ((20, 20), dict(indices_dtype=np.int8)), ((2, 3), dict(n_batch=-1))])
def test_random_bcoo_errors(shape, kw):
    with pytest.raises(Exception) as want:
        jsparse.random_bcoo(jax.random.PRNGKey(0), shape, **kw)
    with pytest.raises(want.type, match="between|Invalid|range"):
        mrandom.random_bcoo(mlax.random.PRNGKey(0), shape, **kw)


def _symmetric(n, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((n, n)).astype(np.float32)
    return (a @ a.T / n).astype(np.float32), rng.standard_normal((n, 3)).astype(np.float32)


def _check_eigenpairs(a, w, v, k):
    w, v = np.asarray(w), np.asarray(v)
    np.testing.assert_allclose(w, np.linalg.eigvalsh(a.astype(np.float64))[::-1][:k],
                               rtol=1e-4, atol=1e-5)
    # LOBPCG stops at residuals ~ tol * 10 n (w + |A v|): relative to the spectrum.
    np.testing.assert_allclose(a @ v, v * w, atol=1e-3 * np.abs(w).max())
    np.testing.assert_allclose(v.T @ v, np.eye(k), atol=1e-4)


def test_lobpcg_dense_and_bcoo_callable():
    a, x = _symmetric(40)
    # The matrix as a traced argument of an enclosing jit (lobpcg_standard jits
    # its own work when called eagerly, as below for the callable).
    w, v, i = mlax.jit(lambda a, x: mlinalg.lobpcg_standard(a, x, m=100))(
        mnp.asarray(a), mnp.asarray(x))
    jw, _, ji = jlinalg.lobpcg_standard(jnp.asarray(a), jnp.asarray(x), m=100)
    assert w.dtype == jw.dtype and v.shape == (40, 3) and 0 < int(i) < 100
    np.testing.assert_allclose(np.asarray(w), np.asarray(jw), rtol=1e-5)
    assert abs(int(i) - int(ji)) <= 2  # same steps; rounding may shift convergence
    _check_eigenpairs(a, w, v, 3)

    # A sparse operator as a callable: a banded (tridiagonal plus a far band) matrix.
    n = 50
    b = (np.diag(np.arange(1, n + 1, dtype=np.float32)) + np.eye(n, k=1, dtype=np.float32)
         + np.eye(n, k=-1, dtype=np.float32) + 0.5 * np.eye(n, k=7, dtype=np.float32)
         + 0.5 * np.eye(n, k=-7, dtype=np.float32))
    xb = np.random.default_rng(1).standard_normal((n, 2)).astype(np.float32)
    m = msparse.BCOO.fromdense(b)
    jm = jsparse.BCOO.fromdense(b)
    w, v, i = mlinalg.lobpcg_standard(lambda y: m @ y, mnp.asarray(xb), m=200, tol=1e-6)
    jw, _, _ = jlinalg.lobpcg_standard(lambda y: jm @ y, jnp.asarray(xb), m=200, tol=1e-6)
    np.testing.assert_allclose(np.asarray(w), np.asarray(jw), rtol=1e-5)
    _check_eigenpairs(b, w, v, 2)


def test_lobpcg_errors():
    a, x = _symmetric(10)  # k * 5 >= n
    for lib, linalg_ in ((jnp, jlinalg), (mnp, mlinalg)):
        with pytest.raises(ValueError, match="search dim"):
            linalg_.lobpcg_standard(lib.asarray(a), lib.asarray(x))
    a, x = _symmetric(20)
    for lib, linalg_ in ((jnp, jlinalg), (mnp, mlinalg)):
        with pytest.raises(ValueError, match="dtype"):  # A's products float16, X float32
            linalg_.lobpcg_standard(lambda y: y.astype(np.float16), lib.asarray(x))
        with pytest.raises(ValueError, match="matrix"):  # A maps to the wrong shape
            linalg_.lobpcg_standard(lambda y: y[:5], lib.asarray(x))
    with pytest.raises(TypeError, match="lobpcg_standard"):
        mlinalg.lobpcg_standard("A", mnp.asarray(x))


def _csr(n=7, seed=0, repeat=True):
    """A diagonally dominant CSR matrix (so well conditioned), with one
    repeated entry if `repeat` (SciPy, behind JAX's CPU spsolve, adds
    repeats up)."""
    rng = np.random.default_rng(seed)
    a = np.where(rng.random((n, n)) < 0.3, rng.standard_normal((n, n)), 0) + 4 * np.eye(n)
    rows, cols = np.nonzero(a)
    data = a[rows, cols]
    if repeat:
        rows, cols, data = np.r_[rows, 2], np.r_[cols, 5], np.r_[data, 0.75]
    order = np.lexsort((cols, rows))
    rows, cols, data = rows[order], cols[order], data[order]
    indptr = np.r_[0, np.cumsum(np.bincount(rows, minlength=n))].astype(np.int32)
    dense = np.zeros((n, n))
    np.add.at(dense, (rows, cols), data)
    return data.astype(np.float32), cols.astype(np.int32), indptr, dense


def test_spsolve_values_jit_and_vmap():
    data, indices, indptr, dense = _csr()
    b = np.random.default_rng(5).standard_normal(7).astype(np.float32)
    want = jlinalg.spsolve(data, indices, indptr, b)
    got = mlinalg.spsolve(data, indices, indptr, b)
    jitted = mlax.jit(mlinalg.spsolve)(data, indices, indptr, b)
    for g in (got, jitted):
        assert g.dtype == want.dtype and g.shape == want.shape
        np.testing.assert_allclose(np.asarray(g), np.asarray(want), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.asarray(got), np.linalg.solve(dense, b), rtol=1e-5, atol=1e-6)
    # Batching (which JAX's spsolve lacks) over right-hand sides and matrix values.
    bs = np.stack([b, 2 * b + 1])
    datas = np.stack([data, data * 1.5])
    vm = mlax.vmap(mlinalg.spsolve, in_axes=(0, None, None, 0))(datas, indices, indptr, bs)
    for j in range(2):
        np.testing.assert_allclose(np.asarray(vm[j]), np.linalg.solve(
            dense * (1 + 0.5 * j), bs[j]), rtol=1e-5, atol=1e-5)


def test_spsolve_gradients():
    # (No repeated entry: JAX's gradient hands SciPy read-only buffers that
    # it then fails to deduplicate in place.)
    data, indices, indptr, dense = _csr(seed=1, repeat=False)
    b = np.random.default_rng(6).standard_normal(7).astype(np.float32)
    weights = np.linspace(-1, 2, 7).astype(np.float32)

    def loss(lib, linalg_):
        return lambda d, b: lib.sum(weights * linalg_.spsolve(d, indices, indptr, b) ** 2)
    got = mlax.jit(mlax.grad(loss(mnp, mlinalg), argnums=(0, 1)))(data, b)
    want = jax.grad(loss(jnp, jlinalg), argnums=(0, 1))(data, b)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=1e-4, atol=1e-5)

    # Central differences in float64 on the same CSR matrix.
    rows = np.repeat(np.arange(7), np.diff(indptr))

    def f64(d, b_):
        a = np.zeros((7, 7))
        np.add.at(a, (rows, indices), d)
        return np.sum(weights * np.linalg.solve(a, b_) ** 2)
    eps = 1e-6
    d64, b64 = data.astype(np.float64), b.astype(np.float64)
    fd_data = [(f64(d64 + eps * e, b64) - f64(d64 - eps * e, b64)) / (2 * eps)
               for e in np.eye(data.size)]
    fd_b = [(f64(d64, b64 + eps * e) - f64(d64, b64 - eps * e)) / (2 * eps) for e in np.eye(7)]
    np.testing.assert_allclose(np.asarray(got[0]), fd_data, rtol=1e-3, atol=1e-4)
    np.testing.assert_allclose(np.asarray(got[1]), fd_b, rtol=1e-3, atol=1e-4)
    # Forward mode in b: the solve of the tangent.
    _, tangent = mlax.jvp(lambda b_: mlinalg.spsolve(data, indices, indptr, b_), (b,),
                          (np.ones(7, np.float32),))
    np.testing.assert_allclose(np.asarray(tangent), np.linalg.solve(dense, np.ones(7)),
                               rtol=1e-5, atol=1e-6)


def test_spsolve_errors():
    data, indices, indptr, _ = _csr()
    b = np.ones(7, np.float32)
    bad = [((data, indices, indptr, b.astype(np.float16)), {}, "data types"),
           ((data, indices.astype(np.float32), indptr, b), {}, "integer"),
           ((data, indices, indptr[:-1], b), {}, "CSR buffer sizes"),
           ((data[None], indices[None], indptr, b), {}, "one-dimensional"),
           ((data, indices, indptr, b), dict(reorder=4), "reorder")]
    for args, kw, what in bad:
        with pytest.raises(ValueError, match=what):
            mlinalg.spsolve(*args, **kw)
        with pytest.raises(ValueError):
            jlinalg.spsolve(*(jnp.asarray(a) for a in args), **kw)

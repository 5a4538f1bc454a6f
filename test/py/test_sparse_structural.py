"""mlax.experimental.sparse's structural BCOO operations (update_layout,
broadcast_in_dim, concatenate, reshape, squeeze, rev, slice, dynamic_slice,
gather, conv_general_dilated, indexing) and the BCSR format, against the
installed JAX's jax.experimental.sparse: data, indices (padding included),
shape, nse, layout and index dtype of results, eagerly and under jit, with
gradients with respect to data and the errors JAX raises.
"""
from __future__ import annotations

import jax
import jax.experimental.sparse as jsparse
import jax.numpy as jnp
import numpy as np
import pytest

import mlax
import mlax.experimental.sparse as msparse
import mlax.numpy as mnp
from test_sparse import _dense, _same_array, _same_bcoo


def _pair(shape, n_batch=0, n_dense=0, seed=0, **kw):
    x = _dense(shape, seed=seed)
    return (msparse.BCOO.fromdense(x, n_batch=n_batch, n_dense=n_dense, **kw),
            jsparse.BCOO.fromdense(x, n_batch=n_batch, n_dense=n_dense, **kw))


def _same_result(got, want):
    """A BCOO result equal to JAX's in every buffer; the flags JAX sets are
    compared too."""
    _same_bcoo(got, want)
    _same_array(got.todense(), want.todense())


# (name, operation on a module and a BCOO of shape (2, 3, 4)) for each layout.
OPS = [
    ("reshape", lambda m, a: m.bcoo_reshape(a, new_sizes=(2, 12) if a.n_dense == 0
                                            else (6, 4) if a.n_batch == 0 else (2, 3, 4))),
    ("reshape_method", lambda m, a: a.reshape(2, -1) if a.n_dense == 0 else a.reshape(a.shape)),
    ("squeeze", lambda m, a: m.bcoo_squeeze(m.bcoo_reshape(a, new_sizes=(2, 1, 3, 4)),
                                            dimensions=(1,))),
    ("rev", lambda m, a: m.bcoo_rev(a, dimensions=(0, 2))),
    ("slice", lambda m, a: m.bcoo_slice(a, start_indices=(1, 0, 1), limit_indices=(2, 3, 4),
                                        strides=(1, 2, 2))),
    ("broadcast_in_dim", lambda m, a: m.bcoo_broadcast_in_dim(
        a, shape=(5, 2, 3, 4), broadcast_dimensions=(1, 2, 3))),
    ("concatenate_1", lambda m, a: m.bcoo_concatenate([a, a], dimension=1)),
    ("concatenate_0", lambda m, a: m.bcoo_concatenate([a, a[:1]], dimension=0)),
    ("getitem", lambda m, a: a[1, ::-2, None]),
    ("getitem_int", lambda m, a: a[..., 0] if a.n_dense == 0 else a[:, 2]),
    ("update_layout", lambda m, a: a.update_layout(n_batch=0, n_dense=0)),
    ("update_layout_up", lambda m, a: m.bcoo_update_layout(a, n_batch=2, on_inefficient=None)),
]
LAYOUTS = [(0, 0), (1, 0), (0, 1)]


@pytest.mark.parametrize("layout", LAYOUTS, ids=str)
def test_structural_ops_match_jax(layout):
    mat, jmat = _pair((2, 3, 4), *layout, seed=sum(layout))
    for name, op in OPS:
        _same_result(op(msparse, mat), op(jsparse, jmat))


def test_structural_ops_under_jit_and_grad():
    mat, jmat = _pair((2, 3, 4), 1, 0, seed=4)

    def f(m, mod, a):
        b = mod.bcoo_slice(a, start_indices=(0, 1, 0), limit_indices=(2, 3, 4))
        b = mod.bcoo_concatenate([b, mod.bcoo_rev(b, dimensions=(1,))], dimension=2)
        b = mod.bcoo_reshape(b, new_sizes=(2, 16))
        return b

    _same_result(mlax.jit(lambda a: f(mnp, msparse, a))(mat),
                 jax.jit(lambda a: f(jnp, jsparse, a))(jmat))
    w = _dense((2, 16), seed=5)

    def loss(m, mod, data, a):
        b = f(m, mod, type(a)((data, a.indices), shape=a.shape))
        return (b.todense() * w).sum() + (b.data ** 2).sum()
    got = mlax.grad(lambda d: loss(mnp, msparse, d, mat))(mat.data)
    want = jax.grad(lambda d: loss(jnp, jsparse, d, jmat))(jmat.data)
    _same_array(got, want)
    # Against finite differences, one coordinate.
    e = np.zeros(mat.data.shape, np.float32)
    e[(0,) * e.ndim] = 1e-2
    fd = (loss(mnp, msparse, mat.data + e, mat) - loss(mnp, msparse, mat.data - e, mat)) / 2e-2
    np.testing.assert_allclose(np.asarray(got)[(0,) * e.ndim], float(fd), rtol=1e-2, atol=1e-2)


def test_dynamic_slice_and_traced_index():
    mat, jmat = _pair((4, 5, 3), 1, 1, seed=6)
    starts = [np.int32(1), np.int32(-3), np.int32(1)]
    want = jsparse.bcoo_dynamic_slice(jmat, starts, slice_sizes=(2, 2, 2))
    _same_result(msparse.bcoo_dynamic_slice(mat, starts, slice_sizes=(2, 2, 2)), want)
    f = mlax.jit(lambda a, i: (msparse.bcoo_dynamic_slice(a, [i, i, 0], (2, 2, 3)), a[i], a[:, i]))
    g = jax.jit(lambda a, i: (jsparse.bcoo_dynamic_slice(a, [i, i, 0], (2, 2, 3)), a[i], a[:, i]))
    for got, want in zip(f(mat, np.int32(3)), g(jmat, np.int32(3))):
        _same_result(got, want)


def test_gather():
    mat, jmat = _pair((4, 5), seed=7)
    dn = dict(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,))
    idx = np.array([[2], [0], [3]], np.int32)
    got = msparse.bcoo_gather(mat, idx, mlax.lax.GatherDimensionNumbers(**dn), (1, 5))
    want = jsparse.bcoo_gather(jmat, idx, jax.lax.GatherDimensionNumbers(**dn), (1, 5))
    _same_result(got, want)
    with pytest.raises(NotImplementedError, match="mode"):
        msparse.bcoo_gather(mat, idx, mlax.lax.GatherDimensionNumbers(**dn), (1, 5), mode="clip")


def test_conv_general_dilated():
    x = _dense((1, 1, 9), seed=8)
    k = np.array([[[1.0, 0.0, -2.0]]], np.float32)
    for padding in ("SAME", [(1, 2)]):
        kw = dict(window_strides=(1,), padding=padding)
        got = msparse.bcoo_conv_general_dilated(msparse.BCOO.fromdense(x), k, **kw)
        want = jsparse.bcoo_conv_general_dilated(jsparse.BCOO.fromdense(x), jnp.asarray(k), **kw)
        _same_result(got, want)
        _same_array(got.todense(), jax.lax.conv_general_dilated(x, k, **kw))
    with pytest.raises(NotImplementedError, match="strides"):
        msparse.bcoo_conv_general_dilated(msparse.BCOO.fromdense(x), k, window_strides=(2,),
                                          padding="VALID")


def test_structural_errors():
    mat, jmat = _pair((2, 3, 4), 1, 1)
    cases = [
        (lambda m, a: m.bcoo_concatenate([a, a], dimension=2), NotImplementedError),
        (lambda m, a: m.bcoo_squeeze(a, dimensions=(0,)), ValueError),
        (lambda m, a: m.bcoo_reshape(a, new_sizes=(3, 2, 4)), ValueError),
        (lambda m, a: m.bcoo_update_layout(a, n_batch=2), "SparseEfficiencyError"),
        (lambda m, a: m.bcoo_update_layout(a, n_batch=3), ValueError),
        (lambda m, a: m.bcoo_slice(a, start_indices=(0, 0, 0), limit_indices=(3, 3, 4)),
         ValueError),
        (lambda m, a: m.bcoo_broadcast_in_dim(a, shape=(2, 6, 4), broadcast_dimensions=(0, 1, 2)),
         NotImplementedError),
    ]
    for op, exc in cases:
        for mod, a in ((jsparse, jmat), (msparse, mat)):
            with pytest.raises(getattr(mod, exc) if isinstance(exc, str) else exc):
                op(mod, a)
    with pytest.warns(msparse.SparseEfficiencyWarning):
        msparse.bcoo_update_layout(mat, n_batch=2, on_inefficient="warn")


# ---------------------------------------------------------------------------
# BCSR
# ---------------------------------------------------------------------------

def _same_bcsr(got, want):
    assert isinstance(got, msparse.BCSR), type(got)
    assert got.shape == want.shape
    assert (got.nse, got.n_batch, got.n_dense) == (want.nse, want.n_batch, want.n_dense)
    assert got.dtype == want.dtype and got.indices.dtype == want.indices.dtype
    assert got.indptr.dtype == want.indptr.dtype
    for g, w in zip(got._bufs, want._bufs):
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=1e-6)
    _same_array(got.todense(), want.todense())


@pytest.mark.parametrize("layout", [((3, 4), 0, 0), ((2, 3, 4), 1, 0), ((3, 4, 2), 0, 1)],
                         ids=str)
def test_bcsr_matches_jax(layout):
    shape, n_batch, n_dense = layout
    x = _dense(shape, seed=9)
    m = msparse.BCSR.fromdense(x, n_batch=n_batch, n_dense=n_dense)
    j = jsparse.BCSR.fromdense(x, n_batch=n_batch, n_dense=n_dense)
    _same_bcsr(m, j)
    _same_bcsr(msparse.bcsr_fromdense(x, nse=7, n_batch=n_batch, n_dense=n_dense,
                                      index_dtype=np.int16),
               jsparse.bcsr_fromdense(x, nse=7, n_batch=n_batch, n_dense=n_dense,
                                      index_dtype=np.int16))
    _same_array(msparse.bcsr_todense(m), x)
    _same_bcoo(m.to_bcoo(), j.to_bcoo())
    _same_bcsr(msparse.BCSR.from_bcoo(msparse.BCOO.fromdense(x, n_batch=n_batch,
                                                             n_dense=n_dense)),
               jsparse.BCSR.from_bcoo(jsparse.BCOO.fromdense(x, n_batch=n_batch,
                                                             n_dense=n_dense)))
    _same_array(msparse.bcsr_extract(m.indices, m.indptr, 2 * x),
                jsparse.bcsr_extract(j.indices, j.indptr, 2 * x))
    _same_bcsr(msparse.bcsr_concatenate([m, m], dimension=n_batch),
               jsparse.bcsr_concatenate([j, j], dimension=n_batch))
    _same_bcsr(msparse.bcsr_broadcast_in_dim(m, shape=(2, *shape),
                                             broadcast_dimensions=tuple(range(1, len(shape) + 1))),
               jsparse.bcsr_broadcast_in_dim(j, shape=(2, *shape),
                                             broadcast_dimensions=tuple(range(1, len(shape) + 1))))
    if len(shape) == 2:
        v = _dense(shape[-1:] + (2,), seed=10, density=1.0)
        _same_array(m @ v, j @ v)


def test_bcsr_jit_grad_and_duplicates():
    x = _dense((4, 5), seed=11)
    v = _dense((5, 3), seed=12, density=1.0)
    m, j = msparse.BCSR.fromdense(x), jsparse.BCSR.fromdense(x)
    dn = (([1], [0]), ([], []))

    def loss(mod, data, a):
        a = type(a)((data, a.indices, a.indptr), shape=a.shape)
        return (mod.bcsr_dot_general(a, v, dimension_numbers=dn) ** 2).sum()
    _same_array(mlax.jit(lambda d: loss(msparse, d, m))(m.data),
                jax.jit(lambda d: loss(jsparse, d, j))(j.data))
    _same_array(mlax.grad(lambda d: loss(msparse, d, m))(m.data),
                jax.grad(lambda d: loss(jsparse, d, j))(j.data))
    _same_bcsr(mlax.jit(lambda a: a)(m), j)
    # Duplicates: the same row and column twice.
    data, indices, indptr = np.array([1., 2., 3.], np.float32), np.array([1, 1, 0], np.int32), \
        np.array([0, 2, 3, 3, 3, 3], np.int32)
    mdup = msparse.BCSR((data, indices, indptr), shape=(5, 2))
    jdup = jsparse.BCSR((data, indices, indptr), shape=(5, 2))
    _same_bcsr(msparse.bcsr_sum_duplicates(mdup), jsparse.bcsr_sum_duplicates(jdup))
    _same_bcsr(mdup.sum_duplicates(nse=4), jdup.sum_duplicates(nse=4))
    _same_bcsr(msparse.empty((2, 3, 4), sparse_format="bcsr", n_batch=1, nse=2),
               jsparse.empty((2, 3, 4), sparse_format="bcsr", n_batch=1, nse=2))
    for mod, a in ((jsparse, j), (msparse, m)):
        with pytest.raises(NotImplementedError):
            mod.bcsr_dot_general(v.T, a, dimension_numbers=(([1], [0]), ([], [])))
        with pytest.raises(ValueError):
            mod.bcsr_fromdense(np.ones((2, 3, 4), np.float32))

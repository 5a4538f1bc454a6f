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
import numpy as np
import pytest

import mlax
import mlax.experimental.sparse as msparse
from test_sparse import _dense, _same_array, _same_bcoo


def _nse(x, n_batch, n_dense):
    mask = x != 0
    mask = mask.any(tuple(range(x.ndim - n_dense, x.ndim))) if n_dense else mask
    return int(mask.sum(tuple(range(n_batch, mask.ndim))).max())


def _pair(shape, n_batch=0, n_dense=0, seed=0):
    """JAX's BCOO of a random array (one compiled program) and mlax's of the
    same buffers (fromdense itself is test_sparse's)."""
    x = _dense(shape, seed=seed)
    nse = _nse(x, n_batch, n_dense)
    j = jax.jit(lambda x: jsparse.BCOO.fromdense(x, nse=nse, n_batch=n_batch,
                                                 n_dense=n_dense))(x)
    m = msparse.BCOO((np.asarray(j.data), np.asarray(j.indices)), shape=j.shape,
                     indices_sorted=j.indices_sorted, unique_indices=j.unique_indices)
    return m, j


def _same_results(got, want):
    """Results equal to JAX's in every buffer (padding included), shape,
    layout, nse, flags and dtypes: their dense values are then JAX's too."""
    assert len(got) == len(want)
    for g, w in zip(got, want):
        _same_bcoo(g, w)


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
    ("concatenate_nse", lambda m, a: m.bcoo_concatenate(
        [a, a.sum_duplicates(nse=a.nse + 2, remove_zeros=False)], dimension=0)),
    ("getitem", lambda m, a: a[1, ::-2, None]),
    ("getitem_int", lambda m, a: a[..., 0] if a.n_dense == 0 else a[:, 2]),
    # (JAX's own lowering fails on this gather of a batched or blocked BCOO under jit)
    ("getitem_array", lambda m, a: a[np.array([[1, 0], [-1, 1]])] if a.n_batch == a.n_dense == 0
     else a[0]),
    ("update_layout", lambda m, a: a.update_layout(n_batch=0, n_dense=0)),
    ("update_layout_up", lambda m, a: m.bcoo_update_layout(a, n_batch=2, on_inefficient=None)),
    # (differing n_batch: update_layout inside the product)
    ("multiply_sparse", lambda m, a: m.bcoo_multiply_sparse(a, a.update_layout(n_batch=0))),
]
LAYOUTS = [(0, 0), (1, 0), (0, 1)]


@pytest.mark.parametrize("layout", LAYOUTS, ids=str)
def test_structural_ops_match_jax(layout):
    mat, jmat = _pair((2, 3, 4), *layout, seed=sum(layout))
    # One program per side: each op traced once, compiled together.
    _same_results(mlax.jit(lambda a: [op(msparse, a) for _, op in OPS])(mat),
                  jax.jit(lambda a: [op(jsparse, a) for _, op in OPS])(jmat))


def test_structural_ops_eagerly():
    mat, jmat = _pair((2, 3, 4), 1, 0, seed=1)
    op = dict(OPS)["getitem"]
    _same_results([op(msparse, mat)], [jax.jit(lambda a: op(jsparse, a))(jmat)])


def test_structural_ops_under_jit_and_grad():
    mat, jmat = _pair((2, 3, 4), 1, 0, seed=4)

    def f(mod, a):
        b = mod.bcoo_slice(a, start_indices=(0, 1, 0), limit_indices=(2, 3, 4))
        b = mod.bcoo_concatenate([b, mod.bcoo_rev(b, dimensions=(1,))], dimension=2)
        b = mod.bcoo_reshape(b, new_sizes=(2, 16))
        return b

    _same_results([mlax.jit(lambda a: f(msparse, a))(mat)],
                  [jax.jit(lambda a: f(jsparse, a))(jmat)])
    w = _dense((2, 16), seed=5)

    def loss(mod, data, a):
        b = f(mod, type(a)((data, a.indices), shape=a.shape))
        return (b.todense() * w).sum() + (b.data ** 2).sum()
    got = mlax.jit(mlax.grad(lambda d: loss(msparse, d, mat)))(mat.data)
    want = jax.jit(jax.grad(lambda d: loss(jsparse, d, jmat)))(jmat.data)
    _same_array(got, want)
    # Against finite differences, one coordinate.
    e = np.zeros(mat.data.shape, np.float32)
    e[(0,) * e.ndim] = 1e-2
    mloss = mlax.jit(lambda d: loss(msparse, d, mat))
    fd = (mloss(mat.data + e) - mloss(mat.data - e)) / 2e-2
    np.testing.assert_allclose(np.asarray(got)[(0,) * e.ndim], float(fd), rtol=1e-2, atol=1e-2)


def test_dynamic_slice_and_traced_index():
    mat, jmat = _pair((4, 5, 3), 1, 1, seed=6)

    def f(mod, a, i):
        return (mod.bcoo_dynamic_slice(a, [1, -3, 1], slice_sizes=(2, 2, 2)),
                mod.bcoo_dynamic_slice(a, [i, i, 0], (2, 2, 3)), a[i], a[:, i])
    _same_results(mlax.jit(lambda a, i: f(msparse, a, i))(mat, np.int32(3)),
                  jax.jit(lambda a, i: f(jsparse, a, i))(jmat, np.int32(3)))
    with pytest.raises(NotImplementedError):
        mat[:, np.array([0, 1])]


def test_gather():
    mat, jmat = _pair((4, 5), seed=7)
    dn = dict(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,))
    idx = np.array([[2], [0], [3]], np.int32)
    # With x[idx] for a traced index array: that gather.
    f = mlax.jit(lambda a, i: (
        msparse.bcoo_gather(a, idx, mlax.lax.GatherDimensionNumbers(**dn), (1, 5)),
        a[i * np.array([1, 0, -1], np.int32)]))
    g = jax.jit(lambda a, i: (
        jsparse.bcoo_gather(a, idx, jax.lax.GatherDimensionNumbers(**dn), (1, 5)),
        a[i * np.array([1, 0, -1], np.int32)]))
    _same_results(f(mat, np.int32(3)), g(jmat, np.int32(3)))
    with pytest.raises(NotImplementedError, match="mode"):
        msparse.bcoo_gather(mat, idx, mlax.lax.GatherDimensionNumbers(**dn), (1, 5), mode="clip")


def test_conv_general_dilated():
    mat, jmat = _pair((1, 1, 9), 2, 0, seed=8)
    k = np.array([[[1.0, 0.0, -2.0]]], np.float32)

    def convs(mod, a):
        return [mod.bcoo_conv_general_dilated(a, k, window_strides=(1,), padding=p)
                for p in ("SAME", [(1, 2)])] + [
            mod.bcoo_conv_general_dilated(k, a, window_strides=(1,), padding="VALID")]
    _same_results(mlax.jit(lambda a: convs(msparse, a))(mat),
                  jax.jit(lambda a: convs(jsparse, a))(jmat))
    with pytest.raises(NotImplementedError, match="strides"):
        msparse.bcoo_conv_general_dilated(mat, k, window_strides=(2,), padding="VALID")


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


def _bcsr_ops(mod, x, nse, n_batch, n_dense):
    """BCSR results of fromdense and of the operations on a BCSR, and dense
    ones (todense, extract, and a product where JAX builds it)."""
    m = mod.BCSR.fromdense(x, nse=nse, n_batch=n_batch, n_dense=n_dense)
    m16 = mod.bcsr_fromdense(x, nse=nse + 1, n_batch=n_batch, n_dense=n_dense,
                             index_dtype=np.int16)
    b = mod.BCOO.fromdense(x, nse=nse, n_batch=n_batch, n_dense=n_dense)
    dims = tuple(range(1, x.ndim + 1))
    sparse = [m, m16, mod.BCSR.from_bcoo(b), mod.bcsr_concatenate([m, m], dimension=n_batch),
              mod.bcsr_broadcast_in_dim(m, shape=(2, *x.shape), broadcast_dimensions=dims)]
    dense = [mod.bcsr_todense(m), m16.todense(), mod.bcsr_extract(m.indices, m.indptr, 2 * x)]
    if x.ndim == 2:
        dense.append(m @ _dense(x.shape[-1:] + (2,), seed=10, density=1.0))
    return sparse, m.to_bcoo(), dense


@pytest.mark.parametrize("layout", [((3, 4), 0, 0), ((2, 3, 4), 1, 0), ((3, 4, 2), 0, 1)],
                         ids=str)
def test_bcsr_matches_jax(layout):
    shape, n_batch, n_dense = layout
    x = _dense(shape, seed=9)
    nse = _nse(x, n_batch, n_dense)
    got = mlax.jit(lambda x: _bcsr_ops(msparse, x, nse, n_batch, n_dense))(x)
    want = jax.jit(lambda x: _bcsr_ops(jsparse, x, nse, n_batch, n_dense))(x)
    for g, w in zip(got[0], want[0]):
        _same_bcsr(g, w)
    _same_results([got[1]], [want[1]])
    for g, w in zip(got[2], want[2]):
        _same_array(g, w)


def test_bcsr_jit_grad_and_duplicates():
    x = _dense((4, 5), seed=11)
    v = _dense((5, 3), seed=12, density=1.0)
    m = msparse.BCSR.fromdense(x)  # eagerly, nse from the values
    nse = _nse(x, 0, 0)
    j = jax.jit(lambda x: jsparse.BCSR.fromdense(x, nse=nse))(x)
    _same_bcsr(m, j)
    dn = (([1], [0]), ([], []))

    def loss(mod, data, a):
        a = type(a)((data, a.indices, a.indptr), shape=a.shape)
        return (mod.bcsr_dot_general(a, v, dimension_numbers=dn) ** 2).sum()
    got = mlax.jit(mlax.value_and_grad(lambda d: loss(msparse, d, m)))(m.data)
    want = jax.jit(jax.value_and_grad(lambda d: loss(jsparse, d, j)))(j.data)
    for g, w in zip(got, want):
        _same_array(g, w)
    _same_bcsr(mlax.jit(lambda a: a)(m), j)
    # Duplicates: the same row and column twice.
    data, indices, indptr = np.array([1., 2., 3.], np.float32), np.array([1, 1, 0], np.int32), \
        np.array([0, 2, 3, 3, 3, 3], np.int32)
    mdup = msparse.BCSR((data, indices, indptr), shape=(5, 2))
    jdup = jsparse.BCSR((data, indices, indptr), shape=(5, 2))
    want = jax.jit(lambda a: (jsparse.bcsr_sum_duplicates(a, nse=2), a.sum_duplicates(nse=4)))(
        jdup)
    _same_bcsr(msparse.bcsr_sum_duplicates(mdup), want[0])
    _same_bcsr(mlax.jit(lambda a: a.sum_duplicates(nse=4))(mdup), want[1])
    _same_bcsr(msparse.empty((2, 3, 4), sparse_format="bcsr", n_batch=1, nse=2),
               jsparse.empty((2, 3, 4), sparse_format="bcsr", n_batch=1, nse=2))
    for mod, a in ((jsparse, j), (msparse, m)):
        with pytest.raises(NotImplementedError):
            mod.bcsr_dot_general(v.T, a, dimension_numbers=(([1], [0]), ([], [])))
        with pytest.raises(ValueError):
            mod.bcsr_fromdense(np.ones((2, 3, 4), np.float32))
        with pytest.raises(NotImplementedError):
            a[0]


# ---------------------------------------------------------------------------
# the legacy 2-D formats: COO, CSR, CSC
# ---------------------------------------------------------------------------

def _legacy_ops(mod, x, nse, v, B):
    """Each format's buffers from fromdense, todense, the products (and
    with transpose), `@`, and eye/empty."""
    coo = mod.coo_fromdense(x, nse=nse)
    csr = mod.csr_fromdense(x, nse=nse, index_dtype=np.int16)
    csc = mod.CSC.fromdense(x, nse=nse)
    bufs = [coo._bufs, csr._bufs, (csc.data, csc.indices, csc.indptr)]
    for kw in (dict(N=3, M=5, k=1), dict(N=4, M=3, k=-2)):
        bufs += [(e.data, e.indices, e.indptr) if hasattr(e, "indptr") else e._bufs
                 for e in (mod.eye(sparse_format=f, **kw) for f in ("coo", "csr", "csc"))]
    dense = [mod.coo_todense(coo), mod.csr_todense(csr), csc.todense(),
             mod.coo_matvec(coo, v), mod.coo_matvec(coo, B[:, 0], transpose=True),
             mod.coo_matmat(coo, B.T), mod.csr_matvec(csr, v),
             mod.csr_matmat(csr, B, transpose=True), coo @ v, csr @ B.T, csc @ v,
             csc.T.todense(), coo.T.todense(), mod.empty((2, 3), sparse_format="csc").todense()]
    return bufs, dense


def test_legacy_formats_match_jax():
    x = _dense((4, 5), seed=13)
    v = _dense((5,), seed=14, density=1.0)
    B = _dense((4, 5), seed=15, density=1.0)
    nse = _nse(x, 0, 0) + 1  # one padding element
    got = mlax.jit(lambda x, v, B: _legacy_ops(msparse, x, nse, v, B))(x, v, B)
    want = jax.jit(lambda x, v, B: _legacy_ops(jsparse, x, nse, v, B))(x, v, B)
    for gb, wb in zip(got[0], want[0]):
        for g, w in zip(gb, wb):
            _same_array(g, w)
    for g, w in zip(got[1], want[1]):
        _same_array(g, w)
    # Eagerly (nse from the values), and the gradient with respect to data.
    m, j = msparse.CSR.fromdense(x), jsparse.CSR.fromdense(x)
    for g, w in zip(m._bufs, j._bufs):
        _same_array(g, w)

    def loss(mod, cls, data, a):
        return (cls((data, a.indices, a.indptr), shape=a.shape) @ v).sum() ** 2
    _same_array(mlax.grad(lambda d: loss(msparse, msparse.CSR, d, m))(m.data),
                jax.grad(lambda d: loss(jsparse, jsparse.CSR, d, j))(j.data))
    for mod in (jsparse, msparse):
        with pytest.raises(NotImplementedError):
            mod.COO.fromdense(x) @ mod.COO.fromdense(x)
        with pytest.raises(ValueError):
            mod.empty((2, 3, 4), sparse_format="csr")

"""mlax.experimental.sparse against the installed JAX's jax.experimental.sparse:
BCOO's data, indices, shape and flags from fromdense (every layout, padding
included), todense, extract, transpose, reductions, sorting and summing
duplicates, products with dense arrays and scalars (eagerly and under jit),
gradients with respect to data and to the dense operand (against JAX's and
finite differences), vmap, the constructors, and the errors JAX raises.
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



def _dense(shape, seed=0, density=0.4, dtype=np.float32):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape).astype(dtype)
    return np.where(rng.random(shape) < density, x, 0).astype(dtype)


def _fromdense(lib, x, n_batch=0):
    """lib.BCOO.fromdense(x, n_batch=n_batch) built in NumPy (no program to
    compile): each batch's nonzeros in row-major order, padded to the
    largest count with out-of-range indices and zero data."""
    x = np.asarray(x)
    batch = x.shape[:n_batch]
    flat = x.reshape((-1,) + x.shape[n_batch:])
    found = [np.argwhere(b != 0) for b in flat]
    nse = max(len(f) for f in found)
    fill = np.array(x.shape[n_batch:], np.int32)
    indices = np.stack([np.concatenate([f, np.broadcast_to(fill, (nse - len(f), fill.size))])
                        for f in found]).astype(np.int32)
    data = np.stack([np.concatenate([b[tuple(f.T)], np.zeros(nse - len(f), x.dtype)])
                     for b, f in zip(flat, found)])
    return lib.BCOO((data.reshape(batch + (nse,)), indices.reshape(batch + (nse, fill.size))),
                    shape=x.shape, indices_sorted=True, unique_indices=True)


def _bcsr(lib, x):
    """lib.BCSR.fromdense(x) of a 2-D x, built in NumPy."""
    return lib.BCSR((x[x != 0], np.nonzero(x)[1].astype(np.int32),
                     np.r_[0, np.cumsum((x != 0).sum(1))].astype(np.int32)), shape=x.shape)


def _todense(m):
    """A BCOO's dense array, summed in NumPy (no program to compile)."""
    data, indices = np.asarray(m.data), np.asarray(m.indices)
    n_batch, n_sparse = indices.ndim - 2, indices.shape[-1]
    out = np.zeros(m.shape, data.dtype)
    for b in np.ndindex(m.shape[:n_batch]):
        bd = data[tuple(min(i, s - 1) for i, s in zip(b, data.shape))]
        bi = indices[tuple(min(i, s - 1) for i, s in zip(b, indices.shape))]
        for d, i in zip(bd, bi):
            if all(k < s for k, s in zip(i, m.shape[n_batch:n_batch + n_sparse])):
                out[b + tuple(i)] += d
    return out


def _same_bcoo(got, want, rtol=1e-6, atol=1e-6):
    assert isinstance(got, msparse.BCOO), type(got)
    assert got.shape == want.shape
    assert (got.nse, got.n_batch, got.n_sparse, got.n_dense) == \
        (want.nse, want.n_batch, want.n_sparse, want.n_dense)
    assert (got.indices_sorted, got.unique_indices) == (want.indices_sorted,
                                                        want.unique_indices)
    assert got.dtype == want.dtype and got.indices.dtype == want.indices.dtype
    np.testing.assert_array_equal(np.asarray(got.indices), np.asarray(want.indices))
    np.testing.assert_allclose(np.asarray(got.data), np.asarray(want.data), rtol=rtol, atol=atol)


def _same_array(got, want, rtol=1e-5, atol=1e-5):
    assert np.shape(got) == np.shape(want), (np.shape(got), np.shape(want))
    assert np.asarray(got).dtype == np.asarray(want).dtype
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=rtol, atol=atol)


def _to_jax(m):
    return jsparse.BCOO((jnp.asarray(np.asarray(m.data)), jnp.asarray(np.asarray(m.indices))),
                        shape=m.shape, indices_sorted=m.indices_sorted,
                        unique_indices=m.unique_indices)


# (shape, n_batch, n_dense): plain, batched, with a dense block dimension.
LAYOUTS = [((3, 4), 0, 0), ((2, 3, 4), 1, 0), ((4, 3, 2), 0, 1)]


def test_fromdense_todense():
    """Every layout in one program a library; nse with padding (JAX's
    out-of-range indices and zero data)."""
    xs = [_dense(shape) for shape, _, _ in LAYOUTS]
    nses = []
    for x, (shape, n_batch, n_dense) in zip(xs, LAYOUTS):  # (nse counted as JAX counts it)
        nonzero = (x != 0).any(tuple(range(x.ndim - n_dense, x.ndim))) if n_dense else x != 0
        nses.append(int(nonzero.reshape(shape[:n_batch] + (-1,)).sum(-1).max()) + 2)

    def f(sp):
        def g(*xs):
            ms = [sp.BCOO.fromdense(a, nse=nse, n_batch=n_batch, n_dense=n_dense)
                  for a, nse, (_, n_batch, n_dense) in zip(xs, nses, LAYOUTS)]
            return ms, [m.todense() for m in ms]
        return g
    got, dense = mlax.jit(f(msparse))(*xs)
    want, _ = jax.jit(f(jsparse))(*xs)
    for g, w, d, x in zip(got, want, dense, xs):
        _same_bcoo(g, w)
        assert repr(g) == repr(w)
        _same_array(d, x)
    # Eagerly, nse counted from the data as JAX counts it.
    x = xs[0]
    got = msparse.bcoo_fromdense(x)
    _same_bcoo(got, jsparse.bcoo_fromdense(x))
    _same_array(msparse.todense(got), x)
    _same_array(msparse.todense(x), x)


def test_fromdense_int64_indices_and_int_data():
    x = (_dense((3, 5), seed=1) * 4).astype(np.int32)
    want = jsparse.bcoo_fromdense(x, index_dtype=np.int16)
    got = mlax.jit(lambda a: msparse.bcoo_fromdense(a, nse=want.nse, index_dtype=np.int16))(x)
    _same_bcoo(got, want)
    assert repr(got) == "BCOO(int32[3, 5], nse=%d)" % got.nse


def test_fromdense_under_jit_needs_nse():
    x = _dense((3, 4))
    with pytest.raises(jax.errors.ConcretizationTypeError):
        jax.jit(lambda a: jsparse.BCOO.fromdense(a))(x)
    with pytest.raises(mlax.errors.ConcretizationTypeError, match="nse"):
        mlax.jit(lambda a: msparse.BCOO.fromdense(a))(x)


def _with_duplicates():
    """A BCOO with a duplicate index, an unsorted order, a stored zero and
    one out-of-range (padding) entry."""
    data = np.array([1.0, 2.0, 0.0, 3.0, 4.0, 5.0], np.float32)
    indices = np.array([[2, 1], [0, 3], [1, 1], [2, 1], [0, 0], [3, 0]], np.int32)
    return data, indices, (3, 4)


def test_duplicates_sorting_and_extract():
    data, indices, shape = _with_duplicates()
    jm = jsparse.BCOO((data, indices), shape=shape)

    def ops(d, i):
        m = msparse.BCOO((d, i), shape=shape)
        dense = m.todense()
        return (dense, m.sort_indices(), msparse.bcoo_sum_duplicates(m, nse=5),
                m.sum_duplicates(nse=4), msparse.bcoo_extract(m, dense),
                msparse.bcoo_extract(m, dense, assume_unique=True))
    got = mlax.jit(ops)(data, indices)
    want = (jm.todense(), jm.sort_indices(), jsparse.bcoo_sum_duplicates(jm, nse=5),
            jm.sum_duplicates(nse=4), jsparse.bcoo_extract(jm, jm.todense()),
            jsparse.bcoo_extract(jm, jm.todense(), assume_unique=True))
    _same_array(got[0], want[0])
    for g, w in zip(got[1:], want[1:]):
        _same_bcoo(g, w)
    _same_bcoo(  # eagerly, nse from the data
msparse.BCOO((data, indices), shape=shape).sum_duplicates(),
        jm.sum_duplicates())


def test_batched_sum_duplicates_and_sort():
    key = jax.random.PRNGKey(3)
    jm = jsparse.random_bcoo(key, (2, 4, 3), nse=5, n_batch=1, unique_indices=False)
    m = msparse.BCOO((np.asarray(jm.data), np.asarray(jm.indices)), shape=jm.shape)
    f = mlax.jit(lambda m: (m.sort_indices(), m.sum_duplicates(nse=5, remove_zeros=False)))
    got = f(m)
    _same_bcoo(got[0], jm.sort_indices())
    _same_bcoo(got[1], jm.sum_duplicates(nse=5, remove_zeros=False))


def test_transpose_and_reduce_sum():
    x = _dense((2, 3, 4), seed=2)
    jm = _fromdense(jsparse, x, 1)
    m = _fromdense(msparse, x, 1)
    got = mlax.jit(lambda m: (m.transpose((0, 2, 1)), m.sum(1), m.sum((0, 2)), m.sum()))(m)
    want = (jm.transpose((0, 2, 1)), jm.sum(1), jm.sum((0, 2)), jm.sum())
    for g, w in zip(got[:3], want[:3]):
        _same_bcoo(g, w, rtol=1e-5, atol=1e-5)
    _same_array(got[3], want[3])
    with pytest.raises(NotImplementedError):
        m.transpose((1, 0, 2))  # a batch axis among sparse ones: JAX's limit too
    with pytest.raises(TypeError):
        msparse.bcoo_transpose(m, permutation=(0, 0, 1))


DOTS = [  # (sparse shape, n_batch, dense shape, dimension_numbers, sparse on the left)
    ((3, 4), 0, (2, 3), (([1], [0]), ([], [])), False),
    ((2, 3, 4), 1, (2, 4, 5), (([2], [1]), ([0], [0])), True),
    ((2, 3, 4), 1, (3, 5), (([1], [0]), ([], [])), True),
]


@pytest.mark.parametrize("case", DOTS, ids=lambda c: f"{c[0]}x{c[2]}{'L' if c[4] else 'R'}")
def test_dot_general(case):
    sshape, n_batch, dshape, dn, left = case
    x, y = _dense(sshape, seed=4), _dense(dshape, seed=5, density=1.0)
    jm = _fromdense(jsparse, x, n_batch)
    m = _fromdense(msparse, x, n_batch)
    want = jsparse.bcoo_dot_general(jm, y, dimension_numbers=dn) if left else \
        jsparse.bcoo_dot_general(y, jm, dimension_numbers=dn)
    dense = jax.lax.dot_general(x, y, dn) if left else jax.lax.dot_general(y, x, dn)
    _same_array(want, dense)

    def f(data, other):
        mm = msparse.BCOO((data, m.indices), shape=m.shape)
        return msparse.bcoo_dot_general(mm, other, dimension_numbers=dn) if left else \
            msparse.bcoo_dot_general(other, mm, dimension_numbers=dn)
    _same_array(mlax.jit(f)(m.data, y), want)

    # Gradients with respect to data and to the dense operand, as JAX's.
    def jloss(data, other):
        mm = jsparse.BCOO((data, jm.indices), shape=jm.shape)
        out = jsparse.bcoo_dot_general(mm, other, dimension_numbers=dn) if left else \
            jsparse.bcoo_dot_general(other, mm, dimension_numbers=dn)
        return jnp.sum(jnp.sin(out))
    mloss = lambda d, o: mnp.sum(mnp.sin(f(d, o)))  # noqa: E731
    gd, go = mlax.jit(mlax.grad(mloss, argnums=(0, 1)))(m.data, y)
    wd, wo = jax.grad(jloss, argnums=(0, 1))(jm.data, y)
    _same_array(gd, wd)
    _same_array(go, wo)


def test_matmul_operators_and_grad_fd():
    x, v, b = _dense((3, 4), seed=6), _dense((4,), 7, 1.0), _dense((2, 3), 8, 1.0)
    jm, m = _fromdense(jsparse, x), _fromdense(msparse, x)
    _same_array(m @ v, jm @ v)  # eagerly
    xb = _dense((2, 3, 4), seed=9)
    yb = _dense((2, 4, 2), seed=10, density=1.0)
    # A vector against a batched matrix: contracted with its last (or, on
    # the left, its next-to-last) dimension, no batch dimensions to match.
    vb, wb = _dense((4,), 14, 1.0), _dense((3,), 15, 1.0)

    def f(m, v, b, mb0, mb1, vb, wb):  # (one program a library)
        return ((m @ v, b @ m, m @ v[:, None], mb1 @ yb) +
                tuple(out for mb in (mb0, mb1) for out in (mb @ vb, wb @ mb)))
    args = [(_fromdense(lib, x), v, b, _fromdense(lib, xb, 0), _fromdense(lib, xb, 1), vb, wb)
            for lib in (msparse, jsparse)]
    for g, w in zip(mlax.jit(f)(*args[0]), jax.jit(f)(*args[1])):
        _same_array(g, w)

    # d/d data of sum((M @ v)^2), against central finite differences.
    loss = mlax.jit(lambda d: mnp.sum((msparse.BCOO((d, m.indices), shape=m.shape) @ v) ** 2))
    g = np.asarray(mlax.jit(mlax.grad(loss))(m.data))
    d0, eps = np.asarray(m.data, np.float64), 1e-3
    fd = [(float(loss((d0 + eps * e).astype(np.float32))) -
           float(loss((d0 - eps * e).astype(np.float32)))) / (2 * eps)
          for e in np.eye(d0.size)]
    np.testing.assert_allclose(g, fd, rtol=1e-2, atol=1e-2)


def test_elementwise():
    x = _dense((2, 3, 4), seed=11)
    y = _dense((2, 3, 4), seed=12, density=1.0)
    row = _dense((4,), seed=13, density=1.0)
    jm, m = _fromdense(jsparse, x, 1), _fromdense(msparse, x, 1)
    got = mlax.jit(lambda m, y, r: (m * y, 2.0 * m, m * r, -m, m.astype(np.float16), m / 2.0,
                                    msparse.bcoo_multiply_dense(m, y), abs(m)))(m, y, row)
    want = (jm * y, 2.0 * jm, jm * row, -jm, jm.astype(np.float16), jm / 2.0,
            jsparse.bcoo_multiply_dense(jm, y), abs(jm))
    for g, w in zip(got[:6] + got[7:], want[:6] + want[7:]):
        _same_bcoo(g, w, rtol=1e-3, atol=1e-3)
    _same_array(got[6], want[6])


def test_multiply_sparse_and_sampled():
    x1, x2 = _dense((3, 4), seed=14), _dense((3, 4), seed=15)
    j1, j2 = _fromdense(jsparse, x1), _fromdense(jsparse, x2)
    m1, m2 = _fromdense(msparse, x1), _fromdense(msparse, x2)
    got = mlax.jit(lambda a, b: (a * b, msparse.bcoo_multiply_sparse(a, b)))(m1, m2)
    want = jax.jit(lambda a, b: (a * b, jsparse.bcoo_multiply_sparse(a, b)))(j1, j2)
    _same_bcoo(got[0], want[0])
    _same_bcoo(got[1], want[1])
    _same_array(got[0].todense(), x1 * x2)

    a, b = _dense((3, 5), 16, 1.0), _dense((5, 4), 17, 1.0)
    dn = (([1], [0]), ([], []))
    f = lambda a, b, i: msparse.bcoo_dot_general_sampled(a, b, i, dimension_numbers=dn)  # noqa
    jf = lambda a, b, i: jsparse.bcoo_dot_general_sampled(a, b, i, dimension_numbers=dn)  # noqa
    _same_array(mlax.jit(f)(a, b, m1.indices), jax.jit(jf)(a, b, j1.indices))
    gm = mlax.jit(mlax.grad(lambda a, b: mnp.sum(f(a, b, m1.indices) ** 2),
                            argnums=(0, 1)))(a, b)
    gj = jax.jit(jax.grad(lambda a, b: jnp.sum(jf(a, b, j1.indices) ** 2),
                          argnums=(0, 1)))(a, b)
    _same_array(gm[0], gj[0])
    _same_array(gm[1], gj[1])


SPDOTS = [  # (lhs shape, n_batch, rhs shape, n_batch, dimension_numbers)
    ((3, 4), 0, (4, 5), 0, (([1], [0]), ([], []))),
    ((4,), 0, (4,), 0, (([0], [0]), ([], []))),                  # every sparse axis contracted
    ((2, 3, 4), 1, (2, 4, 5), 1, (([2], [1]), ([0], [0]))),      # batched
    ((2, 3, 4), 1, (5, 4), 0, (([2], [1]), ([], []))),           # lhs batch kept
    ((3, 4), 0, (2, 5), 0, (([], []), ([], []))),                # outer product
]


def test_dot_general_of_two_sparse():
    """bcoo_dot_general of two BCOO arrays is JAX's bcoo_spdot_general: a
    BCOO with the same nse, layout, flags, indices and data; and A @ B."""
    xs = [(_dense(ls, seed=30), _dense(rs, seed=31)) for ls, _, rs, _, _ in SPDOTS]
    ops = [(_fromdense(lib, x, lnb), _fromdense(lib, y, rnb))
           for lib in (msparse, jsparse) for (x, y), (_, lnb, _, rnb, _) in zip(xs, SPDOTS)]
    mops, jops = ops[:len(SPDOTS)], ops[len(SPDOTS):]

    def f(sp):
        return lambda ops: [sp.bcoo_dot_general(a, b, dimension_numbers=c[-1])
                            for (a, b), c in zip(ops, SPDOTS)] + [ops[0][0] @ ops[0][1]]
    got = mlax.jit(f(msparse))(mops)
    for g, w in zip(got, jax.jit(f(jsparse))(jops)):
        _same_bcoo(g, w, rtol=1e-5, atol=1e-5)
    for g, (x, y), (*_, dn) in zip(got, xs, SPDOTS):
        _same_array(_todense(g), np.asarray(jax.lax.dot_general(x, y, dn)))
    # What JAX's refuses (under jit: eagerly it fails an assertion first),
    # mlax's refuses with its error.
    for jit, lib, m in ((mlax.jit, msparse, mops), (jax.jit, jsparse, jops)):
        (a, _), (_, b) = m[0], m[2]
        c = lib.BCOO((np.ones((2, 3), np.float32), np.array([[0], [2]], np.int32)),
                     shape=(4, 3))
        with pytest.raises(ValueError, match="cannot have unused batch dims on rhs"):
            jit(lambda a, b: lib.bcoo_dot_general(a, b, dimension_numbers=(
                ([1], [1]), ([], []))))(a, b)
        with pytest.raises(NotImplementedError, match="with dense dimensions"):
            jit(lambda a, c: lib.bcoo_dot_general(a, c, dimension_numbers=(
                ([1], [0]), ([], []))))(a, c)


def test_grad_todense_and_fromdense():
    x = _dense((3, 4), seed=18)
    m = _fromdense(msparse, x)
    jm = _fromdense(jsparse, x)
    w = _dense((3, 4), 19, 1.0)

    def loss(mod, np_):
        def f(data, dense):
            sp = mod.BCOO((data, m.indices if mod is msparse else jm.indices), shape=(3, 4))
            back = mod.BCOO.fromdense(dense, nse=m.nse)
            return np_.sum(sp.todense() * w) + np_.sum(back.data ** 2)
        return f
    gm = mlax.grad(loss(msparse, mnp), argnums=(0, 1))(m.data, x)
    gj = jax.grad(loss(jsparse, jnp), argnums=(0, 1))(jm.data, x)
    _same_array(gm[0], gj[0])
    _same_array(gm[1], gj[1])


def test_vmap():
    x = _dense((3, 4), seed=20)
    vs = _dense((5, 4), 21, 1.0)
    xs = _dense((5, 3, 4), seed=22)
    m, jm = _fromdense(msparse, x), _fromdense(jsparse, x)
    nse = int(_fromdense(jsparse, xs, 1).nse)

    def f(mod, vmap, m):
        def g(vs, xs):
            return (vmap(lambda v: m @ v)(vs),
                    vmap(lambda a: mod.BCOO.fromdense(a, nse=nse).todense() * 2)(xs),
                    vmap(lambda a: mod.BCOO.fromdense(a, nse=nse).data)(xs))
        return g
    got = mlax.jit(f(msparse, mlax.vmap, m))(vs, xs)
    want = jax.jit(f(jsparse, jax.vmap, jm))(vs, xs)
    for g, w in zip(got, want):
        _same_array(g, w)
    _same_array(got[1], xs * 2)


def test_vmap_maps_bcoo_batch_dimensions():
    """vmap maps a BCOO argument along a batch dimension (data and indices
    together) and makes a BCOO result's mapped axis a batch dimension, as
    JAX's (its BCOO is vmappable): in_axes and out_axes at every batch
    position, under jit, nested, with a dense argument, and under grad."""
    x = _dense((2, 3, 4), seed=24, density=0.5)
    v = _dense((4,), 25, 1.0)

    def f(mod, vmap, np_):
        def g(m, v):
            return (vmap(lambda a: a.todense())(m),
                    vmap(lambda a: a, in_axes=1)(m),                  # a BCOO result
                    vmap(lambda a: a * 2., out_axes=1)(m),
                    vmap(lambda a: a.sum(0), in_axes=1)(m),
                    vmap(lambda a, w: a @ w, in_axes=(0, None))(m, v),
                    vmap(vmap(lambda a: a.todense()))(m),
                    vmap(lambda a, w: mlax_or_jax_grad(np_)(lambda w: (a @ w).sum())(w),
                         in_axes=(0, None))(m, v))
        return g
    mlax_or_jax_grad = {mnp: mlax.grad, jnp: jax.grad}.__getitem__
    m = _fromdense(msparse, x, 2)
    jm = _fromdense(jsparse, x, 2)
    got = mlax.jit(f(msparse, mlax.vmap, mnp))(m, v)
    want = jax.jit(f(jsparse, jax.vmap, jnp))(jm, v)
    for g, w in zip(got, want):
        if isinstance(w, jsparse.BCOO):
            _same_bcoo(g, w)
        else:
            _same_array(g, w)
    _same_array(got[0], x)
    eager = mlax.vmap(lambda a: a * 3., in_axes=1, out_axes=0)(m)  # eagerly, kwargs too
    _same_bcoo(eager, jax.vmap(lambda a: a * 3., in_axes=1)(jm))
    _same_array(mlax.vmap(lambda *, a: a.todense())(a=m), x)
    # A negative axis counts from the BCOO's last dimension (JAX's counts
    # from each buffer's, which maps data and indices along different axes).
    _same_bcoo(mlax.vmap(lambda a: a * 3., in_axes=-2, out_axes=-3)(m), _to_jax(eager))
    # Only batch dimensions map, as in JAX (the same ValueErrors).
    for mod, vmap, mat in ((msparse, mlax.vmap, m), (jsparse, jax.vmap, jm)):
        with pytest.raises(ValueError, match="Cannot map in_axis=2 for BCOO array with "
                                             "n_batch=2"):
            vmap(lambda a: a.todense(), in_axes=2)(mat)
        with pytest.raises(ValueError, match="cannot add out_axis=2 for BCOO array with "
                                             "n_batch=1"):
            vmap(lambda a: a, out_axes=2)(mat)
    # A mapped result with out_axes=None is vmap's usual error (JAX returns a
    # BCOO whose shape drops the mapped axis while its buffers keep it).
    with pytest.raises(ValueError):
        mlax.vmap(lambda a: a, out_axes=None)(m)


# sparsify: functions written for dense arrays, each a sparse rule (or a
# dense op beside one), on the same BCOO in both libraries.
SPARSIFIED = {
    "matvec": lambda l, n: lambda M, v: M @ v,
    "vecmat": lambda l, n: lambda M, v: v[:3] @ M,
    "jnp.dot": lambda l, n: lambda M, v: n.dot(M, v),
    "zero-preserving": lambda l, n: lambda M, v: -abs(n.sin(M)) + n.tanh(M) * n.sqrt(M * M),
    "by scalars": lambda l, n: lambda M, v: (M * 2. - M / 4.) ** 3,
    "by dense": lambda l, n: lambda M, v: M * v / (v + 1),
    "sparse + sparse": lambda l, n: lambda M, v: M + M.T.T - M * M,
    "sparse + full dense": lambda l, n: lambda M, v: M + n.outer(n.ones(3), v),
    # Dense operands the function made at the full shape (splat constants in
    # mlax's IR, as a broadcast scalar is): dense sums, as JAX's; and a
    # power by a NumPy integer (JAX's integer_pow; its exponent a convert).
    "sparse + made dense": lambda l, n: lambda M, v: (
        M + n.ones(M.shape), n.full((3, 4), 2.) + M * 2., M + n.broadcast_to(v, M.shape),
        l.lax.add(M, n.zeros_like(v, shape=(3, 4))), M ** np.int32(2)),
    "reductions": lambda l, n: lambda M, v: (M.sum(), n.sum(M, axis=0), n.mean(M)),
    "structural": lambda l, n: lambda M, v: (M.T, M.reshape(4, 3), M[1:, ::-1], M[None],
                                             n.concatenate([M, M]), n.broadcast_to(M, (2, 3, 4))),
    "astype": lambda l, n: lambda M, v: M.astype(n.int32),
    "dynamic_slice": lambda l, n: lambda M, v: l.lax.dynamic_slice(M, (v[1].astype(int), 0), (2, 2)),
    "jit inside": lambda l, n: lambda M, v: l.jit(lambda a, b: (n.tanh(a) @ b).sum() + 1)(M, v),
    "dense only": lambda l, n: lambda M, v: v * 2,
    # Two sparse operands: a BCOO product (bcoo_spdot_general); duplicate
    # indices summed before a non-linear op, not multiplied pairwise.
    "sparse @ sparse": lambda l, n: lambda M, v: (M @ M.T, n.sin(M + M.T.T),
                                                  (lambda S: S * S)(M + M.T.T)),
    "convolve": lambda l, n: lambda M, v: (n.convolve(M[0], v), l.lax.conv_general_dilated(
        M[2][None, None], v[None, None, :3], (1,), [(1, 2)])),
    "gather": lambda l, n: lambda M, v: (n.diagonal(M), M[v.astype(int)[:2]]),
    "todense": lambda l, n: lambda M, v: (sp_of(l).todense(M) + 1, sp_of(l).todense(M * 2)[0],
                                          sp_of(l).todense(v) * 2),
    # Derivatives and vmap inside, of functions closing over the sparse
    # argument (in a loop too; relu's derivative, which JAX's refuses, aside).
    "grad, vmap inside": lambda l, n: lambda M, v: (
        l.grad(lambda w: n.sin(M @ w).sum())(v),
        l.value_and_grad(lambda w: ((M @ w) ** 2).sum())(v),
        l.jvp(lambda w: M @ w, (v,), (v,)),
        l.vmap(lambda w: M @ w)(n.stack([v, v + 1])),
        l.grad(lambda w: l.lax.fori_loop(0, 2, lambda i, u: n.sin(u), M @ w).sum())(v),
        l.grad(lambda w: _custom_sin(l, n)(M @ w).sum())(v)),
    # Control flow with sparse operands: data and indices travel through it.
    "control flow": lambda l, n: lambda M, v: (
        l.lax.cond(v[1] > 0, lambda a: a * 2., lambda a: -a, M),
        l.lax.switch(2, [lambda a, w: a * w, lambda a, w: a, lambda a, w: a / 2.], M, v),
        l.lax.while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1, c[1] * 2.), (0, M)),
        l.lax.fori_loop(0, 3, lambda i, a: n.sin(a), M),                  # (a scan)
        l.lax.fori_loop(0, v[2].astype(int), lambda i, a: a * 2., M),     # (a while)
        l.lax.scan(lambda c, _: (c * 2., None), M, None, length=2)[0],
        l.lax.while_loop(lambda c: (M @ c).sum() < 100, lambda c: c + 1, v),
        l.lax.cond(v[1] > 0, lambda a: (a @ v).sum(), lambda a: a.sum(), M)),
}

# sparsify with a BCSR argument: JAX's few BCSR rules, in one program.
# (stack: a reshape taken as a broadcast, and a concatenation)
SPARSIFIED_BCSR = lambda l, n: lambda M, v: (  # noqa: E731
    M @ v, n.sin(M), -M, M ** 3, M.astype(n.int32), n.stack([M, M]), sp_of(l).todense(M))


def _custom_sin(lib, np_):
    """sin with a custom_vjp (a derivative of twice cos)."""
    f = lib.custom_vjp(np_.sin)
    f.defvjp(lambda u: (np_.sin(u), np_.cos(u)), lambda c, ct: (ct * c * 2,))
    return f


def sp_of(lib):
    return {mlax: msparse, jax: jsparse}[lib]


def test_sparsify_matches_jax():
    """sparsify runs a dense function on BCOO arguments as JAX's: the same
    results (BCOO where JAX's are, with the same buffers), under jit, in
    one program per library; eagerly; and with grad and vmap around it."""
    x = np.array([[0., 1., 0., 2.], [3., 0., 0., 0.], [0., 0., 4., 5.]], np.float32)
    v = np.arange(4, dtype=np.float32)

    def run(lib, np_, sp):  # (a program per case compiles faster than one for all)
        return {k: lib.jit(sp.sparsify(f(lib, np_)))(_fromdense(sp, x), v)
                for k, f in SPARSIFIED.items()}
    got = run(mlax, mnp, msparse)
    want = run(jax, jnp, jsparse)
    got["BCSR"] = mlax.jit(msparse.sparsify(SPARSIFIED_BCSR(mlax, mnp)))(_bcsr(msparse, x), v)
    want["BCSR"] = jax.jit(jsparse.sparsify(SPARSIFIED_BCSR(jax, jnp)))(_bcsr(jsparse, x), v)
    sparse_types = (msparse.BCOO, jsparse.BCOO, msparse.BCSR, jsparse.BCSR)
    for k in got:
        g, w = (jax.tree_util.tree_leaves(o, is_leaf=lambda z: isinstance(z, sparse_types))
                for o in (got[k], want[k]))
        assert len(g) == len(w), k
        for a, b in zip(g, w):
            if isinstance(b, jsparse.BCOO):
                _same_bcoo(a, b, rtol=1e-5, atol=1e-5)
                _same_array(_todense(a), np.asarray(b.todense()))
            elif isinstance(b, jsparse.BCSR):
                assert isinstance(a, msparse.BCSR) and a.shape == b.shape, k
                for x_, y_ in zip(a._bufs, b._bufs):
                    _same_array(x_, y_)
            else:
                _same_array(a, b)
                assert getattr(a, "weak_type", False) == getattr(b, "weak_type", False), k
    # Eagerly, and transformed: grad over the dense argument and over the
    # sparse data, vmap over the dense argument.
    m, jm = _fromdense(msparse, x), _fromdense(jsparse, x)
    fm = msparse.sparsify(lambda M, v: (mnp.sin(M) * 2. + M) @ v)
    fj = jsparse.sparsify(lambda M, v: (jnp.sin(M) * 2. + M) @ v)
    _same_array(fm(m, v), fj(jm, v))

    def transformed(lib, sp, f):
        def g(M, v, vs):
            return (lib.grad(lambda v: f(M, v).sum())(v),
                    lib.grad(lambda d: f(sp.BCOO((d, M.indices), shape=M.shape), v).sum())(
                        M.data),
                    lib.vmap(f, in_axes=(None, 0))(M, vs))
        return g
    vs = np.stack([v, v + 1])
    for a, b in zip(mlax.jit(transformed(mlax, msparse, fm))(m, v, vs),
                    jax.jit(transformed(jax, jsparse, fj))(jm, v, vs)):
        _same_array(a, b)


def test_sparsify_errors():
    """What would densify is JAX's NotImplementedError, with its message;
    what mlax does not build yet is a NotImplementedError naming it."""
    x = np.array([[0., 1.], [2., 0.]], np.float32)
    cases = [  # (function, what the message starts with; JAX's where it has one)
        (lambda l, n: lambda M: n.cos(M), "sparse rule for cos is not implemented because it "
                                          "would result in dense output"),
        (lambda l, n: lambda M: M > 0, "sparse rule for gt is not implemented because"),
        (lambda l, n: lambda M: M + 1., "Addition between a sparse array X and a dense array Y"),
        (lambda l, n: lambda M: n.float32(1) + M, "Addition between a sparse array X and a "
                                                   "dense array Y"),
        (lambda l, n: lambda M: l.lax.add(M, 1.), "Addition between a sparse array X and a "
                                                  "dense array Y"),
        (lambda l, n: lambda M: M + n.ones(2), "Addition between a sparse array X and a "
                                               "dense array Y"),
        (lambda l, n: lambda M: M - n.ones(M.shape), "Subtraction between sparse and dense "
                                                     "array."),
        (lambda l, n: lambda M: M ** 2., "sparse rule for pow is not implemented."),
        (lambda l, n: lambda M: l.lax.pow(M, 3.), "sparse rule for pow is not implemented."),
        (lambda l, n: lambda M: 2. / M, "Division by a sparse array is not implemented"),
        (lambda l, n: lambda M: l.nn.relu(M), "sparse rule for max is not implemented."),
        (lambda l, n: lambda M: l.lax.scan(lambda c, r: (c * r, None), M, n.ones((2, 2))),
         "sparse rule for scan with x values."),
        (lambda l, n: lambda M: M ** -1, "sparse rule for integer_pow with non-positive "
                                         "exponent -1 is not implemented because"),
        (lambda l, n: lambda M: M ** 0.5, "sparse rule for pow is not implemented."),
        # BCSR: JAX's few rules.
        (lambda l, n: lambda M: M * 2., "sparse rule for mul is not implemented.", "BCSR"),
        (lambda l, n: lambda M: M.T, "sparse rule for transpose is not implemented.", "BCSR"),
        (lambda l, n: lambda M: n.ones(2) @ M, "bcsr_dot_general currently implemented for "
                                              "BCSR lhs and ndarray rhs.", "BCSR"),
        (lambda l, n: lambda M: M.reshape(4), "sparse rule for reshape is not implemented.",
         "BCSR"),
        (lambda l, n: lambda M: l.jit(lambda a: a)(M), "sparse rule for jit is not "
                                                      "implemented.", "BCSR"),
    ]
    for make, message, *fmt in cases:
        for lib, np_, sp in ((mlax, mnp, msparse), (jax, jnp, jsparse)):
            cls = getattr(sp, fmt[0] if fmt else "BCOO")
            with pytest.raises(NotImplementedError, match=message.replace(".", r"\.")):
                sp.sparsify(make(lib, np_))(_fromdense(sp, x) if cls is sp.BCOO
                                            else _bcsr(sp, x))
    # What JAX's refuses otherwise (a verifier error, a bug) or mlax does
    # not build: errors that say so.
    m = _fromdense(msparse, x)
    for f, err, what in (
            (lambda M: mlax.lax.scan(lambda c, _: (c, c), M, None, length=2),
             NotImplementedError, "a scan whose stacked outputs"),
            (lambda M: mlax.lax.fori_loop(0, 2, lambda i, a: a @ a, M), TypeError,
             "carry input and carry output must have the same pytree structure"),
            (lambda M: mlax.lax.cond(True, lambda a: a, lambda a: a + a.T, M), TypeError,
             "must have the same pytree structure")):
        with pytest.raises(err, match=what):
            msparse.sparsify(f)(m)
    with pytest.raises(NotImplementedError, match="COO"):
        msparse.sparsify(lambda M: M * 2)(msparse.COO.fromdense(x))


def test_constructors():
    eyes = (dict(k=-2), dict(M=5, k=4), dict(M=2, k=5), dict(n_batch=1, k=1))
    rands = (dict(n_batch=1, nse=3, sorted_indices=True),)  # (each ~2 s of compile a side)

    def build(mod):
        return ([mod.eye(4, **kw) for kw in eyes] +
                [mod.empty((2, 3, 4), n_batch=1, nse=2, dtype=np.int32), mod.empty((3, 4))])

    def rand(mod, key):
        return [mod.random_bcoo(key, (2, 5, 3), **kw) for kw in rands]
    got = build(msparse) + mlax.jit(lambda k: rand(msparse, k))(mlax.random.PRNGKey(1))
    want = jax.jit(lambda k: build(jsparse) + rand(jsparse, k))(jax.random.PRNGKey(1))
    for g, w in zip(got, want):
        _same_bcoo(g, w)
    with pytest.raises(ValueError):
        jsparse.empty((2, 2), sparse_format="nope")
    with pytest.raises(ValueError):
        msparse.empty((2, 2), sparse_format="nope")


def test_pytree_jit_and_grad_of_bcoo():
    x = _dense((3, 4), seed=23)
    m, jm = _fromdense(msparse, x), _fromdense(jsparse, x)
    leaves, tree = mlax.tree_util.tree_flatten(m)
    assert len(leaves) == 2 and isinstance(mlax.tree_util.tree_unflatten(tree, leaves),
                                           msparse.BCOO)
    # A BCOO argument holds integer indices: grad needs allow_int, as in JAX.
    with pytest.raises(TypeError):
        jax.grad(lambda m: jnp.sum(m.todense() ** 2))(jm)
    with pytest.raises(TypeError):
        mlax.grad(lambda m: mnp.sum(m.todense() ** 2))(m)
    g = mlax.grad(lambda m: mnp.sum(m.todense() ** 2), allow_int=True)(m)
    jg = jax.grad(lambda m: jnp.sum(m.todense() ** 2), allow_int=True)(jm)
    np.testing.assert_allclose(g.data, jg.data, rtol=1e-6)
    assert g.indices.dtype == jg.indices.dtype == jax.dtypes.float0
    assert m.size == 12 and len(m) == 3 and m.ndim == 2
    with pytest.raises(TypeError):
        hash(m)


def test_errors():
    x = _dense((3, 4))
    m, jm = _fromdense(msparse, x), _fromdense(jsparse, x)
    bad = np.ones((5,), np.float32)
    for fn, j in ((lambda: m @ bad, lambda: jm @ bad),
                  (lambda: msparse.BCOO((m.data[:2], m.indices), shape=(3, 4)),
                   lambda: jsparse.BCOO((jm.data[:2], jm.indices), shape=(3, 4))),
                  (lambda: msparse.bcoo_extract(m, np.ones((4, 3))),
                   lambda: jsparse.bcoo_extract(jm, np.ones((4, 3)))),
                  (lambda: msparse.bcoo_extract(x, x), lambda: jsparse.bcoo_extract(x, x)),
                  (lambda: msparse.BCOO.fromdense(x, n_dense=1) @ np.ones((3,), np.float32),
                   lambda: jsparse.BCOO.fromdense(x, n_dense=1) @ np.ones((3,), np.float32)),
                  (lambda: m * np.ones((5, 3, 4), np.float32),
                   lambda: jm * np.ones((5, 3, 4), np.float32)),
                  (lambda: msparse.random_bcoo(mlax.random.PRNGKey(0), (2, 3), nse=7),
                   lambda: jsparse.random_bcoo(jax.random.PRNGKey(0), (2, 3), nse=7))):
        with pytest.raises(Exception) as want:
            j()
        with pytest.raises(want.type):
            fn()

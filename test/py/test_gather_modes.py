"""Gather and scatter modes against JAX: lax.gather(mode="fill"),
x.at[idx].get(mode="fill", fill_value=...), mnp.take / take_along_axis in
mode "fill", and scatter modes "clip" / "fill" / "drop" /
"promise_in_bounds" (x.at[idx].set/add/...). Values, dtypes, weak types,
eagerly and under jit, gradients (against JAX and float64 finite
differences) and vmap."""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from _helpers import jax_outcomes, jgrad, jvmap

import mlax
import mlax.lax as mlax_lax
import mlax.numpy as mnp


def _check(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    if got.dtype.kind in "fc":
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, want)


def _both_modes(f, *args):
    """f(mnp, *args) eagerly and under mlax.jit."""
    return [f(mnp, *[mnp.asarray(a) for a in args]),
            mlax.jit(lambda *a: f(mnp, *a))(*args)]


X = np.arange(5.0, dtype=np.float32)
X2 = np.arange(12.0, dtype=np.float32).reshape(3, 4)

GET_CASES = [
    ("static_oob", lambda n, a: a.at[7].get(mode="fill")),
    ("static_neg_oob", lambda n, a: a.at[-6].get(mode="fill")),
    ("static_neg_in", lambda n, a: a.at[-1].get(mode="fill")),
    ("array", lambda n, a: a.at[n.array([-1, 5, -6, 2])].get(mode="fill", fill_value=-9)),
    ("array_default_fill", lambda n, a: a.at[n.array([[0, 5], [4, -7]])].get(mode="fill")),
    ("slice_and_array", lambda n, a: a.reshape(1, 5).at[n.array([0, 1]), 1:3].get(
        mode="fill", fill_value=0)),
    ("broadcast_pair", lambda n, a: a.reshape(5, 1).at[n.array([[0], [7]]),
                                                      n.array([0, 1])].get(mode="fill")),
    ("int32", lambda n, a: a.astype(n.int32).at[n.array([9, 1])].get(mode="fill")),
    ("int8", lambda n, a: a.astype(n.int8).at[n.array([9, 1])].get(mode="fill")),
    ("uint8", lambda n, a: a.astype(n.uint8).at[n.array([9, 1])].get(mode="fill")),
    ("bool", lambda n, a: (a > 2).at[n.array([9, 1])].get(mode="fill")),
    ("drop_alias", lambda n, a: a.at[n.array([9, 1])].get(mode="drop")),
    ("weak", lambda n, a: (a * 0 + 1.0).at[n.array([9, 1])].get(mode="fill")),
    ("clip", lambda n, a: a.at[n.array([9, -9, 1])].get(mode="clip")),
    ("take", lambda n, a: n.take(a, n.array([1, 7, -1, -9]), mode="fill")),
    ("take_fill_value", lambda n, a: n.take(a, n.array([1, 7, -1, -9]), mode="fill",
                                            fill_value=3)),
    ("take_default", lambda n, a: n.take(a, n.array([1, 7, -1, -9]))),
    ("take_along_axis", lambda n, a: n.take_along_axis(a, n.array([1, 7, -1, -9]), axis=0,
                                                       mode="fill")),
    ("take_along_axis_2d", lambda n, a: n.take_along_axis(
        a.reshape(1, 5), n.array([[1, 7, -1]]), axis=1, mode="fill", fill_value=-1)),
]
# JAX's results in one jitted program (jax_outcomes).
GET_TABLE = [(lambda a, f=f: f(jnp, a), (X,), {}) for _, f in GET_CASES]


@pytest.mark.parametrize("case", GET_CASES, ids=[c[0] for c in GET_CASES])
def test_get_fill_matches_jax(case):
    _, f = case
    want = jax_outcomes(GET_TABLE)[GET_CASES.index(case)]
    for got in _both_modes(f, X):
        _check(got, want)
        assert got.weak_type == want.weak_type


def _gdn(lx):
    return lx.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,),
                                     start_index_map=(0, 1))


# Starts of (1, 2) windows into a (3, 4) operand: in bounds, at the edge,
# negative, past the end in either dimension.
GIDX = np.array([[0, 1], [2, 2], [-1, 0], [1, 3], [3, 0], [0, -2]], np.int32)


@pytest.mark.parametrize("fill_value", [None, 5.0, -1])
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.uint8, np.bool_])
def test_lax_gather_fill_matches_jax(dtype, fill_value):
    op = (X2 % 7).astype(dtype)
    want = jax.lax.gather(op, GIDX, _gdn(jax.lax), (1, 2), mode="fill",
                          fill_value=fill_value)
    for mode in (mlax_lax.GatherScatterMode.FILL_OR_DROP, "fill",
                 jax.lax.GatherScatterMode.FILL_OR_DROP):
        got = mlax_lax.gather(mnp.asarray(op), GIDX, _gdn(mlax_lax), (1, 2), mode=mode,
                              fill_value=fill_value)
        _check(got, want)
    got = mlax.jit(lambda o, i: mlax_lax.gather(o, i, _gdn(mlax_lax), (1, 2), mode="fill",
                                                fill_value=fill_value))(op, GIDX)
    _check(got, want)


def test_lax_gather_fill_with_batching_dims():
    op = np.arange(24.0, dtype=np.float32).reshape(2, 3, 4)
    idx = np.array([[[0], [3]], [[2], [-1]]], np.int32)  # (batch 2, 2 starts, 1)
    dn = dict(offset_dims=(2,), collapsed_slice_dims=(1,), operand_batching_dims=(0,),
              start_indices_batching_dims=(0,), start_index_map=(1,))
    want = jax.lax.gather(op, idx, jax.lax.GatherDimensionNumbers(**dn), (1, 1, 4),
                          mode="fill")
    got = mlax_lax.gather(op, idx, mlax_lax.GatherDimensionNumbers(**dn), (1, 1, 4),
                          mode="fill")
    _check(got, want)
    assert np.isnan(np.asarray(got)[0, 1]).all() and np.isnan(np.asarray(got)[1, 1]).all()


def test_lax_gather_fill_grad_and_vmap():
    def jf(o, i):
        return jnp.sum(jnp.sin(jax.lax.gather(o, i, _gdn(jax.lax), (1, 2), mode="fill",
                                              fill_value=0.0)) * jnp.arange(12.0).reshape(6, 2))

    def mf(o, i):
        return mnp.sum(mnp.sin(mlax_lax.gather(o, i, _gdn(mlax_lax), (1, 2), mode="fill",
                                               fill_value=0.0)) * mnp.arange(12.0).reshape(6, 2))

    _check(mlax.grad(mf)(X2, GIDX), jax.grad(jf)(X2, GIDX))
    _check(mlax.jit(mlax.grad(mf))(X2, GIDX), jax.grad(jf)(X2, GIDX))
    # Forward mode too (the fill is a constant: no tangent there).
    t = np.ones_like(X2)
    _, jt = jax.jvp(lambda o: jf(o, GIDX), (X2,), (t,))
    _, mt = mlax.jvp(lambda o: mf(o, GIDX), (X2,), (t,))
    np.testing.assert_allclose(float(mt), float(jt), rtol=1e-5)
    ops = np.stack([X2, X2 + 1, -X2])
    idxs = np.stack([GIDX, GIDX[::-1], GIDX + 1])
    for in_axes in [(0, 0), (0, None), (None, 0)]:
        args = (ops if in_axes[0] == 0 else X2, idxs if in_axes[1] == 0 else GIDX)
        want = jax.vmap(lambda o, i: jax.lax.gather(o, i, _gdn(jax.lax), (1, 2), mode="fill"),
                        in_axes)(*args)
        got = mlax.vmap(lambda o, i: mlax_lax.gather(o, i, _gdn(mlax_lax), (1, 2),
                                                     mode="fill"), in_axes)(*args)
        _check(got, want)
    _check(mlax.vmap(mlax.grad(mf), (0, None))(ops, GIDX),
           jax.vmap(jax.grad(jf), (0, None))(ops, GIDX))


def _fd_grad(f, x, h=1e-6):
    x = np.asarray(x, np.float64)
    g = np.zeros_like(x)
    for k in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[k] = h
        g[k] = (f(x + e) - f(x - e)) / (2 * h)
    return g



GRAD_CASES = [
    ("at_get_fill", lambda n, x: n.sum(x.at[np.array([4, 9, -1, -8, 0])].get(
        mode="fill", fill_value=2.0) ** 2)),
    ("take_fill", lambda n, x: n.sum(n.take(x, np.array([[1, 7], [-1, 3]]), mode="fill",
                                            fill_value=0.0) ** 3)),
    ("take_along_axis_fill", lambda n, x: n.sum(n.exp(n.take_along_axis(
        x, np.array([2, 6, -6, 0]), axis=0, mode="fill", fill_value=0.0)))),
    ("set_clip", lambda n, x: n.sum(n.sin(x.at[np.array([1, 7, -9])].set(
        x[2] * 3.0, mode="clip")))),
    ("add_clip", lambda n, x: n.sum(x.at[np.array([1, 7, -9, 7])].add(
        x[::-1][:4] ** 2, mode="clip") ** 2)),
    ("mul_drop", lambda n, x: n.sum(x.at[np.array([1, 7, 3])].multiply(
        x[:3], mode="drop", unique_indices=True) ** 2)),
]


@pytest.mark.parametrize("case", GRAD_CASES, ids=[c[0] for c in GRAD_CASES])
def test_mode_gradients_against_jax_and_finite_differences(case, x64):
    _, f = case
    x = np.array([0.3, -1.2, 0.7, 2.0, -0.4, 1.1], np.float64)
    jf = jax.jit(lambda v: f(jnp, v))  # JAX's references jitted: one compile each
    val = f(mnp, mnp.asarray(x))
    np.testing.assert_allclose(float(val), float(jf(x)), rtol=1e-12)
    g = mlax.grad(lambda v: f(mnp, v))(x)
    _check(g, jgrad(lambda v: f(jnp, v))(x))
    fd = _fd_grad(lambda v: float(jf(v)), x)
    np.testing.assert_allclose(np.asarray(g), fd, rtol=1e-6, atol=1e-7)
    _check(mlax.vmap(mlax.grad(lambda v: f(mnp, v)))(np.stack([x, -x])),
           jvmap(jax.grad(lambda v: f(jnp, v)))(np.stack([x, -x])))


SCATTER_CASES = [
    ("set_clip", lambda n, a: a.at[n.array([1, 7, -9])].set(10.0, mode="clip")),
    ("add_clip_repeats", lambda n, a: a.at[n.array([1, 7, -9, 9])].add(10.0, mode="clip")),
    ("max_clip", lambda n, a: a.at[n.array([1, 7])].max(n.array([-3.0, 9.0]), mode="clip")),
    ("set_promise", lambda n, a: a.at[n.array([1, 7, -9])].set(10.0,
                                                                mode="promise_in_bounds")),
    ("set_default", lambda n, a: a.at[n.array([1, 7, -9])].set(10.0)),
    ("add_drop", lambda n, a: a.at[n.array([1, 7, -9])].add(10.0, mode="drop")),
    ("add_fill", lambda n, a: a.at[n.array([1, 7, -9])].add(10.0, mode="fill")),
    ("set_clip_scalar", lambda n, a: a.at[9].set(7.0, mode="clip")),
    ("set_clip_window", lambda n, a: a.reshape(1, 5).at[n.array([3]), 1:3].set(
        7.0, mode="clip")),
    ("set_clip_2d", lambda n, a: a.reshape(1, 5).at[n.array([0, 2]), n.array([[6], [-1]])]
     .set(n.array([[1.0, 2.0], [3.0, 4.0]]), mode="clip")),
    ("set_clip_jaxenum", lambda n, a: a.at[n.array([1, 7])].set(
        1.0, mode=jax.lax.GatherScatterMode.CLIP)),
]


@pytest.mark.parametrize("case", SCATTER_CASES, ids=[c[0] for c in SCATTER_CASES])
def test_scatter_modes_match_jax(case):
    _, f = case
    want = f(jnp, jnp.asarray(X))
    for got in _both_modes(f, X):
        _check(got, want)


def test_lax_scatter_clip_matches_jax():
    op = np.zeros((3, 4), np.float32)
    idx = np.array([[0, 3], [5, 1], [-2, -2]], np.int32)
    upd = np.arange(6.0, dtype=np.float32).reshape(3, 2)

    def dn(lx):
        return lx.ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(0,),
                                          scatter_dims_to_operand_dims=(0, 1))

    for name in ("scatter", "scatter_add", "scatter_max"):
        for mode in ("clip", "fill", "promise_in_bounds"):
            want = getattr(jax.lax, name)(op, idx, upd, dn(jax.lax), mode=mode)
            got = getattr(mlax_lax, name)(op, idx, upd, dn(mlax_lax), mode=mode)
            _check(got, want)
    with pytest.raises(ValueError, match="lax.scatter_add: unknown mode"):
        mlax_lax.scatter_add(op, idx, upd, dn(mlax_lax), mode="wrap")

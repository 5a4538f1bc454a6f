"""Indexing: x[idx] (static, traced scalar, integer arrays, boolean masks),
x.at[idx].set/add/multiply/min/max/get, and the lax indexing ops (rev,
dynamic_slice, dynamic_update_slice, gather, scatter*), against NumPy and
JAX: values, gradients (jax.grad) and vmap (jax.vmap)."""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mlax
import mlax.lax as mlax_lax
import mlax.numpy as mnp
from _helpers import jax_outcomes, jgrad
from _helpers import x64 as _x64

X = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
IDX = np.array([[0, 2], [1, 1]])

GETITEM_CASES = [
    np.s_[::-1], np.s_[5:1:-2], np.s_[:, ::-2, 1], np.s_[-1:0:-1, ::3, ::-4],
    np.s_[IDX], np.s_[IDX, :, 1], np.s_[:, IDX], np.s_[1, IDX, None],
    np.s_[IDX, None, IDX], np.s_[..., [0, -1]], np.s_[[2, 0], [3, 1], [4, 0]],
    np.s_[None, [1], ::-1, 2], np.s_[:, [0, 2], ::2, None], np.s_[np.array([-1, -3])],
    np.s_[[[0]], :, [[1, 2]]], np.s_[1, ..., [0, 1]], np.s_[np.int32(1), 2],
    np.s_[np.array([], np.int32)], np.s_[:, np.zeros((2, 0), np.int32)],
]


def _ids(cases):
    return [str(i) for i in range(len(cases))]


# JAX's results of each table in one jitted program (jax_outcomes).
GETITEM_TABLE = [(lambda a, index=index: a[index], (X,), {}) for index in GETITEM_CASES]


@pytest.mark.parametrize("i", range(len(GETITEM_CASES)), ids=_ids(GETITEM_CASES))
@pytest.mark.parametrize("mode", ["eager", "jit"])
def test_getitem_matches_numpy_and_jax(i, mode):
    index = GETITEM_CASES[i]
    want = X[index]
    f = (lambda a: a[index])
    got = f(mnp.asarray(X)) if mode == "eager" else mlax.jit(f)(X)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_array_equal(np.asarray(got), want)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(jax_outcomes(GETITEM_TABLE)[i]))


def test_negative_steps_lower_to_reverse():
    text = mlax.jit(lambda a: a[::-1, 3:0:-2]).lower(X).as_text()
    assert "stablehlo.reverse" in text
    np.testing.assert_array_equal(np.asarray(mlax.jit(lambda a: a[::-1, 3:0:-2])(X)),
                                  X[::-1, 3:0:-2])


def test_mnp_flip_matches_numpy():
    np.testing.assert_array_equal(np.asarray(mnp.flip(X, (0, 2))), np.flip(X, (0, 2)))
    np.testing.assert_array_equal(np.asarray(mnp.flip(X)), np.flip(X))
    np.testing.assert_array_equal(np.asarray(jnp.flip(X, 1)), np.asarray(mnp.flip(X, 1)))


@pytest.mark.parametrize("i", [0, 2, -1, -3, 5, -7])
def test_traced_scalar_index_is_a_dynamic_slice(i):
    f = lambda a, k: a[k, 1:3, k]  # noqa: E731
    got = mlax.jit(f)(X, i)
    want = jax.jit(f)(X, i)  # JAX clamps out-of-bounds traced scalars
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
    if -3 <= i < 3:
        np.testing.assert_array_equal(np.asarray(got), X[i, 1:3, i])
    ir = str(mlax.make_ir(f)(X, i))
    assert "mlax.dynamic_slice" in ir and "mlax.gather" not in ir


def test_out_of_bounds_array_indices_clamp_as_in_jax():
    idx = np.array([7, -1, -9, 2])
    got = mlax.jit(lambda a, i: a[i])(X, idx)
    want = jnp.asarray(X)[jnp.asarray(idx)]
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


def test_traced_integer_array_index():
    idx = np.array([[2, 0], [1, 2]], np.int32)
    got = mlax.jit(lambda a, i: a[i, 1])(X, idx)
    np.testing.assert_array_equal(np.asarray(got), X[idx, 1])
    assert "mlax.gather" in str(mlax.make_ir(lambda a, i: a[i, 1])(X, idx))


def test_boolean_mask_outside_jit():
    mask = X[:, :, 0] > 13
    np.testing.assert_array_equal(np.asarray(mnp.asarray(X)[mask]), X[mask])
    np.testing.assert_array_equal(np.asarray(mnp.asarray(X)[mnp.asarray(mask)]), X[mask])
    np.testing.assert_array_equal(np.asarray(mnp.asarray(X)[:, X[0, :, 0] > 5]),
                                  X[:, X[0, :, 0] > 5])
    # a concrete NumPy mask is fine inside jit too
    np.testing.assert_array_equal(np.asarray(mlax.jit(lambda a: a[mask])(X)), X[mask])


def test_traced_boolean_mask_raises_with_advice():
    with pytest.raises(mlax.NonConcreteBooleanIndexError) as e:
        mlax.jit(lambda a: a[a > 3])(X)
    msg = str(e.value)
    assert "boolean indices must be concrete" in msg and "where" in msg
    assert "test_indexing.py" in msg
    with pytest.raises(jax.errors.NonConcreteBooleanIndexError):
        jax.jit(lambda a: a[a > 3])(X)


def test_boolean_mask_shape_mismatch():
    with pytest.raises(IndexError, match="boolean index did not match"):
        mnp.asarray(X)[np.array([True, False])]


@pytest.mark.parametrize("index,exc,match", [
    (1.5, TypeError, "Indexer must have integer or boolean type, got indexer with type float"),
    ((0, "a"), TypeError, "does not support string indexing"),
    (np.array([1.0]), TypeError, "got indexer with type float64"),
    ((0, 0, 0, 0), IndexError, "too many indices"),
    ([0, 1], TypeError, "non-tuple sequence"),
    ((np.array([0, 1]), np.array([0, 1, 2])), ValueError,
     r"Incompatible shapes for broadcasting: shapes=\[\(2,\), \(3,\)\]"),
    (1.0j, TypeError, "got indexer with type complex128"),
])
def test_bad_indices_raise_clear_errors(index, exc, match):
    with pytest.raises(exc):  # JAX's class
        jnp.asarray(X)[index]
    with pytest.raises(exc, match=match):
        mnp.asarray(X)[index]
    with pytest.raises(exc, match=match):
        mlax.jit(lambda a: a[index])(X)


@pytest.mark.parametrize("index", [True, False, np.array(False),
                                   (Ellipsis, True), (slice(None), False, None),
                                   (True, Ellipsis, False), (slice(1, None), True, True)],
                         ids=str)
def test_scalar_boolean_indices_add_an_axis(index):
    want = jnp.asarray(X)[index]
    for got in (mnp.asarray(X)[index], mlax.jit(lambda a: a[index])(X)):
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


def test_scalar_boolean_index_gradient():
    g = mlax.grad(lambda a: (a[True] ** 2).sum())(X)
    np.testing.assert_allclose(g, jax.grad(lambda a: (a[True] ** 2).sum())(X))
    # (JAX fails an internal assertion on a NumPy boolean scalar: NumPy is the reference)
    np.testing.assert_array_equal(mnp.asarray(X)[np.bool_(True)], X[np.bool_(True)])


def test_item_assignment_points_at_at():
    x = mnp.asarray(X)
    with pytest.raises(TypeError, match=r"x\.at\[idx\]\.set\(y\)"):
        x[0] = 5


# ---------------------------------------------------------------------------
# .at
# ---------------------------------------------------------------------------

AT_INDICES = [np.s_[1], np.s_[IDX], np.s_[:, [0, 0, 3], 1::2], np.s_[::-1, 2],
              np.s_[np.array([5, -1, -9])], np.s_[None, 1, [1, 2]], np.s_[..., 0],
              np.s_[[0, 0, 2], [1, 1, 3]], np.s_[:]]


AT_METHODS = ["set", "add", "multiply", "min", "max", "get"]
AT_TABLE = [(lambda a, index=index, method=method: getattr(a.at[index], method)(
    *(() if method == "get" else (7.0,))), (X,), {}) for index in AT_INDICES
    for method in AT_METHODS]


@pytest.mark.parametrize("method", AT_METHODS)
@pytest.mark.parametrize("i", range(len(AT_INDICES)), ids=_ids(AT_INDICES))
def test_at_matches_jax(method, i):
    index = AT_INDICES[i]
    xm = mnp.asarray(X)
    args = () if method == "get" else (7.0,)
    want = jax_outcomes(AT_TABLE)[i * len(AT_METHODS) + AT_METHODS.index(method)]
    got = getattr(xm.at[index], method)(*args)
    got_jit = mlax.jit(lambda a: getattr(a.at[index], method)(*args))(X)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
    np.testing.assert_array_equal(np.asarray(got_jit), np.asarray(want))


@pytest.mark.parametrize("method", ["subtract", "divide", "power"])
@pytest.mark.parametrize("index", [np.s_[1], np.s_[[0, 0, 2], [1, 1, 3]], np.s_[::-1, 2]],
                         ids=["int", "repeated", "slice"])
def test_at_subtract_divide_power_match_jax(method, index):
    xm, xj = mnp.asarray(X), jnp.asarray(X)
    want = getattr(xj.at[index], method)(2.0)
    for got in (getattr(xm.at[index], method)(2.0),
                mlax.jit(lambda a: getattr(a.at[index], method)(2.0))(X)):
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-6)


def test_at_subtract_divide_power_dtypes_and_grad_as_jax():
    for f in (lambda n: n.arange(4, dtype=n.uint8).at[0].subtract(1),
              lambda n: n.arange(1, 5).at[1:].divide(2),
              lambda n: n.arange(4).at[n.array([1, 3])].power(2)):
        got, want = f(mnp), f(jnp)
        assert got.dtype == want.dtype and got.weak_type == want.weak_type
        np.testing.assert_array_equal(np.asarray(got), np.asarray(want))

    def loss(lib, n):
        return lib.grad(lambda x: (x.at[2].divide(x[1]) ** 2).sum()
                        + x.at[1].subtract(x[0] * 3).sum() + x.at[0].power(3.0).sum())
    np.testing.assert_allclose(np.asarray(loss(mlax, mnp)(np.arange(1.0, 4.0))),
                               np.asarray(loss(jax, jnp)(np.arange(1.0, 4.0))), rtol=1e-6)


def test_at_with_array_updates_broadcast_and_cast():
    x = np.arange(12, dtype=np.int32).reshape(3, 4)
    upd = np.array([1.7, -2.2], np.float32)  # cast to int32, as JAX does
    got = mnp.asarray(x).at[:, np.array([0, 2])].add(upd)
    want = jnp.asarray(x).at[:, jnp.array([0, 2])].add(upd)
    assert got.dtype == np.int32
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
    got = mnp.asarray(x).at[1:].set(np.array([[10], [20]]))
    np.testing.assert_array_equal(np.asarray(got), np.asarray(jnp.asarray(x).at[1:].set(
        np.array([[10], [20]]))))


def test_at_repeated_indices_accumulate():
    x = np.zeros(4, np.float32)
    idx = np.array([1, 1, 3, 1])
    got = mnp.asarray(x).at[idx].add(1.0)
    np.testing.assert_array_equal(np.asarray(got), [0, 3, 0, 1])
    np.add.at(x, idx, 1.0)
    np.testing.assert_array_equal(np.asarray(got), x)


def test_at_on_traced_values_and_traced_indices():
    def f(a, i, v):
        return a.at[i].set(v).at[0, i].max(100.0)

    i = np.int32(2)
    got = mlax.jit(f)(X[0], i, -1.0)
    want = jax.jit(f)(X[0], i, -1.0)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


def test_at_update_shape_error():
    with pytest.raises(ValueError, match=r"cannot broadcast updates of shape \(3,\)"):
        mnp.asarray(X).at[0, 0].set(np.ones(3, np.float32))


def test_at_rejects_unsupported_modes():
    # 'clip' and 'fill' are supported (test_gather_modes.py); 'one_hot' is not.
    with pytest.raises(NotImplementedError, match=r"\.at\[\.\.\.\]\.set: mode"):
        mnp.asarray(X).at[0].set(1.0, mode="one_hot")
    with pytest.raises(NotImplementedError, match=r"\.at\[\.\.\.\]\.get: mode"):
        mnp.asarray(X).at[np.array([0])].get(mode="one_hot")
    with pytest.raises(ValueError, match=r"\.at\[\.\.\.\]\.get: unknown mode 'nearest'"):
        mnp.asarray(X).at[np.array([0])].get(mode="nearest")


# ---------------------------------------------------------------------------
# mlax.lax
# ---------------------------------------------------------------------------

def test_lax_rev():
    np.testing.assert_array_equal(np.asarray(mlax_lax.rev(X, (0, 2))),
                                  np.asarray(jax.lax.rev(X, (0, 2))))
    with pytest.raises(TypeError, match="lax.rev.*distinct axes"):  # as JAX's
        mlax_lax.rev(X, (0, 0))


@pytest.mark.parametrize("starts", [(0, 0, 0), (1, 2, 3), (-1, -2, 1), (5, 9, -9)])
def test_lax_dynamic_slice_and_update(starts):
    got = mlax_lax.dynamic_slice(X, starts, (2, 2, 3))
    want = jax.lax.dynamic_slice(X, starts, (2, 2, 3))
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
    upd = -np.ones((2, 2, 3), np.float32)
    got = mlax.jit(lambda x, u, *s: mlax_lax.dynamic_update_slice(x, u, s))(X, upd, *starts)
    want = jax.lax.dynamic_update_slice(X, upd, starts)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


def test_lax_dynamic_slice_errors():
    with pytest.raises(ValueError, match=r"lax.dynamic_slice.*one start index per dimension"):
        mlax_lax.dynamic_slice(X, (0, 0), (1, 1, 1))
    with pytest.raises(TypeError, match=r"lax.dynamic_slice.*do not fit"):
        mlax_lax.dynamic_slice(X, (0, 0, 0), (4, 1, 1))
    with pytest.raises(TypeError, match=r"lax.dynamic_slice.*integer scalars"):
        mlax_lax.dynamic_slice(X, (0, 0, 0.5), (1, 1, 1))
    with pytest.raises(TypeError, match=r"lax.dynamic_update_slice.*must fit"):
        mlax_lax.dynamic_update_slice(X, np.ones((4, 1, 1), np.float32), (0, 0, 0))
    with pytest.raises(TypeError, match=r"lax.dynamic_update_slice.*dtype"):
        mlax_lax.dynamic_update_slice(X, np.ones((1, 1, 1), np.int32), (0, 0, 0))


def _gather_dn(lib):
    return lib.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0, 2),
                                      start_index_map=(0, 2))


def _scatter_dn(lib):
    return lib.ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(0, 2),
                                       scatter_dims_to_operand_dims=(0, 2))


GIDX = np.array([[0, 4], [2, 1], [1, 1]], np.int32)


def test_lax_gather_matches_jax():
    got = mlax_lax.gather(X, GIDX, _gather_dn(mlax_lax), (1, 4, 1))
    want = jax.lax.gather(X, GIDX, _gather_dn(jax.lax), (1, 4, 1))
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
    np.testing.assert_array_equal(np.asarray(got), X[GIDX[:, 0], :, GIDX[:, 1]])


def test_lax_gather_with_batching_dims_matches_jax():
    idx = np.array([[1], [0], [3]], np.int32)
    dn = dict(offset_dims=(1,), collapsed_slice_dims=(1,), start_index_map=(1,),
              operand_batching_dims=(0,), start_indices_batching_dims=(0,))
    got = mlax_lax.gather(X, idx, mlax_lax.GatherDimensionNumbers(**dn), (1, 1, 5))
    want = jax.lax.gather(X, idx, jax.lax.GatherDimensionNumbers(**dn), (1, 1, 5))
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


@pytest.mark.parametrize("name", ["scatter", "scatter_add", "scatter_mul", "scatter_min",
                                  "scatter_max"])
def test_lax_scatter_matches_jax(name):
    idx = np.array([[0, 4], [2, 1], [0, 4], [9, 0]], np.int32)  # repeated and out of bounds
    upd = (np.arange(16, dtype=np.float32).reshape(4, 4) - 6) * 3
    got = getattr(mlax_lax, name)(X, idx, upd, _scatter_dn(mlax_lax))
    want = getattr(jax.lax, name)(X, idx, upd, _scatter_dn(jax.lax))
    if name == "scatter":  # which repeated update wins is unspecified: compare the rest
        idx, upd = idx[1:], upd[1:]
        got = getattr(mlax_lax, name)(X, idx, upd, _scatter_dn(mlax_lax))
        want = getattr(jax.lax, name)(X, idx, upd, _scatter_dn(jax.lax))
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


def test_lax_scatter_on_bools_and_ints():
    x = np.array([False, True, False, False])
    idx = np.array([[0], [2], [2]], np.int32)
    dn = lambda lib: lib.ScatterDimensionNumbers((), (0,), (0,))  # noqa: E731
    upd = np.array([True, True, False])
    for name in ["scatter_max", "scatter_min"]:
        got = getattr(mlax_lax, name)(x, idx, upd, dn(mlax_lax))
        want = getattr(jax.lax, name)(x, idx, upd, dn(jax.lax))
        np.testing.assert_array_equal(np.asarray(got), np.asarray(want), err_msg=name)
    # JAX rejects bools in scatter_add/mul; mlax combines them with or/and.
    np.testing.assert_array_equal(
        np.asarray(mlax_lax.scatter_add(x, idx, upd, dn(mlax_lax))), [True, True, True, False])
    np.testing.assert_array_equal(
        np.asarray(mlax_lax.scatter_mul(x, idx, upd, dn(mlax_lax))), [False, True, False, False])
    xi = np.array([5, -3, 7, 0], np.int32)
    got = mlax_lax.scatter_mul(xi, idx, np.array([2, 3, -1], np.int32), dn(mlax_lax))
    want = jax.lax.scatter_mul(xi, idx, np.array([2, 3, -1], np.int32), dn(jax.lax))
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


@pytest.mark.parametrize("call,match", [
    (lambda: mlax_lax.gather(X, GIDX.astype(np.float32), _gather_dn(mlax_lax), (1, 4, 1)),
     "start indices must be integers"),
    (lambda: mlax_lax.gather(X, GIDX, _gather_dn(mlax_lax), (1, 4)),
     "slice_sizes"),
    (lambda: mlax_lax.gather(X, GIDX, _gather_dn(mlax_lax), (2, 4, 1)),
     "needs slice size 1"),
    (lambda: mlax_lax.gather(X, GIDX, mlax_lax.GatherDimensionNumbers((), (0, 2), (0, 2)),
                             (1, 4, 1)), "offset_dims"),
    (lambda: mlax_lax.scatter_add(X, GIDX, np.ones((2, 4), np.float32),
                                  _scatter_dn(mlax_lax)), "scatter dimensions"),
    (lambda: mlax_lax.scatter_add(X, GIDX, np.ones((3, 4), np.int32), _scatter_dn(mlax_lax)),
     "dtype"),
    (lambda: mlax_lax.scatter_add(X, GIDX, np.ones((3, 6), np.float32),
                                  _scatter_dn(mlax_lax)), "exceeds operand dimension"),
])
def test_lax_gather_scatter_errors_name_the_op_and_line(call, match):
    with pytest.raises(TypeError, match=match) as e:
        call()
    assert "lax." in str(e.value) and "test_indexing.py" in str(e.value)


_XW = np.zeros((3, 4, 5), np.float32)


# (lax module) -> a call whose shape error the op's C++ shape rule reports:
# the class is JAX's, the message names the op, the phrase and the user's line.
_SHAPE_RULE_ERRORS = {
    "rev-out-of-range": (lambda L: L.rev(_XW, (3,)), "lax.rev", "out of range"),
    "dynamic-slice-negative-size": (
        lambda L: L.dynamic_slice(_XW, (0, 0, 0), (-1, 1, 1)), "lax.dynamic_slice",
        "do not fit"),
    "dynamic-update-slice-rank": (
        lambda L: L.dynamic_update_slice(_XW, np.ones((1, 1), np.float32), (0, 0, 0)),
        "lax.dynamic_update_slice", "update rank 2 differs from operand rank 3"),
    "gather-start-index-map": (
        lambda L: L.gather(_XW, GIDX, L.GatherDimensionNumbers(
            offset_dims=(1,), collapsed_slice_dims=(0, 2), start_index_map=(0,)), (1, 4, 1)),
        "lax.gather", "start_index_map"),
    "gather-unsorted-collapsed": (
        lambda L: L.gather(_XW, GIDX, L.GatherDimensionNumbers(
            offset_dims=(1,), collapsed_slice_dims=(2, 0), start_index_map=(0, 2)), (1, 4, 1)),
        "lax.gather", "collapsed_slice_dims must be sorted"),
    "scatter-window-count": (
        lambda L: L.scatter_max(_XW, GIDX, np.ones((3, 4), np.float32),
                                L.ScatterDimensionNumbers((), (0, 2), (0, 2))),
        "lax.scatter_max", "update_window_dims"),
}


@pytest.mark.parametrize("name", list(_SHAPE_RULE_ERRORS))
def test_lax_indexing_shape_rule_errors_match_jax_class(name):
    call, op, phrase = _SHAPE_RULE_ERRORS[name]
    with pytest.raises(Exception) as want:
        call(jax.lax)
    with pytest.raises(type(want.value)) as got:
        call(mlax_lax)
    message = str(got.value)
    assert op + ":" in message and phrase in message and "test_indexing.py" in message, message


def test_lax_gather_rejects_unsupported_modes():
    with pytest.raises(NotImplementedError, match="lax.gather: mode='one_hot'"):
        mlax_lax.gather(X, GIDX, _gather_dn(mlax_lax), (1, 4, 1), mode="one_hot")
    with pytest.raises(ValueError, match="lax.gather: unknown mode 'wrap'"):
        mlax_lax.gather(X, GIDX, _gather_dn(mlax_lax), (1, 4, 1), mode="wrap")


# ---------------------------------------------------------------------------
# Gradients against jax.grad
# ---------------------------------------------------------------------------

RNG = np.random.default_rng(0)
XF = RNG.standard_normal((4, 5)).astype(np.float32)
UF = RNG.standard_normal((3, 5)).astype(np.float32)

GRAD_CASES = [
    ("getitem_array", lambda np_, lx: lambda x, u: np_.sum(x[np.array([3, 0, 3])] * u)),
    ("getitem_mixed", lambda np_, lx: lambda x, u: np_.sum(x[::-1, np.array([[1], [4]])] ** 2)),
    ("at_set_dup", lambda np_, lx: lambda x, u: np_.sum(
        x.at[np.array([1, 3, 0])].set(u * 2) ** 2)),
    ("at_add_dup", lambda np_, lx: lambda x, u: np_.sum(
        np_.sin(x.at[np.array([1, 1, 0])].add(u)))),
    ("at_mul_unique", lambda np_, lx: lambda x, u: np_.sum(
        x.at[np.array([2, 0, 3])].multiply(u, unique_indices=True) ** 2)),
    ("at_max", lambda np_, lx: lambda x, u: np_.sum(x.at[np.array([2, 0, 2])].max(u) ** 3)),
    ("at_min", lambda np_, lx: lambda x, u: np_.sum(x.at[np.array([2, 0, 1])].min(u) ** 3)),
    ("dynamic_slice", lambda np_, lx: lambda x, u: np_.sum(
        lx.dynamic_slice(x, (2, 1), (3, 3)) ** 2 * u[:, :3])),
    ("dus", lambda np_, lx: lambda x, u: np_.sum(
        lx.dynamic_update_slice(x, u[:2, :3] * 3, (3, 4)) ** 2)),
]


@pytest.mark.parametrize("case", GRAD_CASES, ids=[c[0] for c in GRAD_CASES])
def test_gradients_match_jax(case):
    fm, fj = case[1](mnp, mlax_lax), case[1](jnp, jax.lax)
    gm = mlax.grad(fm, argnums=(0, 1))(XF, UF)
    gj = jgrad(fj, argnums=(0, 1))(XF, UF)
    for a, b in zip(gm, gj):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-5, atol=1e-5)
    gm = mlax.jit(mlax.grad(fm))(XF, UF)
    np.testing.assert_allclose(np.asarray(gm), np.asarray(gj[0]), rtol=1e-5, atol=1e-5)


def test_gradient_of_traced_scalar_index():
    f = lambda np_: lambda x, i: np_.sum(x[i] ** 2)  # noqa: E731
    for i in (0, 3, -2):
        gm = mlax.grad(f(mnp))(XF, i)
        gj = jax.grad(f(jnp))(XF, i)
        np.testing.assert_allclose(np.asarray(gm), np.asarray(gj), rtol=1e-6)


def test_scatter_mul_gradient_with_repeated_indices_and_zeros():
    # d/du of x.at[idx].multiply(u) with repeated indices: the product of the
    # other factors at that element (JAX only implements unique indices).
    x = np.array([2.0, 3.0, 5.0], np.float64)
    u = np.array([0.5, 4.0, 0.0, 3.0], np.float64)
    idx = np.array([0, 0, 2, 2])
    with _x64():
        gu = mlax.grad(lambda u: mnp.sum(mnp.asarray(x).at[idx].multiply(u)))(u)
        gx = mlax.grad(lambda x: mnp.sum(x.at[idx].multiply(u)))(x)
    np.testing.assert_allclose(np.asarray(gu), [2.0 * 4.0, 2.0 * 0.5, 5.0 * 3.0, 0.0])
    np.testing.assert_allclose(np.asarray(gx), [2.0, 1.0, 0.0])




# ---------------------------------------------------------------------------
# vmap against jax.vmap
# ---------------------------------------------------------------------------

def _vmap_both(f, in_axes, *args):
    got = mlax.vmap(f(mnp, mlax_lax), in_axes=in_axes)(*args)
    want = jax.vmap(f(jnp, jax.lax), in_axes=in_axes)(*args)
    assert got.shape == want.shape
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-6)


XB = RNG.standard_normal((3, 4, 5)).astype(np.float32)


def test_vmap_dynamic_slice_with_batched_starts_becomes_gather():
    starts = np.array([0, 2, 7], np.int32)
    f = lambda np_, lx: lambda x, i: lx.dynamic_slice(x, (i, 1), (2, 3))  # noqa: E731
    _vmap_both(f, (0, 0), XB, starts)
    _vmap_both(f, (None, 0), XB[0], starts)
    _vmap_both(f, (0, None), XB, np.int32(-1))
    ir = str(mlax.make_ir(mlax.vmap(f(mnp, mlax_lax), in_axes=(0, 0)))(XB, starts))
    assert "mlax.vmap" in ir  # expanded by the pass; the result checked above


def test_vmap_dynamic_update_slice_with_batched_starts():
    starts = np.array([0, 2, 7], np.int32)
    upd = RNG.standard_normal((3, 2, 3)).astype(np.float32)
    f = lambda np_, lx: lambda x, u, i: lx.dynamic_update_slice(x, u, (i, -2))  # noqa: E731
    _vmap_both(f, (0, 0, 0), XB, upd, starts)
    _vmap_both(f, (None, 0, 0), XB[0], upd, starts)
    _vmap_both(f, (0, None, None), XB, upd[0], np.int32(1))


def test_vmap_getitem_and_at_with_batched_indices():
    idx = np.array([[0, 3], [1, 1], [3, 2]], np.int32)
    f = lambda np_, lx: lambda x, i: np_.asarray(x)[i, ::-1] * 2  # noqa: E731
    _vmap_both(f, (0, 0), XB, idx)
    _vmap_both(f, (None, 0), XB[0], idx)
    _vmap_both(f, (0, None), XB, idx[0])
    g = lambda np_, lx: lambda x, i, u: np_.asarray(x).at[i].add(u)  # noqa: E731
    u = RNG.standard_normal((3, 2, 5)).astype(np.float32)
    _vmap_both(g, (0, 0, 0), XB, idx, u)
    _vmap_both(g, (None, 0, None), XB[0], idx, u[0])
    _vmap_both(g, (0, None, 0), XB, idx[0], u)
    h = lambda np_, lx: lambda x, i: np_.asarray(x)[i]  # noqa: E731
    _vmap_both(h, (0, 0), XB, np.array([0, 3, -1], np.int32))


def test_vmap_of_grad_through_gather():
    idx = np.array([[0, 3], [1, 1], [3, 2]], np.int32)
    f = lambda np_: lambda x, i: np_.sum(x[i] ** 2)  # noqa: E731
    got = mlax.vmap(mlax.grad(f(mnp)))(XB, idx)
    want = jax.vmap(jax.grad(f(jnp)))(XB, idx)
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-6)


def test_at_with_scalar_indices_and_unit_slices_is_one_window():
    f = lambda x, i, v: x.at[i, ::-1].add(v)  # noqa: E731
    x, v = np.zeros((3, 4), np.float32), np.arange(4, dtype=np.float32)
    text = mlax.jit(f).lower(x, 1, v).as_text()
    assert text.count("\"stablehlo.scatter\"(") == 1 and "update_window_dims = [0]" in text
    for i in (1, -1, 3, -4):  # out-of-bounds windows are dropped, as in JAX
        np.testing.assert_array_equal(np.asarray(mlax.jit(f)(x, i, v)),
                                      np.asarray(jax.jit(f)(x, i, v)))

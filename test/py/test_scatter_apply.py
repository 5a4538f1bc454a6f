"""lax.scatter_apply and `.at[idx].apply(func)` against JAX: repeated indices
(func applied once per hit), out-of-bounds modes, slices and scalar indices,
integer dtypes, unique_indices / indices_are_sorted, eagerly, under jit and
under vmap."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mlax
import mlax.numpy as mnp


def _aff(v):
    return v * 2 + 1


CASES = {
    "repeated": (np.arange(5.0, dtype=np.float32), np.array([1, 1, 3]), {}),
    "repeated3": (np.arange(5.0, dtype=np.float32), np.array([4, 1, 4, 4]), {}),
    "oob_default": (np.arange(5.0, dtype=np.float32), np.array([1, 1, 3, 7]), {}),
    "oob_drop": (np.arange(5.0, dtype=np.float32), np.array([1, 7, -9]), {"mode": "drop"}),
    "oob_clip": (np.arange(5.0, dtype=np.float32), np.array([1, 1, 3, 7]), {"mode": "clip"}),
    "negative": (np.arange(5.0, dtype=np.float32), np.array([-1, 0, -1]), {}),
    "slice": (np.arange(5.0, dtype=np.float32), slice(1, 4), {}),
    "scalar": (np.arange(5, dtype=np.int32), 2, {}),
    "unique": (np.arange(5.0, dtype=np.float32), np.array([0, 2]),
               {"unique_indices": True, "indices_are_sorted": True}),
    "rows_2d": (np.arange(12.0, dtype=np.float32).reshape(3, 4), np.array([2, 0, 2]), {}),
    "int_2d": (np.arange(12, dtype=np.int32).reshape(3, 4),
               (np.array([0, 0, 2]), np.array([1, 1, 3])), {}),
}


def _index(np_, idx):
    if isinstance(idx, tuple):
        return tuple(np_.asarray(i) for i in idx)
    return np_.asarray(idx) if isinstance(idx, np.ndarray) else idx


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("jit", [False, True])
def test_at_apply_matches_jax(case, jit):
    x, idx, kw = CASES[case]

    def f(np_):
        return lambda x: x.at[_index(np_, idx)].apply(_aff, **kw)
    jf, mf = f(jnp), f(mnp)
    if jit:
        jf, mf = jax.jit(jf), mlax.jit(mf)
    want, got = jf(jnp.asarray(x)), mf(mnp.asarray(x))
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


def test_at_apply_with_transcendental_func():
    x = np.linspace(-1, 1, 6, dtype=np.float32)
    idx = np.array([0, 5, 5, 2])
    want = jnp.asarray(x).at[idx].apply(jnp.sin)
    got = mnp.asarray(x).at[idx].apply(mnp.sin)
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-6)


def test_at_apply_under_vmap():
    xs = np.arange(12.0, dtype=np.float32).reshape(3, 4)
    idx = np.array([[0, 0, 1], [3, 3, 3], [1, 2, 9]])
    jf = jax.vmap(lambda x, i: x.at[i].apply(_aff))
    mf = mlax.vmap(lambda x, i: x.at[i].apply(_aff))
    np.testing.assert_array_equal(np.asarray(mf(xs, idx)), np.asarray(jf(xs, idx)))
    np.testing.assert_array_equal(np.asarray(mlax.jit(mf)(xs, idx)), np.asarray(jf(xs, idx)))
    # unbatched indices
    jf = jax.vmap(lambda x: x.at[np.array([1, 1])].apply(_aff))
    mf = mlax.vmap(lambda x: x.at[np.array([1, 1])].apply(_aff))
    np.testing.assert_array_equal(np.asarray(mf(xs)), np.asarray(jf(xs)))


def _dnums(lax_):
    return lax_.ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(0,),
                                        scatter_dims_to_operand_dims=(0,))


@pytest.mark.parametrize("mode", [None, "clip", "drop", "promise_in_bounds"])
@pytest.mark.parametrize("jit", [False, True])
def test_lax_scatter_apply(mode, jit):
    x = np.arange(12.0, dtype=np.float32).reshape(3, 4)
    idx = np.array([[2], [0], [2], [5]], np.int32)
    if mode == "promise_in_bounds":
        idx = idx[:3]

    def f(lax_):
        return lambda x, i: lax_.scatter_apply(x, i, _aff, _dnums(lax_),
                                               update_shape=(i.shape[0], 4), mode=mode)
    jf, mf = f(jax.lax), f(mlax.lax)
    if jit:
        jf, mf = jax.jit(jf), mlax.jit(mf)
    np.testing.assert_array_equal(np.asarray(mf(x, idx)), np.asarray(jf(x, idx)))


def test_lax_scatter_apply_scalar_updates():
    x = np.arange(6, dtype=np.int32)
    idx = np.array([[1], [1], [4]], np.int32)
    dn = dict(update_window_dims=(), inserted_window_dims=(0,),
              scatter_dims_to_operand_dims=(0,))
    want = jax.lax.scatter_apply(x, idx, lambda v: v * 3, jax.lax.ScatterDimensionNumbers(**dn),
                                 update_shape=(3,))
    got = mlax.lax.scatter_apply(x, idx, lambda v: v * 3,
                                 mlax.lax.ScatterDimensionNumbers(**dn), update_shape=(3,))
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


def test_bad_mode_is_jax_error():
    x = np.arange(5.0, dtype=np.float32)
    with pytest.raises(Exception) as je:
        jnp.asarray(x).at[np.array([1])].apply(_aff, mode="bogus")
    with pytest.raises(type(je.value)):
        mnp.asarray(x).at[np.array([1])].apply(_aff, mode="bogus")

"""JAX's smaller config switches against JAX: jax_allow_f16_reductions,
jax_legacy_prng_key, jax_enable_custom_prng and jax_softmax_custom_jvp,
each as config.update and as a context manager, with JAX's outcomes,
messages and warnings."""
from __future__ import annotations

import warnings

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mlax
import mlax.numpy as mnp


def _outcome(thunk):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = thunk()
        except Exception as e:  # noqa: BLE001  (compared with JAX's)
            return ("raises", type(e), str(e)), []
    seen = [(w.category, str(w.message)) for w in caught
            if "jax.random" in str(w.message) or "keys" in str(w.message)]
    return ("ok", jax.tree.map(lambda a: (np.asarray(a).dtype, np.shape(a)), out)
            if not _typed(out) else ("typed", out.shape)), seen


def _typed(out):
    return "key<" in str(getattr(out, "dtype", ""))


def _f16_cases(lib, np_lib, lax):
    x = np_lib.ones((3, 2), np_lib.float16)
    b = np_lib.ones((1, 2), np_lib.bfloat16)
    return {
        "lax_reduce_sum": lambda: lax.reduce_sum(x, (0,)),
        "lax_reduce_sum_size_one_axis": lambda: lax.reduce_sum(b, (0,)),
        "lax_reduce_sum_f32": lambda: lax.reduce_sum(x.astype(np.float32), (0,)),
        "lax_reduce_max": lambda: lax.reduce_max(x, (0,)),
        "jit_reduce_sum": lambda: lib.jit(lambda a: lax.reduce_sum(a, (1,)))(x),
        "numpy_sum": lambda: np_lib.sum(x),
        "numpy_mean": lambda: np_lib.mean(x, axis=0),
        "softmax": lambda: lib.nn.softmax(x),
        "grad_of_sum": lambda: lib.grad(lambda a: np_lib.sum(a * a).astype(np.float32))(x),
    }


@pytest.mark.parametrize("allow", [True, False])
def test_allow_f16_reductions(allow):
    ours, theirs = _f16_cases(mlax, mnp, mlax.lax), _f16_cases(jax, jnp, jax.lax)
    with jax.allow_f16_reductions(allow):
        want = {k: _outcome(f) for k, f in theirs.items()}
    with mlax.allow_f16_reductions(allow):
        got = {k: _outcome(f) for k, f in ours.items()}
    assert got == want
    assert (got["lax_reduce_sum"][0][0] == "raises") is (not allow)


def _key_cases(lib, np_lib):
    r = lib.random
    return {
        "normal_raw": lambda: r.normal(r.PRNGKey(0), (2,)),
        "split_raw": lambda: r.split(r.PRNGKey(1)),
        "fold_in_raw": lambda: r.fold_in(r.PRNGKey(1), 3),
        "uniform_array_raw": lambda: r.uniform(np_lib.array([0, 7], np_lib.uint32)),
        "normal_typed": lambda: r.normal(r.key(0), (2,)),
        "split_typed": lambda: r.split(r.key(0), 3),
        "PRNGKey": lambda: r.PRNGKey(5),
        "jit_split_raw": lambda: lib.jit(lambda k: r.split(k))(r.PRNGKey(2)),
    }


@pytest.mark.parametrize("legacy", ["allow", "warn", "error"])
@pytest.mark.parametrize("custom", [False, True])
def test_legacy_and_custom_prng_keys(legacy, custom):
    ours, theirs = _key_cases(mlax, mnp), _key_cases(jax, jnp)
    with jax.legacy_prng_key(legacy), jax.enable_custom_prng(custom):
        want = {k: _outcome(f) for k, f in theirs.items()}
    with mlax.legacy_prng_key(legacy), mlax.enable_custom_prng(custom):
        got = {k: _outcome(f) for k, f in ours.items()}
    assert got == want


def test_prng_switch_values_and_errors():
    with pytest.raises(ValueError, match="is not a valid LegacyPrngKeyState"):
        mlax.config.update("jax_legacy_prng_key", "bogus")
    with pytest.raises(TypeError, match="requires an argument"):
        with mlax.legacy_prng_key():
            pass
    assert mlax.legacy_prng_key.value == "allow" and mlax.enable_custom_prng.value is False
    with mlax.enable_custom_prng():
        assert mlax.enable_custom_prng.value is True
        key = mlax.random.PRNGKey(3)
        want = jax.random.key_data(jax.random.key(3))
        np.testing.assert_array_equal(np.asarray(mlax.random.key_data(key)), np.asarray(want))
    assert mlax.random.PRNGKey(3).dtype == np.uint32


# Rows: plain values, equal values, -inf entries, a row that is -inf
# outside the mask.
_X = np.array([[0.5, -1.0, 2.0, 0.0], [1.0, 1.0, 1.0, 1.0],
               [0.0, -np.inf, 1.0, 2.0], [-np.inf, -np.inf, 3.0, 0.0]], np.float32)
_WHERE = np.array([[True, False, True, True], [True, True, False, True],
                   [True, True, True, False], [True, True, False, True]])


@pytest.mark.parametrize("custom", [False, True])
@pytest.mark.parametrize("masked", [False, True])
def test_softmax_custom_jvp(custom, masked):
    x, where = _X, (_WHERE if masked else None)

    def run(lib, np_lib):
        def f(a):
            return np_lib.sum(lib.nn.softmax(a, axis=-1, where=where) * np_lib.arange(4.0))
        primal, tangent = lib.jvp(lambda a: lib.nn.softmax(a, where=where), (x,),
                                  (np.ones_like(x),))
        return [lib.nn.softmax(x, where=where), lib.grad(f)(x), lib.jit(lib.hessian(f))(x),
                primal, tangent, lib.vmap(lambda a: lib.nn.softmax(a, where=None))(x)]
    with jax.softmax_custom_jvp(custom):
        want = run(jax, jnp)
    with mlax.softmax_custom_jvp(custom):
        got = run(mlax, mnp)
    for g, w in zip(got, want):
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=2e-6, atol=1e-6)


def _samplers(lib, np_lib, impl):
    r = lib.random
    k = r.key(42, impl=impl)
    return {
        "split": lambda: r.key_data(r.split(k, 5)),
        "split_raw": lambda: r.split(r.PRNGKey(7)),
        "fold_in": lambda: r.key_data(r.fold_in(k, 11)),
        "bits32": lambda: r.bits(k, (3, 5)),
        "bits16_odd": lambda: r.bits(k, (5,), np_lib.uint16),
        "bits8": lambda: r.bits(k, (2, 7), np_lib.uint8),
        "uniform": lambda: r.uniform(k, (4, 3)),
        "normal_bf16": lambda: r.normal(k, (5,), np_lib.bfloat16),
        "randint": lambda: r.randint(k, (6,), 0, 100),
        "permutation": lambda: r.permutation(k, 10),
        "gamma": lambda: r.gamma(k, 2.5, (3,)),
        "jit_normal_of_split": lambda: lib.jit(lambda kk: r.normal(r.split(kk)[1], (3,)))(k),
    }


@pytest.mark.parametrize("partitionable", [True, False])
def test_threefry_partitionable(partitionable):
    ours, theirs = _samplers(mlax, mnp, "threefry2x32"), _samplers(jax, jnp, "threefry2x32")
    with jax.threefry_partitionable(partitionable):
        want = {k: np.asarray(f()) for k, f in theirs.items()}
    with mlax.threefry_partitionable(partitionable):
        got = {k: np.asarray(f()) for k, f in ours.items()}
    for name in want:
        assert got[name].dtype == want[name].dtype, name
        np.testing.assert_array_equal(got[name], want[name], err_msg=name)
    # rbg splits with threefry on each half: its keys follow the switch too.
    with jax.threefry_partitionable(partitionable):
        want = np.asarray(jax.random.key_data(jax.random.split(jax.random.key(3, impl="rbg"), 4)))
    with mlax.threefry_partitionable(partitionable):
        got = np.asarray(mlax.random.key_data(mlax.random.split(mlax.random.key(3, impl="rbg"), 4)))
    np.testing.assert_array_equal(got, want)


def test_threefry_partitionable_64_bit(x64):
    k, jk = mlax.random.key(5), jax.random.key(5)
    with mlax.threefry_partitionable(False), jax.threefry_partitionable(False):
        for dtype in ("uint64", "float64"):
            fn = "bits" if dtype == "uint64" else "uniform"
            got = getattr(mlax.random, fn)(k, (3,), dtype)
            want = getattr(jax.random, fn)(jk, (3,), dtype)
            np.testing.assert_array_equal(np.asarray(got), np.asarray(want))

"""mlax.experimental.serialize_executable against JAX's: a compiled program as
bytes and back, called without tracing or compiling again, with the same
results (values, dtypes, weak types, pytrees) as the program it came from."""
import jax
import jax.experimental.serialize_executable as jse
import numpy as np
import pytest

import mlax
import mlax.experimental.serialize_executable as mse
import mlax.numpy as mnp


def _f(lib):
    np_ = lib.numpy

    def f(x, p):
        return {"y": np_.tanh(x @ p["w"]) + p["b"], "n": np_.sum(x) * 2.0}
    return f


X = np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3)
P = {"w": np.arange(12, dtype=np.float32).reshape(3, 4) / 10, "b": np.float32(0.5)}


def _round_trip(lib, se, *args, **kw):
    compiled = lib.jit(_f(lib)).lower(X, P).compile()
    payload, in_tree, out_tree = se.serialize(compiled)
    assert isinstance(payload, bytes)
    return compiled, se.deserialize_and_load(payload, in_tree, out_tree, *args, **kw)


def test_round_trip_matches_the_compiled_program_and_jax():
    compiled, loaded = _round_trip(mlax, mse)
    # (JAX loads on all of the backend's devices unless told; mlax on the
    # device the program was compiled for)
    _, jax_loaded = _round_trip(jax, jse, execution_devices=jax.devices()[:1])
    got, want = loaded(X, P), jax_loaded(X, P)
    same = compiled(X, P)
    assert jax.tree.structure(got) == jax.tree.structure(want)
    for g, s, w in zip(jax.tree.leaves(got), jax.tree.leaves(same), jax.tree.leaves(want)):
        assert (g.dtype, g.shape, g.weak_type) == (w.dtype, w.shape, w.weak_type)
        np.testing.assert_array_equal(np.asarray(g), np.asarray(s))
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=1e-6)
    assert loaded.args_info[0][0].shape == (2, 3)
    # The loaded program is XLA's: its optimized HLO is there to read.
    assert "tanh" in loaded.as_text()


def test_weak_types_and_kept_arguments_survive():
    # `y` is unused (the program drops it) and `s` is a weak Python scalar.
    compiled = mlax.jit(lambda x, y, s: x * s).lower(X, X, 3.0).compile()
    loaded = mse.deserialize_and_load(*mse.serialize(compiled))
    out = loaded(X, X, 3.0)
    np.testing.assert_array_equal(np.asarray(out), X * 3)
    w = mlax.jit(lambda s: s * 2).lower(1.0).compile()
    out = mse.deserialize_and_load(*mse.serialize(w))(4.0)
    assert out.weak_type and out.dtype == np.float32 and float(out) == 8.0


def test_execution_devices_place_the_program():
    dev = mlax.devices()[1]
    _, loaded = _round_trip(mlax, mse, execution_devices=[dev])
    out = loaded(X, P)
    assert out["y"].devices() == {dev}
    np.testing.assert_allclose(np.asarray(out["y"]), np.asarray(mlax.jit(_f(mlax))(X, P)["y"]),
                               rtol=1e-6)


def test_errors():
    with pytest.raises(TypeError, match="compiled function"):
        mse.serialize(mlax.jit(lambda x: x))
    calls_back = mlax.jit(lambda x: mlax.pure_callback(
        np.sin, jax.ShapeDtypeStruct((3,), np.float32), x)).lower(np.ones(3, np.float32))
    with pytest.raises(ValueError, match="does not support serialization"):
        mse.serialize(calls_back.compile())
    _, in_tree, out_tree = mse.serialize(mlax.jit(mnp.sin).lower(1.0).compile())
    with pytest.raises(ValueError, match="not a serialized mlax executable"):
        mse.deserialize_and_load(b"not a pickle", in_tree, out_tree)

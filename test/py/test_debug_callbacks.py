"""Host callbacks against JAX: mlax.debug.print / debug.callback,
mlax.pure_callback and mlax.experimental.io_callback, eager and under jit,
grad and vmap; what is printed and returned is what JAX prints and returns,
and the errors are JAX's classes."""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mlax
import mlax.numpy as mnp


def _printed(capsys, run):
    """What `run()` prints, once its results are ready."""
    capsys.readouterr()
    out = run()
    jax.block_until_ready(out) if not isinstance(out, mlax.Array) else out.block_until_ready()
    return capsys.readouterr().out, out


def _f(lib):
    def f(x):
        lib.debug.print("x={x} y={}", x * 2.0, x=x)
        return x * x
    return f


@pytest.mark.parametrize("transform", ["eager", "jit", "grad", "vmap", "jit_vmap",
                                       "jit_grad"])
def test_debug_print_matches_jax(capsys, transform):
    def make(lib):
        f = _f(lib)
        return {"eager": f, "jit": lib.jit(f), "grad": lib.grad(f), "vmap": lib.vmap(f),
                "jit_vmap": lib.jit(lib.vmap(f)), "jit_grad": lib.jit(lib.grad(f))}[transform]
    x = np.arange(3, dtype=np.float32) if "vmap" in transform else np.float32(3.0)
    want, want_out = _printed(capsys, lambda: make(jax)(x))
    got, got_out = _printed(capsys, lambda: make(mlax)(x))
    if "vmap" in transform:
        # mlax runs the unrolled calls in element order (a token chains them);
        # JAX leaves unordered calls to XLA's schedule.
        assert got == "".join(sorted(got.splitlines(keepends=True)))
        got, want = sorted(got.splitlines()), sorted(want.splitlines())
    assert got == want
    np.testing.assert_allclose(np.asarray(got_out), np.asarray(want_out))


def test_debug_callback_pytrees_and_static_arguments(capsys):
    def make(lib):
        def f(x, y):
            lib.debug.callback(lambda a, d, tag: print(tag, a.shape, sorted(d), d["k"]),
                               x, {"k": y + 1, "j": y}, tag="static")
            lib.debug.print("no placeholders")
            return x + y
        return lib.jit(f)
    x, y = np.ones((2, 3), np.float32), np.float32(2.0)
    want, _ = _printed(capsys, lambda: make(jax)(x, y))
    got, _ = _printed(capsys, lambda: make(mlax)(x, y))
    assert got.splitlines()[0].startswith("static")  # program order
    assert sorted(got.splitlines()) == sorted(want.splitlines())  # JAX: XLA's order
    # Two-call form; JAX's format check.
    mlax.debug.print(ordered=True)("v={}", 4)
    assert capsys.readouterr().out == "v=4\n"
    with pytest.raises(ValueError, match="Unused positional arguments"):
        mlax.debug.print("no placeholders", 1)


def test_each_trace_calls_its_own_callbacks(capsys):
    # The two programs print the same text; each must keep its function.
    outs = []
    for tag in ("a", "b"):
        f = mlax.jit(lambda x, tag=tag: (mlax.debug.callback(lambda v: outs.append(tag), x),
                                          x)[1])
        f(np.float32(1.0)).block_until_ready()
        g = mlax.grad(lambda x, tag=tag: (mlax.debug.callback(lambda v: outs.append(tag + "g"),
                                                               x), x * x)[1])
        g(np.float32(1.0)).block_until_ready()
    assert outs == ["a", "ag", "b", "bg"]


def test_callback_programs_skip_the_persistent_cache(tmp_path, monkeypatch):
    monkeypatch.setattr(mlax.config, "jax_compilation_cache_dir", None)
    monkeypatch.setattr(mlax.config, "jax_persistent_cache_min_compile_time_secs",
                        mlax.config.jax_persistent_cache_min_compile_time_secs)
    mlax.config.update("jax_compilation_cache_dir", tmp_path)
    mlax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
    seen = []
    f = mlax.jit(lambda x: mlax.pure_callback(lambda v: (seen.append(1), v + 1)[1],
                                              mlax.ShapeDtypeStruct((), np.float32), x))
    assert float(f(np.float32(1.0))) == 2.0
    assert seen == [1]
    assert not list(tmp_path.glob("mlax-*"))


def _pure(lib, method, shapes):
    def cb(a, b):
        shapes.append((a.shape, b.shape))
        return np.sin(a) + b.reshape(b.shape + (1,) * (a.ndim - b.ndim))
    return lambda x, y: lib.pure_callback(cb, jax.ShapeDtypeStruct(x.shape, x.dtype), x, y,
                                          vmap_method=method)


@pytest.mark.parametrize("method", ["sequential", "sequential_unrolled", "expand_dims",
                                    "broadcast_all"])
def test_pure_callback_vmap_methods(method):
    x = np.arange(6, dtype=np.float32).reshape(3, 2)
    y = np.float32(0.5)
    results = []
    for lib in (jax, mlax):
        shapes = []
        out = lib.jit(lib.vmap(_pure(lib, method, shapes), in_axes=(0, None)))(x, y)
        results.append((np.asarray(out), shapes))
    np.testing.assert_allclose(results[1][0], results[0][0], rtol=1e-6)
    assert results[1][1] == results[0][1]


def test_pure_callback_eager_jit_and_pytrees():
    def make(lib):
        def f(x):
            out = lib.pure_callback(lambda d: {"s": np.sin(d["a"]), "n": np.int32(d["a"].size)},
                                    {"s": jax.ShapeDtypeStruct((3,), np.float32),
                                     "n": jax.ShapeDtypeStruct((), np.int32)},
                                    {"a": x})
            return out["s"] * 2.0, out["n"]
        return f
    x = np.linspace(0, 1, 3, dtype=np.float32)
    want = make(jax)(x)
    for run in (make(mlax), mlax.jit(make(mlax))):
        got = run(x)
        np.testing.assert_allclose(np.asarray(got[0]), np.asarray(want[0]), rtol=1e-6)
        assert int(got[1]) == int(want[1])
        assert np.asarray(got[1]).dtype == np.asarray(want[1]).dtype


@pytest.mark.parametrize("mode", ["eager", "jit"])
def test_grad_where_the_callback_takes_a_stopped_gradient(mode):
    """stop_gradient's result carries no cotangent (JAX's symbolic zero), so
    reverse mode does not reach a pure callback on it: no error, JAX's
    gradient."""
    x = np.array([0.5, 1.0, 2.0], np.float32)

    def f(lib):
        def g(x):
            y = lib.pure_callback(np.sin, jax.ShapeDtypeStruct((3,), np.float32),
                                  lib.lax.stop_gradient(x))
            return (x * y).sum()
        return lib.grad(g) if mode == "eager" else lib.jit(lib.grad(g))
    np.testing.assert_allclose(np.asarray(f(mlax)(x)), np.asarray(f(jax)(x)), rtol=1e-6)
    np.testing.assert_allclose(np.asarray(f(mlax)(x)), np.sin(x), rtol=1e-6)


def test_pure_callback_errors():
    def f(lib):
        return lambda x: lib.pure_callback(np.sin, jax.ShapeDtypeStruct((), np.float32), x)
    with pytest.raises(ValueError, match="Pure callbacks do not support JVP"):
        mlax.grad(f(mlax))(np.float32(1.0))
    with pytest.raises(NotImplementedError, match="vmap_method=None"):
        mlax.vmap(f(mlax))(np.ones(3, np.float32))
    with pytest.raises(ValueError, match="vmap_method"):
        mlax.pure_callback(np.sin, jax.ShapeDtypeStruct((), np.float32), 1.0,
                           vmap_method="bogus")
    # A result of the wrong shape: JAX's runtime error, from the callback.
    bad = lambda x: mlax.pure_callback(lambda v: np.zeros(4, np.float32),  # noqa: E731
                                       jax.ShapeDtypeStruct((3,), np.float32), x)
    with pytest.raises(jax.errors.JaxRuntimeError, match="Incorrect output shape"):
        mlax.jit(bad)(np.ones(3, np.float32)).block_until_ready()
    with pytest.raises(jax.errors.JaxRuntimeError, match="Incorrect output shape"):
        bad(np.ones(3, np.float32)).block_until_ready()


def test_io_callback():
    from mlax.experimental import io_callback
    calls = []

    def cb(v):
        calls.append(float(v))
        return np.float32(v * 3)
    f = lambda x: io_callback(cb, jax.ShapeDtypeStruct((), np.float32), x)  # noqa: E731
    assert float(mlax.jit(f)(np.float32(2.0))) == 6.0
    out = mlax.jit(mlax.vmap(f))(np.arange(3, dtype=np.float32))
    np.testing.assert_allclose(np.asarray(out), [0.0, 3.0, 6.0])
    assert calls == [2.0, 0.0, 1.0, 2.0]
    with pytest.raises(ValueError, match="IO callbacks do not support JVP"):
        mlax.grad(f)(np.float32(1.0))
    ordered = lambda x: io_callback(cb, jax.ShapeDtypeStruct((), np.float32), x,  # noqa: E731
                                    ordered=True)
    with pytest.raises(ValueError, match="Cannot `vmap` ordered IO callback"):
        mlax.vmap(ordered)(np.arange(3, dtype=np.float32))


def test_debug_print_in_control_flow_and_value_and_grad(capsys):
    def make(lib):
        def body(c, x):
            lib.debug.print("scan c={} x={}", c, x)
            return c + x, c

        def branch(tag, sign):
            return lambda v: (lib.debug.print(tag + " {}", v), v * sign)[1]

        def f(xs, p):
            s = lib.lax.scan(body, 0.0, xs)[0]
            return lib.lax.cond(p, branch("T", 1.0), branch("F", -1.0), s)

        def loss(x):
            lib.debug.print("loss x={}", x)
            return x * x
        return lambda xs: (lib.jit(f)(xs, True), lib.value_and_grad(loss)(2.0))
    xs = np.arange(3, dtype=np.float32)
    want, want_out = _printed(capsys, lambda: make(jax)(xs))
    got, got_out = _printed(capsys, lambda: make(mlax)(xs))
    assert got == want
    np.testing.assert_allclose(np.asarray(got_out[0]), np.asarray(want_out[0]))


@pytest.mark.parametrize("ct_from_output", [False, True])
def test_vjp_and_pullback_under_jit_print_the_forward_once(capsys, ct_from_output):
    # The pullback's program reuses the forward's residuals (the split vjp of
    # mlax-autodiff), so the forward's print is not repeated, as in JAX.
    def make(lib):
        def f(x):
            lib.debug.print("f x={}", x)
            return lib.numpy.sin(x) * x

        def program(x):
            y, pullback = lib.vjp(f, x)
            return y, pullback(y * 2.0 if ct_from_output else lib.numpy.ones_like(y))
        return lib.jit(program)
    x = np.arange(3, dtype=np.float32)
    want, want_out = _printed(capsys, lambda: make(jax)(x))
    got, got_out = _printed(capsys, lambda: make(mlax)(x))
    assert got == want and got.count("f x=") == 1
    for g, w in zip(got_out, want_out):
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=1e-6)


@pytest.mark.parametrize("returns", [True, False])
def test_effects_barrier_waits_for_every_callback(capsys, returns):
    # Programs with callbacks run off the C++ fast path so that each run's
    # token is kept: the barrier holds for cached calls too, and for a
    # program with no outputs to block on.
    def run(lib):
        seen = []

        @lib.jit
        def f(x):
            lib.debug.callback(lambda v: seen.append(float(v)), x)
            lib.debug.print("x={}", x)
            return x * 2 if returns else None
        outs = [f(np.float32(i)) for i in range(20)]
        lib.effects_barrier()
        return seen, outs
    want_seen, want_outs = run(jax)
    want_printed = capsys.readouterr().out
    got_seen, got_outs = run(mlax)
    assert got_seen == want_seen == [float(i) for i in range(20)]
    assert capsys.readouterr().out == want_printed
    if returns:
        np.testing.assert_array_equal(np.asarray(got_outs), np.asarray(want_outs))
    else:
        assert got_outs == want_outs == [None] * 20
    mlax.effects_barrier()  # nothing pending: returns at once
    jax.effects_barrier()


def test_copy_to_host_async_returns_its_argument():
    def run(lib, np_lib):
        tree = {"a": np_lib.arange(4.0) * 2, "b": [np_lib.ones(2, np.int32), 3, "s"], "c": None}
        out = lib.copy_to_host_async(tree)
        return out is tree, lib.device_get(out)
    same, got = run(mlax, mnp)
    want_same, want = run(jax, jnp)
    assert same and want_same
    np.testing.assert_array_equal(got["a"], want["a"])
    np.testing.assert_array_equal(got["b"][0], want["b"][0])
    assert got["b"][1:] == want["b"][1:] and got["c"] is want["c"] is None
    assert mlax.copy_to_host_async(np.ones(2)).shape == (2,)

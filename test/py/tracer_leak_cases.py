"""JAX's tracer-leak checker (jax.checking_leaks / jax_check_tracer_leaks)
against JAX's: a tracer kept past its trace (in a global, an object, a
closure) raises when the trace ends, naming the tracer and what holds it;
programs that keep nothing raise nothing.

Not collected with the suite: test_tracer_leaks.py runs this file in a fresh
interpreter (see there for why)."""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mlax
import mlax.numpy as mnp

_LEAK = []


class _Holder:
    pass


_HOLDER = _Holder()


def _leaky_list(x):
    y = x * 2
    _LEAK.append(y)
    return y + 1


def _leaky_attribute(x):
    _HOLDER.value = x * 3
    return x


CASES = {
    "jit_global_list": (lambda lib: lib.jit(_leaky_list), 1.0, "_LEAK"),
    "vmap_global_list": (lambda lib: lib.vmap(_leaky_list), np.ones(2, np.float32), "_LEAK"),
    "jit_object_attribute": (lambda lib: lib.jit(_leaky_attribute), 1.0, "_HOLDER"),
    "jit_of_vmap": (lambda lib: lib.jit(lib.vmap(_leaky_list)), np.ones(3, np.float32),
                    "_LEAK"),
}


def _outcome(lib, name):
    make, arg, holder = CASES[name]
    try:
        with lib.checking_leaks():
            make(lib)(arg)
    except Exception as e:  # noqa: BLE001  (compared with JAX's)
        return type(e), str(e)
    finally:
        _LEAK.clear()
        _HOLDER.__dict__.clear()
    return None, ""


@pytest.mark.parametrize("name", sorted(CASES))
def test_leaks_raise_as_in_jax(name):
    want_type, want = _outcome(jax, name)
    got_type, got = _outcome(mlax, name)
    assert got_type is want_type is Exception
    assert want.startswith("Leaked trace") and got.startswith("Leaked trace")
    assert got.split(".")[0] == want.split(".")[0]  # the trace's name
    holder = CASES[name][2]
    assert f"tracer_leak_cases.{holder}" in got, got
    assert "The error occurred while tracing the function" in got


def test_the_switch_and_the_context_manager():
    assert mlax.check_tracer_leaks.value is False
    mlax.config.update("jax_check_tracer_leaks", True)
    try:
        with pytest.raises(Exception, match="Leaked trace"):
            mlax.jit(_leaky_list)(2.0)
    finally:
        mlax.config.update("jax_check_tracer_leaks", False)
        _LEAK.clear()
    # Off: the leak goes unnoticed until the tracer is used, as in JAX.
    mlax.jit(_leaky_list)(3.0)
    with pytest.raises(mlax.errors.UnexpectedTracerError):
        _LEAK[0] + 1
    _LEAK.clear()
    with pytest.raises(TypeError):
        mlax.config.update("jax_check_tracer_leaks", "yes")
    # Turning it on retraces (the cached program was traced unchecked).
    f = mlax.jit(_leaky_list)
    f(1.0)
    _LEAK.clear()
    with mlax.check_tracer_leaks(True), pytest.raises(Exception, match="Leaked trace"):
        f(1.0)
    _LEAK.clear()


def _programs(lib, np_lib):
    lax = lib.lax
    return [
        (lib.jit(lambda x: lax.scan(lambda c, a: (c + a, c * a), x, np_lib.arange(3.0))), 1.0),
        (lib.grad(lambda x: lax.cond(x > 0, np_lib.sin, np_lib.cos, x)), 1.0),
        (lib.jit(lib.vmap(lib.grad(lambda x: np_lib.sum(np_lib.tanh(x) ** 2)))),
         np.ones((2, 3), np.float32)),
        (lib.vmap(lambda x: lax.fori_loop(0, 3, lambda i, c: c * x, x)),
         np.ones(2, np.float32)),
        (lib.jacfwd(lib.jacrev(lambda x: np_lib.sin(x) * x)), np.ones(2, np.float32)),
        (lib.jit(lambda x: lax.while_loop(lambda c: c < 10, lambda c: c * 2, x)), 1.0),
        (lib.jit(lib.checkpoint(lambda x: np_lib.exp(x) * x)), 2.0),
        (lib.value_and_grad(lambda p: np_lib.sum(p["w"] * 3.0)), {"w": np.ones(2, np.float32)}),
    ]


def test_programs_that_keep_nothing_pass():
    ours, theirs = _programs(mlax, mnp), _programs(jax, jnp)
    with mlax.checking_leaks():
        got = [f(a) for f, a in ours]
    with jax.checking_leaks():
        want = [f(a) for f, a in theirs]
    for g, w in zip(got, want):
        for gl, wl in zip(jax.tree.leaves(mlax.device_get(g)), jax.tree.leaves(w)):
            np.testing.assert_allclose(np.asarray(gl), np.asarray(wl), rtol=1e-6)

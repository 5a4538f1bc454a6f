"""mlax.no_tracing and mlax.no_execution (jax_no_tracing / jax_no_execution),
against JAX's guards: what they refuse, with which class and message, and
that cached calls and device_put go on as in JAX."""
import re

import numpy as np
import pytest

import jax
import jax.numpy as jnp

import mlax
import mlax.numpy as mnp


def outcome(fn):
    try:
        return ("ok", repr(np.asarray(fn()).tolist()))
    except Exception as e:  # noqa: BLE001
        # (the defining file and line are each library's own)
        return (type(e).__name__, re.sub(r" at \S+:\d+ ", " at FILE:LINE ", str(e)))


def both(case):
    return case(mlax, mnp), case(jax, jnp)


def doubler(lib):
    def double(a):
        return a * 2
    return lib.jit(double)


def test_no_tracing_refuses_new_traces_and_keeps_cached_calls():
    fm, fj = doubler(mlax), doubler(jax)
    xm, xj = mnp.ones(3), jnp.ones(3)
    fm(xm), fj(xj)
    with mlax.no_tracing(), jax.no_tracing():
        assert mlax.config.jax_no_tracing
        assert outcome(lambda: fm(xm)) == outcome(lambda: fj(xj)) == ("ok", "[2.0, 2.0, 2.0]")
        ours = outcome(lambda: fm(xm.reshape(3, 1)))
        theirs = outcome(lambda: fj(xj.reshape(3, 1)))
    assert ours[0] == theirs[0] == "RuntimeError"
    assert not mlax.config.jax_no_tracing


def test_no_tracing_message_names_the_users_function():
    def user_function(a):
        return a + 1

    xm, xj = mnp.ones(2), jnp.ones(2)
    with mlax.no_tracing(True), jax.no_tracing(True):
        ours = outcome(lambda: mlax.jit(user_function)(xm))
        theirs = outcome(lambda: jax.jit(user_function)(xj))
    assert ours == theirs
    assert ours[1] == ("re-tracing function user_function at FILE:LINE for `jit`, "
                       "but 'no_tracing' is set")


def test_no_execution_refuses_running_compiled_programs():
    fm, fj = doubler(mlax), doubler(jax)
    xm, xj = mnp.ones(3), jnp.ones(3)
    fm(xm), fj(xj)  # (cached: fast-pathed in C++ before the guard is set)
    with mlax.no_execution(), jax.no_execution():
        ours, theirs = outcome(lambda: fm(xm)), outcome(lambda: fj(xj))
        assert ours == theirs == ("RuntimeError", "JAX tried to execute function jit(double), "
                                  "but the no_execution config option is set")
        # Compiling is not executing; neither is putting a value on the device.
        assert mlax.jit(lambda a: a + 1).lower(xm).compile() is not None
        assert jax.jit(lambda a: a + 1).lower(xj).compile() is not None
        assert outcome(lambda: mlax.device_put(1.0)) == outcome(lambda: jax.device_put(1.0))
        # An eager op is a program too.
        assert outcome(lambda: xm.sum())[0] == outcome(lambda: xj.sum())[0] == "RuntimeError"
    np.testing.assert_array_equal(np.asarray(fm(xm)), np.asarray(fj(xj)))


def test_guards_take_bools_only():
    for name in ("jax_no_tracing", "jax_no_execution"):
        with pytest.raises(TypeError, match="must be a bool"):
            mlax.config.update(name, 1)
        assert getattr(mlax.config, name) is False

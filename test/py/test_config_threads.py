"""Config context managers are scoped to their thread, as JAX's are, while
config.update sets an option for every thread: the same two-thread
scenarios run under JAX and under mlax and must see the same dtypes, shapes
and errors at every step. jit's caches, the C++ fast path's among them, are
shared by the threads, so each scenario calls one jitted function from both
threads, with device arrays and with NumPy arguments (which the C++ side
converts itself under the x64 switch)."""
from __future__ import annotations

import threading

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mlax
import mlax.numpy as mnp


def _lib(name):
    if name == "jax":
        return jax, jnp
    return mlax, mnp


def _describe(out):
    return (np.asarray(out).dtype.name, np.shape(out))


def _in_turns(*steps_per_thread):
    """Runs the threads' steps in lockstep (step k of every thread, in
    thread order, before step k + 1 of any) and returns what each step
    returned or raised (its class)."""
    n = len(steps_per_thread)
    assert len({len(steps) for steps in steps_per_thread}) == 1
    turns = [threading.Event() for _ in range(len(steps_per_thread[0]) * n + 1)]
    turns[0].set()
    results = [[] for _ in steps_per_thread]

    def run(i, steps):
        for k, step in enumerate(steps):
            turns[k * n + i].wait(30)
            try:
                results[i].append(step())
            except Exception as e:  # noqa: BLE001 (compared with JAX's)
                results[i].append(("raises", type(e).__name__))
            finally:
                turns[k * n + i + 1].set()

    threads = [threading.Thread(target=run, args=(i, s)) for i, s in enumerate(steps_per_thread)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert all(len(r) == len(s) for r, s in zip(results, steps_per_thread)), results
    return results


def _x64_scenario(name):
    """Thread A enters enable_x64 and calls a shared jitted function inside
    and after the block; thread B calls it meanwhile without the block."""
    lib, np_lib = _lib(name)
    f = lib.jit(lambda x, y: x * y + 1)
    block = lib.enable_x64(True)

    def inside():
        block.__enter__()
        return _describe(f(np.ones(3), np_lib.ones(3)))

    def leave():
        block.__exit__(None, None, None)
        return _describe(f(np.ones(3), 2.0))

    a = [inside, lambda: _describe(f(np.ones(3), 2.0)), lambda: _describe(np_lib.arange(3.0)),
         lambda: _describe(f(np.ones(3), 2.0)), leave,
         lambda: _describe(f(np.ones(3), np_lib.ones(3)))]
    b = [lambda: _describe(f(np.ones(3), 2.0)), lambda: _describe(f(np.ones(3), 2.0)),
         lambda: _describe(np_lib.arange(3.0)), lambda: _describe(f(np_lib.ones(3), 2.0)),
         lambda: _describe(f(np.ones(3), 2.0)), lambda: _describe(np_lib.arange(3.0))]
    return _in_turns(a, b)


def test_enable_x64_is_scoped_to_its_thread():
    got = _x64_scenario("mlax")
    assert got == _x64_scenario("jax")
    assert got[0][1] == ("float64", (3,)) and got[1][1] == ("float32", (3,))


def _rank_promotion_scenario(name):
    """A thread that forbids rank promotion raises; the other, calling the
    same jitted function at the same time, broadcasts."""
    lib, np_lib = _lib(name)
    f = lib.jit(lambda x, y: x + y)
    x, y = np_lib.ones((2, 3)), np_lib.ones(3)
    block = lib.numpy_rank_promotion("raise")

    def inside():
        block.__enter__()
        return _describe(f(x, y))

    def leave():
        block.__exit__(None, None, None)
        return _describe(f(x, y))

    a = [inside, lambda: _describe(f(x, y)), leave]
    b = [lambda: _describe(f(x, y)), lambda: _describe(f(x, y)), lambda: _describe(f(x, y))]
    return _in_turns(a, b)


def test_numpy_rank_promotion_is_scoped_to_its_thread():
    got = _rank_promotion_scenario("mlax")
    assert got == _rank_promotion_scenario("jax")
    assert got[0][0] == ("raises", "ValueError") and got[1][0] == ("float32", (2, 3))


@pytest.mark.parametrize("option,block_value,update_value", [
    ("jax_numpy_rank_promotion", "raise", "warn"),
    ("jax_default_matmul_precision", "highest", "bfloat16"),
])
def test_update_reaches_every_thread_but_an_overriding_one(option, block_value, update_value):
    """config.update from one thread while another is inside a block of the
    same option: the block keeps its value until it ends, then the thread
    sees the updated one; a thread started later sees the updated one."""
    state = getattr(mlax, option.removeprefix("jax_"))
    jax_state = getattr(jax, option.removeprefix("jax_"))
    before = getattr(mlax.config, option)
    try:
        for lib, st in ((jax, jax_state), (mlax, state)):
            seen = []
            entered, updated = threading.Event(), threading.Event()

            def blocked(lib=lib, st=st, seen=seen, entered=entered, updated=updated):
                with st(block_value):
                    entered.set()
                    updated.wait(30)
                    seen.append(getattr(lib.config, option))
                seen.append(getattr(lib.config, option))

            t = threading.Thread(target=blocked)
            t.start()
            entered.wait(30)
            lib.config.update(option, update_value)
            seen.append(getattr(lib.config, option))
            updated.set()
            t.join(30)
            later = threading.Thread(target=lambda: seen.append(getattr(lib.config, option)))
            later.start()
            later.join(30)
            assert seen == [update_value, block_value, update_value, update_value], (lib, seen)
            lib.config.update(option, before)
    finally:
        mlax.config.update(option, before)
        jax.config.update(option, before)


def test_a_new_thread_does_not_inherit_a_block():
    seen = {}
    with mlax.enable_x64(True):
        t = threading.Thread(target=lambda: seen.update(
            x64=mlax.config.jax_enable_x64, dtype=mnp.arange(2.0).dtype.name))
        t.start()
        t.join(30)
        assert mlax.config.jax_enable_x64 and mnp.arange(2.0).dtype == np.float64
    assert seen == {"x64": False, "dtype": "float32"}

"""mlax.debug's log, breakpoint and sharding tools against jax.debug:
debug.log's records (logger level, the user's file and line, the message)
eagerly and under jit; inspect_array_sharding's callbacks eagerly (the
arrays' shardings, as JAX's) and under jit; visualize_sharding /
visualize_array_sharding; breakpoint's jdb session with commands fed on
stdin in a subprocess, eagerly and under jit, printing what JAX's prints.
"""
from __future__ import annotations

import logging
import os
import subprocess
import sys
import textwrap

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.sharding import NamedSharding as JNamed
from jax.sharding import PartitionSpec as JP

import mlax
import mlax.numpy as mnp
from mlax.sharding import NamedSharding, PartitionSpec as P


def _records(caplog, lib, run):
    caplog.clear()
    with caplog.at_level(logging.INFO):
        out = run()
        lib.block_until_ready(out)
    return [(r.levelname, os.path.basename(r.pathname), r.lineno, r.getMessage())
            for r in caplog.records if r.getMessage().startswith("v=")]


@pytest.mark.parametrize("jitted", [False, True], ids=["eager", "jit"])
def test_log(caplog, jitted):
    def make(lib):
        def f(x):
            lib.debug.log("v={} w={w}", x, w=x * 2)  # the same line for both libraries
            return x + 1
        return lib.jit(f) if jitted else f
    x = np.arange(3, dtype=np.float32)
    want = _records(caplog, jax, lambda: make(jax)(x))
    got = _records(caplog, mlax, lambda: make(mlax)(x))
    assert got == want and len(got) == 1
    assert want[0][1] == os.path.basename(__file__)


def test_log_two_call_form_and_errors(caplog):
    got = _records(caplog, mlax, lambda: mlax.debug.log(ordered=True)("v={}", 1.5) or 0)
    want = _records(caplog, jax, lambda: jax.debug.log(ordered=True)("v={}", 1.5) or 0)
    assert [r[3] for r in got] == [r[3] for r in want] == ["v=1.5"]
    for call in (lambda lib: lib.debug.log("v={}", 1, 2),
                 lambda lib: lib.debug.log(ordered=True)("v", unused=1)):
        with pytest.raises(Exception) as theirs:
            call(jax)
        with pytest.raises(theirs.type):
            call(mlax)


def test_inspect_array_sharding_eager(meshes):
    m, j = meshes
    x = np.arange(16, dtype=np.float32).reshape(8, 2)
    ours, theirs = [], []
    mlax.debug.inspect_array_sharding(
        {"a": mlax.device_put(x, NamedSharding(m, P("data"))), "b": mnp.ones(3)},
        callback=ours.append)
    jax.debug.inspect_array_sharding(
        {"a": jax.device_put(x, JNamed(j, JP("data"))), "b": jnp.ones(3)},
        callback=theirs.append)
    assert [repr(s) for s in ours] == [repr(s) for s in theirs]


def test_inspect_array_sharding_jit():
    """Called when the function is traced (lowered), not when it runs; a
    single-device program's values lie whole on its device (JAX names that
    a replicated GSPMDSharding)."""
    for lib in (mlax, jax):
        seen = []

        def f(x):
            lib.debug.inspect_array_sharding(x, callback=seen.append)
            return x * 2
        jf = lib.jit(f)
        jf.lower(np.ones(3, np.float32))
        assert len(seen) == 1
        s = seen[0]
        assert s.is_fully_replicated and s.device_set == {lib.devices()[0]}
        jf(np.ones(3, np.float32))
        jf(np.ones(3, np.float32))
        assert len(seen) <= 2  # at most once more, for the call's own trace


def test_inspect_array_sharding_jit_over_mesh(meshes):
    m, _ = meshes
    x = mlax.device_put(np.ones((8, 2), np.float32), NamedSharding(m, P("data")))
    f = mlax.jit(lambda x: mlax.debug.inspect_array_sharding(x, callback=print) or x)
    with pytest.raises(NotImplementedError, match="sharding propagation"):
        f(x)


def test_visualize_sharding(meshes, capsys):
    m, _ = meshes
    named = NamedSharding(m, P("data", "model"))
    mlax.debug.visualize_sharding((8, 4), named)
    picture = capsys.readouterr().out
    assert picture.count("CPU") == 8 and len([l for l in picture.splitlines()
                                              if l.startswith("|")]) == 4
    mlax.debug.visualize_array_sharding(mlax.device_put(np.zeros((8, 4), np.float32), named))
    assert capsys.readouterr().out == picture
    mlax.jit(lambda x: mlax.debug.visualize_array_sharding(x) or x)(np.zeros(3, np.float32))
    assert "CPU 0" in capsys.readouterr().out
    with pytest.raises(ValueError, match="1 and 2 dimensions"):
        mlax.debug.visualize_sharding((2, 2, 2), named)


_PROGRAM = """
import sys
import {lib} as lib, {lib}.numpy as np_

def f(x):
    y = np_.sin(x)
    lib.debug.breakpoint()
    return y * 2

print(lib.jit(f)(np_.arange(3.0)))
f(np_.arange(2.0))
token = lib.jit(lambda x: lib.debug.breakpoint(token=x * 3))(np_.float32(2.0))
print("token", token)
"""

_COMMANDS = "p y\np x + 1\nfoo\nc\npp {'a': y}\nw\nu\nd\nl\nc\np x\nc\n"


def _session(lib, tmp_path):
    path = tmp_path / f"prog_{lib}.py"
    path.write_text(textwrap.dedent(_PROGRAM.format(lib=lib)))
    out = subprocess.run([sys.executable, str(path)], input=_COMMANDS, capture_output=True,
                         text=True, timeout=300, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    return out.stdout.replace(str(path), "PROG")


def test_breakpoint_session(tmp_path):
    """The same jdb session (values, errors, frames, listing, backtrace) as
    JAX's, eagerly, under jit and with a token."""
    got, want = _session("mlax", tmp_path), _session("jax", tmp_path)
    assert got == want
    assert "Array([0.        , 0.84147096, 0.9092974 ], dtype=float32)" in got
    assert "*** NameError" in got and "token 6.0" in got


def test_breakpoint_errors():
    for kw in (dict(ordered=True, token=np.float32(1)),):
        with pytest.raises(Exception) as theirs:
            jax.debug.breakpoint(**kw)
        with pytest.raises(theirs.type):
            mlax.debug.breakpoint(**kw)

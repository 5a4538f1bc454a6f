"""Internal errors leave a reproducer: when a pass fails inside jit, the IR
before that pass and the command line that reruns it are written to a file
(in `mlax_dump_dir` when set, else a temporary file) whose path the error
prints; running that command reproduces the error."""
from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys

import numpy as np
import pytest
from mlir import ir

import mlax
import mlax.numpy as mnp
from mlax._src import native

X = np.ones(3, np.float32)


def _reproducer(message: str) -> tuple[str, str]:
    m = re.search(r"reproducer \(the IR before the pass\): (\S+)\n  (.+)", message)
    assert m, message
    return m.group(1), m.group(2)


def _vjp_injector():
    """A Python pass that (wrongly) puts an `mlax.vjp` back after the
    autodiff expansion: it succeeds, and the C++ lowering then fails."""
    text = mlax.make_ir(lambda v: mlax.grad(lambda y: mnp.sum(mnp.sin(y)))(v))(X).as_text()

    def inject_vjp(module_op):
        body = module_op.regions[0].blocks[0]
        for op in list(body.operations):
            op.erase()
        ip = ir.InsertionPoint(body)
        for op in ir.Module.parse(text).body.operations:
            ip.insert(op.clone())

    return inject_vjp


def test_failing_cpp_pass_writes_a_reproducer_that_reproduces():
    with pytest.raises(mlax.CompileError) as info:
        mlax.jit(lambda v: v * 2, passes=[_vjp_injector()])(X)
    message = str(info.value)
    assert "convert-mlax-to-stablehlo" in message
    path, command = _reproducer(message)
    assert os.path.exists(path)
    text = open(path).read()
    assert "mlax.vjp" in text  # the IR before the failing pass
    assert command in text
    assert command == (f"mlax-opt {path} "
                       "--pass-pipeline='builtin.module(convert-mlax-to-stablehlo)'")
    argv = shlex.split(command)
    argv[0] = native.mlax_opt_path()
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1, proc.stderr
    assert "failed to legalize operation 'mlax.vjp'" in proc.stderr
    os.remove(path)


BAD_PASS = '''
def bad_pass(module_op):
    raise RuntimeError("bad_pass broke on purpose")
'''


def test_failing_python_pass_writes_a_reproducer(tmp_path):
    pass_file = tmp_path / "bad_pass.py"
    pass_file.write_text(BAD_PASS)
    bad_pass = mlax.passes.load_callable(f"{pass_file}:bad_pass")
    dump = tmp_path / "dump"
    mlax.config.update("mlax_dump_dir", str(dump))
    try:
        with pytest.raises(mlax.CompileError) as info:
            mlax.jit(lambda v: mnp.sin(v) + 1, passes=[bad_pass])(X)
    finally:
        mlax.config.update("mlax_dump_dir", None)
    message = str(info.value)
    assert "Python pass `bad_pass` raised RuntimeError" in message
    path, command = _reproducer(message)
    assert os.path.dirname(path) == str(dump)  # mlax_dump_dir when set
    text = open(path).read()
    assert "mlax.sin" in text and command in text
    assert command == f"python -m mlax.tools.opt {path} --python-pass {pass_file}:bad_pass"
    argv = shlex.split(command)
    argv[0] = sys.executable
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "bad_pass broke on purpose" in proc.stderr


def _boom(module_op):
    raise ValueError("boom")


def test_the_reproducer_keeps_python_source_locations():
    """The IR is written with its locations, so diagnostics on it name the
    user's Python lines; the command names the pass's file and function."""
    with pytest.raises(mlax.CompileError) as info:
        mlax.jit(lambda v: mnp.cos(v) * 3, passes=[_boom])(X)
    path, command = _reproducer(str(info.value))
    text = open(path).read()
    assert "mlax.cos" in text and os.path.basename(__file__) in text
    assert command.endswith(f"--python-pass {__file__}:_boom")
    os.remove(path)

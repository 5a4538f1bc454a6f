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
from mlax._src.backend import native

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


# ---------------------------------------------------------------------------
# jaxlib's StableHLO parser/verifier and XLA's compiler: when they reject what
# mlax hands over, the error names the stage and the user's line, and the
# exact text is written to a reproducer file with the command that replays it.
# ---------------------------------------------------------------------------

def _replace_sin_with(op_name, attributes=lambda: {}):
    """A Python pass that puts a generic `op_name` op (one operand, the
    mlax.sin's location) in place of every mlax.sin: upstream MLIR does not
    know StableHLO, so only jaxlib can reject it."""
    def replace_sin(module_op):
        found = []

        def walk(op):
            for region in op.regions:
                for block in region.blocks:
                    for o in block.operations:
                        if o.operation.name == "mlax.sin":
                            found.append(o.operation)
                        walk(o.operation)

        walk(module_op)
        for op in found:
            with ir.InsertionPoint(op), op.location:
                new = ir.Operation.create(op_name, results=[op.results[0].type],
                                          operands=[op.operands[0]], attributes=attributes())
            op.results[0].replace_all_uses_with(new.results[0])
            op.erase()

    return replace_sin


def _stablehlo_reproducer(message: str) -> tuple[str, str]:
    m = re.search(r"reproducer \(the StableHLO handed to jaxlib\): (\S+)\n  (.+)", message)
    assert m, message
    return m.group(1), m.group(2)


def _replay(command: str):
    argv = shlex.split(command)
    assert argv[:3] == ["python", "-m", "mlax.tools.compile_stablehlo"]
    argv[0] = sys.executable
    return subprocess.run(argv, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})


def _sin_twice(v):
    return mnp.sin(v) * 2  # the line the errors below must name


_SIN_LINE = _sin_twice.__code__.co_firstlineno + 1


def test_jaxlib_verifier_error_names_the_user_line_and_writes_a_reproducer():
    with pytest.raises(mlax.CompileError) as info:
        mlax.jit(_sin_twice, passes=[_replace_sin_with("stablehlo.add")])(X)
    message = str(info.value)
    assert "jaxlib's StableHLO parser/verifier rejected the StableHLO of _sin_twice" in message
    assert "'stablehlo.add' op expected 2 operands" in message
    assert f"at {__file__}:{_SIN_LINE} (stablehlo.add, line " in message
    assert "Failed to parse using StableHLO" not in message  # jaxlib's version-skew noise
    path, command = _stablehlo_reproducer(message)
    assert os.path.exists(path)
    text = open(path).read()
    assert '"stablehlo.add"(%arg0)' in text and "func.func @main" in text
    assert command in text
    assert command == f"python -m mlax.tools.compile_stablehlo {path}"
    # jaxlib's positions are the file's lines: the line it names holds the op.
    line = int(re.search(r"-:(\d+):\d+: error", message).group(1))
    assert '"stablehlo.add"' in text.splitlines()[line - 1]
    proc = _replay(command)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "'stablehlo.add' op expected 2 operands" in proc.stderr
    os.remove(path)
    # No crash, nothing left broken: the same function compiles without the pass.
    np.testing.assert_allclose(np.asarray(mlax.jit(_sin_twice)(X)), np.sin(X) * 2, rtol=1e-6)


def test_xla_compile_error_names_the_stage_and_writes_a_reproducer(tmp_path):
    bad = _replace_sin_with("stablehlo.custom_call", lambda: {
        "call_target_name": ir.StringAttr.get("mlax_no_such_custom_call")})
    mlax.config.update("mlax_dump_dir", str(tmp_path))
    try:
        with pytest.raises(mlax.CompileError) as info:
            mlax.jit(_sin_twice, passes=[bad])(X)
    finally:
        mlax.config.update("mlax_dump_dir", None)
    message = str(info.value)
    assert "XLA compilation rejected the StableHLO of _sin_twice" in message
    assert "mlax_no_such_custom_call" in message
    path, command = _stablehlo_reproducer(message)
    assert os.path.dirname(path) == str(tmp_path)  # mlax_dump_dir when set
    text = open(path).read()
    assert 'call_target_name = "mlax_no_such_custom_call"' in text
    proc = _replay(command)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "mlax_no_such_custom_call" in proc.stderr


def test_rejected_text_handed_to_runtime_compile(monkeypatch):
    """The text handed to jaxlib is what the reproducer holds, whatever
    produced it (here the lowering's output is corrupted on the way)."""
    from mlax._src.backend import compiler

    real = compiler.to_stablehlo

    def corrupt(*args, **kwargs):
        return real(*args, **kwargs).replace("stablehlo.sine", "stablehlo.sinus")

    monkeypatch.setattr(compiler, "to_stablehlo", corrupt)
    with pytest.raises(mlax.CompileError) as info:
        mlax.grad(lambda v: mnp.sum(mnp.sin(v) ** 2))(X)  # a transformation run outside jit
    monkeypatch.undo()
    message = str(info.value)
    assert "jaxlib's StableHLO parser/verifier rejected the StableHLO of grad_" in message
    assert "stablehlo.sinus" in message
    path, command = _stablehlo_reproducer(message)
    assert '"stablehlo.sinus"' in open(path).read()
    proc = _replay(command)
    assert proc.returncode == 1 and "stablehlo.sinus" in proc.stderr, proc.stderr
    os.remove(path)


def test_replay_of_valid_stablehlo_compiles(tmp_path):
    text = mlax.jit(_sin_twice).lower(X).as_text()
    path = tmp_path / "ok.mlir"
    path.write_text(text)
    proc = _replay(f"python -m mlax.tools.compile_stablehlo {path}")
    assert proc.returncode == 0 and proc.stdout.strip() == "compiled", proc.stderr


def test_verify_only_parses_with_jaxlib_without_compiling(tmp_path):
    """--verify-only (what the lit Conversion tests pipe their output to):
    jaxlib parses and verifies each `// -----` module; a bad StableHLO
    attribute string, which mlax-opt keeps as opaque text, fails there."""
    good = mlax.jit(_sin_twice).lower(X).as_text()
    path = tmp_path / "two.mlir"
    path.write_text(good + "\n// -----\n" + good)
    proc = _replay(f"python -m mlax.tools.compile_stablehlo --verify-only {path}")
    assert proc.returncode == 0 and proc.stdout.strip() == "verified 2 modules", proc.stderr
    bad = tmp_path / "bad.mlir"
    bad.write_text(
        "func.func @main(%a: tensor<2xf32>) -> tensor<2xi1> {\n"
        '  %0 = "stablehlo.compare"(%a, %a) {comparison_direction = '
        "#stablehlo<comparison_direction XX>} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>\n"
        "  return %0 : tensor<2xi1>\n}\n")
    proc = _replay(f"python -m mlax.tools.compile_stablehlo --verify-only {bad}")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "ComparisonDirection to be one of" in proc.stderr


def _scan_sin(v):
    return mlax.lax.scan(lambda c, x: (c + mnp.sin(x), c), mnp.zeros(()), v)  # the scan's line


def test_source_lines_of_an_op_with_regions():
    """An op with regions prints its location after its closing brace; a
    jaxlib error at the op's first line still finds it."""
    from mlax._src.backend import compiler

    module = mlax.make_ir(_scan_sin)(X).module
    text = compiler.to_stablehlo(module)
    n = next(i for i, line in enumerate(text.splitlines(), 1) if "stablehlo.while" in line)
    lines = compiler._source_lines(f"UNKNOWN: -:{n}:5: error: bad while", text, module)
    assert lines == [f"  at {__file__}:{_scan_sin.__code__.co_firstlineno + 1} "
                     f"(stablehlo.while, line {n} of the StableHLO)"]
    # Text that is not the module's print: no guess.
    assert compiler._source_lines(f"-:{n}:5: error: x", "module {\n}\n", module) == []

"""The compiler researcher's workbench: Python and C++ passes in `jit`, the
global pass option, IR dumps, pass timing, debug verification, the
`python -m mlax.tools.opt` driver, and the tutorial (whose code runs here).
"""
from __future__ import annotations

import os
import re
import subprocess
import sys

import numpy as np
import pytest
from mlir import ir

import mlax
import mlax.numpy as mnp
from mlax.tools import opt as opt_tool

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLE = os.path.join(ROOT, "examples", "square_to_pow.py")
TUTORIAL = os.path.join(ROOT, "docs", "tutorial-writing-a-pass.md")

x4 = np.arange(4, dtype=np.float32) - 1.5


@pytest.fixture(autouse=True)
def _reset_config():
    yield
    mlax.config.update("mlax_extra_passes", ())
    mlax.config.update("mlax_dump_dir", None)
    mlax.config.update("mlax_pass_timing", False)
    mlax.config.update("mlax_debug_passes", False)


@pytest.fixture(scope="module")
def example():
    return mlax.passes.load_module(EXAMPLE)


def square_plus_one(x):
    return x * x + 1.0


# ---------------------------------------------------------------------------
# Passes in jit
# ---------------------------------------------------------------------------

def test_python_pass_in_jit_changes_the_program(example):
    f = mlax.jit(square_plus_one, passes=[example.square_to_pow])
    text = f.lower(x4).as_text()
    assert "stablehlo.power" in text and "stablehlo.multiply" not in text
    np.testing.assert_allclose(np.asarray(f(x4)), x4 * x4 + 1.0, rtol=1e-6)
    # Without the pass the same function multiplies.
    assert "stablehlo.multiply" in mlax.jit(square_plus_one).lower(x4).as_text()


def test_pipeline_strings_and_callables_run_in_order(example):
    seen = []

    def spy(module):
        seen.append(str(module))

    f = mlax.jit(square_plus_one, passes=[spy, example.square_to_pow, spy, "cse"])
    f(x4)
    assert len(seen) == 2
    assert "mlax.mul" in seen[0] and "mlax.pow" not in seen[0]
    assert "mlax.pow" in seen[1]


def test_callable_gets_the_module_operation():
    got = []
    mlax.jit(square_plus_one, passes=[lambda m: got.append((m.name, type(m)))])(x4)
    assert got == [("builtin.module", ir.Operation)]


def test_bad_pass_entries_fail_at_jit_time():
    with pytest.raises(ValueError, match="no-such-pass"):
        mlax.jit(square_plus_one, passes=["no-such-pass"])
    with pytest.raises(TypeError, match="callable"):
        mlax.jit(square_plus_one, passes=[42])
    with pytest.raises(ValueError, match="no-such-pass"):
        mlax.config.update("mlax_extra_passes", ["no-such-pass"])


def test_python_pass_that_raises_names_the_pass():
    def explode(module):
        raise RuntimeError("boom")

    with pytest.raises(mlax.CompileError, match=r"Python pass `explode` raised RuntimeError: boom"):
        mlax.jit(square_plus_one, passes=[explode])(x4)


def break_return(module):
    """Erases the first func.return: the function loses its terminator."""
    def visit(op):
        if op.name == "func.return":
            op.erase()
            return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    module.walk(visit, ir.WalkOrder.POST_ORDER)


def test_python_pass_leaving_invalid_ir_names_the_pass():
    with pytest.raises(mlax.CompileError, match=r"invalid after pass `break_return`"):
        mlax.jit(square_plus_one, passes=[break_return])(x4)


def test_global_extra_passes_apply_to_every_jit_and_recompile(example):
    f = mlax.jit(lambda v: v * v)
    f(x4)
    assert f.cache_misses == 1
    mlax.config.update("mlax_extra_passes", ["square-to-pow"])
    assert "stablehlo.power" in f.lower(x4).as_text()
    np.testing.assert_allclose(np.asarray(f(x4)), x4 * x4, rtol=1e-6)
    assert f.cache_misses == 2  # the option cleared the cache
    mlax.config.update("mlax_extra_passes", ())
    assert "stablehlo.power" not in f.lower(x4).as_text()


def test_registered_names_and_registry():
    @mlax.passes.register("test-noop-pass")
    def noop(module):
        noop.calls += 1

    noop.calls = 0
    assert mlax.passes.registered()["test-noop-pass"] is noop
    mlax.jit(square_plus_one, passes=["test-noop-pass"])(x4)
    assert noop.calls == 1
    with pytest.raises(ValueError):
        mlax.passes.register("bad name!", noop)


def test_cpp_pass_by_name_folds():
    f = mlax.jit(lambda v: v + mnp.exp(mnp.zeros(4, np.float32)), passes=["mlax-fold-constants"])
    assert "exponential" not in f.lower(x4).as_text()
    np.testing.assert_allclose(np.asarray(f(x4)), x4 + 1.0)


# ---------------------------------------------------------------------------
# Dumps, timing, debug mode
# ---------------------------------------------------------------------------

DUMP_NAME = re.compile(r"^(\d{4})_(\w+)\.(\d{2})_([\w.-]+)\.mlir$")


def test_dump_dir_writes_every_stage(tmp_path, example):
    mlax.config.update("mlax_dump_dir", str(tmp_path))

    def my_fn(x):
        return x * x + mnp.exp(mnp.zeros(4, mnp.float32))

    mlax.jit(my_fn, passes=[example.square_to_pow])(x4)
    files = sorted(os.listdir(tmp_path))
    parsed = [DUMP_NAME.match(f) for f in files]
    assert all(parsed), files
    assert {m.group(2) for m in parsed} == {"my_fn"}
    assert len({m.group(1) for m in parsed}) == 1  # one compile
    stages = [m.group(4) for m in parsed]
    assert [int(m.group(3)) for m in parsed] == list(range(len(files)))
    assert stages[0] == "traced" and stages[-1] == "stablehlo"
    for s in ("after_inline", "after_canonicalize", "after_cse", "after_symbol-dce",
              "after_square_to_pow"):
        assert s in stages, stages
    read = lambda stage: (tmp_path / files[stages.index(stage)]).read_text()
    assert "mlax.mul" in read("traced") and "mlax.exp" in read("traced")
    # canonicalize folded the exp of the constant
    assert "mlax.exp" not in read("after_canonicalize")
    assert "mlax.pow" in read("after_square_to_pow")
    assert read("stablehlo") == mlax.jit(my_fn, passes=[example.square_to_pow]).lower(x4).as_text()


def test_dump_dir_from_environment(tmp_path):
    code = ("import numpy as np, mlax\n"
            "mlax.jit(lambda x: x * 2.0)(np.ones(3, np.float32))\n")
    env = dict(os.environ, MLAX_DUMP_DIR=str(tmp_path))
    subprocess.run([sys.executable, "-c", code], env=env, check=True, timeout=120)
    files = sorted(os.listdir(tmp_path))
    assert any(f.endswith("_stablehlo.mlir") for f in files), files
    assert any(f.endswith(".00_traced.mlir") for f in files), files


def test_failed_pass_is_dumped(tmp_path):
    mlax.config.update("mlax_dump_dir", str(tmp_path))
    with pytest.raises(mlax.CompileError):
        mlax.jit(square_plus_one, passes=[break_return])(x4)
    assert any(f.endswith("_failed_break_return.mlir") for f in os.listdir(tmp_path))


def test_pass_timing_reports_every_pass(capsys, example):
    mlax.config.update("mlax_pass_timing", True)
    mlax.jit(square_plus_one, passes=[example.square_to_pow])(x4)
    err = capsys.readouterr().err
    assert "mlax pass timing: square_plus_one" in err
    for name in ("inline", "canonicalize", "cse", "symbol-dce", "square_to_pow",
                 "convert-mlax-to-stablehlo", "total"):
        assert re.search(rf"\d+\.\d+ +\d+\.\d%  {re.escape(name)}\n", err), (name, err)


def test_debug_mode_verifies_and_gives_same_results():
    mlax.config.update("mlax_debug_passes", True)
    f = mlax.jit(square_plus_one)
    np.testing.assert_allclose(np.asarray(f(x4)), x4 * x4 + 1.0, rtol=1e-6)
    with pytest.raises(mlax.CompileError, match=r"invalid after pass `break_return`"):
        mlax.jit(square_plus_one, passes=[break_return])(x4)


# ---------------------------------------------------------------------------
# python -m mlax.tools.opt
# ---------------------------------------------------------------------------

SQUARES = """\
func.func @a(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.mul %x, %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
// -----
func.func @b(%x: tensor<2xf64>) -> tensor<2xf64> {
  %c = mlax.constant dense<3.0> : tensor<2xf64>
  %0 = mlax.mul %c, %c : tensor<2xf64>
  %1 = mlax.add %x, %0 : tensor<2xf64>
  return %1 : tensor<2xf64>
}
"""


def test_opt_tool_runs_python_and_cpp_passes_in_order(tmp_path, capsys):
    src = tmp_path / "in.mlir"
    src.write_text(SQUARES)
    out = tmp_path / "out.mlir"
    rc = opt_tool.main([str(src), "--split-input-file", "--python-pass",
                        f"{EXAMPLE}:square_to_pow", "--pass", "mlax-fold-constants",
                        "-o", str(out)])
    assert rc == 0, capsys.readouterr().err
    a, b = out.read_text().split("// -----")
    assert "mlax.pow" in a and "mlax.mul" not in a
    assert "dense<9.000000e+00>" in b and "mlax.pow" not in b  # pow(3, 2) folded


def test_opt_tool_reports_errors_without_crashing(tmp_path, capsys):
    src = tmp_path / "bad.mlir"
    src.write_text("func.func @f() {\n  %0 = mlax.nonsense\n}\n")
    assert opt_tool.main([str(src), "--pass", "canonicalize"]) == 1
    assert "bad.mlir:2:" in capsys.readouterr().err
    src.write_text(SQUARES.split("// -----")[0])
    assert opt_tool.main([str(src), "--python-pass", "no.such.module:fn"]) == 1
    assert "no.such" in capsys.readouterr().err


def test_opt_tool_as_a_process(tmp_path):
    src = tmp_path / "in.mlir"
    src.write_text(SQUARES.split("// -----")[0])
    proc = subprocess.run(
        [sys.executable, "-m", "mlax.tools.opt", str(src), "--load", EXAMPLE,
         "--pass", "square-to-pow"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "mlax.pow" in proc.stdout


# ---------------------------------------------------------------------------
# The tutorial runs
# ---------------------------------------------------------------------------

def _tutorial_blocks():
    """(marker, language, code) for each fenced block of the tutorial."""
    text = open(TUTORIAL).read()
    pattern = re.compile(r"(?:<!-- (file|excerpt): (\S+) -->\n)?```(\w+)\n(.*?)```", re.S)
    return [(m.group(1), m.group(2), m.group(3), m.group(4)) for m in pattern.finditer(text)]


def test_tutorial_shows_the_real_files():
    blocks = _tutorial_blocks()
    shown = [(kind, path, code) for kind, path, _, code in blocks if kind]
    assert {k for k, _, _ in shown} == {"file", "excerpt"}
    for kind, path, code in shown:
        real = open(os.path.join(ROOT, path)).read()
        if kind == "file":
            assert code == real, f"the tutorial's copy of {path} is out of date"
        else:
            assert code in real, f"the tutorial's excerpt of {path} is out of date"


def test_tutorial_python_blocks_run(monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    namespace = {"__name__": "tutorial"}
    code_blocks = [code for kind, _, lang, code in _tutorial_blocks()
                   if lang == "python" and kind != "file"]
    assert len(code_blocks) >= 6
    for i, code in enumerate(code_blocks):
        exec(compile(code, f"{TUTORIAL}:block{i}", "exec"), namespace)
    out = capsys.readouterr()
    assert "mlax.pow" in out.out and "_after_square_to_pow.mlir" in out.out
    assert "mlax pass timing" in out.err and "1 mlax.mul" in out.err

"""The native half: the mlax-opt binary (run as a subprocess), its
diagnostics, and the hand-off of its StableHLO to XLA through jaxlib."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import numpy as np
import pytest

import mlax
import mlax.numpy as mnp
from mlax._src.backend import runtime


@pytest.fixture(scope="module")
def mlax_opt():
    proc = subprocess.run(
        [sys.executable, "-c", "from mlax._src.backend import native; print(native.mlax_opt_path())"],
        capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    path = proc.stdout.strip()
    assert os.path.isfile(path) and os.access(path, os.X_OK), path
    return path


def opt(mlax_opt, args, stdin=None, path_text=None, tmp_path=None):
    return subprocess.run([mlax_opt, *args], input=stdin, capture_output=True, text=True,
                          timeout=60)


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def run_stablehlo(text, *args):
    """Compiles StableHLO text with jaxlib and runs it on NumPy inputs."""
    exe = runtime.compile(text)
    outs = exe.execute([runtime.device_put(np.asarray(a)) for a in args])
    return [np.asarray(o) for o in outs]


SMALL = """\
func.func @main(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.exp %x : tensor<3xf32>
  %1 = mlax.mul %0, %y : tensor<3xf32>
  %c = mlax.slice %y, start = [0], limit = [1], strides = [1] : tensor<3xf32> -> tensor<1xf32>
  %b = mlax.broadcast_in_dim %c, dims = [0] : tensor<1xf32> -> tensor<3xf32>
  %2 = mlax.add %1, %b : tensor<3xf32>
  return %2 : tensor<3xf32>
}
"""


def test_mlax_opt_path_is_an_executable(mlax_opt):
    assert os.path.basename(mlax_opt) == "mlax-opt"


def test_help_lists_the_pipelines(mlax_opt):
    proc = opt(mlax_opt, ["--help"])
    assert proc.returncode == 0
    assert "--convert-mlax-to-stablehlo" in proc.stdout
    assert "--mlax-default-pipeline" in proc.stdout
    assert "--mlax-simplify-pipeline" in proc.stdout
    assert "mlax" in proc.stdout.split("Available Dialects:")[1].splitlines()[0]


@pytest.mark.parametrize("flag", ["--convert-mlax-to-stablehlo", "--mlax-default-pipeline"])
def test_lowering_compiles_and_runs(mlax_opt, tmp_path, flag):
    src = write(tmp_path, "small.mlir", SMALL)
    proc = opt(mlax_opt, [src, flag])
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout
    assert "stablehlo.exponential" in text and "stablehlo.multiply" in text
    assert "stablehlo.add" in text and "stablehlo.broadcast_in_dim" in text
    assert "mlax." not in text
    x = np.array([0.0, 1.0, -2.0], np.float32)
    y = np.array([2.0, 0.5, 4.0], np.float32)
    (out,) = run_stablehlo(text, x, y)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, np.exp(x) * y + y[0], rtol=1e-6)


def test_reads_stdin(mlax_opt):
    proc = opt(mlax_opt, ["-", "--convert-mlax-to-stablehlo"], stdin=SMALL)
    assert proc.returncode == 0, proc.stderr
    assert "stablehlo.exponential" in proc.stdout


def test_round_trip_without_passes(mlax_opt, tmp_path):
    src = write(tmp_path, "small.mlir", SMALL)
    proc = opt(mlax_opt, [src])
    assert proc.returncode == 0, proc.stderr
    assert "mlax.exp" in proc.stdout and "mlax.mul" in proc.stdout
    again = opt(mlax_opt, ["-"], stdin=proc.stdout)  # the printed form parses back
    assert again.returncode == 0 and again.stdout == proc.stdout


def _composite(x, y):
    z = mnp.where(x > 0, mnp.sqrt(mnp.abs(x)), mnp.exp(y) - 1.0)
    return mnp.sum(z @ y.T, axis=0) / x.shape[0], mnp.max(x, axis=1) > y[:, 0]


def test_traced_module_through_the_binary_matches_jit(mlax_opt, tmp_path):
    """make_ir's module, lowered by the standalone binary and compiled by
    jaxlib, gives what mlax.jit gives (which runs the same passes in-process)."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((3, 4)).astype(np.float32)
    y = rng.standard_normal((3, 4)).astype(np.float32)
    text = mlax.make_ir(_composite)(x, y).as_text()
    src = write(tmp_path, "traced.mlir", text)
    proc = opt(mlax_opt, [src, "--mlax-default-pipeline"])
    assert proc.returncode == 0, proc.stderr
    assert "mlax." not in proc.stdout
    outs = run_stablehlo(proc.stdout, x, y)
    expected = mlax.jit(_composite)(x, y)
    assert len(outs) == 2
    np.testing.assert_allclose(outs[0], np.asarray(expected[0]), rtol=1e-6)
    np.testing.assert_array_equal(outs[1], np.asarray(expected[1]))
    # and the in-process lowering is the same text
    assert proc.stdout.strip() == mlax.jit(_composite).lower(x, y).as_text().strip()


def _some_unused(a, b, c, d):
    return b * 2.0 + d, mnp.sum(d)


def test_unused_arguments_are_dropped_by_the_pipeline_lower_shows(mlax_opt, tmp_path):
    """mlax-drop-unused-arguments runs in mlax-default-pipeline: the binary's
    output, jit(f).lower(...).as_text() and what jit runs are one program,
    which takes only the arguments it uses; values match jax.jit's."""
    import jax
    import jax.numpy as jnp

    rng = np.random.default_rng(1)
    a, b, c, d = (rng.standard_normal((2, 3)).astype(np.float32) for _ in range(4))
    text = mlax.make_ir(_some_unused)(a, b, c, d).as_text()
    proc = opt(mlax_opt, [write(tmp_path, "unused.mlir", text), "--mlax-default-pipeline"])
    assert proc.returncode == 0, proc.stderr
    lowered = mlax.jit(_some_unused).lower(a, b, c, d).as_text()
    assert proc.stdout.strip() == lowered.strip()
    assert "mlax.kept_arguments = array<i64: 1, 3>" in lowered
    expected = jax.jit(lambda a, b, c, d: (b * 2.0 + d, jnp.sum(d)))(a, b, c, d)
    outs = run_stablehlo(proc.stdout, b, d)
    got = mlax.jit(_some_unused)(a, b, c, d)
    for o, g, e in zip(outs, got, expected):
        np.testing.assert_allclose(o, np.asarray(e), rtol=1e-6)
        np.testing.assert_allclose(np.asarray(g), np.asarray(e), rtol=1e-6)


def test_eager_transforms_pass_only_the_kept_arguments():
    """An eager grad runs the same pipeline as jit: its program drops the
    unused arguments, and the eager call passes only the kept buffers."""
    import jax
    import jax.numpy as jnp
    from mlax._src.core import tracing

    a, b = np.arange(3, dtype=np.float32), np.full(3, 2.0, np.float32)
    tracing.clear_cache()
    got = mlax.grad(lambda a, b: mnp.sum(a * b + a), argnums=(0, 1))(a, b)
    want = jax.grad(lambda a, b: jnp.sum(a * b + a), argnums=(0, 1))(a, b)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(np.asarray(g), np.asarray(w))
    # Both used by the product rule: nothing dropped, no attribute.
    assert [e.kept for e in tracing._eager_cache.values()] == [None]
    got = mlax.grad(lambda a, b: mnp.sum(a * 2.0), argnums=(0, 1))(a, b)
    want = jax.grad(lambda a, b: jnp.sum(a * 2.0), argnums=(0, 1))(a, b)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(np.asarray(g), np.asarray(w))
    entry = list(tracing._eager_cache.values())[-1]
    assert entry.kept == ()  # a constant gradient reads neither argument
    assert "mlax.kept_arguments = array<i64>" in entry.stablehlo


def test_nested_call_is_inlined_by_the_default_pipeline(mlax_opt, tmp_path):
    inner = mlax.jit(lambda a: a * 2.0)
    text = mlax.make_ir(lambda a: inner(a) + inner(a + 1.0))(np.ones(2, np.float32)).as_text()
    assert "mlax.call" in text
    proc = opt(mlax_opt, [write(tmp_path, "nested.mlir", text), "--mlax-default-pipeline"])
    assert proc.returncode == 0, proc.stderr
    assert "call" not in proc.stdout and "private" not in proc.stdout
    (out,) = run_stablehlo(proc.stdout, np.array([1.0, 2.0], np.float32))
    np.testing.assert_array_equal(out, [6.0, 10.0])


# ---------------------------------------------------------------------------
# Diagnostics
# ---------------------------------------------------------------------------

LOC = re.compile(r"(?P<file>[^\s:]+\.mlir):(?P<line>\d+):(?P<col>\d+): error:")

BAD_INPUTS = {
    "malformed": ("func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {\n"
                  "  %0 = mlax.exp %x : tensor<3xf32\n"
                  "  return %0 : tensor<3xf32>\n}\n", 2, "expected '>'"),
    "unknown-custom-op": ("func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {\n"
                          "  %0 = mlax.frobnicate %x : tensor<3xf32>\n"
                          "  return %0 : tensor<3xf32>\n}\n", 2, "mlax.frobnicate"),
    "unknown-generic-op": ("func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {\n"
                           "  %0 = \"mlax.frobnicate\"(%x) : (tensor<3xf32>) -> tensor<3xf32>\n"
                           "  return %0 : tensor<3xf32>\n}\n", 2, "mlax.frobnicate"),
    "verifier": ("func.func @main(%x: tensor<4xf32>, %y: tensor<4xf64>) -> tensor<4xf32> {\n"
                 "\n"
                 "  %0 = \"mlax.add\"(%x, %y) : (tensor<4xf32>, tensor<4xf64>) -> tensor<4xf32>\n"
                 "  return %0 : tensor<4xf32>\n}\n", 3, "'mlax.add' op"),
    "unbalanced": ("func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {\n"
                   "  return %x : tensor<3xf32>\n", 2, "expected operation name"),
    "garbage": ("this is not MLIR\n", 1, "error"),
}


@pytest.mark.parametrize("flag", [[], ["--convert-mlax-to-stablehlo"],
                                  ["--mlax-default-pipeline"]], ids=["parse", "lower", "default"])
@pytest.mark.parametrize("name", list(BAD_INPUTS))
def test_bad_input_exits_1_with_location(mlax_opt, tmp_path, name, flag):
    text, line, needle = BAD_INPUTS[name]
    src = write(tmp_path, f"{name}.mlir", text)
    proc = opt(mlax_opt, [src, *flag])
    assert proc.returncode == 1, (proc.returncode, proc.stderr)  # not a signal (< 0)
    m = LOC.search(proc.stderr)
    assert m, proc.stderr
    assert m.group("file") == src
    assert int(m.group("line")) == line and int(m.group("col")) >= 1
    assert needle in proc.stderr
    assert proc.stdout.strip() == ""


def test_missing_input_file(mlax_opt, tmp_path):
    proc = opt(mlax_opt, [str(tmp_path / "nope.mlir")])
    assert proc.returncode == 1
    assert "nope.mlir" in proc.stderr


def test_unknown_flag(mlax_opt):
    proc = opt(mlax_opt, ["--no-such-pass"])
    assert proc.returncode == 1
    assert "no-such-pass" in proc.stderr


def test_console_script_forwards_to_the_binary():
    exe = shutil.which("mlax-opt", path=os.path.dirname(sys.executable))
    if exe is None:
        pytest.skip("the mlax-opt console script is not installed next to python")
    proc = subprocess.run([exe, "--help"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and "--mlax-default-pipeline" in proc.stdout


def test_xla_rejection_is_a_compile_error():
    with pytest.raises(Exception) as e:
        runtime.compile("this is not stablehlo")
    assert not isinstance(e.value, SystemExit)

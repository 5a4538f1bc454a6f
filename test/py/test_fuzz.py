"""A short, seeded run of tools/fuzz-mlax-opt.py: mutated lit inputs through
every mlax pass and pipeline must end with exit status 0 or 1 and a
diagnostic, never a signal or an abort. (The long run is the same tool with
a larger --count.)"""
from __future__ import annotations

import os
import subprocess
import sys

from mlax._src.backend import native

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_mutated_mlir_never_crashes_mlax_opt(tmp_path):
    tool = os.path.join(ROOT, "tools", "fuzz-mlax-opt.py")
    proc = subprocess.run(
        [sys.executable, tool, "--count", "400", "--seconds", "90", "--seed", "1",
         "--mlax-opt", native.mlax_opt_path(), "--out", str(tmp_path)],
        capture_output=True, text=True, timeout=600)
    print(proc.stdout)  # the counts, shown with pytest -s or on failure
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "0 crashes" in proc.stdout
    tried = int(proc.stdout.split(" inputs from")[0].rsplit(" ", 1)[-1])
    assert tried >= 100


def test_mutated_control_flow_and_conv_never_crash_mlax_opt(tmp_path):
    """The same over the control-flow and convolution lit files only (the
    regions of cond/while/scan: parse errors inside them used to abort
    mlax-opt; test/lit/Dialect/control-flow-invalid-parse.mlir)."""
    tool = os.path.join(ROOT, "tools", "fuzz-mlax-opt.py")
    proc = subprocess.run(
        [sys.executable, tool, "--count", "400", "--seconds", "60", "--seed", "21",
         "--include", r"(control-flow|conv|cond)[^/]*\.mlir$",
         "--mlax-opt", native.mlax_opt_path(), "--out", str(tmp_path)],
        capture_output=True, text=True, timeout=600)
    print(proc.stdout)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "0 crashes" in proc.stdout
    tried = int(proc.stdout.split(" inputs from")[0].rsplit(" ", 1)[-1])
    corpus = int(proc.stdout.split(" inputs from ")[1].split(" ", 1)[0])
    assert tried >= 100 and corpus >= 20

"""The pass pipeline `jit` runs and the hand-off to XLA.

    traced mlax module --mlax-simplify-pipeline--> simplified mlax
                       --convert-mlax-to-stablehlo--> StableHLO text --> XLA

Both pipelines are the C++ ones `mlax-opt` runs by name
(`mlax-default-pipeline` = the two in sequence).
"""
from __future__ import annotations

import threading
import time

from mlir import ir
from mlir.passmanager import PassManager

from mlax._src import native

SIMPLIFY = "builtin.module(mlax-simplify-pipeline)"
LOWER = "builtin.module(convert-mlax-to-stablehlo)"

_local = threading.local()


class CompileError(Exception):
    """A pass or XLA rejected the program; the message carries locations."""


def _pass_manager(pipeline: str) -> PassManager:
    cache = getattr(_local, "pms", None)
    if cache is None:
        cache = _local.pms = {}
    ctx = native.context()
    key = (id(ctx), pipeline)
    pm = cache.get(key)
    if pm is None:
        with ctx:
            pm = cache[key] = PassManager.parse(pipeline)
    return pm


def run_pipeline(module: ir.Module, pipeline: str) -> None:
    try:
        _pass_manager(pipeline).run(module.operation)
    except ir.MLIRError as e:
        raise CompileError(f"mlax: pass pipeline `{pipeline}` failed:\n{e}") from None


def to_stablehlo(module: ir.Module, stats: dict | None = None) -> str:
    """Simplifies and lowers `module` in place; returns the StableHLO text."""
    t0 = time.perf_counter()
    run_pipeline(module, SIMPLIFY)
    t1 = time.perf_counter()
    run_pipeline(module, LOWER)
    text = module.operation.get_asm(enable_debug_info=False)
    t2 = time.perf_counter()
    if stats is not None:
        stats["passes_s"] = t1 - t0
        stats["lower_s"] = t2 - t1
    return text

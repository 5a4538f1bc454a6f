"""Passes as values: C++ pipelines, Python passes, and running them in order.

A *pass entry* is one of

* a pass-pipeline string naming C++ passes: ``"canonicalize"``,
  ``"cse,symbol-dce"``, ``"func.func(cse)"`` or a full
  ``"builtin.module(...)"`` (anything ``mlax-opt --pass-pipeline`` takes);
* the name of a Python pass registered with :func:`register`;
* a Python callable ``fn(module_op)``: it receives the ``builtin.module``
  operation (an ``mlir.ir.Operation``), changes it in place, and raises to
  fail. The IR is verified after it runs.

``mlax.jit(f, passes=[...])``, the ``mlax_extra_passes`` option and
``python -m mlax.tools.opt`` all take entries of this form.
"""
from __future__ import annotations

import importlib
import importlib.util
import os
import re
import sys
import threading
from dataclasses import dataclass
from typing import Callable, Union

from mlir import ir
from mlir.passmanager import PassManager
from mlir.rewrite import RewritePatternSet, apply_patterns_and_fold_greedily

from mlax._src.backend import native
from mlax._src.base import config as config_lib

PassEntry = Union[str, Callable[[ir.Operation], None]]

_registry: dict[str, Callable[[ir.Operation], None]] = {}


class PassError(Exception):
    """A pass failed or left invalid IR; the message names the pass."""


def register(name: str, fn: Callable | None = None):
    """Registers a Python pass under `name` (usable wherever a pass entry is).

        @mlax.passes.register("square-to-pow")
        def square_to_pow(module): ...
    """
    if not re.fullmatch(r"[A-Za-z_][\w.-]*", name):
        raise ValueError(f"mlax.passes.register: bad pass name {name!r}")

    def deco(f):
        if not callable(f):
            raise TypeError(f"mlax.passes.register: {f!r} is not callable")
        _registry[name] = f
        return f

    return deco(fn) if fn is not None else deco


def registered() -> dict[str, Callable]:
    """The registered Python passes, by name."""
    return dict(_registry)


def pattern_pass(patterns: dict, *, name: str | None = None, fold: bool = True):
    """A Python pass from rewrite patterns: ``{op name or OpView class: fn}``.

    Each ``fn(op, rewriter)`` returns a false value (None) when it rewrote
    `op` and True when it did not match (the upstream `mlir.rewrite`
    convention). The patterns are applied greedily, with folding when `fold`
    (so the result is also canonical for the folders).
    """

    def run(module: ir.Operation) -> None:
        ps = RewritePatternSet(module.context)
        for root, fn in patterns.items():
            ps.add(root, fn)
        if fold:
            apply_patterns_and_fold_greedily(module, ps.freeze())
        else:
            from mlir.rewrite import walk_and_apply_patterns

            walk_and_apply_patterns(module, ps.freeze())

    run.__name__ = name or "pattern_pass"
    return run


def load_module(target: str):
    """Imports ``package.module`` or executes ``path/to/file.py``."""
    if not (target.endswith(".py") or os.sep in target):
        return importlib.import_module(target)
    path = os.path.abspath(target)
    if not os.path.exists(path):
        raise ValueError(f"no such Python file: {target}")
    name = "_mlax_pass_" + re.sub(r"\W", "_", os.path.splitext(os.path.basename(path))[0])
    if name in sys.modules and getattr(sys.modules[name], "__file__", None) == path:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def load_callable(spec: str) -> Callable:
    """``package.module:function`` or ``path/to/file.py:function`` -> the
    function."""
    target, sep, attr = spec.rpartition(":")
    if not sep or not target or not attr:
        raise ValueError(f"expected MODULE:FUNCTION or FILE.py:FUNCTION, got {spec!r}")
    try:
        module = load_module(target)
    except ImportError as e:
        raise ValueError(f"cannot import {target!r} for the pass {spec!r}: {e}") from None
    fn = getattr(module, attr, None)
    if fn is None:
        raise ValueError(f"{target} has no attribute {attr!r}")
    if not callable(fn):
        raise ValueError(f"{spec} is not callable")
    return fn


# ---------------------------------------------------------------------------
# Stages: what actually runs
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Stage:
    """One step of a compile: a C++ pipeline or a Python pass."""

    name: str  # for dumps, timings and errors
    pipeline: str | None = None  # "builtin.module(...)" for C++ stages
    fn: Callable | None = None  # for Python stages

    @property
    def is_python(self) -> bool:
        return self.fn is not None


_local = threading.local()


def _pass_manager(pipeline: str) -> PassManager:
    """A cached PassManager for `pipeline` in this thread's context."""
    cache = getattr(_local, "pms", None)
    if cache is None:
        cache = _local.pms = {}
    ctx = native.context()
    key = (id(ctx), pipeline)
    pm = cache.get(key)
    if pm is None:
        with ctx:
            pm = PassManager.parse(pipeline)
        cache[key] = pm
    return pm


def _anchor(pipeline: str) -> str:
    pipeline = pipeline.strip()
    if pipeline.startswith("builtin.module("):
        return pipeline
    return f"builtin.module({pipeline})"


def _split_top_level(text: str) -> list[str]:
    """Splits `a{x=1},b(c,d),e` at top-level commas."""
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch in "({":
            depth += 1
        elif ch in ")}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    if cur:
        parts.append("".join(cur))
    return [p.strip() for p in parts if p.strip()]


def expand(pipeline: str) -> list[Stage]:
    """The passes a C++ pipeline runs (named pipelines expanded), one stage
    each, so dumps and timings can be taken between them."""
    text = str(_pass_manager(_anchor(pipeline)))
    inner = text[len("builtin.module("):-1]
    stages = []
    for part in _split_top_level(inner):
        name = re.match(r"[\w.-]+", part).group(0)
        stages.append(Stage(name=name, pipeline=f"builtin.module({part})"))
    return stages


def stage_of(entry: PassEntry) -> Stage:
    """The stage a pass entry stands for; raises ValueError/TypeError."""
    if callable(entry):
        name = getattr(entry, "__name__", None) or type(entry).__name__
        return Stage(name=name, fn=entry)
    if isinstance(entry, str):
        if entry in _registry:
            return Stage(name=entry, fn=_registry[entry])
        pipeline = _anchor(entry)
        try:
            _pass_manager(pipeline)
        except ValueError as e:
            raise ValueError(f"mlax: cannot parse pass pipeline {entry!r}: {e}") from None
        name = re.match(r"[\w.-]*", entry.strip()).group(0) or "pipeline"
        if entry.strip().startswith("builtin.module("):
            name = "pipeline"
        return Stage(name=name, pipeline=pipeline)
    raise TypeError(
        f"mlax: a pass is a pipeline string, a registered pass name or a callable "
        f"taking the module operation; got {entry!r}")


def run_stage(stage: Stage, module: ir.Module, *, verify: bool = False) -> None:
    """Runs one stage on `module`; raises PassError naming the stage."""
    op = module.operation
    if stage.is_python:
        with module.context, ir.Location.unknown():
            try:
                stage.fn(op)
            except ir.MLIRError as e:
                raise PassError(f"mlax: Python pass `{stage.name}` failed:\n{e}") from None
            except Exception as e:
                raise PassError(
                    f"mlax: Python pass `{stage.name}` raised "
                    f"{type(e).__name__}: {e}") from e
        verify = True  # Python passes are always checked: they build IR by hand
    else:
        try:
            _pass_manager(stage.pipeline).run(op)
        except ir.MLIRError as e:
            raise PassError(f"mlax: pass `{stage.name}` failed:\n{e}") from None
    if verify:
        try:
            op.verify()
        except ir.MLIRError as e:
            raise PassError(f"mlax: the IR is invalid after pass `{stage.name}`:\n{e}") from None


def run_passes(module: ir.Module, entries) -> None:
    """Applies pass entries to `module` in order (verifying after each)."""
    for entry in entries:
        run_stage(stage_of(entry), module, verify=True)


def dialect():
    """The generated Python op classes of the mlax dialect (`ConstantOp`,
    `MulOp`, `PowOp`, ...; `mlir-tblgen -gen-python-op-bindings`), for
    building IR in a pass."""
    return native.ops()


def _check_entries(entries):
    for entry in entries:
        stage_of(entry)


config_lib.register_validator("mlax_extra_passes", _check_entries)

"""Every registered mlax op has its pieces (docs/pipeline.md, "Adding an op"):
a round-trip lit test, a lowering lit test, a derivative rule and a batching
rule (the op interfaces, read from the dialect itself) or a stated reason it
needs none, and a creator: a Python function that emits it or a C++ rule that
builds it. A new op missing one of them fails here, naming what is missing.
(That every op has a lowering pattern is checked in C++:
test/lit/Conversion/coverage.mlir.)"""
from __future__ import annotations

import ctypes
import glob
import os
import re

import pytest

from mlax._src.backend import native

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Ops the passes handle themselves, so they carry no per-op rule.
_STRUCTURAL = {
    "mlax.call": "inlined by the simplify pipeline; autodiff and vmap transform the callee",
    "mlax.cond": "autodiff and vmap transform its regions (Autodiff/control-flow.mlir)",
    "mlax.while": "autodiff and vmap transform its regions",
    "mlax.scan": "autodiff and vmap transform its regions",
    "mlax.yield": "terminator of the control-flow regions",
    "mlax.custom_jvp_call": "mlax-autodiff applies the user's rule",
    "mlax.custom_vjp_call": "mlax-autodiff applies the user's rule",
    "mlax.remat_call": "mlax-autodiff rematerializes it",
    "mlax.shard_map": "autodiff and vmap transform its callee (Autodiff/shard-map.mlir)",
    "mlax.jvp": "expanded by mlax-expand-transforms before any rule is asked",
    "mlax.vjp": "expanded by mlax-expand-transforms",
    "mlax.vmap": "expanded by mlax-expand-transforms",
}

# Ops whose results never have a derivative (the pass never asks).
NOT_DIFFERENTIABLE = dict(_STRUCTURAL, **{
    "mlax.constant": "no operands",
    "mlax.iota": "no operands",
    "mlax.axis_index": "no operands (an integer device index)",
    "mlax.compare": "bool results",
    "mlax.is_finite": "bool results",
    "mlax.bitcast_convert": "a reinterpretation of bits (JAX: not differentiable)",
    "mlax.rng_bit_generator": "unsigned-integer key and bits (JAX: not differentiable)",
    "mlax.geqrf": "Householder factors inside qr, whose own rule differentiates qr",
    "mlax.geqp3": "integer column pivots (and factors) of qr(pivoting=True), whose Q and R "
                  "come from qr of the permuted matrix",
    "mlax.eig": "complex results of a possibly real matrix; JAX's eigenvalue-only rule is "
                "not built (lax.linalg.eig raises under differentiation)",
    "mlax.schur": "JAX has no derivative rule for schur (its NotImplementedError)",
    "mlax.hessenberg": "JAX has no derivative rule for hessenberg",
    "mlax.tridiagonal": "JAX has no derivative rule for tridiagonal",
    "mlax.householder_product": "JAX has no derivative rule for householder_product",
    "mlax.rng_uniform": "JAX has no derivative rule for rng_uniform (its NotImplementedError)",
})

# Ops batched without a rule of their own.
NOT_BATCHED = dict(_STRUCTURAL, **{
    "mlax.constant": "no operands: never batched",
    "mlax.iota": "no operands: never batched",
    "mlax.axis_index": "no operands: never batched",
    "mlax.rng_uniform": "JAX has no batching rule for rng_uniform (its NotImplementedError); "
                        "with unbatched bounds it is copied, one draw for the batch",
})

# Known gaps, each owed a fix: listed so that closing one fails this test
# until the entry goes.
GAPS = {
    "mlax.take": "private lax helper with no public caller: no derivative or batching rule",
}

# Removed before the lowering (test/lit/Conversion/transforms.mlir checks it is rejected).
REMOVED_BEFORE_LOWERING = {
    "mlax.stop_gradient": "erased by mlax-autodiff / the simplify pipeline",
    "mlax.custom_jvp_call": "inlined by mlax-autodiff and the simplify pipeline",
    "mlax.custom_vjp_call": "inlined by mlax-autodiff and the simplify pipeline",
    "mlax.remat_call": "inlined by mlax-autodiff and the simplify pipeline",
}


def _rules():
    """{op name: (differentiable, batchable)} from the dialect's interfaces."""
    lib = native._plugin()
    callback_type = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_int, ctypes.c_int,
                                     ctypes.c_void_p)
    lib.mlaxForEachOpRules.argtypes = [ctypes.c_void_p, callback_type, ctypes.c_void_p]
    lib.mlaxForEachOpRules.restype = None
    out = {}
    callback = callback_type(lambda name, d, b, _: out.__setitem__(name.decode(), (d, b)))
    lib.mlaxForEachOpRules(native._context_pointer(native.context()), callback, None)
    return out


RULES = _rules()
OP_CLASSES = {cls.OPERATION_NAME: name for name, cls in vars(native.ops()).items()
              if isinstance(getattr(cls, "OPERATION_NAME", None), str)
              and cls.OPERATION_NAME.startswith("mlax.")}


def _read(pattern):
    return "".join(open(f).read() for f in sorted(glob.glob(os.path.join(ROOT, pattern),
                                                            recursive=True)))


def _mentions(text, op):
    return re.search(re.escape(op) + r"(?![\w.])", text) is not None


def test_the_dialect_and_the_python_classes_agree():
    assert len(RULES) > 100
    assert set(RULES) == set(OP_CLASSES)


def test_every_op_has_a_round_trip_and_a_lowering_lit_test():
    dialect = _read("test/lit/Dialect/*.mlir")
    conversion = _read("test/lit/Conversion/*.mlir")
    assert [op for op in RULES if not _mentions(dialect, op)] == []
    assert [op for op in RULES if not _mentions(conversion, op)
            and op not in REMOVED_BEFORE_LOWERING] == []


@pytest.mark.parametrize("kind, index, exempt", [("derivative", 0, NOT_DIFFERENTIABLE),
                                                 ("batching", 1, NOT_BATCHED)])
def test_every_op_has_its_rules_or_a_reason(kind, index, exempt):
    missing = sorted(op for op, rules in RULES.items() if not rules[index])
    unexplained = [op for op in missing if op not in exempt and op not in GAPS]
    assert unexplained == [], f"ops with no {kind} rule and no stated reason"
    stale = [op for op in exempt if op in RULES and RULES[op][index]]
    assert stale == [], f"listed as needing no {kind} rule, but they have one"


def test_gaps_are_still_gaps():
    for op in GAPS:
        assert RULES[op] == (0, 0), f"{op} has gained rules: drop it from GAPS"


# Ops whose Python creator is being written (each entry says where it
# comes from); the test fails once it exists, so the entry goes.
PYTHON_PENDING: dict = {}


def test_every_op_is_created_by_python_or_by_a_rule():
    python = _read("python/mlax/_src/**/*.py")
    cpp = _read("dialects/**/*.cpp") + _read("passes/**/*.cpp")
    orphans = []
    for op, cls in OP_CLASSES.items():
        in_python = re.search(r"\b" + cls + r"\b", python) or _mentions(python, op)
        in_cpp = re.search(r"\b" + cls + r"::create\b", cpp)
        if not (in_python or in_cpp):
            orphans.append(op)
        elif op in PYTHON_PENDING:
            orphans.append(op + " (created now: drop it from PYTHON_PENDING)")
    assert sorted(orphans) == sorted(PYTHON_PENDING)

"""Constant folding as `jit` sees it: folded programs compute what NumPy
computes, the folds happen before XLA (the StableHLO shows it), and the folds
that IEEE floats forbid do not happen.

The folders themselves are tested op by op in test/lit/Folding/.
"""
from __future__ import annotations

import numpy as np
import pytest

import mlax
import mlax.lax as lax
import mlax.numpy as mnp

f32 = np.float32


def stablehlo(f, *args):
    return mlax.jit(f).lower(*args).as_text()


def simplified(f, *args) -> str:
    """The mlax IR after mlax-simplify-pipeline (what the lowering sees)."""
    module = mlax.make_ir(f)(*args).module
    mlax.passes.run_passes(module, ["mlax-simplify-pipeline"])
    return str(module)


def ops_in(text: str) -> set[str]:
    import re

    return set(re.findall(r'"?(stablehlo\.[a-z_]+|mlax\.[a-z_]+)"?\(?', text))


# ---------------------------------------------------------------------------
# The seed example
# ---------------------------------------------------------------------------

def stupid_fn(x):
    y = x
    for _ in range(1000):
        y = y * y
    return x


def test_stupid_fn_chain_is_gone_before_xla():
    x = np.arange(4, dtype=f32)
    ir = simplified(stupid_fn, x)
    assert "mlax.mul" not in ir
    body = ir[ir.index("func.func @main"):]
    # Only the returned argument is left.
    assert body.split("{", 1)[1].strip().startswith("return %arg0")
    text = stablehlo(stupid_fn, x)
    assert "multiply" not in text
    np.testing.assert_array_equal(np.asarray(mlax.jit(stupid_fn)(x)), x)


# ---------------------------------------------------------------------------
# Folded programs compute what NumPy computes
# ---------------------------------------------------------------------------

C = np.array([0.25, 0.5, 1.0, 2.0, 3.5], f32)

UNARY = {
    "exp": (mnp.exp, np.exp),
    "log": (mnp.log, np.log),
    "sin": (mnp.sin, np.sin),
    "cos": (mnp.cos, np.cos),
    "tan": (mnp.tan, np.tan),
    "tanh": (mnp.tanh, np.tanh),
    "sqrt": (mnp.sqrt, np.sqrt),
    "log1p": (mnp.log1p, np.log1p),
    "expm1": (mnp.expm1, np.expm1),
    "negative": (mnp.negative, np.negative),
    "abs": (lambda c: mnp.abs(-c), lambda c: np.abs(-c)),
    "floor": (lambda c: mnp.floor(c * 3), lambda c: np.floor(c * 3)),
    "ceil": (lambda c: mnp.ceil(c * 3), lambda c: np.ceil(c * 3)),
    "rint": (lambda c: mnp.round(c * 3), lambda c: np.round(c * 3)),
    "logistic": (lax.logistic, lambda c: 1 / (1 + np.exp(-c))),
    "rsqrt": (lax.rsqrt, lambda c: 1 / np.sqrt(c)),
}


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_of_constant_folds_and_matches_numpy(name):
    m_fn, np_fn = UNARY[name]

    def f(x):
        return x + m_fn(mnp.asarray(C))

    x = np.zeros(5, f32)
    text = stablehlo(f, x)
    # Everything but the final add is folded into one constant.
    assert ops_in(text) <= {"stablehlo.constant", "stablehlo.add"}, text
    out = np.asarray(mlax.jit(f)(x))
    np.testing.assert_allclose(out, np_fn(C).astype(f32), rtol=2e-6, atol=1e-7)


BINARY = {
    "add": (lambda a, b: a + b, np.add),
    "sub": (lambda a, b: a - b, np.subtract),
    "mul": (lambda a, b: a * b, np.multiply),
    "div": (lambda a, b: a / b, np.divide),
    "pow": (lambda a, b: a ** b, np.power),
    "maximum": (mnp.maximum, np.maximum),
    "minimum": (mnp.minimum, np.minimum),
    "atan2": (mnp.arctan2, np.arctan2),
    "fmod": (lax.rem, np.fmod),
}


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_of_constants_folds_and_matches_numpy(name):
    m_fn, np_fn = BINARY[name]
    a = np.array([1.5, -2.0, 0.0, 3.0, 7.0], f32)
    b = np.array([0.5, 4.0, 2.0, -3.0, 2.0], f32)
    if name == "pow":
        a = np.abs(a)

    def f(x):
        return x + m_fn(mnp.asarray(a), mnp.asarray(b))

    x = np.zeros(5, f32)
    assert ops_in(stablehlo(f, x)) <= {"stablehlo.constant", "stablehlo.add"}
    np.testing.assert_allclose(np.asarray(mlax.jit(f)(x)), np_fn(a, b).astype(f32),
                               rtol=2e-6)


def test_integer_arithmetic_wraps_like_numpy():
    a = np.array([127, -128, 100], np.int8)
    b = np.array([1, -1, 100], np.int8)

    def f(x):
        return x + (mnp.asarray(a) + mnp.asarray(b)) * mnp.asarray(b)

    x = np.zeros(3, np.int8)
    assert "stablehlo.multiply" not in stablehlo(f, x)
    with np.errstate(over="ignore"):
        expected = (a + b) * b
    np.testing.assert_array_equal(np.asarray(mlax.jit(f)(x)), expected)


def test_reductions_and_shape_ops_of_constants_fold():
    m = np.arange(12, dtype=f32).reshape(3, 4)

    def f(x):
        c = mnp.asarray(m)
        return x + (c.T.sum(axis=1) + c.reshape(4, 3).max(axis=1)) * c[1:, ::2].min()

    x = np.zeros(4, f32)
    text = stablehlo(f, x)
    assert ops_in(text) <= {"stablehlo.constant", "stablehlo.add"}, text
    expected = (m.T.sum(axis=1) + m.reshape(4, 3).max(axis=1)) * m[1:, ::2].min()
    np.testing.assert_allclose(np.asarray(mlax.jit(f)(x)), expected)


def test_compare_select_convert_of_constants_fold():
    c = np.array([-1.5, 0.0, 2.7, np.nan], f32)

    def f(x):
        k = mnp.asarray(c)
        return x + mnp.where(k > 0, k, -k).astype(mnp.int32)

    x = np.zeros(3, np.int32)
    x = np.zeros(4, np.int32)
    text = stablehlo(lambda x: x + mnp.where(mnp.asarray(c[:3]) > 0, 1, 2), x[:3])
    assert ops_in(text) <= {"stablehlo.constant", "stablehlo.add"}, text
    np.testing.assert_array_equal(
        np.asarray(mlax.jit(lambda x: x + mnp.where(mnp.asarray(c[:3]) > 0, 1, 2))(x[:3])),
        np.where(c[:3] > 0, 1, 2))
    # NaN -> int is left to XLA: the convert stays, and finite lanes match NumPy.
    assert "stablehlo.convert" in stablehlo(f, x)
    out = np.asarray(mlax.jit(f)(x))
    np.testing.assert_array_equal(out[:3], np.where(c > 0, c, -c)[:3].astype(np.int32))


# ---------------------------------------------------------------------------
# IEEE float semantics survive simplification
# ---------------------------------------------------------------------------

SPECIAL = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, -1.0], f32)


def test_x_times_zero_is_not_folded_for_floats():
    f = lambda x: x * 0.0
    assert "stablehlo.multiply" in stablehlo(f, SPECIAL)
    out = np.asarray(mlax.jit(f)(SPECIAL))
    with np.errstate(invalid="ignore"):
        expected = SPECIAL * f32(0.0)
    np.testing.assert_array_equal(out, expected)  # NaN, NaN, NaN, -0, 0, -0
    np.testing.assert_array_equal(np.signbit(out), np.signbit(expected))


def test_x_plus_zero_is_not_folded_for_floats():
    # -0.0 + 0.0 = +0.0, so mlax keeps the add. (XLA's own simplifier then
    # rewrites x + 0 to x, as it does for JAX: the result matches JAX's.)
    import jax

    f = lambda x: x + 0.0
    assert "stablehlo.add" in stablehlo(f, SPECIAL)
    out = np.asarray(mlax.jit(f)(SPECIAL))
    expected = np.asarray(jax.jit(f)(SPECIAL))
    np.testing.assert_array_equal(out, expected)
    np.testing.assert_array_equal(np.signbit(out), np.signbit(expected))


def test_exact_float_identities_are_folded():
    f = lambda x: ((x * 1.0) / 1.0 - 0.0) + (-0.0)
    text = stablehlo(f, SPECIAL)
    assert ops_in(text) == set(), text
    out = np.asarray(mlax.jit(f)(SPECIAL))
    np.testing.assert_array_equal(out, SPECIAL)
    np.testing.assert_array_equal(np.signbit(out), np.signbit(SPECIAL))


def test_nan_producing_folds_produce_nan():
    def f(x):
        return x + mnp.sqrt(mnp.asarray(np.array([-1.0, 4.0], f32))) + \
            mnp.log(mnp.asarray(np.array([-1.0, 0.0], f32)))

    x = np.zeros(2, f32)
    assert ops_in(stablehlo(f, x)) <= {"stablehlo.constant", "stablehlo.add"}
    out = np.asarray(mlax.jit(f)(x))
    assert np.isnan(out[0]) and out[1] == -np.inf


def test_integer_division_by_zero_folds_to_xla_runtime_results():
    # XLA's constant folder dies with SIGFPE on a constant integer division by
    # zero (jax.jit does too), so mlax folds it first, to exactly what XLA
    # computes at run time for the same values passed as arguments.
    cases = [(np.array([7, -7, -2**31, 5], np.int32), np.array([0, 0, -1, 2], np.int32)),
             (np.array([7, -128], np.int8), np.array([0, -1], np.int8)),
             (np.array([7, 9], np.uint32), np.array([0, 3], np.uint32))]
    for a, b in cases:
        def const(_):
            return lax.div(mnp.asarray(a), mnp.asarray(b)), lax.rem(mnp.asarray(a), mnp.asarray(b))
        text = stablehlo(const, np.zeros(1, np.int32))
        assert "stablehlo.divide" not in text and "stablehlo.remainder" not in text
        folded = mlax.jit(const)(np.zeros(1, np.int32))
        runtime = mlax.jit(lambda a, b: (lax.div(a, b), lax.rem(a, b)))(a, b)
        for f_, r_ in zip(folded, runtime):
            np.testing.assert_array_equal(np.asarray(f_), np.asarray(r_))


def test_constant_integer_division_by_zero_does_not_crash_the_process():
    import subprocess
    import sys
    code = ("import mlax, mlax.numpy as mnp\n"
            "print(mlax.jit(lambda: mnp.array([7, 2]) // 0)())\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]


def test_large_non_splat_constants_are_not_materialised():
    # A 2-element constant broadcast to 400k elements stays a broadcast; the
    # StableHLO text stays small.
    v = np.array([1.0, 2.0], f32)
    f = lambda x: x + mnp.broadcast_to(mnp.asarray(v), (200_000, 2)) * 3.0
    x = np.zeros((200_000, 2), f32)
    text = stablehlo(f, x)
    assert "stablehlo.broadcast_in_dim" in text
    assert len(text) < 5000
    np.testing.assert_array_equal(np.asarray(mlax.jit(f)(x)), np.broadcast_to(v * 3, (200_000, 2)))


def test_splats_fold_at_any_size():
    f = lambda x: x + mnp.ones((1000, 1000), f32) * 2.0
    x = np.zeros((1000, 1000), f32)
    text = stablehlo(f, x)
    assert "stablehlo.multiply" not in text and len(text) < 2000
    assert float(np.asarray(mlax.jit(f)(x))[123, 456]) == 2.0


def test_dot_of_constants_folds_and_matches_numpy():
    a = np.arange(6, dtype=f32).reshape(2, 3) / 7
    b = np.arange(12, dtype=f32).reshape(3, 4) - 5.5

    def f(x):
        return x + mnp.asarray(a) @ mnp.asarray(b)

    x = np.zeros((2, 4), f32)
    text = stablehlo(f, x)
    assert "dot_general" not in text and ops_in(text) <= {"stablehlo.constant", "stablehlo.add"}
    np.testing.assert_allclose(np.asarray(mlax.jit(f)(x)), a @ b, rtol=1e-6)

"""lax.Tolerance, lax.AccuracyMode and the `accuracy=` of the transcendental
lax ops, against JAX's: values (a hint changes no result on CPU), weak
types, the StableHLO `result_accuracy` each hint lowers to, the derivative
rules that keep the hint, vmap, and the errors of bad hints.

mlax lowers lax.logistic to `stablehlo.logistic` (with the hint); JAX lowers
it to `1 / (1 + exp(-x))` and drops the hint, so logistic's StableHLO is
checked on its own.
"""
from __future__ import annotations

import collections
import math
import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mlax
import mlax.numpy as mnp
from _helpers import assert_tree_like

NAMES = ("exp", "exp2", "expm1", "log", "log1p", "logistic", "sin", "cos", "tan", "tanh",
         "sqrt", "rsqrt", "cbrt")
COMPLEX = ("exp", "log", "sin", "cos", "sqrt")

# (name, Tolerance kwargs or an AccuracyMode name)
HINTS = (("tolerance", dict(atol=1e-5, rtol=1e-3)), ("ulps", dict(ulps=2)),
         ("highest", "HIGHEST"), ("default", "DEFAULT"))


def _hint(lib, hint):
    return getattr(lib.lax.AccuracyMode, hint) if isinstance(hint, str) \
        else lib.lax.Tolerance(**hint)


X = np.array([0.25, 0.5, 1.5], np.float32)  # in every function's domain
Z = np.array([0.25 + 0.5j, 1.5 - 0.25j], np.complex64)


def _table(lib):
    """Every function under every hint on real inputs, and a few under one
    hint on complex inputs (XLA's complex expansions are most of the compile
    time; complex sin and cos are lowered with the hint, where JAX expands
    them)."""
    def table(x, z):
        out = {f"{name}/{hint_name}/real": getattr(lib.lax, name)(x, accuracy=_hint(lib, hint))
               for hint_name, hint in HINTS for name in NAMES}
        out.update({f"{name}/highest/complex": getattr(lib.lax, name)(
            z, accuracy=lib.lax.AccuracyMode.HIGHEST) for name in COMPLEX})
        return out
    return table


def test_values_jit_match_jax():
    got = mlax.jit(_table(mlax))(X, Z)
    want = jax.jit(_table(jax))(X, Z)
    assert_tree_like(got, want, rtol=2e-6, atol=2e-6)
    # On CPU a hint changes nothing: the same as without one.
    plain = mlax.jit(lambda x: [getattr(mlax.lax, n)(x) for n in NAMES])(X)
    for name, p in zip(NAMES, plain):
        for hint_name, _ in HINTS:
            np.testing.assert_array_equal(np.asarray(got[f"{name}/{hint_name}/real"]),
                                          np.asarray(p))


@pytest.mark.parametrize("name,hint", [("exp", HINTS[0][1]), ("cbrt", "HIGHEST"),
                                       ("tanh", HINTS[1][1])])
def test_values_eager_match_jax(name, hint):
    for x in (X, 0.5):  # an array and a weakly typed Python scalar
        got = getattr(mlax.lax, name)(x, accuracy=_hint(mlax, hint))
        want = getattr(jax.lax, name)(x, accuracy=_hint(jax, hint))
        assert_tree_like(got, want, rtol=2e-6, atol=2e-6)


_ACCURACY = re.compile(r'"?(stablehlo\.\w+)"?\(.*result_accuracy = (#stablehlo\.result_accuracy<'
                       r'[^>]*(?:<[^>]*>)?>)')


def _hinted_ops(text):
    """The (StableHLO op, result_accuracy) of each op with a hint, counted."""
    return collections.Counter(_ACCURACY.findall(text))


def _jax_stablehlo(fn, *args):
    # The generic form, as mlax hands XLA (it keeps DEFAULT's attribute).
    module = jax.jit(fn).lower(*args).compiler_ir("stablehlo")
    return module.operation.get_asm(print_generic_op_form=True)


@pytest.mark.parametrize("hint_name,hint", HINTS, ids=[h[0] for h in HINTS])
def test_stablehlo_carries_result_accuracy(hint_name, hint):
    def program(lib):
        names = [n for n in NAMES if n != "logistic"]
        return lambda x: [getattr(lib.lax, n)(x, accuracy=_hint(lib, hint)) for n in names]

    got = _hinted_ops(mlax.jit(program(mlax)).lower(X).as_text())
    want = _hinted_ops(_jax_stablehlo(program(jax), X))
    assert got == want and sum(want.values()) == len(NAMES) - 1
    logistic = mlax.jit(lambda x: mlax.lax.logistic(x, accuracy=_hint(mlax, hint)))
    (op, attr), = _hinted_ops(logistic.lower(X).as_text())
    assert op == "stablehlo.logistic" and attr == next(iter(want))[1]


def test_tolerance_text_is_jaxs():
    # Each tolerance printed as StableHLO prints it (zeros left out), the
    # values exact.
    for kw in (dict(atol=1e-5, ulps=3), dict(rtol=1e-300, ulps=2**40), dict(atol=math.inf),
               dict(atol=0.1, rtol=1 / 3)):
        def f(lib, kw=kw):
            return lambda x: lib.lax.sin(x, accuracy=lib.lax.Tolerance(**kw))
        got = _hinted_ops(mlax.jit(f(mlax)).lower(X).as_text())
        assert got == _hinted_ops(_jax_stablehlo(f(jax), X)), kw


def _grads(lib):
    """d/dx of every function under every hint, batched over x."""
    def total(x):
        return sum(getattr(lib.lax, n)(x, accuracy=_hint(lib, h))
                   for _, h in HINTS for n in NAMES)
    return lib.vmap(lib.grad(total))


def test_grad_and_vmap_match_jax():
    got = mlax.jit(_grads(mlax))(X)
    want = jax.jit(_grads(jax))(X)
    assert_tree_like(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", ["sin", "cos", "expm1"])
def test_derivative_keeps_the_hint_as_jax(name):
    # JAX's rules: sin' = cos and cos' = -sin at the same accuracy; expm1' =
    # exp at the highest accuracy when that is asked. (JAX's grad of sin
    # drops the hint through its linearization; its jvp keeps it, as mlax's
    # one rule does.)
    def f(lib):
        fn = getattr(lib.lax, name)
        hint = lib.lax.AccuracyMode.HIGHEST
        return lambda x, t: lib.jvp(lambda x: fn(x, accuracy=hint), (x,), (t,))

    got = _hinted_ops(mlax.jit(f(mlax)).lower(X, X).as_text())
    want = _hinted_ops(_jax_stablehlo(f(jax), X, X))
    assert got == want and sum(want.values()) == 2


def test_highest_derivative_formulas_match_jax():
    # With AccuracyMode.HIGHEST, tanh' is 4 * logistic(2x) * logistic(-2x)
    # and logistic' is logistic(x) * logistic(-x), as JAX's rules: compared
    # at large x, where they differ from 1 - tanh^2 and l * (1 - l).
    x = np.array([-20.0, -8.0, 0.5, 9.0, 20.0], np.float32)

    def f(lib):
        hint = lib.lax.AccuracyMode.HIGHEST
        return lambda x: [lib.vmap(lib.grad(lambda v: getattr(lib.lax, n)(v, accuracy=hint)))(x)
                          for n in ("tanh", "logistic")]

    got = mlax.jit(f(mlax))(x)
    want = jax.jit(f(jax))(x)
    assert_tree_like(got, want, rtol=1e-6, atol=0)


def test_make_jaxpr_shows_the_hint():
    jaxpr = mlax.make_jaxpr(lambda x: mlax.lax.exp(x, accuracy=mlax.lax.AccuracyMode.HIGHEST))(X)
    assert "accuracy=AccuracyMode.HIGHEST" in str(jaxpr)


def test_classes_as_jaxs():
    for lib in (mlax, jax):
        t = lib.lax.Tolerance(1e-3, 1e-4, 2)
        assert (t.atol, t.rtol, t.ulps) == (1e-3, 1e-4, 2)
        t = lib.lax.Tolerance(rtol=1e-2)
        assert (t.atol, t.rtol, t.ulps) == (0.0, 1e-2, 0)
    assert [(m.name, m.value) for m in mlax.lax.AccuracyMode] == \
        [(m.name, m.value) for m in jax.lax.AccuracyMode]


def _outcome(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 (the class is compared with JAX's)
        return type(e), str(e)
    return None, None


BAD = [
    ("no tolerance", lambda lib: lib.lax.Tolerance()),
    ("negative atol", lambda lib: lib.lax.Tolerance(atol=-1.0)),
    ("negative rtol", lambda lib: lib.lax.Tolerance(rtol=-1e-3)),
    ("negative ulps", lambda lib: lib.lax.Tolerance(ulps=-1)),
    ("string atol", lambda lib: lib.lax.Tolerance(atol="a")),
    ("string hint", lambda lib: lib.lax.exp(1.0, accuracy="HIGHEST")),
    ("int hint", lambda lib: lib.lax.sin(1.0, accuracy=1)),
    ("float ulps", lambda lib: lib.lax.exp(1.0, accuracy=lib.lax.Tolerance(ulps=1.5))),
    ("NaN atol", lambda lib: lib.lax.log(1.0, accuracy=lib.lax.Tolerance(atol=math.nan))),
    ("int operand", lambda lib: lib.lax.exp(np.int32(1), accuracy=lib.lax.Tolerance(atol=1e-3))),
    ("complex cbrt", lambda lib: lib.lax.cbrt(np.complex64(1),
                                              accuracy=lib.lax.AccuracyMode.HIGHEST)),
    ("positional hint", lambda lib: lib.lax.exp(1.0, lib.lax.AccuracyMode.HIGHEST)),
    ("numpy has none", lambda lib: (mnp if lib is mlax else jnp).exp(
        1.0, accuracy=lib.lax.AccuracyMode.HIGHEST)),
]

# The gist of JAX's message, where mlax says it too.
GIST = {"no tolerance": "At least one of atol, rtol, or ulps must be set.",
        "negative atol": "Tolerances must be non-negative.",
        "string hint": "Accuracy HIGHEST not supported",
        "NaN atol": "tolerance", "int operand": "int32"}


@pytest.mark.parametrize("case,bad", BAD, ids=[c for c, _ in BAD])
def test_errors_as_jax(case, bad):
    got_cls, got_msg = _outcome(lambda: bad(mlax))
    want_cls, _ = _outcome(lambda: bad(jax))
    assert want_cls is not None and got_cls is want_cls, (got_cls, want_cls, got_msg)
    assert GIST.get(case, "") in got_msg
    if case == "string hint":  # under jit too
        got_cls, _ = _outcome(lambda: mlax.jit(
            lambda x: mlax.lax.exp(x, accuracy="HIGHEST"))(X))
        assert got_cls is NotImplementedError

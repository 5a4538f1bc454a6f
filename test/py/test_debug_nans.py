"""jax_debug_nans / jax_debug_infs (mlax.debug_nans, mlax.debug_infs,
mlax.config.update), against JAX's: which calls raise FloatingPointError,
with which message, and what is printed on the way."""
import numpy as np
import pytest

import jax
import jax.numpy as jnp

import mlax
import mlax.numpy as mnp


@pytest.fixture
def switches():
    """Turns a switch on in both libraries for one test; both off after."""
    on = []

    def turn_on(name):
        jax.config.update(name, True)
        mlax.config.update(name, True)
        on.append(name)

    yield turn_on
    for name in on:
        jax.config.update(name, False)
        mlax.config.update(name, False)


def outcome(fn, capsys):
    """(exception class name or 'ok', message or value, what was printed)."""
    try:
        value = fn()
        result = ("ok", repr(np.asarray(value).tolist()))  # (repr: nan == nan)
    except Exception as e:  # noqa: BLE001
        result = (type(e).__name__, str(e))
    return result + (capsys.readouterr().out,)


def same(capsys, ours, theirs):
    a, b = outcome(ours, capsys), outcome(theirs, capsys)
    assert a == b, (a, b)
    return a


# JAX's answers depend on what its process ran before (an op it dispatched
# in C++ before a switch went on is not checked again, so its de-optimized
# run finds nothing), so its reference outcomes come from a fresh process.
_REFERENCE_SCRIPT = """
import contextlib, io, json, sys
sys.path.insert(0, sys.argv[1])
import numpy as np, jax, jax.numpy as jnp
import test_debug_nans as t
out = {}
for switch, cases in (("jax_debug_nans", t.NAN_CASES), ("jax_debug_infs", t.INF_CASES)):
    jax.config.update(switch, True)
    for name, case in cases:
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            try:
                r = ["ok", repr(np.asarray(case(jnp, jax.jit)).tolist())]
            except Exception as e:
                r = [type(e).__name__, str(e)]
        out[switch + ":" + name] = r + [buf.getvalue()]
    jax.config.update(switch, False)
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def jax_reference():
    import json
    import os
    import subprocess
    import sys

    here = os.path.dirname(os.path.abspath(__file__))
    proc = subprocess.run([sys.executable, "-c", _REFERENCE_SCRIPT, here], capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def sin_plus_log(np_):
    return lambda x: np_.sin(x) + np_.log(x)


NAN_CASES = [
    ("log of a negative scalar", lambda np_, jit: np_.log(-1.0)),
    ("log of an array", lambda np_, jit: np_.log(np_.array([1.0, -1.0]))),
    ("sqrt of a negative", lambda np_, jit: np_.sqrt(np_.array([-4.0], np.float32))),
    ("jit finds the op", lambda np_, jit: jit(sin_plus_log(np_))(-1.0)),
    ("jit without an invalid value", lambda np_, jit: jit(sin_plus_log(np_))(1.0)),
    ("nan passed through jit", lambda np_, jit: jit(lambda x: x)(float("nan"))),
    ("nan made by XLA from inf", lambda np_, jit: jit(lambda x: x * 0)(float("inf"))),
    ("inf is not a nan", lambda np_, jit: np_.log(0.0)),
    ("integers are not checked", lambda np_, jit: jit(lambda x: x // 0)(np.int32(3))),
    ("bfloat16", lambda np_, jit: np_.log(np_.array([-1.0], dtype=np_.bfloat16))),
    ("nested jit", lambda np_, jit: jit(lambda x: jit(np_.arccos)(x) * 2)(3.0)),
]


@pytest.mark.parametrize("name,case", NAN_CASES, ids=[c[0] for c in NAN_CASES])
def test_debug_nans_as_jax(name, case, switches, capsys, jax_reference):
    switches("jax_debug_nans")
    ours = outcome(lambda: case(mnp, mlax.jit), capsys)
    assert list(ours) == jax_reference["jax_debug_nans:" + name]


INF_CASES = [
    ("log of zero", lambda np_, jit: np_.log(0.0)),
    ("divide by zero eagerly", lambda np_, jit: np_.divide(np_.array(1.0), 0.0)),
    ("python division in the de-optimized run", lambda np_, jit: jit(lambda x: 1 / x)(0.0)),
    ("exp overflows under jit", lambda np_, jit: jit(lambda x: np_.exp(x) - 1)(
        np_.array([1.0, 100.0], np.float32))),
    ("nan is not an inf", lambda np_, jit: np_.log(-1.0)),
]


@pytest.mark.parametrize("name,case", INF_CASES, ids=[c[0] for c in INF_CASES])
def test_debug_infs_as_jax(name, case, switches, capsys, jax_reference):
    switches("jax_debug_infs")
    ours = outcome(lambda: case(mnp, mlax.jit), capsys)
    assert list(ours) == jax_reference["jax_debug_infs:" + name]


def test_a_cached_call_is_checked_once_the_switch_is_on(switches, capsys, jax_reference):
    """A jitted function called (and so fast-pathed in C++) before the switch
    is turned on is checked after: as JAX's fresh function is."""
    fm, fj = mlax.jit(sin_plus_log(mnp)), jax.jit(sin_plus_log(jnp))
    for _ in range(3):
        fm(2.0), fj(2.0)
        fm(-1.0), fj(-1.0)  # NaN, unchecked
    switches("jax_debug_nans")
    ours = outcome(lambda: fm(-1.0), capsys)
    assert list(ours) == jax_reference["jax_debug_nans:jit finds the op"]
    assert ours[0] == "FloatingPointError" and ours[1].endswith("encountered in log")
    np.testing.assert_allclose(np.asarray(fm(2.0)), np.asarray(fj(2.0)), rtol=1e-6)


def test_turning_the_switch_off_stops_the_checks(switches):
    f = mlax.jit(lambda x: mnp.log(x))
    switches("jax_debug_nans")
    with pytest.raises(FloatingPointError):
        f(-1.0)
    mlax.config.update("jax_debug_nans", False)
    jax.config.update("jax_debug_nans", False)
    for _ in range(3):
        assert np.isnan(np.asarray(f(-1.0)))


@pytest.mark.parametrize("name", ["debug_nans", "debug_infs"])
def test_context_managers_scope_the_switch(name):
    arg = -1.0 if name == "debug_nans" else 0.0
    with getattr(mlax, name)(True):
        assert getattr(mlax.config, f"jax_{name}")
        with pytest.raises(FloatingPointError, match=r"encountered in log"):
            mnp.log(arg)
    assert not getattr(mlax.config, f"jax_{name}")
    assert not np.isfinite(np.asarray(mnp.log(arg)))
    with getattr(mlax, name)():  # True by default, as JAX's
        assert getattr(mlax.config, f"jax_{name}")


def test_gradient_producing_inf_is_not_a_nan(switches, capsys):
    switches("jax_debug_nans")
    same(capsys, lambda: mlax.grad(mnp.sqrt)(0.0), lambda: jax.grad(jnp.sqrt)(0.0))


def test_eager_transformation_names_itself(switches):
    """An eager vmap is one compiled program in mlax (JAX runs it op by op):
    the error is JAX's class and names the transformation."""
    switches("jax_debug_nans")
    with pytest.raises(FloatingPointError, match=r"invalid value \(nan\) encountered in vmap"):
        mlax.vmap(mnp.log)(mnp.array([1.0, -1.0]))
    with pytest.raises(FloatingPointError):
        jax.vmap(jnp.log)(jnp.array([1.0, -1.0]))


def test_switch_values_must_be_bools():
    with pytest.raises(TypeError, match="jax_debug_nans must be a bool"):
        mlax.config.update("jax_debug_nans", "yes")
    mlax.config.update("debug_infs", False)  # JAX's short alias
    assert mlax.config.jax_debug_infs is False

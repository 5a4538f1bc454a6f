"""x64: mlax's own switch, and the dtypes JAX gives with it on and off.

* Inexact promotion (JAX's promote_dtypes_inexact / to_inexact_dtype):
  bool and 8/16/32-bit integers become float32 whether or not x64 is on;
  only 64-bit integers become float64 (and only with x64).
* `mlax.config.update("jax_enable_x64", True)` alone (JAX's flag left off)
  is enough for float64 arrays; JAX_ENABLE_X64=1 in the environment too.
"""
from __future__ import annotations

import os
import subprocess
import sys
import warnings

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax._src import config as jax_config

import mlax
import mlax.numpy as mnp

INT_DTYPES = ["bool", "int8", "uint16", "int32", "uint32", "int64", "uint64"]


@pytest.fixture
def mlax_x64_only():
    """mlax's switch on, JAX's global one explicitly off."""
    old_m, old_j = mlax.config.jax_enable_x64, jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", False)
    mlax.config.update("jax_enable_x64", True)
    yield
    mlax.config.update("jax_enable_x64", old_m)
    jax.config.update("jax_enable_x64", old_j)


class _both_x64:
    """mlax's switch set, and JAX's set thread-locally for the reference."""

    def __init__(self, on):
        self.on = on

    def __enter__(self):
        self.old = mlax.config.jax_enable_x64
        mlax.config.update("jax_enable_x64", self.on)
        self.jax_ctx = jax_config.enable_x64(self.on)
        self.jax_ctx.__enter__()

    def __exit__(self, *exc):
        self.jax_ctx.__exit__(*exc)
        mlax.config.update("jax_enable_x64", self.old)


# (name, fn(m, x) with m the numpy module); each promotes its integer/bool
# inputs to an inexact dtype.
INEXACT_FNS = [
    ("sin", lambda m, x: m.sin(x)),
    ("exp", lambda m, x: m.exp(x)),
    ("sqrt", lambda m, x: m.sqrt(x)),
    ("tanh", lambda m, x: m.tanh(x)),
    ("reciprocal", lambda m, x: m.reciprocal(x)),
    ("true_divide", lambda m, x: m.true_divide(x, x)),
    ("divide_pyint", lambda m, x: m.divide(x, 2)),
    ("divide_pyfloat", lambda m, x: m.divide(x, 2.0)),
    ("arctan2", lambda m, x: m.arctan2(x, x)),
    ("logaddexp", lambda m, x: m.logaddexp(x, x)),
    ("hypot", lambda m, x: m.hypot(x, x)),
    ("mean", lambda m, x: m.mean(x)),
    ("var", lambda m, x: m.var(x, axis=0)),
    ("std", lambda m, x: m.std(x)),
    ("average", lambda m, x: m.average(x, axis=1)),
    ("norm", lambda m, x: m.linalg.norm(x)),
]


@pytest.mark.parametrize("x64", [False, True], ids=["x32", "x64"])
@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_inexact_promotion_matches_jax(dtype, x64):
    x_np = np.arange(1, 7).reshape(2, 3).astype(dtype)
    with _both_x64(x64), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # JAX's "int64 will be truncated" without x64
        x_j = jnp.asarray(x_np)
        x_m = mnp.asarray(x_np)
        assert x_m.dtype == x_j.dtype
        refs = [fn(jnp, x_j) for _, fn in INEXACT_FNS]
        eager = [fn(mnp, x_m) for _, fn in INEXACT_FNS]
        # Under jit: all of them in one program (one compile).
        jitted = mlax.jit(lambda a: [fn(mnp, a) for _, fn in INEXACT_FNS])(x_m)
        for (name, _), ref, e, j in zip(INEXACT_FNS, refs, eager, jitted):
            for out, mode in ((e, "eager"), (j, "jit")):
                assert (out.dtype, out.weak_type, out.shape) == \
                    (ref.dtype, ref.weak_type, ref.shape), (name, mode)
                np.testing.assert_allclose(np.asarray(out), np.asarray(ref), rtol=2e-6,
                                           atol=1e-6, err_msg=f"{name} ({mode})")
        # The rule itself: 64-bit ints -> float64 (with x64), others -> float32.
        expect = np.float64 if (x64 and np.dtype(dtype).itemsize == 8) else np.float32
        assert eager[0].dtype == jitted[0].dtype == expect


@pytest.mark.parametrize("x64", [False, True], ids=["x32", "x64"])
def test_weak_scalars_promote_like_jax(x64):
    # A Python int is a weak default int: int64 with x64, so float64.
    with _both_x64(x64):
        for fn in (lambda m: m.sin(1), lambda m: m.sqrt(True), lambda m: m.true_divide(1, 2),
                   lambda m: m.mean(m.asarray(3))):
            out, ref = fn(mnp), fn(jnp)
            assert (out.dtype, out.weak_type) == (ref.dtype, ref.weak_type)
            np.testing.assert_allclose(np.asarray(out), np.asarray(ref), rtol=1e-7)


@pytest.mark.parametrize("x64", [False, True], ids=["x32", "x64"])
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "uint32", "int32"])
def test_numeric_promotion_matches_jax(dtype, x64):
    """Bools as int32 (even with x64), small ints summed in the default
    (unsigned) int, as JAX."""
    x_np = np.array([[1, 0, 1], [1, 1, 0]]).astype(dtype)
    with _both_x64(x64):
        x_j, x_m = jnp.asarray(x_np), mnp.asarray(x_np)
        fns = [lambda m, x: m.square(x), lambda m, x: m.sum(x), lambda m, x: m.prod(x, axis=0),
               lambda m, x: m.cumsum(x), lambda m, x: m.power(x, x),
               lambda m, x: m.floor_divide(x, m.ones_like(x)),
               lambda m, x: m.remainder(x, m.ones_like(x))]
        for i, fn in enumerate(fns):
            ref = fn(jnp, x_j)
            for out in (fn(mnp, x_m), mlax.jit(lambda a, f=fn: f(mnp, a))(x_m)):
                assert (out.dtype, out.weak_type) == (ref.dtype, ref.weak_type), i
                np.testing.assert_array_equal(np.asarray(out), np.asarray(ref))


# ---------------------------------------------------------------------------
# mlax's own x64 switch is sufficient
# ---------------------------------------------------------------------------

def test_mlax_flag_alone_keeps_float64(mlax_x64_only):
    assert not jax.config.jax_enable_x64
    data = np.arange(5, dtype=np.float64) / 3
    expect = np.sum(data * data) + 1e-12  # not representable in float32
    a = mnp.array(data)
    assert a.dtype == np.float64 and np.asarray(a).dtype == np.float64
    np.testing.assert_array_equal(np.asarray(a), data)
    out = mnp.sum(a * a) + 1e-12
    assert out.dtype == np.float64
    np.testing.assert_allclose(np.asarray(out), expect, rtol=1e-15)
    assert np.asarray(out) != np.float32(expect)

    f = mlax.jit(lambda x: mnp.sum(x * x) + 1e-12)
    for arg in (a, data, mnp.asarray(data)):  # mlax arrays and NumPy inputs
        r = f(arg)
        assert r.dtype == np.float64
        np.testing.assert_allclose(np.asarray(r), expect, rtol=1e-15)
        r = f(arg)  # the cached call too
        assert r.dtype == np.float64
        np.testing.assert_allclose(np.asarray(r), expect, rtol=1e-15)

    i = mnp.array(np.array([2**40, 3], np.int64))
    assert i.dtype == np.int64
    np.testing.assert_array_equal(np.asarray(i + 1), [2**40 + 1, 4])
    assert mnp.zeros(3).dtype == np.float64
    assert mlax.device_put(data).dtype == np.float64
    np.testing.assert_array_equal(np.asarray(mlax.device_put(data)), data)
    d = mlax.dlpack.from_dlpack(data.copy())
    assert d.dtype == np.float64
    np.testing.assert_array_equal(np.asarray(d), data)
    # JAX's global flag is untouched.
    assert not jax.config.jax_enable_x64
    assert jnp.asarray(data).dtype == np.float32


def test_without_x64_float64_input_becomes_float32_like_jax():
    old_m, old_j = mlax.config.jax_enable_x64, jax.config.jax_enable_x64
    try:
        for jax_flag in (False, True):  # JAX's flag alone does not turn mlax's on
            jax.config.update("jax_enable_x64", jax_flag)
            mlax.config.update("jax_enable_x64", False)
            data = np.arange(5, dtype=np.float64) / 3
            a = mnp.array(data)
            assert a.dtype == np.float32 and np.asarray(a).dtype == np.float32
            np.testing.assert_array_equal(np.asarray(a), data.astype(np.float32))
            r = mlax.jit(lambda x: x * 2)(data)
            assert r.dtype == np.float32
            np.testing.assert_array_equal(np.asarray(r), data.astype(np.float32) * 2)
            assert mlax.dlpack.from_dlpack(data.copy()).dtype == np.float32
            assert mnp.array(np.arange(3, dtype=np.int64)).dtype == np.int32
    finally:
        mlax.config.update("jax_enable_x64", old_m)
        jax.config.update("jax_enable_x64", old_j)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with jax_config.enable_x64(False):
            assert jnp.asarray(data).dtype == a.dtype


@pytest.mark.parametrize("env", ["1", "0"])
def test_env_var_alone_sets_mlax_x64(env):
    code = (
        "import numpy as np, mlax, mlax.numpy as mnp\n"
        "d = np.arange(4, dtype=np.float64) / 3\n"
        "a = mnp.array(d)\n"
        "r = mlax.jit(lambda x: x * x)(d)\n"
        "print(mlax.config.x64_enabled, a.dtype, r.dtype, np.asarray(r).dtype,"
        " float(np.max(np.abs(np.asarray(r) - d * d))))\n")
    env_vars = dict(os.environ, JAX_ENABLE_X64=env)
    out = subprocess.run([sys.executable, "-c", code], env=env_vars, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    flag, adt, rdt, hdt, err = out.stdout.split()
    if env == "1":
        assert (flag, adt, rdt, hdt) == ("True", "float64", "float64", "float64")
        assert float(err) < 1e-15
    else:
        assert (flag, adt, rdt, hdt) == ("False", "float32", "float32", "float32")
        assert float(err) > 1e-9

"""The math functions of mlax.lax and mlax.numpy added with MlaxMathOps.td:
special functions, clamp, top_k, argmax/argmin, cumulative reductions,
integer_pow, reduce, shape helpers and the numpy ufuncs built on them.

Values, dtypes and weak types are compared with jax.lax / jax.numpy,
eagerly and under mlax.jit; derivatives with JAX's and with float64 finite
differences; batching with jax.vmap.
"""
from __future__ import annotations

import functools
import zlib

import jax
import jax.lax as jlax
import jax.numpy as jnp
import numpy as np
import pytest
from _helpers import (MODES, assert_values, bf16, eager_share, jgrad, jvmap, pairwise,
                      param_id, run)

import mlax
import mlax.lax as lax
import mlax.numpy as mnp

FLOATS = [np.float16, bf16, np.float32]
SHAPES = [(), (5,), (2, 3)]



def check(out, expected, **tol):
    """Values, shape, dtype and weak type of `out` equal JAX's `expected`."""
    assert isinstance(out, mlax.Array), type(out)
    expected = jnp.asarray(expected) if not hasattr(expected, "weak_type") else expected
    assert out.shape == expected.shape, (out.shape, expected.shape)
    assert out.dtype == expected.dtype, (out.dtype, expected.dtype)
    assert out.weak_type == expected.weak_type, (out.weak_type, expected.weak_type)
    assert_values(out, np.asarray(expected), **tol)


def check_all(cases, eager=(), **tol):
    """`cases`: (label, mlax function, JAX function, args). All of them under
    mlax.jit in one program, against JAX's (jitted, also one program);
    eagerly (each call its own compile) those whose index is in `eager`.
    Values, dtypes and weak types as `check`'s."""
    args = [c[3] for c in cases]
    got = mlax.jit(lambda a: [fm(*x) for (_, fm, _, _), x in zip(cases, a)])(args)
    want = jax.jit(lambda a: [jf(*x) for (_, _, jf, _), x in zip(cases, a)])(args)
    for (label, fm, _, x), g, w in zip(cases, got, want):
        _check_tree(g, w, f"{label}, jit", **tol)
    for i in eager:
        label, fm, _, x = cases[i]
        _check_tree(fm(*x), want[i], f"{label}, eager", **tol)


def _check_tree(got, want, label, **tol):
    got, want = jax.tree_util.tree_leaves(got), jax.tree_util.tree_leaves(want)
    assert len(got) == len(want), label
    for g, w in zip(got, want):
        try:
            check(g, w, **tol)
        except AssertionError as e:
            raise AssertionError(f"{label}: {e}") from None


def rng_for(*key):
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


DOMAINS = {
    "any": (-2.0, 2.0), "unit": (-0.9, 0.9), "ge1": (1.1, 3.0), "pos": (0.2, 4.0),
    "nonzero": (0.5, 2.0), "big": (-30.0, 30.0),
}


def inp(shape, dtype, domain="any", seed=0):
    rng = rng_for(shape, np.dtype(dtype).name, domain, seed)
    lo, hi = DOMAINS[domain]
    x = rng.uniform(lo, hi, shape)
    if domain == "nonzero":
        x = x * rng.choice([-1, 1], shape)
    return np.asarray(x).astype(dtype)


# ---------------------------------------------------------------------------
# lax: elementwise functions
# ---------------------------------------------------------------------------

# name: input domain
LAX_UNARY = {
    "sinh": "any", "cosh": "any", "asin": "unit", "acos": "unit", "atan": "any",
    "asinh": "any", "acosh": "ge1", "atanh": "unit", "lgamma": "pos", "digamma": "pos",
    "erfc": "any", "cbrt": "any", "exp2": "any", "reciprocal": "nonzero",
}


# Elementwise: every function with every dtype and every shape, pairwise;
# each function's cases in one program (check_all).
_LAX_UNARY_CASES = pairwise(sorted(LAX_UNARY), FLOATS, SHAPES)


@pytest.mark.parametrize("name", sorted(LAX_UNARY))
def test_lax_unary_against_jax(name):
    cases = [(f"{name}({np.dtype(dtype).name}{list(shape)})", getattr(lax, name),
              getattr(jlax, name), (inp(shape, dtype, LAX_UNARY[name]),))
             for n, dtype, shape in _LAX_UNARY_CASES if n == name]
    check_all(cases, eager_share(len(cases), sorted(LAX_UNARY).index(name)))


def test_lax_unary_float64(x64):
    """Every function in one program."""
    check_all([(name, getattr(lax, name), getattr(jlax, name),
                (inp((7,), np.float64, LAX_UNARY[name]),)) for name in sorted(LAX_UNARY)],
              rtol=1e-13, atol=1e-13)


def test_lax_unary_weak_python_scalar():
    check(lax.sinh(0.5), jlax.sinh(0.5))
    check(mlax.jit(lambda: lax.cbrt(2.0))(), jlax.cbrt(2.0))


@pytest.mark.parametrize("name", ["sinh", "cosh", "asin", "acos", "atan", "asinh", "acosh",
                                  "atanh"])
def test_lax_trig_complex(name):
    z = (inp((4,), np.float32, "unit", 1) + 1j * inp((4,), np.float32, "unit", 2)).astype(
        np.complex64)
    if name == "acosh":
        z = z + 2
    expected = getattr(jlax, name)(z)
    for mode in MODES:
        out = run(getattr(lax, name), (z,), mode)
        assert out.dtype == expected.dtype and out.shape == expected.shape
        np.testing.assert_allclose(np.asarray(out), np.asarray(expected), rtol=1e-5, atol=1e-6)


DIFFERENTIABLE = sorted(LAX_UNARY)


@pytest.mark.parametrize("name", DIFFERENTIABLE)
def test_lax_unary_grad_against_jax(name):
    """The gradient, a jvp and the second derivative (the rules emit
    differentiable ops), in one program each for mlax and JAX."""
    x = inp((6,), np.float32, LAX_UNARY[name], seed=3)
    t = inp((6,), np.float32, "any", seed=4)

    def derivatives(f, np_, grad, jvp):
        return lambda x, t: (grad(lambda v: np_.sum(f(v)))(x), jvp(f, (x,), (t,)),
                             grad(lambda v: np_.sum(grad(lambda w: np_.sum(f(w)))(v)))(x))

    (g, (y, dy), g2) = mlax.jit(derivatives(getattr(lax, name), mnp, mlax.grad, mlax.jvp))(x, t)
    (jg, (jy, jdy), jg2) = jax.jit(derivatives(getattr(jlax, name), jnp, jax.grad, jax.jvp))(x, t)
    check(g, jg, rtol=1e-5, atol=1e-6)
    check(y, jy)
    check(dy, jdy, rtol=1e-5, atol=1e-6)
    check(g2, jg2, rtol=2e-4, atol=1e-5)


def _finite_difference(f, x, eps=1e-6):
    return np.array([(f(x + eps * e) - f(x - eps * e)) / (2 * eps)
                     for e in np.eye(x.size).reshape((x.size,) + x.shape)]).reshape(x.shape)


@pytest.mark.parametrize("name", DIFFERENTIABLE)
def test_lax_unary_grad_finite_differences_f64(name, x64):
    x = inp((4,), np.float64, LAX_UNARY[name], seed=5)
    f = getattr(lax, name)
    g = np.asarray(mlax.grad(lambda v: mnp.sum(f(v)))(x))
    fd = _finite_difference(lambda v: float(np.sum(np.asarray(mlax.jit(f)(v)))), x)
    np.testing.assert_allclose(g, fd, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("name", ["sinh", "acosh", "lgamma", "cbrt", "exp2"])
def test_lax_unary_vmap(name):
    x = inp((4, 3), np.float32, LAX_UNARY[name], seed=6)
    f, jf = getattr(lax, name), getattr(jlax, name)
    want0, want1 = jax.jit(lambda x: (jax.vmap(jf)(x), jax.vmap(jf, in_axes=1)(x)))(x)
    check(mlax.vmap(f)(x), want0)
    check(mlax.vmap(f, in_axes=1)(x), want1)


@pytest.mark.parametrize("name,arg,match", [
    ("sinh", np.arange(3, dtype=np.int32), "lax.sinh.*int32"),
    ("acosh", np.array([True]), "lax.acosh.*bool"),
    ("lgamma", np.arange(3, dtype=np.int32), "lax.lgamma.*int32"),
    ("digamma", np.ones(2, np.complex64), "lax.digamma.*complex64"),
    ("erfc", np.ones(2, np.int8), "lax.erfc.*int8"),
    ("cbrt", np.ones(2, np.complex64), "lax.cbrt.*complex64"),
    ("exp2", np.arange(3, dtype=np.int32), "lax.exp2.*int32"),
    ("population_count", np.ones(2, np.float32), "lax.population_count.*float32"),
    ("population_count", np.ones(2, bool), "lax.population_count.*bool"),
])
def test_lax_unary_dtype_errors(name, arg, match):
    for mode in MODES:
        with pytest.raises(TypeError, match=match):
            run(getattr(lax, name), (arg,), mode)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.uint16, np.int32,
                                   np.uint32])
def test_population_count_against_jax(dtype):
    info = np.iinfo(dtype)
    x = np.array([0, 1, 2, 3, info.max, info.min, 77, info.max // 3], dtype=dtype)
    for mode in MODES:
        check(run(lax.population_count, (x,), mode), jlax.population_count(x))


def test_population_count_int64(x64):
    x = np.array([0, -1, 2 ** 40 + 3, -(2 ** 62)], np.int64)
    check(mlax.jit(lax.population_count)(x), jlax.population_count(x))
    assert mlax.vmap(lax.population_count)(x.reshape(2, 2)).shape == (2, 2)


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
def test_polygamma_and_zeta_against_jax(dtype):
    m = np.array([0, 1, 2, 3, 1, 0], dtype)
    x = inp((6,), dtype, "pos", 7) + np.asarray(0.5, dtype)
    for mode in MODES:
        check(run(lax.polygamma, (m, x), mode), jlax.polygamma(m, x), rtol=2e-5, atol=1e-5)
    s = np.array([2.0, 3.0, 4.5, 1.5, 2.5, 6.0], dtype)
    for mode in MODES:
        check(run(lax.zeta, (s, x), mode), jlax.zeta(s, x), rtol=2e-5, atol=1e-5)


def test_polygamma_and_zeta_derivatives(x64):
    m = np.array([0.0, 1.0, 2.0])
    x = np.array([0.7, 1.5, 3.0])
    g = mlax.grad(lambda v: mnp.sum(lax.polygamma(m, v)))(x)
    check(g, jgrad(lambda v: jnp.sum(jlax.polygamma(m, v)))(x), rtol=1e-12)
    # The order is not differentiable (jax raises too): forward mode says
    # so, reverse mode gives NaN.
    with pytest.raises(Exception, match="polygamma.*respect to m"):
        mlax.jvp(lambda mm: lax.polygamma(mm, x), (m,), (np.ones(3),))
    assert np.isnan(np.asarray(mlax.grad(lambda mm: mnp.sum(lax.polygamma(mm, x)))(m))).all()
    # zeta: d/dq zeta(s, q) = -s zeta(s + 1, q), checked by finite differences.
    s = np.array([2.0, 3.5, 5.0])
    g = np.asarray(mlax.grad(lambda q: mnp.sum(lax.zeta(s, q)))(x))
    fd = _finite_difference(lambda q: float(np.sum(np.asarray(lax.zeta(s, q)))), x)
    np.testing.assert_allclose(g, fd, rtol=1e-6)
    with pytest.raises(Exception, match="zeta.*respect to x"):
        mlax.jvp(lambda ss: lax.zeta(ss, x), (s,), (np.ones(3),))


# ---------------------------------------------------------------------------
# integer_pow
# ---------------------------------------------------------------------------

_POW_DTYPES = FLOATS + [np.int32, np.uint8]


@pytest.mark.parametrize("dtype", _POW_DTYPES, ids=lambda d: np.dtype(d).name)
def test_integer_pow_against_jax(dtype):
    """Every exponent in one program (check_all)."""
    cases = []
    for y in [-3, -2, -1, 0, 1, 2, 3, 5, 8, 13]:
        if y < 0 and np.issubdtype(dtype, np.integer):
            with pytest.raises(TypeError, match="integer_pow.*negative"):
                lax.integer_pow(np.ones(3, dtype), y)
            continue
        if np.issubdtype(dtype, np.integer):
            x = np.array([0, 1, 2, 3], dtype)
        else:
            x = inp((2, 3), dtype, "nonzero", y)
        cases.append((f"integer_pow(x, {y})", lambda v, y=y: lax.integer_pow(v, y),
                      lambda v, y=y: jlax.integer_pow(v, y), (x,)))
    check_all(cases, eager_share(len(cases), _POW_DTYPES.index(dtype)))


@pytest.mark.parametrize("y", [-2, -1, 0, 1, 2, 3, 6])
def test_integer_pow_derivatives(y):
    """The gradient and vmap, in one program each for mlax and JAX."""
    x = inp((5,), np.float32, "nonzero", 11)

    def f(lax_, np_, grad, vmap):
        return lambda v: (grad(lambda w: np_.sum(lax_.integer_pow(w, y)))(v),
                          vmap(lambda w: lax_.integer_pow(w, y))(v))

    g, b = mlax.jit(f(lax, mnp, mlax.grad, mlax.vmap))(x)
    jg, jb = jax.jit(f(jlax, jnp, jax.grad, jax.vmap))(x)
    check(g, jg, rtol=1e-5)
    check(b, jb)


def test_integer_pow_errors():
    with pytest.raises(TypeError, match="integer_pow.*exponent"):
        lax.integer_pow(np.ones(2, np.float32), 2.5)
    with pytest.raises(TypeError, match="integer_pow.*bool"):
        lax.integer_pow(np.ones(2, bool), 2)


# ---------------------------------------------------------------------------
# clamp
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS + [np.int32, np.uint8, np.int8],
                         ids=lambda d: np.dtype(d).name)
def test_clamp_against_jax(dtype):
    x = (np.arange(-6, 6) * 0.75).astype(dtype).reshape(3, 4) if not np.issubdtype(
        dtype, np.integer) else np.arange(12).astype(dtype).reshape(3, 4)
    lo, hi = np.asarray(1, dtype), np.asarray(3, dtype)
    lo_arr = np.full_like(x, 2)
    check_all([("clamp(scalar lo)", lax.clamp, jlax.clamp, (lo, x, hi)),
               ("clamp(array lo)", lax.clamp, jlax.clamp, (lo_arr, x, hi))], eager=(0, 1))


def test_clamp_nan_and_python_scalars():
    x = np.array([np.nan, -np.inf, np.inf, 0.5, 2.0], np.float32)
    check(lax.clamp(np.float32(0), x, np.float32(1)), jlax.clamp(np.float32(0), x,
                                                                 np.float32(1)))
    check(lax.clamp(0.0, x, 1.0), jlax.clamp(np.float32(0.0), x, np.float32(1.0)))
    x16 = x.astype(np.float16)
    check(lax.clamp(0.0, x16, 1.0), jlax.clamp(np.float16(0), x16, np.float16(1)))


def test_clamp_derivatives():
    x = np.array([-2.0, -1.0, 0.0, 0.5, 1.0, 3.0], np.float32)
    lo, hi = np.float32(-1.0), np.float32(1.0)
    f = lambda a, b, c: mnp.sum(lax.clamp(a, b, c) ** 2)  # noqa: E731
    jf = lambda a, b, c: jnp.sum(jlax.clamp(a, b, c) ** 2)  # noqa: E731
    lo_b, hi_b = np.full(6, lo), np.full(6, hi)
    lo_a = np.linspace(-1.5, 0.2, 6).astype(np.float32)
    hi_a = np.linspace(0.1, 2.0, 6).astype(np.float32)
    t, z = np.ones(6, np.float32), np.zeros(6, np.float32)
    all_tangents = ((t, z, z), (z, t, z), (z, z, t), (t, t, t))
    # JAX's references, all in one jitted program
    jg, jgs, jvps = jax.jit(lambda lo, x, hi, lo_b, hi_b, lo_a, hi_a, ts: (
        jax.grad(jf, argnums=1)(lo, x, hi),
        [jax.grad(jf, argnums=argnums)(lo_b, x, hi_b) for argnums in (0, 1, 2)],
        [jax.jvp(jlax.clamp, (lo_a, x, hi_a), tangents) for tangents in ts]))(
        lo, x, hi, lo_b, hi_b, lo_a, hi_a, all_tangents)
    check(mlax.grad(f, argnums=1)(lo, x, hi), jg)
    # jax cannot differentiate a scalar bound of an array operand (its rule
    # selects between shapes () and (6,)); jax's masks give: only x = -2 is
    # below lo (and nothing at x == lo), only x = 3 above hi.
    check(mlax.grad(f, argnums=0)(lo, x, hi), jnp.float32(-2.0))
    check(mlax.grad(f, argnums=2)(lo, x, hi), jnp.float32(2.0))
    # With bounds of the operand's shape jax's rule runs: compare all three.
    for argnums, want in zip((0, 1, 2), jgs):
        check(mlax.grad(f, argnums=argnums)(lo_b, x, hi_b), want)
    # Array bounds, forward mode.
    for tangents, (jy, jdy) in zip(all_tangents, jvps):
        y, dy = mlax.jvp(lax.clamp, (lo_a, x, hi_a), tangents)
        check(y, jy)
        check(dy, jdy)


def test_clamp_vmap():
    x = inp((4, 3), np.float32, "any", 12)
    lo = inp((4,), np.float32, "any", 13) - 1
    hi = np.float32(0.5)
    check(mlax.vmap(lax.clamp, in_axes=(0, 0, None))(lo, x, hi),
          jvmap(jlax.clamp, in_axes=(0, 0, None))(lo, x, hi))
    check(mlax.vmap(lax.clamp, in_axes=(0, None, None))(lo, x[0], hi),
          jvmap(jlax.clamp, in_axes=(0, None, None))(lo, x[0], hi))
    check(mlax.vmap(lax.clamp, in_axes=(None, 0, None))(np.float32(-0.5), x, hi),
          jvmap(jlax.clamp, in_axes=(None, 0, None))(np.float32(-0.5), x, hi))


def test_clamp_errors():
    x = np.ones((2, 3), np.float32)
    with pytest.raises(TypeError, match="lax.clamp.*min.*shape"):
        lax.clamp(np.ones(3, np.float32), x, np.float32(1))
    with pytest.raises(TypeError, match="lax.clamp.*max dtype float64|lax.clamp.*max dtype"):
        lax.clamp(np.float32(0), x, np.ones((), np.int32))
    # (bools are JAX's clamp's too: test_upstream_lax_api; complex numbers not mlax's)
    with pytest.raises(TypeError, match="lax.clamp.*complex"):
        lax.clamp(np.complex64(0), np.ones(2, np.complex64), np.complex64(1))


# ---------------------------------------------------------------------------
# top_k
# ---------------------------------------------------------------------------

_TOP_K_DTYPES = FLOATS + [np.int32, np.uint8]


@pytest.mark.parametrize("dtype", _TOP_K_DTYPES, ids=lambda d: np.dtype(d).name)
def test_top_k_against_jax(dtype):
    """Each shape, k and axis; all in one program (check_all)."""
    cases = []
    for shape, k, axis in [((5,), 3, -1), ((3, 6), 2, -1), ((3, 6), 3, 0), ((2, 3, 4), 4, -1),
                           ((2, 3, 4), 1, 1), ((4,), 0, -1)]:
        rng = rng_for(shape, k)
        x = rng.integers(0, 4, shape).astype(dtype)  # ties on purpose
        cases.append((f"top_k({list(shape)}, k={k}, axis={axis})",
                      lambda a, k=k, axis=axis: lax.top_k(a, k, axis=axis),
                      lambda a, k=k, axis=axis: jlax.top_k(a, k, axis=axis), (x,)))
    check_all(cases, eager_share(len(cases), _TOP_K_DTYPES.index(dtype), k=2))


def test_top_k_nan_and_infinities():
    x = np.array([1.0, np.nan, -np.inf, np.inf, 0.0, np.nan, 2.0], np.float32)
    v, i = lax.top_k(x, 4)
    jv, ji = jlax.top_k(x, 4)
    check(v, jv)
    check(i, ji)


def test_top_k_derivatives_and_vmap():
    x = inp((3, 6), np.float32, "any", 14)
    f = lambda a: lax.top_k(a, 3)[0]  # noqa: E731
    jf = lambda a: jlax.top_k(a, 3)[0]  # noqa: E731
    w = inp((3, 3), np.float32, "any", 15)
    t = inp((3, 6), np.float32, "any", 16)
    # JAX's references, all in one jitted program
    jg, (jy, jdy), jg_axis0, jvs, jg_vmap = jax.jit(lambda x, t: (
        jax.grad(lambda a: jnp.sum(jf(a) * w))(x), jax.jvp(jf, (x,), (t,)),
        jax.grad(lambda a: jnp.sum(jlax.top_k(a, 2, axis=0)[0] ** 2))(x),
        [jax.vmap(lambda a: jlax.top_k(a, 2), in_axes=ax)(x) for ax in (0, 1)],
        jax.grad(lambda a: jnp.sum(jax.vmap(jf)(a[None]) ** 2))(x)))(x, t)
    check(mlax.grad(lambda a: mnp.sum(f(a) * w))(x), jg)
    y, dy = mlax.jvp(f, (x,), (t,))
    check(y, jy)
    check(dy, jdy)
    # along another axis
    g = mlax.grad(lambda a: mnp.sum(lax.top_k(a, 2, axis=0)[0] ** 2))(x)
    check(g, jg_axis0)
    # vmap over each axis
    for ax, (jv, ji) in zip((0, 1), jvs):
        v, i = mlax.vmap(lambda a: lax.top_k(a, 2), in_axes=ax)(x)
        check(v, jv)
        check(i, ji)
    # gradient of a vmapped top_k
    g = mlax.grad(lambda a: mnp.sum(mlax.vmap(f)(a[None]) ** 2))(x)
    check(g, jg_vmap)


def test_top_k_errors():
    with pytest.raises(ValueError, match="lax.top_k.*k=7"):
        lax.top_k(np.ones(5, np.float32), 7)
    with pytest.raises(ValueError, match="lax.top_k.*k=-1"):
        lax.top_k(np.ones(5, np.float32), -1)
    with pytest.raises(TypeError, match="lax.top_k.*scalar"):
        lax.top_k(np.float32(1), 1)
    with pytest.raises(ValueError, match="lax.top_k.*axis 2"):
        lax.top_k(np.ones((2, 2), np.float32), 1, axis=2)
    with pytest.raises(TypeError, match="lax.top_k.*bool"):
        lax.top_k(np.ones(3, bool), 1)
    with pytest.raises(TypeError, match="lax.top_k.*k must be an int"):
        lax.top_k(np.ones(3, np.float32), 1.5)
    z = np.array([1 + 2j, 1 - 1j], np.complex64)
    for top_k in (lax.top_k, jax.lax.top_k):  # JAX's class and words
        with pytest.raises(ValueError, match="top_k is not compatible with complex inputs"):
            top_k(z, 1)


# ---------------------------------------------------------------------------
# argmax, argmin
# ---------------------------------------------------------------------------

_ARG_DTYPES = FLOATS + [np.int32, np.uint8, np.bool_]


@pytest.mark.parametrize("name", ["argmax", "argmin"])
@pytest.mark.parametrize("dtype", _ARG_DTYPES, ids=lambda d: np.dtype(d).name)
def test_argminmax_against_jax(name, dtype):
    """Each axis and index dtype; all in one program (check_all)."""
    rng = rng_for(name, np.dtype(dtype).name)
    x = rng.integers(0, 3, (4, 5)).astype(dtype)  # many ties
    cases = [(f"{name}(axis={axis}, {np.dtype(index_dtype).name})",
              lambda a, axis=axis, i=index_dtype: getattr(lax, name)(a, axis, i),
              lambda a, axis=axis, i=index_dtype: getattr(jlax, name)(a, axis, i), (x,))
             for axis in (0, 1) for index_dtype in (np.int32, np.uint8, np.int16)]
    check_all(cases, eager_share(len(cases), _ARG_DTYPES.index(dtype)))


@pytest.mark.parametrize("name", ["argmax", "argmin"])
def test_argminmax_nan(name):
    x = np.array([[1.0, np.nan, 3.0, np.nan], [np.inf, -np.inf, 0.0, -0.0],
                  [2.0, 2.0, np.nan, 1.0]], np.float32)
    for axis in (0, 1):
        check(getattr(lax, name)(x, axis, np.int32), getattr(jlax, name)(x, axis, np.int32))


def test_argminmax_vmap_and_x64(x64):
    x = inp((3, 4, 5), np.float64, "any", 17)
    for name in ("argmax", "argmin"):
        f = lambda a: getattr(lax, name)(a, 1, np.int64)  # noqa: E731
        jf = lambda a: getattr(jlax, name)(a, 1, np.int64)  # noqa: E731
        check(mlax.vmap(f)(x), jvmap(jf)(x))
        check(mlax.vmap(f, in_axes=2)(x), jvmap(jf, in_axes=2)(x))


def test_argminmax_errors():
    x = np.ones((2, 3), np.float32)
    with pytest.raises(ValueError, match="lax.argmax.*axis 2"):
        lax.argmax(x, 2, np.int32)
    with pytest.raises(ValueError, match="lax.argmin.*axis -1"):
        lax.argmin(x, -1, np.int32)
    with pytest.raises(TypeError, match="lax.argmax.*index_dtype.*float32"):
        lax.argmax(x, 0, np.float32)
    with pytest.raises(ValueError, match="lax.argmin.*non-empty"):
        lax.argmin(np.ones((0, 2), np.float32), 0, np.int32)
    with pytest.raises(TypeError, match="lax.argmax.*complex64"):
        lax.argmax(np.ones(2, np.complex64), 0, np.int32)


# ---------------------------------------------------------------------------
# cumprod, cummax, cummin, cumlogsumexp
# ---------------------------------------------------------------------------

CUMULATIVE = ["cumprod", "cummax", "cummin", "cumlogsumexp"]


_CUMULATIVE_CASES = pairwise(CUMULATIVE, FLOATS + [np.int32, np.uint8, np.int8], [False, True])


@pytest.mark.parametrize("name,dtype,reverse", _CUMULATIVE_CASES, ids=param_id)
def test_cumulative_against_jax(name, dtype, reverse):
    """Each axis; all in one program (check_all)."""
    if name == "cumlogsumexp" and np.issubdtype(dtype, np.integer):
        with pytest.raises(TypeError, match="lax.cumlogsumexp"):
            lax.cumlogsumexp(np.ones(3, dtype))
        return
    rng = rng_for(name, np.dtype(dtype).name)
    if np.issubdtype(dtype, np.integer):
        x = rng.integers(0 if dtype == np.uint8 else -3, 4, (3, 5)).astype(dtype)
    else:
        x = rng.uniform(-1.5, 1.5, (3, 5)).astype(dtype)
    tol = dict(rtol=1e-2, atol=1e-2) if dtype in (np.float16, bf16) else {}
    cases = [(f"{name}(axis={axis}, reverse={reverse})",
              lambda a, axis=axis: getattr(lax, name)(a, axis, reverse),
              lambda a, axis=axis: getattr(jlax, name)(a, axis % x.ndim, reverse), (x,))
             for axis in (0, 1, -1)]
    check_all(cases, eager_share(len(cases), _CUMULATIVE_CASES.index((name, dtype, reverse))),
              **tol)


@pytest.mark.parametrize("name", CUMULATIVE)
def test_cumulative_specials(name):
    x = np.array([1.0, np.nan, 2.0, -np.inf, np.inf, 0.0, -1.0], np.float32)
    e = np.ones((0, 3), np.float32)  # length 0 and 1 axes
    o = np.full((1, 3), 0.5, np.float32)
    jf = getattr(jlax, name)
    # JAX's in one jitted program (eagerly: a compile per primitive)
    want = jax.jit(lambda x, e, o: (jf(x, 0, False), jf(x, 0, True), jf(e, 0), jf(o, 0)))(x, e, o)
    for reverse in (False, True):
        check(getattr(lax, name)(x, 0, reverse), want[reverse])
    check(getattr(lax, name)(e, 0), want[2])
    check(getattr(lax, name)(o, 0), want[3])


def _cum_input(name, n, seed):
    rng = rng_for(name, n, seed)
    if name in ("cummax", "cummin"):
        return rng.permutation(n).astype(np.float32) * 0.5 - n / 4 + rng.uniform(0, 0.1)
    return rng.uniform(0.5, 1.5, n).astype(np.float32) * rng.choice([-1, 1], n).astype(
        np.float32)


@pytest.mark.parametrize("name,n,reverse", pairwise(CUMULATIVE, [1, 2, 5, 8, 13], [False, True]),
                         ids=param_id)
def test_cumulative_derivatives_against_jax(name, n, reverse):
    """The gradient and a jvp, in one program each for mlax and JAX."""
    x = _cum_input(name, n, 0).reshape(1, n).repeat(2, 0)
    w = inp((2, n), np.float32, "any", 18)
    t = inp((2, n), np.float32, "any", 19)

    def derivatives(lax_, np_, grad, jvp):
        f = lambda a: getattr(lax_, name)(a, 1, reverse)  # noqa: E731
        return lambda x, t: (grad(lambda a: np_.sum(f(a) * w))(x), jvp(f, (x,), (t,)))

    g, (y, dy) = mlax.jit(derivatives(lax, mnp, mlax.grad, mlax.jvp))(x, t)
    jg, (jy, jdy) = jax.jit(derivatives(jlax, jnp, jax.grad, jax.jvp))(x, t)
    check(g, jg, rtol=2e-5, atol=1e-6)
    check(y, jy, rtol=1e-5, atol=1e-6)
    check(dy, jdy, rtol=2e-5, atol=1e-6)


def test_cumprod_exact_with_zeros():
    x = np.array([2.0, 0.0, 3.0, 0.0, 5.0, 1.5], np.float32)
    for reverse in (False, True):
        g = mlax.grad(lambda a: mnp.sum(lax.cumprod(a, 0, reverse)))(x)
        jg = jgrad(lambda a: jnp.sum(jlax.cumprod(a, 0, reverse)))(x)
        check(g, jg)
        # and the exact values: d/dx_j sum_i prod_{k<=i} x_k
        expected = [sum(np.prod([x[k] for k in range(i + 1) if k != j]) for i in range(6)
                        if i >= j) for j in range(6)] if not reverse else None
        if expected is not None:
            np.testing.assert_allclose(np.asarray(g), expected, rtol=1e-6)
    # second derivative through the derivative rule
    h = mlax.grad(lambda a: mlax.grad(lambda b: mnp.sum(lax.cumprod(b, 0)))(a)[1])(x)
    jh = jgrad(lambda a: jgrad(lambda b: jnp.sum(jlax.cumprod(b, 0)))(a)[1])(x)
    check(h, jh)


def test_cummax_ties_split_like_jax():
    # Two tied elements: jax's max rule splits the tangent evenly.
    x = np.array([1.0, 1.0], np.float32)
    for name in ("cummax", "cummin"):
        g = mlax.grad(lambda a: mnp.sum(getattr(lax, name)(a, 0)))(x)
        jg = jgrad(lambda a: jnp.sum(getattr(jlax, name)(a, 0)))(x)
        check(g, jg)


@pytest.mark.parametrize("name", CUMULATIVE)
def test_cumulative_finite_differences_f64(name, x64):
    x = _cum_input(name, 6, 1).astype(np.float64)
    w = inp((6,), np.float64, "any", 20)
    f = lambda a: mnp.sum(getattr(lax, name)(a, 0, False) * w)  # noqa: E731
    g = np.asarray(mlax.grad(f)(x))
    fd = _finite_difference(lambda a: float(mlax.jit(f)(a)), x)
    np.testing.assert_allclose(g, fd, rtol=1e-6, atol=1e-7)
    check(mlax.grad(f)(x), jgrad(
        lambda a: jnp.sum(getattr(jlax, name)(a, 0, False) * w))(x), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", CUMULATIVE)
def test_cumulative_vmap(name):
    """vmap over each axis and the gradient of a vmapped cumulative
    reduction: all in one program each for mlax and JAX."""
    x = inp((3, 4, 5), np.float32, "any", 21)

    def f(lax_, np_, vmap, grad):
        def all_(x):
            out = [vmap(lambda a, axis=axis: getattr(lax_, name)(a, axis, True),
                        in_axes=in_axes)(x) for in_axes in (0, 1, 2) for axis in (0, 1)]
            return out + [grad(lambda a: np_.sum(vmap(lambda r: getattr(lax_, name)(r, 0))(a)
                                                 ** 2))(x)]
        return all_

    got = mlax.jit(f(lax, mnp, mlax.vmap, mlax.grad))(x)
    want = jax.jit(f(jlax, jnp, jax.vmap, jax.grad))(x)
    labels = [f"vmap(in_axes={i}, axis={a})" for i in (0, 1, 2) for a in (0, 1)] + ["grad"]
    for label, g, w in zip(labels, got, want):
        tol = dict(rtol=1e-4, atol=1e-5) if label == "grad" else dict(rtol=1e-5, atol=1e-6)
        _check_tree(g, w, label, **tol)


def test_cumulative_errors():
    with pytest.raises(ValueError, match="lax.cumprod.*axis 2"):
        lax.cumprod(np.ones((2, 2), np.float32), 2)
    with pytest.raises(ValueError, match="lax.cummax.*axis 0"):
        lax.cummax(np.float32(1), 0)
    with pytest.raises(TypeError, match="lax.cummin.*bool"):
        lax.cummin(np.ones(3, bool))
    with pytest.raises(TypeError, match="lax.cumprod.*bool"):
        lax.cumprod(np.ones(3, bool))


# ---------------------------------------------------------------------------
# reduce
# ---------------------------------------------------------------------------

_MONOIDS = [(lax.add, jlax.add, 0.0), (lax.mul, jlax.mul, 1.0), (lax.max, jlax.max, -np.inf),
            (lax.min, jlax.min, np.inf), (lax.add, jlax.add, 2.5), (lax.max, jlax.max, 0.25)]


@pytest.mark.parametrize("comp,jcomp,init", _MONOIDS)
def test_reduce_monoids(comp, jcomp, init):
    """Each set of dimensions; all in one program (check_all)."""
    x = inp((3, 4), np.float32, "any", 22)
    cases = [(f"reduce({comp.__name__}, init={init}, {dims})",
              lambda a, dims=dims: lax.reduce(a, np.float32(init), comp, dims),
              lambda a, dims=dims: jlax.reduce(a, np.float32(init), jcomp, dims), (x,))
             for dims in ((0,), (1,), (0, 1))]
    check_all(cases, eager_share(len(cases), _MONOIDS.index((comp, jcomp, init))), rtol=1e-6)


def test_reduce_other_forms():
    x = np.arange(12, dtype=np.int32).reshape(3, 4)
    check(lax.reduce(x, 0, lax.add, (1,)), jlax.reduce(x, 0, jlax.add, (1,)))
    check(lax.reduce(x, np.int32(0), mnp.add, (0,)), jlax.reduce(x, np.int32(0), jlax.add, (0,)))
    b = x % 3 == 0
    check(lax.reduce(b, True, lax.bitwise_and, (1,)), jlax.reduce(b, True, jlax.bitwise_and,
                                                                  (1,)))
    check(lax.reduce(b, False, lax.bitwise_or, (0,)), jlax.reduce(b, False, jlax.bitwise_or,
                                                                  (0,)))
    # A one-operand tuple with a monoid gives one array (as jax).
    check(lax.reduce((x,), (np.int32(1),), lax.mul, (0,)),
          jlax.reduce((x,), (np.int32(1),), jlax.mul, (0,)))
    # derivative and vmap through reduce
    xf = inp((3, 4), np.float32, "any", 23)
    check(mlax.grad(lambda a: mnp.sum(lax.reduce(a, -np.inf, lax.max, (1,))))(xf),
          jgrad(lambda a: jnp.sum(jlax.reduce(a, -np.inf, jlax.max, (1,))))(xf))
    # A non-identity init takes part in the value and so in the derivative
    # (jax's reduce jvp leaves it out and differentiates max(row) instead):
    # a row whose maximum is below the init has a zero derivative.
    rows = np.array([[-1.5, -0.2, -0.7], [0.3, 1.2, -4.0]], np.float32)
    check(lax.reduce(rows, 0.0, lax.max, (1,)), jax.jit(
        lambda a: jlax.reduce(a, 0.0, jlax.max, (1,)))(rows))
    np.testing.assert_array_equal(
        np.asarray(mlax.grad(lambda a: mnp.sum(lax.reduce(a, 0.0, lax.max, (1,))))(rows)),
        [[0, 0, 0], [0, 1, 0]])
    check(mlax.vmap(lambda a: lax.reduce(a, 0.0, lax.add, (0,)))(xf),
          jvmap(lambda a: jlax.reduce(a, 0.0, jlax.add, (0,)))(xf))


def test_reduce_errors():
    x = np.ones((2, 3), np.float32)
    # Other computations and several operands are one mlax.reduce
    # (test_lax_reduce_general.py); lax.add of the operand tuples fails as in JAX.
    with pytest.raises(TypeError):
        lax.reduce((x, x), (0.0, 0.0), lax.add, (0,))
    with pytest.raises(ValueError, match="lax.reduce.*dimensions"):
        lax.reduce(x, 0.0, lax.add, (2,))
    with pytest.raises(TypeError, match="lax.reduce.*init value dtype"):
        lax.reduce(x, np.int32(0), lax.add, (0,))
    with pytest.raises(NotImplementedError, match="lax.reduce.*bool only"):
        lax.reduce(np.ones(3, np.int32), 0, lax.bitwise_or, (0,))


# ---------------------------------------------------------------------------
# Shape helpers
# ---------------------------------------------------------------------------

def test_shape_helpers_against_jax():
    x = inp((2, 1, 3, 1), np.float32, "any", 24)
    cases = [
        (lambda a, L: L.squeeze(a, (1,)), None),
        (lambda a, L: L.squeeze(a, (1, -1)), None),
        (lambda a, L: L.expand_dims(a, (0,)), None),
        (lambda a, L: L.expand_dims(a, (0, -1, 2)), None),
        (lambda a, L: L.collapse(a, 1, 3), None),
        (lambda a, L: L.collapse(a, 0), None),
        (lambda a, L: L.collapse(a, -2, -1), None),
        (lambda a, L: L.index_in_dim(a, 2, 2), None),
        (lambda a, L: L.index_in_dim(a, -1, 0, keepdims=False), None),
        (lambda a, L: L.broadcast_to_rank(a, 6), None),
        (lambda a, L: L.broadcast_to_rank(a, 4), None),
    ]
    # Each helper eagerly; under jit and under vmap all in one program.
    check_all([(f"case {i}", lambda a, f=f: f(a, lax), lambda a, f=f: f(a, jlax), (x,))
               for i, (f, _) in enumerate(cases)], eager=range(len(cases)))
    xs = x[None].repeat(2, 0)
    got = mlax.vmap(lambda a: [f(a, lax) for f, _ in cases])(xs)
    want = jvmap(lambda a: [f(a, jlax) for f, _ in cases])(xs)
    for i, (g, w) in enumerate(zip(got, want)):
        _check_tree(g, w, f"case {i}, vmap")
    g = mlax.grad(lambda a: mnp.sum(lax.index_in_dim(a, 1, 2) ** 2))(x)
    check(g, jgrad(lambda a: jnp.sum(jlax.index_in_dim(a, 1, 2) ** 2))(x))


def test_shape_helper_errors():
    x = np.ones((2, 1, 3), np.float32)
    with pytest.raises(ValueError, match="lax.squeeze.*dimension 0 of size 2"):
        lax.squeeze(x, (0,))
    with pytest.raises(ValueError, match="lax.squeeze.*axis 5"):
        lax.squeeze(x, (5,))
    with pytest.raises(ValueError, match="lax.expand_dims.*repeated"):
        lax.expand_dims(x, (0, 0))
    with pytest.raises(IndexError, match="lax.index_in_dim.*index 3"):
        lax.index_in_dim(x, 3, 0)
    with pytest.raises(ValueError, match="lax.collapse"):
        lax.collapse(x, 2, 1)
    with pytest.raises(ValueError, match="lax.broadcast_to_rank.*rank 2"):
        lax.broadcast_to_rank(x, 2)


# ---------------------------------------------------------------------------
# mlax.numpy ufuncs
# ---------------------------------------------------------------------------

# name: (input domain, accepts integers)
NP_UNARY = {
    "sinh": ("any", True), "cosh": ("any", True), "arcsin": ("unit", True),
    "arccos": ("unit", True), "arctan": ("any", True), "arcsinh": ("any", True),
    "arccosh": ("ge1", True), "arctanh": ("unit", True), "asin": ("unit", True),
    "acos": ("unit", True), "atan": ("any", True), "asinh": ("any", True),
    "acosh": ("ge1", True), "atanh": ("unit", True), "log2": ("pos", True),
    "log10": ("pos", True), "exp2": ("any", True), "cbrt": ("any", True),
    "rint": ("big", True), "fabs": ("any", True), "deg2rad": ("big", True),
    "rad2deg": ("any", True), "degrees": ("any", True), "radians": ("big", True),
    "signbit": ("any", True), "sinc": ("any", True), "spacing": ("big", False),
    "bitwise_count": ("any", "only"), "bitwise_invert": ("any", "only"),
    "isposinf": ("any", True), "isneginf": ("any", True), "real": ("any", True),
    "imag": ("any", True), "conj": ("any", True), "conjugate": ("any", True),
    "angle": ("any", True), "isreal": ("any", True), "iscomplex": ("any", True),
}


def _np_unary_input(name, dtype, shape, seed=0):
    domain, _ = NP_UNARY[name]
    if np.issubdtype(dtype, np.integer):
        rng = rng_for(name, np.dtype(dtype).name, shape)
        lo = 1 if domain in ("ge1", "pos") else (0 if domain == "unit" else -5)
        hi = 2 if domain == "unit" else 6
        if np.issubdtype(dtype, np.unsignedinteger):
            lo = max(lo, 0)
        return rng.integers(lo, hi, shape).astype(dtype)
    return inp(shape, dtype, domain, seed)


# Every function with every dtype and shape, pairwise; each function's cases
# in one program (check_all), a float32 case (looser) in another.
_NP_UNARY_CASES = pairwise(sorted(NP_UNARY), FLOATS + [np.int32, np.uint8], [(), (2, 3)])


@pytest.mark.parametrize("name", sorted(NP_UNARY))
def test_numpy_unary_against_jax(name):
    _, ints = NP_UNARY[name]
    cases = {False: [], True: []}  # by float32
    for n, dtype, shape in _NP_UNARY_CASES:
        is_int = np.issubdtype(dtype, np.integer)
        if n != name or (ints == "only" and not is_int) or (not ints and is_int):
            continue
        cases[dtype == np.float32].append((
            f"{name}({np.dtype(dtype).name}{list(shape)})", getattr(mnp, name),
            getattr(jnp, name), (_np_unary_input(name, dtype, shape),)))
    assert cases[False] or cases[True]
    offset = sorted(NP_UNARY).index(name)
    for f32, group in cases.items():
        if group:
            check_all(group, eager_share(len(group), offset, k=2),
                      **(dict(rtol=1e-5, atol=1e-6) if f32 else {}))


_PY_SCALAR_NAMES = ["sinh", "arctanh", "log2", "log10", "exp2", "cbrt", "rint", "deg2rad",
                    "rad2deg", "signbit", "sinc", "fabs", "angle", "spacing", "isposinf",
                    "isneginf", "arccosh"]


def _py_scalar_values(name):
    return [v for v in (0.5, 2, True)
            if not ((name == "arctanh" and v in (2, True)) or (name == "arccosh" and v == 0.5))]


@functools.lru_cache(maxsize=None)
def _jax_py_scalar_table():
    """JAX's result of every function of _PY_SCALAR_NAMES on each Python
    scalar: one jitted program (the scalars stay Python constants in it, so
    the weak types are eager JAX's), not a compile per primitive."""
    return jax.jit(lambda: {name: [getattr(jnp, name)(v) for v in _py_scalar_values(name)]
                            for name in _PY_SCALAR_NAMES})()


@pytest.mark.parametrize("name", _PY_SCALAR_NAMES)
def test_numpy_unary_python_scalars(name):
    for v, want in zip(_py_scalar_values(name), _jax_py_scalar_table()[name]):
        check(getattr(mnp, name)(v), want)


def test_numpy_unary_specials():
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 1e-40, -3.5, 2.5],
                 np.float32)
    x16 = x.astype(np.float16)
    cases = [(name, getattr(mnp, name), getattr(jnp, name), (x,))
             for name in ("signbit", "isposinf", "isneginf", "spacing", "rint", "fabs", "cbrt",
                          "exp2", "log2", "sinc", "angle")]
    cases += [(f"{name}(float16)", getattr(mnp, name), getattr(jnp, name), (x16,))
              for name in ("signbit", "spacing")]
    check_all(cases, eager=range(len(cases)))  # every one eagerly, and under jit


@pytest.mark.parametrize("name", ["sinh", "arccos", "arctanh", "log2", "log10", "exp2",
                                  "cbrt", "deg2rad", "sinc"])
def test_numpy_unary_grad(name):
    """The gradient and vmap, in one program each for mlax and JAX."""
    x = inp((5,), np.float32, NP_UNARY[name][0], 25)

    def both(np_, grad, vmap):
        f = getattr(np_, name)
        return lambda x: (grad(lambda v: np_.sum(f(v)))(x), vmap(f)(x))

    g, b = mlax.jit(both(mnp, mlax.grad, mlax.vmap))(x)
    jg, jb = jax.jit(both(jnp, jax.grad, jax.vmap))(x)
    check(g, jg, rtol=1e-5, atol=1e-6)
    check(b, jb, rtol=1e-6, atol=1e-6)


def test_sinc_derivatives_at_zero():
    x = np.array([0.0, 0.3], np.float32)
    d1 = mlax.grad(lambda v: mnp.sum(mnp.sinc(v)))(x)
    check(d1, jgrad(lambda v: jnp.sum(jnp.sinc(v)))(x))
    d2 = mlax.grad(lambda v: mnp.sum(mlax.grad(lambda w: mnp.sum(mnp.sinc(w)))(v)))(x)
    jd2 = jgrad(lambda v: jnp.sum(jgrad(lambda w: jnp.sum(jnp.sinc(w)))(v)))(x)
    check(d2, jd2, rtol=1e-5)


# name: (lhs domain, rhs domain, kind) with kind "float", "int" or "any"
NP_BINARY = {
    "atan2": ("any", "any", "any"), "pow": ("pos", "any", "any"),
    "copysign": ("any", "any", "any"), "heaviside": ("any", "any", "any"),
    "fmax": ("any", "any", "any"), "fmin": ("any", "any", "any"),
    "float_power": ("pos", "any", "any"), "logaddexp2": ("any", "any", "any"),
    "gcd": ("any", "any", "int"), "lcm": ("any", "any", "int"),
    "left_shift": ("any", "any", "int"), "right_shift": ("any", "any", "int"),
    "bitwise_left_shift": ("any", "any", "int"),
    "bitwise_right_shift": ("any", "any", "int"),
}


def _np_binary_inputs(name, dtype, seed=0):
    rng = rng_for(name, np.dtype(dtype).name, seed)
    if np.issubdtype(dtype, np.integer):
        if "shift" in name:
            x = rng.integers(0 if dtype == np.uint8 else -20, 20, (2, 3)).astype(dtype)
            y = rng.integers(0, 7, (3,)).astype(dtype)
        else:
            x = rng.integers(0 if dtype == np.uint8 else -30, 30, (2, 3)).astype(dtype)
            y = rng.integers(0 if dtype == np.uint8 else -12, 12, (3,)).astype(dtype)
        return x, y
    d1, d2, _ = NP_BINARY[name]
    x = inp((2, 3), dtype, d1, seed)
    y = inp((3,), dtype, d2, seed + 1)
    if name in ("heaviside", "fmax", "fmin", "copysign"):
        x = x.copy()
        x.reshape(-1)[:3] = [0.0, np.nan, -0.0]
        y = y.copy()
        y[1] = np.nan
    return x, y


_NP_BINARY_DTYPES = FLOATS + [np.int32, np.uint8, np.int16]


@pytest.mark.parametrize("name", sorted(NP_BINARY))
def test_numpy_binary_against_jax(name):
    """Each dtype, with an array and a Python scalar (weakly typed) second
    operand; all in one program (check_all), a float32 one (looser) in
    another."""
    kind = NP_BINARY[name][2]
    cases = {False: [], True: []}  # by float32
    for dtype in _NP_BINARY_DTYPES:
        is_int = np.issubdtype(dtype, np.integer)
        if (kind == "int" and not is_int):
            with pytest.raises(Exception) as jax_error:
                getattr(jnp, name)(np.ones(2, dtype), np.ones(2, dtype))
            with pytest.raises(type(jax_error.value),  # (gcd, lcm: JAX's ValueError)
                               match=f"mnp.{name.replace('bitwise_', '')}|mnp.{name}"):
                getattr(mnp, name)(np.ones(2, dtype), np.ones(2, dtype))
            continue
        if kind == "float" and is_int:
            continue
        x, y = _np_binary_inputs(name, dtype)
        dt = np.dtype(dtype).name
        cases[dtype == np.float32] += [
            (f"{name}({dt}, {dt})", getattr(mnp, name), getattr(jnp, name), (x, y)),
            (f"{name}({dt}, 2)", lambda a: getattr(mnp, name)(a, 2),
             lambda a: getattr(jnp, name)(a, 2), (x,))]
    offset = sorted(NP_BINARY).index(name)
    for f32, group in cases.items():
        if group:
            check_all(group, eager_share(len(group), offset, k=2),
                      **(dict(rtol=1e-5, atol=1e-6) if f32 else {}))


@pytest.mark.parametrize("name", ["copysign", "heaviside", "fmax", "fmin", "logaddexp2",
                                  "float_power", "atan2"])
def test_numpy_binary_grad(name):
    x = inp((2, 3), np.float32, "pos", 7)
    y = inp((3,), np.float32, "nonzero", 8)
    g = mlax.grad(lambda a, b: mnp.sum(getattr(mnp, name)(a, b)), argnums=(0, 1))(x, y)
    jg = jgrad(lambda a, b: jnp.sum(getattr(jnp, name)(a, b)), argnums=(0, 1))(x, y)
    for argnum in (0, 1):
        check(g[argnum], jg[argnum], rtol=1e-5, atol=1e-6)


def test_gcd_lcm_vmap_and_x64(x64):
    x = np.array([[12, -18, 0, 7], [0, 0, 5, -9]], np.int64)
    y = np.array([[8, 27, 4, 0], [0, 3, -10, 6]], np.int64)
    # JAX's in one jitted program (eagerly: a compile per primitive)
    want = jax.jit(lambda x, y, a, b: {name: (
        getattr(jnp, name)(x, y), jax.vmap(getattr(jnp, name))(x, y), getattr(jnp, name)(a, b))
        for name in ("gcd", "lcm")})(x, y, np.int64(0), np.int64(6))
    for name in ("gcd", "lcm"):
        check(getattr(mnp, name)(x, y), want[name][0])
        check(mlax.vmap(getattr(mnp, name))(x, y), want[name][1])
        check(mlax.jit(getattr(mnp, name))(np.int64(0), np.int64(6)), want[name][2])


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
def test_frexp_ldexp_against_jax(dtype):
    info = np.finfo(dtype) if dtype != bf16 else None
    tiny = float(info.smallest_subnormal) if info is not None else 9.2e-41
    x = np.array([0.0, -0.0, 1.0, -3.75, 1024.5, 1e-3, tiny, -tiny * 3, np.inf, -np.inf,
                  np.nan], dtype)
    for mode in MODES:
        m, e = run(mnp.frexp, (x,), mode)
        jm, je = jnp.frexp(x)
        check(m, jm)
        check(e, je)
    e = np.array([0, 1, -2, 3, -5, 10, 4, -1, 0, 2, 1], np.int32)
    for mode in MODES:
        check(run(mnp.ldexp, (x, e), mode), jnp.ldexp(x, e))
    check(mnp.ldexp(x, 3), jnp.ldexp(x, 3))


def test_frexp_ldexp_derivatives_and_f64(x64):
    x = np.array([0.3, -5.5, 1e-310, 7.0, 1e300])
    m, e = mnp.frexp(x)
    jm, je = jnp.frexp(x)
    check(m, jm)
    check(e, je)
    xs = np.array([0.3, -5.5, 7.0, 12.0])
    # 2**-e: exact here, through exp2 in jax (one ulp off).
    check(mlax.grad(lambda v: mnp.sum(mnp.frexp(v)[0]))(xs),
          jgrad(lambda v: jnp.sum(jnp.frexp(v)[0]))(xs), rtol=1e-15)
    np.testing.assert_array_equal(np.asarray(mlax.grad(lambda v: mnp.sum(mnp.frexp(v)[0]))(xs)),
                                  [2.0, 0.125, 0.125, 0.0625])
    n = np.array([1, -2, 3, 0])
    check(mlax.grad(lambda v: mnp.sum(mnp.ldexp(v, n)))(xs),
          jgrad(lambda v: jnp.sum(jnp.ldexp(v, n)))(xs), rtol=1e-15)
    check(mnp.ldexp(np.array([1.0, 0.75]), np.array([1023, 1024])),
          jnp.ldexp(np.array([1.0, 0.75]), np.array([1023, 1024])))


@pytest.mark.parametrize("dtype", FLOATS + [np.int32], ids=lambda d: np.dtype(d).name)
def test_modf_divmod_against_jax(dtype):
    if np.issubdtype(dtype, np.integer):
        x = np.array([7, -7, 0, 13, -13], dtype)
        y = np.array([2, 2, 3, -4, -4], dtype)
    else:
        x = np.array([2.5, -2.5, 0.0, -0.0, 7.25, -7.75, np.inf, np.nan], dtype)
        y = np.array([2.0, 2.0, 3.0, 1.0, -2.0, 2.5, 1.0, 1.0], dtype)
        for mode in MODES:
            f, w = run(mnp.modf, (x,), mode)
            jf, jw = jnp.modf(x)
            check(f, jf)
            check(w, jw)
    for mode in MODES:
        q, r = run(mnp.divmod, (x, y), mode)
        jq, jr = jnp.divmod(x, y)
        check(q, jq)
        check(r, jr)


def test_cumulative_prod_and_ptp():
    x = inp((3, 4), np.float32, "any", 26)
    v = np.arange(1, 5, dtype=np.int32)
    xi = np.array([[3, -2], [7, 1]], np.int32)
    prod_kws = (dict(axis=0), dict(axis=1, include_initial=True), dict(axis=-1, dtype=np.float16))
    ptp_kws = (dict(), dict(axis=0), dict(axis=1, keepdims=True))
    # JAX's in one jitted program (eagerly: a compile per primitive)
    j_prod, j_v, j_ptp, j_xi = jax.jit(lambda x, v, xi: (
        [jnp.cumulative_prod(x, **kw) for kw in prod_kws], jnp.cumulative_prod(v),
        [jnp.ptp(x, **kw) for kw in ptp_kws], jnp.ptp(xi)))(x, v, xi)
    for kw, want in zip(prod_kws, j_prod):
        check(mnp.cumulative_prod(x, **kw), want, rtol=1e-3)
    check(mnp.cumulative_prod(v), j_v)
    for kw, want in zip(ptp_kws, j_ptp):
        check(mnp.ptp(x, **kw), want)
        check(mlax.jit(lambda a: mnp.ptp(a, **kw))(x), want)
    check(mnp.ptp(xi), j_xi)
    with pytest.raises(ValueError, match="mnp.cumulative_prod.*axis"):
        mnp.cumulative_prod(x)


def test_complex_predicates():
    x = np.ones(3, np.float32)
    z = np.ones(3, np.complex64)
    assert mnp.iscomplexobj(z) is True and mnp.iscomplexobj(x) is False
    assert mnp.isrealobj(x) is True and mnp.isrealobj(z) is False
    assert mnp.iscomplexobj(1j) is jnp.iscomplexobj(1j)
    assert mnp.isrealobj(mnp.asarray(x)) is True
    # real, imag, conj, angle, isreal and iscomplex of complex input: test_complex.py.


def test_array_api_aliases():
    assert mnp.atan2 is mnp.arctan2 and mnp.pow is mnp.power
    assert mnp.bitwise_invert is mnp.invert
    x = inp((3,), np.float32, "pos", 27)
    check(mnp.pow(x, 2.5), jnp.pow(x, 2.5))
    check(mnp.atan2(x, -x), jnp.atan2(x, -x))


@pytest.mark.parametrize("name,args,exc,match", [
    ("gcd", (np.ones(2, np.float32), 2), ValueError, "mnp.gcd.*integer"),  # (JAX's class)
    ("lcm", (np.ones(2, bool), np.ones(2, bool)), ValueError, "mnp.lcm.*integer"),
    ("left_shift", (np.ones(2, np.float32), 1), TypeError, "mnp.left_shift.*integer"),
    ("right_shift", (1.5, 1), TypeError, "mnp.right_shift.*integer"),
    ("bitwise_count", (np.ones(2, np.float32),), TypeError, "mnp.bitwise_count.*integer"),
    ("frexp", (np.ones(2, np.complex64),), TypeError, "mnp.frexp.*complex"),
    ("ldexp", (np.ones(2, np.float32), np.ones(2, np.float32)), ValueError, "mnp.ldexp"),
    ("cbrt", (np.ones(2, np.complex64),), TypeError, "mnp.cbrt.*complex"),
    ("copysign", (np.ones(2, np.complex64), 1.0), TypeError, "mnp.copysign.*complex"),
    ("isposinf", (np.ones(2, np.complex64),), ValueError, "mnp.isposinf.*complex"),
    ("ptp", (np.ones(2, bool),), TypeError, "mnp.ptp.*bool"),
    ("sinh", ([1.0, 2.0],), TypeError, "mnp.sinh.*list"),
    ("divmod", (np.ones(2, np.complex64), 1), TypeError, "mnp.divmod.*complex"),
])
def test_numpy_errors(name, args, exc, match):
    with pytest.raises(exc, match=match):
        getattr(mnp, name)(*args)
    if not any(isinstance(a, list) for a in args):
        with pytest.raises(exc, match=match):
            mlax.jit(getattr(mnp, name))(*args)

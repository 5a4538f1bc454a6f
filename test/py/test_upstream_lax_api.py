"""Cases from JAX's own tests of lax and of its top-level API (lax_test.py,
lax_autodiff_test.py, lax_control_flow_test.py, api_test.py) where mlax
disagreed with JAX: compared with installed JAX (values, dtypes, weak types,
exception classes), eagerly and under jit, with grad and vmap where JAX has
them.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from _helpers import assert_tree_like, jax_outcomes

import mlax
import mlax.numpy as mnp

MODES = ["eager", "jit"]


def run(fn, args, mode):
    return fn(*args) if mode == "eager" else mlax.jit(fn)(*args)


def data(shape, dtype=np.float32, lo=0.5, hi=3.0, seed=0):
    return np.random.default_rng(seed).uniform(lo, hi, shape).astype(dtype)


# ---------------------------------------------------------------------------
# jax.lax's n-ary elementwise functions broadcast rank-0 operands and size-1
# dimensions (as lax.add does), not only the binary arithmetic ones.
# ---------------------------------------------------------------------------

A34, A31, A14 = data((3, 4)), data((3, 1), seed=1), data((1, 4), seed=2)
U31 = data((3, 1), lo=0.1, hi=0.9, seed=3)
I21, I12 = np.int32([[7], [-3]]), np.int32([[5, -100000]])
BROADCAST_CASES = [
    ("igamma", (A34, A31)), ("igamma", (np.float32(1.5), A34)), ("igammac", (A31, A14)),
    ("igamma_grad_a", (A31, A34)), ("random_gamma_grad", (A34, A31)),
    ("betainc", (A34, np.float32(0.5), U31)), ("betainc", (A31, A14, U31)),
    ("mulhi", (I21, I12)), ("polygamma", (np.float32([[1.0], [2.0], [0.0]]), A34)),
    ("zeta", (A34 + 1, A31)),
]


@pytest.mark.parametrize("i", range(len(BROADCAST_CASES)),
                         ids=[f"{c[0]}{i}" for i, c in enumerate(BROADCAST_CASES)])
def test_nary_ops_broadcast_types(i):
    name, args = BROADCAST_CASES[i]
    want = jax.eval_shape(getattr(jax.lax, name), *args)
    got = mlax.eval_shape(getattr(mlax.lax, name), *args)
    assert (got.shape, got.dtype, got.weak_type) == (want.shape, want.dtype, want.weak_type)


# Values of a few (the broadcasting is Python's, before any op), one compile each.
VALUE_CASES = [BROADCAST_CASES[i] for i in (1, 6, 7)]
VALUE_TABLE = [(getattr(jax.lax, name), args, {}) for name, args in VALUE_CASES]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("i", range(len(VALUE_CASES)), ids=[c[0] for c in VALUE_CASES])
def test_nary_ops_broadcast(i, mode):
    name, args = VALUE_CASES[i]
    got = run(getattr(mlax.lax, name), args, mode)
    assert_tree_like(got, jax_outcomes(VALUE_TABLE)[i], rtol=2e-5, atol=2e-6)


def test_nary_ops_broadcast_errors_and_grad():
    # ranks that differ (other than 0) stay JAX's TypeError
    for lib in (jax, mlax):
        with pytest.raises(TypeError):
            lib.lax.betainc(A34, np.ones(4, np.float32), U31)
    # the derivative sums over the broadcast dimensions
    grad = [lib.grad(lambda a, b, x: lib.lax.betainc(a, b, x).sum(), argnums=2)(A31, A14, U31)
            for lib in (jax, mlax)]
    assert_tree_like(grad[1], grad[0], rtol=1e-4, atol=1e-6)


# ---------------------------------------------------------------------------
# lax.pow with an integer exponent (of any integer dtype): JAX's dtype rule
# takes it, the result is x's dtype, and x's derivative is 0 where y is 0.
# ---------------------------------------------------------------------------

POW_CASES = [
    (np.float32([1.5, 2.0, -3.0, 0.0]), np.int32([2, -1, 3, 0])),
    (np.float32([1.5, 2.0, 3.0]), 2),
    (np.complex64([1 + 1j, 2 - 0.5j]), np.int32([2, 3])),
    (np.float16([1.5, 2.0, 3.0]), np.int8([1, 2, 3])),
    (np.float32([1.5, 2.0, 3.0]), np.uint8([1, 2, 3])),
    (2.0, 3),
    (np.float32([[1.0], [2.0]]), np.int32([[1, 2]])),
]
POW_TABLE = [(jax.lax.pow, args, {}) for args in POW_CASES]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("i", range(len(POW_CASES)))
def test_pow_integer_exponent(i, mode):
    got = run(mlax.lax.pow, POW_CASES[i], mode)
    assert_tree_like(got, jax_outcomes(POW_TABLE)[i], rtol=2e-3, atol=1e-5)


def test_pow_integer_exponent_derivatives():
    x, y = np.float32([0.0, 0.0, 2.0, 0.0, -1.5]), np.int32([0, 2, 3, 1, -2])
    want, got = ([lib.grad(lambda x: lib.lax.pow(x, y).sum())(x),
                  lib.vmap(lib.grad(lambda x, y: lib.lax.pow(x, y)))(x, y),
                  lib.vmap(lib.lax.pow, (None, 0))(2.0, y),
                  lib.jvp(lambda x: lib.lax.pow(x, y), (x,), (np.ones(5, np.float32),))]
                 for lib in (jax, mlax))
    assert_tree_like(got, want)
    for lib in (jax, mlax):  # x must be inexact; two float dtypes must match
        with pytest.raises(TypeError):
            lib.lax.pow(np.int32([2]), np.int32([2]))
        with pytest.raises(TypeError):
            lib.lax.pow(np.float32([2]), np.float16([2]))


# ---------------------------------------------------------------------------
# convert_element_type of a Python int converts as NumPy does (lax_test's
# testConvertElementTypeOOB: 2**32 to int32 is 0).
# ---------------------------------------------------------------------------

CONVERT_CASES = [(2**32, np.int32), (2**32, np.float32), (300, np.uint8), (-1, np.uint32),
                 (2**100, np.float32), (3, np.float16), (7, np.int8)]


def test_convert_element_type_python_int():
    for value, dtype in CONVERT_CASES:
        want = jax.lax.convert_element_type(value, dtype)
        for fn in (mlax.lax.convert_element_type,
                   mlax.jit(lambda v, d=dtype: mlax.lax.convert_element_type(v, d),
                            static_argnums=0)):
            assert_tree_like(fn(value, dtype) if fn is mlax.lax.convert_element_type
                             else fn(value), want)
    for lib in (jax, mlax):
        with pytest.raises(OverflowError):
            lib.lax.convert_element_type(2**100, np.int32)


@pytest.mark.filterwarnings("ignore:Casting complex values to real")  # (JAX's, meant)
def test_convert_complex_to_real():
    # a complex constant converted to a real type under jit (as the gradient
    # of convert_element_type(x, complex64) is) crashed XLA's folder
    z = np.complex64(2.7 + 1j)
    for dtype in (np.float32, np.int32, np.bool_, np.float16):
        want = jax.jit(lambda d=dtype: jax.lax.convert_element_type(z, d))()
        assert_tree_like(mlax.jit(lambda d=dtype: mlax.lax.convert_element_type(z, d))(), want)
    assert_tree_like(mlax.jit(lambda: mlax.lax.convert_element_type(np.complex64(1j), bool))(),
                     jax.jit(lambda: jax.lax.convert_element_type(np.complex64(1j), bool))())
    want, got = (lib.grad(lambda x: lib.lax.convert_element_type(x, np.complex64).real * 2)(1.5)
                 for lib in (jax, mlax))
    assert_tree_like(got, want)


# ---------------------------------------------------------------------------
# dot_general of operands of two dtypes: the more precise one's result (XLA's
# HigherPrecisionType, as JAX's dtype rule).
# ---------------------------------------------------------------------------

DOT_DTYPES = [(np.float32, np.int32), (np.float16, np.float32), (np.int8, np.int32),
              (np.bool_, np.int32), (np.uint8, np.int8), (np.complex64, np.float32),
              (np.uint32, np.int16)]
DOT_DN = (((1,), (0,)), ((), ()))
DOT_CASES = [(data((3, 4), a, lo=-2, hi=3), data((4, 2), b, lo=-2, hi=3, seed=1))
             for a, b in DOT_DTYPES]
DOT_TABLE = [(lambda a, b: jax.lax.dot_general(a, b, DOT_DN), args, {}) for args in DOT_CASES]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("i", range(len(DOT_CASES)), ids=[
    f"{np.dtype(a).name}-{np.dtype(b).name}" for a, b in DOT_DTYPES])
def test_dot_general_mixed_dtypes(i, mode):
    got = run(lambda a, b: mlax.lax.dot_general(a, b, DOT_DN), DOT_CASES[i], mode)
    assert_tree_like(got, jax_outcomes(DOT_TABLE)[i], rtol=2e-3, atol=1e-3)


def test_dot_general_mixed_dtypes_grad_and_errors():
    a, b = data((3, 4), np.float16), data((4, 2), np.float32)
    want, got = (lib.grad(lambda a, b: lib.lax.dot_general(a, b, DOT_DN).sum(),
                          argnums=(0, 1))(a, b) for lib in (jax, mlax))
    assert_tree_like(got, want, rtol=2e-3, atol=1e-3)
    for lib in (jax, mlax):
        with pytest.raises(TypeError):  # narrower than the operands' type
            lib.lax.dot_general(np.ones((2, 2), np.int32), np.ones((2, 2), np.int8), DOT_DN,
                                preferred_element_type=np.int8)


# ---------------------------------------------------------------------------
# abs's derivative at 0 (and -0) is 1, as JAX's (lax_autodiff_test): t where
# x >= 0, -t elsewhere.
# ---------------------------------------------------------------------------

def test_abs_derivative_at_zero():
    x = np.float32([0.0, -0.0, 1.5, -2.0, np.nan])
    want, got = ([lib.vmap(lib.grad(lib.lax.abs))(x), lib.grad(lib.numpy.abs)(0.0),
                  lib.jvp(lib.lax.abs, (x,), (np.float32([1, 2, 3, 4, 5]),)),
                  lib.jit(lib.grad(lambda v: lib.numpy.abs(v).sum()))(x),
                  lib.grad(lambda v: lib.numpy.linalg.norm(v, 1))(np.zeros(3, np.float32))]
                 for lib in (jax, mlax))
    assert_tree_like(got, want)


# ---------------------------------------------------------------------------
# lax.cond takes a float predicate (true where nonzero), as JAX 0.10's.
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("mode", MODES)
def test_cond_float_predicate(mode):
    def f(lib):
        return lambda p, x: lib.lax.cond(p, lambda x: x * 2, lambda x: x - 1, x)

    for p in (np.float32(3), np.float32(0), np.float16(-0.5)):
        want = f(jax)(p, np.float32(1.5))
        assert_tree_like(run(f(mlax), (p, np.float32(1.5)), mode), want)
    for lib in (jax, mlax):  # complex is no predicate
        with pytest.raises(TypeError, match="Pred type"):
            f(lib)(np.complex64(1), np.float32(1.5))


# ---------------------------------------------------------------------------
# api_test: jit's inline= and keep_unused= options, jit(f).eval_shape, and
# round() of an array.
# ---------------------------------------------------------------------------

def test_jit_options_and_eval_shape():
    x = np.float32([2.0, 3.0])
    for lib in (jax, mlax):
        f = lib.jit(lambda a, b: a * 2, inline=True, keep_unused=True)
        np.testing.assert_array_equal(f(x, x), x * 2)
        assert lib.jit(lambda a: lib.jit(lambda b: b + 1, inline=True)(a) * 2)(x).shape == (2,)
    want, got = ([lib.jit(lambda a: (a * 2, a.sum() > 0)).eval_shape(x),
                  lib.jit(lambda a: a * 2).eval_shape(2.0),
                  lib.jit(lambda a, n: a[:n], static_argnums=1).eval_shape(x, 1)]
                 for lib in (jax, mlax))
    assert str(got) == str(want)


def test_array_round():
    for value, ndigits in [(1.56, None), (1.56, 1), ([1.5, 2.5, -0.5], None), (17, None)]:
        want = round(jnp.asarray(value), ndigits)
        got = round(mnp.asarray(value), ndigits)
        assert_tree_like(got, want)


def test_squeeze_repeated_dimension_is_an_error():
    for lib in (jax, mlax):
        with pytest.raises(ValueError, match="not unique"):
            lib.lax.squeeze(np.ones((1, 3, 1)), (0, 0))
        # (and one start index per dimension for the dynamic slices)
        with pytest.raises(ValueError):
            lib.lax.dynamic_slice(np.ones((5, 3)), (1,), (2, 2))
        with pytest.raises(ValueError):
            lib.lax.dynamic_update_slice(np.ones((5, 3)), np.ones((2, 2)), (1, 1, 1))


# ---------------------------------------------------------------------------
# lax_test's shape ops: clamp of bools, iota of complex dtypes, and JAX's
# exception classes for bad iota / reshape sizes.
# ---------------------------------------------------------------------------

def test_clamp_bools_and_iota_complex():
    b = np.array([True, False, True])
    for mode in MODES:
        for args in [(np.bool_(False), b, np.bool_(False)), (np.bool_(True), b, np.bool_(True)),
                     (np.bool_(False), b, np.array([True, True, False]))]:
            assert_tree_like(run(mlax.lax.clamp, args, mode), jax.lax.clamp(*args))
        assert_tree_like(run(lambda: mlax.lax.broadcasted_iota(np.complex64, (2, 3), 1), (), mode),
                         jax.lax.broadcasted_iota(np.complex64, (2, 3), 1))
    for lib in (jax, mlax):
        with pytest.raises(TypeError):
            lib.lax.iota(np.bool_, 3)
        with pytest.raises(TypeError):
            lib.lax.iota(np.int32, -1)
        with pytest.raises(TypeError):
            lib.lax.reshape(np.ones((3, 4)), (-1,))


def test_jit_argnums_out_of_range():
    # api_test: jit checks static_argnums / donate_argnums against the
    # function's positional parameters when it is made (not with *args)
    for lib in (jax, mlax):
        for kw in (dict(static_argnums=2), dict(static_argnums=-3), dict(donate_argnums=(0, 2))):
            with pytest.raises(ValueError, match="only accepts 2 positional arguments"):
                lib.jit(lambda x, y: x, **kw)
        assert lib.jit(lambda *a: a[0] * a[1], static_argnums=1)(np.float32(2), 3) == 6


def test_grad_output_must_be_a_scalar_not_a_container():
    # api_test: a one-element list, tuple or dict is no scalar output
    x = np.float32([1.0, 2.0])
    for lib in (jax, mlax):
        for f in (lambda v: [v.sum()], lambda v: (v.sum(),), lambda v: {"a": v.sum()}):
            with pytest.raises(TypeError, match="Gradient only defined for scalar-output"):
                lib.grad(f)(x)
    want, got = (lib.grad(lambda v: v.sum() * 2)(x) for lib in (jax, mlax))
    assert_tree_like(got, want)


def test_grad_passes_undifferentiated_python_ints_through():
    # api_test: grad closes over the arguments not in argnums, so a jitted
    # function can take a Python int among them as a static argument (mlax
    # passes ints and bools so; floats stay traced: docs/autodiff.md)
    def f(lib):
        g = lib.jit(lambda x, n, scale: x ** n * scale, static_argnums=(1, 2))
        return lambda x, n, d: g(x, n, d["s"]) if n > 2 else x

    want, got = ([lib.grad(f(lib))(2.0, 3, {"s": 5}),
                  lib.value_and_grad(f(lib))(np.float32(1.5), 4, {"s": True}),
                  lib.grad(lambda x, n: x * n, argnums=(0, 1))(2.0, 3.0)]
                 for lib in (jax, mlax))
    assert_tree_like(got, want)

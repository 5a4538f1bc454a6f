"""mlax.lax (the strict primitive layer) against jax.lax: values, dtypes and
weak types, eagerly and under mlax.jit; and its shape/dtype errors."""
from __future__ import annotations

import jax
import jax.lax as jlax
import numpy as np
import pytest
from _helpers import MODES, assert_values, bf16, make_input, run, to_mlax

import mlax
import mlax.lax as lax
import mlax.numpy as mnp


def check_against_jax(out, expected, **tol):
    """Values, shape, dtype and weak type of `out` equal jax's `expected`."""
    assert isinstance(out, mlax.Array), type(out)
    assert out.shape == expected.shape, (out.shape, expected.shape)
    assert out.dtype == expected.dtype, (out.dtype, expected.dtype)
    assert out.weak_type == expected.weak_type, (out.weak_type, expected.weak_type)
    assert_values(out, np.asarray(expected), **tol)


def _with_specials(x):
    x = x.copy()
    if np.issubdtype(x.dtype, np.floating) and x.size >= 3:
        x.reshape(-1)[:3] = [np.inf, -np.inf, np.nan]
    return x


# ---------------------------------------------------------------------------
# Elementwise
# ---------------------------------------------------------------------------

# name: (dtypes, input kind)
UNARY = {
    "neg": (["float32", "int32"], "any"),
    "exp": (["float32", "float16"], "any"),
    "log": (["float32"], "pos"),
    "sin": (["float32"], "any"),
    "cos": (["float32"], "any"),
    "tan": (["float32"], "any"),
    "tanh": (["float32"], "any"),
    "sqrt": (["float32"], "pos"),
    "rsqrt": (["float32"], "pos"),
    "abs": (["float32", "int32"], "any"),
    "sign": (["float32", "int32"], "any"),
    "floor": (["float32"], "any"),
    "ceil": (["float32"], "any"),
    "round": (["float32"], "any"),
    "logistic": (["float32"], "any"),
    "log1p": (["float32"], "pos"),
    "expm1": (["float32"], "any"),
    "bitwise_not": (["int32", "bool", "uint8"], "any"),
    "is_finite": (["float32"], "special"),
    "square": (["float32", "int32"], "any"),
    "stop_gradient": (["float32"], "any"),
}


def _unary_cases():
    for name, (dts, kind) in UNARY.items():
        for dt in dts:
            for shape in ([(), (2, 3)] if dt == "float32" else [(2, 3)]):
                for mode in MODES:
                    yield pytest.param(name, dt, shape, kind, mode,
                                       id=f"{name}-{dt}-{shape}-{mode}".replace(" ", ""))


@pytest.mark.parametrize("name,dt,shape,kind,mode", list(_unary_cases()))
def test_unary(name, dt, shape, kind, mode):
    x = make_input(shape, dt, "any" if kind == "special" else kind, seed=1)
    if kind == "special":
        x = _with_specials(x)
    out = run(getattr(lax, name), [to_mlax(x)], mode)
    check_against_jax(out, getattr(jlax, name)(x), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("mode", MODES)
def test_round_methods(mode):
    x = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 0.4, -0.6], np.float32)
    away = run(lambda a: lax.round(a), [mnp.asarray(x)], mode)
    even = run(lambda a: lax.round(a, lax.RoundingMethod.TO_NEAREST_EVEN), [mnp.asarray(x)],
               mode)
    assert away.tolist() == [-3.0, -2.0, -1.0, 1.0, 2.0, 3.0, 0.0, -1.0]
    assert even.tolist() == [-2.0, -2.0, -0.0, 0.0, 2.0, 2.0, 0.0, -1.0]
    check_against_jax(away, jlax.round(x))
    check_against_jax(even, jlax.round(x, jlax.RoundingMethod.TO_NEAREST_EVEN))
    assert lax.RoundingMethod.AWAY_FROM_ZERO == int(jlax.RoundingMethod.AWAY_FROM_ZERO)
    assert lax.RoundingMethod.TO_NEAREST_EVEN == int(jlax.RoundingMethod.TO_NEAREST_EVEN)


# name: (dtypes, kind of x, kind of y)
BINARY = {
    "add": (["float32", "int32", "uint8"], "any", "any"),
    "sub": (["float32", "int32"], "any", "any"),
    "mul": (["float32", "int32"], "any", "any"),
    "div": (["float32", "int32"], "any", "nonzero"),
    "rem": (["float32", "int32"], "any", "nonzero"),
    "pow": (["float32"], "pos", "any"),
    "max": (["float32", "int32", "bool"], "any", "any"),
    "min": (["float32", "int32", "bool"], "any", "any"),
    "atan2": (["float32"], "any", "any"),
    "bitwise_and": (["int32", "bool"], "any", "any"),
    "bitwise_or": (["int32", "bool"], "any", "any"),
    "bitwise_xor": (["int32", "bool"], "any", "any"),
    "eq": (["float32", "int32", "bool"], "any", "any"),
    "ne": (["float32", "int32"], "any", "any"),
    "lt": (["float32", "int32"], "any", "any"),
    "le": (["float32", "int32"], "any", "any"),
    "gt": (["float32", "int32"], "any", "any"),
    "ge": (["float32", "int32"], "any", "any"),
}


def _binary_cases():
    for name, (dts, _, _) in BINARY.items():
        for dt in dts:
            for shape in ([(), (2, 3)] if dt == "float32" else [(2, 3)]):
                for mode in MODES:
                    yield pytest.param(name, dt, shape, mode,
                                       id=f"{name}-{dt}-{shape}-{mode}".replace(" ", ""))


@pytest.mark.parametrize("name,dt,shape,mode", list(_binary_cases()))
def test_binary(name, dt, shape, mode):
    _, kx, ky = BINARY[name]
    x = make_input(shape, dt, kx, seed=2)
    y = make_input(shape, dt, ky, seed=3)
    if name in ("eq", "ne", "le", "ge") and shape:
        y.reshape(-1)[0] = x.reshape(-1)[0]  # exercise equality
    out = run(getattr(lax, name), [to_mlax(x), to_mlax(y)], mode)
    check_against_jax(out, getattr(jlax, name)(x, y), rtol=1e-5, atol=1e-6)


def test_integer_div_and_rem_truncate_toward_zero():
    x = np.array([7, -7, 7, -7, 0], np.int32)
    y = np.array([2, 2, -2, -2, 3], np.int32)
    assert lax.div(x, y).tolist() == [3, -3, -3, 3, 0]
    assert lax.rem(x, y).tolist() == [1, -1, 1, -1, 0]


@pytest.mark.parametrize("name", ["add", "mul", "max", "sub"])
@pytest.mark.parametrize("a,b", [(1.0, 2.0), (3, 4)])
def test_binary_weak_types_propagate(name, a, b):
    out = getattr(lax, name)(a, b)
    check_against_jax(out, getattr(jlax, name)(a, b))
    assert out.weak_type


@pytest.mark.parametrize("name", ["lt", "eq", "ne", "ge"])
def test_comparison_weak_types(name):
    check_against_jax(getattr(lax, name)(1.0, 2.0), getattr(jlax, name)(1.0, 2.0))
    x = np.float32(1.0)
    check_against_jax(getattr(lax, name)(x, x), getattr(jlax, name)(x, x))
    assert not getattr(lax, name)(x, x).weak_type


def test_mixed_weak_strong_is_strong():
    x = mnp.asarray(np.ones(3, np.float32))
    w = lax.add(mnp.add(1.0, 0.0), mnp.add(1.0, 0.0))
    assert w.weak_type
    assert not lax.add(lax.broadcast(w, (3,)), x).weak_type


# ---------------------------------------------------------------------------
# Structural ops
# ---------------------------------------------------------------------------

def _x(shape, dt="float32", kind="any", seed=4):
    return make_input(shape, dt, kind, seed=seed)


STRUCTURAL = [
    ("broadcast", lambda L, x: L.broadcast(x, (2,)), [(3,)]),
    ("broadcast-scalar", lambda L, x: L.broadcast(x, (2, 3)), [()]),
    ("broadcast_in_dim", lambda L, x: L.broadcast_in_dim(x, (2, 3), (1,)), [(3,)]),
    ("broadcast_in_dim-expand1", lambda L, x: L.broadcast_in_dim(x, (3, 4), (0, 1)), [(3, 1)]),
    ("broadcast_in_dim-scalar", lambda L, x: L.broadcast_in_dim(x, (2, 2), ()), [()]),
    ("broadcast_in_dim-middle", lambda L, x: L.broadcast_in_dim(x, (2, 3, 4), (1,)), [(3,)]),
    ("concatenate", lambda L, a, b: L.concatenate([a, b], 1), [(2, 3), (2, 2)]),
    ("concatenate0", lambda L, a, b, c: L.concatenate([a, b, c], 0), [(1, 3), (2, 3), (1, 3)]),
    ("reshape", lambda L, x: L.reshape(x, (6,)), [(2, 3)]),
    ("reshape-3d", lambda L, x: L.reshape(x, (4, 3, 2)), [(2, 3, 4)]),
    ("reshape-dimensions", lambda L, x: L.reshape(x, (6,), dimensions=(1, 0)), [(2, 3)]),
    ("transpose", lambda L, x: L.transpose(x, (1, 0, 2)), [(2, 3, 4)]),
    ("transpose-rev", lambda L, x: L.transpose(x, (2, 1, 0)), [(2, 3, 4)]),
    ("transpose-identity", lambda L, x: L.transpose(x, (0, 1)), [(2, 3)]),
    ("slice", lambda L, x: L.slice(x, (0, 1), (2, 3)), [(3, 4)]),
    ("slice-strides", lambda L, x: L.slice(x, (0, 1), (3, 4), (2, 2)), [(3, 4)]),
    ("slice-empty", lambda L, x: L.slice(x, (1,), (1,)), [(3,)]),
    ("slice_in_dim", lambda L, x: L.slice_in_dim(x, 1, 3, axis=1), [(2, 4)]),
    ("slice_in_dim-stride", lambda L, x: L.slice_in_dim(x, 0, 5, 2), [(5, 2)]),
    ("pad", lambda L, x, v: L.pad(x, v, [(1, 2, 0)]), [(3,), ()]),
    ("pad-interior", lambda L, x, v: L.pad(x, v, [(0, 0, 2)]), [(3,), ()]),
    ("pad-2d-negative", lambda L, x, v: L.pad(x, v, [(-1, 1, 0), (2, -2, 1)]), [(3, 4), ()]),
    ("select", lambda L, x, y: L.select(L.gt(x, y), x, y), [(2, 3), (2, 3)]),
    ("select-scalar-pred", lambda L, x, y: L.select(L.gt(L.reduce_sum(x, (0, 1)), 0.0),
                                                    x, y), [(2, 3), (2, 3)]),
    ("select_n-bool", lambda L, x, y: L.select_n(L.lt(x, y), x, y), [(4,), (4,)]),
    ("select_n-3", lambda L, x, y, z: L.select_n(
        L.convert_element_type(L.rem(L.iota(np.int32, 6), L.full((6,), 3, np.int32)), np.int32),
        x, y, z), [(6,), (6,), (6,)]),
    ("reduce_sum", lambda L, x: L.reduce_sum(x, (0,)), [(2, 3, 4)]),
    ("reduce_sum-2axes", lambda L, x: L.reduce_sum(x, (0, 2)), [(2, 3, 4)]),
    ("reduce_sum-noaxes", lambda L, x: L.reduce_sum(x, ()), [(2, 3)]),
    ("reduce_prod", lambda L, x: L.reduce_prod(x, (1,)), [(2, 3)]),
    ("reduce_max", lambda L, x: L.reduce_max(x, (0, 1)), [(2, 3)]),
    ("reduce_min", lambda L, x: L.reduce_min(x, (1,)), [(2, 3)]),
    ("reduce_and", lambda L, x: L.reduce_and(L.gt(x, L.full_like(x, -1.0)), (1,)), [(2, 3)]),
    ("reduce_or", lambda L, x: L.reduce_or(L.gt(x, L.full_like(x, 1.0)), (0,)), [(2, 3)]),
    ("dot-mv", lambda L, a, b: L.dot(a, b), [(2, 3), (3,)]),
    ("dot-vv", lambda L, a, b: L.dot(a, b), [(3,), (3,)]),
    ("dot-mm", lambda L, a, b: L.dot(a, b), [(2, 3), (3, 4)]),
    ("dot_general-batch", lambda L, a, b: L.dot_general(a, b, (((2,), (1,)), ((0,), (0,)))),
     [(2, 3, 4), (2, 4, 5)]),
    ("dot_general-outer", lambda L, a, b: L.dot_general(a, b, (((), ()), ((), ()))),
     [(2,), (3,)]),
    ("dot_general-lhs-contract0", lambda L, a, b: L.dot_general(a, b, (((0,), (1,)), ((), ()))),
     [(3, 2), (4, 3)]),
    ("full", lambda L: L.full((2, 3), 1.5), []),
    ("full-strong-fill", lambda L: L.full((2, 3), np.float32(1.5)), []),
    ("full_like-weak", lambda L: L.full_like(L.add(1.0, 1.0), 2), []),
    ("full-dtype", lambda L: L.full((2,), 3, np.int8), []),
    ("full_like", lambda L, x: L.full_like(x, 2), [(2, 3)]),
    ("full_like-dtype-shape", lambda L, x: L.full_like(x, 2, np.int32, (4,)), [(2, 3)]),
    ("iota", lambda L: L.iota(np.int32, 5), []),
    ("iota-float", lambda L: L.iota(np.float32, 4), []),
    ("broadcasted_iota", lambda L: L.broadcasted_iota(np.int32, (2, 3), 1), []),
    ("broadcasted_iota0", lambda L: L.broadcasted_iota(np.float32, (2, 3), 0), []),
    ("convert-f2i", lambda L, x: L.convert_element_type(x, np.int32), [(2, 3)]),
    ("convert-f2bool", lambda L, x: L.convert_element_type(x, np.bool_), [(2, 3)]),
    ("convert-f2f16", lambda L, x: L.convert_element_type(x, np.float16), [(2, 3)]),
]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name,fn,shapes", STRUCTURAL, ids=[c[0] for c in STRUCTURAL])
def test_structural(name, fn, shapes, mode):
    args = [_x(s, seed=5 + i) * 3 for i, s in enumerate(shapes)]
    if mode == "eager":
        out = fn(lax, *[to_mlax(a) for a in args])
    else:
        out = mlax.jit(lambda *a: fn(lax, *a))(*args)
    check_against_jax(out, fn(jlax, *args), rtol=1e-5, atol=1e-5)


def test_dot_preferred_element_type():
    a = make_input((2, 3), np.int8, seed=6)
    b = make_input((3, 2), np.int8, seed=7)
    out = lax.dot(a, b, preferred_element_type=np.int32)
    check_against_jax(out, jlax.dot(a, b, preferred_element_type=np.int32))
    out = lax.dot_general(a, b, (((1,), (0,)), ((), ())), preferred_element_type=np.float32)
    check_against_jax(out, jlax.dot_general(a, b, (((1,), (0,)), ((), ())),
                                            preferred_element_type=np.float32))


def test_convert_element_type_weak_type():
    x = np.ones(2, np.int32)
    out = lax.convert_element_type(x, np.float32, weak_type=True)
    assert out.dtype == np.float32 and out.weak_type and out.tolist() == [1.0, 1.0]
    # a weak array behaves as a Python scalar in promotion
    assert mnp.add(out, np.ones(2, np.float16)).dtype == np.float16
    assert not lax.convert_element_type(out, np.float32).weak_type


def test_bfloat16_parameters_eagerly():
    # eager ops are cached under their params; a bfloat16 dtype param must
    # survive that (it used to be frozen as dtype.str, '<V2').
    x = np.array([1.0, 2.5, -3.0], np.float32)
    out = lax.convert_element_type(x, bf16)
    check_against_jax(out, jlax.convert_element_type(x, bf16))
    check_against_jax(lax.full((2,), 1.5, bf16), jlax.full((2,), 1.5, bf16))
    check_against_jax(lax.iota(bf16, 3), jlax.iota(bf16, 3))
    check_against_jax(lax.full_like(out, 2), jlax.full_like(np.asarray(out), 2))


def test_convert_element_type_values():
    x = np.array([-1.7, -0.5, 0.5, 1.7, 3.0], np.float32)
    assert lax.convert_element_type(x, np.int32).tolist() == [-1, 0, 0, 1, 3]
    y = lax.convert_element_type(np.array([0, 2, -1], np.int32), np.bool_)
    assert y.tolist() == [False, True, True]
    z = lax.convert_element_type(mnp.asarray(np.array([1, 2], np.int32)), np.float32)
    assert z.dtype == np.float32 and z.tolist() == [1.0, 2.0]


def test_lax_under_jit_emits_mlax_ops():
    def f(x, y):
        return lax.reduce_sum(lax.mul(lax.exp(x), y), (0,))

    text = str(mlax.make_ir(f)(np.ones((2, 3), np.float32), np.ones((2, 3), np.float32)))
    for op in ("mlax.exp", "mlax.mul", "mlax.reduce_sum"):
        assert op in text, text


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------

def test_add_mixed_dtypes_error():
    with pytest.raises(TypeError) as e:
        lax.add(1, 1.0)
    msg = str(e.value)
    assert "int32" in msg and "float32" in msg and "mlax.numpy.add" in msg
    assert "lax.add" in msg


@pytest.mark.parametrize("name,numpy_name", [("sub", "subtract"), ("mul", "multiply"),
                                             ("div", "divide"), ("max", "maximum"),
                                             ("pow", "power")])
def test_binary_dtype_error_points_to_numpy(name, numpy_name):
    x = np.ones(3, np.float32)
    y = np.ones(3, np.float16)
    with pytest.raises(TypeError) as e:
        getattr(lax, name)(x, y)
    msg = str(e.value)
    assert "float32" in msg and "float16" in msg and f"mlax.numpy.{numpy_name}" in msg
    assert f"lax.{name}" in msg


@pytest.mark.parametrize("mode", MODES)
def test_shape_mismatch_error_names_op_and_shapes(mode):
    x = np.ones((2, 3), np.float32)
    y = np.ones((3, 2), np.float32)
    with pytest.raises(TypeError) as e:
        run(lax.mul, [x, y], mode)
    msg = str(e.value)
    assert "lax.mul" in msg and "(2, 3)" in msg and "(3, 2)" in msg
    with pytest.raises(TypeError, match=r"lax.lt.*f32\[2,3\].*f32\[3,2\]"):
        run(lax.lt, [x, y], mode)


@pytest.mark.parametrize("fn,exc,pattern", [
    (lambda x: lax.transpose(x, (0, 0, 1)), TypeError, r"lax.transpose.*permutation"),
    (lambda x: lax.transpose(x, (0, 1)), TypeError, r"lax.transpose.*\(0, 1\)"),
    (lambda x: lax.transpose(x, (0, 1, 3)), TypeError, r"lax.transpose"),
    (lambda x: lax.reduce_sum(x, (3,)), ValueError, r"lax.reduce_sum.*axis 3"),
    (lambda x: lax.reduce_max(x, (0, 0)), ValueError, r"lax.reduce_max.*duplicate"),
    (lambda x: lax.reduce_and(x, (0,)), TypeError, r"lax.reduce_and.*bool"),
    (lambda x: lax.reshape(x, (5, 5)), ValueError, r"reshape.*\(2, 3, 4\).*\(5, 5\)"),
    (lambda x: lax.broadcast_in_dim(x, (2, 3), (0,)), TypeError, r"lax.broadcast_in_dim"),
    (lambda x: lax.broadcast_in_dim(x, (5, 3, 4, 2), (0, 1, 2)), TypeError,
     r"lax.broadcast_in_dim.*\(2, 3, 4\)"),
    (lambda x: lax.broadcast_in_dim(x, (4, 3, 2), (2, 1, 0)), TypeError, r"increasing"),
    (lambda x: lax.slice(x, (0, 0, 0), (3, 3, 4)), TypeError, r"lax.slice.*out of bounds"),
    (lambda x: lax.slice(x, (0, 0), (1, 1)), TypeError, r"lax.slice"),
    (lambda x: lax.slice(x, (0, 0, 0), (1, 1, 1), (1, 0, 1)), TypeError, r"lax.slice"),
    (lambda x: lax.concatenate([x, lax.reshape(x, (3, 2, 4))], 0), TypeError,
     r"lax.concatenate.*f32\[2,3,4\].*f32\[3,2,4\]"),
    (lambda x: lax.concatenate([x, x], 3), TypeError, r"lax.concatenate.*dimension 3"),
    (lambda x: lax.dot_general(x, x, (((2,), (1,)), ((), ()))), TypeError,
     r"lax.dot_general.*\(2, 3, 4\)"),
    (lambda x: lax.dot(x, x), ValueError, r"lax.dot.*1D or 2D"),
    (lambda x: lax.exp(lax.convert_element_type(x, np.int32)), TypeError,
     r"lax.exp.*int32"),
    (lambda x: lax.bitwise_and(x, x), TypeError, r"lax.and.*float32"),
    (lambda x: lax.floor(lax.convert_element_type(x, np.int32)), TypeError, r"lax.floor"),
    (lambda x: lax.neg(lax.convert_element_type(x, np.bool_)), TypeError, r"lax.neg.*bool"),
    (lambda x: lax.add(lax.gt(x, x), lax.gt(x, x)), TypeError, r"lax.add.*bool"),
    (lambda x: lax.select_n(x, x, x), TypeError, r"lax.select_n.*which"),
    (lambda x: lax.select_n(lax.gt(x, x), x, lax.reshape(x, (4, 3, 2))), TypeError,
     r"lax.select_n"),
    (lambda x: lax.select_n(lax.gt(x, x), x, x, x), TypeError, r"lax.select_n.*at most 2"),
    (lambda x: lax.select_n(lax.reshape(lax.gt(x, x), (24,)), x, x), TypeError,
     r"lax.select_n.*\(24,\)"),
    (lambda x: lax.pad(x, 0.0, [(0, 0, 0)]), ValueError, r"lax.pad"),
    (lambda x: lax.pad(x, np.float32(0), [(0, 0, -1)] * 3), ValueError, r"lax.pad.*interior"),
    (lambda x: lax.pad(x, np.int32(0), [(0, 0, 0)] * 3), TypeError, r"lax.pad.*padding value"),
    (lambda x: lax.broadcasted_iota(np.int32, (2, 3), 2), ValueError, r"lax.iota.*dimension"),
])
@pytest.mark.parametrize("mode", MODES)
def test_lax_errors(fn, exc, pattern, mode):
    x = np.ones((2, 3, 4), np.float32)
    with pytest.raises(exc, match=pattern):
        run(fn, [x], mode)


def test_errors_carry_the_user_location():
    with pytest.raises(TypeError) as e:
        lax.add(np.ones(2, np.float32), np.ones(3, np.float32))
    assert __file__ in str(e.value) or "test_lax.py" in str(e.value)


def test_a_caught_shape_error_leaves_the_trace_valid():
    # The C++ shape rules reject an op before (inferred results) or right after
    # (verified result types) it is built; either way nothing invalid stays in
    # the function, so code that catches the error still compiles and runs.
    def f(x):
        for bad, exc in ((lambda: lax.reshape(x, (5,)), ValueError),
                         (lambda: lax.add(x, lax.reshape(x, (3, 1))), TypeError),
                         (lambda: lax.broadcast_in_dim(x, (2, 4), (1,)), TypeError),
                         (lambda: lax.transpose(x, (1,)), TypeError)):
            with pytest.raises(exc, match=r"lax\.\w+: .*test_lax.py"):
                bad()
        return lax.add(x, x)

    out = mlax.jit(f)(np.arange(3, dtype=np.float32))
    np.testing.assert_array_equal(np.asarray(out), 2 * np.arange(3, dtype=np.float32))


def test_lax_does_not_promote():
    with pytest.raises(TypeError, match="int32.*int8"):
        lax.add(np.ones(3, np.int32), np.ones(3, np.int8))
    # Python scalars are not converted to the array's dtype either (as jax.lax).
    with pytest.raises(TypeError, match="float16.*float32"):
        lax.add(np.ones(3, np.float16), np.ones(3, np.float32))
    with pytest.raises(TypeError, match="int32.*float32"):
        lax.mul(np.ones((), np.int32), 1.0)


def test_bfloat16_elementwise_under_jit():
    x = make_input((2, 3), bf16, seed=8)
    out = mlax.jit(lambda a: lax.add(lax.mul(a, a), a))(x)
    check_against_jax(out, jlax.add(jlax.mul(x, x), x))


def test_all_lax_exports_are_tested():
    import pathlib

    here = pathlib.Path(__file__)
    src = here.read_text() + "".join(
        (here.parent / f).read_text()
        for f in ("test_conv.py", "test_control_flow.py", "test_math.py", "test_linalg.py",
                  "test_fft.py", "test_lax_more.py", "test_scipy_special.py",
                  "test_lax_compositions.py", "test_complex.py", "test_scatter_apply.py",
                  "test_sharding.py", "test_shard_map.py", "test_vmap_collectives.py",
                  "test_rng_bit_generator.py", "test_solves.py", "test_ragged_dot.py",
                  "test_composite.py", "test_rng_uniform.py", "test_accuracy.py"))
    names = [n for n in dir(lax) if not n.startswith("_")]
    missing = [n for n in names if f'"{n}"' not in src and f"L.{n}(" not in src
               and f"lax.{n}(" not in src and f"lax.{n}," not in src and f"lax.{n}." not in src
               and f"lax.{n})" not in src]
    assert not missing, missing
    jax_missing = [n for n in names if not hasattr(jax.lax, n)]
    assert not jax_missing, jax_missing


# ---------------------------------------------------------------------------
# Bit-level ops and what jax.random needs (shifts, bitcast_convert_type,
# erf, erf_inv, nextafter, sort, sort_key_val, cumsum)
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["uint32", "int32", "uint8", "int8", "int64", "uint16"])
@pytest.mark.parametrize("name", ["shift_left", "shift_right_logical", "shift_right_arithmetic"])
def test_shifts_against_jax(name, dtype):
    x = (np.arange(-6, 6) * 37).astype(dtype)
    bits = np.dtype(dtype).itemsize * 8
    s = np.array([0, 1, 3, 7, bits - 1, bits, bits + 3, 2, 5, 1, 0, 4]).astype(dtype)
    for mode in MODES:
        out = run(getattr(lax, name), (x, s), mode)
        check_against_jax(out, getattr(jlax, name)(x, s))
    assert lax.shift_left(np.uint32(1), np.uint32(31)).item() == 2 ** 31
    with pytest.raises(TypeError, match="shift_left.*float32"):
        lax.shift_left(np.float32(1), np.float32(2))


@pytest.mark.parametrize("dtype", ["uint32", "int32", "uint8", "int16", "int64"])
def test_clz_against_jax(dtype):
    info = np.iinfo(dtype)
    x = np.array([0, 1, 2, 3, 255, info.max, info.min, 12345 % int(info.max)], dtype=dtype)
    for mode in MODES:
        check_against_jax(run(lax.clz, (x,), mode), jlax.clz(x))
    with pytest.raises(TypeError, match="clz.*float32"):
        lax.clz(np.float32(1))


@pytest.mark.parametrize("src,dst", [("float32", "uint32"), ("uint32", "float32"),
                                     ("float16", "int16"), ("bfloat16", "uint16"),
                                     ("float32", "uint8"), ("uint8", "float32"),
                                     ("float32", "bfloat16")])
def test_bitcast_convert_type_against_jax(src, dst):
    x = make_input((3, 4) if np.dtype(dst).itemsize >= np.dtype(src).itemsize else (3,),
                   src, seed=2)
    if np.dtype(dst).itemsize > np.dtype(src).itemsize:
        x = make_input((3, np.dtype(dst).itemsize // np.dtype(src).itemsize), src, seed=2)
    for mode in MODES:
        out = run(lambda a: lax.bitcast_convert_type(a, dst), (x,), mode)
        expected = jlax.bitcast_convert_type(x, dst)
        assert out.shape == expected.shape and out.dtype == expected.dtype
        assert np.asarray(out).tobytes() == np.asarray(expected).tobytes()
    with pytest.raises(TypeError, match="bitcast_convert_type.*bool"):
        lax.bitcast_convert_type(np.ones(2, bool), np.uint8)
    with pytest.raises(ValueError, match="last dimension of size 2"):
        lax.bitcast_convert_type(np.ones(3, np.uint32), np.uint64)


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16"])
def test_erf_erf_inv_nextafter_bit_exact_with_jax(dtype):
    x = np.linspace(-0.999, 0.999, 23).astype(dtype)
    y = np.linspace(-3, 3, 23).astype(dtype)
    for mode in MODES:
        for name, args in [("erf", (y,)), ("erf_inv", (x,)), ("nextafter", (x, y))]:
            out = run(getattr(lax, name), args, mode)
            expected = getattr(jlax, name)(*args)
            assert out.dtype == expected.dtype
            assert np.asarray(out).tobytes() == np.asarray(expected).tobytes(), name
    assert lax.erf(0.5).weak_type == jlax.erf(0.5).weak_type
    with pytest.raises(TypeError, match="erf_inv.*int32"):
        lax.erf_inv(np.int32(1))


def test_sort_and_sort_key_val_against_jax():
    rng = np.random.default_rng(0)
    f = rng.standard_normal((4, 5)).astype(np.float32)
    f[0, :3] = [np.nan, -0.0, 0.0]
    keys = rng.integers(0, 3, (4, 5)).astype(np.uint32)
    for mode in MODES:
        for dim in (0, 1, -1):
            check_against_jax(run(lambda a: lax.sort(a, dimension=dim), (f,), mode),
                              jlax.sort(f, dimension=dim))
        k, v = run(lambda a, b: lax.sort_key_val(a, b, dimension=1), (keys, f), mode)
        jk, jv = jlax.sort_key_val(keys, f, dimension=1)
        check_against_jax(k, jk)
        assert np.asarray(v).tobytes() == np.asarray(jv).tobytes()  # stable, -0.0 kept
        outs = run(lambda a, b: lax.sort((a, b), num_keys=2), (keys, f), mode)
        for o, j in zip(outs, jlax.sort((keys, f), num_keys=2)):
            assert np.asarray(o).tobytes() == np.asarray(j).tobytes()
    with pytest.raises(TypeError, match="scalar"):
        lax.sort(np.float32(1))
    with pytest.raises(ValueError, match="dimension 2"):
        lax.sort(f, dimension=2)
    with pytest.raises(ValueError, match="num_keys"):
        lax.sort((f, f), num_keys=3)


@pytest.mark.parametrize("dtype", ["float32", "int32", "float16"])
def test_cumsum_against_jax(dtype):
    x = make_input((3, 7), dtype, seed=5)
    for mode in MODES:
        for axis in (0, 1):
            for reverse in (False, True):
                out = run(lambda a: lax.cumsum(a, axis=axis, reverse=reverse), (x,), mode)
                expected = jlax.cumsum(x, axis=axis, reverse=reverse)
                assert out.dtype == expected.dtype
                assert np.asarray(out).tobytes() == np.asarray(expected).tobytes()
    with pytest.raises(ValueError, match="axis 2"):
        lax.cumsum(x, axis=2)
    with pytest.raises(TypeError, match="cumsum.*bool"):
        lax.cumsum(np.ones(3, bool))


@pytest.mark.parametrize("axis", [0, 1, 2])
@pytest.mark.parametrize("dtype", ["float32", "int8", "bool", "bfloat16"])
def test_private_take_against_jnp_take(axis, dtype):
    from mlax._src.lax import lax as lax_impl

    x = make_input((3, 4, 5), dtype, seed=axis)
    n = x.shape[axis]
    ind = np.array([[0, n - 1, 1], [2, 0, 0]], np.int32) % n
    for mode in MODES:
        out = run(lambda a, i: lax_impl.take(a, i, axis), (x, ind), mode)
        expected = jax.numpy.take(x, ind, axis=axis)
        assert out.shape == expected.shape and out.dtype == expected.dtype
        assert np.asarray(out).tobytes() == np.asarray(expected).tobytes()
    with pytest.raises(TypeError, match="take: indices must be int32"):
        lax_impl.take(x, ind.astype(np.float32), axis)


def _indexing_exports_calls(L, x):
    i = np.int32(-2)
    out = [
        L.rev(x, (1,)),
        L.dynamic_slice(x, (i, 1), (2, 3)),
        L.dynamic_slice_in_dim(x, 3, 2, axis=1),
        L.dynamic_index_in_dim(x, 5, 1, keepdims=False),
        L.dynamic_update_slice(x, -x[:2, :2], (3, i)),
        L.dynamic_update_slice_in_dim(x, -x[:1], 2, 0),
    ]
    idx = np.array([[3], [0], [3]], np.int32)
    gdn = dict(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,))
    out.append(L.gather(x, idx, L.GatherDimensionNumbers(**gdn), (1, 6),
                        mode=L.GatherScatterMode.CLIP))  # (lax.GatherScatterMode.CLIP)
    sdn = dict(update_window_dims=(1,), inserted_window_dims=(0,),
               scatter_dims_to_operand_dims=(0,))
    upd = np.full((3, 6), 7.0, np.float32)
    for name in ("scatter_add", "scatter_mul", "scatter_min", "scatter_max"):
        out.append(getattr(L, name)(x, idx, upd, L.ScatterDimensionNumbers(**sdn)))
    out.append(L.scatter(x, idx[:2], upd[:2], L.ScatterDimensionNumbers(**sdn)))
    return out


def test_indexing_exports_match_jax():
    # Thorough tests (gradients, vmap, errors) are in test_indexing.py.
    # mlax's eagerly, JAX's references one jitted program.
    x = np.arange(24, dtype=np.float32).reshape(4, 6)
    got = _indexing_exports_calls(lax, x)
    want = jax.jit(lambda v: _indexing_exports_calls(jlax, v))(x)
    assert len(got) == len(want)
    for k, (g, w) in enumerate(zip(got, want)):
        assert g.shape == w.shape and g.dtype == w.dtype, k
        np.testing.assert_array_equal(np.asarray(g), np.asarray(w), err_msg=str(k))


# ---------------------------------------------------------------------------
# reduce_precision (the op added as the example of docs/pipeline.md's
# "Adding an op": one .td line group, its rule, its Python function)
# ---------------------------------------------------------------------------

_FORMATS = [(5, 10), (8, 7), (4, 3), (2, 1), (8, 0)]  # float16, bfloat16, fp8 e4m3, tiny, ...


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dt", ["float32", "float16", "bfloat16"])
def test_reduce_precision_matches_jax(dt, mode):
    # Values across the formats' ranges: overflow to inf, underflow to 0,
    # ties, subnormals and the specials.
    with np.errstate(over="ignore"):  # float16 overflows to inf on purpose
        x = np.concatenate([make_input((40,), dt, seed=3) * 9000,
                            make_input((40,), dt, seed=4) * 1e-3,
                            np.array([1.0625, 1.1875, 65519, 65520, 1e-8, np.inf, -np.inf, np.nan])
                            ]).astype(make_input((), dt).dtype)
    # Every format in one program (under jit, one mlax compile for them all;
    # JAX's references one jitted program).
    def formats(rp):
        return lambda v: [rp(v, e, m) for e, m in _FORMATS]
    got = run(formats(lax.reduce_precision), (to_mlax(x),), mode)
    want = jax.jit(formats(jlax.reduce_precision))(x)
    for (e, m), g, w in zip(_FORMATS, got, want):
        try:
            check_against_jax(g, w, rtol=0, atol=0)
        except AssertionError as err:
            raise AssertionError(f"reduce_precision(x, {e}, {m}): {err}") from None


def test_reduce_precision_weak_type_and_jit_of_scalar():
    check_against_jax(lax.reduce_precision(1.1, 5, 3), jlax.reduce_precision(1.1, 5, 3))
    f = mlax.jit(lambda v: lax.reduce_precision(v, 4, 3))
    check_against_jax(f(3.3), jax.jit(lambda v: jlax.reduce_precision(v, 4, 3))(3.3))


def test_reduce_precision_grad_and_vmap():
    # Linear as in JAX: grad passes the cotangent through the same rounding.
    x = np.linspace(-3, 3, 7, dtype=np.float32)

    def f(lib, v):
        return (lib.reduce_precision(v * v, 5, 2) * v).sum()

    g = mlax.grad(lambda v: f(lax, v))(x)
    check_against_jax(g, jax.grad(lambda v: f(jlax, v))(x), rtol=0, atol=0)
    gg = mlax.jit(mlax.grad(mlax.grad(lambda s: lax.reduce_precision(s, 5, 2) * s ** 3)))(1.3)
    check_against_jax(gg, jax.grad(jax.grad(lambda s: jlax.reduce_precision(s, 5, 2) * s ** 3))(1.3),
                      rtol=1e-6)
    xs = np.arange(12, dtype=np.float32).reshape(4, 3) * 1.37
    check_against_jax(mlax.vmap(lambda r: lax.reduce_precision(r, 3, 2))(xs),
                      jax.vmap(lambda r: jlax.reduce_precision(r, 3, 2))(xs), rtol=0, atol=0)
    check_against_jax(mlax.vmap(lambda r: lax.reduce_precision(r, 3, 2), in_axes=1)(xs),
                      jax.vmap(lambda r: jlax.reduce_precision(r, 3, 2), in_axes=1)(xs),
                      rtol=0, atol=0)


def test_reduce_precision_errors_match_jax():
    x = np.ones(3, np.float32)
    for bad_e, bad_m in [(0, 3), (5, -1)]:
        with pytest.raises(ValueError) as want:
            jlax.reduce_precision(x, bad_e, bad_m)
        with pytest.raises(ValueError) as got:
            lax.reduce_precision(x, bad_e, bad_m)
        assert str(got.value) == str(want.value)
    with pytest.raises(TypeError, match="reduce_precision"):
        jlax.reduce_precision(np.ones(3, np.int32), 5, 10)
    with pytest.raises(TypeError, match="reduce_precision.*int32"):
        lax.reduce_precision(np.ones(3, np.int32), 5, 10)
    with pytest.raises(TypeError):
        lax.reduce_precision(x, 5.5, 3)  # as operator.index in jax
    with pytest.raises(jax.errors.ConcretizationTypeError):
        jax.jit(lambda v, e: jlax.reduce_precision(v, e, 3))(x, 5)
    with pytest.raises(mlax.errors.ConcretizationTypeError, match="exponent_bits"):
        mlax.jit(lambda v, e: lax.reduce_precision(v, e, 3))(x, 5)


# jax.lax 0.10's binary ops broadcast a rank-0 operand and size-1 dimensions
# (never adding dimensions): values, dtypes, weak types and error classes as
# JAX's, eagerly, under jit, grad and vmap.
BROADCAST_SHAPES = [((2, 3), (2, 1)), ((2, 3), ()), ((), (3,)), ((3,), (1,)), ((2, 1), (1, 3)),
                    ((2, 3), (3,)), ((3,), (4,))]


@pytest.mark.parametrize("sx, sy", BROADCAST_SHAPES, ids=[f"{a}-{b}" for a, b in BROADCAST_SHAPES])
@pytest.mark.parametrize("name", ["sub", "atan2", "lt", "complex"])
def test_binary_ops_broadcast_as_jax_lax(name, sx, sy):
    x = np.arange(1, 1 + int(np.prod(sx)), dtype=np.float32).reshape(sx)
    y = np.linspace(0.5, 2.0, int(np.prod(sy)), dtype=np.float32).reshape(sy)
    try:
        ref = getattr(jax.lax, name)(x, y)
    except Exception as e:  # JAX refuses: so does mlax, with the same class
        with pytest.raises(type(e)):
            getattr(lax, name)(x, y)
        return
    for out in (getattr(lax, name)(x, y), mlax.jit(getattr(lax, name))(x, y)):
        assert out.shape == ref.shape and out.dtype == ref.dtype
        np.testing.assert_allclose(np.asarray(out), np.asarray(ref), rtol=1e-6)


def test_binary_broadcast_weak_types_grad_and_vmap_as_jax():
    import jax.numpy as jnp

    v = np.ones(3, np.float32)
    for a, b in ((lax.add(v, 2.0), jax.lax.add(v, 2.0)),
                 (lax.mul(2.0, np.float32(3)), jax.lax.mul(2.0, np.float32(3)))):
        assert a.dtype == b.dtype and a.weak_type == b.weak_type and a.shape == b.shape
    g = mlax.grad(lambda s: lax.mul(s, v).sum() + lax.add(lax.reshape(v, (3, 1)), s).sum())(2.0)
    r = jax.grad(lambda s: jax.lax.mul(s, v).sum()
                 + jax.lax.add(jax.lax.reshape(v, (3, 1)), s).sum())(2.0)
    assert float(g) == float(r)
    m = np.arange(6, dtype=np.float32).reshape(2, 3)
    out = mlax.vmap(lambda r: lax.max(r, np.float32(2)))(m)
    np.testing.assert_array_equal(np.asarray(out),
                                  np.asarray(jax.vmap(lambda r: jax.lax.max(r, jnp.float32(2)))(m)))



def test_unsigned_neg_and_sign_and_integer_which_as_jax():
    # JAX's lax.neg and lax.sign take unsigned integers (neg wraps around),
    # and select_n any integer `which`; one jitted program for all.
    def f(lax_, x, w):
        return lax_.neg(x), lax_.sign(x), lax_.select_n(w, x, lax_.neg(x))

    x = np.array([0, 1, 200, 255], np.uint8)
    w = np.array([0, 1, 1, 0], np.int8)
    got = mlax.jit(lambda x, w: f(lax, x, w))(x, w)
    want = jax.jit(lambda x, w: f(jax.lax, x, w))(x, w)
    for g, v in zip(got, want):
        assert g.dtype == v.dtype
        np.testing.assert_array_equal(np.asarray(g), np.asarray(v))

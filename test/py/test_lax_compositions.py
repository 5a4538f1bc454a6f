"""The jax.lax functions mlax composes from its other lax functions (split,
tile, stack, unstack, broadcast_like, mulhi, reduce_xor, index_take,
scatter_sub, dynamic_update_index_in_dim, batch_matmul, optimization_barrier,
approx_max_k/min_k, Precision on dot/conv, the shape-tuple helpers, dtype,
empty) against jax.lax: values, dtypes and weak types eagerly and under jit,
grad and vmap where JAX has them, and the exception classes of bad input.
"""
from __future__ import annotations

import jax
import jax.lax as jlax
import jax.numpy as jnp
import numpy as np
import pytest
from _helpers import (MODES, assert_values, jax_outcomes, jgrad, jvmap, make_input, run,
                      to_mlax)

import mlax
import mlax.lax as lax
import mlax.numpy as mnp

X = make_input((2, 3), "float32")
Z = make_input((3, 4), "float32", seed=1)
B3 = make_input((2, 3, 4), "float32", seed=2)
B4 = make_input((2, 4, 5), "float32", seed=3)
I3 = np.array([0, 1, -1], np.int32)
J3 = np.array([2, -3, 1], np.int32)
SCATTER_IDX = np.array([[1], [1], [3]], np.int32)
SDN = dict(update_window_dims=(), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))


def _ints(dtype, seed):
    info = np.iinfo(dtype)
    rng = np.random.default_rng(seed)
    out = rng.integers(info.min, info.max, (6,), dtype=dtype, endpoint=True)
    out[:3] = [info.min, info.max, 0]  # the extremes, and zero
    return out


def _scatter_sub(L, x, upd):
    return L.scatter_sub(x, SCATTER_IDX, upd, L.ScatterDimensionNumbers(**SDN))


# id: (function of the lax module and the array arguments, arguments)
CASES = {
    "split": (lambda L, x: L.split(x, (1, 2), axis=-1), (X,)),
    "tile": (lambda L, x: L.tile(x, (2, 1)), (X,)),
    "tile_weak_scalar": (lambda L, x: L.tile(x, ()), (1.5,)),
    "stack": (lambda L, x: L.stack([x, -x], axis=-1), (X,)),
    "stack_weak_scalars": (lambda L, a, b: L.stack([a, b]), (1.0, 2.0)),
    "unstack": (lambda L, x: L.unstack(x, axis=1), (X,)),
    "broadcast_like": (lambda L, v, x: L.broadcast_like(v, x), (X[:1], B3[:, :2, :3])),
    "dynamic_update_index_in_dim": (
        lambda L, z, row: (L.dynamic_update_index_in_dim(z, row, -1, 0),
                           L.dynamic_update_index_in_dim(z, row[None], 1, 0)), (Z, Z[0] + 1)),
    "index_take": (lambda L, z, i, j: L.index_take(z, (i, j), (0, 1)), (Z, I3, J3)),
    "scatter_sub_float": (_scatter_sub, (make_input((5,), "float32"),
                                         np.float32([2, 3, 1]))),
    "scatter_sub_uint32": (_scatter_sub, (np.arange(5, dtype=np.uint32),
                                          np.uint32([2, 3, 1]))),
    "mulhi_int32": (lambda L, a, b: L.mulhi(a, b), (_ints(np.int32, 0), _ints(np.int32, 1))),
    "mulhi_uint32": (lambda L, a, b: L.mulhi(a, b), (_ints(np.uint32, 2), _ints(np.uint32, 3))),
    "mulhi_int8": (lambda L, a, b: L.mulhi(a, b), (_ints(np.int8, 4), _ints(np.int8, 5))),
    "mulhi_uint16": (lambda L, a, b: L.mulhi(a, b), (_ints(np.uint16, 6), _ints(np.uint16, 7))),
    "mulhi_weak": (lambda L, a, b: L.mulhi(a, b), (-70000, 90000)),
    "reduce_xor_int32": (lambda L, x: (L.reduce_xor(x, (0, 2)), L.reduce_xor(x, (1,))),
                         (make_input((3, 5, 2), "int32"),)),
    "reduce_xor_uint8": (lambda L, x: L.reduce_xor(x, (0,)), (_ints(np.uint8, 8),)),
    "reduce_xor_bool": (lambda L, x: (L.reduce_xor(x, (1,)), L.reduce_xor(x, ())),
                        (make_input((2, 7), "bool"),)),
    "reduce_and_or_int32": (lambda L, x: (L.reduce_and(x, (0, 2)), L.reduce_or(x, (1,))),
                            (make_input((3, 5, 2), "int32"),)),
    "reduce_and_or_uint8_empty": (lambda L, x: (L.reduce_and(x, (0,)), L.reduce_or(x, (0,)),
                                                L.reduce_and(x[:0], (0,))),
                                  (_ints(np.uint8, 9),)),
    "slice_in_dim_keywords": (lambda L, x: (L.slice_in_dim(x, start_index=1, limit_index=None),
                                            L.slice_in_dim(x, -3, -1)), (_ints(np.int32, 10),)),
    "scan_unroll_0": (lambda L, x: L.scan(lambda c, v: (c + v, c), np.float32(0), x, unroll=0),
                      (make_input((4,), "float32"),)),
    "batch_matmul": (lambda L, a, b: L.batch_matmul(a, b, precision=L.Precision.HIGHEST),
                     (B3, B4)),
    "dot_precision": (lambda L, a, b: (L.dot(a, b, precision="highest"),
                                       L.dot_general(a, b, (((1,), (0,)), ((), ())),
                                                     precision=("high", "default"))), (X, Z)),
    "conv_precision": (lambda L, a, k: L.conv_general_dilated(
        a, k, (1,), "SAME", precision=L.Precision.HIGH),
        (make_input((1, 2, 6), "float32"), make_input((3, 2, 3), "float32", seed=4))),
    "optimization_barrier": (lambda L, x, s: L.optimization_barrier((x * 2, s)), (X, 1.0)),
    # rhs: (out features, in features x filter, output spatial...), here in HWIO-like order.
    "conv_general_dilated_local_nhwc": (lambda L, x, k: L.conv_general_dilated_local(
        x, k, (1, 2), "SAME", (2, 2), rhs_dilation=(1, 2),
        dimension_numbers=("NHWC", "HWIO", "NHWC")),
        (make_input((2, 4, 5, 3), "float32"), make_input((4, 3, 12, 6), "float32", seed=5))),
    "conv_general_dilated_local_1d": (lambda L, x, k: L.conv_general_dilated_local(
        x, k, (2,), [(1, 0)], (3,), lhs_dilation=(2,)),
        (make_input((1, 2, 5), "float32"), make_input((3, 6, 4), "float32", seed=6))),
    "approx_max_k": (lambda L, x: L.approx_max_k(x, 2), (make_input((3, 5), "float32"),)),
    "approx_min_k": (lambda L, x: L.approx_min_k(x, 2, reduction_dimension=0),
                     (make_input((3, 5), "float32"),)),
}


def _leaves(out):
    return list(out) if isinstance(out, (tuple, list)) else [out]


def _check(got, want):
    got, want = _leaves(got), _leaves(want)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert isinstance(g, mlax.Array), type(g)
        assert (g.shape, g.dtype, g.weak_type) == (w.shape, w.dtype, w.weak_type)
        assert_values(g, np.asarray(w))


JAX_TABLE = [(lambda *a, fn=fn: fn(jlax, *a), args, {}) for fn, args in CASES.values()]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", list(CASES))
def test_composed_lax_function_matches_jax(name, mode):
    fn, args = CASES[name]
    got = run(lambda *a: fn(lax, *a), [to_mlax(a) for a in args], mode)
    _check(got, jax_outcomes(JAX_TABLE)[list(CASES).index(name)])


# id: (function of (lax module, numpy module, x)), x): the differentiable cases,
# each folded into one scalar.
DIFFERENTIABLE = {
    "split": lambda L, x: L.split(x, (1, 2), axis=1)[1],
    "tile": lambda L, x: L.tile(x, (2, 3)),
    "stack": lambda L, x: L.stack([x, x * x], axis=1),
    "unstack": lambda L, x: L.unstack(x, axis=1)[2],
    "broadcast_like": lambda L, x: L.broadcast_like(x[:1], B3[:, :2, :3]),
    "dynamic_update_index_in_dim": lambda L, x: L.dynamic_update_index_in_dim(
        Z[:2, :3], x[0] * x[1], 1, 0),
    "index_take": lambda L, x: L.index_take(x, (I3, J3), (0, 1)),
    "scatter_sub": lambda L, x: L.scatter_sub(
        Z[0], SCATTER_IDX, x[0], L.ScatterDimensionNumbers(**SDN)),
    "batch_matmul": lambda L, x: L.batch_matmul(x[None], x.T[None] * 2),
    "optimization_barrier": lambda L, x: L.optimization_barrier(x * x),
    "approx_max_k": lambda L, x: L.approx_max_k(x, 2)[0],
    "conv_general_dilated_local": lambda L, x: L.conv_general_dilated_local(
        x[None], make_input((2, 4, 2), "float32", seed=7), (1,), "VALID", (2,)),
}


def _scalar(L, np_mod, name):
    return lambda x: np_mod.sum(np_mod.sin(DIFFERENTIABLE[name](L, x)))


@pytest.mark.parametrize("name", list(DIFFERENTIABLE))
def test_composed_lax_grad_and_vmap_match_jax(name):
    got = mlax.jit(mlax.grad(_scalar(lax, mnp, name)))(to_mlax(X))
    want = jgrad(_scalar(jlax, jnp, name))(X)
    assert_values(got, np.asarray(want), rtol=1e-5, atol=1e-6)
    batch = np.stack([X, 2 * X + 1])
    got = mlax.vmap(lambda x: DIFFERENTIABLE[name](lax, x))(to_mlax(batch))
    _check(got, jvmap(lambda x: DIFFERENTIABLE[name](jlax, x))(batch))


# The pure-Python helpers: equal results (as tuples of ints), or equal dtypes.
HELPERS = {
    "conv_shape_tuple_same": lambda L: L.conv_shape_tuple((1, 2, 5, 5), (3, 2, 3, 3), (1, 1),
                                                          "SAME"),
    "conv_shape_tuple_pairs": lambda L: L.conv_shape_tuple((4, 2, 5, 7), (3, 2, 3, 2), (2, 3),
                                                           [(0, 0), (1, 2)], 2),
    "conv_general_shape_tuple": lambda L: L.conv_general_shape_tuple(
        (1, 5, 6, 2), (3, 3, 2, 4), (1, 2), "VALID", ("NHWC", "HWIO", "NHWC")),
    "conv_transpose_shape_tuple": lambda L: L.conv_transpose_shape_tuple(
        (1, 5, 6, 2), (3, 2, 2, 4), (1, 2), "SAME", ("NHWC", "HWIO", "NCHW")),
    "conv_transpose_shape_tuple_pairs": lambda L: L.conv_transpose_shape_tuple(
        (1, 2, 5), (4, 2, 3), (2,), [(1, 0)], ("NCH", "OIH", "NCH")),
    "conv_general_permutations": lambda L: L.conv_general_permutations(
        ("NHWC", "HWIO", "NCHW")),
    "reduce_window_shape_tuple": lambda L: L.reduce_window_shape_tuple(
        (5, 6), (2, 3), (1, 2), ((0, 1), (1, 1)), (2, 1), (1, 2)),
    "reduce_window_shape_tuple_plain": lambda L: L.reduce_window_shape_tuple(
        (5, 6), (2, 3), (1, 2), ((0, 1), (1, 1))),
    "broadcast_shapes": lambda L: (L.broadcast_shapes((3, 1), (1, 4), (5, 1, 1)),
                                   L.broadcast_shapes((2, 3))),
    "shape_as_value": lambda L: (L.shape_as_value((2, 3)), L.shape_as_value(())),
    "dtype": lambda L: (L.dtype(1.0), L.dtype(np.float64), L.dtype(3), L.dtype(True),
                        L.dtype(float), L.dtype(np.int64(3)), L.dtype("float16"),
                        L.dtype(np.zeros(2, np.uint8))),
    "precision": lambda L: (L.Precision("tensorfloat32"), L.Precision(2),
                            repr(L.Precision.HIGH), str(L.Precision.DEFAULT)),
}


def _plain(value):
    if isinstance(value, (tuple, list)):
        return tuple(_plain(v) for v in value)
    if isinstance(value, np.dtype):
        return value
    if isinstance(value, str):
        return value
    if hasattr(value, "name") and hasattr(value, "value"):  # a Precision of either library
        return ("Precision", value.name)
    return np.asarray(value).tolist()


@pytest.mark.parametrize("name", list(HELPERS))
def test_static_helpers_match_jax(name):
    assert _plain(HELPERS[name](lax)) == _plain(HELPERS[name](jlax))


def test_empty_shape_and_dtype():
    for shape, dtype in (((2, 3), "float32"), (3, "int32"), ((), "bool")):
        got, want = lax.empty(shape, dtype), jlax.empty(shape, dtype)
        assert (got.shape, got.dtype, got.weak_type) == (want.shape, want.dtype, want.weak_type)
        got = mlax.jit(lambda: lax.empty(shape, dtype))()
        assert (got.shape, got.dtype) == (want.shape, want.dtype)


def test_optimization_barrier_stays_in_the_program():
    def f(x):
        return lax.optimization_barrier(lax.sin(x)) + lax.sin(x)

    assert "mlax.optimization_barrier" in str(mlax.make_ir(f)(1.0))
    assert "stablehlo.optimization_barrier" in mlax.jit(f).lower(1.0).as_text()
    assert lax.optimization_barrier(()) == ()


FLOAT_INT = (X, X.astype(np.int32))
ERRORS = {
    "split_negative": lambda L: L.split(X, (-1, 4), axis=1),
    "split_sum": lambda L: L.split(X, (1, 3), axis=0),
    "split_axis": lambda L: L.split(X, (1, 1), axis=2),
    "tile_reps": lambda L: L.tile(X, (2,)),
    "stack_ndim": lambda L: L.stack([X, X[0]]),
    "stack_dtypes": lambda L: L.stack(list(FLOAT_INT)),
    "stack_shapes": lambda L: L.stack([X, X[:1]]),
    "stack_nothing": lambda L: L.stack([]),
    "unstack_scalar": lambda L: L.unstack(np.float32(1)),
    "broadcast_shapes": lambda L: L.broadcast_shapes((3, 1), (4, 1)),
    "broadcast_shapes_negative": lambda L: L.broadcast_shapes((-1,), (1,)),
    "mulhi_float": lambda L: L.mulhi(X, X),
    "mulhi_dtypes": lambda L: L.mulhi(np.int32(7), np.int8(5)),
    "mulhi_shapes": lambda L: L.mulhi(np.ones(3, np.int32), np.ones(2, np.int32)),
    "reduce_xor_float": lambda L: L.reduce_xor(X, (1,)),
    "reduce_or_float": lambda L: L.reduce_or(X, (1,)),
    "scan_unroll_negative": lambda L: L.scan(lambda c, v: (c, c), 0.0, X[0], unroll=-1),
    "batch_matmul_1d": lambda L: L.batch_matmul(X[0], X[0]),
    "batch_matmul_ndim": lambda L: L.batch_matmul(B3, Z),
    "dot_precision": lambda L: L.dot(X, Z, precision="bogus"),
    "conv_precision": lambda L: L.conv(X[None], X[None], (1,), "SAME", precision=3),
    "precision_value": lambda L: L.Precision(5),
    "conv_shape_tuple_pads": lambda L: L.conv_shape_tuple((1, 2, 5, 5), (3, 2, 3, 3), (2, 1),
                                                          [(0, 0)]),
    "conv_shape_tuple_negative": lambda L: L.conv_shape_tuple(
        (1, 2, 5, 5), (3, 2, 3, 3), (2, 1), [(-4, -4), (0, 0)]),
    "approx_max_k_k": lambda L: L.approx_max_k(X, 4),
    "approx_max_k_zero": lambda L: L.approx_max_k(X, 0),
    "approx_min_k_int": lambda L: L.approx_min_k(FLOAT_INT[1], 1),
    "dtype": lambda L: L.dtype([1, 2]),
    "scatter_sub_bool": lambda L: L.scatter_sub(np.ones(5, bool), SCATTER_IDX,
                                                np.array([True, True, False]),
                                                L.ScatterDimensionNumbers(**SDN)),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_match_jax_classes(name):
    with pytest.raises(Exception) as want:
        ERRORS[name](jlax)
    with pytest.raises(want.type):
        ERRORS[name](lax)


@pytest.mark.parametrize("dtype", [np.int64, np.uint64])
def test_mulhi_64_bit_under_x64(dtype):
    old_m, old_j = mlax.config.jax_enable_x64, jax.config.jax_enable_x64
    mlax.config.update("jax_enable_x64", True)
    jax.config.update("jax_enable_x64", True)
    try:
        a, b = _ints(dtype, 10), _ints(dtype, 11)
        _check(mlax.jit(lax.mulhi)(to_mlax(a), to_mlax(b)), jlax.mulhi(a, b))
    finally:
        mlax.config.update("jax_enable_x64", old_m)
        jax.config.update("jax_enable_x64", old_j)


def _type_shape(t):
    """A type annotation as nested names, so that mlax's aliases compare with JAX's."""
    import typing

    args = typing.get_args(t)
    if not args:
        return getattr(t, "__name__", repr(t))
    origin = typing.get_origin(t)
    return (getattr(origin, "_name", None) or getattr(origin, "__name__", repr(origin)),
            tuple(_type_shape(a) for a in args))


@pytest.mark.parametrize("name", ["DotDimensionNumbers", "ConvGeneralDilatedDimensionNumbers",
                                  "PrecisionLike"])
def test_type_aliases_match_jax(name):
    ours, theirs = _type_shape(getattr(lax, name)), _type_shape(getattr(jlax, name))
    assert ours == theirs


@pytest.mark.parametrize("name,op", [("split_negative", "lax.split"), ("tile_reps", "lax.tile"),
                                     ("stack_ndim", "lax.stack"),
                                     ("reduce_xor_float", "lax.reduce_xor"),
                                     ("batch_matmul_1d", "lax.batch_matmul"),
                                     ("approx_max_k_k", "lax.approx_max_k"),
                                     ("mulhi_shapes", "lax.mulhi")])
def test_errors_name_the_op_and_the_users_line(name, op):
    with pytest.raises(Exception, match=rf"{op}: .*test_lax_compositions\.py"):
        ERRORS[name](lax)


# ---------------------------------------------------------------------------
# DotAlgorithmPreset / DotAlgorithm as `precision=`: computed as JAX's CPU
# lowering computes them (operands converted to the algorithm's storage
# type, accumulated in its accumulation type); the presets JAX rejects on
# CPU are its ValueError.
# ---------------------------------------------------------------------------

def _outcome(fn):
    try:
        return fn(), None
    except Exception as e:  # noqa: BLE001 (the class is compared)
        return None, type(e)


@pytest.mark.skipif(mlax.default_backend() != "cpu", reason="JAX's CPU semantics are checked")
@pytest.mark.parametrize("name", [p.name for p in jlax.DotAlgorithmPreset])
@pytest.mark.parametrize("dtype", [np.float32, np.float16, jnp.bfloat16])
def test_dot_algorithm_presets_match_jax_on_cpu(name, dtype):
    from _helpers import assert_tree_like
    a = np.random.RandomState(0).randn(4, 5).astype(dtype)
    b = np.random.RandomState(1).randn(5, 3).astype(dtype)
    for precision in (name, getattr(lax.DotAlgorithmPreset, name)):
        jprecision = precision if isinstance(precision, str) else jlax.DotAlgorithmPreset[name]
        calls = {
            "dot": (lambda a, b: lax.dot(a, b, precision=precision),
                    lambda a, b: jlax.dot(a, b, precision=jprecision)),
            "matmul under jit": (mlax.jit(lambda a, b: mnp.matmul(a, b, precision=precision)),
                                 jax.jit(lambda a, b: jnp.matmul(a, b, precision=jprecision))),
            "einsum": (lambda a, b: mnp.einsum("ij,jk->ik", a, b, precision=precision),
                       lambda a, b: jnp.einsum("ij,jk->ik", a, b, precision=jprecision)),
            "preferred float32": (
                lambda a, b: lax.dot(a, b, precision=precision,
                                     preferred_element_type=np.float32),
                lambda a, b: jlax.dot(a, b, precision=jprecision,
                                      preferred_element_type=np.float32)),
        }
        if dtype == np.float32:
            calls["grad"] = (
                mlax.grad(lambda a, b: mnp.sum(lax.dot(a, b, precision=precision) ** 2)),
                jax.grad(lambda a, b: jnp.sum(jlax.dot(a, b, precision=jprecision) ** 2)))
        # JAX's calls in one jitted program; where it fails (a preset CPU
        # XLA rejects), each call on its own, for its own exception class.
        wants, _ = _outcome(lambda: jax.jit(lambda a, b: {
            what: theirs(a, b) for what, (_, theirs) in calls.items()})(a, b))
        for what, (mine, theirs) in calls.items():
            want, want_error = ((wants[what], None) if wants is not None
                                else _outcome(lambda: theirs(a, b)))
            got, got_error = _outcome(lambda: mine(a, b))
            assert got_error == want_error, (what, got_error, want_error)
            if want_error is None:
                assert_tree_like(got, want, rtol=0, atol=0)


@pytest.mark.skipif(mlax.default_backend() != "cpu", reason="JAX's CPU semantics are checked")
def test_dot_algorithm_objects_and_conv_on_cpu():
    a = np.random.RandomState(0).randn(4, 5).astype(np.float32)
    b = np.random.RandomState(1).randn(5, 3).astype(np.float32)
    algorithm = lax.DotAlgorithm(np.float32, np.float32, np.float32)
    assert algorithm == tuple(jlax.DotAlgorithm(np.float32, np.float32, np.float32))
    with pytest.raises(ValueError):  # JAX's CPU lowering takes presets only
        jlax.dot(a, b, precision=jlax.DotAlgorithm(np.float32, np.float32, np.float32))
    with pytest.raises(ValueError, match="not supported by dot_general on CPU"):
        lax.dot(a, b, precision=algorithm)
    assert repr(lax.DotAlgorithmPreset.F16_F16_F32) == repr(jlax.DotAlgorithmPreset.F16_F16_F32)
    assert [p.name for p in lax.DotAlgorithmPreset] == [p.name for p in jlax.DotAlgorithmPreset]
    # Convolutions accept a preset and (on CPU, as JAX) compute as by default.
    x = np.random.RandomState(2).randn(1, 2, 5, 5).astype(np.float32)
    k = np.random.RandomState(3).randn(3, 2, 3, 3).astype(np.float32)
    for name in ("F16_F16_F16", "F64_F64_F64"):
        got = lax.conv(x, k, (1, 1), "SAME", precision=name)
        want = jlax.conv(x, k, (1, 1), "SAME", precision=name)
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-6, atol=1e-6)

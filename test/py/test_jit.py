"""mlax.jit: tracing cache, static arguments, pytrees, nested jit, IR and
StableHLO/HLO inspection, and the seed examples."""
from __future__ import annotations

import functools

import numpy as np
import pytest

import jax
from _helpers import assert_values

import mlax
import mlax.numpy as mnp

# ---------------------------------------------------------------------------
# Caching
# ---------------------------------------------------------------------------


def _counting(fn):
    """fn, plus a list that grows by one each time it is traced."""
    traces = []

    def wrapped(*args, **kwargs):
        traces.append(1)
        return fn(*args, **kwargs)

    wrapped.__name__ = fn.__name__
    return wrapped, traces


def test_second_call_does_not_retrace():
    f, traces = _counting(lambda x: mnp.sin(x) * 2.0)
    jf = mlax.jit(f)
    x = np.arange(3, dtype=np.float32)
    r1 = jf(x)
    r2 = jf(x + 1)
    r3 = jf(mnp.asarray(x))  # an mlax.Array of the same aval hits the same entry
    assert len(traces) == 1 and jf.cache_misses == 1
    assert_values(r1, np.sin(x) * 2, rtol=1e-6)
    assert_values(r2, np.sin(x + 1) * 2, rtol=1e-6)
    assert_values(r3, np.sin(x) * 2, rtol=1e-6)


def test_new_shape_or_dtype_retraces():
    f, traces = _counting(lambda x: x + 1)
    jf = mlax.jit(f)
    jf(np.zeros(3, np.float32))
    jf(np.zeros(4, np.float32))
    jf(np.zeros(3, np.int32))
    jf(np.zeros((3, 1), np.float32))
    assert len(traces) == 4 and jf.cache_misses == 4
    jf(np.ones(4, np.float32))
    jf(np.ones(3, np.int32))
    assert len(traces) == 4 and jf.cache_misses == 4


def test_weak_and_strong_scalars_are_different_signatures():
    f, traces = _counting(lambda x: x * 2)
    jf = mlax.jit(f)
    a = jf(1.0)  # weak float32
    b = jf(np.float32(1.0))  # strong float32
    c = jf(2.0)
    assert len(traces) == 2 and jf.cache_misses == 2
    assert a.weak_type and not b.weak_type and c.weak_type
    assert a.item() == 2.0 and b.item() == 2.0 and c.item() == 4.0
    # ints and floats differ too
    jf(3)
    assert len(traces) == 3
    assert jf(4).item() == 8 and len(traces) == 3


def test_weak_type_changes_promotion_inside_jit():
    f = mlax.jit(lambda x, y: x + y)
    y16 = np.ones(2, np.float16)
    assert f(1.0, y16).dtype == np.float16  # weak scalar adopts float16
    assert f(np.float32(1.0), y16).dtype == np.float32


def test_pytree_structure_is_part_of_the_key():
    f, traces = _counting(lambda t: t[0] + t[1])
    jf = mlax.jit(f)
    jf((np.float32(1), np.float32(2)))
    jf([np.float32(1), np.float32(2)])  # list vs tuple
    assert len(traces) == 2
    jf((np.float32(3), np.float32(4)))
    assert len(traces) == 2


def test_clear_cache_and_clear_caches():
    f, traces = _counting(lambda x: x - 1)
    jf = mlax.jit(f)
    jf(np.float32(1))
    jf.clear_cache()
    jf(np.float32(1))
    assert len(traces) == 2
    mlax.clear_caches()
    assert jf(np.float32(1)).item() == 0.0
    assert len(traces) == 3
    assert mnp.sin(np.float32(0)).item() == 0.0  # eager ops recompile after clear_caches


def test_kwargs_are_dynamic_arguments():
    f, traces = _counting(lambda x, *, scale: x * scale)
    jf = mlax.jit(f)
    assert jf(np.float32(2), scale=np.float32(3)).item() == 6.0
    assert jf(np.float32(2), scale=np.float32(4)).item() == 8.0
    assert len(traces) == 1


# ---------------------------------------------------------------------------
# Static arguments
# ---------------------------------------------------------------------------

def test_static_argnums_values_are_in_the_key():
    def f(x, n):
        return x * n if n > 1 else x - 100  # Python control flow on a static value

    f, traces = _counting(f)
    jf = mlax.jit(f, static_argnums=1)
    x = np.arange(3, dtype=np.float32)
    assert jf(x, 2).tolist() == [0.0, 2.0, 4.0]
    assert jf(x, 3).tolist() == [0.0, 3.0, 6.0]
    assert jf(x, 1).tolist() == [-100.0, -99.0, -98.0]
    assert len(traces) == 3
    assert jf(x + 1, 2).tolist() == [2.0, 4.0, 6.0]
    assert len(traces) == 3


def test_static_argnums_negative_and_tuple():
    jf = mlax.jit(lambda a, shape, b: mnp.reshape(a, shape) + b, static_argnums=(-2,))
    out = jf(np.arange(6, dtype=np.float32), (2, 3), np.float32(1))
    assert out.shape == (2, 3) and out[1, 2].item() == 6.0


def test_static_argnames():
    def f(x, *, axis, keepdims=False):
        return mnp.sum(x, axis=axis, keepdims=keepdims)

    f, traces = _counting(f)
    jf = mlax.jit(f, static_argnames=("axis", "keepdims"))
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    assert jf(x, axis=0).tolist() == [3.0, 5.0, 7.0]
    assert jf(x, axis=1).tolist() == [3.0, 12.0]
    assert jf(x, axis=1, keepdims=True).shape == (2, 1)
    assert len(traces) == 3
    jf(x + 1, axis=0)
    assert len(traces) == 3


def test_static_argnames_naming_a_positional_parameter():
    jf = mlax.jit(lambda x, n: mnp.ones(n) * x, static_argnames="n")
    assert jf(np.float32(2), 3).tolist() == [2.0, 2.0, 2.0]  # passed positionally
    assert jf(np.float32(2), n=2).tolist() == [2.0, 2.0]  # passed by name


def test_static_argnames_naming_a_keyword_only_parameter():
    # As JAX's: a name after *args (or after *) is not a position, so the
    # arrays passed by position stay traced arguments.
    def f(*xs, scale=1.0, flip=False):
        total = sum(xs) * scale
        return -total if flip else total

    xs = (np.arange(3, dtype=np.float32), np.ones(3, np.float32), np.full(3, 2, np.float32))
    for lib in (mlax, jax):
        jf = lib.jit(f, static_argnames=("flip",))
        np.testing.assert_array_equal(np.asarray(jf(*xs, flip=True)), -sum(xs))
        np.testing.assert_array_equal(np.asarray(jf(*xs)), sum(xs))


def test_jit_as_decorator_with_options():
    @functools.partial(mlax.jit, static_argnums=(1,))
    def f(x, k):
        return x[:k]

    @mlax.jit(static_argnames="k")
    def g(x, k):
        return x[k:]

    x = np.arange(5, dtype=np.int32)
    assert f(x, 2).tolist() == [0, 1]
    assert g(x, k=3).tolist() == [3, 4]


def test_non_hashable_static_argument_raises_value_error():
    jf = mlax.jit(lambda x, opts: x * len(opts), static_argnums=1)
    with pytest.raises(ValueError, match="Non-hashable static arguments") as e:
        jf(np.float32(1), [1, 2])
    assert "list" in str(e.value)
    jk = mlax.jit(lambda x, opts: x, static_argnames="opts")
    with pytest.raises(ValueError, match="Non-hashable"):
        jk(np.float32(1), opts={"a": 1})


def test_static_argument_can_be_a_non_array_object():
    jf = mlax.jit(lambda x, op: op(x), static_argnums=1)
    assert jf(np.float32(4), mnp.sqrt).item() == 2.0
    assert jf(np.float32(4), mnp.negative).item() == -4.0
    assert jf.cache_misses == 2


# ---------------------------------------------------------------------------
# Pytrees
# ---------------------------------------------------------------------------

def test_pytree_arguments_and_outputs():
    def f(params, batch):
        w, b = params["w"], params["b"]
        x, (y, z) = batch
        return {"out": x @ w + b, "aux": [y * 2, (z, z - 1)]}

    jf = mlax.jit(f)
    w = np.arange(6, dtype=np.float32).reshape(3, 2)
    b = np.array([1.0, -1.0], np.float32)
    x = np.ones((4, 3), np.float32)
    y = np.float32(3.0)
    z = np.arange(2, dtype=np.int32)
    out = jf({"w": w, "b": b}, [x, (y, z)])
    assert set(out) == {"out", "aux"}
    assert_values(out["out"], x @ w + b)
    assert isinstance(out["aux"], list) and isinstance(out["aux"][1], tuple)
    assert out["aux"][0].item() == 6.0
    assert out["aux"][1][0].tolist() == [0, 1] and out["aux"][1][1].tolist() == [-1, 0]
    # Same structure: no retrace.
    jf({"w": w, "b": b + 1}, [x, (y, z)])
    assert jf.cache_misses == 1


def test_pytree_with_none_and_constant_outputs():
    jf = mlax.jit(lambda x: (x, None, 2.0, {"k": 3}))
    x, none, c, d = jf(np.float32(1))
    assert none is None
    assert isinstance(c, mlax.Array) and c.item() == 2.0 and c.weak_type
    assert d["k"].item() == 3 and d["k"].dtype == np.int32


def test_empty_and_no_arguments():
    assert mlax.jit(lambda: mnp.arange(3))().tolist() == [0, 1, 2]
    assert mlax.jit(lambda t: t)(()) == ()
    assert mlax.jit(lambda x: [])(np.float32(1)) == []


def test_jit_of_a_method():
    class Model:
        def __init__(self, scale):
            self.scale = scale

        @functools.partial(mlax.jit, static_argnums=0)
        def apply(self, x):
            return x * self.scale

        @mlax.jit
        def apply_dynamic_self(self, x):
            return x

    m = Model(3)
    assert m.apply(np.float32(4)).item() == 12.0
    assert Model.apply(m, np.float32(5)).item() == 15.0
    assert Model(2).apply(np.float32(5)).item() == 10.0
    # `self` as a dynamic argument is not an array: a clear error, as in JAX.
    with pytest.raises(TypeError, match="not a valid mlax type.*static"):
        m.apply_dynamic_self(np.float32(1))


# ---------------------------------------------------------------------------
# Nested jit
# ---------------------------------------------------------------------------

def test_nested_jit_emits_call_and_is_correct():
    @mlax.jit
    def inner(x):
        return mnp.exp(x) + 1.0

    def outer(x):
        return inner(x) * inner(x * 2)

    x = np.linspace(-1, 1, 5).astype(np.float32)
    text = str(mlax.make_ir(outer)(x))
    assert "mlax.call" in text, text
    assert "func.func private @inner" in text, text
    assert text.count("func.func private @inner") == 1  # one callee for one signature
    expected = (np.exp(x) + 1) * (np.exp(2 * x) + 1)
    assert_values(mlax.jit(outer)(x), expected, rtol=1e-5)
    assert_values(outer(x), expected, rtol=1e-5)  # eagerly, inner runs as its own jit


def test_nested_jit_new_signature_gets_new_callee():
    inner = mlax.jit(lambda x: x + 1)

    def outer(x):
        return inner(x), inner(mnp.astype(x, mnp.int32))

    text = str(mlax.make_ir(outer)(np.ones(3, np.float32)))
    assert text.count("func.func private") == 2, text
    a, b = mlax.jit(outer)(np.ones(3, np.float32))
    assert a.tolist() == [2.0, 2.0, 2.0] and b.tolist() == [2, 2, 2]


def test_nested_jit_closing_over_outer_traced_value():
    def outer(x):
        y = mnp.sin(x) * 3.0

        @mlax.jit
        def inner(z):
            return z + y  # y is a tracer of the outer trace

        return inner(x) + inner(2 * x)

    x = np.array([0.0, 0.5, 1.0], np.float32)
    out = mlax.jit(outer)(x)
    y = np.sin(x) * 3
    assert_values(out, (x + y) + (2 * x + y), rtol=1e-6)
    text = str(mlax.make_ir(outer)(x))
    assert "mlax.call" in text


def test_nested_jit_with_static_argument():
    inner = mlax.jit(lambda x, n: x * n, static_argnums=1)

    @mlax.jit
    def outer(x):
        return inner(x, 2) + inner(x, 3)

    assert outer(np.float32(1)).item() == 5.0


def test_doubly_nested_jit():
    a = mlax.jit(lambda x: x * 2)
    b = mlax.jit(lambda x: a(x) + 1)
    c = mlax.jit(lambda x: b(x) * b(x))
    assert c(np.float32(3)).item() == 49.0
    text = str(mlax.make_ir(lambda x: b(x))(np.float32(3)))
    assert text.count("mlax.call") == 2


# ---------------------------------------------------------------------------
# Eager vs jit
# ---------------------------------------------------------------------------

def _composite(x, y):
    z = mnp.where(x > y, x - y, (y - x) ** 2)
    z = mnp.sum(z * mnp.cos(x), axis=-1, keepdims=True) / mnp.max(mnp.abs(y) + 1.0)
    return mnp.concatenate([z, mnp.mean(x, axis=1, keepdims=True)], axis=1).T @ x[:, :2]


def test_eager_and_jit_agree():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((4, 5)).astype(np.float32)
    y = rng.standard_normal((4, 5)).astype(np.float32)
    eager = _composite(mnp.asarray(x), mnp.asarray(y))
    jitted = mlax.jit(_composite)(x, y)
    ref = _composite(x, y)  # the same function on NumPy arrays
    assert eager.shape == jitted.shape == ref.shape
    assert eager.dtype == jitted.dtype == np.float32
    np.testing.assert_allclose(np.asarray(eager), np.asarray(jitted), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.asarray(jitted), ref, rtol=1e-5, atol=1e-5)


# ---------------------------------------------------------------------------
# IR, StableHLO and HLO
# ---------------------------------------------------------------------------

def test_make_ir_contains_the_mlax_ops():
    def f(x, y):
        return mnp.sum(mnp.exp(x) * y + 1.0, axis=0)

    ir = mlax.make_ir(f)(np.ones((2, 3), np.float32), np.ones((2, 3), np.float32))
    text = str(ir)
    for op in ("func.func @main", "mlax.exp", "mlax.mul", "mlax.add", "mlax.constant",
               "mlax.reduce_sum", "tensor<2x3xf32>", "-> tensor<3xf32>"):
        assert op in text, f"{op!r} missing from\n{text}"
    assert "stablehlo" not in text
    assert repr(ir) == text == ir.as_text()
    assert "loc(" in ir.as_text(debug_info=True)
    assert "test_jit.py" in ir.as_text(debug_info=True)  # ops carry the user's line


@pytest.mark.parametrize("scalar,dtype", [(1.5, np.float32), (3, np.int32), (True, np.bool_),
                                          (1 + 2j, np.complex64), (2.0, mnp.bfloat16)])
def test_a_scalar_operand_is_traced_as_one_constant(scalar, dtype):
    """x * 1.5 traces as a constant of x's shape and the multiply (JAX's
    jaxpr: `mul x 1.5:f32[]`), not a scalar constant and a broadcast; the
    value and the weak type are the same as JAX's."""
    import jax.numpy as jnp
    x = np.arange(6).reshape(2, 3).astype(dtype)
    f = (lambda x: x * scalar) if dtype != np.bool_ else (lambda x: x & scalar)
    module = mlax.make_ir(f)(x).module
    names = [op.operation.name for op in module.body.operations[0].regions[0].blocks[0].operations]
    assert names == ["mlax.constant", "mlax.and" if dtype == np.bool_ else "mlax.mul",
                     "func.return"]
    jaxpr = mlax.make_jaxpr(f)(x)
    assert not jaxpr.consts and str(jaxpr).count("[] ") + str(jaxpr).count("[]\n") == 1, \
        jaxpr  # the constant is a scalar literal, as in JAX's jaxpr
    for run in (f, mlax.jit(f)):
        got, want = run(mnp.asarray(x)), f(jnp.asarray(x))
        assert got.dtype == want.dtype and got.weak_type == want.weak_type
        np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


def test_make_ir_with_static_args_and_dtypes():
    text = str(mlax.make_ir(lambda x, n: x[:n], static_argnums=1)(np.arange(5, dtype=np.int32), 2))
    assert "mlax.slice" in text and "tensor<2xi32>" in text
    text = str(mlax.make_ir(lambda x: x.astype(mnp.float16) > 0)(np.ones(3, np.float32)))
    assert "mlax.convert" in text and "f16" in text and "mlax.compare" in text
    assert "tensor<3xi1>" in text


def test_lower_gives_stablehlo_and_compile_gives_hlo():
    def f(x):
        return mnp.tanh(x) @ x.T

    jf = mlax.jit(f)
    x = np.ones((2, 3), np.float32)
    lowered = jf.lower(x)
    shlo = lowered.as_text()
    assert "stablehlo.tanh" in shlo and "stablehlo.dot_general" in shlo
    assert "stablehlo.transpose" in shlo
    assert "mlax." not in shlo
    mlax_text = lowered.as_text("mlax")
    assert "mlax.tanh" in mlax_text and "mlax.dot_general" in mlax_text
    compiled = lowered.compile()
    hlo = compiled.as_text()
    assert "HloModule" in hlo and "ENTRY" in hlo and "tanh" in hlo
    assert "f32[2,2]" in hlo
    out = compiled(x)
    assert_values(out, np.tanh(x) @ x.T, rtol=1e-6)
    # lower().compile() shares the jit cache.
    jf(x)
    assert jf.cache_misses == 1


def test_lower_does_not_touch_the_cache_until_compiled():
    jf = mlax.jit(lambda x: x * 3)
    jf.lower(np.float32(1))
    assert jf.cache_misses == 0
    jf(np.float32(1))
    assert jf.cache_misses == 1


# ---------------------------------------------------------------------------
# Seed examples
# ---------------------------------------------------------------------------

def selu(x, alpha=1.67, lam=1.05):
    return lam * mnp.where(x > 0, x, alpha * mnp.exp(x) - alpha)


def test_selu_scalar():
    out = mlax.jit(lambda x: 1.05 * mnp.where(x > 0, x, 1.67 * mnp.exp(x) - 1.67))(1.0)
    assert isinstance(out, mlax.Array)
    assert out == 1.05  # float32(1.05) == 1.05 compares in float32
    assert out.item() == pytest.approx(1.05, rel=1e-7)
    assert out.dtype == np.float32 and out.shape == () and out.weak_type


def test_selu_vector():
    x = np.linspace(-3, 3, 101).astype(np.float32)
    expected = 1.05 * np.where(x > 0, x, 1.67 * np.exp(x.astype(np.float64)) - 1.67)
    out = mlax.jit(selu)(x)
    assert out.dtype == np.float32 and out.shape == (101,)
    np.testing.assert_allclose(np.asarray(out), expected, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(np.asarray(selu(mnp.asarray(x))), expected, rtol=1e-6, atol=1e-6)


def test_row_normalisation_10000x10():
    rng = np.random.default_rng(42)
    X = (rng.standard_normal((10000, 10)) * rng.uniform(0.5, 5, 10)
         + rng.uniform(-3, 3, 10)).astype(np.float32)
    normalise = mlax.jit(lambda X: (X - X.mean(0)) / X.std(0))
    out = normalise(X)
    assert out.shape == (10000, 10) and out.dtype == np.float32
    X64 = X.astype(np.float64)
    exact = (X64 - X64.mean(0)) / X64.std(0)
    # Against the exact (float64) result, mlax's float32 result is within 1e-6
    # (measured: ~5e-7 at values up to ~5).
    np.testing.assert_allclose(np.asarray(out), exact, rtol=1e-6, atol=1e-6)
    # NumPy's own float32 evaluation is itself ~5e-6 away from the exact result
    # (float32 rounding of the 10000-term sums, then of X - mean at |X| ~ 10),
    # so against it the tolerance is 1e-5 (~80 float32 ulp at 1.0).
    np32 = (X - X.mean(0)) / X.std(0)
    np.testing.assert_allclose(np.asarray(out), np32, rtol=1e-6, atol=1e-5)
    # the result is normalised
    np.testing.assert_allclose(np.asarray(out).astype(np.float64).mean(0), 0, atol=1e-6)
    np.testing.assert_allclose(np.asarray(out).astype(np.float64).std(0), 1, atol=1e-5)


# ---------------------------------------------------------------------------
# Misc API
# ---------------------------------------------------------------------------

def test_jit_rejects_non_callables():
    with pytest.raises(TypeError, match="callable"):
        mlax.jit(3)


def test_jit_preserves_function_metadata():
    def my_function(x):
        """doc"""
        return x

    jf = mlax.jit(my_function)
    assert jf.__name__ == "my_function" and jf.__doc__ == "doc"
    assert jf.__wrapped__ is my_function


def test_device_put_and_block_until_ready():
    x = mlax.device_put(np.arange(3, dtype=np.float32))
    assert isinstance(x, mlax.Array) and x.tolist() == [0.0, 1.0, 2.0]
    assert mlax.device_put(x) is x
    y = mlax.device_put(1.5)
    jy = jax.device_put(1.5)
    assert y.dtype == jy.dtype == np.float32 and y.weak_type == jy.weak_type  # weak, as JAX
    tree = {"a": x, "b": [y, 3]}
    assert mlax.block_until_ready(tree) is tree
    assert len(mlax.devices()) >= 1


def test_log_compiles(caplog):
    mlax.config.update("log_compiles", True)
    try:
        with caplog.at_level("WARNING", logger="mlax"):
            mlax.jit(lambda x: x + 42)(np.zeros(7, np.float32))
    finally:
        mlax.config.update("log_compiles", False)
    assert any("compiling" in r.getMessage() and "f32[7]" in r.getMessage()
               for r in caplog.records)


def test_unknown_config_option():
    with pytest.raises(AttributeError, match="unknown option"):
        mlax.config.update("jax_no_such_option", True)


def test_nested_jit_callee_is_keyed_on_the_function_not_its_id():
    """Jitted functions created and freed inside one trace: CPython reuses a
    freed object's id, and a callee cached under id(jitted) handed a new
    function the old one's body (here: the old constant)."""
    n = 100

    def f(x):
        outs = []
        for i in range(n):
            g = mlax.jit(lambda y, c=i: y + c)
            outs.append(g(x))
            del g
        return mnp.stack(outs)

    got = mlax.jit(f)(mnp.zeros((), mnp.float32))
    np.testing.assert_array_equal(np.asarray(got), np.arange(n, dtype=np.float32))


def test_donate_argnums_consumes_the_argument_as_jax():
    import jax
    import jax.numpy as jnp

    for lib, np_mod in ((mlax, mnp), (jax, jnp)):
        f = lib.jit(lambda x, y: x * 2 + y, donate_argnums=0)
        x, y = np_mod.ones(4), np_mod.ones(4)
        np.testing.assert_array_equal(np.asarray(f(x, y)), np.full(4, 3.0))
        assert x.is_deleted() and not y.is_deleted()
        with pytest.raises(RuntimeError, match=r"Array has been deleted with shape=float32\[4\]"):
            np.asarray(x)
        with pytest.raises(ValueError, match="deleted or donated"):
            f(x, y)
    g = mlax.jit(lambda x, k: x * k, donate_argnames="x", static_argnames="k")
    z = mnp.ones(3)
    np.testing.assert_array_equal(np.asarray(g(x=z, k=2)), np.full(3, 2.0))
    assert z.is_deleted()
    assert "jax.buffer_donor" in mlax.jit(lambda x: x + 1, donate_argnums=0).lower(
        mnp.ones(2)).as_text()
    # Not donated, and not sharing programs with the donating jit of the same function.
    h = lambda x: x + 1  # noqa: E731
    a = mnp.ones(2)
    mlax.jit(h, donate_argnums=0)(mnp.ones(2))
    mlax.jit(h)(a)
    assert not a.is_deleted()
    with pytest.raises(ValueError, match="both static and donated"):
        mlax.jit(lambda x: x, static_argnums=0, donate_argnums=0)

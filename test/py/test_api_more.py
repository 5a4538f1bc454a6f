"""make_jaxpr, eval_shape, ShapeDtypeStruct, jacobian, mlax.errors,
mlax.ops (segment reductions), and the rest of mlax.nn (activations,
dot_product_attention, initializers) against JAX."""
import re

import numpy as np
import pytest

import jax
import jax.numpy as jnp

import mlax
import mlax.numpy as mnp

from _helpers import jgrad, jjvp, jvmap

RNG = np.random.default_rng(1)


def f32(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


# ---------------------------------------------------------------------------
# make_jaxpr (the seed tutorials' examples)
# ---------------------------------------------------------------------------

def selu(x, alpha=1.67, lambda_=1.05):
    return lambda_ * mnp.where(x > 0, x, alpha * mnp.exp(x) - alpha)


def eqn_names(closed):
    return [str(e.primitive) for e in closed.eqns]


def test_make_jaxpr_of_selu():
    closed = mlax.make_jaxpr(selu)(mnp.arange(5.0))
    text = str(closed)
    assert text.startswith("{ lambda ; a:f32[5]. let")
    assert text.rstrip().endswith("}") and "in (" in text
    assert "gt a" in text and "exp a" in text and "select_n" in text
    assert "1.6699999570846558:f32[]" in text  # scalars print as JAX's literals
    names = eqn_names(closed)
    assert names.count("mul") == 2 and "sub" in names and "gt" in names
    assert [a.shape for a in closed.in_avals] == [(5,)]
    assert [a.shape for a in closed.out_avals] == [(5,)]
    assert closed.consts == []
    assert "mlax.exp" in closed.ir.as_text()


def test_make_jaxpr_static_argnums_as_the_seed():
    def create_filled(val, length):
        return mnp.full((length,), val)

    a = str(mlax.make_jaxpr(create_filled, static_argnums=(1,))(2, 5))
    b = str(mlax.make_jaxpr(create_filled, static_argnums=(1,))(1.6, 10))
    assert a.startswith("{ lambda ; a:i32[]. let")
    assert "b:i32[5] = broadcast_in_dim[broadcast_dimensions=() shape=(5,)] a" in a
    assert "b:f32[10] = broadcast_in_dim[broadcast_dimensions=() shape=(10,)] a" in b


def test_make_jaxpr_unrolled_loop_and_fori_loop():
    def stupid_fn(x):
        y = mnp.copy(x)
        for _ in range(1000):
            x = x * x
        return y

    def less_stupid_fn(x):
        y = mnp.copy(x)
        x = mlax.lax.fori_loop(0, 1000, lambda i, x: x * x, x)
        return y

    x = mnp.array([1.1, -1.1])
    assert eqn_names(mlax.make_jaxpr(stupid_fn)(x)).count("mul") == 1000
    closed = mlax.make_jaxpr(less_stupid_fn)(x)
    assert eqn_names(closed).count("mul") == 0
    (scan,) = [e for e in closed.eqns if str(e.primitive) == "scan"]
    assert scan.params["length"] == 1000
    body = scan.params["jaxpr"]
    assert [str(e.primitive) for e in body.eqns] == ["add", "mul"]
    assert "scan[" in str(closed) and "length=1000" in str(closed)


def test_make_jaxpr_cond_while_and_nested_jit():
    @mlax.jit
    def cond_fn(x):
        return mlax.lax.cond(mnp.abs(x.max() - x.min()) <= 1.0, lambda x: x,
                             lambda x: x / 2, x)

    text = str(mlax.make_jaxpr(cond_fn)(mnp.array([1.0, -1.0])))
    assert "pjit[" in text and "name=cond_fn" in text
    assert "cond[" in text and "branches=(" in text and text.count("{ lambda") == 4
    assert "reduce_max[axes=(0,)]" in text and "convert_element_type[new_dtype=int32]" in text

    def loop(x):
        return mlax.lax.while_loop(lambda c: c[0] < 1000,
                                   lambda c: (c[0] + 1, c[1] * c[1]), (0, x))

    closed = mlax.make_jaxpr(loop)(mnp.ones(2))
    (w,) = closed.eqns
    assert str(w.primitive) == "while"
    assert [str(e.primitive) for e in w.params["cond_jaxpr"].eqns] == ["lt"]
    assert "1000:i32[]" in str(closed)


def test_make_jaxpr_array_constants_are_constvars():
    closed = mlax.make_jaxpr(lambda x: x + mnp.array([1.0, 2.0]))(mnp.ones(2))
    assert str(closed).startswith("{ lambda a:f32[2] ; b:f32[2]. let")
    np.testing.assert_array_equal(closed.consts[0], [1.0, 2.0])


def test_make_jaxpr_variable_names_go_past_z():
    def f(x):
        for _ in range(30):
            x = mnp.sin(x)
        return x

    text = str(mlax.make_jaxpr(f)(1.0))
    assert re.search(r"\bba:f32\[\] = sin z\b", text), text


def test_make_jaxpr_return_shape_and_grad():
    closed, shape = mlax.make_jaxpr(lambda x: (x.sum(), x * 2), return_shape=True)(
        mnp.ones((2, 3)))
    assert shape[0] == mlax.ShapeDtypeStruct((), np.float32)
    assert shape[1] == mlax.ShapeDtypeStruct((2, 3), np.float32)
    g = mlax.make_jaxpr(mlax.grad(lambda x: mnp.sin(x) * x))(1.0)
    assert str(g).startswith("{ lambda ; a:f32[]. let")


def test_make_jaxpr_errors():
    with pytest.raises(TypeError, match="callable"):
        mlax.make_jaxpr(3)
    with pytest.raises(mlax.errors.TracerBoolConversionError):
        mlax.make_jaxpr(lambda x: x if x > 0 else -x)(1.0)


# ---------------------------------------------------------------------------
# eval_shape and ShapeDtypeStruct
# ---------------------------------------------------------------------------

def test_eval_shape_matches_jax():
    def f(x, y):
        return {"s": x.sum(), "p": x @ y, "w": (x[:1] * 2.0, y.astype(np.int32))}

    x, y = f32(3, 4), f32(4, 2)
    got = mlax.eval_shape(f, x, y)
    ref = jax.eval_shape(lambda a, b: {"s": a.sum(), "p": a @ b,
                                       "w": (a[:1] * 2.0, b.astype(np.int32))}, x, y)
    g_leaves, g_tree = jax.tree_util.tree_flatten(got)
    r_leaves, _ = jax.tree_util.tree_flatten(ref)
    assert [(l.shape, l.dtype) for l in g_leaves] == [(l.shape, l.dtype) for l in r_leaves]
    # ShapeDtypeStructs (mlax's or JAX's) stand in for arrays.
    spec = mlax.eval_shape(f, mlax.ShapeDtypeStruct((5, 4), np.float32),
                           jax.ShapeDtypeStruct((4, 7), jnp.float32))
    assert spec["p"].shape == (5, 7) and spec["w"][1].dtype == np.int32
    lowered = mlax.jit(lambda a: a * 2).lower(mlax.ShapeDtypeStruct((3,), np.float32))
    assert "tensor<3xf32>" in lowered.as_text()


def test_shape_dtype_struct():
    s = mlax.ShapeDtypeStruct((2, 3), np.float16, weak_type=True)
    assert s.shape == (2, 3) and s.dtype == np.float16 and s.ndim == 2 and s.size == 6
    assert repr(s) == "ShapeDtypeStruct(shape=(2, 3), dtype=float16, weak_type=True)"
    assert hash(s) == hash(mlax.ShapeDtypeStruct((2, 3), np.float16, weak_type=True))
    assert s != mlax.ShapeDtypeStruct((2, 3), np.float16)
    with pytest.raises(TypeError, match="callable"):
        mlax.eval_shape(None)


# ---------------------------------------------------------------------------
# jacobian, errors
# ---------------------------------------------------------------------------

def test_jacobian_is_jacrev():
    def f(x):
        return mnp.stack([x[0] * x[1], mnp.sin(x[1])])

    def fj(x):
        return jnp.stack([x[0] * x[1], jnp.sin(x[1])])

    x = np.array([0.5, 2.0], np.float32)
    np.testing.assert_allclose(np.asarray(mlax.jacobian(f)(x)), np.asarray(jax.jacobian(fj)(x)),
                               rtol=1e-6)


def test_errors_module():
    for name in ("ConcretizationTypeError", "TracerBoolConversionError",
                 "TracerIntegerConversionError", "TracerArrayConversionError",
                 "NonConcreteBooleanIndexError", "UnexpectedTracerError"):
        assert hasattr(jax.errors, name)
        assert getattr(mlax.errors, name) is getattr(mlax, name)
    with pytest.raises(mlax.errors.TracerBoolConversionError):
        mlax.jit(lambda x: 1 if x else 0)(1.0)


# ---------------------------------------------------------------------------
# mlax.ops
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["sum", "prod", "max", "min"])
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.float16])
def test_segment_reductions(kind, dtype):
    data = (RNG.standard_normal((7, 3)) * 4).astype(dtype)
    ids = np.array([0, 2, 2, -1, 5, 1, 9], np.int32)  # -1 and 9 are dropped
    fm, fj = getattr(mlax.ops, f"segment_{kind}"), getattr(jax.ops, f"segment_{kind}")
    for n in (6, 3):
        ref = fj(data, ids, n)
        for out in (fm(data, ids, n), mlax.jit(lambda d, i: fm(d, i, n))(data, ids)):
            assert out.dtype == ref.dtype and out.shape == ref.shape
            np.testing.assert_array_equal(np.asarray(out), np.asarray(ref))
    ids_ok = np.array([0, 2, 2, 1, 0, 1, 3], np.int32)
    np.testing.assert_array_equal(np.asarray(fm(data, ids_ok)), np.asarray(fj(data, ids_ok)))


def test_segment_gradients_and_vmap():
    data = f32(6, 2)
    ids = np.array([0, 1, 1, 2, 0, 2], np.int32)
    for kind in ("sum", "max", "min"):
        fm, fj = getattr(mlax.ops, f"segment_{kind}"), getattr(jax.ops, f"segment_{kind}")
        gm = mlax.grad(lambda d: (fm(d, ids, 3) ** 2).sum())(data)
        gj = jgrad(lambda d: (fj(d, ids, 3) ** 2).sum())(data)
        np.testing.assert_allclose(np.asarray(gm), np.asarray(gj), rtol=1e-5, atol=1e-6)
    batched = f32(4, 6, 2)
    vm = mlax.vmap(lambda d: mlax.ops.segment_sum(d, ids, 3))(batched)
    vj = jvmap(lambda d: jax.ops.segment_sum(d, ids, 3))(batched)
    np.testing.assert_allclose(np.asarray(vm), np.asarray(vj), rtol=1e-6)


def test_segment_errors():
    with pytest.raises(mlax.errors.ConcretizationTypeError, match="num_segments"):
        mlax.jit(lambda d, i: mlax.ops.segment_sum(d, i))(mnp.ones(3), mnp.arange(3))
    with pytest.raises(TypeError, match="integers"):
        mlax.ops.segment_sum(mnp.ones(3), mnp.ones(3), 2)
    with pytest.raises(ValueError, match="one id per row"):
        mlax.ops.segment_sum(mnp.ones(3), mnp.arange(2), 2)


# ---------------------------------------------------------------------------
# mlax.nn: the rest of jax.nn
# ---------------------------------------------------------------------------

ACTIVATIONS = ["tanh", "hard_sigmoid", "hard_silu", "hard_swish", "mish", "soft_sign",
               "squareplus", "sparse_plus", "sparse_sigmoid"]


@pytest.mark.parametrize("name", ACTIVATIONS)
@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_activations(name, dtype):
    x = np.linspace(-4, 4, 17).astype(dtype)
    fm, fj = getattr(mlax.nn, name), getattr(jax.nn, name)
    ref = fj(x)
    for out in (fm(x), mlax.jit(fm)(x)):
        assert out.dtype == ref.dtype
        np.testing.assert_allclose(np.asarray(out, np.float32), np.asarray(ref, np.float32),
                                   rtol=2e-3 if dtype == np.float16 else 1e-6, atol=1e-6)
    if dtype == np.float32:
        xs = x[x != 0] + 0.05  # away from kinks
        gm = mlax.vmap(mlax.grad(fm))(xs)
        gj = jvmap(jgrad(fj))(xs)
        np.testing.assert_allclose(np.asarray(gm), np.asarray(gj), rtol=1e-5, atol=1e-6)


def test_glu_log1mexp_logmeanexp():
    x = f32(3, 4)
    np.testing.assert_allclose(np.asarray(mlax.nn.glu(x)), np.asarray(jax.nn.glu(x)), rtol=1e-6)
    np.testing.assert_allclose(np.asarray(mlax.nn.glu(x, axis=0 if False else 1)),
                               np.asarray(jax.nn.glu(x, axis=1)), rtol=1e-6)
    with pytest.raises(ValueError, match="even"):
        mlax.nn.glu(mnp.ones((3, 3)))
    y = np.array([1e-4, 0.1, 0.69, 0.7, 5.0, 40.0], np.float32)
    np.testing.assert_allclose(np.asarray(mlax.nn.log1mexp(y)), np.asarray(jax.nn.log1mexp(y)),
                               rtol=1e-6)
    for axis, keep in ((None, False), (0, True), (1, False)):
        np.testing.assert_allclose(
            np.asarray(mlax.nn.logmeanexp(x, axis=axis, keepdims=keep)),
            np.asarray(jax.nn.logmeanexp(x, axis=axis, keepdims=keep)), rtol=1e-6, atol=1e-6)
    w = x > 0
    np.testing.assert_allclose(np.asarray(mlax.nn.logmeanexp(x, axis=1, where=w)),
                               np.asarray(jax.nn.logmeanexp(x, axis=1, where=w)), rtol=1e-6)


ATTN_CASES = [
    {}, {"is_causal": True}, {"scale": 0.3},
    {"mask": RNG.random((2, 4, 5, 6)) > 0.3},
    {"bias": RNG.standard_normal((1, 4, 5, 6)).astype(np.float32)},
    {"key_value_seq_lengths": np.array([3, 6], np.int32)},
    {"query_seq_lengths": np.array([5, 2], np.int32), "is_causal": True},
]


@pytest.mark.parametrize("kw", ATTN_CASES)
@pytest.mark.parametrize("kv_heads", [4, 2, 1])
def test_dot_product_attention(kw, kv_heads):
    q = f32(2, 5, 4, 8)
    k, v = f32(2, 6, kv_heads, 8), f32(2, 6, kv_heads, 8)
    ref = jax.nn.dot_product_attention(q, k, v, **kw)
    for out in (mlax.nn.dot_product_attention(q, k, v, **kw),
                mlax.jit(lambda a, b, c: mlax.nn.dot_product_attention(a, b, c, **kw))(q, k, v)):
        assert out.shape == ref.shape and out.dtype == ref.dtype
        np.testing.assert_allclose(np.asarray(out), np.asarray(ref), rtol=1e-5, atol=1e-5)


def test_dot_product_attention_grad_unbatched_and_errors():
    q, k, v = f32(5, 2, 4), f32(6, 2, 4), f32(6, 2, 4)
    ref = jax.nn.dot_product_attention(q, k, v)
    np.testing.assert_allclose(np.asarray(mlax.nn.dot_product_attention(q, k, v)),
                               np.asarray(ref), rtol=1e-5, atol=1e-6)
    gm = mlax.grad(lambda a: (mlax.nn.dot_product_attention(a, k, v, is_causal=True) ** 2)
                   .sum())(q)
    gj = jgrad(lambda a: (jax.nn.dot_product_attention(a, k, v, is_causal=True) ** 2)
                  .sum())(q)
    np.testing.assert_allclose(np.asarray(gm), np.asarray(gj), rtol=1e-4, atol=1e-5)
    with pytest.raises(ValueError, match="dividing"):
        mlax.nn.dot_product_attention(f32(1, 2, 3, 4), f32(1, 2, 2, 4), f32(1, 2, 2, 4))
    with pytest.raises(ValueError, match="3-d or 4-d"):
        mlax.nn.dot_product_attention(f32(2, 4), f32(2, 4), f32(2, 4))
    with pytest.raises(ValueError, match="boolean"):
        mlax.nn.dot_product_attention(q, k, v, mask=np.ones((2, 5, 6), np.float32))


INITS = ["glorot_uniform", "glorot_normal", "lecun_uniform", "lecun_normal", "he_uniform",
         "he_normal", "xavier_uniform", "kaiming_normal"]


@pytest.mark.parametrize("name", INITS)
@pytest.mark.parametrize("shape", [(3, 4), (3, 3, 8, 16)])
def test_initializers_are_bit_exact_with_jax(name, shape):
    for seed in (0, 7):
        out = getattr(mlax.nn.initializers, name)()(mlax.random.PRNGKey(seed), shape)
        ref = getattr(jax.nn.initializers, name)()(jax.random.PRNGKey(seed), shape)
        assert out.dtype == ref.dtype and out.shape == ref.shape
        np.testing.assert_array_equal(np.asarray(out), np.asarray(ref))


def test_simple_initializers():
    key_m, key_j = mlax.random.PRNGKey(3), jax.random.PRNGKey(3)
    mi, ji = mlax.nn.initializers, jax.nn.initializers
    for m, j in ((mi.normal(0.5), ji.normal(0.5)), (mi.uniform(2.0), ji.uniform(2.0)),
                 (mi.truncated_normal(0.1), ji.truncated_normal(0.1)),
                 (mi.constant(-7.0), ji.constant(-7.0)), (mi.zeros, ji.zeros),
                 (mi.ones, ji.ones),
                 (mi.variance_scaling(0.5, "fan_out", "normal"),
                  ji.variance_scaling(0.5, "fan_out", "normal")),
                 (mi.variance_scaling(1.0, "fan_geo_avg", "uniform", in_axis=0, out_axis=1),
                  ji.variance_scaling(1.0, "fan_geo_avg", "uniform", in_axis=0, out_axis=1))):
        np.testing.assert_array_equal(np.asarray(m(key_m, (4, 5))), np.asarray(j(key_j, (4, 5))))
    np.testing.assert_array_equal(
        np.asarray(mi.normal(dtype=np.float16)(key_m, (3,))),
        np.asarray(ji.normal(dtype=jnp.float16)(key_j, (3,))))
    with pytest.raises(ValueError, match="default in_axis"):
        mi.glorot_normal()(key_m, (5,))
    with pytest.raises(ValueError, match="invalid mode"):
        mi.variance_scaling(1.0, "fan_sideways", "normal")


def test_large_boolean_constant_compiles():
    """A captured boolean array big enough for MLIR to print as hex."""
    mask = RNG.random((16, 20)) > 0.5
    out = mlax.jit(lambda x: mnp.where(mask, x, -x))(mnp.ones((16, 20)))
    np.testing.assert_array_equal(np.asarray(out), np.where(mask, 1.0, -1.0))


def test_complex_derivatives_of_prod_are_jaxs():
    """Complex values carry derivatives (this used to abort the process in the
    jvp of a complex prod, then was refused): jvp, vjp and grad of a real part
    through a complex product give JAX's values."""
    x = np.array([1 + 2j, 3 - 1j], np.complex64)
    t = np.array([0.5 - 1j, 2 + 0.25j], np.complex64)
    _, tm = mlax.jvp(lambda v: mnp.prod(v), (x,), (t,))
    _, tj = jjvp(lambda v: jnp.prod(v), (x,), (t,))
    np.testing.assert_allclose(np.asarray(tm), np.asarray(tj), rtol=1e-6)
    (gm,) = mlax.vjp(lambda v: mnp.prod(v), x)[1](np.complex64(1 - 1j))
    (gj,) = jax.vjp(lambda v: jnp.prod(v), x)[1](np.complex64(1 - 1j))
    np.testing.assert_allclose(np.asarray(gm), np.asarray(gj), rtol=1e-6)
    np.testing.assert_allclose(np.asarray(mlax.grad(lambda v: mnp.real(mnp.prod(v)))(x)),
                               np.asarray(jgrad(lambda v: jnp.real(jnp.prod(v)))(x)),
                               rtol=1e-6)
    # A complex constant alongside a real derivative is fine.
    g, p = mlax.grad(lambda r: ((r * 2).sum(), mnp.prod(x)), has_aux=True)(
        np.ones(2, np.float32))
    np.testing.assert_array_equal(np.asarray(g), [2.0, 2.0])
    np.testing.assert_allclose(complex(np.asarray(p)), complex(np.prod(x)), rtol=1e-6)


def test_reading_ir_back_imports_nothing(monkeypatch):
    # MLIR's bindings look up a dialect's Python module each time they wrap
    # one of its ops and don't remember a failed lookup: mlax registers its
    # generated op classes as the mlax dialect's module, so a walk of the IR
    # (make_jaxpr, eager vjp's split, callbacks) tries no import per op.
    import importlib._bootstrap as bootstrap

    f = lambda x: mnp.sin(x) @ x + x[np.arange(2)]  # noqa: E731
    x = np.ones((2, 2), np.float32)
    mlax.make_jaxpr(f)(x)  # (modules a first call imports are imported)
    tried = []
    original = bootstrap._find_and_load
    monkeypatch.setattr(bootstrap, "_find_and_load",
                        lambda name, *a: tried.append(name) or original(name, *a))
    jaxpr = mlax.make_jaxpr(f)(x)
    assert len(jaxpr.jaxpr.eqns) >= 4
    assert not [n for n in tried if "dialects" in n or n.startswith("mlax")], tried

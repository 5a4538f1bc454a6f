"""Automatic differentiation: grad, value_and_grad, jvp, vjp, jacfwd, jacrev,
hessian, custom_jvp, custom_vjp, stop_gradient.

Derivatives come from the `mlax-autodiff` pass; every rule is checked
against JAX (f32 and f64) and against central finite differences (f64), for
first and second derivatives.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mlax
import mlax.lax as mlax_lax
import mlax.numpy as mnp

from _helpers import make_input



# ---------------------------------------------------------------------------
# The seed examples
# ---------------------------------------------------------------------------

def test_seed_cubic_first_and_second_derivative():
    f = lambda x: 2 * x ** 3  # noqa: E731
    assert float(mlax.grad(f)(1.0)) == 6.0
    assert float(mlax.grad(mlax.grad(f))(1.0)) == 12.0
    assert float(mlax.grad(mlax.grad(mlax.grad(f)))(1.0)) == 12.0


@pytest.mark.parametrize("compose", ["jit(grad)", "grad(jit)", "jit(grad(grad))",
                                     "grad(jit(grad))", "grad(grad(jit))"])
def test_grad_composes_with_jit(compose):
    f = lambda x: 2 * x ** 3  # noqa: E731
    g = {"jit(grad)": mlax.jit(mlax.grad(f)),
         "grad(jit)": mlax.grad(mlax.jit(f)),
         "jit(grad(grad))": mlax.jit(mlax.grad(mlax.grad(f))),
         "grad(jit(grad))": mlax.grad(mlax.jit(mlax.grad(f))),
         "grad(grad(jit))": mlax.grad(mlax.grad(mlax.jit(f)))}[compose]
    expected = 6.0 if compose in ("jit(grad)", "grad(jit)") else 12.0
    assert float(g(1.0)) == expected
    assert float(g(2.0)) == expected * (4.0 if expected == 6.0 else 2.0)


# ---------------------------------------------------------------------------
# Every differentiable op: JAX (f32, f64) and finite differences (f64)
# ---------------------------------------------------------------------------

def _dot_general_batch(a, b, lax):
    return lax.dot_general(a, b, (((2,), (1,)), ((0,), (0,))))


def _dot_general_odd(a, b, lax):
    # contracting dims out of order, batch dim not leading
    return lax.dot_general(a, b, (((0, 2), (2, 0)), ((1,), (1,))))


# (id, function of (numpy-like module, lax-like module) -> callable, arg specs)
OPS = [
    ("neg", lambda np_, lx: np_.negative, [((3, 4), "any")]),
    ("exp", lambda np_, lx: np_.exp, [((3, 4), "any")]),
    ("log", lambda np_, lx: np_.log, [((3, 4), "pos")]),
    ("sin", lambda np_, lx: np_.sin, [((3, 4), "any")]),
    ("cos", lambda np_, lx: np_.cos, [((3, 4), "any")]),
    ("tan", lambda np_, lx: lambda x: np_.tan(x * 0.3), [((3, 4), "any")]),
    ("tanh", lambda np_, lx: np_.tanh, [((3, 4), "any")]),
    ("sqrt", lambda np_, lx: np_.sqrt, [((3, 4), "pos")]),
    ("rsqrt", lambda np_, lx: lx.rsqrt, [((3, 4), "pos")]),
    ("abs", lambda np_, lx: np_.abs, [((3, 4), "nonzero")]),
    ("logistic", lambda np_, lx: lx.logistic, [((3, 4), "any")]),
    ("log1p", lambda np_, lx: np_.log1p, [((3, 4), "pos")]),
    ("expm1", lambda np_, lx: np_.expm1, [((3, 4), "any")]),
    ("square", lambda np_, lx: np_.square, [((3, 4), "any")]),
    ("reciprocal", lambda np_, lx: np_.reciprocal, [((3, 4), "nonzero")]),
    ("add", lambda np_, lx: np_.add, [((3, 4), "any"), ((3, 4), "any")]),
    ("add_broadcast", lambda np_, lx: np_.add, [((3, 4), "any"), ((4,), "any")]),
    ("subtract", lambda np_, lx: np_.subtract, [((3, 4), "any"), ((1, 4), "any")]),
    ("multiply", lambda np_, lx: np_.multiply, [((3, 4), "any"), ((3, 1), "any")]),
    ("divide", lambda np_, lx: np_.divide, [((3, 4), "any"), ((3, 4), "nonzero")]),
    ("power", lambda np_, lx: np_.power, [((3, 4), "pos"), ((3, 4), "any")]),
    ("maximum", lambda np_, lx: np_.maximum, [((3, 4), "any"), ((3, 4), "any")]),
    ("minimum", lambda np_, lx: np_.minimum, [((3, 4), "any"), ((3, 4), "any")]),
    ("fmod", lambda np_, lx: np_.fmod, [((3, 4), "any"), ((3, 4), "nonzero")]),
    ("arctan2", lambda np_, lx: np_.arctan2, [((3, 4), "any"), ((3, 4), "nonzero")]),
    ("where", lambda np_, lx: lambda x, y: np_.where(x > 0, x * y, y), [((3, 4), "any"),
                                                                        ((3, 4), "any")]),
    ("clip", lambda np_, lx: lambda x: np_.clip(x, -0.5, 0.5), [((3, 4), "any")]),
    ("reshape", lambda np_, lx: lambda x: np_.reshape(x, (6, 2)), [((3, 4), "any")]),
    ("transpose", lambda np_, lx: lambda x: np_.transpose(x, (2, 0, 1)), [((2, 3, 4), "any")]),
    ("broadcast_to", lambda np_, lx: lambda x: np_.broadcast_to(x, (2, 3, 4)), [((3, 1), "any")]),
    ("broadcast_in_dim",
     lambda np_, lx: lambda x: lx.broadcast_in_dim(x, (3, 2, 4), (0, 2)), [((3, 4), "any")]),
    ("slice", lambda np_, lx: lambda x: x[1:, ::2], [((3, 5), "any")]),
    ("slice_strided", lambda np_, lx: lambda x: lx.slice(x, (0, 1), (3, 5), (2, 3)),
     [((3, 5), "any")]),
    ("concatenate", lambda np_, lx: lambda x, y: np_.concatenate([x, y, x], axis=1),
     [((2, 3), "any"), ((2, 2), "any")]),
    ("pad", lambda np_, lx: lambda x, v: lx.pad(x, v, ((1, 2, 1), (-1, 0, 0))),
     [((3, 4), "any"), ((), "any")]),
    ("sum", lambda np_, lx: lambda x: np_.sum(x, axis=1), [((3, 4), "any")]),
    ("mean", lambda np_, lx: lambda x: np_.mean(x, axis=0), [((3, 4), "any")]),
    ("var", lambda np_, lx: lambda x: np_.var(x, axis=1), [((3, 4), "any")]),
    ("std", lambda np_, lx: lambda x: np_.std(x), [((3, 4), "any")]),
    ("prod", lambda np_, lx: lambda x: np_.prod(x, axis=(0, 2)), [((2, 3, 4), "any")]),
    ("max", lambda np_, lx: lambda x: np_.max(x, axis=1), [((3, 4), "any")]),
    ("min", lambda np_, lx: lambda x: np_.min(x), [((3, 4), "any")]),
    ("matmul", lambda np_, lx: np_.matmul, [((3, 4), "any"), ((4, 2), "any")]),
    ("matvec", lambda np_, lx: np_.matmul, [((3, 4), "any"), ((4,), "any")]),
    ("dot_general_batch", lambda np_, lx: lambda a, b: _dot_general_batch(a, b, lx),
     [((2, 3, 4), "any"), ((2, 4, 5), "any")]),
    ("dot_general_odd", lambda np_, lx: lambda a, b: _dot_general_odd(a, b, lx),
     [((3, 2, 4), "any"), ((4, 2, 3), "any")]),
    ("stop_gradient", lambda np_, lx: lambda x: x * lx.stop_gradient(x), [((3,), "any")]),
    ("erf", lambda np_, lx: lx.erf, [((3, 4), "any")]),
    ("erf_inv", lambda np_, lx: lambda x: lx.erf_inv(x * 0.2), [((3, 4), "any")]),
    ("cumsum", lambda np_, lx: lambda x: lx.cumsum(x, axis=1), [((3, 4), "any")]),
    ("cumsum_reverse", lambda np_, lx: lambda x: lx.cumsum(x, axis=0, reverse=True),
     [((3, 4), "any")]),
    ("sort", lambda np_, lx: lambda x: lx.sort(x, dimension=1), [((3, 4), "any")]),
    ("sort_key_val", lambda np_, lx: lambda k, v: lx.sort_key_val(k, v, dimension=0)[1] * k,
     [((5,), "any"), ((5,), "any")]),
    # indexing (test_indexing.py has the rest)
    ("flip", lambda np_, lx: lambda x: np_.flip(x, 1), [((3, 4), "any")]),
    ("negative_step_slice", lambda np_, lx: lambda x: np_.asarray(x)[::-2, 3:0:-1],
     [((3, 5), "any")]),
    ("getitem_gather",
     lambda np_, lx: lambda x: np_.asarray(x)[np.array([2, 0, 2]), 1:] * x[:, 0, None],
     [((3, 4), "any")]),
    ("dynamic_slice", lambda np_, lx: lambda x: lx.dynamic_slice(x, (1, -3), (2, 2)),
     [((3, 5), "any")]),
    ("dynamic_update_slice",
     lambda np_, lx: lambda x, u: lx.dynamic_update_slice(x, u * u, (1, 3)),
     [((3, 5), "any"), ((2, 3), "any")]),
    ("at_set", lambda np_, lx: lambda x, u: np_.asarray(x).at[np.array([2, 0])].set(u * x[1]),
     [((3, 4), "any"), ((2, 4), "any")]),
    ("at_add",
     lambda np_, lx: lambda x, u: np_.asarray(x * x).at[np.array([0, 2, 0]), 1:3].add(u * u),
     [((3, 4), "any"), ((3, 2), "any")]),
    ("at_multiply",
     lambda np_, lx: lambda x, u: np_.asarray(x).at[:, np.array([3, 1])].multiply(
         u, unique_indices=True),
     [((3, 4), "any"), ((3, 2), "any")]),
    ("at_max", lambda np_, lx: lambda x, u: np_.asarray(x).at[np.array([1, 0, 1])].max(u),
     [((3, 4), "any"), ((3, 4), "any")]),
    ("at_min", lambda np_, lx: lambda x, u: np_.asarray(x).at[1, np.array([0, 2])].min(u),
     [((3, 4), "any"), ((2,), "any")]),
    ("take_along_axis",
     lambda np_, lx: lambda x: np_.take_along_axis(x, np.array([[2, 0], [1, 1], [0, 3]]), 1),
     [((3, 4), "any")]),
    ("cumprod", lambda np_, lx: lambda x: np_.cumprod(x, axis=1), [((3, 4), "any")]),
    # convolutions and windowed reductions (test_conv.py has the rest)
    ("conv", lambda np_, lx: lambda x, k: lx.conv_general_dilated(
        x, k, (2, 1), ((1, 0), (0, 1)), rhs_dilation=(1, 2),
        dimension_numbers=("NHWC", "HWIO", "NHWC")), [((2, 5, 6, 3), "any"), ((2, 2, 3, 4), "any")]),
    ("conv_grouped", lambda np_, lx: lambda x, k: lx.conv_general_dilated(
        x, k, (1,), ((1, 2),), lhs_dilation=(2,), feature_group_count=2),
     [((2, 4, 5), "any"), ((6, 2, 3), "any")]),
    ("reduce_window_sum", lambda np_, lx: lambda x: lx.reduce_window(
        x, 0.0, lx.add, (2, 3), (1, 2), "SAME"), [((4, 5), "any")]),
    ("max_pool", lambda np_, lx: lambda x: lx.reduce_window(
        x, -np.inf, lx.max, (1, 2, 2), (1, 2, 1), ((0, 0), (0, 1), (1, 0))), [((2, 4, 5), "any")]),
    ("convolve", lambda np_, lx: lambda a, v: np_.convolve(a, v, mode="same"),
     [((6,), "any"), ((3,), "any")]),
    ("mlp", lambda np_, lx: lambda w, x: np_.sum(np_.tanh(x @ w) ** 2, axis=0),
     [((3, 2), "any"), ((4, 3), "any")]),
]


def _impl(case, backend):
    _, make, _ = case
    if backend == "mlax":
        return make(mnp, mlax_lax)
    return make(jnp, jax.lax)


def _inputs(specs, dtype, seed=0):
    return [make_input(shape, dtype, kind, seed=seed + i) for i, (shape, kind) in
            enumerate(specs)]


def _weights(out_shape, dtype):
    return make_input(out_shape, dtype, "any", seed=99)


def _scalarised(f, w, backend):
    sum_ = mnp.sum if backend == "mlax" else jnp.sum
    return lambda *xs: sum_(f(*xs) * w)


def _argnums(specs):
    return tuple(range(len(specs)))


@pytest.mark.parametrize("case", OPS, ids=[c[0] for c in OPS])
def test_grad_and_jvp_match_jax_f32(case):
    """The gradient and a jvp, in one program each for mlax (under jit; the
    float64 test runs them eagerly) and JAX."""
    specs = case[2]
    xs = _inputs(specs, np.float32)
    ts = _inputs(specs, np.float32, seed=50)
    fm, fj = _impl(case, "mlax"), _impl(case, "jax")
    w = _weights(jax.eval_shape(fj, *xs).shape, np.float32)

    def both(f, backend, grad, jvp):
        g = grad(_scalarised(f, w, backend), argnums=_argnums(specs))
        return lambda xs, ts: (g(*xs), jvp(f, xs, ts))

    gm, (ym, tm) = mlax.jit(both(fm, "mlax", mlax.grad, mlax.jvp))(tuple(xs), tuple(ts))
    gj, (yj, tj) = jax.jit(both(fj, "jax", jax.grad, jax.jvp))(tuple(xs), tuple(ts))
    for a, b in zip(gm, gj):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=2e-5, atol=2e-6)
    np.testing.assert_allclose(np.asarray(ym), np.asarray(yj), rtol=2e-6, atol=1e-6)
    np.testing.assert_allclose(np.asarray(tm), np.asarray(tj), rtol=2e-5, atol=2e-6)


@pytest.mark.parametrize("case", OPS, ids=[c[0] for c in OPS])
def test_first_and_second_derivatives_f64(case, x64):
    specs = case[2]
    xs = _inputs(specs, np.float64)
    vs = _inputs(specs, np.float64, seed=70)
    fm, fj = _impl(case, "mlax"), _impl(case, "jax")
    w = _weights(jax.eval_shape(fj, *xs).shape, np.float64)
    # The JAX references (the gradient, the Hessian-vector product and the
    # function at the finite differences' points) run as one jitted program,
    # not op by op (each op its own XLA compile); the tolerances are far
    # above jit's rounding. mlax's run eagerly.
    sm, sj = _scalarised(fm, w, "mlax"), _scalarised(fj, w, "jax")
    nums = _argnums(specs)
    h = 1e-6
    plus, minus = [x + h * v for x, v in zip(xs, vs)], [x - h * v for x, v in zip(xs, vs)]

    def jax_refs(xs, vs, plus, minus):
        grad = jax.grad(sj, argnums=nums)
        return grad(*xs), jax.jvp(grad, xs, vs)[1], sj(*plus), sj(*minus)

    gj, hvp_j, f_plus, f_minus = jax.jit(jax_refs)(tuple(xs), tuple(vs), plus, minus)
    gm = mlax.grad(sm, argnums=nums)(*xs)
    for a, b in zip(gm, gj):
        assert np.asarray(a).dtype == np.float64
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-10, atol=1e-12)
    if case[0] == "stop_gradient":
        return  # finite differences see through stop_gradient; JAX is the reference
    # first derivative against central differences of the function itself
    numeric = (float(f_plus) - float(f_minus)) / (2 * h)
    analytic = sum(float(np.sum(np.asarray(g) * v)) for g, v in zip(gm, vs))
    np.testing.assert_allclose(analytic, numeric, rtol=1e-5, atol=1e-6)
    # second derivative: forward-over-reverse Hessian-vector product, against
    # JAX and against central differences of the (mlax) gradient
    grad_m = mlax.grad(sm, argnums=nums)
    _, hvp = mlax.jvp(grad_m, tuple(xs), tuple(vs))
    for a, b in zip(hvp, hvp_j):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-9, atol=1e-10)
    fd = [(np.asarray(p) - np.asarray(m)) / (2 * h) for p, m in zip(grad_m(*plus),
                                                                   grad_m(*minus))]
    for a, b in zip(hvp, fd):
        np.testing.assert_allclose(np.asarray(a), b, rtol=1e-4, atol=1e-5)


def test_reduce_prod_gradient_with_zeros_is_exact(x64):
    x = np.array([[2.0, 0.0, 3.0, 4.0], [0.0, 0.0, 5.0, 1.0], [1.5, 2.0, 3.0, 4.0]])
    gm = mlax.grad(lambda x: mnp.sum(mnp.prod(x, axis=1)))(x)
    gj = jax.jit(jax.grad(lambda x: jnp.sum(jnp.prod(x, axis=1))))(x)
    np.testing.assert_array_equal(np.asarray(gm), np.asarray(gj))
    assert np.asarray(gm)[0, 1] == 24.0  # the product of the others


def test_max_splits_gradient_evenly_between_ties():
    x = np.array([1.0, 3.0, 3.0, 2.0], np.float32)
    np.testing.assert_array_equal(np.asarray(mlax.grad(lambda x: mnp.max(x))(x)),
                                  [0, 0.5, 0.5, 0])
    np.testing.assert_array_equal(np.asarray(mlax.grad(lambda x, y: mnp.maximum(x, y))(2.0, 2.0)),
                                  0.5)


def test_pow_derivatives_at_zero_match_jax():
    # (NumPy scalars: traced by mlax's grad where not differentiated; Python
    # scalars are closed over, as JAX's grad does)
    for x, y in [(0.0, 2.0), (0.0, 0.0), (2.0, 0.0), (0.0, 1.0)]:
        x, y = np.float32(x), np.float32(y)
        for argnums in (0, 1):
            m = float(mlax.grad(lambda a, b: a ** b, argnums=argnums)(x, y))
            j = float(jax.grad(lambda a, b: a ** b, argnums=argnums)(x, y))
            assert m == j or (np.isnan(m) and np.isnan(j)), (x, y, argnums, m, j)


# ---------------------------------------------------------------------------
# The Python API: pytrees, argnums, has_aux, jvp/vjp, Jacobians
# ---------------------------------------------------------------------------

def _mlp_params(rng, sizes, lib):
    return [{"W": lib.asarray(rng.standard_normal((m, n)).astype(np.float32) * 0.5),
             "b": lib.asarray(rng.standard_normal(n).astype(np.float32) * 0.1)}
            for m, n in zip(sizes[:-1], sizes[1:])]


def _mlp_loss(lib):
    def loss(params, x, y):
        h = x
        for layer in params[:-1]:
            h = lib.tanh(h @ layer["W"] + layer["b"])
        out = h @ params[-1]["W"] + params[-1]["b"]
        err = out - y
        return lib.mean(err ** 2), {"max_err": lib.max(lib.abs(err)), "out": out}
    return loss


def test_value_and_grad_has_aux_mlp_pytree():
    rng = np.random.default_rng(0)
    params = _mlp_params(rng, [3, 5, 4, 2], np)
    x = rng.standard_normal((6, 3)).astype(np.float32)
    y = rng.standard_normal((6, 2)).astype(np.float32)
    (lm, auxm), gm = mlax.value_and_grad(_mlp_loss(mnp), has_aux=True)(params, x, y)
    (lj, auxj), gj = jax.jit(jax.value_and_grad(_mlp_loss(jnp), has_aux=True))(params, x, y)
    assert jax.tree_util.tree_structure(gm) == jax.tree_util.tree_structure(gj)
    assert isinstance(gm, list) and isinstance(gm[0], dict)
    np.testing.assert_allclose(float(lm), float(lj), rtol=1e-6)
    for a, b in zip(jax.tree_util.tree_leaves(gm), jax.tree_util.tree_leaves(gj)):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-5, atol=1e-6)
    assert set(auxm) == {"max_err", "out"}
    np.testing.assert_allclose(np.asarray(auxm["out"]), np.asarray(auxj["out"]), rtol=1e-5,
                               atol=1e-6)
    # the same under jit, in both orders
    (lm2, _), gm2 = mlax.jit(mlax.value_and_grad(_mlp_loss(mnp), has_aux=True))(params, x, y)
    np.testing.assert_allclose(float(lm2), float(lj), rtol=1e-6)
    for a, b in zip(jax.tree_util.tree_leaves(gm2), jax.tree_util.tree_leaves(gj)):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-5, atol=1e-6)


def test_grad_argnums_tuple_and_negative():
    f = lambda x, y, z: mnp.sum(x * y + z ** 2)  # noqa: E731
    fj = lambda x, y, z: jnp.sum(x * y + z ** 2)  # noqa: E731
    args = [np.arange(3.0, dtype=np.float32) + i for i in range(3)]
    for argnums in [(0, 2), (2, 0), -1, (1,)]:
        gm = mlax.grad(f, argnums=argnums)(*args)
        gj = jax.jit(jax.grad(fj, argnums=argnums))(*args)
        assert isinstance(gm, tuple) == isinstance(gj, tuple)
        for a, b in zip(jax.tree_util.tree_leaves(gm), jax.tree_util.tree_leaves(gj)):
            np.testing.assert_allclose(np.asarray(a), np.asarray(b))


def test_grad_of_closure_and_kwargs():
    w = mnp.array([1.0, 2.0, 3.0])
    f = lambda x, scale=1.0: mnp.sum(w * x) * scale  # noqa: E731
    np.testing.assert_allclose(np.asarray(mlax.grad(f)(mnp.ones(3), scale=2.0)), [2, 4, 6])


def test_grad_sees_changed_globals_outside_jit():
    state = {"k": 2.0}
    f = lambda x: state["k"] * x  # noqa: E731
    g = mlax.grad(f)
    assert float(g(1.0)) == 2.0
    state["k"] = 5.0
    assert float(g(1.0)) == 5.0  # eager transformations re-run Python, as in JAX


def test_jvp_and_vjp_pytrees():
    f = lambda p: {"a": mnp.sin(p[0]) * p[1], "b": p[0] ** 2}  # noqa: E731
    fj = lambda p: {"a": jnp.sin(p[0]) * p[1], "b": p[0] ** 2}  # noqa: E731
    p = (np.float32(0.3) * np.ones(2, np.float32), np.arange(2.0, dtype=np.float32))
    t = (np.ones(2, np.float32), np.full(2, 0.5, np.float32))
    ct = {"a": np.ones(2, np.float32), "b": np.array([2.0, -1.0], np.float32)}
    # JAX's jvp and pullback in one jitted program (eagerly: a compile per
    # primitive)
    (oj, tj), ct_j = jax.jit(lambda p, t, ct: (jax.jvp(fj, (p,), (t,)), jax.vjp(fj, p)[1](ct)))(
        p, t, ct)
    om, tm = mlax.jvp(f, (p,), (t,))
    for a, b in zip(jax.tree_util.tree_leaves((om, tm)), jax.tree_util.tree_leaves((oj, tj))):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-6)
    ym, pbm = mlax.vjp(f, p)
    assert jax.tree_util.tree_structure(pbm(ct)) == jax.tree_util.tree_structure(ct_j)
    for a, b in zip(jax.tree_util.tree_leaves(pbm(ct)), jax.tree_util.tree_leaves(ct_j)):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-6)
    # the pullback used inside jit, with the vjp itself under jit
    def inside(p, ct):
        _, pb = mlax.vjp(f, p)
        return pb(ct)
    for a, b in zip(jax.tree_util.tree_leaves(mlax.jit(inside)(p, ct)),
                    jax.tree_util.tree_leaves(ct_j)):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-6)


def test_vjp_has_aux_and_jvp_has_aux():
    f = lambda x: (mnp.sin(x), {"sq": x * x})  # noqa: E731
    y, pb, aux = mlax.vjp(f, 2.0, has_aux=True)
    np.testing.assert_allclose(float(pb(1.0)[0]), np.cos(2.0), rtol=1e-6)
    assert float(aux["sq"]) == 4.0
    y, t, aux = mlax.jvp(f, (2.0,), (1.0,), has_aux=True)
    np.testing.assert_allclose(float(t), np.cos(2.0), rtol=1e-6)
    assert float(aux["sq"]) == 4.0


@pytest.mark.parametrize("which", ["jacfwd", "jacrev"])
def test_jacobians_match_jax(which):
    def f(lib):
        return lambda x, y: {"u": lib.sin(x) * y[0], "v": lib.outer(x, y)}
    x = np.array([0.1, 0.5, -0.3], np.float32)
    y = np.array([2.0, -1.0], np.float32)
    jm = getattr(mlax, which)(f(mnp), argnums=(0, 1))(x, y)
    jj = jax.jit(getattr(jax, which)(f(jnp), argnums=(0, 1)))(x, y)
    assert jax.tree_util.tree_structure(jm) == jax.tree_util.tree_structure(jj)
    for a, b in zip(jax.tree_util.tree_leaves(jm), jax.tree_util.tree_leaves(jj)):
        assert a.shape == b.shape
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-6, atol=1e-7)


def test_hessian_and_jacfwd_of_jacrev():
    f = lambda x: mnp.sum(mnp.sin(x) * x ** 2)  # noqa: E731
    fj = lambda x: jnp.sum(jnp.sin(x) * x ** 2)  # noqa: E731
    x = np.array([0.1, 0.7, -1.2], np.float32)
    want = np.asarray(jax.jit(jax.hessian(fj))(x))
    np.testing.assert_allclose(np.asarray(mlax.hessian(f)(x)), want, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.asarray(mlax.jit(mlax.jacfwd(mlax.jacrev(f)))(x)),
                               want, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.asarray(mlax.jacrev(mlax.jacfwd(f))(x)),
                               want, rtol=1e-5, atol=1e-6)


def test_stop_gradient():
    f = lambda x: x * mlax.stop_gradient(x) + mlax.lax.stop_gradient(x ** 2)  # noqa: E731
    assert float(mlax.grad(f)(3.0)) == 3.0
    assert float(mlax.jit(mlax.grad(f))(3.0)) == 3.0
    tree = mlax.stop_gradient({"a": mnp.ones(2), "b": 1})
    assert set(tree) == {"a", "b"}


# ---------------------------------------------------------------------------
# custom_jvp / custom_vjp (the examples of JAX's documentation)
# ---------------------------------------------------------------------------

@mlax.custom_jvp
def log1pexp(x):
    return mnp.log(1.0 + mnp.exp(x))


@log1pexp.defjvp
def _log1pexp_jvp(primals, tangents):
    (x,), (x_dot,) = primals, tangents
    ans = log1pexp(x)
    return ans, (1.0 - 1.0 / (1.0 + mnp.exp(x))) * x_dot


def test_custom_jvp_rule_is_used_in_forward_and_reverse_mode():
    # The naive derivative is nan at 100 (inf / inf); the rule gives 1.
    assert float(mlax.grad(log1pexp)(100.0)) == 1.0
    assert float(mlax.jit(mlax.grad(log1pexp))(100.0)) == 1.0
    _, t = mlax.jvp(log1pexp, (100.0,), (1.0,))
    assert float(t) == 1.0
    assert np.isnan(float(mlax.grad(lambda x: mnp.log(1.0 + mnp.exp(x)))(100.0)))
    # and the second derivative differentiates the rule, as JAX does
    np.testing.assert_allclose(float(mlax.grad(mlax.grad(log1pexp))(0.3)),
                               float(jax.grad(jax.grad(jax.nn.softplus))(0.3)), rtol=1e-6)


def test_custom_jvp_nondiff_argnums_and_defjvps():
    @mlax.custom_jvp
    def f(x, y):
        return mnp.sin(x) * y

    f.defjvps(lambda x_dot, primal_out, x, y: mnp.cos(x) * x_dot * y,
              lambda y_dot, primal_out, x, y: mnp.sin(x) * y_dot)
    np.testing.assert_allclose(float(mlax.grad(f, argnums=1)(2.0, 3.0)), np.sin(2.0), rtol=1e-6)

    from functools import partial

    @partial(mlax.custom_jvp, nondiff_argnums=(0,))
    def app(scale, x):
        return scale * x

    @app.defjvp
    def _app_jvp(scale, primals, tangents):
        return app(scale, primals[0]), 10.0 * tangents[0]  # a deliberately odd rule

    assert float(mlax.grad(lambda x: app(2.0, x))(1.0)) == 10.0


@mlax.custom_vjp
def clip_gradient(lo, hi, x):
    return x


def _clip_fwd(lo, hi, x):
    return x, (lo, hi)


def _clip_bwd(res, g):
    lo, hi = res
    return (None, None, mnp.clip(g, lo, hi))


clip_gradient.defvjp(_clip_fwd, _clip_bwd)


def test_custom_vjp_clip_gradient():
    f = lambda x: mnp.sin(clip_gradient(-0.75, 0.75, x))  # noqa: E731
    assert float(f(2.0)) == pytest.approx(np.sin(2.0))
    for x in (0.1, 2.0):  # cos(0.1) is clipped to 0.75
        expected = float(np.clip(np.cos(x), -0.75, 0.75))
        assert float(mlax.grad(f)(x)) == pytest.approx(expected, rel=1e-6)
        assert float(mlax.jit(mlax.grad(f))(x)) == pytest.approx(expected, rel=1e-6)


def test_custom_vjp_under_forward_mode_is_an_error():
    # JAX's TypeError, raised while tracing (not a CompileError from the pass).
    with pytest.raises(TypeError, match="can't apply forward-mode autodiff"):
        mlax.jvp(lambda x: clip_gradient(-1.0, 1.0, x), (1.0,), (1.0,))


# ---------------------------------------------------------------------------
# Errors, as JAX raises them
# ---------------------------------------------------------------------------

def test_grad_of_non_scalar_output():
    with pytest.raises(TypeError, match=r"Gradient only defined for scalar-output functions. "
                                        r"Output had shape: \(3,\)"):
        mlax.grad(lambda x: x)(mnp.ones(3))


def test_grad_of_integer_input():
    with pytest.raises(TypeError, match="grad requires real- or complex-valued inputs .* but "
                                        "got int32. If you want to use Boolean- or integer-"
                                        "valued inputs, use vjp or set allow_int to True."):
        mlax.grad(lambda x: x * 2)(1)


def test_grad_allow_int_gives_float0_zeros():
    def f(lib):
        return lambda p: (p["w"] * 2.0).sum() + p["n"] * 3
    p = {"w": np.ones(3, np.float32), "n": np.int32(2)}
    pb = {"w": np.ones((3, 2, 4), np.float32), "n": np.zeros((2, 5), np.int32)}
    # JAX's three in one jitted program (eagerly: a compile per primitive)
    want_grad, want_vg, want_vmap = jax.jit(lambda p, pb: (
        jax.grad(f(jax), allow_int=True)(p), jax.value_and_grad(f(jax), allow_int=True)(p)[1],
        jax.vmap(jax.grad(lambda p: f(jax)(p).sum(), allow_int=True), in_axes=(
            {"w": 1, "n": 0},), out_axes=1)(pb)))(p, pb)
    for got, want in ((mlax.grad(f(mlax), allow_int=True)(p), want_grad),
                      (mlax.value_and_grad(f(mlax), allow_int=True)(p)[1], want_vg)):
        assert got["n"].dtype == want["n"].dtype == jax.dtypes.float0
        assert got["n"].shape == want["n"].shape == ()
        np.testing.assert_array_equal(got["w"], want["w"])
    g = mlax.grad(lambda n: (n * 2.0).sum(), allow_int=True)(np.arange(3))
    assert g.dtype == jax.dtypes.float0 and g.shape == (3,)
    # under jit and vmap (float0 zeros of the batched shape) too
    got = mlax.jit(mlax.grad(f(mlax), allow_int=True))(p)
    assert got["n"].dtype == jax.dtypes.float0
    np.testing.assert_array_equal(got["w"], np.full(3, 2, np.float32))
    got = mlax.vmap(mlax.grad(lambda p: f(mlax)(p).sum(), allow_int=True), in_axes=(
        {"w": 1, "n": 0},), out_axes=1)(pb)
    want = want_vmap
    assert got["n"].shape == want["n"].shape == (5, 2) and got["n"].dtype == jax.dtypes.float0
    np.testing.assert_array_equal(got["w"], want["w"])


def test_grad_bad_argnums():
    with pytest.raises(TypeError, match="differentiating with respect to argnums=1 requires at "
                                        "least 2 positional arguments"):
        mlax.grad(lambda x: x, argnums=1)(1.0)
    with pytest.raises(TypeError, match="cannot be interpreted as an integer"):
        mlax.grad(lambda x: x, argnums=(0, "a"))(1.0)


def test_has_aux_requires_pair():
    with pytest.raises(TypeError, match="expected function with aux output to return a "
                                        "two-element tuple"):
        mlax.grad(lambda x: x, has_aux=True)(1.0)


def test_jvp_argument_errors():
    with pytest.raises(TypeError, match="dtypes must be equal"):
        mlax.jvp(lambda x: x, (1.0,), (1,))
    with pytest.raises(TypeError, match="same tree structure"):
        mlax.jvp(lambda x: x, ((1.0, 2.0),), ([1.0, 2.0],))
    with pytest.raises(ValueError, match="different primal and tangent shapes"):
        mlax.jvp(lambda x: x, (mnp.ones(3),), (mnp.ones(2),))


def test_grad_error_points_at_user_line_inside_function():
    def f(x):
        return mnp.sum(x @ mnp.ones((4, 2)))  # shapes do not match
    with pytest.raises(TypeError, match=r"mnp.matmul: .*test_autodiff.py:\d+ \(f\)"):
        mlax.grad(f)(mnp.ones((2, 3)))


# ---------------------------------------------------------------------------
# The linear-regression example: a jitted training loop, against JAX
# ---------------------------------------------------------------------------

def test_linear_regression_training_matches_jax():
    rng = np.random.default_rng(0)
    xs = rng.standard_normal((100, 3)).astype(np.float32)
    true_w = np.array([[2.0], [-1.0], [0.5]], np.float32)
    ys = xs @ true_w + 0.3 + 0.01 * rng.standard_normal((100, 1)).astype(np.float32)

    def make(lib, grad, jit):
        def mse(params, x, y):
            pred = x @ params["W"] + params["b"]
            return lib.mean((pred - y) ** 2)

        @jit
        def step(params, x, y, lr=0.1):
            loss, g = grad(mse)(params, x, y)
            return {k: params[k] - lr * g[k] for k in params}, loss
        return step

    step_m = make(mnp, mlax.value_and_grad, mlax.jit)
    step_j = make(jnp, jax.value_and_grad, jax.jit)
    pm = {"W": np.zeros((3, 1), np.float32), "b": np.zeros((1,), np.float32)}
    pj = dict(pm)
    losses_m, losses_j = [], []
    for _ in range(101):
        pm, lm = step_m(pm, xs, ys)
        pj, lj = step_j(pj, xs, ys)
        losses_m.append(float(lm))
        losses_j.append(float(lj))
    np.testing.assert_allclose(losses_m, losses_j, rtol=1e-5, atol=1e-6)
    assert losses_m[-1] < 1e-3 < losses_m[0]
    np.testing.assert_allclose(np.asarray(pm["W"]), true_w, atol=0.02)


def test_custom_vjp_fwd_may_call_the_function_itself():
    @mlax.custom_vjp
    def f(x):
        return mnp.sin(x)

    def fwd(x):
        return f(x), mnp.cos(x)  # calls f inside its own rule, as JAX's docs do

    f.defvjp(fwd, lambda cos_x, g: (2.0 * cos_x * g,))
    assert float(mlax.grad(f)(0.5)) == pytest.approx(2 * np.cos(0.5), rel=1e-6)
    assert float(f(0.5)) == pytest.approx(np.sin(0.5), rel=1e-6)


# ---------------------------------------------------------------------------
# checkpoint
# ---------------------------------------------------------------------------

def test_checkpoint_values_and_recomputation():
    def block(x):
        return mnp.sin(mnp.sin(x))

    def loss(ckpt):
        f = mlax.checkpoint(block) if ckpt else block
        return lambda x: mnp.sum(f(f(x)) ** 2)

    x = np.linspace(-0.3, 1.1, 5).astype(np.float32)
    expected = jax.jit(jax.grad(lambda x: jnp.sum(jnp.sin(jnp.sin(jnp.sin(jnp.sin(x)))) ** 2)))(x)
    for ckpt in (False, True):
        np.testing.assert_allclose(np.asarray(mlax.grad(loss(ckpt))(x)), np.asarray(expected),
                                   rtol=1e-6)
        np.testing.assert_allclose(np.asarray(mlax.jit(mlax.grad(loss(ckpt)))(x)),
                                   np.asarray(expected), rtol=1e-6)
    plain = mlax.jit(mlax.grad(loss(False))).lower(x).as_text()
    remat = mlax.jit(mlax.grad(loss(True))).lower(x).as_text()
    # Without checkpoint the 4 sines are computed once and kept; with it each
    # block is recomputed from its input behind a barrier in the backward pass.
    assert plain.count("stablehlo.sine") == 4 and "optimization_barrier" not in plain
    assert remat.count("stablehlo.sine") > 4 and "stablehlo.optimization_barrier" in remat
    # forward mode and the primal value are unaffected
    _, t = mlax.jvp(loss(True), (x,), (np.ones(5, np.float32),))
    np.testing.assert_allclose(float(t), float(np.sum(np.asarray(expected))), rtol=1e-5)
    assert mlax.remat is mlax.checkpoint
    # A policy saving every result makes the checkpoint an ordinary call;
    # one saving none (or only some) recomputes as policy=None does.
    def loss_policy(policy):
        f = mlax.checkpoint(block, policy=policy)
        return lambda x: mnp.sum(f(f(x)) ** 2)
    cp = mlax.checkpoint_policies
    for policy, recomputes in ((cp.everything_saveable, False), (lambda *a, **k: True, False),
                               (cp.nothing_saveable, True), (cp.dots_saveable, True)):
        hlo = mlax.jit(mlax.grad(loss_policy(policy))).lower(x).as_text()
        assert ("stablehlo.optimization_barrier" in hlo) == recomputes
        assert (hlo.count("stablehlo.sine") > 4) == recomputes
        np.testing.assert_allclose(np.asarray(mlax.grad(loss_policy(policy))(x)),
                                   np.asarray(expected), rtol=1e-6)


def test_clear_caches_drops_eager_transformation_programs():
    from mlax._src.transforms import autodiff

    g = mlax.grad(lambda x: mnp.sin(x) * 3.0)
    assert float(g(0.0)) == 3.0
    assert len(autodiff._eager_cache) > 0
    mlax.clear_caches()
    assert len(autodiff._eager_cache) == 0
    assert float(g(0.0)) == 3.0  # recompiled on demand


def test_tanh_derivative_is_accurate_near_saturation():
    # The rule is jax.lax's (t + t*r)(1 - r): the same f32 values as JAX even
    # where tanh(x) rounds to within a few ulps of 1 (the f32 result is then
    # limited by that rounding of r, for JAX too).
    x = np.array([0.5, 3.0, 6.0, 7.5], np.float32)
    got = np.asarray(mlax.grad(lambda x: mnp.sum(mnp.tanh(x)))(x))
    want = np.asarray(jax.grad(lambda x: jnp.sum(jnp.tanh(x)))(x))
    exact = 1 - np.tanh(x.astype(np.float64)) ** 2
    np.testing.assert_allclose(got, want, rtol=1e-6)
    np.testing.assert_allclose(got[:2], exact[:2], rtol=1e-5)

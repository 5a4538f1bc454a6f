"""custom_gradient and closure_convert against JAX: values, gradients
eagerly and under jit and vmap, and errors."""
import functools

import numpy as np
import pytest

import jax
import jax.numpy as jnp

import mlax
import mlax.numpy as mnp


def _close(ours, theirs):
    o_leaves, o_tree = jax.tree.flatten(ours)
    t_leaves, t_tree = jax.tree.flatten(theirs)
    assert o_tree == t_tree
    for o, t in zip(o_leaves, t_leaves):
        np.testing.assert_allclose(np.asarray(o), np.asarray(t), rtol=1e-6)
        assert np.asarray(o).dtype == np.asarray(t).dtype


def _clipped(api, m):
    # The gradient of x*y, its first cotangent scaled by 10 (so the custom
    # rule is visibly the one used); the rule closes over an intermediate.
    @api.custom_gradient
    def f(x, y):
        s = m.sin(x)
        return s * y, lambda g: (m.sum(g * y) * 10.0 * m.cos(x), g * s)
    return f


def test_custom_gradient_values_and_gradients():
    f, fj = _clipped(mlax, mnp), _clipped(jax, jnp)
    x, y = np.float32(0.3), np.array([1.0, 2.0], np.float32)
    _close(f(x, y), fj(x, y))
    loss = lambda h: lambda x, y: h(x, y).sum()  # noqa: E731
    _close(mlax.grad(loss(f), argnums=(0, 1))(x, y), jax.grad(loss(fj), argnums=(0, 1))(x, y))
    _close(mlax.jit(mlax.grad(loss(f)))(x, y), jax.jit(jax.grad(loss(fj)))(x, y))
    xs = np.linspace(0, 1, 3, dtype=np.float32)
    _close(mlax.vmap(mlax.grad(loss(f)), (0, None))(xs, y),
           jax.vmap(jax.grad(loss(fj)), (0, None))(xs, y))


def test_custom_gradient_single_argument_rule_and_keywords():
    @mlax.custom_gradient
    def f(x, scale=2.0):
        return x * scale, lambda g: g * 7.0  # a bare cotangent for the one argument
    assert float(f(3.0)) == 6.0 and float(f(3.0, scale=4.0)) == 12.0
    assert float(mlax.grad(f)(1.0)) == 7.0


def test_custom_gradient_errors_as_jax():
    def make(api):
        @api.custom_gradient
        def f(x):
            return x, lambda g: (g, g)
        return f
    with pytest.raises(TypeError, match="Custom VJP bwd rule"):
        mlax.grad(make(mlax))(1.0)
    with pytest.raises(TypeError, match="Custom VJP bwd rule"):
        jax.grad(make(jax))(1.0)
    with pytest.raises(TypeError, match="forward-mode"):
        mlax.jvp(_clipped(mlax, mnp), (1.0, 1.0), (1.0, 1.0))


def _minimize_api(api, m):
    """A custom_vjp taking a function, whose closure closure_convert lifts
    into explicit arguments (JAX's documented use)."""
    @functools.partial(api.custom_vjp, nondiff_argnums=(0,))
    def apply(f, x, *args):
        return f(x, *args)

    def fwd(f, x, *args):
        return f(x, *args), (x, args)

    def bwd(f, res, g):
        x, args = res
        _, pullback = api.vjp(f, x, *args)
        return pullback(g)

    apply.defvjp(fwd, bwd)

    def outer(w, x):
        conv, consts = api.closure_convert(lambda v: m.sin(w * v) * w, x)
        return apply(conv, x, *consts)
    return outer


def test_closure_convert_lifts_traced_values_for_custom_vjp():
    outer, outer_j = _minimize_api(mlax, mnp), _minimize_api(jax, jnp)
    w, x = np.float32(2.0), np.float32(0.3)
    _close(outer(w, x), outer_j(w, x))
    _close(mlax.grad(outer, argnums=(0, 1))(w, x), jax.grad(outer_j, argnums=(0, 1))(w, x))
    _close(mlax.jit(mlax.grad(outer, argnums=(0, 1)))(w, x),
           jax.jit(jax.grad(outer_j, argnums=(0, 1)))(w, x))


def test_closure_convert_hoists_and_checks():
    def f(api, w):
        conv, consts = api.closure_convert(lambda v: v * w, np.float32(1.0))
        return conv(np.float32(3.0), *consts), len(consts)
    out, n = mlax.jit(lambda w: f(mlax, w))(np.float32(2.0))
    assert float(out) == 6.0 and n == 1  # w, traced under jit, is hoisted
    conv, consts = mlax.closure_convert(lambda v: v * 2.0, 1.0)
    assert consts == [] and float(conv(3.0)) == 6.0  # nothing traced: nothing hoisted
    with pytest.raises(TypeError, match="same Pytree structure") as ours:
        conv((1.0, 2.0))
    with pytest.raises(TypeError) as theirs:
        jax.closure_convert(lambda v: v * 2.0, 1.0)[0]((1.0, 2.0))
    assert str(ours.value) == str(theirs.value)

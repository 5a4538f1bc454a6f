"""Forward mode over a reverse-mode derivative of a custom_vjp function,
against JAX: the reverse pass replaces the custom_vjp call by its fwd and
bwd rules, which forward mode then differentiates (hessian, jacfwd(grad),
jvp(grad), linearize(grad), jacfwd(jacrev)), eagerly and under jit; and
forward mode meeting the call itself stays JAX's TypeError."""
import numpy as np
import pytest

import jax
import jax.numpy as jnp

import mlax
import mlax.numpy as mnp


def _close(ours, theirs, rtol=1e-5):
    o_leaves, o_tree = jax.tree.flatten(ours)
    t_leaves, t_tree = jax.tree.flatten(theirs)
    assert o_tree == t_tree
    for o, t in zip(o_leaves, t_leaves):
        o, t = np.asarray(o), np.asarray(t)
        assert o.dtype == t.dtype
        assert o.shape == t.shape
        np.testing.assert_allclose(o, t, rtol=rtol, atol=1e-6)


def _scalar(api, m):
    # bwd is the true derivative scaled by 3 (so the rule is visibly the one
    # differentiated), and its residual is x itself.
    @api.custom_vjp
    def f(x):
        return m.sin(x) * x

    f.defvjp(lambda x: (m.sin(x) * x, x),
             lambda x, g: (3.0 * g * (m.cos(x) * x + m.sin(x)),))
    return f


def _vector(api, m):
    # A vector function with a residual computed in fwd; bwd uses it
    # nonlinearly.
    @api.custom_vjp
    def f(x, y):
        return m.sum(m.tanh(x) * y)

    def fwd(x, y):
        t = m.tanh(x)
        return m.sum(t * y), (t, y)

    def bwd(res, g):
        t, y = res
        return (2.0 * g * (1.0 - t * t) * y * t, g * m.exp(t))
    f.defvjp(fwd, bwd)
    return f


def _nondiff(api, m):
    # nondiff_argnums: a Python callable (static) and an array argument.
    def f(k, x, s):
        return k(x) * s
    f = api.custom_vjp(f, nondiff_argnums=(0,))

    def fwd(k, x, s):
        return k(x) * s, (x, s)

    def bwd(k, res, g):
        x, s = res
        return (g * s * m.cos(x) * x, g * k(x) * x)
    f.defvjp(fwd, bwd)
    return lambda x, s: m.sum(f(m.sin, x, s))


X_S = np.float32(1.3)
X_V = np.array([0.3, -0.7, 1.1], np.float32)
Y_V = np.array([1.5, 0.5, -2.0], np.float32)


def _scalar_cases(api):
    f = _scalar(api, mnp if api is mlax else jnp)
    g = api.grad(f)
    return {
        "hessian": lambda x: api.hessian(f)(x),
        "jacfwd_grad": lambda x: api.jacfwd(g)(x),
        "jvp_grad": lambda x: api.jvp(g, (x,), (np.float32(0.5),)),
        "linearize_grad": lambda x: (lambda o, lin: (o, lin(np.float32(2.0))))(
            *api.linearize(g, x)),
        "jacfwd_jacrev": lambda x: api.jacfwd(api.jacrev(f))(x),
        "jvp_grad_grad": lambda x: api.jvp(api.grad(g), (x,), (np.float32(1.0),)),
    }


def _vector_cases(api):
    f = _vector(api, mnp if api is mlax else jnp)
    t = np.array([1.0, -2.0, 0.5], np.float32)
    return {
        "hessian": lambda x, y: api.hessian(f, argnums=(0, 1))(x, y),
        "jacfwd_grad": lambda x, y: api.jacfwd(api.grad(f))(x, y),
        "jvp_grad": lambda x, y: api.jvp(lambda a: api.grad(f, argnums=(0, 1))(a, y),
                                         (x,), (t,)),
        "linearize_grad": lambda x, y: (lambda o, lin: (o, lin(t)))(
            *api.linearize(lambda a: api.grad(f)(a, y), x)),
        "jacfwd_jacrev": lambda x, y: api.jacfwd(api.jacrev(f, argnums=1), argnums=0)(x, y),
    }


def _nondiff_cases(api):
    f = _nondiff(api, mnp if api is mlax else jnp)
    return {
        "hessian": lambda x, s: api.hessian(f, argnums=(0, 1))(x, s),
        "jacfwd_grad": lambda x, s: api.jacfwd(api.grad(f, argnums=1), argnums=0)(x, s),
        "jvp_grad": lambda x, s: api.jvp(lambda a: api.grad(f)(a, s), (x,), (Y_V,)),
        "jacfwd_jacrev": lambda x, s: api.jacfwd(api.jacrev(f))(x, s),
    }


@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
@pytest.mark.parametrize("name", sorted(_scalar_cases(jax)))
def test_scalar_forward_over_reverse(name, jit):
    ours, theirs = _scalar_cases(mlax)[name], _scalar_cases(jax)[name]
    if jit:
        ours, theirs = mlax.jit(ours), jax.jit(theirs)
    _close(ours(X_S), theirs(X_S))


@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
@pytest.mark.parametrize("name", sorted(_vector_cases(jax)))
def test_vector_forward_over_reverse(name, jit):
    ours, theirs = _vector_cases(mlax)[name], _vector_cases(jax)[name]
    if jit:
        ours, theirs = mlax.jit(ours), jax.jit(theirs)
    _close(ours(X_V, Y_V), theirs(X_V, Y_V))


@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
@pytest.mark.parametrize("name", sorted(_nondiff_cases(jax)))
def test_nondiff_argnums_forward_over_reverse(name, jit):
    ours, theirs = _nondiff_cases(mlax)[name], _nondiff_cases(jax)[name]
    if jit:
        ours, theirs = mlax.jit(ours), jax.jit(theirs)
    _close(ours(X_V, Y_V), theirs(X_V, Y_V))


def test_hessian_is_the_derivative_of_bwd():
    # Against finite differences of the bwd rule (not of f): the custom rule
    # is what is differentiated.
    f = _scalar(mlax, mnp)
    bwd = lambda x: 3.0 * (np.cos(x) * x + np.sin(x))  # noqa: E731
    x, h = 1.3, 1e-3
    fd = (bwd(x + h) - bwd(x - h)) / (2 * h)
    np.testing.assert_allclose(float(mlax.hessian(f)(np.float32(x))), fd, rtol=1e-3)


def _raising(api):
    f = _scalar(api, mnp if api is mlax else jnp)
    fv = _vector(api, mnp if api is mlax else jnp)
    return {
        "jvp": lambda: api.jvp(f, (X_S,), (np.float32(1.0),)),
        "jacfwd": lambda: api.jacfwd(f)(X_S),
        # JAX raises when the linear function is applied; mlax already in
        # linearize (which evaluates the jvp at zero tangents).
        "linearize": lambda: api.linearize(f, X_S)[1](np.float32(1.0)),
        "jit_jvp": lambda: api.jit(lambda x: api.jvp(f, (x,), (x,)))(X_S),
        "jacfwd_vector": lambda: api.jacfwd(fv)(X_V, Y_V),
        # Reverse over forward: the forward mode meets the call first.
        "jacrev_jacfwd": lambda: api.jacrev(api.jacfwd(f))(X_S),
        # The grad's function closes over the jvp's primal: the call is on a
        # value forward mode differentiates, outside the reverse pass.
        "jvp_closure": lambda: api.jvp(lambda x: api.grad(lambda y: f(x) * y)(X_S),
                                       (X_S,), (X_S,)),
    }


@pytest.mark.parametrize("name", sorted(_raising(jax)))
def test_forward_mode_of_custom_vjp_still_raises(name):
    with pytest.raises(Exception) as theirs:
        _raising(jax)[name]()
    with pytest.raises(type(theirs.value)) as ours:
        _raising(mlax)[name]()
    assert type(ours.value) is type(theirs.value)
    assert "can't apply forward-mode autodiff (jvp) to a custom_vjp function." in str(ours.value)
    assert "can't apply forward-mode autodiff (jvp) to a custom_vjp function." in str(theirs.value)

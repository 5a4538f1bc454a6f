"""When mlax calls the Python functions of a custom_vjp / custom_jvp (the
function, fwd, bwd, the jvp rule): exactly when and as often as JAX does,
eagerly and under jit / grad / vmap. Each program runs on mlax and on JAX
and logs its calls; the logs, values, dtypes and weak types must agree."""
from functools import partial

import numpy as np
import pytest

import jax
import jax.numpy as jnp

import mlax
import mlax.numpy as mnp
from _helpers import run_logged

LIBS = {"mlax": (mlax, mnp), "jax": (jax, jnp)}


def sin_vjp(lib, np_, log):
    @lib.custom_vjp
    def h(x):
        log.append("prim")
        return np_.sin(x)

    def fwd(x):
        log.append("fwd")
        return np_.sin(x), np_.cos(x)

    def bwd(r, g):
        log.append("bwd")
        return (r * g,)
    h.defvjp(fwd, bwd)
    return h


def sin_jvp(lib, np_, log):
    @lib.custom_jvp
    def h(x):
        log.append("prim")
        return np_.sin(x)

    @h.defjvp
    def rule(primals, tangents):
        log.append("jvp")
        return np_.sin(primals[0]), np_.cos(primals[0]) * tangents[0]
    return h


def scale_nondiff(lib, np_, log):
    """nondiff_argnums: a Python callable and a power."""
    @partial(lib.custom_vjp, nondiff_argnums=(0, 2))
    def h(f, x, n):
        log.append("prim")
        return f(x) ** n

    def fwd(f, x, n):
        log.append("fwd")
        return f(x) ** n, (x, {"n": n})

    def bwd(f, n, res, g):
        log.append("bwd")
        x, extra = res
        return (g * extra["n"] * 2.0 * x,)
    h.defvjp(fwd, bwd)
    return lambda x: h(lambda v: v * v, x, 3)


def residual_tree(lib, np_, log):
    """A custom_vjp with pytree arguments, outputs and residuals, inside a
    larger function."""
    @lib.custom_vjp
    def h(p):
        log.append("prim")
        return {"s": np_.sin(p["a"]) * p["b"], "c": np_.cos(p["a"])}

    def fwd(p):
        log.append("fwd")
        s, c = np_.sin(p["a"]), np_.cos(p["a"])
        return {"s": s * p["b"], "c": c}, ((s, c), {"b": p["b"]})

    def bwd(res, g):
        log.append("bwd")
        (s, c), rest = res
        return ({"a": g["s"] * c * rest["b"] - g["c"] * s, "b": g["s"] * s},)
    h.defvjp(fwd, bwd)

    def f(x):
        y = x * 1.5
        out = h({"a": y, "b": np_.exp(x)})
        return np_.sum(out["s"] * 2.0 + out["c"])
    return f


def vjp_with_aux_and_an_integer(lib, np_, log):
    @lib.custom_vjp
    def h(x, k):
        log.append("prim")
        return np_.sin(x) * k

    def fwd(x, k):
        log.append("fwd")
        return np_.sin(x) * k, (np_.cos(x), k)

    def bwd(res, g):
        log.append("bwd")
        return (res[0] * g * res[1], None)
    h.defvjp(fwd, bwd)
    out, pullback, aux = lib.vjp(lambda x, k: (h(x, k), {"a": x * 2}), np.float32(1.0), 3,
                                 has_aux=True)
    log.append("|")
    return out, aux, pullback(np.float32(1.0))


X3 = np.array([0.3, -0.7, 1.1], np.float32)


def eager_vjp(make, x, ct, twice=True):
    def run(lib, np_, log):
        f = make(lib, np_, log)
        out, pullback = lib.vjp(f, x)
        log.append("|")
        first = pullback(ct)
        if not twice:
            return out, first
        log.append("|")
        return out, first, pullback(ct)
    return run


def program(body):
    def run(lib, np_, log):
        return body(lib, np_, log, sin_vjp(lib, np_, log))
    return run


def jet_program(body):
    def run(lib, np_, log):
        return body(lib, np_, log, sin_jvp(lib, np_, log))
    return run


def jit_twice(lib, np_, log, h):
    g = lib.jit(lib.grad(h))
    first = g(1.0)
    log.append("|")
    return first, g(2.0)


def calls_twice(lib, np_, log, h):
    return lib.grad(lambda x: h(x) * h(2.0 * x))(1.0)


def grad_of_grad(lib, np_, log, h):
    return lib.grad(lib.grad(h))(0.5)


CASES = {
    # custom_vjp
    "vjp": eager_vjp(sin_vjp, 1.0, 1.0),
    "vjp composite": eager_vjp(lambda lib, np_, log: (lambda h: lambda x: h(x) * 2)(
        sin_vjp(lib, np_, log)), 1.0, 1.0),
    "vjp array": eager_vjp(sin_vjp, X3, np.ones(3, np.float32)),
    "vjp nondiff_argnums": eager_vjp(scale_nondiff, 1.5, 1.0),
    "vjp residual pytree": eager_vjp(residual_tree, X3, np.float32(1.0)),
    "vjp has_aux, integer argument": vjp_with_aux_and_an_integer,
    "grad": program(lambda lib, np_, log, h: lib.grad(h)(1.0)),
    "value_and_grad": program(lambda lib, np_, log, h: lib.value_and_grad(h)(1.0)),
    "grad nondiff_argnums": lambda lib, np_, log: lib.grad(scale_nondiff(lib, np_, log))(1.5),
    "grad residual pytree": lambda lib, np_, log: lib.grad(residual_tree(lib, np_, log))(X3),
    "jit(grad) called twice": program(jit_twice),
    "jit": program(lambda lib, np_, log, h: lib.jit(h)(1.0)),
    "vmap": program(lambda lib, np_, log, h: lib.vmap(h)(X3)),
    "eager": program(lambda lib, np_, log, h: h(1.0)),
    "grad, called twice": program(calls_twice),
    "grad, on a constant": program(lambda lib, np_, log, h: lib.grad(lambda x: x * h(2.0))(1.0)),
    "grad, on an argument not differentiated": program(
        lambda lib, np_, log, h: lib.grad(lambda x, y: x * h(y))(1.0, 2.0)),
    "grad, behind stop_gradient": program(
        lambda lib, np_, log, h: lib.grad(lambda x: x * h(lib.lax.stop_gradient(x)))(1.0)),
    "grad of vmap": program(lambda lib, np_, log, h: lib.grad(lambda x: lib.vmap(h)(x).sum())(X3)),
    "vmap of grad": program(lambda lib, np_, log, h: lib.vmap(lib.grad(h))(X3)),
    "grad of jit": program(lambda lib, np_, log, h: lib.grad(lib.jit(h))(1.0)),
    "grad of grad": program(grad_of_grad),
    "grad inside grad, on the outer argument": program(
        lambda lib, np_, log, h: lib.grad(lambda y: lib.grad(lambda x: x * h(y))(1.0))(2.0)),
    # forward over reverse: the forward mode differentiates fwd and bwd
    "hessian": program(lambda lib, np_, log, h: lib.hessian(h)(0.5)),
    "jvp of grad": program(lambda lib, np_, log, h: lib.jvp(lib.grad(h), (0.5,), (2.0,))),
    "jit(jacfwd(grad))": program(lambda lib, np_, log, h: lib.jit(lib.jacfwd(lib.grad(h)))(0.5)),
    "vjp under jit, pullback twice": program(lambda lib, np_, log, h: lib.jit(
        lambda x: (lambda pullback: (pullback(1.0), pullback(2.0)))(lib.vjp(h, x)[1]))(1.0)),
    "vjp under jit": program(lambda lib, np_, log, h: lib.jit(
        lambda x: lib.vjp(h, x)[1](1.0))(1.0)),
    # custom_jvp
    "custom_jvp eager": jet_program(lambda lib, np_, log, h: h(1.0)),
    "custom_jvp jvp": jet_program(lambda lib, np_, log, h: lib.jvp(h, (1.0,), (2.0,))),
    "custom_jvp grad": jet_program(lambda lib, np_, log, h: lib.grad(h)(1.0)),
    "custom_jvp vjp": eager_vjp(sin_jvp, 1.0, 1.0),
    "custom_jvp jit": jet_program(lambda lib, np_, log, h: lib.jit(h)(1.0)),
    "custom_jvp vmap": jet_program(lambda lib, np_, log, h: lib.vmap(h)(X3)),
    "custom_jvp jit(grad) called twice": jet_program(jit_twice),
    "custom_jvp grad, called twice": jet_program(calls_twice),
    "custom_jvp grad, on a constant": jet_program(
        lambda lib, np_, log, h: lib.grad(lambda x: x * h(2.0))(1.0)),
    "custom_jvp grad of vmap": jet_program(
        lambda lib, np_, log, h: lib.grad(lambda x: lib.vmap(h)(x).sum())(X3)),
    "custom_jvp grad of grad": jet_program(grad_of_grad),
    "custom_jvp grad inside grad, on the outer argument": jet_program(
        lambda lib, np_, log, h: lib.grad(lambda y: lib.grad(lambda x: x * h(y))(1.0))(2.0)),
}


def _run(name, which):
    return run_logged(CASES[name], *LIBS[which])


@pytest.mark.parametrize("name", list(CASES))
def test_custom_rules_are_called_as_jax_calls_them(name):
    got_log, got = _run(name, "mlax")
    want_log, want = _run(name, "jax")
    assert got_log == want_log
    got_leaves, got_tree = mlax.tree_util.tree_flatten(got)
    want_leaves, want_tree = jax.tree_util.tree_flatten(want)
    assert len(got_leaves) == len(want_leaves) and str(got_tree) == str(want_tree)
    for g, w in zip(got_leaves, want_leaves):
        if isinstance(w, (int, float)):  # (JAX's bwd on Python scalars): weak typed
            w = jnp.asarray(w)
        assert np.asarray(g).dtype == np.asarray(w).dtype
        if np.asarray(w).dtype == jax.dtypes.float0:
            assert np.shape(g) == np.shape(w)
            continue
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=2e-6, atol=1e-6)
        assert getattr(g, "weak_type", False) == getattr(w, "weak_type", False)


def test_jvp_through_a_custom_vjp_calls_fwd_then_raises_jax_type_error():
    for which in LIBS:
        lib, np_ = LIBS[which]
        log = []
        h = sin_vjp(lib, np_, log)
        with pytest.raises(TypeError, match="can't apply forward-mode autodiff"):
            lib.jvp(h, (1.0,), (1.0,))
        assert log == ["fwd"], which


@pytest.mark.parametrize("kind", ["custom_vjp", "custom_jvp"])
def test_nondiff_argnum_left_to_its_default(kind):
    """nondiff_argnums may name an argument the caller leaves to its
    default: it is at its position (mlax took the argument before it for
    it and differentiated the wrong ones)."""
    def build(api, np_):
        def f(x, y, scale=3.0):
            return np_.sin(x) * y * scale
        if kind == "custom_vjp":
            f = api.custom_vjp(f, nondiff_argnums=(2,))
            f.defvjp(lambda x, y, scale: (f(x, y, scale), (x, y)),
                     lambda scale, res, g: (np_.cos(res[0]) * res[1] * scale * g,
                                            np_.sin(res[0]) * scale * g))
        else:
            f = api.custom_jvp(f, nondiff_argnums=(2,))
            f.defjvp(lambda scale, p, t: (f(*p, scale), (np_.cos(p[0]) * p[1] * t[0]
                                                         + np_.sin(p[0]) * t[1]) * scale))
        return [api.grad(lambda x, y: f(x, y), argnums=(0, 1))(0.5, 2.0),
                api.jit(api.grad(lambda x, y: f(x, y, 0.5), argnums=(0, 1)))(0.5, 2.0)]
    ours, theirs = build(mlax, mnp), build(jax, jnp)
    for a, b in zip(jax.tree.leaves(ours), jax.tree.leaves(theirs)):
        np.testing.assert_allclose(a, b, rtol=1e-6)
    np.testing.assert_allclose(ours[0], (np.cos(0.5) * 2 * 3, np.sin(0.5) * 3), rtol=1e-6)

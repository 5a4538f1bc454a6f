"""lax.reduce with a general computation and several operands (`mlax.reduce`,
a body region), against jax.lax.reduce: values eagerly, under jit and vmap,
derivatives, the result's pytree structure and JAX's errors.

The computations are associative and commutative with the init value an
identity (XLA reduces in any order): `a + b + a*b` (= (1+a)(1+b) - 1,
identity 0) and a variadic argmax over (value, index) pairs, built with
lax.select."""
from __future__ import annotations

import jax
import jax.lax as jlax
import numpy as np
import pytest
from _helpers import jgrad, jvmap, make_input

import mlax
import mlax.lax as lax
import mlax.numpy as mnp


def prodlike(L):
    """(1+a)(1+b) - 1: not one of the monoids lax.reduce has an op for."""
    return lambda a, b: a + b + a * b


def argmax_pairs(L):
    """(value, index) pairs: the larger value, the lower index on ties."""
    def f(a, b):
        (av, ai), (bv, bi) = a, b
        pick_a = L.bitwise_or(L.gt(av, bv), L.bitwise_and(L.eq(av, bv), L.lt(ai, bi)))
        return L.select(pick_a, av, bv), L.select(pick_a, ai, bi)
    return f


def small(shape, dtype, seed):
    """Values whose (1+x) products stay small: [-0.5, 0.5] floats, {-1, 0, 1} ints."""
    x = make_input(shape, np.float32, "any", seed)
    if np.dtype(dtype).kind == "f":
        return (np.tanh(x) / 2).astype(dtype)
    return np.sign(np.round(x)).astype(dtype)


def lowest(dtype):
    return np.array(-np.inf if np.dtype(dtype).kind == "f" else np.iinfo(dtype).min, dtype)


def check_tree(out, expected, rtol=1e-5):
    if isinstance(expected, jax.Array):
        assert isinstance(out, mlax.Array), type(out)
    else:
        assert type(out) is type(expected), (type(out), type(expected))
    leaves, tree = jax.tree_util.tree_flatten(expected)
    got = jax.tree_util.tree_leaves(out, is_leaf=lambda x: isinstance(x, mlax.Array))
    assert len(got) == len(leaves)
    for g, e in zip(got, leaves):
        assert isinstance(g, mlax.Array)
        assert g.shape == e.shape and g.dtype == e.dtype, (g, e)
        np.testing.assert_allclose(np.asarray(g), np.asarray(e), rtol=rtol, atol=1e-6)


@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_non_monoid_computation(dtype):
    x = small((2, 3, 4), dtype, 1)
    zero = np.zeros((), dtype)
    for dims in ((1,), (0, 2), ()):
        expected = jlax.reduce(x, zero, prodlike(jlax), dims)
        check_tree(lax.reduce(x, zero, prodlike(lax), dims), expected)
        f = mlax.jit(lambda a, d=dims: lax.reduce(a, zero, prodlike(lax), d))
        check_tree(f(x), expected)
    # vmap: the batch dimension in front, the reduced dimensions shifted.
    check_tree(mlax.vmap(lambda a: lax.reduce(a, zero, prodlike(lax), (1,)))(x),
               jvmap(lambda a: jlax.reduce(a, zero, prodlike(jlax), (1,)))(x))
    # Python scalar init: weakly typed, as JAX's.
    if dtype == np.float32:
        check_tree(lax.reduce(x, 0.0, prodlike(lax), (0,)),
                   jlax.reduce(x, 0.0, prodlike(jlax), (0,)))


@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_variadic_argmax(dtype):
    x = make_input((3, 5), np.float32, "any", 2)
    x = (x * 3).astype(dtype)
    x[1, 3] = x[1, 1]  # a tie: the lower index wins
    iota = np.broadcast_to(np.arange(5, dtype=np.int32), (3, 5))
    init = (lowest(dtype), np.int32(0))
    for dims, idx in (((1,), iota), ((0,), np.broadcast_to(np.arange(3, dtype=np.int32)[:, None],
                                                             (3, 5)))):
        expected = jlax.reduce((x, idx), init, argmax_pairs(jlax), dims)
        out = lax.reduce((x, idx), init, argmax_pairs(lax), dims)
        check_tree(out, expected)
        np.testing.assert_array_equal(np.asarray(out[1]), np.argmax(x, axis=dims[0]))
        jitted = mlax.jit(lambda a, i, d=dims: lax.reduce((a, i), init, argmax_pairs(lax), d))
        check_tree(jitted(x, idx), expected)
    # vmap with one batched and one unbatched operand.
    xs = np.stack([x, x[::-1]])
    check_tree(mlax.vmap(lambda a: lax.reduce((a, iota), init, argmax_pairs(lax), (1,)))(xs),
               jvmap(lambda a: jlax.reduce((a, iota), init, argmax_pairs(jlax), (1,)))(xs))


def test_result_structure_follows_the_computation():
    x = small((3, 4), np.float32, 3)
    i = np.arange(12, dtype=np.int32).reshape(3, 4)
    z, zi = np.float32(0), np.int32(0)

    def both(L, wrap):
        return lambda a, b: wrap(prodlike(L)(a[0], b[0]), L.add(a[1], b[1]))

    for wrap in (lambda *v: list(v), lambda *v: tuple(v)):
        check_tree(lax.reduce([x, i], [z, zi], both(lax, wrap), (1,)),
                   jlax.reduce([x, i], [z, zi], both(jlax, wrap), (1,)))

    def dicts(L):
        return lambda a, b: {"v": prodlike(L)(a["v"], b["v"]), "i": L.add(a["i"], b["i"])}

    check_tree(lax.reduce({"v": x, "i": i}, {"v": z, "i": zi}, dicts(lax), (0,)),
               jlax.reduce({"v": x, "i": i}, {"v": z, "i": zi}, dicts(jlax), (0,)))
    # A one-tuple of operands whose computation returns a scalar: one array.
    check_tree(lax.reduce((x,), (z,), lambda a, b: prodlike(lax)(a[0], b[0]), (1,)),
               jlax.reduce((x,), (z,), lambda a, b: prodlike(jlax)(a[0], b[0]), (1,)))
    # ... and a one-tuple when it returns one.
    check_tree(lax.reduce((x,), (z,), lambda a, b: (prodlike(lax)(a[0], b[0]),), (1,)),
               jlax.reduce((x,), (z,), lambda a, b: (prodlike(jlax)(a[0], b[0]),), (1,)))
    # A monoid computation keeps its op (and JAX's single-array result).
    check_tree(lax.reduce((x,), (z,), lax.add, (1,)), jlax.reduce((x,), (z,), jlax.add, (1,)))
    ir = mlax.jit(lambda a: lax.reduce(a, z, lax.add, (1,))).lower(x).as_text()
    assert "stablehlo.reduce" in ir


def test_derivatives_match_jax():
    x = small((3, 5), np.float32, 4)
    z = np.float32(0)

    def f(L, R):
        return lambda a: R.sum(L.reduce(a, z, prodlike(L), (1,)) ** 2)

    import jax.numpy as jnp
    np.testing.assert_allclose(np.asarray(mlax.grad(f(lax, mnp))(x)),
                               np.asarray(jgrad(f(jlax, jnp))(x)), rtol=1e-5, atol=1e-6)
    t = small((3, 5), np.float32, 5)
    out, tan = mlax.jvp(lambda a: lax.reduce(a, z, prodlike(lax), (0,)), (x,), (t,))
    jout, jtan = jax.jvp(lambda a: jlax.reduce(a, z, prodlike(jlax), (0,)), (x,), (t,))
    np.testing.assert_allclose(np.asarray(out), np.asarray(jout), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.asarray(tan), np.asarray(jtan), rtol=1e-5, atol=1e-6)
    # Second order: the derivative rules' reduces differentiate again.
    g = lambda L, R: lambda a: R.sum(jax.grad(f(L, R))(a) if L is jlax  # noqa: E731
                                     else mlax.grad(f(L, R))(a))
    np.testing.assert_allclose(np.asarray(mlax.grad(g(lax, mnp))(x)),
                               np.asarray(jgrad(g(jlax, jnp))(x)), rtol=1e-4, atol=1e-5)
    # The value of a variadic argmax: the derivative goes to the chosen
    # element. (JAX fails here: its tree jvp reshapes the int operand's
    # symbolic zero tangent. It is jnp.max's derivative without ties.)
    iota = np.broadcast_to(np.arange(5, dtype=np.int32), (3, 5))
    init = (np.float32(-np.inf), np.int32(0))
    h = lambda a: mnp.sum(lax.reduce((a, iota), init, argmax_pairs(lax), (1,))[0])  # noqa
    np.testing.assert_array_equal(np.asarray(mlax.grad(h)(x)),
                                  np.asarray(jgrad(lambda a: jnp.sum(jnp.max(a, 1)))(x)))
    # Under vmap too.
    np.testing.assert_allclose(np.asarray(mlax.vmap(mlax.grad(f(lax, mnp)))(np.stack([x, -x]))),
                               np.asarray(jvmap(jax.grad(f(jlax, jnp)))(np.stack([x, -x]))),
                               rtol=1e-5, atol=1e-6)


def test_errors_as_jax():
    x = np.ones((2, 3), np.float32)
    i = np.ones((2, 3), np.int32)
    z, zi = np.float32(0), np.int32(0)
    pair = lambda a, b: (a[0] + b[0], a[1] + b[1])  # noqa: E731
    cases = [
        (ValueError, "same tree structure", lambda L: L.reduce((x, i), [z, zi], pair, (1,))),
        (ValueError, "same tree structure", lambda L: L.reduce((x, i), (z,), pair, (1,))),
        (TypeError, "dtypes should match", lambda L: L.reduce((x, i), (z, z), pair, (1,))),
        (TypeError, "dtypes should match",
         lambda L: L.reduce(x, 0, lambda a, b: a + b * 2, (1,))),
        (ValueError, "non-scalar initial value",
         lambda L: L.reduce(x, np.zeros(2, np.float32), lambda a, b: a + b * 2, (1,))),
        (IndexError, "out of bounds", lambda L: L.reduce(x, z, lambda a, b: a + b * 2, (2,))),
        (ValueError, "", lambda L: L.reduce(x, z, lambda a, b: a + b * 2, (-1,))),
        (ValueError, "", lambda L: L.reduce(x, z, lambda a, b: a + b * 2, (1, 1))),
        (ValueError, "", lambda L: L.reduce((x, i[:1]), (z, zi), pair, (1,))),
        (ValueError, "", lambda L: L.reduce((x, i), (z, zi), lambda a, b: (a[0] + b[0],), (1,))),
        (ValueError, "", lambda L: L.reduce(x, z, lambda a, b: (a + b, a), (1,))),
        (ValueError, "", lambda L: L.reduce(x, z, lambda a, b: L.convert_element_type(
            a + b, np.int32), (1,))),
    ]
    for cls, words, fn in cases:
        with pytest.raises(cls, match=words or None):
            fn(jlax)
        with pytest.raises(cls, match=words or None):
            fn(lax)
    # A computation closing over a traced value: NotImplementedError, as JAX.
    for L, jit in ((jlax, jax.jit), (lax, mlax.jit)):
        with pytest.raises(NotImplementedError, match="can't close over Tracers"):
            jit(lambda a, y: L.reduce(a, z, lambda p, q: p + q * y, (1,)))(x, np.float32(2))
    # Batched init values and a nonzero init tangent are not implemented (JAX too).
    for L, vmap in ((jlax, jax.vmap), (lax, mlax.vmap)):
        with pytest.raises(NotImplementedError):
            vmap(lambda c: L.reduce(x, c, lambda p, q: p + q * 2, (1,)))(np.zeros(2, np.float32))
    for L, jvp in ((jlax, jax.jvp), (lax, mlax.jvp)):
        with pytest.raises(NotImplementedError, match="non-zero tangents for initial values"):
            jvp(lambda c: L.reduce(x, c, lambda p, q: p + q * 2, (1,)), (z,), (np.float32(1),))
    # Reverse mode with respect to an init value: the same error, not a zero.
    for lib, L in ((jax, jlax), (mlax, lax)):
        with pytest.raises(NotImplementedError, match="non-zero tangents for initial values"):
            lib.grad(lambda c: L.reduce(x, c, lambda p, q: p + q * 2, (1,)).sum())(z)


def test_control_flow_in_the_computation():
    x = (np.arange(1, 7, dtype=np.float32) / 10).reshape(2, 3)
    z = np.float32(0)

    # A cond compiles (XLA's CPU compiler crashes on it in JAX).
    def with_cond(a, b):
        return lax.cond(a > b, lambda u, v: u + v + u * v, lambda u, v: v + u + v * u, a, b)

    np.testing.assert_allclose(np.asarray(lax.reduce(x, z, with_cond, (1,))),
                               np.asarray(jlax.reduce(x, z, prodlike(jlax), (1,))), rtol=1e-6)
    # A loop is a clean error, not XLA's abort.
    def with_loop(a, b):
        return lax.fori_loop(0, 2, lambda i, c: c, a) + b

    with pytest.raises(NotImplementedError, match="contains a loop"):
        lax.reduce(x, z, with_loop, (1,))

"""mlax.experimental.jet against the installed JAX's jax.experimental.jet:
the Taylor coefficients of elementwise functions, matmuls, reductions and an
MLP, orders 1 to 4, factorial-scaled or not (jet2), pytree outputs, integer
and constant outputs, eagerly and under jit, against NumPy's closed forms
where they are short, and the errors JAX raises for malformed series.
"""
from __future__ import annotations

import jax
import jax.experimental.jet as jjet
import jax.numpy as jnp
import numpy as np
import pytest

import mlax
import mlax.experimental.jet as mjet
import mlax.numpy as mnp

from _helpers import assert_tree_like

RNG = np.random.default_rng(0)
X = RNG.uniform(0.5, 1.5, (3,)).astype(np.float32)
W = RNG.normal(size=(4, 3)).astype(np.float32)
B = RNG.normal(size=(4,)).astype(np.float32)
V = RNG.normal(size=(2, 4)).astype(np.float32)


def _series(shape, order, seed):
    rng = np.random.default_rng(seed)
    return [rng.normal(size=shape).astype(np.float32) * 0.5 for _ in range(order)]


# Each takes the numpy module and returns a function of arrays.
def _elementwise(np_, nn):
    return lambda x: np_.exp(np_.sin(x)) * np_.tanh(x) + np_.log(x) / (1.0 + nn.sigmoid(x))


def _power_quotient(np_, nn):
    return lambda x, y: x ** y + (x ** 2.5) / (2.0 + y)


def _mlp(np_, nn):
    # Two layers with a reduction; a pytree output (a dict and a tuple).
    def f(w, b, v, x):
        h = np_.tanh(w @ x + b)
        out = v @ h
        return {"out": out, "stats": (np_.sum(out ** 2), np_.max(h))}
    return f


_FUNS = {"elementwise": (_elementwise, (X,)),
         "power_quotient": (_power_quotient, (X, X[::-1] + 0.25)),
         "mlp": (_mlp, (W, B, V, X))}


def _run_both(make, primals, series, mode, **kw):
    def ours(*args):
        n = len(primals)
        return mjet.jet(make(mnp, mlax.nn), tuple(args[:n]),
                        tuple(tuple(s) for s in args[n:]), **kw)

    def theirs(*args):
        n = len(primals)
        return jjet.jet(make(jnp, jax.nn), tuple(args[:n]),
                        tuple(tuple(s) for s in args[n:]), **kw)
    args = tuple(primals) + tuple(series)
    got = ours(*args) if mode == "eager" else mlax.jit(ours)(*args)
    return got, jax.jit(theirs)(*args)


# Under jit at orders 1 to 4 (one function per order; each order doubles the
# compiled program), eagerly once.
@pytest.mark.parametrize("name,order,mode", [
    ("elementwise", 1, "eager"), ("elementwise", 4, "jit"), ("power_quotient", 2, "jit"),
    ("mlp", 1, "jit"), ("mlp", 3, "jit")])
def test_jet_matches_jax(name, order, mode):
    make, primals = _FUNS[name]
    series = [_series(np.shape(p), order, seed) for seed, p in enumerate(primals)]
    got, want = _run_both(make, primals, series, mode)
    # Higher terms carry more rounding: products of up to 4 first-order terms.
    assert_tree_like(got, want, rtol=2e-4, atol=2e-4)


@pytest.mark.parametrize("order", [2, 3])
def test_jet2_non_factorial_scaled(order):
    make, primals = _FUNS["elementwise"]
    series = [_series(X.shape, order, 7)]
    got, want = _run_both(make, primals, series, "jit", factorial_scaled=False)
    assert_tree_like(got, want, rtol=2e-4, atol=2e-4)
    f = make(mnp, mlax.nn)
    got2 = mlax.jit(lambda x, s: mjet.jet2(f, (x,), (s,)))(X, tuple(series[0]))
    assert_tree_like(got2, want, rtol=2e-4, atol=2e-4)


def test_closed_form_composition():
    """sin(h(z)) with h's series (h0, h1, h2): Faa di Bruno's formula."""
    h0, h1, h2, h3 = X, X ** 2, -X, 0.5 * X
    f0, (f1, f2, f3) = mjet.jet(mnp.sin, (h0,), ((h1, h2, h3),))
    s, c = np.sin(h0), np.cos(h0)
    np.testing.assert_allclose(np.asarray(f0), s, rtol=1e-6)
    np.testing.assert_allclose(np.asarray(f1), c * h1, rtol=1e-5)
    np.testing.assert_allclose(np.asarray(f2), -s * h1 ** 2 + c * h2, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.asarray(f3), -c * h1 ** 3 - 3 * s * h1 * h2 + c * h3,
                               rtol=1e-5, atol=1e-5)


def test_python_scalars_and_a_matmul_of_two_primals():
    """The docstring's example (Python floats) and a product of two inputs
    whose series both move (its third derivative comes from cross terms)."""
    got = mjet.jet(mnp.sin, (0.5 ** 3.,), ((3. * 0.5 ** 2., 6. * 0.5),))
    want = jjet.jet(jnp.sin, (0.5 ** 3.,), ((3. * 0.5 ** 2., 6. * 0.5),))
    assert_tree_like(got, want, rtol=1e-6, atol=1e-6)
    a, b = W, W.T.copy()
    sa, sb = _series(a.shape, 3, 1), _series(b.shape, 3, 2)
    got = mlax.jit(lambda p, q, sa, sb: mjet.jet(lambda p, q: mnp.sum(p @ q, axis=0), (p, q),
                                                   (sa, sb)))(a, b, sa, sb)
    want = jjet.jet(lambda p, q: jnp.sum(p @ q, axis=0), (a, b), (sa, sb))
    assert_tree_like(got, want, rtol=1e-5, atol=1e-5)


def test_integer_and_constant_outputs():
    """Outputs with no series (an integer one, one that ignores the input)
    get zero terms, as JAX's."""
    def make(np_):
        return lambda x: (np_.sin(x), x > 1.0, np_.ones(2))
    s = _series(X.shape, 2, 3)
    got = mlax.jit(lambda x, s1, s2: mjet.jet(make(mnp), (x,), ((s1, s2),)))(X, *s)
    want = jjet.jet(make(jnp), (X,), (tuple(s),))
    assert_tree_like(got, want, rtol=1e-5, atol=1e-5)


def test_order_zero():
    got = mjet.jet(mnp.cos, (X,), ((),))
    want = jjet.jet(jnp.cos, (X,), ((),))
    assert_tree_like(got, want)


def test_jet_under_grad_and_vmap():
    """jet's terms are differentiable and batchable (JAX's too)."""
    def make(np_, jet_mod):
        return lambda x: jet_mod.jet(np_.tanh, (x,), ((np_.ones_like(x), x),))[1][1]

    g = mlax.grad(lambda x: mnp.sum(make(mnp, mjet)(x)))(X)
    want_g = jax.grad(lambda x: jnp.sum(make(jnp, jjet)(x)))(X)
    assert_tree_like(g, want_g, rtol=1e-5, atol=1e-5)
    v = mlax.vmap(make(mnp, mjet))(np.stack([X, X * 0.5]))
    want_v = jax.vmap(make(jnp, jjet))(np.stack([X, X * 0.5]))
    assert_tree_like(v, want_v, rtol=1e-5, atol=1e-5)


def _raises_like(call_ours, call_theirs, same_message=True):
    with pytest.raises(Exception) as theirs:
        call_theirs()
    with pytest.raises(type(theirs.value)) as ours:
        call_ours()
    if same_message:
        assert str(ours.value) == str(theirs.value)
    else:
        assert "jet" in str(ours.value)


@pytest.mark.parametrize("case", ["lengths", "pytree_primal", "pytree_term", "zero_term",
                                  "zero_series"])
def test_errors_as_jax(case):
    x = np.float32(1.0)
    primals, series = {
        "lengths": lambda m: ((x, x), ((x,), (x, x))),
        "pytree_primal": lambda m: (((x, x),), ((x,),)),
        "pytree_term": lambda m: ((x,), (((x, x),),)),
        "zero_term": lambda m: ((x,), ((m.zero_term,),)),
        "zero_series": lambda m: ((x,), (m.zero_series,)),
    }[case](mjet)
    j_primals, j_series = {
        "zero_term": ((x,), ((jjet.zero_term,),)),
        "zero_series": ((x,), (jjet.zero_series,)),
    }.get(case, (primals, series))
    # (JAX's message for a zero_term is an accident of its code; mlax's says what is wrong.)
    _raises_like(lambda: mjet.jet(lambda *a: a[0], primals, series),
                 lambda: jjet.jet(lambda *a: a[0], j_primals, j_series),
                 same_message=case != "zero_term")


def test_fact_and_symbolic_zeros():
    for n in range(6):
        assert_tree_like(mjet.fact(n), jjet.fact(n), rtol=0, atol=0)
    # Symbolic zeros are pytrees without leaves, as JAX's.
    assert mlax.tree_util.tree_leaves(mjet.zero_series) == []
    assert mlax.tree_util.tree_map(lambda l: l, mjet.zero_term) is mjet.zero_term
    assert isinstance(mjet.zero_series, mjet.ZeroSeries)
    assert isinstance(mjet.zero_term, mjet.ZeroTerm)


def test_term_of_another_shape():
    """A term that does not broadcast against its primal: JAX's TypeError
    (a term that broadcasts, like a scalar, is accepted by both)."""
    with pytest.raises(TypeError):
        jjet.jet(jnp.sin, (X,), ((np.ones(2, np.float32),),))
    with pytest.raises(TypeError, match="incompatible shapes"):
        mjet.jet(mnp.sin, (X,), ((np.ones(2, np.float32),),))
    got = mjet.jet(mnp.sin, (X,), ((np.float32(1.0),),))
    assert_tree_like(got, jjet.jet(jnp.sin, (X,), ((np.float32(1.0),),)), rtol=1e-6, atol=1e-6)

"""mlax.custom_batching (custom_vmap, sequential_vmap) against
jax.custom_batching: the rule runs under vmap (its marker value shows it,
and the in_batched / axis_size it gets are JAX's), nested vmaps, in_axes /
out_axes / axis_size, jit, grad; the plain function runs otherwise."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mlax
import mlax.numpy as mnp
from jax import custom_batching as jcb
from mlax import custom_batching as mcb


def _make(cb, np_, log):
    @cb.custom_vmap
    def f(x, y):
        return np_.sin(x) + y[0] * y[1]

    @f.def_vmap
    def rule(axis_size, in_batched, x, y):
        log.append((axis_size, in_batched))
        # observably different from batching f: a marker added
        return np_.sin(x) + y[0] * y[1] + 1000.0, in_batched[0] or any(in_batched[1])
    return f


X = np.linspace(-1, 1, 6, dtype=np.float32)
Y0 = np.arange(6, dtype=np.float32)
Y1 = np.float32(2.5)

CASES = {
    "all_batched": (dict(in_axes=(0, (0, 0))), (X, (Y0, Y0))),
    "some_unbatched": (dict(in_axes=(None, (0, None))), (Y1, (Y0, Y1))),
    "axis1": (dict(in_axes=(1, (None, None))), (np.stack([X, X]), (Y1, Y1))),
    "out_axes1": (dict(in_axes=(0, (None, None)), out_axes=1), (np.stack([X, X]), (Y1, Y1))),
    "none_batched": (dict(in_axes=(None, (None, None)), axis_size=4), (Y1, (Y1, Y1))),
}


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("jit", [False, True])
def test_rule_runs_under_vmap(case, jit):
    kw, args = CASES[case]
    jlog, mlog = [], []
    jv = jax.vmap(_make(jcb, jnp, jlog), **kw)
    mv = mlax.vmap(_make(mcb, mnp, mlog), **kw)
    if jit:
        jv, mv = jax.jit(jv), mlax.jit(mv)
    want, got = jv(*args), mv(*args)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-6)
    assert mlog == jlog  # same axis_size and in_batched (none when nothing is batched)
    if case != "none_batched":
        assert np.all(np.asarray(got) > 500)  # the marker: the rule ran


def test_plain_function_outside_vmap():
    jlog, mlog = [], []
    for x in (1.5, X):
        want = _make(jcb, jnp, jlog)(x, (Y0, Y1))
        got = _make(mcb, mnp, mlog)(x, (Y0, Y1))
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-6)
        got = mlax.jit(_make(mcb, mnp, mlog))(x, (Y0, Y1))
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-6)
    assert mlog == jlog == []


def test_nested_vmap_and_surrounding_code():
    jlog, mlog = [], []
    jf, mf = _make(jcb, jnp, jlog), _make(mcb, mnp, mlog)

    def g(np_, f):
        return lambda x, y: np_.cos(f(x * 2.0, y=(y, x))) * 3.0

    xs = np.linspace(0, 1, 6, dtype=np.float32).reshape(2, 3)
    ys = np.linspace(1, 2, 6, dtype=np.float32).reshape(2, 3)
    want = jax.vmap(jax.vmap(g(jnp, jf)))(xs, ys)
    got = mlax.vmap(mlax.vmap(g(mnp, mf)))(xs, ys)
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-5)
    assert mlog == jlog
    # in the outer vmap only
    want = jax.vmap(lambda x: jax.vmap(lambda y: g(jnp, jf)(x[0], y))(x))(xs)
    got = mlax.vmap(lambda x: mlax.vmap(lambda y: g(mnp, mf)(x[0], y))(x))(xs)
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-5)
    assert mlog == jlog


def test_two_calls_and_recursive_rule():
    def make(cb, np_, log):
        @cb.custom_vmap
        def f(x):
            return x * 2.0

        @f.def_vmap
        def rule(axis_size, in_batched, x):
            log.append((axis_size, in_batched))
            # the rule calls the function again, as in JAX's docs
            return f(x) + np_.arange(axis_size, dtype=x.dtype).reshape(
                (axis_size,) + (1,) * (x.ndim - 1)), True

        return lambda x: f(np_.sin(f(x))) - x
    jlog, mlog = [], []
    xs = np.linspace(0, 1, 8, dtype=np.float32).reshape(2, 4)
    want = jax.vmap(jax.vmap(make(jcb, jnp, jlog)))(xs)
    got = mlax.vmap(mlax.vmap(make(mcb, mnp, mlog)))(xs)
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-6)
    # mlax traces a rule again when an enclosing vmap runs one of its own
    # (each vmap retraces its function after running a rule): the same calls,
    # possibly more often.
    assert set(map(repr, mlog)) == set(map(repr, jlog)) and len(jlog) == 4


def test_grad_through_vmap_of_rule():
    def make(cb, np_):
        @cb.custom_vmap
        def h(x):
            return x

        h.def_vmap(lambda n, b, x: (x * 5.0, True))
        return lambda x: np_.sum(jax.vmap(h)(x) if np_ is jnp else mlax.vmap(h)(x))
    x = np.ones(3, np.float32)
    np.testing.assert_allclose(np.asarray(mlax.grad(make(mcb, mnp))(x)),
                               np.asarray(jax.grad(make(jcb, jnp))(x)))
    np.testing.assert_allclose(np.asarray(mlax.jit(mlax.grad(make(mcb, mnp)))(x)),
                               np.asarray(jax.grad(make(jcb, jnp))(x)))


def test_errors():
    for cb in (jcb, mcb):
        g = cb.custom_vmap(lambda x: x)
        with pytest.raises(AttributeError, match="No batching rule defined"):
            g(1.0)
    jh, mh = jcb.custom_vmap(lambda x: x), mcb.custom_vmap(lambda x: x)
    jh.def_vmap(lambda n, b, x: (x, [True]))
    mh.def_vmap(lambda n, b, x: (x, [True]))
    with pytest.raises(ValueError, match="do not match"):
        jax.vmap(jh)(jnp.ones(3))
    with pytest.raises(ValueError, match="do not match"):
        mlax.vmap(mh)(mnp.ones(3))


def test_unbatched_rule_output():
    jh, mh = jcb.custom_vmap(lambda x: x), mcb.custom_vmap(lambda x: x)
    jh.def_vmap(lambda n, b, x: (x[0] + 7.0, False))
    mh.def_vmap(lambda n, b, x: (x[0] + 7.0, False))
    x = np.arange(3, dtype=np.float32)
    np.testing.assert_array_equal(np.asarray(mlax.vmap(mh)(x)), np.asarray(jax.vmap(jh)(x)))


def test_sequential_vmap():
    calls = {"j": 0, "m": 0}

    def make(np_, key):
        def f(x, w):
            calls[key] += 1
            return np_.sum(x * w) + x[::-1]
        return f
    jf = jcb.sequential_vmap(make(jnp, "j"))
    mf = mcb.sequential_vmap(make(mnp, "m"))
    xs = np.linspace(0, 1, 12, dtype=np.float32).reshape(4, 3)
    w = np.array([1.0, -2.0, 0.5], np.float32)
    for kw, args in ((dict(in_axes=(0, None)), (xs, w)), (dict(), (xs, xs))):
        want = jax.vmap(jf, **kw)(*args)
        got = mlax.vmap(mf, **kw)(*args)
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-6)
        got = mlax.jit(mlax.vmap(mf, **kw))(*args)
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-6)
    np.testing.assert_allclose(np.asarray(mf(xs[0], w)), np.asarray(jf(xs[0], w)), rtol=1e-6)
    # the batched program is a loop: one scan, f traced once per vmap
    hlo = mlax.jit(mlax.vmap(mf, in_axes=(0, None))).lower(xs, w).as_text()
    assert "stablehlo.while" in hlo


def test_rule_runs_through_jit_inside_vmap():
    def make(cb):
        @cb.custom_vmap
        def f(x):
            return x * 3.0

        f.def_vmap(lambda n, b, x: (x * 3.0 + 100.0, True))
        return f

    def nested(j, f):
        inner = j.jit(f)
        return j.jit(lambda x: inner(x * 2.0) + inner(x))

    x = np.linspace(0, 1, 4, dtype=np.float32)
    for wrap in (lambda j, f: j.jit(f), nested):
        want = jax.vmap(wrap(jax, make(jcb)))(x)
        got = mlax.vmap(wrap(mlax, make(mcb)))(x)
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-6)
        got = mlax.jit(mlax.vmap(wrap(mlax, make(mcb))))(x)
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-6)
    # the same jitted function traced outside the vmap first, in one program
    jf, mf = jax.jit(make(jcb)), mlax.jit(make(mcb))
    want = jax.jit(lambda x: jf(x) + jax.vmap(jf)(x))(x)
    got = mlax.jit(lambda x: mf(x) + mlax.vmap(mf)(x))(x)
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-6)

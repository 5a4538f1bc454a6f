"""mlax.core against jax.core: abstract values, tracers, evaluation
contexts and eval_jaxpr of what make_jaxpr gives."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mlax
import mlax.numpy as mnp


@pytest.mark.parametrize("shape,dtype,weak", [((2, 3), np.float32, False), ((), np.int32, True),
                                              ((4,), jnp.bfloat16, False)])
def test_shaped_array_prints_and_updates_as_jax(shape, dtype, weak):
    ours, theirs = mlax.core.ShapedArray(shape, dtype, weak), jax.core.ShapedArray(shape, dtype,
                                                                                  weak)
    assert (repr(ours), str(ours)) == (repr(theirs), str(theirs))
    for a, b in [(ours.strip_weak_type(), theirs.strip_weak_type()),
                 (ours.update_weak_type(True), theirs.update_weak_type(True)),
                 (ours.update(shape=(5,)), theirs.update(shape=(5,)))]:
        assert (repr(a), a.shape, a.dtype, a.weak_type) == (repr(b), b.shape, b.dtype, b.weak_type)
    assert isinstance(ours, mlax.core.AbstractValue)
    assert ours == mlax.core.ShapedArray(shape, dtype, weak) and ours != ours.update(shape=(7,))


def test_typeof_and_tracer_checks_as_jax():
    def seen(core, np_):
        kinds = []

        def f(x):
            kinds.append((isinstance(x, core.Tracer), str(core_typeof(x))))
            return (x * 2).sum()
        core_typeof = mlax.typeof if core is mlax.core else jax.typeof
        x = np_.ones(3)
        f(x)
        (mlax if core is mlax.core else jax).jit(f)(x)
        (mlax if core is mlax.core else jax).grad(f)(x)
        (mlax if core is mlax.core else jax).vmap(f)(np_.ones((2, 3)))
        return kinds
    assert seen(mlax.core, mnp) == seen(jax.core, jnp)


def _pair(np_):
    def f(x, y):
        return np_.sin(x) * y + np_.array([1., 2., 3.]), x.sum()
    return f


X, Y = np.arange(3.0, dtype=np.float32), np.float32(2.0)
_CLOSED = {}


def _closed(lib):
    if lib not in _CLOSED:
        _CLOSED[lib] = (mlax.make_jaxpr(_pair(mnp))(X, Y) if lib == "mlax"
                        else jax.make_jaxpr(_pair(jnp))(X, Y))
    return _CLOSED[lib]


@pytest.mark.parametrize("how", ["eager", "jit", "grad", "vmap"])
def test_eval_jaxpr_matches_jax(how):
    results = []
    for lib, api, core in [("mlax", mlax, mlax.core), ("jax", jax, jax.core)]:
        closed = _closed(lib)

        def run(x, y):
            return core.eval_jaxpr(closed.jaxpr, closed.consts, x, y)
        if how == "eager":
            out = run(X, Y)
        elif how == "jit":
            out = api.jit(lambda x, y: run(x, y)[0] * run(x, y)[1])(X, Y)
        elif how == "grad":
            out = api.grad(lambda x, y: run(x, y)[0].sum() * y, argnums=(0, 1))(X, Y)
        else:
            out = api.vmap(run, in_axes=(0, None))(np.stack([X, X + 1]), Y)
        results.append(jax.tree.map(np.asarray, list(out) if isinstance(out, tuple) else out))
    ours, theirs = results
    assert jax.tree.structure(ours) == jax.tree.structure(theirs)
    for a, b in zip(jax.tree.leaves(ours), jax.tree.leaves(theirs)):
        assert a.dtype == b.dtype
        np.testing.assert_allclose(a, b, rtol=1e-6)


def test_eval_jaxpr_runs_the_frozen_program():
    """The function is not called again: a jaxpr keeps what it traced."""
    scale = [2.0]
    closed = mlax.make_jaxpr(lambda x: x * scale[0])(X)
    scale[0] = 5.0
    np.testing.assert_allclose(mlax.core.eval_jaxpr(closed.jaxpr, closed.consts, X)[0], X * 2)


def test_eval_jaxpr_errors():
    closed = _closed("mlax")
    with pytest.raises(TypeError, match="takes 2 arguments"):
        mlax.core.eval_jaxpr(closed.jaxpr, closed.consts, X)
    with pytest.raises(TypeError, match="argument 0 is f32\\[4\\]"):
        mlax.core.eval_jaxpr(closed.jaxpr, closed.consts, np.ones(4, np.float32), Y)
    with pytest.raises(NotImplementedError, match="its constants"):
        mlax.core.eval_jaxpr(closed.jaxpr, [np.zeros(3, np.float32)], X, Y)
    with pytest.raises(TypeError, match="expects a Jaxpr"):
        mlax.core.eval_jaxpr(closed, closed.consts, X, Y)
    nested = mlax.make_jaxpr(lambda x: mlax.lax.cond(x > 0, mnp.sin, mnp.cos, x))(1.0)
    branch = nested.eqns[-1].params["branches"][0]
    inner = getattr(branch, "jaxpr", branch)
    with pytest.raises(NotImplementedError, match="outermost"):
        mlax.core.eval_jaxpr(inner, [], 1.0)


def test_eval_context_runs_eagerly_inside_jit():
    for api, core, np_ in [(mlax, mlax.core, mnp), (jax, jax.core, jnp)]:
        kinds = []

        def f(x):
            with core.eval_context():
                y = np_.ones(3) * 2
            kinds.append(isinstance(y, core.Tracer))
            return x + y
        np.testing.assert_allclose(api.jit(f)(np.ones(3, np.float32)), [3, 3, 3])
        assert kinds == [False]


def test_dims_and_aliases():
    for a, b in [(3, 4), (np.int64(7), 2), (0, 0)]:
        assert mlax.core.max_dim(a, b) == jax.core.max_dim(a, b)
        assert mlax.core.min_dim(a, b) == jax.core.min_dim(a, b)
    with pytest.raises(TypeError, match="max_dim"):
        mlax.core.max_dim(2.5, 3)
    assert mlax.core.ensure_compile_time_eval is mlax.ensure_compile_time_eval
    assert mlax.core.ParamDict == jax.core.ParamDict

"""mlax.example_libraries (optimizers, stax) against JAX's: the same
networks, initialized from the same key and trained a few steps with each
optimizer, give JAX's parameters and losses (to float tolerance)."""
from __future__ import annotations

import jax
import jax.example_libraries.optimizers as jopt
import jax.example_libraries.stax as jstax
import jax.numpy as jnp
import numpy as np
import pytest

import mlax
import mlax.numpy as mnp
from mlax.example_libraries import optimizers as mopt
from mlax.example_libraries import stax as mstax

TOL = dict(rtol=2e-5, atol=2e-5)

_rng = np.random.default_rng(0)
X_MLP = _rng.normal(size=(8, 5)).astype(np.float32)
X_IMG = _rng.normal(size=(4, 8, 8, 2)).astype(np.float32)
Y = np.eye(3, dtype=np.float32)[_rng.integers(0, 3, 8)]
Y_IMG = Y[:4]


def _mlp(stax):
    return stax.serial(stax.Dense(8), stax.Relu, stax.Dense(3), stax.LogSoftmax)


def _cnn(stax):
    return stax.serial(
        stax.Conv(4, (3, 3), padding="SAME"), stax.BatchNorm(), stax.Relu,
        stax.MaxPool((2, 2), strides=(2, 2)),
        stax.FanOut(2), stax.parallel(stax.Conv(4, (1, 1)), stax.Identity), stax.FanInSum,
        stax.FanOut(2), stax.parallel(stax.AvgPool((2, 2)), stax.SumPool((2, 2))),
        stax.FanInConcat(), stax.Gelu, stax.Flatten, stax.Dense(3), stax.LogSoftmax)


_OPTS = {
    "sgd": lambda o: o.sgd(o.piecewise_constant([1], [0.1, 0.05])),
    "momentum": lambda o: o.momentum(0.1, 0.9),
    "nesterov": lambda o: o.nesterov(0.1, 0.9),
    "adagrad": lambda o: o.adagrad(0.1),
    "rmsprop": lambda o: o.rmsprop(0.01),
    "rmsprop_momentum": lambda o: o.rmsprop_momentum(0.01),
    "adam": lambda o: o.adam(o.exponential_decay(0.01, 2, 0.5)),
    "adamax": lambda o: o.adamax(o.inverse_time_decay(0.01, 2, 0.5, staircase=True)),
    "sm3": lambda o: o.sm3(o.polynomial_decay(0.1, 3, 0.01)),
}


def _train(lib, stax, opt_lib, opts, net, x, y, steps):
    """{optimizer: (losses, final params)} after `steps` steps of each
    optimizer on cross-entropy, every optimizer's step in one jitted program.
    (sm3's state holds the parameter's shape as Python ints: those stay out of
    the jitted arguments, as they must in JAX too.)"""
    init_fun, apply_fun = net(stax)
    params = lib.jit(lambda key: init_fun(key, x.shape)[1])(lib.random.PRNGKey(1))
    opts = {name: _OPTS[name](opt_lib) for name in opts}

    def loss(p):
        return -(apply_fun(p, x) * y).sum(-1).mean()

    states = {name: o.init_fn(params) for name, o in opts.items()}
    leaves, treedef = jax.tree.flatten(states)
    static = {k: v for k, v in enumerate(leaves) if isinstance(v, int)}
    dyn = [v for k, v in enumerate(leaves) if k not in static]

    def merge(dyn):
        it = iter(dyn)
        return jax.tree.unflatten(treedef, [static[k] if k in static else next(it)
                                            for k in range(len(leaves))])

    @lib.jit
    def step(i, dyn):
        states, values = merge(dyn), {}
        for name, o in opts.items():
            values[name], g = lib.value_and_grad(loss)(o.params_fn(states[name]))
            states[name] = o.update_fn(i, g, states[name])
        new = jax.tree.leaves(states)
        return values, [v for k, v in enumerate(new) if k not in static]

    losses = {name: [] for name in opts}
    for i in range(steps):
        values, dyn = step(i, dyn)
        for name in opts:
            losses[name].append(float(values[name]))
    states = merge(dyn)
    return {name: (losses[name], o.params_fn(states[name])) for name, o in opts.items()}


def _compare(ours, theirs, **tol):
    (l1, p1), (l2, p2) = ours, theirs
    np.testing.assert_allclose(l1, l2, **(tol or TOL))
    assert jax.tree.structure(jax.tree.map(np.asarray, p1)) == jax.tree.structure(p2)
    for a, b in zip(jax.tree.leaves(p1), jax.tree.leaves(p2)):
        assert a.shape == b.shape and a.dtype == b.dtype
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), **(tol or TOL))


def test_mlp_training_matches_jax_with_each_optimizer():
    ours = _train(mlax, mstax, mopt, _OPTS, _mlp, X_MLP, Y, 3)
    theirs = _train(jax, jstax, jopt, _OPTS, _mlp, X_MLP, Y, 3)
    for name in _OPTS:
        _compare(ours[name], theirs[name])


def test_cnn_training_matches_jax():
    ours = _train(mlax, mstax, mopt, ["momentum"], _cnn, X_IMG, Y_IMG, 2)["momentum"]
    theirs = _train(jax, jstax, jopt, ["momentum"], _cnn, X_IMG, Y_IMG, 2)["momentum"]
    _compare(ours, theirs, rtol=1e-4, atol=1e-4)


def _transpose_net(stax):
    return stax.serial(stax.ConvTranspose(3, (3, 3), strides=(2, 2)), stax.Elu,
                       stax.Dropout(0.5))


def _init_apply(lib, stax, x):
    init_fun, apply_fun = _transpose_net(stax)
    shape, params = init_fun(lib.random.PRNGKey(0), x.shape)
    out = lib.jit(lambda p, x, k: apply_fun(p, x, rng=k))(params, x, lib.random.PRNGKey(3))
    return shape, out


def test_conv_transpose_and_dropout():
    x = _rng.normal(size=(2, 5, 5, 2)).astype(np.float32)
    (shape, out), (jshape, ref) = _init_apply(mlax, mstax, x), _init_apply(jax, jstax, x)
    assert tuple(shape) == tuple(jshape)
    with pytest.raises(ValueError, match="PRNG key"):
        mstax.Dropout(0.5)[1]((), x)
    assert out.shape == tuple(shape) and out.dtype == ref.dtype
    np.testing.assert_allclose(np.asarray(out), np.asarray(ref), **TOL)


def test_optimizer_utilities():
    tree = {"a": np.array([3.0, 4.0], np.float32), "b": np.float32(12.0)}
    np.testing.assert_allclose(float(mopt.l2_norm(tree)), 13.0, rtol=1e-6)
    clipped = mopt.clip_grads(tree, 1.3)
    np.testing.assert_allclose(np.asarray(clipped["a"]), [0.3, 0.4], rtol=1e-6)
    for i in (0, 2, 5):
        for mk in ("polynomial_decay", "inverse_time_decay"):
            args = (1.0, 4, 0.1) if mk == "polynomial_decay" else (1.0, 4, 0.5)
            np.testing.assert_allclose(np.asarray(getattr(mopt, mk)(*args)(i)),
                                       np.asarray(getattr(jopt, mk)(*args)(i)), rtol=1e-6)
    with pytest.raises(ValueError, match="one shorter"):
        mopt.piecewise_constant([1, 2], [0.1, 0.2])
    # pack / unpack round trip, state layout as JAX's
    opt_init, opt_update, get_params = mopt.adam(0.1)
    state = opt_update(0, tree, opt_init(tree))
    unpacked = mopt.unpack_optimizer_state(state)
    assert isinstance(unpacked["a"], mopt.JoinPoint)
    restored = mopt.pack_optimizer_state(unpacked)
    assert isinstance(restored, mopt.OptimizerState)
    assert len(jax.tree.leaves(state)) == len(jax.tree.leaves(jopt.adam(0.1).init_fn(tree)))
    for a, b in zip(jax.tree.leaves(get_params(restored)), jax.tree.leaves(get_params(state))):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
    with pytest.raises(TypeError, match="gradient tree"):
        opt_update(1, [1.0], state)

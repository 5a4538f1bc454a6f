"""First-order optimizers as (init_fun, update_fun, get_params) triples over
pytrees of arrays, as jax.example_libraries.optimizers (same update rules,
same OptimizerState layout, so states pack/unpack the same way).

    opt_init, opt_update, get_params = optimizers.adam(1e-3)
    state = opt_init(params)
    state = opt_update(step, grads, state)
"""
from __future__ import annotations

import functools
from collections import namedtuple
from collections.abc import Callable
from typing import Any, NamedTuple

import mlax.numpy as jnp
from mlax import tree_util

OptimizerState = namedtuple("OptimizerState", ["packed_state", "tree_def", "subtree_defs"])
tree_util.register_pytree_node(
    OptimizerState,
    lambda xs: ((xs.packed_state,), (xs.tree_def, xs.subtree_defs)),
    lambda data, xs: OptimizerState(xs[0], data[0], data[1]))

Array = Any
Params = Any   # a pytree of arrays
State = Any    # one parameter's optimizer state
Updates = Params
InitFn = Callable[[Params], OptimizerState]
Step = int
UpdateFn = Callable[[Step, Updates, OptimizerState], OptimizerState]
ParamsFn = Callable[[OptimizerState], Params]
Schedule = Callable[[Step], float]


class Optimizer(NamedTuple):
    init_fn: InitFn
    update_fn: UpdateFn
    params_fn: ParamsFn


def _unzip2(pairs):
    firsts, seconds = [], []
    for a, b in pairs:
        firsts.append(a)
        seconds.append(b)
    return tuple(firsts), tuple(seconds)


def optimizer(opt_maker):
    """Lifts an optimizer defined on one array, (init, update, get_params), to
    one on pytrees of arrays: the state of each leaf is flattened into an
    OptimizerState."""
    @functools.wraps(opt_maker)
    def tree_opt_maker(*args, **kwargs):
        init, update, get_params = opt_maker(*args, **kwargs)

        @functools.wraps(init)
        def tree_init(x0_tree):
            x0_flat, tree = tree_util.tree_flatten(x0_tree)
            states_flat, subtrees = _unzip2(tree_util.tree_flatten(init(x0)) for x0 in x0_flat)
            return OptimizerState(states_flat, tree, subtrees)

        @functools.wraps(update)
        def tree_update(i, grad_tree, opt_state):
            states_flat, tree, subtrees = opt_state
            grad_flat, tree2 = tree_util.tree_flatten(grad_tree)
            if tree2 != tree:
                raise TypeError(
                    "optimizer update function was passed a gradient tree that did not match "
                    "the parameter tree structure with which it was initialized: parameter "
                    f"tree {tree} and grad tree {tree2}.")
            states = [tree_util.tree_unflatten(s, f) for s, f in zip(subtrees, states_flat)]
            new_states = [update(i, g, s) for g, s in zip(grad_flat, states)]
            new_flat, subtrees2 = _unzip2(tree_util.tree_flatten(s) for s in new_states)
            for subtree, subtree2 in zip(subtrees, subtrees2):
                if subtree2 != subtree:
                    raise TypeError(
                        "optimizer update function produced an output structure that did not "
                        f"match its input structure: input {subtree} and output {subtree2}.")
            return OptimizerState(new_flat, tree, subtrees)

        @functools.wraps(get_params)
        def tree_get_params(opt_state):
            states_flat, tree, subtrees = opt_state
            states = [tree_util.tree_unflatten(s, f) for s, f in zip(subtrees, states_flat)]
            return tree_util.tree_unflatten(tree, [get_params(s) for s in states])

        return Optimizer(tree_init, tree_update, tree_get_params)
    return tree_opt_maker


# ---------------------------------------------------------------------------
# Optimizers
# ---------------------------------------------------------------------------

def _zero_state(n):
    """An optimizer's init: the parameters and `n` zero slots shaped like them."""
    def init(x0):
        return (x0,) + tuple(jnp.zeros_like(x0) for _ in range(n))
    return init


def _decayed_square(avg_sq_grad, g, gamma):
    """RMSProp's running average of squared gradients."""
    return avg_sq_grad * gamma + jnp.square(g) * (1.0 - gamma)


@optimizer
def sgd(step_size):
    """Stochastic gradient descent: x -= step_size(i) * g."""
    step_size = make_schedule(step_size)

    def update(i, g, x):
        return x - step_size(i) * g
    return Optimizer(lambda x0: x0, update, lambda x: x)


@optimizer
def momentum(step_size: Schedule, mass: float):
    """SGD with (heavy-ball) momentum."""
    step_size = make_schedule(step_size)
    init = _zero_state(1)

    def update(i, g, state):
        x, velocity = state
        velocity = mass * velocity + g
        return x - step_size(i) * velocity, velocity
    return init, update, lambda state: state[0]


@optimizer
def nesterov(step_size: Schedule, mass: float):
    """SGD with Nesterov momentum."""
    step_size = make_schedule(step_size)
    init = _zero_state(1)

    def update(i, g, state):
        x, velocity = state
        velocity = mass * velocity + g
        return x - step_size(i) * (mass * velocity + g), velocity
    return init, update, lambda state: state[0]


@optimizer
def adagrad(step_size, momentum=0.9):
    """Adagrad (Duchi et al. 2011), with momentum on the scaled gradient."""
    step_size = make_schedule(step_size)
    init = _zero_state(2)

    def update(i, g, state):
        x, g_sq, m = state
        g_sq = g_sq + jnp.square(g)
        g_sq_inv_sqrt = jnp.where(g_sq > 0, 1.0 / jnp.sqrt(g_sq), 0.0)
        m = (1.0 - momentum) * (g * g_sq_inv_sqrt) + momentum * m
        return x - step_size(i) * m, g_sq, m
    return init, update, lambda state: state[0]


@optimizer
def rmsprop(step_size, gamma=0.9, eps=1e-8):
    """RMSProp (Tieleman & Hinton 2012)."""
    step_size = make_schedule(step_size)
    init = _zero_state(1)

    def update(i, g, state):
        x, avg_sq_grad = state
        avg_sq_grad = _decayed_square(avg_sq_grad, g, gamma)
        return x - step_size(i) * g / jnp.sqrt(avg_sq_grad + eps), avg_sq_grad
    return init, update, lambda state: state[0]


@optimizer
def rmsprop_momentum(step_size, gamma=0.9, eps=1e-8, momentum=0.9):
    """RMSProp with momentum (Graves 2013)."""
    step_size = make_schedule(step_size)
    init = _zero_state(2)

    def update(i, g, state):
        x, avg_sq_grad, mom = state
        avg_sq_grad = _decayed_square(avg_sq_grad, g, gamma)
        mom = momentum * mom + step_size(i) * g / jnp.sqrt(avg_sq_grad + eps)
        return x - mom, avg_sq_grad, mom
    return init, update, lambda state: state[0]


@optimizer
def adam(step_size, b1=0.9, b2=0.999, eps=1e-8):
    """Adam (Kingma & Ba 2015), with bias correction."""
    step_size = make_schedule(step_size)
    init = _zero_state(2)

    def update(i, g, state):
        x, m, v = state
        m = (1 - b1) * g + b1 * m
        v = (1 - b2) * jnp.square(g) + b2 * v
        mhat = m / (1 - jnp.asarray(b1, m.dtype) ** (i + 1))
        vhat = v / (1 - jnp.asarray(b2, m.dtype) ** (i + 1))
        return x - step_size(i) * mhat / (jnp.sqrt(vhat) + eps), m, v
    return init, update, lambda state: state[0]


@optimizer
def adamax(step_size, b1=0.9, b2=0.999, eps=1e-8):
    """AdaMax, Adam's infinity-norm variant (Kingma & Ba 2015, section 7)."""
    step_size = make_schedule(step_size)
    init = _zero_state(2)

    def update(i, g, state):
        x, m, u = state
        m = (1 - b1) * g + b1 * m
        u = jnp.maximum(b2 * u, jnp.abs(g))
        x = x - (step_size(i) / (1 - jnp.asarray(b1, m.dtype) ** (i + 1))) * m / (u + eps)
        return x, m, u
    return init, update, lambda state: state[0]


@optimizer
def sm3(step_size, momentum=0.9):
    """SM3 (Anil et al. 2019): one accumulator per index of each axis."""
    step_size = make_schedule(step_size)

    def splice(seq, i, x):
        lst = list(seq)
        lst[i:i + 1] = x
        return lst

    def broadcast_into(ndim, x, axis):
        return x[tuple(splice([None] * ndim, axis, [slice(None)]))]

    def init(x0):
        x_shape = x0.shape
        x0 = jnp.atleast_1d(x0)
        vs = [jnp.zeros(sz, dtype=x0.dtype) for sz in x0.shape]
        return x0, jnp.zeros_like(x0), vs, x_shape

    def update(i, g, state):
        x, m, vs, x_shape = state
        vs = [broadcast_into(g.ndim, v, ax) for ax, v in enumerate(vs)]
        accum = functools.reduce(jnp.minimum, vs) + jnp.square(g)
        accum_inv_sqrt = jnp.where(accum > 0, 1.0 / jnp.sqrt(accum), 0)
        m = (1.0 - momentum) * (g * accum_inv_sqrt) + momentum * m
        x = x - step_size(i) * m
        vs = [accum.max(tuple(splice(range(x.ndim), j, []))) for j in range(x.ndim)]
        return x, m, vs, x_shape

    def get_params(state):
        x, _, _, x_shape = state
        return x.reshape(x_shape)
    return init, update, get_params


# ---------------------------------------------------------------------------
# Learning-rate schedules: step number -> step size
# ---------------------------------------------------------------------------

def constant(step_size) -> Schedule:
    return lambda i: step_size


def exponential_decay(step_size, decay_steps, decay_rate):
    return lambda i: step_size * decay_rate ** (i / decay_steps)


def inverse_time_decay(step_size, decay_steps, decay_rate, staircase=False):
    if staircase:
        return lambda i: step_size / (1 + decay_rate * jnp.floor(i / decay_steps))
    return lambda i: step_size / (1 + decay_rate * i / decay_steps)


def polynomial_decay(step_size, decay_steps, final_step_size, power=1.0):
    def schedule(step_num):
        step_num = jnp.minimum(step_num, decay_steps)
        step_mult = (1 - step_num / decay_steps) ** power
        return step_mult * (step_size - final_step_size) + final_step_size
    return schedule


def piecewise_constant(boundaries: Any, values: Any):
    """values[k] for steps in (boundaries[k-1], boundaries[k]]."""
    boundaries = jnp.array(boundaries)
    values = jnp.array(values)
    if not boundaries.ndim == values.ndim == 1:
        raise ValueError("boundaries and values must be sequences")
    if not boundaries.shape[0] == values.shape[0] - 1:
        raise ValueError("boundaries length must be one shorter than values length")
    return lambda i: values[jnp.sum(i > boundaries)]


def make_schedule(scalar_or_schedule: float | Schedule) -> Schedule:
    if callable(scalar_or_schedule):
        return scalar_or_schedule
    if jnp.ndim(scalar_or_schedule) == 0:
        return constant(scalar_or_schedule)
    raise TypeError(type(scalar_or_schedule))


# ---------------------------------------------------------------------------
# Utilities
# ---------------------------------------------------------------------------

def l2_norm(tree):
    """The l2 norm of all the leaves of a pytree, as one vector."""
    leaves = tree_util.tree_leaves(tree)
    return jnp.sqrt(sum(jnp.vdot(x, x) for x in leaves))


def clip_grads(grad_tree, max_norm):
    """Scales grad_tree down to l2 norm max_norm when its norm is larger."""
    norm = l2_norm(grad_tree)
    return tree_util.tree_map(
        lambda g: jnp.where(norm < max_norm, g, g * (max_norm / norm)), grad_tree)


class JoinPoint:
    """Marks where the parameter tree ends and a leaf's optimizer state begins
    in unpack_optimizer_state's output."""

    def __init__(self, subtree):
        self.subtree = subtree

    def __iter__(self):
        yield self.subtree


def unpack_optimizer_state(opt_state):
    """An OptimizerState as a pytree (of JoinPoints) made of Python containers
    and arrays only, e.g. for pickling."""
    states_flat, tree_def, subtree_defs = opt_state
    subtrees = [tree_util.tree_unflatten(d, s) for d, s in zip(subtree_defs, states_flat)]
    return tree_util.tree_unflatten(tree_def, [JoinPoint(s) for s in subtrees])


def pack_optimizer_state(marked_pytree):
    """unpack_optimizer_state's inverse."""
    sentinels, tree_def = tree_util.tree_flatten(marked_pytree)
    assert all(isinstance(s, JoinPoint) for s in sentinels)
    states_flat, subtree_defs = _unzip2(tree_util.tree_flatten(s.subtree) for s in sentinels)
    return OptimizerState(states_flat, tree_def, subtree_defs)



"""Programs written as users of the JAX libraries write them (optax-style
optimizer chains and train states, flax-style modules, samplers, scientific
code), each written once against a namespace of mlax's or JAX's modules and
compared with JAX: values, dtypes, weak types and pytree leaves.

The mixed-precision train step found a wrong gradient: the reverse rule of
dot_general with a preferred_element_type wider than its operands (bf16
operands, f32 product) rounded the f32 cotangent to bf16 before the
weight-gradient product, where JAX multiplies in f32 and rounds the product
once. A loss through jnp.sort found sort's reverse rule sorting a third time
(see test_sort_gradients)."""
from __future__ import annotations

import dataclasses
import functools
import types
import typing

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mlax
import mlax.numpy as mnp

from _helpers import assert_leaves_like

M = types.SimpleNamespace(np=mnp, lax=mlax.lax, nn=mlax.nn, random=mlax.random, jit=mlax.jit,
                          grad=mlax.grad, value_and_grad=mlax.value_and_grad, tu=mlax.tree_util,
                          ops=mlax.ops, custom_vjp=mlax.custom_vjp)
J = types.SimpleNamespace(np=jnp, lax=jax.lax, nn=jax.nn, random=jax.random, jit=jax.jit,
                          grad=jax.grad, value_and_grad=jax.value_and_grad, tu=jax.tree_util,
                          ops=jax.ops, custom_vjp=jax.custom_vjp)


def _dense(rng, m, n):
    return {"w": (rng.standard_normal((m, n)) / np.sqrt(m)).astype(np.float32),
            "b": np.zeros(n, np.float32)}


def _mlp(L, params, x, act):
    for layer in params[:-1]:
        x = act(x @ layer["w"] + layer["b"])
    return x @ params[-1]["w"] + params[-1]["b"]


def _xent(L, logits, y, k):
    return -L.np.mean(L.np.sum(L.nn.log_softmax(logits) * L.nn.one_hot(y, k), -1))


# --------------------------------------------------------------------------
# Mixed precision: bf16 compute, f32 product and master weights.
# --------------------------------------------------------------------------

def _mixed_precision_step(L):
    rng = np.random.default_rng(21)
    p = L.tu.tree_map(L.np.asarray, [_dense(rng, 32, 64), _dense(rng, 64, 10)])
    x = rng.standard_normal((16, 32)).astype(np.float32)
    y = rng.integers(0, 10, 16).astype(np.int32)
    bf16 = L.np.bfloat16

    def loss(p, x, y):
        h = L.lax.dot_general(x.astype(bf16), p[0]["w"].astype(bf16), (((1,), (0,)), ((), ())),
                              preferred_element_type=L.np.float32)
        h = L.nn.relu(h + p[0]["b"]).astype(bf16)
        logits = (h @ p[1]["w"].astype(bf16)).astype(L.np.float32) + p[1]["b"]
        return _xent(L, logits, y, 10) * 128.0  # a static loss scale

    def step(p, x, y):
        value, g = L.value_and_grad(loss)(p, x, y)
        return value / 128.0, L.tu.tree_map(lambda t: t / 128.0, g)

    return L.jit(step)(p, x, y)


def test_mixed_precision_gradient_is_jax_s():
    # The first layer's weight gradient is bf16(x^T g) with g the f32
    # cotangent; rounding g to bf16 first moved it by a bf16 ulp (4.9e-4 at
    # 0.1) in about a third of its elements.
    got, want = _mixed_precision_step(M), _mixed_precision_step(J)
    assert_leaves_like(got, want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_preferred_dot_gradients_multiply_in_the_preferred_type(dtype):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((2, 5, 24)).astype(dtype)
    b = rng.standard_normal((2, 24, 3)).astype(dtype)
    w = rng.standard_normal((2, 5, 3)).astype(np.float32) * 1e-2 + 1.0

    def grads(L):
        def f(a, b):
            out = L.lax.dot_general(a, b, (((2,), (1,)), ((0,), (0,))),
                                    preferred_element_type=L.np.float32)
            return L.np.sum(out * w)
        return L.jit(L.grad(f, argnums=(0, 1)))(a, b)

    got, want = grads(M), grads(J)
    assert_leaves_like(got, want, rtol=1e-6, atol=1e-6)
    # As JAX's, the gradient is the product of the f32 cotangent, rounded
    # once: within half an ulp of the exact one (rounding the cotangent to
    # the operands' type first doubled that).
    exact = np.einsum("bij,bkj->bik", w.astype(np.float64), b.astype(np.float64))
    np.testing.assert_allclose(np.asarray(got[0]).astype(np.float64), exact,
                               rtol=float(jnp.finfo(dtype).eps) / 2 * 1.01, atol=0)


# --------------------------------------------------------------------------
# Optimizer chain and train state (optax / flax patterns).
# --------------------------------------------------------------------------

def _optax(L):
    np_ = L.np

    def clip_by_global_norm(max_norm):
        def update(g, s, p):
            gn = np_.sqrt(sum(np_.sum(x * x) for x in L.tu.tree_leaves(g)))
            return L.tu.tree_map(lambda t: np_.where(gn < max_norm, t, t / gn * max_norm), g), s
        return (lambda p: ()), update

    def scale_by_adam(b1=0.9, b2=0.999, eps=1e-8):
        def init(p):
            return {"count": np_.zeros([], np_.int32), "mu": L.tu.tree_map(np_.zeros_like, p),
                    "nu": L.tu.tree_map(np_.zeros_like, p)}

        def update(g, s, p):
            mu = L.tu.tree_map(lambda m, x: b1 * m + (1 - b1) * x, s["mu"], g)
            nu = L.tu.tree_map(lambda v, x: b2 * v + (1 - b2) * x * x, s["nu"], g)
            c = s["count"] + 1
            u = L.tu.tree_map(lambda m, v: m / (1 - b1 ** c) / (np_.sqrt(v / (1 - b2 ** c)) + eps),
                              mu, nu)
            return u, {"count": c, "mu": mu, "nu": nu}
        return init, update

    def masked_weight_decay(wd):
        def update(g, s, p):
            mask = L.tu.tree_map_with_path(lambda path, _: path[-1].key == "w", p)
            return L.tu.tree_map(lambda x, q, m: x + wd * q if m else x, g, p, mask), s
        return (lambda p: ()), update

    def warmup_cosine(peak, warmup, total):
        def update(g, s, p):
            t = np_.asarray(s["count"], np_.float32)
            cos = 0.5 * peak * (1 + np_.cos(np_.pi * np_.clip((t - warmup) / (total - warmup), 0, 1)))
            lr = np_.where(t < warmup, peak * t / warmup, cos)
            return L.tu.tree_map(lambda x: -lr * x, g), {"count": s["count"] + 1}
        return (lambda p: {"count": np_.zeros([], np_.int32)}), update

    ts = (clip_by_global_norm(1.0), scale_by_adam(), masked_weight_decay(1e-4),
          warmup_cosine(1e-2, 5, 30))

    def init(p):
        return tuple(t[0](p) for t in ts)

    def update(g, state, p):
        new = []
        for (_, u), s in zip(ts, state):
            g, s = u(g, s, p)
            new.append(s)
        return g, tuple(new)
    return init, update


def _adamw_fori_loop(L):
    # The whole loop under jit: value_and_grad(has_aux) of an MLP, the chain,
    # an EMA of the parameters, in a fori_loop of 30 steps.
    rng = np.random.default_rng(2)
    p = L.tu.tree_map(L.np.asarray, [_dense(rng, 8, 32), _dense(rng, 32, 4)])
    x = rng.standard_normal((64, 8)).astype(np.float32)
    y = rng.integers(0, 4, 64).astype(np.int32)
    init, update = _optax(L)

    def loss(p):
        logits = _mlp(L, p, x, L.nn.gelu)
        return _xent(L, logits, y, 4), L.np.mean(L.np.argmax(logits, -1) == y)

    def train(p):
        def body(i, c):
            p, s, ema, _ = c
            (value, acc), g = L.value_and_grad(loss, has_aux=True)(p)
            u, s = update(g, s, p)
            p = L.tu.tree_map(lambda a, b: a + b, p, u)
            ema = L.tu.tree_map(lambda e, q: 0.9 * e + 0.1 * q, ema, p)
            return p, s, ema, (value, acc)
        return L.lax.fori_loop(0, 30, body, (p, init(p), p, (L.np.float32(0), L.np.float32(0))))

    return L.jit(train)(p)


def test_adamw_chain_training_loop():
    assert_leaves_like(_adamw_fori_loop(M), _adamw_fori_loop(J), rtol=2e-4, atol=2e-5)


def _train_state_donated(L):
    # flax's TrainState (a registered dataclass with a static apply_fn),
    # optax's NamedTuple state, a pytree-class metric, the state donated.
    class AdamState(typing.NamedTuple):
        count: typing.Any
        mu: typing.Any

    @functools.partial(L.tu.register_dataclass, data_fields=["step", "params", "opt"],
                       meta_fields=["apply_fn"])
    @dataclasses.dataclass
    class TrainState:
        step: typing.Any
        params: typing.Any
        opt: typing.Any
        apply_fn: typing.Any

    rng = np.random.default_rng(40)
    params = L.tu.tree_map(L.np.asarray, [_dense(rng, 8, 16), _dense(rng, 16, 3)])
    x = rng.standard_normal((32, 8)).astype(np.float32)
    y = rng.integers(0, 3, 32).astype(np.int32)
    state = TrainState(L.np.asarray(0), params,
                       AdamState(L.np.zeros([], L.np.int32), L.tu.tree_map(L.np.zeros_like, params)),
                       lambda p, x: _mlp(L, p, x, L.nn.relu))

    @functools.partial(L.jit, donate_argnums=(0,))
    def step(st):
        value, g = L.value_and_grad(lambda p: _xent(L, st.apply_fn(p, x), y, 3))(st.params)
        mu = L.tu.tree_map(lambda a, b: 0.9 * a + b, st.opt.mu, g)
        params = L.tu.tree_map(lambda q, m: q - 0.05 * m, st.params, mu)
        return dataclasses.replace(st, step=st.step + 1, params=params,
                                   opt=st.opt._replace(count=st.opt.count + 1, mu=mu)), value

    first = state.params[0]["w"]
    for _ in range(5):
        state, value = step(state)
    assert first.is_deleted()
    assert type(state).__name__ == "TrainState" and type(state.opt).__name__ == "AdamState"
    return state, value


def test_train_state_dataclass_namedtuple_donated():
    assert_leaves_like(_train_state_donated(M), _train_state_donated(J), rtol=2e-5, atol=2e-6)


# --------------------------------------------------------------------------
# Modules, samplers and scientific programs.
# --------------------------------------------------------------------------

def _attention_dropout(L):
    # Causal attention masked with -inf and with finfo.min, dropout keyed
    # per layer by fold_in, and nn.dot_product_attention with a mask.
    rng = np.random.default_rng(4)
    D, H = 16, 2
    ps = [L.tu.tree_map(L.np.asarray, {"qkv": rng.standard_normal((D, 3 * D)).astype(np.float32) / 4,
                                        "o": rng.standard_normal((D, D)).astype(np.float32) / 4})
          for _ in range(2)]
    x = rng.standard_normal((2, 8, D)).astype(np.float32)
    mask = rng.random((2, H, 8, 8)) < 0.7

    def attention(p, x, fill):
        B, T, _ = x.shape
        q, k, v = (t.reshape(B, T, H, D // H) for t in L.np.split(x @ p["qkv"], 3, -1))
        s = L.np.einsum("bthd,bshd->bhts", q, k) / np.float32(np.sqrt(D // H))
        s = L.np.where(L.np.tril(L.np.ones((T, T), bool)), s, fill(s.dtype))
        o = L.np.einsum("bhts,bshd->bthd", L.nn.softmax(s), v).reshape(B, T, D)
        return o @ p["o"], q, k, v

    def loss(ps, x, key):
        fills = (lambda dt: -L.np.inf, lambda dt: L.np.finfo(dt).min)
        for i, (p, fill) in enumerate(zip(ps, fills)):
            a, q, k, v = attention(p, x, fill)
            keep = L.random.bernoulli(L.random.fold_in(key, i), 0.9, a.shape)
            x = x + L.np.where(keep, a / 0.9, 0)
        dpa = L.nn.dot_product_attention(q, k, v, mask=mask, is_causal=True)
        return L.np.mean(x ** 2) + 1e-3 * L.np.sum(dpa ** 2)

    return L.jit(L.value_and_grad(loss))(ps, x, L.random.PRNGKey(42))


def _hmc_metropolis(L):
    # Leapfrog in a fori_loop with a Metropolis accept (where), a random walk
    # with lax.cond, both scanned over split keys.
    def logp(q):
        return -0.5 * (q[0] ** 2 / 4 + (q[1] - 0.5 * q[0] ** 2) ** 2)

    def hmc_step(q, key):
        k1, k2 = L.random.split(key)
        p0 = L.random.normal(k1, q.shape)

        def leap(i, c):
            q, p = c
            p = p + 0.05 * L.grad(logp)(q)
            q = q + 0.1 * p
            return q, p + 0.05 * L.grad(logp)(q)
        q1, p1 = L.lax.fori_loop(0, 8, leap, (q, p0))
        accept = L.np.log(L.random.uniform(k2)) < logp(q1) - 0.5 * p1 @ p1 - logp(q) + 0.5 * p0 @ p0
        q = L.np.where(accept, q1, q)
        return q, q

    def rw_step(c, key):
        x, lp = c
        k1, k2 = L.random.split(key)
        prop = x + 0.5 * L.random.normal(k1, x.shape)
        lpp = logp(prop)
        accept = L.np.log(L.random.uniform(k2)) < lpp - lp
        c = L.lax.cond(accept, lambda: (prop, lpp), lambda: (x, lp))
        return c, c[0]

    def run(key):
        k1, k2 = L.random.split(key)
        q0 = L.np.array([0.5, 0.1], L.np.float32)
        _, hs = L.lax.scan(hmc_step, q0, L.random.split(k1, 10))
        _, rs = L.lax.scan(rw_step, (q0, logp(q0)), L.random.split(k2, 30))
        return hs, rs

    return L.jit(run)(L.random.PRNGKey(1))


def _recurrence_gnn_ste(L):
    # A linear recurrence by associative_scan, segment_sum message passing,
    # a straight-through quantizer and a gradient clip by custom_vjp, a
    # stop_gradient target.
    rng = np.random.default_rng(15)
    a = rng.uniform(0.5, 1.0, (16, 4)).astype(np.float32)
    b = rng.standard_normal((16, 4)).astype(np.float32)
    snd, rcv = rng.integers(0, 10, 30).astype(np.int32), rng.integers(0, 10, 30).astype(np.int32)
    w = rng.standard_normal((4, 4)).astype(np.float32) / 2

    @L.custom_vjp
    def ste_round(x):
        return L.np.round(x * 4) / 4
    ste_round.defvjp(lambda x: (ste_round(x), None), lambda _, g: (g,))

    @L.custom_vjp
    def clip_grad(x):
        return x
    clip_grad.defvjp(lambda x: (x, None), lambda _, g: (L.np.clip(g, -0.1, 0.1),))

    def loss(a, b, w):
        _, h = L.lax.associative_scan(lambda l, r: (r[0] * l[0], r[0] * l[1] + r[1]), (a, b))
        nodes = h[:10]
        m = L.ops.segment_sum(nodes[snd] @ ste_round(w), rcv, num_segments=10)
        deg = L.ops.segment_sum(L.np.ones(30), rcv, num_segments=10)
        nodes = L.nn.relu(m / L.np.maximum(deg, 1)[:, None]) + nodes
        target = L.lax.stop_gradient(2.0 * nodes)
        return L.np.sum(clip_grad(nodes - target) ** 2)

    return L.jit(L.value_and_grad(loss, argnums=(0, 1, 2)))(a, b, w)


# (A Gaussian process through cho_factor/cho_solve, the bf16 step and a
# whole training loop are bench/real_programs.py's, compared with JAX by
# test_real_programs.)
PROGRAMS = {f.__name__.lstrip("_"): f for f in (_attention_dropout, _hmc_metropolis,
                                                _recurrence_gnn_ste)}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_matches_jax(name):
    program = PROGRAMS[name]
    assert_leaves_like(program(M), program(J), rtol=2e-4, atol=2e-5)


# --------------------------------------------------------------------------
# Sorting inside a loss (a differentiable top-k / quantile): sort's reverse
# rule put the cotangents back with a second sort, by the permutation; it
# is a scatter to the permutation's positions, as JAX's (the sort-heavy
# gradient ran 2.3-2.8x JAX's time).
# --------------------------------------------------------------------------

def _sort_losses(L):
    rng = np.random.default_rng(70)
    x = rng.standard_normal((3, 8, 5)).astype(np.float32)
    x[0, :3, 0] = 1.5  # ties: the stable sort's order decides who gets the cotangent
    y = rng.standard_normal((3, 8, 5)).astype(np.float32)
    z = (rng.standard_normal((6,)) + 1j * rng.standard_normal((6,))).astype(np.complex64)
    weights = np.linspace(0.5, 2.0, 8, dtype=np.float32)

    def loss(x, y, z):
        q = L.np.sort(x, axis=1)  # a weighted quantile loss along axis 1
        a = L.np.sum(q * weights[:, None] * q)
        s, t = L.lax.sort((x, y), dimension=2, num_keys=1)
        b = L.np.sum(s[..., -2:] * t[..., -2:])
        c = L.np.sum(L.np.abs(L.np.sort(z)[:3] * L.np.arange(1.0, 4.0)) ** 2)
        return a + b + c

    return L.jit(L.value_and_grad(loss, argnums=(0, 1, 2)))(x, y, z)


def test_sort_gradients():
    assert_leaves_like(_sort_losses(M), _sort_losses(J), rtol=2e-5, atol=2e-6)
    x = np.arange(12, dtype=np.float32)[::-1].reshape(3, 4)
    text = mlax.jit(mlax.grad(lambda x: mnp.sum(mnp.sort(x, 0) ** 3))).lower(x).as_text()
    # The primal sort and the one carrying the positions, no third.
    assert text.count("stablehlo.sort") <= 2, text

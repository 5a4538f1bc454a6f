"""Real programs, mlax vs JAX in one process.

    python bench/real_programs.py [--quick] [--plot [PNG]] [names...]
    python bench/run.py --real [--quick] [--plot [PNG]]

Ten small but whole programs, each written once against a namespace `L`
(mlax's or JAX's modules): an MLP classifier train step, a VAE step, a
transformer block with a hand-written Adam, a CNN (conv_general_dilated and
reduce_window), an RK4 ODE in `scan` with its gradient, an RNG data pipeline,
per-example gradients (vmap of grad), a mixed-precision (bf16) train step, a
whole optax-style training loop in one fori_loop and a Gaussian process's
marginal likelihood with its gradient (cho_factor / cho_solve).

For each: the first call, split into trace, passes+lowering (mlax: the
mlax passes and the conversion to StableHLO; JAX: jaxpr to StableHLO) and
XLA compile, measured from fresh functions with both libraries' caches
cleared; the steady state (interleaved); and the StableHLO each hands to XLA,
counted by op kind with every `func.call` inlined (XLA inlines them: JAX
emits a private function per nested jit and calls it, mlax inlines while
lowering). `test/py/test_real_programs.py` guards the op counts.
Nothing here asserts a time: it measures and prints.
"""
from __future__ import annotations

import argparse
import collections
import statistics
import sys
import time
import types

import numpy as np

import jax
import jax.numpy as jnp

import jax.scipy.linalg
import mlax
import mlax.numpy as mnp
import mlax.scipy.linalg


def namespaces():
    """(mlax, jax): the modules the programs are written against."""
    return (types.SimpleNamespace(
                name="mlax", np=mnp, lax=mlax.lax, nn=mlax.nn, random=mlax.random,
                grad=mlax.grad, value_and_grad=mlax.value_and_grad, vmap=mlax.vmap,
                jit=mlax.jit, tree_map=mlax.tree_util.tree_map,
                tree_leaves=mlax.tree_util.tree_leaves, linalg=mlax.scipy.linalg,
                block=mlax.block_until_ready, clear_caches=mlax.clear_caches),
            types.SimpleNamespace(
                name="jax", np=jnp, lax=jax.lax, nn=jax.nn, random=jax.random,
                grad=jax.grad, value_and_grad=jax.value_and_grad, vmap=jax.vmap,
                jit=jax.jit, tree_map=jax.tree_util.tree_map,
                tree_leaves=jax.tree_util.tree_leaves, linalg=jax.scipy.linalg,
                block=jax.block_until_ready, clear_caches=jax.clear_caches))


PROGRAMS = {}


def program(fn):
    """Registers `fn(L) -> (function, args)`: a program and its arguments
    (the same NumPy data for both libraries)."""
    PROGRAMS[fn.__name__] = fn
    return fn


def _dense(rng, m, n):
    return (rng.standard_normal((m, n)).astype(np.float32) / np.sqrt(m),
            np.zeros(n, np.float32))


def _put(L, tree):
    return L.tree_map(L.np.asarray, tree)


def _sgd(L, params, grads, lr=0.05):
    return L.tree_map(lambda p, g: p - lr * g, params, grads)


def _cross_entropy(L, logits, labels, classes):
    return -L.np.mean(L.np.sum(L.nn.log_softmax(logits) * L.nn.one_hot(labels, classes),
                               axis=-1))


def _mlp_logits(L, params, x):
    h = x
    for W, b in params[:-1]:
        h = L.nn.relu(h @ W + b)
    W, b = params[-1]
    return h @ W + b


@program
def mlp_train_step(L):
    """MLP classifier 784-256-128-10, softmax cross-entropy, one SGD step."""
    rng = np.random.default_rng(0)
    params = [_dense(rng, 784, 256), _dense(rng, 256, 128), _dense(rng, 128, 10)]
    x = rng.standard_normal((128, 784)).astype(np.float32)
    y = rng.integers(0, 10, 128).astype(np.int32)

    def loss(params, x, y):
        return _cross_entropy(L, _mlp_logits(L, params, x), y, 10)

    def step(params, x, y):
        value, grads = L.value_and_grad(loss)(params, x, y)
        return _sgd(L, params, grads), value

    return step, _put(L, (params, x, y))


@program
def vae_step(L):
    """VAE 784-128-(16+16) / 16-128-784: reparameterised sample, Bernoulli
    loss on logits and KL term, one SGD step; the key is split each step."""
    rng = np.random.default_rng(1)
    params = {"enc": [_dense(rng, 784, 128), _dense(rng, 128, 32)],
              "dec": [_dense(rng, 16, 128), _dense(rng, 128, 784)]}
    x = (rng.random((64, 784)) < 0.3).astype(np.float32)

    def loss(params, x, key):
        stats = _mlp_logits(L, params["enc"], x)
        mu, logvar = stats[:, :16], stats[:, 16:]
        z = mu + L.np.exp(0.5 * logvar) * L.random.normal(key, mu.shape)
        logits = _mlp_logits(L, params["dec"], z)
        nll = L.np.sum(L.nn.softplus(logits) - x * logits)
        kl = -0.5 * L.np.sum(1.0 + logvar - mu * mu - L.np.exp(logvar))
        return (nll + kl) / x.shape[0]

    def step(params, x, key):
        key, sub = L.random.split(key)
        value, grads = L.value_and_grad(loss)(params, x, sub)
        return _sgd(L, params, grads, 1e-3), key, value

    return step, (_put(L, (params, x)) + (L.random.PRNGKey(0),))


@program
def transformer_adam(L):
    """One pre-LN transformer block (batch 4, 32 tokens, width 64, 4 heads,
    causal attention, GELU MLP 256) and a hand-written Adam step."""
    rng = np.random.default_rng(2)
    d, ff, heads, batch, seq = 64, 256, 4, 4, 32
    w = lambda m, n: rng.standard_normal((m, n)).astype(np.float32) / np.sqrt(m)  # noqa: E731
    params = {"ln1": (np.ones(d, np.float32), np.zeros(d, np.float32)),
              "ln2": (np.ones(d, np.float32), np.zeros(d, np.float32)),
              "wq": w(d, d), "wk": w(d, d), "wv": w(d, d), "wo": w(d, d),
              "w1": w(d, ff), "b1": np.zeros(ff, np.float32),
              "w2": w(ff, d), "b2": np.zeros(d, np.float32)}
    x = rng.standard_normal((batch, seq, d)).astype(np.float32)
    y = rng.standard_normal((batch, seq, d)).astype(np.float32)
    zeros = {k: np.zeros_like(v) if isinstance(v, np.ndarray) else
             tuple(np.zeros_like(a) for a in v) for k, v in params.items()}

    def norm(x, gb):
        mu = L.np.mean(x, -1, keepdims=True)
        var = L.np.mean((x - mu) ** 2, -1, keepdims=True)
        return (x - mu) / L.np.sqrt(var + 1e-5) * gb[0] + gb[1]

    def block(p, x):
        b, t, _ = x.shape
        h = norm(x, p["ln1"])
        q, k, v = ((h @ p[n]).reshape(b, t, heads, d // heads) for n in ("wq", "wk", "wv"))
        att = L.np.einsum("bthd,bshd->bhts", q, k) / np.sqrt(d // heads)
        causal = np.tril(np.ones((t, t), bool))
        att = L.nn.softmax(L.np.where(causal, att, -1e9), axis=-1)
        out = L.np.einsum("bhts,bshd->bthd", att, v).reshape(b, t, d)
        x = x + out @ p["wo"]
        h = norm(x, p["ln2"])
        return x + L.nn.gelu(h @ p["w1"] + p["b1"]) @ p["w2"] + p["b2"]

    def loss(p, x, y):
        return L.np.mean((block(p, x) - y) ** 2)

    def adam_step(p, m, v, t, x, y):
        b1, b2, lr, eps = 0.9, 0.999, 1e-3, 1e-8
        value, g = L.value_and_grad(loss)(p, x, y)
        t = t + 1
        m = L.tree_map(lambda m, g: b1 * m + (1 - b1) * g, m, g)
        v = L.tree_map(lambda v, g: b2 * v + (1 - b2) * g * g, v, g)
        step = lr * L.np.sqrt(1 - b2 ** t) / (1 - b1 ** t)
        p = L.tree_map(lambda p, m, v: p - step * m / (L.np.sqrt(v) + eps), p, m, v)
        return p, m, v, t, value

    return adam_step, _put(L, (params, zeros, zeros, np.float32(0), x, y))


@program
def cnn_train_step(L):
    """CNN on 28x28x1 (batch 32): conv 3x3x8, relu, max-pool 2x2, conv
    3x3x16, relu, max-pool, dense to 10; cross-entropy, one SGD step."""
    rng = np.random.default_rng(3)
    params = {"c1": (rng.standard_normal((3, 3, 1, 8)) / 3).astype(np.float32),
              "c2": (rng.standard_normal((3, 3, 8, 16)) / np.sqrt(72)).astype(np.float32),
              "out": _dense(rng, 7 * 7 * 16, 10)}
    x = rng.standard_normal((32, 28, 28, 1)).astype(np.float32)
    y = rng.integers(0, 10, 32).astype(np.int32)

    def conv_pool(x, k):
        x = L.lax.conv_general_dilated(x, k, (1, 1), "SAME",
                                       dimension_numbers=("NHWC", "HWIO", "NHWC"))
        x = L.nn.relu(x)
        return L.lax.reduce_window(x, -np.inf, L.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")

    def loss(p, x, y):
        h = conv_pool(conv_pool(x, p["c1"]), p["c2"])
        W, b = p["out"]
        return _cross_entropy(L, h.reshape(h.shape[0], -1) @ W + b, y, 10)

    def step(p, x, y):
        value, grads = L.value_and_grad(loss)(p, x, y)
        return _sgd(L, p, grads), value

    return step, _put(L, (params, x, y))


@program
def rk4_ode_grad(L):
    """dy/dt = tanh(y W), 100 RK4 steps in `scan`; value and gradient of a
    loss on the trajectory with respect to W and y0."""
    rng = np.random.default_rng(4)
    W = (rng.standard_normal((32, 32)) / np.sqrt(32)).astype(np.float32)
    y0 = rng.standard_normal((16, 32)).astype(np.float32)
    dt = 0.05

    def loss(W, y0):
        f = lambda y: L.np.tanh(y @ W)  # noqa: E731

        def step(y, _):
            k1 = f(y)
            k2 = f(y + dt / 2 * k1)
            k3 = f(y + dt / 2 * k2)
            k4 = f(y + dt * k3)
            y = y + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
            return y, L.np.sum(y * y)

        y, energies = L.lax.scan(step, y0, None, length=100)
        return L.np.sum(y * y) + 0.01 * L.np.sum(energies)

    return L.value_and_grad(loss, argnums=(0, 1)), _put(L, (W, y0))


@program
def rng_pipeline(L):
    """Issue 18's RNG program: uniform + normal noise over a batch of 100
    flat 28x28 images, each transposed and laid side by side."""
    def f(k):
        a, b = L.random.split(k)
        x = L.random.uniform(a, (100, 784)) + L.random.normal(b, (100, 784))
        return L.np.hstack([r.reshape(28, 28).T for r in x])

    return f, (L.random.PRNGKey(0),)


@program
def per_example_grads(L):
    """Per-example gradients of an MLP classifier 784-128-10 over a batch
    of 64: vmap(grad(loss), in_axes=(None, 0, 0))."""
    rng = np.random.default_rng(5)
    params = [_dense(rng, 784, 128), _dense(rng, 128, 10)]
    x = rng.standard_normal((64, 784)).astype(np.float32)
    y = rng.integers(0, 10, 64).astype(np.int32)

    def example_loss(params, x, y):
        return _cross_entropy(L, _mlp_logits(L, params, x[None]), y[None], 10)

    return L.vmap(L.grad(example_loss), in_axes=(None, 0, 0)), _put(L, (params, x, y))


@program
def mixed_precision_step(L):
    """Mixed precision: an MLP 256-512-10 computed in bf16 (the first
    product accumulated in f32 by preferred_element_type) from f32 master
    weights, a static loss scale, one SGD step."""
    rng = np.random.default_rng(6)
    params = [_dense(rng, 256, 512), _dense(rng, 512, 10)]
    x = rng.standard_normal((128, 256)).astype(np.float32)
    y = rng.integers(0, 10, 128).astype(np.int32)
    bf16 = L.np.bfloat16

    def loss(params, x, y):
        (W1, b1), (W2, b2) = params
        h = L.lax.dot_general(x.astype(bf16), W1.astype(bf16), (((1,), (0,)), ((), ())),
                              preferred_element_type=L.np.float32)
        h = L.nn.relu(h + b1).astype(bf16)
        logits = (h @ W2.astype(bf16)).astype(L.np.float32) + b2
        return _cross_entropy(L, logits, y, 10) * 1024.0

    def step(params, x, y):
        value, grads = L.value_and_grad(loss)(params, x, y)
        return _sgd(L, params, L.tree_map(lambda g: g / 1024.0, grads)), value / 1024.0

    return step, _put(L, (params, x, y))


@program
def adamw_train_loop(L):
    """The whole training loop in one program, as optax users write it: a
    fori_loop of 50 steps of an MLP 32-128-128-4, each clip_by_global_norm,
    Adam, weight decay on the matrices only and a warmup-cosine learning
    rate, chained over pytrees."""
    rng = np.random.default_rng(7)
    params = [_dense(rng, 32, 128), _dense(rng, 128, 128), _dense(rng, 128, 4)]
    x = rng.standard_normal((256, 32)).astype(np.float32)
    y = rng.integers(0, 4, 256).astype(np.int32)
    b1, b2, eps, wd, peak, warmup, total = 0.9, 0.999, 1e-8, 1e-4, 1e-2, 10, 50

    def loss(params, x, y):
        return _cross_entropy(L, _mlp_logits(L, params, x), y, 4)

    def update(g, state, params):
        count, mu, nu = state
        norm = L.np.sqrt(sum(L.np.sum(t * t) for t in L.tree_leaves(g)))
        g = L.tree_map(lambda t: L.np.where(norm < 1.0, t, t / norm), g)
        mu = L.tree_map(lambda m, t: b1 * m + (1 - b1) * t, mu, g)
        nu = L.tree_map(lambda v, t: b2 * v + (1 - b2) * t * t, nu, g)
        count = count + 1
        u = L.tree_map(lambda m, v: m / (1 - b1 ** count) / (L.np.sqrt(v / (1 - b2 ** count)) + eps),
                       mu, nu)
        u = L.tree_map(lambda t, p: t + wd * p if p.ndim > 1 else t, u, params)
        t = count.astype(L.np.float32)
        frac = L.np.clip((t - warmup) / (total - warmup), 0.0, 1.0)
        lr = L.np.where(t < warmup, peak * t / warmup, 0.5 * peak * (1 + L.np.cos(np.pi * frac)))
        return L.tree_map(lambda t: -lr * t, u), (count, mu, nu)

    def train(params, x, y):
        def body(i, carry):
            params, state, _ = carry
            value, g = L.value_and_grad(loss)(params, x, y)
            u, state = update(g, state, params)
            return L.tree_map(lambda p, d: p + d, params, u), state, value
        zeros = L.tree_map(L.np.zeros_like, params)
        state = (L.np.zeros([], L.np.int32), zeros, zeros)
        return L.lax.fori_loop(0, total, body, (params, state, L.np.float32(0)))

    return train, _put(L, (params, x, y))


@program
def gp_marginal_likelihood(L):
    """Gaussian-process regression on 200 points: an RBF kernel,
    cho_factor/cho_solve, the negative log marginal likelihood and its
    gradient with respect to the log hyperparameters, and the posterior
    mean at 50 points."""
    rng = np.random.default_rng(8)
    X = np.sort(rng.uniform(-3, 3, 200)).astype(np.float32)[:, None]
    y = (np.sin(X[:, 0]) + 0.1 * rng.standard_normal(200)).astype(np.float32)
    Xs = np.linspace(-3, 3, 50).astype(np.float32)[:, None]

    def kernel(a, b, scale, amp):
        return amp * L.np.exp(-0.5 * L.np.sum((a[:, None] - b[None]) ** 2, -1) / scale ** 2)

    def nll(theta, X, y):
        scale, amp, noise = L.np.exp(theta)
        K = kernel(X, X, scale, amp) + (noise + 1e-4) * L.np.eye(X.shape[0])
        factor = L.linalg.cho_factor(K, lower=True)
        alpha = L.linalg.cho_solve(factor, y)
        return 0.5 * y @ alpha + L.np.sum(L.np.log(L.np.diag(factor[0]))), alpha

    def fit(theta, X, y, Xs):
        (value, alpha), g = L.value_and_grad(nll, has_aux=True)(theta, X, y)
        scale, amp, _ = L.np.exp(theta)
        return value, g, kernel(Xs, X, scale, amp) @ alpha

    return fit, _put(L, (np.array([0.0, 0.0, -2.0], np.float32), X, y, Xs))


# ---------------------------------------------------------------------------
# StableHLO op counts
# ---------------------------------------------------------------------------

_NOT_COUNTED = {"builtin.module", "func.func", "func.return", "func.call"}


def op_counts(stablehlo_text):
    """Ops by kind in a StableHLO module, each `func.call` replaced by its
    callee's ops (so a function called twice counts twice, as XLA sees it
    after inlining); functions, calls and returns are not counted."""
    from jax._src.interpreters import mlir as jax_mlir
    from jax._src.lib.mlir import ir

    with jax_mlir.make_ir_context():
        module = ir.Module.parse(stablehlo_text)
        own, calls = {}, {}

        def walk(op, name):
            for region in op.regions:
                for block in region.blocks:
                    for inner in block.operations:
                        kind = inner.operation.name
                        if kind == "func.call":
                            calls[name].append(
                                ir.FlatSymbolRefAttr(inner.attributes["callee"]).value)
                        elif kind not in _NOT_COUNTED:
                            own[name][kind] += 1
                        walk(inner.operation, name)

        for fn in module.body.operations:
            name = ir.StringAttr(fn.attributes["sym_name"]).value
            own[name], calls[name] = collections.Counter(), []
            walk(fn.operation, name)
            if "sym_visibility" not in fn.attributes or \
                    ir.StringAttr(fn.attributes["sym_visibility"]).value == "public":
                main = name

    done = {}

    def inlined(name):
        if name not in done:
            total = collections.Counter(own[name])
            for callee in calls[name]:
                total.update(inlined(callee))
            done[name] = total
        return done[name]

    return inlined(main)


def lowered_op_counts(L, fn, args):
    return op_counts(L.jit(fn).lower(*args).as_text())


_HLO_INSTRUCTION = None


def compiled_op_count(L, fn, args):
    """Instructions in XLA's optimized HLO of the program (fused computations
    included): what runs in the steady state. Two programs XLA optimized to
    the same count (and kinds) run the same kernels, whatever their
    StableHLO."""
    import re
    global _HLO_INSTRUCTION
    if _HLO_INSTRUCTION is None:
        _HLO_INSTRUCTION = re.compile(r"^\s*(?:ROOT )?%?[\w.\-]+ = \S+ [\w\-]+\(", re.M)
    return len(_HLO_INSTRUCTION.findall(L.jit(fn).lower(*args).compile().as_text()))


def op_excess(m_counts, j_counts, top=4):
    """'kind +n' for the op kinds mlax has most more of than JAX."""
    diff = sorted(((m_counts[k] - j_counts.get(k, 0), k) for k in m_counts), reverse=True)
    return ", ".join(f"{k.split('.', 1)[1]} +{d}" for d, k in diff[:top] if d > 0)


# ---------------------------------------------------------------------------
# Timing
# ---------------------------------------------------------------------------

def _fresh(fn):
    return lambda *a: fn(*a)


def first_call_mlax(M, fn, args):
    """Seconds of a cold first call and of its stages (caches cleared)."""
    M.clear_caches()
    jitted = M.jit(_fresh(fn))
    t = time.perf_counter()
    M.block(jitted(*args))
    total = time.perf_counter() - t
    stats = next(iter(jitted._cache.values())).stats
    return {"first": total, "trace": stats["trace_s"],
            "lower": stats["passes_s"] + stats["lower_s"], "compile": stats["compile_s"]}


def first_call_jax(J, fn, args):
    """The same for JAX, through its staged API (trace, lower, compile, run)."""
    J.clear_caches()
    jitted = J.jit(_fresh(fn))
    t0 = time.perf_counter()
    traced = jitted.trace(*args)
    t1 = time.perf_counter()
    lowered = traced.lower()
    t2 = time.perf_counter()
    compiled = lowered.compile()
    t3 = time.perf_counter()
    J.block(compiled(*args))
    t4 = time.perf_counter()
    return {"first": t4 - t0, "trace": t1 - t0, "lower": t2 - t1, "compile": t3 - t2}


def steady(M, J, fm, fj, am, aj, reps):
    """Median seconds per call of each jitted program, interleaved."""
    M.block(fm(*am))
    J.block(fj(*aj))
    t = time.perf_counter()
    M.block(fm(*am))
    inner = max(1, int(0.02 / max(time.perf_counter() - t, 1e-6)))
    m, j = [], []
    for _ in range(reps):
        t = time.perf_counter()
        for _ in range(inner):
            M.block(fm(*am))
        m.append((time.perf_counter() - t) / inner)
        t = time.perf_counter()
        for _ in range(inner):
            J.block(fj(*aj))
        j.append((time.perf_counter() - t) / inner)
    return statistics.median(m), statistics.median(j)


def measure(name, quick=False):
    """One program's row: first-call stages, steady state and op counts."""
    M, J = namespaces()
    fm, am = PROGRAMS[name](M)
    fj, aj = PROGRAMS[name](J)
    first_m, first_j = [], []
    for _ in range(1 if quick else 3):
        first_m.append(first_call_mlax(M, fm, am))
        first_j.append(first_call_jax(J, fj, aj))
    med = lambda runs, k: statistics.median(r[k] for r in runs)  # noqa: E731
    row = {"name": name}
    for k in ("first", "trace", "lower", "compile"):
        row[k] = (med(first_m, k), med(first_j, k))
    row["steady"] = steady(M, J, M.jit(fm), J.jit(fj), am, aj, 5 if quick else 15)
    cm, cj = lowered_op_counts(M, fm, am), lowered_op_counts(J, fj, aj)
    row["ops"] = (sum(cm.values()), sum(cj.values()))
    row["xla_ops"] = (compiled_op_count(M, fm, am), compiled_op_count(J, fj, aj))
    row["excess"] = op_excess(cm, cj)
    return row


COLUMNS = (("first", "first call"), ("trace", "trace"), ("lower", "passes+lower"),
           ("compile", "XLA compile"), ("steady", "steady state"))


def print_header(out=sys.stdout):
    print(f"mlax {mlax.__version__} vs jax {jax.__version__} on "
          f"{jax.devices()[0].platform}; times in ms, mlax/jax and their ratio; "
          "ops: StableHLO ops handed to XLA, calls inlined; XLA ops: instructions of "
          "XLA's optimized HLO", file=out)
    head = f"{'program':18}" + "".join(f" {title:>24}" for _, title in COLUMNS)
    print(head + f" {'StableHLO ops':>20} {'XLA ops':>18}  mlax ops above jax's", file=out)


def print_row(r, out=sys.stdout):
    cells = []
    for k, _ in COLUMNS:
        m, j = r[k]
        cells.append(f"{m * 1e3:8.1f}/{j * 1e3:8.1f} {m / j:5.2f}x")
    m, j = r["ops"]
    xm, xj = r["xla_ops"]
    print(f"{r['name']:18}" + "".join(f" {c:>24}" for c in cells)
          + f" {m:6d}/{j:6d} {m / j:5.2f}x {xm:5d}/{xj:5d} {xm / xj:5.2f}x  {r['excess']}",
          file=out)
    out.flush()


def plot(rows, path):
    """A bar chart of the mlax/JAX ratios per program (needs matplotlib)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("--plot: matplotlib is not installed; no plot written")
        return
    keys = [("first", "first call"), ("compile", "XLA compile"), ("steady", "steady state"),
            ("ops", "StableHLO ops")]
    x = np.arange(len(rows))
    width = 0.8 / len(keys)
    fig, ax = plt.subplots(figsize=(1.4 * len(rows) + 2, 4))
    for i, (k, label) in enumerate(keys):
        ax.bar(x + (i - (len(keys) - 1) / 2) * width, [r[k][0] / r[k][1] for r in rows],
               width, label=label)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks(x, [r["name"] for r in rows], rotation=20, ha="right")
    ax.set_ylabel("mlax / JAX (lower is better)")
    ax.set_title(f"mlax vs JAX {jax.__version__}: real programs")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    print(f"plot written to {path}")


def main(argv=None, quick=None, plot_path=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="one cold first call each")
    parser.add_argument("--plot", nargs="?", const="real_programs.png", default=None,
                        metavar="PNG", help="write a bar chart of the ratios")
    parser.add_argument("programs", nargs="*", help=f"any of {', '.join(PROGRAMS)}")
    args = parser.parse_args(argv)
    quick = args.quick if quick is None else quick
    plot_path = args.plot if plot_path is None else plot_path
    unknown = set(args.programs) - set(PROGRAMS)
    if unknown:
        parser.error(f"unknown programs {sorted(unknown)}; choose from {list(PROGRAMS)}")
    rows = []
    print_header()
    for name in args.programs or PROGRAMS:
        rows.append(measure(name, quick))
        print_row(rows[-1])
    if plot_path:
        plot(rows, plot_path)
    return rows


if __name__ == "__main__":
    main()

"""mlax vs JAX, side by side in one process.

    python bench/run.py [--quick]
    python bench/run.py --real [--quick] [--plot [PNG]]   (bench/real_programs.py)
    python bench/compile_time.py [--quick]   (first calls of long programs, by stage)

Each case runs mlax and JAX alternately (interleaved repetitions) and reports
medians and the ratio mlax/JAX (< 1 means mlax is faster). First-call times
use a fresh function per repetition and are broken down by mlax stage.
Nothing here asserts a time: it measures and prints.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time

import numpy as np

import jax
import jax.numpy as jnp

import mlax
import mlax.numpy as mnp

CASES = []


def case(fn):
    CASES.append(fn)
    return fn


# float32 matmuls and convolutions may run as TF32 on a GPU, and XLA may pick
# different kernels for the two programs: results are compared loosely there.
ON_GPU = jax.default_backend() != "cpu"


def rtol(cpu: float) -> float:
    return max(cpu, 1e-2) if ON_GPU else cpu


def interleave(mlax_fn, jax_fn, reps, inner=1):
    """Median seconds per call of each, measured alternately."""
    m, j = [], []
    for _ in range(reps):
        t = time.perf_counter()
        for _ in range(inner):
            mlax_fn()
        m.append((time.perf_counter() - t) / inner)
        t = time.perf_counter()
        for _ in range(inner):
            jax_fn()
        j.append((time.perf_counter() - t) / inner)
    return statistics.median(m), statistics.median(j)


def selu_mlax(x):
    return 1.05 * mnp.where(x > 0, x, 1.67 * mnp.exp(x) - 1.67)


def selu_jax(x):
    return 1.05 * jnp.where(x > 0, x, 1.67 * jnp.exp(x) - 1.67)


@case
def dispatch_add(quick):
    f_m = mlax.jit(lambda x, y: x + y)
    f_j = jax.jit(lambda x, y: x + y)
    xm = mnp.array(np.arange(4, dtype=np.float32))
    xj = jnp.asarray(np.arange(4, dtype=np.float32))
    f_m(xm, xm).block_until_ready()
    f_j(xj, xj).block_until_ready()
    m, j = interleave(lambda: f_m(xm, xm), lambda: f_j(xj, xj),
                      reps=15 if quick else 41, inner=200 if quick else 1000)
    return [("cached jit dispatch, f32[4] add", m, j, "us")]


def first_calls(label, make_m, make_j, xm, xj, reps):
    """Median first-call time of fresh mlax and JAX jits (interleaved), and
    mlax's time per stage."""
    stages = {"trace_s": [], "passes_s": [], "lower_s": [], "compile_s": []}
    m_times, j_times = [], []
    for _ in range(reps):
        # A cold first call: mlax would otherwise reuse the executable of the
        # previous repetition's identical program (shared by StableHLO text).
        mlax.clear_caches()
        f_m = make_m()
        t = time.perf_counter()
        f_m(xm).block_until_ready()
        m_times.append(time.perf_counter() - t)
        stats = next(iter(f_m._cache.values())).stats
        for k in stages:
            stages[k].append(stats[k])
        f_j = make_j()
        t = time.perf_counter()
        f_j(xj).block_until_ready()
        j_times.append(time.perf_counter() - t)
    rows = [(label, statistics.median(m_times), statistics.median(j_times), "ms")]
    for k, v in stages.items():
        rows.append((f"  mlax stage: {k[:-2]}", statistics.median(v), None, "ms"))
    return rows


@case
def selu_first_call(quick):
    x = np.random.default_rng(0).standard_normal(1_000_000).astype(np.float32)
    return first_calls("first call, selu f32[1M]", lambda: mlax.jit(lambda x: selu_mlax(x)),
                       lambda: jax.jit(lambda x: selu_jax(x)), mnp.array(x), jnp.asarray(x),
                       3 if quick else 7)


def stupid_fn(x):
    """The issue's seed example: 1000 squarings whose result is discarded."""
    y = x
    for _ in range(1000):
        y = y * y
    return x


@case
def stupid_fn_first_call(quick):
    # mlax's canonicalize erases the dead chain before XLA; JAX traces it and
    # hands it on. Fresh functions each repetition: first calls only.
    x = np.ones(1000, np.float32)
    return first_calls("first call, stupid_fn (1000 dead squarings)",
                       lambda: mlax.jit(lambda x: stupid_fn(x)),
                       lambda: jax.jit(lambda x: stupid_fn(x)), mnp.array(x), jnp.asarray(x),
                       3 if quick else 7)


@case
def fori_loop_first_call(quick):
    # The seed's less_stupid_fn, its loop result kept (so the program has a
    # loop to compile: a 1000-step fori_loop with static bounds is a scan).
    x = np.float32([1.1, -1.1, 0.9, 1.0])
    make = lambda lax_: lambda x: lax_.fori_loop(0, 1000, lambda i, v: v * v, x)  # noqa
    return first_calls("first call, fori_loop of 1000 squarings",
                       lambda: mlax.jit(make(mlax.lax)), lambda: jax.jit(make(jax.lax)),
                       mnp.array(x), jnp.asarray(x), 3 if quick else 7)


def rnn_loss(lib, lax_):
    def loss(params, h0, xs):
        W, U, b = params

        def step(h, x):
            h = lib.tanh(h @ W + x @ U + b)
            return h, lib.sum(h * h)

        h, ys = lax_.scan(step, h0, xs)
        return lib.sum(h) + lib.sum(ys)
    return loss


@case
def scan_rnn_grad(quick):
    """Gradient of a scan RNN (hidden 256, input 128, 100 steps, batch 32)."""
    r = np.random.default_rng(0)
    params = (r.standard_normal((256, 256), np.float32) * 0.05,
              r.standard_normal((128, 256), np.float32) * 0.05, np.zeros(256, np.float32))
    h0 = np.zeros((32, 256), np.float32)
    xs = r.standard_normal((100, 32, 128), np.float32)
    g_m = mlax.jit(mlax.grad(rnn_loss(mnp, mlax.lax)))
    g_j = jax.jit(jax.grad(rnn_loss(jnp, jax.lax)))
    am = jax.tree_util.tree_map(mnp.array, (params, h0, xs))
    aj = jax.tree_util.tree_map(jnp.asarray, (params, h0, xs))
    got, want = g_m(*am), g_j(*aj)
    for a, b in zip(jax.tree_util.tree_leaves(got), jax.tree_util.tree_leaves(want)):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=2e-3, atol=2e-4)
    m, j = interleave(lambda: jax.block_until_ready(g_m(*am)),
                      lambda: jax.block_until_ready(g_j(*aj)), reps=5 if quick else 15)
    return [("steady state, grad of scan RNN (256, 100 steps)", m, j, "ms")]


@case
def selu_steady(quick):
    x = np.random.default_rng(0).standard_normal(1_000_000).astype(np.float32)
    xm, xj = mnp.array(x), jnp.asarray(x)
    f_m, f_j = mlax.jit(selu_mlax), jax.jit(selu_jax)
    f_m(xm).block_until_ready()
    f_j(xj).block_until_ready()
    m, j = interleave(lambda: f_m(xm).block_until_ready(), lambda: f_j(xj).block_until_ready(),
                      reps=11 if quick else 31, inner=5 if quick else 20)
    return [("steady state, selu f32[1M]", m, j, "ms")]


@case
def row_normalise(quick):
    X = np.random.default_rng(0).random((10000, 10)).astype(np.float32)
    Xm, Xj = mnp.array(X), jnp.asarray(X)
    f_m = mlax.jit(lambda X: (X - X.mean(0)) / X.std(0))
    f_j = jax.jit(lambda X: (X - X.mean(0)) / X.std(0))
    np.testing.assert_allclose(np.asarray(f_m(Xm)), np.asarray(f_j(Xj)), rtol=1e-5, atol=1e-5)
    m, j = interleave(lambda: f_m(Xm).block_until_ready(), lambda: f_j(Xj).block_until_ready(),
                      reps=11 if quick else 31, inner=10 if quick else 50)
    return [("steady state, row normalisation f32[10000,10]", m, j, "ms")]


@case
def dispatch_pytree_100(quick):
    """Cached dispatch of a jitted function whose argument is a pytree of
    100 arrays (flattening is on the dispatch path)."""
    def make(np_):
        return {f"layer{i:02d}": {"W": np_.ones((4, 4)) * i, "b": np_.zeros(4)} for i in range(50)}

    def body(params):
        return [p["W"][0, 0] + p["b"][0] for p in params.values()][-1]

    tm, tj = make(mnp), make(jnp)
    f_m, f_j = mlax.jit(body), jax.jit(body)
    f_m(tm).block_until_ready()
    f_j(tj).block_until_ready()
    m, j = interleave(lambda: f_m(tm), lambda: f_j(tj),
                      reps=15 if quick else 41, inner=100 if quick else 500)
    return [("cached jit dispatch, pytree of 100 arrays", m, j, "us")]


@case
def dispatch_host_args(quick):
    """Cached dispatch with NumPy and Python-scalar arguments (a data batch
    and a learning rate: the C++ side puts them on the device itself)."""
    f_m = mlax.jit(lambda x, lr: x * lr)
    f_j = jax.jit(lambda x, lr: x * lr)
    x = np.arange(4, dtype=np.float32)
    f_m(x, 0.5).block_until_ready()
    f_j(x, 0.5).block_until_ready()
    m, j = interleave(lambda: f_m(x, 0.5), lambda: f_j(x, 0.5),
                      reps=15 if quick else 41, inner=200 if quick else 1000)
    return [("cached jit dispatch, NumPy f32[4] and a Python float", m, j, "us")]


@case
def dispatch_pytree_100_fresh(quick):
    """As dispatch_pytree_100, but each call gets newly made arrays (as a
    training loop's updated parameters are)."""
    def make(np_):
        return {f"layer{i:02d}": {"W": np_.ones((4, 4)) * i, "b": np_.zeros(4)} for i in range(50)}

    def body(params):
        return [p["W"][0, 0] + p["b"][0] for p in params.values()][-1]

    n = 8
    tms = [jax.tree_util.tree_map(lambda a, k=k: a + k, make(mnp)) for k in range(n)]
    tjs = [jax.tree_util.tree_map(lambda a, k=k: a + k, make(jnp)) for k in range(n)]
    f_m, f_j = mlax.jit(body), jax.jit(body)
    f_m(tms[0]).block_until_ready()
    f_j(tjs[0]).block_until_ready()

    def run(f, trees):
        def go():
            for t in trees:
                f(t)
        return go

    m, j = interleave(run(f_m, tms), run(f_j, tjs),
                      reps=15 if quick else 41, inner=12 if quick else 60)
    return [("cached jit dispatch, pytree of 100 fresh arrays", m / n, j / n, "us")]


@case
def dispatch_eager_sin(quick):
    """Eager op-by-op dispatch: one mnp.sin against jnp.sin on a small array
    (warm caches: the op's executable is compiled before timing)."""
    xm = mnp.array(np.arange(4, dtype=np.float32))
    xj = jnp.asarray(np.arange(4, dtype=np.float32))
    mnp.sin(xm).block_until_ready()
    jnp.sin(xj).block_until_ready()
    m, j = interleave(lambda: mnp.sin(xm), lambda: jnp.sin(xj),
                      reps=15 if quick else 41, inner=200 if quick else 1000)
    return [("eager dispatch, sin f32[4]", m, j, "us")]


@case
def dispatch_eager_library(quick):
    """Eager calls of composite jax.numpy functions (several ops each), which
    JAX runs as one jitted call: argmax, mean, std, 3-argument where,
    take_along_axis on a small matrix (warm caches)."""
    x = np.linspace(-1, 1, 64, dtype=np.float32).reshape(8, 8)
    idx = np.argsort(x, axis=1)
    calls = [("argmax", lambda n, a: n.argmax(a, axis=1)),
             ("mean", lambda n, a: n.mean(a)),
             ("std", lambda n, a: n.std(a, axis=0)),
             ("where", lambda n, a: n.where(a > 0, a, 0.0)),
             ("take_along_axis", lambda n, a: n.take_along_axis(a, idx, axis=1))]
    rows = []
    for name, f in calls:
        xm, xj = mnp.asarray(x), jnp.asarray(x)
        f(mnp, xm).block_until_ready()
        f(jnp, xj).block_until_ready()
        m, j = interleave(lambda: f(mnp, xm).block_until_ready(),
                          lambda: f(jnp, xj).block_until_ready(),
                          reps=9 if quick else 31, inner=50 if quick else 300)
        rows.append((f"eager dispatch, {name} f32[8,8]", m, j, "us"))
    return rows


@case
def config_block_loop(quick):
    """A jitted MLP loss called inside `with default_matmul_precision(...)`
    every step, as training loops that switch precision per step do (warm
    caches): the config block must not cost a retrace per entry."""
    loss_m, loss_j = mlax.jit(mlp_loss(mnp)), jax.jit(mlp_loss(jnp))
    data_m, data_j = mlp_data(mnp), mlp_data(jnp)

    def step(lib, loss, data):
        with lib.default_matmul_precision("float32"):
            out = loss(*data)
        return out.block_until_ready()

    step(mlax, loss_m, data_m)
    step(jax, loss_j, data_j)
    m, j = interleave(lambda: step(mlax, loss_m, data_m), lambda: step(jax, loss_j, data_j),
                      reps=5 if quick else 15, inner=10 if quick else 30)
    return [("jit call in a config block, MLP loss", m, j, "us")]


def mlp_loss(lib):
    def loss(params, x, y):
        h = x
        for layer in params[:-1]:
            h = lib.tanh(h @ layer["W"] + layer["b"])
        out = h @ params[-1]["W"] + params[-1]["b"]
        return lib.mean((out - y) ** 2)
    return loss


def mlp_data(lib, sizes=(64, 256, 256, 10), batch=256):
    rng = np.random.default_rng(0)
    params = [{"W": lib.asarray(rng.standard_normal((m, n)).astype(np.float32) / np.sqrt(m)),
               "b": lib.asarray(np.zeros(n, np.float32))} for m, n in zip(sizes[:-1], sizes[1:])]
    x = lib.asarray(rng.standard_normal((batch, sizes[0])).astype(np.float32))
    y = lib.asarray(rng.standard_normal((batch, sizes[-1])).astype(np.float32))
    return params, x, y


@case
def mlp_grad(quick):
    """Gradient of a 3-layer MLP loss: the mlax-autodiff pass against JAX's
    tracing autodiff, first call (trace + passes + XLA) and steady state."""
    dm, dj = mlp_data(mnp), mlp_data(jnp)
    m_first, j_first = [], []
    for _ in range(3 if quick else 5):
        mlax.clear_caches()  # cold: not the previous repetition's executable
        g_m = mlax.jit(mlax.grad(mlp_loss(mnp)))
        t = time.perf_counter()
        mlax.block_until_ready(g_m(*dm))
        m_first.append(time.perf_counter() - t)
        g_j = jax.jit(jax.grad(mlp_loss(jnp)))
        t = time.perf_counter()
        jax.block_until_ready(g_j(*dj))
        j_first.append(time.perf_counter() - t)
    for a, b in zip(jax.tree_util.tree_leaves(g_m(*dm)), jax.tree_util.tree_leaves(g_j(*dj))):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=rtol(2e-3), atol=1e-5)
    m, j = interleave(lambda: mlax.block_until_ready(g_m(*dm)),
                      lambda: jax.block_until_ready(g_j(*dj)),
                      reps=11 if quick else 31, inner=10 if quick else 50)
    return [("first call, grad of MLP 64-256-256-10", statistics.median(m_first),
             statistics.median(j_first), "ms"),
            ("steady state, grad of MLP (batch 256)", m, j, "ms")]


@case
def eager_mlp_grad(quick):
    """grad of a small MLP loss called outside jit (issue 16: each call
    retraces, as JAX's eager grad re-runs Python; the program is cached by
    its text). Small sizes: the per-call overhead is what is measured."""
    sizes, batch = (8, 32, 32, 4), 16
    dm, dj = mlp_data(mnp, sizes, batch), mlp_data(jnp, sizes, batch)
    g_m, g_j = mlax.grad(mlp_loss(mnp)), jax.grad(mlp_loss(jnp))
    for a, b in zip(jax.tree_util.tree_leaves(g_m(*dm)), jax.tree_util.tree_leaves(g_j(*dj))):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=2e-3, atol=1e-5)
    m, j = interleave(lambda: mlax.block_until_ready(g_m(*dm)),
                      lambda: jax.block_until_ready(g_j(*dj)),
                      reps=5 if quick else 15, inner=5 if quick else 20)
    return [("eager grad of MLP 8-32-32-4 (batch 16)", m, j, "ms")]


@case
def eager_hvp(quick):
    """A Hessian-vector product (forward over reverse: jvp of grad) of the
    small MLP loss, called outside jit."""
    sizes, batch = (8, 32, 32, 4), 16
    dm, dj = mlp_data(mnp, sizes, batch), mlp_data(jnp, sizes, batch)
    vm = mlax.tree_util.tree_map(mnp.ones_like, dm[0])
    vj = jax.tree_util.tree_map(jnp.ones_like, dj[0])

    def hvp(lib, loss, data, v):
        return lib.jvp(lambda p: lib.grad(loss)(p, *data[1:]), (data[0],), (v,))[1]
    h_m = lambda: hvp(mlax, mlp_loss(mnp), dm, vm)  # noqa: E731
    h_j = lambda: hvp(jax, mlp_loss(jnp), dj, vj)  # noqa: E731
    for a, b in zip(jax.tree_util.tree_leaves(h_m()), jax.tree_util.tree_leaves(h_j())):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=2e-3, atol=1e-4)
    m, j = interleave(lambda: mlax.block_until_ready(h_m()), lambda: jax.block_until_ready(h_j()),
                      reps=5 if quick else 15, inner=3 if quick else 10)
    return [("eager hessian-vector product of MLP 8-32-32-4", m, j, "ms")]


@case
def eager_vjp_128(quick):
    """128 eager vjp calls (forward and pullback) of a small function."""
    def f_m(x):
        return mnp.sum(mnp.tanh(x) * x)

    def f_j(x):
        return jnp.sum(jnp.tanh(x) * x)
    xs = np.random.default_rng(0).standard_normal((128, 8)).astype(np.float32)
    xm, xj = [mnp.asarray(x) for x in xs], [jnp.asarray(x) for x in xs]

    def run(lib, f, inputs):
        for x in inputs:
            out, pullback = lib.vjp(f, x)
            lib.block_until_ready(pullback(1.0))
    run(mlax, f_m, xm[:2])
    run(jax, f_j, xj[:2])
    m, j = interleave(lambda: run(mlax, f_m, xm), lambda: run(jax, f_j, xj),
                      reps=3 if quick else 7)
    return [("128 eager vjp + pullback calls, f32[8]", m, j, "ms")]


_EAGER_COMPOSITES = """
import sys, time
import numpy as np
if sys.argv[1] == "jax":
    import jax as lib, jax.numpy as np_, jax.scipy.linalg as sl, jax.image as image
else:
    import mlax as lib, mlax.numpy as np_, mlax.scipy.linalg as sl, mlax.image as image
rng = np.random.default_rng(0)
a = (rng.random((6, 6)) + 6 * np.eye(6)).astype(np.float32)
b = rng.random((6, 2)).astype(np.float32)
x = rng.random((3, 16)).astype(np.float32)
calls = [lambda: np_.linalg.solve(a, b), lambda: np_.linalg.inv(a), lambda: np_.linalg.det(a),
         lambda: np_.linalg.eigh(a + a.T), lambda: np_.linalg.svd(a),
         lambda: sl.lu_solve(sl.lu_factor(a), b), lambda: np_.take(x, np.array([0, 2]), axis=1),
         lambda: np_.median(x, axis=1), lambda: np_.interp(x, x[0], x[1]), lambda: np_.cov(x),
         lambda: np_.convolve(x[0], x[1]), lambda: image.resize(x, (6, 32), "linear"),
         lambda: x[1], lambda: x[2], lambda: x[:, 3:9], lambda: x[:, 5:11]]
t = time.perf_counter()
for f in calls:
    lib.block_until_ready(f())
print(time.perf_counter() - t)
"""


_EAGER_NUMPY = """
import sys, time
import numpy as np
if sys.argv[1] == "jax":
    import jax as lib, jax.numpy as np_
else:
    import mlax as lib, mlax.numpy as np_
rng = np.random.default_rng(0)
x = rng.random((4, 16)).astype(np.float32)
v = x[0]
calls = [lambda: np_.diff(x), lambda: np_.nanvar(x, axis=1), lambda: np_.cumsum(x, axis=1),
         lambda: np_.nanmedian(x), lambda: np_.digitize(v, np.linspace(0, 1, 5)),
         lambda: np_.clip(x, 0.2, 0.8), lambda: np_.round(x, 2), lambda: np_.trace(x),
         lambda: np_.tril(x), lambda: np_.polyval(v[:4], v), lambda: np_.searchsorted(v, 0.5),
         lambda: np_.sort(x, axis=0), lambda: np_.isclose(x, v), lambda: np_.kron(x[:2], x[:2]),
         lambda: np_.gradient(v), lambda: np_.trapezoid(x), lambda: np_.unwrap(v * 9),
         lambda: np_.vander(v[:5]), lambda: np_.cross(x[:, :3], x[::-1, :3]),
         lambda: np_.rot90(x), lambda: np_.nan_to_num(x), lambda: np_.count_nonzero(x > 0.5)]
t = time.perf_counter()
for f in calls:
    lib.block_until_ready(f())
print(time.perf_counter() - t)
"""


def _fresh_process_seconds(script, lib):
    import subprocess

    out = subprocess.run([sys.executable, "-c", script, lib], check=True,
                         capture_output=True, text=True)
    return float(out.stdout.split()[-1])


@case
def eager_numpy_first_call(quick):
    """The first eager calls of 22 multi-op jax.numpy functions that JAX
    jits, each library in a fresh process (mlax wraps the same ones with
    numpy.util._eager_jit: one program per call, not one per op)."""
    reps = 1 if quick else 3
    m = statistics.median(_fresh_process_seconds(_EAGER_NUMPY, "mlax") for _ in range(reps))
    j = statistics.median(_fresh_process_seconds(_EAGER_NUMPY, "jax") for _ in range(reps))
    return [("first eager calls: 22 jitted jax.numpy functions", m, j, "ms")]


@case
def eager_composites_first_call(quick):
    """The first eager calls of composite jax.numpy / scipy.linalg / image
    functions and of basic indexing, each library in a fresh process (so
    every program is compiled): jax.numpy jits its composites, and mlax makes
    each one jit dispatch (numpy.util._eager_jit) rather than one program per
    op."""
    reps = 1 if quick else 3
    m = statistics.median(_fresh_process_seconds(_EAGER_COMPOSITES, "mlax") for _ in range(reps))
    j = statistics.median(_fresh_process_seconds(_EAGER_COMPOSITES, "jax") for _ in range(reps))
    return [("first eager calls: 12 composites + 4 indexings", m, j, "ms")]


@case
def vmap_matvec(quick):
    """vmap of a matrix-vector product against jax.vmap (steady state)."""
    rng = np.random.default_rng(0)
    mat = rng.standard_normal((512, 512)).astype(np.float32)
    xs = rng.standard_normal((256, 512)).astype(np.float32)
    mm, mj = mnp.asarray(mat), jnp.asarray(mat)
    f_m = mlax.jit(mlax.vmap(lambda v: mnp.dot(mm, v)))
    f_j = jax.jit(jax.vmap(lambda v: jnp.dot(mj, v)))
    xm, xj = mnp.asarray(xs), jnp.asarray(xs)
    np.testing.assert_allclose(np.asarray(f_m(xm)), np.asarray(f_j(xj)), rtol=1e-3, atol=1e-3)
    m, j = interleave(lambda: f_m(xm).block_until_ready(), lambda: f_j(xj).block_until_ready(),
                      reps=11 if quick else 31, inner=10 if quick else 50)
    return [("steady state, vmap matvec 512x512, batch 256", m, j, "ms")]


@case
def per_example_grads(quick):
    """vmap(grad(loss), in_axes=(None, 0, 0)) of an MLP against jax.vmap."""
    dm, dj = mlp_data(mnp, batch=128), mlp_data(jnp, batch=128)

    def example_loss(lib):
        loss = mlp_loss(lib)
        return lambda p, x, y: loss(p, x[None], y[None])

    g_m = mlax.jit(mlax.vmap(mlax.grad(example_loss(mnp)), in_axes=(None, 0, 0)))
    g_j = jax.jit(jax.vmap(jax.grad(example_loss(jnp)), in_axes=(None, 0, 0)))
    for a, b in zip(jax.tree_util.tree_leaves(g_m(*dm)), jax.tree_util.tree_leaves(g_j(*dj))):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=2e-3, atol=1e-5)
    m, j = interleave(lambda: mlax.block_until_ready(g_m(*dm)),
                      lambda: jax.block_until_ready(g_j(*dj)),
                      reps=11 if quick else 31, inner=5 if quick else 20)
    return [("steady state, per-example grads of MLP (128)", m, j, "ms")]


@case
def conv_layer(quick):
    """A conv + relu + max-pool layer (NHWC, 3x3, 32 -> 64 channels) and its
    gradient, steady state against JAX."""
    import mlax.lax as mlax_lax

    rng = np.random.default_rng(0)
    x = rng.standard_normal((16, 32, 32, 32)).astype(np.float32)
    k = (rng.standard_normal((3, 3, 32, 64)) * 0.1).astype(np.float32)

    def layer(lax_, np_):
        def f(k, x):
            y = lax_.conv_general_dilated(x, k, (1, 1), "SAME",
                                          dimension_numbers=("NHWC", "HWIO", "NHWC"))
            y = np_.maximum(y, 0.0)
            y = lax_.reduce_window(y, -np_.inf, lax_.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
            return np_.sum(y ** 2)
        return f

    xm, km, xj, kj = mnp.asarray(x), mnp.asarray(k), jnp.asarray(x), jnp.asarray(k)
    f_m, f_j = mlax.jit(layer(mlax_lax, mnp)), jax.jit(layer(jax.lax, jnp))
    g_m = mlax.jit(mlax.grad(layer(mlax_lax, mnp)))
    g_j = jax.jit(jax.grad(layer(jax.lax, jnp)))
    np.testing.assert_allclose(float(f_m(km, xm)), float(f_j(kj, xj)), rtol=rtol(1e-4))
    np.testing.assert_allclose(np.asarray(g_m(km, xm)), np.asarray(g_j(kj, xj)),
                               rtol=rtol(1e-3), atol=1e-2)
    m, j = interleave(lambda: f_m(km, xm).block_until_ready(),
                      lambda: f_j(kj, xj).block_until_ready(),
                      reps=7 if quick else 21, inner=2 if quick else 5)
    gm, gj = interleave(lambda: g_m(km, xm).block_until_ready(),
                        lambda: g_j(kj, xj).block_until_ready(),
                        reps=7 if quick else 21, inner=2 if quick else 5)
    return [("steady state, conv+relu+maxpool f32[16,32,32,32]", m, j, "ms"),
            ("steady state, grad of conv layer", gm, gj, "ms")]


def block_loss(np_):
    """A pre-norm transformer block (4-head attention and a ReLU MLP) and a
    mean-square loss of its output, in NumPy style over `np_`."""
    def layer_norm(h):
        mu = np_.mean(h, axis=-1, keepdims=True)
        var = np_.mean((h - mu) ** 2, axis=-1, keepdims=True)
        return (h - mu) / np_.sqrt(var + 1e-5)

    def loss(p, x):
        b, t, d = x.shape
        heads = 4

        def split(h):
            return np_.transpose(np_.reshape(h, (b, t, heads, d // heads)), (0, 2, 1, 3))

        h = layer_norm(x)
        q, k, v = split(h @ p["wq"]), split(h @ p["wk"]), split(h @ p["wv"])
        s = q @ np_.swapaxes(k, -1, -2) / np.sqrt(d // heads)
        s = np_.exp(s - np_.max(s, axis=-1, keepdims=True))
        a = s / np_.sum(s, axis=-1, keepdims=True)
        o = np_.reshape(np_.transpose(a @ v, (0, 2, 1, 3)), (b, t, d))
        x = x + o @ p["wo"]
        x = x + np_.maximum(layer_norm(x) @ p["w1"], 0.0) @ p["w2"]
        return np_.mean(x ** 2)
    return loss


@case
def transformer_block(quick):
    """Gradient of a transformer block's loss (batch 8, 128 tokens, width
    256, MLP 1024): the matmuls, softmax and layer norms of a real model,
    steady state against JAX."""
    rng = np.random.default_rng(0)
    d, f = 256, 1024
    shapes = {"wq": (d, d), "wk": (d, d), "wv": (d, d), "wo": (d, d), "w1": (d, f), "w2": (f, d)}
    params = {k: (rng.standard_normal(s) / np.sqrt(s[0])).astype(np.float32)
              for k, s in shapes.items()}
    x = rng.standard_normal((8, 128, d)).astype(np.float32)
    pm = {k: mnp.asarray(v) for k, v in params.items()}
    pj = {k: jnp.asarray(v) for k, v in params.items()}
    xm, xj = mnp.asarray(x), jnp.asarray(x)
    g_m = mlax.jit(mlax.value_and_grad(block_loss(mnp)))
    g_j = jax.jit(jax.value_and_grad(block_loss(jnp)))
    (lm, gm), (lj, gj) = g_m(pm, xm), g_j(pj, xj)
    np.testing.assert_allclose(float(lm), float(lj), rtol=rtol(1e-4))
    for k in params:
        np.testing.assert_allclose(np.asarray(gm[k]), np.asarray(gj[k]), rtol=rtol(2e-3),
                                   atol=1e-4)
    m, j = interleave(lambda: mlax.block_until_ready(g_m(pm, xm)),
                      lambda: jax.block_until_ready(g_j(pj, xj)),
                      reps=7 if quick else 21, inner=5 if quick else 20)
    return [("steady state, grad of transformer block", m, j, "ms")]


@case
def linear_solve(quick):
    """jnp.linalg.solve of a 512x512 float32 system, steady state (mlax
    solves through QR, JAX through LU)."""
    rng = np.random.default_rng(0)
    a = (rng.standard_normal((512, 512)) + 512 * np.eye(512)).astype(np.float32)
    b = rng.standard_normal((512, 4)).astype(np.float32)
    f_m, f_j = mlax.jit(mnp.linalg.solve), jax.jit(jnp.linalg.solve)
    am, bm, aj, bj = mnp.asarray(a), mnp.asarray(b), jnp.asarray(a), jnp.asarray(b)
    np.testing.assert_allclose(np.asarray(f_m(am, bm)), np.asarray(f_j(aj, bj)),
                               rtol=rtol(1e-4), atol=1e-5)
    m, j = interleave(lambda: f_m(am, bm).block_until_ready(),
                      lambda: f_j(aj, bj).block_until_ready(),
                      reps=7 if quick else 21, inner=5 if quick else 20)
    return [("steady state, solve 512x512 (4 right-hand sides)", m, j, "ms")]


_TRACE_SCRIPT = r"""
import sys, time
import numpy as np
import mlax, mlax.numpy as mnp
n = int(sys.argv[1])
def chain(x):
    y = x
    for i in range(n):
        y = mnp.sin(y) if i % 2 else y * 1.0001
    return y
x = np.ones(8, np.float32)
import os
page = os.sysconf("SC_PAGE_SIZE")
rss = lambda: int(open("/proc/self/statm").read().split()[1]) * page
base = rss()
t = time.perf_counter()
ir = mlax.make_ir(chain)(x)
trace_s = time.perf_counter() - t
print(trace_s, rss() - base)
"""


@case
def trace_memory(quick):
    """Tracing a long function: time and RSS growth while the traced module
    is alive (in a fresh process) for 10k and 100k ops, to show memory stays
    linear in the program's size."""
    import subprocess
    rows = []
    for n in ((10_000,) if quick else (10_000, 100_000)):
        out = subprocess.run([sys.executable, "-c", _TRACE_SCRIPT, str(n)], capture_output=True,
                             text=True, check=True).stdout.split()
        trace_s, peak = float(out[0]), int(out[1])
        rows.append((f"trace {n // 1000}k ops (mlax only): time", trace_s, None, "ms"))
        rows.append((f"  RSS growth ({peak / n:.0f} B/op)", peak, None, "MiB"))
    return rows


def _chain(np_, n):
    """n elementwise ops: a sin, then a multiply by a Python scalar, in turn."""
    def f(x):
        y = x
        for i in range(n):
            y = np_.sin(y) if i % 2 else y * 1.0001
        return np_.sum(y)
    return f


@case
def trace_scaling(quick):
    """Everything before XLA for a chain of n elementwise ops and for its
    gradient, at 1k, 10k and 100k ops: mlax's jit(f).lower (trace, passes,
    StableHLO text) against JAX's jit(f).lower (trace, lowering to its MLIR
    module, not printed). Time per op shows whether the cost is linear."""
    x = np.ones(8, np.float32)
    rows = []
    for n in ((1_000, 10_000) if quick else (1_000, 10_000, 100_000)):
        reps = 1 if n >= 100_000 else 3
        for grad, label in ((False, "forward"), (True, "gradient")):
            def lower(lib, np_):
                f = _chain(np_, n)  # a fresh function: JAX caches traces by function
                f = lib.grad(f) if grad else f
                return lambda: lib.jit(f).lower(x)
            m, j = interleave(lambda: lower(mlax, mnp)(), lambda: lower(jax, jnp)(), reps=reps)
            rows.append((f"lower {n // 1000}k-op {label} ({m / n * 1e6:.0f} us/op mlax, "
                         f"{j / n * 1e6:.0f} us/op JAX)", m, j, "ms"))
    return rows


def structured_ops(lib, lax_, np_):
    """A function of ~4000 non-elementwise ops (dot_general, dynamic slices,
    gather, clamp, cumulative ops, sort, rev, conv, reduce_window, top_k, fft,
    bitcast), whose shape rules are C++ in mlax."""
    def f(x, idx):
        y = x
        for i in range(250):
            y = lax_.dot_general(y, x, (((1,), (0,)), ((), ()))) * 0.01
            y = lax_.dynamic_slice(y, (i % 3, 0), (16, 16))
            y = lax_.dynamic_update_slice(y, y[:2], (1, 0))
            y = y[idx]
            y = lax_.clamp(-1.0, y, 1.0)
            y = lax_.cumsum(y, 0)
            y = lax_.sort(y, 1)
            y = lax_.rev(y, (0,))
            y = lax_.conv_general_dilated(y[None, None], np_.ones((1, 1, 3, 3), np_.float32),
                                          (1, 1), "SAME")[0, 0]
            y = lax_.reduce_window(y, 0.0, lax_.add, (2, 2), (1, 1), "SAME")
            y = lax_.top_k(y, 16)[0]
            y = lax_.cumprod(y, 1) * 0 + y
            y = np_.fft.fft(y).real
            y = lax_.bitcast_convert_type(lax_.bitcast_convert_type(y, np_.int32), np_.float32)
        return y
    return f


@case
def trace_structured_ops(quick):
    """Tracing alone of structured_ops (mlax.make_ir, the traced module;
    JAX's make_jaxpr): mlax's C++ shape rules against JAX's Python ones; and
    mlax's make_jaxpr, which also converts the module to a Jaxpr."""
    x, idx = np.ones((16, 16), np.float32), np.arange(16)
    # A fresh function each time: JAX caches traces by function.
    jaxpr = lambda: jax.make_jaxpr(structured_ops(jax, jax.lax, jnp))(x, idx)  # noqa: E731
    m, j = interleave(lambda: mlax.make_ir(structured_ops(mlax, mlax.lax, mnp))(x, idx), jaxpr,
                      reps=3 if quick else 7)
    mj, j2 = interleave(lambda: mlax.make_jaxpr(structured_ops(mlax, mlax.lax, mnp))(x, idx),
                        jaxpr, reps=3 if quick else 7)
    return [("trace, ~4000 structured ops (make_ir / make_jaxpr)", m, j, "ms"),
            ("  the same as a jaxpr (make_jaxpr both)", mj, j2, "ms")]


@case
def linalg_128(quick):
    """solve, inv and det of one 128x128 float32 matrix (steady state)."""
    rng = np.random.default_rng(0)
    a = rng.standard_normal((128, 128)).astype(np.float32)
    b = rng.standard_normal((128, 8)).astype(np.float32)
    am, bm, aj, bj = mnp.asarray(a), mnp.asarray(b), jnp.asarray(a), jnp.asarray(b)
    rows = []
    for label, fm, fj, args_m, args_j in (
            ("solve", mnp.linalg.solve, jnp.linalg.solve, (am, bm), (aj, bj)),
            ("inv", mnp.linalg.inv, jnp.linalg.inv, (am,), (aj,)),
            ("det", mnp.linalg.det, jnp.linalg.det, (am,), (aj,))):
        f_m, f_j = mlax.jit(fm), jax.jit(fj)
        np.testing.assert_allclose(np.asarray(f_m(*args_m)), np.asarray(f_j(*args_j)),
                                   rtol=2e-3, atol=2e-4)
        m, j = interleave(lambda: f_m(*args_m).block_until_ready(),
                          lambda: f_j(*args_j).block_until_ready(),
                          reps=11 if quick else 31, inner=10 if quick else 30)
        rows.append((f"steady state, {label} f32[128,128]", m, j, "ms"))
    return rows


@case
def data_parallel_mlp(quick):
    """A data-parallel MLP training step on 8 CPU devices (bench/sharded.py,
    in a process of its own: the device count is fixed at client start)."""
    import json
    import os
    import subprocess

    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sharded.py")
    out = subprocess.run([sys.executable, script] + (["--quick"] if quick else []),
                         check=True, capture_output=True, text=True).stdout
    return [tuple(json.loads(line)) for line in out.splitlines() if line.startswith("[")]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--real", action="store_true",
                        help="the real programs of bench/real_programs.py instead")
    parser.add_argument("--plot", nargs="?", const="real_programs.png", default=None,
                        metavar="PNG", help="with --real: a bar chart of the ratios")
    parser.add_argument("cases", nargs="*", help="case (or, with --real, program) names")
    args = parser.parse_args(argv)
    if args.real:
        import real_programs  # beside this file

        real_programs.main(args.cases, quick=args.quick, plot_path=args.plot)
        return
    if args.plot:
        parser.error("--plot needs --real")
    scale = {"us": 1e6, "ms": 1e3, "MiB": 1 / 2**20}
    dev = jax.devices()[0]
    print(f"mlax {mlax.__version__} vs jax {jax.__version__} on {dev.platform} "
          f"({dev.device_kind}); mlax's default backend: {mlax.default_backend()}")
    print(f"{'case':48} {'mlax':>12} {'jax':>12} {'mlax/jax':>9}")
    for fn in CASES:
        if args.cases and fn.__name__ not in args.cases:
            continue
        for name, m, j, unit in fn(args.quick):
            ms = f"{m * scale[unit]:.3f} {unit}"
            js = f"{j * scale[unit]:.3f} {unit}" if j is not None else ""
            ratio = f"{m / j:.2f}x" if j else ""
            print(f"{name:48} {ms:>12} {js:>12} {ratio:>9}")
            sys.stdout.flush()


if __name__ == "__main__":
    main()

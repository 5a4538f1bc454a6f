"""First-call (trace + compile) time of mlax vs JAX on programs whose compile
time users meet, side by side in one process.

    python bench/compile_time.py [--quick] [--reps N] [PROGRAM ...]

For each program, a fresh jitted function of each library is called once per
repetition (mlax's executable cache and JAX's caches cleared first, so every
call is a cold first call; the two libraries alternate), and the medians are
printed:

  * mlax's total first call and its stages: Python tracing (building the mlax
    module), the mlax passes (mlax-simplify-pipeline: autodiff and vmap
    expansion, inline, canonicalize, cse, symbol-dce), the lowering to
    StableHLO with the printing of its text, and jaxlib's parse + XLA compile;
  * JAX's first call of `jax.jit(f)` (trace + lower + compile) and of the
    function run eagerly (op by op, each op compiled on first use);
  * the ratio of the two jit first calls (< 1: mlax is faster), and the op
    counts of the two StableHLO programs (JAX's before its private functions
    are inlined, so a lower bound of what XLA sees from it).

Times are wall clock on a machine other processes may share: compare ratios,
and run it twice. Nothing here asserts a time.
"""
from __future__ import annotations

import argparse
import re
import statistics
import sys
import time

import numpy as np

import jax
import jax.numpy as jnp
import jax.random as jr
import jax.scipy.special as jsp

import mlax
import mlax.numpy as mnp
import mlax.random as mr
import mlax.scipy.special as msp

X8 = np.linspace(0.1, 0.9, 8).astype(np.float32)
_RNG = np.random.default_rng(0)
M6 = (np.eye(6) * 3 + _RNG.standard_normal((6, 6)) * 0.1).astype(np.float32)
S6 = (M6 + M6.T) / 2
PARAMS = [(_RNG.standard_normal((16, 32)).astype(np.float32), np.zeros(32, np.float32)),
          (_RNG.standard_normal((32, 32)).astype(np.float32), np.zeros(32, np.float32)),
          (_RNG.standard_normal((32, 1)).astype(np.float32), np.zeros(1, np.float32))]
XS = _RNG.standard_normal((8, 16)).astype(np.float32)
H4 = [_RNG.uniform(0.5, 2.0, 6).astype(np.float32) for _ in range(3)] + \
     [_RNG.uniform(-0.9, 0.8, 6).astype(np.float32)]


def _libs(lib):
    if lib == "mlax":
        return mlax, mnp, mlax.lax, mr, msp
    return jax, jnp, jax.lax, jr, jsp


def _mlp_loss(np_):
    def loss(p, x):
        h = x
        for i, (w, b) in enumerate(p):
            h = h @ w + b
            if i < len(p) - 1:
                h = np_.tanh(h)
        return (h ** 2).sum()
    return loss


def _scan50(np_, lax):
    def f(c):
        def body(c, _):
            c = np_.sin(c) * 0.9 + np_.cos(c) * 0.1
            return c, c.sum()
        return lax.scan(body, c, None, length=50)
    return f


# name -> (lib -> the function to jit, its arguments)
PROGRAMS = {
    "grad hyp2f1 (x)": (lambda L, np_, lax, r, sp: L.grad(
        lambda x: sp.hyp2f1(1.2, 1.5, 2.5, x).sum()), (X8,)),
    "grad hyp2f1 (a, b, c, x)": (lambda L, np_, lax, r, sp: L.grad(
        lambda a, b, c, x: sp.hyp2f1(a, b, c, x).sum(), argnums=(0, 1, 2, 3)), tuple(H4)),
    "grad betainc (x)": (lambda L, np_, lax, r, sp: L.grad(
        lambda x: sp.betainc(2.0, 3.0, x).sum()), (X8,)),
    "grad gammainc (a)": (lambda L, np_, lax, r, sp: L.grad(
        lambda a: sp.gammainc(a + 1.0, 2.0).sum()), (X8,)),
    "grad slogdet": (lambda L, np_, lax, r, sp: L.grad(
        lambda a: np_.linalg.slogdet(a)[1]), (M6,)),
    "grad eigh": (lambda L, np_, lax, r, sp: L.grad(
        lambda a: (np_.linalg.eigh(a)[0] ** 2).sum()), (S6,)),
    "random.gamma": (lambda L, np_, lax, r, sp: (
        lambda a: r.gamma(r.key(0), a, (64, 8))), (X8 + 0.5,)),
    "random.beta": (lambda L, np_, lax, r, sp: (
        lambda a: r.beta(r.key(1), a, a + 1.0, (64, 8))), (X8 + 0.5,)),
    "vmap(grad(MLP))": (lambda L, np_, lax, r, sp: L.vmap(
        L.grad(_mlp_loss(np_)), in_axes=(None, 0)), (PARAMS, XS)),
    "scan, 50 steps": (lambda L, np_, lax, r, sp: _scan50(np_, lax), (X8,)),
}


def _block(out):
    for leaf in jax.tree_util.tree_leaves(out):
        leaf.block_until_ready()


def _n_ops(text: str) -> int:
    return len(re.findall(r"^\s*(?:%\S+ = )?\"?[a-z_]+\.[a-z_0-9.]+\"?[ (]", text, re.M))


def measure(name, reps):
    make, args = PROGRAMS[name]
    stages = {"trace_s": [], "passes_s": [], "lower_s": [], "compile_s": []}
    m_total, j_jit, j_eager = [], [], []
    m_ops = j_ops = None
    for rep in range(reps + 1):  # the first, discarded, pays one-time imports and setup
        mlax.clear_caches()
        f = mlax.jit(make(*_libs("mlax")))
        t = time.perf_counter()
        _block(f(*args))
        m_total.append(time.perf_counter() - t)
        entry = next(iter(f._cache.values()))
        for k in stages:
            stages[k].append(entry.stats[k])
        m_ops = _n_ops(entry.stablehlo)

        jax.clear_caches()
        g = jax.jit(make(*_libs("jax")))
        t = time.perf_counter()
        lowered = g.lower(*args)
        lowered.compile()(*args)
        j_jit.append(time.perf_counter() - t)
        j_ops = _n_ops(lowered.as_text())

        jax.clear_caches()
        e = make(*_libs("jax"))
        t = time.perf_counter()
        _block(e(*args))
        j_eager.append(time.perf_counter() - t)
        if rep == 0:
            for v in (m_total, j_jit, j_eager, *stages.values()):
                v.clear()
    med = {k: statistics.median(v) for k, v in stages.items()}
    return (statistics.median(m_total), med, statistics.median(j_jit),
            statistics.median(j_eager), m_ops, j_ops)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="3 repetitions (default 5), "
                        "after one discarded")
    parser.add_argument("--reps", type=int, default=None)
    parser.add_argument("programs", nargs="*", help=f"some of: {', '.join(PROGRAMS)}")
    a = parser.parse_args(argv)
    reps = a.reps or (3 if a.quick else 5)
    names = [n for n in PROGRAMS if not a.programs or n in a.programs]
    # Warm both libraries (client start, first-use imports) outside the timings.
    mlax.jit(lambda x: x + 1)(X8).block_until_ready()
    jax.jit(lambda x: x + 1)(X8).block_until_ready()
    print(f"mlax {mlax.__version__} vs jax {jax.__version__}; first calls, median of {reps} "
          f"(ms)")
    print(f"{'program':26} {'mlax':>7} {'trace':>6} {'passes':>6} {'lower':>6} {'xla':>6} "
          f"{'jax jit':>8} {'mlax/jax':>8} {'jax eager':>9} {'ops mlax/jax':>13}")
    for name in names:
        m, st, jj, je, mo, jo = measure(name, reps)
        print(f"{name:26} {m * 1e3:7.0f} {st['trace_s'] * 1e3:6.0f} "
              f"{st['passes_s'] * 1e3:6.0f} {st['lower_s'] * 1e3:6.0f} "
              f"{st['compile_s'] * 1e3:6.0f} {jj * 1e3:8.0f} {m / jj:7.2f}x "
              f"{je * 1e3:9.0f} {mo:6d}/{jo:<6d}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()

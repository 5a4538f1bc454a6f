"""A data-parallel MLP training step over 8 CPU devices, mlax vs JAX in one
process (run by bench/run.py's `data_parallel_mlp` case in a process of its
own, since the device count is fixed when the CPU client starts).

    python bench/sharded.py [--quick]

The batch lies over a mesh axis "data" (NamedSharding(mesh, P("data"))), the
parameters are replicated; XLA's SPMD partitioner inserts the all-reduce of
the gradients. Prints one JSON line per measurement."""
from __future__ import annotations

import json
import os
import statistics
import sys
import time

os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") +
                           " --xla_force_host_platform_device_count=8").strip()

import numpy as np  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax.sharding import Mesh as JMesh, NamedSharding as JNamed, PartitionSpec as JP  # noqa: E402

import mlax  # noqa: E402
import mlax.numpy as mnp  # noqa: E402
from mlax.sharding import Mesh, NamedSharding, PartitionSpec as P  # noqa: E402

SIZES, BATCH = (64, 256, 256, 10), 512


def loss(np_mod, params, x, y):
    h = x
    for w, b in params[:-1]:
        h = np_mod.tanh(h @ w + b)
    w, b = params[-1]
    return np_mod.mean((h @ w + b - y) ** 2)


def make_step(lib, np_mod):
    @lib.jit
    def step(params, x, y):
        value, grads = lib.value_and_grad(lambda p: loss(np_mod, p, x, y))(params)
        return [(w - 0.01 * gw, b - 0.01 * gb) for (w, b), (gw, gb) in zip(params, grads)], value
    return step


def data():
    rng = np.random.default_rng(0)
    params = [(rng.normal(size=(a, b)).astype(np.float32) / np.sqrt(a),
               np.zeros(b, np.float32)) for a, b in zip(SIZES[:-1], SIZES[1:])]
    x = rng.normal(size=(BATCH, SIZES[0])).astype(np.float32)
    y = rng.normal(size=(BATCH, SIZES[-1])).astype(np.float32)
    return params, x, y


def main(quick=False):
    params, x, y = data()
    m = Mesh(np.array(mlax.devices()[:8]), ("data",))
    j = JMesh(np.array(jax.devices()[:8]), ("data",))
    put_m = lambda v, s: mlax.device_put(v, NamedSharding(m, P(*s)))  # noqa: E731
    put_j = lambda v, s: jax.device_put(v, JNamed(j, JP(*s)))  # noqa: E731
    pm = [(put_m(w, ()), put_m(b, ())) for w, b in params]
    pj = [(put_j(w, ()), put_j(b, ())) for w, b in params]
    xm, ym = put_m(x, ("data",)), put_m(y, ("data",))
    xj, yj = put_j(x, ("data",)), put_j(y, ("data",))

    firsts_m, firsts_j = [], []
    for _ in range(3 if quick else 5):
        mlax.clear_caches()
        jax.clear_caches()
        sm, sj = make_step(mlax, mnp), make_step(jax, jnp)
        t = time.perf_counter()
        mlax.block_until_ready(sm(pm, xm, ym))
        firsts_m.append(time.perf_counter() - t)
        t = time.perf_counter()
        jax.block_until_ready(sj(pj, xj, yj))
        firsts_j.append(time.perf_counter() - t)

    # Same losses as JAX's over a few steps (and the same parameters).
    a, b = pm, pj
    for _ in range(3):
        (a, la), (b, lb) = sm(a, xm, ym), sj(b, xj, yj)
        np.testing.assert_allclose(float(la), float(lb), rtol=1e-4)

    def run_m():
        mlax.block_until_ready(sm(pm, xm, ym))

    def run_j():
        jax.block_until_ready(sj(pj, xj, yj))
    for _ in range(5):
        run_m()
        run_j()
    ms, js = [], []
    inner = 10 if quick else 50
    for _ in range(7 if quick else 21):
        t = time.perf_counter()
        for _ in range(inner):
            run_m()
        ms.append((time.perf_counter() - t) / inner)
        t = time.perf_counter()
        for _ in range(inner):
            run_j()
        js.append((time.perf_counter() - t) / inner)
    out = [("first call, data-parallel MLP step, 8 CPU devices",
            statistics.median(firsts_m), statistics.median(firsts_j), "ms"),
           ("steady state, data-parallel MLP step, 8 CPU devices",
            statistics.median(ms), statistics.median(js), "ms")]
    for row in out:
        print(json.dumps(row))


if __name__ == "__main__":
    main("--quick" in sys.argv[1:])

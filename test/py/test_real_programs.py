"""A guard against compile cliffs: each real program of the benchmark
(bench/real_programs.py) hands XLA no more than 1.1x the StableHLO ops JAX
hands it (a count, not a time: a cliff such as threefry's unrolled rounds
shows as a larger program long before it shows as a slow compile), and
computes JAX's values."""
import pathlib
import sys

import numpy as np
import pytest

import jax

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "bench"))
import real_programs  # noqa: E402

pytestmark = pytest.mark.slow

# Each program compiles in both libraries (seconds each on 2 cores).
NAMES = sorted(real_programs.PROGRAMS)

# Float programs: XLA fuses and orders the two programs' reductions
# differently; the RNG pipeline is integer arithmetic into floats, bit for bit.
TOLERANCE = {"rng_pipeline": dict(rtol=0, atol=0)}


@pytest.mark.parametrize("name", NAMES)
def test_op_count_and_values_match_jax(name):
    M, J = real_programs.namespaces()
    fm, am = real_programs.PROGRAMS[name](M)
    fj, aj = real_programs.PROGRAMS[name](J)
    counts_m = real_programs.lowered_op_counts(M, fm, am)
    counts_j = real_programs.lowered_op_counts(J, fj, aj)
    n_m, n_j = sum(counts_m.values()), sum(counts_j.values())
    assert n_m <= 1.1 * n_j, (f"{name}: mlax hands XLA {n_m} StableHLO ops, JAX {n_j} "
                              f"({n_m / n_j:.2f}x; {real_programs.op_excess(counts_m, counts_j)})")
    got, want = M.jit(fm)(*am), J.jit(fj)(*aj)
    got_leaves, want_leaves = jax.tree_util.tree_leaves(got), jax.tree_util.tree_leaves(want)
    assert len(got_leaves) == len(want_leaves)
    tol = TOLERANCE.get(name, dict(rtol=2e-4, atol=2e-5))
    for g, w in zip(got_leaves, want_leaves):
        g, w = np.asarray(g), np.asarray(w)
        assert (g.dtype, g.shape) == (w.dtype, w.shape)
        np.testing.assert_allclose(g, w, **tol)


def test_op_counts_inline_calls():
    # A function called twice counts twice, and calls themselves not at all.
    text = """
    module {
      func.func public @main(%a: tensor<f32>) -> tensor<f32> {
        %0 = call @sq(%a) : (tensor<f32>) -> tensor<f32>
        %1 = call @sq(%0) : (tensor<f32>) -> tensor<f32>
        %2 = stablehlo.add %0, %1 : tensor<f32>
        return %2 : tensor<f32>
      }
      func.func private @sq(%a: tensor<f32>) -> tensor<f32> {
        %0 = stablehlo.multiply %a, %a : tensor<f32>
        return %0 : tensor<f32>
      }
    }"""
    assert real_programs.op_counts(text) == {"stablehlo.multiply": 2, "stablehlo.add": 1}

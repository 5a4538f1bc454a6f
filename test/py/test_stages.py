"""mlax.stages against jax.stages: jit(f).trace / .lower / .compile give
Traced / Lowered / Compiled (isinstance as JAX's), the jitted function is
a Wrapped, args_info (shapes, dtypes, donation, static arguments left out),
out_info, fun_name, and the compiled function computes what JAX's does.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import jax.stages
import numpy as np
import pytest

import mlax
import mlax.numpy as mnp
import mlax.stages

from _helpers import assert_tree_like

X = np.arange(6, dtype=np.float32).reshape(2, 3)


def _f(np_):
    def f(x, n, *, scale):
        return {"y": np_.sum(x, axis=0) * scale, "n": x.shape[0] + n}
    return f


def _stages(jit, np_):
    jf = jit(_f(np_), static_argnums=1, donate_argnames="scale")
    traced = jf.trace(X, 2, scale=np.float32(3))
    lowered = traced.lower()
    return jf, traced, lowered, lowered.compile()


def test_isinstance():
    for mod, jit, np_ in ((mlax.stages, mlax.jit, mnp), (jax.stages, jax.jit, jnp)):
        jf, traced, lowered, compiled = _stages(jit, np_)
        assert isinstance(jf, mod.Wrapped)
        assert isinstance(traced, mod.Traced)
        assert isinstance(lowered, mod.Lowered)
        assert isinstance(compiled, mod.Compiled)
        assert isinstance(jit(lambda x: x).lower(1.0), mod.Lowered)
        assert not isinstance(lambda x: x, mod.Wrapped)
    assert mlax.stages.CompilerOptions == jax.stages.CompilerOptions


def test_args_and_out_info():
    ours = _stages(mlax.jit, mnp)
    theirs = _stages(jax.jit, jnp)
    for got, want in [(ours[1].args_info, theirs[1].args_info),
                      (ours[2].args_info, theirs[2].args_info),
                      (ours[3].args_info, theirs[3].args_info)]:
        g_leaves, g_tree = jax.tree_util.tree_flatten(got)
        w_leaves, w_tree = jax.tree_util.tree_flatten(want)
        assert g_tree == w_tree
        assert all(isinstance(a, mlax.stages.ArgInfo) for a in g_leaves)
        assert [(a.shape, a.dtype, a.donated) for a in g_leaves] == \
            [(a.shape, a.dtype, a.donated) for a in w_leaves]
    for stage in (1, 2, 3):  # Traced, Lowered, Compiled
        g_out, w_out = ours[stage].out_info, theirs[stage].out_info
        assert jax.tree_util.tree_structure(g_out) == jax.tree_util.tree_structure(w_out)
        for g, w in zip(jax.tree_util.tree_leaves(g_out), jax.tree_util.tree_leaves(w_out)):
            assert (g.shape, g.dtype) == (w.shape, w.dtype)
            assert g.weak_type == w.weak_type
    assert ours[1].out_info["n"].weak_type  # a traced Python int stays weak until lowered
    assert ours[1].fun_name == theirs[1].fun_name == "f"


def test_traced_from_shape_structs_and_compiled_call():
    spec = jax.ShapeDtypeStruct((2, 3), np.float32)
    compiled = mlax.jit(lambda x, y: x @ y.T + 1).trace(spec, spec).lower().compile()
    want = jax.jit(lambda x, y: x @ y.T + 1)(X, X)
    assert_tree_like(compiled(X, X), want)
    assert "dot_general" in mlax.jit(lambda x: x @ x.T).trace(X).jaxpr.__str__()


def _hlo_multiplies(compiled):
    return compiled.as_text().count(" multiply(")


@pytest.mark.parametrize("where", ["jit", "compile"])
def test_compiler_options_reach_xla(where):
    """jit(compiler_options=) and Lowered.compile(compiler_options) hand XLA
    its options, as JAX's: with every HLO pass off, XLA keeps the chain of
    multiplications by constants its simplifier folds."""
    def f(np_):
        return lambda x: ((x * 2.0) * 3.0) * 4.0

    off = {"xla_disable_all_hlo_passes": True}
    counts = []
    for lib, np_ in ((jax, jnp), (mlax, mnp)):
        plain = lib.jit(f(np_)).lower(X).compile()
        if where == "jit":
            opted = lib.jit(f(np_), compiler_options=off).lower(X).compile()
        else:
            opted = lib.jit(f(np_)).lower(X).compile(off)
        assert _hlo_multiplies(opted) > _hlo_multiplies(plain)
        assert_tree_like(opted(X), jax.jit(f(jnp))(X))
        counts.append(_hlo_multiplies(opted))
    assert counts[0] == counts[1] == 3
    # Calls of the jit with options run them too (and give the same values).
    assert_tree_like(mlax.jit(f(mnp), compiler_options=off)(X), jax.jit(f(jnp))(X))


@pytest.mark.parametrize("opts", [{"no_such_option_anywhere": 1},
                                  {"xla_backend_optimization_level": "abc"}])
def test_compiler_options_xla_rejects(opts):
    """An option XLA does not know, or a value it cannot read, is XLA's
    JaxRuntimeError at compile in both libraries."""
    with pytest.raises(jax.errors.JaxRuntimeError, match="INVALID_ARGUMENT") as want:
        jax.jit(lambda x: x + 1, compiler_options=opts)(X)
    with pytest.raises(jax.errors.JaxRuntimeError, match="INVALID_ARGUMENT") as got:
        mlax.jit(lambda x: x + 1, compiler_options=opts)(X)
    assert str(got.value) == str(want.value)
    with pytest.raises(jax.errors.JaxRuntimeError):
        mlax.jit(lambda x: x + 2).lower(X).compile(opts)
    with pytest.raises(TypeError):
        mlax.jit(lambda x: x, compiler_options={3: 1})


def test_optimization_switches():
    """JAX's config switches of XLA's effort: validated as JAX's, and a jit
    compiled under them computes the same."""
    for name, bad, exc in (("jax_optimization_level", "O7", ValueError),
                           ("jax_memory_fitting_level", "fast", ValueError)):
        with pytest.raises(exc):
            jax.config.update(name, bad)
        with pytest.raises(exc):
            mlax.config.update(name, bad)
    g = lambda x: mnp.tanh(x) @ x.T
    want = np.tanh(X) @ X.T
    try:
        mlax.config.update("jax_optimization_level", "O0")
        mlax.config.update("jax_exec_time_optimization_effort", -1.0)
        np.testing.assert_allclose(mlax.jit(g)(X), want, rtol=1e-5)
    finally:
        mlax.config.update("jax_optimization_level", "UNKNOWN")
        mlax.config.update("jax_exec_time_optimization_effort", 0.0)
    assert mlax.config.jax_optimization_level == "UNKNOWN"

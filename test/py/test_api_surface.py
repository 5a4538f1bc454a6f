"""mlax's public API against the installed JAX's, module by module: every
public name of a JAX module must exist in the matching mlax module, unless
it is in EXCLUDED with the reason it is left out. Covered so far:
jax.lax, jax.numpy.linalg, jax.scipy.special and jax.scipy.stats with each of
its distribution modules.
"""
from __future__ import annotations

import importlib
import types

import pytest

# (JAX module, mlax module) pairs; each stats distribution is a module of its own.
_STATS_DISTS = sorted(
    name for name, value in vars(importlib.import_module("jax.scipy.stats")).items()
    if isinstance(value, types.ModuleType) and not name.startswith("_"))
MODULES = [("jax.lax", "mlax.lax"),
           ("jax.numpy.linalg", "mlax.numpy.linalg"),
           ("jax.scipy.special", "mlax.scipy.special"),
           ("jax.scipy.stats", "mlax.scipy.stats")] + [
    (f"jax.scipy.stats.{d}", f"mlax.scipy.stats.{d}") for d in _STATS_DISTS]

# "module.name": why mlax does not have it (yet).
EXCLUDED = {
    "jax.scipy.special.sph_harm_y": "complex-valued; mlax has no complex special functions",
    "jax.scipy.special.wofz": "complex-valued (the Faddeeva function); no complex support",
    "jax.scipy.special.hyp1f1": "confluent hypergeometric series with per-element loops: "
                                "not built yet",
    "jax.scipy.special.hyp2f1": "Gauss hypergeometric function: not built yet",
    "jax.scipy.special.bessel_jn": "Bessel J_n by backward recurrence (scan + cond): not built yet",
    "jax.scipy.special.fresnel": "Fresnel integrals: not built yet",
    "jax.scipy.special.owens_t": "Owen's T by quadrature: not built yet",
    "jax.scipy.stats.gaussian_kde": "a class over a dataset (weights, bandwidth, resample): "
                                    "not built yet",
    "jax.numpy.linalg.eig": "nonsymmetric eigendecomposition (LAPACK geev, complex results): "
                            "no dialect op",
    "jax.numpy.linalg.eigvals": "nonsymmetric eigenvalues (geev, complex results): no dialect op",
}

# mlax has no JAX primitives: its ops are mlax dialect ops, reached through the
# functions (jax.lax.add for add_p, ...).
EXCLUDED.update({f"jax.lax.{name}": "a JAX primitive object; mlax's primitives are dialect ops"
                 for name in dir(importlib.import_module("jax.lax")) if name.endswith("_p")})

_COLLECTIVE = "a collective / sharding operation over named mesh axes: the sharding issue"
EXCLUDED.update({f"jax.lax.{name}": _COLLECTIVE for name in (
    "all_gather", "all_to_all", "axis_index", "axis_size", "pbroadcast", "pcast", "pmax",
    "pmean", "pmin", "ppermute", "precv", "psend", "pshuffle", "psum", "psum_scatter",
    "pswapaxes", "ragged_all_to_all", "with_sharding_constraint")})

_COMPLEX = "complex parts: the dialect has no complex/real/imag/conj ops"
EXCLUDED.update({f"jax.lax.{name}": _COMPLEX for name in ("complex", "conj", "real", "imag")})

_TOKENS = "tokens order side effects; mlax programs have none"
EXCLUDED.update({
    "jax.lax.create_token": _TOKENS,
    "jax.lax.after_all": _TOKENS,
    "jax.lax.DotAlgorithm": "dot algorithms (operand / accumulation types): the dialect's "
                            "dot_general carries no algorithm or precision config",
    "jax.lax.DotAlgorithmPreset": "see DotAlgorithm",
    "jax.lax.AccuracyMode": "accuracy hints of transcendental ops: no dialect attribute",
    "jax.lax.Tolerance": "accuracy hints of transcendental ops: no dialect attribute",
    "jax.lax.RandomAlgorithm": "XLA's stateless RNG algorithms: no rng_bit_generator op "
                               "(mlax.random is threefry in lax ops)",
    "jax.lax.rng_bit_generator": "needs a rng_bit_generator dialect op",
    "jax.lax.rng_uniform": "XLA's stateful RNG: no dialect op, and mlax.random is key-based",
    "jax.lax.RaggedDotDimensionNumbers": "ragged dot: no dialect op",
    "jax.lax.ragged_dot": "ragged (group-sized) matmul: no dialect op",
    "jax.lax.ragged_dot_general": "ragged (group-sized) matmul: no dialect op",
    "jax.lax.scaled_dot": "block-scaled low-precision dot: no dialect op",
    "jax.lax.scatter_apply": "a function applied once per index hit (again for duplicates) needs "
                             "a scatter with a traced combiner region; mlax.scatter's is one of "
                             "set/add/mul/min/max",
    "jax.lax.custom_root": "implicit differentiation of a root solve: not built yet",
    "jax.lax.custom_linear_solve": "implicit differentiation of a linear solve: not built yet",
    "jax.lax.composite": "XLA composite ops (a named decomposition): no dialect op",
    "jax.lax.platform_dependent": "per-platform branches chosen at lowering: not built yet",
    "jax.lax.stage": "staging out to another JAX stage: no mlax counterpart",
    "jax.lax.dce_sink": "a JAX-internal dead-code-elimination sink: no mlax counterpart",
})


def _public(module):
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n in dir(module) if not n.startswith("_")]
    return {n for n in names if not isinstance(getattr(module, n), types.ModuleType)}


def coverage():
    """{jax module: (names mlax has, names JAX has)}."""
    out = {}
    for jax_name, mlax_name in MODULES:
        theirs = _public(importlib.import_module(jax_name))
        try:
            ours = set(dir(importlib.import_module(mlax_name)))
        except ImportError:
            ours = set()
        out[jax_name] = (len(theirs & ours), len(theirs))
    return out


@pytest.mark.parametrize("jax_name,mlax_name", MODULES, ids=[m for m, _ in MODULES])
def test_module_has_jax_public_names(jax_name, mlax_name):
    theirs = _public(importlib.import_module(jax_name))
    ours = importlib.import_module(mlax_name)
    missing = sorted(n for n in theirs
                     if not hasattr(ours, n) and f"{jax_name}.{n}" not in EXCLUDED)
    assert not missing, f"{mlax_name} lacks {missing} (JAX's {jax_name} has them)"


def test_exclusions_are_current():
    """An excluded name that mlax now has, or that JAX no longer has, must
    leave the list."""
    stale = []
    for key in EXCLUDED:
        jax_name, _, name = key.rpartition(".")
        mlax_name = "mlax" + jax_name[len("jax"):]
        if name not in _public(importlib.import_module(jax_name)):
            stale.append(f"{key} (not in JAX)")
        elif hasattr(importlib.import_module(mlax_name), name):
            stale.append(f"{key} (mlax has it)")
    assert not stale, stale

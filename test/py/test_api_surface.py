"""mlax's public API against the installed JAX's, module by module: every
public name of a JAX module must exist in the matching mlax module, unless
it is in EXCLUDED with the reason it is left out. Covered so far: the
top-level `jax` module, jax.dtypes, jax.image, jax.tree, jax.tree_util,
jax.lax, jax.numpy, jax.numpy.linalg, jax.scipy's cluster.vq, fft, interpolate,
linalg, ndimage, optimize, signal, spatial.transform, special and stats (with
each of its distribution modules), jax.flatten_util, jax.typing,
jax.custom_derivatives, jax.test_util, jax.errors,
jax.example_libraries.optimizers / stax, jax.random, jax.nn.initializers,
jax.custom_batching, jax.ad_checkpoint, jax.export, jax.sharding,
jax.distributed, jax.monitoring, jax.profiler, jax.experimental.mesh_utils,
jax.experimental itself and its ode, jet, checkify, multihost_utils,
compilation_cache, serialize_executable and sparse (with its random and
linalg), jax.stages, jax.debug, jax.nn and
jax.scipy.sparse.linalg, jax.extend.random, jax.extend.backend and jax.extend.core.
"""
from __future__ import annotations

import importlib
import types

import pytest

# (JAX module, mlax module) pairs; each stats distribution is a module of its own.
_STATS_DISTS = sorted(
    name for name, value in vars(importlib.import_module("jax.scipy.stats")).items()
    if isinstance(value, types.ModuleType) and not name.startswith("_"))
_SCIPY = ("cluster.vq", "fft", "interpolate", "linalg", "ndimage", "optimize", "signal",
          "sparse.linalg",
          "spatial.transform", "special", "stats")
MODULES = [("jax", "mlax"), ("jax.dtypes", "mlax.dtypes"), ("jax.image", "mlax.image"),
           ("jax.tree", "mlax.tree"), ("jax.tree_util", "mlax.tree_util"),
           ("jax.lax", "mlax.lax"), ("jax.numpy", "mlax.numpy"),
           ("jax.numpy.linalg", "mlax.numpy.linalg"), ("jax.lax.linalg", "mlax.lax.linalg"),
           ("jax.flatten_util", "mlax.flatten_util"), ("jax.typing", "mlax.typing"),
           ("jax.custom_derivatives", "mlax.custom_derivatives"),
           ("jax.test_util", "mlax.test_util"), ("jax.errors", "mlax.errors"),
           ("jax.example_libraries.optimizers", "mlax.example_libraries.optimizers"),
           ("jax.example_libraries.stax", "mlax.example_libraries.stax"),
           ("jax.random", "mlax.random"), ("jax.nn.initializers", "mlax.nn.initializers"),
           ("jax.custom_batching", "mlax.custom_batching"),
           ("jax.ad_checkpoint", "mlax.ad_checkpoint"), ("jax.export", "mlax.export"),
           ("jax.sharding", "mlax.sharding"), ("jax.distributed", "mlax.distributed"),
           ("jax.monitoring", "mlax.monitoring"), ("jax.profiler", "mlax.profiler"),
           ("jax.experimental.mesh_utils", "mlax.experimental.mesh_utils"),
           ("jax.experimental.ode", "mlax.experimental.ode"), ("jax.stages", "mlax.stages"),
           ("jax.experimental", "mlax.experimental"), ("jax.ref", "mlax.ref"),
           ("jax.experimental.random", "mlax.experimental.random"),
           ("jax.experimental.compilation_cache.compilation_cache",
            "mlax.experimental.compilation_cache.compilation_cache"),
           ("jax.experimental.serialize_executable", "mlax.experimental.serialize_executable"),
           ("jax.experimental.jet", "mlax.experimental.jet"),
           ("jax.experimental.multihost_utils", "mlax.experimental.multihost_utils"),
           ("jax.experimental.checkify", "mlax.experimental.checkify"),
           ("jax.experimental.sparse", "mlax.experimental.sparse"),
           ("jax.experimental.sparse.random", "mlax.experimental.sparse.random"),
           ("jax.experimental.sparse.linalg", "mlax.experimental.sparse.linalg"),
           ("jax.debug", "mlax.debug"), ("jax.nn", "mlax.nn"), ("jax.ffi", "mlax.ffi"),
           ("jax.extend.random", "mlax.extend.random"),
           ("jax.extend.backend", "mlax.extend.backend"), ("jax.core", "mlax.core"),
           ("jax.extend.core", "mlax.extend.core"),
           ("jax.experimental.rnn", "mlax.experimental.rnn")] + [
    (f"jax.scipy.{m}", f"mlax.scipy.{m}") for m in _SCIPY] + [
    (f"jax.scipy.stats.{d}", f"mlax.scipy.stats.{d}") for d in _STATS_DISTS]

# Top-level names left to other work or out of mlax's scope, by reason.
_SHARDING = "SPMD beyond jit's partitioning (shard_map, pmap, explicit sharding in types): " \
            "not built yet (issue 17)"
_JAX_CONFIG = "a JAX config switch for a feature mlax does not have"
_TOP_LEVEL = {
    "reshard": _SHARDING, "smap": _SHARDING, "auto_pcast": _SHARDING,
    "remove_size_one_mesh_axis_from_type": _SHARDING,
    "ad": "JAX's autodiff interpreter internals (jax.interpreters.ad)",
    "memory": "memory kinds (pinned host, device) of sharded arrays: not built",
    "live_arrays": "mlax arrays wrap buffers of the PJRT client JAX shares: the client's list "
                   "cannot tell mlax's from JAX's, nor give their weak types",
    "jax2tf_associative_scan_reductions": _JAX_CONFIG,
    "array_garbage_collection_guard": _JAX_CONFIG, "make_user_context": _JAX_CONFIG,
    "thread_guard": _JAX_CONFIG, "enable_checks": _JAX_CONFIG,
}

# "module.name": why mlax does not have it (yet).
EXCLUDED = {
    **{f"jax.{name}": why for name, why in _TOP_LEVEL.items()},
}

EXCLUDED.update({
    "jax.custom_derivatives.custom_jvp_call_p": "a JAX primitive object; mlax's is a dialect op",
    "jax.custom_derivatives.custom_vjp_call_p": "a JAX primitive object; mlax's is a dialect op",
    "jax.custom_derivatives.remat_opt_p": "a JAX primitive object (optimize_remat, which "
                                          "mlax accepts and needs no primitive for)",
    "jax.errors.InconclusiveDimensionOperation": "symbolic (polymorphic) shapes: not built",
    "jax.errors.JaxprTypeError": "jaxpr type checking (enable_checks): mlax has no jaxprs; "
                                 "the MLIR verifier checks its IR",
})

_SHAPE_POLY = "shape polymorphism (symbolic dimensions) in export: not built"
EXCLUDED.update({
    "jax.export.SymbolicScope": _SHAPE_POLY, "jax.export.is_symbolic_dim": _SHAPE_POLY,
    "jax.export.symbolic_shape": _SHAPE_POLY, "jax.export.symbolic_args_specs": _SHAPE_POLY,
})

_HIJAX = "JAX's experimental user-defined types (jax._src.hijax, earray): not built"
EXCLUDED.update({"jax.experimental.EArray": _HIJAX, "jax.experimental.cur_qdd": _HIJAX,
                 "jax.experimental.primal_tangent_dtype": _HIJAX})
EXCLUDED.update({f"jax.experimental.serialize_executable.{name}":
                 "an import of JAX's module (typing), not its API"
                 for name in ("Sequence", "annotations")})

_EFFECTS = "a type of JAX's effect system (effects of jaxpr equations); mlax has no effect " \
           "objects: its host callbacks are ops carrying an `ordered` attribute"
EXCLUDED.update({"jax.debug.DebugEffect": _EFFECTS, "jax.debug.OrderedDebugEffect": _EFFECTS})

_LOWERING_RULES = ("builds a lowering rule for a JAX primitive (a function of JAX's "
                   "mlir.LoweringRuleContext); mlax has no user-defined primitives nor Python "
                   "lowering rules: an FFI target is called with ffi_call, whose op the C++ "
                   "conversion lowers to the custom call")
EXCLUDED.update({f"jax.ffi.{name}": _LOWERING_RULES
                 for name in ("ffi_lowering", "build_ffi_lowering_function")})

_SCALED_MATMUL = ("block-scaled (MXFP8 / NVFP4) matmul: JAX has only cuDNN and ROCm lowerings "
                  "(on the CPU it raises NotImplementedError, 'MLIR translation rule for "
                  "primitive scaled_matmul not found for platform cpu'); mlax has no dialect op")
EXCLUDED.update({f"jax.nn.{name}": _SCALED_MATMUL for name in (
    "scaled_matmul", "scaled_dot_general", "get_scaled_dot_general_config")})

EXCLUDED["jax.extend.random.threefry2x32_p"] = "a JAX primitive object; mlax's threefry " \
                                               "is traced from lax ops"
_BACKEND_REGISTRY = ("JAX's registry of backend factories and of the caches tied to them; "
                     "mlax's clients are jaxlib's, made once per platform")
EXCLUDED.update({f"jax.extend.backend.{name}": _BACKEND_REGISTRY for name in (
    "clear_backends", "register_backend_cache", "register_backend_factory")})
EXCLUDED["jax.extend.backend.get_compile_options"] = (
    "XLA CompileOptions from JAX's flags: mlax sets its own (backend.runtime) and exposes "
    "none to pass on")
# jax.extend.core: mlax's Primitive runs its impl traced into mlax ops (see
# mlax._src.jit.extend_core); JAX's interpreter machinery has no counterpart.
_JAXPR_BUILDING = ("building or checking jaxprs by hand: mlax's jaxprs are read-only views of "
                   "the MLIR module a function traces to")
_TRACE_STATE = ("JAX's trace-interpreter state (the current trace, its tags, axis env): mlax "
                "traces into MLIR, with no per-primitive interpreter to reach")
_EFFECT_TYPES = "JAX's effect system (effect types, tokens): mlax ops carry no effect types"
EXCLUDED.update({f"jax.extend.core.{name}": _JAXPR_BUILDING for name in (
    "DebugInfo", "DropVar", "JaxprTypeError", "check_jaxpr", "gensym", "jaxprs_in_params",
    "new_jaxpr_eqn", "subjaxprs")})
EXCLUDED.update({f"jax.extend.core.{name}": _TRACE_STATE for name in (
    "TraceTag", "find_top_trace", "get_opaque_trace_state", "set_current_trace",
    "take_current_trace", "nonempty_axis_env_DO_NOT_USE", "unsafe_am_i_under_a_jit_DO_NOT_USE",
    "unsafe_am_i_under_a_vmap_DO_NOT_USE", "unsafe_get_axis_names_DO_NOT_USE")})
EXCLUDED.update({f"jax.extend.core.{name}": _EFFECT_TYPES for name in (
    "AbstractToken", "Token", "Effect", "Effects", "no_effects")})
EXCLUDED["jax.extend.core.CallPrimitive"] = (
    "call primitives bind a linear_util.WrappedFun, JAX's internal function wrapper; an "
    "mlax function calls another with jit (an mlax.call op)")
EXCLUDED["jax.extend.core.call_impl"] = "the eager rule of JAX's call primitives (CallPrimitive)"
EXCLUDED["jax.extend.core.InconclusiveDimensionOperation"] = (
    "symbolic dimensions (shape polymorphism): mlax's shapes are static")
EXCLUDED["jax.random.random_gamma_p"] = "a JAX primitive object; mlax's gamma is traced " \
                                        "from lax ops"

# Names JAX's example modules import for their own use, not API.
_MODULE_IMPORT = "an import of JAX's example module (a helper it uses), not its API"
EXCLUDED.update({f"jax.example_libraries.optimizers.{name}": _MODULE_IMPORT for name in (
    "map", "partial", "safe_map", "safe_zip", "unzip2", "zip")})
_ODE_IMPORT = "an import of JAX's jax.experimental.ode (a helper it uses), not its API"
EXCLUDED.update({f"jax.experimental.ode.{name}": _ODE_IMPORT for name in (
    "Callable", "map", "partial", "promote_dtypes_inexact", "ravel_pytree", "safe_map",
    "safe_zip", "tree_leaves", "tree_map", "zip")})
EXCLUDED["jax.experimental.ode.ravel_first_arg_"] = (
    "the linear_util transformation (over JAX's WrappedFun) behind ravel_first_arg; mlax's "
    "ravel_first_arg is a plain function")

_JET_IMPORT = "an import of JAX's jax.experimental.jet (a helper it uses), not its API"
EXCLUDED.update({f"jax.experimental.jet.{name}": _JET_IMPORT for name in (
    "Any", "Callable", "partial", "register_pytree_node", "safe_zip", "tree_flatten",
    "tree_structure", "tree_unflatten", "treedef_is_leaf", "unzip2", "weakref_lru_cache")})
# mlax's jet is nested jvps in the curve's parameter: no Taylor trace, no rule per primitive.
_JET_TRACE = "JAX's jet interpreter (a Trace over lu.WrappedFun); mlax's jet is nested jvps"
_JET_RULES = "JAX's table of Taylor rules per JAX primitive (or a helper filling it); mlax's " \
             "jet needs none: it differentiates with each op's derivative rule"
EXCLUDED.update({f"jax.experimental.jet.{name}": _JET_TRACE for name in (
    "JetTrace", "JetTracer", "jet_fun", "jet_subtrace", "traceable", "call_param_updaters")})
EXCLUDED.update({f"jax.experimental.jet.{name}": _JET_RULES for name in (
    "jet_rules", "defzero", "zero_prop", "deflinear", "linear_prop", "def_deriv",
    "deriv_prop", "def_comp")})
_MULTIHOST_IMPORT = "an import of JAX's jax.experimental.multihost_utils (a helper it uses), " \
                    "not its API"
EXCLUDED.update({f"jax.experimental.multihost_utils.{name}": _MULTIHOST_IMPORT for name in (
    "Any", "P", "annotations", "lru_cache", "partial", "safe_zip", "tree_flatten",
    "tree_unflatten")})
_MULTIHOST_PRIMITIVE = "a JAX primitive (or its abstract-eval / batching rule) behind the " \
                       "host/global conversions; mlax's are functions, identities under jit"
EXCLUDED.update({f"jax.experimental.multihost_utils.{name}": _MULTIHOST_PRIMITIVE for name in (
    "host_local_array_to_global_array_p", "global_array_to_host_local_array_p",
    "ltg_abstract_eval", "gtl_abstract_eval", "ltg_batcher")})
# jax.experimental.sparse: mlax builds every format; the rest, by reason.
_SPARSE_PRIM = ("a JAX Primitive object (JAX's jaxpr interpreter); mlax's BCOO operations are "
                "compositions of lax ops, with no primitive of their own")
EXCLUDED.update({f"jax.experimental.sparse.{name}": _SPARSE_PRIM for name in (
    "bcoo_dot_general_p", "bcoo_dot_general_sampled_p", "bcoo_extract_p", "bcoo_fromdense_p",
    "bcoo_sort_indices_p", "bcoo_spdot_general_p", "bcoo_sum_duplicates_p", "bcoo_todense_p",
    "bcoo_transpose_p", "todense_p", "bcsr_dot_general_p", "bcsr_extract_p",
    "bcsr_fromdense_p", "bcsr_todense_p", "coo_fromdense_p", "coo_matmat_p", "coo_matvec_p",
    "coo_todense_p", "csr_fromdense_p", "csr_matmat_p", "csr_matvec_p", "csr_todense_p")})
_SPARSE_IMPORT = "a name JAX's module imports for its own use (typing, helpers), not its API"
EXCLUDED.update({f"jax.experimental.sparse.random.{name}": _SPARSE_IMPORT for name in (
    "Any", "Array", "Callable", "DTypeLike", "Sequence", "split_list", "vmap")})
EXCLUDED.update({f"jax.experimental.sparse.linalg.{name}": _SPARSE_IMPORT for name in (
    "Callable", "annotations")})
EXCLUDED["jax.experimental.sparse.linalg.spsolve_p"] = (
    "the JAX Primitive behind spsolve (its CPU rule calls SciPy); mlax's spsolve is a "
    "composition of lax ops, with no primitive of its own")
EXCLUDED["jax.experimental.sparse.SparseTracer"] = (
    "the tracer of JAX's sparsify interpreter; mlax's sparsify interprets the traced "
    "function's IR, with no tracer of its own")

# Measured with jaxlib 0.10.2 on the CPU; JAX fails on them too, inside XLA.
EXCLUDED.update({f"jax.numpy.{name}": "float6: XLA in this jaxlib has no such primitive type "
                 "('Invalid XLA PrimitiveType: 36 (F6E2M3FN)')"
                 for name in ("float6_e2m3fn", "float6_e3m2fn")})
EXCLUDED.update({f"jax.numpy.{name}": "1-bit integers: XLA's CPU client in this jaxlib rejects "
                 "their buffers ('expected pred[3] but got s1[3]')" for name in ("int1", "uint1")})
EXCLUDED.update({f"jax.numpy.{name}": "2-bit integers: XLA's CPU compiler in this jaxlib aborts "
                 "the process on their concatenate ('Check failed: bit_offset != nullptr')"
                 for name in ("int2", "uint2")})

# mlax has no JAX primitives: its ops are mlax dialect ops, reached through the
# functions (jax.lax.add for add_p, ...).
EXCLUDED.update({f"{module}.{name}": "a JAX primitive object; mlax's primitives are dialect ops"
                 for module in ("jax.lax", "jax.lax.linalg")
                 for name in dir(importlib.import_module(module)) if name.endswith("_p")})

_IN_TYPES = "sharding in types (Explicit / Manual mesh axes, abstract meshes): mlax's mesh " \
            "axes are Auto, laid out by XLA's propagation"
EXCLUDED.update({f"jax.sharding.{name}": _IN_TYPES for name in (
    "AbstractDevice", "AbstractMesh", "ManualAxisType", "auto_axes", "explicit_axes",
    "get_abstract_mesh", "reshard", "use_abstract_mesh")})

_COLLECTIVE = "a collective mlax does not have yet (varying-axis casts, point-to-point, " \
              "ragged): issue 17"
EXCLUDED.update({f"jax.lax.{name}": _COLLECTIVE for name in (
    "pcast", "precv", "psend", "ragged_all_to_all")})


_RNN_IMPORT = "an import of JAX's jax.experimental.rnn (a helper it uses), not its API"
EXCLUDED.update({f"jax.experimental.rnn.{name}": _RNN_IMPORT for name in (
    "Any", "Array", "custom_vjp", "partial", "sigmoid", "tanh")})
EXCLUDED.update({f"jax.experimental.rnn.{name}": (
    "JAX's cuDNN RNN primitive (or its abstract-eval rule); mlax's lstm is a scan of cells")
    for name in ("rnn_fwd_p", "rnn_bwd_p", "rnn_abstract_eval", "rnn_bwd_abstract_eval")})

_TOKENS = "tokens order side effects; mlax programs have none"
EXCLUDED.update({
    "jax.lax.create_token": _TOKENS,
    "jax.lax.after_all": _TOKENS,
    "jax.lax.scaled_dot": "block-scaled low-precision dot: no dialect op",
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

"""Cached jit dispatch on jaxlib's C++ jit fast path.

A cached `mlax.jit` call is dispatched by jaxlib's `PjitFunction` (the C++
object behind `jax.jit`): it flattens the arguments, checks their signature
against its cache, runs the executable and wraps the outputs, without
entering Python. mlax hands it, on each of its cache misses, the executable
mlax compiled (`_Executable.exe`, a jaxlib `LoadedExecutable`) as JAX's
`MeshExecutableFastpathData`; everything else (tracing, mlax's own cache
key, retrace logging, NumPy and scalar inputs, calls inside a trace) stays
in `api.Jitted`, which is what the C++ side calls on a miss.

The C++ side flattens with its own registry, `tree.dispatch_registry`: the
nodes of mlax's registry plus `mlax.Array` as a node whose one child is its
jaxlib buffer and whose aux data is its aval (so weak types and every other
part of mlax's key are in the C++ signature too, and outputs are unflattened
straight into `mlax.Array`s). Node types registered with JAX directly (not
through `mlax.tree_util`) are mirrored into it on the first miss that meets
them.

The fast path is handed over only when every dynamic argument leaf is an
`mlax.Array` on the executable's device, a NumPy array or scalar, or a
Python scalar (the signature the C++ side keys it under then says exactly
that; it puts host values on the device itself, see FAST_LEAF_TYPES); any
other call keeps the Python path.
"""
from __future__ import annotations

import threading

import numpy as np

from mlax._src.backend import runtime
from mlax._src.base import jaxlib_internals
from mlax._src.base.config import config
from mlax._src.core.array import Array
from mlax._src.base.tree import dispatch_registry, registry

dispatch_registry.register_dataclass_node(Array, ["_buf"], ["weak_type"])

# One C++ cache for every mlax jit (keyed by function; LRU over functions);
# None where jaxlib has no C++ dispatcher mlax can use (see make).
_cache = (jaxlib_internals.PjitFunctionCache(capacity=8192)
          if jaxlib_internals.cpp_dispatch_available() else None)

# Nonzero while this thread traces (see jaxlib_internals.tracing_flag).
tracing = jaxlib_internals.tracing_flag

_mirror_lock = threading.Lock()
_LEAF = registry.flatten(0)[1]


def clear_cache():
    if _cache is not None:
        _cache.clear()


def _no_transfer(*args):
    # Only called for arguments that are not jaxlib arrays, and mlax never
    # hands the C++ side a fast path for a signature that has any.
    raise AssertionError("mlax dispatch: unexpected argument transfer")


def make(name, python_call, cache_miss, static_argnums, static_argnames):
    """The C++ dispatcher: `python_call(*args, **kwargs)` is its fallback (with
    jax.disable_jit); `cache_miss(*args, **kwargs)` returns (outputs,
    fastpath data or None, False). None where jaxlib's dispatcher is missing
    or takes other arguments (an allowed other jaxlib): the caller then uses
    the Python path."""
    if _cache is None:
        return None
    try:
        return jaxlib_internals.pjit(name, python_call, cache_miss, list(static_argnums),
                                     list(static_argnames), "mlax", dispatch_registry,
                                     _no_transfer, _cache)
    except TypeError:
        if jaxlib_internals.PINNED:
            raise
        return None


def _mirror(typ):
    """Registers a node type of mlax's registry that the dispatch registry
    lacks (registered with jax.tree_util directly) in the dispatch registry."""
    def flatten(x):
        return registry.flatten_one_level(x)

    def unflatten(aux, children):
        children = list(children)
        treedef = _LEAF.from_node_data_and_children(registry, (typ, aux),
                                                    [_LEAF] * len(children))
        return treedef.unflatten(children)

    with _mirror_lock:
        if not dispatch_registry.is_node(typ):
            dispatch_registry.register_node(typ, flatten, unflatten)


def _mirror_missing(dyn):
    """Mirrors the node types in `dyn` that only mlax's registry knows; True
    if there were any."""
    missing = False
    for leaf in dispatch_registry.flatten(dyn)[0]:
        typ = type(leaf)
        if typ is not Array and registry.is_node(typ) and not dispatch_registry.is_node(typ):
            _mirror(typ)
            missing = True
    return missing


# Leaves a fast path may be handed over for. The C++ side puts NumPy arrays
# and scalars and Python scalars on the executable's device itself, with
# the dtype and weak type mlax gives them (NumPy dtypes narrowed to 32 bits
# unless x64; Python int/float/complex weakly typed, bool not), as long as
# JAX's x64 switch, which it reads, says what mlax's does. Both switches are
# in the C++ cache key (jit-key configs: JAX's, or mlax's own, and mlax's
# options), so a fast path never outlives the agreement it was made under.
FAST_LEAF_TYPES = frozenset([Array, np.ndarray, bool, int, float, complex]
                            + [np.dtype(t).type for t in np.sctypeDict.values()
                               if np.dtype(t).kind in "biufc"])


def _host_leaves_agree() -> bool:
    want = bool(config.x64_enabled)
    if jaxlib_internals.jax_x64_enabled() == want:
        return True
    # Set (in this thread) for the next call: this call's C++ key was made
    # under the old value, so its fast path would be filed under it.
    jaxlib_internals.jax_x64_enabled(want)
    return False


def fastpath_data(entry, dyn, leaves, out):
    """JAX's MeshExecutableFastpathData for a call of `entry` (an
    api._Executable) on the dynamic arguments `dyn` (flattened: `leaves`)
    that returned `out`; None when the C++ side must not run this signature."""
    if getattr(entry, "effects", False):
        # Host callbacks: each run's token is kept for effects_barrier, in
        # Python (JAX keeps such programs off its fast path too).
        return None
    mesh = getattr(entry, "mesh", None) is not None
    if mesh:
        # Partitioned over a mesh: every argument must already lie as the
        # program takes it (the C++ side compares each buffer's sharding).
        in_shardings = []
        for leaf, named, aval in zip(leaves, entry.in_named, entry.in_avals):
            if type(leaf) is not Array:
                return None
            sharding = runtime.mesh_buffer_sharding(named, aval.ndim)
            if jaxlib_internals.buffer_sharding(leaf._buf) != sharding:
                return None
            in_shardings.append(sharding)
        host = False
    else:
        device = entry.device or runtime.default_device()
        sharding = runtime._sharding(device)
        host = False
        for leaf in leaves:
            if type(leaf) is Array:
                if jaxlib_internals.buffer_sharding(leaf._buf) != sharding:
                    return None
            else:
                host = True
    if host and not _host_leaves_agree():
        return None
    bufs = dispatch_registry.flatten(dyn)[0]
    if len(bufs) != len(leaves) or any(
            b is not (l._buf if type(l) is Array else l) for b, l in zip(bufs, leaves)):
        # A node type mlax knows and the dispatch registry does not: mirror
        # it now; the next call misses once more and gets its fast path.
        _mirror_missing(dyn)
        return None
    out_bufs, out_tree = dispatch_registry.flatten(out)
    out_leaves = registry.flatten(out)[0]
    if len(out_bufs) != len(out_leaves):
        _mirror_missing(out)
        return None
    for leaf, buf in zip(out_leaves, out_bufs):
        if type(leaf) is not Array or leaf._buf is not buf:
            return None
    # Arguments the program dropped (unused) are neither passed nor checked.
    kept = entry.kept
    kept_bits = [True] * len(leaves) if kept is None else [False] * len(leaves)
    if kept is not None:
        for i in kept:
            kept_bits[i] = True
    n_kept = sum(kept_bits)
    if mesh:
        ins = [s for s, k in zip(in_shardings, kept_bits) if k]
        outs = [runtime.mesh_buffer_sharding(n, a.ndim)
                for n, a in zip(entry.out_named, entry.out_avals)]
    else:
        ins, outs = [sharding] * n_kept, [sharding] * len(out_bufs)
    return jaxlib_internals.mesh_executable_fastpath_data(
        entry.exe, out_tree, ins, outs,
        [b.aval for b in out_bufs], [b._committed for b in out_bufs],
        kept_bits, [None] * n_kept, [])


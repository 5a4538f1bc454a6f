"""jit over a mesh: programs partitioned by XLA's SPMD partitioner.

A jitted call goes here when `jit(in_shardings=, out_shardings=)` names a
NamedSharding or an argument array lies over a mesh. The traced @main gets an
`mlax.sharding` attribute (`#mlax.sharding<mesh, spec>`) on every argument,
and on each result whose sharding was given; convert-mlax-to-stablehlo turns
them into `mhlo.sharding`, and XLA compiles one program per device, choosing
the shardings of the other results (read back from the executable). Arguments
are laid out as the program expects (an array already laid out so is passed
as it is; others are put there, through the host).
"""
from __future__ import annotations

from mlax._src.backend import runtime
from mlax._src.backend import sharding as sharding_lib
from mlax._src.backend.sharding import NamedSharding
from mlax._src.base import jaxlib_internals
from mlax._src.base import tree as tree_lib
from mlax._src.base.tree import registry
from mlax._src.core.array import Array
from mlax._src.core.mesh_programs import MeshExecutable, annotate, mark_donated  # noqa: F401

_UNSPECIFIED = object()


def check_shardings(value, what: str):
    """`value` (a jit in_/out_shardings argument) with every PartitionSpec
    resolved against the current mesh; raises JAX's errors for anything
    that is not a sharding."""
    if value is _UNSPECIFIED or value is None:
        return value
    leaves, treedef = registry.flatten(value, lambda x: isinstance(
        x, (NamedSharding, sharding_lib.PartitionSpec, jaxlib_internals.SingleDeviceSharding)))
    resolved = []
    for leaf in leaves:
        if leaf is None:
            resolved.append(None)
            continue
        resolved.append(sharding_lib.resolve(leaf, f"jit {what}"))
    return treedef.unflatten(resolved)


def _is_sharding(x):
    return x is None or isinstance(x, (NamedSharding, jaxlib_internals.SingleDeviceSharding))


def _broadcast_prefix(prefix, tree_value, what: str, name: str):
    """The sharding of each leaf of `tree_value` given `prefix`, a pytree
    prefix of it (a single sharding applies to every leaf)."""
    return tree_lib.prefix_leaves(
        prefix, tree_value, _is_sharding,
        lambda e: f"pjit {what} specification must be a tree prefix of the positional "
                  f"arguments tuple passed to the function of {name}, but it is not: {e}")


def leaf_in_shardings(jitted, args, kwargs, n_leaves):
    """One sharding (or None: unspecified) per dynamic argument leaf."""
    spec = jitted._in_shardings
    if spec is _UNSPECIFIED or spec is None:
        return (None,) * n_leaves
    positional = _broadcast_prefix(spec, tuple(args), "in_shardings", jitted._name)
    rest = n_leaves - len(positional)
    return tuple(positional) + (None,) * rest


def mesh_of(jitted, leaves, in_specified):
    """The mesh a call runs on, or None when it runs on one device."""
    mesh = None
    sources = [s for s in in_specified if isinstance(s, NamedSharding)]
    out = jitted._out_shardings
    if out is not _UNSPECIFIED and out is not None:
        sources += [s for s in registry.flatten(out, lambda x: isinstance(
            x, NamedSharding))[0] if isinstance(s, NamedSharding)]
    for leaf in leaves:
        if type(leaf) is Array and runtime.is_mesh_buffer(leaf._buf):
            sources.append(leaf.sharding)
    for s in sources:
        if mesh is None:
            mesh = s.mesh
        elif s.mesh != mesh:
            raise ValueError(
                f"Received incompatible devices for jitted computation {jitted._name}: "
                f"shardings over {mesh} and over {s.mesh}; use one mesh for every "
                "argument and result")
    return mesh


def arg_shardings(jitted, mesh, leaves, avals, in_specified):
    """The NamedSharding of each argument leaf of a call over `mesh`."""
    out = []
    replicated = NamedSharding(mesh, sharding_lib.PartitionSpec())
    for i, (leaf, aval, given) in enumerate(zip(leaves, avals, in_specified)):
        actual = (leaf.sharding if type(leaf) is Array and runtime.is_mesh_buffer(leaf._buf)
                  else None)
        if isinstance(given, jaxlib_internals.SingleDeviceSharding):
            raise ValueError(
                f"jit {jitted._name}: in_shardings mixes a SingleDeviceSharding with "
                f"shardings over {mesh}")
        if given is not None:
            if actual is not None and not actual.is_equivalent_to(given, aval.ndim):
                raise ValueError(
                    "Sharding passed to jit does not match the sharding on the respective "
                    f"arg. Got jit sharding: {given!r} and arg sharding: {actual!r} for "
                    f"arg shape: {aval.str_short()}, arg value: argument {i} of "
                    f"{jitted._name}")
            given.check_shape(aval.shape, f"One of pjit arguments of {jitted._name}")
            out.append(given)
        else:
            out.append(actual if actual is not None else replicated)
    return tuple(out)


def out_shardings_of(jitted, out_tree, out_avals):
    spec = jitted._out_shardings
    n = len(out_avals)
    if spec is _UNSPECIFIED or spec is None:
        return (None,) * n
    leaves = _broadcast_prefix(spec, out_tree.unflatten([0] * n), "out_shardings",
                               jitted._name)
    for s, a in zip(leaves, out_avals):
        if isinstance(s, jaxlib_internals.SingleDeviceSharding):
            raise ValueError(f"jit {jitted._name}: out_shardings mixes a "
                             "SingleDeviceSharding with shardings over a mesh")
        if s is not None:
            s.check_shape(a.shape, f"One of pjit outputs of {jitted._name}")
    return tuple(leaves)


def compile_over_mesh(stablehlo, mesh, out_named, compiler_options=None):
    return runtime.compile_spmd(stablehlo, mesh, tuple(s is None for s in out_named),
                                compiler_options)

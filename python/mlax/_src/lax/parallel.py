"""Collectives over named axes (jax.lax.psum, all_gather, ...).

Inside a `shard_map` body (or a `pmap`ped function) each device holds its
own piece; a collective combines the pieces of the devices that differ only
along the named mesh axes. Inside `vmap(f, axis_name="i")`, "i" names the
mapped axis: a collective over it combines the examples. Each is one op of
the mlax dialect (`mlax.all_reduce`, `mlax.all_gather`,
`mlax.reduce_scatter`, `mlax.ppermute`, `mlax.all_to_all`,
`mlax.axis_index`) carrying the axes, the mesh of its mesh axes and the
sizes of its vmap axes (`vmap_axes`); the lowering gives XLA's collectives
their replica groups, mlax-vectorize rewrites a collective over a vmap axis
into ops over the batch dimension, and the autodiff and vectorize passes
differentiate and batch them (docs/sharding.md, docs/vmap.md).
"""
from __future__ import annotations

import math

import numpy as np
from mlir import ir

from mlax._src.backend import sharding as sharding_lib
from mlax._src.base import dtypes
from mlax._src.base.tree import registry
from mlax._src.core import tracer as core
from mlax._src.core.primitives import Primitive, _ops, bind
from mlax._src.core.tracer import Tracer


def _axes(axis_name) -> tuple:
    if isinstance(axis_name, (tuple, list)):
        return tuple(axis_name)
    return (axis_name,)


class _Axes:
    """What a collective's axis names resolve to: the mesh of its mesh axes
    (None if it names none) and the sizes of its vmap axes."""

    def __init__(self, names, mesh, vmap_sizes):
        self.names, self.mesh, self.vmap_sizes = names, mesh, vmap_sizes

    def size(self, name):
        return self.vmap_sizes[name] if name in self.vmap_sizes else self.mesh.shape[name]

    def group_size(self):
        return math.prod(self.size(a) for a in self.names)

    def __eq__(self, other):
        return (isinstance(other, _Axes) and self.names == other.names
                and self.mesh is other.mesh and self.vmap_sizes == other.vmap_sizes)

    def __hash__(self):
        return hash((self.names, id(self.mesh), tuple(sorted(self.vmap_sizes.items()))))

    def __repr__(self):
        return f"_Axes({self.names})"


def _resolve(axes, what: str) -> _Axes:
    """The innermost binders (vmap axes, shard_map/pmap mesh axes) of
    `axes`; JAX's NameError for a name nothing binds."""
    mesh, sizes = None, {}
    for a in axes:
        bound = sharding_lib.resolve_axis(a)
        if bound is None:
            raise NameError(
                f"unbound axis name: {a}. The following axis names (e.g. defined by pmap) are "
                f"available to collective operations: {sharding_lib.bound_axis_names()}")
        if bound[0] == "vmap":
            sizes[a] = bound[1]
        elif mesh is not None and bound[1] is not mesh:
            raise NotImplementedError(
                f"{what} over mesh axes of two different shard_maps {axes}")
        else:
            mesh = bound[1]
    if len(set(axes)) != len(axes):
        raise ValueError(f"{what}: repeated axis names {axes}")
    return _Axes(tuple(axes), mesh, sizes)


def axis_size(axis_name) -> int:
    """The size of the vmap axis or the number of devices along the mesh
    axis (or the product over several axes) `axis_name`."""
    return _resolve(_axes(axis_name), "axis_size").group_size()


def _attrs(axes: _Axes):
    """The axes, mesh and vmap_axes attributes of a collective."""
    names = ir.ArrayAttr.get([ir.StringAttr.get(a) for a in axes.names])
    mesh = (ir.Attribute.parse(f"#mlax.mesh<{axes.mesh.mlir_text()}>")
            if axes.mesh is not None and any(a not in axes.vmap_sizes for a in axes.names)
            else None)
    vmap = None
    if axes.vmap_sizes:
        text = ", ".join(f'"{a}"={axes.vmap_sizes[a]}' for a in axes.names
                         if a in axes.vmap_sizes)
        vmap = ir.Attribute.parse(f"#mlax.mesh<[{text}]>")
    return names, mesh, vmap


def _i64(v):
    return ir.IntegerAttr.get(ir.IntegerType.get_signless(64), int(v))


_KINDS = {"sum": 0, "max": 1, "min": 2}  # mlax's AllReduceKind


def _emit_all_reduce(values, avals, *, kind, axes):
    ax, m, v = _attrs(axes)
    k = ir.IntegerAttr.get(ir.IntegerType.get_signless(32), _KINDS[kind])
    return _ops().AllReduceOp(k, values[0], ax, mesh=m, vmap_axes=v).result


def _emit_all_gather(values, avals, *, axes, dimension, tiled):
    ax, m, v = _attrs(axes)
    return _ops().AllGatherOp(values[0], ax, _i64(dimension), mesh=m, vmap_axes=v,
                              tiled=tiled or None).result


def _emit_reduce_scatter(values, avals, *, axes, dimension, tiled):
    ax, m, v = _attrs(axes)
    return _ops().ReduceScatterOp(values[0], ax, _i64(dimension), mesh=m, vmap_axes=v,
                                  tiled=tiled or None).result


def _emit_ppermute(values, avals, *, axes, pairs):
    ax, m, v = _attrs(axes)
    return _ops().PpermuteOp(values[0], ax, ir.DenseI64ArrayAttr.get(list(pairs)),
                             mesh=m, vmap_axes=v).result


def _emit_all_to_all(values, avals, *, axes, split, concat, tiled):
    ax, m, v = _attrs(axes)
    return _ops().AllToAllOp(values[0], ax, _i64(split), _i64(concat), mesh=m, vmap_axes=v,
                             tiled=tiled or None).result


def _emit_axis_index(values, avals, *, axes):
    ax, m, v = _attrs(axes)
    return _ops().AxisIndexOp(ax, mesh=m, vmap_axes=v).result


_ERRORS = {"not divisible": ValueError, "must equal": ValueError, "out of range": ValueError,
           "dimension": ValueError, "distinct": ValueError}

_all_reduce_p = Primitive("all_reduce", _emit_all_reduce, errors=_ERRORS,
                          label=lambda p: {"sum": "psum", "max": "pmax", "min": "pmin"}[p["kind"]])
_all_gather_p = Primitive("all_gather", _emit_all_gather, errors=_ERRORS,
                          label=lambda p: "all_gather")
_reduce_scatter_p = Primitive("reduce_scatter", _emit_reduce_scatter, errors=_ERRORS,
                              label=lambda p: "psum_scatter")
_ppermute_p = Primitive("ppermute", _emit_ppermute, errors=_ERRORS, label=lambda p: "ppermute")
_all_to_all_p = Primitive("all_to_all", _emit_all_to_all, errors=_ERRORS,
                          label=lambda p: "all_to_all")
_axis_index_p = Primitive("axis_index", _emit_axis_index, weak_type=lambda *a, **k: False,
                          label=lambda p: "axis_index")


def _no_groups(axis_index_groups, what):
    if axis_index_groups is not None:
        raise NotImplementedError(f"{what}: axis_index_groups is not supported by mlax")


def _leaves(x):
    leaves, treedef = registry.flatten(x)
    return leaves, treedef


def _value(leaf, what):
    if isinstance(leaf, Tracer):
        return leaf
    if not core.trace_stack():
        raise NameError(f"{what} outside shard_map/pmap: no axis names are bound here")
    from mlax._src.core import primitives

    trace = core.current_trace()
    return Tracer(primitives.to_value(trace, leaf, primitives.aval_of(leaf)),
                  primitives.aval_of(leaf), trace)


def _all_reduce(x, axis_name, kind, what):
    axes = _resolve(_axes(axis_name), what)
    leaves, treedef = _leaves(x)
    return treedef.unflatten([bind(_all_reduce_p, _value(l, what), kind=kind, axes=axes)
                              for l in leaves])


def psum(x, axis_name, *, axis_index_groups=None):
    """The sum of `x` (a pytree) over the devices along `axis_name`, on each."""
    _no_groups(axis_index_groups, "psum")
    return _all_reduce(x, axis_name, "sum", "psum")


def pmax(x, axis_name, *, axis_index_groups=None):
    _no_groups(axis_index_groups, "pmax")
    return _all_reduce(x, axis_name, "max", "pmax")


def pmin(x, axis_name, *, axis_index_groups=None):
    _no_groups(axis_index_groups, "pmin")
    return _all_reduce(x, axis_name, "min", "pmin")


def pmean(x, axis_name, *, axis_index_groups=None):
    """The mean of `x` over the devices along `axis_name` (a psum divided by
    their number; integers give floats, as JAX's true division)."""
    from mlax._src.lax import elementwise, shape

    n = axis_size(axis_name)
    summed = psum(x, axis_name, axis_index_groups=axis_index_groups)
    leaves, treedef = _leaves(summed)
    out = []
    for v in leaves:
        if not dtypes.issubdtype(v.aval.dtype, np.inexact):
            v = elementwise.convert_element_type(v, dtypes.default_float())
        out.append(elementwise.div(v, shape.full(v.aval.shape, n, v.aval.dtype)))
    return treedef.unflatten(out)


def all_gather(x, axis_name, *, axis_index_groups=None, axis=0, tiled=False, to="varying"):
    """Each device's `x` gathered from every device along `axis_name`: a new
    dimension `axis` (or, `tiled`, the pieces concatenated along it)."""
    _no_groups(axis_index_groups, "all_gather")
    axes = _resolve(_axes(axis_name), "all_gather")
    leaves, treedef = _leaves(x)
    out = []
    for l in leaves:
        v = _value(l, "all_gather")
        ndim = v.aval.ndim + (0 if tiled else 1)
        d = axis + ndim if axis < 0 else axis
        if not 0 <= d < ndim:
            raise ValueError(f"all_gather: axis {axis} is out of bounds for an array of rank "
                             f"{v.aval.ndim}")
        out.append(bind(_all_gather_p, v, axes=axes, dimension=d, tiled=bool(tiled)))
    return treedef.unflatten(out)


def psum_scatter(x, axis_name, *, scatter_dimension=0, axis_index_groups=None, tiled=False):
    """The psum of `x`, each device keeping its piece along
    `scatter_dimension` (jax.lax.psum_scatter)."""
    _no_groups(axis_index_groups, "psum_scatter")
    axes = _resolve(_axes(axis_name), "psum_scatter")
    leaves, treedef = _leaves(x)
    out = []
    for l in leaves:
        v = _value(l, "psum_scatter")
        d = scatter_dimension + v.aval.ndim if scatter_dimension < 0 else scatter_dimension
        out.append(bind(_reduce_scatter_p, v, axes=axes, dimension=d,
                        tiled=bool(tiled)))
    return treedef.unflatten(out)


def ppermute(x, axis_name, perm):
    """Each device's `x` sent to another along `axis_name`: `perm` is a list
    of (source index, destination index); a device no pair sends to gets
    zeros."""
    axes = _resolve(_axes(axis_name), "ppermute")
    n = axes.group_size()
    pairs = []
    for pair in perm:
        src, dst = (int(v) for v in pair)
        if not (0 <= src < n and 0 <= dst < n):
            raise ValueError(f"ppermute: the pair {tuple(pair)} is out of range for axis "
                             f"{axis_name!r} of size {n}")
        pairs += [src, dst]
    srcs, dsts = pairs[0::2], pairs[1::2]
    if len(set(srcs)) != len(srcs) or len(set(dsts)) != len(dsts):
        raise ValueError(f"ppermute sources and destinations must be unique, got {perm}.")
    leaves, treedef = _leaves(x)
    return treedef.unflatten([bind(_ppermute_p, _value(l, "ppermute"), axes=axes,
                                   pairs=tuple(pairs)) for l in leaves])


def pshuffle(x, axis_name, perm):
    """ppermute with the permutation listed by destination: the result at
    index i along `axis_name` is the `x` of index `perm[i]`
    (jax.lax.pshuffle)."""
    if set(perm) != set(range(len(perm))):
        raise ValueError(f"`perm` does not represent a permutation: {perm}")
    return ppermute(x, axis_name, list(zip(perm, range(len(perm)))))


def pswapaxes(x, axis_name, axis, *, axis_index_groups=None):
    """Swaps the mapped axis `axis_name` with `x`'s axis `axis`, whose size
    must be the mapped axis's: `all_to_all(x, axis_name, axis, axis)`
    (jax.lax.pswapaxes)."""
    return all_to_all(x, axis_name, axis, axis, axis_index_groups=axis_index_groups)


def pbroadcast(x, axis_name, source):
    """The `x` of index `source` along `axis_name`, on every index
    (jax.lax.pbroadcast): an exact copy, taken from the gathered pieces."""
    axes = _resolve(_axes(axis_name), "pbroadcast")
    n = axes.group_size()
    if not 0 <= int(source) < n:
        raise ValueError(f"pbroadcast: source {source} is out of range for axis "
                         f"{axis_name!r} of size {n}")
    leaves, treedef = _leaves(x)
    return treedef.unflatten([all_gather(l, axis_name)[int(source)] for l in leaves])


def all_to_all(x, axis_name, split_axis, concat_axis, *, axis_index_groups=None, tiled=False):
    """Each device splits `x` along `split_axis` into one piece per device
    along `axis_name`, sends piece i to device i, and concatenates what it
    gets along `concat_axis` (jax.lax.all_to_all)."""
    _no_groups(axis_index_groups, "all_to_all")
    axes = _resolve(_axes(axis_name), "all_to_all")
    leaves, treedef = _leaves(x)
    out = []
    for l in leaves:
        v = _value(l, "all_to_all")
        nd = v.aval.ndim
        s = split_axis + nd if split_axis < 0 else split_axis
        c = concat_axis + nd if concat_axis < 0 else concat_axis
        out.append(bind(_all_to_all_p, v, axes=axes, split=s, concat=c,
                        tiled=bool(tiled)))
    return treedef.unflatten(out)


def axis_index(axis_name):
    """This device's index along the mesh axis (or axes, row-major)
    `axis_name`, an int32 scalar."""
    axes = _resolve(_axes(axis_name), "axis_index")
    return bind(_axis_index_p, axes=axes)

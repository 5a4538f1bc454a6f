"""shard_map and pmap (jax.shard_map, jax.pmap): a function of each
device's piece, run on every device of a mesh.

`shard_map(f, mesh=, in_specs=, out_specs=)` traces `f` once, at the shapes
of the pieces, into a private function that one `mlax.shard_map` op calls
with the global arrays and the in/out `#mlax.sharding`s. Collectives in `f`
(lax.psum, ...) name the mesh's axes. The lowering hands XLA's SPMD
partitioner a manually partitioned region (JAX's own lowering: the pieces
enter through SPMDFullToShardShape and leave through SPMDShardToFullShape),
so the jit around it runs over the mesh. `pmap(f, axis_name)` is a jitted
shard_map over a one-axis mesh of as many devices as the mapped dimension
has elements, `f` seeing each element (JAX's pmap-as-shard_map).
"""
from __future__ import annotations

import functools
import math

from mlir import ir

from mlax._src.backend import native
from mlax._src.backend import runtime
from mlax._src.backend import sharding as sharding_lib
from mlax._src.backend.sharding import Mesh, NamedSharding, PartitionSpec
from mlax._src.base import tree as tree_lib
from mlax._src.base.tree import registry
from mlax._src.core import primitives
from mlax._src.core import tracer as core
from mlax._src.core.tracer import ShapedArray, Tracer
from mlax._src.core import ref_state
from mlax._src.core.tracing import _leaf_aval, _symbol_name, trace_function
from mlax._src.jit import api


def _is_spec(x):
    return x is None or isinstance(x, PartitionSpec)


def _specs_for(specs, tree_value, what, name):
    """One PartitionSpec per leaf of `tree_value` (`specs`: a pytree prefix)."""
    return tree_lib.prefix_leaves(
        specs, tree_value, _is_spec,
        lambda e: f"shard_map applied to the function {name!r} was given {what} that is "
                  f"not a pytree prefix of its arguments: {e}")


def _named(mesh, spec, what, name):
    if spec is None:
        raise TypeError(f"shard_map applied to the function {name!r}: {what} entries must be "
                        "PartitionSpecs (P() for a value every device has whole), got None")
    try:
        return NamedSharding(mesh, spec)
    except ValueError as e:
        raise ValueError(f"shard_map applied to the function {name!r}: {what} {spec!r}: "
                         f"{e}") from None


def _local_aval(named, aval, what, name, i):
    try:
        shape = named.shard_shape(aval.shape)
    except ValueError:
        raise ValueError(
            f"shard_map applied to the function {name!r} was given {what} {i} of shape "
            f"{aval.shape} with spec {named.spec!r}, which implies that its dimensions are "
            f"divided by {list(named.tiles(aval.ndim))} (the sizes of the mesh axes "
            f"{dict(named.mesh.shape)}), but they are not evenly divisible") from None
    return ShapedArray(shape, aval.dtype, aval.weak_type)


class _ShardMapped:
    def __init__(self, f, mesh, in_specs, out_specs, check_vma):
        functools.update_wrapper(self, f)
        self._f = f
        self._mesh = mesh
        self._in_specs = in_specs
        self._out_specs = out_specs
        self._check_vma = check_vma
        self._name = _symbol_name(f)
        self._jitted = None

    def __call__(self, *args):
        if not core.trace_stack():
            # Eagerly: one jitted program over the mesh, as JAX runs it.
            if self._jitted is None:
                self._jitted = api.jit(self)
            return self._jitted(*args)
        return self._trace(args)

    def _trace(self, args):
        mesh = self._mesh
        name = self._name
        leaves, treedef = registry.flatten(args)
        avals = [_leaf_aval(l) for l in leaves]
        specs = _specs_for(self._in_specs, args, "in_specs", name)
        in_named = [_named(mesh, s, "in_specs", name) for s in specs]
        local = [_local_aval(n, a, "argument", name, i)
                 for i, (n, a) in enumerate(zip(in_named, avals))]
        outer = core.current_trace()
        sharding_lib.push_axis_env(mesh)
        try:
            sym, out_local, out_tree, captured = trace_function(
                outer, self._f, treedef, local, lambda dyn: (dyn, {}), name,
                traced_for="shard_map")
        except ref_state.RefsWritten as e:
            raise NotImplementedError(
                f"shard_map: {name} writes a mutable array reference of type "
                f"{e.refs[0].aval} made outside it; mlax does not thread Refs through "
                "shard_map yet") from None
        finally:
            sharding_lib.pop_axis_env()
        if isinstance(self._out_specs, _Deferred):
            out_specs = self._out_specs.fn(out_local)
        else:
            out_specs = _specs_for(self._out_specs, out_tree.unflatten([0] * len(out_local)),
                                   "out_specs", name)
        out_named = [_named(mesh, s, "out_specs", name) for s in out_specs]
        out_avals = []
        for n, a in zip(out_named, out_local):
            if len(n.spec) > a.ndim:
                raise ValueError(f"shard_map applied to the function {name!r}: out_specs "
                                 f"{n.spec!r} has more entries than its result's rank "
                                 f"{a.ndim}")
            tiles = n.tiles(a.ndim)
            out_avals.append(ShapedArray(tuple(d * t for d, t in zip(a.shape, tiles)),
                                         a.dtype, a.weak_type))
        # Values the body closes over are whole on every device.
        replicated = NamedSharding(mesh, PartitionSpec())
        operands = [primitives.to_value(outer, l, a) for l, a in zip(leaves, avals)]
        operands += [outer.value_of(t) for t in captured]
        shardings_in = in_named + [replicated] * len(captured)
        in_ndims = [a.ndim for a in avals] + [t.aval.ndim for t in captured]
        sharding_lib.note_constraint_mesh(mesh)
        ops = native.ops()
        with outer.ip, core.user_location():
            in_attr = ir.ArrayAttr.get([ir.Attribute.parse(s.mlir_text(nd))
                                        for s, nd in zip(shardings_in, in_ndims)])
            out_attr = ir.ArrayAttr.get([ir.Attribute.parse(s.mlir_text(a.ndim))
                                         for s, a in zip(out_named, out_avals)])
            op = ops.ShardMapOp([a.mlir_type() for a in out_avals],
                                ir.FlatSymbolRefAttr.get(sym), operands, in_attr, out_attr)
        return out_tree.unflatten(
            [Tracer(r, a, outer) for r, a in zip(op.results, out_avals)])


def shard_map(f=None, /, *, out_specs, in_specs=None, mesh=None, axis_names=frozenset(),
              check_vma=True):
    """`f` of each device's piece, run on every device of `mesh`
    (jax.shard_map): argument i is cut as in_specs[i] says, `f` sees its
    piece, and its results are put together as out_specs says. A mesh axis a
    spec does not name means the value is whole on each device along it.
    Collectives in `f` (lax.psum, all_gather, ppermute, ...) combine pieces
    along mesh axes. mlax runs every mesh axis manually (`axis_names` must
    name all of them or none) and does not check out_specs against the
    values (`check_vma`)."""
    if f is None:
        return functools.partial(shard_map, out_specs=out_specs, in_specs=in_specs, mesh=mesh,
                                 axis_names=axis_names, check_vma=check_vma)
    if not callable(f):
        raise TypeError(f"shard_map requires a callable for its first argument, got {f!r}")
    if mesh is None:
        mesh = sharding_lib.current_mesh()
        if mesh is None:
            raise ValueError("shard_map requires a mesh: pass mesh= or call it inside "
                             "`with mlax.set_mesh(mesh):`")
    if not isinstance(mesh, Mesh):
        raise TypeError(f"shard_map requires a Mesh, got {mesh!r}")
    if in_specs is None:
        raise NotImplementedError("shard_map: in_specs must be given (mlax infers them from "
                                  "no argument type)")
    if axis_names and set(axis_names) != set(mesh.axis_names):
        raise NotImplementedError(
            f"shard_map: axis_names={set(axis_names)} names part of the mesh; mlax runs all "
            f"of {mesh.axis_names} manually")
    return _ShardMapped(f, mesh, in_specs, out_specs, check_vma)


# --- pmap -------------------------------------------------------------------

_pmap_counter = [0]


def _axes_for(axes, tree_value, what):
    """One mapped axis (an int or None) per leaf of `tree_value`."""
    return tree_lib.prefix_leaves(
        axes, tree_value, lambda x: x is None or isinstance(x, int),
        lambda e: f"pmap {what} specification must be a tree prefix of the corresponding "
                  f"value: {e}")


def _spec_at(ax, ndim, axis_name):
    if ax is None:
        return PartitionSpec()
    ax = ax + ndim if ax < 0 else ax
    return PartitionSpec(*([None] * ax), axis_name)


def pmap(fun, axis_name=None, *, in_axes=0, out_axes=0, static_broadcasted_argnums=(),
         devices=None, backend=None, axis_size=None, donate_argnums=()):
    """jax.pmap: `fun` of one element of the mapped dimension, run on one
    device per element: a jitted shard_map over a one-axis mesh of those
    devices (collectives in `fun` may name `axis_name`). The results lie over
    the devices (a NamedSharding of that mesh)."""
    if not callable(fun):
        raise TypeError(f"pmap requires a callable, got {fun!r}")
    if static_broadcasted_argnums:
        raise NotImplementedError("pmap: static_broadcasted_argnums is not supported by mlax")
    if axis_name is None:
        _pmap_counter[0] += 1
        axis_name = f"_pmap{_pmap_counter[0]}"
    cache = {}

    @functools.wraps(fun)
    def mapped(*args):
        from mlax._src.lax import shape as lax_shape

        in_ax = tuple(in_axes) if isinstance(in_axes, list) else in_axes
        if isinstance(in_ax, tuple) and len(in_ax) != len(args):
            raise ValueError(f"pmap in_axes specification must be a tree prefix of the "
                             f"corresponding value, got specification {in_axes} for value "
                             f"tree of {len(args)} arguments")
        per_leaf = _axes_for(in_ax, args, "in_axes")
        leaves, treedef = registry.flatten(args)
        avals = [_leaf_aval(l) for l in leaves]
        per_leaf = [None if ax is None else ax + a.ndim if ax < 0 else ax
                    for ax, a in zip(per_leaf, avals)]
        sizes = {a.shape[ax] for a, ax in zip(avals, per_leaf) if ax is not None}
        if axis_size is not None:
            sizes.add(int(axis_size))
        if len(sizes) != 1:
            raise ValueError("pmap got inconsistent sizes for array axes to be mapped: "
                             f"{sorted(sizes)}" if sizes else
                             "pmap requires at least one argument with a mapped axis")
        n = sizes.pop()
        devs = (list(devices) if devices is not None
                else runtime.backend(backend).local_devices())
        if n > len(devs):
            raise ValueError(f"compiling computation that requires {n} logical devices, but "
                             f"only {len(devs)} XLA devices are available (num_replicas={n})")
        key = (treedef, tuple(per_leaf), n, tuple(d.id for d in devs[:n]))
        run = cache.get(key)
        if run is None:
            mesh = Mesh(devs[:n], (axis_name,))
            record = {}

            def body(*flat):
                local = [lax_shape.squeeze(v, (ax,)) if ax is not None else v
                         for v, ax in zip(flat, per_leaf)]
                out = fun(*treedef.unflatten(local))
                o_leaves, o_tree = registry.flatten(out)
                o_axes = [None if ax is None else ax + v.aval.ndim + 1 if ax < 0 else ax
                          for ax, v in zip(_axes_for(out_axes, out, "out_axes"), o_leaves)]
                record["tree"], record["axes"] = o_tree, o_axes
                return [lax_shape.expand_dims(v, (ax,)) if ax is not None else v
                        for v, ax in zip(o_leaves, o_axes)]

            in_specs = tuple(_spec_at(ax, a.ndim, axis_name)
                             for ax, a in zip(per_leaf, avals))
            out_specs = _Deferred(lambda outs: [_spec_at(ax, 1, axis_name)
                                                for ax in record["axes"]])
            sm = _ShardMapped(body, mesh, in_specs, out_specs, True)
            sm._name = f"pmap_{_symbol_name(fun)}"
            in_shardings = tuple(NamedSharding(mesh, spec) for spec in in_specs)
            run = cache[key] = (api.jit(sm, in_shardings=in_shardings), record)
        jitted, record = run
        outs = jitted(*leaves)
        return record["tree"].unflatten(list(outs))

    return mapped


class _Deferred:
    """out_specs computed from the body's results (pmap's out_axes)."""

    def __init__(self, fn):
        self.fn = fn

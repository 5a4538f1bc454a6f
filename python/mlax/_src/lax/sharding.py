"""lax.with_sharding_constraint: `mlax.sharding_constraint`, how XLA must
lay a value out inside a partitioned program (see docs/sharding.md)."""
from __future__ import annotations

from mlir import ir

from mlax._src.backend import sharding as sharding_lib
from mlax._src.base import tree as tree_lib
from mlax._src.base.tree import registry
from mlax._src.core import tracer as core
from mlax._src.core.primitives import Primitive, _ops, bind


def _emit(values, avals, *, sharding):
    (x,), (aval,) = values, avals
    attr = ir.Attribute.parse(sharding.mlir_text(aval.ndim))
    return _ops().ShardingConstraintOp(x, attr).result


def _check(aval, *, sharding):
    sharding.check_shape(aval.shape, "One of with_sharding_constraint arguments")


_sharding_constraint_p = Primitive(
    "sharding_constraint", _emit, check=_check,
    errors={"not in the mesh": ValueError, "not divisible": ValueError,
            "rank": ValueError},
    label=lambda params: "with_sharding_constraint")


def _is_sharding(x):
    return x is None or isinstance(x, (sharding_lib.NamedSharding, sharding_lib.PartitionSpec,
                                       sharding_lib.SingleDeviceSharding))


def with_sharding_constraint(x, shardings):
    """jax.lax.with_sharding_constraint: `x` (a pytree), each leaf laid out
    as `shardings` (a NamedSharding, a PartitionSpec inside `with mesh:`, or
    a pytree prefix of `x` of them) says. Inside jit it is an
    `mlax.sharding_constraint` that XLA's partitioner honours (its
    derivative and batching keep it); outside, the array is laid out so
    (as device_put)."""
    leaves, treedef = registry.flatten(x)
    per_leaf = tree_lib.prefix_leaves(
        shardings, x, _is_sharding,
        lambda e: f"with_sharding_constraint: shardings must be a pytree prefix of x: {e}")
    out = []
    for leaf, s in zip(leaves, per_leaf):
        if s is None:
            out.append(leaf)
            continue
        named = sharding_lib.resolve(s, "with_sharding_constraint")
        if isinstance(named, sharding_lib.SingleDeviceSharding):
            raise ValueError("with_sharding_constraint expects a NamedSharding or a "
                             f"PartitionSpec, got {named!r}")
        if core.trace_stack():
            sharding_lib.note_constraint_mesh(named.mesh)
            out.append(bind(_sharding_constraint_p, leaf, sharding=named))
        else:
            from mlax._src.core import array as array_lib
            from mlax._src.backend import runtime
            from mlax._src.core import primitives

            if isinstance(leaf, array_lib.Array):
                named.check_shape(leaf.shape, "One of with_sharding_constraint arguments")
                out.append(array_lib.Array(runtime.reshard(leaf._buf, leaf.aval, named),
                                           leaf.aval))
            else:
                aval = primitives.aval_of(leaf)
                named.check_shape(aval.shape, "One of with_sharding_constraint arguments")
                out.append(array_lib.Array(runtime.device_put_named(
                    primitives.to_numpy(leaf, aval), named), aval))
    return treedef.unflatten(out)

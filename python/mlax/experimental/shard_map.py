"""mlax.experimental.shard_map, as jax.experimental.shard_map: the
deprecated spelling of `mlax.shard_map` that programs written for earlier
JAX releases import (`from jax.experimental.shard_map import shard_map`)."""
import warnings as _warnings

from mlax._src.jit.shard_map import shard_map as _shard_map


def shard_map(f, mesh, in_specs, out_specs, check_rep=True):
    """Please use `mlax.shard_map`. `mlax.experimental.shard_map.shard_map`
    is deprecated, as JAX's: the mesh and specs are positional and
    `check_rep` is `check_vma`."""
    _warnings.warn("jax.experimental.shard_map is deprecated in v0.8.0. Used jax.shard_map "
                   "instead.", DeprecationWarning, stacklevel=2)
    return _shard_map(f, mesh=mesh, in_specs=in_specs, out_specs=out_specs,
                      check_vma=check_rep)

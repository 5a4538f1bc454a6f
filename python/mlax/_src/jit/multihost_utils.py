"""jax.experimental.multihost_utils: host-side helpers for runs of several
processes (see docs/sharding.md). In one process each has JAX's
single-process meaning: gathers stack (or keep) the one value, broadcasts
return it, barriers have nothing to wait for."""
from __future__ import annotations

import contextlib
import zlib

import numpy as np

from mlax._src.backend import runtime
from mlax._src.backend.sharding import Mesh, NamedSharding, PartitionSpec
from mlax._src.base import jaxlib_internals
from mlax._src.base.dtypes import float0
from mlax._src.base.tree import registry
from mlax._src.core.array import Array
from mlax._src.core.tracer import Tracer
from mlax._src.jit import api, global_arrays, partitioned
from mlax._src.jit import devices as devices_lib


def _client():
    return jaxlib_internals.distributed_state().get("client")


def _process_mesh():
    """Every process's devices as rows of a ("processes", "local") mesh."""
    devices = runtime.backend().devices()
    nproc = max(d.process_index for d in devices) + 1
    by_process = [[d for d in devices if d.process_index == p] for p in range(nproc)]
    per = min(len(ds) for ds in by_process)
    grid = np.array([ds[:per] for ds in by_process], dtype=object)
    return Mesh(grid, ("processes", "local"))


def _replicated_value(arr):
    rep = api.jit(lambda v: v, out_shardings=NamedSharding(arr.sharding.mesh, PartitionSpec()))(arr)
    return np.asarray(rep.addressable_shards[0].data)


def _is_global(x) -> bool:
    return isinstance(x, Array) and runtime.is_mesh_buffer(x._buf) and not x.is_fully_addressable


def _allgather_leaf(x, tiled):
    if _is_global(x):
        if not tiled:
            raise ValueError("Gathering global non-fully-addressable arrays only supports "
                             "tiled=True")
        return _replicated_value(x)
    value = np.asarray(x)
    if devices_lib.process_count() == 1:
        return value if tiled else value[None]
    # Each process's value is its block along a new leading axis split over
    # "processes"; tiled, that axis is merged into the first.
    g = global_arrays.make_array_from_process_local_data(
        NamedSharding(_process_mesh(), PartitionSpec("processes")), value[None])
    out = _replicated_value(g)
    return out.reshape((-1,) + out.shape[2:]) if tiled else out


def process_allgather(in_tree, tiled: bool = False):
    """Every process's value of each leaf, as NumPy arrays on every process:
    a global array (over several processes) is gathered whole (only with
    `tiled`); a host-local value is stacked over the processes along a new
    leading axis (or, with `tiled`, concatenated along the first one). In
    one process: the value, with a new leading axis of 1 unless `tiled`."""
    leaves, treedef = registry.flatten(in_tree)
    return treedef.unflatten([_allgather_leaf(x, tiled) for x in leaves])


def broadcast_one_to_all(in_tree, is_source: bool | None = None):
    """Process 0's value of each leaf (or that of the process passing
    `is_source=True`), as NumPy arrays on every process. In one process:
    each leaf's own value, whatever `is_source` says (as JAX's)."""
    leaves, treedef = registry.flatten(in_tree)
    if devices_lib.process_count() == 1:
        return treedef.unflatten([np.asarray(x) for x in leaves])
    if is_source is None:
        is_source = devices_lib.process_index() == 0
    out = []
    for x in leaves:
        value = np.asarray(x)
        gathered = process_allgather(value if is_source else np.zeros_like(value))
        out.append(gathered.sum(axis=0, dtype=value.dtype))
    return treedef.unflatten(out)


def assert_equal(in_tree, fail_message: str = ""):
    """Raises AssertionError unless every process holds the same values in
    `in_tree` (as JAX's: compared with ==, so a NaN never equals itself)."""
    nproc = devices_lib.process_count()

    def expected(x):
        if _is_global(x):
            return np.asarray(x.addressable_shards[0].data)
        x = np.asarray(x)
        if x.ndim == 0:
            x = x[None]
        return np.concatenate([x] * nproc)

    out = process_allgather(in_tree, tiled=True)
    want_leaves, _ = registry.flatten(registry.flatten(in_tree)[1].unflatten(
        [expected(x) for x in registry.flatten(in_tree)[0]]))
    got_leaves, _ = registry.flatten(out)
    if not all(np.all(np.equal(w, g)) for w, g in zip(want_leaves, got_leaves)):
        raise AssertionError(f"{fail_message}. Expected: {out}; got: {in_tree}.")


def sync_global_devices(name: str):
    """Waits until every process reaches this call with the same `name` (a
    barrier of the distributed runtime; nothing to wait for in one process)."""
    h = np.uint32(zlib.crc32(name.encode()))
    client = _client()
    if client is not None and devices_lib.process_count() > 1:
        client.wait_at_barrier(f"mlax_sync_{name}", 10 * 60 * 1000)
    assert_equal(h, f"sync_global_devices name mismatch ('{name}')")


def reached_preemption_sync_point(step_id: int) -> bool:
    """Whether every process has reached the step at which to save a
    checkpoint after a preemption notice. False without a distributed
    runtime (as JAX's); mlax's runtime starts no preemption sync manager,
    so inside one it raises JAX's RuntimeError."""
    if _client() is None:
        return False
    raise RuntimeError(
        "Preemption sync manager has not been initialized (mlax.distributed.initialize "
        "starts no preemption service).")


_NONE_PSPEC = ("`None` is not a valid input to the pspecs argument. Please use "
               "jax.sharding.PartitionSpec() if you wanted to replicate your input.")


def _pspec_leaves(pspecs, tree, what):
    if pspecs is None:
        raise ValueError(_NONE_PSPEC)
    return partitioned._broadcast_prefix(pspecs, tree, what, what)


def _host_value(x):
    value = np.asarray(x)
    if value.dtype == float0:
        value = np.zeros(value.shape, dtype=bool)
    return value


def host_local_array_to_global_array_impl(arr, *, global_mesh: Mesh, pspec):
    """host_local_array_to_global_array of one array (JAX's eager rule)."""
    if pspec is None:
        raise ValueError(_NONE_PSPEC)
    if isinstance(arr, Tracer) or _is_global(arr):
        return arr  # under jit the identity, as JAX's lowering
    sharding = NamedSharding(global_mesh, pspec)
    if isinstance(arr, Array) and arr.sharding == sharding:
        return arr
    return global_arrays.make_array_from_process_local_data(sharding, _host_value(arr))


def global_array_to_host_local_array_impl(arr, *, global_mesh: Mesh, pspec):
    """global_array_to_host_local_array of one array (JAX's eager rule)."""
    if pspec is None:
        raise ValueError(_NONE_PSPEC)
    if isinstance(arr, Tracer) or (isinstance(arr, Array) and not _is_global(arr)):
        return arr
    if isinstance(arr, Array):
        raise NotImplementedError(
            "mlax.experimental.multihost_utils.global_array_to_host_local_array: an array "
            "spread over several processes (a host-local view of it is not built)")
    return api.device_put(_host_value(arr), NamedSharding(global_mesh, pspec))


def host_local_array_to_global_array(local_inputs, global_mesh: Mesh, pspecs):
    """Each leaf of `local_inputs` (this process's block) as a global array
    laid out over `global_mesh` as its PartitionSpec in `pspecs` (a pytree
    prefix) says. In one process the global array holds the local value.
    Under jit it is the identity (as JAX's lowering)."""
    leaves, treedef = registry.flatten(local_inputs)
    specs = _pspec_leaves(pspecs, local_inputs, "input pspecs")
    return treedef.unflatten([host_local_array_to_global_array_impl(
        x, global_mesh=global_mesh, pspec=s) for x, s in zip(leaves, specs)])


def global_array_to_host_local_array(global_inputs, global_mesh: Mesh, pspecs):
    """Each global array leaf of `global_inputs` as the array of this
    process's block of it. In one process every array is host-local: an
    Array is returned as it is, a NumPy value is laid out over `global_mesh`
    as `pspecs` says. Under jit it is the identity (as JAX's lowering)."""
    leaves, treedef = registry.flatten(global_inputs)
    specs = _pspec_leaves(pspecs, global_inputs, "output pspecs")
    return treedef.unflatten([global_array_to_host_local_array_impl(
        x, global_mesh=global_mesh, pspec=s) for x, s in zip(leaves, specs)])


class ProcessFailureError(Exception):
    """Raised by live_devices when one or more processes have failed.

    Attributes:
      failed_devices: A set of devices whose processes failed.
    """

    def __init__(self, failed_devices):
        self.failed_devices = failed_devices
        super().__init__(f"Devices failed: {failed_devices}")


def _live_devices(client, devices):
    process_ids = {d.process_index for d in devices}
    if devices_lib.process_index() not in process_ids:
        raise ValueError("Provided devices do not have any local devices.")
    live = client.get_live_nodes(list(process_ids))
    return {d: live[d.process_index] for d in devices if d.process_index in live}


class _LiveDevices:
    """live_devices(devices): a context manager yielding the devices among
    `devices` whose processes are alive (as JAX's: a barrier over them, and
    ProcessFailureError if one fails inside the block). Needs
    mlax.distributed.initialize."""

    def __init__(self):
        self.devices = None

    @contextlib.contextmanager
    def __call__(self, devices):
        client = _client()
        if client is None:
            raise RuntimeError("Distributed JAX not initialized.")
        if not devices:
            raise ValueError("No devices provided.")
        if self.devices is None:
            self.devices = _live_devices(client, devices)
        exception = None
        try:
            yield sorted(self.devices, key=lambda d: d.id)
        except Exception as e:  # noqa: BLE001 - re-raised below, as JAX's
            exception = e
        finally:
            old, new = self.devices, _live_devices(client, devices)
            self.devices = new
            failed = {d for d in old if d not in new or new[d] != old[d]}
            if failed:
                raise ProcessFailureError(failed) from exception
            if exception:
                raise exception


live_devices = _LiveDevices()

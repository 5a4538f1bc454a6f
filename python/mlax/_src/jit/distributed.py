"""mlax.distributed.initialize / shutdown (jax.distributed)."""
from __future__ import annotations

import os

from mlax._src.base import jaxlib_internals


def initialize(coordinator_address: str | None = None, num_processes: int | None = None,
               process_id: int | None = None, local_device_ids=None, *,
               initialization_timeout: int = 300, **kwargs):
    """Joins this process to a run of `num_processes` processes coordinated
    by the one with `process_id` 0, listening at `coordinator_address`
    ("host:port"). Must come before any computation. Afterwards
    mlax.devices() lists every process's devices, mlax.local_devices() this
    one's, and a program over a mesh of them runs in every process (each
    process calls it), its collectives going over TCP between processes (on
    the CPU, gloo's). Arguments default to $JAX_COORDINATOR_ADDRESS,
    $JAX_NUM_PROCESSES and $JAX_PROCESS_ID, as in JAX."""
    if coordinator_address is None:
        coordinator_address = os.environ.get("JAX_COORDINATOR_ADDRESS")
    if num_processes is None and "JAX_NUM_PROCESSES" in os.environ:
        num_processes = int(os.environ["JAX_NUM_PROCESSES"])
    if process_id is None and "JAX_PROCESS_ID" in os.environ:
        process_id = int(os.environ["JAX_PROCESS_ID"])
    if coordinator_address is None or num_processes is None or process_id is None:
        raise ValueError("mlax.distributed.initialize needs coordinator_address, "
                         "num_processes and process_id (no cluster environment to detect "
                         "them from)")
    if not 0 <= int(process_id) < int(num_processes):
        raise ValueError(f"process_id {process_id} is not in range(num_processes="
                         f"{num_processes})")
    if local_device_ids is not None:
        raise NotImplementedError("mlax.distributed.initialize: local_device_ids")
    jaxlib_internals.distributed_initialize(coordinator_address, int(num_processes),
                                            int(process_id), initialization_timeout)


def shutdown():
    """Leaves the multi-process run (waits for every process at a barrier)."""
    jaxlib_internals.distributed_shutdown()


def is_initialized() -> bool:
    return bool(jaxlib_internals.distributed_state())


# --- multihost_utils (jax.experimental.multihost_utils) ---------------------

def sync_global_devices(name: str):
    """Waits until every process reaches this call with the same `name` (a
    barrier of the distributed runtime; nothing to wait for in one process)."""
    client = jaxlib_internals.distributed_state().get("client")
    if client is not None:
        client.wait_at_barrier(f"mlax_sync_{name}", 10 * 60 * 1000)


def _process_mesh():
    import numpy as np

    from mlax._src.backend import runtime
    from mlax._src.backend.sharding import Mesh

    devices = runtime.backend().devices()
    nproc = max(d.process_index for d in devices) + 1
    by_process = [[d for d in devices if d.process_index == p] for p in range(nproc)]
    per = min(len(ds) for ds in by_process)
    grid = np.array([ds[:per] for ds in by_process], dtype=object)
    return Mesh(grid, ("processes", "local"))


def _replicated_value(arr):
    import numpy as np

    from mlax._src.backend.sharding import NamedSharding, PartitionSpec
    from mlax._src.jit import api

    mesh = arr.sharding.mesh
    rep = api.jit(lambda v: v, out_shardings=NamedSharding(mesh, PartitionSpec()))(arr)
    return np.asarray(rep.addressable_shards[0].data)


def process_allgather(in_tree, tiled: bool = False):
    """Every process's value of each leaf, on the host of every process: a
    global array (over several processes) is gathered whole; a host-local
    value is stacked over the processes along a new leading axis (or, with
    `tiled`, concatenated along the first one), as JAX's."""
    import numpy as np

    from mlax._src.backend import runtime
    from mlax._src.backend.sharding import NamedSharding, PartitionSpec
    from mlax._src.base.tree import registry
    from mlax._src.core.array import Array
    from mlax._src.jit import global_arrays

    def one(x):
        if isinstance(x, Array) and runtime.is_mesh_buffer(x._buf) \
                and not x.is_fully_addressable:
            return _replicated_value(x)
        value = np.asarray(x)
        mesh = _process_mesh()
        nproc = mesh.devices.shape[0]
        if nproc == 1:
            return value if tiled else value[None]
        g = global_arrays.make_array_from_process_local_data(
            NamedSharding(mesh, PartitionSpec("processes")), value[None])
        out = _replicated_value(g)
        return out.reshape((-1,) + out.shape[2:]) if tiled else out

    leaves, treedef = registry.flatten(in_tree)
    return treedef.unflatten([one(x) for x in leaves])


def broadcast_one_to_all(in_tree, is_source: bool | None = None):
    """Process 0's value of each leaf (or that of the process passing
    `is_source=True`), on every process."""
    import numpy as np

    from mlax._src.base.tree import registry
    from mlax._src.jit import devices as devices_lib

    if is_source is None:
        is_source = devices_lib.process_index() == 0
    leaves, treedef = registry.flatten(in_tree)
    out = []
    for x in leaves:
        value = np.asarray(x)
        masked = value if is_source else np.zeros_like(value)
        gathered = process_allgather(masked)
        out.append(gathered.sum(axis=0).astype(value.dtype) if gathered.ndim > value.ndim
                   else gathered)
    return treedef.unflatten(out)

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

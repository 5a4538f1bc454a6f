"""mlax.experimental.multihost_utils, as JAX's: host-side helpers for runs
of several processes (see docs/sharding.md)."""
from mlax._src.jit.multihost_utils import (  # noqa: F401
    ProcessFailureError, assert_equal, broadcast_one_to_all, global_array_to_host_local_array,
    global_array_to_host_local_array_impl, host_local_array_to_global_array,
    host_local_array_to_global_array_impl, live_devices, process_allgather,
    reached_preemption_sync_point, sync_global_devices)

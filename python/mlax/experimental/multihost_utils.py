"""mlax.experimental.multihost_utils, as JAX's: host-side helpers for runs
of several processes (see docs/sharding.md)."""
from mlax._src.jit.distributed import (  # noqa: F401
    broadcast_one_to_all, process_allgather, sync_global_devices)

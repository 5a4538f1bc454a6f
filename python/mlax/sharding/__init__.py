"""mlax.sharding: meshes and shardings, as jax.sharding (see docs/sharding.md)."""
from mlax._src.backend.sharding import (  # noqa: F401
    AxisType, DuplicateSpecError, IndivisibleError, Mesh, NamedSharding, PartitionSpec,
    Sharding, SingleDeviceSharding, get_mesh, make_single_device_sharding, set_mesh)

use_mesh = set_mesh

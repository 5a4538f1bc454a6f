"""mlax.experimental.mesh_utils, as jax.experimental.mesh_utils: device
meshes for `mlax.sharding.Mesh`."""
from mlax._src.jit.mesh_utils import (  # noqa: F401
    create_device_mesh, create_hybrid_device_mesh, device_kind_handler_dict)

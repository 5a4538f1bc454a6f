"""mlax.export: as jax.export (concrete shapes, one platform; mlax's own
versioned serialization of StableHLO plus the calling convention)."""
from mlax._src.jit.export import (  # noqa: F401
    DisabledSafetyCheck, Exported, default_export_platform, deserialize, export,
    maximum_supported_calling_convention_version, minimum_supported_calling_convention_version,
    register_namedtuple_serialization, register_pytree_node_serialization)

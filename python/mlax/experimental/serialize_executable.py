"""mlax.experimental.serialize_executable, as jax.experimental.serialize_executable:
a compiled program as bytes, and back."""
from mlax._src.jit.serialize_executable import deserialize_and_load, serialize  # noqa: F401

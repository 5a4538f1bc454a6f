"""mlax.ffi, as jax.ffi: calling XLA FFI (custom-call) targets compiled
outside mlax, and registering them."""
from mlax._src.jit.ffi import (  # noqa: F401
    ffi_call, include_dir, pycapsule, register_ffi_target,
    register_ffi_target_as_batch_partitionable, register_ffi_type, register_ffi_type_id)

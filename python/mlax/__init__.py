"""mlax: JAX rebuilt MLIR-natively.

NumPy-style Python is traced into the `mlax` MLIR dialect, simplified by MLIR
passes, lowered to StableHLO and compiled by XLA (through jaxlib's PJRT).
"""
from mlax._src.numpy import array_methods as _methods
from mlax._src.jit.api import (  # noqa: F401
    block_until_ready, clear_caches, copy_to_host_async, device_get, device_put, disable_jit,
    effects_barrier, fwd_and_bwd, jit, make_ir)
from mlax._src.jit.devices import (  # noqa: F401
    Device, default_backend, device_count, devices, host_count, host_id, host_ids,
    local_device_count, local_devices, print_environment_info, process_count, process_index,
    process_indices)
from mlax._src.core.array import Shard  # noqa: F401
from mlax._src.core.basearray import Array  # noqa: F401  (concrete arrays, tracers, keys)
from mlax._src.jit.shard_map import pmap, shard_map  # noqa: F401
from mlax._src.jit.global_arrays import (  # noqa: F401
    make_array_from_callback, make_array_from_process_local_data,
    make_array_from_single_device_arrays)
from mlax._src.backend.sharding import (  # noqa: F401
    NamedSharding, PartitionSpec as P, make_mesh, set_mesh)
from mlax._src.transforms.autodiff import (  # noqa: F401
    checkpoint, closure_convert, custom_gradient, custom_jvp, custom_vjp, grad, hessian, jacfwd,
    jacrev, jvp, remat, stop_gradient, value_and_grad, vjp)
from mlax._src.transforms.ad_checkpoint import checkpoint_policies  # noqa: F401
from mlax._src.transforms.linear import linear_transpose, linearize  # noqa: F401
from mlax._src.core.primitives import ensure_compile_time_eval, typeof  # noqa: F401
from mlax._src.core.tracer import named_call, named_scope  # noqa: F401
from mlax._src.core.refs import Ref, empty_ref, free_ref, freeze, new_ref  # noqa: F401
from mlax._src.core.dslice import ds  # noqa: F401
from mlax._src.base.dtypes import float0  # noqa: F401
from mlax._src.transforms.vmap import vmap  # noqa: F401
from mlax._src.jit.jaxpr import ShapeDtypeStruct, eval_shape, make_jaxpr  # noqa: F401
from mlax._src.backend.compiler import CompileError  # noqa: F401
from mlax._src.jit.callbacks import pure_callback  # noqa: F401
from mlax._src.base.config import (  # noqa: F401
    allow_f16_reductions, check_tracer_leaks, checking_leaks, config, debug_infs, debug_key_reuse, debug_nans,
    default_device, default_matmul_precision, default_prng_impl, enable_custom_prng, enable_x64,
    explain_cache_misses, legacy_prng_key, softmax_custom_jvp, threefry_partitionable, log_compiles, no_execution, no_tracing, numpy_dtype_promotion,
    numpy_rank_promotion)
from mlax._src.base.transfer_guard import (  # noqa: F401
    transfer_guard, transfer_guard_device_to_device, transfer_guard_device_to_host,
    transfer_guard_host_to_device)
from mlax._src.base.errors import (  # noqa: F401
    ConcretizationTypeError, NonConcreteBooleanIndexError, TracerArrayConversionError,
    TracerBoolConversionError, TracerIntegerConversionError, UnexpectedTracerError)

from mlax import lax, numpy  # noqa: F401,E402
from mlax import dlpack, dtypes, random, tree, tree_util  # noqa: F401,E402
from mlax import passes  # noqa: F401,E402
from mlax import image, nn, scipy  # noqa: F401,E402
from mlax import errors, ops  # noqa: F401,E402
from mlax import debug, experimental, ffi  # noqa: F401,E402
from mlax import custom_derivatives, export, typing  # noqa: F401,E402 (as `import jax` loads them)
from mlax import ad_checkpoint, custom_batching  # noqa: F401,E402
from mlax import distributed, sharding, stages  # noqa: F401,E402
from mlax import monitoring, profiler  # noqa: F401,E402
from mlax import core, ref  # noqa: F401,E402

jacobian = jacrev  # as jax.jacobian

_methods.install()

from mlax._src.base.version import __version__  # noqa: F401,E402

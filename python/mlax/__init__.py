"""mlax: JAX rebuilt MLIR-natively.

NumPy-style Python is traced into the `mlax` MLIR dialect, simplified by MLIR
passes, lowered to StableHLO and compiled by XLA (through jaxlib's PJRT).
"""
from mlax._src.numpy import array_methods as _methods
from mlax._src.jit.api import (  # noqa: F401
    block_until_ready, clear_caches, default_backend, device_get, device_put, devices, jit,
    local_devices, make_ir)
from mlax._src.core.array import Array  # noqa: F401
from mlax._src.transforms.autodiff import (  # noqa: F401
    checkpoint, custom_jvp, custom_vjp, grad, hessian, jacfwd, jacrev, jvp, remat,
    stop_gradient, value_and_grad, vjp)
from mlax._src.transforms.vmap import vmap  # noqa: F401
from mlax._src.jit.jaxpr import ShapeDtypeStruct, eval_shape, make_jaxpr  # noqa: F401
from mlax._src.backend.compiler import CompileError  # noqa: F401
from mlax._src.base.config import config  # noqa: F401
from mlax._src.base.errors import (  # noqa: F401
    ConcretizationTypeError, NonConcreteBooleanIndexError, TracerArrayConversionError,
    TracerBoolConversionError, TracerIntegerConversionError, UnexpectedTracerError)

from mlax import lax, numpy  # noqa: F401,E402
from mlax import dlpack, random, tree, tree_util  # noqa: F401,E402
from mlax import passes  # noqa: F401,E402
from mlax import nn, scipy  # noqa: F401,E402
from mlax import errors, ops  # noqa: F401,E402

jacobian = jacrev  # as jax.jacobian

_methods.install()

__version__ = "0.1.0"

"""mlax: JAX rebuilt MLIR-natively.

NumPy-style Python is traced into the `mlax` MLIR dialect, simplified by MLIR
passes, lowered to StableHLO and compiled by XLA (through jaxlib's PJRT).
"""
from mlax._src import methods as _methods
from mlax._src.api import (  # noqa: F401
    block_until_ready, clear_caches, device_put, devices, jit, make_ir)
from mlax._src.array import Array  # noqa: F401
from mlax._src.compiler import CompileError  # noqa: F401
from mlax._src.config import config  # noqa: F401
from mlax._src.errors import (  # noqa: F401
    ConcretizationTypeError, NonConcreteBooleanIndexError, TracerArrayConversionError,
    TracerBoolConversionError, TracerIntegerConversionError, UnexpectedTracerError)

from mlax import lax, numpy  # noqa: F401,E402

_methods.install()

__version__ = "0.1.0"

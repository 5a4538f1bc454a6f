"""mlax.errors: the exception classes mlax raises, as jax.errors."""
from mlax._src.errors import (  # noqa: F401
    ConcretizationTypeError, MlaxIndexError, MlaxTypeError, NonConcreteBooleanIndexError,
    TracerArrayConversionError, TracerBoolConversionError, TracerIntegerConversionError,
    UnexpectedTracerError)
from mlax._src.compiler import CompileError  # noqa: F401

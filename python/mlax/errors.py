"""mlax.errors: the exception classes mlax raises, as jax.errors."""
from mlax._src.base.errors import (  # noqa: F401
    ConcretizationTypeError, JAXIndexError, JAXTypeError, KeyReuseError, MlaxIndexError, MlaxTypeError,
    NonConcreteBooleanIndexError, TracerArrayConversionError, TracerBoolConversionError,
    TracerIntegerConversionError, UnexpectedTracerError)
from mlax._src.base.jaxlib_internals import JaxRuntimeError  # noqa: F401
from mlax._src.backend.compiler import CompileError  # noqa: F401

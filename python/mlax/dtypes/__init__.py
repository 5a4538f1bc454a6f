"""mlax.dtypes: dtype utilities (as jax.dtypes)."""
from mlax._src.base.dtypes import (  # noqa: F401
    TypePromotionError, bfloat16, canonicalize_dtype, extended, finfo, float0, iinfo,
    issubdtype, itemsize_bits, prng_key)
from mlax._src.base.dtypes import python_scalar_type as scalar_type_of  # noqa: F401
from mlax._src.numpy.library import result_type  # noqa: F401

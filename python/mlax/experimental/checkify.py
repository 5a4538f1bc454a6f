"""mlax.experimental.checkify, as jax.experimental.checkify: functionalized
run-time checks (`check`, `checkify`) and automatic NaN, division and
out-of-bounds index checks."""
from mlax._src.experimental.checkify import (  # noqa: F401
    Error, ErrorCategory, JaxRuntimeError, all_checks, automatic_checks, check, check_error,
    checkify, debug_check, div_checks, float_checks, index_checks, init_error, nan_checks,
    user_checks)

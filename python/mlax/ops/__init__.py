"""mlax.ops: segment reductions, as jax.ops."""
from mlax._src.ops.segment import (  # noqa: F401
    segment_max, segment_min, segment_prod, segment_sum)

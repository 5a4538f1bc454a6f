"""mlax.experimental.jet, as jax.experimental.jet: Taylor-mode higher-order
differentiation."""
from mlax._src.experimental.jet import (  # noqa: F401
    ZeroSeries, ZeroTerm, fact, jet, jet2, zero_series, zero_term)

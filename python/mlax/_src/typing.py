"""Type annotations for mlax code, as jax.typing: ArrayLike (what mlax
functions accept as an array) and DTypeLike (what they accept as a dtype)."""
from __future__ import annotations

from typing import Any, Protocol, Union

import numpy as np

from mlax._src.core.basearray import Array


class SupportsDType(Protocol):
    @property
    def dtype(self) -> np.dtype: ...


# Python scalars, NumPy arrays and scalars, and mlax Arrays (tracers too: a
# Tracer stands for an Array while tracing).
ArrayLike = Union[Array, np.ndarray, np.bool_, np.number, bool, int, float, complex]

DTypeLike = Union[str, type[Any], np.dtype, SupportsDType]

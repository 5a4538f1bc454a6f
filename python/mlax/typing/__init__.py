"""mlax.typing: ArrayLike and DTypeLike, as jax.typing."""
from mlax._src.typing import ArrayLike, DTypeLike  # noqa: F401

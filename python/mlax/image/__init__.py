"""mlax.image: as jax.image (resize, scale_and_translate, ResizeMethod)."""
from mlax._src.image.scale import ResizeMethod, resize, scale_and_translate  # noqa: F401

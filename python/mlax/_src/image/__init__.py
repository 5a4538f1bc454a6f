"""jax.image: image resizing (mlax._src.image.scale)."""

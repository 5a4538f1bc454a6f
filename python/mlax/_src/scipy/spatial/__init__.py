"""jax.scipy.spatial (transform)."""

"""jax.scipy.cluster (vq)."""

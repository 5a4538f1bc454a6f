"""jax.experimental.sparse: the BCOO format and its operations."""

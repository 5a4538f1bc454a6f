"""jax.scipy.stats: one module per distribution (as JAX), plus mode,
rankdata and sem (`core`)."""

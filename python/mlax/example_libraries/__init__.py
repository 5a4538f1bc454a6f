"""mlax.example_libraries: JAX's example optimizers and stax neural-network
layers, written on mlax's public API (as JAX's are on JAX's), so JAX's
examples run by changing their imports."""

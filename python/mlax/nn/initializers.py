"""mlax.nn.initializers: weight initializers, as jax.nn.initializers (same
random bits as JAX for the same key)."""
from mlax._src.nn.initializers import (  # noqa: F401
    Initializer, constant, delta_orthogonal, glorot_normal, glorot_uniform, he_normal,
    he_uniform, lecun_normal, lecun_uniform, normal, orthogonal, truncated_normal, uniform,
    variance_scaling)
from mlax._src.nn.initializers import init_ones as ones  # noqa: F401
from mlax._src.nn.initializers import init_zeros as zeros  # noqa: F401

xavier_uniform = glorot_uniform
xavier_normal = glorot_normal
kaiming_uniform = he_uniform
kaiming_normal = he_normal

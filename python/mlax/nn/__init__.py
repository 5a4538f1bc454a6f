"""mlax.nn: neural-network functions, as jax.nn."""
from mlax._src.nn import (  # noqa: F401
    celu, elu, gelu, hard_tanh, identity, leaky_relu, log_sigmoid, log_softmax, logsumexp,
    one_hot, relu, relu6, selu, sigmoid, silu, softmax, softplus, standardize, swish)

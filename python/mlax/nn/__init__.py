"""mlax.nn: neural-network functions, as jax.nn."""
from mlax._src.nn.functions import (  # noqa: F401
    celu, elu, gelu, hard_tanh, identity, leaky_relu, log_sigmoid, log_softmax, logsumexp,
    one_hot, relu, relu6, selu, sigmoid, silu, softmax, softplus, standardize, swish)
from mlax._src.nn.functions import (  # noqa: F401,E402
    dot_product_attention, glu, hard_sigmoid, hard_silu, hard_swish, log1mexp, logmeanexp,
    mish, soft_sign, sparse_plus, sparse_sigmoid, squareplus, tanh)
from mlax.nn import initializers  # noqa: F401,E402

"""mlax.random: JAX's PRNG (threefry2x32, rbg, unsafe_rbg, philox2x32, philox4x32,
threefry4x32 keys), bit for bit."""
from mlax._src.random.prng import (  # noqa: F401
    KeyArray, PRNGKey, bernoulli, bits, categorical, choice, clone, exponential, fold_in,
    gumbel, key, key_data, key_dtype, key_impl, multivariate_normal, normal, permutation,
    randint, split, truncated_normal, uniform, wrap_key_data)
from mlax._src.random.distributions import (  # noqa: F401
    ball, beta, binomial, cauchy, chisquare, dirichlet, double_sided_maxwell, f, gamma,
    generalized_normal, geometric, laplace, loggamma, logistic, lognormal, maxwell, multinomial,
    orthogonal, pareto, poisson, rademacher, rayleigh, t, triangular, wald, weibull_min)

"""mlax.extend.random: PRNG implementations (jax.extend.random): JAX's
built-in ones as objects, and user-defined ones (define_prng_impl)."""
from mlax._src.random.prng import (  # noqa: F401
    _RBG as rbg_prng_impl, _THREEFRY as threefry_prng_impl,
    _UNSAFE_RBG as unsafe_rbg_prng_impl, define_prng_impl, random_seed, seed_with_impl,
    threefry_2x32)

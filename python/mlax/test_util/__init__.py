"""mlax.test_util: check_grads, check_jvp and check_vjp, as jax.test_util."""
from mlax._src.test_util import check_grads, check_jvp, check_vjp  # noqa: F401

"""mlax.custom_derivatives: user-defined derivative rules, as
jax.custom_derivatives (the same objects as mlax.custom_jvp & co.)."""
from mlax._src.transforms.autodiff import (  # noqa: F401
    CustomVJPPrimal, SymbolicZero, closure_convert, custom_gradient, custom_jvp, custom_vjp,
    custom_vjp_primal_tree_values, linear_call, zero_from_primal)

"""mlax.custom_derivatives: user-defined derivative rules, as
jax.custom_derivatives (the same objects as mlax.custom_jvp & co.)."""
from mlax._src.transforms.autodiff import (  # noqa: F401
    closure_convert, custom_gradient, custom_jvp, custom_vjp)

"""mlax.extend.core: jax.extend.core's user-defined primitives (`Primitive`,
whose `bind` runs its def_impl function traced into mlax ops, so jit, grad
and vmap go through it) and the helpers that fit mlax: the jaxpr view of
make_jaxpr (`ClosedJaxpr`, `Jaxpr`, `JaxprEqn`, `Var`, `Literal`,
`jaxpr_as_fun`) and abstract-value helpers. See mlax._src.jit.extend_core."""
from mlax._src.jit.extend_core import (  # noqa: F401
    ClosedJaxpr, Jaxpr, JaxprEqn, Literal, Primitive, Var, array_types, concrete_or_error,
    jaxpr_as_fun, mapped_aval, primal_dtype_to_tangent_dtype, unmapped_aval, valid_jaxtype)

"""`mlax.Array`: the public type of mlax arrays, as `jax.Array` is JAX's.

It is the base class of what a user's function can be handed: a concrete
device array (mlax._src.core.array.Array), a traced value (Tracer, under
jit, grad, vmap, ...) and a typed PRNG key array. So
`isinstance(x, mlax.Array)` is True inside and outside transformations, as
`isinstance(x, jax.Array)` is, and libraries that filter a pytree's array
leaves that way (`is_leaf=lambda x: isinstance(x, Array)`) work under jit
and grad. mlax's own code tests for the concrete class (a device buffer)
where it matters.
"""
from __future__ import annotations


class Array:
    """The type of mlax arrays and of traced values (`jax.Array`'s role):
    for `isinstance` checks and type annotations. Arrays are made by
    mlax.numpy's functions (`mnp.array`, `mnp.zeros`, ...), not by calling
    this class."""

    __slots__ = ()

    def __init__(self, *args, **kwargs):
        raise TypeError("mlax.Array cannot be instantiated; use mlax.numpy.array, "
                        "mlax.numpy.asarray or another array-creation function")


Array.__module__ = "mlax"

"""What custom rules declared with `symbolic_zeros=True` see, as in
jax.custom_derivatives: `SymbolicZero` in place of a (co)tangent known to be
zero, `CustomVJPPrimal` (a primal and whether it is perturbed) in place of
each argument leaf of a custom_vjp's fwd.

mlax decides what is zero when it traces a rule, from the data flow of the
program traced so far (`tracing.active_arguments`, and the uses of a call's
results): where that cannot be known for sure (the call sits in a function
a derivative reaches only later, such as a loop body or a checkpointed
function), a float argument counts as perturbed and gets a tangent that is
zero in value. That is never wrong, only less informative than JAX.
"""
from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from mlax._src.base import dtypes
from mlax._src.base.tree import registry
from mlax._src.core import tracer as core
from mlax._src.core import tracing
from mlax._src.core.tracer import Tracer


def value_aval(x) -> core.ShapedArray:
    """The aval of a (co)tangent, a float0 one included (no mlax array has
    that dtype)."""
    if isinstance(x, Tracer):
        return x.aval
    if getattr(x, "dtype", None) == dtypes.float0:
        return core.ShapedArray(np.shape(x), dtypes.float0)
    return tracing._leaf_aval(x)


def tangent_aval(aval) -> core.ShapedArray:
    """The aval of a tangent of a value of `aval`: float0 for integers and
    booleans, as JAX's to_tangent_aval."""
    if dtypes.is_inexact(aval.dtype):
        return aval
    return core.ShapedArray(aval.shape, dtypes.float0, aval.weak_type)


class SymbolicZero:
    """A (co)tangent known to be zero, with the aval of the (co)tangent it
    stands for: `.aval`, and through it `.shape`, `.dtype`, `.ndim`,
    `.size`, `.weak_type`. Not an array: mlax.numpy functions do not take
    it; `zero_from_primal` or `jnp.zeros(z.shape, z.dtype)` make one."""

    def __init__(self, aval) -> None:
        self.aval = aval

    def __repr__(self) -> str:
        return type(self).__name__

    def __getattr__(self, name):
        # (Only reached for names the instance lacks; `aval` itself is one
        # while unpickling, before __init__ ran.)
        if name == "aval":
            raise AttributeError(name)
        try:
            return getattr(self.aval, name)
        except AttributeError:
            raise AttributeError(f"{type(self).__name__} has no attribute {name}") from None

    @staticmethod
    def from_primal_value(val) -> "SymbolicZero":
        return SymbolicZero(tangent_aval(value_aval(val)))


@dataclasses.dataclass(slots=True)
class CustomVJPPrimal:
    """A primal argument leaf of a custom_vjp's fwd rule when `defvjp` was
    given `symbolic_zeros=True`: its `value` and whether it is `perturbed`
    (False: the derivative does not depend on it)."""
    value: Any
    perturbed: bool


def custom_vjp_primal_tree_values(tree):
    """`tree` with each CustomVJPPrimal leaf replaced by its value: the
    arguments of a symbolic-zeros fwd rule as the function takes them."""
    leaves, treedef = registry.flatten(tree)
    for leaf in leaves:
        if type(leaf) is not CustomVJPPrimal:
            raise TypeError(f"unexpected leaf type {type(leaf)}")
    return treedef.unflatten([leaf.value for leaf in leaves])

"""jax.stages: the objects of ahead-of-time compilation. `jit(f).trace(*args)`
is a Traced (the traced mlax module, shown as a jaxpr), `.lower()` of it or
of the jitted function a Lowered (StableHLO), `.compile()` a Compiled (the
XLA executable). Wrapped is the protocol jitted functions satisfy.

Jitted.trace, Jitted.eval_shape and the stages' out_info are defined here, not in api (whose
classes they extend), because they need the jaxpr module, which is built on
api; mlax/__init__.py imports this module, which installs them."""
from __future__ import annotations

from typing import Protocol, Union, runtime_checkable

from mlax._src.base.tree import registry
from mlax._src.jit import api
from mlax._src.jit import jaxpr as jaxpr_lib
from mlax._src.jit import ref_calls
from mlax._src.jit.api import ArgInfo, Compiled, Jitted, Lowered  # noqa: F401

# Options for the XLA compiler, by name (as JAX's alias).
CompilerOptions = dict[str, Union[str, bool]]


class Traced:
    """A function traced for given argument types (`jit(f).trace(*args)`),
    ready to lower."""

    def __init__(self, jitted, args, kwargs):
        leaves, _ = registry.flatten((args, kwargs))
        args, kwargs = registry.flatten((args, kwargs))[1].unflatten(
            [jaxpr_lib._as_mlax_struct(x) for x in leaves])
        self._jitted, self._args, self._kwargs = jitted, args, kwargs
        traced = jaxpr_lib.trace_jitted(jitted, args, kwargs)
        self.out_tree = traced.out_tree
        self.jaxpr = jaxpr_lib.ClosedJaxpr.of(traced)
        leaves, treedef, static_key, _ = jitted._prepare(args, kwargs)
        # (a Ref's ArgInfo has its type, Ref{...}, as JAX's)
        avals = tuple(ref_calls.type_of(leaf) for leaf in leaves)
        self.args_info = api.args_info(jitted, (treedef, static_key, avals))
        self.out_info = _out_info(self.out_tree, traced.out_avals)
        self.fun_name = jitted._fun_name()

    @property
    def in_tree(self):
        return registry.flatten(self.args_info)[1]

    def lower(self, *, lowering_platforms=None) -> Lowered:
        if lowering_platforms is not None:
            raise NotImplementedError("Traced.lower: lowering_platforms is not supported")
        return self._jitted.lower(*self._args, **self._kwargs)


def _out_info(out_tree, out_avals, weak_types=True):
    """The results as a pytree of ShapeDtypeStruct (as JAX's, a lowered or
    compiled program's give no weak types)."""
    return out_tree.unflatten([jaxpr_lib.ShapeDtypeStruct(
        a.shape, a.dtype, weak_type=weak_types and a.weak_type) for a in out_avals])


def _trace(self, *args, **kwargs) -> Traced:
    """The function traced for these arguments (arrays or ShapeDtypeStructs)."""
    return Traced(self, args, kwargs)


def _eval_shape(self, *args, **kwargs):
    """The shapes, dtypes and weak types of the results for these arguments
    (arrays or ShapeDtypeStructs), a pytree of ShapeDtypeStruct: traced,
    never compiled (`jit(f).eval_shape(*args)`, as JAX's)."""
    traced = jaxpr_lib.trace_jitted(self, args, kwargs)
    return _out_info(traced.out_tree, traced.out_avals)


# Installed here because they build on the jaxpr module (see the module doc).
Jitted.trace = _trace
Jitted.eval_shape = _eval_shape
Lowered.out_info = property(lambda self: _out_info(*self._out, weak_types=False))
Compiled.out_info = property(lambda self: _out_info(
    *(self._out or (self._executable.out_tree, self._executable.out_avals)), weak_types=False))


@runtime_checkable
class Wrapped(Protocol):
    """What `jit` returns: callable, and traced, lowered and compiled ahead
    of time on request."""

    def __call__(self, *args, **kwargs):
        raise NotImplementedError

    def trace(self, *args, **kwargs) -> Traced:
        raise NotImplementedError

    def lower(self, *args, **kwargs) -> Lowered:
        raise NotImplementedError

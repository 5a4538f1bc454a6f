"""jax.extend.core's user-defined primitives and helpers, as they fit mlax.

JAX runs a Primitive through per-primitive rules: an impl for eager calls,
an abstract evaluation and a lowering for jit, a JVP and a batching rule
for the transformations. mlax has no per-primitive interpreter: its
transformations are MLIR passes over the mlax ops a function traces to. So
a Primitive's `bind` calls its `def_impl` function, which is traced into
mlax ops wherever it runs inside a trace: jit, grad and vmap work through
it with no rules of their own. Its `def_abstract_eval` rule is checked
against what the impl computes (inside a trace, where JAX uses it). What
has no place here (lowering rules, a trace interpreter, JVP or batching
rules registered in JAX's internal modules, effects) raises an error that
says so.
"""
from __future__ import annotations

import numpy as np

from mlax._src.base import dtypes, errors
from mlax._src.core import tracer as core
from mlax._src.core import tracing
from mlax._src.core.tracer import ShapedArray, Tracer
from mlax._src.jit import jaxpr as jaxpr_lib


def _no_place(what: str) -> str:
    return (f"{what}: mlax has no per-primitive rules (lowering, trace interpreter, JVP, "
            "batching); a Primitive runs its def_impl function, traced into mlax ops, and "
            "jit, grad and vmap transform those ops")


class Primitive:
    """A named operation (jax.extend.core.Primitive): `bind(*args, **params)`
    calls the function given to `def_impl`, traced into mlax ops inside a
    trace (so jit, grad and vmap go through it). With `multiple_results`
    the function returns a sequence and `bind` a list."""

    multiple_results = False
    call_primitive = False
    map_primitive = False
    ref_primitive = False
    ref_allocating = False
    skip_canonicalization = False
    is_effectful = None
    is_high = None

    def __init__(self, name: str):
        self.name = name
        self._impl = None
        self._abstract_eval = None

    def __repr__(self):
        return self.name

    # -- rules ---------------------------------------------------------------
    def def_impl(self, impl):
        """`impl(*args, **params)`: what `bind` runs (on arrays outside any
        trace, on tracers inside one)."""
        self._impl = impl
        return impl

    def def_abstract_eval(self, abstract_eval):
        """`abstract_eval(*avals, **params)`: the result's ShapedArray (a
        list of them with multiple_results); checked against the impl's
        result when bound inside a trace."""
        self._abstract_eval = lambda *a, **p: (abstract_eval(*a, **p), set())
        return abstract_eval

    def def_effectful_abstract_eval(self, effectful_abstract_eval):
        """`effectful_abstract_eval(*avals, **params)` -> (avals, effects);
        mlax has no effects, so the effects must be empty."""
        self._abstract_eval = effectful_abstract_eval
        return effectful_abstract_eval

    def def_effectful_abstract_eval2(self, abstract_eval):
        raise NotImplementedError(_no_place(f"{self.name}.def_effectful_abstract_eval2"))

    def def_bind_with_trace(self, bind_with_trace):
        raise NotImplementedError(_no_place(f"{self.name}.def_bind_with_trace"))

    def bind_with_trace(self, trace, args, params):
        raise NotImplementedError(_no_place(f"{self.name}.bind_with_trace"))

    def get_bind_params(self, params):
        return [], params

    def to_lojax(self, *args, **params):
        raise NotImplementedError(_no_place(f"{self.name}.to_lojax"))

    def impl(self, *args, **params):
        """The evaluation rule (JAX's error when none was defined)."""
        if self._impl is None:
            raise NotImplementedError(f"Evaluation rule for '{self.name}' not implemented")
        return self._impl(*args, **params)

    def abstract_eval(self, *avals, **params):
        """(the results' abstract values, effects), as JAX's."""
        if self._abstract_eval is None:
            raise NotImplementedError(f"Abstract evaluation for '{self.name}' not implemented")
        return self._abstract_eval(*avals, **params)

    # -- binding -------------------------------------------------------------
    def bind(self, *args, **params):
        traced = bool(core.trace_stack()) or any(isinstance(a, Tracer) for a in args)
        if self._impl is None:
            if traced:
                raise NotImplementedError(
                    f"Evaluation rule for '{self.name}' not implemented: mlax traces a "
                    "primitive's def_impl function (it has no lowering rules)")
            raise NotImplementedError(f"Evaluation rule for '{self.name}' not implemented")
        out = self._impl(*args, **params)
        if self.multiple_results:
            if not isinstance(out, (list, tuple)):
                raise TypeError(f"primitive '{self.name}' has multiple_results, but its impl "
                                f"returned {type(out).__name__}, not a list or tuple")
            out = list(out)
        if traced and self._abstract_eval is not None:
            self._check(args, params, out)
        return out

    def _check(self, args, params, out):
        """The abstract evaluation agrees with the impl's results."""
        avals = [_aval(a) if _is_array(a) else a for a in args]
        want, effects = self._abstract_eval(*avals, **params)
        if effects:
            raise NotImplementedError(_no_place(f"primitive '{self.name}' has effects "
                                                f"{effects}"))
        outs = out if self.multiple_results else [out]
        wants = list(want) if self.multiple_results else [want]
        got = [_aval(o) for o in outs]
        if len(wants) != len(got) or any(
                tuple(w.shape) != g.shape or dtypes.canonicalize(np.dtype(w.dtype)) != g.dtype
                for w, g in zip(wants, got)):
            shown = ", ".join(errors.aval_str(a) if isinstance(a, ShapedArray) else repr(a)
                              for a in avals)
            raise TypeError(
                f"primitive '{self.name}': its abstract evaluation gives "
                f"{_avals_str(wants)} for ({shown}), but its impl computes "
                f"{_avals_str(got)}")


def _is_array(x) -> bool:
    return isinstance(x, Tracer) or tracing.is_array_leaf(x)


def _aval(x) -> ShapedArray:
    if isinstance(x, Tracer):
        return x.aval
    return tracing._leaf_aval(x)


def _avals_str(avals) -> str:
    parts = []
    for a in avals:
        try:
            parts.append(f"{np.dtype(a.dtype).name}[{','.join(map(str, a.shape))}]")
        except (AttributeError, TypeError):
            parts.append(repr(a))
    return parts[0] if len(parts) == 1 else "(" + ", ".join(parts) + ")"


def jaxpr_as_fun(closed_jaxpr, *args):
    """The function a ClosedJaxpr (make_jaxpr's) computes, on flat
    arguments, returning the flat list of results (eval_jaxpr)."""
    def fun(*args):
        return jaxpr_lib.eval_jaxpr(closed_jaxpr.jaxpr, closed_jaxpr.consts, *args)
    return fun(*args) if args else fun


def mapped_aval(size, axis, aval):
    """`aval` without its axis `axis` of size `size` (None: unchanged)."""
    if axis is None:
        return aval
    if aval.shape[axis] != size:
        raise AssertionError(f"mapped_aval: axis {axis} of {aval.str_short()} is not of "
                             f"size {size}")
    return aval.update(shape=aval.shape[:axis] + aval.shape[axis + 1:])


def unmapped_aval(size, axis, aval, explicit_mesh_axis=None):
    """`aval` with a new axis of size `size` at `axis` (None: unchanged)."""
    if axis is None:
        return aval
    if explicit_mesh_axis is not None:
        raise NotImplementedError("unmapped_aval: mlax's avals carry no mesh axes")
    axis = axis + aval.ndim + 1 if axis < 0 else axis
    return aval.update(shape=aval.shape[:axis] + (size,) + aval.shape[axis:])


def primal_dtype_to_tangent_dtype(primal_dtype):
    """The dtype of a tangent of `primal_dtype`: float0 for integers and
    booleans (and other dtypes without tangents)."""
    if dtypes.is_inexact(np.dtype(primal_dtype)):
        return primal_dtype
    return dtypes.float0


def valid_jaxtype(x) -> bool:
    """Whether `x` is a value mlax takes as an array (an array, a NumPy
    array or scalar, a Python scalar, a tracer)."""
    return _is_array(x)


def concrete_or_error(force, val, context=""):
    """`force(val)` (`val` itself when `force` is None) where `val` is
    concrete; a ConcretizationTypeError for a traced value whose value
    is not known."""
    if isinstance(val, Tracer):
        value = core.concrete_value(val)
        if value is None:
            raise errors.ConcretizationTypeError(
                "Abstract tracer value encountered where concrete value is expected: "
                f"traced array with shape {errors.aval_str(val.aval)}\n{context}")
        val = value
    return val if force is None else force(val)


# JAX's set of the types it takes as arrays (jax.Array's type aside).
array_types = frozenset({np.ndarray} | {np.dtype(t).type for t in dtypes.SUPPORTED})

ClosedJaxpr = jaxpr_lib.ClosedJaxpr
Jaxpr = jaxpr_lib.Jaxpr
JaxprEqn = jaxpr_lib.JaxprEqn
Literal = jaxpr_lib.Literal
Var = jaxpr_lib.Var

"""mlax.core: the names of jax.core that mean something without jaxprs'
interpreter: abstract values (`ShapedArray`), traced values (`Tracer`, for
`isinstance(x, mlax.core.Tracer)`), the trace a function is traced into
(`Trace`), evaluation contexts and `eval_jaxpr` for what `make_jaxpr` gives.

mlax traces into MLIR: a tracer holds an SSA value of the function being
built, and there is no per-primitive interpreter to extend (JAX's
`Trace.process_primitive`); a transformation of mlax is an MLIR pass
(see docs/tutorial-writing-a-pass.md)."""
from __future__ import annotations

import builtins
import contextlib
from typing import Any, Union

from mlax._src.core.primitives import ensure_compile_time_eval
from mlax._src.core.tracer import AbstractValue, ShapedArray, Trace, Tracer, outside_traces
from mlax._src.jit.jaxpr import Literal, Var, eval_jaxpr

Value = Any  # a value an array operation takes (as jax.core.Value)
Atom = Union[Var, Literal]  # an operand of an equation of a jaxpr
ParamDict = dict[str, Any]  # an equation's parameters


@contextlib.contextmanager
def eval_context():
    """Runs its body as if no function were being traced: operations run
    eagerly on concrete arrays (a tracer of an enclosing trace used inside
    is an UnexpectedTracerError)."""
    with outside_traces():
        yield


def max_dim(d1, d2):
    """The larger of two dimension sizes (mlax's dimensions are integers:
    there are no symbolic ones)."""
    return builtins.max(_dim("max_dim", d1), _dim("max_dim", d2))


def min_dim(d1, d2):
    """The smaller of two dimension sizes."""
    return builtins.min(_dim("min_dim", d1), _dim("min_dim", d2))


def _dim(name, d):
    try:
        return int(d.__index__())
    except (AttributeError, TypeError):
        raise TypeError(f"{name}: a dimension size is an integer, got {d!r}") from None


__all__ = ["AbstractValue", "Atom", "ParamDict", "ShapedArray", "Trace", "Tracer", "Value",
           "ensure_compile_time_eval", "eval_context", "eval_jaxpr", "max_dim", "min_dim"]

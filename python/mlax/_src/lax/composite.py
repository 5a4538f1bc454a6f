"""lax.composite: a named operation defined by its decomposition
(mlax.composite, MlaxOps.td), lowered to `stablehlo.composite` as JAX lowers
it (jax/_src/lax/lax.py).

Calling `composite(decomposition, name, version)` on arguments traces
`decomposition(*args, **kwargs)` into a private function named after the
composite; the positional arguments' leaves are its operands and the keyword
arguments become its `composite_attributes` (those that are None are left
out). As in JAX:

* outside any trace the decomposition runs (JAX's impl rule): the name and
  the attributes are not looked at;
* the decomposition may not close over traced values, and an attribute may
  not be one (UnexpectedTracerError);
* it has no derivative and no batching rule: differentiating through it is
  a ValueError, batching it a NotImplementedError (the dialect's rules raise
  them where a tangent or a batch reaches it).
"""
from __future__ import annotations

import functools
import operator

import numpy as np
from mlir import ir

from mlax._src.base import dtypes, errors
from mlax._src.base.tree import registry
from mlax._src.core import primitives
from mlax._src.core import tracer as core
from mlax._src.core.tracer import Tracer
from mlax._src.core.tracing import _Callee, _run


_ESCAPED = (
    "This means that the decomposition function closes over a value that is involved in a "
    "JAX transformation. Any values that aren't explicitly known at compile time must be "
    "explicitly passed as arguments to the composite.")


def composite(decomposition, name, version=0):
    """jax.lax.composite: `decomposition` as an operation named `name`.

    The result is a function: its positional arguments are the operation's
    inputs, its keyword arguments the attributes of the op (Python and NumPy
    scalars, arrays, dtypes, strings, and lists, tuples and dicts of them).
    A compiler that knows `name` (at `version`, with those attributes) may
    implement it its own way; others run the decomposition. Under jit it is
    a `stablehlo.composite` calling a private function named `name`.
    """

    @functools.wraps(decomposition)
    def _decorator(*args, **kwargs):
        if any(isinstance(v, Tracer) for v in kwargs.values()):
            raise errors.UnexpectedTracerError(
                f"Found a JAX Tracer as an attribute in the decomposition for the composite op "
                f"'{name}'. {_ESCAPED}\n\nNote: If you are passing jax arrays as attributes, "
                "use numpy arrays instead.")
        fun = functools.partial(decomposition, **kwargs)
        if not core.trace_stack():
            return _run(lambda *a: _Decomposition(fun, name, a).call(), f"composite {name}", args)
        return _Decomposition(fun, name, args).emit(name, kwargs, version)

    return _decorator


class _Decomposition:
    """`fun` traced on `args` into a private function of the current trace."""

    def __init__(self, fun, name, args):
        leaves, in_tree = registry.flatten(args)
        self.callee = _Callee(lambda *xs: fun(*in_tree.unflatten(xs)), leaves,
                              name if isinstance(name, str) else str(name),
                              traced_for="composite")
        if self.callee.captured:
            raise errors.UnexpectedTracerError(
                f"Found a JAX Tracer as a constant in the decomposition for the composite op "
                f"'{name}'. {_ESCAPED}")

    def call(self):
        """A plain call of the decomposition (what runs outside any trace)."""
        return self.callee.out_tree.unflatten(self.callee.call())

    def emit(self, name, kwargs, version):
        callee, trace = self.callee, self.callee.outer
        with trace.module.context:
            # JAX's lowering builds these after tracing, so its errors come
            # after the decomposition's.
            if not isinstance(name, (str, bytes)):
                raise TypeError(f"lax.composite: name must be a string, got {name!r}")
            name_attr = ir.StringAttr.get(name)
            version_attr = ir.IntegerAttr.get(ir.IntegerType.get_signless(32),
                                              _version(version))
            attributes = ir.DictAttr.get(
                {k: attribute(v) for k, v in kwargs.items() if v is not None})
        with trace.ip, core.user_location():
            try:
                op = primitives.verified(primitives._ops().CompositeOp(
                    [a.mlir_type() for a in callee.out_avals], name_attr, callee.symbol,
                    callee.operands, composite_attributes=attributes, version=version_attr))
            except ir.MLIRError as e:  # a name that is not namespaced
                message = primitives._python_notation(e.error_diagnostics[0].message)
                raise primitives.shape_error("lax.composite", message, ValueError) from None
        return callee.out_tree.unflatten(
            [Tracer(r, a, trace) for r, a in zip(op.results, callee.out_avals)])


def _version(version) -> int:
    """The version as an int32, with JAX's error classes: None is a
    TypeError, another non-integer a RuntimeError (its bindings' failed
    cast). JAX wraps a version outside int32 silently; mlax refuses it."""
    if version is None:
        raise TypeError("lax.composite: version must be an integer, got None")
    try:
        version = operator.index(version)
    except TypeError:
        raise RuntimeError(
            f"lax.composite: version must be an integer, got {version!r}") from None
    if not -2**31 <= version < 2**31:
        raise OverflowError(f"lax.composite: version {version} does not fit in int32")
    return version


# ---------------------------------------------------------------------------
# Attributes: JAX's mlir.ir_attribute, value for value
# ---------------------------------------------------------------------------

def attribute(value) -> ir.Attribute:
    """The MLIR attribute of a keyword argument of a composite (or of an
    ffi_call: the FFI handler's attributes), as JAX's
    `mlir.ir_attribute` makes it: a Python bool, int or float is an i1, i64
    or f64 scalar; a NumPy scalar one of its dtype; an array a dense
    elements attribute; a dtype a type; str and bytes strings; lists and
    tuples arrays, dicts dictionaries. Anything else is JAX's TypeError."""
    if isinstance(value, (np.ndarray, np.generic)):
        return _numpy_attribute(value)
    if isinstance(value, bool):
        return ir.BoolAttr.get(value)
    if isinstance(value, int):
        if not -2**63 <= value < 2**63:
            raise OverflowError("Python int too large to convert to C long")
        return ir.IntegerAttr.get(ir.IntegerType.get_signless(64), value)
    if isinstance(value, float):
        return ir.FloatAttr.get(ir.F64Type.get(), value)
    if isinstance(value, complex):
        raise TypeError(f"Unsupported scalar attribute type: {np.ndarray}")
    if isinstance(value, (str, bytes)):
        return ir.StringAttr.get(value)
    if isinstance(value, np.dtype):
        return ir.TypeAttr.get(dtypes.mlir_element_type(value))
    if isinstance(value, dict):
        for k in value:
            if not isinstance(k, str):  # (JAX's bindings fail to cast it: RuntimeError)
                raise RuntimeError(
                    f"attribute dictionary keys must be strings, got {k!r}")
        return ir.DictAttr.get({k: attribute(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return ir.ArrayAttr.get([attribute(v) for v in value])
    raise TypeError(f"No attribute handler defined for type: {type(value)}")


def _numpy_attribute(value) -> ir.Attribute:
    element = dtypes.mlir_element_type(value.dtype)
    if isinstance(value, np.ndarray):
        tensor = dtypes.mlir_tensor_type(value.shape, value.dtype)
        return primitives.dense_elements(value, tensor)
    if value.dtype == np.bool_:
        return ir.BoolAttr.get(bool(value))
    if isinstance(element, ir.IntegerType):
        return ir.IntegerAttr.get(element, int(value))
    if isinstance(element, ir.FloatType):
        return ir.FloatAttr.get(element, float(value))
    raise TypeError(f"Unsupported scalar attribute type: {type(value)}")

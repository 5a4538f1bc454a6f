"""Abstract values, tracers and traces.

Tracing a function builds one `func.func` of mlax ops. Every traced value is
a `Tracer` holding its MLIR SSA value and its abstract value (`ShapedArray`:
shape, dtype and weak type). Ops are emitted at the user's source line, so
diagnostics from the verifier or the passes point at the user's code.
"""
from __future__ import annotations

import os
import sys
import threading

import numpy as np
from mlir import ir

from mlax._src.base import dtypes
from mlax._src.base import errors


class ShapedArray:
    """shape, dtype and weak type: everything tracing knows about a value."""

    __slots__ = ("shape", "dtype", "weak_type", "_hash")

    def __init__(self, shape, dtype, weak_type=False):
        self.shape = tuple(int(d) for d in shape)
        self.dtype = np.dtype(dtype)
        self.weak_type = bool(weak_type)
        self._hash = hash((self.shape, self.dtype, self.weak_type))

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        return int(np.prod(self.shape, dtype=np.int64))

    def __eq__(self, other):
        return (isinstance(other, ShapedArray) and self.shape == other.shape
                and self.dtype == other.dtype and self.weak_type == other.weak_type)

    def __hash__(self):
        return self._hash

    def str_short(self):
        dims = ",".join(str(d) for d in self.shape)
        return f"{_short_dtype(self.dtype)}[{dims}]"

    def __repr__(self):
        weak = ", weak_type=True" if self.weak_type else ""
        return f"ShapedArray({self.str_short()}{weak})"

    def mlir_type(self):
        return dtypes.mlir_tensor_type(self.shape, self.dtype)

    def update(self, shape=None, dtype=None, weak_type=None):
        return ShapedArray(self.shape if shape is None else shape,
                           self.dtype if dtype is None else dtype,
                           self.weak_type if weak_type is None else weak_type)


_SHORT = {"float32": "f32", "float64": "f64", "float16": "f16", "bfloat16": "bf16",
          "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64",
          "uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64",
          "bool": "bool", "complex64": "c64", "complex128": "c128"}


def _short_dtype(dtype) -> str:
    return _SHORT.get(np.dtype(dtype).name, np.dtype(dtype).name)


# ---------------------------------------------------------------------------
# Source locations: the first frame outside mlax is the user's line.
# ---------------------------------------------------------------------------

_MLAX_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def user_frame():
    frame = sys._getframe(1)
    while frame is not None:
        filename = frame.f_code.co_filename
        if not filename.startswith(_MLAX_DIR) and "importlib" not in filename:
            return frame
        frame = frame.f_back
    return None


def user_location_str() -> str:
    frame = user_frame()
    if frame is None:
        return "<unknown>"
    return f"{frame.f_code.co_filename}:{frame.f_lineno} ({frame.f_code.co_name})"


def user_location() -> ir.Location:
    frame = user_frame()
    if frame is None:
        return ir.Location.unknown()
    return ir.Location.file(frame.f_code.co_filename, frame.f_lineno, 0)


# ---------------------------------------------------------------------------
# Traces
# ---------------------------------------------------------------------------

class Trace:
    """One function being traced: its func.func, block and insertion point."""

    def __init__(self, module: ir.Module, func_op, block: ir.Block, parent=None):
        self.module = module
        self.func_op = func_op
        self.block = block
        self.ip = ir.InsertionPoint(block)
        self.parent = parent
        self.alive = True
        # jit-of-jit: callee symbol name per (function, signature).
        self.callees = parent.callees if parent is not None else {}
        # Tracers of enclosing traces used here become extra arguments.
        self.captures: dict[int, tuple] = {}

    def value_of(self, tracer) -> ir.Value:
        if tracer.trace is self:
            return tracer.value
        captured = self.captures.get(id(tracer))
        if captured is None:
            arg = self.block.add_argument(tracer.aval.mlir_type(), ir.Location.unknown())
            captured = self.captures[id(tracer)] = (tracer, arg)
        return captured[1]

    def is_ancestor_of_current(self) -> bool:
        t = current_trace()
        while t is not None:
            if t is self:
                return True
            t = t.parent
        return False


_state = threading.local()


def trace_stack() -> list:
    stack = getattr(_state, "stack", None)
    if stack is None:
        stack = _state.stack = []
    return stack


def current_trace():
    stack = trace_stack()
    return stack[-1] if stack else None


class Tracer:
    """A traced array: an SSA value in the function being traced.

    Supports the same operators and methods as `mlax.Array`; Python control
    flow on it raises the JAX-named errors.
    """

    __slots__ = ("value", "aval", "trace", "_where")
    __array_priority__ = 1000

    def __init__(self, value, aval: ShapedArray, trace: Trace):
        self.value = value
        self.aval = aval
        self.trace = trace
        self._where = None

    shape = property(lambda self: self.aval.shape)
    dtype = property(lambda self: self.aval.dtype)
    ndim = property(lambda self: self.aval.ndim)
    size = property(lambda self: self.aval.size)
    weak_type = property(lambda self: self.aval.weak_type)

    def __repr__(self):
        # As JAX's: JitTracer(float32[3]), JitTracer(~int32[]) when weakly typed.
        return f"JitTracer({errors.aval_str(self.aval)})"

    def __bool__(self):
        raise errors.bool_conversion(self)

    def __index__(self):
        raise errors.integer_conversion(self)

    def __int__(self):
        raise errors.concretization(self, "int()")

    def __float__(self):
        raise errors.concretization(self, "float()")

    def __complex__(self):
        raise errors.concretization(self, "complex()")

    def __array__(self, *args, **kwargs):
        raise errors.array_conversion(self)

    def __len__(self):
        if not self.aval.shape:
            raise TypeError("len() of unsized object")
        return self.aval.shape[0]

    def __iter__(self):
        if not self.aval.shape:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(self.aval.shape[0]))

    def __hash__(self):
        raise TypeError("unhashable type: traced array; mark the argument static "
                        "only if it is hashable and not an array")


def check_tracer(t: Tracer) -> Trace:
    """The trace a tracer belongs to, or UnexpectedTracerError if it leaked."""
    if not t.trace.alive or not t.trace.is_ancestor_of_current():
        raise errors.leaked(t)
    return t.trace


def find_trace(args):
    """The innermost live trace among the tracers in `args`, or None."""
    found = None
    for a in args:
        if isinstance(a, Tracer):
            tr = check_tracer(a)
            if found is None or _depth(tr) > _depth(found):
                found = tr
    return found


def _depth(trace) -> int:
    d = 0
    while trace is not None:
        d += 1
        trace = trace.parent
    return d

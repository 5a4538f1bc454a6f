"""Abstract values, tracers and traces.

Tracing a function builds one `func.func` of mlax ops. Every traced value is
a `Tracer` holding its MLIR SSA value and its abstract value (`ShapedArray`:
shape, dtype and weak type). Ops are emitted at the user's source line, so
diagnostics from the verifier or the passes point at the user's code.
"""
from __future__ import annotations

import contextlib
import functools
import os
import sys
import threading

import numpy as np
from mlir import ir

from mlax._src.base import dtypes
from mlax._src.core import basearray
from mlax._src.base import errors
from mlax._src.base import jaxlib_internals
from mlax._src.base.config import scoped


class AbstractValue:
    """What tracing knows about a value without its contents (as
    jax.core.AbstractValue): the base of ShapedArray and of a Ref's type."""

    __slots__ = ()


class ShapedArray(AbstractValue):
    """shape, dtype and weak type: everything tracing knows about a value."""

    __slots__ = ("shape", "dtype", "weak_type", "_hash")

    def __init__(self, shape, dtype, weak_type=False):
        self.shape = tuple(int(d) for d in shape)
        # (an extended dtype, a key array's, describes values outside traces)
        self.dtype = dtype if isinstance(dtype, dtypes.ExtendedDType) else np.dtype(dtype)
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

    def _long(self) -> str:
        return f"{self.dtype.name}[{','.join(str(d) for d in self.shape)}]"

    def __str__(self):  # JAX's: the long dtype name, `~` for a weak type
        return f"~{self._long()}" if self.weak_type else self._long()

    def __repr__(self):
        weak = ", weak_type=True" if self.weak_type else ""
        return f"ShapedArray({self._long()}{weak})"

    def mlir_type(self):
        return dtypes.mlir_tensor_type(self.shape, self.dtype)

    def update(self, shape=None, dtype=None, weak_type=None):
        return ShapedArray(self.shape if shape is None else shape,
                           self.dtype if dtype is None else dtype,
                           self.weak_type if weak_type is None else weak_type)

    def update_weak_type(self, weak_type):
        return self.update(weak_type=weak_type)

    def strip_weak_type(self):
        return self.update(weak_type=False)


def _short_dtype(dtype) -> str:
    return dtypes.short_name(dtype)


# ---------------------------------------------------------------------------
# Source locations: the first frame outside mlax is the user's line.
# ---------------------------------------------------------------------------

_MLAX_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


_internal_code: dict = {}  # code object -> whether it is mlax's (or importlib's)

# Where a trace starts (tracing._trace_into's frame), the user's frame above
# it is the same for every op traced inside: a walk up from an op stops
# there and takes it from `_boundaries` (id of a live boundary frame -> the
# user's frame above it, None if there is none, _UNKNOWN until a walk found
# it). Without this every op of a deeply nested trace walked the whole
# stack (70-100 frames in a gradient of a vectorized special function).
_boundary_code = None
_boundaries: dict = {}
_UNKNOWN = object()


def set_boundary_code(code) -> None:
    """Names the code object of the frames that start a trace."""
    global _boundary_code
    _boundary_code = code


def enter_boundary(frame) -> None:
    _boundaries[id(frame)] = _UNKNOWN


def exit_boundary(frame) -> None:
    _boundaries.pop(id(frame), None)


def user_frame():
    frame = sys._getframe(1)
    passed = None  # boundaries walked through whose user frame is not known yet
    while frame is not None:
        code = frame.f_code
        if code is _boundary_code:
            known = _boundaries.get(id(frame), _UNKNOWN)
            if known is not _UNKNOWN:
                frame = known
                break
            if id(frame) in _boundaries:
                if passed is None:
                    passed = []
                passed.append(id(frame))
        internal = _internal_code.get(code)
        if internal is None:
            if len(_internal_code) > 65536:
                _internal_code.clear()
            filename = code.co_filename
            internal = _internal_code[code] = \
                filename.startswith(_MLAX_DIR) or "importlib" in filename
        if not internal:
            break
        frame = frame.f_back
    if passed:
        for key in passed:
            if key in _boundaries:
                _boundaries[key] = frame
    return frame


def user_location_str() -> str:
    frame = user_frame()
    if frame is None:
        return "<unknown>"
    return f"{frame.f_code.co_filename}:{frame.f_lineno} ({frame.f_code.co_name})"


def user_location() -> ir.Location:
    frame = user_frame()
    if frame is None:
        loc = ir.Location.unknown()
    else:
        loc = ir.Location.file(frame.f_code.co_filename, frame.f_lineno, 0)
    names = scoped.name_stack
    if names:  # mlax.named_scope: the op's location is named by the scopes
        loc = ir.Location.name("/".join(names), loc)
    return loc


@contextlib.contextmanager
def named_scope(name: str):
    """Like `jax.named_scope`: the ops traced inside it (in this thread)
    carry `name` (nested scopes joined by '/') in their MLIR location, as
    JAX's name stack names them: `make_ir(f)(x).as_text(debug_info=True)`
    and the mlax_dump_dir files show it."""
    if not isinstance(name, str):
        raise TypeError("named_scope name argument must be a string.")
    previous = scoped.name_stack
    scoped.name_stack = previous + (name,)
    try:
        yield
    finally:
        scoped.name_stack = previous


def named_call(fun, *, name: str | None = None):
    """Like `jax.named_call`: `fun`, whose ops are traced inside
    named_scope(name or fun's name)."""
    scope = name if name is not None else getattr(fun, "__name__", "fn")

    @functools.wraps(fun)
    def named(*args, **kwargs):
        with named_scope(scope):
            return fun(*args, **kwargs)
    return named


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
        # Custom derivative rules not traced yet, by the symbol of the stub
        # that stands for them (see transforms.autodiff: they are traced
        # when a derivative needs them, as JAX calls them).
        self.lazy_rules = parent.lazy_rules if parent is not None else {}
        # Tracers of enclosing traces used here become extra arguments.
        self.captures: dict[int, tuple] = {}
        # The transformation the user called that traces this function
        # ("grad", "vmap", ...; None for jit): named in errors and reprs.
        self.transform = parent.transform if parent is not None else None
        # What this trace's function is traced for when that is not the
        # transformation (a control-flow body: "scan", "cond"; checkpoint):
        # JAX's "for scan" in tracer errors. Not inherited.
        self.traced_for = None
        # Whether values computed here from constants are known (the trace of
        # a transformation called outside jit, as JAX computes them eagerly
        # there); under jit, and in control-flow bodies, they are abstract.
        self.concrete = False
        # Set on the function a jvp / vjp / grad differentiates: (mode, the
        # indices of its arguments it differentiates), "jvp" or "vjp". A
        # custom_jvp / custom_vjp call on values that depend on those calls
        # its rule instead of the function, as JAX's JVP trace does. Not
        # inherited.
        self.differentiated = None
        # The mutable array references this trace uses: id(ref) -> what it
        # knows of each (see ref_state); None until it uses one.
        self.refs = None

    def value_of(self, tracer) -> ir.Value:
        if tracer.trace is self:
            return tracer.value
        captured = self.captures.get(id(tracer))
        if captured is None:
            arg = self.block.add_argument(tracer.aval.mlir_type(), ir.Location.unknown())
            captured = self.captures[id(tracer)] = (tracer, arg)
        return captured[1]

    def add_argument(self, aval: ShapedArray) -> "Tracer":
        """A new (abstract) argument appended to the traced function, for a
        caller that learns an argument's type while tracing (an eager vjp's
        cotangents take the outputs' types)."""
        arg = self.block.add_argument(aval.mlir_type(), ir.Location.unknown())
        return Tracer(arg, aval, self)

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


class TracedInt(int):
    """A Python int argument of a transformation called outside jit that it
    passes to its function as it is (grad's undifferentiated ints, vmap's
    unmapped ones), as that function sees it: an int in every Python use
    (arithmetic, shapes, indices, `range`, control flow, hashing), each of
    which writes its value into the program, while an mlax op that takes
    it as an operand reads `tracer`, an argument of the program holding
    the same value. The program is then one for every int that it uses
    only as an operand (JAX's eager ops take a Python int as a weakly typed
    argument too), and a new one wherever its value shapes the program."""

    def __new__(cls, value, tracer):
        self = super().__new__(cls, value)
        self.tracer = tracer
        return self

    def __reduce__(self):  # (a copy or a pickle is the plain int)
        return (int, (int(self),))


def traced_int_value(trace, x, aval):
    """The SSA value of TracedInt `x` in `trace` (its argument), or None
    where it must be a constant: its trace has ended or does not enclose
    `trace`, or `aval` is not the int's own."""
    t = x.tracer
    if not t.trace.alive or aval != t.aval:
        return None
    tr = trace
    while tr is not None and tr is not t.trace:
        tr = tr.parent
    return None if tr is None else trace.value_of(t)


class Pending:
    """A value the trace can compute but has not yet: `fn` applied to the
    concrete values of `args` (tracers with known values, or constants).

    A transformation called outside `jit` traces its function on inputs whose
    values are known, as JAX's eager transformations carry the real values.
    Each op's result is then known too, but computed only when Python asks
    for it (`if x < 3:`, `int(x)`, `print(x)`), so tracing costs nothing
    extra where the user never looks at a value."""

    __slots__ = ("fn", "args", "results")

    def __init__(self, fn, args):
        self.fn = fn
        self.args = args
        self.results = None


class Tracer(basearray.Array):
    """A traced array: an SSA value in the function being traced.

    Supports the same operators and methods as `mlax.Array`; Python control
    flow on it raises the JAX-named errors, unless its value is `known`
    (a transformation called outside jit): then it behaves as JAX's
    JVPTracer/GradTracer on a concrete primal.
    """

    __slots__ = ("value", "aval", "trace", "_where", "known")
    __array_priority__ = 1000

    def __init__(self, value, aval: ShapedArray, trace: Trace, known=None):
        self.value = value
        self.aval = aval
        self.trace = trace
        self._where = None
        # None (abstract), a concrete value, or (Pending, result index).
        self.known = known

    shape = property(lambda self: self.aval.shape)
    dtype = property(lambda self: self.aval.dtype)
    ndim = property(lambda self: self.aval.ndim)
    size = property(lambda self: self.aval.size)
    weak_type = property(lambda self: self.aval.weak_type)

    def _concrete(self):
        """The known value as a NumPy array of this tracer's dtype, or None."""
        value = concrete_value(self)
        if value is None:
            return None
        return np.asarray(value).astype(self.aval.dtype, copy=False)

    def __repr__(self):
        value = self._concrete()
        if value is None:
            # As JAX's: JitTracer(float32[3]), JitTracer(~int32[]) when weakly typed.
            return f"JitTracer({errors.aval_str(self.aval)})"
        primal = str(value)
        kind = _TRACER_KINDS.get(self.trace.transform)
        if kind is None:
            return primal
        return f"{kind}(primal={primal}, typeof(tangent)={self.aval.str_short()})"

    # As JAX's tracers, the shape (and dtype) is checked before the value is
    # asked for: a non-scalar is JAX's ValueError/TypeError even when traced.
    def __bool__(self):
        if self.aval.size != 1:
            raise ValueError("The truth value of an empty array is ambiguous. Use `array.size "
                             "> 0` to check that an array is not empty." if self.aval.size == 0
                             else "The truth value of an array with more than one element "
                             "is ambiguous. Use a.any() or a.all()")
        value = self._concrete()
        if value is None:
            raise errors.bool_conversion(self)
        return bool(value)

    def __index__(self):
        if self.aval.shape != () or not dtypes.is_int(self.aval.dtype):
            raise TypeError("Only integer scalar arrays can be converted to a scalar index.")
        value = self._concrete()
        if value is None:
            raise errors.integer_conversion(self)
        return value.__index__()

    def __int__(self):
        _check_scalar_conversion(self)
        value = self._concrete()
        if value is None:
            raise errors.concretization(self, "int()")
        return int(value)

    def item(self, *args):
        value = self._concrete()
        if value is None:
            raise errors.concretization(self, "item()")
        return value.item(*args)

    # As in JAX, float(), complex(), tolist() and NumPy conversion of a
    # floating-point value stay errors even where the value is known: they
    # would silently leave the differentiated computation. An integer or
    # bool value carries no derivative: JAX's eager transformations give it
    # as a plain array (its tangent is float0), so it converts.
    def _plain_value(self):
        dt = self.aval.dtype
        if not (dtypes.is_int(dt) or dtypes.is_bool(dt)):
            return None
        return self._concrete()

    def __float__(self):
        _check_scalar_conversion(self)
        value = self._plain_value()
        if value is None:
            raise errors.concretization(self, "float()")
        return float(value)

    def __complex__(self):
        _check_scalar_conversion(self)
        value = self._plain_value()
        if value is None:
            raise errors.concretization(self, "complex()")
        return complex(value)

    def tolist(self):
        value = self._plain_value()
        if value is None:
            raise errors.concretization(self, "tolist()")
        return value.tolist()

    def __array__(self, dtype=None, copy=None):
        value = self._plain_value()
        if value is None:
            raise errors.array_conversion(self)
        return np.asarray(value, dtype) if copy is not True else np.array(value, dtype)

    def __setitem__(self, index, value):
        raise TypeError(
            "mlax arrays are immutable and do not support in-place item assignment. "
            "Instead of x[idx] = y, use x = x.at[idx].set(y) (or .add/.multiply/.min/.max).")

    # What only an array on a device has: JAX's errors for a traced value.
    @property
    def device(self):
        raise AttributeError(f"{type(self).__name__} has no attribute device: a traced "
                             "value is on no device until the program runs")

    @property
    def sharding(self):
        raise AttributeError("The 'sharding' attribute is not available on traced array "
                             f"{errors.aval_str(self.aval)}")

    def _needs_concrete(name):  # noqa: N805 (a method factory)
        def method(self, *args, **kwargs):
            raise errors.concretization(self, f"{name}()" if name != "committed" else name)
        method.__name__ = name
        return method

    devices = _needs_concrete("devices")
    delete = _needs_concrete("delete")
    is_deleted = _needs_concrete("is_deleted")
    tobytes = _needs_concrete("tobytes")
    on_device_size_in_bytes = _needs_concrete("on_device_size_in_bytes")
    unsafe_buffer_pointer = _needs_concrete("unsafe_buffer_pointer")
    addressable_data = _needs_concrete("addressable_data")
    committed = property(_needs_concrete("committed"))
    is_fully_replicated = property(_needs_concrete("is_fully_replicated"))
    is_fully_addressable = property(_needs_concrete("is_fully_addressable"))
    addressable_shards = property(_needs_concrete("addressable_shards"))
    del _needs_concrete

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


def _check_scalar_conversion(x):
    if x.aval.ndim:
        raise TypeError("Only scalar arrays can be converted to Python scalars; "
                        f"got arr.ndim={x.aval.ndim}")


# JAX's names of the tracers of its eager transformations, as their reprs show.
_TRACER_KINDS = {"grad": "GradTracer", "value_and_grad": "GradTracer", "vjp": "GradTracer",
                 "jacrev": "GradTracer", "hessian": "JVPTracer", "jvp": "JVPTracer",
                 "jacfwd": "JVPTracer"}


def known_of(x):
    """What a trace knows of leaf `x`'s value: a concrete value, (Pending,
    index), or None when `x` is abstract."""
    if isinstance(x, Tracer):
        return x.known
    return x


def concrete_value(x):
    """The concrete value (an Array or a Python/NumPy value) of `x` when it
    is known, else None. Computes pending values, and what they depend on,
    outside every trace."""
    if not isinstance(x, Tracer):
        return x
    known = x.known
    if type(known) is not tuple:
        return known
    pending, index = known
    if pending.results is None:
        _resolve(pending)
    return pending.results if index is None else pending.results[index]


def concretize(x):
    """`x`, or the NumPy value of `x` when it is a tracer whose value is known.

    A transformation called outside jit traces on known values, and there, as
    JAX's `core.concrete_or_error` reads a JVPTracer's primal, a value may
    decide a shape: `x[x > 0]`, `nonzero`, `unique`, `repeat` by an array,
    a shape computed from values. Functions that need such a value call this
    first and keep their concretization error for what is still a tracer (an
    abstract one: under jit, vmap or a scan body). The value read is a
    constant of the trace, as in JAX: nothing differentiates through it."""
    if isinstance(x, Tracer):
        value = x._concrete()
        if value is not None:
            return value
    return x


def concretize_seq(xs):
    """`concretize` of each element of a list or tuple (a shape, pad widths);
    anything else as `concretize`."""
    if isinstance(xs, (list, tuple)):
        return type(xs)(concretize_seq(x) for x in xs)
    return concretize(xs)


def _resolve(root: Pending):
    # Iterative (not recursive): a long chain of ops must not hit Python's
    # recursion limit.
    stack = [root]
    while stack:
        p = stack[-1]
        if p.results is not None:
            stack.pop()
            continue
        deps = [a.known[0] for a in p.args if isinstance(a, Tracer)
                and type(a.known) is tuple and a.known[0].results is None]
        if deps:
            stack.extend(deps)
            continue
        values = [concrete_value(a) for a in p.args]
        with outside_traces():
            p.results = p.fn(values)
        p.args = None  # what it depended on may be freed
        stack.pop()


class outside_traces:
    """Runs its body as if nothing were being traced (ops run eagerly)."""

    def __enter__(self):
        self.stack = _state.__dict__.get("stack")
        _state.stack = []
        self.depth = jaxlib_internals.tracing_flag.swap_local(0)

    def __exit__(self, *exc):
        jaxlib_internals.tracing_flag.swap_local(self.depth)
        _state.stack = self.stack if self.stack is not None else []
        return False


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

"""What traces know of mutable array references (`mlax.ref`): functionalization
at trace time.

mlax has no effects in its IR. A Ref is a Python box; while a function is
traced, a Ref holds the traced value it has in the innermost trace that uses
it, reads return that value and writes replace it. The boundaries thread the
values through:

* a trace whose function closes over a Ref takes its value from the
  enclosing trace as a capture (as any closed-over tracer), so reads need
  nothing more;
* a traced function that writes a Ref made outside it raises `RefsWritten`
  when it ends: its boundary (a control-flow op, an inner jit) catches it and
  traces again with those Refs as explicit state (`bound`): their values an
  extra operand, their final values an extra result, written back outside;
* a trace that has no enclosing trace (jit's program, an eager
  transformation's) raises `RefsNeeded` at the first use of a Ref made
  outside it: the caller passes that Ref's value in as an argument and
  writes its final value back (never a constant of the program).

Each trace keeps, per Ref it uses, the value the Ref had outside it; when the
trace ends the Refs get those values back (and the Refs made in it die).
"""
from __future__ import annotations

import contextlib
import functools

from mlax._src.base import errors
from mlax._src.core import tracer as core
from mlax._src.core.array import Array
from mlax._src.core.tracer import AbstractValue, ShapedArray, Tracer


class AbstractRef(AbstractValue):
    """The type of a Ref: the type of the array it holds (`inner_aval`)."""

    __slots__ = ("inner_aval",)

    def __init__(self, inner_aval: ShapedArray):
        self.inner_aval = inner_aval

    shape = property(lambda self: self.inner_aval.shape)
    dtype = property(lambda self: self.inner_aval.dtype)
    ndim = property(lambda self: self.inner_aval.ndim)
    size = property(lambda self: self.inner_aval.size)
    weak_type = property(lambda self: self.inner_aval.weak_type)

    def __eq__(self, other):
        return isinstance(other, AbstractRef) and self.inner_aval == other.inner_aval

    def __hash__(self):
        return hash(("Ref", self.inner_aval))

    def __repr__(self):
        return f"Ref{{{_type_str(self.inner_aval)}}}"

    str_short = __repr__


def _type_str(aval):
    return f"{aval.dtype.name}[{','.join(str(d) for d in aval.shape)}]"


class RefsNeeded(Exception):
    """A trace without an enclosing trace used `refs`, made outside it: its
    caller must pass their values in (`bound`). Internal: never reaches users."""

    def __init__(self, refs):
        super().__init__("internal: mutable array references to pass in")
        self.refs = list(refs)


class RefsWritten(Exception):
    """A traced function wrote `refs`, made outside it: its boundary must
    trace it again with them as explicit state. Internal."""

    def __init__(self, refs, trace):
        super().__init__("internal: mutable array references written")
        self.refs = list(refs)
        self.trace = trace


# What a trace records per Ref (Trace.refs: id(ref) -> _State).
LOCAL, CAPTURED, BOUND = "local", "captured", "bound"


class _State:
    __slots__ = ("ref", "kind", "outside", "written")

    def __init__(self, ref, kind, outside):
        self.ref = ref
        self.kind = kind  # LOCAL: made in this trace; CAPTURED; BOUND: explicit state
        self.outside = outside  # the Ref's value outside this trace
        self.written = False


def _refs_of(trace):
    refs = trace.refs
    if refs is None:
        refs = trace.refs = {}
    return refs


def enter(ref, trace):
    """Makes `ref` known to `trace` (and to the traces enclosing it); after
    this `ref._value` is its value in `trace`."""
    refs = _refs_of(trace)
    if id(ref) in refs:
        return refs[id(ref)]
    if trace.parent is None:
        raise RefsNeeded([ref])
    enter(ref, trace.parent)
    outside = ref._value
    state = refs[id(ref)] = _State(ref, CAPTURED, outside)
    # (known where the trace computes with known values: an eager
    # transformation's, which Python may branch on, as JAX's)
    ref._value = Tracer(trace.value_of(outside), outside.aval, trace,
                        outside.known if trace.concrete else None)
    return state


def made_here(ref, value):
    """A Ref made while the current trace runs: local to it."""
    trace = core.current_trace()
    ref._value = value
    if trace is not None:
        _refs_of(trace)[id(ref)] = _State(ref, LOCAL, None)


def check_alive(ref):
    dead = ref._dead
    if dead is not None:
        raise errors.UnexpectedTracerError(
            f"A mutable array reference of type {ref.aval} made while tracing {dead} "
            "was used after that trace ended. A Ref made inside a traced function "
            "(jit, a control-flow body, a transformation) lives only while it runs; "
            "make it outside and pass it in, or return its value (mlax.freeze).")


def read(ref):
    """`ref`'s value in the current trace (or its Array, eagerly)."""
    check_alive(ref)
    trace = core.current_trace()
    if trace is not None:
        enter(ref, trace)
        return ref._value
    value = ref._value
    if value.weak_type != ref._aval.weak_type:  # (kept as written; read as the Ref's type)
        value = Array(value._buf, ref._aval)
    return value


def write(ref, value):
    """Replaces `ref`'s value in the current trace by `value` (a tracer of
    it, or an Array eagerly)."""
    check_alive(ref)
    trace = core.current_trace()
    if trace is not None:
        enter(ref, trace).written = True
    ref._value = value


@contextlib.contextmanager
def bound(refs, values):
    """Within the current trace, `refs` hold `values` (explicit state that
    its caller passes in and reads back out)."""
    trace = core.current_trace()
    refs_here = _refs_of(trace)
    saved = []
    for ref, value in zip(refs, values):
        check_alive(ref)
        saved.append((ref, refs_here.get(id(ref)), ref._value))
        refs_here[id(ref)] = _State(ref, BOUND, ref._value)
        ref._value = value
    try:
        yield
    finally:
        for ref, state, value in reversed(saved):
            if state is None:
                del refs_here[id(ref)]
            else:
                refs_here[id(ref)] = state
            ref._value = value


def written_outside(trace):
    """The Refs made outside `trace` that it wrote (captured, not bound)."""
    refs = trace.refs
    if not refs:
        return []
    return [s.ref for s in refs.values() if s.kind == CAPTURED and s.written]


def end(trace, name):
    """`trace` ended: the Refs it used get their values outside back, those
    made in it die (`name`: what it traced, for the error of a later use)."""
    refs = trace.refs
    if not refs:
        return
    for state in refs.values():
        ref = state.ref
        if state.kind == LOCAL:
            ref._value = None
            ref._dead = name
        else:
            ref._value = state.outside
    trace.refs = None


def explicit(fun, refs):
    """`fun` taking the values of `refs` as an extra first argument and
    returning (its result, their final values: None for those it did not
    change)."""
    def with_state(values, *args, **kwargs):
        with bound(refs, values):
            out = fun(*args, **kwargs)
            finals = [None if r._value is v else r._value for r, v in zip(refs, values)]
        return out, finals
    return with_state


def write_back(refs, finals):
    """The final values `explicit` returned, written into `refs` (in the
    current trace, or eagerly: then they are a program's results, and, as
    JAX's, what a program wrote into a Ref is never weakly typed)."""
    eager = core.current_trace() is None
    for ref, value in zip(refs, finals):
        if value is not None:
            if eager and value.weak_type:
                value = Array(value._buf, value.aval.update(weak_type=False))
            write(ref, value)


def threaded(fun, refs):
    """`fun` taking the values of `refs` as an extra first argument and
    returning (its result, their final values): a control-flow body with
    the Refs it writes as explicit state."""
    @functools.wraps(fun)
    def with_state(values, *args, **kwargs):
        with bound(refs, values):
            out = fun(*args, **kwargs)
            return out, [r._value for r in refs]
    return with_state


def threading_refs(emit):
    """`emit(refs)`: an op whose traced functions take `refs` as explicit
    state, first with none, then again with the Refs they turn out to write
    (each trace may find more)."""
    refs = []
    while True:
        try:
            return emit(refs)
        except RefsWritten as e:
            new = [r for r in e.refs if all(r is not s for s in refs)]
            if not new:  # written inside something that does not thread them
                fun = e.trace.debug[0] if e.trace.debug else None
                raise NotImplementedError(
                    f"{getattr(fun, '__name__', 'a traced function')} writes a mutable array "
                    f"reference of type {e.refs[0].aval} made outside it, inside a "
                    "transformation that does not thread Refs through yet") from None
            refs = refs + new


def hand_out(trace):
    """The Refs made outside `trace` that it wrote, which its caller takes
    as extra outputs (ObservedCall): no longer `written_outside` it."""
    out = written_outside(trace)
    for ref in out:
        trace.refs[id(ref)].written = False
    return out

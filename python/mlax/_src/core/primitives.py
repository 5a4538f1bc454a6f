"""Primitives: the Python side of each mlax op.

An op's shape rule is its C++ one (`inferReturnTypes`, or the verifier of an
op whose result type the caller states): a primitive's emitter builds the
mlax op and `bind` reads the result types back into `ShapedArray`s, deciding
only the weak type in Python. A diagnostic of the C++ rule becomes a
`TypeError` (or the class the primitive's `errors` name) that names the op
and the user's line. Python keeps only what C++ cannot say in Python's
terms: dtype-kind checks and the promotion hints (`check`). No primitive
has a Python shape rule.

`bind` runs a primitive: inside a trace it emits the op; on concrete values
it runs the op eagerly through a per-(op, params, shapes) compiled program.
"""
from __future__ import annotations

import collections
import contextlib
import functools
import re
import threading

import numpy as np
from mlir import ir

from mlax._src.base.config import config
from mlax._src.base.config import scoped as _scoped
from mlax._src.backend import native
from mlax._src.core import ref_state
from mlax._src.core import tracer as core
from mlax._src.base import dtypes
from mlax._src.base.tree import registry
from mlax._src.core.tracer import ShapedArray, Tracer


class Primitive:
    """`emit(values, avals, **params)` builds the op, returning its result
    value(s); the op's C++ shape rule gives the result types (there is no
    Python one). `check(*avals, **params)` runs the Python-only checks
    first, `weak_type(*avals, **params)` decides the results' weak type
    (default: weak when every operand is; a primitive with several results
    may return one per result), `errors` maps a phrase of the C++
    diagnostic to the exception class to raise (default `TypeError`) and
    `label(params)` names the op in messages (default `lax.<name>`).
    `splat(*avals, **params)`, for an op whose result on a constant operand
    may be one element repeated (broadcasting a scalar), gives that result's
    aval, or None: the op is then traced as that one constant."""

    def __init__(self, name, emit, multiple_results=False, *,
                 check=None, weak_type=None, errors=(), label=None, splat=None):
        self.name = name
        self.emit = emit
        self.multiple_results = multiple_results
        self.check = check
        self.splat = splat
        self.weak_type = weak_type
        self.errors = tuple(errors.items()) if isinstance(errors, dict) else tuple(errors)
        self.label = label

    def __repr__(self):
        return f"Primitive({self.name})"

    def bind(self, *args, **params):
        return bind(self, *args, **params)


def shape_error(prim_name: str, message: str, exc=TypeError):
    return exc(f"{prim_name}: {message} (at {core.user_location_str()})")


# A C++ diagnostic in Python's notation: integer lists as tuples, tensor
# types as avals (`f32[2,3]`).
_OP_PREFIX = re.compile(r"^'[\w.]+' op ")
_INT_LIST = re.compile(r"\[(-?\d+(?:, -?\d+)*)?\]")
_TENSOR = re.compile(r"tensor<((?:\d+x)*)(\w+(?:<\w+>)?)>")


def _int_tuple(m):
    items = m.group(1)
    if items is None:
        return "()"
    return f"({items},)" if "," not in items else f"({items})"


def _aval_text(m):
    dims = m.group(1).rstrip("x").replace("x", ",")
    dtype = dtypes.MLIR_ELEMENT_DTYPES.get(m.group(2))
    return f"{core._short_dtype(dtype) if dtype is not None else m.group(2)}[{dims}]"


def _python_notation(message: str) -> str:
    message = _OP_PREFIX.sub("", message)
    message = _INT_LIST.sub(_int_tuple, message)
    return _TENSOR.sub(_aval_text, message)


def diagnostic_error(prim: "Primitive", error: ir.MLIRError, avals, params):
    """The exception for a failed C++ shape rule of `prim`: its first error
    in Python's notation, with the operands' shapes and the user's line."""
    diags = error.error_diagnostics
    message = _python_notation(diags[0].message if diags else str(error))
    exc = next((cls for phrase, cls in prim.errors if phrase in message), TypeError)
    label = prim.label(params) if prim.label is not None else f"lax.{prim.name}"
    shapes = [str(a.shape) for a in avals]
    if shapes and not all(s in message for s in shapes):
        message += f"; operand shapes {', '.join(shapes)}"
    return shape_error(label, message, exc)


def verified(op):
    """`op` once its verifier passed: the shape rule of an op whose result
    type the caller states (broadcast_in_dim's, reshape's, ...). A failing op
    is erased, so a caught error leaves the traced function valid."""
    try:
        op.operation.verify()
    except ir.MLIRError:
        op.operation.erase()
        raise
    return op


_avals_of_types: dict = {}


def _aval_of_type(tensor_type, weak_type: bool) -> ShapedArray:
    """The aval of an op's result type, memoised: reading result types back
    is on tracing's hot path. A cached type keeps its context alive, so its
    identity is never reused."""
    key = (tensor_type, weak_type)
    aval = _avals_of_types.get(key)
    if aval is None:
        if len(_avals_of_types) > 4096:
            _avals_of_types.clear()
        aval = _avals_of_types[key] = ShapedArray(*dtypes.shape_dtype_of(tensor_type),
                                                  weak_type)
    return aval


def _inferred_avals(prim, results, avals, params):
    if prim.weak_type is not None:
        weak = prim.weak_type(*avals, **params)
    else:
        weak = bool(avals)
        for a in avals:
            weak = weak and a.weak_type
    if prim.multiple_results:
        if isinstance(weak, (list, tuple)):  # one per result
            return [_aval_of_type(r.type, w) for r, w in zip(results, weak)]
        return [_aval_of_type(r.type, weak) for r in results]
    return _aval_of_type(results.type, weak)


# ---------------------------------------------------------------------------
# Abstract values of anything a user may pass
# ---------------------------------------------------------------------------

def aval_of(x) -> ShapedArray:
    aval = getattr(x, "aval", None)
    if isinstance(aval, ShapedArray):
        return aval
    if dtypes.is_python_scalar(x):
        dtype, weak = dtypes.scalar_type_of(x)
        return ShapedArray((), dtype, weak)
    if isinstance(x, (np.ndarray, np.generic)):
        return ShapedArray(x.shape, dtypes.canonicalize(x.dtype), False)
    if isinstance(aval, ref_state.AbstractRef):
        raise TypeError(
            f"A mutable array reference ({aval}) cannot be passed here: mlax takes Refs "
            "as arguments of jit and closed over by traced functions; pass its value "
            "(ref[...]) instead.")
    if hasattr(x, "__jax_array__") or type(x).__module__.startswith("jax"):
        arr = np.asarray(x)
        return ShapedArray(arr.shape, dtypes.canonicalize(arr.dtype), False)
    raise TypeError(
        f"Argument {x!r} of type {type(x).__name__} is not a valid mlax type: "
        "use arrays, NumPy arrays or Python scalars (or mark it static).")


def typeof(x) -> ShapedArray:
    """The abstract value of an array, a tracer, a NumPy value or a Python
    scalar (weakly typed), as jax.typeof; TypeError for anything else."""
    if isinstance(x, Tracer):
        core.check_tracer(x)
    if isinstance(getattr(x, "aval", None), ref_state.AbstractRef):
        return x.aval
    return aval_of(x)


def to_numpy(x, aval: ShapedArray) -> np.ndarray:
    """A concrete value as a NumPy array of `aval`'s dtype."""
    if isinstance(x, (bool, int, float, complex)):
        value = np.asarray(x)
        # As JAX: a Python int wraps into a 2- or 4-bit integer, and is range
        # checked against any other.
        if dtypes.is_int(aval.dtype) and aval.dtype not in dtypes.NARROW_INTS:
            info = np.iinfo(aval.dtype)
            if not info.min <= x <= info.max:
                raise OverflowError(
                    f"Python int {x} too large to convert to {aval.dtype.name}")
        return value.astype(aval.dtype)
    return np.asarray(x).astype(aval.dtype, copy=False)


def check_python_int(x) -> None:
    """As JAX: a Python int is a value of its weak integer type (int32, int64
    with x64) before it takes any other, so one outside that range is
    to_numpy's OverflowError (under jit as eagerly: x * 2**40). Anything
    else passes."""
    if type(x) is int and not -0x80000000 <= x <= 0x7FFFFFFF:
        to_numpy(x, aval_of(x))


# ---------------------------------------------------------------------------
# Emitting
# ---------------------------------------------------------------------------

_splats: dict = {}


def constant_value(trace: core.Trace, array: np.ndarray, aval: ShapedArray):
    """An `mlax.constant` holding `array` (already of aval's dtype), or, when
    `array` has one element and aval a larger shape, that element repeated."""
    tensor_type = aval.mlir_type()
    if array.size == 1 and array.dtype.isbuiltin == 1 and array.dtype.kind in "fiu":
        # A splat, memoised by type and bits (-0.0 is not 0.0): programs
        # repeat their scalars. A cached type keeps its context alive, so
        # its identity is never reused. (ml_dtypes' types, bfloat16 and the
        # narrow ones, go in below as their bits, never rounded through a
        # double.)
        key = (tensor_type, array.tobytes())
        attr = _splats.get(key)
        if attr is None:
            if len(_splats) > 4096:
                _splats.clear()
            attr = _splats[key] = ir.DenseElementsAttr.get_splat(
                tensor_type, _scalar_attr(array.reshape(()).item(), tensor_type.element_type))
    else:
        attr = dense_elements(np.broadcast_to(array, aval.shape), tensor_type)
    with trace.ip, core.user_location():
        # (ir.Operation.create: ~5x cheaper than the generated builder.)
        return ir.Operation.create("mlax.constant", results=[tensor_type],
                                   attributes={"value": attr}).result


def dense_elements(array: np.ndarray, tensor_type) -> ir.DenseElementsAttr:
    """`array` (of `tensor_type`'s shape and element type) as a dense
    elements attribute."""
    array = np.ascontiguousarray(array)
    if array.dtype == np.bool_:
        # MLIR stores i1 elements bit-packed.
        array = np.packbits(array.reshape(-1), bitorder="little")
    return ir.DenseElementsAttr.get(array, type=tensor_type)


def _scalar_attr(value, element_type):
    if isinstance(element_type, ir.IntegerType):
        value = int(value)
        if value >= 2 ** 63:  # a uint64 above int64's range: the same 64 bits, signed
            value -= 2 ** 64
        return ir.IntegerAttr.get(element_type, value)
    return ir.FloatAttr.get(element_type, float(value))


@functools.cache
def _ops():
    return native.ops()


def to_value(trace: core.Trace, x, aval: ShapedArray, out_aval: ShapedArray | None = None):
    """`x`'s SSA value in `trace`: a constant unless it is a tracer (one of
    `out_aval`'s shape when given: `x` has one element, repeated)."""
    if isinstance(x, Tracer):
        return trace.value_of(x)
    if type(x) is core.TracedInt and out_aval is None:
        value = core.traced_int_value(trace, x, aval)
        if value is not None:
            return value
    array = getattr(x, "_value_np", None)
    array = array() if array is not None else to_numpy(x, aval)
    return constant_value(trace, array, out_aval or aval)


# What sparsify must know of a function it traces that the IR does not
# say: per sparsify call being traced, innermost last (empty otherwise),
# {kind: {SSA value: what is known of it}}. "broadcast": values that implicit broadcasting
# made (a binary op's smaller operand filled to the other's shape): `M + 1.`
# and `M + ones(M.shape)` trace to the same splat constant, but JAX's
# sparsify refuses the first (its add sees a rank-0 operand) and adds the
# second. "integer_pow": results of a power by a concrete integer (JAX's
# integer_pow, which sparsify takes; `M ** 2.0` is its pow, which it
# refuses), since x ** 2 and x ** 2.0 trace to the same pow, with the
# exponent.
sparsify_notes: list = []
SPARSIFY_NOTE_KINDS = ("broadcast", "integer_pow")


def note_for_sparsify(kind, x, info=None):
    """`x`, noted as a value of `kind` (with `info`) while sparsify traces a
    function."""
    if sparsify_notes and isinstance(x, Tracer):
        for notes in sparsify_notes:
            notes[kind][x.value] = info
    return x


def note_implicit_broadcast(x):
    return note_for_sparsify("broadcast", x)


def scalar_tracer(value, aval: ShapedArray):
    """The Python scalar `value` filling `aval` (strongly typed) in the
    current trace: what broadcast_in_dim of the scalar gives, without bind's
    general path; None where that path is needed (no trace, a trace of known
    values, ensure_compile_time_eval, a checkpoint policy observing ops)."""
    trace = core.current_trace()
    if trace is None or trace.concrete or _scoped.compile_time_eval or bind_hooks:
        return None
    return Tracer(constant_value(trace, to_numpy(value, aval), aval), aval, trace)


def bind(prim: Primitive, *args, **params):
    # Like JAX's omnistaging: while any function is being traced, every op
    # goes into the innermost trace, even one with only constant inputs.
    trace = core.current_trace()
    known = trace is not None and trace.concrete
    traced = False
    for a in args:
        if isinstance(a, Tracer):
            core.check_tracer(a)
            known = known and a.known is not None
            traced = True
    if trace is None:
        return _eager(prim, args, params)
    if not traced and _scoped.compile_time_eval:
        # ensure_compile_time_eval: an op on constants runs now.
        with core.outside_traces():
            return _eager(prim, args, params)
    avals = [aval_of(a) for a in args]
    if prim.check is not None:
        prim.check(*avals, **params)
    splat = None if traced or prim.splat is None else prim.splat(*avals, **params)
    if splat is not None:
        # A scalar constant broadcast: one splat constant, not two ops.
        out_avals = splat
        results = to_value(trace, args[0], avals[0], splat)
    else:
        values = [to_value(trace, a, av) for a, av in zip(args, avals)]
        with trace.ip, core.user_location():
            try:
                results = prim.emit(values, avals, **params)
            except ir.MLIRError as e:
                raise diagnostic_error(prim, e, avals, params) from None
        out_avals = _inferred_avals(prim, results, avals, params)
    # Inputs with known values (a transformation outside jit): so is the
    # result, computed eagerly if Python asks for it.
    pending = core.Pending(functools.partial(_eager_results, prim, params), args) \
        if known else None
    if prim.multiple_results:
        out = [Tracer(v, av, trace, pending and (pending, i))
               for i, (v, av) in enumerate(zip(results, out_avals))]
    else:
        out = Tracer(results, out_avals, trace, pending and (pending, None))
    if bind_hooks and bind_hooks[-1].trace is trace:
        out = bind_hooks[-1](prim, avals, params, out, args)
    return out


# Observers of the ops bound in one trace (`hook.trace`), innermost last:
# `hook(prim, in_avals, params, out, args)` returns the results to use (a
# checkpoint policy's saved values, see transforms.ad_checkpoint; checkify's
# checker adds checks on `args` and `out`, see experimental.checkify).
bind_hooks: list = []


def callee_observer():
    """While a transformation traces its function as a callee of the
    enclosing trace: the bind hook observing that enclosing trace if it also
    observes such callees (`hook.observe_callee()`, checkify's checker),
    else None."""
    trace = core.current_trace()
    if (bind_hooks and trace is not None and bind_hooks[-1].trace is trace.parent
            and hasattr(bind_hooks[-1], "observe_callee")):
        return bind_hooks[-1]
    return None


def current_observer():
    """The bind hook observing the current trace if it also observes the
    callees traced from it (checkify's checker), else None."""
    trace = core.current_trace()
    if (bind_hooks and trace is not None and bind_hooks[-1].trace is trace
            and hasattr(bind_hooks[-1], "observe_callee")):
        return bind_hooks[-1]
    return None


class ObservedCall:
    """A transformation's function called while it is traced as a callee,
    under the observer of the enclosing trace (if any): what the observer
    collects becomes `leaves`, extra outputs the transformation returns from
    its callee; `hand_back` gives their values in the enclosing trace back
    to the observer. `mapped`: how the callee's outputs are stacked along a
    leading axis, "vmap" (a batch), "scan" or "scan_reverse" (the
    iterations, run forward or backward), or None; `start`: what the
    observer collects from the start (a loop's carried checks); `discard`:
    what it collects is not handed back (another call reports it), and
    neither are the findings in the callees the function traces in turn."""

    def __init__(self, mapped=None, start=None, discard=False, refs=False):
        """`refs`: the Refs made outside that the function writes are
        extra outputs too, written back by `hand_back` (a derivative's
        function: they pass through, as auxiliary data)."""
        self.observer, self.mapped, self.start = callee_observer(), mapped, start
        self.discard = discard
        self.leaves, self.tree = [], None
        self.threads_refs, self.refs = refs, []

    def __call__(self, fun, *args, **kwargs):
        if self.observer is None:
            out = fun(*args, **kwargs)
        else:
            with self.observer.observe_callee(self.mapped, self.start,
                                              self.discard) as collected:
                out = fun(*args, **kwargs)
            self.leaves, self.tree = registry.flatten(collected.value())
        if self.threads_refs:
            self.refs = ref_state.hand_out(core.current_trace())
            if self.refs:
                self.leaves = list(self.leaves) + [ref._value for ref in self.refs]
        return out

    def hand_back(self, values):
        values = list(values)
        if self.refs:
            n = len(values) - len(self.refs)
            ref_state.write_back(self.refs, values[n:])
            values = values[:n]
        if self.tree is not None:
            self.observer.callee_observed(self.tree.unflatten(values), self.mapped)

    @staticmethod
    def join(calls):
        """The branches of one cond: the observer makes what each collected
        alike (one structure for all, each branch's `leaves` in it);
        returns the first, whose `hand_back` takes the op's extra results."""
        observed = [c for c in calls if c.tree is not None]
        if observed:
            values = observed[0].observer.join_observed(
                [c.tree.unflatten(c.leaves) for c in observed])
            for c, v in zip(observed, values):
                c.leaves, c.tree = registry.flatten(v)
        return calls[0]


@contextlib.contextmanager
def ensure_compile_time_eval():
    """Like `jax.ensure_compile_time_eval`: inside it (in this thread), an op
    whose operands are all concrete runs when it is traced, even under jit,
    so its result is a concrete array Python can branch on; ops on traced
    values are traced as usual."""
    previous = _scoped.compile_time_eval
    _scoped.compile_time_eval = True
    try:
        yield
    finally:
        _scoped.compile_time_eval = previous


def _freeze(value):
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    return value  # np.dtype is hashable as it is (its .str loses bfloat16)


def _eager_results(prim, params, args):
    return _eager(prim, args, params)


def _eager(prim, args, params):
    fun = _eager_function(prim, tuple(sorted((k, _freeze(v)) for k, v in params.items())))
    return fun(*args)


class _EagerCache:
    """The jitted program of each (primitive, params) run eagerly, least
    recently used first; at most `mlax.config.mlax_eager_cache_size` of
    them (None or 0: unbounded). Each program's own signature cache is
    bounded by `mlax_jit_cache_size`. `mlax.clear_caches()` empties it."""

    def __init__(self):
        self._funs: collections.OrderedDict = collections.OrderedDict()
        self._lock = threading.Lock()

    def __call__(self, prim, frozen_params):
        key = (prim, frozen_params)
        with self._lock:
            fun = self._funs.get(key)
            if fun is not None:
                self._funs.move_to_end(key)
                return fun
        fun = _make_eager_function(prim, frozen_params)

        with self._lock:
            fun = self._funs.setdefault(key, fun)
            self._funs.move_to_end(key)
            limit = config.mlax_eager_cache_size
            while limit and len(self._funs) > limit:
                self._funs.popitem(last=False)  # its executables go with it
        return fun

    def __len__(self):
        return len(self._funs)

    def cache_clear(self):
        with self._lock:
            self._funs.clear()


# An op outside any trace runs as a jitted program of its own; `jit` lives in
# a higher layer, which registers it here when it is imported.
_jit = None


def register_jit(jit):
    global _jit
    _jit = jit


def _make_eager_function(prim, frozen_params):
    params = dict(frozen_params)

    def op(*xs):
        return bind(prim, *xs, **params)

    op.__name__ = prim.name
    op._mlax_primitive = prim.name  # (what jax_debug_nans errors name)
    return _jit(op)


_eager_function = _EagerCache()

"""Mutable array references, as JAX's `jax.ref` (`jax.new_ref`, `Ref`).

A Ref is a box holding an array: eagerly an Array, while a function is
traced the traced value it has there (see ref_state: the boundaries of
traces thread Refs' values in and out). Reads and writes index it as NumPy
does; a write must give the indexed part's shape and the Ref's dtype.
"""
from __future__ import annotations

import numpy as np

from mlax._src.base import dtypes
from mlax._src.core import dslice, primitives, ref_state, tracing
from mlax._src.core import tracer as core
from mlax._src.core.array import Array, from_numpy
from mlax._src.core.ref_state import AbstractRef
from mlax._src.core.tracer import ShapedArray, Tracer


def _as_value(x, aval: ShapedArray):
    """`x` (an array, tracer, NumPy value or Python scalar) as a value of
    type `aval` in the current trace (an Array eagerly)."""
    trace = core.current_trace()
    if isinstance(x, Tracer):
        core.check_tracer(x)
        if x.aval == aval:
            return x
        if x.trace is not trace:  # (a tracer of an enclosing trace)
            x = Tracer(trace.value_of(x), x.aval, trace)
        return Tracer(x.value, aval, trace)
    if isinstance(x, Array):
        if trace is None:
            return x if x.aval == aval else Array(x._buf, aval)
    elif trace is None:
        return from_numpy(np.asarray(primitives.to_numpy(x, aval)), aval.weak_type)
    return Tracer(primitives.to_value(trace, x, aval), aval, trace)


class Ref:
    """A mutable array reference (`mlax.new_ref(x)`)."""

    __slots__ = ("_value", "_aval", "_dead", "__weakref__")
    __array_priority__ = 1000

    def __init__(self, value, aval: ShapedArray):
        self._aval = aval
        self._dead = None
        ref_state.made_here(self, _as_value(value, aval))

    aval = property(lambda self: AbstractRef(self._aval))
    shape = property(lambda self: self._aval.shape)
    dtype = property(lambda self: self._aval.dtype)
    ndim = property(lambda self: self._aval.ndim)
    size = property(lambda self: self._aval.size)

    def __len__(self):
        if not self._aval.shape:
            raise TypeError("len() of unsized object")
        return self._aval.shape[0]

    def __repr__(self):
        value = self._value
        if isinstance(value, Array):
            text = repr(value)
            return "Ref" + text[len("Array"):] if text.startswith("Array") else text
        return repr(self.aval) if value is not None else f"<dead {self.aval!r}>"

    def __getitem__(self, idx):
        return get(self, idx)

    def __setitem__(self, idx, value):
        set(self, idx, value)

    def addupdate(self, x):
        addupdate(self, ..., x)

    @property
    def at(self):
        raise NotImplementedError("Ref.at: index the Ref itself (ref[idx], ref[idx] = v), "
                                  "as JAX 0.10.2's Ref has no .at either")

    @property
    def sharding(self):
        return read_value(self).sharding

    def _not_an_array(self, *args, **kwargs):
        raise TypeError(f"A Ref is not an array: read its value with ref[...] "
                        f"(got {self.aval})")

    __bool__ = __float__ = __int__ = __index__ = __complex__ = _not_an_array
    __array__ = _not_an_array


def returned_error(fun, what, ref, origin) -> ValueError:
    """JAX's ValueError for a Ref the function `fun`, traced for `what`,
    returns; `origin`: where the Ref came from ("was created inside it")."""
    return ValueError(
        f"function {tracing.function_where(fun)} traced for {what} returned a mutable array "
        f"reference of type {ref.aval}, but mutable array references cannot be returned."
        f"\n\nThe returned mutable array {origin}.")


def read_value(ref: Ref):
    """The whole value of `ref` (typed as the Ref), where it is now."""
    return ref_state.read(ref)


def _full(idx):
    """Whether `idx` indexes the whole value (None, ..., (), (...,))."""
    if isinstance(idx, tuple):
        return not idx or (len(idx) == 1 and idx[0] is Ellipsis)
    return idx is None or idx is Ellipsis


def _check_ref(ref, what):
    if not isinstance(ref, Ref):
        raise TypeError(f"{what} takes a Ref (mlax.new_ref), got {type(ref).__name__}")


def _check_bounds(ref, idx):
    """JAX's ValueError for a static integer index out of bounds in a read
    (iterating over a Ref ends with it, as JAX's)."""
    for dim, i in zip(ref.shape, idx if isinstance(idx, tuple) else (idx,)):
        if i is None or i is Ellipsis:
            return
        if isinstance(i, (int, np.integer)) and not isinstance(i, bool) and \
                not -dim <= i < dim:
            raise ValueError(f"Out of bound indexer: idx={i}, dim={dim}.")


def get(ref: Ref, idx=None):
    """`ref[idx]`: the indexed part of the Ref's value (all of it for None
    or ...)."""
    _check_ref(ref, "ref.get")
    value = ref_state.read(ref)
    if _full(idx):
        return value
    _check_bounds(ref, idx)
    return value[idx]


def _new_value(ref, idx, x, what):
    """The Ref's whole value with `x` written at `idx` (or `x` itself), after
    JAX's checks: the value has the Ref's dtype and the indexed shape."""
    _check_ref(ref, f"ref.{what}")
    current = ref_state.read(ref)
    aval = primitives.aval_of(x) if not isinstance(x, Ref) else None
    if aval is None:
        raise TypeError(f"ref.{what}: the value written is a Ref; write its value "
                        f"(ref[...]) instead")
    part = current if _full(idx) else current[idx]
    if aval.dtype != ref.dtype:
        raise ValueError(f"Invalid dtype for `{what}`. Ref dtype: {ref.dtype}. "
                         f"Value dtype: {aval.dtype}. ")
    if aval.shape != tuple(part.shape):
        raise ValueError(f"Invalid shape for `{what}`. Ref shape: {ref.shape}. "
                         f"Expected shape: {tuple(part.shape)}. Value shape: {aval.shape}. "
                         f"Transforms: {'()' if _full(idx) else repr(idx)}. ")
    _check_differentiated(ref, x)
    if _full(idx):
        if type(x) is Array and core.current_trace() is None:
            return x, part  # kept as it is, weak type included, as JAX's
        return _as_value(x, ref._aval), part
    # (a Ref's write of an mlax.ds window clamps it to fit, as JAX's)
    mode = "clip" if dslice.has_slices(idx) else None
    return _as_value(current.at[idx].set(x, mode=mode), ref._aval), part


_DIFFERENTIATED = ("performing a set/swap operation with a differentiated value on a "
                   "non-differentiated array reference of type {}. Move the array "
                   "reference to be an argument of the differentiated function?")


def _check_differentiated(ref, x):
    """JAX's error for a value a derivative is taken of written into a Ref
    made outside the function differentiated."""
    if not isinstance(x, Tracer):
        return
    trace = core.current_trace()
    while trace is not None:
        state = (trace.refs or {}).get(id(ref))
        if state is not None and state.kind == ref_state.LOCAL:
            return
        if trace.differentiated is not None and tracing.active_arguments([x]):
            raise Exception(_DIFFERENTIATED.format(ref.aval))  # noqa: TRY002 (JAX's class)
        trace = trace.parent


def set(ref: Ref, idx, value) -> None:  # noqa: A001 (JAX's name)
    """`ref[idx] = value`."""
    new, _ = _new_value(ref, idx, value, "swap")
    ref_state.write(ref, new)


def swap(ref: Ref, idx, value, _function_name="ref_swap"):
    """Writes `value` at `idx`; returns what was there."""
    new, old = _new_value(ref, idx, value, "swap")
    ref_state.write(ref, new)
    return old


def addupdate(ref: Ref, idx, x) -> None:
    """`ref[idx] += x`."""
    _check_ref(ref, "ref.addupdate")
    current = get(ref, idx)
    aval = primitives.aval_of(x)
    if aval.shape != tuple(current.shape):
        raise ValueError(f"Invalid shape for `addupdate`. Ref shape: {ref.shape}. "
                         f"Expected shape: {tuple(current.shape)}. Value shape: {aval.shape}. "
                         f"Transforms: {'()' if _full(idx) else repr(idx)}. ")
    if aval.dtype != ref.dtype:
        raise ValueError(f"Invalid dtype for `addupdate`. Ref dtype: {ref.dtype}. "
                         f"Value dtype: {aval.dtype}. ")
    total = current + x
    if total.dtype != ref.dtype:
        total = total.astype(ref.dtype)
    set(ref, idx, total)


def new_ref(init_val, *, memory_space=None, kind=None) -> Ref:
    """A new Ref holding `init_val` (its dtype and weak type kept)."""
    if isinstance(init_val, Ref):
        raise TypeError("new_ref: the initial value is a Ref; pass its value (ref[...])")
    try:
        aval = primitives.aval_of(init_val)
    except TypeError:
        raise TypeError(
            "Error interpreting argument to new_ref as a JAX value. The problematic value "
            f"is of type {type(init_val)} and was passed to new_ref at position 0.\n") from None
    return Ref(init_val, aval)


def empty_ref(ty, memory_space=None) -> Ref:
    """A new Ref of type `ty` (anything with shape and dtype), of zeros."""
    aval = ShapedArray(ty.shape, dtypes.canonicalize(ty.dtype),
                       getattr(ty, "weak_type", False))
    return Ref(np.zeros(aval.shape, aval.dtype), aval)


def free_ref(ref: Ref) -> None:
    """Frees the Ref's memory, as JAX's; mlax leaves that to the garbage
    collector, so the Ref stays usable (as JAX's does, eagerly)."""
    _check_ref(ref, "free_ref")
    return ()


def freeze(ref: Ref):
    """The Ref's value, as an immutable array."""
    _check_ref(ref, "freeze")
    return ref_state.read(ref)

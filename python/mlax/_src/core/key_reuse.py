"""PRNG key-reuse checking (JAX's `jax_debug_key_reuse`).

While the switch is on, every typed key array (mlax.random.key) carries a
consumption state, and using a consumed key raises KeyReuseError.

Why on the tracer side, not as a pass over the `mlax` dialect: in the traced
IR a key is a plain uint32 tensor, and splitting or drawing bits from it is
a chain of integer ops (threefry is built from adds, xors and shifts) with
nothing marking where a key is consumed. The typed key (`KeyArray`) only
exists in Python, while tracing; so, as JAX's checker (an analysis of the
jaxpr made at trace time), the check runs at trace time, before anything
runs, over the same program the tracer emits:

* `sink(key)`: drawing bits from a key or splitting it consumes it (a key
  sliced from a key array consumes that part of the array);
* a key made by `key`, `split`, `fold_in`, `clone` or `wrap_key_data` is
  fresh; `key_data` consumes nothing;
* a jitted function (and a program `_run` makes of an eager control-flow
  op) gets a signature when it is traced: which key arguments it consumes,
  and which key outputs are its inputs (forwarded) or fresh. A call checks
  and marks its arguments by it, eagerly or inside an enclosing trace, so a
  cached call needs no retrace;
* the branches of a cond are alternatives: what one consumes is undone
  before the next is traced, and the union is consumed afterwards;
* a loop body runs many times: it may not consume a key made outside it,
  and a carried key it consumes must come back as a fresh one.

Where the states live: on the KeyArray objects (a key array sliced with a
traced index shares its parent's). A key rebuilt from its data by other
means (tree_map, unflatten) starts fresh: reuse through such copies is not
seen. With the switch off nothing is recorded (KeyArray holds None).
"""
from __future__ import annotations

import contextlib
import functools

import numpy as np

from mlax._src.base.config import config
from mlax._src.base.errors import _DOCS, KeyReuseError
from mlax._src.core import tracer as core
from mlax._src.base.tree import registry


class KeyState:
    """Whether a key (or which elements of a key array) has been consumed;
    `scope`: how many loop bodies were being traced when it was made."""

    __slots__ = ("consumed", "scope")

    def __init__(self, consumed=False):
        self.consumed = consumed
        self.scope = len(_loops)


class Tracked:
    """A value whose key-reuse state is checked (mlax.random's KeyArray):
    `_state` is a KeyState, or None while checking is off."""

    __slots__ = ()


# Journals of the cond branches being traced: (state, consumed before).
_journals: list = []
# What each loop body being traced is ("scan body function", ...).
_loops: list = []


def _error(message) -> KeyReuseError:
    """JAX's message, then the fix and where JAX documents the error."""
    return KeyReuseError(
        f"{message}\nA PRNG key may be used once: split it (mlax.random.split) for each use, "
        "or clone it (mlax.random.clone) to use it again deliberately.\n"
        + _DOCS.format("KeyReuseError"))


def _reused(what, index, traced) -> KeyReuseError:
    if traced:
        return _error(f"In {what}, argument {index} is already consumed.")
    name = "jit-compiled function" if what == "jit" else what
    return _error(f"Previously-consumed key passed to {name} at index {index}")


def enabled() -> bool:
    return config.jax_debug_key_reuse


def new_state(state=None):
    """A KeyArray's state: `state` (shared), a fresh one, or None when off."""
    if state is not None:
        return state
    return KeyState() if config.jax_debug_key_reuse else None


def state_of(key) -> KeyState:
    if key._state is None:  # made while checking was off: fresh
        key._state = KeyState()
        key._state.scope = 0
    return key._state


def _set(state, consumed):
    if _journals:
        _journals[-1].append((state, state.consumed))
    state.consumed = consumed


def is_consumed(key, mask=True) -> bool:
    return bool(np.any(np.logical_and(state_of(key).consumed, mask)))


def _check_scope(state):
    if _loops and state.scope < len(_loops):
        raise _error(f"{_loops[-1]} leads to key reuse when repeatedly executed, "
                            "because key constants are repeatedly consumed")


def sink(key, what, index=0, mask=True):
    """Consumes `key` (the elements `mask` selects) in the op `what`."""
    if not config.jax_debug_key_reuse:
        return
    state = state_of(key)
    if np.any(np.logical_and(state.consumed, mask)):
        raise _reused(what, index, bool(core.trace_stack()))
    _check_scope(state)
    _set(state, np.logical_or(state.consumed, mask))


def keys_in(tree) -> dict:
    """{leaf position: key} of the tracked keys in `tree` (a key is one leaf)."""
    leaves, _ = registry.flatten(tree, lambda x: isinstance(x, Tracked))
    return {i: leaf for i, leaf in enumerate(leaves) if isinstance(leaf, Tracked)}


class Signature:
    """What a traced function does to keys: `sinks` {argument position:
    mask}; `outs` {output position: ("forward", argument position) |
    "fresh" | "consumed"}."""

    __slots__ = ("sinks", "outs")

    def __init__(self, sinks, outs):
        self.sinks, self.outs = sinks, outs

    def check(self, args, funcname, traced):
        for i, mask in self.sinks.items():
            key = args.get(i)
            if key is not None and is_consumed(key, mask):
                raise _reused(funcname, i, traced)

    def update(self, args, outs):
        for i, mask in self.sinks.items():
            key = args.get(i)
            if key is not None:
                state = state_of(key)
                _check_scope(state)
                _set(state, np.logical_or(state.consumed, mask))
        for j, what in self.outs.items():
            key = outs.get(j)
            if key is None:
                continue
            if isinstance(what, tuple):
                source = args.get(what[1])
                if source is not None:
                    key._state = state_of(source)
            elif what == "consumed":
                key._state = KeyState(True)
            else:
                key._state = KeyState()


def recording(fun):
    """(`fun` wrapped to record its Signature when traced, a list the
    signature of its last trace is appended to)."""
    found = []

    @functools.wraps(fun)
    def recorded(*args, **kwargs):
        before = keys_in((args, kwargs))
        for key in before.values():
            state_of(key)
        out = fun(*args, **kwargs)
        found.append(signature_of(before, keys_in(out)))
        return out

    return recorded, found


def signature_of(args, outs) -> Signature:
    sinks = {i: state_of(k).consumed for i, k in args.items()
             if np.any(state_of(k).consumed)}
    by_state = {id(state_of(k)): i for i, k in args.items()}
    out_kinds = {}
    for j, k in outs.items():
        i = by_state.get(id(state_of(k)))
        if i is not None:
            out_kinds[j] = ("forward", i)
        else:
            out_kinds[j] = "consumed" if np.any(k._state.consumed) else "fresh"
    return Signature(sinks, out_kinds)


@contextlib.contextmanager
def undone():
    """Consumption in the block is undone afterwards (a trace made only to
    learn a signature, a cond branch); yields the journal of what it did."""
    journal = []
    _journals.append(journal)
    try:
        yield journal
    finally:
        _journals.pop()
        for state, old in reversed(journal):
            state.consumed = old


class Alternatives:
    """The branches of a cond: each is traced in `branch()`; what it consumed
    is undone before the next, and `join()` consumes the union."""

    def __init__(self):
        self._seen = {}  # id(state) -> (state, union of the branches' values)
        self.signatures = []

    @contextlib.contextmanager
    def branch(self):
        with undone() as journal:
            try:
                yield
            finally:
                for state, _ in journal:
                    entry = self._seen.get(id(state))
                    union = (state.consumed if entry is None
                             else np.logical_or(entry[1], state.consumed))
                    self._seen[id(state)] = (state, union)

    def join(self, operands):
        """Consumes the union of the branches' (closed-over keys, and of the
        `operands` keys by the recorded signatures)."""
        for state, union in self._seen.values():
            _set(state, np.logical_or(state.consumed, union))
        sinks = {}
        for sig in self.signatures:
            for i, mask in sig.sinks.items():
                sinks[i] = np.logical_or(sinks.get(i, False), mask)
        sig = Signature(sinks, {})
        sig.check(operands, "cond", traced=True)
        sig.update(operands, {})


@contextlib.contextmanager
def loop_body(what):
    """A loop body (`what`: "scan body function", ...) is being traced."""
    _loops.append(what)
    try:
        yield
    finally:
        _loops.pop()


def check_carry(what, sig: Signature, n_carry):
    """A loop body's carried keys it consumes must come back fresh (the carry
    is the first `n_carry` leaves of the body's arguments and outputs)."""
    for i in sig.sinks:
        if i < n_carry and sig.outs.get(i) != "fresh":
            raise _error(f"{what} leads to key reuse when repeatedly executed, "
                                "because consumed inputs don't match sourced outputs")

"""jax.experimental.checkify: run-time checks as values.

`checkify(f, errors)` runs `f` while a checker observes the trace of `f`
(a bind hook, see core.primitives): each `check` call, and each op an
enabled automatic check applies to (a NaN out of a float op, a division
by zero, of any dtype as JAX's, an out-of-bounds gather, scatter or dynamic
slice), adds a predicate, a code and a payload to an `Error`. As in JAX, the error
reported is the first failed `check`, else the first failed automatic
check, in program order. The `Error` is a pytree of arrays: it leaves a
`jit`, `vmap` or `grad` (with `has_aux`) as outputs do, and a batched one
reports each failing index ("at mapped index i: ..."), as JAX's.

Outside any trace the checked function is traced with its arguments'
values known (as mlax's eager transformations are: Python may branch on
them) and run as one program. A `jit` called inside a checkified function
is traced inline, so its ops are checked too; the function a `grad`,
`value_and_grad`, `jvp` or `vmap` transforms, the branches of a `cond` or
`switch` and the body of a `scan` or `while_loop` (so `fori_loop` and
`map`) are observed by a checker of their own, whose Error leaves the op as
extra outputs (core.primitives.ObservedCall): a vmapped one is reduced to
one error per check, as JAX's batching of a check does; a scanned one
(stacked over the iterations) to each kind's first failure in time, as
JAX's carried error; a while_loop's is carried as loop state (the body
traced once more to find its kinds); the branches' are made alike with
placeholders, as JAX's.

A custom_jvp or custom_vjp function and a checkpointed one are traced into
an op a derivative may replace (by the rule) or recompute: that op drops
its checks, and a plain call of the function of its own, which only
returns them, makes them (transforms.autodiff._report_checks). As JAX's,
where the call is differentiated the checks are those of what runs in its
place, the custom_jvp rule or the custom_vjp fwd (a rule calling the
function checks both), and a custom rule traced on its own makes none.

Where mlax differs from JAX:
* the ops of a derivative, which mlax's autodiff pass makes after tracing,
  are not observed (a NaN first made by a gradient goes unreported; a
  custom_vjp bwd's checks are not made);
* NumPy arguments of an eager checkified call are traced like arrays
  (JAX closes over them, so a `check` on a NumPy predicate is its TypeError);
* index checks see the indices a gather gets: mode 'clip' and jnp.take
  bound theirs before the gather in mlax, so they report nothing;
* a NaN check names the mlax primitive that made the NaN: JAX's name, but
  where mlax builds an op from others (JAX's integer_pow, igamma, ...) it
  names the one of those that made it;
* a `check` in a vmapped function without checkify is the staging
  ValueError, where eager JAX raises the failed check.
"""
from __future__ import annotations

import contextlib
import dataclasses
import functools
import itertools
import traceback

import numpy as np

from mlax._src.base import dtypes
from mlax._src.base.tree import register_pytree_node, registry, tree_map
from mlax._src.core import primitives
from mlax._src.core import tracer as core
from mlax._src.core.array import Array
from mlax._src.core.primitives import aval_of
from mlax._src.core.tracing import _run
from mlax._src.lax import lax
from mlax._src.transforms import autodiff
from mlax._src.numpy import lax_numpy as jnp_base
from mlax._src.numpy.index_tricks import unravel_index
from mlax._src.numpy.manipulation import argmax, argmin
from mlax._src.numpy.reductions import any as np_any
from mlax._src.numpy.ufuncs import isnan, logical_not


class JaxRuntimeError(ValueError):
    """What a failed check raises (JAX's checkify.JaxRuntimeError, a
    ValueError)."""


# ---------------------------------------------------------------------------
# the errors a check can report
# ---------------------------------------------------------------------------

class JaxException(Exception):
    """A check's error: its message's static parts are pytree metadata, its
    run-time values (a payload) are leaves."""

    def __init__(self, traceback_info):
        self.traceback_info = traceback_info

    def __init_subclass__(cls):
        register_pytree_node(cls, lambda e: e.tree_flatten(), cls.tree_unflatten)

    def tree_flatten(self):
        return [], self.traceback_info

    @classmethod
    def tree_unflatten(cls, metadata, payload):
        return cls(metadata)

    def get_effect_type(self) -> "ErrorEffect":
        raise NotImplementedError


@functools.total_ordering
@dataclasses.dataclass(eq=True, frozen=True)
class ErrorEffect:
    """One kind of error: its class and its payload's (shape, dtype)s. An
    Error keeps the first failure of each kind."""
    error_type: type
    shape_dtypes: tuple

    def __lt__(self, other):
        return ((str(self.error_type), self.shape_dtypes)
                < (str(other.error_type), other.shape_dtypes))


class DivisionByZeroError(JaxException):
    def __str__(self):
        return "division by zero"

    def get_effect_type(self):
        return ErrorEffect(DivisionByZeroError, ())


class NaNError(JaxException):
    def __init__(self, traceback_info, primitive_name):
        super().__init__(traceback_info)
        self.prim = primitive_name

    def tree_flatten(self):
        return [], (self.traceback_info, self.prim)

    @classmethod
    def tree_unflatten(cls, metadata, payload):
        return cls(*metadata)

    def get_effect_type(self):
        return ErrorEffect(NaNError, ())

    def __str__(self):
        return f"nan generated by primitive: {self.prim}."


class OOBError(JaxException):
    def __init__(self, traceback_info, primitive_name, operand_shape, payload):
        super().__init__(traceback_info)
        self.prim = primitive_name
        self.operand_shape = operand_shape
        self._payload = payload

    def tree_flatten(self):
        return [self._payload], (self.traceback_info, self.prim, self.operand_shape)

    @classmethod
    def tree_unflatten(cls, metadata, payload):
        return cls(*metadata, payload=payload[0])

    def __str__(self):
        return (f"out-of-bounds indexing for array of shape {self.operand_shape}: "
                f"index {self._payload[0]} is out of bounds for axis "
                f"{self._payload[1]} with size {self._payload[2]}. ")

    def get_effect_type(self):
        return ErrorEffect(OOBError, (((3,), "int32"),))


class FailedCheckError(JaxException):
    def __init__(self, traceback_info, fmt_string, *a, **k):
        super().__init__(traceback_info)
        self.fmt_string = fmt_string
        self.args = a
        self.kwargs = k

    def tree_flatten(self):
        return (self.args, self.kwargs), (self.traceback_info, self.fmt_string)

    @classmethod
    def tree_unflatten(cls, metadata, payload):
        args, kwargs = payload
        return cls(*metadata, *args, **kwargs)

    def __str__(self):
        return self.fmt_string.format(*self.args, **self.kwargs) + " (`check` failed)"

    def get_effect_type(self):
        leaves = registry.flatten((self.args, self.kwargs))[0]
        return ErrorEffect(FailedCheckError, tuple(
            (tuple(aval_of(x).shape), np.dtype(aval_of(x).dtype).name) for x in leaves))


class BatchedError(JaxException):
    """The errors of a batched Error, by index: each failing index's first."""

    def __init__(self, error_mapping):
        self.error_mapping = error_mapping
        super().__init__(next(iter(error_mapping.values())).traceback_info)

    def __str__(self):
        return "\n".join(f"at mapped index {', '.join(map(str, idx))}: {e}"
                         for idx, e in self.error_mapping.items())


ErrorCategory = type[JaxException]


# ---------------------------------------------------------------------------
# the Error value
# ---------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Error:
    """The checks' outcome: per kind of error (ErrorEffect) whether one
    failed, the code of the first that did and its payload; `_metadata`
    maps each code to its error's pytree structure."""
    _pred: dict
    _code: dict
    _metadata: dict
    _payload: dict

    def get(self) -> str | None:
        """The message of the first failed check, or None."""
        exc = self.get_exception()
        return None if exc is None else str(exc)

    def get_exception(self) -> JaxException | None:
        """The first failed check's error (a BatchedError when batched), or None."""
        if any(np.shape(v) for v in self._pred.values()):
            return self._get_batched_exception()
        found = None
        for effect, code in self._code.items():
            if bool(self._pred[effect]) and (found is None or int(code) < found[0]):
                found = (int(code), effect)
        if found is None:
            return None
        return self._metadata[found[0]].unflatten(_host(self._payload[found[1]]))

    def _get_batched_exception(self):
        shape = np.shape(next(iter(self._pred.values())))
        preds = {e: np.asarray(p) for e, p in self._pred.items()}
        codes = {e: np.asarray(c) for e, c in self._code.items()}
        mapping = {}
        for idx in np.ndindex(*shape):
            found = None
            for effect in codes:
                if preds[effect][idx] and (found is None or codes[effect][idx] < found[0]):
                    found = (int(codes[effect][idx]), effect)
            if found is not None:
                payload = tree_map(lambda x, i=idx: x[i], _host(self._payload[found[1]]))
                mapping[idx] = self._metadata[found[0]].unflatten(payload)
        return BatchedError(mapping) if mapping else None

    def throw(self):
        """Raises JaxRuntimeError if a check failed."""
        _check_error(self)

    def __str__(self):
        return f"Error({self.get()})"

    def _update(self, effect, pred, code, metadata, payload):
        return Error({**self._pred, effect: pred}, {**self._code, effect: code},
                     {**self._metadata, **metadata}, {**self._payload, effect: payload})


def _host(payload):
    # NumPy values format as JAX's arrays do in messages ("{}" of a 0-d
    # array formats its NumPy scalar).
    return tree_map(lambda x: np.asarray(x) if isinstance(x, Array) else x, payload)


register_pytree_node(
    Error, lambda e: ((e._pred, e._code, e._payload), e._metadata),
    lambda metadata, data: Error(data[0], data[1], metadata, data[2]))

init_error = Error({}, {}, {}, {})
_next_code = itertools.count(1).__next__  # unique, increasing in program order
# JAX numbers a function's `check`s when it traces the function, and its
# automatic checks afterwards, when it interprets the traced program: a
# failed `check` is reported before any automatic check's failure. The
# automatic checks' codes are offset by this to order them the same way.
_AUTOMATIC = 1 << 30


def _update_error(error, pred, code, metadata, payload, effect):
    """`error` with a check of kind `effect` added: a failure of that kind
    already recorded keeps its code and payload."""
    before = error._pred.get(effect, False)
    out_pred = lax.bitwise_or(_bool(before), _bool(pred))
    if effect in error._code:
        code = lax.select(_bool(before), jnp_base.asarray(error._code[effect], np.int32),
                          jnp_base.asarray(code, np.int32))
        payload = tree_map(lambda old, new: lax.select(
            jnp_base.broadcast_to(_bool(before), np.shape(new)), old, new),
            error._payload[effect], payload)
    else:
        code = jnp_base.asarray(code, np.int32)
    return error._update(effect, out_pred, code, metadata, payload)


def _bool(x):
    return jnp_base.asarray(x, np.bool_)


@functools.total_ordering
@dataclasses.dataclass(eq=True, frozen=True)
class _OneCheck:
    """The kind of one check of a vmapped function, by its order there."""
    effect: ErrorEffect
    order: int

    def __lt__(self, other):
        return self.order < other.order


def _assert(error, failed, exc: JaxException, apart=False):
    """JAX's assert_func: `error` with `exc` recorded when `failed`."""
    code = _next_code() + (0 if isinstance(exc, FailedCheckError) else _AUTOMATIC)
    payload, metadata = registry.flatten(exc)
    effect = exc.get_effect_type()
    return _update_error(error, failed, code, {code: metadata}, payload,
                         _OneCheck(effect, code) if apart else effect)


def _traceback_info():
    return traceback.extract_stack(limit=8)


# ---------------------------------------------------------------------------
# the checker: what observes the checkified function's trace
# ---------------------------------------------------------------------------

class _Checker:
    """The bind hook of one checkified call: adds the automatic checks of
    `enabled` after each op they apply to, and collects `check`s, into
    `error`. `trace` is the checkified function's trace."""

    inline_jit = True  # jit calls in the trace are traced inline (checked too)

    def __init__(self, trace, enabled, each_check_apart=None, discards=False):
        self.trace, self.enabled, self.error = trace, enabled, init_error
        self._busy = False
        # A checker whose findings another call reports (a custom_jvp or
        # custom_vjp function, a checkpointed one): the checks in the
        # callees traced under it, observed or not, are dropped as well.
        self.discards = discards
        # In a vmapped or scanned function each check is its own kind (a
        # _OneCheck), reduced over the batch or the iterations on its own.
        self._apart = each_check_apart

    def add(self, failed, exc):
        if type(exc) not in self.enabled:
            return  # (a `check` without user_checks is dropped, as in JAX)
        with self._own_ops():
            self.error = _assert(self.error, failed, exc, self._apart)

    def add_error(self, error, only_enabled=True):
        """check_error inside the checkified function: `error`'s enabled
        kinds join this one (JAX's check discharge rule)."""
        with self._own_ops():
            out = self.error
            for key, pred in error._pred.items():
                effect = key.effect if isinstance(key, _OneCheck) else key
                if effect.error_type in self.enabled or not only_enabled:
                    out = _update_error(out, pred, error._code[key], {},
                                        error._payload[key], self._key(effect, key))
            self.error = dataclasses.replace(out, _metadata={**error._metadata,
                                                             **out._metadata})

    # A function a transformation traces as a callee of this trace (grad's,
    # jvp's, vmap's, a cond's branch, a scan's body): a checker of its own
    # observes it, and its Error comes back out of the op (see
    # core.primitives.ObservedCall).
    @contextlib.contextmanager
    def observe_callee(self, mapped=None, start=None, discard=False):
        child = _Checker(core.current_trace(), self.enabled, each_check_apart=mapped,
                         discards=discard or self.discards)
        if start is not None:
            child.error = start
        with child.active():
            yield child

    def value(self):
        return self.error

    def placeholders(self, error):
        """(leaves, their structure) of an Error of `error`'s kinds in which
        nothing failed: the start of a loop's carried checks."""
        return registry.flatten(self.join_observed([error, init_error])[1])

    def join_observed(self, errors):
        """The Errors of a cond's branches, alike: every kind any branch
        checks, with a placeholder (no failure) where a branch has none, as
        JAX's checkify of cond."""
        keys = sorted(set().union(*[e._pred for e in errors]))
        metadata = {}
        for e in errors:
            metadata.update(e._metadata)
        out = []
        for e in errors:
            pred, code, payload = {}, {}, {}
            for k in keys:
                if k in e._pred:
                    pred[k], code[k], payload[k] = e._pred[k], e._code[k], e._payload[k]
                else:
                    pred[k], code[k] = np.bool_(False), np.int32(-1)
                    payload[k] = [np.ones(shape, dtype) for shape, dtype in k.shape_dtypes]
            out.append(Error(pred, code, metadata, payload))
        return out

    def _key(self, effect, key):
        if not self._apart:
            return effect
        return key if isinstance(key, _OneCheck) else _OneCheck(effect, _next_code())

    def callee_observed(self, error, mapped):
        if mapped == "vmap":
            with self._own_ops():
                error = _reduce_batched(error)
        elif mapped is not None:
            with self._own_ops():
                error = _reduce_iterations(error, reverse=mapped == "scan_reverse")
        self.add_error(error, only_enabled=False)


    @contextlib.contextmanager
    def _own_ops(self):
        # The checks' own ops are not checked.
        busy, self._busy = self._busy, True
        try:
            yield
        finally:
            self._busy = busy

    def __call__(self, prim, avals, params, out, args=()):  # the bind hook
        if self._busy:
            return out
        rule = _RULES.get(prim.name)
        if rule is not None:
            with self._own_ops():
                rule(self, prim, args, avals, params, out)
        return out

    @contextlib.contextmanager
    def active(self):
        primitives.bind_hooks.append(self)
        try:
            yield self
        finally:
            primitives.bind_hooks.pop()


def _reduce_batched(error):
    """A vmapped function's Error (mapped over a leading axis) as one, as
    JAX's: per kind, the last index where it failed (the last index when
    none did)."""
    out = init_error
    for effect, pred in error._pred.items():
        n = aval_of(pred).shape[0]
        idx = n - 1 - argmax(lax.convert_element_type(lax.rev(pred, (0,)), np.int32))
        take = functools.partial(_at, idx)
        out = out._update(effect, take(pred), take(error._code[effect]), {},
                          tree_map(take, error._payload[effect]))
    return dataclasses.replace(out, _metadata=error._metadata)


def _reduce_iterations(error, reverse):
    """A scanned function's Error (stacked over the iterations) as one, as
    JAX's checkify of scan, which carries the error: per kind, the check
    that failed in the earliest iteration run (earliest in program order
    within it), with that iteration's payload."""
    out, first = init_error, {}  # first: per kind, the chosen iteration's run index
    for key, pred in error._pred.items():  # (in program order)
        effect = key.effect
        n = aval_of(pred).shape[0]
        ran = lax.rev(pred, (0,)) if reverse else pred
        t = argmax(lax.convert_element_type(ran, np.int32))
        failed = np_any(pred)
        t = lax.select(failed, lax.convert_element_type(t, np.int32), np.int32(n))
        idx = (n - 1 - t) if reverse else t
        idx = lax.min(lax.max(idx, np.int32(0)), np.int32(n - 1))
        take = functools.partial(_at, idx)
        code, payload = take(error._code[key]), tree_map(take, error._payload[key])
        if effect in out._pred:
            earlier = lax.lt(t, first[effect])
            code = lax.select(earlier, code, out._code[effect])
            payload = tree_map(lambda new, old: lax.select(
                jnp_base.broadcast_to(earlier, np.shape(new)), new, old),
                payload, out._payload[effect])
            failed = lax.bitwise_or(failed, out._pred[effect])
            t = lax.min(t, first[effect])
        first[effect] = t
        out = out._update(effect, failed, code, {}, payload)
    return dataclasses.replace(out, _metadata=error._metadata)


def _at(idx, x):
    return lax.dynamic_index_in_dim(x, idx, keepdims=False)


def _current_checker():
    """(checker of the current trace or None, whether a checker observes an
    enclosing trace)."""
    trace = core.current_trace()
    for hook in reversed(primitives.bind_hooks):
        if isinstance(hook, _Checker):
            if hook.trace is trace:
                return hook, True
            if hook.trace.is_ancestor_of_current():
                # As JAX's, a custom rule's checks are not made (the checks
                # of the function it stands for are, see
                # transforms.autodiff._report_checks).
                dropped = hook.discards or autodiff.tracing_custom_rule()
                return (_DROPPED if dropped else None), True
    return None, False


class _Dropped:
    """Where the checks of a callee under a discarding checker go."""

    def add(self, failed, exc):
        pass

    def add_error(self, error):
        pass


_DROPPED = _Dropped()


# ---------------------------------------------------------------------------
# the automatic checks, by mlax primitive
# ---------------------------------------------------------------------------

# The primitives JAX checks for NaN outputs (its checkify.nan_primitives,
# and div); mlax's primitives of these names are JAX's, and the message
# names them. (JAX's integer_pow, igamma*, bessel_i*e, psum and
# reduce_window_sum have no mlax primitive of their own.)
_NAN_PRIMITIVES = frozenset((
    "acos", "acosh", "add", "asin", "asinh", "atan2", "atan", "atanh", "cbrt",
    "conv_general_dilated", "cos", "cosh", "cumlogsumexp", "cummax", "cummin", "cumprod",
    "cumsum", "digamma", "dot_general", "erf_inv", "erf", "erfc", "exp", "expm1", "fft",
    "lgamma", "log1p", "log", "logistic", "mul", "pad", "pow", "reduce", "reduce_prod",
    "reduce_sum", "reduce_window", "rem", "rng_uniform", "rsqrt", "sin", "sinh", "sqrt",
    "sub", "tan", "tanh", "div"))


def _any_nan(out):
    leaves = out if isinstance(out, (list, tuple)) else [out]
    found = None
    for x in leaves:
        if not dtypes.is_inexact(aval_of(x).dtype):
            continue
        nan = np_any(isnan(x))
        found = nan if found is None else lax.bitwise_or(found, nan)
    return found


def _nan_rule(checker, prim, args, avals, params, out):
    if NaNError not in checker.enabled:
        return
    nan = _any_nan(out)
    if nan is not None:
        checker.add(nan, NaNError(_traceback_info(), prim.name))


def _div_rule(checker, prim, args, avals, params, out):
    # As JAX's div_error_check: a zero divisor of any dtype (a float x / 0
    # reports the division, before the NaN or inf it makes).
    if DivisionByZeroError in checker.enabled:
        zero = np_any(lax.eq(args[1], lax.full_like(args[1], 0)))
        checker.add(zero, DivisionByZeroError(_traceback_info()))
    _nan_rule(checker, prim, args, avals, params, out)


def _oob_payload(oob_mask, indices, dims_map, operand_shape):
    """JAX's: the first out-of-bounds index, its axis and that axis' size."""
    flat = argmin(logical_not(oob_mask))
    multi = unravel_index(flat, aval_of(oob_mask).shape)
    axis = jnp_base.asarray(np.asarray(dims_map, np.int32))[multi[-1]]
    size = jnp_base.asarray(np.asarray(operand_shape, np.int32))[axis]
    index = jnp_base.ravel(indices)[flat]
    return jnp_base.stack([lax.convert_element_type(v, np.int32)
                           for v in (index, axis, size)])


def _starts_rule(name, first_start):
    """dynamic_slice / dynamic_update_slice: each start must keep the block
    inside the operand."""
    def rule(checker, prim, args, avals, params, out):
        if OOBError not in checker.enabled:
            return
        shape = avals[0].shape
        if name == "dynamic_slice":
            sizes = params["slice_sizes"]
        else:
            sizes = avals[1].shape
        starts = args[first_start:]
        if not starts:
            return
        starts = jnp_base.stack([jnp_base.asarray(s) for s in starts])
        dt = aval_of(starts).dtype
        oob = lax.bitwise_or(
            lax.lt(starts, jnp_base.zeros_like(starts)),
            lax.gt(lax.add(starts, jnp_base.asarray(np.asarray(sizes, dt))),
                   jnp_base.asarray(np.asarray(shape, dt))))
        payload = _oob_payload(oob, starts, range(len(shape)), shape)
        checker.add(np_any(oob), OOBError(_traceback_info(), name, tuple(shape), payload))
    return rule


def _gather_rule(checker, prim, args, avals, params, out):
    if OOBError not in checker.enabled:
        return
    operand, indices = avals[0], avals[1]
    dims = list(params["start_index_map"])
    if not dims:
        return
    dt = np.dtype(indices.dtype)
    upper = (np.asarray(operand.shape)[dims]
             - np.asarray(params["slice_sizes"])[dims]).astype(dt)
    upper = lax.broadcast_in_dim(upper, indices.shape, (indices.ndim - 1,))
    start = args[1]
    oob = lax.bitwise_or(lax.lt(start, jnp_base.zeros_like(start)), lax.gt(start, upper))
    payload = _oob_payload(oob, start, dims, operand.shape)
    checker.add(np_any(oob), OOBError(_traceback_info(), "gather", tuple(operand.shape),
                                      payload))


def _scatter_rule(checker, prim, args, avals, params, out):
    """JAX's scatter check: every window must fit, then the NaN check
    (only with index checks on, as JAX's)."""
    if OOBError not in checker.enabled:
        return
    operand, indices, updates = avals
    dims = list(params["scatter_dims_to_operand_dims"])
    window = iter(params["update_window_dims"])
    sizes = [1 if (d in params["inserted_window_dims"] or d in params["operand_batching_dims"])
             else updates.shape[next(window)] for d in range(operand.ndim)]
    dt = np.dtype(indices.dtype)
    upper = np.minimum(np.array([operand.shape[d] - sizes[d] for d in dims], np.int64),
                       dtypes.iinfo(dt).max).astype(dt)
    upper = lax.broadcast_in_dim(upper, indices.shape, (indices.ndim - 1,))
    idx = args[1]
    oob = lax.bitwise_or(lax.lt(idx, jnp_base.zeros_like(idx)), lax.gt(idx, upper))
    name = "scatter" if params["combiner"] == "set" else f"scatter-{params['combiner']}"
    checker.add(np_any(oob), OOBError(_traceback_info(), name, tuple(operand.shape),
                                      _oob_payload(oob, idx, dims, operand.shape)))
    if NaNError in checker.enabled:
        nan = _any_nan(out)
        if nan is not None:
            checker.add(nan, NaNError(_traceback_info(), name))


def _take_rule(checker, prim, args, avals, params, out):
    """mlax's take (a gather of whole slices along `axis`)."""
    if OOBError not in checker.enabled:
        return
    operand, indices = avals
    axis = params["axis"]
    idx = args[1]
    size = jnp_base.full(indices.shape, operand.shape[axis], indices.dtype)
    oob = lax.bitwise_or(lax.lt(idx, jnp_base.zeros_like(idx)), lax.ge(idx, size))
    payload = _oob_payload(jnp_base.ravel(oob), jnp_base.ravel(idx), [axis], operand.shape)
    checker.add(np_any(oob), OOBError(_traceback_info(), "gather", tuple(operand.shape),
                                      payload))


_RULES = {name: _nan_rule for name in _NAN_PRIMITIVES}
_RULES["scatter"] = _scatter_rule
_RULES["take"] = _take_rule
_RULES["div"] = _div_rule
_RULES["dynamic_slice"] = _starts_rule("dynamic_slice", 1)
_RULES["dynamic_update_slice"] = _starts_rule("dynamic_update_slice", 2)
_RULES["gather"] = _gather_rule


# ---------------------------------------------------------------------------
# the public API
# ---------------------------------------------------------------------------

user_checks = frozenset({FailedCheckError})
nan_checks = frozenset({NaNError})
index_checks = frozenset({OOBError})
div_checks = frozenset({DivisionByZeroError})
float_checks = nan_checks | div_checks
automatic_checks = float_checks | index_checks
all_checks = automatic_checks | user_checks


def checkify(f, errors=user_checks):
    """jax.experimental.checkify.checkify: `f` as a function returning
    `(error, out)`, its `check`s, and the automatic checks named in `errors`
    (a set of error categories: user_checks, nan_checks, div_checks,
    index_checks or their unions), made values instead of exceptions."""
    enabled = frozenset(errors)
    for category in enabled:
        if not (isinstance(category, type) and issubclass(category, JaxException)):
            raise TypeError(f"checkify: errors must be a set of error categories such as "
                            f"checkify.user_checks or checkify.nan_checks, got {category!r}")

    def traced(*args, **kwargs):
        checker = _Checker(core.current_trace(), enabled)
        with checker.active():
            out = f(*args, **kwargs)
        return checker.error, out

    @functools.wraps(f)
    def checked_fun(*args, **kwargs):
        return _run(traced, f"checkify({getattr(f, '__name__', 'fn')})", args, kwargs)

    return checked_fun


def _is_scalar_pred(pred) -> bool:
    if isinstance(pred, bool):
        return True
    if isinstance(pred, (Array, core.Tracer)):
        aval = aval_of(pred)
        return aval.shape == () and np.dtype(aval.dtype) == np.bool_
    return False


def _check(pred, msg, debug, *fmt_args, **fmt_kwargs):
    if not _is_scalar_pred(pred):
        raise TypeError(f"{'debug_check' if debug else 'check'} takes a scalar pred as "
                        f"argument, got {pred}")
    for arg in registry.flatten((fmt_args, fmt_kwargs))[0]:
        if not isinstance(arg, (Array, core.Tracer, np.ndarray)):
            raise TypeError("Formatting arguments to checkify.check need to be PyTrees of "
                            f"arrays, but got {arg!r} of type {type(arg)}.")
    new_error = FailedCheckError(_traceback_info(), msg, *fmt_args, **fmt_kwargs)
    checker, _ = _current_checker()
    if checker is not None:
        checker.add(logical_not(pred), new_error)
        return
    _check_error(_assert(init_error, logical_not(pred), new_error), debug=debug)


_FUNCTIONALIZATION_ERROR = (
    "Cannot abstractly evaluate a checkify.check which was not functionalized. This "
    "probably means you tried to stage (jit/scan/pmap/...) a `check` without "
    "functionalizing it through `checkify.checkify`.")


def _check_error(error, *, debug=False):
    """Raises the first failure of `error` (JaxRuntimeError); inside a
    checkified function, adds `error` to its checks instead."""
    checker, enclosed = _current_checker()
    if checker is not None:
        checker.add_error(error)
        return
    if enclosed:
        what = getattr(core.current_trace(), "traced_for", None)
        raise NotImplementedError(
            "checkify: a check inside a function traced on its own"
            + (f" ({what})" if what else "") + " within a checkified function is not "
            "supported by mlax; checkify that function itself, or check its result outside it")
    if debug:
        return  # debug_check outside checkify: dropped, as in JAX
    leaves = registry.flatten(error)[0]
    concrete = [core.concrete_value(x) for x in leaves]
    if any(v is None for v in concrete):
        raise ValueError(_FUNCTIONALIZATION_ERROR)
    error = registry.flatten(error)[1].unflatten(concrete)
    exc = error.get_exception()
    if exc is not None:
        raise JaxRuntimeError(str(exc)) from exc


def check(pred, msg, *fmt_args, debug=False, **fmt_kwargs):
    """jax.experimental.checkify.check: records a failure with message
    `msg` (a format string of `fmt_args` / `fmt_kwargs`, arrays that may be
    traced) when the scalar boolean `pred` is False. Under `checkify` it
    becomes part of the returned Error; called eagerly it raises
    JaxRuntimeError at once; staged (jit) without checkify it is an error,
    as in JAX. `debug=True` is `debug_check`."""
    _check(pred, msg, debug, *fmt_args, **fmt_kwargs)


def debug_check(pred, msg, *fmt_args, **fmt_kwargs):
    """jax.experimental.checkify.debug_check: a `check` under `checkify`,
    dropped without it."""
    _check(pred, msg, True, *fmt_args, **fmt_kwargs)


def check_error(error: Error) -> None:
    """jax.experimental.checkify.check_error: raises JaxRuntimeError if
    `error` holds a failure; inside a checkified function its checks join
    that function's Error instead."""
    if not isinstance(error, Error):
        raise TypeError(f"check_error takes an Error as argument, got type {type(error)} "
                        "instead.")
    _check_error(error)

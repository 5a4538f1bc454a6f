"""Rematerialisation policies (`jax.checkpoint_policies`) and `checkpoint_name`.

A policy is JAX's: a function `policy(prim, *avals, **params)` of one
operation of the checkpointed function, returning whether its result may be
saved for the reverse pass (a bool, or `Saveable` / `Recompute`). mlax
evaluates it on the operations of the traced function, with `prim` an object
whose `name` is the operation's JAX primitive name (`dot_general`, `sin`, and
`name` for a `checkpoint_name`) and `params` JAX's where a policy reads them
(`dimension_numbers` of a dot, `name` of a named value).

What the policy changes in mlax (all without a new dialect op):

* it saves every result (`everything_saveable`, or `dots_saveable` on a
  function of dots only): the function is an ordinary call, nothing is
  recomputed;
* it saves none: one `remat_call`, everything recomputed from the operands;
* it saves some (the results of ops bound directly in the function, and its
  `checkpoint_name`s, with a float dtype): two `remat_call`s, `h` computing
  the saved values from the operands and `g`, the function traced again with
  those values as arguments in their place (`transforms.autodiff.
  _partial_remat`). The reverse pass keeps the operands and the saved values,
  recomputes the rest of the function from them, and recomputes the part of
  `h` it needs to send the saved values' cotangents on (as JAX recomputes a
  saved dot's unsaved inputs). Ops inside nested jit/control-flow bodies are
  not looked at one by one.

Values and derivatives are the same in every case.
"""
from __future__ import annotations

import contextlib
import types

import numpy as np

from mlir import ir

# The (value, name) records of checkpoint_name calls made while tracing the
# innermost checkpointed function (None outside one).
_names_stack: list = []


class _Marker:
    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return self._name


Saveable = _Marker("Saveable")
Recompute = _Marker("Recompute")


class Offloadable:
    """JAX's `ad_checkpoint.Offloadable(src, dst)`: save the value in another
    memory. mlax has one memory kind; an offloaded value is saved."""

    def __init__(self, src, dst):
        self.src, self.dst = src, dst

    def __repr__(self):
        return f"Offloadable(src={self.src!r}, dst={self.dst!r})"


def checkpoint_name(x, name):
    """Like `jax.ad_checkpoint.checkpoint_name`: `x` unchanged, named `name`
    for the policies of an enclosing `checkpoint` (`save_only_these_names`,
    ...)."""
    if _names_stack:
        from mlax._src.base.tree import registry
        leaves, tree = registry.flatten(x)
        return tree.unflatten([_names_stack[-1].name(leaf, name) for leaf in leaves])
    return x


class _NameRecorder:
    def __init__(self):
        self.names = []

    def name(self, leaf, name):
        self.names.append(name)
        return leaf


@contextlib.contextmanager
def recording_names():
    """Collects the names checkpoint_name gives while a checkpointed function
    is traced."""
    recorder = _NameRecorder()
    _names_stack.append(recorder)
    try:
        yield recorder.names
    finally:
        _names_stack.pop()


class Saver:
    """The values a policy saves, while a checkpointed function is traced
    (the ops bound directly in its trace, and its checkpoint_names). Without
    `values` it collects them (`saved`); with them it puts `values[k]` in
    place of the k-th saved value (the same function traced again, the saved
    values given as arguments)."""

    def __init__(self, policy, values=None):
        self.policy, self.values, self.saved, self.k, self.trace = policy, values, [], 0, None

    def _take(self, out):
        if self.values is None:
            self.saved.append(out)
            return out
        v = self.values[self.k]
        self.k += 1
        return v

    def _ok(self, out):
        try:
            return (out.trace is self.trace
                    and np.dtype(out.aval.dtype).kind in "fc")
        except (AttributeError, TypeError):
            return False

    def __call__(self, prim, avals, params, out, args=()):  # the bind hook
        if prim.multiple_results or not self._ok(out):
            return out
        if _decide(self.policy, _Prim(prim.name), *avals, **params):
            return self._take(out)
        return out

    def name(self, leaf, name):
        if self._ok(leaf) and _decide(self.policy, _Prim("name"), name=name):
            return self._take(leaf)
        return leaf

    @contextlib.contextmanager
    def active(self):
        from mlax._src.core import primitives
        from mlax._src.core import tracer as core
        self.trace, self.k = core.current_trace(), 0
        primitives.bind_hooks.append(self)
        _names_stack.append(self)
        try:
            yield self
        finally:
            _names_stack.pop()
            primitives.bind_hooks.pop()


# ---------------------------------------------------------------------------
# the policies, as jax.checkpoint_policies (same names, same decisions)
# ---------------------------------------------------------------------------

def everything_saveable(*_, **__):
    return True


def nothing_saveable(*_, **__):
    return False


def dots_saveable(prim, *_, **__):
    return prim.name == "dot_general"


checkpoint_dots = dots_saveable


def dots_with_no_batch_dims_saveable(prim, *_, **params):
    if prim.name == "dot_general":
        (_, _), (lb, rb) = params["dimension_numbers"]
        if not lb and not rb:
            return True
    return False


checkpoint_dots_with_no_batch_dims = dots_with_no_batch_dims_saveable


def offload_dot_with_no_batch_dims(offload_src, offload_dst):
    def policy(prim, *_, **params):
        if prim.name == "dot_general":
            (_, _), (lb, rb) = params["dimension_numbers"]
            if not lb and not rb:
                return Offloadable(src=offload_src, dst=offload_dst)
        return Recompute
    return policy


def save_anything_except_these_names(*names_not_to_save):
    names_not_to_save = frozenset(names_not_to_save)

    def policy(prim, *_, **params):
        if prim.name == "name":
            return params["name"] not in names_not_to_save
        return True
    return policy


def save_any_names_but_these(*names_not_to_save):
    names_not_to_save = frozenset(names_not_to_save)

    def policy(prim, *_, **params):
        if prim.name == "name":
            return params["name"] not in names_not_to_save
        return False
    return policy


def save_only_these_names(*names_which_can_be_saved):
    names_which_can_be_saved = set(names_which_can_be_saved)

    def policy(prim, *_, **params):
        if prim.name == "name":
            return params["name"] in names_which_can_be_saved
        return False
    return policy


def save_and_offload_only_these_names(*, names_which_can_be_saved,
                                      names_which_can_be_offloaded, offload_src, offload_dst):
    names_which_can_be_saved = set(names_which_can_be_saved)
    names_which_can_be_offloaded = set(names_which_can_be_offloaded)
    intersection = names_which_can_be_saved.intersection(names_which_can_be_offloaded)
    if intersection:
        raise ValueError(
            "The names should be exclusive and should not intersect in "
            "`names_which_can_be_saved` and `names_which_can_be_offloaded`. Got "
            f"names_which_can_be_saved={names_which_can_be_saved}, "
            f"names_which_can_be_offloaded={names_which_can_be_offloaded} and the "
            f"intersection={intersection}")

    def policy(prim, *_, **params):
        if prim.name == "name" and params["name"] in names_which_can_be_saved:
            return Saveable
        if prim.name == "name" and params["name"] in names_which_can_be_offloaded:
            return Offloadable(src=offload_src, dst=offload_dst)
        return Recompute
    return policy


def save_from_both_policies(policy_1, policy_2):
    def policy(prim, *args, **params):
        out1 = policy_1(prim, *args, **params)
        out2 = policy_2(prim, *args, **params)
        if not (isinstance(out1, bool) and isinstance(out2, bool)):
            raise ValueError(
                "The return value of the policies should be a boolean. Got: "
                f"{out1} and {out2}. Please write a custom policy function directly, "
                "rather than using this helper function.")
        return out1 or out2
    return policy


checkpoint_policies = types.SimpleNamespace(
    everything_saveable=everything_saveable,
    nothing_saveable=nothing_saveable,
    dots_saveable=dots_saveable,
    checkpoint_dots=checkpoint_dots,
    dots_with_no_batch_dims_saveable=dots_with_no_batch_dims_saveable,
    checkpoint_dots_with_no_batch_dims=checkpoint_dots_with_no_batch_dims,
    offload_dot_with_no_batch_dims=offload_dot_with_no_batch_dims,
    save_anything_except_these_names=save_anything_except_these_names,
    save_any_names_but_these=save_any_names_but_these,
    save_only_these_names=save_only_these_names,
    save_from_both_policies=save_from_both_policies,
    save_and_offload_only_these_names=save_and_offload_only_these_names,
)


# ---------------------------------------------------------------------------
# evaluation over a traced function
# ---------------------------------------------------------------------------

class _Prim:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return self.name


class _Aval:
    def __init__(self, type_):
        try:
            shaped = ir.RankedTensorType(type_)
        except (ValueError, TypeError):
            shaped = None
        self.shape = tuple(shaped.shape) if shaped is not None else ()
        self.dtype = str(shaped.element_type) if shaped is not None else str(type_)
        self.ndim = len(self.shape)

    def __repr__(self):
        return f"{self.dtype}{list(self.shape)}"


def _ints(attr):
    return tuple(int(v) for v in ir.DenseI64ArrayAttr(attr))


def _params(op):
    if op.name == "mlax.dot_general":
        a = op.attributes
        get = (lambda k: _ints(a[k]) if k in a else ())
        return {"dimension_numbers": (
            (get("lhs_contracting_dimensions"), get("rhs_contracting_dimensions")),
            (get("lhs_batching_dimensions"), get("rhs_batching_dimensions")))}
    return {}


_SKIP = {"mlax.constant", "func.return", "mlax.return", "mlax.yield"}


class PolicyFailed(Exception):
    """The policy raised (or answered something that is not a decision):
    `error` is what JAX raises when the function is differentiated."""

    def __init__(self, error):
        super().__init__(str(error))
        self.error = error


def _decide(policy, prim, *avals, **params):
    try:
        return _check(policy(prim, *avals, **params))
    except Exception as e:  # noqa: BLE001 (the user's policy's own errors too)
        raise PolicyFailed(e) from e


def _check(result):
    if isinstance(result, bool) or result is Saveable or result is Recompute \
            or isinstance(result, Offloadable):
        return result is Saveable or isinstance(result, Offloadable) or result is True
    raise TypeError(
        "Value returned by a remat policy should be a bool or `ad_checkpoint.Recompute`, "
        "`ad_checkpoint.Saveable` or `ad_checkpoint.Offloadable(...)`. Got "
        f"{result} of type {type(result)}.")


def saves_everything(policy, func_op, names):
    """Whether `policy` saves the result of every operation of the traced
    function `func_op` (and of every checkpoint_name in `names`). Raises
    PolicyFailed with the policy's error, or JAX's TypeError for a result
    that is not a decision."""
    decisions = []
    ops = [func_op]
    while ops:
        op = ops.pop()
        for region in op.regions:
            for block in region.blocks:
                ops.extend(block.operations)
        if op is func_op or op.name in _SKIP or not len(op.results):
            continue
        prim = _Prim(op.name.split(".", 1)[1])
        avals = [_Aval(v.type) for v in op.operands]
        decisions.append(_decide(policy, prim, *avals, **_params(op)))
    for name in names:
        decisions.append(_decide(policy, _Prim("name"), name=name))
    return all(decisions)

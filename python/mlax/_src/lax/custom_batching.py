"""custom_vmap and sequential_vmap, as jax.custom_batching.

A `custom_vmap` function called in the function a `vmap` maps (directly: its
trace is the vmap's per-example one) runs its rule (`def_vmap`) on the
batched operands: `vmap` traces its function up to that call, batches the
call's operands with a vmap of that prefix, runs the rule, and traces the
function again with the rule's results as more arguments (see
`transforms.vmap._vmap_with_rules`). Nested vmaps run the rule of the
innermost; a rule that calls the function again meets the next vmap out, as
in JAX. A jit between the vmap and the call is inlined for it (the jit's
trace stops at the call and its function runs in the vmap's trace). Called
anywhere else — outside vmap, or inside a grad, a checkpoint or a
control-flow body that the vmap maps — it is the plain function
(batched op by op), and a call none of whose operands is batched is the
plain function too, as JAX's.

sequential_vmap lives in the lax layer because its rule is a `lax.map`.
"""
from __future__ import annotations

import functools
import inspect

from mlax._src.base.tree import registry
from mlax._src.core.tracing import _name_of
from mlax._src.lax import control_flow
from mlax._src.transforms import vmap as vmap_lib


class custom_vmap:
    """Like `jax.custom_batching.custom_vmap`: a function with a batching rule
    `rule(axis_size, in_batched, *args) -> (out, out_batched)` (`def_vmap`),
    used by `vmap` in place of batching the function op by op."""

    def __init__(self, fun):
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.vmap_rule = None

    def def_vmap(self, vmap_rule):
        self.vmap_rule = vmap_rule
        vmap_lib.rules_defined = True
        return vmap_rule

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return functools.partial(self, obj)

    def __call__(self, *args, **kwargs):
        if self.vmap_rule is None:
            raise AttributeError(
                f"No batching rule defined for custom_vmap function {_name_of(self.fun)} "
                "using def_vmap.")
        if kwargs:
            bound = inspect.signature(self.fun).bind(*args, **kwargs)
            bound.apply_defaults()
            args = bound.args
        p = vmap_lib.active_pass()
        if p is None:
            if vmap_lib.under_jit_in_pass():
                raise vmap_lib.InlineJit()
            return self.fun(*args)
        return p.call(self, args)


def sequential_vmap(f):
    """Like `jax.custom_batching.sequential_vmap`: a custom_vmap whose rule maps
    `f` over the batch one example at a time (a `lax.map`); unbatched
    arguments are passed to each call as they are."""
    f = custom_vmap(f)

    @f.def_vmap
    def rule(axis_size, in_batched, *args):
        del axis_size
        leaves, tree = registry.flatten(list(args))
        flags = registry.flatten(list(in_batched))[0]
        mapped = [x for x, b in zip(leaves, flags) if b]

        def to_map(mapped_args):
            it = iter(mapped_args)
            merged = [next(it) if b else x for x, b in zip(leaves, flags)]
            return f(*tree.unflatten(merged))

        out = control_flow.map(to_map, mapped)
        return out, registry.flatten(out)[1].unflatten(
            [True] * len(registry.flatten(out)[0]))
    return f

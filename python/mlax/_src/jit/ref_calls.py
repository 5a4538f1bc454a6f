"""jit calls with mutable array references (`mlax.ref`).

A jitted function given Refs, or closing over them, compiles to a program of
values: each Ref's value is an input and its final value an output, written
back into the Ref after the call. The program is a twin jit of the function
(the same options) keyed on the Refs' types and positions, never on their
values; the Refs it closes over are found by tracing (ref_state.RefsNeeded)
and kept on the Jitted, as JAX keeps a jaxpr's constants.
"""
from __future__ import annotations

from mlax._src.base.tree import registry
from mlax._src.core import ref_state
from mlax._src.core.refs import Ref


def has_refs(leaves) -> bool:
    return any(type(leaf) is Ref for leaf in leaves)


def _where(fun):
    code = getattr(getattr(fun, "__wrapped__", fun), "__code__", None)
    name = getattr(fun, "__name__", repr(fun))
    return f"{name} at {code.co_filename}:{code.co_firstlineno}" if code else name


def _twin(jitted):
    """The jit of the function on values: (closed-over Refs' values, the
    positions of the Ref arguments among the leaves, *args, **kwargs) ->
    (result, final values of the Ref arguments, of the closed-over Refs)."""
    twin = jitted._ref_twin
    if twin is not None:
        return twin
    fun, closed = jitted._fun, jitted._closed_refs

    def on_values(closed_values, positions, *args, **kwargs):
        leaves, tree = registry.flatten((args, kwargs))
        boxes = []
        for i in positions:
            boxes.append(Ref(leaves[i], leaves[i].aval))
            leaves[i] = boxes[-1]
        args, kwargs = tree.unflatten(leaves)
        with ref_state.bound(closed, closed_values):
            out = fun(*args, **kwargs)
            closed_finals = [r._value for r in closed]
        for leaf in registry.flatten(out)[0]:
            if isinstance(leaf, Ref):
                origin = ("was passed in as an argument" if any(leaf is b for b in boxes)
                          else "was created inside it")
                raise ValueError(
                    f"function {_where(fun)} traced for jit returned a mutable array "
                    f"reference of type {leaf.aval}, but mutable array references cannot "
                    f"be returned.\n\nThe returned mutable array {origin}.")
        return out, [b._value for b in boxes], closed_finals

    on_values.__name__ = getattr(fun, "__name__", "fn")
    on_values.__wrapped__ = fun
    twin = jitted._ref_twin = type(jitted)(
        on_values, static_argnums=(1,) + tuple(i + 2 for i in jitted._static_argnums),
        static_argnames=jitted._static_argnames)
    twin._ref_twin = False  # (marks it as a twin)
    return twin


def call(jitted, args, kwargs):
    """`jitted(*args, **kwargs)` outside any trace, with Refs among the
    arguments or closed over."""
    leaves, _ = registry.flatten((args, kwargs))
    positions = tuple(i for i, leaf in enumerate(leaves) if type(leaf) is Ref)
    arg_refs = [leaves[i] for i in positions]
    where = _where(jitted._fun)
    for k, ref in enumerate(arg_refs):
        if any(ref is other for other in arg_refs[:k]):
            raise ValueError(
                "only one reference to a mutable array may be passed as an argument to a "
                f"function, but when tracing {where} for jit the mutable array reference "
                f"of type {ref.aval} appeared at two argument positions.")
    while True:
        closed = jitted._closed_refs
        for ref in closed:
            if any(ref is a for a in arg_refs):
                raise ValueError(
                    f"when tracing {where} for jit, a mutable array reference of type "
                    f"{ref.aval} was both closed over and passed as an argument")
        values = list(leaves)
        for i in positions:
            values[i] = ref_state.read(values[i])
        args_v, kwargs_v = registry.flatten((args, kwargs))[1].unflatten(values)
        try:
            out, arg_finals, closed_finals = _twin(jitted)(
                [ref_state.read(r) for r in closed], positions, *args_v, **kwargs_v)
        except ref_state.RefsNeeded as e:
            closed.extend(r for r in e.refs if all(r is not c for c in closed))
            continue
        ref_state.write_back(arg_refs, arg_finals)
        ref_state.write_back(closed, closed_finals)
        return out

"""jit calls with mutable array references (`mlax.ref`).

A jitted function given Refs, or closing over them, compiles to a program of
values: each Ref's value is an input and its final value an output, written
back into the Ref after the call. The program is a twin jit of the function
(the same options) keyed on the Refs' types and positions, never on their
values; the Refs it closes over are found by tracing (ref_state.RefsNeeded)
and kept on the Jitted, as JAX keeps a jaxpr's constants.
"""
from __future__ import annotations

import inspect

from mlax._src.base.tree import keystr, registry
from mlax._src.core import ref_state
from mlax._src.core.tracing import _leaf_aval, function_where
from mlax._src.core.refs import Ref, returned_error


def has_refs(leaves) -> bool:
    return any(type(leaf) is Ref for leaf in leaves)


def _is_ref_or_type(leaf) -> bool:
    return type(leaf) is Ref or isinstance(leaf, ref_state.AbstractRef)


def has_ref_types(leaves) -> bool:
    """Whether there are Refs, or Ref types (AbstractRef, where a function is
    traced on types only), among `leaves`."""
    return any(_is_ref_or_type(leaf) for leaf in leaves)


def type_of(leaf):
    """An argument leaf's type: a Ref's (AbstractRef), an AbstractRef's
    own, an array's aval."""
    if type(leaf) is Ref:
        return leaf.aval
    if isinstance(leaf, ref_state.AbstractRef):
        return leaf
    return _leaf_aval(leaf)


def _arg_names(fun, args, kwargs):
    """A name for each leaf of (args, kwargs), as JAX's errors give them:
    the parameter's name and the path inside it (`d['x']`, `args[0]`)."""
    try:
        params = list(inspect.signature(fun).parameters.values())
    except (TypeError, ValueError):
        params = []
    names = []
    for path, _ in registry.flatten_with_path((tuple(args), kwargs))[0]:
        where, key, rest = path[0].idx, path[1], path[2:]
        if where == 0:
            i = key.idx
            p = next((j for j, q in enumerate(params) if q.kind == q.VAR_POSITIONAL), None)
            if p is not None and i >= p:
                head = f"{params[p].name}[{i - p}]"
            else:
                head = params[i].name if i < len(params) else f"args[{i}]"
        else:
            head = key.key
        names.append(head + keystr(rest))
    return names


def _on_values(fun, closed, closed_values, positions, args, kwargs):
    """`fun(*args, **kwargs)` with the leaves at `positions` (values) as
    fresh Refs and the closed-over Refs `closed` holding `closed_values`:
    (result, final values of the Ref arguments, of the closed-over Refs),
    None for a Ref not written."""
    leaves, tree = registry.flatten((args, kwargs))
    boxes, initial = [], [leaves[i] for i in positions]
    for i in positions:
        boxes.append(Ref(leaves[i], leaves[i].aval))
        leaves[i] = boxes[-1]
    args, kwargs = tree.unflatten(leaves)
    with ref_state.bound(closed, closed_values):
        out = fun(*args, **kwargs)
        # (None: not written)
        closed_finals = [None if r._value is v else r._value
                         for r, v in zip(closed, closed_values)]
    for leaf in registry.flatten(out)[0]:
        if isinstance(leaf, Ref):
            k = next((k for k, b in enumerate(boxes) if leaf is b), None)
            origin = ("was created inside it" if k is None else
                      "was passed in as the argument "
                      + _arg_names(fun, args, kwargs)[positions[k]])
            raise returned_error(fun, "jit", leaf, origin)
    return out, [None if b._value is v else b._value for b, v in zip(boxes, initial)], \
        closed_finals


def _twin(jitted):
    """The jit of the function on values: (closed-over Refs' values, the
    positions of the Ref arguments among the leaves, *args, **kwargs) ->
    (result, final values of the Ref arguments, of the closed-over Refs)."""
    twin = jitted._ref_twin
    if twin is not None:
        return twin
    fun, closed = jitted._fun, jitted._closed_refs

    def on_values(closed_values, positions, *args, **kwargs):
        return _on_values(fun, closed, closed_values, positions, args, kwargs)

    on_values.__name__ = getattr(fun, "__name__", "fn")
    on_values.__wrapped__ = fun
    twin = jitted._ref_twin = type(jitted)(
        on_values, static_argnums=(1,) + tuple(i + 2 for i in jitted._static_argnums),
        static_argnames=jitted._static_argnames)
    twin._ref_twin = False  # (marks it as a twin)
    return twin


def _check_arg_refs(jitted, args, kwargs, positions, arg_refs):
    """JAX's errors for a Ref passed twice, or both passed and closed over."""
    where = function_where(jitted._fun)
    for k, ref in enumerate(arg_refs):
        first = next((j for j in range(k) if arg_refs[j] is ref), None)
        if first is not None:
            names = _arg_names(jitted._fun, args, kwargs)
            raise ValueError(
                "only one reference to a mutable array may be passed as an argument to a "
                f"function, but when tracing {where} for jit the mutable array reference "
                f"of type {ref.aval} appeared at both {names[positions[first]]} and "
                f"{names[positions[k]]}.")
        if any(ref is c for c in jitted._closed_refs):
            names = _arg_names(jitted._fun, args, kwargs)
            raise ValueError(
                f"when tracing {where} for jit, a mutable array reference of type "
                f"{ref.aval} was both closed over and passed as the argument "
                f"{names[positions[k]]}")


class RefStruct:
    """The type of a Ref's value standing for the Ref (as a ShapeDtypeStruct
    for an array), where a function is traced (not run) on its Refs' types:
    make_jaxpr, eval_shape, lower."""

    __slots__ = ("aval",)
    sharding = None

    def __init__(self, ref):
        self.aval = ref.inner_aval if isinstance(ref, ref_state.AbstractRef) else ref._aval

    shape = property(lambda self: self.aval.shape)
    dtype = property(lambda self: self.aval.dtype)


def abstract(jitted, args, kwargs, trace):
    """`trace(twin, twin_args, twin_kwargs, refs)`: the function traced on the
    types of the Refs it takes or closes over, as the twin jit (see `_twin`)
    with RefStructs for the Refs' values, never reading or writing them
    (make_jaxpr, eval_shape, Jitted.trace and lower). `refs`: what
    `split_results` needs. The closed-over Refs are found by tracing."""
    leaves, tree = registry.flatten((args, kwargs))
    positions = tuple(i for i, leaf in enumerate(leaves) if _is_ref_or_type(leaf))
    arg_refs = [leaves[i] for i in positions]
    structs = list(leaves)
    for i in positions:
        structs[i] = RefStruct(leaves[i])
    args_v, kwargs_v = tree.unflatten(structs)
    closed = jitted._closed_refs
    boxes = [i for i in positions if type(leaves[i]) is Ref]  # (not AbstractRefs)
    while True:
        _check_arg_refs(jitted, args, kwargs, boxes, [leaves[i] for i in boxes])
        refs = RefsOfCall(arg_refs, list(closed), positions)
        try:
            return trace(_twin(jitted), ([RefStruct(r) for r in closed], positions)
                         + tuple(args_v), kwargs_v, refs)
        except ref_state.RefsNeeded as e:
            closed.extend(r for r in e.refs if all(r is not c for c in closed))


class RefsOfCall:
    """The Refs of one call of a function on Refs: those passed (at leaf
    `positions` of its arguments) and those closed over; the twin's
    results are (result, finals of `args`, finals of `closed`)."""

    def __init__(self, args, closed, positions):
        self.args, self.closed, self.positions = args, closed, positions
        # (the arguments' types: a Ref's, or the AbstractRef given)
        self.arg_types = [r.aval if type(r) is Ref else r for r in args]

    def split_results(self, out_tree, out_avals):
        """(the result's tree and avals, the indices among the twin's results
        of the final values of each of `args` + `closed`)."""
        index = out_tree.unflatten(list(range(len(out_avals))))
        user, arg_finals, closed_finals = index
        leaves, user_tree = registry.flatten(user)
        return user_tree, [out_avals[i] for i in leaves], list(arg_finals) + list(closed_finals)

    def run(self, executable, leaves):
        """`executable` (the twin's, compiled) on the arguments' `leaves`
        (their Refs in the order compiled): reads the Refs, writes back their final
        values, returns the result."""
        values = list(leaves)
        at = [i for i, leaf in enumerate(leaves) if type(leaf) is Ref]
        types = [leaves[i].aval for i in at]
        if types != self.arg_types:
            raise TypeError(
                "Argument types differ from the types for which this computation was "
                f"compiled: mutable array references {self.arg_types} compiled, "
                f"called with {types}")
        for i in at:
            values[i] = ref_state.read(leaves[i])
        arg_refs = [leaves[i] for i in at]
        out, arg_finals, closed_finals = executable(
            [ref_state.read(r) for r in self.closed] + values)
        ref_state.write_back(arg_refs, arg_finals)
        ref_state.write_back(self.closed, closed_finals)
        return out


def call(jitted, args, kwargs):
    """`jitted(*args, **kwargs)` outside any trace, with Refs among the
    arguments or closed over."""
    leaves, _ = registry.flatten((args, kwargs))
    positions = tuple(i for i, leaf in enumerate(leaves) if type(leaf) is Ref)
    arg_refs = [leaves[i] for i in positions]
    while True:
        closed = jitted._closed_refs
        _check_arg_refs(jitted, args, kwargs, positions, arg_refs)
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

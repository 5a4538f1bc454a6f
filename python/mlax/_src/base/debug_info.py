"""Names for error messages and cache-miss explanations: which function is
being traced, what each flat argument is called (`x`, `params['W']`,
`args[0]`), and which arguments a traced value depends on.

Nothing here runs on the hot path: argument names are computed when an
error or an explanation needs them, and a tracer's dependencies are found
by walking the MLIR def-use chain back to the function's block arguments.
"""
from __future__ import annotations

import inspect
import re

from mlir import ir

from mlax._src.base.tree import registry


def fun_name(fun) -> str:
    return getattr(fun, "__name__", None) or type(fun).__name__


def fun_source(fun) -> str:
    """`file:line` where `fun` is defined, or '<unknown>'."""
    code = getattr(inspect.unwrap(fun), "__code__", None)
    if code is None:
        return "<unknown>"
    return f"{code.co_filename}:{code.co_firstlineno}"


class _Marker:
    __slots__ = ("i",)

    def __init__(self, i):
        self.i = i


def arg_names(fun, args_tree, rebuild) -> list[str]:
    """The name of each flat (dynamic) argument leaf of a call of `fun`."""
    n = args_tree.num_leaves
    try:
        args, kwargs = rebuild(args_tree.unflatten([_Marker(i) for i in range(n)]))
    except Exception:  # noqa: BLE001 (a name is a nicety; never fail on it)
        return [f"flat argument {i}" for i in range(n)]
    names = [f"flat argument {i}" for i in range(n)]
    try:
        params = list(inspect.signature(fun).parameters.values())
    except (TypeError, ValueError):
        params = []
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    var_pos = next((p.name for p in params if p.kind == p.VAR_POSITIONAL), None)
    var_kw = next((p.name for p in params if p.kind == p.VAR_KEYWORD), None)

    def record(base, value):
        for path, leaf in registry.flatten_with_path(value)[0]:
            if isinstance(leaf, _Marker):
                names[leaf.i] = base + "".join(str(k) for k in path)

    for i, a in enumerate(args):
        if i < len(positional):
            base = positional[i].name
        elif var_pos is not None:
            base = f"{var_pos}[{i - len(positional)}]"
        else:
            base = f"args[{i}]"
        record(base, a)
    named = {p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    for k, v in kwargs.items():
        record(k if k in named or var_kw is None else f"{var_kw}[{k!r}]", v)
    return names


def _join(names: list[str]) -> str:
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


# A file location, also inside a name (mlax.named_scope): loc("a/b"("f.py":3:0)).
_LOC = re.compile(r'"([^"]+)":(\d+):\d+\)')


def location_of(op) -> str | None:
    match = _LOC.search(str(op.location))
    return f"{match.group(1)}:{match.group(2)}" if match else None


# Any file location: the first of a call site's is its callee's, the innermost.
_FRAME = re.compile(r'"([^"]+)":(\d+):\d+')


def innermost_location_of(op) -> str | None:
    """`file:line` of the innermost frame of `op`'s location, or None."""
    match = _FRAME.search(str(op.location))
    return f"{match.group(1)}:{match.group(2)}" if match else None


def _dependencies(tracer, budget=100_000):
    """(argument numbers of the trace's block that `tracer` depends on,
    ops on the way), by walking operands back from its SSA value."""
    block = tracer.trace.block
    args, ops = set(), []
    stack, seen = [tracer.value], set()
    while stack and budget:
        budget -= 1
        v = stack.pop()
        owner = v.owner
        if isinstance(owner, ir.Block):
            if owner == block:
                args.add(ir.BlockArgument(v).arg_number)
            continue
        op = owner.operation if hasattr(owner, "operation") else owner
        key = op.__hash__() if hasattr(op, "__hash__") else id(op)
        if key in seen:
            continue
        seen.add(key)
        ops.append(op)
        stack.extend(op.operands)
    return args, ops


def purpose(trace) -> str:
    """What a function is traced for, as the user called it: "jit" when a
    jit encloses the trace, else the transformation called outside jit; a
    control-flow body or a checkpointed function is traced for that (as JAX
    names it: "scan", "cond", "while_body", "checkpoint / remat")."""
    traced_for = getattr(trace, "traced_for", None)
    if traced_for:
        return traced_for
    root = trace
    while root.parent is not None:
        root = root.parent
    if root.transform is None:
        return "jit"
    return trace.transform


def tracing_context(tracer) -> str:
    """JAX's 'The error occurred while tracing the function f at file:line
    for jit. ... depends on the value of the argument x.'"""
    trace = getattr(tracer, "trace", None)
    debug = getattr(trace, "debug", None)
    if debug is None:
        return ""
    fun, args_tree, rebuild = debug
    head = (f"The error occurred while tracing the function {fun_name(fun)} at "
            f"{fun_source(fun)} for {purpose(trace)}.")
    if not trace.alive:
        # Its IR has since been lowered: the SSA value must not be touched.
        return head
    try:
        arg_numbers, ops = _dependencies(tracer)
    except Exception:  # noqa: BLE001
        return head
    n = args_tree.num_leaves
    own = sorted(a for a in arg_numbers if a < n)
    if own:
        names = arg_names(fun, args_tree, rebuild)
        picked = list(dict.fromkeys(names[a] for a in own))
        what = (f"the value of the argument {picked[0]}" if len(picked) == 1
                else f"the values of the arguments {_join(picked)}")
        return (f"{head} This concrete value was not available in Python because it "
                f"depends on {what}.")
    if arg_numbers:
        return (f"{head} This concrete value was not available in Python because it "
                "depends on a value of an enclosing traced function.")
    lines = []
    for op in reversed(ops[:5]):
        where = location_of(op)
        lines.append(f"\n  operation {op.name}" + (f"\n    from line {where}" if where else ""))
    return (f"{head} This value became a tracer due to mlax operations on these lines:\n"
            + "\n".join(lines))


def created_at(tracer) -> str | None:
    """The user's line that created a traced value (from its op's location)."""
    if not tracer.trace.alive:
        return None  # its IR has since been lowered
    owner = getattr(tracer.value, "owner", None)
    if owner is None or isinstance(owner, ir.Block):
        return None
    return location_of(owner)

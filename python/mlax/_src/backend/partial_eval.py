"""Splitting a lowered program at its late arguments: partial evaluation.

An eager `vjp` traces the forward and the backward pass as one program,
`main(primals, cotangents) -> (outputs, input cotangents)`, so the passes
see and simplify both together. JAX runs the forward when `vjp` is called
and only the backward when the pullback is: the forward's side effects
(`debug.print`, callbacks) happen once, and the pullback does not redo the
forward's work. `split` gives mlax the same: it cuts the lowered StableHLO
module into

    forward(early arguments) -> (early results, residuals)
    backward(residuals, late arguments) -> late results

An op belongs to the backward when it depends, through its operands or the
values its regions use, on a late argument; every other op belongs to the
forward. The residuals are the forward's values the backward uses
(constants are copied instead). It is JAX's partial evaluation with known
primals and unknown cotangents, done on the final program, so it holds for
every op and pass without a rule of its own.
"""
from __future__ import annotations

from mlir import ir

from mlax._src.base.debug_info import innermost_location_of



class NotSplittable(Exception):
    """The program cannot be cut (a token or other non-tensor residual, or
    an early result that depends on a late argument)."""


def _main(module):
    for op in module.body.operations:
        if op.operation.name == "func.func" and op.attributes["sym_name"].value == "main":
            return op
    raise NotSplittable("no @main")


def _used_values(op, out):
    """Appends every operand of `op` and of the ops nested in its regions."""
    out.extend(op.operands)
    for region in op.regions:
        for block in region.blocks:
            for inner in block.operations:
                _used_values(inner.operation, out)
    return out


def _partition(main, n_early_args, n_early_results):
    """(`main`'s top-level ops, the terminator last; the indices of those
    that go to the backward; the values each of the others uses; the values
    that depend on a late argument).

    An op goes to the backward when it depends on a late argument, or is an
    optimization barrier the early results do not need (a checkpointed
    function's recomputation starts at one: what depends on it is recomputed
    by the backward, as JAX's remat does, instead of saved), or depends on
    one that goes there."""
    block = main.regions[0].blocks[0]
    late = set(list(block.arguments)[n_early_args:])
    ops = [op.operation for op in block.operations]
    uses = [_used_values(op, []) for op in ops[:-1]]  # the terminator last
    barriers_late = _barriers_not_needed_early(ops, uses, n_early_results)
    backward = set()
    for i, op in enumerate(ops[:-1]):
        if i in barriers_late or any(v in late for v in uses[i]):
            backward.add(i)
            late.update(op.results)
    return ops, backward, uses, late


def _barriers_not_needed_early(ops, uses, n_early_results):
    """The indices of the optimization barriers among `ops` that no early
    result (the first `n_early_results` operands of the terminator) depends
    on."""
    barriers = [i for i, op in enumerate(ops[:-1]) if op.name == "stablehlo.optimization_barrier"]
    if not barriers:
        return set()
    defined_by = {r: i for i, op in enumerate(ops[:-1]) for r in op.results}
    needed, stack = set(), list(ops[-1].operands)[:n_early_results]
    while stack:
        i = defined_by.get(stack.pop())
        if i is not None and i not in needed:
            needed.add(i)
            stack.extend(uses[i])
    return {i for i in barriers if i not in needed}


def _analyse(mod, n_early_args, n_early_results):
    """(main, its ops, the indices of the backward's ops, the residuals, the
    forward's constants) of the lowered module `mod`."""
    main = _main(mod)
    ops, backward, uses, late = _partition(main, n_early_args, n_early_results)
    ret = ops[-1]
    results = list(ret.operands)
    if any(v in late for v in results[:n_early_results]):
        raise NotSplittable("an early result depends on a late argument")
    block = main.regions[0].blocks[0]
    forward_defined = set(list(block.arguments)[:n_early_args])
    constants = set()
    for i, op in enumerate(ops[:-1]):
        if i not in backward:
            forward_defined.update(op.results)
            if op.name == "stablehlo.constant":
                constants.update(op.results)
    residuals, seen = [], set()
    needed = [v for i in sorted(backward) for v in uses[i]] + results[n_early_results:]
    for v in needed:
        if v in forward_defined and v not in constants and v not in seen:
            seen.add(v)
            residuals.append(v)
    return main, ops, backward, residuals, constants


def residual_sources(module: ir.Module, n_early_args: int, n_early_results: int):
    """What `split` would pass from the forward to the backward, without
    cutting: [(type, source)] in the forward's order, a source being
    ("argument", i) for the forward's argument i or ("op", name, "file:line"
    or None) for an op's result."""
    _, ops, _, residuals, _ = _analyse(module, n_early_args, n_early_results)
    order = {op.operation: i for i, op in enumerate(ops)}
    out = []
    for v in residuals:
        owner = v.owner
        if isinstance(owner, ir.Block):
            number = ir.BlockArgument(v).arg_number
            out.append((-1, number, v.type, ("argument", number)))
        else:
            op = owner.operation
            out.append((order.get(op, len(ops)), 0, v.type,
                        ("op", op.name, innermost_location_of(op))))
    out.sort(key=lambda e: e[:2])
    return [(ty, source) for _, _, ty, source in out]


def split(module: ir.Module, n_early_args: int, n_early_results: int):
    """Cuts the lowered `module` (parsed twice from its text: the original is
    left as it is). Returns (forward module, backward module, residual types).

    forward takes @main's first `n_early_args` arguments and returns @main's
    first `n_early_results` results followed by the residuals; backward takes
    the residuals followed by @main's other arguments and returns @main's
    other results. Raises NotSplittable when the cut is not possible."""
    text = module.operation.get_asm(enable_debug_info=True)
    ctx = module.context

    with ctx:
        fwd = ir.Module.parse(text)
        main, ops, backward, residuals, _ = _analyse(fwd, n_early_args, n_early_results)
        for v in residuals:
            if not str(v.type).startswith("tensor<"):
                raise NotSplittable(f"a residual of type {v.type}")
        res_types = [v.type for v in residuals]
        block = main.regions[0].blocks[0]
        ret = ops[-1]
        early = list(ret.operands)[:n_early_results]
        with ir.InsertionPoint(ret), ret.location:
            new_ret = ir.Operation.create("func.return", operands=early + residuals)
        ret.erase()
        for i in sorted(backward, reverse=True):
            ops[i].erase()
        n_args = len(block.arguments)
        for i in reversed(range(n_early_args, n_args)):
            block.erase_argument(i)
        _retype(main, block, [v.type for v in new_ret.operands])

        bwd = ir.Module.parse(text)
        main, ops, backward, residuals, constants = _analyse(bwd, n_early_args, n_early_results)
        block = main.regions[0].blocks[0]
        ret = ops[-1]
        res_args = [block.add_argument(v.type, v.location) for v in residuals]
        for v, arg in zip(residuals, res_args):
            v.replace_all_uses_with(arg)
        # The backward's results, with forward values replaced by residuals.
        late_results = list(ret.operands)[n_early_results:]
        with ir.InsertionPoint(ret), ret.location:
            new_ret = ir.Operation.create("func.return", operands=late_results)
        ret.erase()
        # Forward ops go, last first (constants the backward uses stay).
        for i in reversed(range(len(ops) - 1)):
            if i in backward:
                continue
            op = ops[i]
            if any(True for r in op.results for _ in r.uses):
                if op.name == "stablehlo.constant":
                    continue
                raise NotSplittable(f"{op.name} of the forward is still used")
            op.erase()
        # Arguments: the early ones go; the residuals move to the front.
        for i in reversed(range(n_early_args)):
            if any(True for _ in block.arguments[i].uses):
                raise NotSplittable("an early argument is still used")
            block.erase_argument(i)
        _move_to_front(block, len(res_args))
        _retype(main, block, [v.type for v in new_ret.operands])
    return fwd, bwd, res_types


def _move_to_front(block, n_last):
    """Moves the last `n_last` arguments of `block` before the others (new
    arguments are added in the order wanted, their uses moved over)."""
    args = list(block.arguments)
    n_first = len(args) - n_last
    order = args[n_first:] + args[:n_first]
    fresh = [block.add_argument(a.type, ir.Location.unknown()) for a in order]
    for old, new in zip(order, fresh):
        old.replace_all_uses_with(new)
    for i in reversed(range(len(args))):
        block.erase_argument(i)


def _retype(main, block, result_types):
    for attr in ("arg_attrs", "res_attrs", "mlax.kept_arguments"):
        if attr in main.attributes:
            del main.attributes[attr]
    main.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(
        [a.type for a in block.arguments], result_types))

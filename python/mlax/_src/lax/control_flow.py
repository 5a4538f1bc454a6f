"""Structured control flow: cond, switch, while_loop, fori_loop, scan, map,
platform_dependent.

Each function traces its Python callables into the regions of one mlax op
(`mlax.cond`, `mlax.while`, `mlax.scan`). A region is traced like a nested
jit: into a scratch func.func whose block then moves into the op's region.
Traced values a region closes over become extra block arguments, and the op
passes them in (cond: extra operands; while: extra loop state carried through
unchanged; scan: `consts`). Outside any trace, the op is compiled and run as
a program of its own, as JAX runs lax.cond eagerly.
"""
from __future__ import annotations

import functools
import operator

import numpy as np
from mlir import ir
from mlir.dialects import func as func_d

from mlax._src.core import tracer as core
from mlax._src.base import dtypes
from mlax._src.base import errors
from mlax._src.backend import runtime
from mlax._src.core import key_reuse, primitives, ref_state, tracing
from mlax._src.core.refs import Ref, returned_error
from mlax._src.core.tracing import _run
from mlax._src.transforms import vmap as vmap_lib
from mlax._src.lax import lax
from mlax._src.core.tracer import ShapedArray, Trace, Tracer
from mlax._src.base.tree import registry, tree_flatten, tree_unflatten
from mlax._src.lax.lax import add, bitwise_or, concatenate, pad, rev, slice_in_dim
from mlax._src.core.primitives import aval_of, shape_error


def _plain_rebuild(dyn):
    return dyn[0], dyn[1]


# ---------------------------------------------------------------------------
# Tracing a Python callable into a region
# ---------------------------------------------------------------------------

class _Region:
    """`fun` traced on `in_avals` into a block that a control-flow op adopts.

    The block's arguments are the inputs followed by one argument per
    captured tracer; `captured` is shared by the regions of one op so that
    every region takes the same captures in the same order.
    """

    _count = 0

    def __init__(self, outer: Trace, fun, in_tree, in_avals, captured, name,
                 traced_for=None, debug=None):
        """`traced_for`: what errors say `fun` is traced for ("scan", "cond");
        `debug`: (the user's function, f(flat inputs) -> its (args, kwargs))
        where `fun` wraps it, so that errors name it and its arguments."""
        self.in_avals = tuple(in_avals)
        module = outer.module
        user_fun = debug[0] if debug else fun
        with module.context, ir.Location.unknown():
            with ir.InsertionPoint(module.body), tracing._fun_location(user_fun):
                _Region._count += 1
                self._scratch = func_d.FuncOp(
                    f"__mlax_region_{name}_{_Region._count}",
                    ir.FunctionType.get([a.mlir_type() for a in in_avals], []))
                self._scratch.attributes["sym_visibility"] = ir.StringAttr.get("private")
            self.block = self._scratch.add_entry_block()
            trace = Trace(module, self._scratch, self.block, parent=outer)
            trace.traced_for = traced_for
            for t in captured:  # the captures of regions traced before
                trace.captures[id(t)] = (t, self.block.add_argument(
                    t.aval.mlir_type(), ir.Location.unknown()))
            self.trace = trace
            try:
                values, self.out_avals, self.out_tree = tracing._trace_into(
                    trace, fun, in_tree, in_avals, list(self.block.arguments), _plain_rebuild,
                    debug=debug and (debug[0], in_tree,
                                     lambda dyn, user=debug[1]: user(list(dyn[0]))))
            except BaseException:
                self._scratch.operation.erase()
                raise
            self.values = values
            for t, _ in list(trace.captures.values()):
                if all(t is not c for c in captured):
                    captured.append(t)

    def finish(self, captured, extra=()):
        """Adds arguments for captures found after this region was traced
        and ends the block with mlax.yield of its outputs (and `extra`, a
        callable giving more values from the completed block)."""
        with self.trace.module.context, ir.Location.unknown():
            have = len(self.block.arguments) - len(self.in_avals)
            for t in captured[have:]:
                self.block.add_argument(t.aval.mlir_type(), ir.Location.unknown())
            values = list(self.values) + (list(extra(self)) if callable(extra) else [])
            with ir.InsertionPoint(self.block):
                primitives._ops().YieldOp(values)

    def capture_args(self):
        return list(self.block.arguments)[len(self.in_avals):]

    def move_to(self, region):
        self.block.append_to(region)
        self._scratch.operation.erase()

    def discard(self):
        self._scratch.operation.erase()


def _avals_of(leaves):
    return tuple(tracing._leaf_aval(leaf) for leaf in leaves)


def _tree_of(leaves):
    return registry.flatten((tuple(leaves), {}))[1]


def _match(what_a, what_b, tree_a, avals_a, tree_b, avals_b, context):
    """TypeError unless two outputs have one pytree structure and equal types
    (weak types aside), naming both, as JAX's messages do."""
    if tree_a != tree_b:
        raise TypeError(f"{context}: {what_a} and {what_b} must have the same pytree "
                        f"structure, got {tree_a} and {tree_b}.")
    diffs = []
    for i, (a, b) in enumerate(zip(avals_a, avals_b)):
        if a.shape != b.shape or a.dtype != b.dtype:
            diffs.append(f"  * output leaf {i}: {what_a} has type {a.str_short()} but "
                         f"{what_b} has type {b.str_short()}")
    if diffs:
        raise TypeError(f"{context}: {what_a} and {what_b} must have identical types "
                        f"(shapes and dtypes), but they differ:\n" + "\n".join(diffs)
                        + f"\n(at {core.user_location_str()})")


def _weak_join(*aval_lists):
    """Output avals of several regions: weak only where all are weak."""
    return [a.update(weak_type=all(x.weak_type for x in col))
            for a, col in zip(aval_lists[0], zip(*aval_lists))]


def _result_tracers(op, avals, trace):
    return [Tracer(r, a, trace) for r, a in zip(op.results, avals)]


def _check_callable(name, **funs):
    for arg, f in funs.items():
        if not callable(f):
            raise TypeError(f"{name}: {arg} must be callable, got {f!r}")


# ---------------------------------------------------------------------------
# cond / switch
# ---------------------------------------------------------------------------

def _emit_cond(index, branches, operands, name):
    """mlax.cond of `branches` (callables) on `operands` (a tuple), inside the
    current trace; `index` is an int32 scalar (tracer or constant)."""
    outer = core.current_trace()
    leaves, in_tree = registry.flatten((tuple(operands), {}))
    in_avals = _avals_of(leaves)
    captured = []
    regions = []
    observed = []  # checkify's checks in the branches: extra outputs

    def observing(fun):
        @functools.wraps(fun)  # (errors and locations name the user's function)
        def branch(*args):
            observed.append(primitives.ObservedCall())
            return observed[-1](fun, *args)
        return branch

    # Key-reuse checks: the branches are alternatives (each may consume what
    # the others do); the operands' keys any of them consumes are consumed.
    alternatives = key_reuse.Alternatives() if key_reuse.enabled() else None
    try:
        for i, fun in enumerate(branches):
            if alternatives is None:
                regions.append(_Region(outer, observing(fun), in_tree, in_avals, captured,
                                       f"{name}{i}", traced_for=name))
                continue
            recorded, found = key_reuse.recording(fun)
            with alternatives.branch():
                regions.append(_Region(outer, observing(recorded), in_tree, in_avals,
                                       captured, f"{name}{i}", traced_for=name))
            alternatives.signatures.append(found[-1])
        if alternatives is not None:
            alternatives.join(key_reuse.keys_in((tuple(operands), {})))
    except BaseException:
        for r in regions:
            r.discard()
        raise
    first = regions[0]
    try:
        for i, r in enumerate(regions[1:], 1):
            what_a, what_b = (("false_fun output", "true_fun output") if name == "cond"
                              else (f"branch 0 output", f"branch {i} output"))
            _match(what_a, what_b, first.out_tree, first.out_avals, r.out_tree, r.out_avals,
                   f"lax.{name}")
    except BaseException:
        for r in regions:
            r.discard()
        raise
    out_avals = _weak_join(*[r.out_avals for r in regions])
    first_observed = primitives.ObservedCall.join(observed)
    # (the branches' traces have ended: their tracers' avals are read as they are)
    extra = [[aval_of(leaf) for leaf in o.leaves] for o in observed]
    extra_avals = _weak_join(*extra)
    for r, o, avals in zip(regions, observed, extra):
        r.finish(captured, extra=lambda r, o=o, avals=avals: [
            primitives.to_value(r.trace, leaf, aval) for leaf, aval in zip(o.leaves, avals)])
    n_out = len(out_avals)
    out_avals = list(out_avals) + list(extra_avals)
    index_aval = ShapedArray((), np.int32)
    operands_v = [primitives.to_value(outer, l, a) for l, a in zip(leaves, in_avals)]
    operands_v += [outer.value_of(t) for t in captured]
    ops = primitives._ops()
    with outer.ip, core.user_location():
        idx = primitives.to_value(outer, index, index_aval)
        op = ops.CondOp([a.mlir_type() for a in out_avals], idx, operands_v, len(regions))
    for region, r in zip(op.regions, regions):
        r.move_to(region)
    results = _result_tracers(op, out_avals, outer)
    first_observed.hand_back(results[n_out:])
    return first.out_tree.unflatten(results[:n_out])


def _in_loop(region_fun, what):
    """`region_fun` (a loop region's, on flat leaves) traced as the loop body
    `what`: consuming a key made outside it (not one its arguments are
    rebuilt into) raises KeyReuseError, as it would be consumed again on
    every iteration."""
    if not key_reuse.enabled():
        return region_fun

    @functools.wraps(region_fun)
    def in_loop(*args):
        with key_reuse.loop_body(what):
            return region_fun(*args)

    return in_loop


def _consume_carried(what, signature, n_carry, init):
    """Checks a loop body's signature (the carried keys it consumes come back
    fresh) and consumes the initial carry's keys it consumes."""
    key_reuse.check_carry(what, signature, n_carry)
    sinks = {i: m for i, m in signature.sinks.items() if i < n_carry}
    consumed = key_reuse.Signature(sinks, {})
    carried = key_reuse.keys_in(init)
    consumed.check(carried, what.split()[0], traced=True)
    consumed.update(carried, {})


def _scalar_index_check(name, x, what):
    if x is None:
        raise TypeError(f"{name} {what} is None")
    if isinstance(x, (list, tuple)) or np.ndim(x) != 0:
        shape = np.shape(x) if not isinstance(x, Tracer) else x.shape
        raise TypeError(f"{what.capitalize()} must be a scalar, got {x!r} of shape {shape}.")


def cond(pred, true_fun, false_fun, *operands, operand=None):
    """`true_fun(*operands)` if `pred` else `false_fun(*operands)`, as one
    `mlax.cond` op: both branches are traced, one runs."""
    if operand is not None:
        raise TypeError("lax.cond: the `operand` keyword is not supported; pass the "
                        "operands positionally: cond(pred, true_fun, false_fun, *operands)")
    _check_callable("lax.cond", true_fun=true_fun, false_fun=false_fun)
    if pred is None:
        raise TypeError("cond predicate is None")
    if isinstance(pred, (list, tuple)) or np.ndim(pred) != 0:
        raise TypeError(f"Pred must be a scalar, got {pred!r} of "
                        + (f"type {type(pred)}" if isinstance(pred, (list, tuple))
                           else f"shape {np.shape(pred) if not isinstance(pred, Tracer) else pred.shape}."))
    pred_dtype = primitives.aval_of(pred).dtype
    if pred_dtype.kind not in "biuf":  # (a number is true where nonzero, as JAX's)
        raise TypeError(f"Pred type must be either boolean or number, got {pred_dtype}.")

    (false_fun, true_fun), operands = _close_over_refs((false_fun, true_fun), operands)

    def emit(refs):
        branches = (false_fun, true_fun)
        if refs:
            branches = tuple(ref_state.threaded(b, refs) for b in branches)

        def traced(pred, *ops):
            p = pred if pred_dtype.kind == "b" else lax.ne(pred, np.zeros((), pred_dtype))
            index = lax.convert_element_type(p, np.int32)
            return _emit_cond(index, branches, ops, "cond")

        return _with_ref_operands(refs, lambda ops: _run(traced, "cond", (pred, *ops)),
                                  operands)

    return ref_state.threading_refs(emit)


def switch(index, branches, *operands, operand=None):
    """`branches[index](*operands)` with `index` clamped to the branches."""
    if operand is not None:
        raise TypeError("lax.switch: pass the operands positionally")
    branches = tuple(branches)
    if len(branches) == 0:
        raise ValueError("Empty branch sequence")
    for i, b in enumerate(branches):
        if not callable(b):
            raise TypeError(f"lax.switch: branches[{i}] must be callable, got {b!r}")
    if isinstance(index, (list, tuple)) or np.ndim(index) != 0:
        shape = index.shape if isinstance(index, Tracer) else np.shape(index)
        raise TypeError(f"Branch index must be scalar, got {index!r} of shape {shape}.")
    index_dtype = primitives.aval_of(index).dtype
    if index_dtype.kind not in "iu":
        raise TypeError(f"Index type must be an integer, got {index!r}.")
    if len(branches) == 1:
        return branches[0](*operands)

    branches, operands = _close_over_refs(branches, operands)

    def emit(refs):
        funs = tuple(ref_state.threaded(b, refs) for b in branches) if refs else branches

        def traced(index, *ops):
            i = lax.convert_element_type(index, np.int32)
            i = lax.max(np.int32(0), lax.min(i, np.int32(len(funs) - 1)))
            return _emit_cond(i, funs, ops, "switch")

        return _with_ref_operands(refs, lambda ops: _run(traced, "switch", (index, *ops)),
                                  operands)

    return ref_state.threading_refs(emit)


def _close_over_refs(funs, operands):
    """Branches that close over the Refs among `operands`, and the other
    operands (as JAX, a Ref operand is the branches' to read and write)."""
    leaves, tree = registry.flatten(tuple(operands))
    keep = [i for i, leaf in enumerate(leaves) if type(leaf) is not Ref]
    if len(keep) == len(leaves):
        return funs, operands

    def closing(fun):
        @functools.wraps(fun)
        def branch(*ops):
            full = list(leaves)
            for i, v in zip(keep, ops):
                full[i] = v
            return fun(*tree.unflatten(full))
        return branch

    return tuple(closing(f) for f in funs), tuple(leaves[i] for i in keep)


def _with_ref_operands(refs, run, operands):
    """`run(operands)`, or with the values of `refs` as a first operand
    (branches made by ref_state.threaded), their final values written back."""
    if not refs:
        return run(operands)
    out, finals = run(([ref_state.read(r) for r in refs],) + tuple(operands))
    ref_state.write_back(refs, finals)
    return out


def platform_dependent(*args, default=None, **per_platform):
    """Like `jax.lax.platform_dependent`: `per_platform[p](*args)` for the
    platform p ('cpu', 'cuda', 'rocm', 'tpu') the program is compiled for,
    else `default(*args)`.

    JAX lowers a switch on a platform index that it resolves when it lowers
    for each platform. mlax lowers a program for one platform, the default
    device's, so the index is known while tracing: inside a trace this is a
    `switch` on that constant (every branch is traced and must agree in
    type, as in JAX; canonicalize keeps the chosen one); outside one the
    chosen branch is called, as JAX's eager evaluation does."""
    branches, platforms = [], []
    for name, branch in per_platform.items():
        if not callable(branch):
            raise TypeError(f"lax.platform_dependent: the '{name}' branch must be a callable.")
        if name == "gpu":
            raise ValueError("Use 'cuda' or 'rocm' for lax.platform_dependent.")
        for i, b in enumerate(branches):  # (JAX's grouping of equal branches)
            if b == branch:
                platforms[i].append(name)
                break
        else:
            branches.append(branch)
            platforms.append([name])
    if default is not None:
        if not callable(default):
            raise TypeError("lax.platform_dependent: the 'default' branch must be a callable.")
        branches.append(default)
    platform = runtime.lowering_platform(runtime.default_device())
    index = next((i for i, names in enumerate(platforms) if platform in names),
                 len(platforms) if default is not None else None)
    if index is None:
        listed = tuple(tuple(names) for names in platforms)
        raise NotImplementedError(
            f"lax.platform_dependent: no branch for platform {platform} (branches for "
            f"{listed}, and no default)")
    if not core.trace_stack():
        return branches[index](*args)
    return switch(np.int32(index), branches, *args)


# ---------------------------------------------------------------------------
# while_loop / fori_loop
# ---------------------------------------------------------------------------

def _promote_weak(leaves, in_avals, out_avals):
    """As JAX's loops: a weakly typed leaf of the initial loop state whose
    dtype the body changes is converted to the dtype the two promote to
    (e.g. a Python 0 carried with int16 additions becomes int16). The new
    (leaves, avals), or None when nothing changes."""
    leaves, avals, changed = list(leaves), list(in_avals), False
    for i, (a, b) in enumerate(zip(in_avals, out_avals)):
        if a.weak_type and a.dtype != b.dtype:
            dt, _ = dtypes.result_type((a.dtype, True), (b.dtype, b.weak_type))
            if dt != a.dtype:
                leaves[i] = lax.convert_element_type(leaves[i], dt)
                avals[i] = a.update(dtype=np.dtype(dt), weak_type=False)
                changed = True
    return (leaves, tuple(avals)) if changed else None


def while_loop(cond_fun, body_fun, init_val, *, _debug=None):
    """`while cond_fun(val): val = body_fun(val)`, as one `mlax.while` op.

    `_debug` (internal, for loops built on this one): (what errors say the
    body is traced for, the user's function, f(flat loop state) -> its
    (args, kwargs)); errors in cond_fun then name no function."""
    _check_callable("lax.while_loop", cond_fun=cond_fun, body_fun=body_fun)
    _no_ref_carry(init_val, *(_debug[:2] if _debug else ("while_body", body_fun)))

    cond_writes = []

    def emit(refs):
        if not refs:
            return _run(lambda init: _emit_while(cond_fun, body_fun, init, _debug),
                        "while_loop", (init_val,))
        # cond_fun writing Refs: as JAX's, the writes of each evaluation
        # that lets the loop go on are kept, those of the last one (False)
        # dropped. The cond region reads the carried values (its writes
        # dropped); the body runs cond_fun again for them, then body_fun.
        body = ref_state.threaded(_cond_then_body(cond_fun, body_fun, cond_writes)
                                  if cond_writes else body_fun, refs)

        @functools.wraps(cond_fun)
        def cond_state(state):
            with ref_state.bound(refs, state[1]):
                pred = cond_fun(state[0])
                written = [r for r, v in zip(refs, state[1]) if r._value is not v]
                if written and not cond_writes:
                    cond_writes.extend(written)
                    raise _CondWritesRefs()
            return pred

        try:
            out, finals = _run(lambda init: _emit_while(
                cond_state, lambda state: body(state[1], state[0]), init),
                "while_loop", ((init_val, [ref_state.read(r) for r in refs]),))
        except _CondWritesRefs:
            return emit(refs)
        ref_state.write_back(refs, finals)
        return out

    return ref_state.threading_refs(emit)


def _cond_then_body(cond_fun, body_fun, cond_written):
    """A while loop's body that runs cond_fun first for its writes (of
    `cond_written`), which body_fun may not write too (JAX's error)."""
    def body(c):
        cond_fun(c)
        after_cond = [r._value for r in cond_written]
        out = body_fun(c)
        if any(r._value is not v for r, v in zip(cond_written, after_cond)):
            raise NotImplementedError(
                "Cannot write to the same ref in both cond and body of while loop.")
        return out
    return body


class _CondWritesRefs(Exception):
    """(Internal) a while_loop's cond_fun writes Refs: traced again so."""


def _emit_while(cond_fun, body_fun, init_val, debug=None, cond_checks_moved=False):
    """The while op; checkify's checks in `body_fun` are carried as more
    loop state (the body traced once to find their kinds, then again with
    them carried), as JAX's checkify of while_loop."""
    observed = []

    @functools.wraps(body_fun)  # (errors and locations name the user's functions)
    def body_observed(val):
        observed.append(primitives.ObservedCall())
        return observed[-1](body_fun, val)

    cond_observed = []

    @functools.wraps(cond_fun)
    def cond_observing(val):
        cond_observed.append(primitives.ObservedCall())
        return cond_observed[-1](cond_fun, val)

    out, op = _emit_while_op(cond_fun if cond_checks_moved else cond_observing, body_observed,
                             init_val, debug)
    if cond_observed and cond_observed[-1].leaves:
        # Checks in cond_fun, as JAX's checkify: made on the initial state
        # here and, in the body, on each new state (the predicate then
        # computed there is unused); the loop's own cond_fun drops its checks.
        op.operation.erase()
        cond_fun(init_val)

        @functools.wraps(body_fun)
        def body_then_cond(val):
            new = body_fun(val)
            cond_fun(new)
            return new

        @functools.wraps(cond_fun)
        def cond_unchecked(val):
            return primitives.ObservedCall()(cond_fun, val)  # (checks not handed back)

        return _emit_while(cond_unchecked, body_then_cond, init_val, debug, True)
    found = observed[-1] if observed else None
    if found is None or not found.leaves:
        return out
    op.operation.erase()  # (its results are not used yet) again, carrying the checks
    start, keys = found.observer.placeholders(found.tree.unflatten(found.leaves))
    carried = []

    @functools.wraps(body_fun)
    def body_carrying(state):
        val, leaves = state
        carried.append(primitives.ObservedCall(start=keys.unflatten(leaves)))
        new = carried[-1](body_fun, val)
        new_leaves, new_keys = registry.flatten(carried[-1].tree.unflatten(
            carried[-1].leaves))
        if len(new_leaves) != len(leaves):
            raise NotImplementedError("checkify: the checks of a while_loop's body changed "
                                      "when it was traced again")
        return new, new_leaves

    (out, leaves), _ = _emit_while_op(functools.wraps(cond_fun)(lambda state: cond_fun(
        state[0])), body_carrying, (init_val, list(start)), debug)
    carried[-1].hand_back(leaves)
    return out


def _emit_while_op(cond_fun, body_fun, init_val, debug=None):
    outer = core.current_trace()
    leaves, tree = registry.flatten(init_val)
    in_avals = _avals_of(leaves)
    in_tree = _tree_of(leaves)
    if debug is None:
        state = lambda flat: ((tree.unflatten(flat),), {})  # noqa: E731
        cond_for, cond_debug = "while_cond", (cond_fun, state)
        body_for, body_debug = "while_body", (body_fun, state)
    else:
        cond_for, cond_debug = debug[0], None
        body_for, body_debug = debug[0], debug[1:]

    def as_tree(fun):
        return lambda *xs: fun(tree.unflatten(list(xs)))

    checking = key_reuse.enabled()
    if checking:
        body_fun, body_found = key_reuse.recording(body_fun)
        traced_as_tree = as_tree

        def as_tree(fun):
            what = "while_loop body function" if fun is body_fun else "while_loop cond function"
            return _in_loop(traced_as_tree(fun), what)

    for attempt in range(2 * len(leaves) + 2):  # each retrace changes a leaf's type
        captured = []
        regions = []
        try:
            regions.append(_Region(outer, as_tree(cond_fun), in_tree, in_avals, captured,
                                   "while_cond", cond_for, cond_debug))
            c = regions[0]
            if (len(c.out_avals) != 1 or c.out_avals[0].shape != ()
                    or c.out_avals[0].dtype != np.bool_):
                raise TypeError(
                    "cond_fun must return a boolean scalar, but got output type(s) "
                    f"[{', '.join(repr(a) for a in c.out_avals)}]. "
                    f"(at {core.user_location_str()})")
            regions.append(_Region(outer, as_tree(body_fun), in_tree, in_avals, captured,
                                   "while_body", body_for, body_debug))
            b = regions[1]
            body_tree = b.out_tree
            if body_tree != tree:
                raise TypeError(
                    "lax.while_loop: body_fun output and input must have the same pytree "
                    f"structure, got {body_tree} and {tree}.")
            promoted = _promote_weak(leaves, in_avals, b.out_avals)
            if promoted is not None:  # a weakly typed init the body changes: retrace
                for r in regions:
                    r.discard()
                leaves, in_avals = promoted
                continue
            _match("body_fun input", "body_fun output", tree, in_avals, body_tree,
                   b.out_avals, "lax.while_loop")
        except BaseException:
            for r in regions:
                r.discard()
            raise
        break
    else:
        raise TypeError("lax.while_loop: the loop state's types do not settle (weak types "
                        f"keep changing). (at {core.user_location_str()})")
    if checking:
        _consume_carried("while_loop body function", body_found[-1], len(leaves),
                         init_val)
    n = len(leaves)
    regions[0].finish(captured)
    # The captures are loop state the body passes through unchanged.
    regions[1].finish(captured, extra=_Region.capture_args)
    state = [primitives.to_value(outer, l, a) for l, a in zip(leaves, in_avals)]
    state += [outer.value_of(t) for t in captured]
    ops = primitives._ops()
    with outer.ip, core.user_location():
        op = ops.WhileOp([v.type for v in state], state)
    regions[0].move_to(op.regions[0])
    regions[1].move_to(op.regions[1])
    # As JAX: the loop's results are typed as the body's (weak types
    # included; the body itself sees the initial state's).
    outs = _result_tracers(op, b.out_avals, outer)[:n]
    return tree.unflatten(outs), op


def _concrete_bound(x):
    """int(x) for a bound known at trace time (a float too, as JAX), else None.
    A traced value is known under a transformation called outside jit (as
    JAX's eager grad sees its value): a loop over it is then a scan, which
    reverse mode differentiates, as in JAX."""
    if isinstance(x, Tracer):
        x = x._concrete()
        if x is None:
            return None
    if np.ndim(x) != 0:
        return None
    try:
        return int(np.asarray(x) if not isinstance(x, (int, float)) else x)
    except (TypeError, ValueError, OverflowError):
        return None


def fori_loop(lower, upper, body_fun, init_val, *, unroll=None):
    """`for i in range(lower, upper): val = body_fun(i, val)`. With bounds
    known at trace time it is a scan (reverse-differentiable); with traced
    bounds a while loop."""
    _check_callable("lax.fori_loop", body_fun=body_fun)
    _no_ref_carry(init_val, "fori_loop", body_fun)
    for name, b in (("lower", lower), ("upper", upper)):
        d = primitives.aval_of(b).dtype
        if d.kind not in "iufb" or np.ndim(b) != 0:
            raise TypeError(f"lax.fori_loop: {name} must be an integer scalar, got {b!r}")
    lo_aval, hi_aval = primitives.aval_of(lower), primitives.aval_of(upper)
    if lo_aval.dtype == hi_aval.dtype:
        dtype, weak = lo_aval.dtype, lo_aval.weak_type and hi_aval.weak_type
    else:
        # As JAX: equal dtypes, or two signed integers one of them weak (a
        # Python int), which takes the other's dtype.
        dtype, weak = None, False
        if lo_aval.dtype.kind == "i" and hi_aval.dtype.kind == "i":
            if lo_aval.weak_type and not hi_aval.weak_type:
                dtype = hi_aval.dtype
            elif hi_aval.weak_type and not lo_aval.weak_type:
                dtype = lo_aval.dtype
        if dtype is None:
            raise TypeError("lower and upper arguments to fori_loop must have equal types, "
                            f"got {lo_aval.dtype.name} and {hi_aval.dtype.name}")
    lo, hi = _concrete_bound(lower), _concrete_bound(upper)
    if lo is not None and hi is not None:
        # As JAX: bounds known at trace time are int(bound), and the index
        # a weakly typed default int, whatever the bounds' dtype.
        length = max(hi - lo, 0)
        dtype, weak = dtypes.default_int(), True

        def scan_body(carry, _):
            i, x = carry
            return (lax.add(i, lax.convert_element_type(1, dtype, weak_type=weak)),
                    body_fun(i, x)), None

        start = lax.convert_element_type(lo, dtype, weak_type=weak)
        if unroll is True:
            unroll_n = max(length, 1)
        elif unroll is None or unroll is False:
            unroll_n = 1
        else:
            unroll_n = int(unroll)
        x_tree = registry.flatten(init_val)[1]
        (_, result), _ = scan(scan_body, (start, init_val), None, length=length,
                              unroll=unroll_n,
                              _debug=("fori_loop", body_fun,
                                      lambda flat: ((flat[0], x_tree.unflatten(flat[1:])), {})))
        return result
    if unroll is not None and unroll is not False and unroll != 1:
        raise ValueError("Can only use `unroll` in `fori_loop` if the loop bounds are "
                         "statically known.")

    def while_cond(carry):
        i, upper_, _ = carry
        return lax.lt(i, upper_)

    # As JAX: a bound of the loop's dtype is used as it is (a weakly typed
    # lower bound gives a weakly typed index), another one converted.
    start = lower if lo_aval.dtype == dtype else lax.convert_element_type(lower, dtype)
    stop = upper if hi_aval.dtype == dtype else lax.convert_element_type(upper, dtype)
    index_weak = lo_aval.weak_type and lo_aval.dtype == dtype

    def while_body(carry):
        i, upper_, x = carry
        return (lax.add(i, lax.convert_element_type(1, dtype, weak_type=index_weak)), upper_,
                body_fun(i, x))

    x_tree = registry.flatten(init_val)[1]
    _, _, result = while_loop(
        while_cond, while_body, (start, stop, init_val),
        _debug=("fori_loop", body_fun, lambda flat: ((flat[0], x_tree.unflatten(flat[2:])), {})))
    return result


# ---------------------------------------------------------------------------
# scan / map
# ---------------------------------------------------------------------------

def scan(f, init, xs=None, length=None, reverse=False, unroll=1, _split_transpose=False,
         *, _debug=None):
    """Loop `f(carry, x) -> (carry, y)` over the leading axis of `xs`;
    returns the final carry and the stacked ys. One `mlax.scan` op.

    `_debug` (internal, for loops built on this one): (what errors say the
    body is traced for, the user's function, f(flat carry and x leaves) ->
    its (args, kwargs))."""
    _check_callable("lax.scan", f=f)
    _no_ref_carry(init, *(_debug[:2] if _debug else ("scan", f)))
    xs_leaves, xs_tree = registry.flatten(xs)
    lengths = []
    for x in xs_leaves:
        shape = x.shape if hasattr(x, "shape") else np.shape(x)
        if len(shape) == 0:
            raise ValueError(f"scan got value with no leading axis to scan over: {x!r}.")
        lengths.append(int(shape[0]))
    if length is not None:
        try:
            length = int(length)
        except (TypeError, errors.ConcretizationTypeError):
            raise errors.ConcretizationTypeError(
                "lax.scan: length must be a concrete integer (known at trace time); "
                "mark it static with static_argnums") from None
        if any(n != length for n in lengths):
            raise ValueError(f"scan got `length` argument of {length} which disagrees "
                             f"with leading axis sizes {lengths}.")
    else:
        unique = sorted(set(lengths))
        if len(unique) > 1:
            raise ValueError(f"scan got values with different leading axis sizes: "
                             f"{', '.join(str(n) for n in lengths)}.")
        if not unique:
            raise ValueError("scan got no values to scan over and `length` not provided.")
        length = unique[0]
    if length < 0:
        raise ValueError(f"scan got a negative length: {length}")
    if unroll is True:
        unroll = max(length, 1)
    elif unroll is False:
        unroll = 1
    unroll = int(unroll)
    if unroll < 0:
        raise ValueError("`unroll` must be a `bool` or a non-negative `int`.")
    unroll = max(unroll, 1)  # as JAX: 0 runs the loop rolled, as 1
    if any(type(x) is Ref for x in xs_leaves):
        f, xs_leaves, xs_tree = _scan_over_refs(f, xs_leaves, xs_tree, length)

    def emit(refs):
        if not refs:
            return _run(lambda init, xs_list: _emit_scan(
                f, init, xs_list, xs_tree, length, bool(reverse), unroll, _debug),
                "scan", (init, list(xs_leaves)))
        body = ref_state.threaded(f, refs)

        @functools.wraps(f)
        def f_state(carry, x):
            out, finals = body(carry[1], carry[0], x)
            if not isinstance(out, (tuple, list)) or len(out) != 2:
                raise TypeError(f"scan body output must be a pair, got {out!r}.")
            tree_in, tree_out = registry.flatten(carry[0])[1], registry.flatten(out[0])[1]
            if tree_in != tree_out:  # (named without the Refs' state)
                raise TypeError(
                    "scan body function carry input and carry output must have the same "
                    f"pytree structure, but they differ: the input carry is {tree_in} and "
                    f"the output carry is {tree_out}.")
            return (out[0], finals), out[1]

        (out, finals), ys = _run(lambda init, xs_list: _emit_scan(
            f_state, init, xs_list, xs_tree, length, bool(reverse), unroll),
            "scan", ((init, [ref_state.read(r) for r in refs]), list(xs_leaves)))
        ref_state.write_back(refs, finals)
        return out, ys

    return ref_state.threading_refs(emit)


def _no_ref_carry(init, what, fun):
    """JAX's error for a Ref in a loop's carry (a loop body cannot return
    a Ref)."""
    for leaf in registry.flatten(init)[0]:
        if type(leaf) is Ref:
            raise returned_error(fun, what, leaf, "was passed in as part of the loop carry: "
                                 "close over the Ref instead")


def _scan_over_refs(f, xs_leaves, xs_tree, length):
    """`f` scanning over the rows of the Refs among `xs_leaves`, as JAX's:
    each step gets a Ref of its row (written back into the Ref if `f`
    writes it). The Refs are closed over and indexed by the step's index
    (an extra xs leaf)."""
    refs = {k: x for k, x in enumerate(xs_leaves) if type(x) is Ref}
    others = [x for k, x in enumerate(xs_leaves) if k not in refs]

    @functools.wraps(f)
    def over_rows(carry, xs_and_index):
        *rest, i = xs_and_index
        rest = iter(rest)
        rows = {k: Ref(r[i], r._aval.update(shape=r.shape[1:])) for k, r in refs.items()}
        initial = {k: row._value for k, row in rows.items()}
        leaves = [rows[k] if k in rows else next(rest) for k in range(len(xs_leaves))]
        out = f(carry, xs_tree.unflatten(leaves))
        for leaf in registry.flatten(out)[0]:
            if any(leaf is row for row in rows.values()):
                raise returned_error(f, "scan", leaf,
                                     "was passed in as (a row of) the argument x")
        for k, row in rows.items():
            if row._value is not initial[k]:
                refs[k][i] = row[...]
        return out

    index = lax.iota(dtypes.default_int(), length)
    return over_rows, others + [index], registry.flatten([0] * (len(others) + 1))[1]


def _emit_scan(f, init, xs_leaves, xs_tree, length, reverse, unroll, debug=None):
    outer = core.current_trace()
    carry_leaves, carry_tree = registry.flatten(init)
    carry_avals = _avals_of(carry_leaves)
    xs_avals = _avals_of(xs_leaves)
    x_avals = tuple(a.update(shape=a.shape[1:]) for a in xs_avals)
    nc = len(carry_leaves)
    in_tree = _tree_of(list(carry_leaves) + list(xs_leaves))
    out_info = {}
    checking = key_reuse.enabled()
    if checking:
        f, found = key_reuse.recording(f)

    def body(*leaves):
        carry = carry_tree.unflatten(list(leaves[:nc]))
        x = xs_tree.unflatten(list(leaves[nc:]))
        # checkify's checks in `f`: each iteration's, stacked as more ys.
        observed = out_info["observed"] = primitives.ObservedCall(
            mapped="scan_reverse" if reverse else "scan")
        out = observed(f, carry, x)
        if not isinstance(out, (tuple, list)) or len(out) != 2:
            raise TypeError(f"scan body output must be a pair, got {out!r}.")
        new_carry, y = out
        c_leaves, c_tree = registry.flatten(new_carry)
        y_leaves, y_tree = registry.flatten(y)
        out_info["carry_tree"], out_info["y_tree"] = c_tree, y_tree
        out_info["nc"], out_info["ny"] = len(c_leaves), len(y_leaves)
        return list(c_leaves) + list(y_leaves) + list(observed.leaves)

    for attempt in range(2 * nc + 2):  # each retrace changes a leaf's type
        captured = []
        if debug is None:
            traced_for, user = "scan", (f, lambda flat: ((carry_tree.unflatten(flat[:nc]),
                                                          xs_tree.unflatten(flat[nc:])), {}))
        else:
            traced_for, user = debug[0], debug[1:]
        region = _Region(outer, _in_loop(body, "scan body function"), in_tree,
                         carry_avals + x_avals, captured, "scan_body", traced_for, user)
        try:
            if out_info["carry_tree"] != carry_tree:
                raise TypeError(
                    "scan body function carry input and carry output must have the same "
                    f"pytree structure, but they differ: the input carry is {carry_tree} "
                    f"and the output carry is {out_info['carry_tree']}.")
            out_carry = region.out_avals[:nc]
            promoted = _promote_weak(carry_leaves, carry_avals, out_carry)
            if promoted is not None:  # a weakly typed init the body changes: retrace
                region.discard()
                carry_leaves, carry_avals = promoted
                continue
            _match("the input carry", "the output carry", carry_tree, carry_avals,
                   carry_tree, out_carry, "lax.scan body function")
        except BaseException:
            region.discard()
            raise
        break
    else:
        raise TypeError("lax.scan: the carry's types do not settle (weak types keep "
                        f"changing). (at {core.user_location_str()})")
    if checking:
        _consume_carried("scan body function", found[-1], nc, init)
    region.finish(captured)
    y_avals = region.out_avals[nc:]
    # As JAX: the final carry is typed as the body's (weak types included;
    # the body itself sees the initial carry's).
    out_avals = list(out_carry) + [a.update(shape=(length,) + a.shape) for a in y_avals]
    init_v = [primitives.to_value(outer, l, a) for l, a in zip(carry_leaves, carry_avals)]
    xs_v = [primitives.to_value(outer, l, a) for l, a in zip(xs_leaves, xs_avals)]
    consts_v = [outer.value_of(t) for t in captured]
    ops = primitives._ops()
    with outer.ip, core.user_location():
        i64 = ir.IntegerType.get_signless(64)
        op = ops.ScanOp([a.mlir_type() for a in out_avals], init_v, xs_v, consts_v,
                        ir.IntegerAttr.get(i64, length),
                        reverse=ir.UnitAttr.get() if reverse else None,
                        unroll=ir.IntegerAttr.get(i64, unroll) if unroll != 1 else None)
    region.move_to(op.regions[0])
    outs = _result_tracers(op, out_avals, outer)
    carry_out = carry_tree.unflatten(outs[:nc])
    ny = out_info["ny"]
    ys = out_info["y_tree"].unflatten(outs[nc:nc + ny])
    out_info["observed"].hand_back(outs[nc + ny:])
    return carry_out, ys


def map(f, xs, *, batch_size=None):  # noqa: A001
    """`[f(x) for x in xs]` stacked, as a scan (or a scan of vmaps of
    `batch_size` elements)."""
    _check_callable("lax.map", f=f)
    if batch_size is not None:
        leaves, tree = registry.flatten(xs)
        if not leaves:
            raise ValueError("lax.map: xs has no arrays to map over")
        n = int(leaves[0].shape[0])
        batch_size = int(batch_size)
        if batch_size < 1:
            raise ValueError(f"lax.map: batch_size must be positive, got {batch_size}")
        num, rem = divmod(n, batch_size)
        main = [lax.reshape(lax.slice_in_dim(x, 0, num * batch_size),
                            (num, batch_size) + tuple(x.shape[1:])) for x in leaves]
        _, ys = scan(lambda _, x: ((), vmap_lib.vmap(f)(x)), (), tree.unflatten(main))
        ys_leaves, ys_tree = registry.flatten(ys)
        ys_leaves = [lax.reshape(y, (num * batch_size,) + tuple(y.shape[2:]))
                     for y in ys_leaves]
        if rem:
            tail = [lax.slice_in_dim(x, num * batch_size, n) for x in leaves]
            tail_ys = registry.flatten(vmap_lib.vmap(f)(tree.unflatten(tail)))[0]
            ys_leaves = [lax.concatenate([a, b], 0) for a, b in zip(ys_leaves, tail_ys)]
        return ys_tree.unflatten(ys_leaves)
    xs_tree = registry.flatten(xs)[1]
    _, ys = scan(lambda _, x: ((), f(x)), (), xs,
                 _debug=("map", f, lambda flat: ((xs_tree.unflatten(flat),), {})))
    return ys


# ---------------------------------------------------------------------------
# associative_scan
# ---------------------------------------------------------------------------

def _slice(x, start, limit, stride, axis):
    return slice_in_dim(x, start, limit, stride, axis)


def _interleave(a, b, axis):
    """a[0], b[0], a[1], b[1], ... along `axis` (a has as many or one more)."""
    na, nb = aval_of(a).shape[axis], aval_of(b).shape[axis]
    a_pad = [(0, 0, 0)] * aval_of(a).ndim
    b_pad = [(0, 0, 0)] * aval_of(b).ndim
    a_pad[axis] = (0, 1 if na == nb else 0, 1)
    b_pad[axis] = (1, 0 if na == nb else 1, 1)
    dt = aval_of(a).dtype
    combine = bitwise_or if dtypes.is_bool(dt) else add
    zero = np.zeros((), dt)
    return combine(pad(a, zero, a_pad), pad(b, zero, b_pad))


def associative_scan(fn, elems, reverse=False, axis=0):
    """jax.lax.associative_scan: the inclusive scan of `elems` along `axis`
    with the associative `fn`, by JAX's parallel (Blelloch-style) recursion:
    result[k] = fn(...fn(fn(e[0], e[1]), e[2])..., e[k])."""
    name = "lax.associative_scan"
    if not callable(fn):
        raise TypeError(f"{name}: fn argument should be callable.")
    elems_flat, tree = tree_flatten(elems)
    if not elems_flat:
        raise ValueError(f"{name}: elems has no arrays")
    ndim = aval_of(elems_flat[0]).ndim
    axis = operator.index(axis)
    if not -ndim <= axis < max(ndim, 1) or ndim == 0:
        raise shape_error(name, f"axis {axis} is out of bounds for arrays of rank {ndim}",
                          ValueError)
    axis %= ndim
    if reverse:
        elems_flat = [rev(e, [axis]) for e in elems_flat]

    def combine(a_flat, b_flat):
        c = fn(tree_unflatten(tree, a_flat), tree_unflatten(tree, b_flat))
        c_flat, c_tree = tree_flatten(c)
        if c_tree != tree:
            raise TypeError(f"{name}: fn must return the structure of elems ({tree}), "
                            f"got {c_tree}")
        return c_flat

    num = aval_of(elems_flat[0]).shape[axis]
    if any(aval_of(e).ndim <= axis or aval_of(e).shape[axis] != num for e in elems_flat[1:]):
        raise ValueError("Array inputs to associative_scan must have the same first "
                         f"dimension. (saw: {[aval_of(e).shape for e in elems_flat]})")

    def scan(elems):
        n = aval_of(elems[0]).shape[axis]
        if n < 2:
            return elems
        reduced = combine([_slice(e, 0, n - 1, 2, axis) for e in elems],
                          [_slice(e, 1, n, 2, axis) for e in elems])
        odd = scan(reduced)
        if n % 2 == 0:
            m = aval_of(odd[0]).shape[axis]
            even = combine([_slice(e, 0, m - 1, 1, axis) for e in odd],
                           [_slice(e, 2, n, 2, axis) for e in elems])
        else:
            even = combine(odd, [_slice(e, 2, n, 2, axis) for e in elems])
        even = [concatenate([_slice(e, 0, 1, 1, axis), r], axis)
                for e, r in zip(elems, even)]
        return [_interleave(e, o, axis) for e, o in zip(even, odd)]

    scans = scan(elems_flat)
    if reverse:
        scans = [rev(s, [axis]) for s in scans]
    return tree_unflatten(tree, scans)

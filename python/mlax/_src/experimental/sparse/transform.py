"""jax.experimental.sparse.sparsify: a function written for dense arrays,
run on sparse ones.

JAX interprets the function's jaxpr with a sparse rule per primitive. mlax
has no jaxprs; it traces the function abstractly, with a dense stand-in
(the sparse array's shape and dtype) for each BCOO or BCSR argument, into a
private function of the module being traced, and then interprets that
function's ops in the enclosing trace: an op none of whose operands is
sparse is cloned there as it is (its location, the user's line, kept); an
op with a sparse operand runs its sparse rule, a BCOO (or BCSR) operation
(mlax's sparse operations are compositions of lax ops, so the result is
traced as any other). Two sparse operands make a sparse product
(bcoo_dot_general, bcoo_multiply_sparse) or sum. A `jit` inside is
interpreted as part of the function; sparse.todense inside marks its value
(a call the interpreter knows) so that a sparse one is made dense there.

Control flow (cond, switch, while_loop, fori_loop, scan) with a sparse
operand is emitted again with its regions interpreted, the sparse array
travelling through it as its data and indices, as JAX's rules do: a loop's
sparse carry must keep its nse and layout, and cond's branches must return
the same structure (the loops' and cond's TypeErrors otherwise). Derivatives
and vmap inside (mlax.vjp, mlax.jvp, mlax.vmap requests, which a pass
expands, where JAX's sparsify sees them expanded already) are copied with
the functions they reach into a module of their own, expanded there by
mlax-expand-transforms, and the result interpreted.

Ops whose result would be dense (cos, exp, a comparison, sparse plus dense
of a larger shape, sparse minus dense, division by a sparse array) are
JAX's NotImplementedError, as are ops with no sparse rule; BCSR has JAX's
few rules (elementwise ops on the stored values, dot_general with a dense
rhs, broadcast, concatenate, stack, todense) and its errors elsewhere.

Sparse plus dense is dense where the dense operand has the result's shape
(JAX's rule). In the IR, `M + 1.` and `M + ones(M.shape)` are both a splat
constant added; while the function is traced, the broadcasts that numpy's
and lax's implicit broadcasting make are noted
(core.primitives.sparsify_notes), so that only those count as a
smaller operand, as in JAX's jaxpr.

Likewise `M ** 2` (JAX's integer_pow, which has a sparse rule) and
`M ** 2.0` (its pow, which has none) are one pow by a splat constant in
the IR: mlax.numpy.power notes the first.

Where mlax differs from JAX:
* inside a derivative's expansion (whose ops the trace did not note) every
  splat constant counts as a broadcast scalar and every power by an
  integral constant as an integer power;
* broadcasting a sparse array of lower rank (M * M[0], jnp.kron) makes it
  the full shape first (a broadcast_in_dim), where JAX's multiplies size-1
  dimensions: the values agree but the nse is larger, or (adding sparse
  dimensions of size > 1) a NotImplementedError;
* a scan with a sparse operand may have dense stacked outputs (JAX's rule
  fails on them) but not sparse ones (a NotImplementedError); a while loop
  whose body changes a sparse carry's nse is the loop's TypeError (JAX's is
  a verifier error); a jit or checkpoint inside with a BCOO operand is
  interpreted (JAX has no rule for checkpoint; with a BCSR operand a jit is
  JAX's NotImplementedError, as in JAX);
* derivatives inside follow mlax's expansion, not JAX's jaxpr: some JAX
  refuses work (relu's derivative; stop_gradient in a cond), and a scan of
  a derivative takes dense xs beside sparse operands;
* an integer-array index along a dimension other than the first
  (M[:, idx]) is a gather followed by a transpose in mlax, which a batched
  BCOO cannot take (JAX's indexing is one gather);
* jnp.convolve(..., mode="same") is a full convolution then a slice in
  mlax (one padded convolution in JAX): the values agree, the padding
  entries' out-of-range indices may not;
* COO, CSR and CSC arguments are a NotImplementedError.
"""
from __future__ import annotations

import functools

import numpy as np
from mlir import ir
from mlir.dialects import func as func_d

from mlax._src.backend import passes as passes_lib
from mlax._src.base.tree import registry
from mlax._src.core import primitives, tracing
from mlax._src.core import tracer as core
from mlax._src.core.tracer import ShapedArray, Tracer
from mlax._src.core.tracing import _name_of, _run
from mlax._src.lax import elementwise as ew
from mlax._src.lax.control_flow import _emit_cond, scan, while_loop
from mlax._src.lax import lax
from mlax._src.lax.shape import full as lax_full
from mlax._src.lax.convolution import ConvDimensionNumbers
from mlax._src.lax.slicing import GatherDimensionNumbers
from mlax._src.jit.api import jit
from mlax._src.transforms.autodiff import _as_tracer, _function_named
from mlax._src.experimental.sparse.base import JAXSparse
from mlax._src.experimental.sparse.bcoo import (
    BCOO, bcoo_dot_general, bcoo_multiply_dense, bcoo_multiply_sparse, bcoo_reduce_sum,
    bcoo_todense, bcoo_transpose)
from mlax._src.experimental.sparse.bcsr import (
    BCSR, bcsr_broadcast_in_dim, bcsr_concatenate, bcsr_dot_general)
from mlax._src.experimental.sparse.bcoo_structural import (
    bcoo_broadcast_in_dim, bcoo_concatenate, bcoo_conv_general_dilated, bcoo_dynamic_slice,
    bcoo_gather, bcoo_reshape, bcoo_rev, bcoo_slice)


def sparsify(f, use_tracer=False):
    """jax.experimental.sparse.sparsify: `f`, written for dense arrays, as a
    function that takes BCOO arrays where `f` takes arrays and returns BCOO
    arrays where the computation keeps them sparse (see the module's
    docstring). `use_tracer` is accepted (JAX's chooses between two
    implementations of the same transformation)."""
    del use_tracer

    @functools.wraps(f)
    def sparsified(*args, **kwargs):
        leaves, tree = registry.flatten((args, kwargs), _is_sparse)
        for leaf in leaves:
            if isinstance(leaf, JAXSparse) and not isinstance(leaf, _SPARSE):
                raise NotImplementedError(
                    f"sparsify: arguments of type {type(leaf).__name__} are not supported "
                    "(BCOO and BCSR are); convert them to BCOO")
        if not core.trace_stack():  # (an eager call: one program, as mlax's transformations)
            return _run(lambda *a, **k: _sparsify_traced(f, a, k),
                        f"sparsify_{_name_of(f)}", args, kwargs)
        return _sparsify_traced(f, args, kwargs)

    return sparsified


def _is_sparse(x):
    return isinstance(x, JAXSparse)


_SPARSE = (BCOO, BCSR)  # (the sparse arrays sparsify takes and returns)


def _sparsify_traced(f, args, kwargs):
    leaves, tree = registry.flatten((args, kwargs), _is_sparse)
    avals = [ShapedArray(x.shape, x.dtype) if isinstance(x, _SPARSE) else tracing._leaf_aval(x)
             for x in leaves]
    info = {}

    def dense(*xs):
        a, k = tree.unflatten(list(xs))
        out_leaves, info["tree"] = registry.flatten(f(*a, **k))
        return out_leaves

    outer = core.current_trace()
    _, flat_tree = registry.flatten((tuple(leaves), {}), _is_sparse)
    notes = {kind: {} for kind in primitives.SPARSIFY_NOTE_KINDS}
    _tracing_dense.append(outer)
    primitives.sparsify_notes.append(notes)
    try:
        sym, out_avals, _, captured = tracing.trace_function(
            outer, dense, flat_tree, tuple(avals), tracing._plain_rebuild,
            f"sparsify_{_name_of(f)}", None, None, None, "sparsify")
    finally:
        primitives.sparsify_notes.pop()
        _tracing_dense.pop()
    func_op = _function_named(outer, sym)
    inputs = [x if isinstance(x, _SPARSE) else _as_tracer(x) for x in leaves]
    _notes.append(notes)
    try:
        outs = _interpret(outer, func_op, inputs + list(captured))
    finally:
        _notes.pop()
        func_op.erase()  # (cloned or interpreted: nothing calls it)
    # The dense results keep the weak types the function gave them.
    outs = [o if isinstance(o, _SPARSE) else _with_aval(o, aval)
            for o, aval in zip(outs, out_avals)]
    return info["tree"].unflatten(outs)


# The traces of the sparsify calls whose dense function is being traced.
_tracing_dense = []
# Per function being interpreted, innermost last: what its trace noted of
# its values (core.primitives.sparsify_notes), or None where that is unknown
# (a derivative's expansion: its splat constants all count as broadcast
# scalars, its powers by an integral constant as integer powers).
_notes = []


def __mlax_sparsify_todense(x):
    return x


def mark_todense(x):
    """sparse.todense of a traced value while a dense function is traced for
    sparsify: a call the interpreter knows (the value may stand for a sparse
    array); elsewhere, or on anything else, None."""
    if not _tracing_dense or not isinstance(x, Tracer):
        return None
    return jit(__mlax_sparsify_todense)(x)


def _with_aval(x, aval):
    if isinstance(x, Tracer) and x.aval.weak_type != aval.weak_type:
        return Tracer(x.value, x.aval.update(weak_type=aval.weak_type), x.trace)
    return x


def _interpret(trace, func_op, inputs, lookup=None):
    """The results of the private function `func_op` on `inputs` (tracers
    of `trace`, or BCOO arrays), its ops emitted into `trace`; `lookup`
    finds the functions it calls (by default in the trace's module)."""
    return _interpret_block(trace, func_op.regions[0].blocks[0], inputs, lookup)


def _interpret_block(trace, block, inputs, lookup=None):
    """The values `block` (a function's body or a control-flow op's region)
    returns or yields on `inputs`, its ops emitted into `trace`."""
    foreign = lookup is not None and getattr(lookup, "foreign", False)
    lookup = lookup or functools.partial(_function_named, trace)
    env = {}
    for arg, x in zip(block.arguments, inputs):
        env[arg] = x
    for op in block.operations:
        name = op.operation.name
        if name in ("func.return", "mlax.return", "mlax.yield"):
            return [env[v] for v in op.operands]
        operands = [env[v] for v in op.operands]
        if name == "mlax.call" and any(isinstance(x, BCSR) for x in operands) and not \
                op.attributes["callee"].value.startswith("__mlax_sparsify_todense"):
            raise NotImplementedError("sparse rule for jit is not implemented.")  # (JAX's)
        if name == "mlax.call" and op.attributes["callee"].value.startswith(
                "__mlax_sparsify_todense"):  # sparse.todense
            x = operands[0]
            results = [x.todense() if isinstance(x, _SPARSE) else x]
        elif name in _INLINED:  # a jit inside (or a custom_jvp function's primal
            # function, which is what runs of it here): part of the function
            callee = lookup(op.attributes["callee"].value)
            results = _interpret(trace, callee, operands, lookup)
        elif name in _TRANSFORMS and any(isinstance(x, BCOO) for x in operands):
            results = _expanded(trace, op.operation, operands, lookup)
        elif any(isinstance(x, BCSR) for x in operands):  # (BCSR's rules, as JAX's)
            rule = _BCSR_RULES.get(name)
            if rule is None:
                raise NotImplementedError(_no_rule(op))
            results = rule(op.operation, *operands)
            results = results if isinstance(results, (list, tuple)) else [results]
        elif name in _CONTROL_FLOW and (any(isinstance(x, BCOO) for x in operands) or (
                foreign and _symbols(op.operation))):  # (regions calling functions of
            # an expanded request's module: interpreted, those calls inlined)
            results = _CONTROL_FLOW[name](op.operation, operands, lookup)
        elif any(isinstance(x, BCOO) for x in operands):
            rule = _RULES.get(name)
            if rule is None:
                raise NotImplementedError(_no_rule(op))
            results = rule(op.operation, *operands)
            results = results if isinstance(results, (list, tuple)) else [results]
        else:
            if foreign and _symbols(op.operation):
                # (an op of an expanded request calling functions that exist
                # only in its module)
                raise NotImplementedError(
                    f"sparsify: {_op_name(op.operation)} calling a function inside a "
                    "derivative or vmap with sparse operands is not supported")
            results = _clone(trace, op.operation, operands)
        for v, x in zip(op.results, results):
            env[v] = x
    raise AssertionError("sparsify: the function has no return")


def _clone(trace, op, operands):
    """`op` emitted into `trace` on `operands` (tracers): a splat constant
    as a constant whose value the rules can read."""
    if op.name == "mlax.constant":
        value = _splat(op)
        if value is not None:
            aval = primitives._aval_of_type(op.results[0].type, False)
            array = np.asarray(value, aval.dtype)
            out = Tracer(primitives.constant_value(trace, array, aval), aval, trace,
                         known=np.broadcast_to(array, aval.shape))
            return _noted_again(op, [out])
    values = [trace.value_of(_as_tracer(x)) for x in operands]
    # (Detached until its operands are the trace's: the function's values
    # must have no use outside it when it is erased.)
    new = op.clone(ip=False)
    for i, v in enumerate(values):
        new.operands[i] = v
    trace.ip.insert(new)
    return _noted_again(
        op, [Tracer(r, primitives._aval_of_type(r.type, False), trace) for r in new.results])


def _noted_again(op, outs):
    """`outs`, the clones of `op`'s results, noted as they were, for a
    sparsify whose function is being traced (this one inside it)."""
    notes = _notes[-1] if _notes else None
    if notes is not None and primitives.sparsify_notes:
        for r, out in zip(op.results, outs):
            for kind, values in notes.items():
                if r in values:
                    primitives.note_for_sparsify(kind, out, values[r])
    return outs


def _splat(op):
    """The one value of a splat float or integer constant, else None."""
    attr = op.attributes["value"]
    element = ir.RankedTensorType(op.results[0].type).element_type
    if not isinstance(element, (ir.FloatType, ir.IntegerType)):
        return None  # (reading a complex attribute through the bindings aborts)
    dense = ir.DenseElementsAttr(attr)
    if not dense.is_splat:
        return None
    return dense.get_splat_value().value


def _op_name(op):
    return op.name.removeprefix("mlax.")


# JAX's names where mlax's op is named differently.
_JAX_NAMES = {"convert": "convert_element_type", "reverse": "rev", "pow": "pow",
              "select_n": "select_n"}


def _no_rule(op):
    name = _op_name(op)
    if name == "compare":
        name = _DIRECTIONS[ir.IntegerAttr(op.attributes["comparison_direction"]).value]
        return (f"sparse rule for {name} is not implemented because it would result in dense "
                "output. If this is your intent, use sparse.todense() to convert your "
                "arguments to dense matrices.")
    name = _JAX_NAMES.get(name, name)
    if name in _DENSIFYING:
        return (f"sparse rule for {name} is not implemented because it would result in dense "
                "output. If this is your intent, use sparse.todense() to convert your "
                "arguments to dense matrices.")
    if name in ("vjp", "jvp", "vmap", "custom_vjp_call"):
        what = {"vjp": "derivative (grad, vjp)", "jvp": "derivative (jvp)",
                "custom_vjp_call": "custom_vjp function"}.get(name, name)
        return (f"sparsify: sparse operands of a {what} are not supported by mlax yet; "
                "convert them with sparse.todense()")
    return f"sparse rule for {name} is not implemented."


# ---------------------------------------------------------------------------
# control flow with sparse operands
# ---------------------------------------------------------------------------
# As JAX's rules: the op is emitted again, its regions interpreted with the
# sparse rules; a sparse operand travels through it as its data and indices
# (the BCOO pytree's leaves), so a loop's sparse carry must keep its nse and
# layout (the loop's usual TypeError otherwise), and the branches of a cond
# must return the same structure.

def _region(block, lookup):
    """A function of a region's arguments (tracers of the region's trace,
    or BCOO arrays) giving the values it yields, interpreted."""
    return lambda *args: _interpret_block(core.current_trace(), block, list(args), lookup)


def _cond(op, operands, lookup):
    index, args = operands[0], operands[1:]
    if isinstance(index, BCOO):
        raise NotImplementedError(_no_rule(op))
    branches = [_region(r.blocks[0], lookup) for r in op.regions]
    return _emit_cond(index, branches, args, "cond" if len(branches) == 2 else "switch")


def _while(op, operands, lookup):
    cond, body = (_region(r.blocks[0], lookup) for r in op.regions)
    return while_loop(lambda state: cond(*state)[0], lambda state: body(*state),
                      list(operands))


def _scan(op, operands, lookup):
    n_carry, n_xs, _ = (int(n) for n in ir.DenseI32ArrayAttr(
        op.attributes["operandSegmentSizes"]))
    carry, xs = operands[:n_carry], operands[n_carry:n_carry + n_xs]
    consts = operands[n_carry + n_xs:]
    if any(isinstance(x, _SPARSE) for x in xs) or (xs and not getattr(lookup, "foreign", False)):
        # (JAX's refusal; a scan of mlax's derivatives takes dense xs with
        # sparse consts, where JAX's derivative has none)
        raise NotImplementedError("sparse rule for scan with x values.")
    a = op.attributes
    body = _region(op.regions[0].blocks[0], lookup)

    def step(c, x):
        outs = body(*c, *(x or ()), *consts)
        ys = outs[n_carry:]
        if any(isinstance(y, BCOO) for y in ys):
            raise NotImplementedError(
                "sparsify: a scan whose stacked outputs (ys) are sparse is not supported "
                "(JAX's sparsify supports no ys); convert them with sparse.todense()")
        return outs[:n_carry], ys
    out, ys = scan(step, list(carry), list(xs) or None,
                   length=int(ir.IntegerAttr(a["length"]).value),
                   reverse="reverse" in a,
                   unroll=int(ir.IntegerAttr(a["unroll"]).value) if "unroll" in a else 1)
    return list(out) + list(ys)


_CONTROL_FLOW = {"mlax.cond": _cond, "mlax.while": _while, "mlax.scan": _scan}


# ---------------------------------------------------------------------------
# derivatives and vmap inside, with sparse operands
# ---------------------------------------------------------------------------
# JAX's sparsify sees the jaxpr grad and vmap have already expanded; in mlax
# they are requests (mlax.vjp, mlax.jvp, mlax.vmap) that a pass expands. The
# request, with the functions it reaches, is copied into a module of its
# own, expanded there by mlax-expand-transforms, and the result interpreted
# with the sparse rules.

_TRANSFORMS = ("mlax.vjp", "mlax.jvp", "mlax.vmap")


def _symbols(op):
    """The symbols `op` and the ops nested in it refer to."""
    found = []

    def visit(o):
        for key in o.attributes:
            attr = o.attributes[key]
            if isinstance(attr, ir.FlatSymbolRefAttr):
                found.append(attr.value)
        return ir.WalkResult.ADVANCE
    op.walk(visit)
    return found


def _expanded(trace, op, operands, lookup):
    with trace.module.context, ir.Location.unknown():
        scratch = ir.Module.create()
        copied = {}
        todo = _symbols(op)
        with ir.InsertionPoint(scratch.body):
            while todo:
                sym = todo.pop()
                if sym in copied:
                    continue
                copied[sym] = lookup(sym).clone()
                todo.extend(_symbols(copied[sym]))
            wrapper = func_d.FuncOp("__mlax_sparsify_request", ir.FunctionType.get(
                [v.type for v in op.operands], [r.type for r in op.results]))
        block = wrapper.add_entry_block()
        with ir.InsertionPoint(block):
            request = op.clone()
            for i, arg in enumerate(block.arguments):
                request.operands[i] = arg
            func_d.ReturnOp(list(request.results))
        passes_lib._pass_manager("builtin.module(mlax-expand-transforms)").run(
            scratch.operation)
    functions = {op.attributes["sym_name"].value: op.operation
                 for op in scratch.body.operations if "sym_name" in op.attributes}

    def lookup_scratch(sym):
        return functions[sym]
    lookup_scratch.foreign = True
    wrapper = functions["__mlax_sparsify_request"]
    for o in wrapper.regions[0].blocks[0].operations:  # (calls only, once expanded)
        if o.operation.name in _TRANSFORMS:
            raise NotImplementedError(_no_rule(o.operation))
    _notes.append(None)
    try:
        return _interpret(trace, wrapper, operands, lookup_scratch)
    finally:
        _notes.pop()


# Calls interpreted as part of the function (the function they call).
_INLINED = ("mlax.call", "mlax.custom_jvp_call", "mlax.remat_call")

_DIRECTIONS = ("eq", "ne", "lt", "le", "gt", "ge")  # (the dialect's order)

# Elementwise ops that are not zero at zero: their result is dense.
_DENSIFYING = frozenset((
    "acos", "acosh", "cos", "cosh", "exp", "log", "logistic", "erfc", "rsqrt", "lgamma",
    "digamma", "is_finite", "not"))


# ---------------------------------------------------------------------------
# the sparse rules, by mlax op
# ---------------------------------------------------------------------------

def _ints(op, name):
    return tuple(int(v) for v in ir.DenseI64ArrayAttr(op.attributes[name]))


def _result_shape(op):
    return tuple(ir.RankedTensorType(op.results[0].type).shape)


def _result_dtype(op):
    return primitives._aval_of_type(op.results[0].type, False).dtype


def _with_data(mat, data):
    """`mat` (a BCOO or BCSR) with other stored values."""
    bufs = (data,) + tuple(mat._bufs[1:])
    return type(mat)(bufs, shape=mat.shape, indices_sorted=mat.indices_sorted,
                     unique_indices=mat.unique_indices)


def _on_data(fn, linear=True):
    """A zero-preserving elementwise op: applied to the stored values (a
    non-linear one after summing duplicate indices, as JAX's: f(a) + f(b) is
    not f(a + b))."""
    def rule(op, mat):
        if not linear and not mat.unique_indices:
            mat = mat.sum_duplicates(nse=mat.nse, remove_zeros=False)
        return _with_data(mat, fn(mat.data))
    return rule


# Zero-preserving elementwise ops, by name (mlax's and lax's): linear ones
# and the others.
_LINEAR = ("conj", "imag", "real", "neg", "stop_gradient")
_UNARY = _LINEAR + (
    "abs", "asin", "asinh", "atan", "atanh", "expm1", "log1p", "sign", "sin", "sinh", "sqrt",
    "tan", "tanh", "cbrt", "erf", "erf_inv", "round", "floor", "ceil")
_RULES = {f"mlax.{name}": (lambda op, mat, name=name: _on_data(
    getattr(ew, name), name in _LINEAR)(op, mat)) for name in _UNARY}


def _convert(op, mat):
    dtype = _result_dtype(op)
    return _on_data(lambda d: ew.convert_element_type(d, dtype), False)(op, mat)


def _known(x):
    """The one value of `x` if it is a constant known to repeat one value."""
    if isinstance(x, _SPARSE):
        return None
    value = core.concrete_value(x)
    if value is None:
        return None
    value = np.asarray(value)
    flat = value.reshape(-1)
    return flat[0] if flat.size and (flat == flat[0]).all() else None


def _same_pattern(lhs, rhs):
    """Two BCOO arrays storing the same indices (one buffer): what one
    sparse array and values computed from it elementwise share, as JAX's
    sparsify tells them apart."""
    return (isinstance(lhs, BCOO) and isinstance(rhs, BCOO) and lhs.indices is rhs.indices
            and lhs.shape == rhs.shape and lhs.data.shape == rhs.data.shape)


def _on_both(fn, lhs, rhs):
    return BCOO((fn(lhs.data, rhs.data), lhs.indices), shape=lhs.shape,
                indices_sorted=lhs.indices_sorted, unique_indices=lhs.unique_indices)


def _full_like(x, value):
    return lax_full(x.shape, value, x.dtype)


def _mul(op, lhs, rhs):
    # (One pattern: the stored values multiply, unless duplicates would
    # multiply pairwise where their sums should, as JAX's rule.)
    if _same_pattern(lhs, rhs) and lhs.unique_indices:
        return _on_both(ew.mul, lhs, rhs)
    if isinstance(lhs, BCOO) and isinstance(rhs, BCOO):
        return bcoo_multiply_sparse(lhs, rhs)
    mat, other = (lhs, rhs) if isinstance(lhs, BCOO) else (rhs, lhs)
    scalar = _known(other)
    if scalar is not None:
        return _on_data(lambda d: ew.mul(d, _full_like(d, scalar)))(op, mat)
    return _on_data(lambda d: bcoo_multiply_dense(mat, other))(op, mat)


def _div(op, lhs, rhs):
    if isinstance(rhs, BCOO):
        raise NotImplementedError(
            "Division by a sparse array is not implemented because it would result in dense "
            "output. If this is your intent, use sparse.todense() to convert your arguments to "
            "a dense array.")
    scalar = _known(rhs)
    if scalar is not None:
        return _on_data(lambda d: ew.div(d, _full_like(d, scalar)))(op, lhs)
    return _on_data(lambda d: bcoo_multiply_dense(
        lhs, ew.div(_full_like(rhs, 1), rhs)))(op, lhs)


def _add(sign):
    def rule(op, lhs, rhs):
        if _same_pattern(lhs, rhs):
            return _on_both(ew.add if sign > 0 else ew.sub, lhs, rhs)
        if isinstance(lhs, BCOO) and isinstance(rhs, BCOO):
            if lhs.shape != rhs.shape:
                raise NotImplementedError(
                    "Addition between sparse matrices of different shapes: "
                    f"{lhs.shape} and {rhs.shape}")
            if (lhs.n_batch, lhs.n_dense) != (rhs.n_batch, rhs.n_dense):
                raise NotImplementedError(
                    "Addition between sparse matrices with different batch/dense dimensions: "
                    f"n_batch {lhs.n_batch} and {rhs.n_batch}, n_dense {lhs.n_dense} and "
                    f"{rhs.n_dense}")
            return _concatenate_stored(lhs, rhs if sign > 0 else _negated(rhs))
        if sign < 0:
            raise NotImplementedError("Subtraction between sparse and dense array.")  # (JAX's)
        mat, other = (lhs, rhs) if isinstance(lhs, BCOO) else (rhs, lhs)
        if _broadcast_up(op, 1 if mat is lhs else 0):
            raise NotImplementedError(
                "Addition between a sparse array X and a dense array Y is not implemented when "
                "the output shape is larger than Y.shape. This is to prevent silent "
                "densification of a large sparse array. If this is your intent, you can "
                "explicitly cast the sparse array to a dense matrix.")
        return ew.add(bcoo_todense(mat), other)
    return rule


def _broadcast_up(op, dense_index):
    """Whether the dense operand at `dense_index` was broadcast to the
    result's shape from a smaller one (a Python scalar or a smaller array)."""
    value = op.operands[dense_index]
    source = value.owner
    if not isinstance(source, ir.Operation) and hasattr(source, "operation"):
        source = source.operation
    if not isinstance(source, ir.Operation):
        return False  # (a block argument: an array of the full shape)
    # A broadcast (or a splat constant, a broadcast scalar) counts if the
    # trace made it to fit the op's other operand (M + 1., M + v), not if the
    # function asked for it (M + ones(M.shape), M + broadcast_to(v, M.shape)):
    # JAX's op sees the smaller operand in the first case only.
    notes = _notes[-1] if _notes else None
    if notes is not None and value not in notes["broadcast"]:
        return False
    if source.name == "mlax.broadcast_in_dim":
        return tuple(ir.RankedTensorType(source.operands[0].type).shape) != _result_shape(op)
    if source.name == "mlax.constant":
        return _splat(source) is not None and len(_result_shape(op)) > 0
    return False


def _negated(mat):
    return BCOO((ew.neg(mat.data), mat.indices), shape=mat.shape)


def _concatenate_stored(a, b):
    """a + b as one BCOO storing both's entries (duplicates add up)."""
    axis = a.n_batch
    batch = tuple(max(x, y) for x, y in zip(a.data.shape[:axis], b.data.shape[:axis]))

    def widen(x):  # (a batch dimension of size 1 against a larger one)
        if tuple(x.shape[:axis]) == batch:
            return x
        return lax.broadcast_in_dim(x, batch + tuple(x.shape[axis:]), tuple(range(x.ndim)))
    data = lax.concatenate([widen(a.data), widen(b.data)], axis)
    indices = lax.concatenate([widen(a.indices), widen(b.indices)], axis)
    return BCOO((data, indices), shape=a.shape)


def _pow(op, base, exponent):
    if isinstance(exponent, _SPARSE):
        raise NotImplementedError(_no_rule(op))
    # As JAX's, which has a rule for integer_pow only: a power by a concrete
    # integer (M ** 2, not M ** 2.0, which trace to the same op: the trace
    # noted which, and the exponent), positive.
    notes = _notes[-1] if _notes else None
    if notes is not None:
        if op.results[0] not in notes["integer_pow"]:
            raise NotImplementedError(_no_rule(op))
        c = notes["integer_pow"][op.results[0]]
    else:
        c = _known(exponent)
    if c is None or np.iscomplexobj(c) or c != np.round(c):
        raise NotImplementedError(_no_rule(op))
    if not c > 0:
        raise NotImplementedError(
            f"sparse rule for integer_pow with non-positive exponent {int(c)} is not "
            "implemented because it would result in dense output. If this is your intent, "
            "use sparse.todense() to convert your argument to a dense array.")
    return _on_data(lambda d: ew.pow(d, _full_like(d, c)), False)(op, base)


def _optional_ints(op, name):
    return _ints(op, name) if name in op.attributes else ()


def _dot_general_rule(dot_general):
    """The rule of mlax.dot_general by `dot_general` (bcoo's or bcsr's)."""
    def rule(op, lhs, rhs):
        get = functools.partial(_optional_ints, op)
        dims = ((get("lhs_contracting_dimensions"), get("rhs_contracting_dimensions")),
                (get("lhs_batching_dimensions"), get("rhs_batching_dimensions")))
        return dot_general(lhs, rhs, dimension_numbers=dims,
                           preferred_element_type=_result_dtype(op))
    return rule


def _reduce_sum(op, mat):
    out = bcoo_reduce_sum(mat, axes=_ints(op, "axes"))
    return bcoo_todense(out) if not out.shape else out


def _concatenate(op, *operands):
    if not all(isinstance(x, BCOO) for x in operands):
        raise NotImplementedError(
            "sparsify: concatenating sparse and dense arrays is not supported; convert the "
            "sparse ones with sparse.todense()")
    return bcoo_concatenate(list(operands), dimension=int(op.attributes["dimension"].value))


def _dynamic_slice(op, mat, *starts):
    if any(isinstance(s, BCOO) for s in starts):
        raise NotImplementedError(_no_rule(op))
    return bcoo_dynamic_slice(mat, list(starts), _ints(op, "slice_sizes"))


def _gather(op, mat, start_indices):
    if isinstance(start_indices, _SPARSE):
        raise NotImplementedError(_no_rule(op))
    get = functools.partial(_optional_ints, op)
    dn = GatherDimensionNumbers(
        offset_dims=get("offset_dims"), collapsed_slice_dims=get("collapsed_slice_dims"),
        start_index_map=get("start_index_map"), operand_batching_dims=get("operand_batching_dims"),
        start_indices_batching_dims=get("start_indices_batching_dims"))
    if dn.operand_batching_dims:
        raise NotImplementedError("sparsify: a gather with batching dimensions of a sparse "
                                  "operand is not supported")
    # (The op gathers in bounds: what an index mode adds are ops around it.)
    return bcoo_gather(mat, start_indices, dn, get("slice_sizes"),
                       indices_are_sorted="indices_are_sorted" in op.attributes)


def _conv(op, lhs, rhs):
    flat = _ints(op, "padding")
    return bcoo_conv_general_dilated(
        lhs, rhs, window_strides=_ints(op, "window_strides"),
        padding=tuple(zip(flat[::2], flat[1::2])), lhs_dilation=_ints(op, "lhs_dilation"),
        rhs_dilation=_ints(op, "rhs_dilation"), dimension_numbers=ConvDimensionNumbers(
            _ints(op, "lhs_spec"), _ints(op, "rhs_spec"), _ints(op, "out_spec")),
        feature_group_count=int(ir.IntegerAttr(op.attributes["feature_group_count"]).value),
        batch_group_count=int(ir.IntegerAttr(op.attributes["batch_group_count"]).value),
        preferred_element_type=_result_dtype(op))


_RULES.update({
    "mlax.conv_general_dilated": _conv,
    "mlax.gather": _gather,
    "mlax.convert": _convert,
    "mlax.mul": _mul,
    "mlax.div": _div,
    "mlax.add": _add(1),
    "mlax.sub": _add(-1),
    "mlax.pow": _pow,
    "mlax.dot_general": _dot_general_rule(bcoo_dot_general),
    "mlax.reduce_sum": _reduce_sum,
    "mlax.transpose": lambda op, m: bcoo_transpose(m, permutation=_ints(op, "permutation")),
    "mlax.reshape": lambda op, m: bcoo_reshape(m, new_sizes=_result_shape(op)),
    "mlax.broadcast_in_dim": lambda op, m: bcoo_broadcast_in_dim(
        m, shape=_result_shape(op), broadcast_dimensions=_ints(op, "broadcast_dimensions")),
    "mlax.concatenate": _concatenate,
    "mlax.slice": lambda op, m: bcoo_slice(
        m, start_indices=_ints(op, "start_indices"), limit_indices=_ints(op, "limit_indices"),
        strides=_ints(op, "strides") if "strides" in op.attributes else None),
    "mlax.reverse": lambda op, m: bcoo_rev(m, _ints(op, "dimensions")),
    "mlax.dynamic_slice": _dynamic_slice,
})


# BCSR's rules: JAX's few (elementwise ops on the stored values, products
# with a dense rhs, broadcasting and concatenation); an op with a BCSR
# operand and none is JAX's NotImplementedError.

def _bcsr_concatenate(op, *operands):
    if not all(isinstance(x, BCSR) for x in operands):
        raise NotImplementedError(
            "sparsify: concatenating BCSR arrays with other arrays is not supported; convert "
            "them with sparse.todense()")
    return bcsr_concatenate(list(operands), dimension=int(op.attributes["dimension"].value))


def _bcsr_reshape(op, mat):
    """A reshape that only inserts dimensions of size 1 (as jnp.stack and
    expand_dims make, which JAX's BCSR rules take as a broadcast)."""
    old, new = mat.shape, _result_shape(op)
    dims, j = [], 0
    for size in old:
        while j < len(new) and new[j] != size:
            j += 1
        dims.append(j)
        j += 1
    if j > len(new) or any(new[k] != 1 for k in range(len(new)) if k not in dims):
        raise NotImplementedError(_no_rule(op))
    return bcsr_broadcast_in_dim(mat, shape=new, broadcast_dimensions=tuple(dims))


_BCSR_RULES = {name: _RULES[name] for name in ("mlax.convert", "mlax.pow", *(
    f"mlax.{n}" for n in _UNARY))}
_BCSR_RULES.update({
    "mlax.dot_general": _dot_general_rule(bcsr_dot_general),
    "mlax.broadcast_in_dim": lambda op, m: bcsr_broadcast_in_dim(
        m, shape=_result_shape(op), broadcast_dimensions=_ints(op, "broadcast_dimensions")),
    "mlax.concatenate": _bcsr_concatenate,
    "mlax.reshape": _bcsr_reshape,
})

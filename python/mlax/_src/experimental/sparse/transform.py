"""jax.experimental.sparse.sparsify: a function written for dense arrays,
run on sparse ones.

JAX interprets the function's jaxpr with a sparse rule per primitive. mlax
has no jaxprs; it traces the function abstractly, with a dense stand-in
(the sparse array's shape and dtype) for each BCOO argument, into a private
function of the module being traced, and then interprets that function's
ops in the enclosing trace: an op none of whose operands is sparse is
cloned there as it is (its location, the user's line, kept); an op with a
sparse operand runs its sparse rule, a BCOO operation (mlax's BCOO
operations are compositions of lax ops, so the result is traced as any
other). A `jit` inside is interpreted as part of the function. Ops whose
result would be dense (cos, exp, a comparison, sparse plus dense of a
larger shape, division by a sparse array) are JAX's NotImplementedError,
as are ops with no sparse rule.

Where mlax differs from JAX (each a NotImplementedError, where JAX has a
rule): control flow (cond, while_loop, scan) and derivatives (grad, jvp)
inside the function with a sparse operand, and the product of two sparse
arrays; only BCOO arguments are sparsified (JAX also takes BCSR). A dense
constant of one repeated value (jnp.ones(M.shape)) added to a sparse
array counts as a broadcast scalar, whose sum JAX refuses (mlax's IR does
not tell the two apart).
"""
from __future__ import annotations

import functools

import numpy as np
from mlir import ir

from mlax._src.base.tree import registry
from mlax._src.core import primitives, tracing
from mlax._src.core import tracer as core
from mlax._src.core.tracer import ShapedArray, Tracer
from mlax._src.core.tracing import _name_of, _run
from mlax._src.lax import elementwise as ew
from mlax._src.lax import lax
from mlax._src.lax.shape import full as lax_full
from mlax._src.transforms.autodiff import _as_tracer, _function_named
from mlax._src.experimental.sparse.base import JAXSparse
from mlax._src.experimental.sparse.bcoo import (
    BCOO, bcoo_dot_general, bcoo_multiply_dense, bcoo_multiply_sparse, bcoo_reduce_sum,
    bcoo_todense, bcoo_transpose)
from mlax._src.experimental.sparse.bcoo_structural import (
    bcoo_broadcast_in_dim, bcoo_concatenate, bcoo_dynamic_slice, bcoo_reshape, bcoo_rev,
    bcoo_slice)


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
            if isinstance(leaf, JAXSparse) and not isinstance(leaf, BCOO):
                raise NotImplementedError(
                    f"sparsify: arguments of type {type(leaf).__name__} are not supported by "
                    "mlax yet; convert them to BCOO (e.g. with .to_bcoo())")
        if not core.trace_stack():  # (an eager call: one program, as mlax's transformations)
            return _run(lambda *a, **k: _sparsify_traced(f, a, k),
                        f"sparsify_{_name_of(f)}", args, kwargs)
        return _sparsify_traced(f, args, kwargs)

    return sparsified


def _is_sparse(x):
    return isinstance(x, JAXSparse)


def _sparsify_traced(f, args, kwargs):
    leaves, tree = registry.flatten((args, kwargs), _is_sparse)
    avals = [ShapedArray(x.shape, x.dtype) if isinstance(x, BCOO) else tracing._leaf_aval(x)
             for x in leaves]
    info = {}

    def dense(*xs):
        a, k = tree.unflatten(list(xs))
        out_leaves, info["tree"] = registry.flatten(f(*a, **k))
        return out_leaves

    outer = core.current_trace()
    _, flat_tree = registry.flatten((tuple(leaves), {}), _is_sparse)
    sym, out_avals, _, captured = tracing.trace_function(
        outer, dense, flat_tree, tuple(avals), tracing._plain_rebuild,
        f"sparsify_{_name_of(f)}", None, None, None, "sparsify")
    func_op = _function_named(outer, sym)
    inputs = [x if isinstance(x, BCOO) else _as_tracer(x) for x in leaves]
    try:
        outs = _interpret(outer, func_op, inputs + list(captured))
    finally:
        func_op.erase()  # (cloned or interpreted: nothing calls it)
    # The dense results keep the weak types the function gave them.
    outs = [o if isinstance(o, BCOO) else _with_aval(o, aval) for o, aval in zip(outs, out_avals)]
    return info["tree"].unflatten(outs)


def _with_aval(x, aval):
    if isinstance(x, Tracer) and x.aval.weak_type != aval.weak_type:
        return Tracer(x.value, x.aval.update(weak_type=aval.weak_type), x.trace)
    return x


def _interpret(trace, func_op, inputs):
    """The results of the private function `func_op` on `inputs` (tracers
    of `trace`, or BCOO arrays), its ops emitted into `trace`."""
    block = func_op.regions[0].blocks[0]
    env = {}
    for arg, x in zip(block.arguments, inputs):
        env[arg] = x
    for op in block.operations:
        name = op.operation.name
        if name in ("func.return", "mlax.return"):
            return [env[v] for v in op.operands]
        operands = [env[v] for v in op.operands]
        if name in _INLINED:  # a jit inside (or a custom_jvp function's primal
            # function, which is what runs of it here): part of the function
            callee = _function_named(trace, op.attributes["callee"].value)
            results = _interpret(trace, callee, operands)
        elif any(isinstance(x, BCOO) for x in operands):
            rule = _RULES.get(name)
            if rule is None:
                raise NotImplementedError(_no_rule(op))
            results = rule(op.operation, *operands)
            results = results if isinstance(results, (list, tuple)) else [results]
        else:
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
            return [Tracer(primitives.constant_value(trace, array, aval), aval, trace,
                           known=np.broadcast_to(array, aval.shape))]
    values = [trace.value_of(_as_tracer(x)) for x in operands]
    # (Detached until its operands are the trace's: the function's values
    # must have no use outside it when it is erased.)
    new = op.clone(ip=False)
    for i, v in enumerate(values):
        new.operands[i] = v
    trace.ip.insert(new)
    return [Tracer(r, primitives._aval_of_type(r.type, False), trace) for r in new.results]


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
    if name in ("cond", "while", "scan", "vjp", "jvp", "vmap", "custom_vjp_call"):
        what = {"vjp": "derivative (grad, vjp)", "jvp": "derivative (jvp)",
                "custom_vjp_call": "custom_vjp function"}.get(name, name)
        return (f"sparsify: sparse operands of a {what} are not supported by mlax yet; "
                "convert them with sparse.todense()")
    return f"sparse rule for {name} is not implemented."


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


def _on_data(fn):
    """A zero-preserving elementwise op: applied to the stored values."""
    def rule(op, mat):
        return BCOO((fn(mat.data), mat.indices), shape=mat.shape,
                    indices_sorted=mat.indices_sorted, unique_indices=mat.unique_indices)
    return rule


# Zero-preserving elementwise ops, by name (mlax's and lax's).
_UNARY = ("abs", "asin", "asinh", "atan", "atanh", "expm1", "log1p", "sign", "sin", "sinh",
          "sqrt", "tan", "tanh", "conj", "imag", "real", "neg", "stop_gradient", "cbrt", "erf",
          "erf_inv", "round", "floor", "ceil")
_RULES = {f"mlax.{name}": (lambda op, mat, name=name: _on_data(getattr(ew, name))(op, mat))
          for name in _UNARY}


def _convert(op, mat):
    dtype = _result_dtype(op)
    return _on_data(lambda d: ew.convert_element_type(d, dtype))(op, mat)


def _known(x):
    """The one value of `x` if it is a constant known to repeat one value."""
    if isinstance(x, BCOO):
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
    if _same_pattern(lhs, rhs):
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
        mat, other = (lhs, rhs) if isinstance(lhs, BCOO) else (rhs, lhs)
        if _broadcast_up(op, 1 if mat is lhs else 0):
            raise NotImplementedError(
                "Addition between a sparse array X and a dense array Y is not implemented when "
                "the output shape is larger than Y.shape. This is to prevent silent "
                "densification of a large sparse array. If this is your intent, you can "
                "explicitly cast the sparse array to a dense matrix.")
        x = bcoo_todense(mat)
        if sign > 0:
            return ew.add(x, other)
        return ew.sub(x, other) if mat is lhs else ew.sub(other, x)
    return rule


def _broadcast_up(op, dense_index):
    """Whether the dense operand at `dense_index` was broadcast to the
    result's shape from a smaller one (a Python scalar or a smaller array)."""
    source = op.operands[dense_index].owner
    if not isinstance(source, ir.Operation) and hasattr(source, "operation"):
        source = source.operation
    if not isinstance(source, ir.Operation):
        return False  # (a block argument: an array of the full shape)
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
    if isinstance(exponent, BCOO):
        raise NotImplementedError(_no_rule(op))
    c = _known(exponent)
    if c is None or not c > 0:
        raise NotImplementedError(
            "sparse rule for pow is not implemented unless the exponent is a positive "
            "constant (the result would be dense).")
    return _on_data(lambda d: ew.pow(d, _full_like(d, c)))(op, base)


def _dot_general(op, lhs, rhs):
    a = op.attributes
    get = (lambda k: _ints(op, k) if k in a else ())
    dims = ((get("lhs_contracting_dimensions"), get("rhs_contracting_dimensions")),
            (get("lhs_batching_dimensions"), get("rhs_batching_dimensions")))
    return bcoo_dot_general(lhs, rhs, dimension_numbers=dims,
                            preferred_element_type=_result_dtype(op))


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


_RULES.update({
    "mlax.convert": _convert,
    "mlax.mul": _mul,
    "mlax.div": _div,
    "mlax.add": _add(1),
    "mlax.sub": _add(-1),
    "mlax.pow": _pow,
    "mlax.dot_general": _dot_general,
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

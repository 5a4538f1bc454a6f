"""lax's reductions (reduce_sum/prod/max/min/and/or), cumsum and sort, and
the reductions built from them: reduce_xor, argmax/argmin, and reduce: over
the standard monoids with their ops, with any other computation (and over
several operands) as one `mlax.reduce` whose body is the traced computation.
"""
from __future__ import annotations

import builtins
import operator

import numpy as np
from mlir import ir
from mlir.dialects import func as func_d

from mlax._src.base import dtypes
from mlax._src.base.config import config
from mlax._src.base.tree import registry
from mlax._src.core import primitives, tracing
from mlax._src.core import tracer as core
from mlax._src.core.primitives import Primitive, _ops, aval_of, bind, shape_error
from mlax._src.core.tracer import ShapedArray, Trace, Tracer

from mlax._src.lax.elementwise import (
    _check_kind, _i64, _i64_array, add, bitwise_and, bitwise_or, convert_element_type,
    bitwise_xor, eq, mul, ne, select)
from mlax._src.lax.elementwise import complex as lax_complex, imag, real
from mlax._src.lax.elementwise import max as lax_max, min as lax_min
from mlax._src.lax.shape import (
    broadcast, broadcast_in_dim, broadcasted_iota, concatenate, full, full_like, reshape,
    slice_in_dim, transpose)


_F16_TYPES = (np.dtype(np.float16), dtypes.bfloat16)


def _reduction(name, op_class, kind):
    # The result type is the op's C++ rule (`inferReduce` in
    # MlaxReductionOps.cpp); Python checks the dtype kind.
    def check(x, *, axes):
        _check_kind(name, kind, x)
        if name == "reduce_sum" and not config.jax_allow_f16_reductions \
                and x.dtype in _F16_TYPES and any(x.shape[a] != 1 for a in axes
                                                  if -len(x.shape) <= a < len(x.shape)):
            raise ValueError(f"reduce_sum on operand {x.str_short()} is not allowed "
                             "when jax_allow_f16_reductions=False.")

    def emit(values, avals, *, axes):
        return getattr(_ops(), op_class)(values[0], _i64_array(axes)).result

    prim = Primitive(name, emit, check=check,
                     errors={"out of range": ValueError, "appears twice": ValueError})

    def fn(x, axes):
        axes = tuple(sorted(int(a) for a in axes))
        return bind(prim, x, axes=axes)

    fn.__name__ = name
    return fn


reduce_sum = _reduction("reduce_sum", "ReduceSumOp", "number")
reduce_prod = _reduction("reduce_prod", "ReduceProdOp", "number")
_reduce_max = _reduction("reduce_max", "ReduceMaxOp", "any")
_reduce_min = _reduction("reduce_min", "ReduceMinOp", "any")


def _complex_extreme(x, axes, last):
    """max (last=True) or min of complex x over `axes`, ordered
    lexicographically (real part first), as JAX's: the reduced axes moved
    last and flattened, sorted (lax.sort orders complex keys that way), and
    the last or first element taken. (XLA's own reduce of complex max
    fails to compile.)"""
    aval = aval_of(x)
    axes = sorted(int(a) % builtins.max(aval.ndim, 1) for a in axes)
    keep = [i for i in range(aval.ndim) if i not in axes]
    kept_shape = [aval.shape[i] for i in keep]
    n = int(np.prod([aval.shape[i] for i in axes], dtype=np.int64))
    if not axes:
        return x
    if n == 0:  # the identity, as JAX's: -inf (max) or +inf (min)
        return full(kept_shape, complex(-np.inf if last else np.inf, 0), aval.dtype)
    flat = reshape(transpose(x, keep + axes), kept_shape + [n])
    ordered = sort(flat, dimension=len(keep))
    index = n - 1 if last else 0
    return reshape(slice_in_dim(ordered, index, index + 1, axis=len(keep)), kept_shape)


def reduce_max(x, axes):
    """The maximum over `axes` (complex: real part first, then imaginary
    part, as jax.lax.reduce_max)."""
    if dtypes.is_complex(aval_of(x).dtype):
        return _complex_extreme(x, axes, True)
    return _reduce_max(x, axes)


def reduce_min(x, axes):
    """The minimum over `axes` (complex: real part first, then imaginary
    part, as jax.lax.reduce_min)."""
    if dtypes.is_complex(aval_of(x).dtype):
        return _complex_extreme(x, axes, False)
    return _reduce_min(x, axes)
_reduce_and = _reduction("reduce_and", "ReduceAndOp", "any")
_reduce_or = _reduction("reduce_or", "ReduceOrOp", "any")


def reduce_and(x, axes):
    """The logical AND over `axes` (bool), or the bitwise AND of integers
    (as jax.lax.reduce_and)."""
    if aval_of(x).dtype == dtypes.bool_:
        return _reduce_and(x, axes)
    return _fold_bitwise("reduce_and", x, axes, bitwise_and, -1)


def reduce_or(x, axes):
    """The logical OR over `axes` (bool), or the bitwise OR of integers."""
    if aval_of(x).dtype == dtypes.bool_:
        return _reduce_or(x, axes)
    return _fold_bitwise("reduce_or", x, axes, bitwise_or, 0)


def reduce_xor(operand, axes):
    """jax.lax.reduce_xor: the bitwise XOR over `axes` (bool or integer
    operands)."""
    return _fold_bitwise("reduce_xor", operand, axes, bitwise_xor, 0)


def _fold_bitwise(name, operand, axes, op, identity):
    """`op` (a bitwise AND, OR or XOR) over `axes`, folded pairwise: the
    reduced axes go last as one, and each step combines its two halves (the
    odd element carried along). `identity` is the empty reduction's value
    (-1: all bits set, or True for bool)."""
    aval = aval_of(operand)
    if not (dtypes.is_int(aval.dtype) or dtypes.is_bool(aval.dtype)):
        raise shape_error(f"lax.{name}", "logical reduction requires operand dtype bool or "
                          f"int, got {aval.dtype.name}")
    axes = tuple(operator.index(a) for a in axes)
    if len(set(axes)) != len(axes) or builtins.any(not 0 <= a < aval.ndim for a in axes):
        raise shape_error(f"lax.{name}", f"axes {axes} must be distinct axes of shape "
                          f"{aval.shape}", ValueError)
    kept = [d for d in range(aval.ndim) if d not in axes]
    kept_shape = tuple(aval.shape[d] for d in kept)
    n = int(np.prod([aval.shape[a] for a in axes], dtype=np.int64))
    if n == 0:
        fill = (identity != 0) if dtypes.is_bool(aval.dtype) else \
            np.array(identity).astype(aval.dtype)
        return full(kept_shape, fill, aval.dtype)
    x = reshape(transpose(operand, kept + sorted(axes)), kept_shape + (n,))
    last = len(kept_shape)
    while n > 1:
        h = n // 2
        folded = op(slice_in_dim(x, 0, h, axis=last), slice_in_dim(x, h, 2 * h, axis=last))
        x = concatenate([folded, slice_in_dim(x, 2 * h, n, axis=last)], last) if n % 2 else folded
        n = h + n % 2
    return reshape(x, kept_shape)


# The result types are SortOp's C++ rule (MlaxMathOps.cpp: the operands'
# types, for operands of one shape, a dimension in range and real keys).
def _sort_emit(values, avals, *, dimension, is_stable, num_keys):
    op = _ops().SortOp(values, _i64(dimension), ir.BoolAttr.get(bool(is_stable)),
                       _i64(num_keys))
    return list(op.results)


_sort_p = Primitive("sort", _sort_emit, multiple_results=True,
                    # Each result keeps its operand's weak type, as JAX's sort.
                    weak_type=lambda *avals, **params: [a.weak_type for a in avals],
                    errors={"num_keys": ValueError, "out of range": ValueError})


def sort(operand, dimension=-1, is_stable=True, num_keys=1):
    """Sorts `operand` (an array or a sequence of arrays sorted together by
    the first `num_keys`) along `dimension`, as jax.lax.sort."""
    single = not isinstance(operand, (tuple, list))
    operands = (operand,) if single else tuple(operand)
    if not operands:
        raise ValueError("lax.sort: needs at least one operand")
    ndim = aval_of(operands[0]).ndim
    if ndim == 0:
        raise TypeError("lax.sort: cannot sort a scalar (0-d array)")
    dim = int(dimension)
    if not -ndim <= dim < ndim:
        raise ValueError(f"lax.sort: dimension {dimension} is out of range for rank {ndim}")
    num_keys = int(num_keys)
    if builtins.any(dtypes.is_complex(aval_of(o).dtype) for o in operands[:num_keys]):
        # Complex keys order lexicographically, real part first (as JAX's
        # comparator): each becomes two real keys, sorted along with it.
        keys = []
        for o in operands[:num_keys]:
            keys += [real(o), imag(o)] if dtypes.is_complex(aval_of(o).dtype) else [o]
        out = bind(_sort_p, *keys, *operands, dimension=dim % ndim,
                   is_stable=bool(is_stable), num_keys=len(keys))[len(keys):]
    else:
        out = bind(_sort_p, *operands, dimension=dim % ndim, is_stable=bool(is_stable),
                   num_keys=num_keys)
    return out[0] if single else tuple(out)


def sort_key_val(keys, values, dimension=-1, is_stable=True):
    """Sorts `keys` along `dimension` and applies the same permutation to `values`."""
    return sort((keys, values), dimension=dimension, is_stable=is_stable, num_keys=1)


# The result type is CumsumOp's C++ rule (the operand's, for an axis in
# range); Python checks the dtype kind.
def _cumsum_emit(values, avals, *, axis, reverse):
    return _ops().CumsumOp(values[0], _i64(axis), reverse=bool(reverse)).result


_cumsum_p = Primitive("cumsum", _cumsum_emit,
                      check=lambda x, *, axis, reverse: _check_kind("cumsum", "number", x),
                      errors={"out of range": ValueError})


def cumsum(operand, axis=0, reverse=False):
    """Inclusive cumulative sum along `axis` (jax.lax.cumsum)."""
    ndim = aval_of(operand).ndim
    if not -ndim <= int(axis) < ndim:
        raise ValueError(f"lax.cumsum: axis {axis} is out of bounds for array of rank {ndim}")
    if aval_of(operand).shape[int(axis)] == 0:
        return operand  # nothing to sum (XLA has no empty windows)
    if dtypes.is_complex(aval_of(operand).dtype):
        # Sums add componentwise: the real and imaginary parts' cumsums.
        return lax_complex(cumsum(real(operand), axis, reverse),
                           cumsum(imag(operand), axis, reverse))
    return bind(_cumsum_p, operand, axis=int(axis) % ndim, reverse=bool(reverse))


# ---------------------------------------------------------------------------
# argmax, argmin
# ---------------------------------------------------------------------------

def _argminmax(name, operand, axis, index_dtype, reduce_fn):
    full_name = f"lax.{name}"
    aval = aval_of(operand)
    try:
        index_dtype = dtypes.canonicalize(index_dtype)
    except TypeError:
        raise TypeError(f"{full_name}: index_dtype must be an integer type, got "
                        f"{index_dtype!r} (at {core.user_location_str()})") from None
    if not dtypes.is_int(index_dtype):
        raise shape_error(full_name, f"index_dtype must be an integer type, got "
                          f"{np.dtype(index_dtype).name}")
    if dtypes.is_complex(aval.dtype):
        raise shape_error(full_name, f"does not accept dtype {aval.dtype.name}")
    axis = operator.index(axis)
    if not 0 <= axis < aval.ndim:
        raise shape_error(full_name, f"invalid axis {axis} for operand shape {aval.shape}",
                          ValueError)
    n = aval.shape[axis]
    if n == 0:
        raise shape_error(full_name, f"needs a non-empty axis {axis}, got shape {aval.shape}",
                          ValueError)
    kept = [d for d in range(aval.ndim) if d != axis]
    extreme = broadcast_in_dim(reduce_fn(operand, (axis,)), aval.shape, kept)
    hit = eq(operand, extreme)
    if dtypes.is_float(aval.dtype):
        hit = bitwise_or(hit, ne(operand, operand))  # NaN is the extreme, as in JAX
    positions = broadcasted_iota(index_dtype, aval.shape, axis)
    candidates = select(hit, positions, full_like(positions, n))
    return reduce_min(candidates, (axis,))


def argmax(operand, axis, index_dtype):
    """The index of the maximum along `axis` (the first on ties; NaN counts as
    the maximum), as jax.lax.argmax."""
    return _argminmax("argmax", operand, axis, index_dtype, reduce_max)


def argmin(operand, axis, index_dtype):
    """The index of the minimum along `axis` (the first on ties; NaN counts as
    the minimum), as jax.lax.argmin."""
    return _argminmax("argmin", operand, axis, index_dtype, reduce_min)


# ---------------------------------------------------------------------------
# reduce over the standard monoids
# ---------------------------------------------------------------------------

# The computations `reduce` recognises, by monoid. The numpy layer adds its
# own functions (mnp.add, mnp.maximum, ...) when it is imported.
_MONOIDS = {}


def register_monoid(kind, *functions):
    for f in functions:
        _MONOIDS[f] = kind


def _monoids():
    return _MONOIDS


register_monoid("add", add, operator.add)
register_monoid("mul", mul, operator.mul)
register_monoid("max", lax_max)  # the builtins keep their names here
register_monoid("min", lax_min)
register_monoid("and", bitwise_and, operator.and_)
register_monoid("or", bitwise_or, operator.or_)


def _identity(kind, dtype):
    if kind == "add":
        return 0
    if kind == "mul":
        return 1
    if kind in ("and", "or"):
        return kind == "and"
    if dtypes.is_complex(dtype):  # (as JAX's: an infinite real part)
        return complex(-np.inf if kind == "max" else np.inf, 0)
    if dtypes.is_float(dtype):
        if not dtypes.supports_inf(dtype):  # no inf (float8_e4m3fn, ...): its extremes
            info = dtypes.finfo(dtype)
            return info.min if kind == "max" else info.max
        return -np.inf if kind == "max" else np.inf
    if dtypes.is_bool(dtype):
        return kind == "min"
    info = dtypes.iinfo(dtype)
    return info.min if kind == "max" else info.max


def reduce(operands, init_values, computation, dimensions):  # noqa: A001
    """jax.lax.reduce: reduces `operands` (an array or a pytree of arrays of
    one shape) over `dimensions` with `computation`, which maps two pytrees
    of scalars shaped as `init_values` to one such pytree. One operand with a
    standard monoid computation (lax.add, lax.mul, lax.max, lax.min,
    lax.bitwise_and, lax.bitwise_or or their mlax.numpy / operator twins)
    uses that reduction's op (a non-identity init value is combined into the
    result once), as JAX does; anything else is one `mlax.reduce` whose body
    is `computation` traced on scalars. The result has the structure the
    computation returns (one array for one operand reduced with a monoid)."""
    name = "lax.reduce"
    flat_operands, operand_tree = registry.flatten(operands)
    flat_inits, init_tree = registry.flatten(init_values)
    if operand_tree != init_tree:
        raise ValueError("Operands must have the same tree structure as init_values: "
                         f"{operand_tree} vs. {init_tree}")
    if len(flat_operands) != len(flat_inits):
        raise ValueError("Must have same total number of operands as init_values: "
                         f" {len(flat_operands)} vs. {len(flat_inits)}")
    if not flat_operands:
        raise ValueError(f"{name}: needs at least one operand")
    if len(flat_operands) == 1:
        kind = _monoids().get(computation)
        if kind is None:  # the public lax ops wrap the strict ones registered here
            kind = _monoids().get(getattr(computation, "__wrapped__", None))
        if kind is not None:
            return _reduce_monoid(kind, flat_operands[0], flat_inits[0], dimensions)
    if not callable(computation):
        raise TypeError(f"{name}: computation must be callable, got {computation!r}")
    dims = tuple(operator.index(d) for d in dimensions)

    def traced(ops, inits):
        return _emit_reduce(list(ops), list(inits), init_tree, computation, dims)

    return tracing._run(traced, "reduce", (flat_operands, flat_inits))


# Only for the messages of mlax.reduce's C++ shape rule: JAX's classes.
_reduce_p = Primitive("reduce", None, multiple_results=True,
                      errors={"out of bounds": IndexError, "dtypes should match": TypeError,
                              "": ValueError},
                      label=lambda params: "lax.reduce")


def _emit_reduce(operands, inits, init_tree, computation, dims):
    """One `mlax.reduce` of `operands` in the current trace, its body
    `computation` traced on scalars; the results unflattened as the
    computation's output. The result types are the op's C++ rule's
    (`ReduceOp::inferReturnTypes`), run before the body is traced."""
    avals = [aval_of(x) for x in operands]
    init_avals = [aval_of(x) for x in inits]
    outer = core.current_trace()
    values = [primitives.to_value(outer, x, a) for x, a in zip(operands, avals)]
    init_values = [primitives.to_value(outer, x, a) for x, a in zip(inits, init_avals)]
    with outer.ip, core.user_location():
        try:
            op = ir.Operation.create("mlax.reduce", operands=values + init_values,
                                     attributes={"dimensions": _i64_array(dims)},
                                     regions=1, infer_type=True)
        except ir.MLIRError as e:
            raise primitives.diagnostic_error(_reduce_p, e, avals + init_avals, {}) from None
    try:
        scratch, block, out_tree = _trace_reduce_body(outer, computation, init_tree,
                                                      init_avals)
    except BaseException:
        op.erase()
        raise
    block.append_to(op.regions[0])
    scratch.operation.erase()
    out = [Tracer(r, primitives._aval_of_type(r.type, a.weak_type and i.weak_type), outer)
           for r, a, i in zip(op.results, avals, init_avals)]
    return out_tree.unflatten(out)

_reduce_bodies = [0]


def _trace_reduce_body(outer: Trace, computation, init_tree, init_avals):
    """`computation` traced on two pytrees of scalars shaped as the init
    values, into a block (of a scratch func.func) ending in mlax.yield; its
    output tree. Errors as JAX's: a body closing over tracers, or one whose
    output is not one scalar of each operand's dtype."""
    module = outer.module
    scalars = [ShapedArray((), a.dtype, a.weak_type) for a in init_avals]
    in_avals = scalars + scalars
    n = len(scalars)
    positions = init_tree.unflatten(list(range(n)))
    args_tree = registry.flatten(((positions, positions), {}))[1]
    with module.context, ir.Location.unknown():
        with ir.InsertionPoint(module.body), tracing._fun_location(computation):
            _reduce_bodies[0] += 1
            scratch = func_d.FuncOp(f"__mlax_region_reduce_{_reduce_bodies[0]}",
                                    ir.FunctionType.get([a.mlir_type() for a in in_avals],
                                                        []))
            scratch.attributes["sym_visibility"] = ir.StringAttr.get("private")
        block = scratch.add_entry_block()
        trace = Trace(module, scratch, block, parent=outer)
        trace.traced_for = "reduce"
        try:
            values, out_avals, out_tree = tracing._trace_into(
                trace, computation, args_tree, in_avals, list(block.arguments),
                tracing._plain_rebuild)
            if trace.captures:
                raise NotImplementedError(
                    "Reduction computations can't close over Tracers. Please open an issue "
                    "at https://github.com/jax-ml/jax.")
            if len(values) != n:
                raise ValueError(f"lax.reduce: the reduction computation must produce {n} "
                                 f"tensors (one per operand), but produces {len(values)} "
                                 f"instead (at {core.user_location_str()})")
            for i, (have, want) in enumerate(zip(out_avals, scalars)):
                if have.shape != () or have.dtype != want.dtype:
                    raise ValueError(
                        "lax.reduce: the type of the reduction computation's parameter at "
                        f"index {i} is different than the corresponding result type: "
                        f"{want.str_short()} vs {have.str_short()} "
                        f"(at {core.user_location_str()})")
            if _has_loop(block):
                raise NotImplementedError(
                    "lax.reduce: the reduction computation contains a loop (while_loop, "
                    "fori_loop or scan), which XLA cannot compile inside a reduction; "
                    "reduce with an associative computation without loops "
                    f"(at {core.user_location_str()})")
            with ir.InsertionPoint(block):
                _ops().YieldOp(values)
        except BaseException:
            scratch.operation.erase()
            raise
    return scratch, block, out_tree


def _has_loop(block) -> bool:
    """Whether `block` holds an mlax.while or mlax.scan, at any depth."""
    for op in block.operations:
        if op.operation.name in ("mlax.while", "mlax.scan"):
            return True
        if builtins.any(_has_loop(b) for region in op.operation.regions for b in region.blocks):
            return True
    return False


def _reduce_monoid(kind, operands, init_values, dimensions):
    """reduce of one operand over a standard monoid, with that monoid's op."""
    name = "lax.reduce"
    aval = aval_of(operands)
    dims = tuple(int(d) for d in dimensions)
    if builtins.any(not 0 <= d < aval.ndim for d in dims) or len(set(dims)) != len(dims):
        raise shape_error(name, f"dimensions {dims} must be distinct axes of shape "
                          f"{aval.shape}", ValueError)
    init_aval = aval_of(init_values)
    if init_aval.shape != ():
        raise shape_error(name, f"init value must be a scalar, got shape {init_aval.shape}")
    if dtypes.is_python_scalar(init_values):
        init = convert_element_type(init_values, aval.dtype)
    elif init_aval.dtype != aval.dtype:
        raise shape_error(name, f"init value dtype {init_aval.dtype.name} must match the "
                          f"operand's {aval.dtype.name}")
    else:
        init = init_values
    if kind in ("and", "or"):
        if not dtypes.is_bool(aval.dtype):
            raise NotImplementedError(f"{name}: bitwise and/or reductions of "
                                      f"{aval.dtype.name} are not supported (bool only) "
                                      f"(at {core.user_location_str()})")
        out = (reduce_and if kind == "and" else reduce_or)(operands, dims)
        combine = bitwise_and if kind == "and" else bitwise_or
    else:
        fn = {"add": reduce_sum, "mul": reduce_prod, "max": reduce_max,
              "min": reduce_min}[kind]
        out = fn(operands, dims)
        combine = {"add": add, "mul": mul, "max": lax_max, "min": lax_min}[kind]
    try:
        concrete = np.asarray(init_values)
    except Exception:  # a tracer
        concrete = None
    if concrete is not None and concrete.dtype != object and concrete == _identity(
            kind, aval.dtype):
        return out
    return combine(out, broadcast(init, aval_of(out).shape))

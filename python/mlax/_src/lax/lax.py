"""mlax.lax: the strict primitive layer (one function per mlax op).

Unlike mlax.numpy, these do not broadcast or promote: binary ops need equal
shapes and dtypes, as in jax.lax.
"""
from __future__ import annotations

import builtins

import numpy as np
from mlir import ir

from mlax._src.core import tracer as core
from mlax._src.base import dtypes
from mlax._src.core.tracer import ShapedArray
from mlax._src.core.primitives import Primitive, _ops, aval_of, bind, shape_error


def _i64_array(values):
    return ir.DenseI64ArrayAttr.get([int(v) for v in values])


def _i64(value):
    return ir.IntegerAttr.get(ir.IntegerType.get_signless(64), int(value))


# ---------------------------------------------------------------------------
# Elementwise
# ---------------------------------------------------------------------------

_KIND_CHECKS = {
    "float": (dtypes.is_inexact, "floating-point or complex"),
    "real_float": (dtypes.is_float, "floating-point"),
    "signed": (lambda d: dtypes.is_inexact(d) or dtypes.is_signed_int(d),
               "signed integer, floating-point or complex"),
    "number": (lambda d: not dtypes.is_bool(d), "numeric (not bool)"),
    "real": (lambda d: not dtypes.is_bool(d) and not dtypes.is_complex(d),
             "integer or floating-point"),
    "signed_real": (lambda d: dtypes.is_float(d) or dtypes.is_signed_int(d),
                    "signed integer or floating-point"),
    "int_or_bool": (lambda d: dtypes.is_int(d) or dtypes.is_bool(d), "integer or bool"),
    "any": (lambda d: True, "any"),
}


def _check_kind(name, kind, aval):
    ok, desc = _KIND_CHECKS[kind]
    if not ok(aval.dtype):
        raise shape_error(f"lax.{name}",
                          f"does not accept dtype {aval.dtype.name}; needs {desc}")


def _unary(name, op_class, kind):
    def abstract_eval(x):
        _check_kind(name, kind, x)
        return x

    def emit(values, avals, out_aval):
        return getattr(_ops(), op_class)(values[0], results=[out_aval.mlir_type()]).result

    prim = Primitive(name, abstract_eval, emit)

    def fn(x):
        return bind(prim, x)

    fn.__name__ = name
    fn.__doc__ = f"Elementwise {name} (mlax.{name.removesuffix('_p')})."
    fn.primitive = prim
    return fn


neg = _unary("neg", "NegOp", "signed")
exp = _unary("exp", "ExpOp", "float")
log = _unary("log", "LogOp", "float")
sin = _unary("sin", "SinOp", "float")
cos = _unary("cos", "CosOp", "float")
tan = _unary("tan", "TanOp", "float")
tanh = _unary("tanh", "TanhOp", "float")
sqrt = _unary("sqrt", "SqrtOp", "float")
rsqrt = _unary("rsqrt", "RsqrtOp", "float")
abs = _unary("abs", "AbsOp", "signed_real")  # noqa: A001 (lax.abs, as in JAX)
sign = _unary("sign", "SignOp", "signed")
floor = _unary("floor", "FloorOp", "real_float")
ceil = _unary("ceil", "CeilOp", "real_float")
_round_afz = _unary("round", "RoundOp", "real_float")
_round_even = _unary("round_even", "RoundEvenOp", "real_float")
logistic = _unary("logistic", "LogisticOp", "float")
log1p = _unary("log1p", "Log1pOp", "float")
expm1 = _unary("expm1", "Expm1Op", "float")
bitwise_not = _unary("not", "NotOp", "int_or_bool")


class RoundingMethod:
    AWAY_FROM_ZERO = 0
    TO_NEAREST_EVEN = 1


def round(x, rounding_method=RoundingMethod.AWAY_FROM_ZERO):  # noqa: A001
    """lax.round: ties away from zero by default, or to even."""
    if rounding_method == RoundingMethod.TO_NEAREST_EVEN:
        return _round_even(x)
    return _round_afz(x)


def _is_finite_eval(x):
    _check_kind("is_finite", "real_float", x)
    return x.update(dtype=dtypes.bool_, weak_type=False)


_is_finite_p = Primitive(
    "is_finite", _is_finite_eval,
    lambda v, a, o: _ops().IsFiniteOp(v[0], results=[o.mlir_type()]).result)


def is_finite(x):
    return bind(_is_finite_p, x)


def _binary(name, op_class, kind):
    def abstract_eval(x, y):
        if x.dtype != y.dtype:
            raise TypeError(
                f"lax.{name} requires arguments to have the same dtypes, got "
                f"{x.dtype.name}, {y.dtype.name}. (Tip: mlax.numpy.{_NUMPY_NAME.get(name, name)} "
                f"is a similar function that does automatic type promotion on inputs.) "
                f"(at {core.user_location_str()})")
        if x.shape != y.shape:
            raise TypeError(
                f"lax.{name} requires arguments to have the same shape, got "
                f"{x.shape} and {y.shape}; mlax.numpy.{_NUMPY_NAME.get(name, name)} "
                f"broadcasts. (at {core.user_location_str()})")
        _check_kind(name, kind, x)
        return x.update(weak_type=x.weak_type and y.weak_type)

    def emit(values, avals, out_aval):
        return getattr(_ops(), op_class)(values[0], values[1],
                                         results=[out_aval.mlir_type()]).result

    prim = Primitive(name, abstract_eval, emit)

    def fn(x, y):
        return bind(prim, x, y)

    fn.__name__ = name
    fn.primitive = prim
    return fn


_NUMPY_NAME = {"sub": "subtract", "mul": "multiply", "div": "divide", "pow": "power",
               "max": "maximum", "min": "minimum", "rem": "remainder",
               "and": "logical_and", "or": "logical_or", "xor": "logical_xor",
               "atan2": "arctan2"}

add = _binary("add", "AddOp", "number")
sub = _binary("sub", "SubOp", "number")
mul = _binary("mul", "MulOp", "number")
div = _binary("div", "DivOp", "number")
pow = _binary("pow", "PowOp", "float")  # noqa: A001
max = _binary("max", "MaxOp", "any")  # noqa: A001
min = _binary("min", "MinOp", "any")  # noqa: A001
rem = _binary("rem", "RemOp", "real")
atan2 = _binary("atan2", "Atan2Op", "real_float")
bitwise_and = _binary("and", "AndOp", "int_or_bool")
bitwise_or = _binary("or", "OrOp", "int_or_bool")
bitwise_xor = _binary("xor", "XorOp", "int_or_bool")

# ---------------------------------------------------------------------------
# compare, select_n, convert
# ---------------------------------------------------------------------------

_DIRECTIONS = {"eq": 0, "ne": 1, "lt": 2, "le": 3, "gt": 4, "ge": 5}


def _compare_eval(x, y, *, direction):
    if x.dtype != y.dtype or x.shape != y.shape:
        raise TypeError(
            f"lax.{direction} requires arguments of one shape and dtype, got "
            f"{x.str_short()} and {y.str_short()} (at {core.user_location_str()})")
    # As jax.lax: the result is weak when both operands are.
    return x.update(dtype=dtypes.bool_, weak_type=x.weak_type and y.weak_type)


def _compare_emit(values, avals, out_aval, *, direction):
    attr = ir.IntegerAttr.get(ir.IntegerType.get_signless(32), _DIRECTIONS[direction])
    return _ops().CompareOp(attr, values[0], values[1], results=[out_aval.mlir_type()]).result


_compare_p = Primitive("compare", _compare_eval, _compare_emit)


def _comparison(direction):
    def fn(x, y):
        return bind(_compare_p, x, y, direction=direction)

    fn.__name__ = direction
    return fn


eq, ne, lt, le, gt, ge = (_comparison(d) for d in ("eq", "ne", "lt", "le", "gt", "ge"))


def _select_n_eval(which, *cases):
    if not cases:
        raise shape_error("lax.select_n", "needs at least one case", ValueError)
    first = cases[0]
    for c in cases[1:]:
        if c.shape != first.shape or c.dtype != first.dtype:
            raise shape_error("lax.select_n", "cases must have one shape and dtype, got "
                              f"{first.str_short()} and {c.str_short()}")
    if which.dtype not in (dtypes.bool_, dtypes.int32):
        raise shape_error("lax.select_n", f"`which` must be bool or int32, got {which.dtype.name}")
    if which.shape not in ((), first.shape):
        raise shape_error("lax.select_n", f"`which` shape {which.shape} must be scalar or "
                          f"match the cases' shape {first.shape}")
    if which.dtype == dtypes.bool_ and len(cases) > 2:
        raise shape_error("lax.select_n", "a bool `which` selects between at most 2 cases",
                          ValueError)
    return first.update(weak_type=builtins.all(c.weak_type for c in cases))


_select_n_p = Primitive(
    "select_n", _select_n_eval,
    lambda v, a, o: _ops().SelectNOp(v[0], v[1:], results=[o.mlir_type()]).result)


def select_n(which, *cases):
    """cases[which], elementwise (`which` bool or int32)."""
    return bind(_select_n_p, which, *cases)


def select(pred, on_true, on_false):
    return select_n(pred, on_false, on_true)


def _convert_eval(x, *, new_dtype, weak_type=False):
    return x.update(dtype=new_dtype, weak_type=weak_type)


_convert_p = Primitive(
    "convert_element_type", _convert_eval,
    lambda v, a, o, **_: (v[0] if a[0].dtype == o.dtype else
                          _ops().ConvertOp(o.mlir_type(), v[0]).result))


def convert_element_type(x, new_dtype, weak_type=False):
    new_dtype = dtypes.canonicalize(new_dtype)
    aval = aval_of(x)
    if aval.dtype == new_dtype and aval.weak_type == weak_type and not isinstance(
            x, (bool, int, float, complex, np.ndarray, np.generic)):
        return x
    return bind(_convert_p, x, new_dtype=new_dtype, weak_type=weak_type)


# ---------------------------------------------------------------------------
# Shape ops
# ---------------------------------------------------------------------------

def _broadcast_eval(x, *, shape, broadcast_dimensions):
    if len(broadcast_dimensions) != x.ndim:
        raise shape_error("lax.broadcast_in_dim",
                          f"operand of shape {x.shape} needs {x.ndim} broadcast dimensions, "
                          f"got {broadcast_dimensions}")
    for i, d in enumerate(broadcast_dimensions):
        if not 0 <= d < len(shape) or (i and d <= broadcast_dimensions[i - 1]):
            raise shape_error("lax.broadcast_in_dim",
                              f"broadcast_dimensions {broadcast_dimensions} must be increasing "
                              f"and in range for shape {shape}")
        if x.shape[i] not in (1, shape[d]):
            raise shape_error("lax.broadcast_in_dim",
                              f"cannot broadcast shape {x.shape} to {shape} "
                              f"(broadcast_dimensions={broadcast_dimensions})")
    return x.update(shape=shape)


_broadcast_p = Primitive(
    "broadcast_in_dim", _broadcast_eval,
    lambda v, a, o, **p: _ops().BroadcastInDimOp(o.mlir_type(), v[0],
                                                 _i64_array(p["broadcast_dimensions"])).result)


def broadcast_in_dim(x, shape, broadcast_dimensions):
    shape, dims = tuple(int(s) for s in shape), tuple(int(d) for d in broadcast_dimensions)
    aval = aval_of(x)
    if aval.shape == shape and dims == tuple(range(len(shape))) and not isinstance(
            x, (bool, int, float, complex)):
        return x
    return bind(_broadcast_p, x, shape=shape, broadcast_dimensions=dims)


def broadcast(x, sizes):
    aval = aval_of(x)
    sizes = tuple(sizes)
    return broadcast_in_dim(x, sizes + aval.shape,
                            tuple(range(len(sizes), len(sizes) + aval.ndim)))


def _reshape_eval(x, *, new_sizes):
    if builtins.any(d < 0 for d in new_sizes) or int(np.prod(new_sizes, dtype=np.int64)) != x.size:
        raise shape_error("reshape", f"cannot reshape array of shape {x.shape} "
                          f"(size {x.size}) into shape {new_sizes}", ValueError)
    return x.update(shape=new_sizes)


_reshape_p = Primitive(
    "reshape", _reshape_eval,
    lambda v, a, o, **p: _ops().ReshapeOp(o.mlir_type(), v[0]).result)


def reshape(x, new_sizes, dimensions=None):
    new_sizes = tuple(int(s) for s in new_sizes)
    if dimensions is not None:
        x = transpose(x, dimensions)
    if aval_of(x).shape == new_sizes:
        return x
    return bind(_reshape_p, x, new_sizes=new_sizes)


def _transpose_eval(x, *, permutation):
    if sorted(permutation) != list(range(x.ndim)):
        raise shape_error("lax.transpose", f"permutation {permutation} is not a permutation "
                          f"of the {x.ndim} axes of shape {x.shape}", ValueError)
    return x.update(shape=tuple(x.shape[p] for p in permutation))


_transpose_p = Primitive(
    "transpose", _transpose_eval,
    lambda v, a, o, **p: _ops().TransposeOp(v[0], _i64_array(p["permutation"]),
                                            results=[o.mlir_type()]).result)


def transpose(x, permutation):
    permutation = tuple(int(p) for p in permutation)
    if permutation == tuple(range(len(permutation))) and len(permutation) == aval_of(x).ndim:
        return x
    return bind(_transpose_p, x, permutation=permutation)


def _slice_eval(x, *, start_indices, limit_indices, strides):
    n = x.ndim
    if not len(start_indices) == len(limit_indices) == len(strides) == n:
        raise shape_error("lax.slice", f"needs {n} start/limit/stride values for shape {x.shape}")
    shape = []
    for i in range(n):
        s, l, st = start_indices[i], limit_indices[i], strides[i]
        if not (0 <= s <= l <= x.shape[i]) or st < 1:
            raise shape_error("lax.slice", f"start {start_indices}, limit {limit_indices}, "
                              f"strides {strides} out of bounds for shape {x.shape}", IndexError)
        shape.append((l - s + st - 1) // st)
    return x.update(shape=tuple(shape))


_slice_p = Primitive(
    "slice", _slice_eval,
    lambda v, a, o, **p: _ops().SliceOp(v[0], _i64_array(p["start_indices"]),
                                        _i64_array(p["limit_indices"]),
                                        _i64_array(p["strides"]),
                                        results=[o.mlir_type()]).result)


def slice(x, start_indices, limit_indices, strides=None):  # noqa: A001
    start = tuple(int(s) for s in start_indices)
    limit = tuple(int(s) for s in limit_indices)
    strides = tuple(int(s) for s in strides) if strides is not None else (1,) * len(start)
    return bind(_slice_p, x, start_indices=start, limit_indices=limit, strides=strides)


def slice_in_dim(x, start, limit, stride=1, axis=0):
    aval = aval_of(x)
    starts, limits, strides = [0] * aval.ndim, list(aval.shape), [1] * aval.ndim
    starts[axis], limits[axis], strides[axis] = start, limit, stride
    return slice(x, starts, limits, strides)


def _concatenate_eval(*xs, dimension):
    first = xs[0]
    if not 0 <= dimension < first.ndim:
        raise shape_error("lax.concatenate", f"dimension {dimension} out of range for "
                          f"rank {first.ndim}", ValueError)
    size = 0
    for x in xs:
        if x.dtype != first.dtype or x.ndim != first.ndim or builtins.any(
                x.shape[i] != first.shape[i] for i in range(x.ndim) if i != dimension):
            raise shape_error("lax.concatenate", "arrays must agree except along dimension "
                              f"{dimension}, got {first.str_short()} and {x.str_short()}")
        size += x.shape[dimension]
    shape = list(first.shape)
    shape[dimension] = size
    return first.update(shape=tuple(shape),
                        weak_type=builtins.all(x.weak_type for x in xs))


_concatenate_p = Primitive(
    "concatenate", _concatenate_eval,
    lambda v, a, o, **p: _ops().ConcatenateOp(v, _i64(p["dimension"]),
                                              results=[o.mlir_type()]).result)


def concatenate(operands, dimension):
    operands = list(operands)
    if not operands:
        raise ValueError("lax.concatenate: need at least one array to concatenate")
    if len(operands) == 1:
        return operands[0]
    return bind(_concatenate_p, *operands, dimension=int(dimension))


def _pad_eval(x, pad_value, *, padding_config):
    if pad_value.shape != () or pad_value.dtype != x.dtype:
        raise shape_error("lax.pad", f"padding value must be a scalar of dtype {x.dtype.name}, "
                          f"got {pad_value.str_short()}")
    if len(padding_config) != x.ndim:
        raise shape_error("lax.pad", f"needs {x.ndim} (low, high, interior) triples, "
                          f"got {len(padding_config)}", ValueError)
    shape = []
    for n, (lo, hi, interior) in zip(x.shape, padding_config):
        if interior < 0:
            raise shape_error("lax.pad", f"interior padding must be >= 0, got {interior}",
                              ValueError)
        size = lo + hi + n + builtins.max(n - 1, 0) * interior
        if size < 0:
            raise shape_error("lax.pad", f"negative padding {padding_config} removes more than "
                              f"shape {x.shape} holds", ValueError)
        shape.append(size)
    return x.update(shape=tuple(shape), weak_type=x.weak_type and pad_value.weak_type)


_pad_p = Primitive(
    "pad", _pad_eval,
    lambda v, a, o, *, padding_config: _ops().PadOp(
        v[0], v[1], _i64_array([c[0] for c in padding_config]),
        _i64_array([c[1] for c in padding_config]),
        _i64_array([c[2] for c in padding_config]), results=[o.mlir_type()]).result)


def pad(x, padding_value, padding_config):
    config = tuple((int(lo), int(hi), int(i)) for lo, hi, i in padding_config)
    return bind(_pad_p, x, padding_value, padding_config=config)


def _iota_eval(*, dtype, shape, dimension):
    if not 0 <= dimension < len(shape):
        raise shape_error("lax.iota", f"dimension {dimension} out of range for shape {shape}",
                          ValueError)
    return ShapedArray(shape, dtype)


_iota_p = Primitive(
    "iota", _iota_eval,
    lambda v, a, o, *, dtype, shape, dimension: _ops().IotaOp(o.mlir_type(), _i64(dimension)).result)


def broadcasted_iota(dtype, shape, dimension):
    return bind(_iota_p, dtype=dtypes.canonicalize(dtype), shape=tuple(int(s) for s in shape),
                dimension=int(dimension))


def iota(dtype, size):
    return broadcasted_iota(dtype, (int(size),), 0)


# ---------------------------------------------------------------------------
# Reductions
# ---------------------------------------------------------------------------

def _reduction(name, op_class, kind):
    def abstract_eval(x, *, axes):
        for a in axes:
            if not 0 <= a < x.ndim:
                raise shape_error(f"lax.{name}", f"axis {a} is out of bounds for array of "
                                  f"dimension {x.ndim}", ValueError)
        if len(set(axes)) != len(axes):
            raise shape_error(f"lax.{name}", f"duplicate axes {axes}", ValueError)
        _check_kind(name, kind, x)
        return x.update(shape=tuple(d for i, d in enumerate(x.shape) if i not in axes))

    def emit(values, avals, out_aval, *, axes):
        return getattr(_ops(), op_class)(values[0], _i64_array(axes),
                                         results=[out_aval.mlir_type()]).result

    prim = Primitive(name, abstract_eval, emit)

    def fn(x, axes):
        axes = tuple(sorted(int(a) for a in axes))
        return bind(prim, x, axes=axes)

    fn.__name__ = name
    return fn


reduce_sum = _reduction("reduce_sum", "ReduceSumOp", "number")
reduce_prod = _reduction("reduce_prod", "ReduceProdOp", "number")
reduce_max = _reduction("reduce_max", "ReduceMaxOp", "any")
reduce_min = _reduction("reduce_min", "ReduceMinOp", "any")
_reduce_and = _reduction("reduce_and", "ReduceAndOp", "any")
_reduce_or = _reduction("reduce_or", "ReduceOrOp", "any")


def reduce_and(x, axes):
    if aval_of(x).dtype != dtypes.bool_:
        raise shape_error("lax.reduce_and", "needs a bool operand")
    return _reduce_and(x, axes)


def reduce_or(x, axes):
    if aval_of(x).dtype != dtypes.bool_:
        raise shape_error("lax.reduce_or", "needs a bool operand")
    return _reduce_or(x, axes)


# ---------------------------------------------------------------------------
# dot_general
# ---------------------------------------------------------------------------

def _dot_general_eval(lhs, rhs, *, dimension_numbers, preferred_element_type):
    (lc, rc), (lb, rb) = dimension_numbers
    name = "lax.dot_general"
    if len(lc) != len(rc) or len(lb) != len(rb):
        raise shape_error(name, f"dimension_numbers {dimension_numbers} pair unequal "
                          "numbers of lhs and rhs dimensions")
    for dims, aval, side in ((lc + lb, lhs, "lhs"), (rc + rb, rhs, "rhs")):
        if len(set(dims)) != len(dims) or builtins.any(not 0 <= d < aval.ndim for d in dims):
            raise shape_error(name, f"{side} dimensions {dims} invalid for shape {aval.shape}")
    for l, r in zip(lc + lb, rc + rb):
        if lhs.shape[l] != rhs.shape[r]:
            raise shape_error(
                name, f"incompatible shapes {lhs.shape} and {rhs.shape}: lhs dimension {l} "
                f"(size {lhs.shape[l]}) vs rhs dimension {r} (size {rhs.shape[r]})")
    if lhs.dtype != rhs.dtype:
        raise TypeError(f"{name} requires operands of one dtype, got {lhs.dtype.name} and "
                        f"{rhs.dtype.name} (at {core.user_location_str()})")
    shape = ([lhs.shape[d] for d in lb]
             + [d for i, d in enumerate(lhs.shape) if i not in lc and i not in lb]
             + [d for i, d in enumerate(rhs.shape) if i not in rc and i not in rb])
    dtype = preferred_element_type or lhs.dtype
    return ShapedArray(shape, dtype, lhs.weak_type and rhs.weak_type
                       and preferred_element_type is None)


def _dot_general_emit(values, avals, out_aval, *, dimension_numbers, preferred_element_type):
    (lc, rc), (lb, rb) = dimension_numbers
    return _ops().DotGeneralOp(out_aval.mlir_type(), values[0], values[1], _i64_array(lb),
                               _i64_array(rb), _i64_array(lc), _i64_array(rc)).result


_dot_general_p = Primitive("dot_general", _dot_general_eval, _dot_general_emit)


def dot_general(lhs, rhs, dimension_numbers, precision=None, preferred_element_type=None):
    (lc, rc), (lb, rb) = dimension_numbers
    dn = ((tuple(int(d) for d in lc), tuple(int(d) for d in rc)),
          (tuple(int(d) for d in lb), tuple(int(d) for d in rb)))
    pet = dtypes.canonicalize(preferred_element_type) if preferred_element_type else None
    if pet is not None:
        ldt, rdt = aval_of(lhs).dtype, aval_of(rhs).dtype
        if ldt == rdt and _dtype_kind(pet) != _dtype_kind(ldt):
            # The op only widens within a kind (i8 x i8 -> i32); for another kind
            # (i8 x i8 -> f32, as JAX allows) convert the operands first.
            lhs = convert_element_type(lhs, pet)
            rhs = convert_element_type(rhs, pet)
    return bind(_dot_general_p, lhs, rhs, dimension_numbers=dn, preferred_element_type=pet)


def _dtype_kind(dtype):
    if dtypes.is_bool(dtype):
        return "b"
    if dtypes.is_int(dtype):
        return "i"
    return "c" if dtypes.is_complex(dtype) else "f"


def dot(lhs, rhs, precision=None, preferred_element_type=None):
    l, r = aval_of(lhs), aval_of(rhs)
    if l.ndim not in (1, 2) or r.ndim not in (1, 2):
        raise shape_error("lax.dot", f"needs 1D or 2D operands, got {l.shape} and {r.shape}")
    return dot_general(lhs, rhs, (((l.ndim - 1,), (0,)), ((), ())),
                       preferred_element_type=preferred_element_type)


# convenience
def square(x):
    return mul(x, x)


def reciprocal(x):
    return div(full_like(x, 1), x)


def full(shape, fill_value, dtype=None):
    shape = tuple(int(s) for s in shape)
    if dtype is None:
        # As jax.lax.full: a weakly typed fill value gives a weak result.
        fill_aval = aval_of(fill_value)
        return _full(shape, fill_value, fill_aval.dtype, fill_aval.weak_type)
    return _full(shape, fill_value, dtypes.canonicalize(dtype), False)


def _full(shape, fill_value, dtype, weak_type):
    value = convert_element_type(fill_value, dtype, weak_type=weak_type)
    return broadcast(value, shape)


def full_like(x, fill_value, dtype=None, shape=None):
    aval = aval_of(x)
    shape = aval.shape if shape is None else tuple(int(s) for s in shape)
    if dtype is None:
        # As jax.lax.full_like: the result is weak when `x` is.
        return _full(shape, fill_value, aval.dtype, aval.weak_type)
    return _full(shape, fill_value, dtypes.canonicalize(dtype), False)


def stop_gradient(x):
    """The identity with a zero derivative (`mlax.stop_gradient`)."""
    from mlax._src.transforms import autodiff

    return autodiff.stop_gradient(x)


# ---------------------------------------------------------------------------
# Bit-level ops and what jax.random needs: shifts, bitcast_convert_type,
# erf / erf_inv / nextafter, sort, cumsum, cholesky.
# ---------------------------------------------------------------------------

_KIND_CHECKS["int"] = (dtypes.is_int, "integer (signed or unsigned, not bool)")

shift_left = _binary("shift_left", "ShiftLeftOp", "int")
shift_right_logical = _binary("shift_right_logical", "ShiftRightLogicalOp", "int")
shift_right_arithmetic = _binary("shift_right_arithmetic", "ShiftRightArithmeticOp", "int")
shift_left.__doc__ = "Elementwise x << y (0 once y reaches the bit width), as jax.lax."
shift_right_logical.__doc__ = "Elementwise logical x >> y (zeros shifted in), as jax.lax."
shift_right_arithmetic.__doc__ = "Elementwise arithmetic x >> y (sign shifted in), as jax.lax."
clz = _unary("clz", "ClzOp", "int")
clz.__doc__ = "Elementwise count of leading zero bits (jax.lax.clz)."
erf = _unary("erf", "ErfOp", "real_float")
erf_inv = _unary("erf_inv", "ErfInvOp", "real_float")
_nextafter = _binary("nextafter", "NextAfterOp", "real_float")


def nextafter(x1, x2):
    """The next float after x1 towards x2, elementwise (jax.lax.nextafter)."""
    return _nextafter(x1, x2)


def _bits_of(dtype) -> int:
    dtype = np.dtype(dtype)
    return 0 if dtype == dtypes.bool_ else dtype.itemsize * 8


def _bitcast_eval(x, *, new_dtype):
    name = "lax.bitcast_convert_type"
    in_bits, out_bits = _bits_of(x.dtype), _bits_of(new_dtype)
    if not in_bits or not out_bits:
        raise shape_error(name, f"does not accept bool (got {x.dtype.name} -> "
                          f"{np.dtype(new_dtype).name})")
    if in_bits == out_bits:
        shape = x.shape
    elif in_bits > out_bits:
        shape = x.shape + (in_bits // out_bits,)
    else:
        ratio = out_bits // in_bits
        if not x.shape or x.shape[-1] != ratio:
            raise shape_error(name, f"converting {x.dtype.name} to the wider "
                              f"{np.dtype(new_dtype).name} needs a last dimension of size "
                              f"{ratio}, got shape {x.shape}", ValueError)
        shape = x.shape[:-1]
    return ShapedArray(shape, new_dtype)


_bitcast_p = Primitive(
    "bitcast_convert_type", _bitcast_eval,
    lambda v, a, o, **_: _ops().BitcastConvertOp(o.mlir_type(), v[0]).result)


def bitcast_convert_type(operand, new_dtype):
    """Reinterprets the bits of each element as `new_dtype` (jax.lax)."""
    new_dtype = np.dtype(new_dtype)
    if new_dtype not in dtypes.SUPPORTED:
        raise TypeError(f"lax.bitcast_convert_type: unsupported dtype {new_dtype}")
    if aval_of(operand).dtype == new_dtype:
        return operand
    return bind(_bitcast_p, operand, new_dtype=new_dtype)


def _sort_eval(*operands, dimension, is_stable, num_keys):
    name = "lax.sort"
    first = operands[0]
    if not 0 <= dimension < builtins.max(first.ndim, 1) or first.ndim == 0:
        raise shape_error(name, f"dimension {dimension} is out of range for shape "
                          f"{first.shape}", ValueError)
    if not 1 <= num_keys <= len(operands):
        raise shape_error(name, f"num_keys={num_keys} must be in [1, {len(operands)}]",
                          ValueError)
    for o in operands[1:]:
        if o.shape != first.shape:
            raise shape_error(name, f"operands must have one shape, got {first.shape} "
                              f"and {o.shape}")
    for o in operands[:num_keys]:
        if dtypes.is_complex(o.dtype):
            raise shape_error(name, f"cannot sort by complex keys ({o.dtype.name})")
    return [o for o in operands]


def _sort_emit(values, avals, out_avals, *, dimension, is_stable, num_keys):
    op = _ops().SortOp([o.mlir_type() for o in out_avals], values, _i64(dimension),
                       ir.BoolAttr.get(bool(is_stable)), _i64(num_keys))
    return list(op.results)


_sort_p = Primitive("sort", _sort_eval, _sort_emit, multiple_results=True)


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
    out = bind(_sort_p, *operands, dimension=dim % ndim, is_stable=bool(is_stable),
               num_keys=int(num_keys))
    return out[0] if single else tuple(out)


def sort_key_val(keys, values, dimension=-1, is_stable=True):
    """Sorts `keys` along `dimension` and applies the same permutation to `values`."""
    return sort((keys, values), dimension=dimension, is_stable=is_stable, num_keys=1)


def _cumsum_eval(x, *, axis, reverse):
    _check_kind("cumsum", "number", x)
    if dtypes.is_complex(x.dtype):
        raise shape_error("lax.cumsum", "complex inputs are not supported yet")
    return x


def _cumsum_emit(values, avals, out_aval, *, axis, reverse):
    return _ops().CumsumOp(values[0], _i64(axis), reverse=bool(reverse),
                           results=[out_aval.mlir_type()]).result


_cumsum_p = Primitive("cumsum", _cumsum_eval, _cumsum_emit)


def cumsum(operand, axis=0, reverse=False):
    """Inclusive cumulative sum along `axis` (jax.lax.cumsum)."""
    ndim = aval_of(operand).ndim
    if not -ndim <= int(axis) < ndim:
        raise ValueError(f"lax.cumsum: axis {axis} is out of bounds for array of rank {ndim}")
    if aval_of(operand).shape[int(axis)] == 0:
        return operand  # nothing to sum (XLA has no empty windows)
    return bind(_cumsum_p, operand, axis=int(axis) % ndim, reverse=bool(reverse))


def _cholesky_eval(x):
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise shape_error("lax.linalg.cholesky", f"needs square matrices (shape [..., n, n]), "
                          f"got shape {x.shape}", ValueError)
    if x.dtype not in (dtypes.float32, dtypes.float64):
        raise shape_error("lax.linalg.cholesky", f"supports float32 and float64, got "
                          f"{x.dtype.name}")
    return x.update(weak_type=False)


def _cholesky_emit(values, avals, out_aval):
    # The lowering calls jaxlib's LAPACK potrf kernel (as jnp.linalg.cholesky
    # on CPU does), which must be initialised before it runs.
    from jaxlib import lapack

    lapack.prepare_lapack_call("potrf_ffi", avals[0].dtype)
    return _ops().CholeskyOp(values[0], results=[out_aval.mlir_type()]).result


_cholesky_p = Primitive("cholesky", _cholesky_eval, _cholesky_emit)


def cholesky(x):
    """Lower Cholesky factor of the symmetrised matrix (jax.lax.linalg.cholesky)."""
    return bind(_cholesky_p, x)


# ---------------------------------------------------------------------------
# Indexing: rev, dynamic_slice, dynamic_update_slice, gather, scatter
# ---------------------------------------------------------------------------

import collections  # noqa: E402
import enum  # noqa: E402


def _rev_eval(x, *, dimensions):
    if len(set(dimensions)) != len(dimensions) or builtins.any(
            not 0 <= d < x.ndim for d in dimensions):
        raise shape_error("lax.rev", f"dimensions {dimensions} must be distinct axes of an "
                          f"array of shape {x.shape}", ValueError)
    return x


_rev_p = Primitive(
    "rev", _rev_eval,
    lambda v, a, o, *, dimensions: _ops().ReverseOp(v[0], _i64_array(dimensions),
                                                    results=[o.mlir_type()]).result)


def rev(operand, dimensions):
    """Reverses `operand` along `dimensions` (jax.lax.rev)."""
    dims = tuple(int(d) for d in dimensions)
    if not dims:
        return operand
    return bind(_rev_p, operand, dimensions=dims)


def _index_scalar_check(name, avals):
    for a in avals:
        if a.shape != () or not dtypes.is_int(a.dtype):
            raise shape_error(name, f"start indices must be integer scalars, got {a.str_short()}")


def _dynamic_slice_eval(x, *starts, slice_sizes):
    name = "lax.dynamic_slice"
    if len(starts) != x.ndim or len(slice_sizes) != x.ndim:
        raise shape_error(name, f"needs one start index and one slice size per dimension of "
                          f"shape {x.shape}, got {len(starts)} indices and slice_sizes "
                          f"{slice_sizes}")
    _index_scalar_check(name, starts)
    for s, d in zip(slice_sizes, x.shape):
        if not 0 <= s <= d:
            raise shape_error(name, f"slice_sizes {slice_sizes} do not fit shape {x.shape}")
    return x.update(shape=tuple(slice_sizes))


_dynamic_slice_p = Primitive(
    "dynamic_slice", _dynamic_slice_eval,
    lambda v, a, o, *, slice_sizes: _ops().DynamicSliceOp(
        o.mlir_type(), v[0], v[1:], _i64_array(slice_sizes)).result)


def _dus_eval(x, update, *starts):
    name = "lax.dynamic_update_slice"
    if len(starts) != x.ndim:
        raise shape_error(name, f"needs one start index per dimension of shape {x.shape}, "
                          f"got {len(starts)}")
    _index_scalar_check(name, starts)
    if update.dtype != x.dtype:
        raise shape_error(name, f"update dtype {update.dtype.name} must match the operand's "
                          f"{x.dtype.name}")
    if update.ndim != x.ndim or builtins.any(u > d for u, d in zip(update.shape, x.shape)):
        raise shape_error(name, f"update shape {update.shape} must fit operand shape {x.shape}")
    return x.update(weak_type=x.weak_type and update.weak_type)


_dus_p = Primitive(
    "dynamic_update_slice", _dus_eval,
    lambda v, a, o: _ops().DynamicUpdateSliceOp(v[0], v[1], v[2:],
                                                results=[o.mlir_type()]).result)


def _start_indices(name, operand_shape, start_indices):
    """Start indices as int32 scalars, negative ones wrapped once (as jax.lax)."""
    if isinstance(start_indices, (list, tuple)):
        starts = list(start_indices)
    else:
        aval = aval_of(start_indices)
        if aval.ndim != 1:
            raise shape_error(name, f"start_indices must be a sequence of scalars or a 1-D "
                              f"array, got shape {aval.shape}")
        starts = [index_in_dim_static(start_indices, i) for i in range(aval.shape[0])]
    if len(starts) != len(operand_shape):
        raise shape_error(name, f"needs one start index per dimension of shape "
                          f"{operand_shape}, got {len(starts)}")
    out = []
    for s, d in zip(starts, operand_shape):
        if isinstance(s, (int, np.integer)) and not isinstance(s, bool):
            s = builtins.max(builtins.min(int(s), d), -d)  # the same clamped result
            out.append(np.int32(s + d if s < 0 else s))
            continue
        aval = aval_of(s)
        if aval.shape != () or not dtypes.is_int(aval.dtype):
            raise shape_error(name, f"start indices must be integer scalars, got "
                              f"{aval.str_short()}")
        if aval.dtype != dtypes.int32:
            s = convert_element_type(s, dtypes.int32)
        if not dtypes.is_unsigned(aval.dtype):
            s = select(lt(s, full_like(s, 0)), add(s, full_like(s, d)), s)
        out.append(s)
    return out


def index_in_dim_static(x, i):
    """x[i] along axis 0 of a 1-D array, as a scalar (a static slice)."""
    return reshape(slice(x, (i,), (i + 1,)), ())


def dynamic_slice(operand, start_indices, slice_sizes):
    """A `slice_sizes` block of `operand` at `start_indices`, which may be traced;
    negative starts wrap once and every start is clamped so that the block fits
    (jax.lax.dynamic_slice)."""
    aval = aval_of(operand)
    sizes = tuple(int(s) for s in slice_sizes)
    starts = _start_indices("lax.dynamic_slice", aval.shape, start_indices)
    return bind(_dynamic_slice_p, operand, *starts, slice_sizes=sizes)


def dynamic_update_slice(operand, update, start_indices):
    """`operand` with `update` written at `start_indices` (wrapped once, then
    clamped so that it fits), as jax.lax.dynamic_update_slice."""
    aval = aval_of(operand)
    starts = _start_indices("lax.dynamic_update_slice", aval.shape, start_indices)
    return bind(_dus_p, operand, update, *starts)


def dynamic_slice_in_dim(operand, start_index, slice_size=1, axis=0):
    aval = aval_of(operand)
    axis = int(axis) % builtins.max(aval.ndim, 1)
    starts = [0] * aval.ndim
    starts[axis] = start_index
    sizes = list(aval.shape)
    sizes[axis] = int(slice_size)
    return dynamic_slice(operand, starts, sizes)


def dynamic_index_in_dim(operand, index, axis=0, keepdims=True):
    out = dynamic_slice_in_dim(operand, index, 1, axis)
    if keepdims:
        return out
    shape = list(aval_of(out).shape)
    del shape[int(axis) % len(shape)]
    return reshape(out, shape)


def dynamic_update_slice_in_dim(operand, update, start_index, axis):
    aval = aval_of(operand)
    starts = [0] * aval.ndim
    starts[int(axis) % aval.ndim] = start_index
    return dynamic_update_slice(operand, update, starts)


class GatherDimensionNumbers(collections.namedtuple(
        "GatherDimensionNumbers", ["offset_dims", "collapsed_slice_dims", "start_index_map",
                                   "operand_batching_dims", "start_indices_batching_dims"],
        defaults=((), ()))):
    """What each dimension of a gather means (jax.lax.GatherDimensionNumbers);
    the index vector is the last dimension of the start indices."""


class ScatterDimensionNumbers(collections.namedtuple(
        "ScatterDimensionNumbers", ["update_window_dims", "inserted_window_dims",
                                    "scatter_dims_to_operand_dims", "operand_batching_dims",
                                    "scatter_indices_batching_dims"],
        defaults=((), ()))):
    """What each dimension of a scatter means (jax.lax.ScatterDimensionNumbers);
    the index vector is the last dimension of the scatter indices."""


class GatherScatterMode(enum.Enum):
    CLIP = 0
    FILL_OR_DROP = 1
    PROMISE_IN_BOUNDS = 2


def _tuple(dims):
    return tuple(int(d) for d in dims)


def _check_dims(name, what, dims, rank, sorted_=False):
    if len(set(dims)) != len(dims) or builtins.any(not 0 <= d < rank for d in dims):
        raise shape_error(name, f"{what} {dims} must be distinct and in [0, {rank})")
    if sorted_ and list(dims) != sorted(dims):
        raise shape_error(name, f"{what} {dims} must be sorted")


def _gather_eval(x, idx, *, offset_dims, collapsed_slice_dims, operand_batching_dims,
                 start_indices_batching_dims, start_index_map, slice_sizes,
                 indices_are_sorted):
    name = "lax.gather"
    if not dtypes.is_int(idx.dtype):
        raise shape_error(name, f"start indices must be integers, got {idx.dtype.name}")
    if idx.ndim == 0:
        raise shape_error(name, "start indices must have at least one dimension (the index "
                          "vector is the last one)")
    if len(slice_sizes) != x.ndim or builtins.any(
            not 0 <= s <= d for s, d in zip(slice_sizes, x.shape)):
        raise shape_error(name, f"slice_sizes {slice_sizes} must give one size per dimension "
                          f"of shape {x.shape}, each fitting")
    if len(start_index_map) != idx.shape[-1]:
        raise shape_error(name, f"start_index_map {start_index_map} needs one entry per "
                          f"index vector element ({idx.shape[-1]})")
    _check_dims(name, "start_index_map", start_index_map, x.ndim)
    _check_dims(name, "collapsed_slice_dims", collapsed_slice_dims, x.ndim, True)
    _check_dims(name, "operand_batching_dims", operand_batching_dims, x.ndim, True)
    _check_dims(name, "start_indices_batching_dims", start_indices_batching_dims,
                idx.ndim - 1)
    if len(operand_batching_dims) != len(start_indices_batching_dims):
        raise shape_error(name, "operand_batching_dims and start_indices_batching_dims "
                          "differ in length")
    for d in collapsed_slice_dims + operand_batching_dims:
        if slice_sizes[d] > 1:
            raise shape_error(name, f"collapsed or batching dimension {d} needs slice size 1, "
                              f"got {slice_sizes[d]}")
        if d in start_index_map and d in operand_batching_dims:
            raise shape_error(name, f"dimension {d} is both indexed and batching")
    if set(collapsed_slice_dims) & set(operand_batching_dims):
        raise shape_error(name, "collapsed_slice_dims and operand_batching_dims overlap")
    for o, i in zip(operand_batching_dims, start_indices_batching_dims):
        if x.shape[o] != idx.shape[i]:
            raise shape_error(name, f"operand batching dimension {o} (size {x.shape[o]}) does "
                              f"not match start indices dimension {i} (size {idx.shape[i]})")
    offset_sizes = [s for d, s in enumerate(slice_sizes)
                    if d not in collapsed_slice_dims and d not in operand_batching_dims]
    batch_sizes = list(idx.shape[:-1])
    out_rank = len(offset_sizes) + len(batch_sizes)
    if len(offset_dims) != len(offset_sizes):
        raise shape_error(name, f"offset_dims {offset_dims} needs {len(offset_sizes)} entries "
                          "(one per slice dimension neither collapsed nor batching)")
    _check_dims(name, "offset_dims", offset_dims, out_rank, True)
    shape, bi, oi = [], iter(batch_sizes), iter(offset_sizes)
    for d in range(out_rank):
        shape.append(next(oi) if d in offset_dims else next(bi))
    return x.update(shape=tuple(shape))


def _unit(flag):
    return ir.UnitAttr.get() if flag else None


def _gather_emit(values, avals, o, *, offset_dims, collapsed_slice_dims, operand_batching_dims,
                 start_indices_batching_dims, start_index_map, slice_sizes,
                 indices_are_sorted):
    return _ops().GatherOp(
        o.mlir_type(), values[0], values[1], _i64_array(offset_dims),
        _i64_array(collapsed_slice_dims), _i64_array(operand_batching_dims),
        _i64_array(start_indices_batching_dims), _i64_array(start_index_map),
        _i64(avals[1].ndim - 1), _i64_array(slice_sizes),
        indices_are_sorted=_unit(indices_are_sorted)).result


_gather_p = Primitive("gather", _gather_eval, _gather_emit)


_MODE_ALIASES = {"CLIP": "CLIP", "FILL": "FILL_OR_DROP", "DROP": "FILL_OR_DROP",
                 "FILL_OR_DROP": "FILL_OR_DROP", "PROMISE_IN_BOUNDS": "PROMISE_IN_BOUNDS",
                 "ONE_HOT": "ONE_HOT"}


def _check_mode(name, mode, allowed):
    """The name of a gather/scatter mode (None for None), as JAX's
    GatherScatterMode.from_any reads it: 'clip', 'fill' / 'drop',
    'promise_in_bounds', or a GatherScatterMode (mlax's or JAX's)."""
    if mode is None:
        return None
    raw = mode if isinstance(mode, str) else getattr(mode, "name", None)
    key = _MODE_ALIASES.get(str(raw).upper()) if raw is not None else None
    if key is None:
        raise ValueError(f"{name}: unknown mode {mode!r}; use 'clip', 'fill' (or 'drop') or "
                         f"'promise_in_bounds'")
    if key not in allowed:
        raise NotImplementedError(f"{name}: mode={mode!r} is not supported; mlax supports "
                                  f"{', '.join(sorted(allowed)).lower()}")
    return key


def gather_fill_value(dtype, fill_value=None):
    """JAX's default fill of mode 'fill': NaN for inexact dtypes, the minimum
    of signed integers, the maximum of unsigned ones, True for bool."""
    if fill_value is not None:
        return fill_value
    dtype = np.dtype(dtype)
    if dtypes.is_inexact(dtype):
        return np.nan
    if dtypes.is_bool(dtype):
        return True
    return np.iinfo(dtype).max if dtypes.is_unsigned(dtype) else np.iinfo(dtype).min


def gather(operand, start_indices, dimension_numbers, slice_sizes, *, unique_indices=False,
           indices_are_sorted=False, mode=None, fill_value=None):
    """jax.lax.gather. Modes as JAX's: 'promise_in_bounds' (the default:
    out-of-bounds starts are clamped, as XLA does), 'clip' (starts clamped
    first, so the gradient goes to the clamped windows), 'fill' (windows
    whose start is out of bounds are `fill_value`: NaN for inexact dtypes,
    the minimum of signed ints, the maximum of unsigned ones, True for bool;
    they get no gradient). The gradient of an unclamped gather drops the
    windows of out-of-bounds starts."""
    key = _check_mode("lax.gather", mode, {"CLIP", "PROMISE_IN_BOUNDS", "FILL_OR_DROP"})
    dn = GatherDimensionNumbers(*dimension_numbers)
    if key == "CLIP":
        start_indices = _clamp_starts(operand, start_indices, dn.start_index_map, slice_sizes)
    out = bind(_gather_p, operand, start_indices, offset_dims=_tuple(dn.offset_dims),
               collapsed_slice_dims=_tuple(dn.collapsed_slice_dims),
               operand_batching_dims=_tuple(dn.operand_batching_dims),
               start_indices_batching_dims=_tuple(dn.start_indices_batching_dims),
               start_index_map=_tuple(dn.start_index_map),
               slice_sizes=_tuple(slice_sizes), indices_are_sorted=bool(indices_are_sorted))
    if key == "FILL_OR_DROP":
        out = _gather_fill(out, operand, start_indices, dn, slice_sizes, fill_value)
    return out


def _gather_fill(out, operand, start_indices, dn, slice_sizes, fill_value):
    """`out` (the gather) with the windows whose start is out of bounds
    (not in [0, size - slice size] in some indexed dimension) replaced by
    the fill value, as JAX's _gather_fill: a mask from the indices, then a
    select, so grad and vmap come from those ops."""
    x, idx, o = aval_of(operand), aval_of(start_indices), aval_of(out)
    dims = [int(d) for d in dn.start_index_map]
    dt = np.dtype(idx.dtype)
    bounds = np.array([x.shape[d] - int(slice_sizes[d]) for d in dims], np.int64)
    bounds = np.minimum(bounds, np.iinfo(dt).max).astype(dt)
    upper = broadcast_in_dim(bounds, idx.shape, (idx.ndim - 1,))
    ok = le(start_indices, upper)
    if not dtypes.is_unsigned(dt):
        ok = bitwise_and(ok, ge(start_indices, broadcast_in_dim(np.zeros((), dt), idx.shape,
                                                                ())))
    mask = reduce_and(ok, (idx.ndim - 1,))
    offset = set(int(d) for d in dn.offset_dims)
    batch_dims = tuple(d for d in range(o.ndim) if d not in offset)
    mask = broadcast_in_dim(mask, o.shape, batch_dims)
    fill = gather_fill_value(o.dtype, fill_value)
    if isinstance(fill, (np.ndarray, np.generic)) and np.ndim(fill) == 0:
        fill = fill.item()
    return select(mask, out, full_like(out, fill))


def _clamp_starts(operand, start_indices, start_index_map, slice_sizes):
    """The start indices clamped into [0, size - slice size] (JAX's mode
    'clip'), or as they are where the shapes are invalid (the gather's shape
    rule then names the error)."""
    try:
        x, idx = aval_of(operand), aval_of(start_indices)
        dims = [int(d) for d in start_index_map]
        sizes = [int(s) for s in slice_sizes]
        ok = (dtypes.is_int(idx.dtype) and idx.ndim >= 1 and len(dims) == idx.shape[-1]
              and len(sizes) == x.ndim and builtins.all(0 <= d < x.ndim for d in dims))
        bounds = [x.shape[d] - sizes[d] for d in dims] if ok else []
    except (TypeError, ValueError):
        return start_indices
    if not ok or not dims or builtins.any(b < 0 for b in bounds):
        return start_indices
    dt = np.dtype(idx.dtype)
    bounds = np.minimum(np.array(bounds, np.int64), np.iinfo(dt).max).astype(dt)
    upper = broadcast_in_dim(bounds, idx.shape, (idx.ndim - 1,))
    lower = broadcast_in_dim(np.zeros((), dt), idx.shape, ())
    return min(max(start_indices, lower), upper)


_COMBINERS = {"set": 0, "add": 1, "mul": 2, "min": 3, "max": 4}


def _scatter_eval(x, idx, upd, *, combiner, update_window_dims, inserted_window_dims,
                  operand_batching_dims, scatter_indices_batching_dims,
                  scatter_dims_to_operand_dims, indices_are_sorted, unique_indices):
    name = f"lax.scatter{'' if combiner == 'set' else '_' + combiner}"
    if not dtypes.is_int(idx.dtype):
        raise shape_error(name, f"scatter indices must be integers, got {idx.dtype.name}")
    if idx.ndim == 0:
        raise shape_error(name, "scatter indices must have at least one dimension (the index "
                          "vector is the last one)")
    if upd.dtype != x.dtype:
        raise shape_error(name, f"updates dtype {upd.dtype.name} must match the operand's "
                          f"{x.dtype.name}")
    if len(scatter_dims_to_operand_dims) != idx.shape[-1]:
        raise shape_error(name, f"scatter_dims_to_operand_dims {scatter_dims_to_operand_dims} "
                          f"needs one entry per index vector element ({idx.shape[-1]})")
    _check_dims(name, "update_window_dims", update_window_dims, upd.ndim, True)
    _check_dims(name, "inserted_window_dims", inserted_window_dims, x.ndim, True)
    _check_dims(name, "operand_batching_dims", operand_batching_dims, x.ndim, True)
    _check_dims(name, "scatter_dims_to_operand_dims", scatter_dims_to_operand_dims, x.ndim)
    _check_dims(name, "scatter_indices_batching_dims", scatter_indices_batching_dims,
                idx.ndim - 1)
    if len(operand_batching_dims) != len(scatter_indices_batching_dims):
        raise shape_error(name, "operand_batching_dims and scatter_indices_batching_dims "
                          "differ in length")
    if set(inserted_window_dims) & set(operand_batching_dims) or set(
            scatter_dims_to_operand_dims) & set(operand_batching_dims):
        raise shape_error(name, "operand_batching_dims overlap inserted_window_dims or "
                          "scatter_dims_to_operand_dims")
    for o, i in zip(operand_batching_dims, scatter_indices_batching_dims):
        if x.shape[o] != idx.shape[i]:
            raise shape_error(name, f"operand batching dimension {o} (size {x.shape[o]}) does "
                              f"not match scatter indices dimension {i} (size {idx.shape[i]})")
    window_operand = [d for d in range(x.ndim)
                      if d not in inserted_window_dims and d not in operand_batching_dims]
    if len(update_window_dims) != len(window_operand):
        raise shape_error(name, f"update_window_dims {update_window_dims} needs "
                          f"{len(window_operand)} entries (one per operand dimension neither "
                          "inserted nor batching)")
    scatter_sizes = [s for d, s in enumerate(upd.shape) if d not in update_window_dims]
    if scatter_sizes != list(idx.shape[:-1]):
        raise shape_error(name, f"updates shape {upd.shape} has scatter dimensions "
                          f"{tuple(scatter_sizes)} but the indices' batch dimensions are "
                          f"{idx.shape[:-1]}")
    for w, d in zip(update_window_dims, window_operand):
        if upd.shape[w] > x.shape[d]:
            raise shape_error(name, f"updates window dimension {w} (size {upd.shape[w]}) "
                              f"exceeds operand dimension {d} (size {x.shape[d]})")
    return x.update(weak_type=x.weak_type and upd.weak_type)


def _scatter_emit(values, avals, o, *, combiner, update_window_dims, inserted_window_dims,
                  operand_batching_dims, scatter_indices_batching_dims,
                  scatter_dims_to_operand_dims, indices_are_sorted, unique_indices):
    attr = ir.IntegerAttr.get(ir.IntegerType.get_signless(32), _COMBINERS[combiner])
    return _ops().ScatterOp(
        o.mlir_type(), attr, values[0], values[1], values[2], _i64_array(update_window_dims),
        _i64_array(inserted_window_dims), _i64_array(operand_batching_dims),
        _i64_array(scatter_indices_batching_dims), _i64_array(scatter_dims_to_operand_dims),
        _i64(avals[1].ndim - 1), indices_are_sorted=_unit(indices_are_sorted),
        unique_indices=_unit(unique_indices)).result


_scatter_p = Primitive("scatter", _scatter_eval, _scatter_emit)


def _scatter(combiner):
    def fn(operand, scatter_indices, updates, dimension_numbers, *, indices_are_sorted=False,
           unique_indices=False, mode=None):
        key = _check_mode(f"lax.{fn.__name__}", mode,
                          {"FILL_OR_DROP", "PROMISE_IN_BOUNDS", "CLIP"})
        dn = ScatterDimensionNumbers(*dimension_numbers)
        if key == "CLIP":
            scatter_indices = _clamp_scatter_indices(operand, scatter_indices, updates, dn)
        return bind(_scatter_p, operand, scatter_indices, updates, combiner=combiner,
                    update_window_dims=_tuple(dn.update_window_dims),
                    inserted_window_dims=_tuple(dn.inserted_window_dims),
                    operand_batching_dims=_tuple(dn.operand_batching_dims),
                    scatter_indices_batching_dims=_tuple(dn.scatter_indices_batching_dims),
                    scatter_dims_to_operand_dims=_tuple(dn.scatter_dims_to_operand_dims),
                    indices_are_sorted=bool(indices_are_sorted),
                    unique_indices=bool(unique_indices))

    fn.__name__ = "scatter" if combiner == "set" else f"scatter_{combiner}"
    fn.__doc__ = (f"jax.lax.{fn.__name__}: updates whose window does not fit are dropped "
                  "(modes 'fill'/'drop', the default, and 'promise_in_bounds'); mode 'clip' "
                  "clamps the indices so that every window fits.")
    return fn


def _clamp_scatter_indices(operand, scatter_indices, updates, dn):
    """JAX's _clamp_scatter_indices: the indices clamped so that each update
    window fits (the window size along inserted and batching dimensions is 1)."""
    try:
        x, upd = aval_of(operand), aval_of(updates)
        window = iter(int(d) for d in dn.update_window_dims)
        sizes = [1 if (d in dn.inserted_window_dims or d in dn.operand_batching_dims)
                 else upd.shape[next(window)] for d in range(x.ndim)]
    except (TypeError, ValueError, IndexError, StopIteration):
        return scatter_indices  # malformed: the scatter's shape rule names the error
    return _clamp_starts(operand, scatter_indices, dn.scatter_dims_to_operand_dims, sizes)


scatter = _scatter("set")
scatter_add = _scatter("add")
scatter_mul = _scatter("mul")
scatter_min = _scatter("min")
scatter_max = _scatter("max")


def _take_eval(x, indices, *, axis):
    if not dtypes.is_int(indices.dtype) or indices.dtype.itemsize < 4 or dtypes.is_unsigned(
            indices.dtype):
        raise shape_error("take", f"indices must be int32 or int64, got {indices.dtype.name}")
    return x.update(shape=x.shape[:axis] + indices.shape + x.shape[axis + 1:],
                    weak_type=x.weak_type)


_take_p = Primitive(
    "take", _take_eval,
    lambda v, a, o, *, axis: _ops().TakeOp(o.mlir_type(), v[0], v[1], _i64(axis)).result)


def take(x, indices, axis):
    """x's slices at `indices` along `axis` (out-of-range indices clamp), as
    jnp.take for in-range indices. Private to mlax for now (no jax.lax twin)."""
    aval = aval_of(x)
    if not 0 <= axis < aval.ndim:
        raise ValueError(f"take: axis {axis} is out of range for rank {aval.ndim}")
    return bind(_take_p, x, indices, axis=int(axis))

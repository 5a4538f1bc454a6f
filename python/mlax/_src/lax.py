"""mlax.lax: the strict primitive layer (one function per mlax op).

Unlike mlax.numpy, these do not broadcast or promote: binary ops need equal
shapes and dtypes, as in jax.lax.
"""
from __future__ import annotations

import builtins

import numpy as np
from mlir import ir

from mlax._src import core, dtypes
from mlax._src.core import ShapedArray
from mlax._src.primitives import Primitive, _ops, aval_of, bind, shape_error


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
    # The autodiff pass owns gradients; until it lands this is the identity.
    return x

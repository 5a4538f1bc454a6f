"""Convolutions and windowed reductions: lax.conv_general_dilated (and its
conv / conv_with_general_padding shorthands) and lax.reduce_window.

Each emits one op (mlax.conv_general_dilated, mlax.reduce_window); their
derivative and batching rules live in dialects/Mlax/MlaxConvOps.cpp.
"""
from __future__ import annotations

import builtins
import collections
import operator
from typing import Union

import numpy as np
from mlir import ir

from mlax._src.core import tracer as core
from mlax._src.base import dtypes
from mlax._src.core.tracer import Tracer
from mlax._src.core.primitives import Primitive, _ops, aval_of, bind, shape_error
from mlax._src.base.tree import tree_unflatten
from mlax._src.lax.lax import dot_general, rev, transpose
from mlax._src.lax.linalg import canonicalize_precision

_CONV = "lax.conv_general_dilated"


def _i64_array(values):
    return ir.DenseI64ArrayAttr.get([int(v) for v in values])


def _i64(value):
    return ir.IntegerAttr.get(ir.IntegerType.get_signless(64), int(value))


def _err(name, message, exc=TypeError):
    return exc(f"{name}: {message} (at {core.user_location_str()})")


def _dilate(d, r):
    return 0 if d == 0 else 1 + r * (d - 1)


# ---------------------------------------------------------------------------
# Dimension numbers and padding
# ---------------------------------------------------------------------------

class ConvDimensionNumbers(collections.namedtuple(
        "ConvDimensionNumbers", ["lhs_spec", "rhs_spec", "out_spec"])):
    """jax.lax.ConvDimensionNumbers: each spec lists (batch or output feature,
    feature or input feature, spatial...) dimension indices."""


ConvGeneralDilatedDimensionNumbers = Union[tuple[str, str, str], ConvDimensionNumbers, None]


def conv_general_permutations(dimension_numbers):
    lhs_spec, rhs_spec, out_spec = dimension_numbers
    charpairs = (("N", "C"), ("O", "I"), ("N", "C"))
    for i, (a, b) in enumerate(charpairs):
        if not dimension_numbers[i].count(a) == dimension_numbers[i].count(b) == 1:
            raise TypeError(f"convolution dimension_numbers[{i}] must contain the characters "
                            f"'{a}' and '{b}' exactly once, got {dimension_numbers[i]}.")
        if len(dimension_numbers[i]) != len(set(dimension_numbers[i])):
            raise TypeError(f"convolution dimension_numbers[{i}] cannot have duplicate "
                            f"characters, got {dimension_numbers[i]}.")
    if not (set(lhs_spec) - set("NC") == set(rhs_spec) - set("OI") == set(out_spec) - set("NC")):
        raise TypeError("convolution dimension_numbers elements must each have the same set "
                        f"of spatial characters, got {dimension_numbers}.")

    def getperm(spec, charpair):
        spatial = [i for i, c in enumerate(spec) if c not in charpair]
        if spec is not rhs_spec:
            spatial = sorted(spatial, key=lambda i: rhs_spec.index(spec[i]))
        return (spec.index(charpair[0]), spec.index(charpair[1])) + tuple(spatial)

    return tuple(map(getperm, dimension_numbers, charpairs))


def conv_dimension_numbers(lhs_shape, rhs_shape, dimension_numbers) -> ConvDimensionNumbers:
    """jax.lax.conv_dimension_numbers: None, three strings such as
    ('NCHW', 'OIHW', 'NCHW'), or a ConvDimensionNumbers."""
    if isinstance(dimension_numbers, ConvDimensionNumbers):
        return ConvDimensionNumbers(*(tuple(int(d) for d in s) for s in dimension_numbers))
    if len(lhs_shape) != len(rhs_shape):
        raise TypeError("convolution requires lhs and rhs ndim to be equal, got "
                        f"{len(lhs_shape)} and {len(rhs_shape)}.")
    if dimension_numbers is None:
        iota = tuple(range(len(lhs_shape)))
        return ConvDimensionNumbers(iota, iota, iota)
    if isinstance(dimension_numbers, (list, tuple)):
        if len(dimension_numbers) != 3:
            raise TypeError("convolution dimension_numbers list/tuple must be length 3, got "
                            f"{len(dimension_numbers)}.")
        if all(isinstance(e, str) for e in dimension_numbers):
            for i, e in enumerate(dimension_numbers):
                if len(e) != len(lhs_shape):
                    raise TypeError(
                        f"convolution dimension_numbers[{i}] must have len equal to the ndim "
                        f"of lhs and rhs, got {len(e)} for lhs and rhs shapes {lhs_shape} and "
                        f"{rhs_shape}.")
            return ConvDimensionNumbers(*conv_general_permutations(dimension_numbers))
        if all(isinstance(e, (list, tuple)) for e in dimension_numbers):
            return ConvDimensionNumbers(*(tuple(int(d) for d in s) for s in dimension_numbers))
        raise TypeError("convolution dimension_numbers elements must be strings, got "
                        f"{tuple(map(type, dimension_numbers))}.")
    raise TypeError("convolution dimension_numbers must be tuple/list or None, got "
                    f"{type(dimension_numbers)}.")


def conv_shape_tuple(lhs_shape, rhs_shape, strides, pads, batch_group_count=1):
    """jax.lax.conv_shape_tuple: the output shape of a convolution whose
    shapes are in (batch, feature, spatial...) order."""
    if isinstance(pads, str):
        pads = padtype_to_pads(lhs_shape[2:], rhs_shape[2:], strides, pads)
    if len(pads) != len(lhs_shape) - 2:
        raise TypeError(f"Wrong number of explicit pads for convolution: expected "
                        f"{len(lhs_shape) - 2}, got {len(pads)}.")
    padded = [d + lo + hi for d, (lo, hi) in zip(lhs_shape[2:], pads)]
    if builtins.any(d < 0 for d in padded):
        raise ValueError("Negative padding is larger than the size of the corresponding "
                         f"dimension: got padding={pads} for lhs_shape[2:]={lhs_shape[2:]}")
    out_space = tuple(_stride_dim(d, k, s) for d, k, s in zip(padded, rhs_shape[2:], strides))
    batch = lhs_shape[0] // batch_group_count if batch_group_count > 1 else lhs_shape[0]
    return (batch, rhs_shape[0]) + out_space


def _stride_dim(size, window, stride):
    return builtins.max((size - window) // stride + 1, 0)


def _in_spec_order(shape, perm):
    return tuple(shape[i] for i in perm)


def _in_out_order(shape, out_perm):
    return tuple(shape[out_perm.index(i)] for i in range(len(out_perm)))


def conv_general_shape_tuple(lhs_shape, rhs_shape, window_strides, padding, dimension_numbers):
    """jax.lax.conv_general_shape_tuple: conv_shape_tuple for shapes laid
    out as the three dimension-number strings say."""
    lhs_perm, rhs_perm, out_perm = conv_general_permutations(dimension_numbers)
    out = conv_shape_tuple(_in_spec_order(lhs_shape, lhs_perm),
                           _in_spec_order(rhs_shape, rhs_perm), window_strides, padding)
    return _in_out_order(out, out_perm)


def conv_transpose_shape_tuple(lhs_shape, rhs_shape, window_strides, padding,
                               dimension_numbers):
    """jax.lax.conv_transpose_shape_tuple: the output shape of conv_transpose."""
    lhs_perm, rhs_perm, out_perm = conv_general_permutations(dimension_numbers)
    lhs = _in_spec_order(lhs_shape, lhs_perm)
    rhs = _in_spec_order(rhs_shape, rhs_perm)
    if isinstance(padding, str):
        padding = [_conv_transpose_padding(k, s, padding)
                   for k, s in zip(rhs[2:], window_strides)]
    out_space = tuple((i - 1) * s - k + 2 + builtins.sum(p)
                      for i, k, s, p in zip(lhs[2:], rhs[2:], window_strides, padding))
    return _in_out_order((lhs[0], rhs[0]) + out_space, out_perm)


def reduce_window_shape_tuple(operand_shape, window_dimensions, window_strides, padding,
                              base_dilation=None, window_dilation=None):
    """jax.lax.reduce_window_shape_tuple: the output shape of reduce_window."""
    if base_dilation is not None:
        operand_shape = tuple(_dilate(d, r) for d, r in zip(operand_shape, base_dilation))
    if window_dilation is not None:
        window_dimensions = tuple(_dilate(d, r)
                                  for d, r in zip(window_dimensions, window_dilation))
    padded = tuple(d + lo + hi for d, (lo, hi) in zip(operand_shape, padding))
    return tuple(_stride_dim(d, w, s) for d, w, s in zip(padded, window_dimensions,
                                                         window_strides))


def padtype_to_pads(in_shape, window_shape, window_strides, padding):
    """jax.lax.padtype_to_pads: 'VALID', 'SAME' or 'SAME_LOWER' as (lo, hi) pairs."""
    kind = padding.upper() if isinstance(padding, str) else padding
    if kind == "VALID":
        return [(0, 0)] * len(in_shape)
    if kind in ("SAME", "SAME_LOWER"):
        pads = []
        for d, w, s in zip(in_shape, window_shape, window_strides):
            out = -(-d // s)
            size = builtins.max((out - 1) * s + w - d, 0)
            pads.append((size // 2, size - size // 2) if kind == "SAME"
                        else (size - size // 2, size // 2))
        return pads
    raise RuntimeError("Unrecognized padding type: expected 'VALID', 'SAME', or 'SAME_LOWER', "
                       f"got {padding}.")


def _pairs(name, padding, n):
    try:
        pads = tuple((operator.index(lo), operator.index(hi)) for lo, hi in padding)
    except (ValueError, TypeError) as e:
        raise ValueError(f"{name}: padding should be a string or a sequence of (low, high) "
                         f"pairs, got {padding}") from e
    if len(pads) != n:
        raise ValueError(f"{name}: padding needs {n} (low, high) pairs, got {len(pads)}")
    return pads


def _ints(name, what, values, n, minimum=1):
    values = tuple(operator.index(v) for v in values)
    if len(values) != n:
        raise ValueError(f"{name}: {what} needs {n} entries, got {values}")
    if builtins.any(v < minimum for v in values):
        raise ValueError(f"{name}: {what} must be at least {minimum}, got {values}")
    return values


# ---------------------------------------------------------------------------
# conv_general_dilated
# ---------------------------------------------------------------------------

# The result shape is ConvGeneralDilatedOp's C++ rule (MlaxConvOps.cpp: ranks,
# dimension numbers, feature and batch groups, windows); its element type is
# the operands' unless the caller prefers another of the same kind, which the
# op's verifier checks. Python checks the dtype kind.
def _conv_check(lhs, rhs, **params):
    if dtypes.is_bool(lhs.dtype) or dtypes.is_bool(rhs.dtype):
        raise _err(_CONV, "does not accept bool operands")


def _conv_emit(values, avals, *, lhs_spec, rhs_spec, out_spec, window_strides, padding,
               lhs_dilation, rhs_dilation, feature_group_count, batch_group_count,
               preferred_element_type):
    flat = [p for pair in padding for p in pair]
    result = _ops().ConvGeneralDilatedOp(
        values[0], values[1], _i64_array(lhs_spec), _i64_array(rhs_spec),
        _i64_array(out_spec), _i64_array(window_strides), _i64_array(flat),
        _i64_array(lhs_dilation), _i64_array(rhs_dilation), _i64(feature_group_count),
        _i64(batch_group_count)).result
    if preferred_element_type is not None and preferred_element_type != avals[0].dtype:
        result.set_type(ir.RankedTensorType.get(
            ir.RankedTensorType(result.type).shape,
            dtypes.mlir_element_type(preferred_element_type)))
    return result


_conv_p = Primitive(
    "conv_general_dilated", _conv_emit, check=_conv_check,
    weak_type=lambda lhs, rhs, *, preferred_element_type, **params: (
        lhs.weak_type and rhs.weak_type and preferred_element_type is None),
    errors={"feature_group_count": ValueError, "batch_group_count": ValueError,
            "must be positive": ValueError, "removes more than": ValueError,
            "entries": ValueError})


def _dtype_kind(dtype):
    if dtypes.is_int(dtype):
        return "i"
    return "c" if dtypes.is_complex(dtype) else "f"


def conv_general_dilated(lhs, rhs, window_strides, padding, lhs_dilation=None,
                         rhs_dilation=None, dimension_numbers=None, feature_group_count=1,
                         batch_group_count=1, precision=None, preferred_element_type=None):
    """jax.lax.conv_general_dilated (precision is checked as jax.lax does; the
    op carries none, so XLA's default applies)."""
    name = _CONV
    canonicalize_precision(precision)
    la, ra = aval_of(lhs), aval_of(rhs)
    dn = conv_dimension_numbers(la.shape, ra.shape, dimension_numbers)
    n = la.ndim - 2
    if n < 0:
        raise _err(name, f"lhs and rhs need rank at least 2, got shapes {la.shape} and "
                   f"{ra.shape}")
    for what, spec in zip(("lhs", "rhs", "out"), dn):
        if len(spec) != la.ndim or sorted(spec) != list(range(la.ndim)):
            raise _err(name, f"{what} spec {tuple(spec)} is not a permutation of the "
                       f"{la.ndim} dimensions of shapes {la.shape} and {ra.shape}")
    window_strides = _ints(name, "window_strides", window_strides, n)
    lhs_dilation = _ints(name, "lhs_dilation", (1,) * n if lhs_dilation is None else lhs_dilation, n)
    rhs_dilation = _ints(name, "rhs_dilation", (1,) * n if rhs_dilation is None else rhs_dilation, n)
    if isinstance(padding, str):
        if builtins.any(d != 1 for d in lhs_dilation):
            raise ValueError(
                "String padding is not implemented for transposed convolution using this op. "
                "Please either exactly specify the required padding or use conv_transpose.")
        window = [_dilate(ra.shape[d], r) for d, r in zip(dn.rhs_spec[2:], rhs_dilation)]
        padding = padtype_to_pads([la.shape[d] for d in dn.lhs_spec[2:]], window,
                                  window_strides, padding)
    padding = _pairs(name, padding, n)
    pet = dtypes.canonicalize(preferred_element_type) if preferred_element_type else None
    if pet is not None and la.dtype == ra.dtype and _dtype_kind(pet) != _dtype_kind(la.dtype):
        from mlax._src.lax.lax import convert_element_type

        lhs, rhs = convert_element_type(lhs, pet), convert_element_type(rhs, pet)
    return bind(_conv_p, lhs, rhs, lhs_spec=tuple(dn.lhs_spec), rhs_spec=tuple(dn.rhs_spec),
                out_spec=tuple(dn.out_spec), window_strides=window_strides, padding=padding,
                lhs_dilation=lhs_dilation, rhs_dilation=rhs_dilation,
                feature_group_count=operator.index(feature_group_count),
                batch_group_count=operator.index(batch_group_count),
                preferred_element_type=pet)


def conv_with_general_padding(lhs, rhs, window_strides, padding, lhs_dilation, rhs_dilation,
                              precision=None, preferred_element_type=None):
    """jax.lax.conv_with_general_padding: NCHW / OIHW convolution."""
    return conv_general_dilated(lhs, rhs, window_strides, padding, lhs_dilation=lhs_dilation,
                                rhs_dilation=rhs_dilation, precision=precision,
                                preferred_element_type=preferred_element_type)


def conv(lhs, rhs, window_strides, padding, precision=None, preferred_element_type=None):
    """jax.lax.conv: NCHW / OIHW convolution without dilation."""
    return conv_general_dilated(lhs, rhs, window_strides, padding, precision=precision,
                                preferred_element_type=preferred_element_type)


# ---------------------------------------------------------------------------
# reduce_window
# ---------------------------------------------------------------------------

_REDUCTIONS = {"add": 0, "mul": 1, "max": 2, "min": 3}
_COMPUTATION_NAMES = {"add": "add", "mul": "mul", "multiply": "mul", "max": "max",
                      "maximum": "max", "min": "min", "minimum": "min"}


# The result type is ReduceWindowOp's C++ rule (MlaxConvOps.cpp: the window
# count along each dimension; no max/min of complex numbers).
def _reduce_window_emit(values, avals, *, reduction, window_dimensions, window_strides,
                        padding, base_dilation, window_dilation):
    attr = ir.IntegerAttr.get(ir.IntegerType.get_signless(32), _REDUCTIONS[reduction])
    return _ops().ReduceWindowOp(
        attr, values[0], _i64_array(window_dimensions),
        _i64_array(window_strides), _i64_array([p for pair in padding for p in pair]),
        _i64_array(base_dilation), _i64_array(window_dilation)).result


_reduce_window_p = Primitive(
    "reduce_window", _reduce_window_emit,
    errors={"removes more than": ValueError, "entries": ValueError,
            "must be positive": ValueError})


def _identity(reduction, dtype):
    if reduction == "add":
        return 0
    if reduction == "mul":
        return 1
    if dtypes.is_bool(dtype):
        return reduction == "min"
    if dtypes.is_int(dtype):
        info = dtypes.iinfo(dtype)
        return info.min if reduction == "max" else info.max
    return -np.inf if reduction == "max" else np.inf


def _concrete_scalar(x):
    """x's value if it is a concrete scalar, else None."""
    if isinstance(x, Tracer):
        return None
    try:
        value = np.asarray(x)
    except Exception:  # noqa: BLE001 - anything not convertible is not concrete
        return None
    return value.item() if value.shape == () else None


def _reduction_of(computation):
    fn_name = getattr(computation, "__name__", None)
    reduction = _COMPUTATION_NAMES.get(fn_name)
    if reduction is None:
        raise NotImplementedError(
            f"lax.reduce_window: computation {computation!r} is not supported; mlax "
            "implements the monoids lax.add, lax.mul, lax.max and lax.min")
    return reduction


def _window_args(name, aval, window_dimensions, window_strides, padding, base_dilation,
                 window_dilation):
    n = aval.ndim
    window_dimensions = _ints(name, "window_dimensions", window_dimensions, n)
    window_strides = _ints(name, "window_strides", window_strides, n)
    base_dilation = _ints(name, "base_dilation", (1,) * n if base_dilation is None
                          else base_dilation, n)
    window_dilation = _ints(name, "window_dilation", (1,) * n if window_dilation is None
                            else window_dilation, n)
    if isinstance(padding, str):
        window = [_dilate(w, d) for w, d in zip(window_dimensions, window_dilation)]
        padding = padtype_to_pads(aval.shape, window, window_strides, padding)
    padding = _pairs(name, padding, n)
    return dict(window_dimensions=window_dimensions, window_strides=window_strides,
                padding=padding, base_dilation=base_dilation, window_dilation=window_dilation)


def reduce_window(operand, init_value, computation, window_dimensions, window_strides,
                  padding, base_dilation=None, window_dilation=None):
    """jax.lax.reduce_window for one operand and a monoid computation
    (lax.add, lax.mul, lax.max or lax.min, or the mlax.numpy equivalents).

    The window reduction starts from init_value; padding holds init_value.
    """
    name = "lax.reduce_window"
    from mlax._src.lax import lax

    aval = aval_of(operand)
    reduction = _reduction_of(computation)
    params = _window_args(name, aval, window_dimensions, window_strides, padding,
                          base_dilation, window_dilation)
    init_aval = aval_of(init_value)
    if init_aval.shape != ():
        raise _err(name, f"init_value must be a scalar, got shape {init_aval.shape}")
    if not init_aval.weak_type and init_aval.dtype != aval.dtype:
        raise _err(name, f"operand dtype {aval.dtype.name} and init_value dtype "
                   f"{init_aval.dtype.name} must be equal")
    out = bind(_reduce_window_p, operand, reduction=reduction, **params)
    value = _concrete_scalar(init_value)
    if value is not None and value == _identity(reduction, aval.dtype):
        return out
    # A different start value: for max/min, combining it with each window's
    # result is exact (padding holding it changes nothing); for add/mul only
    # without padding or dilation holes.
    holes = (builtins.any(p != (0, 0) for p in params["padding"])
             or builtins.any(d != 1 for d in params["base_dilation"]))
    if reduction in ("add", "mul") and holes:
        raise NotImplementedError(
            f"{name}: an init_value other than the identity of {reduction} with padding or "
            "base dilation is not supported")
    init = lax.convert_element_type(init_value, aval.dtype)
    init = lax.broadcast_in_dim(init, aval_of(out).shape, ())
    combine = {"add": lax.add, "mul": lax.mul, "max": lax.max, "min": lax.min}[reduction]
    return combine(out, init)


def _monoid_window(reduction):
    def fn(operand, window_dimensions, window_strides, padding, base_dilation=None,
           window_dilation=None):
        name = f"lax.reduce_window_{reduction}"
        params = _window_args(name, aval_of(operand), window_dimensions, window_strides,
                              padding, base_dilation, window_dilation)
        return bind(_reduce_window_p, operand, reduction=reduction, **params)

    fn.__name__ = f"reduce_window_{reduction}"
    fn.__doc__ = (f"reduce_window with lax.{reduction} starting from its identity "
                  "(padding holds the identity too).")
    return fn


reduce_window_sum = _monoid_window("add")
reduce_window_max = _monoid_window("max")
reduce_window_min = _monoid_window("min")
reduce_window_prod = _monoid_window("mul")


# ---------------------------------------------------------------------------
# conv_transpose, conv_general_dilated_patches
# ---------------------------------------------------------------------------

def _conv_transpose_padding(k, s, padding):
    """Before/after padding of one dimension of a transposed convolution
    (jax's _conv_transpose_padding)."""
    if padding == "SAME":
        pad_len = k + s - 2
        pad_a = k - 1 if s > k - 1 else int(np.ceil(pad_len / 2))
    elif padding == "VALID":
        pad_len = k + s - 2 + max(k - s, 0)
        pad_a = k - 1
    elif isinstance(padding, tuple):
        pads = tuple(k - p - 1 for p in padding)
        pad_a = pads[0]
        pad_len = sum(pads)
    else:
        raise ValueError(f"Invalid padding mode: {padding}")
    return pad_a, pad_len - pad_a


def conv_transpose(lhs, rhs, strides, padding, rhs_dilation=None, dimension_numbers=None,
                   transpose_kernel=False, precision=None, preferred_element_type=None,
                   use_consistent_padding=False):
    """jax.lax.conv_transpose: a fractionally strided convolution (strides
    become lhs dilation), with keras' Conv2DTranspose output padding;
    `transpose_kernel` flips the kernel's spatial dimensions and swaps its
    input and output feature dimensions."""

    la, ra = aval_of(lhs), aval_of(rhs)
    ndims = la.ndim
    if ra.ndim != ndims or ndims < 2:
        raise shape_error("lax.conv_transpose", f"lhs and rhs need one rank of at least 2, "
                          f"got shapes {la.shape} and {ra.shape}", ValueError)
    one = (1,) * (ndims - 2)
    if dimension_numbers is None:
        defaults = {2: ("NC", "IO", "NC"), 3: ("NHC", "HIO", "NHC"),
                    4: ("NHWC", "HWIO", "NHWC"), 5: ("NHWDC", "HWDIO", "NHWDC")}
        if ndims not in defaults:
            raise ValueError("No 4+ dimensional dimension_number defaults.")
        dimension_numbers = defaults[ndims]
    dn = conv_dimension_numbers(la.shape, ra.shape, dimension_numbers)
    k_sdims = [ra.shape[d] for d in dn.rhs_spec[2:]]
    if rhs_dilation is None:
        rhs_dilation = one
    strides = tuple(strides)
    if use_consistent_padding or (isinstance(padding, str) and padding in {"SAME", "VALID"}):
        eff = [_dilate(k, r) for k, r in zip(k_sdims, rhs_dilation)]
        replicated = [padding] * len(strides) if isinstance(padding, str) else \
            [tuple(p) for p in padding]
        pads = tuple(_conv_transpose_padding(k, s, p) for k, s, p in
                     zip(eff, strides, replicated))
    else:
        pads = padding
    if transpose_kernel:
        for d in dn.rhs_spec[2:]:
            rhs = rev(rhs, [d])
        perm = list(range(ndims))
        o, i = dn.rhs_spec[0], dn.rhs_spec[1]
        perm[o], perm[i] = perm[i], perm[o]
        rhs = transpose(rhs, perm)
    return conv_general_dilated(lhs, rhs, one, pads, strides, rhs_dilation, dn,
                                precision=precision,
                                preferred_element_type=preferred_element_type)


def conv_general_dilated_patches(lhs, filter_shape, window_strides, padding,
                                 lhs_dilation=None, rhs_dilation=None,
                                 dimension_numbers=None, precision=None,
                                 preferred_element_type=None):
    """jax.lax.conv_general_dilated_patches: the receptive-field patches of a
    conv_general_dilated as output features (channels major, then the
    flattened filter positions), by a grouped convolution with an identity
    kernel as jax.lax does."""

    la = aval_of(lhs)
    filter_shape = tuple(operator.index(f) for f in filter_shape)
    dn = conv_dimension_numbers(la.shape, (1, 1) + filter_shape, dimension_numbers)
    lhs_spec, rhs_spec, _ = dn
    spatial = int(np.prod(filter_shape))
    channels = la.shape[lhs_spec[1]]
    eye = np.eye(spatial, dtype=la.dtype)
    k = np.broadcast_to(eye, (channels, spatial, spatial)).reshape(
        (channels * spatial, 1) + filter_shape)
    k = np.moveaxis(k, (0, 1), (rhs_spec[0], rhs_spec[1]))
    return conv_general_dilated(lhs, np.ascontiguousarray(k), window_strides, padding,
                                lhs_dilation=lhs_dilation, rhs_dilation=rhs_dilation,
                                dimension_numbers=dn, feature_group_count=channels,
                                preferred_element_type=preferred_element_type)


def conv_general_dilated_local(lhs, rhs, window_strides, padding, filter_shape,
                               lhs_dilation=None, rhs_dilation=None, dimension_numbers=None,
                               precision=None):
    """jax.lax.conv_general_dilated_local: a convolution whose weights differ
    at every output position (`rhs` has the output's spatial dimensions as
    well): the patches of `lhs` contracted with `rhs` position by position,
    as jax.lax computes it."""
    la = aval_of(lhs)
    canonicalize_precision(precision)
    patches = conv_general_dilated_patches(
        lhs, filter_shape, window_strides, padding, lhs_dilation=lhs_dilation,
        rhs_dilation=rhs_dilation, dimension_numbers=dimension_numbers)
    _, rhs_spec, out_spec = conv_dimension_numbers(
        la.shape, (1, 1) + tuple(filter_shape), dimension_numbers)
    # Batch over the spatial positions (in the patches' order), contract the
    # patch features with rhs' input features.
    lhs_batch = sorted(out_spec[2:])
    rhs_batch = [rhs_spec[2:][k] for k in sorted(range(len(out_spec) - 2),
                                                 key=lambda k: out_spec[2:][k])]
    out = dot_general(patches, rhs, (((out_spec[1],), (rhs_spec[1],)), (lhs_batch, rhs_batch)),
                      precision=precision)
    # The result is (spatial..., batch, out features): move the last two to
    # the output spec's batch and feature positions.
    ndim = len(out_spec)
    rest = iter(range(ndim - 2))
    perm = [ndim - 2 if d == out_spec[0] else ndim - 1 if d == out_spec[1] else next(rest)
            for d in range(ndim)]
    return transpose(out, perm)

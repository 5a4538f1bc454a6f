"""dtypes, their MLIR types, and JAX's type-promotion lattice.

As in JAX, arrays are 32-bit unless `jax_enable_x64` is on, and Python
scalars are *weakly typed*: they take the dtype of the array they meet
(`x_f16 + 1.0` is float16) instead of forcing float32/int32.
"""
from __future__ import annotations

import functools

import ml_dtypes
import numpy as np

from mlax._src.base.config import config

bool_ = np.dtype(np.bool_)
int8, int16, int32, int64 = (np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64))
uint8, uint16, uint32, uint64 = (np.dtype(t) for t in (np.uint8, np.uint16, np.uint32, np.uint64))
float16, float32, float64 = (np.dtype(t) for t in (np.float16, np.float32, np.float64))
bfloat16 = np.dtype(ml_dtypes.bfloat16)
complex64, complex128 = np.dtype(np.complex64), np.dtype(np.complex128)

SUPPORTED = (bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
             float16, bfloat16, float32, float64, complex64, complex128)
_SUPPORTED_SET = frozenset(SUPPORTED)

_TO_32 = {int64: int32, uint64: uint32, float64: float32, complex128: complex64}


def canonicalize(dtype) -> np.dtype:
    """The dtype an array of `dtype` gets in mlax (64-bit narrowed unless x64)."""
    dtype = np.dtype(dtype)
    if dtype not in _SUPPORTED_SET:
        raise TypeError(
            f"mlax does not support dtype {dtype}; supported: "
            + ", ".join(str(d) for d in SUPPORTED))
    if not config.x64_enabled:
        return _TO_32.get(dtype, dtype)
    return dtype


def default_int() -> np.dtype:
    return int64 if config.x64_enabled else int32


def default_float() -> np.dtype:
    return float64 if config.x64_enabled else float32


def default_complex() -> np.dtype:
    return complex128 if config.x64_enabled else complex64


def to_inexact(dtype) -> np.dtype:
    """JAX's to_inexact_dtype, canonicalized: inexact dtypes stay; 64-bit
    integers become float64 (float32 without x64); narrower integers and
    bool become float32 whether or not x64 is on."""
    dtype = np.dtype(dtype)
    if is_inexact(dtype):
        return dtype
    return canonicalize(float64 if dtype.itemsize == 8 else float32)


def is_float(dtype) -> bool:
    return np.issubdtype(dtype, np.floating) or dtype == bfloat16


def is_complex(dtype) -> bool:
    return np.issubdtype(dtype, np.complexfloating)


def is_inexact(dtype) -> bool:
    return is_float(dtype) or is_complex(dtype)


def is_int(dtype) -> bool:
    return np.issubdtype(dtype, np.integer)


def is_signed_int(dtype) -> bool:
    return np.issubdtype(dtype, np.signedinteger)


def is_unsigned(dtype) -> bool:
    return np.issubdtype(dtype, np.unsignedinteger)


def is_bool(dtype) -> bool:
    return dtype == bool_


def is_python_scalar(value) -> bool:
    """A Python bool/int/float/complex (weakly typed but for bool), not a
    NumPy scalar (np.float64 and np.complex128 subclass float and complex,
    but are strongly typed, as in JAX)."""
    return isinstance(value, (bool, int, float, complex)) and not isinstance(value, np.generic)


def scalar_type_of(value) -> tuple[np.dtype, bool]:
    """(dtype, weak_type) of a Python scalar or NumPy value."""
    if isinstance(value, np.generic):
        return canonicalize(value.dtype), False
    if isinstance(value, bool):
        return bool_, False
    if isinstance(value, int):
        return default_int(), True
    if isinstance(value, float):
        return default_float(), True
    if isinstance(value, complex):
        return default_complex(), True
    return canonicalize(np.asarray(value).dtype), False


# ---------------------------------------------------------------------------
# The jax.dtypes API (mlax.dtypes)
# ---------------------------------------------------------------------------

# The dtype of the (co)tangents of integer and boolean values, as JAX's.
float0 = np.dtype([("float0", np.void, 0)])

finfo = ml_dtypes.finfo
iinfo = ml_dtypes.iinfo


class extended(np.generic):  # noqa: N801  (JAX's name)
    """The scalar type of every dtype outside NumPy's (typed PRNG keys)."""


class prng_key(extended):  # noqa: N801
    """The scalar type of typed PRNG key arrays (`mlax.random.key`)."""


class ExtendedDType:
    """Base of the dtype objects of extended types: `type` is their scalar
    type in the hierarchy above."""

    type = extended


class TypePromotionError(ValueError):
    pass


# Scalar types NumPy's hierarchy does not place: the ml_dtypes floats.
_CUSTOM_FLOATS = frozenset(np.dtype(getattr(ml_dtypes, n)).type for n in (
    "bfloat16", "float8_e4m3fn", "float8_e4m3b11fnuz", "float8_e4m3fnuz", "float8_e5m2",
    "float8_e5m2fnuz") if hasattr(ml_dtypes, n))
_CUSTOM_INTS = {np.dtype(getattr(ml_dtypes, n)).type: kind for n, kind in (
    ("int4", np.signedinteger), ("uint4", np.unsignedinteger),
    ("int2", np.signedinteger), ("uint2", np.unsignedinteger)) if hasattr(ml_dtypes, n)}


def _scalar_type(x):
    if isinstance(x, ExtendedDType):
        return x.type
    if isinstance(x, type) and issubclass(x, np.generic):
        return x
    return np.dtype(x).type


def issubdtype(a, b) -> bool:
    """NumPy's issubdtype, with bfloat16 (and the other ml_dtypes floats)
    as floating and typed keys as `prng_key` / `extended`, as JAX's."""
    if isinstance(b, ExtendedDType):
        return isinstance(a, ExtendedDType) and a == b
    a_type, b_type = _scalar_type(a), _scalar_type(b)
    if a_type in _CUSTOM_FLOATS:
        return b_type in (a_type, np.floating, np.inexact, np.number, np.generic)
    if a_type in _CUSTOM_INTS:
        return b_type in (a_type, _CUSTOM_INTS[a_type], np.integer, np.number, np.generic)
    return bool(np.issubdtype(a_type, b_type))


def canonicalize_dtype(dtype, allow_extended_dtype: bool = False):
    """The dtype mlax stores `dtype` as (64-bit narrowed unless x64), as
    jax.dtypes.canonicalize_dtype; other NumPy dtypes pass through."""
    if isinstance(dtype, ExtendedDType):
        if not allow_extended_dtype:
            raise ValueError(f"Internal: canonicalize_dtype called on extended dtype "
                             f"{dtype} with allow_extended_dtype=False")
        return dtype
    dtype = np.dtype(dtype)
    if not config.x64_enabled:
        return _TO_32.get(dtype, dtype)
    return dtype


def itemsize_bits(dtype) -> int:
    """The size of one element in bits (8 for bool, 4 for int4)."""
    dtype = np.dtype(dtype)
    bits = getattr(ml_dtypes.iinfo(dtype), "bits", None) if dtype.type in _CUSTOM_INTS \
        else None
    return bits if bits is not None else 8 * dtype.itemsize


def python_scalar_type(x) -> type:
    """The Python scalar type (bool, int, float, complex) of a value's
    dtype: jax.dtypes.scalar_type_of."""
    if is_python_scalar(x):
        return next(t for t in (bool, int, float, complex) if isinstance(x, t))
    dtype = getattr(x, "dtype", None)
    if dtype is None:
        dtype = np.asarray(x).dtype
    if not isinstance(dtype, ExtendedDType):
        for kind, typ in ((np.bool_, bool), (np.integer, int), (np.floating, float),
                          (np.complexfloating, complex)):
            if issubdtype(dtype, kind):
                return typ
    raise TypeError(f"Value '{x}' with dtype {dtype} is not a valid JAX array type. "
                    "Only arrays of numeric types are supported by JAX.")


# JAX's lattice: an edge a -> b means b can represent a. Weak ("*") nodes are
# Python scalars' kinds; the least upper bound of the inputs is the result.
_I, _F, _C = "int*", "float*", "complex*"
_LATTICE = {
    bool_: [_I],
    _I: [uint8, int8],
    uint8: [int16, uint16], uint16: [int32, uint32], uint32: [int64, uint64],
    uint64: [_F],
    int8: [int16], int16: [int32], int32: [int64], int64: [_F],
    _F: [bfloat16, float16, _C],
    bfloat16: [float32], float16: [float32], float32: [float64, complex64],
    float64: [complex128],
    _C: [complex64], complex64: [complex128], complex128: [],
}


@functools.cache
def _upper_bounds(node) -> frozenset:
    out = {node}
    for nxt in _LATTICE[node]:
        out |= _upper_bounds(nxt)
    return frozenset(out)


@functools.lru_cache(maxsize=1024)
def _node(dtype, weak):
    if not weak:
        return dtype
    if is_complex(dtype):
        return _C
    if is_float(dtype):
        return _F
    if is_int(dtype):
        return _I
    return dtype


@functools.lru_cache(maxsize=4096)
def _promote_nodes(nodes: tuple):
    common = functools.reduce(lambda a, b: a & b, (_upper_bounds(n) for n in nodes))
    # The least upper bound is the common bound all others are above.
    for cand in common:
        if all(other in _upper_bounds(cand) for other in common):
            return cand
    raise TypeError(f"no common dtype for {nodes}")  # unreachable for a lattice


def result_type(*typed: tuple[np.dtype, bool]) -> tuple[np.dtype, bool]:
    """JAX's promotion of (dtype, weak_type) pairs -> (dtype, weak_type)."""
    node = _promote_nodes(tuple(_node(np.dtype(d), w) for d, w in typed))
    if node == _I:
        return default_int(), True
    if node == _F:
        return default_float(), True
    if node == _C:
        return default_complex(), True
    return canonicalize(node), False


def dtype_name(dtype) -> str:
    return np.dtype(dtype).name


# ---------------------------------------------------------------------------
# MLIR element types
# ---------------------------------------------------------------------------

def mlir_element_type(dtype):
    from mlir import ir

    dtype = np.dtype(dtype)
    if dtype == bool_:
        return ir.IntegerType.get_signless(1)
    if is_signed_int(dtype):
        return ir.IntegerType.get_signless(dtype.itemsize * 8)
    if is_unsigned(dtype):
        return ir.IntegerType.get_unsigned(dtype.itemsize * 8)
    if dtype == float16:
        return ir.F16Type.get()
    if dtype == bfloat16:
        return ir.BF16Type.get()
    if dtype == float32:
        return ir.F32Type.get()
    if dtype == float64:
        return ir.F64Type.get()
    if dtype == complex64:
        return ir.ComplexType.get(ir.F32Type.get())
    if dtype == complex128:
        return ir.ComplexType.get(ir.F64Type.get())
    raise TypeError(f"mlax does not support dtype {dtype}")


_tensor_types: dict = {}


def mlir_tensor_type(shape, dtype):
    """The MLIR tensor type in the current context, memoised: tracing asks
    for the same few types over and over."""
    from mlir import ir

    ctx = ir.Context.current
    key = (id(ctx), tuple(shape), dtype)
    hit = _tensor_types.get(key)
    if hit is not None and hit[0] is ctx:
        return hit[1]
    t = ir.RankedTensorType.get(list(shape), mlir_element_type(dtype))
    if len(_tensor_types) > 4096:
        _tensor_types.clear()
    _tensor_types[key] = (ctx, t)  # the context is kept alive: ids are not reused
    return t


MLIR_ELEMENT_DTYPES = {
    "i1": bool_, "i8": int8, "i16": int16, "i32": int32, "i64": int64,
    "ui8": uint8, "ui16": uint16, "ui32": uint32, "ui64": uint64,
    "f16": float16, "bf16": bfloat16, "f32": float32, "f64": float64,
    "complex<f32>": complex64, "complex<f64>": complex128}


def shape_dtype_of(tensor_type) -> tuple:
    """(shape, dtype) of a static MLIR tensor type."""
    dtype = MLIR_ELEMENT_DTYPES.get(str(tensor_type.element_type))
    if dtype is None:
        raise TypeError(f"mlax does not support the element type of {tensor_type}")
    return tuple(tensor_type.shape), dtype

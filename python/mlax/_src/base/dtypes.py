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

# JAX's narrow dtypes (ml_dtypes'): 8- and 4-bit floats, 4-bit integers.
# They take part in promotion only with themselves and weak Python scalars.
(float8_e3m4, float8_e4m3, float8_e4m3b11fnuz, float8_e4m3fn, float8_e4m3fnuz, float8_e5m2,
 float8_e5m2fnuz, float8_e8m0fnu, float4_e2m1fn) = (np.dtype(getattr(ml_dtypes, n)) for n in (
     "float8_e3m4", "float8_e4m3", "float8_e4m3b11fnuz", "float8_e4m3fn", "float8_e4m3fnuz",
     "float8_e5m2", "float8_e5m2fnuz", "float8_e8m0fnu", "float4_e2m1fn"))
int2, int4, uint2, uint4 = (np.dtype(getattr(ml_dtypes, n)) for n in
                            ("int2", "int4", "uint2", "uint4"))
FLOAT8 = (float8_e3m4, float8_e4m3, float8_e4m3b11fnuz, float8_e4m3fn, float8_e4m3fnuz,
          float8_e5m2, float8_e5m2fnuz, float8_e8m0fnu)
NARROW_FLOATS = FLOAT8 + (float4_e2m1fn,)
NARROW_INTS = (int4, uint4)

SUPPORTED = (bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
             float16, bfloat16, float32, float64, complex64, complex128,
             *NARROW_FLOATS, *NARROW_INTS)
_SUPPORTED_SET = frozenset(SUPPORTED)
_NARROW_FLOAT_SET = frozenset(NARROW_FLOATS) | {bfloat16}
_NARROW_SIGNED, _NARROW_UNSIGNED = frozenset((int4,)), frozenset((uint4,))

# Dtypes JAX names but this jaxlib's XLA cannot run (measured with jaxlib
# 0.10.2, CPU, in JAX too): float6 is no XLA primitive type there ("Invalid
# XLA PrimitiveType: 36 (F6E2M3FN)"), the CPU client rejects 1-bit integer
# buffers ("expected pred[3] but got s1[3]"), and the CPU compiler aborts the
# process on a concatenate of 2-bit integers (ir_array.cc "Check failed:
# bit_offset != nullptr").
UNAVAILABLE = {name: why for names, why in (
    (("float6_e2m3fn", "float6_e3m2fn"), "XLA in this jaxlib has no float6 primitive type"),
    (("int1", "uint1"), "XLA's CPU client in this jaxlib rejects 1-bit integer buffers"),
    (("int2", "uint2"), "XLA's CPU compiler in this jaxlib aborts on some ops of 2-bit "
                        "integers (concatenate)"))
    for name in names}

_TO_32 = {int64: int32, uint64: uint32, float64: float32, complex128: complex64}


def canonicalize(dtype) -> np.dtype:
    """The dtype an array of `dtype` gets in mlax (64-bit narrowed unless x64)."""
    dtype = np.dtype(dtype)
    if dtype not in _SUPPORTED_SET:
        why = UNAVAILABLE.get(dtype.name)
        raise TypeError(
            f"mlax does not support dtype {dtype}"
            + (f" ({why})" if why else "; supported: " + ", ".join(str(d) for d in SUPPORTED)))
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


def to_complex(dtype) -> np.dtype:
    """JAX's to_complex_dtype, canonicalized: complex128 for float64 and
    complex128 (and 64-bit integers under x64), complex64 otherwise."""
    return canonicalize(complex128 if to_inexact(dtype) in (float64, complex128) else complex64)


def real_part(dtype) -> np.dtype:
    """The dtype of a complex dtype's real part; any other dtype itself."""
    dtype = np.dtype(dtype)
    return {np.dtype(complex64): np.dtype(float32),
            np.dtype(complex128): np.dtype(float64)}.get(dtype, dtype)


def is_float(dtype) -> bool:
    return dtype in _NARROW_FLOAT_SET or np.issubdtype(dtype, np.floating)


def is_narrow(dtype) -> bool:
    """An 8- or 4-bit float or a 2- or 4-bit integer: promoted only with
    itself and weak Python scalars, as in JAX."""
    return dtype in _NARROW_FLOAT_SET and dtype != bfloat16 or dtype in NARROW_INTS


def supports_inf(dtype) -> bool:
    """Whether the dtype has infinities (reductions start from finfo.min/max
    where it has not). JAX's dtypes.supports_inf says True for
    float8_e8m0fnu and float4_e2m1fn too, whose -inf is NaN and -6."""
    return is_inexact(dtype) and np.dtype(dtype) not in (
        float8_e4m3b11fnuz, float8_e4m3fn, float8_e4m3fnuz, float8_e5m2fnuz, float8_e8m0fnu,
        float4_e2m1fn)


def is_complex(dtype) -> bool:
    return np.issubdtype(dtype, np.complexfloating)


def is_inexact(dtype) -> bool:
    return is_float(dtype) or is_complex(dtype)


def is_int(dtype) -> bool:
    return dtype in _NARROW_SIGNED or dtype in _NARROW_UNSIGNED \
        or np.issubdtype(dtype, np.integer)


def is_signed_int(dtype) -> bool:
    return dtype in _NARROW_SIGNED or np.issubdtype(dtype, np.signedinteger)


def is_unsigned(dtype) -> bool:
    return dtype in _NARROW_UNSIGNED or np.issubdtype(dtype, np.unsignedinteger)


def is_bool(dtype) -> bool:
    return dtype == bool_


def is_python_scalar(value) -> bool:
    """A Python bool/int/float/complex (weakly typed but for bool), not a
    NumPy scalar (np.float64 and np.complex128 subclass float and complex,
    but are strongly typed, as in JAX)."""
    return isinstance(value, (bool, int, float, complex)) and not isinstance(value, np.generic)


def is_python_integer(value) -> bool:
    """A Python bool or int (what a transformation passes through unmapped or
    undifferentiated, as JAX's pass their Python arguments: a jitted function
    may take it as a static argument). Floats stay traced values: their
    rules (a float power's derivative) are those of traced operands."""
    return isinstance(value, (bool, int)) and not isinstance(value, np.generic)


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
_CUSTOM_FLOATS = frozenset(d.type for d in _NARROW_FLOAT_SET) | frozenset(
    np.dtype(getattr(ml_dtypes, n)).type for n in ("float6_e2m3fn", "float6_e3m2fn"))
_CUSTOM_INTS = {**{d.type: np.signedinteger for d in (int2, int4)},
                **{d.type: np.unsignedinteger for d in (uint2, uint4)}}


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
    """The size of one element in bits (8 for bool, 4 for int4 and float4_e2m1fn)."""
    dtype = np.dtype(dtype)
    if dtype.type in _CUSTOM_INTS:
        return ml_dtypes.iinfo(dtype).bits
    if dtype.type in _CUSTOM_FLOATS:
        return ml_dtypes.finfo(dtype).bits
    return 8 * dtype.itemsize


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
    _I: [uint8, int8, *NARROW_INTS],
    **{t: [] for t in NARROW_INTS + NARROW_FLOATS},
    uint8: [int16, uint16], uint16: [int32, uint32], uint32: [int64, uint64],
    uint64: [_F],
    int8: [int16], int16: [int32], int32: [int64], int64: [_F],
    _F: [*NARROW_FLOATS, bfloat16, float16, _C],
    bfloat16: [float32], float16: [float32], float32: [float64, complex64],
    float64: [complex128],
    _C: [complex64], complex64: [complex128], complex128: [],
}


# JAX's strict lattice (jax_numpy_dtype_promotion='strict'): only a Python
# scalar's kind promotes, to the types of its kind or above; two different
# concrete dtypes never do.
_STRICT_LATTICE = {
    **{t: [] for t in _LATTICE if not isinstance(t, str)},
    _I: [_F, uint8, uint16, uint32, uint64, int8, int16, int32, int64, *NARROW_INTS],
    _F: [_C, *NARROW_FLOATS, bfloat16, float16, float32, float64],
    _C: [complex64, complex128],
}


@functools.cache
def _upper_bounds(node, strict=False) -> frozenset:
    out = {node}
    for nxt in (_STRICT_LATTICE if strict else _LATTICE)[node]:
        out |= _upper_bounds(nxt, strict)
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
def _promote_nodes(nodes: tuple, strict: bool = False):
    common = functools.reduce(lambda a, b: a & b, (_upper_bounds(n, strict) for n in nodes))
    # The least upper bound is the common bound all others are above.
    for cand in common:
        if all(other in _upper_bounds(cand, strict) for other in common):
            return cand
    names = tuple(f"<class '{n[:-1]}'>" if isinstance(n, str) else str(n)
                  for n in dict.fromkeys(nodes))
    if strict:
        raise TypePromotionError(
            f"Input dtypes {names} have no available implicit dtype promotion path when "
            "jax_numpy_dtype_promotion=strict. Try explicitly casting inputs to the desired "
            "output type, or set jax_numpy_dtype_promotion=standard.")
    # Only the narrow dtypes have no common bound with others; JAX's message.
    kind, example = next((kind, example) for group, kind, example in _NARROW_KINDS
                         if any(n in group for n in nodes))
    raise TypePromotionError(
        f"Input dtypes {names} have no available implicit dtype "
        f"promotion path. To avoid unintended promotion, {kind} do not support implicit "
        f"promotion. If you'd like your inputs to be promoted to another type, you can do so "
        f"explicitly using e.g. x.astype('{example}')")


_NARROW_KINDS = ((FLOAT8, "8-bit floats", "float32"),
                 ((float4_e2m1fn,), "4-bit floats", "float32"),
                 (NARROW_INTS, "1-bit, 2-bit and 4-bit integers", "int32"))


def result_type(*typed: tuple[np.dtype, bool]) -> tuple[np.dtype, bool]:
    """JAX's promotion of (dtype, weak_type) pairs -> (dtype, weak_type)."""
    node = _promote_nodes(tuple(_node(np.dtype(d), w) for d, w in typed),
                          config.jax_numpy_dtype_promotion == "strict")
    if node == _I:
        return default_int(), True
    if node == _F:
        return default_float(), True
    if node == _C:
        return default_complex(), True
    return canonicalize(node), False


def dtype_name(dtype) -> str:
    return np.dtype(dtype).name


def short_name(dtype) -> str:
    """The name jaxprs print (f32, u8, bf16, f8_e4m3fn, i4), by JAX's rule."""
    return (np.dtype(dtype).name.replace("float", "f").replace("uint", "u")
            .replace("int", "i").replace("complex", "c"))


# ---------------------------------------------------------------------------
# MLIR element types
# ---------------------------------------------------------------------------

def mlir_element_type(dtype):
    from mlir import ir

    dtype = np.dtype(dtype)
    if dtype == bool_:
        return ir.IntegerType.get_signless(1)
    if is_signed_int(dtype):
        return ir.IntegerType.get_signless(itemsize_bits(dtype))
    if is_unsigned(dtype):
        return ir.IntegerType.get_unsigned(itemsize_bits(dtype))
    narrow = _NARROW_FLOAT_TYPES.get(dtype)
    if narrow is not None:
        return getattr(ir, narrow).get()
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


# The narrow floats' MLIR builtin types (the classes of mlir.ir), whose
# printed names are the class names' middles: Float8E4M3FNType is f8E4M3FN.
_NARROW_FLOAT_TYPES = {
    float8_e3m4: "Float8E3M4Type", float8_e4m3: "Float8E4M3Type",
    float8_e4m3b11fnuz: "Float8E4M3B11FNUZType", float8_e4m3fn: "Float8E4M3FNType",
    float8_e4m3fnuz: "Float8E4M3FNUZType", float8_e5m2: "Float8E5M2Type",
    float8_e5m2fnuz: "Float8E5M2FNUZType", float8_e8m0fnu: "Float8E8M0FNUType",
    float4_e2m1fn: "Float4E2M1FNType"}

MLIR_ELEMENT_DTYPES = {
    "i1": bool_, "i8": int8, "i16": int16, "i32": int32, "i64": int64,
    "ui8": uint8, "ui16": uint16, "ui32": uint32, "ui64": uint64,
    "f16": float16, "bf16": bfloat16, "f32": float32, "f64": float64,
    "complex<f32>": complex64, "complex<f64>": complex128,
    "i4": int4, "ui4": uint4,
    **{"f" + name[5:-4]: dt for dt, name in _NARROW_FLOAT_TYPES.items()}}


def shape_dtype_of(tensor_type) -> tuple:
    """(shape, dtype) of a static MLIR tensor type."""
    dtype = MLIR_ELEMENT_DTYPES.get(str(tensor_type.element_type))
    if dtype is None:
        raise TypeError(f"mlax does not support the element type of {tensor_type}")
    return tuple(tensor_type.shape), dtype

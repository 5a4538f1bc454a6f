"""lax.fft: the fast Fourier transform primitive (mlax.fft, MlaxFftOps.td).

FFT and IFFT map complex to complex; RFFT real to complex (the last
transformed dimension shrinks to n // 2 + 1); IRFFT complex to real. The
transform acts on the trailing len(fft_lengths) dimensions (1 to 3).
"""
from __future__ import annotations

import enum
import operator

from mlir import ir

from mlax._src.base import dtypes
from mlax._src.core.tracer import ShapedArray
from mlax._src.lax.lax import _i64_array, convert_element_type
from mlax._src.core.primitives import Primitive, _ops, aval_of, bind, shape_error


class FftType(enum.IntEnum):
    """The transform lax.fft computes (jax.lax.FftType)."""
    FFT = 0
    IFFT = 1
    RFFT = 2
    IRFFT = 3


def _fft_type(fft_type) -> FftType:
    if isinstance(fft_type, str):
        try:
            return FftType[fft_type.upper()]
        except KeyError:
            pass
    else:
        name = getattr(fft_type, "name", None)  # also jax.lax.FftType
        if isinstance(name, str) and name in FftType.__members__:
            return FftType[name]
        if isinstance(fft_type, int) and not isinstance(fft_type, bool) and 0 <= fft_type < 4:
            return FftType(fft_type)
    raise ValueError(f"lax.fft: unknown fft_type {fft_type!r}; use one of "
                     "'FFT', 'IFFT', 'RFFT', 'IRFFT' (or lax.FftType)")


def _wide(dtype):
    return dtype == dtypes.complex128 or (not dtypes.is_complex(dtype) and dtype.itemsize == 8)


def _real_of(dtype):
    """The real dtype XLA transforms: float64 for 64-bit inputs, else float32."""
    return dtypes.canonicalize(dtypes.float64 if _wide(dtype) else dtypes.float32)


def _complex_of(dtype):
    return dtypes.canonicalize(dtypes.complex128 if _wide(dtype) else dtypes.complex64)


def _fft_out_shape(kind, shape, lengths):
    shape = list(shape)
    if kind == FftType.RFFT:
        shape[-1] = lengths[-1] // 2 + 1
    elif kind == FftType.IRFFT:
        shape[-1] = lengths[-1]
    return tuple(shape)


def _fft_eval(x, *, fft_type, fft_lengths):
    kind = FftType(fft_type)
    dtype = _real_of(x.dtype) if kind == FftType.IRFFT else _complex_of(x.dtype)
    return ShapedArray(_fft_out_shape(kind, x.shape, fft_lengths), dtype)


def _fft_emit(values, avals, out_aval, *, fft_type, fft_lengths):
    attr = ir.IntegerAttr.get(ir.IntegerType.get_signless(32), int(fft_type))
    return _ops().FftOp(out_aval.mlir_type(), attr, values[0],
                        _i64_array(fft_lengths)).result


_fft_p = Primitive("fft", _fft_eval, _fft_emit)


def fft(x, fft_type, fft_lengths):
    """jax.lax.fft: the FFT of kind `fft_type` over the trailing
    len(fft_lengths) dimensions of `x`. FFT/IFFT/IRFFT take x as complex
    (real inputs are converted), RFFT needs a real x."""
    name = "lax.fft"
    kind = _fft_type(fft_type)
    if isinstance(fft_lengths, (int,)) and not isinstance(fft_lengths, bool):
        fft_lengths = (fft_lengths,)
    try:
        lengths = tuple(operator.index(n) for n in fft_lengths)
    except TypeError:
        raise TypeError(f"{name}: fft_lengths must be a sequence of ints, got "
                        f"{fft_lengths!r}") from None
    aval = aval_of(x)
    if not 1 <= len(lengths) <= 3:
        raise shape_error(name, f"fft_lengths needs 1 to 3 entries (XLA transforms at most 3 "
                          f"dimensions), got {lengths}", ValueError)
    if any(n < 1 for n in lengths):
        raise shape_error(name, f"fft_lengths must be positive, got {lengths}", ValueError)
    if aval.ndim < len(lengths):
        raise shape_error(name, f"an operand of rank {aval.ndim} (shape {aval.shape}) has "
                          f"fewer than the {len(lengths)} transformed dimensions", ValueError)
    if kind == FftType.RFFT:
        if dtypes.is_complex(aval.dtype):
            raise shape_error(name, f"RFFT needs a real operand, got {aval.dtype.name}")
        x = convert_element_type(x, _real_of(aval.dtype))
    else:
        x = convert_element_type(x, _complex_of(aval.dtype))
    want = list(lengths)
    if kind == FftType.IRFFT:
        want[-1] = lengths[-1] // 2 + 1
    trailing = aval.shape[aval.ndim - len(lengths):]
    if tuple(trailing) != tuple(want):
        raise shape_error(name, f"{kind.name} with fft_lengths {lengths} needs the operand's "
                          f"trailing dimensions to be {tuple(want)}, got shape {aval.shape}",
                          ValueError)
    return bind(_fft_p, x, fft_type=int(kind), fft_lengths=lengths)


fft.primitive = _fft_p

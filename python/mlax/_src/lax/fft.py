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


# The result type is FftOp's C++ rule (MlaxFftOps.cpp: 1 to 3 positive
# lengths matching the operand's trailing dimensions; the element type and
# the last dimension follow from fft_type). Every shape error there is a
# ValueError, as in JAX; the result is never weakly typed.
def _fft_emit(values, avals, *, fft_type, fft_lengths):
    attr = ir.IntegerAttr.get(ir.IntegerType.get_signless(32), int(fft_type))
    return _ops().FftOp(attr, values[0], _i64_array(fft_lengths)).result


_fft_p = Primitive("fft", _fft_emit, weak_type=lambda x, **params: False,
                   errors={"": ValueError})


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
    if kind == FftType.RFFT:
        if dtypes.is_complex(aval.dtype):
            raise shape_error(name, f"RFFT needs a real operand, got {aval.dtype.name}")
        x = convert_element_type(x, _real_of(aval.dtype))
    else:
        x = convert_element_type(x, _complex_of(aval.dtype))
    return bind(_fft_p, x, fft_type=int(kind), fft_lengths=lengths)


fft.primitive = _fft_p

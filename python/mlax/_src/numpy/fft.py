"""mlax.numpy.fft: jax.numpy.fft over lax.fft.

The n-dimensional transforms move the transformed axes last (XLA transforms
trailing dimensions only), crop or zero-pad them to `s`, call lax.fft and
scale by `norm` ("backward", "ortho" or "forward"), as jax.numpy.fft does.
"""
from __future__ import annotations

import math
import operator

import numpy as np

from mlax._src.core import tracer as core
from mlax._src.base import dtypes
from mlax._src.lax.fft import FftType
from mlax._src.lax.fft import fft as _lax_fft
from mlax._src.numpy import lax_numpy as mnp
from mlax._src.numpy import manipulation as mnc
from mlax._src.numpy import statistics as mne
from mlax._src.numpy import array_creation

__all__ = ["fft", "ifft", "rfft", "irfft", "fft2", "ifft2", "rfft2", "irfft2", "fftn",
           "ifftn", "rfftn", "irfftn", "hfft", "ihfft", "fftfreq", "rfftfreq", "fftshift", "ifftshift"]


def _err(name, message, exc=ValueError):
    return exc(f"jnp.fft.{name}: {message} (at {core.user_location_str()})")


def _norm_factor(name, norm, s):
    if norm is None or norm == "backward":
        return None
    size = math.prod(s)
    inverse = name.startswith("i")
    if norm == "ortho":
        return math.sqrt(size) if inverse else 1 / math.sqrt(size)
    if norm == "forward":
        return float(size) if inverse else 1 / size
    raise _err(name, f'invalid norm {norm!r}; use "backward", "ortho" or "forward"')


def _fft_core(name, kind, a, s, axes, norm):
    arr = mnp.asarray(a)
    if s is not None:
        try:
            s = tuple(operator.index(n) for n in s)
        except TypeError:
            raise _err(name, f"s must be a sequence of ints, got {s!r}", TypeError) from None
        if any(n < 0 for n in s):
            raise _err(name, f"shape s={s} must be non-negative")
    if axes is not None:
        axes = tuple(operator.index(ax) for ax in axes)
    if s is not None and axes is not None and len(s) != len(axes):
        raise _err(name, f"s={s} and axes={axes} have different lengths")
    orig_axes = axes
    if axes is None:
        axes = tuple(range(arr.ndim)) if s is None else tuple(range(arr.ndim - len(s), arr.ndim))
    for ax in axes:
        if not -arr.ndim <= ax < arr.ndim:
            raise _err(name, f"axis {ax} is out of bounds for an array of rank {arr.ndim}")
    if len({ax % arr.ndim for ax in axes}) != len(axes):
        raise _err(name, f"repeated axes are not supported, got {tuple(axes)}")
    if len(axes) > 3:
        raise _err(name, f"only 1D, 2D and 3D FFTs are supported (XLA), got axes {orig_axes} "
                   f"with input rank {arr.ndim}")
    if kind == FftType.RFFT and dtypes.is_complex(arr.dtype):
        raise _err(name, f"only real valued inputs supported for rfft, got {arr.dtype.name}")
    if kind == FftType.RFFT and arr.dtype in (dtypes.float16, dtypes.bfloat16):
        # As JAX's (its lax.fft refuses half precision for the real transforms).
        raise _err(name, f"RFFT input must be float32 or float64, got {arr.dtype.name}")
    if len(axes) == 0:
        return arr
    if orig_axes is not None:
        axes = tuple(range(arr.ndim - len(axes), arr.ndim))
        arr = mne.moveaxis(arr, orig_axes, axes)
    if s is not None:
        in_s = list(arr.shape)
        for ax, n in zip(axes, s):
            in_s[ax] = n
        if kind == FftType.IRFFT:
            in_s[-1] = in_s[-1] // 2 + 1
        if tuple(in_s) != tuple(arr.shape):
            arr = arr[tuple(slice(0, n) for n in in_s)]
            pads = [(0, n - m) for n, m in zip(in_s, arr.shape)]
            if any(p[1] for p in pads):
                arr = mne.pad(arr, pads)
    else:
        if kind == FftType.IRFFT:
            s = [arr.shape[ax] for ax in axes[:-1]] + [max(0, 2 * (arr.shape[axes[-1]] - 1))]
        else:
            s = [arr.shape[ax] for ax in axes]
    s = tuple(s)
    if any(n < 1 for n in s):
        raise _err(name, f"invalid number of data points {s} (every transformed length must "
                   "be at least 1)")
    out = _lax_fft(arr, kind, s)
    factor = _norm_factor(name, norm, s)
    if factor is not None:
        out = out * factor
    if orig_axes is not None:
        out = mne.moveaxis(out, axes, orig_axes)
    return out


def _one_d(name, kind):
    def f(a, n=None, axis=-1, norm=None):
        if n is not None:
            n = operator.index(n)
        return _fft_core(name, kind, a, None if n is None else (n,), (axis,), norm)
    f.__name__ = name
    f.__doc__ = f"jax.numpy.fft.{name}: the 1-D {kind.name} along `axis`, cropped or " \
                "zero-padded to `n`."
    return f


def _two_d(name, kind):
    def f(a, s=None, axes=(-2, -1), norm=None):
        if len(axes) != 2:
            raise _err(name, f"needs exactly 2 axes, got {tuple(axes)}")
        return _fft_core(name, kind, a, s, axes, norm)
    f.__name__ = name
    f.__doc__ = f"jax.numpy.fft.{name}: the 2-D {kind.name} over `axes`."
    return f


def _n_d(name, kind):
    def f(a, s=None, axes=None, norm=None):
        return _fft_core(name, kind, a, s, axes, norm)
    f.__name__ = name
    f.__doc__ = f"jax.numpy.fft.{name}: the N-D {kind.name} over `axes` (at most 3)."
    return f


fft = _one_d("fft", FftType.FFT)
ifft = _one_d("ifft", FftType.IFFT)
rfft = _one_d("rfft", FftType.RFFT)
irfft = _one_d("irfft", FftType.IRFFT)
fft2 = _two_d("fft2", FftType.FFT)
ifft2 = _two_d("ifft2", FftType.IFFT)
rfft2 = _two_d("rfft2", FftType.RFFT)
irfft2 = _two_d("irfft2", FftType.IRFFT)
fftn = _n_d("fftn", FftType.FFT)
ifftn = _n_d("ifftn", FftType.IFFT)
rfftn = _n_d("rfftn", FftType.RFFT)
irfftn = _n_d("irfftn", FftType.IRFFT)


def _circular_reverse(x, axis):
    """x[-j mod n] along `axis`: for a real signal, conj(FFT(x)) = FFT of
    this, which is how hfft/ihfft avoid a complex conjugate."""
    return mnc.roll(mnc.flip(x, axis), 1, axis)


def hfft(a, n=None, axis=-1, norm=None):
    """jax.numpy.fft.hfft: the FFT of a signal with Hermitian symmetry (a real
    spectrum), n * irfft(conj(a)) -- computed as irfft(a) read backwards."""
    arr = mnp.asarray(a)
    axis = operator.index(axis)
    if not -arr.ndim <= axis < arr.ndim:
        raise _err("hfft", f"axis {axis} is out of bounds for an array of rank {arr.ndim}")
    nn = (arr.shape[axis] - 1) * 2 if n is None else operator.index(n)
    out = _fft_core("hfft", FftType.IRFFT, arr, None if n is None else (n,), (axis,), norm)
    return _circular_reverse(out, axis) * nn


def ihfft(a, n=None, axis=-1, norm=None):
    """jax.numpy.fft.ihfft: the inverse of hfft, conj(rfft(a)) / n -- computed
    as the rfft of `a` read backwards (a must be real)."""
    arr = mnp.asarray(a)
    axis = operator.index(axis)
    if not -arr.ndim <= axis < arr.ndim:
        raise _err("ihfft", f"axis {axis} is out of bounds for an array of rank {arr.ndim}")
    if dtypes.is_complex(arr.dtype):
        raise _err("ihfft", f"only real valued inputs supported for rfft, got {arr.dtype.name}")
    nn = arr.shape[axis] if n is None else operator.index(n)
    if nn < 1:
        raise _err("ihfft", f"invalid number of data points ({nn}) specified")
    m = arr.shape[axis]
    if nn < m:
        arr = mnc.take(arr, array_creation.arange(nn), axis=axis)
    elif nn > m:
        pads = [(0, 0)] * arr.ndim
        pads[axis] = (0, nn - m)
        arr = mne.pad(arr, pads)
    out = _fft_core("ihfft", FftType.RFFT, _circular_reverse(arr, axis), None, (axis,), norm)
    return out * (1 / nn)


def _freq_dtype(dtype):
    return dtypes.default_float() if dtype is None else dtypes.canonicalize(dtype)


def fftfreq(n, d=1.0, *, dtype=None, device=None):
    """The sample frequencies of an n-point FFT with spacing d (jnp.fft.fftfreq)."""
    n = operator.index(n)
    if n < 1:
        raise _err("fftfreq", f"n must be positive, got {n}")
    k = np.concatenate([np.arange(0, (n - 1) // 2 + 1), np.arange(-(n // 2), 0)])
    return mnp.asarray(k, dtype=_freq_dtype(dtype)) / (d * n)


def rfftfreq(n, d=1.0, *, dtype=None, device=None):
    """The sample frequencies of an n-point RFFT with spacing d (jnp.fft.rfftfreq)."""
    n = operator.index(n)
    if n < 1:
        raise _err("rfftfreq", f"n must be positive, got {n}")
    return mnp.asarray(np.arange(0, n // 2 + 1), dtype=_freq_dtype(dtype)) / (d * n)


def _shift(name, x, axes, sign):
    x = mnp.asarray(x)
    if axes is None:
        axes = tuple(range(x.ndim))
    elif isinstance(axes, (int, np.integer)):
        axes = (operator.index(axes),)
    else:
        axes = tuple(operator.index(a) for a in axes)
    if not axes:
        return x
    shift = [sign * (x.shape[a] // 2) for a in axes]
    return mnc.roll(x, shift, axes)


def fftshift(x, axes=None):
    """Moves the zero frequency to the centre (jnp.fft.fftshift)."""
    return _shift("fftshift", x, axes, 1)


def ifftshift(x, axes=None):
    """The inverse of fftshift (jnp.fft.ifftshift)."""
    return _shift("ifftshift", x, axes, -1)

"""jax.scipy.fft: the type-2 discrete cosine transform (dct, dctn) and its
inverse (idct, idctn), with norm None/'backward'/'ortho', as JAX (which
implements type 2 only). One axis at a time: the even/odd reordering of
Makhoul's algorithm is a static gather, then one complex FFT and a twiddle
factor computed in NumPy at trace time. An n-d transform is the 1-d one
applied along each axis (the DCT is separable)."""
from __future__ import annotations

import math
import operator

import numpy as np

from mlax._src.base import dtypes
from mlax._src.lax.elementwise import complex as lax_complex
from mlax._src.numpy import fft as np_fft
from mlax._src.numpy.lax_numpy import asarray
from mlax._src.numpy.statistics import moveaxis, pad
from mlax._src.numpy.ufuncs import imag, real
from mlax._src.numpy.util import _promote_inexact


def _check(name, type, norm):  # noqa: A002 (scipy's name)
    if type != 2:
        raise NotImplementedError("Only DCT type 2 is implemented.")
    if norm is not None and norm not in ("backward", "ortho"):
        raise ValueError(f"jax.scipy.fft.{name}: norm={norm!r} is not implemented")


def _canon_axis(axis, ndim):
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {ndim}")
    return axis % ndim


def _resize_last(x, n):
    """x zero-padded or truncated to length n along its last axis."""
    if n is None or n == x.shape[-1]:
        return x
    if n < x.shape[-1]:
        return x[..., :n]
    return pad(x, [(0, 0)] * (x.ndim - 1) + [(0, n - x.shape[-1])])


def _ortho_factor(n):
    """sqrt(f_k * n) with f_0 = 4, f_k = 2: the scale of the orthonormal DCT-II."""
    f = np.full(n, 2.0)
    f[0] = 4.0
    return np.sqrt(f * n)


def _complex_of(dt):
    return np.complex128 if np.dtype(dt) == np.float64 else np.complex64


def _dct_last(x, norm):
    n = x.shape[-1]
    perm = np.r_[np.arange(0, n, 2), np.arange(1, n, 2)[::-1]]
    v = x[..., asarray(perm.astype(np.int32))]
    w = np.exp(-0.5j * np.pi * np.arange(n) / n).astype(_complex_of(x.dtype))
    out = 2 * real(np_fft.fft(v, axis=-1) * asarray(w))
    if norm == "ortho":
        out = out / asarray(_ortho_factor(n).astype(out.dtype))
    return out


def _idct_last(x, norm):
    n = x.shape[-1]
    scale = _ortho_factor(n) if norm == "ortho" else _ortho_factor(n) ** 2
    w = np.exp(-0.5j * np.pi * np.arange(n) / n)
    coef = (2 * n / (scale * w)).astype(_complex_of(x.dtype))
    v = real(np_fft.ifft(x.astype(coef.dtype) * asarray(coef), axis=-1))
    half = math.ceil(n / 2)
    inv = np.empty(n, np.int64)  # out[0::2] = v[:half], out[1::2] = v[half:][::-1]
    inv[0::2] = np.arange(half)
    inv[1::2] = np.arange(n - 1, half - 1, -1)
    return v[..., asarray(inv.astype(np.int32))]


def _along(fn, x, axis, n, norm):
    x = moveaxis(x, axis, -1)
    return moveaxis(fn(_resize_last(x, n), norm), -1, axis)


def _inexact(name, x):
    (x,) = _promote_inexact(name, asarray(x))
    return asarray(x)


def _split_complex(fn, x, *args):
    if dtypes.is_complex(x.dtype):
        return lax_complex(fn(real(x), *args), fn(imag(x), *args))
    return fn(x, *args)


def dct(x, type=2, n=None, axis=-1, norm=None):  # noqa: A002
    _check("dct", type, norm)
    x = _inexact("dct", x)
    axis = _canon_axis(axis, x.ndim)
    return _split_complex(lambda r: _along(_dct_last, r, axis, n, norm), x)


def idct(x, type=2, n=None, axis=-1, norm=None):  # noqa: A002
    _check("idct", type, norm)
    x = _inexact("idct", x)
    axis = _canon_axis(axis, x.ndim)
    return _split_complex(lambda r: _along(_idct_last, r, axis, n, norm), x)


def _axes_and_sizes(x, s, axes):
    if s is not None:
        try:
            s = list(s)
        except TypeError:
            s = [operator.index(s)]
        if len(s) > x.ndim:
            raise ValueError(f"s must have at most x.ndim ({x.ndim}) elements, got {len(s)}")
    if axes is None:
        axes = tuple(range(x.ndim - len(s), x.ndim)) if s is not None else tuple(range(x.ndim))
    else:
        axes = tuple(_canon_axis(a, x.ndim) for a in axes)
        if len(set(axes)) != len(axes):
            raise ValueError(f"repeated axis in axes {axes}")
    sizes = dict(zip(axes, s)) if s is not None else {}
    return axes, sizes


def _nd(name, one_d):
    def transform(x, type=2, s=None, axes=None, norm=None):  # noqa: A002
        _check(name, type, norm)
        x = _inexact(name, x)
        axes_, sizes = _axes_and_sizes(x, s, axes)

        def real_nd(r):
            for a in axes_:
                r = _along(one_d, r, a, sizes.get(a), norm)
            return r
        return _split_complex(real_nd, x)
    transform.__name__ = name
    return transform


dctn = _nd("dctn", _dct_last)
idctn = _nd("idctn", _idct_last)

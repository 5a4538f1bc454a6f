"""jax.scipy.signal: N-d convolution and correlation (direct, by
conv_general_dilated, or by FFT), detrending, and the windowed-FFT spectral
estimates stft / istft / welch / csd. Written on mlax.numpy; the framing of a
signal into overlapping segments is one static gather (indices known at trace
time) rather than JAX's vmapped dynamic_slice."""
from __future__ import annotations

import math
import operator
import warnings

import numpy as np

from mlax._src.base import dtypes
from mlax._src.lax import convolution as lax_conv
from mlax._src.lax.linalg import Precision
from mlax._src.numpy import fft as np_fft
from mlax._src.numpy.array_creation import arange
from mlax._src.numpy.lax_numpy import asarray, concatenate, reshape, swapaxes, transpose, where, zeros
from mlax._src.numpy.manipulation import flip
from mlax._src.numpy.statistics import median, moveaxis, pad
from mlax._src.numpy.tensor_contractions import matmul
from mlax._src.numpy.ufuncs import conj, imag, iscomplexobj, real
from mlax._src.numpy.util import _promote_inexact

_MODES = ("full", "same", "valid")


def _inexact(name, *args):
    return [asarray(a) for a in _promote_inexact(name, *[asarray(a) for a in args])]


def _canon_axis(axis, ndim):
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {ndim}")
    return axis % ndim


# --- convolution -----------------------------------------------------------------

def _convolve_nd(in1, in2, mode, precision):
    if mode not in _MODES:
        raise ValueError("mode must be one of ['full', 'same', 'valid']")
    in1, in2 = asarray(in1), asarray(in2)
    if in1.ndim != in2.ndim:
        raise ValueError("in1 and in2 must have the same number of dimensions")
    if in1.size == 0 or in2.size == 0:
        raise ValueError("zero-size arrays not supported in convolutions, got shapes "
                         f"{in1.shape} and {in2.shape}.")
    in1, in2 = _inexact("convolve", in1, in2)
    no_swap = all(s1 >= s2 for s1, s2 in zip(in1.shape, in2.shape))
    swap = all(s1 <= s2 for s1, s2 in zip(in1.shape, in2.shape))
    if not (no_swap or swap):
        raise ValueError("One input must be smaller than the other in every dimension.")
    shape_o = in2.shape
    if swap:
        in1, in2 = in2, in1
    shape = in2.shape
    in2 = flip(in2)
    if mode == "valid":
        padding = [(0, 0) for _ in shape]
    elif mode == "same":
        padding = [(s - 1 - (so - 1) // 2, s - so + (so - 1) // 2) for s, so in zip(shape, shape_o)]
    else:
        padding = [(s - 1, s - 1) for s in shape]
    out = lax_conv.conv_general_dilated(in1[None, None], in2[None, None], (1,) * len(shape),
                                        padding, precision=precision)
    return out[0, 0]


def _fftconvolve_unbatched(in1, in2, mode):
    full_shape = tuple(s1 + s2 - 1 for s1, s2 in zip(in1.shape, in2.shape))
    if mode == "valid":
        no_swap = all(s1 >= s2 for s1, s2 in zip(in1.shape, in2.shape))
        swap = all(s1 <= s2 for s1, s2 in zip(in1.shape, in2.shape))
        if not (no_swap or swap):
            raise ValueError("For 'valid' mode, One input must be at least as "
                             "large as the other in every dimension.")
        if swap:
            in1, in2 = in2, in1
    if all(s1 == 1 or s2 == 1 for s1, s2 in zip(in1.shape, in2.shape)):
        conv = in1 * in2
    else:
        axes = tuple(range(in1.ndim))
        if iscomplexobj(in1):
            conv = np_fft.ifftn(np_fft.fftn(in1, full_shape, axes) * np_fft.fftn(in2, full_shape, axes),
                                full_shape, axes)
        else:
            conv = np_fft.irfftn(np_fft.rfftn(in1, full_shape, axes)
                                 * np_fft.rfftn(in2, full_shape, axes), full_shape, axes)
    if mode == "full":
        out_shape = full_shape
    elif mode == "same":
        out_shape = in1.shape
    else:
        out_shape = tuple(s1 - s2 + 1 for s1, s2 in zip(in1.shape, in2.shape))
    starts = [(f - o) // 2 for f, o in zip(full_shape, out_shape)]
    return conv[tuple(slice(s, s + o) for s, o in zip(starts, out_shape))]


def fftconvolve(in1, in2, mode="full", axes=None):
    in1, in2 = _inexact("fftconvolve", in1, in2)
    if in1.ndim != in2.ndim:
        raise ValueError("in1 and in2 should have the same dimensionality")
    if mode not in _MODES:
        raise ValueError("mode must be one of ['same', 'full', 'valid']")
    if axes is None:
        return _fftconvolve_unbatched(in1, in2, mode)
    axes = (axes,) if isinstance(axes, int) else tuple(axes)
    axes = tuple(_canon_axis(a, in1.ndim) for a in axes)
    mapped = sorted(set(range(in1.ndim)) - set(axes))
    if any(in1.shape[i] != in2.shape[i] for i in mapped):
        raise ValueError(f"mapped axes must have same shape; got in1.shape={in1.shape} "
                         f"in2.shape={in2.shape} axes={axes}")
    # The mapped axes become leading batch axes of the FFTs over `axes`.
    order = tuple(mapped) + tuple(sorted(axes))
    a, b = transpose(in1, order), transpose(in2, order)
    nb = len(mapped)
    core_shape1, core_shape2 = a.shape[nb:], b.shape[nb:]
    full_shape = tuple(s1 + s2 - 1 for s1, s2 in zip(core_shape1, core_shape2))
    if mode == "valid":
        no_swap = all(s1 >= s2 for s1, s2 in zip(core_shape1, core_shape2))
        swap = all(s1 <= s2 for s1, s2 in zip(core_shape1, core_shape2))
        if not (no_swap or swap):
            raise ValueError("For 'valid' mode, One input must be at least as "
                             "large as the other in every dimension.")
        if swap:
            a, b = b, a
            core_shape1, core_shape2 = core_shape2, core_shape1
    fax = tuple(range(nb, a.ndim))
    if all(s1 == 1 or s2 == 1 for s1, s2 in zip(core_shape1, core_shape2)):
        conv = a * b
    elif iscomplexobj(a):
        conv = np_fft.ifftn(np_fft.fftn(a, full_shape, fax) * np_fft.fftn(b, full_shape, fax),
                            full_shape, fax)
    else:
        conv = np_fft.irfftn(np_fft.rfftn(a, full_shape, fax) * np_fft.rfftn(b, full_shape, fax),
                             full_shape, fax)
    if mode == "full":
        out_shape = full_shape
    elif mode == "same":
        out_shape = core_shape1
    else:
        out_shape = tuple(s1 - s2 + 1 for s1, s2 in zip(core_shape1, core_shape2))
    starts = [(f - o) // 2 for f, o in zip(conv.shape[nb:], out_shape)]
    conv = conv[(slice(None),) * nb + tuple(slice(s, s + o) for s, o in zip(starts, out_shape))]
    return transpose(conv, tuple(np.argsort(order)))


def convolve(in1, in2, mode="full", method="auto", precision=None):
    if method == "fft":
        return fftconvolve(in1, in2, mode=mode)
    if method in ("direct", "auto"):
        return _convolve_nd(in1, in2, mode, precision)
    raise ValueError(f"Got method={method!r}; expected 'auto', 'fft', or 'direct'.")


def correlate(in1, in2, mode="full", method="auto", precision=None):
    return convolve(in1, flip(conj(asarray(in2))), mode, precision=precision, method=method)


def convolve2d(in1, in2, mode="full", boundary="fill", fillvalue=0, precision=None):
    if boundary != "fill" or fillvalue != 0:
        raise NotImplementedError("convolve2d() only supports boundary='fill', fillvalue=0")
    if np.ndim(in1) != 2 or np.ndim(in2) != 2:
        raise ValueError("convolve2d() only supports 2-dimensional inputs.")
    return _convolve_nd(in1, in2, mode, precision)


def correlate2d(in1, in2, mode="full", boundary="fill", fillvalue=0, precision=None):
    if boundary != "fill" or fillvalue != 0:
        raise NotImplementedError("correlate2d() only supports boundary='fill', fillvalue=0")
    if np.ndim(in1) != 2 or np.ndim(in2) != 2:
        raise ValueError("correlate2d() only supports 2-dimensional inputs.")
    in1, in2 = asarray(in1), asarray(in2)
    swap = all(s1 <= s2 for s1, s2 in zip(in1.shape, in2.shape))
    same_shape = in1.shape == in2.shape
    # SciPy's correlate2d swaps the inputs when in2 is the larger; which side
    # is flipped (and conjugated) follows from that, per mode, as in JAX.
    if mode == "same" or (mode == "valid" and not (swap and not same_shape)) or (
            mode == "full" and not swap):
        return flip(_convolve_nd(flip(in1), conj(in2), mode, precision))
    if mode == "valid":
        return _convolve_nd(flip(in2), conj(in1), mode, precision)
    return conj(_convolve_nd(flip(in2), conj(in1), mode, precision))


# --- detrend -----------------------------------------------------------------------

def detrend(data, axis=-1, type="linear", bp=0, overwrite_data=None):  # noqa: A002 (scipy's name)
    if overwrite_data is not None:
        raise NotImplementedError("overwrite_data argument not implemented.")
    if type not in ("constant", "linear"):
        raise ValueError("Trend type must be 'linear' or 'constant'.")
    (data,) = _inexact("detrend", data)
    if type == "constant":
        return data - data.mean(axis, keepdims=True)
    n = data.shape[axis]
    bps = np.sort(np.unique(np.r_[0, bp, n]))
    if bps[0] < 0 or bps[-1] > n:
        raise ValueError("Breakpoints must be non-negative and less than length of data "
                         "along given axis.")
    # Each piece's least-squares line [1, t] is a fixed linear map of the data:
    # the piece minus its projection onto span{1, t}, with the projector built
    # in float64 NumPy at trace time.
    x = moveaxis(data, axis, -1)
    real_dt = dtypes.real_part(data.dtype)
    pieces = []
    for lo, hi in zip(bps[:-1], bps[1:]):
        m = int(hi - lo)
        if m == 0:
            continue
        a = np.stack([np.ones(m), np.arange(1, m + 1) / m], axis=1)
        resid = np.eye(m) - a @ np.linalg.pinv(a)
        seg = x[..., int(lo):int(hi)]
        pieces.append(matmul(seg, asarray(resid.T.astype(real_dt)), precision=Precision.HIGHEST)
                      if not dtypes.is_complex(data.dtype) else
                      matmul(seg, asarray(resid.T.astype(data.dtype)),
                             precision=Precision.HIGHEST))
    out = pieces[0] if len(pieces) == 1 else concatenate(pieces, axis=-1)
    return moveaxis(out, -1, axis)


# --- spectral estimates ---------------------------------------------------------------

def _window(window, nperseg, input_length, dtype):
    """(window array, nperseg), as scipy's _triage_segments."""
    if isinstance(window, (str, tuple)):
        n = input_length if nperseg is None else int(nperseg)
        if n > input_length:
            warnings.warn(f"nperseg={n} is greater than input_length={input_length}, "
                          f"using nperseg={input_length}")
            n = input_length
        return asarray(_named_window(window, n), dtype=dtype), n
    win = asarray(window, dtype=dtype)
    n = win.size if nperseg is None else int(nperseg)
    if win.ndim != 1:
        raise ValueError("window must be 1-D")
    if input_length < win.size:
        raise ValueError("window is longer than input signal")
    if n != win.size:
        raise ValueError("value specified for nperseg is different from length of window")
    return win, n


def _named_window(window, n):
    if isinstance(window, str) and window == "hann":
        return np.ones(1) if n == 1 else np.sin(np.linspace(0, np.pi, n, endpoint=False)) ** 2
    try:
        from scipy.signal import get_window
    except ImportError as err:
        raise ImportError(f"scipy must be available to use window={window!r}") from err
    return get_window(window, n)


def _odd_ext(x, n):
    if n < 1:
        return x
    if n > x.shape[-1] - 1:
        raise ValueError(f"The extension length n ({n}) is too big. It must not exceed "
                         f"x.shape[axis]-1, which is {x.shape[-1] - 1}.")
    left, right = x[..., :1], x[..., -1:]
    left_ext = flip(x[..., 1:n + 1], axis=-1)
    right_ext = flip(x[..., -(n + 1):-1], axis=-1)
    return concatenate((2 * left - left_ext, x, 2 * right - right_ext), axis=-1)


def _pad_last(mode, **kw):
    def ext(x, n):
        return pad(x, [(0, 0)] * (x.ndim - 1) + [(n, n)], mode, **kw)
    return ext


_BOUNDARY = {"even": _pad_last("reflect"), "odd": _odd_ext, "constant": _pad_last("edge"),
             "zeros": _pad_last("constant", constant_values=0.0), None: lambda x, n: x}


def _frames(x, nperseg, noverlap):
    """x[..., L] -> x[..., nseg, nperseg]: overlapping segments (static gather)."""
    if nperseg == 1 and noverlap == 0:
        return x[..., None]
    starts = np.arange(0, x.shape[-1] - nperseg + 1, nperseg - noverlap)
    idx = starts[:, None] + np.arange(nperseg)[None, :]
    return x[..., asarray(idx.astype(np.int32))]


def _fft_segments(x, win, detrend_func, nperseg, noverlap, nfft, sides):
    if np.issubdtype(np.dtype(x.dtype), np.integer):
        x = x.astype(win.dtype)
    seg = detrend_func(_frames(x, nperseg, noverlap))
    if iscomplexobj(win) and not iscomplexobj(seg):
        seg = seg.astype(dtypes.to_complex(seg.dtype))
    seg = win * seg
    if sides == "twosided":
        return np_fft.fft(seg, n=nfft)
    return np_fft.rfft(real(seg), n=nfft)


def _spectral_helper(x, y, fs=1.0, window="hann", nperseg=None, noverlap=None, nfft=None,
                     detrend_type="constant", return_onesided=True, scaling="density", axis=-1,
                     mode="psd", boundary=None, padded=False):
    if mode not in ("psd", "stft"):
        raise ValueError(f"Unknown value for mode {mode}, must be one of: ('psd', 'stft')")
    if boundary not in _BOUNDARY:
        raise ValueError(f"Unknown boundary option '{boundary}', must be one of: "
                         f"{list(_BOUNDARY.keys())}")
    x = asarray(x)
    axis = _canon_axis(axis, x.ndim)
    if y is None:
        (x,) = _inexact("spectral_helper", x)
        outershape = x.shape[:axis] + x.shape[axis + 1:]
    else:
        if mode != "psd":
            raise ValueError("two-argument mode is available only when mode=='psd'")
        x, y = _inexact("spectral_helper", x, y)
        if x.ndim != y.ndim:
            raise ValueError(f"two-arguments must have the same rank ({x.ndim} vs {y.ndim}).")
        try:
            outershape = np.broadcast_shapes(x.shape[:axis] + x.shape[axis + 1:],
                                             y.shape[:axis] + y.shape[axis + 1:])
        except ValueError as err:
            raise ValueError("x and y cannot be broadcast together.") from err
    result_dtype = dtypes.to_complex(x.dtype)
    freq_dtype = dtypes.real_part(result_dtype)
    if nperseg is not None:
        nperseg = int(nperseg)
        if nperseg < 1:
            raise ValueError("nperseg must be a positive integer")
    win, nperseg = _window(window, nperseg, x.shape[axis], x.dtype)
    noverlap = nperseg // 2 if noverlap is None else int(noverlap)
    nfft = nperseg if nfft is None else int(nfft)
    if y is None:
        if x.size == 0:
            return (zeros(x.shape, freq_dtype), zeros(x.shape, freq_dtype),
                    zeros(x.shape, result_dtype))
    elif x.size == 0 or y.size == 0:
        shape = outershape[:axis] + (min(x.shape[axis], y.shape[axis]),) + outershape[axis:]
        return zeros(shape, freq_dtype), zeros(shape, freq_dtype), zeros(shape, result_dtype)
    x = moveaxis(x, axis, -1)
    if y is not None:
        if y.ndim > 1:
            y = moveaxis(y, axis, -1)
        if x.shape[-1] < y.shape[-1]:
            x = pad(x, [(0, 0)] * (x.ndim - 1) + [(0, y.shape[-1] - x.shape[-1])])
        elif y.shape[-1] < x.shape[-1]:
            y = pad(y, [(0, 0)] * (y.ndim - 1) + [(0, x.shape[-1] - y.shape[-1])])
    if nfft < nperseg:
        raise ValueError("nfft must be greater than or equal to nperseg.")
    if noverlap >= nperseg:
        raise ValueError("noverlap must be less than nperseg.")
    nstep = nperseg - noverlap
    if boundary is not None:
        x = _BOUNDARY[boundary](x, nperseg // 2)
        if y is not None:
            y = _BOUNDARY[boundary](y, nperseg // 2)
    if padded:
        nadd = -(x.shape[-1] - nperseg) % nstep % nperseg
        x = pad(x, [(0, 0)] * (x.ndim - 1) + [(0, nadd)])
        if y is not None:
            y = pad(y, [(0, 0)] * (y.ndim - 1) + [(0, nadd)])
    if isinstance(detrend_type, str):
        def detrend_func(d):
            return detrend(d, type=detrend_type, axis=-1)
    elif callable(detrend_type):
        detrend_func = detrend_type
    elif not detrend_type:
        def detrend_func(d):
            return d
    else:
        raise ValueError(f"Unsupported detrend type: {detrend_type}")
    if scaling == "density":
        scale = 1.0 / (fs * (win * win).sum())
    elif scaling == "spectrum":
        scale = 1.0 / win.sum() ** 2
    else:
        raise ValueError(f"Unknown scaling: {scaling}")
    if mode == "stft":
        scale = scale ** 0.5
    sides = "onesided"
    if not return_onesided:
        sides = "twosided"
    elif iscomplexobj(x) or (y is not None and iscomplexobj(y)):
        sides = "twosided"
        warnings.warn("Input data is complex, switching to return_onesided=False")
    if sides == "twosided":
        freqs = np_fft.fftfreq(nfft, 1 / fs, dtype=freq_dtype)
    else:
        freqs = np_fft.rfftfreq(nfft, 1 / fs, dtype=freq_dtype)
    result = _fft_segments(x, win, detrend_func, nperseg, noverlap, nfft, sides)
    if y is not None:
        result = conj(result) * _fft_segments(y, win, detrend_func, nperseg, noverlap, nfft, sides)
    elif mode == "psd":
        result = conj(result) * result
    result = result * asarray(scale).astype(result_dtype)
    if sides == "onesided" and mode == "psd":
        end = None if nfft % 2 else -1
        k = result.shape[-1]
        mult = np.ones(k)
        mult[1:end] = 2
        result = result * asarray(mult.astype(freq_dtype))
    time = arange(nperseg / 2, x.shape[-1] - nperseg / 2 + 1, nperseg - noverlap,
                  dtype=freq_dtype) / fs
    if boundary is not None:
        time = time - nperseg / 2 / fs
    result = result.astype(result_dtype)
    if y is None and mode != "stft":
        result = real(result)
    result = moveaxis(result, -1, axis)
    return freqs, time, result


def stft(x, fs=1.0, window="hann", nperseg=256, noverlap=None, nfft=None, detrend=False,
         return_onesided=True, boundary="zeros", padded=True, axis=-1):
    return _spectral_helper(x, None, fs, window, nperseg, noverlap, nfft, detrend,
                            return_onesided, scaling="spectrum", axis=axis, mode="stft",
                            boundary=boundary, padded=padded)


def _median_bias(n):
    ii_2 = 2 * np.arange(1.0, (n - 1) // 2 + 1)
    return 1 + np.sum(1.0 / (ii_2 + 1) - 1.0 / ii_2)


def csd(x, y, fs=1.0, window="hann", nperseg=None, noverlap=None, nfft=None,
        detrend="constant", return_onesided=True, scaling="density", axis=-1, average="mean"):
    freqs, _, pxy = _spectral_helper(x, y, fs, window, nperseg, noverlap, nfft, detrend,
                                     return_onesided, scaling, axis, mode="psd")
    if y is not None:
        pxy = pxy + 0j
    if pxy.ndim >= 2 and pxy.size > 0:
        if pxy.shape[-1] > 1:
            if average == "median":
                bias = _median_bias(pxy.shape[-1])
                if iscomplexobj(pxy):
                    med = (median(real(pxy), axis=-1).astype(pxy.dtype)
                           + 1j * median(imag(pxy), axis=-1).astype(pxy.dtype))
                else:
                    med = median(pxy, axis=-1)
                pxy = med / asarray(np.asarray(bias)).astype(pxy.dtype)
            elif average == "mean":
                pxy = pxy.mean(axis=-1)
            else:
                raise ValueError(f'average must be "median" or "mean", got {average}')
        else:
            pxy = reshape(pxy, pxy.shape[:-1])
    return freqs, pxy


def welch(x, fs=1.0, window="hann", nperseg=None, noverlap=None, nfft=None, detrend="constant",
          return_onesided=True, scaling="density", axis=-1, average="mean"):
    freqs, pxx = csd(x, None, fs=fs, window=window, nperseg=nperseg, noverlap=noverlap,
                     nfft=nfft, detrend=detrend, return_onesided=return_onesided,
                     scaling=scaling, axis=axis, average=average)
    return freqs, real(pxx)


def _overlap_and_add(x, step):
    """x[..., frames, frame_len] -> x[..., step * (frames - 1) + frame_len],
    frames placed `step` apart and summed (a static scatter-free reshape)."""
    if x.ndim < 2:
        raise ValueError("Input must have (..., frames, frame_length) shape.")
    *batch, nframes, seglen = x.shape
    flat = math.prod(batch)
    x = reshape(x, (flat, nframes, seglen))
    out_size = step * (nframes - 1) + seglen
    nsteps = 1 + (seglen - 1) // step
    x = pad(x, ((0, 0), (0, 0), (0, nsteps * step - seglen)))
    x = transpose(reshape(x, (flat, nframes, nsteps, step)), (0, 2, 1, 3))
    x = pad(x, ((0, 0), (0, 0), (0, nframes), (0, 0)))
    shrunk = x.shape[2] - 1
    x = reshape(x, (flat, -1))[:, :nsteps * shrunk * step]
    x = reshape(x, (flat, nsteps, shrunk * step)).sum(axis=1)[:, :out_size]
    return reshape(x, tuple(batch) + (-1,))


def istft(Zxx, fs=1.0, window="hann", nperseg=None, noverlap=None, nfft=None,  # noqa: N803
          input_onesided=True, boundary=True, time_axis=-1, freq_axis=-2):
    z = asarray(Zxx)
    if z.ndim < 2:
        raise ValueError("Input stft must be at least 2d!")
    freq_axis = _canon_axis(freq_axis, z.ndim)
    time_axis = _canon_axis(time_axis, z.ndim)
    if freq_axis == time_axis:
        raise ValueError("Must specify differing time and frequency axes!")
    z = z.astype(dtypes.to_complex(z.dtype))
    n_default = 2 * (z.shape[freq_axis] - 1) if input_onesided else z.shape[freq_axis]
    nperseg = int(nperseg or n_default)
    if nperseg < 1:
        raise ValueError("nperseg must be a positive integer")
    if nfft is None:
        nfft = n_default + (1 if input_onesided and nperseg == n_default + 1 else 0)
    else:
        nfft = int(nfft)
    if nfft < nperseg:
        raise ValueError(f"FFT length ({nfft}) must be longer than nperseg ({nperseg}).")
    noverlap = int(noverlap or nperseg // 2)
    if noverlap >= nperseg:
        raise ValueError("noverlap must be less than nperseg.")
    nstep = nperseg - noverlap
    if time_axis != z.ndim - 1 or freq_axis != z.ndim - 2:
        outer = tuple(i for i in range(z.ndim) if i not in (time_axis, freq_axis))
        z = transpose(z, outer + (freq_axis, time_axis))
    ifunc = np_fft.irfft if input_onesided else np_fft.ifft
    xsubs = ifunc(z, axis=-2, n=nfft)[..., :nperseg, :]
    if isinstance(window, (str, tuple)):
        win = asarray(_named_window(window, nperseg)).astype(xsubs.dtype)
    else:
        win = asarray(window)
        if win.ndim != 1:
            raise ValueError("window must be 1-D")
        if win.shape[0] != nperseg:
            raise ValueError(f"window must have length of {nperseg}")
    xsubs = xsubs * win.sum()
    win = reshape(win, (1,) * (xsubs.ndim - 2) + (nperseg, 1))
    x = _overlap_and_add(swapaxes(xsubs * win, -2, -1), nstep)
    win_sq = (win * win) * asarray(np.ones((1,) * (xsubs.ndim - 2) + (1, xsubs.shape[-1]),
                                           dtypes.real_part(win.dtype)))
    norm = _overlap_and_add(swapaxes(win_sq, -2, -1), nstep)
    if boundary:
        x = x[..., nperseg // 2:-(nperseg // 2)]
        norm = norm[..., nperseg // 2:-(nperseg // 2)]
    x = x / where(norm > 1e-10, norm, 1.0)
    if x.ndim > 1 and time_axis != z.ndim - 1:
        if freq_axis < time_axis:
            time_axis -= 1
        x = moveaxis(x, -1, time_axis)
    time = arange(x.shape[0], dtype=dtypes.real_part(x.dtype)) / fs
    return time, x

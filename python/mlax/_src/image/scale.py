"""jax.image's resize and scale_and_translate: separable resampling, one
(input size x output size) weight matrix per spatial axis, contracted with
the image by a matmul at HIGHEST precision. The weights are the kernel
(triangle, Keys cubic, OpenCV cubic, Lanczos 3/5, or box overlap for
'area'), widened by 1/scale when antialiasing a downscale, normalized per
output sample, and zero where the sample falls outside the input, as JAX's.
Scale and translation may be traced (scale_and_translate is differentiable in
them); nearest-neighbour resizing is a static gather."""
from __future__ import annotations

import enum
import operator

import numpy as np

from mlax._src.lax.linalg import Precision
from mlax._src.numpy.array_creation import arange
from mlax._src.numpy.lax_numpy import asarray, where
from mlax._src.numpy.util import _eager_jit
from mlax._src.numpy.reductions import sum as np_sum
from mlax._src.numpy.statistics import moveaxis
from mlax._src.numpy.tensor_contractions import matmul
from mlax._src.numpy.ufuncs import abs as np_abs
from mlax._src.numpy.ufuncs import logical_and, maximum, minimum, sin
from mlax._src.numpy.util import _promote_inexact


class ResizeMethod(enum.Enum):
    """Image resize method (as jax.image.ResizeMethod)."""
    NEAREST = 0
    LINEAR = 1
    LANCZOS3 = 2
    LANCZOS5 = 3
    CUBIC = 4
    CUBIC_PYTORCH = 5
    AREA = 6

    @staticmethod
    def from_string(s: str):
        names = {"nearest": "NEAREST", "linear": "LINEAR", "bilinear": "LINEAR",
                 "trilinear": "LINEAR", "triangle": "LINEAR", "lanczos3": "LANCZOS3",
                 "lanczos5": "LANCZOS5", "cubic": "CUBIC", "bicubic": "CUBIC",
                 "tricubic": "CUBIC", "cubic-pytorch": "CUBIC_PYTORCH",
                 "bicubic-pytorch": "CUBIC_PYTORCH", "area": "AREA"}
        if s not in names:
            raise ValueError(f'Unknown resize method "{s}"')
        return ResizeMethod[names[s]]


def _lanczos(radius):
    def kernel(x):
        y = radius * sin(np.pi * x) * sin(np.pi * x / radius)
        out = where(x > 1e-3, y / where(x != 0, np.pi ** 2 * x * x, 1.0), 1.0)
        return where(x > radius, 0.0, out)
    return kernel


def _keys_cubic(x):
    out = (1.5 * x - 2.5) * x * x + 1.0
    out = where(x >= 1.0, ((-0.5 * x + 2.5) * x - 4.0) * x + 2.0, out)
    return where(x >= 2.0, 0.0, out)


def _opencv_cubic(x):
    a = -0.75
    out = ((a + 2.0) * x - (a + 3.0)) * x * x + 1.0
    out = where(x >= 1.0, ((a * x - 5.0 * a) * x + 8.0 * a) * x - 4.0 * a, out)
    return where(x >= 2.0, 0.0, out)


def _triangle(x):
    return maximum(0.0, 1.0 - np_abs(x))


_AREA = object()
_KERNELS = {ResizeMethod.LINEAR: (1, _triangle), ResizeMethod.LANCZOS3: (3, _lanczos(3.0)),
            ResizeMethod.LANCZOS5: (5, _lanczos(5.0)), ResizeMethod.CUBIC: (2, _keys_cubic),
            ResizeMethod.CUBIC_PYTORCH: (2, _opencv_cubic), ResizeMethod.AREA: (1, _AREA)}

_EPS = 1000.0 * float(np.finfo(np.float32).eps)


def _weights(m, n, scale, translation, kernel, antialias, edge_padding, radius, dtype):
    """The (m, n) resampling matrix of one axis."""
    scale = asarray(scale, dtype=dtype)
    translation = asarray(translation, dtype=dtype)
    inv = 1.0 / scale
    kscale = maximum(inv, 1.0) if antialias else 1.0
    out_pos = arange(n, dtype=dtype)
    sample = (out_pos + 0.5) * inv - translation * inv - 0.5
    k = radius if edge_padding else 0
    expanded = np.arange(-k, m + k)
    if kernel is _AREA:
        left = out_pos * inv - translation * inv
        lo = asarray(np.arange(m, dtype=np.float64).astype(dtype))
        w = maximum(0.0, minimum((left + inv)[None, :], (lo + 1.0)[:, None])
                    - maximum(left[None, :], lo[:, None]))
    else:
        w = kernel(np_abs(sample[None, :] - asarray(expanded.astype(dtype))[:, None]) / kscale)
    if edge_padding:
        # Clamped (replicated-edge) taps add onto the edge rows: a static 0/1 matrix.
        fold = (np.clip(expanded, 0, m - 1)[None, :] == np.arange(m)[:, None]).astype(dtype)
        w = matmul(asarray(fold), w, precision=Precision.HIGHEST)
    total = np_sum(w, axis=0, keepdims=True)
    w = where(np_abs(total) > _EPS, w / where(total != 0, total, 1.0), 0.0)
    if not edge_padding:
        inside = logical_and(sample >= -0.5, sample <= m - 0.5)
        w = where(inside[None, :], w, 0.0)
    return w


def _scale_and_translate(x, shape, spatial_dims, scale, translation, kernel, antialias,
                         precision, edge_padding, radius, wdtype):
    for i, d in enumerate(spatial_dims):
        d = operator.index(d)
        if not -x.ndim <= d < x.ndim:
            raise ValueError(f"axis {d} is out of bounds for array of dimension {x.ndim}")
        d %= x.ndim
        w = _weights(x.shape[d], shape[d], scale[i], translation[i], kernel, antialias,
                     edge_padding, radius, wdtype).astype(x.dtype)
        x = moveaxis(matmul(moveaxis(x, d, -1), w, precision=precision), -1, d)
    return x


def _canon_shape(shape):
    return tuple(operator.index(s) for s in shape)


def _method(method):
    if isinstance(method, str):
        method = ResizeMethod.from_string(method)
    return method


def _float_dtype(*xs):
    return np.dtype(asarray(_promote_inexact("scale_and_translate", *xs)[0]).dtype)


def _check_args(image, shape, method):
    """The (image, shape, method) both entry points take, checked as JAX does."""
    shape = _canon_shape(shape)
    image = asarray(image)
    if len(shape) != image.ndim:
        raise ValueError("shape must have length equal to the number of dimensions of x; "
                         f" {shape} vs {image.shape}")
    return image, shape, _method(method)


def _scale_and_translate_impl(image, shape, spatial_dims, scale, translation, method,
                              antialias=True, precision=Precision.HIGHEST):
    image, shape, method = _check_args(image, shape, method)
    if method == ResizeMethod.NEAREST:
        raise ValueError("Nearest neighbor resampling is not currently supported for "
                         "scale_and_translate.")
    if method == ResizeMethod.CUBIC_PYTORCH and antialias:
        method = ResizeMethod.CUBIC
    radius, kernel = _KERNELS[method]
    edge_padding = method == ResizeMethod.CUBIC_PYTORCH and not antialias
    (image,) = _promote_inexact("scale_and_translate", image)
    image = asarray(image)
    scale, translation = (asarray(a) for a in _promote_inexact("scale_and_translate",
                                                               asarray(scale),
                                                               asarray(translation)))
    wdtype = np.dtype(scale.dtype)
    return _scale_and_translate(image, shape, tuple(spatial_dims), scale, translation, kernel,
                                antialias, precision, edge_padding, radius, wdtype)


def _resize_nearest(x, shape):
    for d, (m, n) in enumerate(zip(x.shape, shape)):
        if m == n:
            continue
        idx = np.floor(((np.arange(n, dtype=np.float32) + 0.5) * np.float32(m)
                        / np.float32(n)).astype(np.float32)).astype(np.int32)
        index = [slice(None)] * x.ndim
        index[d] = asarray(idx)
        x = x[tuple(index)]
    return x


def _resize(image, shape, method, antialias=True, precision=Precision.HIGHEST):
    image, shape, method = _check_args(image, shape, method)
    if method == ResizeMethod.NEAREST:
        return _resize_nearest(image, shape)
    (image,) = _promote_inexact("resize", image)
    image = asarray(image)
    dims = tuple(i for i in range(image.ndim) if image.shape[i] != shape[i])
    if method == ResizeMethod.CUBIC_PYTORCH and antialias:
        method = ResizeMethod.CUBIC
    radius, kernel = _KERNELS[method]
    scale = [1.0 if shape[d] == 0 else shape[d] / image.shape[d] for d in dims]
    edge_padding = method == ResizeMethod.CUBIC_PYTORCH and not antialias
    return _scale_and_translate(image, shape, dims, scale, [0.0] * len(dims), kernel, antialias,
                                precision, edge_padding, radius, np.dtype(np.float32))


# One jit dispatch per call when eager, as jax.image's functions (the shape,
# dimensions and options static, canonicalised first so they are hashable).
_resize_jit = _eager_jit(_resize, ("shape", "method", "antialias", "precision"))
_scale_and_translate_jit = _eager_jit(_scale_and_translate_impl, (
    "shape", "spatial_dims", "method", "antialias", "precision"))


def resize(image, shape, method, antialias=True, precision=Precision.HIGHEST):
    """`image` resampled to `shape` with `method` (jax.image.resize)."""
    return _resize_jit(image, _canon_shape(shape), method, antialias, _static(precision))


def scale_and_translate(image, shape, spatial_dims, scale, translation, method,
                        antialias=True, precision=Precision.HIGHEST):
    """`image` scaled and translated along `spatial_dims` into `shape`
    (jax.image.scale_and_translate)."""
    return _scale_and_translate_jit(image, _canon_shape(shape), tuple(spatial_dims), scale,
                                    translation, method, antialias, _static(precision))


def _static(precision):
    return tuple(precision) if isinstance(precision, list) else precision

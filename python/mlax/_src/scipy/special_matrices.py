"""jax.scipy.linalg's special matrices (circulant, companion,
convolution_matrix, dft, fiedler, fiedler_companion, hadamard, helmert,
hilbert, invhilbert, invpascal, leslie, pascal) and the polar decomposition.
Matrices of a static size n alone are computed in float64 NumPy at trace
time (exact binomials) and cast to JAX's dtype; those built from arrays are
batched over leading axes with static index patterns. polar is computed from
the SVD (for either of JAX's methods: the factors agree to rounding)."""
from __future__ import annotations

import math
import operator

import numpy as np

from mlax._src.base import dtypes
from mlax._src.numpy import linalg as np_linalg
from mlax._src.numpy.lax_numpy import asarray, broadcast_to, concatenate, where, zeros
from mlax._src.numpy.manipulation import atleast_1d, flip
from mlax._src.numpy.statistics import pad
from mlax._src.numpy.tensor_contractions import matmul
from mlax._src.numpy.ufuncs import abs as np_abs
from mlax._src.numpy.ufuncs import conj
from mlax._src.numpy.library import result_type
from mlax._src.numpy.util import _eager_jit, _promote_inexact
from mlax._src.scipy.linalg import toeplitz


def _inexact(name, a):
    (a,) = _promote_inexact(name, asarray(a))
    return asarray(a)


def circulant(c):
    c = atleast_1d(asarray(c))
    n = c.shape[-1]
    idx = (np.arange(n)[:, None] - np.arange(n)[None, :]) % n
    return c[..., asarray(idx.astype(np.int32))]


def leslie(f, s):
    f, s = atleast_1d(asarray(f)), atleast_1d(asarray(s))
    if f.shape[-1] < 2:
        raise ValueError("The length of f along the last axis must be at least 2; got shape "
                         f"{f.shape}.")
    if s.shape[-1] != f.shape[-1] - 1:
        raise ValueError("Incorrect lengths for f and s. The length of s along the last axis "
                         "must be one less than the length of f; got f shape "
                         f"{f.shape} and s shape {s.shape}.")
    dt = result_type(f, s)
    f, s = f.astype(dt), s.astype(dt)
    n = f.shape[-1]
    batch = np.broadcast_shapes(f.shape[:-1], s.shape[:-1])
    f = broadcast_to(f, batch + (n,))
    s = broadcast_to(s, batch + (n - 1,))
    sub = s[..., :, None] * asarray(np.eye(n - 1, n).astype(s.dtype))
    return concatenate([f[..., None, :], sub], axis=-2)


def companion(a):
    a = atleast_1d(_inexact("companion", a))
    if a.shape[-1] < 2:
        raise ValueError("The length of `a` along the last axis must be at least 2; got shape "
                         f"{a.shape}.")
    m = a.shape[-1] - 1
    first = -a[..., 1:] / a[..., :1]
    rest = broadcast_to(asarray(np.eye(m, m, k=-1)[1:].astype(first.dtype)),
                        first.shape[:-1] + (m - 1, m))
    return concatenate([first[..., None, :], rest], axis=-2)


def fiedler(a):
    a = atleast_1d(asarray(a))
    return np_abs(a[..., :, None] - a[..., None, :])


def fiedler_companion(a):
    a = atleast_1d(_inexact("fiedler_companion", a))
    if a.shape[-1] == 0:
        raise ValueError("fiedler_companion requires the last axis of 'a' to have nonzero "
                         f"length, but got an array of shape {a.shape}.")
    n = a.shape[-1] - 1
    if n == 0:
        return zeros(a.shape[:-1] + (0, 0), a.dtype)
    a = a / a[..., :1]
    if n == 1:
        return -a[..., 1:, None]
    # Each entry is 0, 1 or -a[k]: the first matching rule of JAX's select.
    coef = np.full((n, n), -1)
    const = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            if i == 0 and j == 0:
                coef[i, j] = 1
            elif i == 1 and j == 0:
                const[i, j] = 1
            elif j == i + 1 and i % 2 == 0:
                coef[i, j] = min(i + 2, n)
            elif j == i + 2 and i % 2 == 0:
                const[i, j] = 1
            elif j == i - 1 and i % 2 == 0 and i >= 2:
                coef[i, j] = min(i + 1, n)
            elif j == i - 2 and i % 2 == 1 and i >= 3:
                const[i, j] = 1
    taken = -a[..., asarray(np.maximum(coef, 0).astype(np.int32))]
    return where(asarray(coef >= 0), taken, asarray(const.astype(a.dtype)))


def convolution_matrix(a, n, mode="full"):
    n = operator.index(n)
    if n <= 0:
        raise ValueError(f"n must be a positive integer; got {n}.")
    a = asarray(a)
    if a.ndim == 0:
        raise ValueError("convolution_matrix: a must be at least 1-dimensional, got a scalar.")
    m = a.shape[-1]
    if m < 1:
        raise ValueError(f"len(a) must be at least 1; got shape {a.shape}.")
    if mode not in ("full", "valid", "same"):
        raise ValueError(f"mode must be one of 'full', 'valid', 'same'; got {mode!r}.")
    widths = [(0, 0)] * (a.ndim - 1) + [(0, n - 1)]
    az, raz = pad(a, widths), pad(flip(a, axis=-1), widths)
    total = m + n - 1
    if mode == "same":
        trim = min(n, m) - 1
        tb, te = trim // 2, trim - trim // 2
    elif mode == "valid":
        tb = te = min(n, m) - 1
    else:
        tb = te = 0
    return toeplitz(az[..., tb:total - te], raz[..., total - n - tb:total - tb])


def _const(x, dtype):
    return asarray(np.asarray(x).astype(dtype))


def hilbert(n):
    a = np.arange(n, dtype=np.float64)
    return _const(1.0 / (a[:, None] + a[None, :] + 1), dtypes.default_float())


def invhilbert(n):
    out = np.empty((n, n))
    for i in range(n):
        for j in range(n):
            s = i + j
            out[i, j] = ((-1) ** s * (s + 1) * math.comb(n + i, n - j - 1)
                         * math.comb(n + j, n - i - 1) * math.comb(s, i) ** 2)
    return _const(out, dtypes.default_float())


def _kind(kind, article):
    if kind is None:
        kind = "symmetric"
    valid = ["symmetric", "lower", "upper"]
    if kind not in valid:
        raise ValueError(f"Expected kind to be {article}: {valid}; got {kind}")
    return kind


def _lower_pascal(n):
    return np.array([[math.comb(i, j) for j in range(n)] for i in range(n)], dtype=np.float64)


def pascal(n, kind=None):
    kind = _kind(kind, "on of")
    low = _lower_pascal(n)
    out = {"lower": low, "upper": low.T, "symmetric": low @ low.T}[kind]
    return _const(out, np.float32)


def invpascal(n, kind=None):
    kind = _kind(kind, "one of")
    i, j = np.arange(n)[:, None], np.arange(n)[None, :]
    low = (-1.0) ** (i - j) * _lower_pascal(n)
    out = {"lower": low, "upper": low.T, "symmetric": low.T @ low}[kind]
    return _const(out, dtypes.default_float())


def helmert(n, full=False):
    if n < 1:
        raise ValueError(f"n must be a positive integer; got {n}.")
    out = np.zeros((n - 1, n))
    for i in range(n - 1):
        k = i + 1
        out[i, :k] = 1.0 / np.sqrt(k * (k + 1))
        out[i, k] = -k / np.sqrt(k * (k + 1))
    if full:
        out = np.concatenate([np.full((1, n), 1.0 / np.sqrt(n)), out], axis=0)
    return _const(out, dtypes.default_float())


def hadamard(n, dtype=int):
    if n < 1 or not math.log2(n).is_integer():
        raise ValueError(f"n must be a positive power of 2; got {n}.")
    h = np.ones((1, 1))
    for _ in range(int(math.log2(n))):
        h = np.block([[h, h], [h, -h]])
    return _const(h, dtypes.canonicalize(dtype))


def dft(n, scale=None, *, dtype=None):
    if scale is not None and scale not in ("sqrtn", "n"):
        raise ValueError(f"scale must be None, 'sqrtn', or 'n'; got {scale!r}.")
    if dtype is None:
        dtype = dtypes.default_complex()
    else:
        dtype = dtypes.canonicalize(dtype)
        if not dtypes.is_complex(dtype):
            raise ValueError(f"dtype must be a complex floating-point type; got {dtype}.")
    a = np.arange(n)
    w = np.exp(-2j * np.pi * np.outer(a, a) / n)
    if scale == "sqrtn":
        w = w / np.sqrt(n)
    elif scale == "n":
        w = w / n
    return _const(w, dtype)


def polar(a, side="right", *, method="qdwh", eps=None, max_iterations=None):
    a = asarray(a)
    if a.ndim < 2:
        raise ValueError("The input `a` must be at least a 2-D array.")
    if side not in ("right", "left"):
        raise ValueError("The argument `side` must be either 'right' or 'left'.")
    if method not in ("qdwh", "svd"):
        raise ValueError(f"Unknown polar decomposition method {method}.")
    m, n = a.shape[-2:]
    if method == "qdwh" and not ((m >= n and side == "right") or (m < n and side == "left")):
        # JAX's QDWH iteration takes only these shapes; the SVD here takes any.
        raise NotImplementedError("method='qdwh' only supports mxn matrices where m < n where "
                                  "side='right' and m >= n side='left', got "
                                  f"{(m, n)} with side={side!r}")
    u_svd, s, vh = np_linalg._np_svd(a, full_matrices=False)
    unitary = matmul(u_svd, vh)
    s = s.astype(a.dtype)
    if side == "right":
        p = matmul(conj(vh).swapaxes(-1, -2) * s[..., None, :], vh)
    else:
        p = matmul(u_svd * s[..., None, :], conj(u_svd).swapaxes(-1, -2))
    return unitary, p


# One jit dispatch each when called outside a trace, as JAX's are (JAX's
# static arguments, and polar's iteration controls, which mlax reads).
polar = _eager_jit(polar, ("side", "method", "eps", "max_iterations"))
convolution_matrix = _eager_jit(convolution_matrix, ("n", "mode"))
hilbert = _eager_jit(hilbert, ("n",))
invhilbert = _eager_jit(invhilbert, ("n",))
pascal = _eager_jit(pascal, ("n", "kind"))
invpascal = _eager_jit(invpascal, ("n", "kind"))
helmert = _eager_jit(helmert, ("n", "full"))
hadamard = _eager_jit(hadamard, ("n", "dtype"))
dft = _eager_jit(dft, ("n", "scale", "dtype"))

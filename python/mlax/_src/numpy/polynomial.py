"""mlax.numpy's polynomials: vander, the poly* functions and roots, as jax.numpy's.
"""
from __future__ import annotations

import builtins

import numpy as np

from mlax._src.base import dtypes
from mlax._src.numpy import statistics as mne
from mlax._src.numpy.statistics import _where
from mlax._src.numpy import lax_numpy as mnp
from mlax._src.core.primitives import aval_of
from mlax._src.numpy.lax_numpy import _arr
from mlax._src.numpy import array_creation
from mlax._src.numpy import reductions
from mlax._src.numpy import ufuncs
from mlax._src.numpy import util


def vander(x, N=None, increasing=False):
    x = _arr(x)
    if aval_of(x).ndim != 1:
        raise ValueError("mnp.vander: x must be a one-dimensional array")
    n = aval_of(x).shape[0] if N is None else int(N)
    if n < 0:
        raise ValueError("mnp.vander: N must be nonnegative")
    powers = array_creation.arange(n)
    if not increasing:
        powers = powers[::-1]
    if dtypes.is_bool(aval_of(x).dtype):  # as JAX (its iota of x's dtype)
        raise TypeError("mnp.vander: iota does not accept dtype bool")
    powers = powers.astype(aval_of(x).dtype)  # as JAX: x's dtype, int8 kept
    shape = (aval_of(x).shape[0], n)
    return ufuncs.power(mnp.broadcast_to(mnp.expand_dims(x, -1), shape),
                        mnp.broadcast_to(powers, shape))


def _poly1d(name, p):
    p = _arr(p)
    if aval_of(p).ndim != 1:
        raise ValueError(f"mnp.{name}: input must be a 1-d array of coefficients")
    return p


def polyadd(a1, a2):
    a1, a2 = util.promote_dtypes("polyadd", _poly1d("polyadd", a1), _poly1d("polyadd", a2))
    n1, n2 = aval_of(a1).shape[0], aval_of(a2).shape[0]
    if n1 < n2:
        a1 = mnp.concatenate([mnp.zeros((n2 - n1,), aval_of(a1).dtype), a1])
    elif n2 < n1:
        a2 = mnp.concatenate([mnp.zeros((n1 - n2,), aval_of(a2).dtype), a2])
    return a1 + a2


def polysub(a1, a2):
    # Promoted before the negation (as JAX): a boolean a2 beside a numeric a1
    # is subtracted in a1's dtype.
    for a in (a1, a2):
        util._check_arg("polysub", a)
    a1, a2 = util.promote_dtypes("polysub", _arr(a1), _arr(a2))
    return polyadd(a1, -a2)


def polymul(a1, a2, *, trim_leading_zeros=False):
    from mlax._src.numpy import convolution

    a1, a2 = util.promote_dtypes("polymul", _poly1d("polymul", a1), _poly1d("polymul", a2))
    # An empty factor is the zero polynomial [0] (as JAX and NumPy): the
    # product has the other factor's length, all zeros.
    if aval_of(a1).shape[0] == 0:
        a1 = mnp.zeros((1,), aval_of(a1).dtype)
    if aval_of(a2).shape[0] == 0:
        a2 = mnp.zeros((1,), aval_of(a2).dtype)
    return convolution.convolve(a1, a2, mode="full")


def polyder(p, m=1):
    # As JAX (unlike NumPy): integer coefficients give a float derivative.
    p = mne._promote_inexact("polyder", _poly1d("polyder", p))[0]
    m = int(m)
    if m < 0:
        raise ValueError("mnp.polyder: order of derivative must be positive")
    for _ in range(m):
        n = aval_of(p).shape[0]
        if n <= 1:
            return mnp.zeros((0,), aval_of(p).dtype) if n == 0 else p[:0]
        p = p[:-1] * array_creation.arange(n - 1, 0, -1).astype(aval_of(p).dtype)
    return p


def polyint(p, m=1, k=None):
    # As JAX: k (0 when None) is promoted with p, so a complex k makes the
    # result complex and a scalar k (length 1) stands for all m constants,
    # m = 0 included.
    util._check_arg("polyint", p)
    if k is not None:
        util._check_arg("polyint", k)
    p, ks = mne._promote_inexact("polyint", _poly1d("polyint", p), 0 if k is None else k)
    m = int(m)
    if m < 0:
        raise ValueError("mnp.polyint: order of integral must be positive")
    dtype = aval_of(p).dtype
    # k may be traced (as in JAX): only its shape is looked at.
    ks = mnp.reshape(ks, (-1,)) if aval_of(ks).ndim == 0 else ks
    size = aval_of(ks).shape[0]
    if size == 1:
        ks = mnp.broadcast_to(ks, (m,))
    elif aval_of(ks).shape != (m,):
        raise ValueError("mnp.polyint: k must be a scalar or a rank-1 array of length 1 or m")
    for i in range(m):
        n = aval_of(p).shape[0]
        p = mnp.concatenate([p / array_creation.arange(n, 0, -1).astype(dtype), ks[i:i + 1]])
    return p


def polydiv(u, v, *, trim_leading_zeros=False):
    u, v = mne._promote_inexact("polydiv", _poly1d("polydiv", u), _poly1d("polydiv", v))
    m, n = aval_of(u).shape[0] - 1, aval_of(v).shape[0] - 1
    scale = 1.0 / v[0]
    q = mnp.zeros((builtins.max(m - n + 1, 1),), aval_of(u).dtype)
    r = u
    for k in range(0, m - n + 1):
        d = scale * r[k]
        q = q.at[k].set(d)
        r = r.at[k:k + n + 1].add(-d * v)
    return q, r


def poly(seq_of_zeros):
    """The coefficients of the monic polynomial with the given roots; of a
    non-empty square matrix, its characteristic polynomial (the roots its
    eigenvalues, complex)."""
    z = mne._promote_inexact("poly", _arr(seq_of_zeros))[0]
    if aval_of(z).ndim == 0:
        z = mnp.reshape(z, (1,))
    shape = aval_of(z).shape
    if len(shape) == 2 and shape[0] == shape[1] and shape[0] > 0:
        from mlax._src.numpy import linalg as la

        z = la.eigvals(z)
    if aval_of(z).ndim != 1:
        raise ValueError("mnp.poly: input must be 1d or non-empty square 2d array")
    if aval_of(z).shape[0] == 0:
        return mnp.ones((), aval_of(z).dtype)
    a = mnp.ones((1,), aval_of(z).dtype)
    for i in range(aval_of(z).shape[0]):
        a = polymul(a, mnp.stack([mnp.ones((), aval_of(z).dtype), -z[i]]))
    return a


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """Least-squares polynomial fit, as jax.numpy.polyfit: lstsq of the
    column-scaled Vandermonde matrix; full=True also returns lstsq's
    residuals, rank and singular values and rcond, cov=True the covariance
    of the coefficients (scaled by residuals / (len(x) - deg - 1) unless
    cov='unscaled')."""
    from mlax._src.numpy import linalg as la

    for v in (x, y, w):
        if v is not None:
            util._check_arg("polyfit", v)
    deg = int(mne._concrete_scalar("polyfit", "deg", deg))
    order = deg + 1
    if deg < 0:
        raise ValueError("mnp.polyfit: expected deg >= 0")
    x, y = mne._promote_inexact("polyfit", x, y)
    xa, ya = aval_of(x), aval_of(y)
    if xa.ndim != 1:
        raise TypeError("mnp.polyfit: expected 1D vector for x")
    if xa.size == 0:
        raise TypeError("mnp.polyfit: expected non-empty vector for x")
    if ya.ndim < 1 or ya.ndim > 2:
        raise TypeError("mnp.polyfit: expected 1D or 2D array for y")
    if xa.shape[0] != ya.shape[0]:
        raise TypeError("mnp.polyfit: expected x and y to have same length")
    n = xa.shape[0]
    if rcond is None:
        rcond = n * float(np.finfo(xa.dtype).eps)
    rcond = float(mne._concrete_scalar("polyfit", "rcond", rcond))
    lhs = vander(x, order)
    rhs = y
    if w is not None:
        w = _arr(w)
        if aval_of(w).ndim != 1:
            raise TypeError("mnp.polyfit: expected a 1-d array for weights")
        if aval_of(w).shape[0] != ya.shape[0]:
            raise TypeError("mnp.polyfit: expected w and y to have the same length")
        lhs = lhs * mnp.expand_dims(w, -1)
        rhs = rhs * (w if ya.ndim == 1 else mnp.expand_dims(w, -1))
    scale = ufuncs.sqrt(reductions.sum(lhs * lhs, axis=0))
    lhs = lhs / scale
    c, resids, rank, sv = la.lstsq(lhs, rhs, rcond=rcond)
    c = (c.T / scale).T
    if full:
        return c, resids, rank, sv, mnp.asarray(rcond)
    if not cov:
        return c
    vbase = la.inv(lhs.T @ lhs) / la.outer(scale, scale)
    if cov == "unscaled":
        fac = mnp.asarray(1.0)
    else:
        if n <= order:
            raise ValueError("mnp.polyfit: the number of data points must exceed order to "
                             "scale the covariance matrix")
        fac = resids / (n - order)
    fac = mnp.reshape(fac, (-1,))
    if ya.ndim == 1:
        return c, vbase * fac[None]
    return c, vbase[:, :, None] * fac[None, None, :]


def polyval(p, x, *, unroll=16):
    """The polynomial with coefficients p (highest degree first) at x (Horner)."""
    p, x = util.promote_dtypes("polyval", _arr(p), _arr(x))
    p, x = _arr(p), _arr(x)
    pa = aval_of(p)
    if pa.ndim == 0:
        raise ValueError(f"mnp.polyval: p must be at least 1-dimensional (at {_where()})")
    shape = util.broadcast_shapes(pa.shape[1:], aval_of(x).shape, name="polyval")
    y = mnp.zeros(shape, aval_of(x).dtype)
    for i in range(pa.shape[0]):
        y = ufuncs.add(ufuncs.multiply(y, x), p[i])
    return y


def _roots_no_zeros(p):
    # The roots are the eigenvalues of the companion matrix (JAX's algorithm).
    from mlax._src.numpy import linalg as la

    n = aval_of(p).shape[0]
    if n < 2:
        return mnp.asarray(np.zeros((0,), dtypes.to_complex(aval_of(p).dtype)))
    dt = aval_of(p).dtype
    a = mne.diag(mnp.ones((n - 2,), dt), -1)
    a = a.at[0, :].set(-p[1:] / p[0])
    return la.eigvals(a)


def _roots_with_zeros(p, num_leading_zeros):
    from mlax._src.lax import reductions as lax_reductions
    from mlax._src.numpy import manipulation as mnc

    n = aval_of(p).shape[0]
    # Avoid LAPACK errors when p is all zero.
    p = mnp.where(n == num_leading_zeros, mnp.asarray(1.0, aval_of(p).dtype), p)
    # Roll the leading zeros to the end and compute the roots.
    roots = _roots_no_zeros(mnc.roll(p, -num_leading_zeros))
    # Sort the zero roots to the end.
    roots = lax_reductions.sort_key_val(roots == 0, roots)[1]
    # The roots of the leading zeros are NaN.
    size = aval_of(roots).shape[0]
    nan = mnp.asarray(complex(np.nan, np.nan), aval_of(roots).dtype)
    return mnp.where(array_creation.arange(size) < size - num_leading_zeros, roots, nan)


def roots(p, *, strip_zeros=True):
    """The roots of the polynomial with coefficients `p` (highest degree
    first), always complex (jnp.roots): the eigenvalues of its companion
    matrix. Leading zeros are stripped (their count must be concrete), or
    with strip_zeros=False give NaN roots, which works under jit."""
    from mlax._src.numpy import library
    from mlax._src.numpy import manipulation as mnc

    p = _arr(p)
    p, = util._promote_inexact("roots", p)
    p = mnc.atleast_1d(p)
    if aval_of(p).ndim != 1:
        raise ValueError(f"mnp.roots: Input must be a rank-1 array (at {_where()})")
    if aval_of(p).shape[0] < 2:
        return mnp.asarray(np.zeros((0,), dtypes.to_complex(aval_of(p).dtype)))
    n = aval_of(p).shape[0]
    is_zero = p == 0
    num_leading_zeros = mnp.where(reductions.all(is_zero), n, mnc.argmin(is_zero))
    if strip_zeros:
        k = int(library._concrete("roots", num_leading_zeros,
                                  "the number of leading zeros (pass strip_zeros=False "
                                  "under jit; leading zeros then give NaN roots)"))
        return _roots_no_zeros(p[k:])
    return _roots_with_zeros(p, num_leading_zeros)


# One jit dispatch each when called outside a trace, as jax.numpy's are
# (JAX's static arguments; traced in place inside a trace).
poly = util._eager_jit(poly)
polyadd = util._eager_jit(polyadd)
polyder = util._eager_jit(polyder, ('m',))
polyfit = util._eager_jit(polyfit, ('deg', 'rcond', 'full', 'cov'))
polyint = util._eager_jit(polyint, ('m',))
polysub = util._eager_jit(polysub)
polyval = util._eager_jit(polyval, ('unroll',))
vander = util._eager_jit(vander, ('N', 'increasing'))

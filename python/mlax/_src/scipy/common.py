"""What every _src.scipy module uses: the mlax.numpy functions they are
written in (one namespace, as JAX's scipy modules use `jnp`), the argument
promotion jax.scipy applies, and the wrapper that makes an eager call one
compiled dispatch."""
from __future__ import annotations

import functools

import numpy as np

from mlax._src.base import dtypes
from mlax._src.core.primitives import aval_of
from mlax._src.jit.api import Jitted
from mlax._src.numpy.util import _convert, _materialize, _promote_inexact, promote_args, promote_dtypes  # noqa: F401
from mlax._src.numpy.ufuncs import abs, ceil, clip, cos, exp, expm1, floor, isfinite, isinf, isnan, log, log1p, logical_and, logical_not, logical_or, maximum, minimum, sign, sin, sqrt, square  # noqa: F401
from mlax._src.numpy.reductions import all, any, max, mean, min, sum  # noqa: F401
from mlax._src.numpy.array_creation import arange, eye  # noqa: F401
from mlax._src.numpy.lax_numpy import asarray, broadcast_shapes, broadcast_to, concatenate, expand_dims, full, full_like, ones, ones_like, reshape, stack, swapaxes, where, zeros, zeros_like  # noqa: F401
from mlax._src.numpy.tensor_contractions import matmul  # noqa: F401
from mlax._src.numpy.manipulation import argsort, cumsum, roll, diagonal, einsum, sort, take_along_axis, tril, triu  # noqa: F401
from mlax._src.numpy.reductions import cumprod  # noqa: F401
from mlax._src.numpy.ufuncs import conjugate, logaddexp  # noqa: F401
from mlax._src.numpy.statistics import moveaxis, select  # noqa: F401
from mlax._src.numpy.polynomial import polyval  # noqa: F401
from mlax._src.numpy.ufuncs import isneginf, isposinf, log2, sinc, signbit  # noqa: F401
from mlax._src.numpy.library import isscalar, trapezoid  # noqa: F401


def promote_args_inexact(name, *args):
    """The arguments at their common inexact dtype (JAX's
    promote_args_inexact), broadcast to one shape."""
    # Python scalars come back from promotion as weak literals; the stats
    # formulas use operators on them, so they become (weak) 0-d arrays.
    return [_materialize(a) for a in promote_args(name, *_promote_inexact(name, *args))]


def promote_args_complex(name, *args):
    """The arguments at their common dtype made complex, weak types kept
    (JAX's promote_args_complex), broadcast to one shape."""
    promoted = []
    for a in promote_dtypes(name, *args):
        aval = aval_of(a)
        promoted.append(_convert(a, dtypes.to_complex(aval.dtype), aval.weak_type))
    return [asarray(_materialize(a)) for a in promote_args(name, *promoted)]


def dtype(x):
    return aval_of(x).dtype


def is_complex(x):
    return dtypes.is_complex(dtype(x))


def dispatched(fun=None, *, static_argnames=()):
    """`fun` as one cached dispatch when called eagerly, traced in place
    inside a trace (as mlax.numpy's functions)."""
    if fun is None:
        return functools.partial(dispatched, static_argnames=static_argnames)
    return Jitted(fun, static_argnames=static_argnames, inline=True)


def const(example, value):
    """`value` as a constant of `example`'s dtype, as JAX's lax._const: weak
    (a Python scalar) when `example` is a weakly typed scalar, strong (a NumPy
    value) otherwise -- also for a weakly typed array of rank > 0."""
    aval = aval_of(example)
    if aval.weak_type and aval.ndim == 0:
        kind = complex if dtypes.is_complex(aval.dtype) else (
            float if dtypes.is_inexact(aval.dtype) else int)
        return kind(value)
    return np.asarray(value, aval.dtype)


def log1p_square(w):
    """log(1 + w^2) without overflow: 2 log|w| + log1p(w^-2) past |w| = 1,
    where w^2 overflows long before the log does (w = 1e30 in float32).
    Each branch sees a harmless argument, so gradients stay finite."""
    a = abs(w)
    big = a > 1
    a_big = where(big, a, const(a, 1))
    a_small = where(big, const(a, 0), a)
    return where(big, 2 * log(a_big) + log1p(1 / (a_big * a_big)), log1p(a_small * a_small))

"""jax.scipy.ndimage.map_coordinates: order 0 (nearest) and 1 (linear)
interpolation of an n-d array at given coordinates, with scipy's boundary
modes (constant, nearest, wrap, mirror, reflect), as JAX's: per axis a list
of (index, weight) taps, the indices folded back into range by the mode, and
the product of the taps over the axes summed."""
from __future__ import annotations

import functools
import itertools
import operator

import numpy as np

from mlax._src.lax.elementwise import round as lax_round
from mlax._src.numpy.lax_numpy import asarray, where
from mlax._src.numpy.ufuncs import abs as np_abs
from mlax._src.numpy.ufuncs import clip, floor, floor_divide


def _mirror(index, size):
    s = size - 1
    return np_abs((index + s) % (2 * s) - s) if s > 0 else index * 0


def _reflect(index, size):
    return floor_divide(_mirror(2 * index + 1, 2 * size + 1) - 1, 2)


_FIXERS = {"constant": lambda i, size: i, "nearest": lambda i, size: clip(i, 0, size - 1),
           "wrap": lambda i, size: i % size, "mirror": _mirror, "reflect": _reflect}


def _is_int(dt):
    # Integers only: a boolean input is not rounded (as JAX), its interpolated
    # value is True wherever it is nonzero.
    return np.issubdtype(np.dtype(dt), np.integer)


def _round(a):
    return a if _is_int(a.dtype) or np.dtype(a.dtype) == np.bool_ else lax_round(a)


def _nearest(c):
    return [(_round(c).astype(np.int32), None)]


def _linear(c):
    lower = floor(c)
    upper_w = c - lower
    i = lower.astype(np.int32)
    return [(i, 1 - upper_w), (i + 1, upper_w)]


def map_coordinates(input, coordinates, order, mode="constant", cval=0.0):  # noqa: A002
    x = asarray(input)
    coords = [asarray(c) for c in coordinates]
    if len(coords) != x.ndim:
        raise ValueError("coordinates must be a sequence of length input.ndim, but "
                         f"{len(coords)} != {x.ndim}")
    fixer = _FIXERS.get(mode)
    if fixer is None:
        raise NotImplementedError("jax.scipy.ndimage.map_coordinates does not yet support mode "
                                  f"{mode}. Currently supported modes are {set(_FIXERS)}.")
    if order == 0:
        taps_of = _nearest
    elif order == 1:
        taps_of = _linear
    else:
        raise NotImplementedError("jax.scipy.ndimage.map_coordinates currently requires order<=1")
    cval = asarray(cval, dtype=x.dtype)
    per_axis = []
    for c, size in zip(coords, x.shape):
        per_axis.append([(fixer(i, size), (0 <= i) & (i < size) if mode == "constant" else None, w)
                         for i, w in taps_of(c)])
    total = None
    for taps in itertools.product(*per_axis):
        idx = tuple(t[0] for t in taps)
        valid = [t[1] for t in taps if t[1] is not None]
        val = x[idx]
        if valid:
            val = where(functools.reduce(operator.and_, valid), val, cval)
        weights = [t[2] for t in taps if t[2] is not None]
        term = functools.reduce(operator.mul, weights) * val if weights else val
        total = term if total is None else total + term
    if _is_int(x.dtype):
        total = _round(total)
    return total.astype(x.dtype)

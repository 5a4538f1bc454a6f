"""jax.scipy.interpolate.RegularGridInterpolator: linear or nearest
interpolation on a rectilinear grid (scipy's class, as JAX's: no
bounds_error under tracing; points outside the grid get fill_value, NaN by
default, or are extrapolated linearly when fill_value is None). A pytree,
so an interpolator can be passed through mlax.jit."""
from __future__ import annotations

import itertools

import numpy as np

from mlax._src.base.tree import register_pytree_node
from mlax._src.numpy.lax_numpy import asarray, reshape, stack, where, zeros
from mlax._src.numpy.library import can_cast
from mlax._src.numpy.manipulation import searchsorted
from mlax._src.numpy.util import _promote_inexact


def _points_array(points, ndim):
    """xi as an (..., ndim) array: a tuple of coordinate arrays is stacked."""
    if isinstance(points, tuple) and len(points) == 1:
        points = points[0]
    if isinstance(points, tuple):
        arrs = [asarray(p) for p in points]
        shape = np.broadcast_shapes(*(a.shape for a in arrs))
        if any(a.shape != shape for a in arrs):
            raise ValueError("coordinate arrays do not have the same shape")
        (pts,) = _promote_inexact("RegularGridInterpolator", stack(arrs, axis=-1))
        return asarray(pts)
    points = asarray(points)
    if points.ndim == 1:
        points = reshape(points, (-1, ndim))
    return points


class RegularGridInterpolator:
    """Interpolation on a regular (rectilinear) grid, as
    jax.scipy.interpolate.RegularGridInterpolator."""

    def __init__(self, points, values, method="linear", bounds_error=False, fill_value=np.nan):
        if method not in ("linear", "nearest"):
            raise ValueError(f"method {method!r} is not defined")
        self.method = method
        self.bounds_error = bounds_error
        if bounds_error:
            raise NotImplementedError("`bounds_error` takes no effect under JIT")
        values = asarray(values)
        if len(points) > values.ndim:
            raise ValueError(f"there are {len(points)} point arrays, but values has "
                             f"{values.ndim} dimensions")
        (values,) = _promote_inexact("RegularGridInterpolator", values)
        values = asarray(values)
        if fill_value is not None:
            fill_value = asarray(fill_value)
            if not can_cast(fill_value.dtype, values.dtype, casting="same_kind"):
                raise ValueError("fill_value must be either 'None' or of a type compatible "
                                 "with values")
        self.fill_value = fill_value
        self.grid = tuple(asarray(p) for p in points)
        self.values = values

    def __call__(self, xi, method=None):
        method = self.method if method is None else method
        if method not in ("linear", "nearest"):
            raise ValueError(f"method {method!r} is not defined")
        ndim = len(self.grid)
        xi = _points_array(xi, ndim)
        if xi.shape[-1] != ndim:
            raise ValueError(f"the requested sample points xi have dimension {xi.shape[-1]}, "
                             f"but this RegularGridInterpolator has dimension {ndim}")
        lead = xi.shape[:-1]
        xi = reshape(xi, (-1, ndim))
        indices, dists, outside = self._find_indices(xi)
        if method == "linear":
            result = self._linear(indices, dists)
        else:
            result = self.values[tuple(where(d <= 0.5, i, i + 1)
                                       for i, d in zip(indices, dists))]
        if self.fill_value is not None:
            mask = reshape(outside, result.shape[:1] + (1,) * (result.ndim - 1))
            result = where(mask, self.fill_value, result)
        return reshape(result, lead + self.values.shape[ndim:])

    def _linear(self, indices, dists):
        trailing = (slice(None),) + (None,) * (self.values.ndim - len(indices))
        out = None
        for corner in itertools.product((0, 1), repeat=len(indices)):
            weight = None
            for up, d in zip(corner, dists):
                w = d if up else 1 - d
                weight = w if weight is None else weight * w
            term = self.values[tuple(i + up for i, up in zip(indices, corner))] * weight[trailing]
            out = term if out is None else out + term
        return out

    def _find_indices(self, xi):
        indices, dists = [], []
        outside = zeros((xi.shape[0],), dtype=bool)
        for k, g in enumerate(self.grid):
            x = xi[:, k]
            i = searchsorted(g, x) - 1
            i = where(i < 0, 0, i)
            i = where(i > g.size - 2, g.size - 2, i)
            indices.append(i)
            dists.append((x - g[i]) / (g[i + 1] - g[i]))
            outside = outside | (x < g[0]) | (x > g[-1])
        return indices, dists, outside


register_pytree_node(
    RegularGridInterpolator,
    lambda obj: ((obj.grid, obj.values, obj.fill_value), (obj.method, obj.bounds_error)),
    lambda aux, children: RegularGridInterpolator(*children[:2], *aux, *children[2:]))

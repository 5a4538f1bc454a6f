"""mlax.numpy's multidimensional histograms: histogramdd and histogram2d
(per-dimension bins as mnp.histogram's, combined by ravel_multi_index and
bincount, as jax.numpy computes them)."""
from __future__ import annotations

import builtins
import math

import numpy as np

from mlax._src.core.primitives import aval_of
from mlax._src.numpy import lax_numpy as mnp
from mlax._src.numpy import manipulation as mnc
from mlax._src.numpy import reductions
from mlax._src.numpy import ufuncs
from mlax._src.numpy import util
from mlax._src.numpy.index_tricks import ix_, ravel_multi_index
from mlax._src.numpy.lax_numpy import _arr
from mlax._src.numpy.statistics import (
    _promote_inexact, _to_inexact, bincount, diff, histogram_bin_edges)


def _histogramdd(sample, bins=10, range=None, weights=None, density=None):  # noqa: A002
    """The D-dimensional histogram of N points (`sample` of shape (N, D)) and
    each dimension's bin edges."""
    if weights is None:
        sample = _to_inexact(_arr(sample))
    else:
        sample, weights = _arr(sample), _arr(weights)
        if aval_of(weights).shape != aval_of(sample).shape[:1]:
            raise ValueError("should have one weight for each sample.")
        sample, weights = (_arr(v) for v in _promote_inexact("histogramdd", sample, weights))
    N, D = aval_of(sample).shape
    if range is not None and (len(range) != D or builtins.any(
            r is not None and np.shape(r)[0] != 2 for r in range)):
        raise ValueError(f"For sample.shape={(N, D)}, range must be a sequence of {D} pairs "
                         f"or Nones; got range={range!r}")
    try:
        bins_per_dim = list(bins)
    except TypeError:
        bins_per_dim = D * [bins]
    else:
        if len(bins_per_dim) != D:
            raise ValueError("should be a bin for each dimension.")
    idx_by_dim, edges_by_dim = [], []
    for i in builtins.range(D):
        col = sample[:, i]
        edges = histogram_bin_edges(col, bins_per_dim[i], None if range is None else range[i],
                                    weights)
        idx = mnc.searchsorted(edges, col, side="right")
        idx = mnp.where(ufuncs.equal(col, edges[-1]), ufuncs.subtract(idx, 1), idx)
        idx_by_dim.append(idx)
        edges_by_dim.append(edges)
    nbins = tuple(aval_of(e).shape[0] + 1 for e in edges_by_dim)
    xy = ravel_multi_index(tuple(idx_by_dim), nbins, mode="clip")
    hist = bincount(xy, weights, length=math.prod(nbins))
    hist = mnp.reshape(hist, nbins)[D * (slice(1, -1),)]
    if density:
        hist = mnp.astype(hist, aval_of(sample).dtype)
        hist = ufuncs.divide(hist, reductions.sum(hist))
        for norm in ix_(*(diff(e) for e in edges_by_dim)):
            hist = ufuncs.divide(hist, norm)
    return hist, edges_by_dim


def _static(value):
    """`value` as a hashable jit-static argument (nested lists become tuples),
    or _NOT_STATIC if it holds an array."""
    if value is None or isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, (list, tuple)):
        items = tuple(_static(v) for v in value)
        return _NOT_STATIC if _NOT_STATIC in items else items
    return _NOT_STATIC


_NOT_STATIC = object()
_histogramdd_jit = util._eager_jit(_histogramdd, ("bins", "range", "density"))


def histogramdd(sample, bins=10, range=None, weights=None, density=None):  # noqa: A002
    """The D-dimensional histogram of N points (`sample` of shape (N, D)) and
    each dimension's bin edges (one jit dispatch when the bins and range are
    Python numbers)."""
    b, r = _static(bins), _static(range)
    if b is _NOT_STATIC or r is _NOT_STATIC:
        return _histogramdd(sample, bins, range, weights, density)
    return _histogramdd_jit(sample, bins=b, range=r, weights=weights, density=density)


def histogram2d(x, y, bins=10, range=None, weights=None, density=None):  # noqa: A002
    """The 2-D histogram of points (x, y), and the x and y bin edges."""
    util._check_arg("histogram2d", x)
    util._check_arg("histogram2d", y)
    try:
        n = len(bins)
    except TypeError:
        n = 1
    if n != 1 and n != 2:
        edges = _arr(bins)
        bins = [edges, edges]
    sample = mnp.transpose(mnp.stack([_arr(x), _arr(y)]))
    hist, edges = histogramdd(sample, bins, range, weights, density)
    return hist, edges[0], edges[1]

"""Segment reductions (jax.ops.segment_sum and friends) on lax.scatter.

`data[i]` is combined into `out[segment_ids[i]]`. As in JAX, ids outside
[0, num_segments) (negative ones included) are dropped, empty segments hold
the reduction's identity (0, 1, the dtype's lowest or highest value), and
`num_segments` must be static under jit (it is the output's length).
"""
from __future__ import annotations

import operator

import numpy as np

from mlax._src.core import tracer as core
from mlax._src.base import dtypes
from mlax._src.base import errors
from mlax._src.lax import lax
from mlax._src.numpy import lax_numpy as mnp
from mlax._src.core.tracer import Tracer
from mlax._src.core.primitives import aval_of
from mlax._src.numpy import util


def _identity(kind, dtype):
    if kind == "sum":
        return 0
    if kind == "prod":
        return 1
    if dtypes.is_inexact(dtype):
        return -np.inf if kind == "max" else np.inf
    if dtype == dtypes.bool_:
        return kind != "max"
    info = dtypes.iinfo(dtype)
    return info.min if kind == "max" else info.max


def _segment(kind, scatter, data, segment_ids, num_segments, indices_are_sorted,
             unique_indices, bucket_size, mode):
    name = f"segment_{kind}"
    data = data if util._is_array(data) else mnp.asarray(data)
    ids = segment_ids if util._is_array(segment_ids) else mnp.asarray(segment_ids)
    d_aval, i_aval = aval_of(data), aval_of(ids)
    if not dtypes.is_int(i_aval.dtype):
        raise TypeError(f"ops.{name}: segment_ids must be integers, got {i_aval.dtype} "
                        f"(at {core.user_location_str()})")
    if i_aval.ndim != 1 or d_aval.ndim < 1 or d_aval.shape[0] != i_aval.shape[0]:
        raise ValueError(f"ops.{name}: segment_ids must be 1-d with one id per row of data; "
                         f"got data {d_aval.str_short()} and segment_ids {i_aval.str_short()} "
                         f"(at {core.user_location_str()})")
    if mode is not None and str(getattr(mode, "name", mode)).upper() not in (
            "FILL_OR_DROP", "DROP", "PROMISE_IN_BOUNDS"):
        raise NotImplementedError(f"ops.{name}: mode={mode!r} is not supported (out-of-range "
                                  "ids are dropped)")
    if num_segments is None:
        values = core.concretize(ids)
        if isinstance(values, Tracer):
            raise errors.ConcretizationTypeError(
                f"ops.{name}: num_segments must be given under jit (it is the length of the "
                f"result); segment_ids is traced (at {core.user_location_str()})")
        values = np.asarray(values)
        num_segments = int(values.max()) + 1 if values.size else 0
    else:
        num_segments = core.concretize(num_segments)
        if isinstance(num_segments, Tracer):
            raise errors.concretization(num_segments,
                                        f"the num_segments argument of ops.{name}")
        num_segments = operator.index(num_segments)
    if num_segments < 0:
        raise ValueError(f"ops.{name}: num_segments must be non-negative, got {num_segments}")
    out_shape = (num_segments,) + d_aval.shape[1:]
    init = mnp.full(out_shape, _identity(kind, d_aval.dtype), d_aval.dtype)
    dnums = lax.ScatterDimensionNumbers(
        update_window_dims=tuple(range(1, d_aval.ndim)), inserted_window_dims=(0,),
        scatter_dims_to_operand_dims=(0,))
    return scatter(init, mnp.expand_dims(ids, -1), data, dnums,
                   indices_are_sorted=indices_are_sorted, unique_indices=unique_indices)


def segment_sum(data, segment_ids, num_segments=None, indices_are_sorted=False,
                unique_indices=False, bucket_size=None, mode=None):
    """Sums of the rows of `data` per segment id."""
    return _segment("sum", lax.scatter_add, data, segment_ids, num_segments,
                    indices_are_sorted, unique_indices, bucket_size, mode)


def segment_prod(data, segment_ids, num_segments=None, indices_are_sorted=False,
                 unique_indices=False, bucket_size=None, mode=None):
    """Products of the rows of `data` per segment id (1 for empty segments)."""
    return _segment("prod", lax.scatter_mul, data, segment_ids, num_segments,
                    indices_are_sorted, unique_indices, bucket_size, mode)


def segment_max(data, segment_ids, num_segments=None, indices_are_sorted=False,
                unique_indices=False, bucket_size=None, mode=None):
    """Maxima of the rows of `data` per segment id (-inf / the lowest value
    for empty segments)."""
    return _segment("max", lax.scatter_max, data, segment_ids, num_segments,
                    indices_are_sorted, unique_indices, bucket_size, mode)


def segment_min(data, segment_ids, num_segments=None, indices_are_sorted=False,
                unique_indices=False, bucket_size=None, mode=None):
    """Minima of the rows of `data` per segment id (inf / the highest value
    for empty segments)."""
    return _segment("min", lax.scatter_min, data, segment_ids, num_segments,
                    indices_are_sorted, unique_indices, bucket_size, mode)

"""jax.scipy.stats' functions of a sample: mode, rankdata and sem."""
from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from mlax._src.base import dtypes
from mlax._src.core import tracer as core
from mlax._src.lax import lax
from mlax._src.lax.control_flow import cond
from mlax._src.numpy.manipulation import argmax, atleast_1d, nonzero
from mlax._src.numpy.statistics import nanstd  # noqa: F401
from mlax._src.numpy.setops import unique  # noqa: F401
from mlax._src.scipy import common as jnp
from mlax._src.scipy.common import dispatched, promote_args_inexact
from mlax._src.transforms.vmap import vmap


class ModeResult(NamedTuple):
    mode: object
    count: object


def _check_nan_policy(name, nan_policy, omit_ok=False):
    if nan_policy not in ("propagate", "omit", "raise"):
        raise ValueError(f"Illegal nan_policy value {nan_policy!r}; expected one of "
                         "{'propagate', 'omit', 'raise'}")
    if nan_policy == "omit" and not omit_ok:
        raise NotImplementedError(f"Logic for `nan_policy` of {nan_policy} is not implemented")
    if nan_policy == "raise":
        raise NotImplementedError(
            f"In order to best JIT compile `{name}`, we cannot know whether `x` contains nans. "
            "Please check if nans exist in `x` outside of the "
            f"`{name}` function.")


def _axis(axis, ndim):
    if not -ndim <= axis < ndim:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {ndim} "
                         f"(at {core.user_location_str()})")
    return axis % ndim


@dispatched(static_argnames=("axis", "nan_policy", "keepdims"))
def mode(a, axis=0, nan_policy="propagate", keepdims=False):
    """The most common value along `axis` (the smallest on ties) and its
    count (jax.scipy.stats.mode)."""
    x = atleast_1d(jnp.asarray(a))
    _check_nan_policy("mode", nan_policy)
    if axis is not None:
        axis = _axis(axis, x.ndim)
    shape = x.shape
    if keepdims:
        out_shape = (tuple(1 for _ in shape) if axis is None
                     else tuple(1 if i == axis else s for i, s in enumerate(shape)))
    else:
        out_shape = () if axis is None else tuple(s for i, s in enumerate(shape) if i != axis)
    if axis is None:
        axis, x = 0, jnp.reshape(x, (-1,))

    def one_column(col):
        if col.size == 0:
            default = dtypes.canonicalize(np.float64)
            return jnp.asarray(np.nan, default), jnp.asarray(0, default)
        values, counts = unique(col, return_counts=True, size=col.size)
        return values[argmax(counts)], jnp.max(counts)

    x = jnp.moveaxis(x, axis, 0)
    x = jnp.reshape(x, (x.shape[0], math.prod(x.shape[1:])))
    values, counts = vmap(one_column, in_axes=1)(x)
    return ModeResult(jnp.reshape(values, out_shape), jnp.reshape(counts, out_shape))


def _invert_permutation(i):
    return jnp.zeros_like(i).at[i].set(jnp.arange(i.size, dtype=i.dtype))


@dispatched(static_argnames=("method", "axis", "nan_policy"))
def rankdata(a, method="average", *, axis=None, nan_policy="propagate"):
    """Ranks from 1, ties by `method` ('average', 'min', 'max', 'dense',
    'ordinal'); all NaN if any element is NaN (jax.scipy.stats.rankdata)."""
    _check_nan_policy("rankdata", nan_policy)
    if method not in ("average", "min", "max", "dense", "ordinal"):
        raise ValueError(f"unknown method '{method}'")
    a = jnp.asarray(a)
    if axis is not None:
        axis = _axis(axis, a.ndim)
        moved = jnp.moveaxis(a, axis, -1)
        flat = jnp.reshape(moved, (-1, moved.shape[-1]))
        ranks = vmap(lambda row: rankdata(row, method))(flat)
        return jnp.moveaxis(jnp.reshape(ranks, moved.shape), -1, axis)
    a = jnp.reshape(a, (-1,))
    out_dtype = dtypes.canonicalize(np.float64)

    def ranks(a):
        arr, sorter = lax.sort_key_val(a, jnp.arange(a.size))
        inv = _invert_permutation(sorter)
        if method == "ordinal":
            return (inv + 1).astype(out_dtype)
        new_value = jnp.concatenate([jnp.asarray([True]), arr[1:] != arr[:-1]])
        dense = jnp.cumsum(new_value)[inv]
        if method == "dense":
            return dense.astype(out_dtype)
        count = nonzero(new_value, size=arr.size + 1, fill_value=new_value.size)[0]
        count = count.astype(out_dtype)
        if method == "max":
            return count[dense]
        if method == "min":
            return count[dense - 1] + 1
        return 0.5 * (count[dense] + count[dense - 1] + 1)

    return cond(jnp.any(jnp.isnan(a)), lambda a: jnp.full_like(a, np.nan, out_dtype), ranks, a)


@dispatched(static_argnames=("axis", "ddof", "nan_policy", "keepdims"))
def sem(a, axis=0, ddof=1, nan_policy="propagate", *, keepdims=False):
    """The standard error of the mean, std(ddof) / sqrt(n)
    (jax.scipy.stats.sem)."""
    b, = promote_args_inexact("sem", a)
    if nan_policy == "propagate":
        size = b.size if axis is None else b.shape[axis]
        return b.std(axis, ddof=ddof, keepdims=keepdims) / jnp.sqrt(size).astype(b.dtype)
    if nan_policy == "omit":
        count = jnp.sum(~jnp.isnan(b), axis, keepdims=keepdims)
        return nanstd(b, axis, ddof=ddof, keepdims=keepdims) / jnp.sqrt(count).astype(b.dtype)
    raise ValueError(f"{nan_policy} is not supported")

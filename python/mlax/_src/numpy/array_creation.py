"""mlax.numpy's ranges and grids of values: arange, linspace, logspace,
geomspace, eye, identity (the filled arrays, zeros/ones/full, are in
lax_numpy: every module builds on them)."""
from __future__ import annotations

import builtins
import math
import operator

import numpy as np

from mlax._src.base import dtypes
from mlax._src.lax import lax
from mlax._src.core.tracer import Tracer
from mlax._src.numpy.util import _Literal, _check_out_sharding, _eager_jit, _on_device
from mlax._src.core.primitives import aval_of
from mlax._src.numpy.lax_numpy import (
    _known, asarray, astype, broadcast_to, concatenate, core_errors, expand_dims, full,
    _SHARDING_DOC, reshape, where)
from mlax._src.numpy.ufuncs import add, divide, equal, multiply, subtract


def arange(start, stop=None, step=None, dtype=None, *, device=None, out_sharding=None):
    """Evenly spaced values in [start, stop) (jax.numpy.arange)."""
    _check_out_sharding("arange", out_sharding, device)
    return _on_device("arange", _arange(start, stop, step, dtype), device)


arange.__doc__ += _SHARDING_DOC


def _arange(start, stop, step, dtype):
    start, stop, step = _known(start), _known(stop), _known(step)
    for v in (start, stop, step):
        if isinstance(v, Tracer):
            raise core_errors().concretization(v, "mnp.arange's start/stop/step")
    if stop is None:
        start, stop = 0, start
    if step is None:
        step = 1
    if dtype is None:
        dt = dtypes.result_type(*(dtypes.scalar_type_of(v) for v in (start, stop, step)))[0]
    else:
        dt = dtypes.canonicalize(dtype)
    n = builtins.max(int(math.ceil((stop - start) / step)), 0)
    if dtypes.is_int(dt):
        # As JAX: start and step converted to the integer dtype first
        # (truncated: arange(0, 2, 0.5, dtype=int) is [0, 0, 0, 0]), the
        # length from their real values.
        start_i, step_i = int(start), int(step)
        out = lax.iota(dt, n)
        if step_i != 1:
            out = multiply(out, _Literal(step_i, dt, False))
        if start_i != 0:
            out = add(out, _Literal(start_i, dt, False))
        return out
    out = lax.iota(dt if dtypes.is_inexact(dt) else dtypes.default_float(), n)
    # (As JAX: no * 1 or + 0, which float8_e8m0fnu cannot hold: 0 is NaN there.)
    if step != 1:
        out = multiply(out, step)
    if start != 0:
        out = add(out, start)
    return astype(out, dt)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *,
             device=None):
    """`num` evenly spaced values from `start` to `stop` (arrays broadcast
    together; the samples go along `axis`), computed as JAX's:
    start * (1 - t) + stop * t for t = i / div, so both ends are exact.
    Eagerly one compiled program, as jnp.linspace (so XLA rounds as JAX's)."""
    num = _known(num)
    if isinstance(num, Tracer):
        raise core_errors().concretization(num, "mnp.linspace's num")
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"mnp.linspace: number of samples, {num}, must be non-negative")
    dtype = None if dtype is None else dtypes.canonicalize(dtype)
    out = _linspace(asarray(start), asarray(stop), num=num, endpoint=bool(endpoint),
                    retstep=bool(retstep), dtype=dtype, axis=operator.index(axis))
    if device is None:
        return out
    # As JAX's: the samples go to `device` (the step stays where it is).
    if retstep:
        return _on_device("linspace", out[0], device), out[1]
    return _on_device("linspace", out, device)


def _linspace(start, stop, *, num, endpoint, retstep, dtype, axis):
    if dtype is None:
        dt = dtypes.to_inexact(dtypes.result_type(
            (aval_of(start).dtype, aval_of(start).weak_type),
            (aval_of(stop).dtype, aval_of(stop).weak_type))[0])
    else:
        dt = dtypes.canonicalize(dtype)
    ct = dtypes.to_inexact(dt)
    start, stop = astype(start, ct), astype(stop, ct)
    bounds = list(np.broadcast_shapes(aval_of(start).shape, aval_of(stop).shape))
    b_start, b_stop = broadcast_to(start, tuple(bounds)), broadcast_to(stop, tuple(bounds))
    if not -len(bounds) - 1 <= axis <= len(bounds):
        raise np.exceptions.AxisError(f"mnp.linspace: axis {axis} is out of bounds for "
                                      f"an array of dimension {len(bounds) + 1}")
    axis = axis + len(bounds) + 1 if axis < 0 else axis
    shape = bounds[:axis] + [1] + bounds[axis:]
    div = (num - 1) if endpoint else num
    if num > 1:
        delta = divide(subtract(stop, start), _Literal(div, ct, False))
        real = dtypes.finfo(ct).dtype
        iota_shape = [1] * len(shape)
        iota_shape[axis] = div
        t = divide(reshape(lax.iota(real, div), iota_shape), _Literal(div, real, False))
        t = astype(t, ct)
        out = add(multiply(reshape(b_start, shape), subtract(_Literal(1, ct, False), t)),
                  multiply(reshape(b_stop, shape), t))
        if endpoint:
            out = concatenate([out, expand_dims(b_stop, axis)], axis)
    elif num == 1:
        delta = full((), np.nan, ct) if endpoint else astype(subtract(stop, start), ct)
        out = reshape(b_start, shape)
    else:  # num == 0: an empty array of the bounds' shape (as NumPy)
        delta = full((), np.nan, ct)
        out = full(tuple(bounds[:axis] + [0] + bounds[axis:]), 0, dt)
    if dtypes.is_int(dt) and not dtypes.is_int(aval_of(out).dtype):
        out = lax.floor(out)
    out = astype(out, dt)
    return (out, delta) if retstep else out


_linspace = _eager_jit(_linspace, ("num", "endpoint", "retstep", "dtype", "axis"))


def eye(N, M=None, k=0, dtype=None, *, device=None):
    """The N x M matrix with ones on diagonal `k` (jax.numpy.eye); `device`
    places it, as in mnp.array."""
    M = N if M is None else M
    dt = dtypes.canonicalize(dtype) if dtype is not None else dtypes.default_float()
    rows = lax.broadcasted_iota(dtypes.int32, (N, M), 0)
    cols = lax.broadcasted_iota(dtypes.int32, (N, M), 1)
    return _on_device("eye", astype(equal(add(rows, k), cols), dt), device)


def identity(n, dtype=None):
    return eye(n, dtype=dtype)

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
from mlax._src.numpy.util import _Literal
from mlax._src.numpy.lax_numpy import (
    _known, asarray, astype, broadcast_to, core_errors, full, where)
from mlax._src.numpy.ufuncs import add, divide, equal, multiply, subtract


def arange(start, stop=None, step=None, dtype=None):
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
    if dtypes.is_int(dt) and builtins.all(isinstance(v, (int, np.integer)) for v in (start, step)):
        out = lax.iota(dt, n)
        if step != 1:
            out = multiply(out, _Literal(step, dt, False))
        if start != 0:
            out = add(out, _Literal(start, dt, False))
        return out
    idx = lax.iota(dt if dtypes.is_inexact(dt) else dtypes.default_float(), n)
    out = add(multiply(idx, step), start)
    return astype(out, dt)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"mnp.linspace: number of samples, {num}, must be non-negative")
    dt = dtypes.canonicalize(dtype) if dtype is not None else dtypes.default_float()
    ft = dt if dtypes.is_inexact(dt) else dtypes.default_float()
    div = (num - 1) if endpoint else num
    start_a = astype(asarray(start), ft)
    stop_a = astype(asarray(stop), ft)
    step = divide(subtract(stop_a, start_a), div) if div > 0 else full((), np.nan, ft)
    idx = lax.iota(ft, num)
    if div > 0:
        out = add(start_a, multiply(idx, step))
    else:  # num == 1 with endpoint (or num == 0): just `start`
        out = broadcast_to(start_a, (num,))
    if endpoint and num > 1:
        out = where(equal(lax.iota(dtypes.int32, num), num - 1), stop_a, out)
    out = astype(out, dt)
    return (out, step) if retstep else out


def eye(N, M=None, k=0, dtype=None):
    M = N if M is None else M
    dt = dtypes.canonicalize(dtype) if dtype is not None else dtypes.default_float()
    rows = lax.broadcasted_iota(dtypes.int32, (N, M), 0)
    cols = lax.broadcasted_iota(dtypes.int32, (N, M), 1)
    return astype(equal(add(rows, k), cols), dt)


def identity(n, dtype=None):
    return eye(n, dtype=dtype)

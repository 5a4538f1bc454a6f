"""mlax.numpy's function-application helpers: vectorize, apply_along_axis,
apply_over_axes, fromfunction, piecewise.
"""
from __future__ import annotations

import functools

from mlax._src.core import tracer as core
from mlax._src.base import dtypes
from mlax._src.lax import lax
from mlax._src.numpy import lax_numpy as mnp
from mlax._src.core.primitives import aval_of
from mlax._src.numpy.index_tricks import indices
from mlax._src.numpy.lax_numpy import _arr
from mlax._src.numpy.library import _norm_axis, shape
from mlax._src.numpy import util


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """func1d on every 1-d slice of `arr` along `axis` (by vmap over the
    other axes, as jax.numpy.apply_along_axis)."""
    from mlax._src.transforms.vmap import vmap

    arr = _arr(arr)
    nd = aval_of(arr).ndim
    axis = _norm_axis("apply_along_axis", axis, nd)

    def f(x):
        return func1d(x, *args, **kwargs)

    for i in range(1, nd - axis):
        f = vmap(f, in_axes=i, out_axes=-1)
    for i in range(axis):
        f = vmap(f, in_axes=0, out_axes=0)
    return f(arr)


def apply_over_axes(func, a, axes):
    a = _arr(a)
    for axis in axes:
        b = func(a, axis)
        a = b if aval_of(b).ndim == aval_of(a).ndim else mnp.expand_dims(b, axis)
    return a


def fromfunction(function, shape, *, dtype=float, **kwargs):
    dt = dtypes.canonicalize(dtype)
    shape = tuple(int(s) for s in shape)
    grids = indices(shape, dtype=dt) if shape else ()
    return function(*(grids[i] for i in range(len(shape))), **kwargs)


def piecewise(x, condlist, funclist, *args, **kw):
    """Evaluates every function and selects per element (as JAX does under
    jit), the last true condition winning (as NumPy); one extra function is
    the default."""
    x = _arr(x)
    if util._is_array(condlist) and aval_of(condlist).ndim == aval_of(x).ndim:
        condlist = [condlist]
    condlist = [_arr(c) for c in condlist]
    n = len(condlist)
    if len(funclist) not in (n, n + 1):
        raise ValueError(f"mnp.piecewise: with {n} condition(s), either {n} or {n + 1} "
                         f"functions are needed")
    default = funclist[n] if len(funclist) == n + 1 else 0

    def value(f):
        if callable(f):
            return mnp.broadcast_to(mnp.asarray(f(x, *args, **kw), dtype=aval_of(x).dtype)
                                    if not util._is_array(f(x, *args, **kw))
                                    else f(x, *args, **kw), aval_of(x).shape)
        return mnp.full(aval_of(x).shape, f, aval_of(x).dtype)

    out = value(default)
    for c, f in zip(condlist, funclist[:n]):  # later conditions overwrite earlier ones
        out = mnp.where(c, lax.convert_element_type(value(f), aval_of(x).dtype), out)
    return out


class vectorize:  # noqa: N801
    """numpy.vectorize through vmap: `pyfunc` sees scalars (or the core
    dimensions of `signature`, e.g. '(n),(n)->()'), every other axis is
    mapped."""

    def __init__(self, pyfunc, *, excluded=frozenset(), signature=None):
        self.pyfunc = pyfunc
        self.excluded = set(excluded)
        self.signature = signature
        functools.update_wrapper(self, pyfunc)

    def _core_dims(self):
        if self.signature is None:
            return None, None
        import re

        m = re.fullmatch(r"\s*(.*?)\s*->\s*(.*?)\s*", self.signature)
        if m is None:
            raise ValueError(f"mnp.vectorize: not a valid gufunc signature: "
                             f"{self.signature!r}")

        def parse(s):
            return [tuple(d.strip() for d in g.split(",") if d.strip())
                    for g in re.findall(r"\(([^)]*)\)", s)]

        return parse(m.group(1)), parse(m.group(2))

    def __call__(self, *args, **kwargs):
        from mlax._src.transforms.vmap import vmap

        # Keyword arguments named in `excluded` pass through unmapped, as in
        # JAX; any other is refused (JAX drops those silently).
        mapped_kw = sorted(k for k in kwargs if k not in self.excluded)
        if mapped_kw:
            raise NotImplementedError(f"mnp.vectorize: keyword arguments are not vectorized; "
                                      f"name {mapped_kw} in excluded to pass them unmapped")
        excluded = {i for i in self.excluded if isinstance(i, int)}
        dyn_idx = [i for i in range(len(args)) if i not in excluded]
        ins, _ = self._core_dims()
        if ins is not None and len(ins) != len(dyn_idx):
            raise TypeError(f"mnp.vectorize: wrong number of positional arguments: expected "
                            f"{len(ins)}, got {len(dyn_idx)}")
        arrays = [_arr(args[i]) for i in dyn_idx]
        core = [len(c) for c in ins] if ins is not None else [0] * len(arrays)
        util.vectorize_rank_promotion([aval_of(a).shape for a in arrays], core, self.signature)
        batch_shapes = [aval_of(a).shape[:aval_of(a).ndim - c] for a, c in zip(arrays, core)]
        bshape = util.broadcast_shapes(*batch_shapes) if batch_shapes else ()
        arrays = [mnp.broadcast_to(a, bshape + aval_of(a).shape[aval_of(a).ndim - c:])
                  for a, c in zip(arrays, core)]

        def call(*dyn):
            full = list(args)
            for i, v in zip(dyn_idx, dyn):
                full[i] = v
            return self.pyfunc(*full, **kwargs)

        f = call
        for _ in range(len(bshape)):
            f = vmap(f)
        return f(*arrays)

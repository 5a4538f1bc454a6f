"""mlax.numpy's function-application helpers: vectorize, apply_along_axis,
apply_over_axes, fromfunction, piecewise.
"""
from __future__ import annotations

import builtins
import functools

import numpy as np

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


_DIM_NAME = r"\w+"
_CORE_DIMS = r"(?:{0}(?:,{0})*)?".format(_DIM_NAME)
_ARGUMENT = r"\({}\)".format(_CORE_DIMS)
_ARGUMENT_LIST = r"{0}(?:,{0})*".format(_ARGUMENT)
_SIGNATURE = r"^{0}->{0}$".format(_ARGUMENT_LIST)


def _parse_signature(signature):
    """A gufunc signature '(m,n),(n)->(m)' as the input and output core
    dimension names (JAX's grammar: no spaces)."""
    import re

    if not re.match(_SIGNATURE, signature):
        raise ValueError(f"not a valid gufunc signature: {signature}")
    return ([tuple(re.findall(_DIM_NAME, a)) for a in re.findall(_ARGUMENT, part)]
            for part in signature.split("->"))


def _update_dim_sizes(sizes, shape, core_dims, context, *, is_input):
    n = len(core_dims)
    if is_input and len(shape) < n:
        raise ValueError(f"input with shape {shape!r} does not have enough dimensions for all "
                         f"core dimensions {core_dims!r} {context}")
    if not is_input and len(shape) != n:
        raise ValueError(f"output shape {shape!r} does not match core dimensions "
                         f"{core_dims!r} {context}")
    for dim, size in zip(core_dims, shape[len(shape) - n:]):
        if sizes.setdefault(dim, size) != size:
            raise ValueError(f"inconsistent size for core dimension {dim!r}: {size} vs "
                             f"{sizes[dim]} {context}")


class vectorize:  # noqa: N801
    """numpy.vectorize through vmap, as jax.numpy.vectorize: `pyfunc` sees
    scalars (or the core dimensions of `signature`, e.g. '(n),(n)->()'),
    every other axis is mapped; an axis of size 1 in some inputs is not
    mapped in those (vmap's in_axes None) rather than broadcast.

    Arguments named in `excluded` (positions or keywords) and positional
    `None`s pass through unmapped. Other keyword arguments are mapped as
    NumPy's vectorize maps them, as extra inputs after the positional ones
    (so a `signature` names their core dimensions too): JAX 0.10 drops them
    silently, calling `pyfunc` with its defaults instead."""

    def __init__(self, pyfunc, *, excluded=frozenset(), signature=None):
        if builtins.any(not isinstance(e, (str, int)) for e in excluded):
            raise TypeError("jax.numpy.vectorize can only exclude integer or string "
                            f"arguments, but excluded={excluded!r}")
        if builtins.any(isinstance(e, int) and e < 0 for e in excluded):
            raise ValueError(f"excluded={excluded!r} contains negative numbers")
        self.pyfunc = pyfunc
        self.excluded = excluded
        self.signature = signature
        functools.update_wrapper(self, pyfunc)

    def __call__(self, *args, **kwargs):
        from mlax._src.transforms.vmap import vmap

        excluded, signature = self.excluded, self.signature
        context = f"on vectorized function with excluded={excluded!r} and " \
                  f"signature={signature!r}"
        ints = {e for e in excluded if isinstance(e, int)}
        # Unmapped: excluded positions and keywords, and positional Nones
        # (core dimensions () only); mapped: the other positional arguments,
        # then the other keyword arguments.
        names = [k for k in kwargs if k not in excluded]
        dyn = [i for i in range(len(args)) if i not in ints]
        if signature is not None:
            in_core, out_core = _parse_signature(signature)
        else:
            in_core, out_core = [()] * (len(dyn) + len(names)), None
        n_dyn = len(dyn) + len(names)
        if len(in_core) != n_dyn:
            raise TypeError(f"wrong number of positional arguments: expected "
                            f"{len(in_core)}, got {n_dyn} {context}")
        values = [args[i] for i in dyn] + [kwargs[k] for k in names]
        nones = [j for j, v in enumerate(values) if v is None]
        if builtins.any(in_core[j] != () for j in nones):
            raise ValueError(f"Cannot pass None at locations {set(nones)} with "
                             f"signature={signature!r}")
        mapped = [j for j in range(n_dyn) if j not in nones]
        arrays = [_arr(values[j]) for j in mapped]
        in_core = [in_core[j] for j in mapped]
        shapes = [aval_of(a).shape for a in arrays]
        sizes = {}
        for shp, cd in zip(shapes, in_core):
            _update_dim_sizes(sizes, shp, cd, context, is_input=True)
        batch = [shp[:len(shp) - len(cd)] for shp, cd in zip(shapes, in_core)]
        bshape = util.broadcast_shapes(*batch) if batch else ()
        util.vectorize_rank_promotion(shapes, [len(c) for c in in_core], signature)

        def call(*mapped_values):
            full = list(values)
            for j, v in zip(mapped, mapped_values):
                full[j] = v
            pos = list(args)
            for i, v in zip(dyn, full):
                pos[i] = v
            kw = dict(kwargs)
            kw.update(zip(names, full[len(dyn):]))
            out = self.pyfunc(*pos, **kw)
            if out_core is not None:
                outs = out if isinstance(out, tuple) else [out]
                if len(out_core) > 1 and not isinstance(out, tuple):
                    raise TypeError("output must be a tuple when multiple outputs are "
                                    f"expected, got: {out!r}\n{context}")
                if len(outs) != len(out_core):
                    raise TypeError(f"wrong number of output arguments: expected "
                                    f"{len(out_core)}, got {len(outs)} {context}")
                out_sizes = dict(sizes)
                for o, cd in zip(outs, out_core):
                    _update_dim_sizes(out_sizes, tuple(np.shape(o)), cd, context,
                                      is_input=False)
            return out

        # Each batch axis is mapped over the inputs where it is not 1 (it is
        # added to the result when no input maps it).
        squeezed, rev_filled = [], []
        for a, b in zip(arrays, batch):
            rev_filled.append(((1,) * (len(bshape) - len(b)) + b)[::-1])
            ones = tuple(i for i, n in enumerate(b) if n == 1)
            squeezed.append(mnp.squeeze(a, axis=ones) if ones else a)
        f, expand = call, []
        for negdim, axis_sizes in enumerate(zip(*rev_filled)):
            in_axes = tuple(None if n == 1 else 0 for n in axis_sizes)
            if builtins.all(ax is None for ax in in_axes):
                expand.append(len(bshape) - 1 - negdim)
            else:
                f = vmap(f, in_axes)
        result = f(*squeezed)
        if not expand:
            return result
        if isinstance(result, tuple):
            return tuple(mnp.expand_dims(r, axis=expand) for r in result)
        return mnp.expand_dims(result, axis=expand)

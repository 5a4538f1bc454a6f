"""mnp.ufunc: NumPy's universal-function objects, as jax.numpy has them.

A ufunc wraps an elementwise function (called unchanged) and adds the
methods reduce, accumulate, outer, at and reduceat. The generic methods are
written with lax loops over the function itself, as JAX's; ufuncs with a
faster equivalent (add.reduce is sum, ...) pass it in."""
from __future__ import annotations

import inspect
import math
import operator

import numpy as np

from mlax._src.base import dtypes
from mlax._src.core.primitives import aval_of
from mlax._src.numpy import util

_AT_INPLACE = ("mnp.ufunc.at cannot update an array in place (mlax arrays are immutable): "
               "pass inplace=False to get the updated copy")


def _asarray(x):
    from mlax._src.numpy.lax_numpy import asarray
    return asarray(x)


def _canonical_axis(axis, ndim):
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise np.exceptions.AxisError(f"axis {axis} is out of bounds for array of dimension {ndim}")
    return axis % ndim


def _result_dtype(fn, *args):
    """The dtype fn gives on scalars of the arguments' dtypes."""
    from mlax._src.jit.jaxpr import eval_shape
    from mlax._src.numpy.lax_numpy import ones
    ones_ = [ones((), aval_of(a).dtype) for a in args]
    return eval_shape(fn, *ones_).dtype


class ufunc:
    """A universal function (jax.numpy.ufunc): `func` applied elementwise,
    with NumPy's ufunc methods."""

    def __init__(self, func, /, nin, nout, *, name=None, nargs=None, identity=None, call=None,
                 reduce=None, accumulate=None, at=None, reduceat=None):
        self.__doc__ = func.__doc__
        self.__name__ = name or func.__name__
        # What lax.reduce looks up when given the ufunc: mnp.add's
        # ufunc object reduces as the add monoid, as the plain function does.
        self.__wrapped__ = func
        # ... but the object is called as __call__, with `out` and `where`:
        # that is its signature (as jax.numpy's ufuncs, which have no
        # __wrapped__), not the wrapped function's.
        self.__signature__ = inspect.signature(self.__call__)
        self.__props = {
            "func": func, "nin": operator.index(nin), "nout": operator.index(nout),
            "nargs": operator.index(nargs or nin), "identity": identity, "call": call,
            "reduce": reduce, "accumulate": accumulate, "at": at, "reduceat": reduceat}

    _func = property(lambda self: self.__props["func"])
    nin = property(lambda self: self.__props["nin"])
    nout = property(lambda self: self.__props["nout"])
    nargs = property(lambda self: self.__props["nargs"])
    identity = property(lambda self: self.__props["identity"])

    def _key(self):
        return (self._func, self.__name__, self.identity, self.nin, self.nout, self.nargs)

    def __hash__(self):
        return hash(self._key())

    def __eq__(self, other):
        return isinstance(other, ufunc) and self._key() == other._key()

    def __repr__(self):
        return f"<mnp.ufunc '{self.__name__}'>"

    def __call__(self, *args, out=None, where=None):
        for a in args:
            util._check_arg(self.__name__, a)
        if out is not None:
            raise NotImplementedError(f"out argument of {self}")
        if where is not None:
            raise NotImplementedError(f"where argument of {self}")
        call = self.__props["call"]
        if call is None:
            from mlax._src.numpy.vectorize import vectorize
            call = vectorize(self._func)
        return call(*args)

    def _binary_single(self, method):
        if self.nin != 2:
            raise ValueError(f"{method} only supported for binary ufuncs")
        if self.nout != 1:
            raise ValueError(f"{method} only supported for functions returning a single value")

    # -- reduce ---------------------------------------------------------------

    def reduce(self, a, axis=0, dtype=None, out=None, keepdims=False, initial=None, where=None):
        """Reduce `a` along `axis` by repeated application of this ufunc."""
        util._check_arg(f"{self.__name__}.reduce", a)
        self._binary_single("reduce")
        if out is not None:
            raise NotImplementedError(f"out argument of {self.__name__}.reduce()")
        if initial is not None:
            util._check_arg(f"{self.__name__}.reduce", initial)
        if where is not None:
            util._check_arg(f"{self.__name__}.reduce", where)
            if self.identity is None and initial is None:
                raise ValueError(f"reduction operation {self.__name__!r} does not have an "
                                 "identity, so to use a where mask one has to specify "
                                 "'initial'.")
            if aval_of(where).dtype != dtypes.bool_:
                raise ValueError("where argument must have dtype=bool; got "
                                 f"dtype={aval_of(where).dtype}")
        return _jitted("reduce")(self, a, axis=axis, dtype=dtype, keepdims=keepdims,
                                 initial=initial, where=where)

    def _reduce(self, a, axis, dtype, keepdims, initial, where):
        fn = self.__props["reduce"] or self._reduce_via_loop
        return fn(a, axis=axis, dtype=dtype, keepdims=keepdims, initial=initial, where=where)

    def _reduce_via_loop(self, arr, axis=0, dtype=None, keepdims=False, initial=None,
                         where=None):
        from mlax._src.lax import lax
        from mlax._src.lax.control_flow import fori_loop
        from mlax._src.numpy import lax_numpy as mnp
        from mlax._src.numpy.statistics import moveaxis
        arr = _asarray(arr)
        if initial is None:
            initial = self.identity
        if dtype is None:
            dtype = _result_dtype(self._func, arr, arr)
        if where is not None:
            where = mnp.broadcast_to(where, arr.shape)
        if isinstance(axis, tuple):
            raise NotImplementedError("tuple of axes")
        if axis is None:
            final_shape = (1,) * arr.ndim if keepdims else ()
            arr = mnp.ravel(arr)
            where = None if where is None else mnp.ravel(where)
            axis = 0
        else:
            axis = _canonical_axis(axis, arr.ndim)
            final_shape = (arr.shape[:axis] + ((1,) if keepdims else ()) + arr.shape[axis + 1:])
        if axis != 0:
            arr = moveaxis(arr, axis, 0)
            where = None if where is None else moveaxis(where, axis, 0)
        if arr.shape[0] == 0:
            if initial is None:
                raise ValueError(f"zero-size array to reduction operation {self.__name__} "
                                 "which has no identity")
            return mnp.full(final_shape, initial, dtype)

        def body(i, val):
            # (kept in dtype: logical_and's bool result in an int8 loop, say)
            new = mnp.astype(self(val, mnp.astype(arr[i], dtype)), dtype)
            return new if where is None else mnp.where(where[i], new, val)

        if initial is None:
            start, init = 1, arr[0]
        else:
            start, init = 0, initial
        init = mnp.broadcast_to(mnp.astype(_asarray(init), dtype), arr.shape[1:])
        init = lax.convert_element_type(init, dtype, weak_type=False)
        result = fori_loop(start, arr.shape[0], body, init)
        return mnp.reshape(result, final_shape) if keepdims else result

    # -- accumulate -------------------------------------------------------------

    def accumulate(self, a, axis=0, dtype=None, out=None):
        """The running reduction of `a` along `axis`."""
        self._binary_single("accumulate")
        if out is not None:
            raise NotImplementedError(f"out argument of {self.__name__}.accumulate()")
        return _jitted("accumulate")(self, a, axis=axis, dtype=dtype)

    def _accumulate(self, a, axis, dtype):
        fn = self.__props["accumulate"] or self._accumulate_via_scan
        return fn(a, axis=axis, dtype=dtype)

    def _accumulate_via_scan(self, arr, axis=0, dtype=None):
        from mlax._src.lax.control_flow import scan
        from mlax._src.numpy import lax_numpy as mnp
        from mlax._src.numpy.statistics import moveaxis
        util._check_arg(f"{self.__name__}.accumulate", arr)
        arr = _asarray(arr)
        if dtype is None:
            dtype = _result_dtype(self._func, arr, arr)
        if axis is None or isinstance(axis, tuple):
            raise ValueError("accumulate does not allow multiple axes")
        axis = _canonical_axis(axis, arr.ndim)
        if arr.size == 0:
            return mnp.full(arr.shape, 0, dtype)
        arr = mnp.astype(moveaxis(arr, axis, 0), dtype)

        def step(carry, x):
            # As JAX's: each step converted back to dtype (a logical ufunc's bool
            # result in a float32 accumulation, say).
            y = mnp.astype(self(carry, x), dtype)
            return y, y

        _, rest = scan(step, arr[0], arr[1:])
        result = mnp.concatenate([arr[:1], mnp.astype(rest, dtype)], axis=0)
        return moveaxis(result, 0, axis)

    # -- at ---------------------------------------------------------------------

    def at(self, a, indices, b=None, /, *, inplace=True):
        """A copy of `a` with this ufunc applied at `indices` (with `b`); needs
        inplace=False."""
        if inplace:
            raise NotImplementedError(_AT_INPLACE)
        fn = self.__props["at"] or self._at_via_scan
        return fn(a, indices) if b is None else fn(a, indices, b)

    def _at_via_scan(self, a, indices, *args):
        from mlax._src.lax import lax
        from mlax._src.lax.control_flow import scan
        from mlax._src.numpy import lax_numpy as mnp
        util._check_arg(f"{self.__name__}.at", a)
        for arg in args:
            util._check_arg(f"{self.__name__}.at", arg)
        a = _asarray(a)
        dtype = _result_dtype(self._func, a, *(_asarray(x) for x in args))
        a = lax.convert_element_type(a, dtype, weak_type=False) if a.dtype != dtype else a
        args = tuple(mnp.astype(_asarray(x), dtype) for x in args)
        if not isinstance(indices, tuple):
            indices = (indices,)
        if not indices:
            return a
        indices = tuple(i if isinstance(i, slice) or i is None or i is Ellipsis
                        else _asarray(i) for i in indices)
        arrays = [i for i in indices if hasattr(i, "shape")]
        shape = util.broadcast_shapes(*(i.shape for i in arrays)) if arrays else ()
        if not shape:
            return a.at[indices].set(self(a.at[indices].get(), *args))
        n = math.prod(shape)
        if args:
            arg = args[0]
            arg = mnp.broadcast_to(arg, shape + arg.shape[len(shape):])
            args = (mnp.reshape(arg, (n,) + arg.shape[len(shape):]),)
        indices = [mnp.ravel(mnp.broadcast_to(i, shape)) if hasattr(i, "shape") else i
                   for i in indices]
        flat = [i for i in indices if hasattr(i, "shape")]

        def step(a, xs):
            ids, rest = xs
            it = iter(ids)
            idx = tuple(next(it) if hasattr(i, "shape") else i for i in indices)
            return a.at[idx].set(self(a.at[idx].get(), *rest)), None

        a, _ = scan(step, a, (tuple(flat), args))
        return a

    # -- reduceat ----------------------------------------------------------------

    def reduceat(self, a, indices, axis=0, dtype=None, out=None):
        """The reductions of `a` between consecutive `indices` along `axis`."""
        self._binary_single("reduceat")
        if out is not None:
            raise NotImplementedError(f"out argument of {self.__name__}.reduceat()")
        if isinstance(indices, (list, tuple)):
            indices = np.asarray(indices)
        return _jitted("reduceat")(self, a, indices, axis=axis, dtype=dtype)

    def _reduceat(self, a, indices, axis, dtype):
        fn = self.__props["reduceat"] or self._reduceat_via_loop
        return fn(a, indices, axis=axis, dtype=dtype)

    def _reduceat_via_loop(self, a, indices, axis=0, dtype=None):
        from mlax._src.lax import shape as lax
        from mlax._src.lax.control_flow import fori_loop
        from mlax._src.numpy import lax_numpy as mnp
        from mlax._src.numpy.manipulation import take
        from mlax._src.numpy.library import append
        util._check_arg(f"{self.__name__}.reduceat", a)
        if isinstance(indices, (list, tuple)):
            indices = np.asarray(indices)
        util._check_arg(f"{self.__name__}.reduceat", indices)
        a, indices = _asarray(a), _asarray(indices)
        if a.ndim == 0:
            raise ValueError(f"reduceat: a must have 1 or more dimension, got a.shape={a.shape}")
        if indices.ndim != 1:
            raise ValueError("reduceat: indices must be one-dimensional, got "
                             f"indices.shape={indices.shape}")
        if dtype is None:
            dtype = a.dtype
        if axis is None or isinstance(axis, (tuple, list)):
            raise ValueError("reduceat requires a single integer axis.")
        axis = _canonical_axis(axis, a.ndim)
        out = take(a, indices, axis=axis)
        others = [d for d in range(out.ndim) if d != axis]
        ind = lax.expand_dims(append(indices, a.shape[axis]), others)
        n = ind.shape[axis]
        start = lax.slice_in_dim(ind, 0, n - 1, axis=axis)
        end = lax.slice_in_dim(ind, 1, n, axis=axis)

        def body(i, out):
            inside = (i > start) & (i < end)
            return mnp.where(inside, self(out, take(a, lax.expand_dims(i, (0,)), axis=axis)),
                             out)

        return fori_loop(0, a.shape[axis], body, out)

    # -- outer -------------------------------------------------------------------

    def outer(self, A, B, /):
        """This ufunc on every pair of an element of A and one of B: shape
        A.shape + B.shape."""
        self._binary_single("outer")
        util._check_arg(f"{self.__name__}.outer", A)
        util._check_arg(f"{self.__name__}.outer", B)
        return _jitted("outer")(self, A, B)

    def _outer(self, A, B):
        from mlax._src.numpy import lax_numpy as mnp
        from mlax._src.transforms.vmap import vmap
        A, B = _asarray(A), _asarray(B)
        result = vmap(vmap(self, (None, 0)), (0, None))(mnp.ravel(A), mnp.ravel(B))
        return mnp.reshape(result, A.shape + B.shape)


# The methods' work, as functions of the ufunc (static, with the shape
# arguments) and the arrays.
def _reduce(self, a, axis, dtype, keepdims, initial, where):
    return self._reduce(a, axis, dtype, keepdims, initial, where)


def _accumulate(self, a, axis, dtype):
    return self._accumulate(a, axis, dtype)


def _reduceat(self, a, indices, axis, dtype):
    return self._reduceat(a, indices, axis, dtype)


def _outer(self, A, B):
    return self._outer(A, B)


_IMPLS = {"reduce": (_reduce, ("self", "axis", "dtype", "keepdims")),
          "accumulate": (_accumulate, ("self", "axis", "dtype")),
          "reduceat": (_reduceat, ("self", "axis", "dtype")),
          "outer": (_outer, ("self",))}
_JITTED = {}


def _jitted(method):
    """ufunc.<method>'s work as one jit dispatch when called on arrays (JAX
    jits its ufunc methods), traced in place inside a trace."""
    fn = _JITTED.get(method)
    if fn is None:
        from mlax._src.jit import api
        impl, static = _IMPLS[method]
        fn = _JITTED[method] = api.eager_jit(impl, static)
    return fn


def frompyfunc(func, /, nin, nout, *, identity=None):
    """An mnp.ufunc from a function of JAX-traceable scalars (vectorized with
    mnp.vectorize)."""
    return ufunc(func, nin, nout, identity=identity)

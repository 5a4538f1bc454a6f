"""Operators and methods shared by mlax.Array and traced values: both
dispatch to mlax.numpy, so eager and traced code behave the same."""
from __future__ import annotations

import numpy as np

from mlax._src.base import dtypes
from mlax._src.core.primitives import aval_of
from mlax._src.lax import lax
from mlax._src.numpy import array_api_metadata
from mlax._src.numpy import indexing
from mlax._src.numpy import manipulation as mnc
from mlax._src.numpy import lax_numpy as mnp
from mlax._src.core.array import Array
from mlax._src.core.tracer import Tracer
from mlax._src.numpy import reductions
from mlax._src.numpy import tensor_contractions
from mlax._src.numpy import ufuncs


def _swap(f):
    return lambda self, other: f(other, self)


def _defer(f):
    """Binary operators return NotImplemented for operands mlax doesn't know,
    so the other operand's reflected operator can run."""
    def op(self, other):
        if isinstance(other, (list, tuple, dict, set, str)) or getattr(
                other, "_mlax_defer_operators", False):  # e.g. sparse arrays
            return NotImplemented
        return f(self, other)

    return op


_OPERATORS = {
    "__add__": ufuncs.add, "__radd__": _swap(ufuncs.add),
    "__sub__": ufuncs.subtract, "__rsub__": _swap(ufuncs.subtract),
    "__mul__": ufuncs.multiply, "__rmul__": _swap(ufuncs.multiply),
    "__truediv__": ufuncs.divide, "__rtruediv__": _swap(ufuncs.divide),
    "__floordiv__": ufuncs.floor_divide, "__rfloordiv__": _swap(ufuncs.floor_divide),
    "__mod__": ufuncs.remainder, "__rmod__": _swap(ufuncs.remainder),
    "__pow__": ufuncs.power, "__rpow__": _swap(ufuncs.power),
    "__matmul__": tensor_contractions.matmul, "__rmatmul__": _swap(tensor_contractions.matmul),
    "__lt__": ufuncs.less, "__le__": ufuncs.less_equal, "__gt__": ufuncs.greater,
    "__ge__": ufuncs.greater_equal, "__eq__": ufuncs.equal, "__ne__": ufuncs.not_equal,
    "__and__": ufuncs.bitwise_and, "__rand__": _swap(ufuncs.bitwise_and),
    "__or__": ufuncs.bitwise_or, "__ror__": _swap(ufuncs.bitwise_or),
    "__xor__": ufuncs.bitwise_xor, "__rxor__": _swap(ufuncs.bitwise_xor),
    "__lshift__": ufuncs.left_shift, "__rlshift__": _swap(ufuncs.left_shift),
    "__rshift__": ufuncs.right_shift, "__rrshift__": _swap(ufuncs.right_shift),
    "__divmod__": ufuncs.divmod, "__rdivmod__": _swap(ufuncs.divmod),
}

_UNARY = {"__neg__": ufuncs.negative, "__pos__": ufuncs.positive, "__abs__": ufuncs.absolute,
          "__invert__": ufuncs.invert}


def _view(self, dtype=None, type=None):  # noqa: A002 (numpy's name)
    """The array's bits read as `dtype` (jax.Array.view): the same shape
    for the same bit width, else the last axis rescaled; bool as 8 bits."""
    if type is not None:
        raise NotImplementedError("`type` argument of array.view() is not supported.")
    if dtype is None:
        return self
    dtype = dtypes.canonicalize(dtype)
    aval = self.aval
    bits_in, bits_out = aval.dtype.itemsize * 8, dtype.itemsize * 8
    if aval.ndim == 0:
        if bits_in != bits_out:
            raise ValueError("view() of a 0d array is only supported if the itemsize is "
                             "unchanged.")
        return mnp.squeeze(_view(mnp.expand_dims(self, 0), dtype))
    if (aval.shape[-1] * bits_in) % bits_out:
        raise ValueError("When changing to a larger dtype, its size must be a divisor of the "
                         "total size in bytes of the last axis of the array.")
    if aval.dtype == dtype:
        return self
    if dtypes.is_bool(aval.dtype):
        return _view(mnp.astype(self, dtypes.uint8), dtype)
    if dtypes.is_complex(aval.dtype):  # (re, im) pairs along the last axis
        parts = mnp.stack([ufuncs.real(self), ufuncs.imag(self)], axis=-1)
        return _view(mnp.reshape(parts, (*aval.shape[:-1], aval.shape[-1] * 2)), dtype)
    if dtypes.is_bool(dtype):
        return mnp.astype(_view(self, dtypes.uint8), dtype)
    if dtypes.is_complex(dtype):
        out = mnp.astype(_view(self, dtypes.finfo(dtype).dtype), dtype)
        return ufuncs.add(out[..., 0::2], ufuncs.multiply(1j, out[..., 1::2]))
    if bits_in < bits_out:
        factor = bits_out // bits_in
        out = mnp.reshape(self, (*aval.shape[:-1], aval.shape[-1] // factor, factor))
        return lax.bitcast_convert_type(out, dtype)
    out = lax.bitcast_convert_type(self, dtype)
    shape = aval_of(out).shape
    return mnp.reshape(out, (*shape[:-2], shape[-2] * shape[-1])) if bits_in > bits_out else out


def _reduction_method(f):
    def method(self, axis=None, *args, **kwargs):
        return f(self, axis, *args, **kwargs)

    method.__name__ = f.__name__
    return method


def _reshape(self, *shape, order="C"):
    if len(shape) == 1 and not isinstance(shape[0], int):
        shape = shape[0]
    return mnp.reshape(self, shape, order=order)


def _transpose(self, *axes):
    if not axes:
        axes = None
    elif len(axes) == 1 and not isinstance(axes[0], int):
        axes = axes[0]
    return mnp.transpose(self, axes)


def _byteswap(self):
    """As jax.Array.byteswap: each element's bytes reversed (a complex
    number's parts each)."""
    from mlax._src.lax import elementwise, slicing

    if dtypes.is_complex(np.dtype(self.dtype)):
        return elementwise.complex(_byteswap(ufuncs.real(self)), _byteswap(ufuncs.imag(self)))
    if np.dtype(self.dtype).itemsize == 1:
        return _library().copy(self)
    as_bytes = elementwise.bitcast_convert_type(self, np.uint8)
    return elementwise.bitcast_convert_type(slicing.rev(as_bytes, (self.ndim,)), self.dtype)


def _to_device(self, device, *, stream=None):
    """As jax.Array.to_device: a copy on `device` (a Device or a Sharding)."""
    from mlax._src.jit.api import device_put

    if stream is not None:
        raise NotImplementedError("stream argument of array.to_device()")
    return device_put(self, device)


_METHODS = {
    "reshape": _reshape, "transpose": _transpose,
    "astype": lambda self, dtype: mnp.astype(self, dtype),
    "sum": _reduction_method(reductions.sum), "prod": _reduction_method(reductions.prod),
    "mean": _reduction_method(reductions.mean), "var": _reduction_method(reductions.var),
    "std": _reduction_method(reductions.std), "max": _reduction_method(reductions.max),
    "min": _reduction_method(reductions.min), "all": _reduction_method(reductions.all),
    "any": _reduction_method(reductions.any),
    "ravel": lambda self: mnp.ravel(self), "flatten": lambda self: mnp.ravel(self),
    "squeeze": lambda self, axis=None: mnp.squeeze(self, axis),
    "swapaxes": lambda self, a, b: mnp.swapaxes(self, a, b),
    "dot": lambda self, other: tensor_contractions.dot(self, other),
    "clip": lambda self, min=None, max=None: ufuncs.clip(self, min, max),
    "round": lambda self, decimals=0: ufuncs.round(self, decimals),
    # round(x), as JAX's: an int array without ndigits (as round(7.5) is an int)
    "__round__": lambda self, ndigits=None: (
        ufuncs.round(self, ndigits or 0) if ndigits is not None
        else mnp.astype(ufuncs.round(self, 0), int)),
    "__getitem__": lambda self, index: indexing.getitem(self, index),
    "view": _view,
    # as jax.Array (sort returns a sorted copy; no .trace(): a tracer's
    # `trace` is its Trace)
    "argmax": lambda self, axis=None, out=None, keepdims=None: mnc.argmax(
        self, axis, out, keepdims),
    "argmin": lambda self, axis=None, out=None, keepdims=None: mnc.argmin(
        self, axis, out, keepdims),
    "argsort": lambda self, axis=-1, **kw: mnc.argsort(self, axis, **kw),
    "sort": lambda self, axis=-1, **kw: mnc.sort(self, axis, **kw),
    "cumsum": lambda self, axis=None, dtype=None, out=None: reductions.cumsum(self, axis, dtype, out),
    "cumprod": lambda self, axis=None, dtype=None, out=None: reductions.cumprod(
        self, axis, dtype, out),
    "take": lambda self, indices, axis=None, **kw: mnc.take(self, indices, axis, **kw),
    "repeat": lambda self, repeats, axis=None, **kw: mnc.repeat(self, repeats, axis, **kw),
    "diagonal": lambda self, offset=0, axis1=0, axis2=1: mnc.diagonal(
        self, offset, axis1, axis2),
    "searchsorted": lambda self, v, side="left", sorter=None: mnc.searchsorted(
        self, v, side, sorter),
    "nonzero": lambda self, *, size=None, fill_value=None: mnc.nonzero(
        self, size=size, fill_value=fill_value),
    "ptp": _reduction_method(reductions.ptp),
    "copy": lambda self: _library().copy(self),
    "argpartition": lambda self, kth, axis=-1: _library().argpartition(self, kth, axis),
    "choose": lambda self, choices, out=None, mode="raise": _library().choose(
        self, choices, out, mode),
    "byteswap": _byteswap, "to_device": _to_device,
    "compress": lambda self, condition, axis=None, *, out=None, size=None, fill_value=0:
        _library().compress(condition, self, axis, size=size, fill_value=fill_value, out=out),
}


def _no_flat(self):
    raise NotImplementedError("mlax Arrays do not implement the arr.flat property: consider "
                              "arr.flatten() instead.")


def _contains(self, other):
    """`other in x`, as JAX's: x must be one-dimensional and `other` a
    scalar (NumPy's element-wise oddities left out); `any(x == other)` in
    one dispatch, not a Python loop over the elements."""
    if other is None or isinstance(other, str):
        raise TypeError(f"Array.__contains__: unsupported operand type {type(other)}.")
    if isinstance(other, (list, tuple)):
        raise TypeError(f"Array.__contains__ requires ndarray or scalar arguments, got "
                        f"{type(other).__name__} at position 0.")
    query = mnp.asarray(other)
    if self.ndim != 1:
        raise ValueError("Array.__contains__: search array must be one-dimensional,"
                         f" got arr.shape={self.shape}.")
    if aval_of(query).ndim != 0:
        raise ValueError("Array.__contains__: query value must be a scalar,"
                         f" got query.shape={aval_of(query).shape}")
    return reductions.any(ufuncs.equal(self, query))


def _library():
    from mlax._src.numpy import library  # (library imports this module's users)

    return library


def install():
    for cls in (Array, Tracer):
        for name, f in _OPERATORS.items():
            setattr(cls, name, _defer(f))
        for name, f in _UNARY.items():
            setattr(cls, name, f)
        for name, f in _METHODS.items():
            setattr(cls, name, f)
        cls.at = property(lambda self: indexing._IndexUpdateHelper(self))
        cls.T = property(lambda self: mnp.transpose(self))
        cls.itemsize = property(lambda self: self.aval.dtype.itemsize)
        cls.nbytes = property(lambda self: self.aval.size * self.aval.dtype.itemsize)
        cls.mT = property(lambda self: mnp.swapaxes(self, -1, -2))
        cls.flat = property(_no_flat)
        cls.real = property(ufuncs.real)
        cls.imag = property(ufuncs.imag)
        cls.conj = cls.conjugate = ufuncs.conjugate
        cls.__array_namespace__ = array_api_metadata.__array_namespace__
        cls.__contains__ = _contains

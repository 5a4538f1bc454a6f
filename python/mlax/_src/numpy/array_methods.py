"""Operators and methods shared by mlax.Array and traced values: both
dispatch to mlax.numpy, so eager and traced code behave the same."""
from __future__ import annotations

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
        if isinstance(other, (list, tuple, dict, set, str)):
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
}

_UNARY = {"__neg__": ufuncs.negative, "__pos__": ufuncs.positive, "__abs__": ufuncs.absolute,
          "__invert__": ufuncs.invert}


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
    "__getitem__": lambda self, index: indexing.getitem(self, index),
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
}


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
        cls.mT = property(lambda self: mnp.swapaxes(self, -1, -2))
        cls.real = property(ufuncs.real)
        cls.imag = property(ufuncs.imag)
        cls.conj = cls.conjugate = ufuncs.conjugate

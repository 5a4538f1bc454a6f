"""Operators and methods shared by mlax.Array and traced values: both
dispatch to mlax.numpy, so eager and traced code behave the same."""
from __future__ import annotations

from mlax._src.numpy import indexing
from mlax._src.numpy import manipulation as mnc
from mlax._src.numpy import lax_numpy as mnp
from mlax._src.core.array import Array
from mlax._src.core.tracer import Tracer


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
    "__add__": mnp.add, "__radd__": _swap(mnp.add),
    "__sub__": mnp.subtract, "__rsub__": _swap(mnp.subtract),
    "__mul__": mnp.multiply, "__rmul__": _swap(mnp.multiply),
    "__truediv__": mnp.divide, "__rtruediv__": _swap(mnp.divide),
    "__floordiv__": mnp.floor_divide, "__rfloordiv__": _swap(mnp.floor_divide),
    "__mod__": mnp.remainder, "__rmod__": _swap(mnp.remainder),
    "__pow__": mnp.power, "__rpow__": _swap(mnp.power),
    "__matmul__": mnp.matmul, "__rmatmul__": _swap(mnp.matmul),
    "__lt__": mnp.less, "__le__": mnp.less_equal, "__gt__": mnp.greater,
    "__ge__": mnp.greater_equal, "__eq__": mnp.equal, "__ne__": mnp.not_equal,
    "__and__": mnp.bitwise_and, "__rand__": _swap(mnp.bitwise_and),
    "__or__": mnp.bitwise_or, "__ror__": _swap(mnp.bitwise_or),
    "__xor__": mnp.bitwise_xor, "__rxor__": _swap(mnp.bitwise_xor),
}

_UNARY = {"__neg__": mnp.negative, "__pos__": mnp.positive, "__abs__": mnp.absolute,
          "__invert__": mnp.invert}


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
    "sum": _reduction_method(mnp.sum), "prod": _reduction_method(mnp.prod),
    "mean": _reduction_method(mnp.mean), "var": _reduction_method(mnp.var),
    "std": _reduction_method(mnp.std), "max": _reduction_method(mnp.max),
    "min": _reduction_method(mnp.min), "all": _reduction_method(mnp.all),
    "any": _reduction_method(mnp.any),
    "ravel": lambda self: mnp.ravel(self), "flatten": lambda self: mnp.ravel(self),
    "squeeze": lambda self, axis=None: mnp.squeeze(self, axis),
    "swapaxes": lambda self, a, b: mnp.swapaxes(self, a, b),
    "dot": lambda self, other: mnp.dot(self, other),
    "clip": lambda self, min=None, max=None: mnp.clip(self, min, max),
    "round": lambda self, decimals=0: mnp.round(self, decimals),
    "__getitem__": lambda self, index: indexing.getitem(self, index),
    # as jax.Array (sort returns a sorted copy; no .trace(): a tracer's
    # `trace` is its Trace)
    "argmax": lambda self, axis=None, out=None, keepdims=None: mnc.argmax(
        self, axis, out, keepdims),
    "argmin": lambda self, axis=None, out=None, keepdims=None: mnc.argmin(
        self, axis, out, keepdims),
    "argsort": lambda self, axis=-1, **kw: mnc.argsort(self, axis, **kw),
    "sort": lambda self, axis=-1, **kw: mnc.sort(self, axis, **kw),
    "cumsum": lambda self, axis=None, dtype=None, out=None: mnc.cumsum(self, axis, dtype, out),
    "cumprod": lambda self, axis=None, dtype=None, out=None: mnc.cumprod(
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

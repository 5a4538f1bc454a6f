"""What the mlax.numpy modules share: argument checks, NumPy broadcasting
with JAX's type promotion, and the wrappers that make a NumPy function from a
lax one (`_unary`, `_binary`; `_eager_jit` runs a whole function as one
dispatch when called eagerly, as jax.numpy does)."""
from __future__ import annotations


import functools
import inspect
import operator
import warnings

import numpy as np

from mlax._src.core import tracer as core
from mlax._src.base import dtypes
from mlax._src.base.config import config
from mlax._src.lax import lax
from mlax._src.lax import shape as lax_shape
from mlax._src.core.array import Array
from mlax._src.core.tracer import ShapedArray, Tracer
from mlax._src.core.primitives import (aval_of, check_python_int, note_implicit_broadcast,
                                       scalar_tracer)


def _wrapped(value, dtype):
    """A Python int as JAX's convert_element_type gives it to an integer
    `dtype`: wrapped into a narrower type (jnp.full(2, 300, int8) is 44; x +
    300 of an int8 x is x + 44), where NumPy refuses it. Anything else as it
    is."""
    if type(value) is int and dtypes.is_int(dtype) and -2**63 <= value < 2**64:
        bits = 8 * np.dtype(dtype).itemsize
        if dtype in dtypes.NARROW_INTS:
            bits = 4
        value %= 2 ** bits
        if dtypes.is_signed_int(dtype) and value >= 2 ** (bits - 1):
            value -= 2 ** bits
    return value


class _Literal:
    """A Python scalar converted to a promoted dtype, keeping its weak type."""

    __slots__ = ("aval", "_np")

    def __init__(self, value, dtype, weak):
        self._np = np.asarray(_wrapped(value, dtype), dtype=dtype)
        self.aval = ShapedArray((), dtype, weak)

    def _value_np(self):
        return self._np

    def __array__(self, dtype=None, copy=None):
        return self._np if dtype is None else self._np.astype(dtype)


_ARRAY_TYPES = (Array, Tracer)


def _materialize(x):
    """A _Literal left as a function's result becomes a real (0-d) array of
    its dtype and weak type; anything else is returned unchanged."""
    if isinstance(x, _Literal):
        return lax.convert_element_type(x._np, x.aval.dtype, weak_type=x.aval.weak_type)
    return x


def _is_array(x):
    return isinstance(x, _ARRAY_TYPES)


def _check_arg(name, x):
    if _is_array(x) or isinstance(x, (bool, int, float, complex, np.ndarray, np.generic,
                                      _Literal)):
        return
    if isinstance(x, (list, tuple)):
        raise TypeError(f"mnp.{name} requires ndarray or scalar arguments, got "
                        f"{type(x).__name__}; wrap it with mnp.array(...) "
                        f"(at {core.user_location_str()})")
    aval_of(x)  # raises the general message


def _convert(x, dtype, weak):
    """`x` as `dtype` (a Python scalar becomes a literal, no op emitted; a
    TracedInt is converted from its argument)."""
    if dtypes.is_python_scalar(x) and type(x) is not core.TracedInt:
        return _Literal(x, dtype, weak)
    aval = aval_of(x)
    if aval.dtype == dtype and aval.weak_type == weak:
        return x
    return lax.convert_element_type(x, dtype, weak_type=weak)


def broadcast_shapes(*shapes, name="broadcast_shapes"):
    # (an int is a 1-d shape, as in NumPy and JAX)
    shapes = [(s,) if isinstance(s, (int, np.integer)) else s for s in shapes]
    return lax_shape.broadcast_shape(shapes, f"mnp.{name}")


def _broadcast_to_shape(x, shape):
    if aval_of(x).shape == shape and not isinstance(x, _Literal):
        return x
    return lax_shape.broadcast_to(x, shape)


def promote_dtypes(name, *args):
    """Converts args to their JAX-promoted common dtype."""
    for a in args:
        _check_arg(name, a)
        check_python_int(a)
    avals = [aval_of(a) for a in args]
    dtype, weak = dtypes.result_type(*((a.dtype, a.weak_type) for a in avals))
    return [_convert(a, dtype, weak) for a in args]


def _rank_promotion(name, shapes):
    """JAX's jax_numpy_rank_promotion: operands of two or more ranks (scalars
    aside) warn or raise unless it is 'allow'."""
    mode = config.jax_numpy_rank_promotion
    if mode == "allow" or len({len(s) for s in shapes if s}) < 2:
        return
    shown = " ".join(map(str, shapes))
    if mode == "warn":
        warnings.warn(f"Following NumPy automatic rank promotion for {name} on shapes {shown}. "
                      "Set the jax_numpy_rank_promotion config option to 'allow' to disable "
                      "this warning; for more information, see "
                      "https://docs.jax.dev/en/latest/rank_promotion_warning.html.",
                      stacklevel=2)
    else:
        raise ValueError(f"Operands could not be broadcast together for {name} on shapes "
                         f"{shown} and with the config option "
                         "jax_numpy_rank_promotion='raise'. For more information, see "
                         "https://docs.jax.dev/en/latest/rank_promotion_warning.html.")


def vectorize_rank_promotion(shapes, core_dims, signature):
    """jnp.vectorize's rank-promotion check: operands whose batch ranks
    (scalars aside) differ warn or raise unless the mode is 'allow'."""
    mode = config.jax_numpy_rank_promotion
    if mode == "allow":
        return
    ranks = {len(s) - c for s, c in zip(shapes, core_dims) if len(s)}
    if len(ranks) < 2:
        return
    msg = (f"operands with shapes {list(shapes)} require rank promotion for jnp.vectorize "
           f"function with signature {signature}. Set the jax_numpy_rank_promotion config "
           "option to 'allow' to disable this message; for more information, see "
           "https://docs.jax.dev/en/latest/rank_promotion_warning.html.")
    if mode == "warn":
        warnings.warn(msg, stacklevel=3)
    else:
        raise ValueError(msg)


def promote_args(name, *args):
    """Promotes dtypes and broadcasts shapes, NumPy style."""
    args = promote_dtypes(name, *args)
    shapes = [aval_of(a).shape for a in args]
    _rank_promotion(name, shapes)
    try:
        shape = broadcast_shapes(*shapes, name=name)
    except ValueError as e:
        # As JAX: operands of one rank (scalars aside) reach the lax op,
        # whose shape rule raises a TypeError; operands of different ranks
        # fail in NumPy-style rank promotion, a ValueError.
        if len({len(s) for s in shapes if s}) < 2:
            raise TypeError(str(e)) from None
        raise
    out = [_broadcast_to_shape(a, shape) for a in args]
    # (noted for sparsify, which tells these from arrays the function made)
    return [b if s == shape else note_implicit_broadcast(b) for s, b in zip(shapes, out)]


def _promote_inexact(name, *args):
    """JAX's promote_dtypes_inexact: the promoted dtype made inexact
    (dtypes.to_inexact: int32 -> float32 even with x64, int64 -> float64)."""
    args = promote_dtypes(name, *args)
    out = []
    for a in args:
        aval = aval_of(a)
        if not dtypes.is_inexact(aval.dtype):
            a = _convert(a, dtypes.to_inexact(aval.dtype), aval.weak_type)
        out.append(a)
    return out


# The commonest traced calls, taken without the general promotion (which
# gives them the same operands): a strongly typed tracer, with another of
# the same type or a Python scalar of its kind (an int with an integer or
# inexact array, a float with an inexact one). Weak tracers, bool, bfloat16
# (kind 'V') and everything else go the general way.
_SCALAR_KINDS = {int: "iufc", float: "fc"}


def _fast_unary(x, inexact):
    """Whether `x` needs no promotion: a strongly typed tracer (inexact, for
    a function that makes its arguments inexact)."""
    return type(x) is Tracer and not x.aval.weak_type and (
        not inexact or x.aval.dtype.kind in "fc")


def _filled(scalar, aval):
    """The Python scalar broadcast to the strong `aval`, as promote_args gives it."""
    out = scalar_tracer(_wrapped(scalar, aval.dtype), aval)
    if out is None:
        out = lax_shape.broadcast_in_dim(_Literal(scalar, aval.dtype, False), aval.shape, ())
    return note_implicit_broadcast(out)


def _fast_binary(x, y, inexact):
    """(x, y) ready for the lax op, or None."""
    tracer, other = (x, y) if _fast_unary(x, inexact) else (y, x)
    if not _fast_unary(tracer, inexact):
        return None
    aval = tracer.aval
    if type(other) is Tracer:
        return (x, y) if other.aval == aval else None
    if aval.dtype.kind not in _SCALAR_KINDS.get(type(other), ""):
        return None
    check_python_int(other)
    filled = _filled(other, aval)
    return (x, filled) if tracer is x else (filled, y)


def _unary(name, lax_fn, inexact=False):
    def fn(x):
        if _fast_unary(x, inexact):
            return lax_fn(x)
        _check_arg(name, x)
        x, = _promote_inexact(name, x) if inexact else promote_dtypes(name, x)
        return _materialize(lax_fn(x))

    fn.__name__ = name
    fn.__doc__ = f"mnp.{name}, as numpy.{name}."
    return _eager_jit(fn)


def _binary(name, lax_fn, inexact=False):
    def fn(x, y):
        fast = _fast_binary(x, y, inexact)
        if fast is not None:
            return lax_fn(*fast)
        if inexact:
            _check_arg(name, x)
            _check_arg(name, y)
            x, y = _promote_inexact(name, x, y)
        x, y = promote_args(name, x, y)
        return lax_fn(x, y)

    fn.__name__ = name
    fn.__doc__ = f"mnp.{name}, as numpy.{name}."
    return _eager_jit(fn)


def _eager_jit(fn, static_argnames=()):
    # Eagerly, one jit dispatch of the whole function (promotion included),
    # as jax.numpy does; traced, the function itself (mlax._src.jit.api.eager_jit).
    from mlax._src.jit import api

    return api.eager_jit(fn, static_argnames)


def _static_axes(axis):
    """An axis argument as jax.numpy's reductions take it before their jit
    (`_ensure_optional_axes`): an int, a tuple of ints or None, from any
    integer (NumPy's, a 0-d array, a value known to an eager transformation)
    or sequence of them. Anything else is left for the function's error."""
    if axis is None or type(axis) is int:
        return axis
    axis = core.concretize(axis)
    if isinstance(axis, Array):
        axis = np.asarray(axis)  # (read once, not element by element)
    try:
        return operator.index(axis)
    except TypeError:
        pass
    try:
        return tuple(operator.index(core.concretize(a)) for a in axis)
    except TypeError:
        return axis


def _eager_jit_axes(fn, static_argnames, axes=("axis",)):
    """`_eager_jit(fn, static_argnames)` for a function whose `axes`
    arguments JAX normalizes first (`_static_axes`: a list of axes, a NumPy
    integer), so that they are hashable static arguments."""
    from mlax._src.jit import api

    jitted = _eager_jit(fn, static_argnames)
    positional = api._positional_params(inspect.signature(fn))
    where = [(name, positional.index(name) if name in positional else None)
             for name in axes]

    @functools.wraps(fn)
    def call(*args, **kwargs):
        for name, i in where:
            if i is not None and i < len(args):
                if args[i] is not None and type(args[i]) is not int:
                    args = args[:i] + (_static_axes(args[i]),) + args[i + 1:]
            elif name in kwargs:
                kwargs[name] = _static_axes(kwargs[name])
        return jitted(*args, **kwargs)

    return call


def _to_bool(x):
    aval = aval_of(x)
    if aval.dtype == dtypes.bool_:
        return x
    if isinstance(x, (bool, int, float, complex)):
        return _Literal(bool(x), dtypes.bool_, aval.weak_type)
    # x != 0, a weak bool for a weakly typed scalar (as JAX: logical_not(1.0)
    # is a weak bool), a strong one for any other array (JAX compares those
    # with a strongly typed zero).
    weak = aval.weak_type and aval.ndim == 0
    zero = _broadcast_to_shape(_Literal(0, aval.dtype, weak), aval.shape)
    return lax.ne(x, zero)


# ---------------------------------------------------------------------------
# device= and out_sharding= of the creation functions
# ---------------------------------------------------------------------------

_NO_SHARDING = ("mlax does not support sharding yet: out_sharding must be None (mlax arrays "
                "live on one device; use device= to choose it)")


def _check_out_sharding(name, out_sharding, device=None):
    """jax.numpy's `out_sharding=`: None (JAX's default) is the only value
    mlax takes. JAX wants a NamedSharding or a PartitionSpec, both over a
    mesh, which mlax does not have: anything else is a NotImplementedError
    rather than a silently unsharded result. `device` and `out_sharding`
    together are JAX's ValueError (util.choose_device_or_out_sharding)."""
    if device is not None and out_sharding is not None:
        raise ValueError(f"Only one of `device` or `out_sharding` can be set. Got {device=} and"
                         f" {out_sharding=}")
    if out_sharding is not None:
        raise NotImplementedError(f"mnp.{name}: {_NO_SHARDING}; got {out_sharding=}")


def _device_arg(name, device):
    """jax.numpy's `device=`: a Device or a single-device sharding, as the
    mlax device to place the result on (None: the default placement)."""
    if device is None:
        return None
    from mlax._src.base import jaxlib_internals
    from mlax._src.jit.devices import Device
    if isinstance(device, Device):
        return device
    single = jaxlib_internals.single_device_sharding_device(device)
    if single is not None:
        return single
    if hasattr(device, "device_set"):  # a sharding over several devices
        raise NotImplementedError(f"mnp.{name}: device={device!r}: {_NO_SHARDING}")
    raise TypeError(f"mnp.{name}: device must be a Device or a single-device Sharding, got "
                    f"{device!r} of type {type(device).__name__}")


def _on_device(name, x, device):
    """`x` placed on `device` (see _device_arg), as jax.numpy's creation
    functions commit their result there. Inside a trace the value is left
    as it is: a traced program runs on one device, and JAX's jitted
    creation functions do not move their result either."""
    device = _device_arg(name, device)
    if device is None or not isinstance(x, Array):
        return x
    from mlax._src.jit.api import device_put
    return device_put(x, device)


def _refuse_lists(fn, name, params):
    """`fn` checking, as JAX's ensure_arraylike does, that its arguments named
    in `params` (a '*' name: each of a sequence argument's elements) are
    arrays or scalars: a Python list or tuple there raises TypeError naming
    `name`. Applied where mlax.numpy exports a function, so mlax's own calls
    (which may pass lists) are not checked."""
    sig = inspect.signature(fn).parameters
    names = list(sig)
    checks = [(p.lstrip("*"), names.index(p.lstrip("*")), p.startswith("*")) for p in params]
    varargs = {n for n, p in sig.items() if p.kind is inspect.Parameter.VAR_POSITIONAL}

    @functools.wraps(fn)
    def checked(*args, **kwargs):
        for pname, pos, elementwise in checks:
            if pname in varargs:
                v = args[pos:]
            elif pos < len(args):
                v = args[pos]
            elif pname in kwargs:
                v = kwargs[pname]
            else:
                continue
            for x in (v if elementwise and isinstance(v, (list, tuple)) else (v,)):
                if isinstance(x, (list, tuple)):
                    raise TypeError(f"{name} requires ndarray or scalar arguments, got "
                                    f"{type(x).__name__}; wrap it with mnp.array(...) "
                                    f"(at {core.user_location_str()})")
        return fn(*args, **kwargs)

    return checked

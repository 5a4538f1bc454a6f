"""mlax.numpy: NumPy's API with NumPy broadcasting and JAX's type promotion,
built on mlax.lax."""
from __future__ import annotations

import builtins
import operator

import numpy as np

from mlax._src.core import tracer as core
from mlax._src.base import dtypes
from mlax._src.lax import lax
from mlax._src.transforms import autodiff
from mlax._src.core.array import Array
from mlax._src.core.tracer import ShapedArray, Tracer
from mlax._src.core.primitives import aval_of
from mlax._src.core.key_reuse import Tracked as _KeyArrayBase
from mlax._src.numpy.util import (
    _broadcast_to_shape, _check_arg, _check_out_sharding, _convert, _device_arg, _eager_jit,
    _is_array,
    _materialize, _on_device, _to_bool, broadcast_shapes, promote_dtypes)


def _nonzero(condition, *, size=None, fill_value=None):
    # Replaced by manipulation.nonzero when that module is imported (it is
    # built on this one, so it registers itself here).
    raise NotImplementedError("mnp.where(condition) needs mlax._src.numpy.manipulation")


def register_nonzero(fn):
    global _nonzero
    _nonzero = fn


def _key_arrays(*args):
    """The typed PRNG key array class (mlax.random's, a layer above) if any
    of `args` (or of the sequence among them) is one: the functions that
    take JAX's key arrays (asarray, concatenate, stack, where, broadcast_to,
    expand_dims) hand them to its `_numpy_op`."""
    for a in args:
        for x in (a if isinstance(a, (list, tuple)) else (a,)):
            if isinstance(x, _KeyArrayBase):
                return type(x)
    return None


def where(condition, x=None, y=None, /, *, size=None, fill_value=None):
    """where(condition, x, y): x where condition holds, else y; with only
    the condition, nonzero(condition, size=size, fill_value=fill_value)."""
    if x is None and y is None:
        return _nonzero(condition, size=size, fill_value=fill_value)
    if x is None or y is None:
        raise ValueError("mnp.where: either both or neither of x and y should be given "
                         f"(at {core.user_location_str()})")
    if (keys := _key_arrays(x, y)) is not None:
        return keys._numpy_op("where", condition, x, y)
    return _where3(condition, x, y)


def _where3(condition, x, y):
    _check_arg("where", condition)
    cond = _to_bool(condition)
    x, y = promote_dtypes("where", x, y)
    cond, x, y = _broadcast_all("where", cond, x, y)
    return lax.select(cond, x, y)


_where3 = _eager_jit(_where3)  # one dispatch eagerly, as JAX's jitted _where


def _broadcast_all(name, *args):
    shape = broadcast_shapes(*(aval_of(a).shape for a in args), name=name)
    return [_broadcast_to_shape(a, shape) for a in args]


# ---------------------------------------------------------------------------
# Creation
# ---------------------------------------------------------------------------

def _dtype_arg(dtype):
    return None if dtype is None else dtypes.canonicalize(dtype)


_SHARDING_DOC = """
    `out_sharding`: None, JAX's default, is the only value taken: mlax has no
    sharding yet (JAX's NamedSharding / PartitionSpec need a mesh), and any
    other value raises NotImplementedError rather than ignoring it. `device`
    (a Device or a single-device Sharding) places the result eagerly; inside
    a trace the value is left where the traced program runs."""


def array(object, dtype=None, *args, copy=True, order="K", ndmin=0, device=None,  # noqa: A002
          out_sharding=None):
    """An mlax array from a NumPy array, nested lists/tuples, scalars or arrays
    (jax.numpy.array). `copy`: mlax arrays are immutable and every conversion
    from host data copies it, so copy=False shares nothing that could change;
    `order` must be 'K' (or None); `ndmin` prepends size-1 axes.
    Passing copy, order and ndmin positionally is deprecated, as in JAX."""
    if not args and not ndmin and (keys := _key_arrays(object)) is not None \
            and not isinstance(object, (list, tuple)):
        return keys._numpy_op("asarray", object, dtype=dtype)
    if args:
        if len(args) > 3:
            raise TypeError(f"array() takes at most 5 positional arguments but "
                            f"{len(args) + 2} were given")
        for i, name in enumerate(["copy", "order", "ndmin"]):
            if i < len(args) and [copy, order, ndmin][i] != [True, "K", 0][i]:
                raise TypeError(f"array() got multiple values for argument '{name}'")
        copy, order, ndmin = (list(args) + [copy, order, ndmin][len(args):])[:3]
        import warnings
        warnings.warn("Passing the copy, order, and ndmin arguments to jnp.array positionally "
                      "is deprecated. Use keyword arguments instead.", DeprecationWarning,
                      stacklevel=2)
    if order is not None and order != "K":
        raise NotImplementedError("Only implemented for order='K'")
    _check_out_sharding("array", out_sharding, device)
    out = _array(object, dtype, _device_arg("array", device))
    if copy and out is object and type(object) is Array:
        # copy=True (array's default, asarray's when asked, Array.copy):
        # a buffer of its own, as JAX's, so that deleting or donating the
        # copy leaves the original.
        from mlax._src.backend import runtime

        out = Array(runtime.copy_buffer(object._buf), object.aval)
    ndmin = operator.index(ndmin)
    ndim = aval_of(out).ndim
    if ndmin > ndim:
        out = lax.reshape(out, (1,) * (ndmin - ndim) + tuple(aval_of(out).shape))
    return out


array.__doc__ += _SHARDING_DOC


def _array(object, dtype, device):  # noqa: A002
    if _is_array(object):
        out = object if dtype is None else astype(object, dtype)
        return _on_device("array", out, device)
    if isinstance(object, (list, tuple)) and builtins.any(_is_array(o) for o in _flat(object)):
        out = stack([array(o, copy=False) for o in object])
        # An array built from a sequence is strongly typed, as in JAX, even
        # when every element is weak.
        out = lax.convert_element_type(out, aval_of(out).dtype, weak_type=False) \
            if dtype is None else astype(out, dtype)
        return _on_device("array", out, device)
    value = np.asarray(object)
    big = [o for o in (_flat(object) if isinstance(object, (list, tuple)) else (object,))
           if type(o) is int and not -2**63 <= o < 2**64] if value.dtype.kind == "O" else ()
    if big:
        # (NumPy holds an int beyond 64 bits as an object: JAX's error.)
        big = big[0]
        raise OverflowError(f"Python int {big} too large to convert to "
                            f"{dtypes.canonicalize(np.int64)}")
    if value.dtype.kind in "OUS" or (value.dtype.kind == "V" and not (
            dtypes.is_float(value.dtype) or dtypes.is_int(value.dtype)
            or value.dtype.name in dtypes.UNAVAILABLE)):  # (those say why below)
        raise TypeError(f"mnp.array: cannot make an array from {type(object).__name__} "
                        f"holding {value.dtype}")
    weak = False
    if dtype is None:
        if dtypes.is_python_scalar(object):
            # A Python scalar keeps its weak type, as in JAX.
            dt, weak = dtypes.scalar_type_of(object)
            if type(object) is int and dt.kind in "iu" and \
                    not np.iinfo(dt).min <= object <= np.iinfo(dt).max:
                raise OverflowError(f"Python int {object} too large to convert to {dt.name}")
        elif isinstance(object, (list, tuple)) and builtins.any(
                isinstance(o, np.generic) for o in _flat(object)):
            # NumPy scalars among Python numbers: JAX's promotion of the
            # elements (the Python numbers weakly typed), not NumPy's.
            dt = dtypes.result_type(*(
                (dtypes.canonicalize(o.dtype), False) if isinstance(o, np.generic)
                else dtypes.scalar_type_of(o) for o in _flat(object)))[0]
        else:
            # Python ints/floats in lists are 32-bit by default, as in JAX.
            dt = dtypes.canonicalize(value.dtype)
            if value.dtype.kind in "iu" and dt != value.dtype and value.size and \
                    not isinstance(object, (np.ndarray, np.generic)):
                # A Python int out of the default integer's range is JAX's
                # OverflowError (not a silently wrapped value).
                info = np.iinfo(dt)
                for v in (value.min(), value.max()):
                    if not info.min <= int(v) <= info.max:
                        raise OverflowError(f"Python int {int(v)} too large to convert to "
                                            f"{dt.name}")
    else:
        dt = dtypes.canonicalize(dtype)
        if not isinstance(object, (np.ndarray, np.generic)):
            # Python numbers converted directly: one out of the dtype's range
            # is NumPy's (and JAX's) OverflowError, not a wrapped value.
            value = np.asarray(object, dtype=dt)
    value = np.asarray(value, dtype=dt)
    if core.current_trace() is None:
        from mlax._src.backend import runtime

        return Array(runtime.device_put(value, device), ShapedArray(value.shape, dt, weak))
    return lax.convert_element_type(value, dt, weak_type=weak)


def _flat(seq):
    for s in seq:
        if isinstance(s, (list, tuple)):
            yield from _flat(s)
        else:
            yield s


def asarray(a, dtype=None, order=None, *, copy=None, device=None, out_sharding=None):
    """`a` as an mlax array (jax.numpy.asarray): array(a, ...) that copies
    only when it must. copy=False with host data for a device other than
    the CPU is JAX's ValueError (the data must be copied there)."""
    if (keys := _key_arrays(a)) is not None:
        return keys._numpy_op("asarray", a, dtype=dtype)
    if copy is False and not _is_array(a):
        platform = _platform(_device_arg("asarray", device))
        if platform != "cpu" and _supports_buffer_protocol(a):
            raise ValueError(f"jnp.asarray: cannot convert object of type {type(a)} to JAX "
                             f"Array on platform={platform} with copy=False. Consider using "
                             "copy=None or copy=True instead.")
    return array(a, dtype=dtype, copy=bool(copy), order=order, device=device,
                 out_sharding=out_sharding)


asarray.__doc__ += _SHARDING_DOC


def _platform(device):
    if device is not None:
        return device.platform
    from mlax._src.backend import runtime
    return runtime.default_backend()


def _supports_buffer_protocol(x):
    try:
        memoryview(x)
    except TypeError:
        return False
    return True


def _known(x):
    """A traced value whose value the trace knows (a transformation called
    outside jit) as a NumPy value, as JAX's concrete primals; `x` otherwise."""
    if isinstance(x, Tracer) and x.known is not None:
        return x._concrete()[()]
    return x


def _arr(x):
    return x if _is_array(x) else asarray(x)


def _shape_arg(name, shape):
    shape = _known(shape)
    if isinstance(shape, Tracer):
        raise core_errors().concretization(shape, f"the shape argument of mnp.{name}")
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    out = []
    for s in shape:
        s = _known(s)
        if isinstance(s, Tracer):
            raise core_errors().concretization(s, f"the shape argument of mnp.{name}")
        out.append(operator.index(s))
    if builtins.any(s < 0 for s in out):
        raise ValueError(f"mnp.{name}: negative dimensions are not allowed, got {tuple(out)}")
    return tuple(out)


def core_errors():
    from mlax._src.base import errors

    return errors


def full(shape, fill_value, dtype=None, *, device=None, out_sharding=None):
    _check_out_sharding("full", out_sharding, device)
    shape = _shape_arg("full", shape)
    if dtype is None:
        # As JAX: a weakly typed fill value (a Python scalar) gives a weak result.
        fill_aval = aval_of(fill_value)
        out = _full(shape, fill_value, fill_aval.dtype, fill_aval.weak_type)
    else:
        out = _full(shape, fill_value, dtypes.canonicalize(dtype), False)
    return _on_device("full", out, device)


def _full(shape, fill_value, dt, weak):
    value = _convert(fill_value, dt, weak)
    vshape = tuple(aval_of(value).shape)
    # (Not np.broadcast_shapes: it refuses shapes of 2**63 elements or more,
    # which are left to the compile's size check.)
    ok = len(vshape) <= len(shape) and all(
        v in (1, d) for v, d in zip(vshape[::-1], tuple(shape)[::-1]))
    if not ok:  # (JAX's ValueError, not a failure inside the broadcast)
        raise ValueError(f"mnp.full: a fill value of shape {vshape} cannot be broadcast to "
                         f"the shape {tuple(shape)}")
    return _materialize(_broadcast_to_shape(value, shape))


def zeros(shape, dtype=None, *, device=None, out_sharding=None):
    _check_out_sharding("zeros", out_sharding, device)
    return _on_device("zeros", full(shape, 0, dtype or dtypes.default_float()), device)


def ones(shape, dtype=None, *, device=None, out_sharding=None):
    _check_out_sharding("ones", out_sharding, device)
    return _on_device("ones", full(shape, 1, dtype or dtypes.default_float()), device)


def empty(shape, dtype=None, *, device=None, out_sharding=None):
    """zeros(shape, dtype), as JAX's (XLA has no uninitialized memory)."""
    _check_out_sharding("empty", out_sharding, device)
    return _on_device("empty", full(shape, 0, dtype or dtypes.default_float()), device)


def full_like(a, fill_value, dtype=None, shape=None, *, device=None, out_sharding=None):
    _check_out_sharding("full_like", out_sharding, device)
    aval = aval_of(a)
    shape = aval.shape if shape is None else _shape_arg("full_like", shape)
    if dtype is None:
        # As JAX: the result is weak when `a` is.
        out = _full(shape, fill_value, aval.dtype, aval.weak_type)
    else:
        out = _full(shape, fill_value, dtypes.canonicalize(dtype), False)
    return _on_device("full_like", out, device)


def zeros_like(a, dtype=None, shape=None, *, device=None, out_sharding=None):
    return full_like(a, 0, dtype, shape, device=device, out_sharding=out_sharding)


def ones_like(a, dtype=None, shape=None, *, device=None, out_sharding=None):
    return full_like(a, 1, dtype, shape, device=device, out_sharding=out_sharding)


for _f in (full, zeros, ones, empty, full_like, zeros_like, ones_like):
    _f.__doc__ = (_f.__doc__ or f"mnp.{_f.__name__}, as jax.numpy.{_f.__name__}.") + \
        _SHARDING_DOC


def astype(x, dtype, /, *, copy=False, device=None):
    """`x` converted to `dtype` (jax.numpy.astype; None: the default float);
    `device` places the result, as in array(). `copy=True` asks JAX for a
    fresh buffer; mlax arrays are immutable (no in-place update, deletion
    or donation), so a result sharing the input's buffer is
    indistinguishable from a copy and none is made."""
    del copy
    dt = dtypes.default_float() if dtype is None else dtypes.canonicalize(dtype)
    if isinstance(x, (bool, int, float, complex, np.ndarray, np.generic)):
        x = asarray(x)
    if dt == dtypes.bool_ and aval_of(x).dtype != dtypes.bool_:
        return _on_device("astype", _to_bool(x), device)
    return _on_device("astype", lax.convert_element_type(x, dt), device)


# ---------------------------------------------------------------------------
# Shapes
# ---------------------------------------------------------------------------

def _normalize_axis(name, axis, ndim):
    axis = core.concretize(axis)
    if isinstance(axis, Tracer):
        raise core_errors().concretization(axis, f"the axis argument of mnp.{name}")
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise np.exceptions.AxisError(
            f"mnp.{name}: axis {axis} is out of bounds for array of dimension {ndim}")
    return axis % ndim if ndim else 0


def _axes(name, axis, ndim):
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (tuple, list)):
        axes = tuple(_normalize_axis(name, a, ndim) for a in axis)
        if len(set(axes)) != len(axes):
            raise ValueError(f"mnp.{name}: repeated axis in {axis}")
        return axes
    return (_normalize_axis(name, axis, ndim),)


def reshape(a, shape, order="C", *, copy=None, out_sharding=None):
    """`a` with a new shape (jax.numpy.reshape; JAX 0.10 has `shape`, its
    deprecated `newshape` is gone). order='F' reads and writes the elements
    in column-major order; 'A' is JAX's NotImplementedError. `copy` is
    accepted and unused, as in JAX (arrays are immutable)."""
    del copy
    _check_out_sharding("reshape", out_sharding)
    a = a if _is_array(a) else asarray(a)
    if order == "C":
        return _reshape_c(a, shape)
    if order == "F":
        ndim = aval_of(a).ndim
        reversed_a = lax.transpose(a, tuple(range(ndim))[::-1])
        new = _new_shape(aval_of(a), shape)[::-1]
        out = lax.reshape(reversed_a, new)
        return lax.transpose(out, tuple(range(len(new)))[::-1])
    if order == "A":
        raise NotImplementedError("np.reshape order=A is not implemented.")
    raise ValueError(f"Unexpected value for 'order' argument: {order}.")


reshape.__doc__ += _SHARDING_DOC


def _reshape_c(a, newshape):
    return lax.reshape(a, _new_shape(aval_of(a), newshape))


def _new_shape(aval, newshape):
    if isinstance(newshape, (int, np.integer)):
        newshape = (int(newshape),)
    newshape = [core.concretize(s) for s in newshape]
    newshape = [operator.index(s) if not isinstance(s, Tracer) else
                _raise(core_errors().concretization(s, "the new shape of reshape"))
                for s in newshape]
    if newshape.count(-1) > 1:
        raise ValueError("mnp.reshape: can only specify one unknown dimension (-1)")
    if -1 in newshape:
        known = int(np.prod([s for s in newshape if s != -1], dtype=np.int64))
        if known == 0 or aval.size % known:
            raise ValueError(f"cannot reshape array of shape {aval.shape} (size {aval.size}) "
                             f"into shape {tuple(newshape)} (at {core.user_location_str()})")
        newshape[newshape.index(-1)] = aval.size // known
    return tuple(newshape)


def _raise(e):
    raise e


def ravel(a, order="C", *, out_sharding=None):
    """`a` flattened (jax.numpy.ravel): row-major, or column-major with
    order='F'; 'K' is JAX's NotImplementedError."""
    if order == "K":
        raise NotImplementedError("Ravel not implemented for order='K'.")
    return reshape(a, (-1,), order, out_sharding=out_sharding)


ravel.__doc__ += _SHARDING_DOC


def transpose(a, axes=None):
    _check_arg("transpose", a)
    a = a if _is_array(a) else asarray(a)
    ndim = aval_of(a).ndim
    axes = tuple(range(ndim))[::-1] if axes is None else tuple(
        _normalize_axis("transpose", x, ndim) for x in axes)
    return lax.transpose(a, axes)


def swapaxes(a, axis1, axis2):
    ndim = aval_of(a).ndim
    perm = list(range(ndim))
    i, j = _normalize_axis("swapaxes", axis1, ndim), _normalize_axis("swapaxes", axis2, ndim)
    perm[i], perm[j] = perm[j], perm[i]
    return lax.transpose(a, perm)


def expand_dims(a, axis):
    if (keys := _key_arrays(a)) is not None:
        return keys._numpy_op("expand_dims", a, axis)
    a = a if _is_array(a) else asarray(a)
    aval = aval_of(a)
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    out_ndim = aval.ndim + len(axes)
    axes = sorted(_normalize_axis("expand_dims", x, out_ndim) for x in axes)
    if len(set(axes)) != len(axes):
        raise ValueError(f"mnp.expand_dims: repeated axis in {axis}")
    shape = list(aval.shape)
    for x in axes:
        shape.insert(x, 1)
    return lax.reshape(a, shape)


def squeeze(a, axis=None):
    a = a if _is_array(a) else asarray(a)
    aval = aval_of(a)
    if axis is None:
        axes = [i for i, d in enumerate(aval.shape) if d == 1]
    else:
        axes = _axes("squeeze", axis, aval.ndim)
        for x in axes:
            if aval.shape[x] != 1:
                raise ValueError(f"mnp.squeeze: cannot select an axis to squeeze out which "
                                 f"has size not equal to one (axis {x} of shape {aval.shape})")
    return lax.reshape(a, [d for i, d in enumerate(aval.shape) if i not in axes])


def broadcast_to(array, shape, *, out_sharding=None):
    """`array` broadcast to `shape` (jax.numpy.broadcast_to)."""
    _check_out_sharding("broadcast_to", out_sharding)
    if (keys := _key_arrays(array)) is not None:
        return keys._numpy_op("broadcast_to", array, shape)
    a = array if _is_array(array) else asarray(array)
    shape = _shape_arg("broadcast_to", shape)
    aval = aval_of(a)
    if broadcast_shapes(aval.shape, shape, name="broadcast_to") != shape:
        raise ValueError(f"mnp.broadcast_to: cannot broadcast shape {aval.shape} to {shape}")
    return _broadcast_to_shape(a, shape)


broadcast_to.__doc__ += _SHARDING_DOC


def concatenate(arrays, axis=0, dtype=None):
    """`dtype`: each array is converted to it (else they are promoted), as JAX."""
    if (keys := _key_arrays(arrays)) is not None:
        return keys._numpy_op("concatenate", arrays, axis)
    arrays = [a if _is_array(a) and dtype is None else asarray(a, dtype=dtype) for a in arrays]
    if not arrays:
        raise ValueError("need at least one array to concatenate")
    arrays = promote_dtypes("concatenate", *arrays)
    if axis is None:
        return concatenate([ravel(a) for a in arrays], 0)
    ndim = aval_of(arrays[0]).ndim
    if ndim == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    return lax.concatenate(arrays, _normalize_axis("concatenate", axis, ndim))


def stack(arrays, axis=0, out=None, dtype=None):
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.stack is not supported.")
    if (keys := _key_arrays(arrays)) is not None:
        return keys._numpy_op("stack", arrays, axis)
    arrays = [a if _is_array(a) and dtype is None else asarray(a, dtype=dtype) for a in arrays]
    if not arrays:
        raise ValueError("need at least one array to stack")
    shapes = {aval_of(a).shape for a in arrays}
    if len(shapes) != 1:
        raise ValueError(f"mnp.stack: all input arrays must have the same shape, got "
                         f"{sorted(shapes)}")
    axis = _normalize_axis("stack", axis, aval_of(arrays[0]).ndim + 1)
    return concatenate([expand_dims(a, axis) for a in arrays], axis)


# The functions autodiff (a lower layer) calls on arrays.
autodiff.register_array_functions(
    convert_element_type=lax.convert_element_type, broadcast_in_dim=lax.broadcast_in_dim,
    reshape=reshape, zeros_like=zeros_like)

"""mlax.Array: an immutable array on a device (a PJRT buffer)."""
from __future__ import annotations

import numpy as np

from mlax._src.backend import runtime
from mlax._src.base import dtypes
from mlax._src.core import basearray
from mlax._src.core.tracer import ShapedArray


class Array(basearray.Array):
    """An immutable device array. Operators and methods dispatch to
    mlax.numpy (eagerly, op by op, each op compiled once per signature)."""

    __slots__ = ("_buf", "weak_type", "_aval", "_npy")
    __array_priority__ = 100

    # An Array is its jaxlib buffer plus a weak-type bit; the buffer knows
    # the shape and dtype. jit dispatch's C++ side flattens an Array into
    # its buffer with the bit as aux data and builds outputs as
    # Array(_buf=..., weak_type=...) (see mlax._src.jit.dispatch), so the aval
    # is built only when something asks for it.
    def __init__(self, _buf, aval: ShapedArray | None = None, weak_type=False):
        self._buf = _buf
        if aval is None:
            self.weak_type = weak_type
        else:
            self.weak_type = aval.weak_type
        self._aval = aval
        self._npy = None

    @property
    def aval(self) -> ShapedArray:
        aval = self._aval
        if aval is None:
            # The buffer's own abstract value is mlax's (runtime gives every
            # buffer one), up to the weak-type bit kept here.
            aval = self._buf.aval
            if type(aval) is not ShapedArray or aval.weak_type != self.weak_type:
                aval = ShapedArray(aval.shape, aval.dtype, self.weak_type)
            self._aval = aval
        return aval

    shape = property(lambda self: self.aval.shape)
    dtype = property(lambda self: self.aval.dtype)
    ndim = property(lambda self: self.aval.ndim)
    size = property(lambda self: self.aval.size)

    def _check_alive(self):
        if self._buf.is_deleted():
            shape = ",".join(str(d) for d in self.aval.shape)
            raise RuntimeError(f"Array has been deleted with shape={self.aval.dtype.name}"
                               f"[{shape}].")

    def is_deleted(self) -> bool:
        return self._buf.is_deleted()

    def delete(self):
        self._npy = None
        self._buf.delete()

    def _value_np(self) -> np.ndarray:
        if self._npy is None:
            self._check_alive()
            if runtime.is_mesh_buffer(self._buf):
                value = runtime.mesh_to_numpy(self._buf, self.aval)
            else:
                value = runtime.to_numpy(self._buf, self.aval.dtype)
            if value.dtype != self.aval.dtype:
                value = value.astype(self.aval.dtype)
            value.flags.writeable = False
            self._npy = value
        return self._npy

    def __array__(self, dtype=None, copy=None):
        value = self._value_np()
        if dtype is not None and np.dtype(dtype) != value.dtype:
            return value.astype(dtype)
        if copy:
            return value.copy()
        return value

    def block_until_ready(self):
        self._check_alive()
        self._buf.block_until_ready()
        return self

    def devices(self):
        return self.sharding.device_set

    def on_device_size_in_bytes(self) -> int:
        """The bytes its buffer takes on the device (padding included)."""
        self._check_alive()
        return self._buf.on_device_size_in_bytes()

    @property
    def device(self):
        """Its device; for an array over several devices, its sharding (as
        jax.Array.device)."""
        device = runtime.buffer_device(self._buf)
        return self.sharding if device is None else device

    @property
    def committed(self) -> bool:
        """Whether the array is committed to its device(s), as
        jax.Array.committed: placed there explicitly (device_put onto a
        device or sharding), or computed from committed arrays; False for
        arrays put on the default device implicitly. Computations run where
        committed arguments are (arrays on two different devices are an
        error) and move the uncommitted ones there."""
        return self._buf._committed

    @property
    def sharding(self):
        """How the array lies on devices: a NamedSharding over a mesh, or the
        SingleDeviceSharding of its one device."""
        return runtime.sharding_of(self._buf)

    @property
    def is_fully_replicated(self) -> bool:
        return self.sharding.is_fully_replicated

    @property
    def is_fully_addressable(self) -> bool:
        return self.sharding.is_fully_addressable

    @property
    def addressable_shards(self) -> list:
        """One Shard per device: its device, the index of its piece in the
        whole array, which copy of that piece it is, and the piece."""
        if not runtime.is_mesh_buffer(self._buf):
            device = runtime.buffer_device(self._buf)
            return [Shard(device, (slice(None),) * self.ndim, 0, self)]
        return [Shard(d, index, replica, Array(piece, ShapedArray(
                    piece.aval.shape, self.dtype, self.weak_type)))
                for d, index, replica, piece in runtime.shards(self._buf, self.aval)]

    global_shards = addressable_shards

    def addressable_data(self, index: int) -> "Array":
        return self.addressable_shards[index].data

    # DLPack (zero-copy exchange with NumPy, JAX, PyTorch, ...): the device
    # buffer is a jaxlib array, which speaks DLPack itself.
    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        """A DLPack capsule of the buffer (as jax.Array.__dlpack__): shared
        on the same device unless `copy`; `dl_device` may name another."""
        if max_version is not None and tuple(max_version) < (0, 5):
            raise BufferError(f"mlax does not support any DLPack version below (0, 5) but "
                              f"version ({max_version}) was requested.")
        buf = self._buf
        if runtime.is_mesh_buffer(buf):
            raise BufferError("mlax: DLPack exports arrays on one device; this one is laid "
                              f"out over {len(self.devices())} ({self.sharding!r})")
        if dl_device is not None and dl_device[0]:
            try:
                platform = runtime.DL_DEVICE_TO_PLATFORM[dl_device[0]]
            except KeyError:
                raise BufferError("The device specification passed to to_dlpack contains "
                                  f"an unsupported device type (DLDeviceType: "
                                  f"{dl_device[0]})") from None
            device = runtime.backend(platform).device_from_local_hardware_id(dl_device[1])
            if device != self.device:
                if copy is not None and not copy:
                    raise ValueError(
                        f"Specified device={device} which requires a copy since the source "
                        f"device is {self.device!r}, however copy=False. Set copy=True or "
                        "copy=None to perform the requested operation.")
                buf, copy = runtime.to_device(buf, device), False
        if copy:
            buf = runtime.device_put(np.array(self._value_np()), runtime.buffer_device(buf))
        return runtime.to_dlpack(buf, stream)

    def __dlpack_device__(self):
        return runtime.dlpack_device(runtime.buffer_device(self._buf))

    def copy_to_host_async(self):
        runtime.copy_to_host_async(self._buf)

    def is_ready(self) -> bool:
        return self._buf.is_ready()

    def tolist(self):
        return self._value_np().tolist()

    def tobytes(self, order="C"):
        return self._value_np().tobytes(order)

    def unsafe_buffer_pointer(self) -> int:
        """The address of the array's device buffer (JAX's; an array laid out
        over several devices has none: ValueError)."""
        if runtime.is_mesh_buffer(self._buf) and len(self.sharding.device_set) > 1:
            raise ValueError("unsafe_buffer_pointer() is supported only for unsharded arrays.")
        return self._buf.unsafe_buffer_pointer()

    def item(self, *args):
        return self._value_np().item(*args)

    def __repr__(self):
        # Exactly JAX's Array.__repr__ (empty arrays show their shape; the
        # dtype moves to its own line when the last line would be too long).
        prefix = "Array("
        dtype_str = f"dtype={self.dtype.name}"
        if self.aval.weak_type:
            dtype_str += ", weak_type=True"
        line_width = np.get_printoptions()["linewidth"]
        if self.size == 0:
            body = f"[], shape={self.shape}"
        else:
            body = np.array2string(self._value_np(), prefix=prefix, suffix=",",
                                   separator=", ", max_line_width=line_width)
        last_line_len = len(body) - body.rfind("\n") + 1
        sep = " " * len(prefix) if last_line_len + len(dtype_str) + 2 > line_width else " "
        return f"{prefix}{body},{sep}{dtype_str})"

    def __str__(self):
        return str(self._value_np())

    def __format__(self, spec):
        if self.ndim == 0:
            return format(self._value_np().item(), spec)
        return format(str(self), spec)

    def __bool__(self):
        return bool(self._value_np())

    # As JAX's Array, int/float/complex take 0-d arrays only (NumPy >= 2.5
    # deprecates the size-1 case) and say so in JAX's words; bool and item()
    # take any size-1 array, as both libraries do.
    def _check_scalar(self):
        if self.ndim:
            raise TypeError("Only scalar arrays can be converted to Python scalars; "
                            f"got arr.ndim={self.ndim}")

    def __int__(self):
        self._check_scalar()
        return int(self._value_np())

    def __float__(self):
        self._check_scalar()
        return float(self._value_np())

    def __complex__(self):
        self._check_scalar()
        return complex(self._value_np())

    def __index__(self):
        if self.ndim or not dtypes.is_int(self.dtype):
            raise TypeError("Only integer scalar arrays can be converted to a scalar index.")
        return int(self._value_np())

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __iter__(self):
        if not self.shape:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(self.shape[0]))

    def __hash__(self):
        raise TypeError("unhashable type: 'mlax.Array'")

    def __setitem__(self, index, value):
        raise TypeError(
            "'mlax.Array' object does not support item assignment: mlax arrays are "
            "immutable. Instead of x[idx] = y, use x = x.at[idx].set(y) "
            "(or .add/.multiply/.min/.max).")

    def __reduce__(self):
        return (_rebuild, (self._value_np(), self.aval.weak_type))


class Shard:
    """One device's piece of an array (jax.Shard)."""

    __slots__ = ("device", "index", "replica_id", "data")

    def __init__(self, device, index, replica_id, data):
        self.device, self.index, self.replica_id, self.data = device, index, replica_id, data

    def __repr__(self):
        return (f"Shard(device={self.device!r}, index={self.index}, "
                f"replica_id={self.replica_id}, data={self.data})")


def _rebuild(value, weak_type):
    return from_numpy(value, weak_type)


def from_numpy(value: np.ndarray, weak_type=False) -> Array:
    return Array(runtime.device_put(value), ShapedArray(value.shape, value.dtype, weak_type))

"""Global arrays from per-device pieces (jax.make_array_from_callback,
make_array_from_single_device_arrays, make_array_from_process_local_data)."""
from __future__ import annotations

import numpy as np

from mlax._src.backend import runtime
from mlax._src.backend import sharding as sharding_lib
from mlax._src.base import dtypes
from mlax._src.base import jaxlib_internals
from mlax._src.base.config import config
from mlax._src.core.array import Array
from mlax._src.core.tracer import ShapedArray


def _named(sharding, what):
    s = sharding_lib.resolve(sharding, what)
    if isinstance(s, sharding_lib.SingleDeviceSharding):
        raise NotImplementedError(f"{what}: mlax builds global arrays over a NamedSharding; "
                                  "for one device use device_put")
    return s


def _host(value) -> np.ndarray:
    return np.asarray(value)


def make_array_from_callback(shape, sharding, data_callback, dtype=None):
    """The array of `shape` laid out as `sharding`, each device's piece being
    `data_callback(index)` (index: the tuple of slices of the global array
    the device holds), as jax.make_array_from_callback."""
    named = _named(sharding, "make_array_from_callback")
    shape = tuple(int(d) for d in shape)
    named.check_shape(shape, "make_array_from_callback")
    index = named.devices_indices_map(shape)
    devices = named.mesh.local_devices  # (in a multi-process run, this process's)
    pieces = [_host(data_callback(index[d])) for d in devices]
    want = named.shard_shape(shape)
    dtype = dtypes.canonicalize(dtype if dtype is not None else pieces[0].dtype)
    for d, p in zip(devices, pieces):
        if p.shape != want:
            raise ValueError(f"make_array_from_callback: the callback gave an array of shape "
                             f"{p.shape} for device {d} (index {index[d]}), expected {want}")
    pieces = [np.ascontiguousarray(p, dtype=dtype) for p in pieces]
    aval = ShapedArray(shape, np.dtype(dtype))
    buf = jaxlib_internals.device_put_shards(
        runtime._buffer_aval(shape, np.dtype(dtype)), runtime.mesh_buffer_sharding(named, len(shape)),
        pieces, devices, bool(config.x64_enabled))
    return Array(buf, aval)


def make_array_from_single_device_arrays(shape, sharding, arrays, *, dtype=None):
    """The array of `shape` laid out as `sharding` whose pieces are `arrays`
    (one single-device array per device of the sharding, in any order), as
    jax.make_array_from_single_device_arrays; the pieces are not copied."""
    named = _named(sharding, "make_array_from_single_device_arrays")
    shape = tuple(int(d) for d in shape)
    named.check_shape(shape, "make_array_from_single_device_arrays")
    want = named.shard_shape(shape)
    by_device = {}
    for a in arrays:
        if not isinstance(a, Array) or runtime.is_mesh_buffer(a._buf):
            raise ValueError("make_array_from_single_device_arrays: every piece must be an "
                             f"array on one device, got {type(a).__name__}")
        if a.shape != want:
            raise ValueError(f"make_array_from_single_device_arrays: a piece has shape "
                             f"{a.shape}, expected {want} (the shard shape of {shape})")
        d = runtime.buffer_device(a._buf)
        if d in by_device:
            raise ValueError(f"make_array_from_single_device_arrays: two pieces on {d}")
        by_device[d] = a
    devices = named.mesh.local_devices
    missing = [d for d in devices if d not in by_device]
    if missing or len(by_device) != len(devices):
        raise ValueError(f"make_array_from_single_device_arrays: expected one piece on each "
                         f"of the {len(devices)} devices of {named!r}, got "
                         f"{len(by_device)} (missing: {missing})")
    dts = {a.dtype for a in arrays}
    if len(dts) != 1:
        raise ValueError(f"make_array_from_single_device_arrays: pieces of dtypes {dts}")
    dt = dts.pop()
    if dtype is not None and np.dtype(dtype) != dt:
        raise ValueError(f"make_array_from_single_device_arrays: dtype={dtype} but the pieces "
                         f"are {dt}")
    buf = jaxlib_internals.assemble(runtime._buffer_aval(shape, dt),
                                    runtime.mesh_buffer_sharding(named, len(shape)),
                                    [by_device[d]._buf for d in devices])
    return Array(buf, ShapedArray(shape, dt))


def make_array_from_process_local_data(sharding, local_data, global_shape=None):
    """The global array laid out as `sharding` from this process's part of
    it (jax.make_array_from_process_local_data). In one process the local
    data is the whole array."""
    named = _named(sharding, "make_array_from_process_local_data")
    value = _host(local_data)
    if named.is_fully_addressable:
        if global_shape is not None and tuple(global_shape) != value.shape:
            raise ValueError(f"make_array_from_process_local_data: global_shape "
                             f"{global_shape} but this (only) process holds data of shape "
                             f"{value.shape}")
        return make_array_from_callback(value.shape, named, lambda index: value[index])
    # Several processes: this one holds the block of the global array its
    # devices' pieces cover; along each split dimension the processes' blocks
    # stack up (JAX's rule for the usual layouts).
    ndim = value.ndim
    tiles = named.tiles(ndim)
    local = named.mesh.local_devices
    if global_shape is None:
        # How many of the pieces along each dimension this process holds.
        probe = named.devices_indices_map(tiles)
        n_local = [len({probe[d][k].start for d in local}) if tiles[k] > 1 else 1
                   for k in range(ndim)]
        global_shape = tuple(value.shape[k] * tiles[k] // n_local[k] for k in range(ndim))
    global_shape = tuple(int(d) for d in global_shape)
    index = named.devices_indices_map(global_shape)
    starts = [min((index[d][k].start or 0) for d in local) for k in range(ndim)]

    def piece(idx):
        return value[tuple(slice((s.start or 0) - st, (s.stop if s.stop is not None else n) - st)
                           for s, st, n in zip(idx, starts, global_shape))]
    return make_array_from_callback(global_shape, named, piece)

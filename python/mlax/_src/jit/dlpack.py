"""DLPack exchange: mlax arrays to and from NumPy, JAX, PyTorch, ... without
copies where the producer and the device allow it (on CPU the buffer is
shared)."""
from __future__ import annotations

import numpy as np

from mlax._src.base import dtypes
from mlax._src.backend import runtime
from mlax._src.core.array import Array
from mlax._src.core.tracer import ShapedArray, Tracer

SUPPORTED_DTYPES = tuple(d for d in dtypes.SUPPORTED)


def is_supported_dtype(dtype) -> bool:
    return np.dtype(dtype) in SUPPORTED_DTYPES


def from_dlpack(external_array, device=None, copy=None) -> Array:
    """An mlax.Array viewing `external_array` (anything with `__dlpack__`
    and `__dlpack_device__`: NumPy arrays, JAX arrays, torch tensors, ...)."""
    if isinstance(external_array, Array):
        return external_array if device is None else runtime_device_put(external_array, device)
    if isinstance(external_array, Tracer):
        raise TypeError("mlax.dlpack.from_dlpack: a traced value has no buffer to share; "
                        "call it outside mlax.jit")
    if not hasattr(external_array, "__dlpack__"):
        raise TypeError(
            "mlax.dlpack.from_dlpack: expected an object with __dlpack__ and "
            f"__dlpack_device__ (a NumPy array, a JAX array, a torch tensor, ...), got "
            f"{type(external_array).__name__}")
    jax = runtime._jax()[0]
    kwargs = {}
    if device is not None:
        kwargs["device"] = device
    if copy is not None:
        kwargs["copy"] = copy
    try:
        # JAX narrows 64-bit data here under its own x64 flag: make it mlax's.
        with runtime.jax_x64_as_mlax():
            buf = jax.dlpack.from_dlpack(external_array, **kwargs)
    except BufferError:
        if not isinstance(external_array, np.ndarray) or copy is False:
            raise
        # A read-only NumPy array cannot be exported (older DLPack): copy it.
        host = np.array(external_array)
        if host.dtype in SUPPORTED_DTYPES:
            host = host.astype(dtypes.canonicalize(host.dtype), copy=False)
        buf = runtime.device_put(host, device)
    dtype = np.dtype(buf.dtype)
    if dtype not in SUPPORTED_DTYPES:
        raise TypeError(f"mlax.dlpack.from_dlpack: unsupported dtype {dtype}")
    if dtypes.canonicalize(dtype) != dtype:
        # As JAX with x64 disabled: 64-bit data becomes 32-bit (a copy).
        buf = buf.astype(dtypes.canonicalize(dtype))
        dtype = np.dtype(buf.dtype)
    return Array(buf, ShapedArray(buf.shape, dtype))


def runtime_device_put(x: Array, device) -> Array:
    from mlax._src.jit import api

    return api.device_put(x, device)

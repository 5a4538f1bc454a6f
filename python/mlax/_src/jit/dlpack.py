"""DLPack exchange: mlax arrays to and from NumPy, JAX, PyTorch, ... without
copies where the producer and the device allow it (on CPU the buffer is
shared)."""
from __future__ import annotations

import numpy as np

from mlax._src.base import dtypes
from mlax._src.backend import runtime
from mlax._src.core.array import Array
from mlax._src.core.tracer import ShapedArray, Tracer

# As JAX's: DLPack has no type codes for the narrow dtypes (float8, int4, ...).
SUPPORTED_DTYPES = tuple(d for d in dtypes.SUPPORTED if not dtypes.is_narrow(d))


def is_supported_dtype(dtype) -> bool:
    return np.dtype(dtype) in SUPPORTED_DTYPES



# dlpack.h's DLDataTypeCode -> NumPy kind.
_DL_CODES = {0: "int", 1: "uint", 2: "float", 4: "bfloat", 5: "complex", 6: "bool"}


def _capsule_aval(capsule) -> ShapedArray:
    """Shape and dtype of a (legacy, unversioned) DLPack capsule, read from
    its DLManagedTensor before jaxlib takes it."""
    import ctypes

    class DLTensor(ctypes.Structure):
        _fields_ = [("data", ctypes.c_void_p), ("device_type", ctypes.c_int32),
                    ("device_id", ctypes.c_int32), ("ndim", ctypes.c_int32),
                    ("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                    ("lanes", ctypes.c_uint16), ("shape", ctypes.POINTER(ctypes.c_int64)),
                    ("strides", ctypes.POINTER(ctypes.c_int64)),
                    ("byte_offset", ctypes.c_uint64)]

    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype = ctypes.c_void_p
    get.argtypes = [ctypes.py_object, ctypes.c_char_p]
    ptr = get(capsule, b"dltensor")
    t = DLTensor.from_address(ptr)
    shape = tuple(t.shape[i] for i in range(t.ndim))
    kind = _DL_CODES.get(t.code)
    if kind is None or t.lanes != 1:
        raise TypeError(f"mlax.dlpack.from_dlpack: unsupported DLPack data type "
                        f"(code {t.code}, {t.bits} bits, {t.lanes} lanes)")
    if kind == "bool":
        dtype = np.dtype(np.bool_)
    elif kind == "bfloat":
        dtype = dtypes.bfloat16
    else:
        dtype = np.dtype(f"{kind}{t.bits}")
    return ShapedArray(shape, dtype)


def from_dlpack(external_array, device=None, copy=None) -> Array:
    """An mlax.Array viewing `external_array` (anything with `__dlpack__`
    and `__dlpack_device__`: NumPy arrays, JAX arrays, torch tensors, ...)."""
    if isinstance(external_array, Array):
        return external_array if device is None else runtime_device_put(external_array, device)
    if isinstance(external_array, Tracer):
        raise TypeError("mlax.dlpack.from_dlpack: a traced value has no buffer to share; "
                        "call it outside mlax.jit")
    if not hasattr(external_array, "__dlpack__") or \
            not hasattr(external_array, "__dlpack_device__"):
        raise TypeError(
            "mlax.dlpack.from_dlpack: expected an object with __dlpack__ and "
            f"__dlpack_device__ (a NumPy array, a JAX array, a torch tensor, ...), got "
            f"{type(external_array).__name__}")
    if device is not None and not (hasattr(device, "platform") and hasattr(device, "id")):
        device_set = getattr(device, "device_set", None)
        if device_set is None or len(device_set) != 1:
            raise ValueError("mlax.dlpack.from_dlpack: device= must be one device (or a "
                             f"single-device sharding), got {device!r}")
        device, = device_set
    dl_type, dl_id = external_array.__dlpack_device__()
    try:
        platform = runtime.DL_DEVICE_TO_PLATFORM[int(dl_type)]
    except KeyError:
        raise TypeError("Array passed to from_dlpack is on unsupported device type "
                        f"(DLDeviceType: {dl_type})") from None
    source = runtime.backend(platform).device_from_local_hardware_id(dl_id)
    if device is not None and device != source and copy is False:
        raise ValueError(
            f"Specified device={device} which requires a copy since the source device "
            f"is {source!r}, however copy=False. Set copy=True or copy=None to perform "
            "the requested operation.")
    stream = None
    if int(dl_type) not in (runtime.kDLCPU, runtime.kDLCUDAHost):
        try:
            stream = source.get_stream_for_external_ready_events()
        except Exception:  # UNIMPLEMENTED on this platform
            stream = None
    try:
        capsule = external_array.__dlpack__(stream=stream)
        aval = _capsule_aval(capsule)
        buf = runtime.from_dlpack(capsule, source, stream, copy, int(dl_type))
    except BufferError:
        if not isinstance(external_array, np.ndarray) or copy is False:
            raise
        # A read-only NumPy array cannot be exported (older DLPack): copy it.
        host = np.array(external_array)
        if host.dtype in SUPPORTED_DTYPES:
            host = host.astype(dtypes.canonicalize(host.dtype), copy=False)
        aval = ShapedArray(host.shape, host.dtype)
        buf = runtime.device_put(host, source if device is None else device)
    dtype = aval.dtype
    if dtype not in SUPPORTED_DTYPES:
        raise TypeError(f"mlax.dlpack.from_dlpack: unsupported dtype {dtype}")
    out = Array(runtime.rewrap(buf, aval), aval)
    if dtypes.canonicalize(dtype) != dtype:
        # As JAX with x64 disabled: 64-bit data becomes 32-bit (a copy).
        out = out.astype(dtypes.canonicalize(dtype))
    if device is not None and device != source:
        out = runtime_device_put(out, device)
    return out


def runtime_device_put(x: Array, device) -> Array:
    from mlax._src.jit import api

    return api.device_put(x, device)

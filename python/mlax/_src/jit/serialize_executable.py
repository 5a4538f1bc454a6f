"""mlax.experimental.serialize_executable, as JAX's: a compiled program
(`jit(f).lower(*args).compile()`) as bytes, and back, without tracing or
compiling again.

The bytes hold XLA's serialized executable with mlax's calling convention
(the argument and result avals with their weak types, the arguments the
program still takes, the platform and device). As in JAX, the argument and
result pytrees are returned beside the bytes (pytree definitions are not
serialized) and given back to `deserialize_and_load`. The bytes are a pickle:
as JAX warns, loading them may run code; never load untrusted ones.
"""
from __future__ import annotations

import pickle

from mlax._src.backend import runtime
from mlax._src.base.tree import registry
from mlax._src.core.tracing import _Executable
from mlax._src.jit.api import Compiled

_FORMAT = ("mlax-serialized-executable", 1)


def serialize(compiled):
    """(payload bytes, in_tree, out_tree) of `compiled`, a `Compiled`."""
    if not isinstance(compiled, Compiled):
        raise TypeError(f"serialize expects a compiled function (jit(f).lower(...).compile()), "
                        f"got {type(compiled).__name__}")
    e = compiled._executable
    if getattr(e, "in_named", None) is not None or not isinstance(e, _Executable):
        raise ValueError("Compilation does not support serialization: mlax serializes "
                         "single-device programs, not ones partitioned over a mesh")
    if e.effects:
        raise ValueError("Compilation does not support serialization: the program calls "
                         "Python host callbacks, which cannot be serialized")
    device = e.device or runtime.default_device()
    args_info_flat, in_tree = registry.flatten(compiled.args_info)
    payload = {
        "format": _FORMAT, "executable": e.exe.serialize(), "platform": device.platform,
        "device_id": device.id, "in_avals": tuple(e.in_avals), "out_avals": list(e.out_avals),
        "kept": e.kept, "stablehlo": e.stablehlo, "pinned_device": e.device is not None,
        "args_info": args_info_flat,
    }
    return pickle.dumps(payload), in_tree, e.out_tree


def deserialize_and_load(serialized, in_tree, out_tree, backend=None, execution_devices=None):
    """The `Compiled` that `serialize` gave the bytes of, loaded on `backend`
    (a platform name, default: the platform it was compiled for) or on the
    first of `execution_devices`."""
    try:
        payload = pickle.loads(serialized)
        if payload.get("format") != _FORMAT:
            raise ValueError(f"format {payload.get('format')!r}")
    except Exception as e:  # noqa: BLE001  anything not from serialize
        raise ValueError(f"deserialize_and_load: not a serialized mlax executable "
                         f"({type(e).__name__}: {e})") from None
    if execution_devices:
        device = execution_devices[0]
        if backend is not None and not isinstance(backend, str) and device.client != backend:
            raise ValueError("Execution devices belong to a client other than `backend`.")
    else:
        platform = backend if isinstance(backend, str) or backend is None else backend.platform
        devices = runtime.backend(platform or payload["platform"]).local_devices()
        device = devices[payload["device_id"]] if payload["device_id"] < len(devices) \
            else devices[0]
    if device.platform != payload["platform"]:
        raise ValueError(f"deserialize_and_load: the executable was compiled for "
                         f"{payload['platform']}, not {device.platform}")
    exe = runtime.load_executable(payload["executable"], device)
    loaded = _Executable(exe, payload["in_avals"], payload["out_avals"], out_tree,
                         payload["stablehlo"], None)
    loaded.kept = payload["kept"]
    if payload["pinned_device"] or device != runtime.default_device():
        loaded.device = device
    return Compiled(loaded, in_tree.unflatten(payload["args_info"]))

"""PJRT through jaxlib: clients, device buffers, compilation.

jaxlib owns XLA. mlax hands it StableHLO *text* (never an ir.Module from
another MLIR: that segfaults) and keeps jaxlib's array objects as buffers.
"""
from __future__ import annotations

import collections
import functools
import hashlib
import os
import tempfile
import threading
import time
import warnings
import zlib

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402

from mlax._src.base import jaxlib_internals  # noqa: E402
from mlax._src.base.config import config  # noqa: E402


@functools.cache
def _jax():
    jax = jaxlib_internals.import_jax()
    import jax.extend.backend as jeb
    from jaxlib import xla_client

    return jax, jeb, xla_client


@functools.cache
def backend(platform: str | None = None):
    """The PJRT client of `platform` ('cpu', 'gpu', 'cuda', 'rocm', 'tpu'), or
    of the default platform: as in JAX, a GPU or TPU where one is installed
    and works (or the one $JAX_PLATFORMS names), the CPU otherwise."""
    _, jeb, *_ = _jax()
    return jeb.get_backend(platform)


def default_backend() -> str:
    """The default platform's name as JAX gives it: 'cpu', 'gpu' or 'tpu'."""
    return backend().platform


def default_device():
    """The device uncommitted work runs on: mlax.default_device's (a device
    or a platform name), else the default backend's first device."""
    chosen = config.jax_default_device
    if chosen is None:
        return backend().local_devices()[0]
    if isinstance(chosen, str):
        return backend(chosen).local_devices()[0]
    return chosen


@functools.cache
def lowering_platform(device) -> str:
    """The platform mlax lowers for when it compiles for `device` (the
    `platform` option of convert-mlax-to-stablehlo): 'cpu', 'cuda', 'rocm'
    or 'tpu'. jaxlib calls CUDA and ROCm devices 'gpu'; their client's
    platform version says which they are (as JAX tells them apart)."""
    platform = device.platform
    if platform != "gpu":
        return platform
    version = str(getattr(device.client, "platform_version", "")).lower()
    return "rocm" if "rocm" in version else "cuda"


@functools.cache
def _sharding(device):
    jax = _jax()[0]
    return jax.sharding.SingleDeviceSharding(device)


def device_put(array: np.ndarray, device=None):
    """A NumPy array (already of its final dtype) onto a device.

    jaxlib narrows 64-bit host data unless told x64 is on; it is told what
    mlax's switch says (`enable_x64=`), never reading JAX's global flag, so
    `mlax.config.update("jax_enable_x64", True)` (or JAX_ENABLE_X64=1) alone
    keeps float64 data float64."""
    device = device or default_device()
    return jaxlib_internals.batched_device_put(array, _sharding(device), device,
                                               bool(config.x64_enabled))


def jax_x64_as_mlax():
    """A context in which JAX's x64 switch says what mlax's does, for calls
    into JAX APIs that canonicalize dtypes under JAX's own flag (e.g.
    jax.dlpack.from_dlpack). Scoped and thread-local (JAX's config context
    managers set a thread-local value); JAX's global setting is untouched."""
    return jaxlib_internals.enable_x64(bool(config.x64_enabled))


@functools.cache
def _compile_options(device_id: int = 0):
    # The device assignment names the device the executable runs on (the
    # default, device 0, would reject buffers on any other device).
    _, jeb, *_ = _jax()
    return jeb.get_compile_options(1, 1, device_assignment=np.array([[device_id]]))


# Executables by (StableHLO text, device). XLA's output depends on nothing
# else (the compile options are fixed per device), so every jitted function,
# eager op and transformation whose program prints the same shares one
# executable instead of paying XLA again. Least recently used dropped beyond
# `mlax_compile_cache_size`; failed compiles are not kept.
_executables: "collections.OrderedDict" = collections.OrderedDict()
_executables_lock = threading.Lock()


def compile(stablehlo_text: str, device=None):  # noqa: A001
    device = device or default_device()
    key = (stablehlo_text, device)
    with _executables_lock:
        exe = _executables.get(key)
        if exe is not None:
            _executables.move_to_end(key)
            return exe
    path = _persistent_path(stablehlo_text, device)  # None: the cache is off
    exe = _persistent_load(path, device) if path else None
    if exe is None:
        start = time.perf_counter()
        exe = backend(device.platform).compile_and_load(
            stablehlo_text, _jax()[2].DeviceList((device,)), _compile_options(device.id))
        if path:
            _persistent_store(path, exe, time.perf_counter() - start)
    with _executables_lock:
        exe = _executables.setdefault(key, exe)
        _executables.move_to_end(key)
        limit = config.mlax_compile_cache_size
        while limit and len(_executables) > limit:
            _executables.popitem(last=False)
    return exe


# The persistent compilation cache: one file per executable in
# `jax_compilation_cache_dir`, named by a hash of everything XLA's output
# depends on (the program, the device and its platform version, jaxlib's
# version; the compile options are fixed per device). Files are written
# whole and renamed into place, so processes sharing the directory (test
# workers, a script run twice) never read half an entry; an entry that does
# not load is compiled again and replaced. Hits and misses are counted for
# `persistent_cache_stats`.
_persistent_stats = collections.Counter()
_PERSISTENT_MAGIC = b"mlax-xla-1\n"


def _persistent_path(stablehlo_text: str, device):
    directory = config.jax_compilation_cache_dir
    if not directory:
        return None
    import jaxlib

    h = hashlib.sha256()
    for part in (getattr(jaxlib, "__version__", ""), device.platform,
                 getattr(device, "device_kind", ""), str(device.id),
                 str(getattr(device.client, "platform_version", "")), stablehlo_text):
        h.update(part.encode())
        h.update(b"\0")
    return os.path.join(directory, f"mlax-{h.hexdigest()}.xla")


def _persistent_load(path: str, device):
    try:
        with open(path, "rb") as f:
            blob = f.read()
    except OSError:
        _persistent_stats["misses"] += 1
        return None
    try:
        if not blob.startswith(_PERSISTENT_MAGIC):
            raise ValueError("not an mlax cache entry")
        serialized = zlib.decompress(blob[len(_PERSISTENT_MAGIC):])
        exe = backend(device.platform).deserialize_executable(
            serialized, _jax()[2].DeviceList((device,)), _compile_options(device.id))
    except Exception as e:  # a damaged or foreign entry: compile again
        warnings.warn(f"mlax: ignoring the persistent compilation cache entry {path} "
                      f"({type(e).__name__}: {e}); compiling again", RuntimeWarning,
                      stacklevel=3)
        _persistent_stats["errors"] += 1
        return None
    _persistent_stats["hits"] += 1
    return exe


def _persistent_store(path: str, exe, seconds: float):
    if seconds < config.jax_persistent_cache_min_compile_time_secs:
        return
    try:
        blob = _PERSISTENT_MAGIC + zlib.compress(exe.serialize(), 1)
        directory = os.path.dirname(path)
        os.makedirs(directory, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(blob)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except Exception as e:  # a full or read-only disk must not fail the compile
        warnings.warn(f"mlax: could not write the persistent compilation cache entry "
                      f"{path} ({type(e).__name__}: {e})", RuntimeWarning, stacklevel=3)
        return
    _persistent_stats["writes"] += 1


def persistent_cache_stats() -> dict:
    """Counts of the persistent cache's hits, misses, writes and unreadable
    entries in this process."""
    return {k: _persistent_stats[k] for k in ("hits", "misses", "writes", "errors")}


def compile_cache_size() -> int:
    return len(_executables)


def clear_compile_cache():
    with _executables_lock:
        _executables.clear()


def pick_device(backend_name=None, device=None):
    """The device `jit(backend=..., device=...)` names, or None (default)."""
    if backend_name is not None and device is not None:
        raise ValueError("mlax.jit: pass either backend= or device=, not both")
    if device is not None:
        if not hasattr(device, "platform") or not hasattr(device, "id"):
            raise TypeError(f"mlax.jit: device= must be a device from mlax.devices(), "
                            f"got {device!r}")
        return device
    if backend_name is None:
        return None
    try:
        return backend(str(backend_name)).local_devices()[0]
    except RuntimeError as e:
        raise RuntimeError(f"mlax.jit: backend {backend_name!r} is not available here "
                           f"({e}); 'cpu' always is") from None


def buffer_device(buf):
    return next(iter(buf.devices()))


def to_device(buf, device):
    """A buffer on `device` (the same one if it is already there)."""
    if device is None or buffer_device(buf) == device:
        return buf
    jax = _jax()[0]
    return jax.device_put(buf, device)

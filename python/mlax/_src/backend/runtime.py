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
from mlax._src.base import monitoring  # noqa: E402


_backends: dict = {}
_backends_lock = threading.Lock()


def backend(platform: str | None = None):
    """The PJRT client of `platform` ('cpu', 'gpu', 'cuda', 'rocm', 'tpu'), or
    of the default platform: as in JAX, a GPU or TPU where one is installed
    and works (or the one $JAX_PLATFORMS names), the CPU otherwise. Without
    a PJRT plugin installed this is jaxlib's CPU client, made by mlax (the
    `jax` package is not imported). Made once, under a lock: threads racing
    to the first call get the same client."""
    client = _backends.get(platform)
    if client is None:
        with _backends_lock:
            client = _backends.get(platform)
            if client is None:
                client = _backends[platform] = jaxlib_internals.get_backend(platform)
    return client


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
    return jaxlib_internals.SingleDeviceSharding(device)


class BufferAval:
    """The abstract value jaxlib keeps with a buffer put on a device from
    the host when the caller has none of its own (mlax.Array reads shape and
    dtype from it)."""

    __slots__ = ("shape", "dtype", "weak_type")

    def __init__(self, shape, dtype, weak_type=False):
        self.shape, self.dtype, self.weak_type = tuple(shape), np.dtype(dtype), weak_type

    @property
    def ndim(self):
        return len(self.shape)

    def __repr__(self):  # as JAX's ShapedArray (jaxlib's transfer-guard messages show it)
        weak = ", weak_type=True" if self.weak_type else ""
        return f"ShapedArray({self.dtype.name}[{','.join(map(str, self.shape))}]{weak})"


@functools.cache
def _buffer_aval(shape, dtype):
    return BufferAval(shape, dtype)


# DLPack device types (dlpack.h's DLDeviceType) and the platforms they name.
kDLCPU, kDLCUDA, kDLCUDAHost, kDLROCM = 1, 2, 3, 10
DL_DEVICE_TO_PLATFORM = {kDLCPU: "cpu", kDLCUDA: "cuda", kDLCUDAHost: "cuda",
                         kDLROCM: "rocm"}


def dlpack_device(device):
    """(DLDeviceType, device id) of `device`, as jax.Array.__dlpack_device__."""
    if device.platform == "cpu":
        return kDLCPU, 0
    platform = lowering_platform(device)
    if platform == "cuda":
        return kDLCUDA, device.local_hardware_id
    if platform == "rocm":
        return kDLROCM, device.local_hardware_id
    raise BufferError(f"mlax.dlpack: no DLPack device type for {device}")


def device_put(array: np.ndarray, device=None, committed=None):
    """A NumPy array (already of its final dtype) onto a device, committed
    to it where the device is named (or as `committed` says), as JAX's
    device_put: jax.Array.committed.

    jaxlib narrows 64-bit host data unless told x64 is on; it is told what
    mlax's switch says (`enable_x64=`), never reading JAX's global flag, so
    `mlax.config.update("jax_enable_x64", True)` (or JAX_ENABLE_X64=1) alone
    keeps float64 data float64."""
    if committed is None:
        committed = device is not None
    device = device or default_device()
    return jaxlib_internals.device_put(_buffer_aval(array.shape, array.dtype), array,
                                       _sharding(device), device, bool(config.x64_enabled),
                                       committed)


def to_numpy(buf, dtype) -> np.ndarray:
    """A device buffer (of `dtype`) on the host (read-only: on the CPU it
    may be the buffer's own memory)."""
    return jaxlib_internals.to_numpy(buf, dtype)


@functools.cache
def result_handlers(out_avals: tuple, device, committed: bool = True):
    """What turns an executable's outputs on `device` into buffers whose
    abstract values are mlax's `out_avals` (committed to it or not)."""
    # Buffers are never weakly typed (as those jaxlib makes itself): the weak
    # bit lives in mlax.Array, and jit dispatch's C++ signature has it as the
    # Array's aux data.
    sharding = _sharding(device)
    return [jaxlib_internals.result_handler(
        a if not a.weak_type else a.update(weak_type=False), sharding, committed)
        for a in out_avals]


def copy_to_host_async(buf):
    """Starts the host copy `to_numpy` will need (nothing to do on the CPU,
    whose buffers are viewed in place)."""
    if buffer_device(buf).platform != "cpu":
        with jaxlib_internals.numpy_random_state_kept():
            buf._copy_single_device_array_to_host_async()


def rewrap(buf, aval):
    """`buf` (made by jaxlib without mlax's abstract value, e.g. from DLPack)
    with `aval` and mlax's sharding of its device."""
    return jaxlib_internals.rewrap(buf, aval, _sharding(buffer_device(buf)))


def to_dlpack(buf, stream=None):
    return jaxlib_internals.to_dlpack(buf, stream)


def from_dlpack(capsule, device, stream=None, copy=None, dl_device_type=None):
    return jaxlib_internals.from_dlpack(capsule, device, stream, copy, dl_device_type)


def execute(exe, bufs, handlers):
    return jaxlib_internals.execute(exe, bufs, handlers)


# The latest execution token of a program with host callbacks, per device:
# a device runs its programs in order, so when the latest is ready every
# earlier one is too (JAX keeps its runtime tokens the same way).
_effect_tokens: dict = {}
_effect_lock = threading.Lock()


def execute_effectful(exe, bufs, handlers, device):
    """`execute` for a program with host callbacks: its token is kept for
    `effects_barrier`."""
    outs, token = jaxlib_internals.execute_with_token(exe, bufs, handlers)
    with _effect_lock:
        _effect_tokens[device] = token
    return outs


def effects_barrier():
    """Waits until every program with host callbacks run so far has
    finished, its callbacks included (jax.effects_barrier)."""
    with _effect_lock:
        tokens = list(_effect_tokens.values())
        _effect_tokens.clear()
    for token in tokens:
        token.block_until_ready()


@functools.cache
def _compile_options(device_id: int = 0, overrides: tuple = ()):
    # The device assignment names the device the executable runs on (the
    # default, device 0, would reject buffers on any other device).
    return jaxlib_internals.compile_options(device_id, overrides)


# JAX's effort levels (jax_optimization_level, jax_memory_fitting_level), as
# XLA's ExecutableBuildOptions takes them.
EFFORT_LEVELS = {"UNKNOWN": 0, "O0": 9, "O1": 19, "O2": 29, "O3": 39}


def compile_overrides(compiler_options=None) -> tuple:
    """The options a compile runs with, as hashable (name, value) pairs:
    what JAX's config switches say (jax_exec_time_optimization_effort,
    jax_memory_fitting_effort, jax_optimization_level,
    jax_memory_fitting_level), then `compiler_options` (a jit's or a
    `Lowered.compile`'s dict: XLA's debug options by name, or those four),
    which take precedence, as in JAX."""
    out = {"exec_time_optimization_effort": float(config.jax_exec_time_optimization_effort),
           "memory_fitting_effort": float(config.jax_memory_fitting_effort),
           "optimization_level": EFFORT_LEVELS[config.jax_optimization_level],
           "memory_fitting_level": EFFORT_LEVELS[config.jax_memory_fitting_level]}
    for name, value in (compiler_options or {}).items():
        if not isinstance(name, str):
            raise TypeError(f"compiler_options: option names are strings, got {name!r}")
        if name in ("optimization_level", "memory_fitting_level") and isinstance(value, str):
            value = EFFORT_LEVELS[value]
        if not isinstance(value, (str, bool, int, float)):
            raise TypeError(f"compiler_options: the value of {name!r} must be a str, bool, "
                            f"int or float, got {value!r}")
        out[name] = value
    return tuple(sorted(out.items()))


# Executables by (StableHLO text, device). XLA's output depends on nothing
# else (the compile options are fixed per device), so every jitted function,
# eager op and transformation whose program prints the same shares one
# executable instead of paying XLA again. Least recently used dropped beyond
# `mlax_compile_cache_size`; failed compiles are not kept.
_executables: "collections.OrderedDict" = collections.OrderedDict()
_executables_lock = threading.Lock()


def compile(stablehlo_text: str, device=None, name: str = "main",  # noqa: A001
            compiler_options=None):
    """The executable of `stablehlo_text` for `device`, compiled with
    `compile_overrides(compiler_options)`: from memory, from the persistent
    cache, or compiled by XLA (recorded as monitoring's
    BACKEND_COMPILE_EVENT with fun_name=`name`)."""
    device = device or default_device()
    overrides = compile_overrides(compiler_options)
    key = (stablehlo_text, device, overrides)
    with _executables_lock:
        exe = _executables.get(key)
        if exe is not None:
            _executables.move_to_end(key)
            return exe
    path = _persistent_path(stablehlo_text, device, overrides)  # None: the cache is off
    exe = _persistent_load(path, device) if path else None
    if exe is None:
        start, wall = time.perf_counter(), time.time()
        exe = backend(device.platform).compile_and_load(
            stablehlo_text, jaxlib_internals.device_list((device,)),
            _compile_options(device.id, overrides))
        seconds = time.perf_counter() - start
        monitoring.record_elapsed(monitoring.BACKEND_COMPILE_EVENT, wall, wall + seconds,
                                  fun_name=name)
        if path:
            _persistent_store(path, exe, seconds)
    with _executables_lock:
        exe = _executables.setdefault(key, exe)
        _executables.move_to_end(key)
        limit = config.mlax_compile_cache_size
        while limit and len(_executables) > limit:
            _executables.popitem(last=False)
    return exe


def compile_with_callbacks(stablehlo_text: str, table: list, device=None, name: str = "main",
                           compiler_options=None):
    """Compiles a program that calls the host callables `table` (see
    host_callbacks): never cached by its text, in memory or on disk, since
    another trace may print the same text for other Python functions."""
    from mlax._src.backend import host_callbacks

    device = device or default_device()
    module, callables = host_callbacks.prepare(stablehlo_text, table)
    wall = time.time()
    exe = backend(device.platform).compile_and_load(
        module, executable_devices=jaxlib_internals.device_list((device,)),
        compile_options=_compile_options(device.id, compile_overrides(compiler_options)),
        host_callbacks=callables)
    monitoring.record_elapsed(monitoring.BACKEND_COMPILE_EVENT, wall, time.time(), fun_name=name)
    return exe


# The persistent compilation cache: one file per executable in
# `jax_compilation_cache_dir`, named by a hash of everything XLA's output
# depends on (the program, the device and its platform version, jaxlib's
# version, the compile options). Files are written
# whole and renamed into place, so processes sharing the directory (test
# workers, a script run twice) never read half an entry; an entry that does
# not load is compiled again and replaced. Hits and misses are counted for
# `persistent_cache_stats`.
_persistent_stats = collections.Counter()
_PERSISTENT_MAGIC = b"mlax-xla-1\n"


def _persistent_path(stablehlo_text: str, device, overrides: tuple = ()):
    directory = config.jax_compilation_cache_dir
    if not directory:
        return None
    import jaxlib

    h = hashlib.sha256()
    for part in (getattr(jaxlib, "__version__", ""), device.platform,
                 getattr(device, "device_kind", ""), str(device.id),
                 str(getattr(device.client, "platform_version", "")), repr(overrides),
                 stablehlo_text):
        h.update(part.encode())
        h.update(b"\0")
    return os.path.join(directory, f"mlax-{h.hexdigest()}.xla")


def _persistent_load(path: str, device):
    monitoring.record_event(monitoring.COMPILE_REQUESTS_USE_CACHE)
    try:
        with open(path, "rb") as f:
            blob = f.read()
    except OSError:
        _persistent_stats["misses"] += 1
        monitoring.record_event(monitoring.CACHE_MISSES)
        return None
    try:
        if not blob.startswith(_PERSISTENT_MAGIC):
            raise ValueError("not an mlax cache entry")
        serialized = zlib.decompress(blob[len(_PERSISTENT_MAGIC):])
        exe = load_executable(serialized, device)
    except Exception as e:  # a damaged or foreign entry: compile again
        warnings.warn(f"mlax: ignoring the persistent compilation cache entry {path} "
                      f"({type(e).__name__}: {e}); compiling again", RuntimeWarning,
                      stacklevel=3)
        _persistent_stats["errors"] += 1
        return None
    _persistent_stats["hits"] += 1
    monitoring.record_event(monitoring.CACHE_HITS)
    return exe


def load_executable(serialized: bytes, device):
    """The executable XLA serialized as `serialized`, loaded on `device`."""
    return backend(device.platform).deserialize_executable(
        serialized, jaxlib_internals.device_list((device,)), _compile_options(device.id))


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


def reset_persistent_stats():
    _persistent_stats.clear()


def compile_cache_size() -> int:
    return len(_executables)


def clear_compile_cache():
    with _executables_lock:
        _executables.clear()
        _mesh_executables.clear()


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
    return jaxlib_internals.buffer_device(buf)


def copy_buffer(buf):
    """A fresh copy of `buf` where it lies."""
    return jaxlib_internals.copy_buffer(buf)


def committed_to(buf, device):
    """`buf` committed to `device` (jax.Array.committed): moved there, or
    where it is already, itself if committed, else a committed alias."""
    if buffer_device(buf) != device:
        return to_device(buf, device)
    return buf if buf._committed else jaxlib_internals.committed_alias(buf)


def to_device(buf, device):
    """A buffer on `device` (the same one if it is already there)."""
    if device is None or buffer_device(buf) == device:
        return buf
    return jaxlib_internals.copy_to_device(buf, _sharding(device), device)


# ---------------------------------------------------------------------------
# Arrays over several devices (mlax._src.backend.sharding): one jaxlib array
# of N single-device shards, whose jaxlib sharding (MeshBufferSharding) is
# XLA's HloSharding and carries the mlax NamedSharding as `named`.
# ---------------------------------------------------------------------------

def mesh_buffer_sharding(named, ndim: int):
    # Keyed by the spec as written too: P('data') and P('data', None) are
    # equal shardings, but an array keeps (and reports, as JAX's does) the
    # one it was given, not an equal one cached before.
    return _mesh_buffer_sharding(named, ndim, tuple(named.spec))


@functools.lru_cache(maxsize=4096)
def _mesh_buffer_sharding(named, ndim, _spelling):
    return jaxlib_internals.mesh_buffer_sharding(
        named.mesh._flat_devices, named._to_xla_hlo_sharding(ndim), named)


def sharding_of(buf):
    """The mlax sharding of a buffer: a NamedSharding where it spans a mesh,
    else the SingleDeviceSharding of its device."""
    s = jaxlib_internals.buffer_sharding(buf)
    named = getattr(s, "named", None)
    if named is not None:
        return named
    return _sharding(s._device)


def is_mesh_buffer(buf) -> bool:
    return getattr(jaxlib_internals.buffer_sharding(buf), "named", None) is not None


def device_put_named(array: np.ndarray, named) -> object:
    """A NumPy array (of its final dtype) laid out over a mesh."""
    named.check_shape(array.shape)
    index = named.devices_indices_map(array.shape)
    devices = named.mesh.local_devices  # (in a multi-process run, this process's)
    shards = [np.ascontiguousarray(array[index[d]]) for d in devices]
    return jaxlib_internals.device_put_shards(
        _buffer_aval(array.shape, array.dtype), mesh_buffer_sharding(named, array.ndim),
        shards, devices, bool(config.x64_enabled))


def shards(buf, aval) -> list:
    """[(device, index, replica id, single-device buffer)] of a mesh buffer,
    in its mesh's device order; each buffer has mlax's abstract value."""
    named = sharding_of(buf)
    shape = tuple(aval.shape)
    index = named.devices_indices_map(shape)
    replica = named.replica_ids(shape)
    shard_aval = _buffer_aval(named.shard_shape(shape), aval.dtype)
    out = []
    for piece in jaxlib_internals.shards_of(buf):
        device = jaxlib_internals.buffer_device(piece)
        if device is None and len(index) == 1:
            device, = index  # (a mesh of one device: the piece is the buffer itself)
        out.append((device, index[device], replica[device],
                    jaxlib_internals.rewrap(piece, shard_aval, _sharding(device))))
    return out


def mesh_to_numpy(buf, aval) -> np.ndarray:
    """The value of a mesh buffer, put together on the host."""
    if not sharding_of(buf).is_fully_addressable:
        raise RuntimeError(
            "Fetching value for `mlax.Array` that spans non-addressable (non process local) "
            "devices is not possible. You can use `mlax.experimental.multihost_utils."
            "process_allgather` to print the global array or use `.addressable_shards` "
            "method of mlax.Array to inspect the addressable (process local) shards.")
    out = np.empty(tuple(aval.shape), dtype=aval.dtype)
    for _, index, replica, piece in shards(buf, aval):
        if replica == 0:
            out[index] = to_numpy(piece, aval.dtype)
    return out


def reshard(buf, aval, named):
    """`buf` (on one device or over a mesh) laid out as `named` (through
    the host: a copy of the whole array)."""
    if is_mesh_buffer(buf):
        if sharding_of(buf) == named:
            return buf
        value = mesh_to_numpy(buf, aval)
    else:
        value = to_numpy(buf, aval.dtype)
    return device_put_named(np.asarray(value), named)


def mesh_result_handlers(out_avals: tuple, out_shardings: tuple):
    """Result handlers of a partitioned executable's outputs."""
    return [jaxlib_internals.result_handler(
        a if not a.weak_type else a.update(weak_type=False), mesh_buffer_sharding(s, a.ndim))
        for a, s in zip(out_avals, out_shardings)]


_mesh_executables: "collections.OrderedDict" = collections.OrderedDict()


def compile_spmd(stablehlo_text: str, mesh, propagate_to_outputs: tuple,
                 compiler_options=None):
    """Compiles a program partitioned over `mesh` by XLA's SPMD partitioner
    (its arguments' and results' `mhlo.sharding` say how); shared by
    (text, mesh devices, options), as `compile`."""
    devices = mesh._flat_devices
    overrides = compile_overrides(compiler_options)
    key = (stablehlo_text, devices, tuple(propagate_to_outputs), overrides)
    with _executables_lock:
        exe = _mesh_executables.get(key)
        if exe is not None:
            _mesh_executables.move_to_end(key)
            return exe
    opts = jaxlib_internals.compile_options_spmd([d.id for d in devices],
                                                 propagate_to_outputs, overrides)
    exe = backend(devices[0].platform).compile_and_load(
        stablehlo_text, jaxlib_internals.device_list(devices), opts)
    with _executables_lock:
        exe = _mesh_executables.setdefault(key, exe)
        limit = config.mlax_compile_cache_size
        while limit and len(_mesh_executables) > limit:
            _mesh_executables.popitem(last=False)
    return exe


def single_device_sharding_device(s):
    return jaxlib_internals.single_device_sharding_device(s)


def sharding_device(device):
    """A device, or the device of a SingleDeviceSharding (None stays None)."""
    d = jaxlib_internals.single_device_sharding_device(device)
    return device if d is None else d

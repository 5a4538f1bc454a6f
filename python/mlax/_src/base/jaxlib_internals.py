"""Every use of jaxlib's (and JAX's) private internals, in one module.

mlax runs on jaxlib alone: its PJRT client, device buffers, executables,
C++ jit dispatcher and pytree registry. The `jax` package is imported only
where a PJRT plugin (GPU, TPU) needs JAX's backend registry, and read (never
imported) where the user imported it, for the x64 switch its C++ dispatcher
then follows. Where jaxlib's C++ expects Python methods that JAX would add
to its classes, this module defines them (SingleDeviceSharding) or passes
mlax's own objects (abstract values, result handlers).

Part of this is private API that holds together only at the exact
jaxlib version mlax pins. Importing this module checks that version and fails
with a clear error otherwise, instead of an AttributeError deep in a call.
Nothing else in mlax may import `jaxlib._jax` or `jax._src`
(test/py/test_import_layers.py checks that).
"""
from __future__ import annotations

import contextlib
import functools
import os
import threading
import warnings

# XLA's C++ logs at INFO unless told otherwise before jaxlib loads. mlax
# shows errors only (JAX shows warnings too: TF_CPP_MIN_LOG_LEVEL=1), since
# XLA warns on every partitioned compile that mlax's partitioner (GSPMD) is
# to be deprecated, which users cannot act on.
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import jaxlib  # noqa: E402

from mlax._src.base import config as config_lib  # noqa: E402
from mlax._src.base.config import config, register_update_hook, register_validator  # noqa: E402

SUPPORTED_JAXLIB = "0.10.2"  # as pinned in pyproject.toml (jax and jaxlib)

# Names a jaxlib version other than the pinned one that mlax may run on (at
# the user's risk, with a warning); e.g. the version a GPU machine has.
ALLOW_VERSION_ENV = "MLAX_ALLOW_JAXLIB_VERSION"


def check_version(found: str, allowed: str | None = None) -> bool:
    """True for the pinned jaxlib. Any other version is an ImportError unless
    `allowed` ($MLAX_ALLOW_JAXLIB_VERSION by default) names exactly it: then
    mlax warns and returns False, and each private entry point below is used
    only where it still fits (the C++ jit dispatch falls back to the Python
    path otherwise)."""
    if found == SUPPORTED_JAXLIB:
        return True
    if allowed is None:
        allowed = os.environ.get(ALLOW_VERSION_ENV, "")
    if allowed and allowed.strip() == found:
        warnings.warn(
            f"mlax: running on jaxlib {found}, not the pinned {SUPPORTED_JAXLIB}, because "
            f"{ALLOW_VERSION_ENV}={allowed}; the jaxlib internals mlax uses are untested "
            f"there (jit dispatch falls back to Python where they differ)",
            RuntimeWarning, stacklevel=2)
        return False
    raise ImportError(
        f"mlax needs jaxlib=={SUPPORTED_JAXLIB} (it uses jaxlib internals that change "
        f"between releases: its C++ jit dispatch, pytree registry and device_put), but "
        f"jaxlib {found} is installed; install jax=={SUPPORTED_JAXLIB} "
        f"jaxlib=={SUPPORTED_JAXLIB} (or set {ALLOW_VERSION_ENV}={found} to try it anyway)")


PINNED = check_version(getattr(jaxlib, "__version__", "unknown"))

from jaxlib import _jax  # noqa: E402

# Pytrees: jaxlib's C++ registry, the one JAX uses (base.tree). Nothing
# works without it, on any version.
pytree = _jax.pytree

# Cached jit dispatch on jaxlib's C++ PjitFunction (jit.dispatch); None where
# an allowed other jaxlib lacks them (every call then takes the Python path).
PjitFunctionCache = getattr(_jax, "PjitFunctionCache", None)
pjit = getattr(_jax, "pjit", None)

# The error PJRT raises when a compiled program fails at run time (what JAX
# re-exports as jax.errors.JaxRuntimeError).
JaxRuntimeError = getattr(_jax, "JaxRuntimeError", RuntimeError)

# Part of the C++ jit signature (a jaxlib config in the jit key, thread-local):
# nonzero while this thread traces (core.tracing), so a jitted call inside a
# trace never hits a fast path recorded outside one and always comes back to
# Python (which inlines it into the trace as mlax.call).


class _NoTracingFlag:
    """Stands for the flag where jaxlib cannot make it (C++ dispatch is then
    off, so nothing reads it)."""

    def swap_local(self, value):
        return 0


try:
    tracing_flag = _jax.config.Config("mlax_tracing", 0, include_in_jit_key=True)
except (AttributeError, TypeError):
    tracing_flag = _NoTracingFlag()
    pjit = None
else:
    # The options a cached call depends on, in the same key (config's
    # thread-scoped context managers set them).
    config_lib.attach_jit_key_states(
        lambda name, value: _jax.config.Config(name, value, include_in_jit_key=True))


def cpp_dispatch_available() -> bool:
    """Whether jit calls can go through jaxlib's C++ dispatcher."""
    return pjit is not None and PjitFunctionCache is not None


# ---------------------------------------------------------------------------
# PJRT clients. mlax makes the CPU client itself, through jaxlib, so a process
# that never imports the `jax` package can run mlax. GPU and TPU clients come
# from PJRT plugins (jax-cuda*-plugin, libtpu), which register themselves
# through jax's backend registry: where one is installed, or $JAX_PLATFORMS
# names a platform other than the CPU, mlax takes every client from that
# registry instead (as it did before), so its devices are JAX's.
# ---------------------------------------------------------------------------

def plugins_installed() -> bool:
    """Whether a PJRT plugin (or $JAX_PLATFORMS) asks for JAX's backend registry."""
    import importlib.metadata
    import importlib.util

    platforms = os.environ.get("JAX_PLATFORMS", "").strip().lower()
    if platforms and platforms != "cpu":
        return True
    if importlib.util.find_spec("jax_plugins") is not None \
            or importlib.util.find_spec("libtpu") is not None:
        return True
    try:
        return bool(importlib.metadata.entry_points(group="jax_plugins"))
    except Exception:  # a broken distribution's metadata: no plugin found
        return False


@functools.cache
def use_jax_backends() -> bool:
    return plugins_installed()


@functools.cache
def register_lapack_kernels():
    """Registers jaxlib's LAPACK FFI kernels (`lapack_sgetrf_ffi`, ...), which
    the CPU lowering of mlax's linear algebra calls, with XLA's CPU platform:
    what `import jax` does (jax._src.lax.linalg), done here so that a process
    that never imports `jax` can solve, factor and decompose. Registering a
    kernel again (jax imported too) is harmless."""
    from jaxlib import lapack, xla_client

    for platform, targets in lapack.registrations().items():
        for name, value, api_version in targets:
            xla_client.register_custom_call_target(name, value, platform, api_version)


_cpu_client = None
_cpu_client_lock = threading.Lock()


def _check_num_cpu_devices(value):
    if _cpu_client is not None and value != config.jax_num_cpu_devices:
        raise RuntimeError("jax_num_cpu_devices config should be updated before backends "
                           "are initialized.")


register_validator("jax_num_cpu_devices", _check_num_cpu_devices)


# A multi-process run (mlax.distributed.initialize): jaxlib's distributed
# runtime (a coordination service in process 0, a client in each) and gloo's
# TCP collectives, which the CPU client is then made with, so that the
# devices of every process form one set.
_distributed = {}


def distributed_initialize(coordinator_address: str, num_processes: int, process_id: int,
                           initialization_timeout: int = 300, local_device_count=None):
    if _cpu_client is not None:
        raise RuntimeError("mlax.distributed.initialize() must be called before any mlax "
                           "computation (the CPU backend already exists)")
    if _distributed:
        raise RuntimeError("mlax.distributed.initialize should only be called once.")
    service = None
    if process_id == 0:
        port = coordinator_address.rsplit(":", 1)[-1]
        service = _jax.get_distributed_runtime_service(f"[::]:{port}", num_processes)
    client = _jax.get_distributed_runtime_client(
        coordinator_address, process_id, init_timeout=initialization_timeout,
        shutdown_on_destruction=False)
    client.connect()
    _distributed.update(service=service, client=client, process_id=process_id,
                        num_processes=num_processes, local_device_count=local_device_count)


def distributed_shutdown():
    client, service = _distributed.get("client"), _distributed.get("service")
    if client is not None:
        client.shutdown()
    if service is not None:
        service.shutdown()
    _distributed.clear()


def distributed_state() -> dict:
    return dict(_distributed)


def cpu_client_made() -> bool:
    return _cpu_client is not None


def cpu_client():
    """jaxlib's CPU client (asynchronous dispatch, as JAX makes it), with
    the LAPACK kernels registered: one per process, however many threads
    ask for it first (a buffer of one client is refused by another's
    executables)."""
    global _cpu_client
    with _cpu_client_lock:
        if _cpu_client is None:
            from jaxlib import xla_client

            register_lapack_kernels()
            n = config.jax_num_cpu_devices
            kwargs = {}
            if _distributed:
                client = _distributed["client"]
                kwargs = dict(distributed_client=client, node_id=_distributed["process_id"],
                              num_nodes=_distributed["num_processes"],
                              collectives=_jax.make_gloo_tcp_collectives(
                                  distributed_client=client))
            _cpu_client = xla_client.make_cpu_client(
                asynchronous=True, num_devices=None if n is None or n < 0 else n, **kwargs)
        return _cpu_client


def get_backend(platform: str | None):
    """The PJRT client of `platform` (None: the default one)."""
    if use_jax_backends():
        import_jax()
        import jax.extend.backend as jeb

        return jeb.get_backend(platform)
    if platform is not None and platform.lower() not in ("cpu", "host"):
        raise RuntimeError(f"Unknown backend {platform!r}: no PJRT plugin for it is "
                           "installed (available: cpu)")
    return cpu_client()


_REPLICATED = None


def _replicated():
    global _REPLICATED
    if _REPLICATED is None:
        from jaxlib import xla_client

        _REPLICATED = xla_client.HloSharding.replicate()
    return _REPLICATED


class _SingleDeviceShardingMethods:
    """The Python half jaxlib's C++ `SingleDeviceSharding` calls into, and
    jax.sharding.Sharding's methods for one device. JAX adds the same methods
    to the C++ class itself when it is imported (its `use_cpp_class`); mlax
    does the same (`_install_single_device_methods`) so that it needs no JAX,
    and so that mlax's shardings are of jaxlib's exact class: the C++ jit
    dispatcher hashes and compares a sharding of that exact class in C++, and
    calls Python `__hash__` for every argument of any other class (a subclass
    cost about 0.3 us per argument leaf of every cached call)."""

    memory_kind = property(lambda self: self._memory_kind)
    device_set = property(lambda self: {self._device})
    _device_assignment = property(lambda self: (self._device,))
    is_fully_replicated = True
    is_fully_addressable = True
    num_devices = 1

    def _to_xla_hlo_sharding(self, num_dimensions):
        return _replicated()

    def __eq__(self, other):
        return (isinstance(other, _jax.SingleDeviceSharding)
                and other._device == self._device and other._memory_kind == self._memory_kind)

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash((self._device, self._memory_kind))

    def __repr__(self):
        return f"SingleDeviceSharding(device={self._device!r}, memory_kind={self._memory_kind})"

    # jax.sharding.Sharding's methods, for one device.
    device = property(lambda self: self._device)
    addressable_devices = device_set

    def shard_shape(self, global_shape):
        return tuple(global_shape)

    def devices_indices_map(self, global_shape):
        return {self._device: (slice(None),) * len(global_shape)}

    addressable_devices_indices_map = devices_indices_map

    def replica_ids(self, global_shape):
        return {self._device: 0}

    def is_equivalent_to(self, other, ndim):
        return getattr(other, "is_fully_replicated", False) and other.device_set == self.device_set


def _install_single_device_methods(cls):
    """Adds each method of _SingleDeviceShardingMethods that `cls` (jaxlib's
    class) does not define itself. Where JAX was imported first its methods
    stay (they mean the same); where JAX is imported later it replaces these
    with its own."""
    for name, value in vars(_SingleDeviceShardingMethods).items():
        if name.startswith("__") and name not in ("__eq__", "__ne__", "__hash__", "__repr__"):
            continue
        if name not in vars(cls):
            setattr(cls, name, value)
    if "__eq__" in vars(cls) and "__hash__" not in vars(cls):
        # (a class that defines __eq__ alone would be unhashable)
        cls.__hash__ = _SingleDeviceShardingMethods.__hash__
    return cls


SingleDeviceSharding = _install_single_device_methods(_jax.SingleDeviceSharding)


class MeshBufferSharding(_jax.GSPMDSharding):
    """The sharding jaxlib keeps with an array over several devices: XLA's
    HloSharding over a device list, plus `named`, the mlax sharding it lays
    out (a NamedSharding). jaxlib's C++ reads the Python attributes below
    (JAX adds the same to its GSPMDSharding)."""

    memory_kind = property(lambda self: self._memory_kind)
    _device_assignment = property(lambda self: tuple(self._devices))
    device_set = property(lambda self: set(self._devices))

    @property
    def is_fully_addressable(self):
        return self.named.is_fully_addressable

    def _to_xla_hlo_sharding(self, num_dimensions):
        return self._hlo_sharding

    @property
    def is_fully_replicated(self):
        return self._hlo_sharding.is_replicated()


def mesh_buffer_sharding(devices, hlo_sharding, named):
    sharding = MeshBufferSharding(tuple(devices), hlo_sharding)
    sharding.named = named
    return sharding


def single_device_sharding_device(x):
    """The device of `x` when it is a single-device sharding (mlax's or
    JAX's: both are jaxlib's class), else None."""
    return x._device if isinstance(x, _jax.SingleDeviceSharding) else None


def device_list(devices):
    return _jax.DeviceList(tuple(devices))


def compile_options_spmd(device_ids, propagate_to_outputs, overrides=()):
    """XLA's compile options for one program partitioned over `device_ids`
    (in the mesh's order: a sharding's logical device i is device_ids[i]),
    with XLA choosing the shardings of the outputs marked True in
    `propagate_to_outputs` (as jax.jit with unspecified out_shardings);
    `overrides` as compile_options'."""
    import numpy as np
    from jaxlib import xla_client

    opts = xla_client.CompileOptions()
    opts.num_replicas = 1
    opts.num_partitions = len(device_ids)
    build = opts.executable_build_options
    build.use_spmd_partitioning = True
    build.allow_spmd_sharding_propagation_to_output = list(propagate_to_outputs)
    opts.device_assignment = xla_client.DeviceAssignment.create(
        np.array([list(device_ids)]))
    return set_overrides(opts, overrides)


# The options that are fields of XLA's ExecutableBuildOptions; every other
# name is one of XLA's debug options, handed over as an override (as JAX's
# compiler.get_compile_options sorts them).
BUILD_OPTION_NAMES = ("exec_time_optimization_effort", "memory_fitting_effort",
                      "optimization_level", "memory_fitting_level")


def set_overrides(opts, overrides):
    """`opts` with the (name, value) pairs of `overrides` set: the build
    options' fields directly, the rest as XLA's environment overrides."""
    build = opts.executable_build_options
    env = []
    for name, value in overrides:
        if name in BUILD_OPTION_NAMES:
            setattr(build, name, value)
        else:
            env.append((name, value))
    if env:
        opts.env_option_overrides = env
    return opts


def device_put_shards(aval, sharding, shards, devices, enable_x64: bool):
    """One array of `aval` laid out by `sharding` over `devices`, from its
    host pieces (shards[i] goes to devices[i])."""
    return _jax.batched_device_put(aval, sharding, list(shards), list(devices), True, False,
                                   _jax.HostBufferSemantics.ZERO_COPY, enable_x64)


def assemble(aval, sharding, bufs):
    """One array over several devices from its single-device buffers."""
    return _jax.ArrayImpl(aval, sharding, list(bufs), True, True)


def shards_of(buf):
    """The single-device buffers of an array over several devices, in its
    sharding's device order. jaxlib builds them with abstract values of
    `jax.core`, so this imports the `jax` package (NumPy's global random
    state is kept): jaxlib has no other way to split a multi-device array."""
    try:
        with numpy_random_state_kept():
            return buf._arrays
    except ImportError as e:
        raise ImportError(
            "mlax: reading the shards of an array laid out over several devices needs the "
            "`jax` package (jaxlib builds the shards' abstract values with jax.core); "
            f"install jax=={SUPPORTED_JAXLIB}") from e


def compile_options(device_id: int, overrides=()):
    """XLA's compile options for one replica, one partition on device
    `device_id` (as JAX's get_compile_options gives them), with the
    (name, value) pairs of `overrides` set (set_overrides)."""
    import numpy as np
    from jaxlib import xla_client

    opts = xla_client.CompileOptions()
    opts.num_replicas = 1
    opts.num_partitions = 1
    build = opts.executable_build_options
    build.use_spmd_partitioning = True
    opts.device_assignment = xla_client.DeviceAssignment.create(np.array([[device_id]]))
    return set_overrides(opts, overrides)


def device_put(aval, array, sharding, device, enable_x64: bool, committed: bool = True):
    """One host array (of `aval`'s shape and dtype) onto `device`, with
    `aval` as the buffer's abstract value (committed to the device or not:
    jax.Array.committed)."""
    return _jax.batched_device_put(aval, sharding, [array], [device], committed, False,
                                   _jax.HostBufferSemantics.ZERO_COPY, enable_x64)


def committed_alias(buf):
    """A single-device buffer committed to its device, sharing `buf`'s
    memory (JAX's device_put of an uncommitted array onto its own device)."""
    return _jax.ArrayImpl(buf.aval, buf._sharding, [buf], True, True)


def copy_buffer(buf):
    """A fresh copy of a device buffer, laid out as it is (its own memory:
    deleting or donating one leaves the other)."""
    sharding = buf._sharding
    return _jax.batched_copy_array_to_devices_with_sharding(
        [buf], [sharding._internal_device_list], [sharding],
        [_jax.ArrayCopySemantics.ALWAYS_COPY])[0]


def copy_to_device(buf, sharding, device):
    """A device buffer copied onto another device."""
    return _jax.batched_copy_array_to_devices_with_sharding(
        [buf], [device_list((device,))], [sharding],
        [_jax.ArrayCopySemantics.ALWAYS_COPY])[0]


def result_handler(aval, sharding, committed: bool = True):
    """What turns an executable's output on one device into a buffer whose
    abstract value is `aval` (mlax's, so jaxlib never builds one of JAX's),
    committed to the device or not."""
    return _jax.array_result_handler(aval, sharding, committed, True)


# Transfer guards: jaxlib checks them itself wherever it moves data (its
# device_put, the C++ jit path's argument transfers, host copies of device
# buffers and device-to-device copies), reading a process-wide level per
# direction and a thread-local one that overrides it, plus two thread-local
# flags that say a transfer was asked for explicitly (mlax.device_put,
# mlax.device_get). JAX sets the same state: the guards are the process's.
_guard_lib = _jax.guard_lib


def _guard_level(value):
    return None if value is None else getattr(_guard_lib.TransferGuardLevel, value.upper())


def set_transfer_guard(direction: str, value, thread_local: bool) -> None:
    """Sets the guard of `direction` ('host_to_device', ...) to `value`
    (a level name, or None: unset) globally or for this thread."""
    state = _guard_lib.thread_local_state() if thread_local else _guard_lib.global_state()
    setattr(state, direction, _guard_level(value))


def transfer_guard_level(direction: str, thread_local: bool):
    """The level name the guard of `direction` has globally or for this
    thread (None: unset)."""
    state = _guard_lib.thread_local_state() if thread_local else _guard_lib.global_state()
    level = getattr(state, direction)
    return None if level is None else level.name.lower()


@contextlib.contextmanager
def explicit_transfer(kind: str):
    """Marks the transfers of the block as asked for by the user: `kind`
    'put' (to a device) or 'get' (to the host); the '*_explicit' levels
    let those through."""
    state = _guard_lib.thread_local_state()
    attr = "explicit_device_put" if kind == "put" else "explicit_device_get"
    previous = getattr(state, attr)
    setattr(state, attr, True)
    try:
        yield
    finally:
        setattr(state, attr, previous)


for _direction in ("host_to_device", "device_to_device", "device_to_host"):
    register_update_hook(f"jax_transfer_guard_{_direction}",
                         functools.partial(set_transfer_guard, _direction, thread_local=False))


def execute(exe, bufs, handlers):
    try:
        results = exe.execute_sharded(bufs)
    except JaxRuntimeError:
        _raise_if_deleted(bufs)
        raise
    return results.consume_with_handlers(handlers)


def execute_with_token(exe, bufs, handlers):
    """`execute`, plus the execution's token: ready when the program, host
    callbacks included, has finished (JAX's runtime token of a program with
    effects)."""
    try:
        results = exe.execute_sharded(bufs, with_tokens=True)
    except JaxRuntimeError:
        _raise_if_deleted(bufs)
        raise
    token = results.consume_token()
    return results.consume_with_handlers(handlers), token


def _raise_if_deleted(bufs):
    """JAX's RuntimeError for a deleted (or donated) argument, in place of
    the shard-count error PJRT gives for it."""
    for buf in bufs:
        if buf.is_deleted():
            shape = ",".join(map(str, buf.shape))
            raise RuntimeError(f"Array has been deleted with shape={buf.dtype.name}[{shape}].")


class _Capsule:
    """A DLPack capsule as the producer np.from_dlpack expects."""

    __slots__ = ("capsule",)

    def __init__(self, capsule):
        self.capsule = capsule

    def __dlpack__(self, stream=None, **kwargs):
        return self.capsule

    def __dlpack_device__(self):
        return (1, 0)  # kDLCPU


# The element types NumPy's DLPack import knows (NumPy's own: ml_dtypes'
# float8_e5m2 says kind "f" too, but DLPack has no such type).
_NUMPY_DLPACK_KINDS = frozenset("biufc")


def to_numpy(buf, dtype):
    """A device buffer's value as a read-only NumPy array.

    On the CPU, for the dtypes NumPy's DLPack import knows, the array views
    the buffer through DLPack (no copy). Elsewhere jaxlib copies it to the
    host; that path makes jaxlib import the `jax` package where it is
    installed (to give the host shard an abstract value), which draws from
    NumPy's global random generator: the user's generator state is put back."""
    if buf._sharding._device.platform == "cpu" and dtype.kind in _NUMPY_DLPACK_KINDS \
            and dtype.isbuiltin == 1 and dtype.itemsize in (1, 2, 4, 8, 16):
        import numpy as np

        buf.block_until_ready()
        return np.from_dlpack(_Capsule(_jax.buffer_to_dlpack_managed_tensor(buf)))
    with numpy_random_state_kept():
        return buf._single_device_array_to_np_array_did_copy()[0]


@contextlib.contextmanager
def numpy_random_state_kept():
    """Puts NumPy's global random state back after a jaxlib call that may
    import the `jax` package (jaxlib does, where it is installed, to give a
    buffer it makes itself one of JAX's abstract values; importing jax draws
    from NumPy's global generator)."""
    import numpy as np

    state = np.random.get_state()
    try:
        yield
    finally:
        np.random.set_state(state)


def rewrap(buf, aval, sharding):
    return buf._rewrap_with_aval_and_sharding(aval, sharding)


def buffer_sharding(buf):
    return buf._sharding


def buffer_device(buf):
    """The device of a single-device buffer (None for one over several)."""
    return getattr(buf._sharding, "_device", None)


def to_dlpack(buf, stream=None):
    return _jax.buffer_to_dlpack_managed_tensor(buf, stream=stream)


def from_dlpack(capsule, device, stream=None, copy=None, dl_device_type=None):
    with numpy_random_state_kept():
        return _jax.dlpack_managed_tensor_to_buffer(capsule, device, stream, copy,
                                                    dl_device_type)


class MeshExecutableFastpathData(tuple):
    """What jaxlib's C++ jit dispatcher runs on a cache hit: the fields of
    JAX's MeshExecutableFastpathData, read by name."""

    __slots__ = ()
    _fields = ("xla_executable", "out_pytree_def", "in_shardings", "out_shardings",
               "out_avals", "out_committed", "kept_var_bitvec",
               "in_device_local_layouts", "const_args")

    def __new__(cls, *args):
        return tuple.__new__(cls, args)


for _i, _name in enumerate(MeshExecutableFastpathData._fields):
    setattr(MeshExecutableFastpathData, _name, property(lambda self, _i=_i: self[_i]))


def mesh_executable_fastpath_data(*args):
    return MeshExecutableFastpathData(*args)


# The switches jaxlib's C++ jit dispatcher reads on every call (x64, which
# also decides how it puts NumPy arguments on a device; disable_jit; a post
# hook). JAX registers its own when it is imported; until then (or in a
# process without JAX) mlax registers these, and keeps the x64 one equal to
# its own switch (dispatch reads it back before trusting the fast path).
def _register_jit_states():
    import sys

    if sys.modules.get("jax") is not None or not hasattr(_jax, "jax_jit"):
        return None
    try:
        x64 = _jax.config.Config("mlax_enable_x64", False, include_in_jit_key=True)
        _jax.jax_jit.set_enable_x64_state(x64)
        _jax.jax_jit.set_disable_jit_state(_jax.config.Config("mlax_disable_jit", False))
        _jax.jax_jit.set_post_hook_state(_jax.config.Config("mlax_post_hook", None))
    except (AttributeError, TypeError):
        return None
    return x64


_mlax_x64_state = _register_jit_states()


def _jax_imported() -> bool:
    import sys

    return sys.modules.get("jax") is not None and "jax._src.config" in sys.modules


def jax_x64_enabled(want: bool | None = None) -> bool | None:
    """The x64 switch jaxlib's C++ dispatcher reads: JAX's where JAX is
    imported, else mlax's own registration (set to `want` first, when given).
    None where neither exists."""
    if _jax_imported():
        return bool(_jax_private()[0].enable_x64.value)
    if _mlax_x64_state is None:
        return None
    if want is not None and bool(_mlax_x64_state.value) != want:
        # This thread's value: mlax's x64 switch may be scoped to a thread.
        _mlax_x64_state.set_local(bool(want))
    return bool(_mlax_x64_state.value)


@functools.cache
def import_jax():
    """Imports the `jax` package, leaving NumPy's global random state as the
    user set it (importing jax draws from it). Only where JAX's backend
    registry is needed (PJRT plugins); mlax itself never needs jax."""
    import numpy as np

    state = np.random.get_state()
    try:
        import jax
    finally:
        np.random.set_state(state)
    return jax


@functools.cache
def _jax_private():
    import_jax()
    from jax._src import config as jax_config

    return (jax_config,)



@functools.cache
def _stablehlo_context():
    from jaxlib.mlir import ir
    from jaxlib.mlir._mlir_libs import _jax_mlir_ext
    from jaxlib.mlir.dialects import chlo, stablehlo

    registry = ir.DialectRegistry()
    _jax_mlir_ext.register_dialects(registry)
    ctx = ir.Context()
    ctx.append_dialect_registry(registry)
    ctx.load_all_available_dialects()
    stablehlo.register_dialect(ctx)
    chlo.register_dialect(ctx)
    return ctx


def jaxlib_ir():
    """jaxlib's own MLIR Python bindings (`jaxlib.mlir.ir`)."""
    from jaxlib.mlir import ir

    return ir


def parse_stablehlo(text: str):
    """`text` parsed by jaxlib's MLIR (StableHLO registered) into a module
    that `compile_and_load` takes with `host_callbacks` (its text overload
    takes none). Use it inside `with module.context`."""
    ir = jaxlib_ir()
    with _stablehlo_context():
        return ir.Module.parse(text)


def profiler():
    """jaxlib's profiler bindings (TraceMe, ProfilerSession, ProfileOptions,
    the profiler server), which jax.profiler wraps too."""
    from jaxlib import _profiler

    return _profiler


def profile_data():
    """jaxlib's reader of collected profiles (ProfileData and its planes,
    lines and events)."""
    from jaxlib import _profile_data

    return _profile_data

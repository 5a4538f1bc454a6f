"""Global configuration (`mlax.config.update`), named as in JAX."""
from __future__ import annotations

import contextlib
import functools
import os
import threading
import weakref


def _env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in ("1", "true", "yes", "on")


# Hooks of the layers above, registered when they are imported: checks of
# an option's value (the pass pipeline checks mlax_extra_passes) and what
# must run when a check only Python applies is turned on for the process
# (jit drops its C++ fast paths; programs stay, keyed by the options they
# depend on: Config.trace_context).
_validators: dict = {}
_fast_path_clearers: list = []


def register_validator(name: str, check) -> None:
    _validators[name] = check


def register_fast_path_clearer(clear) -> None:
    _fast_path_clearers.append(clear)


_update_hooks: dict = {}


def register_update_hook(name: str, hook) -> None:
    """`hook(value)` runs after option `name` is set (jaxlib_internals hands
    the transfer guards to jaxlib's guard state this way)."""
    _update_hooks[name] = hook


# The transfer guard levels (JAX's jax_transfer_guard* values) and the
# directions a guard covers.
TRANSFER_GUARD_LEVELS = ("allow", "log", "disallow", "log_explicit", "disallow_explicit")
TRANSFER_DIRECTIONS = ("host_to_device", "device_to_device", "device_to_host")
_TRANSFER_GUARD_OPTIONS = ("jax_transfer_guard",) + tuple(
    f"jax_transfer_guard_{d}" for d in TRANSFER_DIRECTIONS)


def check_transfer_guard_level(value) -> None:
    if value is not None and (type(value) is not str or value not in TRANSFER_GUARD_LEVELS):
        raise ValueError(f"new enum value must be None or in {list(TRANSFER_GUARD_LEVELS)}, "
                         f"got {value} of type {type(value)}.")


# JAX's PRNG implementations (jax_default_prng_impl's values), and the
# ones mlax.random has.
PRNG_IMPLS = ("threefry2x32", "threefry4x32", "rbg", "unsafe_rbg", "philox2x32",
              "philox4x32")
# jax_default_matmul_precision's values, in JAX's order: the Precision names,
# then the DotAlgorithmPreset names.
MATMUL_PRECISIONS = (
    "default", "high", "highest", "bfloat16", "tensorfloat32", "float32",
    "ANY_F8_ANY_F8_F32", "ANY_F8_ANY_F8_F32_FAST_ACCUM", "ANY_F8_ANY_F8_ANY",
    "ANY_F8_ANY_F8_ANY_FAST_ACCUM", "F16_F16_F16", "F16_F16_F32", "BF16_BF16_BF16",
    "BF16_BF16_F32", "BF16_BF16_F32_X3", "BF16_BF16_F32_X6", "BF16_BF16_F32_X9",
    "TF32_TF32_F32", "TF32_TF32_F32_X3", "F32_F32_F32", "F64_F64_F64")


# The checks only Python applies (NaN/inf checks, key-reuse checks, the
# no_execution guard): while one is on, every call comes back to Python
# (python_dispatch_only).
PYTHON_DISPATCH_OPTIONS = frozenset(
    ("jax_debug_nans", "jax_debug_infs", "jax_no_execution", "jax_debug_key_reuse"))

# The options that traced or compiled programs depend on: jit's caches are
# keyed by their values (Config.trace_context).
TRACE_CONTEXT_OPTIONS = (
    "jax_enable_x64", "jax_disable_jit", "jax_default_device", "jax_check_tracer_leaks",
    "jax_allow_f16_reductions", "jax_legacy_prng_key", "jax_enable_custom_prng",
    "jax_softmax_custom_jvp", "jax_threefry_partitionable", "jax_numpy_rank_promotion",
    "jax_numpy_dtype_promotion", "jax_default_matmul_precision", "jax_default_prng_impl",
    "mlax_extra_passes", "mlax_dump_dir", "mlax_pass_timing", "mlax_debug_passes",
    "jax_exec_time_optimization_effort", "jax_memory_fitting_effort", "jax_optimization_level",
    "jax_memory_fitting_level")


# The process-wide values (what update() sets; every new thread starts from
# them), and each live thread's Config state: its attribute dict and the
# options a context manager overrides there (name -> value). A thread reads
# its own dict, so an override stays in its thread, as JAX's context managers'
# do, and update() writes every thread's dict but where an override holds.
_global_values: dict = {}
_threads: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
_lock = threading.RLock()


class Config(threading.local):
    def __init__(self):
        with _lock:
            if _global_values:
                self.__dict__.update(_global_values)
            else:
                self._defaults()
                _global_values.update(self.__dict__)
            self.__dict__["_overrides"] = {}
            _threads[threading.current_thread()] = self.__dict__

    def _defaults(self):
        # JAX's name for the switch, in the environment and in update().
        self.jax_enable_x64 = _env_bool("JAX_ENABLE_X64", False)
        # jit runs the Python function itself (mlax.disable_jit scopes it).
        self.jax_disable_jit = _env_bool("JAX_DISABLE_JIT", False)
        # Where uncommitted work runs: None (the default backend's first
        # device), a platform name ('cpu', 'gpu') or a device.
        self.jax_default_device = None
        # The number of CPU devices (JAX's option; -1: XLA's default, one,
        # or what --xla_force_host_platform_device_count in $XLA_FLAGS says).
        # Read when the CPU client is made, so it must be set before.
        self.jax_num_cpu_devices = int(os.environ.get("JAX_NUM_CPU_DEVICES", "-1") or -1)
        self.mlax_log_compiles = _env_bool("MLAX_LOG_COMPILES", False)
        # Log why each retrace happened (JAX: jax_explain_cache_misses).
        self.mlax_explain_cache_misses = _env_bool("MLAX_EXPLAIN_CACHE_MISSES", False)
        # The compiler researcher's workbench (python/mlax/_src/backend/compiler.py).
        # Pass entries run after mlax-simplify-pipeline in every jit.
        self.mlax_extra_passes = ()
        # Dump the IR at every stage of every compile into this directory.
        self.mlax_dump_dir = os.environ.get("MLAX_DUMP_DIR") or None
        # Print the wall time of every pass to stderr.
        self.mlax_pass_timing = _env_bool("MLAX_PASS_TIMING", False)
        # Verify after every pass; errors name the pass that broke the IR.
        self.mlax_debug_passes = _env_bool("MLAX_DEBUG_PASSES", False)
        # Compiled signatures kept per jitted function (the oldest compiled
        # are dropped beyond it); None or 0: unbounded.
        self.mlax_jit_cache_size = int(os.environ.get("MLAX_JIT_CACHE_SIZE", "4096") or 0)
        # Programs kept for ops run eagerly, one per (op, parameters); the
        # least recently used are dropped beyond it. None or 0: unbounded.
        self.mlax_eager_cache_size = int(os.environ.get("MLAX_EAGER_CACHE_SIZE", "4096") or 0)
        # Executables shared by every program that prints the same StableHLO
        # for the same device, least recently used dropped beyond it.
        self.mlax_compile_cache_size = int(os.environ.get("MLAX_COMPILE_CACHE_SIZE", "1024") or 0)
        # The persistent compilation cache (JAX's names): XLA executables
        # kept on disk in this directory, shared by every process that
        # points at it; None: off (as in JAX). Compiles faster than the
        # threshold are not written (JAX's default: 1 s).
        self.jax_compilation_cache_dir = os.environ.get("MLAX_COMPILATION_CACHE_DIR") or None
        self.jax_persistent_cache_min_compile_time_secs = float(
            os.environ.get("MLAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS", "1.0"))
        # The PRNG implementation of keys made without impl= and of raw
        # keys (JAX's option; mlax.random has the first three).
        self.jax_default_prng_impl = os.environ.get("JAX_DEFAULT_PRNG_IMPL", "threefry2x32")
        # Check every executed program's float outputs for NaNs / infinities
        # and raise FloatingPointError naming the op (JAX's debug switches;
        # see mlax._src.jit.debug_checks).
        self.jax_debug_nans = _env_bool("JAX_DEBUG_NANS", False)
        self.jax_debug_infs = _env_bool("JAX_DEBUG_INFS", False)
        # Raise KeyReuseError where a typed PRNG key is used twice (JAX's
        # switch; see mlax._src.core.key_reuse).
        self.jax_debug_key_reuse = _env_bool("JAX_DEBUG_KEY_REUSE", False)
        # Guards (JAX's): tracing any function, or running any compiled
        # program, raises RuntimeError while on.
        self.jax_no_tracing = False
        # The precision of dot_general/conv calls that give none (JAX's
        # option): None, a lax.Precision name or a DotAlgorithmPreset name.
        self.jax_default_matmul_precision = os.environ.get("JAX_DEFAULT_MATMUL_PRECISION")
        self.jax_no_execution = False
        # After each trace, raise if a tracer of it is still referenced
        # (stored in a global, a closure, an object): JAX's leak checker.
        self.jax_check_tracer_leaks = False
        # JAX's switches of smaller features: lax.reduce_sum refuses 16-bit
        # floats when allow_f16_reductions is off; raw uint32 keys passed to
        # mlax.random are allowed, warned about or refused (legacy_prng_key);
        # enable_custom_prng makes PRNGKey/split/fold_in return typed keys;
        # softmax_custom_jvp gives nn.softmax its custom_jvp rule.
        self.jax_allow_f16_reductions = True
        self.jax_legacy_prng_key = "allow"
        self.jax_enable_custom_prng = False
        self.jax_softmax_custom_jvp = False
        # How threefry makes bits and splits keys: JAX's default since 0.5
        # (True), or its earlier scheme (False), whose numbers differ.
        self.jax_threefry_partitionable = True
        # NumPy-style rank promotion of mnp's operands: 'allow', 'warn' or
        # 'raise'; dtype promotion: 'standard' or 'strict' (only Python
        # scalars promote). JAX's switches, read when a function is traced.
        self.jax_numpy_rank_promotion = os.environ.get("JAX_NUMPY_RANK_PROMOTION", "allow")
        self.jax_numpy_dtype_promotion = os.environ.get("JAX_NUMPY_DTYPE_PROMOTION",
                                                        "standard")
        # How hard XLA works (JAX's switches, passed on every compile with a
        # jit's compiler_options over them): efforts in [-1, 1] (0: XLA's
        # default), levels 'UNKNOWN' / 'O0'..'O3'.
        self.jax_exec_time_optimization_effort = 0.0
        self.jax_memory_fitting_effort = 0.0
        self.jax_optimization_level = "UNKNOWN"
        self.jax_memory_fitting_level = "O2"
        # Transfer guards (JAX's): None leaves jaxlib's level ('allow');
        # jax_transfer_guard sets the three directions at once. (As JAX's,
        # they are set by update() only, not from the environment.)
        for name in _TRANSFER_GUARD_OPTIONS:
            setattr(self, name, None)
        # The values of TRACE_CONTEXT_OPTIONS, in its order: part of every
        # jit cache key (kept up to date by update()).
        self.trace_context = _trace_context_of(self.__dict__)
        if self.jax_default_prng_impl not in PRNG_IMPLS:
            raise ValueError(f'Invalid value "{self.jax_default_prng_impl}" for JAX flag '
                             "jax_default_prng_impl (JAX_DEFAULT_PRNG_IMPL); the values are "
                             f"{', '.join(PRNG_IMPLS)}")

    _ALIASES = {"enable_x64": "jax_enable_x64", "log_compiles": "mlax_log_compiles",
                "jax_log_compiles": "mlax_log_compiles",
                "explain_cache_misses": "mlax_explain_cache_misses",
                "jax_explain_cache_misses": "mlax_explain_cache_misses",
                "compilation_cache_dir": "jax_compilation_cache_dir",
                "persistent_cache_min_compile_time_secs":
                    "jax_persistent_cache_min_compile_time_secs",
                "default_prng_impl": "jax_default_prng_impl",
                "debug_nans": "jax_debug_nans", "debug_infs": "jax_debug_infs",
                "debug_key_reuse": "jax_debug_key_reuse",
                "check_tracer_leaks": "jax_check_tracer_leaks",
                "numpy_rank_promotion": "jax_numpy_rank_promotion",
                "default_matmul_precision": "jax_default_matmul_precision",
                "numpy_dtype_promotion": "jax_numpy_dtype_promotion",
                "disable_jit": "jax_disable_jit",
                "exec_time_optimization_effort": "jax_exec_time_optimization_effort",
                "memory_fitting_effort": "jax_memory_fitting_effort",
                "optimization_level": "jax_optimization_level",
                "memory_fitting_level": "jax_memory_fitting_level", "num_cpu_devices": "jax_num_cpu_devices", "default_device": "jax_default_device"}

    def update(self, name: str, value):
        """Sets option `name` for the whole process (every thread but where a
        context manager overrides it for the time being)."""
        name = self._ALIASES.get(name, name)
        value = self._checked(name, value)
        with _lock:
            _global_values[name] = value
            if name in TRACE_CONTEXT_OPTIONS:
                _global_values["trace_context"] = _trace_context_of(_global_values)
            for state in list(_threads.values()):
                if name not in state["_overrides"]:
                    state[name] = value
                    if name in TRACE_CONTEXT_OPTIONS:
                        state["trace_context"] = _trace_context_of(state)
            if name in TRACE_CONTEXT_OPTIONS:
                _jit_key_global.set(_global_values["trace_context"])
        if name == "jax_transfer_guard":
            for d in TRANSFER_DIRECTIONS:
                self.update(f"jax_transfer_guard_{d}", value)
        hook = _update_hooks.get(name)
        if hook is not None:
            hook(value)
        if name in PYTHON_DISPATCH_OPTIONS:
            # Cached calls run in C++ never come back to Python, where
            # outputs and keys are checked and executions refused: the fast paths go
            # (programs stay).
            for clear in _fast_path_clearers:
                clear()

    _UNSET = object()

    def _swap_local(self, name: str, value):
        """Sets option `name` in this thread only (a context manager's block;
        `_UNSET`: back to the process-wide value); returns what it was
        (`_UNSET` where the thread had no override)."""
        name = self._ALIASES.get(name, name)
        state = self.__dict__
        overrides = state["_overrides"]
        previous = overrides.get(name, Config._UNSET)
        with _lock:
            if value is Config._UNSET:
                overrides.pop(name, None)
                state[name] = _global_values[name]
            else:
                value = self._checked(name, value)
                overrides[name] = value
                state[name] = value
            if name in TRACE_CONTEXT_OPTIONS:
                state["trace_context"] = _trace_context_of(state)
        if name in _JIT_KEY_OPTIONS:
            # The C++ fast path keys its entries by this thread's overrides of
            # the options a cached call depends on: an entry made outside the
            # block is not taken inside it, nor one of another thread's block.
            # (Only those: the key is shared with JAX's jitted functions,
            # which miss their own fast path and retrace when it changes.)
            _jit_key_local.set(_overrides_key(
                {n: v for n, v in overrides.items() if n in _JIT_KEY_OPTIONS}))
        return previous

    def _checked(self, name: str, value):
        """`value` as option `name` keeps it, or the error JAX raises for it."""
        if name not in _global_values or name == "trace_context":
            raise AttributeError(f"mlax.config: unknown option {name!r}")
        if name == "mlax_extra_passes":
            value = tuple(value or ())
        check = _validators.get(name)
        if check is not None:
            check(value)  # fail here, not at the next compile
        if name in ("mlax_jit_cache_size", "mlax_eager_cache_size",
                    "mlax_compile_cache_size") and value is not None and (
                isinstance(value, bool) or not isinstance(value, int) or value < 0):
            raise ValueError(f"mlax.config: {name} must be a non-negative int "
                             f"or None, got {value!r}")
        if name == "jax_compilation_cache_dir" and value is not None:
            if not isinstance(value, (str, os.PathLike)):
                raise TypeError(f"mlax.config: {name} must be a path or None, got {value!r}")
            value = os.fspath(value) or None
        if name == "jax_persistent_cache_min_compile_time_secs" and (
                isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0):
            raise ValueError(f"mlax.config: {name} must be a non-negative number of "
                             f"seconds, got {value!r}")
        if name == "jax_default_device" and not (
                value is None or isinstance(value, str) or
                (hasattr(value, "platform") and hasattr(value, "id"))):
            raise TypeError(f"mlax.config: jax_default_device must be None, a platform name "
                            f"or a device from mlax.devices(), got {value!r}")
        if name == "jax_default_prng_impl":
            if type(value) is not str or value not in PRNG_IMPLS:
                raise ValueError(f"new enum value must be in {list(PRNG_IMPLS)}, "
                                 f"got {value} of type {type(value)}.")
        if name == "jax_num_cpu_devices":
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"mlax.config: jax_num_cpu_devices must be an int, got {value!r}")
        if name == "jax_default_matmul_precision" and value is not None and (
                not isinstance(value, str) or value not in MATMUL_PRECISIONS):
            raise ValueError(f"new enum value must be None or in {list(MATMUL_PRECISIONS)}, "
                             f"got {value} of type {type(value)}.")
        if name == "jax_numpy_rank_promotion" and value not in ("allow", "warn", "raise"):
            raise ValueError(f"new enum value must be in ['allow', 'warn', 'raise'], got "
                             f"{value} of type {type(value)}.")
        if name == "jax_numpy_dtype_promotion" and value not in ("standard", "strict"):
            raise ValueError(f"{value!r} is not a valid NumpyDtypePromotion")
        if name == "jax_legacy_prng_key" and value not in ("allow", "warn", "error"):
            raise ValueError(f"{value!r} is not a valid LegacyPrngKeyState")
        if name in ("jax_debug_nans", "jax_debug_infs", "jax_debug_key_reuse", "jax_no_tracing",
                    "jax_no_execution", "jax_check_tracer_leaks", "jax_allow_f16_reductions",
                    "jax_enable_custom_prng", "jax_softmax_custom_jvp",
                    "jax_threefry_partitionable") and \
                not isinstance(value, bool):
            raise TypeError(f"mlax.config: {name} must be a bool, got {value!r}")
        if name in ("jax_optimization_level", "jax_memory_fitting_level") and \
                value not in ("UNKNOWN", "O0", "O1", "O2", "O3"):
            raise ValueError("new enum value must be in ['UNKNOWN', 'O0', 'O1', 'O2', 'O3'], "
                             f"got {value} of type {type(value)}.")
        if name in ("jax_exec_time_optimization_effort", "jax_memory_fitting_effort") and (
                isinstance(value, bool) or not isinstance(value, (int, float))):
            raise TypeError(f"mlax.config: {name} must be a number, got {value!r}")
        if name in _TRANSFER_GUARD_OPTIONS:
            check_transfer_guard_level(value)
        return value

    @property
    def x64_enabled(self) -> bool:
        return self.jax_enable_x64


def _hashable(value):
    try:
        hash(value)
    except TypeError:
        return ("unhashable", id(value))
    return value


def _trace_context_of(values: dict) -> tuple:
    """The values of TRACE_CONTEXT_OPTIONS in `values`, in its order."""
    return tuple(_hashable(values[n]) for n in TRACE_CONTEXT_OPTIONS)


# The options a cached C++ call depends on: those programs are traced under,
# and the checks only Python applies.
_JIT_KEY_OPTIONS = frozenset(TRACE_CONTEXT_OPTIONS) | PYTHON_DISPATCH_OPTIONS


def _overrides_key(overrides: dict):
    return tuple(sorted((n, _hashable(v)) for n, v in overrides.items())) or None


class _JitKey:
    """A part of jaxlib's C++ jit cache key (a jaxlib config state with
    include_in_jit_key, as JAX's trace context is): the process-wide
    options, or this thread's overrides. Each distinct value is handed over
    as a small int (the C++ side compares the key's parts on every call).
    jaxlib_internals, which owns jaxlib's internals, makes the state
    (`attach`); until then, or with a jaxlib without config states (no C++
    fast path then), there is nothing to set."""

    def __init__(self, name, local):
        self.name = name
        self._ids: dict = {}
        self._local = local
        self._state = None

    def attach(self, make_state, value):
        """`make_state(name, initial)`: a jaxlib config state in the jit key."""
        self._state = make_state(self.name, self._id(value))

    def _id(self, value):
        with _lock:
            return self._ids.setdefault(value, len(self._ids))

    def set(self, value):
        if self._state is None:
            return
        if self._local:
            self._state.set_local(self._id(value))
        else:
            self._state.set_global(self._id(value))


config = Config()
_jit_key_global = _JitKey("mlax_trace_context", local=False)
_jit_key_local = _JitKey("mlax_local_options", local=True)


def attach_jit_key_states(make_state) -> None:
    """Called once by jaxlib_internals: the C++ jit key's parts (above) as
    jaxlib config states made by `make_state(name, initial)`."""
    _jit_key_global.attach(make_state, _global_values["trace_context"])
    _jit_key_local.attach(make_state, None)


_REQUIRED = object()


class State:
    """A config option as JAX's top-level switches (jax.enable_x64,
    jax.default_device, ...): `.value` reads it, and `with state(value):`
    sets it for the block, in this thread only, as JAX's do (update() sets
    it for the process); jit keys its programs by the options they depend on
    (Config.trace_context), so a block entered again finds them."""

    def __init__(self, name: str, context_default=_REQUIRED):
        self._name = name
        self._context_default = context_default

    @property
    def value(self):
        return getattr(config, self._name)

    @contextlib.contextmanager
    def __call__(self, new_value=_REQUIRED):
        if new_value is _REQUIRED:
            if self._context_default is _REQUIRED:
                raise TypeError(
                    f"Context manager for {self._name.removeprefix('jax_')} config option "
                    "requires an argument representing the new value for the config option.")
            new_value = self._context_default
        previous = config._swap_local(self._name, new_value)
        try:
            yield
        finally:
            config._swap_local(self._name, previous)


enable_x64 = State("jax_enable_x64", True)
log_compiles = State("mlax_log_compiles", True)
explain_cache_misses = State("mlax_explain_cache_misses", True)
default_device = State("jax_default_device")
default_prng_impl = State("jax_default_prng_impl")
numpy_rank_promotion = State("jax_numpy_rank_promotion")
numpy_dtype_promotion = State("jax_numpy_dtype_promotion")
default_matmul_precision = State("jax_default_matmul_precision")
no_tracing = State("jax_no_tracing", True)
no_execution = State("jax_no_execution", True)
debug_nans = State("jax_debug_nans", True)
debug_infs = State("jax_debug_infs", True)
debug_key_reuse = State("jax_debug_key_reuse", True)
check_tracer_leaks = State("jax_check_tracer_leaks", True)
checking_leaks = functools.partial(check_tracer_leaks, True)
allow_f16_reductions = State("jax_allow_f16_reductions", True)
legacy_prng_key = State("jax_legacy_prng_key")
enable_custom_prng = State("jax_enable_custom_prng", True)
softmax_custom_jvp = State("jax_softmax_custom_jvp", True)
threefry_partitionable = State("jax_threefry_partitionable", True)


def checking_invalid_values() -> bool:
    return config.jax_debug_nans or config.jax_debug_infs


def python_dispatch_only() -> bool:
    """Whether every call must come back to Python (no C++ fast path): the
    NaN/inf checks, the key-reuse checks and the no_execution guard are
    applied there."""
    return (config.jax_debug_nans or config.jax_debug_infs or config.jax_no_execution
            or config.jax_debug_key_reuse)


def no_execution_error(name: str) -> RuntimeError:
    """What JAX's no_execution guard raises for the program `name` (callers
    test config.jax_no_execution first, so the name is built only then)."""
    return RuntimeError(f"JAX tried to execute function {name}, but the no_execution "
                        "config option is set")


class _Scoped(threading.local):
    """Settings the context managers scope to their thread (mlax.disable_jit,
    mlax.ensure_compile_time_eval, mlax.named_scope), as JAX's are."""

    disable_jit = None  # None: config.jax_disable_jit decides
    compile_time_eval = False
    name_stack = ()


scoped = _Scoped()


def jit_disabled() -> bool:
    local = scoped.disable_jit
    return config.jax_disable_jit if local is None else local

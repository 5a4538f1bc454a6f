"""jit, make_ir, and the tracing driver."""
from __future__ import annotations

import contextlib
import dataclasses
import functools
import inspect
import logging
import operator
import re
import time
import weakref

import numpy as np
from mlir import ir
from mlir.dialects import func as func_d

from mlax._src.jit import cache_miss
from mlax._src.backend import compiler
from mlax._src.core import tracer as core
from mlax._src.core import debug_checks
from mlax._src.core import key_reuse
from mlax._src.jit import dispatch
from mlax._src.jit import partitioned
from mlax._src.jit import ref_calls
from mlax._src.core import ref_state
from mlax._src.base import dtypes
from mlax._src.backend import native
from mlax._src.core import primitives
from mlax._src.backend import runtime
from mlax._src.backend import sharding as sharding_lib
from mlax._src.backend import passes as passes_lib
from mlax._src.core.array import Array
from mlax._src.base import config as config_lib
from mlax._src.base import monitoring
from mlax._src.base import transfer_guard
from mlax._src.base.config import config
from mlax._src.core.tracer import ShapedArray, Trace, Tracer
from mlax._src.base.tree import registry
from mlax._src.core import tracing
from mlax._src.transforms import linear
from mlax._src.transforms import vmap as vmap_lib
from mlax._src.core.tracing import (  # noqa: F401  (api.X is used widely)
    _arguments_device, _Executable, _fun_location, _leaf_aval, _return_values, _symbol_name,
    _trace_into, trace_function, trace_to_module)

logger = logging.getLogger("mlax")

_SCALARS = (bool, int, float, complex)


@dataclasses.dataclass(frozen=True)
class ArgInfo:
    """One argument of a lowered or compiled function (jax.stages.ArgInfo):
    its abstract value and whether it is donated."""
    _aval: ShapedArray
    donated: bool

    @property
    def shape(self):
        return self._aval.shape

    @property
    def dtype(self):
        return self._aval.dtype


def args_info(jitted, key):
    """The pytree of ArgInfo (like the dynamic (args, kwargs)) of a
    specialisation key (treedef, static key, avals, ...)."""
    treedef, static_key, avals = key[:3]
    donated = set(jitted._donated(treedef, static_key, len(avals)))
    return treedef.unflatten([ArgInfo(a, i in donated) for i, a in enumerate(avals)])


class Lowered:
    """The StableHLO of one specialisation (`jit(f).lower(*args)`)."""

    def __init__(self, jitted, stablehlo, mlax_ir, key, make_executable, out=None, refs=None):
        self._jitted = jitted
        self._refs = refs  # a function on Refs: ref_calls.RefsOfCall (its program on values)
        self._text = stablehlo
        self._mlax_ir = mlax_ir  # the text, or the traced module (printed when asked)
        self._key = key
        self._make = make_executable
        self._out = out  # (out_tree, out_avals): mlax.stages gives them as out_info

    @property
    def args_info(self):
        return args_info(self._jitted, self._key)

    def as_text(self, dialect: str = "stablehlo") -> str:
        if dialect == "mlax":
            if not isinstance(self._mlax_ir, str):
                self._mlax_ir = str(self._mlax_ir)
            return self._mlax_ir
        return self._text

    def compile(self, compiler_options=None) -> "Compiled":
        """The compiled program; `compiler_options` (XLA's options by name)
        over the jit's own, as JAX's."""
        if compiler_options:
            runtime.compile_overrides(compiler_options)  # checked before any work
            return Compiled(self._make(dict(compiler_options)), self.args_info, self._refs,
                            self._out)
        return Compiled(self._make(), self.args_info, self._refs, self._out)


class Compiled:
    """A compiled specialisation (`jit(f).lower(*args).compile()`)."""

    def __init__(self, executable: _Executable, args_info=None, refs=None, out=None):
        self._executable = executable
        self.args_info = args_info
        # A function on Refs: its program takes and returns the Refs' values
        # (ref_calls.RefsOfCall reads and writes them); `out`: the
        # function's own (out_tree, out_avals).
        self._refs = refs
        self._out = out

    def as_text(self) -> str:
        """XLA's optimized HLO."""
        return "\n".join(m.to_string() for m in self._executable.exe.hlo_modules())

    def __call__(self, *args):
        leaves, _ = tracing.split_float0(*registry.flatten(args))
        if self._refs is not None:
            return self._refs.run(self._executable, leaves)
        return self._executable(leaves)

    @property
    def output_shardings(self):
        """The results' shardings (a pytree like the results)."""
        e = self._executable
        named = getattr(e, "out_named", None)
        if named is None:
            named = [runtime._sharding(e.device or runtime.default_device())] * len(e.out_avals)
        return e.out_tree.unflatten(list(named))

    @property
    def input_shardings(self):
        """The shardings of the flattened arguments the program takes."""
        e = self._executable
        named = getattr(e, "in_named", None)
        if named is None:
            named = [runtime._sharding(e.device or runtime.default_device())] * len(e.in_avals)
        return tuple(named)


_all_jitted: "weakref.WeakSet[Jitted]" = weakref.WeakSet()

# The compiled programs of each function, as JAX keys its cache: on the
# function (weakly: they go when it does) and the options that change what
# is traced or compiled, so that a fresh `jit(f)` of the same `f` reuses them
# (and does not retrace, even where a global `f` reads has changed). A config
# change that affects tracing clears them (`clear_caches`).
_programs: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _programs_of(fun, options) -> dict:
    try:
        per_fun = _programs.get(fun)
        if per_fun is None:
            per_fun = _programs[fun] = {}
    except TypeError:  # not weakly referenceable: this jit object's own cache
        return {}
    return per_fun.setdefault(options, {})


class Jitted:
    """A function compiled on first call per signature; see `jit`."""

    def __init__(self, fun, static_argnums=(), static_argnames=(), name=None,
                 passes=(), inline=False, disable_jit_runs_python=True,
                 in_shardings=partitioned._UNSPECIFIED, out_shardings=partitioned._UNSPECIFIED,
                 donate_argnums=(), donate_argnames=(), compiler_options=None):
        if not callable(fun):
            raise TypeError(f"jit expects a callable, got {fun!r}")
        # XLA's options for this function's compiles, over JAX's config
        # switches (runtime.compile_overrides checks them now).
        runtime.compile_overrides(compiler_options)
        self._compiler_options = dict(compiler_options or {})
        # jit(in_shardings=, out_shardings=): the program is partitioned over
        # their mesh (mlax._src.jit.partitioned), as are calls on arrays that
        # lie over a mesh.
        self._in_shardings = partitioned.check_shardings(in_shardings, "in_shardings")
        self._out_shardings = partitioned.check_shardings(out_shardings, "out_shardings")
        self._sharded = any(s not in (partitioned._UNSPECIFIED, None)
                            for s in (self._in_shardings, self._out_shardings))
        # Extra passes for this function (mlax._src.backend.passes); checked now.
        self._passes = tuple(passes or ())
        for entry in self._passes:
            passes_lib.stage_of(entry)
        functools.update_wrapper(self, fun)
        self._fun = fun
        # inline: inside a trace, `fun` is traced in place (no mlax.call);
        # see eager_jit.
        self._inline = inline
        # Under disable_jit the function runs as Python, op by op; but an
        # op's own eager program (primitives) is what "op by op" runs.
        self._disable_jit_runs_python = disable_jit_runs_python
        self._name = name or _symbol_name(fun)
        if isinstance(static_argnums, int):
            static_argnums = (static_argnums,)
        if isinstance(static_argnames, str):
            static_argnames = (static_argnames,)
        self._static_argnums = tuple(static_argnums)
        self._static_argnames = tuple(static_argnames)
        self._has_static = bool(self._static_argnums or self._static_argnames)
        try:
            self._signature = inspect.signature(fun)
        except (TypeError, ValueError):
            self._signature = None
        if self._signature is not None:
            # static_argnames also name positional parameters (as in JAX's
            # infer_argnums_and_argnames: those that may be passed by
            # position, before any *args; a keyword-only one is only a name).
            params = _positional_params(self._signature)
            for n in self._static_argnames:
                if n in params and params.index(n) not in self._static_argnums:
                    self._static_argnums += (params.index(n),)
        if isinstance(donate_argnums, int):
            donate_argnums = (donate_argnums,)
        if isinstance(donate_argnames, str):
            donate_argnames = (donate_argnames,)
        self._donate_argnums = tuple(sorted(set(donate_argnums)))
        self._donate_argnames = tuple(donate_argnames)
        if self._signature is not None:  # donate_argnames also name positional parameters
            params = _positional_params(self._signature)
            for n in self._donate_argnames:
                if n in params and params.index(n) not in self._donate_argnums:
                    self._donate_argnums += (params.index(n),)
        for i in self._donate_argnums:
            if i in self._static_argnums:
                raise ValueError(f"jit: argument {i} is both static and donated")
        try:
            options = (self._static_argnums, self._static_argnames, self._passes,
                       self._inline, self._name, self._in_shardings, self._out_shardings,
                       self._donate_argnums, self._donate_argnames,
                       tuple(sorted(self._compiler_options.items())))
            hash(options)
        except TypeError:
            self._cache: dict = {}
        else:
            self._cache = _programs_of(fun, options)
        self._device = None  # see jit(backend=, device=)
        self._last = None  # (key, entry) of the last call, checked first
        # (treedef, static key, avals) -> key_reuse.Signature, recorded by
        # traces made while jax_debug_key_reuse is on.
        self._key_signatures: dict = {}
        self.cache_misses = 0
        self._fast = self._first_call
        # Refs the function closes over (found by tracing) and the jit of it
        # on their values (see ref_calls).
        self._closed_refs: list = []
        self._ref_twin = None
        _all_jitted.add(self)

    def _first_call(self, *args, **kwargs):
        # The C++ dispatcher is made on the first call: jit objects made at
        # import stay cheap, and it reads jax's config, set up by importing jax.
        self._fast = self._make_fast()
        return self._fast(*args, **kwargs)

    def _make_fast(self):
        """The C++ dispatcher of cached calls (mlax._src.jit.dispatch), or the
        Python path where it cannot key calls as mlax does (negative
        static_argnums count from the end of each call's arguments)."""
        if any(i < 0 for i in self._static_argnums):
            return self._call_python_star

        # (self -> dispatcher -> these closures -> self: a cycle the GC
        # collects; the C++ cache holds the fallback only weakly.)
        def python_call(*args, **kwargs):  # under jax.disable_jit
            return self._call_python(args, kwargs)

        if self._inline:  # traced in place: one Python frame only
            fun, trace_stack = self._fun, core.trace_stack

            def cache_miss(*args, **kwargs):
                if trace_stack():
                    return fun(*args, **kwargs), None, False
                return self._cache_miss(args, kwargs)
        else:
            def cache_miss(*args, **kwargs):
                return self._cache_miss(args, kwargs)

        fast = dispatch.make(self._name, python_call, cache_miss,
                             self._static_argnums, self._static_argnames)
        return self._call_python_star if fast is None else fast

    # -- argument handling --------------------------------------------------
    def _split(self, args, kwargs):
        """(dynamic part, hashable static key, rebuild function)."""
        nargs = len(args)
        static_pos = tuple(sorted({i if i >= 0 else i + nargs for i in self._static_argnums
                                   if -nargs <= i < nargs}))
        static_kw = tuple(sorted(k for k in kwargs if k in self._static_argnames))
        static_vals = tuple(args[i] for i in static_pos) + tuple(kwargs[k] for k in static_kw)
        for v in static_vals:
            try:
                hash(v)
            except TypeError:
                raise ValueError(
                    f"Non-hashable static arguments are not supported. An error occurred "
                    f"while trying to hash an object of type {type(v)}, {v!r}. The error "
                    f"was:\nTypeError: unhashable type: {type(v).__name__!r}") from None
        dyn_args = tuple(a for i, a in enumerate(args) if i not in static_pos)
        dyn_kwargs = {k: v for k, v in kwargs.items() if k not in static_kw}
        key = (static_pos, static_kw, static_vals)

        def rebuild(dyn):
            d_args, d_kwargs = dyn
            it = iter(d_args)
            full = []
            for i in range(nargs):
                full.append(static_vals[static_pos.index(i)] if i in static_pos else next(it))
            kw = dict(d_kwargs)
            for k, v in zip(static_kw, static_vals[len(static_pos):]):
                kw[k] = v
            return tuple(full), kw

        return (dyn_args, dyn_kwargs), key, rebuild

    @staticmethod
    def _plain_rebuild(dyn):
        return dyn[0], dyn[1]

    def _prepare(self, args, kwargs):
        if self._has_static:
            dyn, static_key, rebuild = self._split(args, kwargs)
        else:
            dyn, static_key, rebuild = (args, kwargs), None, self._plain_rebuild
        leaves, treedef = tracing.split_float0(*registry.flatten(dyn))
        return leaves, treedef, static_key, rebuild

    # -- calling ------------------------------------------------------------
    # A call goes straight to the C++ dispatcher, with no Python frame: cached
    # calls on mlax arrays never leave C++; the others (first calls, NumPy or
    # scalar arguments, calls inside a trace) come back through _cache_miss.
    __call__ = property(operator.attrgetter("_fast"))

    def _call_python_star(self, *args, **kwargs):
        return self._call_python(args, kwargs)

    def _entry_or_ref_call(self, leaves, treedef, static_key, rebuild, args, kwargs):
        """(False, the compiled entry of the call, or None), or (True, the
        call's result) where it takes or closes over Refs (ref_calls runs
        it on their values)."""
        if self._closed_refs or (self._ref_twin is not False and ref_calls.has_refs(leaves)):
            return True, ref_calls.call(self, args, kwargs)
        try:
            return False, self._entry_of_call(leaves, treedef, static_key, rebuild)
        except ref_state.RefsNeeded as e:
            if self._ref_twin is False:  # a twin: its caller passes them in
                raise
            self._closed_refs.extend(e.refs)
            return True, ref_calls.call(self, args, kwargs)

    def _call_python(self, args, kwargs):
        if (self._inline and core.trace_stack()) or (
                self._disable_jit_runs_python and config_lib.jit_disabled()):
            return self._fun(*args, **kwargs)
        leaves, treedef, static_key, rebuild = self._prepare(args, kwargs)
        if core.trace_stack():
            return self._call_in_trace(leaves, treedef, static_key, rebuild, (args, kwargs))
        by_refs, entry = self._entry_or_ref_call(leaves, treedef, static_key, rebuild,
                                                 args, kwargs)
        if by_refs:
            return entry
        if entry is None:
            return self._fun(*args, **kwargs)
        return self._run_checked(entry, leaves, args, kwargs, (treedef, static_key, rebuild))

    def _run_checked(self, entry, leaves, args, kwargs, prepared):
        """entry(leaves), under JAX's no_execution guard, NaN/inf checks and
        key-reuse checks (`prepared`: the call's treedef, static key and
        rebuild function)."""
        if config.jax_no_execution:
            raise config_lib.no_execution_error(f"jit({self._fun_name()})")
        keys = None
        if config.jax_debug_key_reuse:
            signature = self._key_signature(leaves, *prepared)
            keys = key_reuse.keys_in((args, kwargs))
            signature.check(keys, "jit", traced=False)
        out = entry(leaves)
        if config_lib.checking_invalid_values():
            debug_checks.check_outputs(self, out, args, kwargs)
        if keys is not None:
            signature.update(keys, key_reuse.keys_in(out))
        return out

    def _key_signature(self, leaves, treedef, static_key, rebuild):
        """What the function does to its key arguments (key_reuse.Signature),
        recorded when it was traced; traced again for it (its consumption
        undone) where the program was traced with the checks off."""
        avals = tuple(_leaf_aval(l) for l in leaves)
        signature = self._key_signatures.get((treedef, static_key, avals))
        if signature is None:
            fun, found = key_reuse.recording(self._fun)
            with key_reuse.undone():
                trace_to_module(fun, treedef, avals, rebuild)
            signature = self._key_signatures[(treedef, static_key, avals)] = found[-1]
        return signature

    def _entry_of_call(self, leaves, treedef, static_key, rebuild):
        """The call's entry (`_entry`), or None when an eagerly jitted library
        function (inline) was given an argument that is not an array: it then
        runs as itself, so that its own checks raise its error (naming the
        function), as JAX's do."""
        try:
            return self._entry(leaves, treedef, static_key, rebuild)
        except TypeError:
            if self._inline and not all(tracing.is_array_leaf(l) for l in leaves):
                return None
            raise

    def _cache_miss(self, args, kwargs):
        """A call the C++ dispatcher has no fast path for: (outputs, its fast
        path for this signature or None, False)."""
        if (self._inline and core.trace_stack()) or (
                self._disable_jit_runs_python and config_lib.jit_disabled()):
            return self._fun(*args, **kwargs), None, False
        if self._has_static:
            dyn, static_key, rebuild = self._split(args, kwargs)
        else:
            dyn, static_key, rebuild = (args, kwargs), None, self._plain_rebuild
        leaves, treedef = tracing.split_float0(*registry.flatten(dyn))
        if core.trace_stack():
            return self._call_in_trace(leaves, treedef, static_key, rebuild,
                                       (args, kwargs)), None, False
        by_refs, entry = self._entry_or_ref_call(leaves, treedef, static_key, rebuild,
                                                 args, kwargs)
        if by_refs:
            return entry, None, False
        if entry is None:
            return self._fun(*args, **kwargs), None, False
        if config_lib.python_dispatch_only():
            # jax_debug_nans / jax_debug_infs / jax_no_execution: every call
            # comes back here.
            return self._run_checked(entry, leaves, args, kwargs,
                                     (treedef, static_key, rebuild)), None, False
        if type(treedef) is tracing.Float0Leaves:
            # float0 arguments: the program does not take them, which the
            # C++ dispatcher cannot express; such calls stay in Python.
            return entry(leaves), None, False
        for leaf in leaves:
            if type(leaf) not in dispatch.FAST_LEAF_TYPES:
                break
        else:
            # Arrays, and NumPy arrays and scalars the C++ side puts on the
            # device itself exactly as mlax would (see dispatch.fastpath_data).
            out = entry(leaves)
            return out, dispatch.fastpath_data(entry, dyn, leaves, out), False
        # NumPy arrays or scalars among the arguments: the call on the arrays
        # mlax makes of them (which C++ runs from its second time on).
        arrays = [Array(b, a) for b, a in zip(entry.buffers(leaves), entry.in_avals)]
        args, kwargs = rebuild(treedef.unflatten(arrays))
        return self._fast(*args, **kwargs), None, False

    def _entry(self, leaves, treedef, static_key, rebuild) -> "_Executable":
        """The executable for these arguments (compiled on a miss)."""
        avals = tuple([leaf.aval if type(leaf) is Array else _leaf_aval(leaf)
                       for leaf in leaves])
        key = (treedef, static_key, avals, config.trace_context)
        device = self._device
        if device is None:
            # As jax.jit: the computation runs where its array arguments are.
            device = _arguments_device(self._name, leaves)
        if self._sharded or device is tracing.ON_A_MESH:
            return self._mesh_entry(leaves, treedef, static_key, rebuild, avals, key)
        if device is not None:  # (programs are shared by jit objects of one function)
            key = key + (device,)
        # The last signature is checked first: comparing tuples of the same
        # aval objects is identity-fast, where hashing 100 avals is not.
        last = self._last
        if last is not None and last[0] == key:
            return last[1]
        entry = self._cache.get(key)
        if entry is None:
            entry = self._compile(key, treedef, avals, rebuild, device)
        self._last = (key, entry)
        return entry

    def _mesh_entry(self, leaves, treedef, static_key, rebuild, avals, key):
        """The executable of a call partitioned over a mesh, or of an
        ordinary call where no sharding names one."""
        in_specified = partitioned.leaf_in_shardings(
            self, treedef.unflatten(leaves)[0], None, len(leaves))
        mesh = partitioned.mesh_of(self, leaves, in_specified)
        if mesh is None:  # shardings given, all None or single-device
            device = next((s._device for s in in_specified if s is not None), None)
            key = key + (device,) if device is not None else key
            entry = self._cache.get(key)
            if entry is None:
                entry = self._compile(key, treedef, avals, rebuild, device)
            return entry
        in_named = partitioned.arg_shardings(self, mesh, leaves, avals, in_specified)
        key = key + (("mesh", in_named),)
        entry = self._cache.get(key)
        if entry is None:
            entry = self._compile_mesh(key, treedef, avals, rebuild, mesh, in_named)
        self._last = (key, entry)
        return entry

    def _donated(self, treedef, static_key, n_leaves):
        """The leaves of the donated arguments (donate_argnums/_argnames)."""
        if not (self._donate_argnums or self._donate_argnames):
            return ()
        if type(treedef) is tracing.Float0Leaves:
            # (float0 arguments are not the program's: nothing to donate)
            float0s = {i for i, _ in treedef.shapes}
            index = iter(range(n_leaves))
            treedef = treedef.treedef
            n_leaves = treedef.num_leaves
            leaves = [None if i in float0s else next(index) for i in range(n_leaves)]
        else:
            leaves = list(range(n_leaves))
        d_args, d_kwargs = treedef.unflatten(leaves)
        static_pos = static_key[0] if self._has_static and static_key else ()
        positions = [i for i in range(len(d_args) + len(static_pos)) if i not in static_pos]
        out = []
        for j, i in enumerate(positions):
            if i in self._donate_argnums:
                out += registry.flatten(d_args[j])[0]
        for name in self._donate_argnames:
            if name in d_kwargs:
                out += registry.flatten(d_kwargs[name])[0]
        return tuple(i for i in out if i is not None)

    def _lower_over_mesh(self, treedef, avals, rebuild, in_named, stats=None, donated=()):
        with sharding_lib.tracing_over_mesh(in_named[0].mesh if in_named else None):
            module, out_avals, out_tree = self._trace(treedef, avals, rebuild)
        out_named = partitioned.out_shardings_of(self, out_tree, out_avals)
        partitioned.annotate(module, in_named, avals, out_named, out_avals)
        partitioned.mark_donated(module, donated)
        mlax_text = str(module)
        stablehlo = compiler.to_stablehlo(
            module, stats, name=self._name, extra_passes=self._passes,
            platform=runtime.lowering_platform(in_named[0].mesh._flat_devices[0]
                                               if in_named else runtime.default_device()))
        return module, mlax_text, stablehlo, out_avals, out_tree, out_named

    def _compile_mesh(self, key, treedef, avals, rebuild, mesh, in_named, compiler_options=None):
        # compiler_options: a Lowered.compile's own, over the jit's (that
        # executable is the Compiled's alone, not cached).
        kept = compiler_options is None
        compiler_options = {**self._compiler_options, **(compiler_options or {})}
        self.cache_misses += 1
        stats = {}
        t0 = time.perf_counter()
        module, _, stablehlo, out_avals, out_tree, out_named = self._lower_over_mesh(
            treedef, avals, rebuild, in_named, stats,
            self._donated(treedef, key[1], len(avals)))
        stats["trace_s"] = time.perf_counter() - t0
        t1 = time.perf_counter()
        exe = partitioned.compile_over_mesh(stablehlo, mesh, out_named, compiler_options)
        stats["compile_s"] = time.perf_counter() - t1
        entry = partitioned.MeshExecutable(exe, mesh, avals, in_named, out_avals, out_tree,
                                           out_named, stablehlo, stats,
                                           compiler.kept_arguments(module))
        if kept:
            self._cache[key] = entry
        return entry

    def _fun_name(self) -> str:
        """The function's own name (`self._name` is made fit for IR symbols)."""
        return getattr(self._fun, "__name__", self._name)

    def _trace(self, treedef, avals, rebuild, static_key=None, refs_in=False):
        if not config.jax_debug_key_reuse:
            return trace_to_module(self._fun, treedef, avals, rebuild, refs_in=refs_in)
        fun, found = key_reuse.recording(self._fun)
        out = trace_to_module(fun, treedef, avals, rebuild, refs_in=refs_in)
        if static_key is not None:
            self._key_signatures[(treedef, static_key[0], avals)] = found[-1]
        return out

    def _compile(self, key, treedef, avals, rebuild, device=None, compiler_options=None):
        # compiler_options: a Lowered.compile's own, over the jit's (that
        # executable is the Compiled's alone, not cached).
        own_options = compiler_options
        kept = own_options is None
        compiler_options = {**self._compiler_options, **(own_options or {})}
        if config.mlax_explain_cache_misses:
            cache_miss.explain(self, key, rebuild)
        self.cache_misses += 1
        if config.mlax_log_compiles:
            logger.warning("mlax: compiling %s for %s", self._name,
                           ", ".join(a.str_short() for a in avals))
        stats = {}
        wall0, t0 = time.time(), time.perf_counter()
        with sharding_lib.recording_constraint_mesh() as seen:
            module, out_avals, out_tree = self._trace(treedef, avals, rebuild, (key[1],),
                                                      refs_in=True)
        if seen.mesh is not None:
            # with_sharding_constraint inside, no sharded argument: the
            # program is partitioned over the constraints' mesh, its
            # arguments replicated there (as in JAX).
            mesh = seen.mesh
            replicated = sharding_lib.NamedSharding(mesh, sharding_lib.PartitionSpec())
            in_named = tuple(replicated for _ in avals)
            self.cache_misses -= 1
            return self._compile_mesh(key, treedef, avals, rebuild, mesh, in_named,
                                      own_options)
        stats["trace_s"] = time.perf_counter() - t0
        partitioned.mark_donated(module, self._donated(treedef, key[1], len(avals)))
        device = self._device if device is None else device
        stablehlo = compiler.to_stablehlo(
            module, stats, name=self._name, extra_passes=self._passes,
            platform=runtime.lowering_platform(device or runtime.default_device()))
        kept_args = compiler.kept_arguments(module)
        if monitoring.listening():
            # JAX's events for its jaxpr trace and its jaxpr-to-MLIR step.
            traced = wall0 + stats["trace_s"]
            monitoring.record_elapsed(monitoring.TRACE_EVENT, wall0, traced,
                                      fun_name=self._fun_name())
            monitoring.record_elapsed(monitoring.TO_MODULE_EVENT, traced,
                                      traced + stats["passes_s"] + stats["lower_s"],
                                      fun_name=f"jit({self._fun_name()})")
        t1 = time.perf_counter()
        exe = compiler.compile_stablehlo(stablehlo, device, name=self._name,
                                         module=module, event_name=f"jit({self._fun_name()})",
                                         compiler_options=compiler_options)
        stats["compile_s"] = time.perf_counter() - t1
        entry = _Executable(exe, avals, out_avals, out_tree, stablehlo, stats)
        entry.device = device
        entry.kept = kept_args
        if not kept:
            return entry
        self._cache[key] = entry
        limit = config.mlax_jit_cache_size
        if limit and len(self._cache) > limit:
            # Bounded: drop the least recently compiled signatures (insertion
            # order; the call fast path is left untouched, so not LRU).
            for old in list(self._cache)[:len(self._cache) - limit]:
                self._cache.pop(old, None)
            clear = getattr(self._fast, "_clear_cache", None)
            if clear is not None:  # the C++ dispatcher holds executables too
                clear()
        return entry

    def _trace_callee(self, outer, treedef, static_key, avals, rebuild, in_vmap):
        """The function traced as a callee of `outer`: trace_function's
        result, or None where it is to run inline (see _call_in_trace)."""
        if in_vmap:  # custom_vmap calls in it may need it inlined (a cached callee too)
            n_ops = len(outer.module.body.operations)
            callee_keys = set(outer.callees)
            try:
                cached = trace_function(outer, self._fun, treedef, avals, rebuild,
                                        self._name, traced_for="jit")
            except vmap_lib.InlineJit:
                # Drop what the abandoned trace made; run the function here.
                for op in list(outer.module.body.operations)[n_ops:]:
                    op.operation.erase()
                for k in set(outer.callees) - callee_keys:
                    del outer.callees[k]
                return None
        elif config.jax_debug_key_reuse:
            fun, found = key_reuse.recording(self._fun)
            cached = trace_function(outer, fun, treedef, avals, rebuild, self._name,
                                    traced_for="jit")
            self._key_signatures[(treedef, static_key, avals)] = found[-1]
        else:
            cached = trace_function(outer, self._fun, treedef, avals, rebuild, self._name,
                                    traced_for="jit")
        return cached

    def _call_in_trace(self, leaves, treedef, static_key, rebuild, user):
        """jit inside a trace: the function becomes a private func.func of the
        enclosing module, called with mlax.call (closures become arguments).
        `user`: the call's (args, kwargs), whose keys are checked."""
        outer = core.current_trace()
        hooks = primitives.bind_hooks
        if hooks and hooks[-1].trace is outer and getattr(hooks[-1], "inline_jit", False):
            # An observer of the trace's ops (checkify's checker) sees this
            # function's too: traced inline, as JAX's checkify interprets
            # a jit's jaxpr.
            args, kwargs = rebuild(treedef.unflatten(leaves))
            return self._fun(*args, **kwargs)
        if ref_calls.has_refs(leaves):  # (refs are traced inline, as JAX's inner jits)
            args, kwargs = rebuild(treedef.unflatten(leaves))
            return self._fun(*args, **kwargs)
        avals = tuple(_leaf_aval(l) for l in leaves)
        # Keyed on the Jitted itself, not id(self): the key holds it alive
        # for the trace, so a freed Jitted's id, reused by a new one in the
        # same trace, cannot hand back the old callee and its constants.
        cache_key = (self, treedef, static_key, avals)
        cached = outer.callees.get(cache_key)
        in_vmap = vmap_lib.rules_defined and vmap_lib.active_pass() is not None
        if cached is None or in_vmap:
            try:
                cached = self._trace_callee(outer, treedef, static_key, avals, rebuild, in_vmap)
            except ref_state.RefsWritten:
                # It writes Refs made outside it: inlined, the writes are the
                # enclosing trace's (its unused func.func is dropped).
                cached = None
            if cached is None:
                args, kwargs = rebuild(treedef.unflatten(leaves))
                return self._fun(*args, **kwargs)
            if not cached[3]:
                outer.callees[cache_key] = cached
        known = outer.concrete and all(
            not isinstance(l, Tracer) or l.known is not None for l in leaves)
        if known and cached[3] and all(t.known is not None for t in cached[3]):
            # It closes over values of the enclosing transformation, all known:
            # traced in place, so that its results are known too (what JAX's
            # eager tracers give); the callee traced above goes unused.
            args, kwargs = rebuild(treedef.unflatten(leaves))
            return self._fun(*args, **kwargs)
        keys = None
        if config.jax_debug_key_reuse:
            signature = self._key_signature(leaves, treedef, static_key, rebuild)
            keys = key_reuse.keys_in(user)
            signature.check(keys, "jit", traced=True)
        sym, out_avals, out_tree, captured = cached
        operands = [primitives.to_value(outer, l, a) for l, a in zip(leaves, avals)]
        operands += [outer.value_of(t) for t in captured]
        ops = native.ops()
        with outer.ip, core.user_location():
            call = ops.CallOp([a.mlir_type() for a in out_avals],
                              ir.FlatSymbolRefAttr.get(sym), operands)
        # Called by a transformation outside jit on known values (grad of a
        # Python function calling jitted helpers): its results are known too,
        # as JAX's eager JVP/grad tracers carry the jitted call's primal
        # outputs, so Python control flow on them (`if y > 0:`) works. They
        # are computed (by running this jitted function) only if asked for.
        pending = None
        results = []
        # (Not for a function donating its arguments: the values it would be
        # run on may be the caller's own arrays.)
        if known and not captured and not (self._donate_argnums or self._donate_argnames):
            pending = core.Pending(functools.partial(
                self._known_results, treedef, rebuild, (outer, call, results)), list(leaves))
        results += [Tracer(r, a, outer, pending and (pending, i))
                    for i, (r, a) in enumerate(zip(call.results, out_avals))]
        out = out_tree.unflatten(results)
        if keys is not None:
            signature.update(keys, key_reuse.keys_in(out))
        return out

    def _known_results(self, treedef, rebuild, traced, values):
        """The output leaves of this function run on the concrete `values`
        of its argument leaves (a Pending's fn, see _call_in_trace).
        `traced`: (the trace, its mlax.call of this function, the call's
        result tracers)."""
        args, kwargs = rebuild(treedef.unflatten(values))
        out = registry.flatten(self(*args, **kwargs))[0]
        _constant_call(*traced, out)
        return out

    # -- inspection ---------------------------------------------------------
    def lower(self, *args, **kwargs) -> Lowered:
        leaves, treedef, static_key, rebuild = self._prepare(args, kwargs)
        if self._ref_twin is not False and (self._closed_refs or
                                            ref_calls.has_ref_types(leaves)):
            return self._lower_with_refs(args, kwargs, leaves, treedef, static_key)
        try:
            return self._lower(leaves, treedef, static_key, rebuild)
        except ref_state.RefsNeeded as e:
            if self._ref_twin is False:  # a twin: its caller passes them in
                raise
            self._closed_refs.extend(e.refs)
            return self._lower_with_refs(args, kwargs, leaves, treedef, static_key)

    def _lower_with_refs(self, args, kwargs, leaves, treedef, static_key) -> Lowered:
        """The function taking or closing over Refs lowered as the program
        on their values that calls run (ref_calls); its Compiled reads and
        writes the Refs, as a call does."""
        def lower_twin(twin, t_args, t_kwargs, refs):
            lowered = twin.lower(*t_args, **t_kwargs)
            out_tree, out_avals, _ = refs.split_results(*lowered._out)
            avals = tuple(ref_calls.type_of(l) for l in leaves)
            return Lowered(self, lowered._text, lowered._mlax_ir, (treedef, static_key, avals),
                           lowered._make, (out_tree, out_avals), refs)
        return ref_calls.abstract(self, args, kwargs, lower_twin)

    def _lower(self, leaves, treedef, static_key, rebuild) -> Lowered:
        avals = tuple(_leaf_aval(l) for l in leaves)
        in_specified = partitioned.leaf_in_shardings(
            self, treedef.unflatten(leaves)[0], None, len(leaves))
        mesh = partitioned.mesh_of(self, leaves, in_specified)
        if mesh is not None:
            in_named = partitioned.arg_shardings(self, mesh, leaves, avals, in_specified)
            _, mlax_text, stablehlo, out_avals, out_tree, _ = self._lower_over_mesh(
                treedef, avals, rebuild, in_named,
                donated=self._donated(treedef, static_key, len(avals)))
            key = (treedef, static_key, avals, config.trace_context, ("mesh", in_named))
            def make_mesh(options=None):
                if options is None:
                    return self._cache.get(key) or self._compile_mesh(
                        key, treedef, avals, rebuild, mesh, in_named)
                return self._compile_mesh(key, treedef, avals, rebuild, mesh, in_named,
                                          options)
            return Lowered(self, stablehlo, mlax_text, key, make_mesh, (out_tree, out_avals))
        with sharding_lib.recording_constraint_mesh() as seen:
            module, out_avals, out_tree = self._trace(treedef, avals, rebuild, (static_key,),
                                                      refs_in=True)
        if seen.mesh is not None:
            # A shard_map or sharding constraint inside: the arguments are
            # replicated over its mesh, as _compile does.
            mesh = seen.mesh
            in_named = tuple(sharding_lib.NamedSharding(mesh, sharding_lib.PartitionSpec())
                             for _ in avals)
            partitioned.annotate(module, in_named, avals, (None,) * len(out_avals), out_avals)
        partitioned.mark_donated(module, self._donated(treedef, static_key, len(avals)))
        mlax_ir = module.operation.clone()  # the passes rewrite `module`; printed if asked
        stablehlo = compiler.to_stablehlo(
            module, name=self._name, extra_passes=self._passes,
            platform=runtime.lowering_platform(self._device or runtime.default_device()))
        key = (treedef, static_key, avals, config.trace_context)
        def make(options=None):
            if options is None:
                return self._cache.get(key) or self._compile(key, treedef, avals, rebuild)
            return self._compile(key, treedef, avals, rebuild, compiler_options=options)
        return Lowered(self, stablehlo, mlax_ir, key, make, (out_tree, out_avals))

    def clear_cache(self):
        self._cache.clear()
        self._last = None
        clear = getattr(self._fast, "_clear_cache", None)
        if clear is not None:
            clear()

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return functools.partial(self, obj)


# The most elements of the results `_constant_call` writes into a program.
_CONSTANT_CALL_ELEMENTS = 4096


def _constant_call(trace, call, tracers, values):
    """Once a jitted call in a trace on known values has been run for its
    values (Python read one: `if f(c) > 0:`), the call's results become
    those values, as constants of the trace, where its operands are all
    constants already (no derivative flows through them, and the program
    keyed by its text gains no new variation): the program does not run the
    function a second time (JAX runs it once, eagerly). Small results only."""
    if not trace.alive or len(values) != len(tracers) or sum(
            t.aval.size for t in tracers) > _CONSTANT_CALL_ELEMENTS:
        return
    for v in call.operands:
        if not isinstance(v.owner, ir.OpView) or v.owner.name != "mlax.constant":
            return
    if any(t.value != r for t, r in zip(tracers, call.results)):
        return
    for t, value in zip(tracers, values):
        const = primitives.constant_value(trace, np.asarray(value, t.aval.dtype), t.aval)
        const.owner.move_before(call)
        t.value.replace_all_uses_with(const)
        t.value = const
    call.erase()


def jit(fun=None, *, in_shardings=partitioned._UNSPECIFIED,
        out_shardings=partitioned._UNSPECIFIED, static_argnums=(), static_argnames=(),
        donate_argnums=(), donate_argnames=(), passes=(), backend=None, device=None,
        keep_unused=False, inline=False, compiler_options=None):
    """Compiles `fun` with XLA: traced once per (pytree structure, shapes,
    dtypes, weak types, static values), then dispatched from a cache.

    `passes`: extra passes run on this function's mlax module after
    mlax-simplify-pipeline (pass-pipeline strings, registered Python pass
    names or callables over the module; see `mlax.passes`). They apply to
    this function's own compiles: called inside another jit's trace it is
    inlined into that caller's module, which runs the caller's passes.

    `in_shardings` / `out_shardings`: how the arguments and results lie over
    a mesh (a NamedSharding, a PartitionSpec inside `with mesh:`, None for
    unspecified; a pytree prefix of the positional arguments / results, or
    one for all). The program is then partitioned by XLA's SPMD partitioner;
    arguments already laid out over a mesh do the same without them (see
    docs/sharding.md).

    `donate_argnums` / `donate_argnames`: arguments whose buffers XLA may
    reuse for the results; a donated array is deleted by the call (using it
    again is a RuntimeError), as in JAX.

    `inline`: called inside another function's trace, `fun` is traced in
    place rather than as a call. `keep_unused` is taken for JAX's signature:
    which arguments a program keeps changes no result.

    `compiler_options`: XLA's options for this function's compiles, by name
    (`{"xla_backend_optimization_level": 0}`, `{"exec_time_optimization_effort":
    -1.0}`), over JAX's config switches (jax_optimization_level, ...), as
    JAX's; a name XLA does not know is its JaxRuntimeError at compile."""
    del keep_unused
    if fun is None:
        return functools.partial(jit, in_shardings=in_shardings, out_shardings=out_shardings,
                                 static_argnums=static_argnums,
                                 static_argnames=static_argnames,
                                 donate_argnums=donate_argnums,
                                 donate_argnames=donate_argnames, passes=passes,
                                 backend=backend, device=device, inline=inline,
                                 compiler_options=compiler_options)
    _check_argnums(fun, static_argnums, "static_argnums")
    _check_argnums(fun, donate_argnums, "donate_argnums")
    _check_argnames(fun, static_argnames, "static_argnames")
    _check_argnames(fun, donate_argnames, "donate_argnames")
    jitted = Jitted(fun, static_argnums, static_argnames, passes=passes, inline=inline,
                    in_shardings=in_shardings, out_shardings=out_shardings,
                    donate_argnums=donate_argnums, donate_argnames=donate_argnames,
                    compiler_options=compiler_options)
    # `backend=`/`device=` pick the PJRT client and device (default: the
    # default device, a GPU where there is one).
    jitted._device = runtime.pick_device(backend, device)
    return jitted


def _check_argnums(fun, argnums, what):
    """JAX's ValueError for argument numbers `fun` cannot take (none where
    it takes *args, or its signature is unknown)."""
    argnums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    try:
        params = inspect.signature(fun).parameters.values()
    except (TypeError, ValueError):
        return
    n = 0
    for p in params:
        if p.kind is p.VAR_POSITIONAL:
            return
        n += p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    if argnums and (-min(argnums) > n or max(argnums) >= n):
        raise ValueError(f"Jitted function has {what}={argnums}, but only accepts {n} "
                         "positional arguments.")


def _check_argnames(fun, argnames, what):
    """JAX's ValueError for argument names `fun` cannot take by keyword:
    positional-only ones, or (unless it takes **kwargs) names it has not."""
    argnames = {argnames} if isinstance(argnames, str) else set(argnames)
    try:
        params = inspect.signature(fun).parameters.values()
    except (TypeError, ValueError):
        return
    valid = {p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    positional = {p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.VAR_POSITIONAL)}
    if argnames & positional:
        raise ValueError(f"Jitted function has invalid argnames {argnames & positional} "
                         f"in {what}. These are positional-only")
    if any(p.kind is p.VAR_KEYWORD for p in params):
        return
    if argnames - valid:
        raise ValueError(f"Jitted function has invalid argnames {argnames - valid} "
                         f"in {what}. Function does not take these args.")


@contextlib.contextmanager
def disable_jit(disable: bool = True):
    """Like `jax.disable_jit`: inside it (in this thread) jitted functions,
    mlax.numpy's included, run their Python op by op, each op a compiled
    program of its own, so `print` shows values, not tracers. Transformations
    (grad, vmap) called outside jit, and lax's control flow, still compile
    their function as one program."""
    previous = config_lib.scoped.disable_jit
    config_lib.scoped.disable_jit = bool(disable)
    # A fast path the C++ dispatcher recorded outside must not run inside:
    # the dispatch key differs here, so every call comes back to Python
    # (which then runs no fast path: _cache_miss hands back none). Inside a
    # trace the key is already the trace depth.
    swapped = not core.trace_stack()
    if swapped:
        key = dispatch.tracing.swap_local(-1 if disable else 0)
    try:
        yield
    finally:
        config_lib.scoped.disable_jit = previous
        if swapped:
            dispatch.tracing.swap_local(key)


def fwd_and_bwd(fun, argnums, has_aux=False, jitted=True):
    """Like `jax.fwd_and_bwd`: `fwd(*args)` returns `(fun(*args), residuals)`
    (and `aux` with has_aux), `bwd(residuals, cotangent)` the cotangents of
    the arguments at `argnums`: `vjp` split in two so that `bwd` compiles
    once (jitted, the default) however often `fwd` runs."""
    fwd, bwd = linear.split_vjp(fun, argnums, has_aux)
    return (jit(fwd), jit(bwd)) if jitted else (fwd, bwd)


def _positional_params(signature):
    """The names of the parameters an argument position can fill, in order
    (a keyword-only parameter, or one after *args, is not among them)."""
    names = []
    for p in signature.parameters.values():
        if p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            break
        names.append(p.name)
    return names


def eager_jit(fun, static_argnames=()):
    """`fun` (an mlax.numpy function) as JAX makes jax.numpy's: called on
    arrays it is one cached jit dispatch (compiled once per signature and
    value of the `static_argnames`); called inside a trace it is traced in
    place, as if not wrapped."""
    return Jitted(fun, static_argnames=static_argnames, inline=True)


class TracedIR:
    """The mlax module a function traces to (`make_ir(f)(*args)`)."""

    def __init__(self, module):
        self.module = module

    def as_text(self, debug_info=False) -> str:
        return self.module.operation.get_asm(enable_debug_info=debug_info)

    def __str__(self):
        return self.as_text()

    def __repr__(self):
        return self.as_text()


def make_ir(fun, *, static_argnums=(), static_argnames=()):
    """`make_ir(f)(*args)` returns the mlax dialect module `f` traces to
    (before any pass), like `jax.make_jaxpr`."""
    jitted = Jitted(fun, static_argnums, static_argnames)

    def traced(*args, **kwargs):
        leaves, treedef, _, rebuild = jitted._prepare(args, kwargs)
        avals = tuple(_leaf_aval(l) for l in leaves)
        module, _, _ = trace_to_module(fun, treedef, avals, rebuild)
        return TracedIR(module)

    return traced


def clear_caches():
    """Drops every compiled executable (jit caches, eager op caches, the
    programs of transformations called outside jit, and the executables they
    share by StableHLO text)."""
    for j in list(_all_jitted):
        j.clear_cache()
    primitives._eager_function.cache_clear()
    dispatch.clear_cache()
    tracing.clear_cache()
    runtime.clear_compile_cache()


def device_put(x, device=None):
    """Moves `x` (an array, a NumPy array, a scalar, or a pytree of them)
    to `device` (default: the default device), or lays it out as a sharding
    says (a NamedSharding over a mesh, a SingleDeviceSharding, or a
    PartitionSpec inside `with mesh:`); arrays already there are returned as
    they are. `device` may also be a pytree prefix of `x` of those. Its
    transfers are explicit ones to the transfer guards."""
    with transfer_guard.explicit_put():
        return _device_put(x, device)


def _device_put(x, device):
    leaves, treedef = registry.flatten(x)
    if len(leaves) != 1 or treedef.num_nodes != 1:
        if _is_placement(device):
            return treedef.unflatten([_device_put(leaf, device) for leaf in leaves])
        places = partitioned._broadcast_prefix(device, x, "device_put", "device_put")
        return treedef.unflatten([_device_put(leaf, d) for leaf, d in zip(leaves, places)])
    if isinstance(device, (sharding_lib.PartitionSpec, sharding_lib.NamedSharding)):
        return _device_put_named(x, sharding_lib.resolve(device, "device_put"))
    if not _is_placement(device):
        raise ValueError(
            "`mlax.device_put` only accepts `None`, `mlax.sharding.Sharding`, `mlax.Device` "
            f"or a pytree of these values. Received invalid value: {device}")
    device = runtime.sharding_device(device)
    if isinstance(x, Array) and runtime.is_mesh_buffer(x._buf):
        value = x._value_np()
        return Array(runtime.device_put(np.asarray(value), device), x.aval)
    if isinstance(x, Array):
        if device is None:
            return x
        buf = runtime.committed_to(x._buf, device)
        return x if buf is x._buf else Array(buf, x.aval)
    if isinstance(x, Tracer):
        return x
    aval = primitives.aval_of(x)  # a Python scalar stays weakly typed, as in JAX
    value = primitives.to_numpy(x, aval)
    return Array(runtime.device_put(value, device), aval)


def _is_placement(d):
    return d is None or isinstance(d, (sharding_lib.PartitionSpec, sharding_lib.NamedSharding)) \
        or (hasattr(d, "platform") and hasattr(d, "id")) \
        or runtime.single_device_sharding_device(d) is not None


def _device_put_named(x, named):
    if isinstance(x, Tracer):
        raise NotImplementedError(
            "mlax.device_put of a traced value onto a mesh: use "
            "lax.with_sharding_constraint inside jit")
    if isinstance(x, Array):
        named.check_shape(x.shape, "One of device_put args")
        return Array(runtime.reshard(x._buf, x.aval, named), x.aval)
    aval = primitives.aval_of(x)
    named.check_shape(aval.shape, "One of device_put args")
    return Array(runtime.device_put_named(primitives.to_numpy(x, aval), named), aval)


def device_get(x):
    """The NumPy value(s) of an array or a pytree of arrays (explicit
    transfers to the transfer guards)."""
    leaves, treedef = registry.flatten(x)
    with transfer_guard.explicit_get():
        return treedef.unflatten([np.asarray(leaf) if isinstance(leaf, Array) else leaf
                                  for leaf in leaves])


def copy_to_host_async(x):
    """Starts copying every array leaf of `x` to the host (later reads of
    its value need not wait for it) and returns `x`, as
    jax.copy_to_host_async; leaves without the method are left alone."""
    for leaf in registry.flatten(x)[0]:
        copy = getattr(leaf, "copy_to_host_async", None)
        if copy is not None:
            copy()
    return x


def effects_barrier():
    """Waits until the host callbacks of every program run so far have
    run (jax.effects_barrier): `debug.print`, `debug.callback` and
    `io_callback` output is complete when it returns."""
    runtime.effects_barrier()


def block_until_ready(tree):
    for leaf in registry.flatten(tree)[0]:
        if isinstance(leaf, Array):
            leaf.block_until_ready()
    return tree


# Lower layers call into jit through these hooks: an op run outside any trace
# is a jitted program, and turning a check on that only Python applies
# (debug_nans, no_execution, ...) drops the C++ fast paths. (Every program
# cache, the fast paths' included, is keyed by the options programs depend
# on: config.trace_context, and the C++ side's jit-key configs.)
primitives.register_jit(functools.partial(Jitted, disable_jit_runs_python=False))
config_lib.register_fast_path_clearer(dispatch.clear_cache)

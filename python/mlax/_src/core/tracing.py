"""Tracing a Python function into MLIR, and running a traced program.

`trace_to_module` traces a function into a fresh module whose @main is the
function (what jit compiles); `trace_function` traces one into a private
func.func of the module being traced (what an op naming a callee, such as
mlax.grad, mlax.vmap, mlax.call or a control-flow region, refers to).
`_Callee` wraps the latter for the transformations; `_run` runs a
transformation in the current trace, or, outside any trace, compiles and
executes it as a program of its own.
"""
from __future__ import annotations

import collections
import inspect
import re
import sys
import threading

import numpy as np
from mlir import ir
from mlir.dialects import func as func_d

from mlax._src.backend import compiler, host_callbacks, native, runtime
from mlax._src.backend import sharding as sharding_lib
from mlax._src.base import config as config_lib
from mlax._src.base import dtypes, jaxlib_internals
from mlax._src.base.tree import registry
from mlax._src.core import debug_checks, key_reuse, leak_check, primitives
from mlax._src.core import tracer as core
from mlax._src.core import mesh_programs, ref_state
from mlax._src.core.array import Array
from mlax._src.core.tracer import Trace, Tracer

def _symbol_name(fun) -> str:
    name = getattr(fun, "__name__", "fn")
    return re.sub(r"[^A-Za-z0-9_]", "_", name) or "fn"


def _fun_location(fun) -> ir.Location:
    code = getattr(inspect.unwrap(fun), "__code__", None)
    if code is None:
        return ir.Location.unknown()
    return ir.Location.name(_symbol_name(fun),
                            ir.Location.file(code.co_filename, code.co_firstlineno, 0))


def _return_values(trace: Trace, out_leaves):
    values, avals = [], []
    for leaf in out_leaves:
        if isinstance(getattr(leaf, "aval", None), ref_state.AbstractRef):
            fun = trace.debug[0] if trace.debug else None
            what = trace.traced_for or trace.transform or "jit"
            raise ValueError(
                f"function {function_where(fun)} traced for {what} returned a mutable array "
                f"reference of type {leaf.aval}, but mutable array references cannot be "
                "returned.")
        if isinstance(leaf, Tracer):
            core.check_tracer(leaf)
            aval = leaf.aval
        else:
            aval = primitives.aval_of(leaf)
        values.append(primitives.to_value(trace, leaf, aval))
        avals.append(aval)
    return values, avals


def _trace_into(trace: Trace, fun, args_tree, in_avals, block_args, fun_args_builder,
                known=None, debug=None):
    """Runs `fun` on tracers in `trace`; returns (out_values, out_avals, out_tree).
    `known`: what is known of each argument's value (see `Tracer.known`)."""
    if known is None:
        tracers = [Tracer(v, a, trace) for v, a in zip(block_args, in_avals)]
    else:
        tracers = [Tracer(v, a, trace, k) for v, a, k in zip(block_args, in_avals, known)]
    # Names for error messages: the user's function and arguments, where the
    # traced function is a wrapper of it.
    trace.debug = debug or (fun, args_tree, fun_args_builder)
    stack = core.trace_stack()
    stack.append(trace)
    tracing_depth = jaxlib_internals.tracing_flag.swap_local(len(stack))  # keys C++ jit dispatch
    here = sys._getframe()
    core.enter_boundary(here)  # user locations of the ops below stop their walk here
    try:
        args, kwargs = fun_args_builder(args_tree.unflatten(tracers))
        out = fun(*args, **kwargs)
        written = ref_state.written_outside(trace)
        if written:  # its boundary traces it again with them as state
            raise ref_state.RefsWritten(written, trace)
        out_leaves, out_tree = registry.flatten(out)
        # float0 results (the gradient of an integer input under allow_int)
        # are no values of the program: NumPy zeros, put back by out_tree.
        # So are the auxiliary data a transformation passes through (PassThrough).
        static = {i: plain_int(l.value) if isinstance(l, PassThrough) else l
                  for i, l in enumerate(out_leaves)
                  if isinstance(l, PassThrough) or getattr(l, "dtype", None) == dtypes.float0}
        if static:
            out_tree = _StaticLeaves(out_tree, static, len(out_leaves))
            out_leaves = [l for i, l in enumerate(out_leaves) if i not in static]
        values, out_avals = _return_values(trace, out_leaves)
    finally:
        core.exit_boundary(here)
        del here
        jaxlib_internals.tracing_flag.swap_local(tracing_depth)
        stack.pop()
        trace.alive = False
        ref_state.end(trace, _symbol_name(fun))
    if config_lib.config.jax_check_tracer_leaks:
        # Checked when the outermost trace ends: until then the machinery of
        # the transformations being traced may still hold inner tracers.
        del tracers, args, kwargs, out, out_leaves
        leak_check.ended(trace, outermost=not stack)
    return values, out_avals, out_tree


core.set_boundary_code(_trace_into.__code__)


def function_where(fun) -> str:
    """`fun`'s name and where it is defined, as JAX's errors name it
    (`f at file.py:12`)."""
    target = getattr(fun, "__wrapped__", fun)
    code = getattr(target, "__code__", None)
    name = getattr(target, "__name__", repr(target))
    return f"{name} at {code.co_filename}:{code.co_firstlineno}" if code is not None else name


def _refuse_tracing(fun):
    """JAX's no_tracing guard, naming the function and where it is defined."""
    raise RuntimeError(f"re-tracing function {function_where(fun)} for `jit`, but "
                       "'no_tracing' is set")


def trace_to_module(fun, args_tree, in_avals, fun_args_builder, name="main", known=None,
                    transform=None, refs_in=False):
    """Traces `fun` into a fresh module whose public @main is the function;
    `known`: the arguments' values where they are concrete (a transformation
    run outside jit), `transform` the name of that transformation.
    `refs_in`: the caller passes in the Refs made outside that `fun` uses
    (ref_state.RefsNeeded reaches it); otherwise they are an error."""
    if config_lib.config.jax_no_tracing:
        _refuse_tracing(fun)
    ctx = native.context()
    with ctx, ir.Location.unknown():
        module = ir.Module.create()
        with ir.InsertionPoint(module.body), _fun_location(fun):
            ftype = ir.FunctionType.get([a.mlir_type() for a in in_avals], [])
            fop = func_d.FuncOp(name, ftype)
        block = fop.add_entry_block()
        trace = Trace(module, fop, block)
        trace.transform = transform
        trace.concrete = known is not None
        try:
            values, out_avals, out_tree = _trace_into(
                trace, fun, args_tree, in_avals, list(block.arguments), fun_args_builder,
                known)
        except ref_state.RefsNeeded as e:
            if refs_in:
                raise
            raise NotImplementedError(
                f"{_symbol_name(fun)} uses a mutable array reference of type "
                f"{e.refs[0].aval} made outside it, where mlax does not pass Refs in "
                "(jit calls, make_jaxpr, eval_shape, lower, transformations and control flow "
                "do); pass its value instead.") from None
        with ir.InsertionPoint(block), ir.Location.unknown():
            func_d.ReturnOp(values)
        # The block's arguments: `in_avals`' and any `Trace.add_argument` added.
        fop.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(
            [a.type for a in block.arguments], [a.mlir_type() for a in out_avals]))
    return module, out_avals, out_tree


def trace_function(outer: Trace, fun, treedef, avals, rebuild, name, known=None,
                   transform=None, debug=None, traced_for=None, differentiated=None):
    """Traces `fun` into a new private func.func of `outer`'s module
    (`known` and `transform` as for `trace_to_module`, `differentiated` as
    `Trace.differentiated`).

    Returns (symbol, out_avals, out_tree, captured): the tracers of enclosing
    traces that `fun` closes over are appended to the function's arguments,
    in the order of `captured`.
    """
    module = outer.module
    with module.context, ir.Location.unknown():
        names = {op.attributes["sym_name"].value for op in module.body.operations
                 if "sym_name" in op.attributes}
        sym = name
        n = 0
        while sym in names or sym == "main":
            n += 1
            sym = f"{name}_{n}"
        # The user's function where `fun` wraps it: its line, not mlax's.
        with ir.InsertionPoint(module.body), _fun_location(debug[0] if debug else fun):
            fop = func_d.FuncOp(sym, ir.FunctionType.get([a.mlir_type() for a in avals], []))
            fop.attributes["sym_visibility"] = ir.StringAttr.get("private")
        block = fop.add_entry_block()
        inner = Trace(module, fop, block, parent=outer)
        if transform is not None:
            inner.transform = transform
        inner.traced_for = traced_for
        inner.differentiated = differentiated
        inner.concrete = outer.concrete and known is not None
        try:
            values, out_avals, out_tree = _trace_into(
                inner, fun, treedef, avals, list(block.arguments), rebuild, known, debug)
        except (ref_state.RefsWritten, RefsNotThreaded):
            fop.operation.erase()  # (its caller traces it again, or inline)
            raise
        captured = list(inner.captures.values())
        with ir.InsertionPoint(block):
            func_d.ReturnOp(values)
        fop.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(
            [a.mlir_type() for a in avals] + [t.aval.mlir_type() for t, _ in captured],
            [a.mlir_type() for a in out_avals]))
    return sym, out_avals, out_tree, [t for t, _ in captured]


class _Executable:
    """One compiled specialisation of a jitted function."""

    __slots__ = ("exe", "in_avals", "out_avals", "out_tree", "stablehlo", "stats",
                 "out_avals_list", "device", "kept", "effects", "_handlers",
                 "_uncommitted_handlers")

    def __init__(self, exe, in_avals, out_avals, out_tree, stablehlo, stats):
        self.exe = exe
        self.in_avals = in_avals
        self.out_avals = out_avals
        self.out_tree = out_tree
        self.stablehlo = stablehlo
        self.stats = stats
        self.device = None  # None: the default device (no per-call checks)
        self.kept = None  # indices of the arguments the program takes (None: all)
        # Whether the program calls host callbacks: its runs are then tracked
        # for effects_barrier, and never handed to the C++ fast path (as JAX's
        # programs with callbacks are not).
        self.effects = host_callbacks.calls_host(stablehlo)
        self._handlers = None
        self._uncommitted_handlers = None

    def handlers(self, committed=True):
        """jaxlib's result handlers for the outputs: each output buffer gets
        its mlax aval (and the device's sharding) directly, committed to the
        device or not (jax.Array.committed)."""
        handlers = self._handlers if committed else self._uncommitted_handlers
        if handlers is None:
            handlers = runtime.result_handlers(
                tuple(self.out_avals), self.device or runtime.default_device(), committed)
            if committed:
                self._handlers = handlers
            else:
                self._uncommitted_handlers = handlers
        return handlers

    def __call__(self, leaves):
        # As JAX's, the results are committed to the device where it was
        # chosen (a device given, arguments on another one) or where an
        # argument is committed to it.
        device = self.device
        committed = device is not None or any(
            type(l) is Array and l._buf._committed for l in leaves)
        kept = self.kept
        if kept is not None:
            leaves = [leaves[i] for i in kept]
        if self.effects:
            outs = runtime.execute_effectful(self.exe, self.buffers(leaves, kept),
                                             self.handlers(committed), device)
            return self.out_tree.unflatten(
                [Array(b, a) for b, a in zip(outs, self.out_avals)])
        if device is None:
            try:  # all device arrays: the common case, one comprehension
                bufs = [l._buf for l in leaves]
            except AttributeError:
                bufs = None
            if bufs is not None:
                return self.out_tree.unflatten(
                    [Array(b, a) for b, a in zip(
                        runtime.execute(self.exe, bufs, self.handlers(committed)),
                        self.out_avals)])
        outs = runtime.execute(self.exe, self.buffers(leaves, kept), self.handlers(committed))
        return self.out_tree.unflatten(
            [Array(b, a) for b, a in zip(outs, self.out_avals)])

    def buffers(self, leaves, kept=None):
        """The buffers of `leaves` (all arguments, or those of `kept`) on this
        executable's device (NumPy arrays and scalars put there)."""
        device = self.device
        avals = self.in_avals if kept is None else [self.in_avals[i] for i in kept]
        bufs = []
        for leaf, aval in zip(leaves, avals):
            if type(leaf) is Array:
                bufs.append(leaf._buf if device is None else runtime.to_device(leaf._buf, device))
            else:
                bufs.append(runtime.device_put(primitives.to_numpy(leaf, aval), device))
        return bufs


# What _arguments_device returns when an argument lies over a mesh (jit then
# partitions the program; see mlax._src.jit.partitioned).
ON_A_MESH = object()


def _arguments_device(name, leaves):
    """The device the array arguments are on, when it is not the default
    device (None otherwise: the common case costs one comparison per array).
    As in JAX, arrays on the default device follow the others (they are
    moved); arrays on two different other devices are an error."""
    default = runtime.default_device()
    found = None
    for leaf in leaves:
        if type(leaf) is Array:
            dev = runtime.buffer_device(leaf._buf)
            if dev is None:
                return ON_A_MESH
            if dev == default or dev == found:
                continue
            if found is not None:
                raise ValueError(
                    f"Received incompatible devices for jitted computation {name}: "
                    f"arguments are on {found} and {dev}; move them to one device "
                    "with mlax.device_put (or choose one with jit(..., device=...))")
            found = dev
    return found


def _leaf_aval(leaf):
    t = type(leaf)
    if t is Array:
        return leaf.aval
    if t is Tracer:  # one of a trace that has ended: UnexpectedTracerError
        core.check_tracer(leaf)
    return primitives.aval_of(leaf)


def _plain_rebuild(dyn):
    return dyn[0], dyn[1]


def is_array_leaf(leaf) -> bool:
    """Whether a transformation can take `leaf` as an array argument."""
    if isinstance(leaf, (Array, Tracer)):
        return True
    try:
        primitives.aval_of(leaf)
    except TypeError:
        return False
    return True


def debug_tree(args, kwargs, dynamic=None):
    """The tree that names the leaves of `(args, kwargs)` (those at positions
    `dynamic`, when only they are traced) for `_Callee`'s `debug`."""
    leaves, treedef = registry.flatten((tuple(args), kwargs))
    if dynamic is None:
        return treedef
    keep = set(dynamic)
    return _StaticLeaves(treedef, {i: l for i, l in enumerate(leaves) if i not in keep},
                         len(leaves))


class PassThrough:
    """A result leaf a transformation hands back as it is, not as a value of
    its program: as JAX's, `grad(f, has_aux=True)` outside any trace returns
    the auxiliary data `f` did not compute from its arguments (a string, a
    NumPy array, a Python float, an array it closed over) unchanged. Inside a
    trace `_run` unwraps them, and the enclosing trace decides (a jit's
    results become arrays, as in JAX)."""
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


def pass_through_untraced(tree):
    """`tree` with its leaves that are no tracers (values not computed in
    the trace) as PassThrough leaves: the traced leaves and the tree that
    puts the others back among them (a treedef-like `unflatten`)."""
    leaves, treedef = registry.flatten(tree)
    static = {i: PassThrough(leaf) for i, leaf in enumerate(leaves)
              if not isinstance(leaf, Tracer)}
    if not static:
        return leaves, treedef
    return ([leaf for i, leaf in enumerate(leaves) if i not in static],
            _StaticLeaves(treedef, static, len(leaves)))


def unwrap_pass_through(tree):
    leaves, treedef = registry.flatten(tree)
    if not any(isinstance(leaf, PassThrough) for leaf in leaves):
        return tree
    return treedef.unflatten([leaf.value if isinstance(leaf, PassThrough) else leaf
                              for leaf in leaves])


class _StaticLeaves:
    """A flat list of leaves as a pytree definition sees it: `static` (index
    -> value) merged among traced leaves."""

    def __init__(self, treedef, static, total):
        self.treedef, self.static, self.total = treedef, static, total
        self.num_leaves = total - len(static)

    def unflatten(self, dynamic):
        dynamic = iter(dynamic)
        return self.treedef.unflatten(
            [self.static[i] if i in self.static else next(dynamic) for i in range(self.total)])


def is_float0(leaf) -> bool:
    """Whether `leaf` is a float0 NumPy array (a tangent or cotangent of an
    integer or boolean value): it holds no data, only a shape."""
    return isinstance(leaf, np.ndarray) and leaf.dtype == dtypes.float0


class Float0Leaves:
    """A pytree definition whose float0 leaves are left out of the flat
    leaves and put back, as float0 zeros of their shapes, by `unflatten`:
    as JAX's jit takes float0 arguments without passing them to the
    program (no op can use them) and keys its cache on their shapes.
    Hashable, as the treedefs of jit's cache keys are."""

    __slots__ = ("treedef", "shapes", "total", "num_leaves")

    def __init__(self, treedef, shapes, total):
        self.treedef, self.shapes, self.total = treedef, shapes, total
        self.num_leaves = total - len(shapes)

    def unflatten(self, dynamic):
        dynamic = iter(dynamic)
        shapes = dict(self.shapes)
        return self.treedef.unflatten(
            [np.zeros(shapes[i], dtypes.float0) if i in shapes else next(dynamic)
             for i in range(self.total)])

    def _key(self):
        return (self.treedef, self.shapes, self.total)

    def __eq__(self, other):
        return type(other) is Float0Leaves and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())


def split_float0(leaves, treedef):
    """(leaves, treedef) with the float0 leaves moved into the definition
    (`Float0Leaves`); unchanged when there are none."""
    for leaf in leaves:
        if type(leaf) is np.ndarray and leaf.dtype == dtypes.float0:
            break
    else:
        return leaves, treedef
    shapes = tuple((i, leaf.shape) for i, leaf in enumerate(leaves) if is_float0(leaf))
    dropped = {i for i, _ in shapes}
    return ([leaf for i, leaf in enumerate(leaves) if i not in dropped],
            Float0Leaves(treedef, shapes, len(leaves)))


def _fits(n: int) -> bool:
    """Whether a Python int is a value of its weak integer type (it is an
    error otherwise, raised where it is used, as a constant)."""
    try:
        primitives.check_python_int(n)
    except (OverflowError, TypeError, ValueError):
        return False
    return True


class _TracedInts:
    """A pytree definition that hands the function the Python ints at
    positions `ints` (index among the dynamic leaves -> the int) as
    TracedInts of the tracers there."""

    def __init__(self, treedef, ints):
        self.treedef, self.ints = treedef, ints
        self.num_leaves = treedef.num_leaves

    def unflatten(self, dynamic):
        dynamic = list(dynamic)
        for k, n in self.ints.items():
            if isinstance(dynamic[k], Tracer):
                dynamic[k] = core.TracedInt(n, dynamic[k])
        return self.treedef.unflatten(dynamic)


def plain_int(x):
    """`x`, or the plain int of a TracedInt (what leaves a trace)."""
    return int(x) if type(x) is core.TracedInt else x


def _name_of(fun, prefix=""):
    return prefix + _symbol_name(fun)


_EAGER_CACHE_SIZE = 256


_eager_cache: "collections.OrderedDict" = collections.OrderedDict()


_eager_lock = threading.Lock()


def _run(traced_fun, name, args, kwargs=None, transform=None, static=()):
    """`_run_program`, with the values of the Refs made outside that the
    program uses passed in as arguments and their final values written back
    (found by tracing: each new one traces it again). `static`: positions
    among the leaves of (args, kwargs) passed through as they are, not traced."""
    if core.trace_stack():
        return unwrap_pass_through(traced_fun(*args, **(kwargs or {})))
    refs = []
    while True:
        try:
            if not refs:
                return _run_program(traced_fun, name, args, kwargs, transform, static)
            values = [ref_state.read(r) for r in refs]
            out, finals = _run_program(ref_state.explicit(traced_fun, refs), name,
                                       (values,) + tuple(args), kwargs, transform,
                                       [i + len(values) for i in static])
        except ref_state.RefsNeeded as e:
            refs += [r for r in e.refs if all(r is not s for s in refs)]
            continue
        ref_state.write_back(refs, finals)
        return out


def _run_program(traced_fun, name, args, kwargs=None, transform=None, static_leaves=()):
    """Calls `traced_fun(*args, **kwargs)` in the current trace, or, when
    nothing is being traced, compiles and runs it as a program of its own.

    Outside any trace the arguments are concrete, and the trace knows their
    values (as JAX's eager transformations do): Python in `traced_fun` may
    look at the values derived from them. Leaves that are not arrays (a
    function passed to `grad(app, argnums=1)`) are passed through as they
    are; the transformation decides whether it accepts them."""
    kwargs = kwargs or {}
    if core.trace_stack():
        return unwrap_pass_through(traced_fun(*args, **kwargs))
    all_leaves, treedef = registry.flatten((args, kwargs))
    static = {i: leaf for i, leaf in enumerate(all_leaves)
              if not is_array_leaf(leaf) or i in static_leaves}
    # The Python ints passed through are arguments of the program too, seen
    # by the function as TracedInts: no program per int where it is only an
    # operand.
    ints = {i for i in static_leaves if type(all_leaves[i]) is int and _fits(all_leaves[i])}
    leaves = all_leaves
    if static:
        dyn = [i for i in range(len(all_leaves)) if i not in static or i in ints]
        leaves = [all_leaves[i] for i in dyn]
        static = {i: leaf for i, leaf in static.items() if i not in ints}
        treedef = _StaticLeaves(treedef, static, len(all_leaves))
        if ints:
            treedef = _TracedInts(treedef, {k: all_leaves[i] for k, i in enumerate(dyn)
                                            if i in ints})
    avals = tuple(_leaf_aval(leaf) for leaf in leaves)
    keys = None
    if config_lib.config.jax_debug_key_reuse:  # checked as a jit call's
        traced_fun, found = key_reuse.recording(traced_fun)
        keys = key_reuse.keys_in((args, kwargs))
    with sharding_lib.recording_constraint_mesh() as seen:  # a shard_map or constraint inside
        module, out_avals, out_tree = trace_to_module(
            traced_fun, treedef, avals, _plain_rebuild, known=leaves, transform=transform,
            refs_in=True)
    if config_lib.config.jax_no_execution:
        raise config_lib.no_execution_error(f"jit({name})")
    if keys is not None:
        found[-1].check(keys, "jit", traced=False)
    out = run_module(module, out_avals, out_tree, avals, leaves, name, seen.mesh)
    if config_lib.checking_invalid_values():
        kind = debug_checks.first_invalid(out)
        if kind is not None:
            raise debug_checks.invalid_value_error(kind, name)
    if keys is not None:
        found[-1].update(keys, key_reuse.keys_in(out))
    return out


def _run_over_mesh(module, out_avals, out_tree, avals, leaves, mesh):
    """run_module for a program partitioned over `mesh` (or over the mesh
    its array arguments lie on): arguments keep their layout over the mesh,
    others are replicated; XLA lays the results out."""
    in_named = []
    for leaf, aval in zip(leaves, avals):
        named = None
        if type(leaf) is Array and runtime.is_mesh_buffer(leaf._buf):
            named = leaf.sharding
            if mesh is None:
                mesh = named.mesh
            elif named.mesh != mesh:
                raise ValueError(f"Received incompatible devices for the computation: "
                                 f"arguments over {named.mesh} and {mesh}")
        in_named.append(named)
    replicated = sharding_lib.NamedSharding(mesh, sharding_lib.PartitionSpec())
    in_named = tuple(n if n is not None else replicated for n in in_named)
    mesh_programs.annotate(module, in_named, avals, (None,) * len(out_avals), out_avals)
    key = (module.operation.get_asm(enable_debug_info=False), out_tree, avals, in_named,
           tuple(out_avals), config_lib.config.trace_context)
    with _eager_lock:
        entry = _eager_cache.get(key)
    if entry is None:
        stablehlo = compiler.to_stablehlo(
            module, platform=runtime.lowering_platform(mesh._flat_devices[0]))
        exe = runtime.compile_spmd(stablehlo, mesh, (True,) * len(out_avals))
        entry = mesh_programs.MeshExecutable(exe, mesh, avals, in_named, out_avals, out_tree,
                                             (None,) * len(out_avals), stablehlo, {},
                                             compiler.kept_arguments(module))
        with _eager_lock:
            _eager_cache[key] = entry
            while len(_eager_cache) > _EAGER_CACHE_SIZE:
                _eager_cache.popitem(last=False)
    return entry(leaves)


def run_module(module, out_avals, out_tree, avals, leaves, name, mesh=None):
    """Compiles (or finds in the eager cache) a traced `module` whose
    arguments are `leaves`, and runs it on them (partitioned over `mesh`, or
    over the mesh its arguments lie on, if any)."""
    device = _arguments_device(name, leaves)  # None: the default device
    if mesh is not None or device is ON_A_MESH:
        return _run_over_mesh(module, out_avals, out_tree, avals, leaves, mesh)
    # A program calling host callbacks is compiled for this trace's Python
    # functions only: never looked up or kept by its text.
    has_callbacks = host_callbacks.callbacks_of(module) is not None
    # The outputs' weak types are not in the text (x * 3.0 and x * float32(3)
    # print the same program): they are part of the key.
    # (And the options the compile reads, which the text need not show:
    # config.trace_context.)
    key = (module.operation.get_asm(enable_debug_info=False), out_tree, avals, device,
           tuple(out_avals), config_lib.config.trace_context)
    entry = None
    if not has_callbacks:
        with _eager_lock:
            entry = _eager_cache.get(key)
            if entry is not None:
                _eager_cache.move_to_end(key)
    if entry is None:
        stablehlo = compiler.to_stablehlo(
            module, platform=runtime.lowering_platform(device or runtime.default_device()))
        exe = compiler.compile_stablehlo(stablehlo, device, name=name, module=module)
        entry = _Executable(exe, avals, out_avals, out_tree, stablehlo, {})
        entry.device = device
        entry.kept = compiler.kept_arguments(module)
        if not has_callbacks:
            with _eager_lock:
                _eager_cache[key] = entry
                while len(_eager_cache) > _EAGER_CACHE_SIZE:
                    _eager_cache.popitem(last=False)
    return entry(leaves)


# Eager vjps' programs cut into forward and backward (transforms.autodiff's
# _SplitVjp), by the combined program's text: kept here to be cleared with
# the others.
_eager_split_cache: "collections.OrderedDict" = collections.OrderedDict()


def clear_cache():
    with _eager_lock:
        _eager_cache.clear()
        _eager_split_cache.clear()


def active_arguments(leaves):
    """(mode, the indices of `leaves` that depend on what a function being
    differentiated differentiates) where there are any, else None: a leaf
    is a tracer of the current trace or of an enclosing one, whose function
    a derivative is taken of (`Trace.differentiated`; its mode, "jvp" or
    "vjp"). JAX's JVP trace sees a nonzero tangent on those (a custom rule
    is then called in place of the function). Integers and stop_gradient's
    results carry no tangent."""
    inactive = set()

    def active(value, trace):
        wrt = trace.differentiated[1]
        stack, seen = [value], set()
        while stack:
            v = stack.pop()
            if v in inactive or v in seen:
                continue
            seen.add(v)
            if not isinstance(v.type, ir.RankedTensorType) or \
                    not dtypes.is_inexact(dtypes.shape_dtype_of(v.type)[1]):
                continue
            if isinstance(v.owner, ir.Block):
                if v.owner == trace.block and ir.BlockArgument(v).arg_number in wrt:
                    return True
                continue
            if v.owner.name == "mlax.stop_gradient":
                continue
            ops = [v.owner]
            while ops:
                op = ops.pop()
                stack.extend(op.operands)
                for region in op.regions:
                    for block in region.blocks:
                        ops.extend(block.operations)
        inactive.update(seen)
        return False

    def depth(trace):
        n = 0
        while trace is not None:
            n, trace = n + 1, trace.parent
        return n

    # The mode is the innermost differentiated function's, whose derivative
    # meets the call first (JAX's innermost trace processes it): a call on a
    # value jvp differentiates and one grad inside it does is reverse mode's
    # (which replaces a custom_vjp call by fwd and bwd, then differentiated
    # by the jvp).
    mode, found, deepest = None, [], -1
    for i, leaf in enumerate(leaves):
        if isinstance(leaf, Tracer) and leaf.trace.differentiated is not None \
                and leaf.trace.alive and dtypes.is_inexact(leaf.aval.dtype) \
                and active(leaf.value, leaf.trace):
            d = depth(leaf.trace)
            if d > deepest:
                mode, deepest = leaf.trace.differentiated[0], d
            found.append(i)
    return (mode, frozenset(found)) if found else None


def differentiated_mode(leaves):
    """"jvp" or "vjp" where `active_arguments(leaves)` finds any, else None."""
    found = active_arguments(registry.flatten(tuple(leaves))[0])
    return found and found[0]


class RefsNotThreaded(NotImplementedError):
    """A function traced as a callee wrote `refs`, made outside it, where its
    transformation does not thread them: a transformation that can (as
    checkpoint) catches it and traces again with them as explicit state."""

    def __init__(self, message, refs):
        super().__init__(message)
        self.refs = list(refs)


def _refs_written_error(transform, name, refs):
    """The error for a transformation's function writing Refs made outside it."""
    aval = refs[0].aval
    if transform == "vmap":
        return Exception(  # JAX's class
            "performing a set/swap operation with vmapped value on an unbatched array "
            f"reference of type {aval}. Move the array reference to be an argument to "
            "the vmapped function?")
    return RefsNotThreaded(
        f"{transform or 'a transformation'}: the function {name} writes a mutable array "
        f"reference of type {aval} made outside it; mlax does not thread Refs through "
        "this transformation yet. Make the Ref inside the function, or return the "
        "value and write it outside.", refs)


class _Callee:
    """A Python function traced into a private func.func of the module."""

    def __init__(self, fun, leaves, name, avals=None, known=None, transform=None,
                 debug=None, traced_for=None, differentiated=None):
        """Traces `fun` on the avals of `leaves` (or on `avals`, e.g. one
        example of a batch); `operands` are `leaves` and the captures.

        `known=True`: `fun` sees the values of `leaves` where they are known
        (the primal inputs of a transformation called outside jit); or a
        list of what is known of each argument (`Tracer.known`); None: it
        is traced abstractly (jit, control flow, rules). `debug`: (the
        user's function, a tree of `leaves` as its (args, kwargs)) to name
        them in errors. `differentiated`: (mode, argument indices), for the
        function a derivative is taken of (`Trace.differentiated`)."""
        outer = core.current_trace()
        self.outer = outer
        leaf_avals = tuple(_leaf_aval(leaf) for leaf in leaves)
        self.in_avals = leaf_avals if avals is None else tuple(avals)
        if known is True:
            known = [core.known_of(leaf) for leaf in leaves]
        _, treedef = registry.flatten((tuple(leaves), {}))
        try:
            self.sym, self.out_avals, self.out_tree, self.captured = trace_function(
                outer, lambda *xs: fun(*xs), treedef, self.in_avals, _plain_rebuild, name,
                known, transform, debug and (debug[0], debug[1], _plain_rebuild),
                traced_for, differentiated)
        except ref_state.RefsWritten as e:
            raise _refs_written_error(transform or traced_for or outer.transform,
                                      _symbol_name(debug[0] if debug else fun),
                                      e.refs) from None
        self.operands = [primitives.to_value(outer, leaf, aval)
                         for leaf, aval in zip(leaves, leaf_avals)]
        self.operands += [outer.value_of(t) for t in self.captured]

    @property
    def symbol(self):
        return ir.FlatSymbolRefAttr.get(self.sym)

    def call(self):
        """An mlax.call of the function: its results as tracers."""
        ops = native.ops()
        with self.outer.ip, core.user_location():
            op = ops.CallOp([a.mlir_type() for a in self.out_avals], self.symbol,
                            self.operands)
        return [Tracer(r, a, self.outer) for r, a in zip(op.results, self.out_avals)]

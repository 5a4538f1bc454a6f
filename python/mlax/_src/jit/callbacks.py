"""Host callbacks: `debug.callback`, `debug.print` / `debug.log`, `pure_callback` and
`io_callback`, with the semantics of jax/_src/debugging.py and
jax/_src/callback.py.

Under a trace each call becomes one `mlax.host_callback` op naming a flat
Python function (NumPy arrays in, a tuple of NumPy arrays out) by its index
in the module's table (backend/host_callbacks.py); the op's derivative and
batching rules (MlaxCallbackOps.cpp) give grad and vmap JAX's behaviour, and
the table is handed to XLA when the program is compiled. Outside any trace,
debug callbacks run at once (as JAX's debug_callback_impl) and pure/io
callbacks run as a compiled program of their own (as JAX dispatches them),
so the result checks are the same.
"""
from __future__ import annotations

import copy
import functools
import logging
import string

import numpy as np
from mlir import ir

from mlax._src.backend import host_callbacks, native
from mlax._src.base.tree import registry
from mlax._src.core import primitives
from mlax._src.core import tracer as core
from mlax._src.core import tracing
from mlax._src.core.tracer import ShapedArray, Tracer

logger = logging.getLogger(__name__)

_VMAP_METHODS = ("sequential", "sequential_unrolled", "expand_dims", "broadcast_all",
                 "legacy_vectorized", None)


def _split_args(args, kwargs):
    """(treedef, dynamic leaves, {position: static leaf}) of (args, kwargs),
    as JAX's _split_callback_args: leaves that are not arrays stay Python."""
    leaves, treedef = registry.flatten((tuple(args), kwargs))
    dyn, static = [], {}
    for i, leaf in enumerate(leaves):
        if tracing.is_array_leaf(leaf):
            dyn.append(leaf)
        else:
            static[i] = leaf
    return treedef, dyn, static


def _merge(treedef, static, dyn):
    it = iter(dyn)
    total = len(static) + len(dyn)
    leaves = [static[i] if i in static else next(it) for i in range(total)]
    return treedef.unflatten(leaves)


def _to_numpy(leaf):
    return np.asarray(primitives.to_numpy(leaf, primitives.aval_of(leaf)))


def _as_array(value):
    from mlax._src.base import dtypes
    from mlax._src.core.array import Array, from_numpy

    if isinstance(value, Array):
        return value
    value = np.asarray(value)
    try:
        dtypes.canonicalize(value.dtype)
    except TypeError:  # (float0 and the like stay NumPy)
        return value
    return from_numpy(value)


def _emit(fn, kind, dyn, result_avals, vmap_method=None, ordered=False):
    """One mlax.host_callback op in the current trace: `fn` called on the
    values of `dyn`, giving values of `result_avals` (tracers)."""
    trace = core.current_trace()
    for leaf in dyn:
        if isinstance(leaf, Tracer):
            core.check_tracer(leaf)
    avals = [primitives.aval_of(leaf) for leaf in dyn]
    values = [primitives.to_value(trace, leaf, aval) for leaf, aval in zip(dyn, avals)]
    index = host_callbacks.add(trace.module, fn)
    ops = native.ops()
    with trace.ip, core.user_location():
        i64 = ir.IntegerType.get_signless(64)
        op = ops.HostCallbackOp(
            [a.mlir_type() for a in result_avals], values,
            ir.IntegerAttr.get(i64, index), ir.StringAttr.get(kind),
            vmap_method=ir.StringAttr.get(vmap_method) if vmap_method else None,
            ordered=ir.UnitAttr.get() if ordered else None)
    return [Tracer(r, a, trace) for r, a in zip(op.results, result_avals)]


# ---------------------------------------------------------------------------
# debug.callback, debug.print
# ---------------------------------------------------------------------------

def debug_callback(callback, *args, ordered: bool = False, partitioned: bool = False,
                   **kwargs):
    """jax.debug.callback: calls `callback(*args, **kwargs)` on the host with
    the values of the arrays among them, under jit, grad (the primal values)
    and vmap (once per batch element) alike. Returns None."""
    if not callable(callback):
        raise TypeError("first argument to jax.debug.callback must be callable, "
                        f"but got an object of type {type(callback)}")
    del partitioned  # one device: every shard is the whole array
    treedef, dyn, static = _split_args(args, kwargs)

    def flat_callback(*dyn_values):
        # As JAX's debug callbacks, the callback gets arrays (mlax Arrays),
        # not the NumPy arrays the host callback hands over.
        args_, kwargs_ = _merge(treedef, static, [_as_array(v) for v in dyn_values])
        callback(*args_, **kwargs_)
        return ()

    if not core.trace_stack():
        flat_callback(*[_to_numpy(leaf) for leaf in dyn])
        return None
    _emit(flat_callback, "debug", dyn, [], ordered=ordered)
    return None


class _FormatChecker(string.Formatter):
    """JAX's _DebugPrintFormatChecker: formats nothing, but every argument
    must be used by the format string."""

    def format_field(self, value, format_spec):
        del value, format_spec
        return ""

    def check_unused_args(self, used_args, args, kwargs):
        unused_args = [arg for i, arg in enumerate(args) if i not in used_args]
        unused_kwargs = [k for k in kwargs if k not in used_args]
        if unused_args:
            raise ValueError(
                f"Unused positional arguments to `jax.debug.print`: {unused_args}")
        if unused_kwargs:
            raise ValueError(
                f"Unused keyword arguments to `jax.debug.print`: {unused_kwargs}. "
                "You may be passing an f-string (i.e, `f\"{x}\"`) into "
                "`jax.debug.print` and instead should pass in a regular string.")


_formatter = _FormatChecker()


def _format_print_callback(fmt, np_printoptions, has_placeholders, logging_record, *args,
                           **kwargs):
    import sys

    if has_placeholders:
        with np.printoptions(**dict(np_printoptions)):
            msg = fmt.format(*args, **kwargs)
    else:
        msg = " ".join((fmt, *(str(a) for a in args)))
    if logging_record is not None:
        logging_record = copy.copy(logging_record)
        logging_record.msg = msg
        logger.handle(logging_record)
    else:
        sys.stdout.write(msg + "\n")


def _logging_record(level):
    """A record of the user's line calling debug.log (filled in with the
    message when the program runs), as JAX's _make_logging_record."""
    frame = core.user_frame()
    file_name, line_no = ("(unknown file)", 0) if frame is None else (
        frame.f_code.co_filename, frame.f_lineno)
    return logger.makeRecord(logger.name, level, file_name, line_no, "", (), None)


def debug_print(fmt: str | None = None, *args, ordered: bool = False,
                partitioned: bool = False, skip_format_check: bool = False,
                _use_logging: bool = False, **kwargs):
    """jax.debug.print: prints `fmt.format(*args, **kwargs)` with the values
    of the arrays, when the program runs (see `debug_callback`). The
    two-call form `debug.print(ordered=True)(fmt, ...)` works too.
    `_use_logging` (debug.log) logs the message at INFO level instead."""
    def _debug_print(fmt, *c_args, **c_kwargs):
        if not skip_format_check:
            _formatter.format(fmt, *c_args, **c_kwargs)  # the arguments fit fmt
        has_placeholders = False
        if fmt:
            _, field_name, *_ = next(iter(string.Formatter().parse(fmt)))
            has_placeholders = field_name is not None
        np_printoptions = tuple(np.get_printoptions().items())
        record = _logging_record(logging.INFO) if _use_logging else None
        debug_callback(functools.partial(_format_print_callback, fmt, np_printoptions,
                                         has_placeholders, record),
                       *c_args, ordered=ordered, partitioned=partitioned, **c_kwargs)

    if fmt is not None:
        _debug_print(fmt, *args, **kwargs)
        return None
    if args or kwargs:
        raise TypeError("debug.print() with no format string takes no other arguments "
                        "than ordered, partitioned and skip_format_check")
    return _debug_print


# jax.debug.log: debug.print through the logging module (this module's logger).
debug_log = functools.partial(debug_print, _use_logging=True)


# ---------------------------------------------------------------------------
# pure_callback, io_callback
# ---------------------------------------------------------------------------

def _result_avals(result_shape_dtypes):
    leaves, out_tree = registry.flatten(result_shape_dtypes)
    avals = []
    for leaf in leaves:
        if not (hasattr(leaf, "shape") and hasattr(leaf, "dtype")):
            raise ValueError(
                "result_shape_dtypes must be a pytree of objects with shape and dtype "
                f"attributes (such as ShapeDtypeStruct); got {leaf!r}")
        from mlax._src.base import dtypes
        avals.append(ShapedArray(leaf.shape, dtypes.canonicalize(leaf.dtype)))
    return avals, out_tree


def _host_call(kind, callback, result_shape_dtypes, args, kwargs, vmap_method=None,
               ordered=False):
    result_avals, out_tree = _result_avals(result_shape_dtypes)
    treedef, dyn, static = _split_args(args, kwargs)

    def flat_callback(*dyn_values):
        args_, kwargs_ = _merge(treedef, static, dyn_values)
        out = callback(*args_, **kwargs_)
        return tuple(registry.flatten(out)[0])

    def traced(*dyn_leaves):
        return _emit(flat_callback, kind, list(dyn_leaves), result_avals,
                     vmap_method=vmap_method, ordered=ordered)

    if core.trace_stack():
        outs = traced(*dyn)
    else:  # a program of its own, as JAX dispatches the primitive
        outs = tracing._run(traced, kind + "_callback", tuple(dyn))
    return out_tree.unflatten(list(outs))


def pure_callback(callback, result_shape_dtypes, *args, sharding=None,
                  vmap_method: str | None = None, **kwargs):
    """jax.pure_callback: `callback(*args, **kwargs)` on the host, NumPy
    arrays in, arrays of `result_shape_dtypes` out. Has no derivative (use
    custom_jvp); under vmap, `vmap_method` says how it is batched."""
    del sharding  # one device
    if vmap_method not in _VMAP_METHODS:
        raise ValueError(
            f"vmap_method must be on of the allowed methods {list(_VMAP_METHODS)}, "
            f"but got: {vmap_method}")
    if vmap_method == "legacy_vectorized":
        vmap_method = "expand_dims"
    return _host_call("pure", callback, result_shape_dtypes, args, kwargs,
                      vmap_method=vmap_method)


def io_callback(callback, result_shape_dtypes, *args, sharding=None,
                ordered: bool = False, **kwargs):
    """jax.experimental.io_callback: an impure host call, never dropped;
    no derivative; under vmap one call per batch element (an error when
    `ordered`)."""
    del sharding
    return _host_call("io", callback, result_shape_dtypes, args, kwargs, ordered=ordered)

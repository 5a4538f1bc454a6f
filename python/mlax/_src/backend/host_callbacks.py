"""The host (Python) callables of a traced program, and compiling a program
that calls them.

A traced module's `mlax.host_callback` ops name their callable by index into
the module's table (`table_of`). After lowering, each op is a
`stablehlo.custom_call @xla_ffi_python_cpu_callback` whose
`backend_config = {index = N : ui64}` still names a table entry. At compile
time (`compile_with_callbacks`) every call site gets an index of its own and
a wrapper that checks the callable's outputs against that site's result
types (a batching rule may have given one table entry several signatures),
as jax/_src/callback.py's _wrapped_callback does; the callables go to
`compile_and_load(host_callbacks=...)`. The lowering threads a token
through the calls of each block (so they run in program order); the
wrappers pass it through.

Programs with callbacks are never cached by their text, in memory or on
disk: two traces print the same text for different Python functions (JAX
skips the persistent cache for them too).
"""
from __future__ import annotations

import weakref

import numpy as np

from mlax._src.base import dtypes, jaxlib_internals

_TABLES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()

CALL_TARGETS = ("xla_ffi_python_cpu_callback", "xla_ffi_python_gpu_callback")


def calls_host(stablehlo_text: str | None) -> bool:
    """Whether a lowered program calls host callbacks."""
    return stablehlo_text is not None and any(t in stablehlo_text for t in CALL_TARGETS)


def table_of(module) -> list:
    """The callables of `module` (created empty); an op's `callback` index
    is a position in it."""
    table = _TABLES.get(module)
    if table is None:
        table = _TABLES[module] = []
    return table


def callbacks_of(module) -> list | None:
    """The callables of `module`, or None when it calls none."""
    if module is None:
        return None
    return _TABLES.get(module) or None


def add(module, fn) -> int:
    """Appends `fn` to `module`'s table; returns its index."""
    table = table_of(module)
    table.append(fn)
    return len(table) - 1


def _shape_dtype(t) -> tuple[tuple[int, ...], np.dtype]:
    jir = jaxlib_internals.jaxlib_ir()
    rt = jir.RankedTensorType(t)
    return tuple(rt.shape), dtypes.MLIR_ELEMENT_DTYPES[str(rt.element_type)]


def _wrap(fn, result_specs, token: bool):
    """jax/_src/callback.py's _wrapped_callback: the number, shapes and
    dtypes of the outputs checked, with JAX's messages. With `token`, the
    call site takes a token first and returns it first (passed through)."""
    if token:
        checked = _wrap(fn, result_specs, False)
        return lambda tok, *args: (tok, *checked(*args))

    def wrapped(*args):
        out_vals = fn(*args)
        if out_vals is None:
            out_vals = ()
        if len(out_vals) != len(result_specs):
            raise RuntimeError(
                "Mismatched number of outputs from callback. "
                "Expected: {}, Actual: {}".format(len(result_specs), len(out_vals)))
        outs = []
        for i, (val, (shape, dtype)) in enumerate(zip(out_vals, result_specs)):
            val = np.asarray(val)
            try:
                val = val.astype(dtypes.canonicalize(val.dtype), copy=False)
            except TypeError:
                pass
            if val.shape != shape:
                raise RuntimeError(
                    f"Incorrect output shape for return value #{i}: "
                    f"Expected: {shape}, Actual: {val.shape}")
            if val.dtype != dtype:
                raise RuntimeError(
                    f"Incorrect output dtype for return value #{i}: "
                    f"Expected: {dtype}, Actual: {val.dtype}")
            outs.append(val)
        return tuple(outs)
    return wrapped


def prepare(stablehlo_text: str, table: list):
    """jaxlib's module parsed from `stablehlo_text`, each callback call site
    renumbered, and the wrapped callables in that order."""
    jir = jaxlib_internals.jaxlib_ir()
    module = jaxlib_internals.parse_stablehlo(stablehlo_text)
    with module.context, jir.Location.unknown():
        sites = []

        def visit(op):
            op = op.operation if hasattr(op, "operation") else op
            if op.name == "stablehlo.custom_call":
                target = jir.StringAttr(op.attributes["call_target_name"]).value
                if target in CALL_TARGETS:
                    sites.append(op)
            for region in op.regions:
                for block in region.blocks:
                    for inner in block.operations:
                        visit(inner)

        visit(module.operation)
        callables = []
        u64 = jir.IntegerType.get_unsigned(64)
        for op in sites:
            config = jir.DictAttr(op.attributes["backend_config"])
            index = jir.IntegerAttr(config["index"]).value
            results = list(op.results)
            token = bool(results) and str(results[0].type) == "!stablehlo.token"
            specs = [_shape_dtype(r.type) for r in results[int(token):]]
            callables.append(_wrap(table[index], specs, token))
            op.attributes["backend_config"] = jir.DictAttr.get(
                {"index": jir.IntegerAttr.get(u64, len(callables) - 1)})
    return module, callables

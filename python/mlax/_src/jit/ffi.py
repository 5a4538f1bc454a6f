"""jax.ffi: calling functions compiled outside mlax (XLA custom-call
targets) from mlax programs, with the semantics of jax/_src/ffi.py.

`ffi_call(target, result_shape_dtypes, ...)(*args, **attrs)` traces one
`mlax.ffi_call` op (MlaxCallbackOps.td) carrying the target's name, the
keyword arguments as the typed FFI's attributes, the layouts, aliases,
side-effect flag and vmap_method; its batching rule (by vmap_method) and its
derivative rule (an error, as in JAX) are the dialect's, and the conversion
to StableHLO emits the `stablehlo.custom_call` JAX emits. Outside any trace
the call runs as a program of its own, as JAX dispatches the primitive.

The registration functions hand the target to jaxlib's XLA client, the
registry that the CPU and GPU clients mlax runs on look targets up in.
"""
from __future__ import annotations

import ctypes
import os
from collections.abc import Sequence

import numpy as np
from mlir import ir

from mlax._src.backend import native
from mlax._src.base import dtypes
from mlax._src.core import primitives
from mlax._src.core import tracer as core
from mlax._src.core import tracing
from mlax._src.core.tracer import ShapedArray, Tracer
from mlax._src.lax.composite import attribute

_VMAP_METHODS = ["sequential", "sequential_unrolled", "expand_dims", "broadcast_all",
                 "legacy_vectorized", None]


# ---------------------------------------------------------------------------
# Registration
# ---------------------------------------------------------------------------

def register_ffi_target(name: str, fn, platform: str = "cpu", api_version: int = 1,
                        **kwargs) -> None:
    """jax.ffi.register_ffi_target: registers `fn` (a PyCapsule holding the
    handler, or a dict of them by FFI stage name) as the custom-call target
    `name` for `platform`. `api_version` 1 is the typed FFI, 0 the legacy
    custom-call API; other keyword arguments go to jaxlib's
    `xla_client.register_custom_call_target`."""
    from jaxlib import xla_client
    return xla_client.register_custom_call_target(name, fn, platform, api_version, **kwargs)


def register_ffi_type_id(name: str, obj, platform: str = "cpu") -> None:
    """jax.ffi.register_ffi_type_id: gone from jaxlib (use register_ffi_type)."""
    del name, obj, platform
    raise ValueError("register_ffi_type_id is not supported after jaxlib version 381.")


def register_ffi_type(name: str, type_registration, platform: str = "cpu") -> None:
    """jax.ffi.register_ffi_type: registers a user type for FFI targets;
    `type_registration` is a dict with a `type_id` PyCapsule (and optionally
    a `type_info` one)."""
    from jaxlib import xla_client
    return xla_client.register_custom_type(name, type_registration, platform=platform)


def register_ffi_target_as_batch_partitionable(name: str) -> None:
    """jax.ffi.register_ffi_target_as_batch_partitionable: lets XLA's
    partitioner shard target `name` along its leading (batch) dimension."""
    from jaxlib import xla_client
    xla_client.register_custom_call_as_batch_partitionable(name)


def pycapsule(funcptr):
    """jax.ffi.pycapsule: wraps a ctypes function pointer (a function of a
    library loaded with ctypes) in the PyCapsule register_ffi_target takes."""
    destructor = ctypes.CFUNCTYPE(None, ctypes.py_object)
    builder = ctypes.pythonapi.PyCapsule_New
    builder.restype = ctypes.py_object
    builder.argtypes = (ctypes.c_void_p, ctypes.c_char_p, destructor)
    return builder(funcptr, None, destructor(0))


def include_dir() -> str:
    """jax.ffi.include_dir: the directory of the C++ headers of XLA's FFI
    (`xla/ffi/api/ffi.h`) bundled with jaxlib."""
    import jaxlib
    if jaxlib.__file__ is not None:
        jaxlib_dir = os.path.dirname(os.path.abspath(jaxlib.__file__))
    elif getattr(jaxlib, "__path__", None):
        jaxlib_dir = list(jaxlib.__path__)[0]
    else:
        raise RuntimeError(
            "Cannot determine jaxlib directory: neither __file__ nor __path__ is available")
    return os.path.join(jaxlib_dir, "include")


# ---------------------------------------------------------------------------
# ffi_call
# ---------------------------------------------------------------------------

def _result_avals(results) -> list[ShapedArray]:
    avals = []
    for idx, result in enumerate(results):
        if not hasattr(result, "shape") or not hasattr(result, "dtype"):
            raise ValueError(
                "All elements of result_shape_dtypes must have 'shape' and 'dtype' "
                f"attributes. Got {result} at position {idx}.")
        avals.append(ShapedArray(tuple(result.shape), dtypes.canonicalize(result.dtype)))
    return avals


def _layout(aval: ShapedArray, layout) -> tuple[int, ...]:
    """A layout given major-to-minor (None: row-major) as the minor-to-major
    order custom calls take (JAX's _convert_layout_for_lowering)."""
    if layout is None:
        return tuple(reversed(range(len(aval.shape))))
    if hasattr(layout, "major_to_minor"):  # a Layout
        if getattr(layout, "tiling", None) is not None:
            raise ValueError("The FFI does not support layouts with tiling")
        return tuple(layout.major_to_minor[::-1])
    return tuple(int(d) for d in layout)[::-1]


def _layouts(avals, layouts, what: str) -> tuple[tuple[int, ...], ...]:
    if layouts is None:
        return tuple(_layout(a, None) for a in avals)
    if len(layouts) != len(avals):
        raise ValueError(f"The number of {what} ({len(avals)}) must equal the number of "
                         f"{'input' if what.startswith('input') else 'output'} layouts "
                         f"({len(layouts)}).")
    return tuple(_layout(a, layout) for a, layout in zip(avals, layouts))


def _check_aliases(aliases, in_avals, result_avals, in_layouts, out_layouts):
    pairs = []
    for i_idx, o_idx in sorted((aliases or {}).items()):
        i_idx, o_idx = int(i_idx), int(o_idx)
        if i_idx >= len(in_avals):
            raise ValueError(
                f"input_output_aliases contains the mapping '{i_idx}:{o_idx}' with input "
                f"index {i_idx} outside the range [0, {len(in_avals)}).")
        if o_idx >= len(result_avals):
            raise ValueError(
                f"input_output_aliases contains the mapping '{i_idx}:{o_idx}' with output "
                f"index {o_idx} outside the range [0, {len(result_avals)}).")
        a, b = in_avals[i_idx], result_avals[o_idx]
        if a.shape != b.shape or a.dtype != b.dtype:
            raise ValueError(
                f"input_output_aliases contains the mapping '{i_idx}:{o_idx}' referring to "
                f"an input with abstract value {a} and an output with a different abstract "
                f"value {b}.")
        if in_layouts[i_idx] != out_layouts[o_idx]:
            raise ValueError(
                f"input_output_aliases contains the mapping '{i_idx}:{o_idx}' referring to "
                f"an input with layout {in_layouts[i_idx]} and an output with a different "
                f"layout {out_layouts[o_idx]}.")
        pairs += [i_idx, o_idx]
    return pairs


def _attributes(kwargs) -> ir.DictAttr:
    """The typed FFI's attributes: each keyword argument as JAX's
    mlir.ir_attribute makes it (a Python float is an f64, an int an i64, a
    NumPy scalar one of its dtype, an array a dense elements attribute, a
    str a string, a dict a dictionary), sorted by name."""
    for k, v in kwargs.items():
        if not isinstance(v, (np.ndarray, dict)):
            try:
                hash(v)
            except TypeError as e:
                raise TypeError(f"Non-hashable keyword argument to ffi_call {k}: {v}") from e
    return ir.DictAttr.get({k: attribute(v) for k, v in sorted(kwargs.items())})


def _i64_arrays(layouts):
    return ir.ArrayAttr.get([ir.DenseI64ArrayAttr.get(list(layout)) for layout in layouts])


def ffi_call(target_name: str, result_shape_dtypes, *, has_side_effect: bool = False,
             vmap_method: str | None = None, input_layouts=None, output_layouts=None,
             input_output_aliases: dict[int, int] | None = None,
             custom_call_api_version: int = 4, legacy_backend_config: str | None = None):
    """jax.ffi.ffi_call: a function calling the registered FFI target
    `target_name` on its positional (array) arguments, giving arrays shaped
    as `result_shape_dtypes` (one, or a sequence: then a list, or a tuple
    for a tuple). Its keyword arguments are the handler's named attributes.

    `has_side_effect` keeps a call whose results are unused; `vmap_method`
    says how the call is batched under vmap (as pure_callback's; None makes
    vmap an error); `input_layouts` / `output_layouts` give each array's
    major-to-minor dimension order; `input_output_aliases` maps an input
    index to the output reusing its buffer; `custom_call_api_version` < 4
    calls a legacy custom-call target, with `legacy_backend_config` as its
    opaque configuration string. Differentiating the call is an error (wrap
    it in custom_jvp / custom_vjp)."""
    if vmap_method not in _VMAP_METHODS:
        raise ValueError(
            f"vmap_method must be on of the allowed methods {_VMAP_METHODS}, "
            f"but got: {vmap_method}")
    if isinstance(result_shape_dtypes, Sequence):
        multiple_results = True
        result_avals = _result_avals(result_shape_dtypes)
        out_layouts_given = output_layouts
    else:
        multiple_results = False
        result_avals = _result_avals([result_shape_dtypes])
        out_layouts_given = (output_layouts,)
    if custom_call_api_version >= 4 and legacy_backend_config is not None:
        raise ValueError(
            "The use of the legacy_backend_config parameter requires "
            f"custom_call_api_version < 4; got {custom_call_api_version}.")
    if not 0 <= custom_call_api_version <= 4:
        raise ValueError(f"custom_call_api_version must be 0-4 (XLA's custom-call APIs); "
                         f"got {custom_call_api_version}")

    def wrapped(*args, **kwargs):
        in_avals = [primitives.aval_of(x) for x in args]
        in_layouts = _layouts(in_avals, input_layouts, "input arguments")
        out_layouts = _layouts(result_avals, out_layouts_given, "outputs")
        aliases = _check_aliases(input_output_aliases, in_avals, result_avals,
                                 in_layouts, out_layouts)
        if custom_call_api_version < 4 and kwargs:
            raise ValueError(
                "The use of ffi_call attributes requires a custom call API version of at "
                f"least 4; got api_version={custom_call_api_version}.")

        def traced(*dyn):
            trace = core.current_trace()
            for leaf in dyn:
                if isinstance(leaf, Tracer):
                    core.check_tracer(leaf)
            values = [primitives.to_value(trace, x, a) for x, a in zip(dyn, in_avals)]
            with trace.ip, core.user_location():
                config = (_attributes(kwargs) if custom_call_api_version == 4 else
                          None if legacy_backend_config is None else
                          ir.StringAttr.get(legacy_backend_config))
                op = native.ops().FfiCallOp(
                    [a.mlir_type() for a in result_avals], values,
                    ir.StringAttr.get(target_name), backend_config=config,
                    api_version=ir.IntegerAttr.get(ir.IntegerType.get_signless(32),
                                                   custom_call_api_version),
                    has_side_effect=ir.UnitAttr.get() if has_side_effect else None,
                    vmap_method=ir.StringAttr.get(vmap_method) if vmap_method else None,
                    operand_layouts=_i64_arrays(in_layouts),
                    result_layouts=_i64_arrays(out_layouts),
                    input_output_aliases=ir.DenseI64ArrayAttr.get(aliases) if aliases
                    else None)
            return [Tracer(r, a, trace) for r, a in zip(op.results, result_avals)]

        results = tracing._run(traced, "ffi_call", tuple(args))
        if multiple_results:
            return tuple(results) if isinstance(result_shape_dtypes, tuple) else list(results)
        return results[0]

    return wrapped

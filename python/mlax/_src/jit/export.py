"""mlax.export (as jax.export): a jitted function lowered once to StableHLO
and kept with its calling convention (argument and result pytrees, avals with
weak types, the arguments the program still takes, the platform), so that it
can be serialized, deserialized in another process and called there without
the Python source.

The serialized form is mlax's own, versioned: a magic header, the format
version, a SHA-256 of the payload and a JSON payload holding the StableHLO
text and the calling convention. It does not read or write JAX's
flatbuffers. Shape polymorphism (symbolic dimensions), multi-platform
lowering, VJPs of exported functions, and calling an Exported inside a trace
(jit / grad / vmap) are not supported: each raises NotImplementedError.
"""
from __future__ import annotations

import hashlib
import json
import struct

import ml_dtypes
import numpy as np

from mlax._src.backend import compiler, host_callbacks, runtime
from mlax._src.base.tree import registry
from mlax._src.core import tracer as core
from mlax._src.core.tracer import ShapedArray
from mlax._src.core.ref_state import AbstractRef, RefsNeeded
from mlax._src.core.tracing import _Executable, _leaf_aval, trace_to_module
from mlax._src.jit.api import Jitted
from mlax._src.jit.jaxpr import ShapeDtypeStruct

# The calling-convention / serialization format version this mlax writes and
# the range it reads.
_FORMAT_VERSION = 1
_MIN_VERSION = 1
_MAGIC = b"MLAX-EXPORT\x00"
_HEADER = struct.Struct(">I32s")  # version, sha256(payload)


def maximum_supported_calling_convention_version() -> int:
    return _FORMAT_VERSION


def minimum_supported_calling_convention_version() -> int:
    return _MIN_VERSION


def default_export_platform() -> str:
    """The platform `export` lowers for by default: the default device's."""
    return runtime.lowering_platform(runtime.default_device())


class DisabledSafetyCheck:
    """A safety check to skip when calling (as jax.export.DisabledSafetyCheck):
    mlax checks only the platform, so only `platform()` has an effect."""

    def __init__(self, _impl: str):
        self._impl = _impl

    @classmethod
    def platform(cls) -> "DisabledSafetyCheck":
        return cls("platform")

    @classmethod
    def custom_call(cls, target_name: str) -> "DisabledSafetyCheck":
        return cls(f"custom_call:{target_name}")

    def is_custom_call(self):
        return self._impl[len("custom_call:"):] if self._impl.startswith("custom_call:") else None

    def __str__(self):
        return self._impl

    __repr__ = __str__

    def __eq__(self, other):
        return isinstance(other, DisabledSafetyCheck) and self._impl == other._impl

    def __hash__(self):
        return hash(self._impl)


class Exported:
    """A lowered function and its calling convention (jax.export.Exported)."""

    def __init__(self, *, fun_name, in_tree, in_avals, out_tree, out_avals, platforms,
                 mlir_module_text, module_kept_var_idx, disabled_safety_checks=(),
                 calling_convention_version=_FORMAT_VERSION):
        self.fun_name = fun_name
        self.in_tree = in_tree
        self.in_avals = tuple(in_avals)
        self.out_tree = out_tree
        self.out_avals = tuple(out_avals)
        self.platforms = tuple(platforms)
        self.nr_devices = 1
        self.module_kept_var_idx = tuple(module_kept_var_idx)
        self.disabled_safety_checks = tuple(disabled_safety_checks)
        self.calling_convention_version = calling_convention_version
        self.ordered_effects = ()
        self.unordered_effects = ()
        self.uses_global_constants = False
        self._text = mlir_module_text
        self._executable = None

    @property
    def mlir_module_serialized(self) -> bytes:
        return self._text.encode("utf-8")

    def mlir_module(self) -> str:
        """The StableHLO module, as text."""
        return self._text

    def __str__(self):
        return f"Exported(fun_name={self.fun_name}, in_avals={self.in_avals}, " \
               f"out_avals={self.out_avals}, platforms={self.platforms})"

    __repr__ = __str__

    def has_vjp(self) -> bool:
        return False

    def vjp(self):
        raise ValueError("No VJP is available")

    # -- serialization --------------------------------------------------------
    def serialize(self, vjp_order: int = 0) -> bytearray:
        """The portable bytes `deserialize` reads (in any process)."""
        if vjp_order:
            raise NotImplementedError("mlax.export: serializing VJPs (vjp_order > 0) is not "
                                      "supported")
        payload = json.dumps({
            "fun_name": self.fun_name,
            "in_tree": _encode_tree(self.in_tree),
            "out_tree": _encode_tree(self.out_tree),
            "in_avals": [_encode_aval(a) for a in self.in_avals],
            "out_avals": [_encode_aval(a) for a in self.out_avals],
            "platforms": list(self.platforms),
            "module_kept_var_idx": list(self.module_kept_var_idx),
            "disabled_safety_checks": [str(c) for c in self.disabled_safety_checks],
            "mlir_module": self._text,
        }).encode("utf-8")
        return bytearray(_MAGIC + _HEADER.pack(_FORMAT_VERSION, hashlib.sha256(payload).digest())
                         + payload)

    # -- calling --------------------------------------------------------------
    def call(self, *args, **kwargs):
        """Runs the exported program on arguments of the exported pytree
        structure, shapes and dtypes (eagerly; not inside a trace)."""
        leaves, in_tree = registry.flatten((args, kwargs))
        if in_tree != self.in_tree:
            raise ValueError(
                "The invocation args and kwargs must have the same pytree structure as when "
                f"the function '{self.fun_name}' was exported, but they have the structure "
                f"{in_tree} and when exported {self.in_tree}")
        if core.trace_stack() or any(isinstance(l, core.Tracer) for l in leaves):
            raise NotImplementedError(
                "mlax.export: calling an Exported inside a trace (jit, grad, vmap) is not "
                "supported; call it on concrete arrays")
        self._check_platform()
        for i, (leaf, expected) in enumerate(zip(leaves, self.in_avals)):
            aval = _leaf_aval(leaf)
            where = f"args[{i}]" if len(leaves) > 1 else "args[0]"
            if len(aval.shape) != len(expected.shape):
                raise ValueError(f"Rank mismatch for {where} of {self.fun_name}: expected "
                                 f"{expected.shape} and called with {aval.shape}")
            if aval.dtype != expected.dtype:
                raise ValueError(f"Dtype mismatch for {where} of {self.fun_name}: expected "
                                 f"{expected.dtype} and called with {aval.dtype}")
            if tuple(aval.shape) != tuple(expected.shape):
                raise ValueError(f"Shape mismatch for {where} of {self.fun_name} (expected "
                                 f"same constant): expected {expected.shape} and called "
                                 f"with {aval.shape}")
        exe = self._executable
        if exe is None:
            program = compiler.compile_stablehlo(self._text, None, name=self.fun_name)
            exe = _Executable(program, self.in_avals, self.out_avals, self.out_tree, self._text,
                              {})
            kept = self.module_kept_var_idx
            exe.kept = None if len(kept) == len(self.in_avals) else kept
            self._executable = exe
        return exe(leaves)

    def _check_platform(self):
        if DisabledSafetyCheck.platform() in self.disabled_safety_checks:
            return
        platform = default_export_platform()
        if platform not in self.platforms:
            raise ValueError(
                f"Function '{self.fun_name}' was exported for platforms '{self.platforms}' "
                f"but it is used on '{(platform,)}'.")


_NO_REFS = ("mlax.export: the function takes or closes over a mutable array reference "
            "({}); an exported function has no Refs (as JAX's export refuses them): pass "
            "its value and return the new value instead.")


def export(fun_jit, *, platforms=None, disabled_checks=()):
    """`export(mlax.jit(f))(*args_specs, **kwargs_specs)` -> Exported: `f`
    lowered for arguments shaped as the specs (ShapeDtypeStructs, or arrays)."""
    if not isinstance(fun_jit, Jitted):
        raise ValueError(f"Function to be exported must be the result of `jit` but is: {fun_jit}")
    current = default_export_platform()
    if platforms is not None:
        platforms = tuple(platforms)
        if platforms != (current,):
            raise NotImplementedError(
                f"mlax.export lowers for the platform it runs on ({current!r}) only; "
                f"got platforms={platforms}")
    platforms = (current,)

    def do_export(*args_specs, **kwargs_specs) -> Exported:
        args_specs, kwargs_specs = _specs((args_specs, kwargs_specs))
        leaves, treedef, _, rebuild = fun_jit._prepare(args_specs, kwargs_specs)
        for leaf in leaves:
            if isinstance(getattr(leaf, "aval", None), AbstractRef):
                raise NotImplementedError(_NO_REFS.format(leaf.aval))
        avals = tuple(_leaf_aval(l) for l in leaves)
        try:
            module, out_avals, out_tree = trace_to_module(fun_jit._fun, treedef, avals, rebuild,
                                                          refs_in=True)
        except RefsNeeded as e:
            raise NotImplementedError(_NO_REFS.format(e.refs[0].aval)) from None
        stablehlo = compiler.to_stablehlo(
            module, name=fun_jit._name, extra_passes=fun_jit._passes,
            platform=runtime.lowering_platform(fun_jit._device or runtime.default_device()))
        if host_callbacks.callbacks_of(module):
            raise NotImplementedError("mlax.export: serialization of host callbacks "
                                      "(pure_callback, io_callback, debug) is not supported")
        kept = compiler.kept_arguments(module)
        kept = tuple(range(len(avals))) if kept is None else tuple(kept)
        return Exported(fun_name=fun_jit._name, in_tree=treedef, in_avals=avals,
                        out_tree=out_tree, out_avals=out_avals, platforms=platforms,
                        mlir_module_text=stablehlo, module_kept_var_idx=kept,
                        disabled_safety_checks=tuple(disabled_checks))
    return do_export


def _specs(tree):
    """Array-like specs (anything with .shape and .dtype that mlax does not
    take as is, e.g. jax.ShapeDtypeStruct) as mlax ShapeDtypeStructs;
    symbolic dimensions raise NotImplementedError."""
    leaves, treedef = registry.flatten(tree)
    out = []
    for leaf in leaves:
        shape = getattr(leaf, "shape", None)
        if shape is not None and hasattr(leaf, "dtype"):
            for d in shape:
                if not isinstance(d, (int, np.integer)):
                    raise NotImplementedError(
                        f"mlax.export: shape polymorphism (symbolic dimension {d!r} in "
                        f"{shape}) is not supported; export for concrete shapes")
            if not isinstance(leaf, (np.ndarray, np.generic, ShapeDtypeStruct)) and \
                    type(leaf).__module__.split(".")[0] != "mlax":
                leaf = ShapeDtypeStruct(shape, leaf.dtype,
                                        weak_type=bool(getattr(leaf, "weak_type", False)))
        out.append(leaf)
    return treedef.unflatten(out)


# -- the serialized form ------------------------------------------------------

def deserialize(blob) -> Exported:
    """The Exported `Exported.serialize` wrote; ValueError on bytes that are
    not one, are corrupt, or are of a format version this mlax cannot read."""
    blob = bytes(blob)
    if not blob.startswith(_MAGIC) or len(blob) < len(_MAGIC) + _HEADER.size:
        raise ValueError("mlax.export.deserialize: the bytes are not a serialized mlax "
                         "Exported (bad header)")
    version, digest = _HEADER.unpack_from(blob, len(_MAGIC))
    if not _MIN_VERSION <= version <= _FORMAT_VERSION:
        raise ValueError(
            f"mlax.export.deserialize: the Exported was serialized with format version "
            f"{version}; this mlax reads versions {_MIN_VERSION} to {_FORMAT_VERSION}")
    payload = blob[len(_MAGIC) + _HEADER.size:]
    if hashlib.sha256(payload).digest() != digest:
        raise ValueError("mlax.export.deserialize: the serialized Exported is corrupt "
                         "(checksum mismatch)")
    try:
        d = json.loads(payload.decode("utf-8"))
        return Exported(
            fun_name=d["fun_name"], in_tree=_decode_tree(d["in_tree"]),
            in_avals=[_decode_aval(a) for a in d["in_avals"]],
            out_tree=_decode_tree(d["out_tree"]),
            out_avals=[_decode_aval(a) for a in d["out_avals"]],
            platforms=d["platforms"], mlir_module_text=d["mlir_module"],
            module_kept_var_idx=d["module_kept_var_idx"],
            disabled_safety_checks=[DisabledSafetyCheck(c) for c in d["disabled_safety_checks"]],
            calling_convention_version=version)
    except (KeyError, TypeError, ValueError) as e:
        raise ValueError(f"mlax.export.deserialize: the serialized Exported is malformed: "
                         f"{type(e).__name__}: {e}") from None


def _encode_aval(aval):
    return [list(aval.shape), np.dtype(aval.dtype).name, bool(aval.weak_type)]


def _dtype(name):
    try:
        return np.dtype(name)
    except TypeError:
        return np.dtype(getattr(ml_dtypes, name))


def _decode_aval(a):
    shape, dtype, weak = a
    return ShapedArray(tuple(int(d) for d in shape), _dtype(dtype), bool(weak))


class _Leaf:
    pass


def _encode_tree(treedef):
    """The pytree structure as JSON: tuples, lists, dicts (str / int keys) and
    None; other node types cannot be serialized."""
    leaf = _Leaf()
    n = treedef.num_leaves

    def enc(x):
        if x is leaf:
            return "*"
        if x is None:
            return {"none": None}
        if type(x) is tuple:
            return {"tuple": [enc(v) for v in x]}
        if type(x) is list:
            return {"list": [enc(v) for v in x]}
        if type(x) is dict:
            for k in x:
                if type(k) not in (str, int):
                    raise ValueError(f"mlax.export: cannot serialize a dict key {k!r}: keys "
                                     "must be str or int")
            return {"dict": [[[type(k).__name__, k], enc(v)] for k, v in x.items()]}
        raise ValueError(
            f"mlax.export: cannot serialize a pytree node of type {type(x).__name__}: "
            "mlax serializes tuples, lists, dicts and None")
    return enc(treedef.unflatten([leaf] * n))


def _decode_tree(d):
    def dec(x):
        if x == "*":
            return 0
        (kind, v), = x.items()
        if kind == "none":
            return None
        if kind == "tuple":
            return tuple(dec(e) for e in v)
        if kind == "list":
            return [dec(e) for e in v]
        if kind == "dict":
            return {(int(k) if t == "int" else str(k)): dec(e) for (t, k), e in v}
        raise ValueError(f"unknown pytree node kind {kind!r}")
    return registry.flatten(dec(d))[1]

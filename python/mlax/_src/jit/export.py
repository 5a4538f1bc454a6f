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

import base64
import hashlib
import json
import struct

import ml_dtypes
import numpy as np

from mlax._src.backend import compiler, host_callbacks, runtime
from mlax._src.base.tree import PyTreeDef, is_tree_node, registry
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


# -- pytree structures in the serialized form ----------------------------------
#
# Built in: leaves, None, tuples, lists and dicts (str or int keys). Other
# node types serialize once registered (as JAX's): their aux data through the
# user's functions, as bytes.

# node type -> (serialized name, serialize_auxdata)
_SERIALIZERS: dict = {}
# serialized name -> (node type, deserialize_auxdata, from_children or None)
_DESERIALIZERS: dict = {}


def register_pytree_node_serialization(nodetype, *, serialized_name: str, serialize_auxdata,
                                       deserialize_auxdata, from_children=None):
    """As jax.export.register_pytree_node_serialization: lets Exported
    calling conventions hold pytree nodes of `nodetype` (a type already
    registered with tree_util, unless `from_children` builds its nodes).
    `serialize_auxdata(aux) -> bytes` and `deserialize_auxdata(bytes) -> aux`
    carry the node's aux data; `from_children(aux, children)`, when given,
    builds a node for the deserialized structure. Returns `nodetype` (usable
    as a class decorator)."""
    if nodetype in _SERIALIZERS:
        raise ValueError(
            f"Duplicate serialization registration for type `{nodetype}`. Previous "
            f"registration was with serialized_name `{_SERIALIZERS[nodetype][0]}`.")
    if serialized_name in _DESERIALIZERS:
        raise ValueError(
            f"Duplicate serialization registration for serialized_name `{serialized_name}`. "
            f"Previous registration was for type `{_DESERIALIZERS[serialized_name][0]}`.")
    if from_children is None and not is_tree_node(nodetype):
        raise ValueError(
            "If `from_children` is not present, you must call first "
            f"`mlax.tree_util.register_pytree_node` for `{nodetype}`")
    _SERIALIZERS[nodetype] = (serialized_name, serialize_auxdata)
    _DESERIALIZERS[serialized_name] = (nodetype, deserialize_auxdata, from_children)
    return nodetype


def register_namedtuple_serialization(nodetype, *, serialized_name: str):
    """As jax.export.register_namedtuple_serialization: lets Exported calling
    conventions hold `nodetype`, a collections.namedtuple (a pytree node
    without registration). Its field names are serialized; a deserializing
    process must have the type with the same fields. Returns `nodetype`."""
    if not _is_namedtuple(nodetype):
        raise ValueError("Use `mlax.export.register_pytree_node_serialization` for types "
                         "other than `collections.namedtuple`.")

    def from_children(fields, children):
        if list(fields) != list(nodetype._fields):
            raise ValueError(
                f"mlax.export.deserialize: the namedtuple `{serialized_name}` was serialized "
                f"with fields {list(fields)}; `{nodetype.__name__}` here has "
                f"{list(nodetype._fields)}")
        return nodetype(*children)

    return register_pytree_node_serialization(
        nodetype, serialized_name=serialized_name,
        serialize_auxdata=lambda _: json.dumps(list(nodetype._fields)).encode("utf-8"),
        deserialize_auxdata=lambda data: json.loads(bytes(data).decode("utf-8")),
        from_children=from_children)


def _is_namedtuple(nodetype) -> bool:
    return (isinstance(nodetype, type) and issubclass(nodetype, tuple)
            and isinstance(getattr(nodetype, "_fields", None), tuple)
            and all(isinstance(f, str) for f in nodetype._fields))


def _encode_tree(treedef):
    """The pytree structure as JSON: "*" for a leaf; None, tuples, lists and
    dicts (str / int keys) built in; registered node types with their name
    and aux data (base64 of the bytes their serializer gives)."""
    node = treedef.node_data()
    if node is None:
        return "*"
    kind, aux = node
    children = [_encode_tree(c) for c in treedef.children()]
    if kind is type(None):
        return {"none": None}
    if kind is tuple:
        return {"tuple": children}
    if kind is list:
        return {"list": children}
    if kind is dict:
        for k in aux:
            if type(k) not in (str, int):
                raise ValueError(f"mlax.export: cannot serialize a dict key {k!r}: keys "
                                 "must be str or int")
        return {"dict": [[[type(k).__name__, k], c] for k, c in zip(aux, children)]}
    if kind in _SERIALIZERS:
        name, serialize_auxdata = _SERIALIZERS[kind]
        data = serialize_auxdata(aux)
        if not isinstance(data, (bytes, bytearray)):
            raise ValueError(
                f"The custom serialization function for `{kind}` must return a `bytes` "
                f"object. It returned a {type(data)}.")
        return {"custom": [name, base64.b64encode(bytes(data)).decode("ascii"), children]}
    raise ValueError(
        f"Cannot serialize PyTreeDef containing an unregistered type `{kind}`. Use "
        "`mlax.export.register_pytree_node_serialization` or "
        "`mlax.export.register_namedtuple_serialization`.")


_LEAF = registry.flatten(0)[1]


def _decode_tree(d):
    if d == "*":
        return _LEAF
    (kind, v), = d.items()
    if kind == "none":
        return registry.flatten(None)[1]
    if kind in ("tuple", "list"):
        node, children = ((tuple if kind == "tuple" else list), None), v
    elif kind == "dict":
        keys = [int(k) if t == "int" else str(k) for (t, k), _ in v]
        node, children = (dict, keys), [c for _, c in v]
    elif kind == "custom":
        name, data, children = v
        if name not in _DESERIALIZERS:
            raise ValueError(
                f"Cannot deserialize a PyTreeDef containing an unregistered type `{name}`. "
                "Use `mlax.export.register_pytree_node_serialization` or "
                "`mlax.export.register_namedtuple_serialization`.")
        nodetype, deserialize_auxdata, from_children = _DESERIALIZERS[name]
        aux = deserialize_auxdata(base64.b64decode(data))
        subtrees = [_decode_tree(c) for c in children]
        if from_children is not None:
            node_value = from_children(aux, [t.unflatten([0.0] * t.num_leaves)
                                             for t in subtrees])
            return registry.flatten(node_value)[1]
        return PyTreeDef.from_node_data_and_children(registry, (nodetype, aux), subtrees)
    else:
        raise ValueError(f"unknown pytree node kind {kind!r}")
    return PyTreeDef.from_node_data_and_children(
        registry, node, [_decode_tree(c) for c in children])

"""mlax.export against jax.export: the calling convention an export records
(in/out avals with weak types, pytrees, platforms), serialize / deserialize
round trips whose calls equal the jitted function's results (pytrees in and
out, several dtypes, a gradient, unused arguments, kwargs), a call from a
fresh process, and the errors: wrong shapes / dtypes / structures (the class
JAX raises), corrupt or foreign bytes, a format version this mlax cannot
read, symbolic shapes and other platforms (not supported); custom pytree
nodes once registered for serialization."""
from __future__ import annotations

import collections
import dataclasses
import json
import os
import subprocess
import sys

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np
import pytest

import mlax
import mlax.numpy as mnp
from mlax import export
from mlax._src.jit import export as export_impl


def _same(got, want):
    g_leaves, g_tree = mlax.tree_util.tree_flatten(got)
    w_leaves, w_tree = mlax.tree_util.tree_flatten(want)
    assert g_tree == w_tree
    for g, w in zip(g_leaves, w_leaves):
        assert isinstance(g, mlax.Array)
        assert (g.shape, g.dtype, g.weak_type) == (w.shape, w.dtype, w.weak_type)
        np.testing.assert_array_equal(np.asarray(g), np.asarray(w))


def _avals(avals):
    return [(tuple(a.shape), np.dtype(a.dtype), a.weak_type) for a in avals]


def _pytree_fun(np_):
    def f(d, y, *, scale):
        return {"s": np_.sin(d["a"]) * y * scale, "t": [d["b"] + 1, (d["a"].sum(), None)]}
    return f


_ARGS = ({"a": np.arange(4, dtype=np.float32), "b": np.ones((2, 3), np.int32)}, 2.0)


def test_round_trip_pytrees_matches_jit_and_jax_convention():
    fj = mlax.jit(_pytree_fun(mnp))
    exp = export.export(fj)(*_ARGS, scale=np.float32(0.5))
    jexp = jax.export.export(jax.jit(_pytree_fun(jnp)))(*_ARGS, scale=np.float32(0.5))
    assert _avals(exp.in_avals) == _avals(jexp.in_avals)
    assert _avals(exp.out_avals) == _avals(jexp.out_avals)
    assert exp.in_tree.num_leaves == jexp.in_tree.num_leaves
    assert exp.out_tree.num_leaves == jexp.out_tree.num_leaves
    assert exp.platforms == jexp.platforms
    assert exp.fun_name == "f" and exp.nr_devices == 1
    assert "func.func" in exp.mlir_module() and "stablehlo" in exp.mlir_module()
    blob = exp.serialize()
    assert isinstance(blob, bytearray)
    back = export.deserialize(blob)
    assert _avals(back.in_avals) == _avals(exp.in_avals)
    assert _avals(back.out_avals) == _avals(exp.out_avals)
    assert back.in_tree == exp.in_tree and back.out_tree == exp.out_tree
    want = fj(*_ARGS, scale=np.float32(0.5))
    _same(back.call(*_ARGS, scale=np.float32(0.5)), want)
    _same(exp.call(*_ARGS, scale=np.float32(0.5)), want)
    # mlax arrays as arguments, too.
    args = mlax.tree_util.tree_map(mnp.asarray, _ARGS[0])
    _same(back.call(args, 2.0, scale=mnp.float32(0.5)), want)


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.uint8, np.bool_, np.float16,
                                   ml_dtypes.bfloat16, np.complex64])
def test_dtypes(dtype):
    def f(x, y):
        return x * y, x == y
    x = (np.arange(6).reshape(2, 3) % 2).astype(dtype)
    y = np.ones((3,), dtype)
    exp = export.deserialize(export.export(mlax.jit(f))(
        mlax.ShapeDtypeStruct(x.shape, dtype), mlax.ShapeDtypeStruct(y.shape, dtype)).serialize())
    assert _avals(exp.in_avals) == [((2, 3), np.dtype(dtype), False), ((3,), np.dtype(dtype), False)]
    _same(exp.call(x, y), mlax.jit(f)(x, y))


def test_grad_of_function_and_unused_arguments():
    def loss(w, x, unused):
        return (mnp.tanh(x @ w) ** 2).sum()
    g = mlax.jit(mlax.grad(loss))
    w, x, u = (np.linspace(-1, 1, 6, dtype=np.float32).reshape(3, 2),
               np.linspace(0, 2, 12, dtype=np.float32).reshape(4, 3), np.zeros(5, np.float32))
    exp = export.deserialize(export.export(g)(w, x, u).serialize())
    assert exp.module_kept_var_idx == (0, 1)  # the program no longer takes `unused`
    _same(exp.call(w, x, u), g(w, x, u))
    want = jax.grad(lambda w, x: (jnp.tanh(x @ w) ** 2).sum())(w, x)
    np.testing.assert_allclose(np.asarray(exp.call(w, x, u)), np.asarray(want), rtol=1e-5)


def test_jax_shape_dtype_structs_and_weak_types():
    f = mlax.jit(lambda x, s: x + s)
    exp = export.export(f)(jax.ShapeDtypeStruct((3,), np.float32),
                           mlax.ShapeDtypeStruct((), np.float32, weak_type=True))
    jexp = jax.export.export(jax.jit(lambda x, s: x + s))(
        jax.ShapeDtypeStruct((3,), np.float32),
        jax.ShapeDtypeStruct((), np.float32, weak_type=True))
    assert _avals(exp.in_avals) == _avals(jexp.in_avals)
    assert _avals(exp.out_avals) == _avals(jexp.out_avals)
    _same(export.deserialize(exp.serialize()).call(np.ones(3, np.float32), 2.0),
          f(np.ones(3, np.float32), 2.0))


_CHILD = r"""
import sys
import numpy as np
from mlax import export
exp = export.deserialize(open(sys.argv[1], "rb").read())
out = exp.call({"a": np.arange(4, dtype=np.float32), "b": np.ones((2, 3), np.int32)}, 2.0,
               scale=np.float32(0.5))
np.save(sys.argv[2], np.asarray(out["s"]))
np.save(sys.argv[3], np.asarray(out["t"][0]))
"""


def test_call_from_a_fresh_process(tmp_path):
    fj = mlax.jit(_pytree_fun(mnp))
    blob = export.export(fj)(*_ARGS, scale=np.float32(0.5)).serialize()
    path = tmp_path / "f.mlax"
    path.write_bytes(bytes(blob))
    outs = [str(tmp_path / "s.npy"), str(tmp_path / "t.npy")]
    proc = subprocess.run([sys.executable, "-c", _CHILD, str(path), *outs],
                          env=dict(os.environ), capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    want = fj(*_ARGS, scale=np.float32(0.5))
    np.testing.assert_array_equal(np.load(outs[0]), np.asarray(want["s"]))
    np.testing.assert_array_equal(np.load(outs[1]), np.asarray(want["t"][0]))


def _raises_like_jax(mlax_call, jax_call, match):
    with pytest.raises(Exception) as jax_err:
        jax_call()
    with pytest.raises(Exception, match=match) as mlax_err:
        mlax_call()
    assert isinstance(mlax_err.value, type(jax_err.value)), (jax_err.value, mlax_err.value)


def test_wrong_arguments_raise_as_jax():
    spec = (np.zeros((2, 3), np.float32),)
    exp = export.deserialize(export.export(mlax.jit(mnp.sin))(*spec).serialize())
    jexp = jax.export.export(jax.jit(jnp.sin))(*spec)  # (JAX's serializer needs flatbuffers)
    for bad, match in [(np.zeros((2, 4), np.float32), "Shape mismatch"),
                       (np.zeros((6,), np.float32), "Rank mismatch"),
                       (np.zeros((2, 3), np.int32), "Dtype mismatch")]:
        _raises_like_jax(lambda: exp.call(bad), lambda: jexp.call(bad), match)
    two = (np.zeros((2, 3), np.float32),) * 2
    _raises_like_jax(lambda: exp.call(*two), lambda: jexp.call(*two), "pytree structure")


def test_corrupt_foreign_and_future_bytes_raise():
    blob = export.export(mlax.jit(mnp.cos))(np.zeros(3, np.float32)).serialize()
    flipped = bytearray(blob)
    flipped[-20] ^= 0xFF
    with pytest.raises(ValueError, match="corrupt"):
        export.deserialize(flipped)
    with pytest.raises(ValueError, match="corrupt"):
        export.deserialize(blob[:-5])
    with pytest.raises(ValueError, match="not a serialized mlax Exported"):
        export.deserialize(b"garbage bytes")
    with pytest.raises(ValueError, match="not a serialized mlax Exported"):
        export.deserialize(bytearray(b"\x10\x00\x00\x00JAXE" + bytes(64)))  # flatbuffer-like
    future = bytearray(blob)
    head = len(b"MLAX-EXPORT\x00")
    future[head:head + 4] = (export.maximum_supported_calling_convention_version() + 1) \
        .to_bytes(4, "big")
    with pytest.raises(ValueError, match="format version"):
        export.deserialize(future)


def test_unsupported_features_say_so():
    with pytest.raises(ValueError, match="must be the result of `jit`"):
        export.export(lambda x: x)
    with pytest.raises(ValueError):
        jax.export.export(lambda x: x)
    b, = jax.export.symbolic_shape("b")
    with pytest.raises(NotImplementedError, match="shape polymorphism"):
        export.export(mlax.jit(mnp.sin))(jax.ShapeDtypeStruct((b, 3), np.float32))
    other = "tpu" if export.default_export_platform() != "tpu" else "cpu"
    with pytest.raises(NotImplementedError, match="platform"):
        export.export(mlax.jit(mnp.sin), platforms=[other])
    exp = export.export(mlax.jit(mnp.sin))(np.zeros(2, np.float32))
    with pytest.raises(NotImplementedError, match="inside a trace"):
        mlax.jit(exp.call)(np.zeros(2, np.float32))
    with pytest.raises(NotImplementedError):
        exp.serialize(vjp_order=1)


def test_platform_check():
    exp = export.export(mlax.jit(mnp.sin))(np.zeros(2, np.float32))
    assert exp.platforms == (export.default_export_platform(),)
    exp.platforms = ("tpu",) if exp.platforms != ("tpu",) else ("cpu",)
    with pytest.raises(ValueError, match="was exported for platforms"):
        exp.call(np.zeros(2, np.float32))
    exp.disabled_safety_checks = (export.DisabledSafetyCheck.platform(),)
    np.testing.assert_allclose(np.asarray(exp.call(np.ones(2, np.float32))), np.sin(np.ones(2)),
                               rtol=1e-6)


_Pair = collections.namedtuple("_Pair", ["w", "b"])


class _Scaled:
    """A registered pytree node whose aux data (its name) is a string."""

    def __init__(self, x, name):
        self.x, self.name = x, name


mlax.tree_util.register_pytree_node(_Scaled, lambda s: ((s.x,), s.name),
                                    lambda name, xs: _Scaled(xs[0], name))


@dataclasses.dataclass
class _Layer:
    kernel: object
    width: int


mlax.tree_util.register_dataclass(_Layer, data_fields=["kernel"], meta_fields=["width"])


def test_custom_pytree_nodes_serialize_once_registered(monkeypatch):
    """register_pytree_node_serialization / register_namedtuple_serialization,
    as JAX's: before registration serialize() is JAX's ValueError; after it a
    namedtuple, a registered class (its aux data through the user's
    functions) and a dataclass round-trip in the calling convention, and the
    deserialized call rebuilds them; duplicates and unregistered types are
    JAX's ValueErrors."""
    monkeypatch.setattr(export_impl, "_SERIALIZERS", {})
    monkeypatch.setattr(export_impl, "_DESERIALIZERS", {})

    def f(pair, s, layer):
        return {"pair": _Pair(pair.w * 2, pair.b + 1), "s": _Scaled(s.x * layer.width, s.name),
                "layer": _Layer(layer.kernel.sum(), layer.width)}

    args = (_Pair(np.arange(3, dtype=np.float32), np.int32(4)),
            _Scaled(np.ones(2, np.float32), "hi"), _Layer(np.ones((2, 2), np.float32), 3))
    exp = export.export(mlax.jit(f))(*args)
    with pytest.raises(ValueError, match="Cannot serialize PyTreeDef containing an "
                                         "unregistered type .*_Pair"):
        exp.serialize()
    assert export.register_namedtuple_serialization(_Pair, serialized_name="t.Pair") is _Pair
    export.register_pytree_node_serialization(
        _Scaled, serialized_name="t.Scaled", serialize_auxdata=str.encode,
        deserialize_auxdata=lambda b: bytes(b).decode())
    export.register_pytree_node_serialization(
        _Layer, serialized_name="t.Layer", serialize_auxdata=lambda aux: json.dumps(aux).encode(),
        deserialize_auxdata=lambda b: tuple(json.loads(b)))
    back = export.deserialize(exp.serialize())
    assert (back.in_tree, back.out_tree) == (exp.in_tree, exp.out_tree)
    got, want = back.call(*args), mlax.jit(f)(*args)
    assert isinstance(got["pair"], _Pair) and isinstance(got["layer"], _Layer)
    assert got["s"].name == "hi" and got["layer"].width == 3
    _same(mlax.tree_util.tree_leaves(got), mlax.tree_util.tree_leaves(want))
    with pytest.raises(ValueError, match="same pytree structure"):
        back.call(args[0], _Scaled(np.ones(2, np.float32), "ho"), args[2])

    with pytest.raises(ValueError, match="Duplicate serialization registration for type"):
        export.register_namedtuple_serialization(_Pair, serialized_name="t.Other")
    with pytest.raises(ValueError, match="Duplicate serialization registration for "
                                         "serialized_name `t.Pair`"):
        export.register_namedtuple_serialization(collections.namedtuple("Q", "a"),
                                                 serialized_name="t.Pair")
    with pytest.raises(ValueError, match="other than `collections.namedtuple`"):
        export.register_namedtuple_serialization(_Scaled, serialized_name="t.S2")
    with pytest.raises(ValueError, match="must call first"):
        export.register_pytree_node_serialization(
            type("Unregistered", (), {}), serialized_name="t.U", serialize_auxdata=bytes,
            deserialize_auxdata=bytes)
    bad = export.register_pytree_node_serialization(
        type("BadAux", (_Scaled,), {}), serialized_name="t.Bad", serialize_auxdata=str,
        deserialize_auxdata=str, from_children=lambda aux, xs: _Scaled(xs[0], aux))
    mlax.tree_util.register_pytree_node(bad, lambda s: ((s.x,), s.name),
                                        lambda name, xs: bad(xs[0], name))
    with pytest.raises(ValueError, match="must return a `bytes` object"):
        export.export(mlax.jit(lambda s: s.x))(bad(np.ones(2, np.float32), "a")).serialize()
    blob = exp.serialize()
    del export_impl._DESERIALIZERS["t.Scaled"]  # (a process that never registered it)
    with pytest.raises(ValueError, match="Cannot deserialize a PyTreeDef containing an "
                                         "unregistered type `t.Scaled`"):
        export.deserialize(blob)

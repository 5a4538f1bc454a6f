"""mlax.ffi against jax.ffi: FFI handlers compiled here (ffi_handlers.cc,
once per module, against mlax.ffi.include_dir()) and registered with
mlax.ffi.register_ffi_target, called by mlax and by JAX (the same targets);
values, dtypes and weak types eagerly and under jit, each vmap_method under
vmap, the errors for vmap without a vmap_method and for differentiation,
custom_vjp around a call, an unknown target, and has_side_effect."""
from __future__ import annotations

import ctypes
import os
import re
import shutil
import subprocess

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jaxlib.mlir import ir as jax_ir

import mlax

from _helpers import assert_tree_like

_CXX = os.environ.get("CXX") or shutil.which("c++") or shutil.which("g++") or \
    shutil.which("clang++")
_TARGETS = {"RmsNorm": "mlax_test_rms_norm", "Affine": "mlax_test_affine",
            "Count": "mlax_test_count"}


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    """The handlers, compiled and registered (for both libraries: XLA's
    registry is one per process)."""
    if _CXX is None:
        pytest.skip("no C++ compiler (c++, g++ or clang++) to build the FFI handlers with")
    src = os.path.join(os.path.dirname(__file__), "ffi_handlers.cc")
    so = str(tmp_path_factory.mktemp("ffi") / "libffi_handlers.so")
    subprocess.run([_CXX, "-std=c++17", "-O1", "-shared", "-fPIC", "-w",
                    "-I", mlax.ffi.include_dir(), src, "-o", so], check=True)
    handlers = ctypes.cdll.LoadLibrary(so)
    for symbol, target in _TARGETS.items():
        mlax.ffi.register_ffi_target(target, mlax.ffi.pycapsule(getattr(handlers, symbol)),
                                     platform="cpu")
    return handlers


def _rms_norm(lib_, x, eps=np.float32(1e-5), **kw):
    return lib_.ffi.ffi_call(_TARGETS["RmsNorm"], lib_.ShapeDtypeStruct(x.shape, x.dtype),
                             **kw)(x, eps=eps)


def _affine(lib_, x, b, k=3, **kw):
    out = (lib_.ShapeDtypeStruct(x.shape, x.dtype), lib_.ShapeDtypeStruct(x.shape, np.int32))
    return lib_.ffi.ffi_call(_TARGETS["Affine"], out, **kw)(x, b, k=k)


def _np_rms_norm(x, eps=1e-5):
    return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps)


_X = np.arange(1, 7, dtype=np.float32).reshape(2, 3)
_B = np.array([0.5, 0.25], np.float32)


def _program(lib_):
    """rms_norm (plain, column-major input, aliased) and the two-result call."""
    def f(x, b):
        return (_rms_norm(lib_, x), _rms_norm(lib_, x, input_layouts=[(1, 0)]),
                _rms_norm(lib_, x + 1.0, input_output_aliases={0: 0}), _affine(lib_, x, b))
    return f


def test_values_eager_and_jit_match_jax_and_numpy(lib):
    want = jax.jit(_program(jax))(_X, _B)
    got = mlax.jit(_program(mlax))(_X, _B)
    assert_tree_like(got, want, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(np.asarray(got[0]), _np_rms_norm(_X), rtol=1e-6)
    np.testing.assert_allclose(np.asarray(got[2]), _np_rms_norm(_X + 1), rtol=1e-6)
    np.testing.assert_allclose(np.asarray(got[3][0]), 3 * _X + _B.sum())
    # Eagerly (a program of its own), with a Python float attribute (f64)
    # that the handler's float attribute rejects in both libraries.
    assert_tree_like(_affine(mlax, _X, _B, k=2), _affine(jax, _X, _B, k=2))
    assert_tree_like(_rms_norm(mlax, _X), _rms_norm(jax, _X))
    with pytest.raises(Exception) as jax_error:
        jax.block_until_ready(_rms_norm(jax, _X, eps=1e-5))
    with pytest.raises(type(jax_error.value), match="Wrong scalar data type"):
        _rms_norm(mlax, _X, eps=1e-5).block_until_ready()


_METHODS = ("sequential", "sequential_unrolled", "expand_dims", "broadcast_all",
            "legacy_vectorized")


def test_vmap_methods_match_jax(lib):
    """Each vmap_method, x batched and b not (so expand_dims, broadcast_all
    and legacy_vectorized hand the handler different b), in one program."""
    def program(lib_):
        def f(xs, b):
            return [lib_.vmap(lambda x, m=m: _affine(lib_, x, b, vmap_method=m))(xs)
                    for m in _METHODS] + [lib_.vmap(
                        lambda x: _rms_norm(lib_, x, vmap_method="broadcast_all",
                                            input_layouts=[(1, 0)]))(xs)]
        return f
    xs = np.stack([_X, 2 * _X])
    want = jax.jit(program(jax))(xs, _B)
    got = mlax.jit(program(mlax))(xs, _B)
    assert_tree_like(got, want, rtol=1e-6, atol=1e-6)
    assert not np.array_equal(np.asarray(got[0][0]), np.asarray(got[3][0]))  # b broadcast


def test_vmap_without_vmap_method_is_an_error(lib):
    f = lambda lib_: lib_.vmap(lambda x: _rms_norm(lib_, x))
    with pytest.raises(NotImplementedError, match="vmap_method=None"):
        f(jax)(np.stack([_X, _X]))
    with pytest.raises(NotImplementedError, match="vmap_method=None"):
        mlax.jit(f(mlax))(np.stack([_X, _X]))


def test_no_derivative_but_custom_vjp(lib):
    loss = lambda lib_: lambda x: _rms_norm(lib_, x).sum()
    with pytest.raises(ValueError, match="cannot be differentiated"):
        jax.grad(loss(jax))(_X)
    with pytest.raises(ValueError, match="cannot be differentiated"):
        mlax.grad(loss(mlax))(_X)

    def wrapped(lib_):
        @lib_.custom_vjp
        def rms(x):
            return _rms_norm(lib_, x)

        def fwd(x):
            return rms(x), x

        def bwd(x, g):  # the derivative of x / sqrt(mean(x^2) + eps), in lib_'s ops
            np_ = lib_.numpy
            r = 1.0 / np_.sqrt(np_.mean(x * x, axis=-1, keepdims=True) + 1e-5)
            return (g * r - x * r ** 3 * np_.mean(g * x, axis=-1, keepdims=True),)

        rms.defvjp(fwd, bwd)
        return lib_.jit(lib_.grad(lambda x: (rms(x) * x).sum()))
    assert_tree_like(wrapped(mlax)(_X), wrapped(jax)(_X), rtol=1e-5, atol=1e-6)


def test_unknown_target_is_a_python_error(lib):
    call = lambda lib_: lib_.ffi.ffi_call("mlax_test_no_such_target",
                                          lib_.ShapeDtypeStruct((3,), np.float32))
    with pytest.raises(Exception, match="No FFI handler registered") as jax_error:
        jax.jit(call(jax))(np.ones(3, np.float32))
    with pytest.raises(type(jax_error.value), match="No FFI handler registered"):
        mlax.jit(call(mlax))(np.ones(3, np.float32))


def test_has_side_effect_keeps_an_unused_call(lib):
    def program(lib_, has_side_effect):
        count = lib_.ffi.ffi_call(_TARGETS["Count"], lib_.ShapeDtypeStruct((), np.int32),
                                  has_side_effect=has_side_effect)

        def f(x):
            count(x)
            return x + 1.0
        return f
    before = lib.calls_made()
    mlax.jit(program(mlax, True))(_X).block_until_ready()
    assert lib.calls_made() == before + 1
    mlax.jit(program(mlax, False))(_X).block_until_ready()  # dropped, as by JAX
    jax.block_until_ready(jax.jit(program(jax, False))(_X))
    assert lib.calls_made() == before + 1


def test_lowering_is_jaxs_custom_call():
    """The custom call mlax emits for typed-FFI attributes, aliases, layouts,
    side effects and a legacy API version is the one JAX emits."""
    def calls(f, *args):
        """The custom calls of mlax's and JAX's programs, printed alike (both
        parsed into JAX's context, generic form, value names dropped)."""
        jax_module = jax.jit(f(jax)).lower(*args).compiler_ir()
        mlax_module = jax_ir.Module.parse(mlax.jit(f(mlax)).lower(*args).as_text(),
                                          context=jax_module.context)
        return [[re.sub(r"%[\w#:]+", "%", line.split("=", 1)[1])
                 for line in m.operation.get_asm(print_generic_op_form=True).splitlines()
                 if "stablehlo.custom_call" in line] for m in (mlax_module, jax_module)]

    def typed(lib_):
        return lambda x, b: lib_.ffi.ffi_call(
            "t", (lib_.ShapeDtypeStruct((2, 3), np.float32),
                  lib_.ShapeDtypeStruct((2,), np.int32)),
            has_side_effect=True, input_output_aliases={0: 0},
            input_layouts=[(1, 0), None], output_layouts=[(1, 0), None])(
                x, b, f32=np.float32(0.5), f=1.5, i=3, t=True, s="name",
                a=np.arange(3, dtype=np.int64), u=np.uint8(7))

    def legacy(lib_):
        return lib_.ffi.ffi_call("t", lib_.ShapeDtypeStruct((4,), np.float32),
                                 custom_call_api_version=2, legacy_backend_config="opaque")
    x, b = np.ones((2, 3), np.float32), np.ones(4, np.float32)
    got, want = calls(typed, x, b)
    assert len(want) == 1 and got == want
    got, want = calls(legacy, b)
    assert len(want) == 1 and got == want


def test_bad_arguments_are_jaxs_errors():
    sds = mlax.ShapeDtypeStruct((3,), np.float32)
    x = np.ones(3, np.float32)
    with pytest.raises(ValueError, match="vmap_method must be"):
        mlax.ffi.ffi_call("t", sds, vmap_method="parallel")
    with pytest.raises(ValueError, match="legacy_backend_config"):
        mlax.ffi.ffi_call("t", sds, legacy_backend_config="x")
    with pytest.raises(ValueError, match="shape' and 'dtype'"):
        mlax.ffi.ffi_call("t", [sds, 3])
    with pytest.raises(ValueError, match="outside the range"):
        mlax.jit(mlax.ffi.ffi_call("t", sds, input_output_aliases={1: 0}))(x)
    with pytest.raises(ValueError, match="different abstract value"):
        mlax.jit(mlax.ffi.ffi_call("t", sds, input_output_aliases={0: 0}))(
            np.ones(3, np.int32))
    with pytest.raises(ValueError, match="number of input layouts"):
        mlax.jit(mlax.ffi.ffi_call("t", sds, input_layouts=[None, None]))(x)
    with pytest.raises(ValueError, match="requires a custom call API version of at least 4"):
        mlax.jit(mlax.ffi.ffi_call("t", sds, custom_call_api_version=2))(x, a=1)
    with pytest.raises(TypeError, match="Non-hashable keyword argument"):
        mlax.jit(mlax.ffi.ffi_call("t", sds))(x, a=[1, 2])
    with pytest.raises(ValueError, match="register_ffi_type_id is not supported"):
        mlax.ffi.register_ffi_type_id("t", None)
    assert os.path.isfile(os.path.join(mlax.ffi.include_dir(), "xla", "ffi", "api", "ffi.h"))

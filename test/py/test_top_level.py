"""mlax's top-level functions and contexts against JAX's: devices and
processes, typeof and float0, mlax.dtypes, the tree_util additions,
disable_jit, ensure_compile_time_eval, named_scope and named_call."""
import dataclasses
import typing

import ml_dtypes
import numpy as np
import pytest

import jax
import jax.numpy as jnp

import mlax
import mlax.numpy as mnp

# ---------------------------------------------------------------------------
# Devices and processes
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("backend", [None, "cpu"])
def test_device_and_process_counts_as_jax(backend):
    for name in ("device_count", "local_device_count", "process_index", "process_count",
                 "process_indices"):
        assert getattr(mlax, name)(backend) == getattr(jax, name)(backend), name
    for old, new in (("host_id", "process_index"), ("host_count", "process_count"),
                     ("host_ids", "process_indices")):
        with pytest.warns(UserWarning, match="renamed"):
            assert getattr(mlax, old)(backend) == getattr(jax, new)(backend)
    with pytest.raises(RuntimeError, match="not available"):
        mlax.device_count("no-such-backend")
    assert all(isinstance(d, mlax.Device) for d in mlax.devices(backend))


def test_print_environment_info(capsys):
    info = mlax.print_environment_info(return_string=True)
    assert info.startswith(f"mlax:   {mlax.__version__}\njaxlib: ")
    assert f"numpy:  {np.__version__}" in info
    assert f"process_count: {jax.process_count()}" in info
    assert f"{mlax.local_device_count()} local devices" in info
    assert mlax.print_environment_info() is None
    assert capsys.readouterr().out.strip() == info


# ---------------------------------------------------------------------------
# typeof, float0, mlax.dtypes
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("value", [1.0, 3, True, np.float64(2.0), np.ones((2, 3), np.int8)])
def test_typeof_as_jax(value):
    ours, theirs = mlax.typeof(value), jax.typeof(value)
    assert (ours.shape, ours.dtype, ours.weak_type) == \
        (theirs.shape, theirs.dtype, theirs.weak_type)


def test_typeof_arrays_tracers_and_errors():
    assert mlax.typeof(mnp.ones(3)) == mnp.ones(3).aval
    seen = []
    mlax.jit(lambda x: seen.append(mlax.typeof(x)) or x)(mnp.ones((2,), mnp.int32))
    assert (seen[0].shape, seen[0].dtype, seen[0].weak_type) == ((2,), np.int32, False)
    with pytest.raises(TypeError):
        mlax.typeof("a string")
    with pytest.raises(TypeError):
        jax.typeof("a string")


def test_float0_is_jaxs():
    assert mlax.float0 == jax.float0 == mlax.dtypes.float0
    assert np.zeros((2,), mlax.float0).dtype == jax.dtypes.float0


@pytest.mark.parametrize("a,b", [
    (ml_dtypes.bfloat16, np.floating), (ml_dtypes.bfloat16, np.inexact),
    (ml_dtypes.bfloat16, np.integer), (np.float32, np.floating), ("int32", np.signedinteger),
    (np.uint8, np.signedinteger), (jax.dtypes.float0, np.floating), (np.bool_, np.number),
    (np.complex64, np.inexact), (np.float16, ml_dtypes.bfloat16)])
def test_issubdtype_as_jax(a, b):
    assert mlax.dtypes.issubdtype(a, b) == jax.dtypes.issubdtype(a, b)
    assert mnp.issubdtype(a, b) == jnp.issubdtype(a, b)


def test_typed_keys_are_extended_dtypes():
    k, kj = mlax.random.key(0), jax.random.key(0)
    for cat in ("prng_key", "extended"):
        assert mlax.dtypes.issubdtype(k.dtype, getattr(mlax.dtypes, cat)) == \
            jax.dtypes.issubdtype(kj.dtype, getattr(jax.dtypes, cat)) is True
    assert not mlax.dtypes.issubdtype(k.dtype, np.floating)
    assert mlax.dtypes.canonicalize_dtype(k.dtype, allow_extended_dtype=True) is k.dtype
    with pytest.raises(ValueError, match="allow_extended_dtype=False"):
        mlax.dtypes.canonicalize_dtype(k.dtype)


@pytest.mark.parametrize("dtype", ["float64", "int64", "uint64", "complex128", "bfloat16",
                                   "int8", float, int, bool])
def test_canonicalize_dtype_and_itemsize_as_jax(dtype):
    assert mlax.dtypes.canonicalize_dtype(dtype) == jax.dtypes.canonicalize_dtype(dtype)
    assert mlax.dtypes.itemsize_bits(dtype) == jax.dtypes.itemsize_bits(dtype)


def test_dtypes_result_type_scalar_type_of_finfo_iinfo():
    for args in [(mnp.ones(3), 1.0), (1.0,), (np.int8(1), 2), (np.float64,)]:
        jargs = [jnp.ones(3) if isinstance(a, mlax.Array) else a for a in args]
        assert mlax.dtypes.result_type(*args, return_weak_type_flag=True) == \
            jax.dtypes.result_type(*jargs, return_weak_type_flag=True)
        assert mlax.dtypes.result_type(*args) == jax.dtypes.result_type(*jargs)
    with pytest.raises(ValueError, match="at least one"):
        mlax.dtypes.result_type()
    for v, vj in [(mnp.ones(2), jnp.ones(2)), (np.int8(1),) * 2, (True,) * 2,
                  (mnp.ones(2, mnp.bfloat16), jnp.ones(2, jnp.bfloat16)), (2j,) * 2]:
        assert mlax.dtypes.scalar_type_of(v) is jax.dtypes.scalar_type_of(vj)
    with pytest.raises(TypeError, match="not a valid JAX array type"):
        mlax.dtypes.scalar_type_of("a")
    assert mlax.dtypes.finfo(mlax.dtypes.bfloat16).eps == jax.dtypes.finfo(jnp.bfloat16).eps
    assert mlax.dtypes.iinfo("int16").max == jax.dtypes.iinfo("int16").max
    assert issubclass(mlax.dtypes.TypePromotionError, ValueError)


# ---------------------------------------------------------------------------
# tree_util / tree additions
# ---------------------------------------------------------------------------


def test_tree_reduce_associative_and_flatten_one_level_with_keys():
    tree = {"a": [1, 2, 3], "b": (4, 5)}
    # A non-commutative but associative operation shows the order of the halves.
    concat = lambda x, y: f"({x}{y})" if isinstance(x, str) else f"({x}{y})"  # noqa: E731
    for fn in (lambda t: mlax.tree_util.tree_reduce_associative(concat, t),
               lambda t: mlax.tree.reduce_associative(concat, t)):
        assert fn(tree) == jax.tree_util.tree_reduce_associative(concat, tree)
    assert mlax.tree.reduce_associative(concat, [], identity=0) == 0
    with pytest.raises(TypeError, match="Must specify identity"):
        mlax.tree.reduce_associative(concat, [])
    assert mlax.tree_util.flatten_one_level_with_keys(tree) == \
        jax.tree_util.flatten_one_level_with_keys(tree)
    with pytest.raises(ValueError, match="can't tree-flatten"):
        mlax.tree_util.flatten_one_level_with_keys(1.0)
    path, _ = mlax.tree_util.tree_flatten_with_path(tree)[0][0]
    assert isinstance(path, tuple) and typing.get_origin(mlax.tree_util.KeyPath) is tuple


def test_tree_static_field():
    @mlax.tree_util.register_dataclass
    @dataclasses.dataclass
    class Op:
        x: object
        op: str = mlax.tree.static(default="add")

    leaves, treedef = mlax.tree.flatten(Op(1.0))
    assert leaves == [1.0] and mlax.tree.unflatten(treedef, [2.0]) == Op(2.0, "add")


# ---------------------------------------------------------------------------
# disable_jit, ensure_compile_time_eval, named_scope, named_call
# ---------------------------------------------------------------------------


def test_disable_jit_runs_python_op_by_op():
    seen = []

    @mlax.jit
    def f(x):
        y = x * 2
        seen.append(type(y))
        return mnp.sin(y) + 3

    x = mnp.arange(3.0)
    expected = f(x)  # compiled (and its fast path recorded by the C++ dispatcher)
    f(x)
    with mlax.disable_jit():
        eager = f(x)
        with mlax.disable_jit(False):
            f(x)  # jitted again: no new trace
    f(x)
    assert [t.__name__ for t in seen] == ["Tracer", "Array"]
    np.testing.assert_allclose(eager, expected, rtol=1e-6)
    assert eager.dtype == expected.dtype
    mlax.config.update("jax_disable_jit", True)
    try:
        f(x)
    finally:
        mlax.config.update("jax_disable_jit", False)
    assert [t.__name__ for t in seen] == ["Tracer", "Array", "Array"]


def test_ensure_compile_time_eval_under_jit():
    kinds = []

    @mlax.jit
    def f(x):
        with mlax.ensure_compile_time_eval():
            y = mnp.sin(3.0)
            z = mnp.array([1.0, 2.0]) * 2
            w = mnp.sin(x)
            kinds.extend(type(v).__name__ for v in (y, z, w))
            if y > 0:  # concrete: Python may branch on it
                return x + z.sum()
        return x

    assert float(f(1.0)) == 7.0 == float(jax.jit(lambda x: x + jnp.sum(jnp.array([2., 4.])))(1.))
    assert kinds == ["Array", "Array", "Tracer"]
    # Outside the context the same ops are traced again.
    with pytest.raises(mlax.TracerBoolConversionError):
        mlax.jit(lambda x: x if mnp.sin(3.0) > 0 else -x)(1.0)


def test_named_scope_names_op_locations():
    def f(x):
        with mlax.named_scope("outer"):
            with mlax.named_scope("inner"):
                y = mnp.sin(x)
            return y * 2

    text = mlax.make_ir(f)(1.0).as_text(debug_info=True)
    assert 'loc("outer/inner"(' in text and 'loc("outer"(' in text
    with pytest.raises(TypeError) as ours:
        with mlax.named_scope(3):
            pass
    with pytest.raises(TypeError) as theirs:
        with jax.named_scope(3):
            pass
    assert str(ours.value) == str(theirs.value)
    g = mlax.named_call(lambda x: x * 2.0, name="double")
    assert float(g(3.0)) == 6.0
    assert 'loc("double"(' in mlax.make_ir(g)(1.0).as_text(debug_info=True)


def test_errors_inside_named_scope_still_name_the_line():
    def f(x):
        with mlax.named_scope("block"):
            return x if mnp.sin(3.0) > 0 else -x
    with pytest.raises(mlax.TracerBoolConversionError, match=r"from line \S*test_top_level\.py:"):
        mlax.jit(f)(1.0)


def test_config_contexts_as_jax(caplog):
    f = mlax.jit(lambda x: x * 2)
    assert f(np.ones(2)).dtype == np.float32
    assert mlax.enable_x64.value is False
    with mlax.enable_x64():  # a bool switch's context sets it to True, as JAX's
        assert mlax.enable_x64.value is True
        assert f(np.ones(2)).dtype == np.float64 == mnp.arange(2.0).dtype
        with mlax.enable_x64(False):
            assert f(np.ones(2)).dtype == np.float32
    assert f(np.ones(2)).dtype == np.float32 and mlax.enable_x64.value is False
    with caplog.at_level("WARNING", logger="mlax"):
        with mlax.log_compiles(True):
            mlax.jit(lambda x: x + 1)(np.ones(3))
        mlax.jit(lambda x: x - 1)(np.ones(3))
    compiled = [r.getMessage() for r in caplog.records if "compiling" in r.getMessage()]
    assert len(compiled) == 1 and "f32[3]" in compiled[0]
    with mlax.explain_cache_misses(True):
        assert mlax.explain_cache_misses.value is True
    assert mlax.explain_cache_misses.value is False
    for ours, theirs in ((mlax.default_device, jax.default_device),):
        with pytest.raises(TypeError) as e_ours:
            with ours():
                pass
        with pytest.raises(TypeError) as e_theirs:
            with theirs():
                pass
        assert str(e_ours.value) == str(e_theirs.value)
    with pytest.raises(TypeError, match="jax_default_device must be"):
        mlax.config.update("jax_default_device", 3)

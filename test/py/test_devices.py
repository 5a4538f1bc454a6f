"""Devices, device_put, jit(backend=/device=), asynchronous dispatch, and
DLPack/NumPy exchange, against JAX."""
import numpy as np
import pytest

import jax
import jax.numpy as jnp

import mlax
import mlax.dlpack
import mlax.numpy as mnp


def test_devices_as_jax():
    # The default backend is JAX's: a GPU where one is present, else the CPU.
    assert [str(d) for d in mlax.devices()] == [str(d) for d in jax.devices()]
    assert [str(d) for d in mlax.devices("cpu")] == [str(d) for d in jax.devices("cpu")]
    assert mlax.default_backend() == jax.default_backend()
    x = mnp.arange(3.0)
    assert x.devices() == {mlax.devices()[0]}
    assert x.device == mlax.devices()[0]


def test_device_put_arrays_scalars_and_pytrees():
    dev = mlax.devices()[0]
    x = mlax.device_put(np.arange(4, dtype=np.float32), dev)
    assert isinstance(x, mlax.Array) and x.devices() == {dev}
    np.testing.assert_array_equal(np.asarray(x), np.arange(4))
    assert mlax.device_put(x) is x
    assert mlax.device_put(x, dev) is x
    s = mlax.device_put(1.5)
    js = jax.device_put(1.5)
    assert s.dtype == js.dtype and s.weak_type == js.weak_type
    tree = mlax.device_put({"a": np.ones(2), "b": [3, np.int32(4)]})
    assert all(isinstance(l, mlax.Array) for l in mlax.tree_util.tree_leaves(tree))
    assert tree["b"][0].dtype == jax.device_put(3).dtype
    got = mlax.device_get(tree)
    assert isinstance(got["a"], np.ndarray)


def test_jit_backend_and_device_choice():
    x = mnp.arange(3.0)
    f = mlax.jit(lambda v: v * 2, backend="cpu")
    np.testing.assert_array_equal(np.asarray(f(x)), [0.0, 2.0, 4.0])
    g = mlax.jit(lambda v: v + 1, device=mlax.devices()[0])
    out = g(np.ones(2, np.float32))
    assert out.devices() == {mlax.devices()[0]}
    with pytest.raises(RuntimeError, match="backend 'nosuch' is not available"):
        mlax.jit(lambda v: v, backend="nosuch")
    with pytest.raises(ValueError, match="either backend= or device="):
        mlax.jit(lambda v: v, backend="cpu", device=mlax.devices()[0])
    with pytest.raises(TypeError, match="device= must be a device"):
        mlax.jit(lambda v: v, device="cpu:0")


def test_async_dispatch_and_block_until_ready():
    f = mlax.jit(lambda a: (a @ a).sum())
    a = mnp.ones((256, 256))
    out = f(a)
    assert out.block_until_ready() is out
    assert out.is_ready()
    tree = {"x": f(a), "y": [f(a)]}
    assert mlax.block_until_ready(tree) is tree
    assert float(tree["y"][0]) == 256.0 * 256 * 256


def test_numpy_conversion_via_array_protocol():
    x = mnp.arange(6.0).reshape(2, 3)
    a = np.asarray(x)
    np.testing.assert_array_equal(a, np.arange(6.0).reshape(2, 3))
    assert np.asarray(x, dtype=np.int64).dtype == np.int64
    assert np.add(x, 1).dtype == np.float32


def test_dlpack_to_numpy_and_jax_without_copies():
    x = mnp.arange(6.0).reshape(2, 3)
    ptr = x._buf.unsafe_buffer_pointer()
    n = np.from_dlpack(x)
    assert n.ctypes.data == ptr
    np.testing.assert_array_equal(n, np.asarray(x))
    j = jax.dlpack.from_dlpack(x)
    assert j.unsafe_buffer_pointer() == ptr
    np.testing.assert_array_equal(np.asarray(j), np.asarray(x))
    assert x.__dlpack_device__() == j.__dlpack_device__()


@pytest.mark.parametrize("dtype", ["float32", "int32", "uint8", "bool", "float16"])
def test_dlpack_from_numpy_and_jax(dtype):
    a = (np.arange(8) % 3).astype(dtype)
    m = mlax.dlpack.from_dlpack(a)
    assert isinstance(m, mlax.Array) and m.dtype == a.dtype and m.shape == a.shape
    np.testing.assert_array_equal(np.asarray(m), a)
    # Shared exactly when JAX shares it (aligned buffers; others are copied).
    shared = jax.dlpack.from_dlpack(a).unsafe_buffer_pointer() == a.ctypes.data
    assert (m._buf.unsafe_buffer_pointer() == a.ctypes.data) == shared
    big = np.zeros(1 << 16, dtype=dtype)  # numpy aligns large buffers
    mb = mlax.dlpack.from_dlpack(big)
    jb = jax.dlpack.from_dlpack(big)
    assert (mb._buf.unsafe_buffer_pointer() == big.ctypes.data) == \
        (jb.unsafe_buffer_pointer() == big.ctypes.data)
    ja = jnp.asarray(a)
    mj = mlax.dlpack.from_dlpack(ja)
    np.testing.assert_array_equal(np.asarray(mj), a)
    np.testing.assert_array_equal(np.asarray(mj + mj), np.asarray(ja + ja))


def test_dlpack_round_trip_and_canonical_dtypes():
    a = np.arange(5, dtype=np.int64)
    m = mlax.dlpack.from_dlpack(a)
    assert m.dtype == jnp.asarray(a).dtype  # int32 unless x64 is on, as JAX
    back = np.from_dlpack(mlax.dlpack.from_dlpack(np.from_dlpack(mnp.arange(4.0))))
    np.testing.assert_array_equal(back, np.arange(4.0))
    with pytest.raises(TypeError, match="__dlpack__"):
        mlax.dlpack.from_dlpack([1, 2, 3])
    with pytest.raises(TypeError, match="traced"):
        mlax.jit(lambda x: mlax.dlpack.from_dlpack(x))(mnp.ones(2))


@pytest.mark.parametrize("where", ["tpu", "cpu", 7, 1.5])
def test_device_put_refuses_what_is_no_placement_as_jax(where):
    """A platform name, a number, ...: JAX's ValueError naming the value (a
    PJRT error about IFRT device lists before)."""
    import jax
    import jax.numpy as jnp

    for put, x in ((mlax.device_put, mnp.ones(3)), (jax.device_put, jnp.ones(3))):
        with pytest.raises(ValueError, match=f"only accepts `None`.*invalid value: {where}$"):
            put(x, where)

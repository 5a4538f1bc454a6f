"""Cached jit dispatch through jaxlib's C++ fast path (mlax._src.jit.dispatch):
which calls reach it, and that every one of them computes what JAX does."""
import numpy as np
import pytest

import jax
import jax.numpy as jnp

import mlax
import mlax.numpy as mnp


def python_misses(jf):
    """A list that grows by one on every call that comes back to Python."""
    calls = []
    inner = jf._cache_miss

    def counting(args, kwargs):
        calls.append(1)
        return inner(args, kwargs)

    jf._cache_miss = counting
    return calls


def same_as_jax(out, ref):
    ref_np = np.asarray(ref)
    assert out.dtype == ref.dtype, (out.dtype, ref.dtype)
    assert out.weak_type == ref.weak_type, (out.weak_type, ref.weak_type)
    assert out.shape == ref.shape
    np.testing.assert_array_equal(np.asarray(out), ref_np)


HOST_ARGS = [
    pytest.param(lambda: (np.arange(4, dtype=np.float32), 2.0), id="f32-array,py-float"),
    pytest.param(lambda: (np.arange(4.0), 3), id="f64-array,py-int"),
    pytest.param(lambda: (np.float64(1.5), 2), id="np-float64,py-int"),
    pytest.param(lambda: (np.arange(3, dtype=np.float16), 1.5), id="f16-array,py-float"),
    pytest.param(lambda: (np.arange(3, dtype=np.uint8), 7), id="u8-array,py-int"),
    pytest.param(lambda: (True, 1), id="py-bool,py-int"),
    pytest.param(lambda: (np.int64(5), np.int8(2)), id="np-int64,np-int8"),
    pytest.param(lambda: (1 + 2j, 1.0), id="py-complex,py-float"),
    pytest.param(lambda: (np.ones((2, 3), np.float32), mnp.ones(3)), id="np-array,mlax-array"),
]


@pytest.mark.parametrize("make_args", HOST_ARGS)
def test_host_arguments_are_dispatched_in_cpp_with_jax_dtypes(make_args):
    def f(x, y):
        return x * y + 1

    jf = mlax.jit(f)
    misses = python_misses(jf)
    args = make_args()
    jargs = tuple(jnp.asarray(np.asarray(a)) if isinstance(a, mlax.Array) else a for a in args)
    ref = jax.jit(f)(*jargs)
    for _ in range(4):
        same_as_jax(jf(*args), ref)
    # The first call compiles and hands the C++ side its fast path; the
    # others never come back to Python.
    assert len(misses) == 1 and jf.cache_misses == 1


def test_fresh_arrays_take_the_fast_path():
    jf = mlax.jit(lambda t: t["a"] @ t["b"] + 1)
    misses = python_misses(jf)
    rng = np.random.default_rng(0)
    for _ in range(5):
        a = rng.standard_normal((3, 4)).astype(np.float32)
        b = rng.standard_normal((4, 2)).astype(np.float32)
        out = jf({"a": mnp.asarray(a), "b": mnp.asarray(b)})
        np.testing.assert_allclose(np.asarray(out), a @ b + 1, rtol=1e-5, atol=1e-5)
    assert len(misses) == 1


def test_weak_and_strong_arrays_are_different_signatures():
    jf = mlax.jit(lambda x: x + np.float16(1))
    weak = mnp.asarray(2.0)
    strong = mnp.asarray(np.float32(2.0))
    assert weak.weak_type and not strong.weak_type
    for _ in range(3):
        same_as_jax(jf(weak), jax.jit(lambda x: x + np.float16(1))(jnp.asarray(2.0)))
        same_as_jax(jf(strong), jax.jit(lambda x: x + np.float16(1))(jnp.float32(2.0)))
    assert jf.cache_misses == 2


def test_outputs_of_the_fast_path_are_complete_arrays():
    jf = mlax.jit(lambda x: (x * 2, {"s": x.sum()}))
    x = mnp.arange(6.0).reshape(2, 3)
    for _ in range(3):
        a, d = jf(x)
    assert isinstance(a, mlax.Array) and not isinstance(a, mlax.core.Tracer)
    assert a.shape == (2, 3) and a.dtype == np.float32 and not a.is_deleted()
    assert not a.weak_type and a.aval.shape == (2, 3)
    np.testing.assert_array_equal(np.asarray(a), np.arange(6.0).reshape(2, 3) * 2)
    assert float(d["s"]) == 15.0
    assert "Array(" in repr(a)


def test_int_overflow_raises_on_every_call():
    jf = mlax.jit(lambda x, y: x + y)
    for _ in range(3):
        with pytest.raises(OverflowError, match="2147483648"):
            jf(np.int32(1), 2**31)
    with pytest.raises(OverflowError):
        jax.jit(lambda x, y: x + y)(np.int32(1), 2**31)
    # A value in range still works (and the failed calls cached nothing bad).
    for _ in range(2):
        assert int(jf(np.int32(1), 2**31 - 2)) == 2**31 - 1


def test_x64_switches_that_disagree_keep_calls_in_python():
    """The C++ side narrows host values by JAX's switch; when mlax's says
    otherwise, host arguments must stay on mlax's own path."""
    x = np.arange(3.0)
    mlax.config.update("jax_enable_x64", True)
    try:
        assert not jax.config.jax_enable_x64
        jf = mlax.jit(lambda v: v * 2)
        misses = python_misses(jf)
        for _ in range(3):
            out = jf(x)
            assert out.dtype == np.float64
            np.testing.assert_array_equal(np.asarray(out), x * 2)
        assert len(misses) == 3
    finally:
        mlax.config.update("jax_enable_x64", False)
    jf = mlax.jit(lambda v: v * 2)
    misses = python_misses(jf)
    for _ in range(3):
        assert jf(x).dtype == np.float32
    assert len(misses) == 1


def test_numpy_scalars_are_strongly_typed_as_in_jax():
    for value in (np.float64(1.5), np.complex128(1j), np.float32(2), np.int64(3)):
        for fn in ("add", "multiply"):
            same_as_jax(getattr(mnp, fn)(value, 1), getattr(jnp, fn)(value, 1))
        assert not mnp.asarray(value).weak_type
        assert mnp.array(value).dtype == jnp.array(value).dtype


MULTI_DEVICE_SCRIPT = r"""
import numpy as np
import mlax, mlax.numpy as mnp
ds = mlax.devices()
assert len(ds) == 3, ds
x = mnp.arange(3.0)
y = mlax.device_put(x, ds[1])
# jit(device=...) runs there, whatever the arguments' device.
f = mlax.jit(lambda v: v * 2, device=ds[2])
for arg in (x, y, np.arange(3.0), x, y):
    out = f(arg)
    assert out.devices() == {ds[2]}, out.devices()
    np.testing.assert_array_equal(np.asarray(out), [0.0, 2.0, 4.0])
# Without device=, the computation follows its arrays (cached calls too).
g = mlax.jit(lambda a, b: a + b)
for _ in range(3):
    assert g(y, y).devices() == {ds[1]}
    assert g(y, x).devices() == {ds[1]}  # a default-device array follows
    assert g(x, x).devices() == {ds[0]}
# Eager ops and transformations too.
assert (y * 2).devices() == {ds[1]} and mnp.sin(y).devices() == {ds[1]}
assert mlax.grad(lambda v: (v * v).sum())(y).devices() == {ds[1]}
assert mlax.vmap(lambda v: v + 1)(y).devices() == {ds[1]}
assert mlax.lax.fori_loop(0, 3, lambda i, c: c * 2, y).devices() == {ds[1]}
np.testing.assert_array_equal(np.asarray(mlax.grad(lambda v: (v * v).sum())(y)), [0, 2, 4])
try:
    g(y, mlax.device_put(x, ds[2]))
except ValueError as e:
    assert "incompatible devices" in str(e) and "device_put" in str(e), e
else:
    raise AssertionError("no error for arrays on two devices")
# mlax.default_device moves uncommitted work (new arrays, host values, and
# the fast paths recorded for them); arrays on a device stay there.
h = mlax.jit(lambda v: v + 1)
for _ in range(2):
    assert h(np.ones(2)).devices() == {ds[0]}
with mlax.default_device(ds[2]):
    assert mlax.default_device.value == ds[2]
    for _ in range(2):
        assert h(np.ones(2)).devices() == {ds[2]}
    assert mnp.ones(2).devices() == {ds[2]} and mlax.device_put(1.0).devices() == {ds[2]}
    assert h(y).devices() == {ds[1]}
with mlax.default_device("cpu"):
    assert mnp.ones(2).devices() == {ds[0]}
assert h(np.ones(2)).devices() == {ds[0]} and mnp.ones(2).devices() == {ds[0]}
# device= of the creation functions puts the result there (as jax.numpy's).
for d in ds:
    for out in (mnp.zeros(2, device=d), mnp.full_like(y, 3, device=d), mnp.eye(2, device=d),
                mnp.arange(3, device=d), mnp.array([1.0], device=d), mnp.asarray(y, device=d),
                mnp.linspace(0, 1, 3, device=d), mnp.astype(y, "int8", device=d)):
        assert out.devices() == {d}, (out.devices(), d)
np.testing.assert_array_equal(np.asarray(mnp.asarray(y, device=ds[2])), [0, 1, 2])
print("OK")
"""


def test_single_device_shardings_are_jaxlibs_class_itself():
    """An array's sharding is of jaxlib's exact SingleDeviceSharding class (the
    class JAX's jax.sharding.SingleDeviceSharding is): jaxlib's C++ dispatcher
    hashes and compares only that exact class in C++, and calls Python for
    any other (a subclass, mlax's before, cost every cached call about 0.3 us
    per argument leaf). It behaves as JAX's sharding does."""
    x = mnp.arange(4.0)
    s = x.sharding
    assert type(s) is mlax.sharding.SingleDeviceSharding is jax.sharding.SingleDeviceSharding
    dev = x.devices().pop()
    t = mlax.sharding.SingleDeviceSharding(dev)
    assert s == t and hash(s) == hash(t) and not (s != t)
    js = jnp.arange(4.0).sharding
    for ours, theirs in ((s, js),):
        assert ours.shard_shape((2, 3)) == theirs.shard_shape((2, 3))
        assert ours.is_fully_replicated == theirs.is_fully_replicated
        assert ours.is_fully_addressable == theirs.is_fully_addressable
        assert ours.num_devices == theirs.num_devices == 1
        assert ours.memory_kind == theirs.memory_kind
        assert repr(ours).split("(")[0] == repr(theirs).split("(")[0]
    # A pytree of arrays takes the fast path from the second call on.
    tree = {f"w{i}": mnp.full((2,), float(i)) for i in range(20)}
    jf = mlax.jit(lambda t: sum(t.values()))
    misses = python_misses(jf)
    for _ in range(3):
        np.testing.assert_array_equal(np.asarray(jf(tree)), np.full((2,), 190.0))
    assert len(misses) == 1


IMPORT_ORDER_SCRIPT = """
import sys
first_jax = sys.argv[1] == "jax-first"
if first_jax:
    import jax, jax.numpy as jnp
import numpy as np
import mlax, mlax.numpy as mnp
f = mlax.jit(lambda a: a * 2)
x = mnp.arange(3.0)
assert np.asarray(f(x)).tolist() == [0.0, 2.0, 4.0]
s = x.sharding
assert s.device_set == {s._device} and s.shard_shape((3,)) == (3,)
if not first_jax:
    import jax, jax.numpy as jnp
# JAX adds its own Python half to the same jaxlib class: both keep working.
assert np.asarray(f(x)).tolist() == [0.0, 2.0, 4.0]
assert np.asarray(f(mnp.arange(3.0))).tolist() == [0.0, 2.0, 4.0]
assert np.asarray(jax.jit(lambda a: a + 1)(jnp.arange(3.0))).tolist() == [1.0, 2.0, 3.0]
assert type(x.sharding) is jax.sharding.SingleDeviceSharding and hash(x.sharding) == hash(s)
print("OK")
"""


@pytest.mark.parametrize("order", ["jax-first", "mlax-first"])
def test_importing_jax_before_or_after_mlax(order):
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-c", IMPORT_ORDER_SCRIPT, order],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and "OK" in proc.stdout, proc.stdout + proc.stderr


def test_computations_follow_their_arrays_devices():
    """With three host devices (a subprocess: XLA's device count is fixed
    when the client starts)."""
    import os
    import subprocess
    import sys

    # The three host devices are the default ones only where no GPU is
    # (mlax's default backend is JAX's): ask for the CPU.
    env = dict(os.environ, XLA_FLAGS="--xla_force_host_platform_device_count=3",
               JAX_PLATFORMS="cpu")
    proc = subprocess.run([sys.executable, "-c", MULTI_DEVICE_SCRIPT], env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and "OK" in proc.stdout, proc.stdout + proc.stderr


def test_jaxlib_internals_check_the_pinned_version():
    """The one module that touches jaxlib's private API accepts the version
    it was written against and names it when another one is installed."""
    import jaxlib

    from mlax._src.base import jaxlib_internals

    assert jaxlib.__version__ == jaxlib_internals.SUPPORTED_JAXLIB
    jaxlib_internals.check_version(jaxlib.__version__)
    with pytest.raises(ImportError, match=r"mlax needs jaxlib==0\.10\.2 .* jaxlib 0\.9\.9 is installed"):
        jaxlib_internals.check_version("0.9.9")


def test_another_jaxlib_only_when_named_explicitly():
    """MLAX_ALLOW_JAXLIB_VERSION names the one other jaxlib mlax may run on,
    with a warning; any other version still refuses with the hint."""
    from mlax._src.base import jaxlib_internals

    with pytest.warns(RuntimeWarning, match=r"running on jaxlib 0\.11\.2, not the pinned 0\.10\.2"):
        assert jaxlib_internals.check_version("0.11.2", allowed="0.11.2") is False
    with pytest.raises(ImportError, match=r"set MLAX_ALLOW_JAXLIB_VERSION=0\.11\.2 to try it"):
        jaxlib_internals.check_version("0.11.2", allowed="")
    with pytest.raises(ImportError, match=r"jaxlib 0\.11\.2 is installed"):
        jaxlib_internals.check_version("0.11.2", allowed="0.11.1")
    assert jaxlib_internals.check_version("0.10.2", allowed="0.11.2") is True


def test_python_dispatch_where_jaxlib_has_no_cpp_dispatcher(monkeypatch):
    """On an allowed other jaxlib without a usable C++ dispatcher, jit calls
    take the Python path, with the same results and caching."""
    from mlax._src.jit import dispatch

    monkeypatch.setattr(dispatch, "_cache", None)
    f = mlax.jit(lambda x, y: x * y + 1.0)
    x = mnp.arange(4.0)
    out = f(x, 2.0)
    np.testing.assert_array_equal(np.asarray(out), np.arange(4.0) * 2 + 1)
    assert f._fast.__func__ is type(f)._call_python_star
    f(x, 3.0)
    assert f.cache_misses == 1


# Library functions JAX runs as one jitted call eagerly: mlax's do too (no
# op-by-op dispatch of their primitives; argmax ran a dozen, 80x JAX's time).
_X = np.linspace(-1, 1, 12).astype(np.float32).reshape(3, 4)
ONE_DISPATCH = {
    "sum": lambda n, x: n.sum(x, axis=[0, 1]), "prod": lambda n, x: n.prod(x, np.int64(0)),
    "max": lambda n, x: n.max(x, axis=(1,)), "min": lambda n, x: n.min(x, 1, keepdims=True),
    "amax": lambda n, x: n.amax(x), "all": lambda n, x: n.all(x > 0, axis=0),
    "any": lambda n, x: n.any(x > 0), "mean": lambda n, x: n.mean(x, axis=np.array(1)),
    "var": lambda n, x: n.var(x, ddof=1), "std": lambda n, x: n.std(x, 0, correction=1),
    "ptp": lambda n, x: n.ptp(x, axis=1), "average": lambda n, x: n.average(x, 1, x * x),
    "argmax": lambda n, x: n.argmax(x, axis=1), "argmin": lambda n, x: n.argmin(x),
    "nanargmax": lambda n, x: n.nanargmax(x, 0), "nanargmin": lambda n, x: n.nanargmin(x),
    "where": lambda n, x: n.where(x > 0, x, 0.), "isinf": lambda n, x: n.isinf(x),
    "isnan": lambda n, x: n.isnan(x), "isfinite": lambda n, x: n.isfinite(x),
    "isposinf": lambda n, x: n.isposinf(x), "isneginf": lambda n, x: n.isneginf(x),
    "logical_and": lambda n, x: n.logical_and(x > 0, x < 0.5),
    "logical_or": lambda n, x: n.logical_or(x, 0), "logical_xor": lambda n, x: n.logical_xor(x, x),
    "logical_not": lambda n, x: n.logical_not(x), "roll": lambda n, x: n.roll(x, 2),
    "roll by axes": lambda n, x: n.roll(x, (1, -1), [0, 1]),
    "roll by an array": lambda n, x: n.roll(x, n.array([1, 2]), (0, 1)),
    "tile": lambda n, x: n.tile(x, [2, 1]), "diagflat": lambda n, x: n.diagflat(x, 1),
    "cov": lambda n, x: n.cov(x), "corrcoef": lambda n, x: n.corrcoef(x, rowvar=False),
    "take_along_axis": lambda n, x: n.take_along_axis(x, n.argsort(x, axis=1), axis=1),
    "split": lambda n, x: n.split(x, [1, 3], axis=1), "indices": lambda n, x: n.indices([2, 3]),
    "meshgrid": lambda n, x: n.meshgrid(np.arange(3.), np.arange(2.), indexing="ij"),
}


@pytest.mark.parametrize("name", list(ONE_DISPATCH))
def test_library_functions_are_one_dispatch_eagerly(name, monkeypatch):
    from mlax._src.core import primitives
    op_by_op = []
    eager = primitives._eager
    monkeypatch.setattr(primitives, "_eager",
                        lambda *a: op_by_op.append(a[0]) or eager(*a))
    f = ONE_DISPATCH[name]
    out = f(mnp, mnp.asarray(_X))
    assert not op_by_op, f"ran op by op: {op_by_op}"
    ref = f(jnp, jnp.asarray(_X))
    for o, r in zip(jax.tree_util.tree_leaves(out), jax.tree_util.tree_leaves(ref),
                    strict=True):
        assert o.dtype == r.dtype and o.shape == r.shape
        np.testing.assert_allclose(np.asarray(o), np.asarray(r), rtol=1e-6, atol=1e-6)

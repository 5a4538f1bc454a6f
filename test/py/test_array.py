"""mlax.Array: attributes, conversion to NumPy, repr (as JAX's), operators,
immutability and Python protocol methods."""
from __future__ import annotations

import operator
import pickle

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from _helpers import assert_like_jax, assert_values, bf16

import mlax
import mlax.numpy as mnp


def arr(values, dtype=np.float32):
    return mnp.asarray(np.asarray(values, dtype))


# ---------------------------------------------------------------------------
# Attributes and conversion
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("shape,dtype", [((), np.float32), ((3,), np.int32), ((2, 3), np.bool_),
                                         ((2, 0, 4), np.float16), ((1, 2, 3, 4), bf16)])
def test_attributes(shape, dtype):
    x = mnp.zeros(shape, dtype)
    assert isinstance(x, mlax.Array)
    assert x.shape == shape and isinstance(x.shape, tuple)
    assert x.dtype == np.dtype(dtype) and isinstance(x.dtype, np.dtype)
    assert x.ndim == len(shape)
    assert x.size == int(np.prod(shape))
    assert x.weak_type is False


def test_asarray_and_array_protocol():
    x = arr([[1.5, 2.0], [3.0, 4.0]])
    a = np.asarray(x)
    assert isinstance(a, np.ndarray) and a.dtype == np.float32
    np.testing.assert_array_equal(a, [[1.5, 2.0], [3.0, 4.0]])
    assert np.asarray(x, dtype=np.float64).dtype == np.float64
    assert np.array(x).tolist() == a.tolist()
    b = np.array(x)  # a copy: writable, and writing it does not change x
    b[0, 0] = 100
    assert x[0, 0].item() == 1.5
    assert x.__array__(copy=True) is not x.__array__()
    # NumPy ufuncs work through __array__ and give NumPy arrays.
    s = np.sin(x)
    assert isinstance(s, np.ndarray)
    np.testing.assert_allclose(s, np.sin(a))


def test_numpy_view_is_read_only():
    x = arr([1.0, 2.0])
    view = np.asarray(x)
    with pytest.raises(ValueError, match="read-only"):
        view[0] = 7.0
    assert x.tolist() == [1.0, 2.0]


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.bool_, np.float16, bf16, np.uint8,
                                   np.int8, np.complex64])
def test_round_trip_through_numpy(dtype):
    rng = np.random.default_rng(0)
    v = (rng.standard_normal((3, 4)) * 10).astype(dtype)
    x = mnp.asarray(v)
    back = np.asarray(x)
    assert back.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(back, v)


def test_tolist_item():
    assert arr([[1, 2], [3, 4]], np.int32).tolist() == [[1, 2], [3, 4]]
    assert arr(2.5).item() == 2.5 and isinstance(arr(2.5).item(), float)
    assert arr([1, 2, 3], np.int32).item(1) == 2
    assert arr(True, np.bool_).item() is True


# ---------------------------------------------------------------------------
# repr / str / format
# ---------------------------------------------------------------------------

REPR_CASES = [
    np.array([1.0, 2.0], np.float32),
    np.array([1, 2], np.int32),
    np.array(3.5, np.float32),
    np.array(True),
    np.array([[1.5, 2], [3, 4]], np.float32),
    np.arange(12, dtype=np.int32).reshape(2, 2, 3),
    np.array([1, 2], bf16),
    np.array([1, 2], np.float16),
    np.array([1, 2], np.uint8),
    np.zeros((0, 3), np.float32),
    np.zeros((0,), np.int32),
    np.array([1e10, 1], np.float32),
    np.array([np.nan, np.inf, -np.inf], np.float32),
    np.arange(1200, dtype=np.float32),
    np.arange(8, dtype=np.float32) * 1.123456,
    np.array([1 + 2j], np.complex64),
]


@pytest.mark.parametrize("value", REPR_CASES, ids=lambda v: f"{v.dtype}{v.shape}")
def test_repr_matches_jax(value):
    assert repr(mnp.asarray(value)) == repr(jnp.asarray(value))


def test_repr_examples():
    assert repr(arr([1.0, 2.0])) == "Array([1., 2.], dtype=float32)"
    assert repr(mnp.add(1, 1.0)) == "Array(2., dtype=float32, weak_type=True)"
    assert repr(mnp.add(1, 1)) == "Array(2, dtype=int32, weak_type=True)"
    assert repr(mnp.add(1, 1.0)) == repr(jnp.add(1, 1.0))
    assert repr(arr([1.0, 2.0]) * 2.0) == "Array([2., 4.], dtype=float32)"


def test_str_and_format():
    x = arr([1.0, 2.5])
    assert str(x) == str(np.array([1.0, 2.5], np.float32)) == "[1.  2.5]"
    assert f"{arr(1.5):.3f}" == "1.500"
    assert f"{arr(7, np.int32):04d}" == "0007"
    assert f"{x}" == str(x)


# ---------------------------------------------------------------------------
# block_until_ready, devices, pickling
# ---------------------------------------------------------------------------

def test_block_until_ready_returns_self():
    x = mnp.ones((100, 100)) @ mnp.ones((100, 100))
    assert x.block_until_ready() is x
    assert x[0, 0].item() == 100.0


def test_devices():
    x = arr([1.0])
    assert len(x.devices()) == 1
    assert x.device in x.devices()
    assert x.device in mlax.devices()


@pytest.mark.parametrize("value", [arr([1.0, 2.0]), mnp.add(1.0, 1.0), arr([[1, 2]], np.int8)])
def test_pickle_round_trip(value):
    back = pickle.loads(pickle.dumps(value))
    assert isinstance(back, mlax.Array)
    assert back.dtype == value.dtype and back.shape == value.shape
    assert back.weak_type == value.weak_type
    assert back.tolist() == value.tolist()


# ---------------------------------------------------------------------------
# Operators
# ---------------------------------------------------------------------------

BINOPS = [operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv,
          operator.mod, operator.pow, operator.lt, operator.le, operator.gt, operator.ge,
          operator.eq, operator.ne]
INT_BINOPS = [operator.and_, operator.or_, operator.xor]


@pytest.mark.parametrize("op", BINOPS, ids=lambda o: o.__name__)
def test_binary_operators(op):
    a = np.array([[1.5, -2.0, 3.0], [0.5, 2.0, -1.0]], np.float32)
    b = np.array([2.0, -1.5, 3.0], np.float32)
    if op is operator.pow:
        a = np.abs(a)
    x, y = mnp.asarray(a), mnp.asarray(b)
    for lhs, rhs in ((x, y), (x, b), (a, y), (x, 2.0), (3.0, y), (x, 2)):
        out = op(lhs, rhs)
        assert isinstance(out, mlax.Array), (op, type(lhs), type(rhs))
        ref = op(np.asarray(lhs) if isinstance(lhs, mlax.Array) else lhs,
                 np.asarray(rhs) if isinstance(rhs, mlax.Array) else rhs)
        assert_values(out, np.asarray(ref), rtol=1e-6, atol=1e-6)
    assert_like_jax(op(x, 2.0), lambda a: op(a, 2.0), a)
    assert_like_jax(op(2.0, y), lambda b: op(2.0, b), b)


@pytest.mark.parametrize("op", INT_BINOPS, ids=lambda o: o.__name__)
def test_bitwise_operators(op):
    a = np.array([5, -3, 12], np.int32)
    b = np.array([3, 6, -1], np.int32)
    x, y = mnp.asarray(a), mnp.asarray(b)
    assert op(x, y).tolist() == op(a, b).tolist()
    assert op(x, 6).tolist() == op(a, 6).tolist()
    assert op(6, y).tolist() == op(6, b).tolist()
    p, q = mnp.asarray(a > 0), mnp.asarray(b > 0)
    assert op(p, q).tolist() == op(a > 0, b > 0).tolist() and op(p, q).dtype == np.bool_


def test_matmul_operator():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.arange(12, dtype=np.float32).reshape(3, 4)
    assert (mnp.asarray(a) @ mnp.asarray(b)).tolist() == (a @ b).tolist()
    assert (a @ mnp.asarray(b)).tolist() == (a @ b).tolist()  # __rmatmul__
    assert isinstance(a @ mnp.asarray(b), mlax.Array)


def test_unary_operators():
    a = np.array([1.5, -2.0, 0.0], np.float32)
    x = mnp.asarray(a)
    assert (-x).tolist() == (-a).tolist()
    assert (+x).tolist() == a.tolist()
    assert abs(x).tolist() == np.abs(a).tolist()
    i = mnp.asarray(np.array([0, 5, -3], np.int32))
    assert (~i).tolist() == [-1, -6, 2]
    assert (~mnp.asarray(np.array([True, False]))).tolist() == [False, True]


def test_operators_with_numpy_array_on_the_left_return_mlax_arrays():
    a = np.ones(3, np.float32)
    x = arr([1.0, 2.0, 3.0])
    for out in (a + x, a - x, a * x, a / x, a < x, a == x):
        assert isinstance(out, mlax.Array)
    assert (a - x).tolist() == [0.0, -1.0, -2.0]


def test_operators_with_sequences_are_not_supported():
    x = arr([1.0, 2.0])
    with pytest.raises(TypeError):
        x + [1.0, 2.0]
    with pytest.raises(TypeError):
        (1.0, 2.0) * x


def test_operator_promotion():
    i = mnp.asarray(np.array([1, 2], np.int32))
    assert (i / 2).dtype == np.float32
    assert (i * 2).dtype == np.int32
    assert (i * 2.5).dtype == np.float32
    assert (i ** 2).dtype == np.int32 and (i ** 2).tolist() == [1, 4]
    h = mnp.asarray(np.array([1, 2], np.float16))
    assert (h * 3.0).dtype == np.float16
    assert (h + i).dtype == np.float16


def test_in_place_operators_rebind():
    x = arr([1.0, 2.0])
    y = x
    x += 1
    assert x.tolist() == [2.0, 3.0]
    assert y.tolist() == [1.0, 2.0]  # the original array is unchanged


# ---------------------------------------------------------------------------
# Immutability, hashing
# ---------------------------------------------------------------------------

def test_item_assignment_raises_type_error_mentioning_at():
    x = arr([1.0, 2.0, 3.0])
    with pytest.raises(TypeError) as e:
        x[0] = 5
    msg = str(e.value)
    assert ".at[" in msg and "immutable" in msg
    with pytest.raises(TypeError, match=r"\.at\["):
        x[1:] = 0.0
    assert x.tolist() == [1.0, 2.0, 3.0]


def test_at_set_suggested_by_the_error_exists():
    x = arr([1.0, 2.0, 3.0])
    assert x.at[0].set(5.0).tolist() == [5.0, 2.0, 3.0]


def test_arrays_are_unhashable():
    with pytest.raises(TypeError, match="unhashable"):
        hash(arr([1.0]))
    with pytest.raises(TypeError, match="unhashable"):
        {arr(1.0): 1}


def test_attributes_cannot_be_reassigned():
    x = arr([1.0, 2.0])
    with pytest.raises(AttributeError):
        x.shape = (1, 2)
    with pytest.raises(AttributeError):
        x.foo = 1  # __slots__


# ---------------------------------------------------------------------------
# Python scalar conversion, len, iter, index
# ---------------------------------------------------------------------------

def test_scalar_conversions():
    f = arr(2.75)
    assert float(f) == 2.75 and isinstance(float(f), float)
    assert int(f) == 2
    assert bool(f) is True and bool(arr(0.0)) is False
    assert complex(f) == 2.75 + 0j
    i = arr(-7, np.int32)
    assert int(i) == -7 and float(i) == -7.0
    b = arr(True, np.bool_)
    assert bool(b) is True and int(b) == 1
    # as JAX (and NumPy 2): only 0-d arrays convert, even when the size is 1
    with pytest.raises(TypeError):
        float(arr([[4.0]]))


def test_non_scalar_conversions_raise():
    x = arr([1.0, 2.0])
    with pytest.raises(TypeError):
        float(x)
    with pytest.raises(TypeError):
        int(x)
    with pytest.raises(ValueError, match="ambiguous"):
        bool(x)
    assert bool(arr([3.0]) > 0) is True  # a size-1 comparison is fine
    with pytest.raises(ValueError, match="ambiguous"):
        if x > 0:
            pass


def test_index_protocol():
    i = arr(2, np.int32)
    assert [10, 20, 30][i] == 30
    assert list(range(i)) == [0, 1]
    assert operator.index(i) == 2
    with pytest.raises(TypeError):
        operator.index(arr(2.0))


def test_len_and_iter():
    x = arr([[1, 2, 3], [4, 5, 6]], np.int32)
    assert len(x) == 2
    rows = list(x)
    assert len(rows) == 2 and all(isinstance(r, mlax.Array) for r in rows)
    assert [r.tolist() for r in rows] == [[1, 2, 3], [4, 5, 6]]
    assert [int(v) for v in x[1]] == [4, 5, 6]
    assert len(mnp.zeros((0, 3))) == 0 and list(mnp.zeros((0, 3))) == []
    s = arr(1.0)
    with pytest.raises(TypeError, match="unsized"):
        len(s)
    with pytest.raises(TypeError, match="0-d"):
        iter(s)


def test_unpacking():
    a, b = arr([1.0, 2.0])
    assert a.item() == 1.0 and b.item() == 2.0


# ---------------------------------------------------------------------------
# Methods
# ---------------------------------------------------------------------------

def test_methods_match_numpy():
    v = np.arange(24, dtype=np.float32).reshape(2, 3, 4) - 10
    x = mnp.asarray(v)
    assert x.reshape(6, 4).shape == (6, 4)
    assert x.reshape((4, -1)).tolist() == v.reshape(4, -1).tolist()
    assert x.transpose().shape == (4, 3, 2)
    assert x.transpose(1, 0, 2).tolist() == v.transpose(1, 0, 2).tolist()
    assert x.transpose((2, 0, 1)).tolist() == v.transpose(2, 0, 1).tolist()
    assert x.T.tolist() == v.T.tolist()
    assert x.mT.tolist() == np.swapaxes(v, -1, -2).tolist()
    assert x.ravel().tolist() == v.ravel().tolist()
    assert x.flatten().tolist() == v.flatten().tolist()
    assert x[:1].squeeze().shape == (3, 4)
    assert x.swapaxes(0, 2).tolist() == v.swapaxes(0, 2).tolist()
    assert x.astype(np.int32).dtype == np.int32
    assert x.clip(-1, 1).tolist() == v.clip(-1, 1).tolist()
    np.testing.assert_allclose(np.asarray((x / 3).round(2)), np.round(v / 3, 2), rtol=1e-6)
    assert x.sum().item() == v.sum()
    assert x.max(axis=(0, 2)).tolist() == v.max(axis=(0, 2)).tolist()
    assert x.min(1, keepdims=True).shape == (2, 1, 4)
    assert x[0].dot(x[1].T).tolist() == v[0].dot(v[1].T).tolist()


# Shift and divmod operators, itemsize/nbytes, view: as jax.Array's.
ARRAY_EXTRAS = [
    ("lshift", lambda n: n.arange(4) << 2), ("rlshift", lambda n: 1 << n.arange(4)),
    ("rshift", lambda n: n.arange(8) >> 1), ("rrshift", lambda n: 64 >> n.arange(3)),
    ("divmod", lambda n: n.stack(divmod(n.arange(7), 3))),
    ("rdivmod", lambda n: n.stack(divmod(7, n.arange(1, 4)))),
    ("itemsize_nbytes", lambda n: n.asarray([n.ones(3, n.float16).itemsize,
                                              n.ones((2, 3)).nbytes])),
    ("view_same_width", lambda n: n.arange(4, dtype=n.int32).view(n.float32)),
    ("view_narrower", lambda n: n.arange(3, dtype=n.int32).view(n.uint8)),
    ("view_wider", lambda n: n.arange(8, dtype=n.uint8).reshape(2, 4).view(n.int32)),
    ("view_bool", lambda n: n.array([1, 0, 1], n.int8).view(n.bool_)),
    ("view_from_bool", lambda n: n.array([True, False, True, True]).view(n.int16)),
    ("view_complex", lambda n: n.array([1 + 2j, 3 - 4j], n.complex64).view(n.float32)),
    ("view_to_complex", lambda n: n.arange(4, dtype=n.float32).view(n.complex64)),
    ("view_0d", lambda n: n.asarray(n.float32(1.5)).view(n.int32)),
]


@pytest.mark.parametrize("name, fn", ARRAY_EXTRAS, ids=[c[0] for c in ARRAY_EXTRAS])
def test_array_operators_and_view_as_jax(name, fn):
    want = fn(jnp)
    for got in (fn(mnp), mlax.jit(lambda: fn(mnp))()):
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


def test_view_errors_as_jax():
    for bad in (lambda n: n.asarray(n.float32(1)).view(n.int8),
                lambda n: n.arange(3, dtype=n.int8).view(n.int16)):
        with pytest.raises(ValueError):
            bad(jnp)
        with pytest.raises(ValueError):
            bad(mnp)
    assert mlax.jit(lambda x: x.nbytes + x.itemsize)(np.ones(3, np.float32)) == 16



def test_byteswap_tobytes_buffer_pointer_to_device():
    """byteswap as JAX's for every itemsize (complex: each part; one byte:
    a copy), eagerly and under jit; tobytes; the buffer's address;
    to_device (a copy on another device); `flat`, JAX's
    NotImplementedError."""
    import jax

    dts = [np.int32, np.uint16, np.float32, np.float16, bf16, np.complex64, np.int8, np.bool_]
    values = [(np.arange(6).reshape(2, 3) * 3 + 1).astype(dt) for dt in dts]
    jitted = mlax.jit(lambda vs: [v.byteswap() for v in vs])(values)
    want = jax.jit(lambda vs: [v.byteswap() for v in vs])(values)
    for v, got_jit, w in zip(values, jitted, want):
        for got in (mnp.asarray(v).byteswap(), got_jit):
            assert got.dtype == w.dtype and got.shape == w.shape
            assert np.asarray(got).tobytes() == np.asarray(w).tobytes(), v.dtype
        assert mnp.asarray(v).tobytes() == jnp.asarray(v).tobytes()
        assert mnp.asarray(v).tobytes("F") == jnp.asarray(v).tobytes("F")
    with pytest.raises(TypeError):
        mnp.arange(3).byteswap(inplace=True)
    with pytest.raises(NotImplementedError, match="flatten"):
        mnp.arange(3).flat  # noqa: B018 (JAX's error, not an AttributeError)
    x = mnp.arange(3.0)
    assert isinstance(x.unsafe_buffer_pointer(), int) and x.unsafe_buffer_pointer() > 0
    moved = x.to_device(mlax.devices()[1])
    assert moved.devices() == {mlax.devices()[1]}
    np.testing.assert_array_equal(np.asarray(moved), np.asarray(x))
    with pytest.raises(NotImplementedError, match="stream"):
        x.to_device(mlax.devices()[0], stream=1)


# ---------------------------------------------------------------------------
# Copies own their buffers; the array API namespace; key arrays' placement
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("how", ["array", "asarray", "method", "function"])
def test_copies_own_their_buffers(how):
    """A copy is a buffer of its own, as JAX's: deleting it, or donating it
    to a jit, leaves the original (mlax's copies shared the buffer, so
    donating x.copy() deleted x)."""
    import jax.numpy as jnp
    for np_ in (jnp, mnp):
        make = {"array": lambda a: np_.array(a, copy=True),
                "asarray": lambda a: np_.asarray(a, copy=True),
                "method": lambda a: a.copy(), "function": lambda a: np_.copy(a)}[how]
        x = np_.arange(4.0)
        y = make(x)
        y.delete()
        assert not x.is_deleted()
        z = make(x)
        out = (jax if np_ is jnp else mlax).jit(lambda a: a * 2, donate_argnums=0)(z)
        np.testing.assert_array_equal(np.asarray(out), np.arange(4.0) * 2)
        np.testing.assert_array_equal(np.asarray(x), np.arange(4.0))
    x = mnp.arange(3)
    assert mnp.asarray(x) is x  # no copy unless asked


def test_array_namespace_and_info():
    x = mnp.ones(3)
    assert x.__array_namespace__() is mnp
    assert mnp.__array_api_version__ == jnp.__array_api_version__
    with pytest.raises(ValueError, match="not available"):
        x.__array_namespace__(api_version="2021.12")
    info, jinfo = mnp.__array_namespace_info__(), jnp.__array_namespace_info__()
    assert info.capabilities() == jinfo.capabilities()
    assert info.default_dtypes() == jinfo.default_dtypes()
    for kind in (None, "bool", "integral", "real floating", ("bool", "complex floating")):
        assert info.dtypes(kind=kind) == jinfo.dtypes(kind=kind)
    assert info.default_device() is None and info.devices()[0] is None
    assert mlax.jit(lambda a: a.__array_namespace__().sum(a))(x) == 3.0
    assert x.on_device_size_in_bytes() == jnp.ones(3).on_device_size_in_bytes() == 12


def test_key_array_placement_and_copy():
    for lib in (jax, mlax):
        keys = lib.random.split(lib.random.key(0), 3)
        assert str(keys.aval) == "key<fry>[3]" and str(keys[0].aval) == "key<fry>[]"
        assert keys.device == lib.devices()[0]
        assert type(keys.sharding).__name__ == "SingleDeviceSharding"
        c = keys.copy()
        assert bool((c == keys).all()) and c.dtype == keys.dtype
        c.delete()
        assert c.is_deleted() and not keys.is_deleted()
        with pytest.raises(AttributeError):  # a traced key has no device
            lib.jit(lambda k: k.device)(keys)


def test_contains():
    """`v in x` as JAX's: one reduction (not a loop over the elements), a
    one-dimensional x and a scalar v, JAX's errors otherwise."""
    for np_ in (jnp, mnp):
        x = np_.arange(5.0)
        assert (2.0 in x) and (3 in x) and not (7 in x) and not (2.5 in x)
        for bad, exc in (([1], TypeError), (None, TypeError), ("a", TypeError),
                         (np_.ones(2), ValueError)):
            with pytest.raises(exc):
                bad in x  # noqa: B015
        with pytest.raises(ValueError, match="one-dimensional"):
            1 in np_.ones((2, 2))  # noqa: B015
    assert int(mlax.jit(lambda a: mnp.where(a.__contains__(2.0), 1, 0))(mnp.arange(3.0))) == 1


@pytest.mark.parametrize("probe,exc", [
    (lambda x: x.__setitem__(0, 1.0), TypeError),
    (lambda x: x.device, AttributeError),
    (lambda x: x.sharding, AttributeError),
    (lambda x: x.devices(), "concretization"),
    (lambda x: x.delete(), "concretization"),
    (lambda x: x.tobytes(), "concretization"),
    (lambda x: x.committed, "concretization"),
    (lambda x: x.is_fully_replicated, "concretization"),
])
def test_traced_values_refuse_what_only_device_arrays_have(probe, exc):
    """Inside jit, what only an array on a device has raises JAX's class
    (`x[0] = y` its TypeError pointing at .at[], not Python's bare one)."""
    classes = []
    for lib, np_ in ((jax, jnp), (mlax, mnp)):
        def f(x):
            try:
                probe(x)
            except Exception as e:  # noqa: BLE001
                classes.append(type(e).__name__)
            return x
        lib.jit(f)(np_.ones(3))
    want = "ConcretizationTypeError" if exc == "concretization" else exc.__name__
    assert classes == [want, want]


def test_array_is_the_type_of_traced_values_and_keys():
    """isinstance(x, mlax.Array) holds inside jit, grad and vmap and for
    typed keys, as isinstance(x, jax.Array) does (libraries filter a
    pytree's arrays that way); mlax.Array is not constructible."""
    for lib, np_ in ((jax, jnp), (mlax, mnp)):
        seen = []
        f = lambda x: seen.append(isinstance(x, lib.Array)) or x.sum()  # noqa: E731
        lib.jit(f)(np_.ones(2))
        lib.grad(f)(np_.ones(2))
        lib.vmap(f)(np_.ones((2, 2)))
        assert seen == [True, True, True]
        assert isinstance(lib.random.key(0), lib.Array)
        assert isinstance(np_.ones(2), np_.ndarray) and not isinstance(np.ones(2), lib.Array)
    with pytest.raises(TypeError):
        mlax.Array([1.0])

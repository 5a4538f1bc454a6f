"""jax_numpy_rank_promotion ('allow'/'warn'/'raise') and
jax_numpy_dtype_promotion ('standard'/'strict'), against JAX: which mnp
functions warn or raise, with which class and message."""
import re
import warnings

import numpy as np
import pytest

import jax
import jax.numpy as jnp

import mlax
import mlax.numpy as mnp


def outcome(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = fn()
            result = ("ok", np.asarray(out).dtype.name, np.shape(out))
        except Exception as e:  # noqa: BLE001
            result = (type(e).__name__, _unordered(str(e)))
    return result + (tuple(str(w.message) for w in caught
                           if "rank promotion" in str(w.message)),)


def _unordered(message):
    """JAX names the dtypes of a failed promotion in set order (which varies
    between processes for Python scalar types): compare them as a set."""
    m = re.match(r"Input dtypes \((.*)\) have", message)
    if not m:
        return message
    names = tuple(sorted(n.strip() for n in m.group(1).split(", ") if n.strip()))
    return (names, message[m.end():])


RANK_CASES = {
    "add": lambda np_, a, b: np_.add(a, b),
    "operator *": lambda np_, a, b: a * b,
    "power": lambda np_, a, b: np_.power(a, b),
    "arctan2": lambda np_, a, b: np_.arctan2(a, b),
    "maximum": lambda np_, a, b: np_.maximum(a, b),
    "logaddexp": lambda np_, a, b: np_.logaddexp(a, b),
    "less": lambda np_, a, b: np_.less(a, b),
    "where": lambda np_, a, b: np_.where(b > 0, a, b),
    "matmul": lambda np_, a, b: np_.matmul(a, b),
    "dot": lambda np_, a, b: np_.dot(a, b),
    "clip": lambda np_, a, b: np_.clip(a, b, 10.0),
    "scalar operand": lambda np_, a, b: a + 2.0,
    "size-1 leading axis": lambda np_, a, b: a + b[None],
}


@pytest.mark.parametrize("mode", ["raise", "warn"])
@pytest.mark.parametrize("case", list(RANK_CASES.values()), ids=list(RANK_CASES))
def test_rank_promotion_as_jax(case, mode):
    a, b = np.ones((2, 3), np.float32), np.arange(3, dtype=np.float32)
    with jax.numpy_rank_promotion(mode):
        theirs = outcome(lambda: case(jnp, jnp.asarray(a), jnp.asarray(b)))
        theirs_jit = outcome(lambda: jax.jit(lambda x, y: case(jnp, x, y))(a, b))
    with mlax.numpy_rank_promotion(mode):
        ours = outcome(lambda: case(mnp, mnp.asarray(a), mnp.asarray(b)))
        ours_jit = outcome(lambda: mlax.jit(lambda x, y: case(mnp, x, y))(a, b))
    assert ours == theirs
    if mode == "raise":
        # (In 'warn' mode JAX warns only when it traces: its jitted jnp
        # functions, traced by the eager call above, do not warn again.)
        assert ours_jit == theirs_jit


def test_rank_promotion_mode_is_scoped_and_retraces():
    f = mlax.jit(lambda x, y: x + y)
    a, b = mnp.ones((2, 3)), mnp.ones(3)
    assert f(a, b).shape == (2, 3)  # traced (and cached) under 'allow'
    with mlax.numpy_rank_promotion("raise"):
        assert mlax.config.jax_numpy_rank_promotion == "raise"
        with pytest.raises(ValueError, match="jax_numpy_rank_promotion='raise'"):
            f(a, b)
    assert mlax.config.jax_numpy_rank_promotion == "allow"
    assert f(a, b).shape == (2, 3)


DTYPE_PAIRS = [
    (np.float32, np.int32), (np.float32, np.float16), (np.int8, np.int32),
    (np.uint8, np.int8), (np.bool_, np.int32), (np.float32, np.complex64),
    (np.float32, np.float32),
]
SCALARS = [1, 1.5, 1j, True, -1]


@pytest.mark.parametrize("fn", ["add", "multiply", "maximum", "concatenate", "where"])
@pytest.mark.parametrize("pair", DTYPE_PAIRS, ids=lambda p: f"{np.dtype(p[0])}-{np.dtype(p[1])}")
def test_strict_dtype_promotion_of_arrays_as_jax(pair, fn):
    a, b = np.ones(3, pair[0]), np.ones(3, pair[1])

    def call(np_, x, y):
        if fn == "concatenate":
            return np_.concatenate([x, y])
        if fn == "where":
            return np_.where(x == x, x, y)
        return getattr(np_, fn)(x, y)

    with jax.numpy_dtype_promotion("strict"):
        theirs = outcome(lambda: call(jnp, jnp.asarray(a), jnp.asarray(b)))
    with mlax.numpy_dtype_promotion("strict"):
        ours = outcome(lambda: call(mnp, mnp.asarray(a), mnp.asarray(b)))
        ours_jit = outcome(lambda: mlax.jit(lambda x, y: call(mnp, x, y))(a, b))
    assert ours == theirs
    assert ours_jit == theirs


@pytest.mark.parametrize("scalar", SCALARS, ids=repr)
@pytest.mark.parametrize("dt", [np.float32, np.int32, np.uint8, np.bool_, np.complex64])
def test_strict_dtype_promotion_with_python_scalars_as_jax(dt, scalar):
    x = np.ones(3, dt)
    with jax.numpy_dtype_promotion("strict"):
        theirs = outcome(lambda: jnp.asarray(x) + scalar)
    with mlax.numpy_dtype_promotion("strict"):
        ours = outcome(lambda: mnp.asarray(x) + scalar)
    assert ours == theirs


def test_strict_result_type_and_scope():
    with mlax.numpy_dtype_promotion("strict"):
        with pytest.raises(mlax.dtypes.TypePromotionError, match="strict"):
            mnp.result_type(np.float32, np.int32)
        assert mnp.result_type(np.float32, float) == np.float32
    assert mnp.result_type(np.float32, np.int32) == np.float32
    assert mlax.config.jax_numpy_dtype_promotion == "standard"


def test_invalid_modes_are_jaxs_errors():
    for name, value, default in (("jax_numpy_rank_promotion", "bad", "allow"),
                                 ("jax_numpy_dtype_promotion", "bad", "standard")):
        with pytest.raises(ValueError) as ours:
            mlax.config.update(name, value)
        try:
            with pytest.raises(ValueError) as theirs:
                jax.config.update(name, value)
        finally:
            jax.config.update(name, default)  # (JAX keeps the rejected value)
        assert str(ours.value) == str(theirs.value)
        assert getattr(mlax.config, name) == default
    with pytest.raises(TypeError, match="requires an argument"):
        with mlax.numpy_rank_promotion():
            pass


# Library functions whose own steps broadcast (JAX's raise no rank-promotion
# error for them), and jnp.vectorize-based ones (JAX's check their batch ranks).
LIBRARY_CASES = {
    "histogram": lambda np_, x, v: np_.histogram(x, 3)[0],
    "digitize": lambda np_, x, v: np_.digitize(x, v),
    "searchsorted": lambda np_, x, v: np_.searchsorted(v, x),
    "isin": lambda np_, x, v: np_.isin(x, v),
    "intersect1d": lambda np_, x, v: np_.intersect1d(x, x),
    "setdiff1d": lambda np_, x, v: np_.setdiff1d(x, v),
    "outer": lambda np_, x, v: np_.outer(x, v),
    "vander": lambda np_, x, v: np_.vander(v),
    "interp": lambda np_, x, v: np_.interp(x, v, v * 2),
    "vectorize": lambda np_, x, v: np_.vectorize(lambda a, b: a + b)(x, v),
    "vectorize signature": lambda np_, x, v: np_.vectorize(
        lambda a, b: (a * b).sum(), signature="(n),(n)->()")(x, v),
    "matvec": lambda np_, x, v: np_.matvec(x, x),
    "vecmat": lambda np_, x, v: np_.vecmat(x[:, 0], np_.stack([x, x])),
}


@pytest.mark.parametrize("case", list(LIBRARY_CASES.values()), ids=list(LIBRARY_CASES))
def test_library_functions_under_raise_as_jax(case):
    x = np.linspace(0.1, 0.9, 12, dtype=np.float32).reshape(3, 4)
    v = np.linspace(0.0, 1.0, 4, dtype=np.float32)
    with jax.numpy_rank_promotion("raise"):
        theirs = outcome(lambda: case(jnp, jnp.asarray(x), jnp.asarray(v)))
    with mlax.numpy_rank_promotion("raise"):
        ours = outcome(lambda: case(mnp, mnp.asarray(x), mnp.asarray(v)))
    assert ours == theirs


# Python ints beside arrays, as JAX takes them: a value of the default
# integer type first (outside its range: OverflowError, under jit as
# eagerly), then converted to the array's type, wrapping into a narrower
# integer type; an explicit dtype (full) wraps any int.
_PY_INT_CASES = {
    "int8_plus_300": lambda lib, np_: lib.jit(lambda x: x + 300)(np_.ones(2, np_.int8)),
    "int8_scalar_plus_300": lambda lib, np_: lib.jit(lambda x: x + 300)(np_.int8(1)),
    "uint8_minus_1": lambda lib, np_: lib.jit(lambda x: x + (-1))(np_.ones(2, np_.uint8)),
    "int16_times_70000": lambda lib, np_: lib.jit(lambda x: x * 70000)(np_.ones(2, np_.int16)),
    "maximum_int8_300": lambda lib, np_: lib.jit(lambda x: np_.maximum(x, 300))(
        np_.ones(2, np_.int8)),
    "full_int8_300": lambda lib, np_: np_.full(2, 300, np_.int8),
    "full_uint32_2_32": lambda lib, np_: np_.full(2, 2**32, np_.uint32),
    "full_float32_2_40": lambda lib, np_: np_.full(2, 2**40, np_.float32),
    "jit_float32_times_2_31": lambda lib, np_: lib.jit(lambda x: x * 2**31)(np_.ones(2)),
    "grad_times_2_40": lambda lib, np_: lib.grad(lambda x: x * 2**40)(1.0),
    "jit_where_2_40": lambda lib, np_: lib.jit(lambda x: np_.where(x > 0, 2**40, x))(
        np_.ones(2)),
    "eager_uint32_times_2_31": lambda lib, np_: np_.ones(2, np_.uint32) * 2**31,
    "asarray_int8_300": lambda lib, np_: np_.asarray(300, np_.int8),
}


@pytest.mark.parametrize("case", sorted(_PY_INT_CASES))
def test_python_int_operands_as_jax(case):
    def run(lib, np_):
        try:
            out = _PY_INT_CASES[case](lib, np_)
        except Exception as e:  # noqa: BLE001 (compared with JAX's)
            return type(e).__name__
        return np.asarray(out).dtype.name, np.asarray(out).tolist()
    assert run(mlax, mnp) == run(jax, jnp)

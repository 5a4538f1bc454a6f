"""mlax.numpy against JAX on edge cases drawn from JAX's own jax.numpy tests
(tests/lax_numpy_*_test.py upstream): numpy.pad's every mode, the weak types
of the floating-point predicates on Python scalars, set operations' dtypes and
options, and array creation from mixed scalars. Values, dtypes, weak types and
exception classes are compared with JAX's, eagerly and (where a case says so)
under jit."""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from _helpers import jax_outcomes

import mlax
import mlax.numpy as mnp

RNG = np.random.default_rng(7)
A = RNG.uniform(-3, 3, (3, 4)).astype(np.float32)
A1 = RNG.uniform(-3, 3, (1, 4)).astype(np.float32)
I = RNG.integers(-5, 6, (3, 4)).astype(np.int32)
U8 = RNG.integers(0, 9, (5,)).astype(np.uint8)
C = (RNG.uniform(-1, 1, (5,)) + 1j * RNG.uniform(-1, 1, (5,))).astype(np.complex64)


def _ramp_pads(vector, pad_width, iaxis, kwargs):
    # numpy.pad's callable mode: the padded slice's new value
    value = kwargs.get("padder", 10)
    if pad_width[0]:
        vector = vector.at[:pad_width[0]].set(value)
    if pad_width[1]:
        vector = vector.at[-pad_width[1]:].set(value)
    return vector


# (name, args, kwargs, also under jit)
CASES = []
for _mode in ("edge", "reflect", "symmetric", "wrap", "linear_ramp", "maximum", "minimum",
              "mean", "median", "empty"):
    CASES += [
        ("pad", (A, ((1, 2), (0, 3))), {"mode": _mode}, _mode in ("linear_ramp", "median")),
        ("pad", (A, ((7, 0), (0, 9))), {"mode": _mode}, False),
        ("pad", (I, 2), {"mode": _mode}, False),
        ("pad", (U8, (3, 1)), {"mode": _mode}, False),
    ]
CASES += [
    ("pad", (A, 2), {"mode": "linear_ramp", "end_values": ((1, 2), (3, 4))}, False),
    ("pad", (I, ((1, 3), (4, 2))), {"mode": "linear_ramp", "end_values": 2.5}, False),
    ("pad", (A, ((5, 7), (1, 0))), {"mode": "reflect", "reflect_type": "odd"}, True),
    ("pad", (A, 9), {"mode": "symmetric", "reflect_type": "odd"}, False),
    ("pad", (A1, 5), {"mode": "reflect", "reflect_type": "odd"}, False),
    ("pad", (I, 2), {"mode": "symmetric", "reflect_type": "odd"}, False),
    ("pad", (A, 2), {"mode": "maximum", "stat_length": ((1, 2), (2, 1))}, True),
    ("pad", (I, (1, 3)), {"mode": "mean", "stat_length": 2}, False),
    ("pad", (A, 2), {"mode": "median", "stat_length": 10}, False),
    ("pad", (A, 2), {"mode": "minimum", "stat_length": 0}, False),
    ("pad", (A, 1), {"mode": _ramp_pads}, True),
    ("pad", (A, ((2, 1), (0, 3))), {"mode": _ramp_pads, "padder": -1.0}, False),
    ("pad", (2.5, 1), {"mode": "mean"}, False),
    ("pad", (A, 1), {"mode": "edge", "constant_values": 1}, False),
    ("pad", (A, 1), {"mode": "bogus"}, False),
    # predicates of Python scalars: weakly typed bools exactly where JAX's are
    ("isnan", (3,), {}, False), ("isinf", (-2.5,), {}, False), ("isinf", (1.5 + 0.5j,), {}, False),
    ("isfinite", (-2.5,), {}, False), ("isfinite", (1.5 + 0.5j,), {}, False),
    ("isreal", (3,), {}, False), ("isreal", (-2.5,), {}, False), ("iscomplex", (1.5 + 0.5j,), {}, False),
    ("exp2", (1.5 + 0.5j,), {}, False), ("isnan", (I,), {}, False), ("iscomplex", (C,), {}, False),
]

# set operations: intersect1d promotes its operands, and gives indices
V1 = np.array([3, -1, 2, 3, 0, -1, 5, 2], np.int32)
V2 = np.array([2, 7, -1, 2, 4, 3], np.int32)
VF = np.array([2.0, 0.5, 3.0, -1.0], np.float32)
CASES += [
    ("intersect1d", (V1, VF), {}, False),
    ("intersect1d", (V1, V2), {"return_indices": True}, False),
    ("intersect1d", (np.unique(V1), np.unique(V2)), {"assume_unique": True,
                                                     "return_indices": True}, False),
    ("intersect1d", (V1.reshape(2, 4), V2), {"return_indices": True, "size": 5}, True),
    ("intersect1d", (V1, V2), {"return_indices": True, "size": 2, "fill_value": -9}, False),
    ("intersect1d", (V1[:0], V2), {"size": 3, "fill_value": 1}, False),
]

# einsum's preferred_element_type: the result's dtype whatever the contraction
B16 = RNG.uniform(-2, 2, (3, 4)).astype(jnp.bfloat16)
I8 = RNG.integers(-5, 6, (4, 4)).astype(np.int8)
CASES += [
    ("einsum", ("ij->", B16), {"preferred_element_type": np.float32}, False),
    ("einsum", ("ji", I8), {"preferred_element_type": np.int32}, False),
    ("einsum", ("ii->i", I8), {"preferred_element_type": np.int32}, False),
    ("einsum", ("ab,bc,cd->ad", I8, I8, I8), {"preferred_element_type": np.int32}, True),
    ("einsum", ("ab,bc,cd->ad", B16, B16.T, B16), {"preferred_element_type": np.float32},
     False),
]

# weak types of binary ops on Python scalars and weakly typed arrays
I3 = np.array([-1, 0, 2], np.int8)
CASES += [
    ("logical_and", (2, 3), {}, False), ("logical_or", (2.5, 1), {}, False),
    ("logical_xor", (True, 3), {}, False), ("logical_and", (np.array([True, False]), 0.0), {}, False),
    ("dot", (1.5, I3), {}, False), ("dot", (I3.astype(np.uint32), 0.5 + 1j), {}, False),
    ("dot", (2, 3), {}, False),
    ("hypot", (I3, 1.5), {}, False), ("hypot", (2.5, 1), {}, False),
    ("heaviside", (I3, 1.5), {}, False), ("heaviside", (2.5, 1), {}, False),
]

# creation: Python ints out of int32's range, NumPy scalars among Python
# numbers, fill values that do not broadcast
CASES += [
    ("asarray", (2**40,), {}, False), ("array", (-2**31 - 1,), {}, False),
    ("array", ([1, 2**33],), {}, False), ("asarray", (2**31 - 1,), {}, False),
    ("array", ([np.float16(1), 2],), {}, False), ("asarray", ([np.int8(1), np.uint8(2)],), {}, False),
    ("full", ((), np.ones(3, np.float32)), {}, False),
    ("full_like", (3, np.ones(3, np.int8)), {}, False),
    ("full", ((2, 3), np.ones((2, 1), np.float32)), {}, False),
]

# gradient with coordinate arrays; sum and prod in bool
F45 = RNG.uniform(-1, 1, (4, 5)).astype(np.float32)
X4 = np.array([0.0, 1.0, 3.0, 4.0], np.float32)
BB = np.array([[True, False], [False, False]])
CASES += [
    ("gradient", (F45, X4, np.arange(5, dtype=np.float32) ** 2), {}, False),
    ("gradient", (F45, X4), {"axis": 0}, True),
    ("gradient", (F45, 1.0, 2.0), {}, False),
    ("sum", (BB,), {"dtype": bool}, False), ("sum", (BB,), {"dtype": bool, "axis": 0}, True),
    ("prod", (BB,), {"dtype": bool, "axis": 1}, False),
    ("sum", (F45,), {"dtype": bool, "initial": False}, False),
]

# quantile's method='inverted_cdf' (JAX's testQuantile methods), unweighted
Q35 = RNG.uniform(-2, 2, (3, 5)).astype(np.float32)
Q35N = Q35.copy()
Q35N[0, 1] = Q35N[2, ::2] = np.nan
QS = np.array([0.0, 0.1, 0.5, 0.75, 1.0], np.float32)
CASES += [
    ("quantile", (Q35, QS), {"method": "inverted_cdf"}, False),
    ("quantile", (Q35, 0.3), {"axis": 1, "keepdims": True, "method": "inverted_cdf"}, True),
    ("nanquantile", (Q35N, QS), {"axis": 1, "method": "inverted_cdf"}, False),
    ("quantile", (Q35N, 0.5), {"axis": 0, "method": "inverted_cdf"}, False),
    ("percentile", (np.arange(8, dtype=np.int32), 25.0), {"method": "inverted_cdf"}, False),
    ("nanpercentile", (Q35N, QS * 100), {"axis": (0, 1), "method": "inverted_cdf"}, False),
]

JAX_TABLE = [(getattr(jnp, name), args, kwargs) for name, args, kwargs, _ in CASES]


def _check(got, want):
    if isinstance(want, BaseException):
        assert isinstance(got, BaseException), f"JAX raised {want!r}; mlax returned"
        names = {c.__name__ for c in type(got).__mro__}
        assert type(want).__name__ in names, (got, want)
        return
    assert not isinstance(got, BaseException), f"mlax raised {got!r}"
    if isinstance(want, (list, tuple)):
        assert isinstance(got, (list, tuple)) and len(got) == len(want)
        for g, w in zip(got, want):
            _check(g, w)
        return
    assert got.shape == want.shape and got.dtype == want.dtype, \
        (got.shape, want.shape, got.dtype, want.dtype)
    assert got.weak_type == want.weak_type, (got.weak_type, want.weak_type)
    g, w = np.asarray(got), np.asarray(want)
    if g.dtype.kind in "biu":
        np.testing.assert_array_equal(g, w)
    else:
        np.testing.assert_allclose(g, w, rtol=2e-6, atol=1e-6, equal_nan=True)


def _outcome(fn):
    try:
        return fn()
    except Exception as e:  # noqa: BLE001 (the outcome compared)
        return e


@pytest.mark.parametrize("i", range(len(CASES)), ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_matches_jax(i):
    name, args, kwargs, also_jit = CASES[i]
    want = jax_outcomes(JAX_TABLE)[i]
    fm = getattr(mnp, name)
    _check(_outcome(lambda: fm(*args, **kwargs)), want)
    if also_jit:
        arrays = [j for j, a in enumerate(args) if isinstance(a, np.ndarray)]

        def f(*xs):
            full = list(args)
            for j, x in zip(arrays, xs):
                full[j] = x
            return fm(*full, **kwargs)

        _check(_outcome(lambda: mlax.jit(f)(*[args[j] for j in arrays])), want)


@pytest.mark.parametrize("shapes", [(3, (1,)), (2, (3, 1)), ((4,), 1)])
def test_broadcast_shapes_takes_ints(shapes):
    assert mnp.broadcast_shapes(*shapes) == jnp.broadcast_shapes(*shapes)


def test_vectorize_passes_excluded_keywords_through():
    # JAX's testVectorizeExcluded*: an excluded keyword argument reaches the
    # function unmapped (with or without a signature).
    x = np.arange(6.0, dtype=np.float32).reshape(2, 3)
    for sig, f, kw in [(None, lambda a, b=1: a * b, {"b": 5.0}),
                       ("(k)->()", lambda a, n: a[:n].sum(), {"n": 2})]:
        want = jnp.vectorize(f, excluded=set(kw), signature=sig)(x, **kw)
        vm = mnp.vectorize(f, excluded=set(kw), signature=sig)
        for got in (vm(x, **kw), mlax.jit(lambda v: vm(v, **kw))(x)):
            assert got.dtype == want.dtype and got.shape == want.shape
            np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-6)
    # (a keyword that is not excluded is mapped as NumPy maps it, not dropped
    # as JAX drops it)
    np.testing.assert_array_equal(mnp.vectorize(lambda a, b=1: a * b)(x, b=2.0),
                                  np.vectorize(lambda a, b=1: a * b)(x, b=2.0))


@pytest.mark.parametrize("args,dtype", [((0, 2, 0.5), int), ((0.5, 4, 1.5), np.int32),
                                        ((-1.5, 2.2, 0.7), int), ((1.5, 3.5), np.int16),
                                        ((0, 1, 0.3), np.int8), ((10, 0, -3), None)])
def test_arange_integer_dtype_of_fractional_bounds(args, dtype):
    """An integer arange of fractional start/step converts them first, as
    JAX's (mlax computed in floats and converted the values)."""
    _check(mnp.arange(*args, dtype=dtype), jnp.arange(*args, dtype=dtype))

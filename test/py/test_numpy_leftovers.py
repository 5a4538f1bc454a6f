"""jax.numpy leftovers of the sweep over JAX's tests/lax_numpy_*_test.py:
integer and bool dtype= of the mean/variance family and the cumulative
sums, weighted quantiles, and the other cases below — each against
jax.numpy (values, dtypes, weak types, exception classes), eagerly and under
jit."""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from _helpers import jax_outcomes

import mlax
import mlax.numpy as mnp

RNG = np.random.default_rng(3)
X = (np.arange(12).reshape(3, 4) % 5 - 2).astype(np.float32)
XN = X.copy()
XN[0, 0] = np.nan
I8 = X.astype(np.int8)
W = np.array([[True, False, True, False]] * 3)
W[1] = False
Q5 = RNG.standard_normal((3, 5)).astype(np.float32)
Q5N = Q5.copy()
Q5N[1, 2] = np.nan
Q5N[2] = np.nan
QW = RNG.integers(0, 4, (3, 5)).astype(np.float32)
QWBAD = QW.copy()
QWBAD[0, 1] = -1
QS = np.array([0.0, 0.25, 0.5, 1.0], np.float32)


def _f(name, **fixed):
    """jnp.name and mnp.name with `fixed` keyword arguments."""
    return (lambda *a, **k: getattr(jnp, name)(*a, **fixed, **k),
            lambda *a, **k: getattr(mnp, name)(*a, **fixed, **k))


# (label, (jax fn, mlax fn), args, kwargs)
CASES = []
for _name in ("mean", "var", "std", "nanmean", "nanvar", "nanstd"):
    for _x, _dt in ((XN if _name.startswith("nan") else X, np.uint8),
                    (XN if _name.startswith("nan") else X, np.bool_), (I8, np.int32)):
        CASES.append((f"{_name}-dtype", _f(_name), (_x,), dict(axis=0, dtype=_dt)))
    if _name in ("var", "nanvar", "mean", "nanmean"):
        CASES += [(f"{_name}-where-int", _f(_name), (I8,), dict(axis=0, dtype=np.int32, where=W)),
                  (f"{_name}-int-all", _f(_name), (XN,), dict(dtype=np.int16))]
    if _name in ("var", "nanvar"):
        CASES.append((f"{_name}-ddof-int", _f(_name), (I8,), dict(axis=1, ddof=4, dtype=np.int32)))
for _name in ("cumsum", "cumprod", "nancumsum", "nancumprod", "cumulative_sum"):
    for _x in ((XN, I8, X > 0) if _name == "cumsum" else (XN,)):
        CASES.append((f"{_name}-bool-dtype", _f(_name), (_x,), dict(axis=0, dtype=bool)))
for _name, _q in (("quantile", QS), ("nanquantile", np.float32(0.3)), ("percentile", QS * 100),
                  ("nanpercentile", np.float32(30))):
    _fw = _f(_name, method="inverted_cdf")
    _grid = ((QW, dict(axis=1)), (QW, dict(axis=0, keepdims=True)), (QW, dict()),
             (QW[0], dict(axis=1)), (QW[:, 0], dict(axis=0)), (QWBAD, dict(axis=1)),
             (QW, dict(axis=(0, 1), keepdims=True)), (QW.astype(np.int32), dict(axis=1)))
    for _x in (Q5, Q5N):  # (the whole grid for quantile and nanquantile)
        for _w, _kw in (_grid if _name in ("quantile", "nanquantile") else _grid[:1]):
            CASES.append((f"{_name}-weights", _fw, (_x, _q), dict(_kw, weights=_w)))
    for _w, _kw in ((QW[0], dict()), (QW[:, 0], dict(axis=1)), (QW.astype(np.complex64), dict(axis=1))):
        CASES.append((f"{_name}-weights-error", _fw, (Q5, _q), dict(_kw, weights=_w)))
    CASES.append((f"{_name}-weights-linear", _f(_name, method="linear"), (Q5, _q),
                  dict(axis=1, weights=QW)))

S1 = np.array([3, 1, 1, 4, 5, 9, 2, 6], np.int32)
S2 = np.array([5, 3, 5, 8, 9, 7], np.int32)
for _kw in (dict(size=10), dict(size=3), dict(size=12, fill_value=-1)):
    CASES += [("setxor1d-size", _f("setxor1d"), (S1, S2), _kw),
              ("setxor1d-size-float", _f("setxor1d"), (S1, S2.astype(np.float32)), _kw),
              ("setxor1d-size-same", _f("setxor1d"), (S1, S1), _kw)]
CASES += [("setdiff1d-fill-wraps", _f("setdiff1d"), (S1.astype(np.uint8), S2.astype(np.uint8)),
           dict(size=8, fill_value=-9)),
          ("intersect1d-none-kept", _f("intersect1d"), (S1, S2 + 20), dict(size=3))]
C5 = (RNG.standard_normal(5) + 1j * RNG.standard_normal(5)).astype(np.complex64)
C3 = (RNG.standard_normal(3) + 1j * RNG.standard_normal(3)).astype(np.complex64)
for _mode in ("full", "same", "valid"):
    for _a, _b in ((C5, C3), (C3, C5)) + (((C5.real.copy(), C3),) if _mode == "same" else ()):
        CASES.append(("correlate-complex", _f("correlate"), (_a, _b), dict(mode=_mode)))
E23 = RNG.standard_normal((2, 3)).astype(np.float32)
E34 = RNG.standard_normal((3, 4)).astype(np.float32)
E33 = RNG.standard_normal((3, 3)).astype(np.float32)
for _args in ((E23, [0, 1], E34, [1, 2], [0, 2]), (E23, [0, 1], E34, [1, 2]),
              (E23, [Ellipsis, 1], E34, [1, Ellipsis]), (E33, [0, 0]), (E33, [0, 0], [0]),
              (E23, [0, 1], [1, 0]), (E23, [0, 51], E34, [51, 26]),
              (E23, [Ellipsis, 1], E34, [1, 2], [Ellipsis, 2]),
              (E23, [0, 1], E34, [1, 2], E33, [1, 3], [0, 3])):
    CASES.append(("einsum-sublists", _f("einsum"), _args, {}))

def _uf(name, method):
    return (getattr(getattr(jnp, name), method), getattr(getattr(mnp, name), method))


U3 = (np.arange(12).reshape(3, 4) % 3).astype(np.int32)
for _name, _kws in (("logical_and", (dict(dtype=np.float32), dict(dtype=np.int8))),
                    ("logical_xor", (dict(dtype=np.int8), dict(axis=(0, 1)),
                                     dict(axis=1, where=W, initial=True))),
                    ("bitwise_xor", (dict(dtype=np.float32), dict(axis=(0, 1)), dict(axis=None))),
                    ("bitwise_or", (dict(dtype=np.int8),))):
    for _kw in _kws:
        CASES.append((f"{_name}.reduce", _uf(_name, "reduce"), (U3,), _kw))
CASES.append(("logical_or.reduce-bool", _uf("logical_or", "reduce"), (U3 > 0,),
              dict(dtype=np.int8)))
for _name in ("logical_and", "logical_xor", "subtract"):
    for _dt in (np.float32, np.int8):
        CASES.append((f"{_name}.accumulate", _uf(_name, "accumulate"), (U3,), dict(dtype=_dt)))
CASES.append(("subtract.reduce-dtype", _uf("subtract", "reduce"), (U3,), dict(dtype=np.int8)))

def _at(fn):
    """fn(module.asarray(x)) for jnp and mnp (an indexing expression)."""
    return (lambda x: fn(jnp.asarray(x)), lambda x: fn(mnp.asarray(x)))


for _label, _fn in (("at-True-set", lambda a: a.at[True].set(9.0)),
                    ("at-False-set", lambda a: a.at[False].set(9.0)),
                    ("at-True-add-row", lambda a: a.at[True].add(np.arange(4.0, dtype=np.float32))),
                    ("at-ellipsis-True-mul", lambda a: a.at[..., True].mul(2.0)),
                    ("at-True-slice-True-set", lambda a: a.at[True, :, True].set(np.ones((1, 3, 4), np.float32))),
                    ("at-slice-True-add", lambda a: a.at[0:1, True].add(1.0)),
                    ("at-False-any-shape", lambda a: a.at[False].set(np.ones(5, np.float32))),
                    ("at-True-bad-shape", lambda a: a.at[True].set(np.ones(5, np.float32))),
                    ("getitem-False", lambda a: a[False]), ("getitem-True", lambda a: a[True])):
    CASES.append((_label, _at(_fn), (X,), {}))

PX = np.linspace(0, 1, 8).astype(np.float32)
PY = (PX ** 2 + 0.1 * np.sin(9 * PX)).astype(np.float32)
for _y in (PY, np.stack([PY, PY[::-1]], 1)):
    for _kw in (dict(full=True), dict(cov=True), dict(cov="unscaled"),
                dict(cov=True, w=np.arange(1, 9, dtype=np.float32)),
                dict(full=True, rcond=1e-3)):
        CASES.append(("polyfit", _f("polyfit"), (PX, _y, 2), _kw))
for _args in ((PX[:, None], PY, 1), (PX[:0], PY[:0], 1), (PX, PY[:5], 1), (PX, PY[:, None, None], 1)):
    CASES.append(("polyfit-error", _f("polyfit"), _args, {}))
CASES.append(("polyfit-cov-too-few", _f("polyfit"), (PX[:3], PY[:3], 2), dict(cov=True)))

JAX_TABLE = [(fns[0], args, kwargs) for _, fns, args, kwargs in CASES]
# Exceptions JAX raises eagerly only (a list argument), checked one by one.
LIST_CASES = [
    ("quantile", lambda m: m.quantile(m.asarray(Q5), 0.5, axis=1, method="inverted_cdf",
                                      weights=[1, 2, 3, 4, 5])),
    ("percentile-a", lambda m: m.percentile([1.0, 2.0], 50)),
    ("median", lambda m: m.median([1.0, 2.0])),
    ("nanquantile-q", lambda m: m.nanquantile(m.asarray(Q5), [0.5])),
    ("sort", lambda m: m.sort([3, 1])), ("cumsum", lambda m: m.cumsum([1, 2])),
    ("argmax", lambda m: m.argmax([1, 2])), ("reshape", lambda m: m.reshape([1, 2], (2, 1))),
    ("take-indices", lambda m: m.take(m.arange(3), [0, 1])),
    ("stack-elements", lambda m: m.stack([[1.0], [2.0]])),
    ("atleast_1d-varargs", lambda m: m.atleast_1d(1.0, [1.0])),
    ("linalg.det", lambda m: m.linalg.det([[1.0]])), ("fft.fft", lambda m: m.fft.fft([1.0, 2.0])),
    ("polyfit", lambda m: m.polyfit([0.0, 1.0, 2.0], m.ones(3), 1)),
]


def _check(got, want):
    if isinstance(want, Exception):
        raise AssertionError(f"JAX raised {type(want).__name__}: {want}; mlax returned {got}")
    if isinstance(want, (tuple, list)):
        assert type(got) is type(want) and len(got) == len(want)
        for g, w in zip(got, want):
            _check(g, w)
        return
    assert np.dtype(got.dtype) == np.dtype(want.dtype), (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.weak_type == want.weak_type
    g, w = np.asarray(got), np.asarray(want)
    if g.dtype.kind in "fc":
        np.testing.assert_allclose(g, w, rtol=2e-4, atol=1e-5)
    else:
        np.testing.assert_array_equal(g, w)


# Every case eagerly; under jit the first of some labels, and all of the
# size= set operations and .at[] updates (jit is what size= is for).
_JIT_FIRST = ("var-dtype", "nanvar-dtype", "nanmean-dtype", "mean-where-int", "cumsum-bool-dtype",
              "quantile-weights", "nanquantile-weights", "correlate-complex", "einsum-sublists",
              "logical_and.accumulate", "logical_xor.reduce", "polyfit")
_SEEN = set()
MODES = []
for _k, (_label, *_) in enumerate(CASES):
    MODES.append((_k, "eager"))
    if (_label in _JIT_FIRST and _label not in _SEEN) or _label.startswith(("setxor1d", "at-")):
        MODES.append((_k, "jit"))
    _SEEN.add(_label)


@pytest.mark.parametrize("i,mode", MODES, ids=[f"{CASES[k][0]}-{m}" for k, m in MODES])
def test_matches_jax(i, mode):
    _, (_, fm), args, kwargs = CASES[i]
    want = jax_outcomes(JAX_TABLE)[i]
    arrays = [a for a in args if isinstance(a, np.ndarray)]
    kw_arrays = {k: v for k, v in kwargs.items() if isinstance(v, np.ndarray)}

    def call(*xs, **kws):
        it = iter(xs)
        full = [next(it) if isinstance(a, np.ndarray) else a for a in args]
        return fm(*full, **{**kwargs, **kws})

    run = call if mode == "eager" else mlax.jit(call)
    if isinstance(want, Exception):
        with pytest.raises(type(want)):
            run(*arrays, **kw_arrays)
        return
    _check(run(*arrays, **kw_arrays), want)


@pytest.mark.parametrize("i", range(len(LIST_CASES)), ids=[c[0] for c in LIST_CASES])
def test_list_arguments_refused_as_jax(i):
    _, f = LIST_CASES[i]
    with pytest.raises(TypeError):
        f(jnp)
    with pytest.raises(TypeError, match="requires ndarray or scalar arguments"):
        f(mnp)


def test_list_arguments_where_jax_takes_them():
    # (a tuple of arrays to stack, the operand-list form of einsum, shapes)
    parts = (mnp.ones(2), mnp.zeros(2))
    np.testing.assert_array_equal(mnp.stack(parts), jnp.stack((jnp.ones(2), jnp.zeros(2))))
    assert mnp.reshape(mnp.ones(2), [2, 1]).shape == (2, 1)
    assert mnp.einsum(mnp.ones(2), [0]).shape == jnp.einsum(jnp.ones(2), [0]).shape


B3 = np.array([True, False, True])
# (label, fn of (numpy module, nn module)): the same exception class as JAX's.
ERROR_CASES = [
    ("softmax-bool", lambda m, nn: nn.softmax(B3)),
    ("log_softmax-bool", lambda m, nn: nn.log_softmax(B3)),
    ("one_hot-bool", lambda m, nn: nn.one_hot(B3, 3)),
    ("rfft-float16", lambda m, nn: m.fft.rfft(np.ones(8, np.float16))),
    ("rfft2-bfloat16", lambda m, nn: m.fft.rfft2(np.ones((2, 4), jnp.bfloat16))),
    ("ihfft-float16", lambda m, nn: m.fft.ihfft(np.ones(8, np.float16))),
]


@pytest.mark.parametrize("i", range(len(ERROR_CASES)), ids=[c[0] for c in ERROR_CASES])
def test_refused_as_jax(i):
    _, f = ERROR_CASES[i]
    try:
        f(jnp, jax.nn)
    except Exception as e:  # noqa: BLE001 (JAX's class is the expected one)
        want = type(e)
    else:
        raise AssertionError("JAX accepted it")
    with pytest.raises(want):
        f(mnp, mlax.nn)


def test_softmax_of_ints_still_accepted():
    x = np.array([1, 2, 3], np.int32)
    np.testing.assert_allclose(mlax.nn.softmax(x), jax.nn.softmax(x), rtol=1e-6)
    np.testing.assert_allclose(mnp.fft.rfft(np.arange(4, dtype=np.int8)),
                               jnp.fft.rfft(np.arange(4, dtype=np.int8)), rtol=1e-6, atol=1e-6)


def test_einsum_path_sublists():
    a, b = E23, E34
    want = jnp.einsum_path(a, [0, 1], b, [1, 2], [0, 2], optimize="optimal")[0]
    assert mnp.einsum_path(a, [0, 1], b, [1, 2], [0, 2], optimize="optimal")[0] == want

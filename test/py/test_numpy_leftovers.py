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
    for _x in (XN if _name.startswith("nan") else X, I8):
        for _dt in (np.int32, np.uint8, np.bool_):
            CASES.append((f"{_name}-{_x.dtype}-{np.dtype(_dt)}", _f(_name), (_x,),
                          dict(axis=0, dtype=_dt)))
    if _name in ("var", "nanvar", "mean", "nanmean"):
        CASES += [(f"{_name}-where-int", _f(_name), (I8,), dict(axis=0, dtype=np.int32, where=W)),
                  (f"{_name}-int-all", _f(_name), (XN,), dict(dtype=np.int16))]
    if _name in ("var", "nanvar"):
        CASES.append((f"{_name}-ddof-int", _f(_name), (I8,), dict(axis=1, ddof=4, dtype=np.int32)))
for _name in ("cumsum", "cumprod", "nancumsum", "nancumprod", "cumulative_sum"):
    for _x in (XN, I8, X > 0):
        CASES.append((f"{_name}-{_x.dtype}-bool", _f(_name), (_x,), dict(axis=0, dtype=bool)))
for _name, _q in (("quantile", QS), ("nanquantile", np.float32(0.3)), ("percentile", QS * 100),
                  ("nanpercentile", np.float32(30))):
    _fw = _f(_name, method="inverted_cdf")
    for _x in (Q5, Q5N):
        for _w, _kw in ((QW, dict(axis=1)), (QW, dict(axis=0, keepdims=True)), (QW, dict()),
                        (QW[0], dict(axis=1)), (QW[:, 0], dict(axis=0)),
                        (QWBAD, dict(axis=1)), (QW, dict(axis=(0, 1), keepdims=True)),
                        (QW.astype(np.int32), dict(axis=1))):
            CASES.append((f"{_name}-weights", _fw, (_x, _q), dict(_kw, weights=_w)))
    for _w, _kw in ((QW[0], dict()), (QW[:, 0], dict(axis=1)), (QW.astype(np.complex64), dict(axis=1))):
        CASES.append((f"{_name}-weights-error", _fw, (Q5, _q), dict(_kw, weights=_w)))
    CASES.append((f"{_name}-weights-linear", _f(_name, method="linear"), (Q5, _q),
                  dict(axis=1, weights=QW)))

JAX_TABLE = [(fns[0], args, kwargs) for _, fns, args, kwargs in CASES]
# Exceptions JAX raises eagerly only (a list argument), checked one by one.
LIST_CASES = [
    ("quantile", lambda m: m.quantile(m.asarray(Q5), 0.5, axis=1, method="inverted_cdf",
                                      weights=[1, 2, 3, 4, 5])),
    ("percentile-a", lambda m: m.percentile([1.0, 2.0], 50)),
    ("median", lambda m: m.median([1.0, 2.0])),
    ("nanquantile-q", lambda m: m.nanquantile(m.asarray(Q5), [0.5])),
]


def _check(got, want):
    if isinstance(want, Exception):
        raise AssertionError(f"JAX raised {type(want).__name__}: {want}; mlax returned {got}")
    assert np.dtype(got.dtype) == np.dtype(want.dtype), (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.weak_type == want.weak_type
    g, w = np.asarray(got), np.asarray(want)
    if g.dtype.kind in "fc":
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)
    else:
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("i", range(len(CASES)), ids=[c[0] for c in CASES])
@pytest.mark.parametrize("mode", ["eager", "jit"])
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

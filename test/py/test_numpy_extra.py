"""mlax.numpy additions: nan-reductions, quantiles, unique, logspace /
geomspace, pad, diff, cross, kron, average, cov, corrcoef, histogram,
bincount, digitize, interp, polyval, diag, rot90, select, moveaxis —
values, dtypes and shapes against jax.numpy (and NumPy), eagerly and under
jit, with 64-bit types enabled too; gradients against jax.grad; errors."""
from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from _helpers import eager_share, jgrad

import mlax
import mlax.numpy as mnp

RNG = np.random.default_rng(7)
A = RNG.standard_normal((3, 4)).astype(np.float32)
B3 = RNG.standard_normal((2, 3, 4)).astype(np.float32)
V = RNG.standard_normal(7).astype(np.float32)
NANA = A.copy()
NANA[0, 1] = NANA[2, 3] = NANA[1, 0] = np.nan
ALLNAN = np.array([[np.nan, np.nan], [1.0, np.nan]], np.float32)
I32 = RNG.integers(-5, 6, (3, 4)).astype(np.int32)
F16 = A.astype(np.float16)
BF16 = A.astype(jnp.bfloat16)
BOOL = A > 0
EMPTY = np.zeros((0, 3), np.float32)
S0 = np.float32(1.5)
DUPS = np.array([3, 1, 2, 3, 1, 1, 7, 2], np.int32)
FDUPS = np.array([2.0, np.nan, 1.0, 2.0, np.nan, -1.0], np.float32)
ROWS = np.array([[1, 2], [0, 5], [1, 2], [0, 1], [0, 5]], np.int32)

# (name, args, kwargs): compared with jnp.<name>(*args, **kwargs)
CASES = [
    # nan-reductions
    ("nansum", (NANA,), {}), ("nansum", (NANA, 1), {}), ("nansum", (NANA, (0, 1)), {}),
    ("nansum", (NANA, 0), {"keepdims": True}), ("nansum", (I32, 1), {}),
    ("nansum", (BOOL,), {}), ("nansum", (F16, 0), {}), ("nansum", (S0,), {}),
    ("nansum", (EMPTY, 0), {}), ("nansum", (NANA,), {"initial": 2.0}),
    ("nansum", (NANA, 1), {"where": BOOL}), ("nansum", (I32,), {"dtype": np.float32}),
    ("nanprod", (NANA, 1), {}), ("nanprod", (I32, 0), {}), ("nanprod", (NANA,), {}),
    ("nanprod", (NANA, 0), {"keepdims": True, "where": BOOL}),
    ("nanmax", (NANA,), {}), ("nanmax", (NANA, 1), {}), ("nanmax", (ALLNAN, 1), {}),
    ("nanmax", (I32, 0), {"keepdims": True}), ("nanmax", (BOOL, 1), {}),
    ("nanmax", (NANA, 0), {"initial": 0.5}), ("nanmax", (S0,), {}),
    ("nanmax", (NANA, 1), {"initial": -9.0, "where": BOOL}),
    ("nanmin", (NANA, 0), {}), ("nanmin", (ALLNAN, 0), {}), ("nanmin", (F16, 1), {}),
    ("nanmin", (I32, (0, 1)), {}), ("nanmin", (BF16,), {}),
    ("nanmean", (NANA,), {}), ("nanmean", (NANA, 1), {}), ("nanmean", (ALLNAN, 1), {}),
    ("nanmean", (I32, 0), {}), ("nanmean", (NANA, 0), {"keepdims": True}),
    ("nanmean", (F16, 1), {}), ("nanmean", (NANA, 1), {"where": BOOL}),
    ("nanvar", (NANA,), {}), ("nanvar", (NANA, 1), {"ddof": 1}), ("nanvar", (ALLNAN, 1), {}),
    ("nanvar", (I32, 0), {}), ("nanvar", (NANA, (0, 1)), {"keepdims": True}),
    ("nanvar", (ALLNAN, 1), {"ddof": 1}),
    ("nanstd", (NANA, 0), {}), ("nanstd", (F16,), {}), ("nanstd", (NANA, 1), {"ddof": 1}),
    ("nanargmax", (NANA,), {}), ("nanargmax", (NANA, 1), {}), ("nanargmax", (ALLNAN, 1), {}),
    ("nanargmax", (I32, 0), {"keepdims": True}), ("nanargmin", (NANA, 0), {}),
    ("nanargmin", (ALLNAN, 0), {}), ("nanargmin", (BOOL, 1), {}),
    ("nancumsum", (NANA,), {}), ("nancumsum", (NANA, 1), {}), ("nancumsum", (I32, 0), {}),
    ("nancumsum", (BOOL, 1), {}), ("nancumprod", (NANA, 0), {}),
    ("nancumprod", (NANA,), {"dtype": np.float32}),
    # quantiles
    ("quantile", (A, 0.3), {}), ("quantile", (A, np.array([0.0, 0.25, 0.5, 1.0])), {}),
    ("quantile", (A, 0.7, 1), {}), ("quantile", (B3, 0.4, (0, 2)), {}),
    ("quantile", (B3, np.array([0.1, 0.9]), (0, 2)), {"keepdims": True}),
    ("quantile", (A, 0.5, 0), {"keepdims": True}), ("quantile", (A, 0.5), {"keepdims": True}),
    ("quantile", (I32, 0.5, 1), {}), ("quantile", (NANA, 0.5, 1), {}),
    ("quantile", (F16, 0.25, 0), {}), ("quantile", (V, 0.33), {"method": "lower"}),
    ("quantile", (V, 0.33), {"method": "higher"}),
    ("quantile", (V, np.array([0.33, 0.5, 0.75])), {"method": "nearest"}),
    ("quantile", (V, np.array([0.33, 0.5])), {"method": "midpoint"}),
    ("nanquantile", (NANA, 0.5, 1), {}), ("nanquantile", (NANA, np.array([0.2, 0.8])), {}),
    ("nanquantile", (ALLNAN, 0.5, 1), {}), ("nanquantile", (NANA, 0.4, 0), {"keepdims": True}),
    ("nanquantile", (NANA, 0.3, 1), {"method": "nearest"}),
    ("percentile", (A, 30), {}), ("percentile", (A, np.array([10, 50, 90]), 1), {}),
    ("percentile", (I32, 50.0, 0), {"method": "lower"}),
    ("nanpercentile", (NANA, 75, 1), {}), ("nanpercentile", (NANA, 50), {"method": "higher"}),
    ("median", (A,), {}), ("median", (A, 1), {}), ("median", (B3, (0, 1)), {}),
    ("median", (A, 0), {"keepdims": True}), ("median", (I32, 1), {}), ("median", (NANA, 1), {}),
    ("nanmedian", (NANA, 1), {}), ("nanmedian", (NANA,), {}), ("nanmedian", (ALLNAN, 0), {}),
    ("nanmedian", (NANA, 0), {"keepdims": True}),
    # creation
    ("logspace", (0.0, 3.0, 4), {}), ("logspace", (0, 2, 5), {"base": 2.0, "endpoint": False}),
    ("logspace", (1.0, 2.0, 3), {"dtype": np.float16}),
    ("logspace", (np.array([0.0, 1.0], np.float32), np.array([2.0, 3.0], np.float32), 3),
     {"axis": 1}),
    ("geomspace", (1.0, 1000.0, 4), {}), ("geomspace", (-1.0, -16.0, 5), {}),
    ("geomspace", (2, 32, 5), {"endpoint": False}),
    ("geomspace", (np.array([1.0, 2.0], np.float32), np.array([8.0, 16.0], np.float32), 4),
     {"axis": 1}),
    ("empty_like", (A,), {}), ("empty_like", (I32,), {"dtype": np.float16}),
    ("moveaxis", (B3, 0, -1), {}), ("moveaxis", (B3, (0, 1), (2, 0)), {}),
    ("select", ([A > 0.5, A < -0.5], [A, 2 * A]), {}),
    ("select", ([A > 0.5, A > 0.0], [I32, 2 * I32]), {"default": -1}),
    ("pad", (A, 2), {}), ("pad", (A, ((1, 0), (0, 2))), {"constant_values": 7.0}),
    ("pad", (A, ((1, 2), (3, 1))), {"constant_values": ((1, 2), (3, 4))}),
    ("pad", (V, (2, 3)), {"mode": "edge"}), ("pad", (A, ((2, 3), (1, 5))), {"mode": "wrap"}),
    ("pad", (A, ((2, 2), (3, 1))), {"mode": "reflect"}),
    ("pad", (A, ((2, 2), (3, 1))), {"mode": "symmetric"}), ("pad", (I32, 1), {}),
    ("diag", (V,), {}), ("diag", (V, 2), {}), ("diag", (V, -1), {}), ("diag", (A,), {}),
    ("diag", (A, 1), {}), ("diag", (A, -2), {}),
    ("rot90", (A,), {}), ("rot90", (A, 2), {}), ("rot90", (A, 3), {}), ("rot90", (A, -1), {}),
    ("rot90", (B3, 1, (1, 2)), {}), ("rot90", (B3, 1, (2, 0)), {}),
    # differences, products, comparisons
    ("diff", (V,), {}), ("diff", (A, 2, 0), {}), ("diff", (A,), {"prepend": 0.0}),
    ("diff", (A, 1, 1), {"append": A[:, :2]}), ("diff", (BOOL,), {}), ("diff", (I32, 3), {}),
    ("diff", (A, 0), {}), ("diff", (V, 9), {}),
    ("ediff1d", (A,), {}), ("ediff1d", (V,), {"to_begin": 1.0, "to_end": np.array([2.0, 3.0])}),
    ("cross", (A[:, :3], B3[0, :, 1:]), {}), ("cross", (A[:, :2], A[:, 2:]), {}),
    ("cross", (A[:, :2], A[:, 1:]), {}), ("cross", (B3[:, :, :3], B3[:, :, 1:]), {"axisc": 0}),
    ("cross", (A[:3, :3], A[:3, 1:]), {"axis": 0}),
    ("kron", (A[:2, :2], A), {}), ("kron", (V[:3], A), {}), ("kron", (I32, I32[:2, :1]), {}),
    ("array_equal", (A, A), {}), ("array_equal", (A, A + 1), {}),
    ("array_equal", (A, A[:2]), {}), ("array_equal", (NANA, NANA), {}),
    ("array_equal", (NANA, NANA), {"equal_nan": True}),
    ("array_equiv", (A[:1], np.broadcast_to(A[:1], (3, 4))), {}), ("array_equiv", (A, V), {}),
    # statistics
    ("average", (A,), {}), ("average", (A, 1), {}), ("average", (I32, 0), {}),
    ("average", (A, 1), {"weights": np.arange(1.0, 5.0)}),
    ("average", (A,), {"weights": np.abs(A)}),
    ("average", (B3, (0, 2)), {"weights": np.arange(8.0).reshape(2, 4) + 1}),
    ("average", (A, 0), {"weights": np.arange(3.0) + 1, "returned": True}),
    ("average", (A, 1), {"keepdims": True, "returned": True}),
    ("cov", (A,), {}), ("cov", (A,), {"rowvar": False}), ("cov", (A[0], A[1]), {}),
    ("cov", (A,), {"bias": True}), ("cov", (A,), {"ddof": 2}),
    ("cov", (A,), {"fweights": np.array([1, 2, 1, 3])}),
    ("cov", (A,), {"aweights": np.array([0.5, 1.0, 2.0, 1.0], np.float32)}),
    ("cov", (A,), {"fweights": np.array([1, 2, 1, 3]),
                   "aweights": np.array([0.5, 1.0, 2.0, 1.0], np.float32)}),
    ("cov", (V,), {}), ("cov", (I32,), {}),
    ("corrcoef", (A,), {}), ("corrcoef", (A, A[::-1] + 1.0), {}), ("corrcoef", (V,), {}),
    ("corrcoef", (A,), {"rowvar": False}),
    ("histogram", (V,), {}), ("histogram", (A, 4), {"range": (-1.0, 1.0)}),
    ("histogram_bin_edges", (A, 4), {}), ("histogram_bin_edges", (A, 3), {"range": (-1.0, 1.0)}),
    ("histogram", (A, np.array([-2.0, -0.5, 0.0, 0.3, 2.0])), {}),
    ("histogram", (A, 5), {"weights": np.abs(A)}), ("histogram", (A, 3), {"density": True}),
    ("histogram", (np.ones(4, np.float32), 3), {}), ("histogram", (I32, 4), {}),
    ("bincount", (np.array([0, 1, 1, 3, 2, 1, 7]),), {}),
    ("bincount", (np.array([0, 1, 1, 3]),), {"minlength": 6}),
    ("bincount", (np.array([0, 1, 1, 3, 9, -2]),), {"length": 5}),
    ("bincount", (np.array([0, 1, 1, 3]),), {"weights": np.array([0.5, 1.0, 2.0, 4.0],
                                                                  np.float32)}),
    ("bincount", (np.array([True, False, True]),), {}),
    ("digitize", (V, np.array([-1.0, 0.0, 0.5, 1.0], np.float32)), {}),
    ("digitize", (V, np.array([-1.0, 0.0, 0.5, 1.0], np.float32)), {"right": True}),
    ("digitize", (V, np.array([1.0, 0.5, 0.0, -1.0], np.float32)), {}),
    ("digitize", (I32, np.array([-2, 0, 3])), {}),
    ("interp", (np.linspace(-1, 5, 13, dtype=np.float32), np.array([0.0, 1.0, 2.5, 4.0],
                np.float32), np.array([1.0, -1.0, 3.0, 0.0], np.float32)), {}),
    ("interp", (V, np.array([-1.0, 0.0, 1.0], np.float32), np.array([0.0, 2.0, 1.0],
                np.float32)), {"left": -5.0, "right": 5.0}),
    ("interp", (V, np.array([-1.0, 0.0, 1.0], np.float32), np.array([0.0, 2.0, 1.0],
                np.float32)), {"left": "extrapolate", "right": "extrapolate"}),
    ("interp", (V * 4, np.array([0.0, 1.0, 2.0], np.float32), np.array([0.0, 2.0, 1.0],
                np.float32)), {"period": 3.0}),
    ("polyval", (np.array([1.0, -2.0, 0.5], np.float32), V), {}),
    ("polyval", (np.array([3, 0, 1]), I32), {}), ("polyval", (np.array([2.0]), A), {}),
]

# unique cases: (args, kwargs) compared with jnp.unique
UNIQUE = [
    ((DUPS,), {}), ((DUPS,), {"return_index": True, "return_inverse": True,
                             "return_counts": True}),
    ((DUPS.reshape(2, 4),), {"return_inverse": True}), ((FDUPS,), {"return_counts": True}),
    ((FDUPS,), {"equal_nan": False}), ((BOOL,), {"return_counts": True}),
    ((ROWS,), {"axis": 0, "return_index": True, "return_inverse": True,
               "return_counts": True}),
    ((ROWS.T,), {"axis": 1}), ((np.zeros((0,), np.int32),), {"return_counts": True}),
    ((np.float32(2.0),), {}),
]
UNIQUE_SIZED = [
    ((DUPS,), {"size": 6}), ((DUPS,), {"size": 2}),
    ((DUPS,), {"size": 6, "fill_value": -1, "return_index": True, "return_inverse": True,
               "return_counts": True}),
    ((FDUPS,), {"size": 5, "fill_value": 0.0, "return_counts": True}),
    ((ROWS,), {"axis": 0, "size": 5, "fill_value": 9, "return_counts": True}),
    ((np.zeros((0,), np.int32),), {"size": 3, "fill_value": 4}),
]

# jnp and mnp take NumPy arrays the same way; these names need their first
# argument(s) concrete (static shapes) so only the arrays after them are traced.
STATIC_ARGS = {"logspace": 3, "geomspace": 3, "bincount": 1, "select": 2}


def _check(got, want):
    if isinstance(want, (list, tuple)):
        assert isinstance(got, (list, tuple)) and len(got) == len(want), (got, want)
        for g, w in zip(got, want):
            _check(g, w)
        return
    assert isinstance(got, mlax.Array), type(got)
    g, w = np.asarray(got), np.asarray(want)
    assert g.shape == w.shape, (g.shape, w.shape)
    assert g.dtype == w.dtype, (g.dtype, w.dtype)
    if g.dtype.kind in "biu":
        np.testing.assert_array_equal(g, w)
    else:
        tol = {np.dtype(np.float16): 2e-3, np.dtype(jnp.bfloat16): 2e-2,
               np.dtype(np.float64): 1e-12}.get(g.dtype, 3e-6)
        np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=tol,
                                   atol=tol, equal_nan=True)


def _split(case):
    """(f, dynamic) for a case: f(lib, xs, kws) calls lib.<name> with the
    case's arrays replaced by `xs` (positional) and `kws` (keyword), the
    arrays that are traced under jit; `dynamic` is (xs, kws)."""
    name, args, kwargs = case
    nstatic = STATIC_ARGS.get(name, 0)
    idx = [i for i, a in enumerate(args) if i >= nstatic and isinstance(a, np.ndarray)]
    kw_arrays = [k for k, v in kwargs.items() if isinstance(v, np.ndarray)
                 and name not in ("bincount",)]

    def f(lib, xs, kws):
        full = list(args)
        for i, x in zip(idx, xs):
            full[i] = x
        return getattr(lib, name)(*full, **{**kwargs, **kws})

    return f, ([args[i] for i in idx], {k: kwargs[k] for k in kw_arrays})


def _run(fm, args, kwargs, mode, name):
    if mode == "eager":
        return fm(*args, **kwargs)
    f, dyn = _split((name, args, kwargs))
    return mlax.jit(lambda xs, kws: f(mnp, xs, kws))(*dyn)


def _jax_traceable(case):
    """The case as JAX can trace it: jnp.bincount needs its input concrete
    unless `length` is given (and under jax.jit even a closed-over NumPy
    array is traced), so JAX's call gets the length it would find eagerly,
    max(minlength, max(x) + 1) (NumPy's), and computes the same result in
    the jitted program instead of op by op (a compile per primitive)."""
    name, args, kwargs = case
    if name == "bincount" and "length" not in kwargs:
        length = max(kwargs.get("minlength", 0), int(np.max(args[0])) + 1)
        return name, args, {**kwargs, "length": length}
    return case


_WANTS = {}


def _jax_wants(cases):
    """JAX's results for `cases`: all of them in one jitted program (one
    compile, not one per primitive of each call). Computed once per table
    and mode of 64-bit types."""
    key = (id(cases), bool(jax.config.jax_enable_x64))
    if key not in _WANTS:
        fs = [_split(_jax_traceable(c)) for c in cases]
        _WANTS[key] = jax.jit(lambda dyn: [f(jnp, *d) for (f, _), d in zip(fs, dyn)])(
            [d for _, d in fs])
    return _WANTS[key]


def _eager_cases(cases):
    """Which cases also run eagerly: every 3rd (eager_share), and the first
    case of each function not among those, so every function runs eagerly."""
    share = set(eager_share(len(cases), 0))
    names = {cases[i][0] for i in share}
    for i, c in enumerate(cases):
        if c[0] not in names:
            share.add(i)
            names.add(c[0])
    return share


_EAGER = _eager_cases(CASES)
_MATCHES_JAX = [pytest.param(i, mode, id=f"{c[0]}-{i}-{mode}") for i, c in enumerate(CASES)
                for mode in ("eager", "jit") if mode == "jit" or i in _EAGER]


@pytest.mark.parametrize("i,mode", _MATCHES_JAX)
def test_matches_jax(i, mode):
    """Each case under mlax.jit, and eagerly a share covering every function
    (_eager_cases), against JAX's jitted results."""
    name, args, kwargs = CASES[i]
    got = _run(getattr(mnp, name), args, kwargs, mode, name)
    _check(got, _jax_wants(CASES)[i])


_X64_CASES = CASES[:40:3] + [c for c in CASES if c[0] in (
    "median", "cov", "logspace", "geomspace", "histogram", "interp", "average", "polyval")]


def _x64_case(case):
    name, args, kwargs = case
    return name, tuple(a.astype(np.float64) if isinstance(a, np.ndarray)
                       and a.dtype == np.float32 else a for a in args), kwargs


_X64_CASES = [_x64_case(c) for c in _X64_CASES]


@pytest.mark.parametrize("i", range(len(_X64_CASES)), ids=[c[0] for c in _X64_CASES])
def test_matches_jax_with_x64(i, x64):
    name, args, kwargs = _X64_CASES[i]
    want = _jax_wants(_X64_CASES)[i]
    _check(getattr(mnp, name)(*args, **kwargs), want)
    _check(_run(getattr(mnp, name), args, kwargs, "jit", name), want)



NUMPY_TOO = ["nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nancumsum", "median",
             "nanmedian", "kron", "diff", "ediff1d", "rot90", "diag", "cross", "cov",
             "corrcoef", "interp", "polyval", "pad", "digitize"]


@pytest.mark.parametrize("case", [c for c in CASES if c[0] in NUMPY_TOO and not any(
    isinstance(v, str) for v in c[2].values()) and "where" not in c[2]],
    ids=lambda c: c[0])
def test_matches_numpy(case):
    name, args, kwargs = case
    ref = getattr(np, name)(*[a.astype(np.float32) if getattr(a, "dtype", None) in (
        np.float16, jnp.bfloat16) else a for a in args], **kwargs)
    got = getattr(mnp, name)(*args, **kwargs)
    np.testing.assert_allclose(np.asarray(got).astype(np.float64), np.asarray(ref),
                               rtol=2e-3, atol=2e-3, equal_nan=True)


def _unique_count(args, kwargs):
    """How many distinct values (or slices along `axis`) NumPy finds."""
    u = np.unique(args[0], axis=kwargs.get("axis"), equal_nan=kwargs.get("equal_nan", True))
    return u.shape[kwargs.get("axis") or 0]


@functools.lru_cache(maxsize=None)
def _jax_unique_wants():
    """JAX's jnp.unique of every case of UNIQUE, then of UNIQUE_SIZED, in
    one jitted program (eagerly, each primitive of each call is its own
    compile). UNIQUE's get the size jnp.unique needs under jit: the count of
    distinct values (NumPy's), with which it returns what it does unsized."""
    cases = [(a, {**kw, "size": _unique_count(a, kw)}) for a, kw in UNIQUE] + UNIQUE_SIZED
    return jax.jit(lambda xs: [jnp.unique(x, **kw) for x, (_, kw) in zip(xs, cases)])(
        [a[0] for a, _ in cases])


@pytest.mark.parametrize("i", range(len(UNIQUE)), ids=[str(i) for i in range(len(UNIQUE))])
def test_unique_eager(i):
    args, kwargs = UNIQUE[i]
    _check(mnp.unique(*args, **kwargs), _jax_unique_wants()[i])


@pytest.mark.parametrize("i", range(len(UNIQUE_SIZED)),
                         ids=[str(i) for i in range(len(UNIQUE_SIZED))])
@pytest.mark.parametrize("mode", ["eager", "jit"])
def test_unique_with_size(i, mode):
    args, kwargs = UNIQUE_SIZED[i]
    want = _jax_unique_wants()[len(UNIQUE) + i]
    got = mnp.unique(*args, **kwargs) if mode == "eager" else mlax.jit(
        lambda a: mnp.unique(a, **kwargs))(*args)
    _check(got, want)


def test_unique_without_size_under_jit_asks_for_size():
    with pytest.raises(mlax.ConcretizationTypeError, match="size="):
        mlax.jit(lambda a: mnp.unique(a))(DUPS)
    with pytest.raises(jax.errors.ConcretizationTypeError):
        jax.jit(lambda a: jnp.unique(a))(DUPS)


def test_bincount_without_length_under_jit_asks_for_length():
    with pytest.raises(mlax.ConcretizationTypeError, match="length"):
        mlax.jit(lambda a: mnp.bincount(a))(np.array([1, 2]))
    got = mlax.jit(lambda a: mnp.bincount(a, length=4))(np.array([1, 2, 2]))
    _check(got, jax.jit(lambda a: jnp.bincount(a, length=4))(np.array([1, 2, 2])))


def test_histogram_under_jit_with_traced_range_and_bins():
    edges = np.array([-3.0, -1.0, 0.0, 1.0, 3.0], np.float32)
    # JAX's two in one jitted program (eagerly: a compile per primitive)
    want_range, want_edges = jax.jit(lambda a, e: (jnp.histogram(a, 6, range=(-1.5, 1.5)),
                                                   jnp.histogram(a, e)))(A, edges)
    got = mlax.jit(lambda a, lo, hi: mnp.histogram(a, 6, range=(lo, hi)))(
        A, np.float32(-1.5), np.float32(1.5))
    _check(got, want_range)
    got = mlax.jit(lambda a, e: mnp.histogram(a, e))(A, edges)
    _check(got, want_edges)


def test_quantile_with_traced_q():
    q = np.array([0.1, 0.5, 0.95], np.float32)
    _check(mlax.jit(lambda a, q: mnp.quantile(a, q, axis=1))(A, q),
           jnp.quantile(A, q, axis=1))
    _check(mlax.jit(lambda a, q: mnp.nanpercentile(a, q * 100, axis=0))(NANA, q),
           jnp.nanpercentile(NANA, q * 100, axis=0))


GRADS = [
    ("nansum", lambda np_: lambda x: np_.nansum(x * x, axis=1)),
    ("nanmean", lambda np_: lambda x: np_.nanmean(x, axis=0) ** 2),
    ("nanvar", lambda np_: lambda x: np_.nanvar(x, axis=1)),
    ("nanmax", lambda np_: lambda x: np_.nanmax(x, axis=0)),
    ("quantile", lambda np_: lambda x: np_.quantile(x, np.array([0.3, 0.8]), axis=1)),
    ("nanmedian", lambda np_: lambda x: np_.nanmedian(x, axis=1)),
    ("average", lambda np_: lambda x: np_.average(x, axis=1, weights=np.arange(1.0, 5.0))),
    ("cov", lambda np_: lambda x: np_.cov(x)),
    ("corrcoef", lambda np_: lambda x: np_.corrcoef(x)),
    ("pad", lambda np_: lambda x: np_.pad(x, ((1, 2), (2, 1)), mode="reflect") ** 2),
    ("diff", lambda np_: lambda x: np_.diff(x, 2, axis=1) ** 2),
    ("cross", lambda np_: lambda x: np_.cross(x[:, :3], x[:, 1:])),
    ("kron", lambda np_: lambda x: np_.kron(x[:2, :2], x)),
    ("interp", lambda np_: lambda x: np_.interp(np.linspace(-1, 1, 9, dtype=np.float32),
                                                np.array([-1.0, 0.0, 1.0], np.float32), x[0, :3])),
    ("polyval", lambda np_: lambda x: np_.polyval(x[0], x[1])),
    ("logsumexp_like", lambda np_: lambda x: np_.log(np_.nansum(np_.exp(x), axis=0))),
    ("rot90", lambda np_: lambda x: np_.rot90(x) * np.arange(12.0).reshape(4, 3)),
    ("diag", lambda np_: lambda x: np_.diag(x[0], 1) * 2.0),
]


@pytest.mark.parametrize("case", GRADS, ids=[c[0] for c in GRADS])
def test_gradients_match_jax(case):
    fm, fj = case[1](mnp), case[1](jnp)
    x = NANA if case[0].startswith("nan") else A
    w = RNG.standard_normal(jax.eval_shape(fj, x).shape).astype(np.float32)
    gm = mlax.grad(lambda v: mnp.nansum(fm(v) * w))(x)
    gj = jgrad(lambda v: jnp.nansum(fj(v) * w))(x)
    np.testing.assert_allclose(np.asarray(gm), np.asarray(gj), rtol=2e-5, atol=2e-5)


def test_vmap_of_quantile_and_nanmean():
    f = lambda np_: lambda x: np_.quantile(x, 0.3, axis=0) + np_.nanmean(x)  # noqa: E731
    np.testing.assert_allclose(np.asarray(mlax.vmap(f(mnp))(B3)),
                               np.asarray(jax.vmap(f(jnp))(B3)), rtol=1e-6)


@pytest.mark.parametrize("call,jcall,exc,match", [
    (lambda: mnp.nansum(A, axis=2), lambda: jnp.nansum(A, axis=2), ValueError, "out of bounds"),
    (lambda: mnp.nanmax(EMPTY, 0), lambda: jnp.nanmax(EMPTY, 0), ValueError, "zero-size"),
    (lambda: mnp.quantile(A, 0.5, method="bogus"), lambda: jnp.quantile(A, 0.5, method="bogus"),
     ValueError, "method"),
    (lambda: mnp.quantile(A, np.ones((2, 2)) / 2), lambda: jnp.quantile(A, np.ones((2, 2)) / 2),
     ValueError, "rank"),
    (lambda: mnp.median(A, axis=(0, 0)), lambda: jnp.median(A, axis=(0, 0)), ValueError,
     "repeated axis"),
    (lambda: mnp.median(A, axis=3), lambda: jnp.median(A, axis=3), ValueError, "out of bounds"),
    (lambda: mnp.unique(np.zeros((0,), np.int32), size=3),
     lambda: jnp.unique(np.zeros((0,), np.int32), size=3), ValueError, "fill_value"),
    (lambda: mnp.unique(A, axis=2), lambda: jnp.unique(A, axis=2), ValueError, "out of bounds"),
    (lambda: mnp.diff(S0), lambda: jnp.diff(S0), ValueError, "one dimensional"),
    (lambda: mnp.diff(V, -1), lambda: jnp.diff(V, -1), ValueError, "non-negative"),
    (lambda: mnp.cross(A, A), lambda: jnp.cross(A, A), ValueError, "2 or 3"),
    (lambda: mnp.select([A > 0], [A, A]), lambda: jnp.select([A > 0], [A, A]), ValueError,
     "length"),
    (lambda: mnp.bincount(A), lambda: jnp.bincount(A), TypeError, "integer"),
    (lambda: mnp.bincount(I32), lambda: jnp.bincount(I32), ValueError, "1-dimensional"),
    (lambda: mnp.interp(V, V[:3], V[:2]), lambda: jnp.interp(V, V[:3], V[:2]), ValueError,
     "equal size"),
    (lambda: mnp.interp(V, V[:3], V[:3], left="x"), lambda: jnp.interp(V, V[:3], V[:3], left="x"),
     ValueError, "extrapolate"),
    (lambda: mnp.average(A, weights=V[:4]), lambda: jnp.average(A, weights=V[:4]), ValueError,
     "ax"),
    (lambda: mnp.average(A, 0, weights=V[:4]), lambda: jnp.average(A, 0, weights=V[:4]),
     ValueError, "weights"),
    (lambda: mnp.cov(B3), lambda: jnp.cov(B3), ValueError, "2 dimensions"),
    (lambda: mnp.rot90(V), lambda: jnp.rot90(V), ValueError, "2"),
    (lambda: mnp.rot90(A, axes=(1, 1)), lambda: jnp.rot90(A, axes=(1, 1)), ValueError, "axes"),
    (lambda: mnp.diag(B3), lambda: jnp.diag(B3), ValueError, "1d or 2d"),
    (lambda: mnp.pad(A, -1), lambda: jnp.pad(A, -1), ValueError, "negative"),
    (lambda: mnp.pad(A, ((1, 2, 3),)), lambda: jnp.pad(A, ((1, 2, 3),)), ValueError, "pad_width"),
    (lambda: mnp.moveaxis(B3, (0, 1), 0), lambda: jnp.moveaxis(B3, (0, 1), 0), ValueError,
     "same number"),
    (lambda: mnp.logspace(0, 1, -2), lambda: jnp.logspace(0, 1, -2), ValueError, "negative"),
])
def test_errors_match_jax_type_and_name_the_function(call, jcall, exc, match):
    with pytest.raises(Exception) as je:
        jcall()
    base = next(t for t in (TypeError, IndexError, ValueError) if isinstance(je.value, t))
    with pytest.raises(exc, match=match) as e:
        call()
    assert isinstance(e.value, base), (type(e.value), type(je.value))
    assert "mnp." in str(e.value)


def test_linalg_norm_svd_orders():
    # Once NotImplementedError; now from the singular values (see test_linalg.py).
    for ord_ in (2, -2, "nuc"):
        want = np.asarray(jnp.linalg.norm(A, ord=ord_))
        np.testing.assert_allclose(np.asarray(mnp.linalg.norm(A, ord=ord_)), want, rtol=1e-5)
        got = mlax.jit(lambda a: mnp.linalg.norm(a, ord=ord_, axis=(0, 1)))(A)
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5)


def test_every_new_function_exists_and_is_exported():
    for name in ("nansum nanprod nanmean nanvar nanstd nanmax nanmin nanargmax nanargmin "
                 "median nanmedian quantile nanquantile percentile nanpercentile logspace "
                 "geomspace unique empty_like select moveaxis pad diff ediff1d cross kron "
                 "array_equal array_equiv average cov corrcoef histogram histogram_bin_edges "
                 "bincount digitize interp polyval diag rot90 nancumsum nancumprod").split():
        assert callable(getattr(mnp, name)), name
        # mlax's own implementation (not NumPy's function re-exported), in the
        # module named for its topic.
        module = {"unique": "setops", "polyval": "polynomial"}.get(name, "statistics")
        assert getattr(mnp, name).__module__ == f"mlax._src.numpy.{module}", name


def test_quantile_of_an_empty_array_is_nan_as_numpy():
    for f in (mnp.quantile, mnp.nanquantile):
        got = f(np.zeros((0,), np.float32), np.array([0.5, 0.9], np.float32))
        assert np.asarray(got).shape == (2,) and np.isnan(np.asarray(got)).all()
    got = mnp.median(np.zeros((2, 0), np.float32), axis=1)
    assert np.asarray(got).shape == (2,) and np.isnan(np.asarray(got)).all()

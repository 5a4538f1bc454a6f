"""mlax.scipy.stats against the installed JAX: every function of every
distribution (values, dtypes, weak types) on broadcast float32 arrays,
Python scalars and float64, under one jit per distribution (programs
shared); a sample eagerly; gradients against jax.grad; vmap; mode,
rankdata and sem; the errors JAX raises.
"""
from __future__ import annotations

import jax
import jax.scipy.stats as jst
import numpy as np
import pytest

import mlax
import mlax.scipy.stats as mst

from _helpers import jgrad, jvmap, x64 as _x64

_RANGES = {"any": (-3.0, 3.0), "pos": (0.5, 3.0), "unit": (0.05, 0.95), "above1": (1.2, 4.0),
           "angle": (0.1, 6.2), "small": (-0.8, 1.5)}


def _input(kind, shape, dtype, seed):
    rng = np.random.default_rng(seed)
    if kind == "count":  # a non-negative integer as a float
        return rng.integers(0, 6, shape).astype(dtype)
    if kind == "bit":
        return rng.integers(0, 2, shape).astype(dtype)
    if kind == "trials":
        return rng.integers(5, 9, shape).astype(dtype)
    lo, hi = _RANGES[kind]
    return rng.uniform(lo, hi, shape).astype(dtype)


_LOC_SCALE = ("any", "pos")
_CONTINUOUS = ("logpdf", "pdf", "cdf", "logcdf", "sf", "logsf")
# dist: {function: argument kinds}. Every public function of every
# elementwise distribution of jax.scipy.stats (test_api_surface checks the list).
DISTS = {
    "norm": {**{f: ("any",) + _LOC_SCALE for f in _CONTINUOUS},
             "ppf": ("unit",) + _LOC_SCALE, "isf": ("unit",) + _LOC_SCALE},
    "beta": {f: ("unit", "pos", "pos", "small", "pos") for f in _CONTINUOUS},
    "gamma": {f: ("pos", "pos", "small", "pos") for f in _CONTINUOUS},
    "t": {f: ("any", "pos") + _LOC_SCALE for f in ("logpdf", "pdf")},
    "cauchy": {**{f: ("any",) + _LOC_SCALE for f in _CONTINUOUS},
               "ppf": ("unit",) + _LOC_SCALE, "isf": ("unit",) + _LOC_SCALE},
    "laplace": {f: ("any",) + _LOC_SCALE for f in ("logpdf", "pdf", "cdf")},
    "logistic": {**{f: ("any",) + _LOC_SCALE for f in ("logpdf", "pdf", "cdf", "sf")},
                 "ppf": ("unit",) + _LOC_SCALE, "isf": ("unit",) + _LOC_SCALE},
    "poisson": {"logpmf": ("count", "pos", "bit"), "pmf": ("count", "pos", "bit"),
                "cdf": ("count", "pos", "bit")},
    "bernoulli": {"logpmf": ("bit", "unit", "bit"), "pmf": ("bit", "unit", "bit"),
                  "cdf": ("count", "unit"), "ppf": ("unit", "unit")},
    "binom": {f: ("count", "trials", "unit", "bit") for f in ("logpmf", "pmf")},
    "expon": {**{f: ("pos",) + _LOC_SCALE for f in _CONTINUOUS},
              "ppf": ("unit",) + _LOC_SCALE},
    "uniform": {**{f: ("any",) + _LOC_SCALE for f in ("logpdf", "pdf", "cdf")},
                "ppf": ("unit",) + _LOC_SCALE},
    "chi2": {f: ("pos", "pos", "small", "pos") for f in _CONTINUOUS},
    "geom": {f: ("trials", "unit", "bit") for f in ("logpmf", "pmf")},
    "pareto": {**{f: ("above1", "pos", "small", "pos") for f in _CONTINUOUS},
               "ppf": ("unit", "pos", "small", "pos")},
    "truncnorm": {f: ("any", "small", "above1", "small", "pos") for f in _CONTINUOUS},
    "vonmises": {f: ("any", "pos") for f in ("logpdf", "pdf")},
    "gennorm": {f: ("any", "pos") for f in ("logpdf", "pdf", "cdf")},
    "nbinom": {f: ("count", "pos", "unit", "bit") for f in ("logpmf", "pmf")},
    "betabinom": {f: ("count", "trials", "pos", "pos", "bit") for f in ("logpmf", "pmf")},
    "gumbel_l": {**{f: ("any",) + _LOC_SCALE for f in _CONTINUOUS},
                 "ppf": ("unit",) + _LOC_SCALE},
    "gumbel_r": {**{f: ("any",) + _LOC_SCALE for f in _CONTINUOUS},
                 "ppf": ("unit",) + _LOC_SCALE},
    "wrapcauchy": {f: ("angle", "unit") for f in ("logpdf", "pdf")},
}


def _args(kinds, shapes, dtype=np.float32, seed=0):
    return [_input(k, s, dtype, seed + i) for i, (k, s) in enumerate(zip(kinds, shapes))]


def _check(out, expected, what, rtol=2e-5, atol=2e-6):
    assert isinstance(out, mlax.Array), what
    assert (out.shape, out.dtype, out.weak_type) == (
        expected.shape, expected.dtype, expected.weak_type), (
        what, out.aval, expected.shape, expected.dtype, expected.weak_type)
    np.testing.assert_allclose(np.asarray(out), np.asarray(expected), rtol=rtol, atol=atol,
                               equal_nan=True, err_msg=what)




def _all_functions(module, table, arg_sets):
    """One function computing every function of a distribution, so one
    compiled program covers them all."""
    def run(*flat):
        out, i = {}, 0
        for (fn, kinds), args in zip(table.items(), arg_sets):
            out[fn] = getattr(module, fn)(*flat[i:i + len(args)])
            i += len(args)
        return out
    return run


def _compare_all(dist, arg_sets, jit_args, rtol=2e-5, atol=2e-6):
    table = DISTS[dist]
    flat = [a for args in arg_sets for a in jit_args(args)]
    got = mlax.jit(_all_functions(getattr(mst, dist), table, arg_sets))(*flat)
    # JAX's reference likewise under one jit: a fraction of the compile time
    # of its functions run one by one, with the same dtypes and weak types.
    want = jax.jit(_all_functions(getattr(jst, dist), table, arg_sets))(*flat)
    for fn in table:
        _check(got[fn], want[fn], f"{dist}.{fn}", rtol, atol)


@pytest.mark.parametrize("dist", sorted(DISTS))
def test_distribution_float32_broadcast(dist):
    """The first argument (2, 3), the others (3,): all broadcast."""
    arg_sets = [_args(kinds, [(2, 3)] + [(3,)] * (len(kinds) - 1), seed=10 * j)
                for j, kinds in enumerate(DISTS[dist].values())]
    _compare_all(dist, arg_sets, lambda args: args)


@pytest.mark.parametrize("dist", ["norm", "gamma", "cauchy", "logistic", "poisson", "bernoulli",
                                  "binom", "expon", "uniform", "pareto", "gumbel_l", "gumbel_r",
                                  "laplace", "t"])
def test_distribution_python_scalars(dist):
    """Python scalars (traced as weak values): the weak types JAX gives."""
    arg_sets = [[float(a) for a in _args(kinds, [()] * len(kinds), seed=5 + j)]
                for j, kinds in enumerate(DISTS[dist].values())]
    _compare_all(dist, arg_sets, lambda args: args)


@pytest.mark.parametrize("dist", ["norm", "gamma", "beta", "poisson", "gumbel_r"])
def test_distribution_float64(dist):
    with _x64():
        arg_sets = [_args(kinds, [(4,)] * len(kinds), np.float64, seed=3 + j)
                    for j, kinds in enumerate(DISTS[dist].values())]
        _compare_all(dist, arg_sets, lambda args: args, rtol=1e-11, atol=1e-13)


@pytest.mark.parametrize("dist,fn", [("norm", "logpdf"), ("gamma", "sf"), ("t", "logpdf"),
                                     ("truncnorm", "logcdf")])
def test_eager(dist, fn):
    kinds = DISTS[dist][fn]
    args = _args(kinds, [(5,)] * len(kinds), seed=7)
    _check(getattr(getattr(mst, dist), fn)(*args), getattr(getattr(jst, dist), fn)(*args),
           f"{dist}.{fn}")


@pytest.mark.parametrize("dist,fn,argnum", [
    ("norm", "logpdf", 2), ("norm", "logcdf", 0), ("gamma", "logpdf", 1), ("gamma", "cdf", 1),
    ("beta", "logpdf", 1), ("t", "logpdf", 1), ("poisson", "logpmf", 1),
    ("truncnorm", "logpdf", 0), ("vonmises", "logpdf", 1), ("chi2", "cdf", 0)])
def test_grad_matches_jax(dist, fn, argnum):
    kinds = DISTS[dist][fn]
    args = _args(kinds, [(3,)] * len(kinds), seed=11)

    def loss(module):
        return lambda *xs: getattr(getattr(module, dist), fn)(*xs).sum()

    _check(mlax.grad(loss(mst), argnums=argnum)(*args),
           jgrad(loss(jst), argnums=argnum)(*args), f"grad {dist}.{fn}", 1e-4, 1e-5)


def _mvn_args(seed=0):
    rng = np.random.default_rng(seed)
    m = rng.normal(size=(3, 3))
    cov = (m @ m.T + 3 * np.eye(3)).astype(np.float32)
    return (rng.normal(size=(4, 3)).astype(np.float32), rng.normal(size=3).astype(np.float32),
            cov)


def test_multivariate_normal():
    x, mean, cov = _mvn_args()
    for args in [(x, mean, cov), (x[0], mean, np.float32(1.5)), (x[:, 0], mean[0], cov[0, 0]),
                 (x, mean, np.broadcast_to(cov, (4, 3, 3)))]:
        for fn in ("logpdf", "pdf"):
            _check(getattr(mst.multivariate_normal, fn)(*args),
                   getattr(jst.multivariate_normal, fn)(*args), f"mvn.{fn}", 1e-5, 1e-6)
    # grad through the Cholesky factor, and vmap over a batch of means
    g = mlax.grad(lambda m, c: mst.multivariate_normal.logpdf(x, m, c).sum(), argnums=(0, 1))
    gj = jgrad(lambda m, c: jst.multivariate_normal.logpdf(x, m, c).sum(), argnums=(0, 1))
    for a, b in zip(g(mean, cov), gj(mean, cov)):
        _check(a, b, "grad mvn.logpdf", 1e-4, 1e-5)
    means = np.stack([mean, mean + 1])
    _check(mlax.vmap(lambda m: mst.multivariate_normal.logpdf(x, m, cov))(means),
           jvmap(lambda m: jst.multivariate_normal.logpdf(x, m, cov))(means), "vmap mvn",
           1e-5, 1e-6)


def test_dirichlet_and_multinomial():
    alpha = np.array([0.8, 1.5, 2.5], np.float32)
    x = np.array([[0.2, 0.5], [0.3, 0.1], [0.5, 0.4]], np.float32)
    for args in [(x, alpha), (x[:2], alpha), (x[:, 0], alpha)]:
        for fn in ("logpdf", "pdf"):
            _check(getattr(mst.dirichlet, fn)(*args), getattr(jst.dirichlet, fn)(*args),
                   f"dirichlet.{fn}")
    _check(mlax.grad(lambda a: mst.dirichlet.logpdf(x, a).sum())(alpha),
           jgrad(lambda a: jst.dirichlet.logpdf(x, a).sum())(alpha), "grad dirichlet",
           1e-4, 1e-5)
    counts, p = np.array([1, 2, 3], np.int32), np.array([0.2, 0.3, 0.5], np.float32)
    for n in (6, 7):
        for fn in ("logpmf", "pmf"):
            _check(getattr(mst.multinomial, fn)(counts, n, p),
                   getattr(jst.multinomial, fn)(counts, n, p), f"multinomial.{fn}")


def test_poisson_entropy():
    mu = np.array([0.0, 0.5, 4.0, 30.0, 400.0], np.float32)
    _check(mst.poisson.entropy(mu), jst.poisson.entropy(mu), "poisson.entropy", 1e-5, 1e-5)


def test_vmap_logpdf():
    x = _input("any", (4, 3), np.float32, 1)
    loc = _input("any", (4,), np.float32, 2)
    _check(mlax.vmap(lambda xi, m: mst.norm.logpdf(xi, m, 2.0))(x, loc),
           jvmap(lambda xi, m: jst.norm.logpdf(xi, m, 2.0))(x, loc), "vmap norm")
    a = _input("pos", (4, 3), np.float32, 3)
    _check(mlax.vmap(mst.gamma.cdf)(a, a), jvmap(jst.gamma.cdf)(a, a), "vmap gamma.cdf")


_MODE_KWARGS = ({}, {"axis": 1}, {"axis": None}, {"axis": 1, "keepdims": True})
_RANK_METHODS = ("average", "min", "max", "dense", "ordinal")
_SEM_KWARGS = ({}, {"axis": 1, "ddof": 0}, {"axis": None}, {"keepdims": True})


def _mode_rankdata_sem(stats):
    def run(x, xn, with_nan):
        out = {}
        for kwargs in _MODE_KWARGS:
            got = stats.mode(x, **kwargs)
            out[f"mode {kwargs}"], out[f"mode count {kwargs}"] = got.mode, got.count
        for method in _RANK_METHODS:
            out[f"rankdata {method}"] = stats.rankdata(x, method)
        out["rankdata axis"] = stats.rankdata(x, "min", axis=1)
        out["rankdata nan"] = stats.rankdata(with_nan)
        for kwargs in _SEM_KWARGS:
            out[f"sem {kwargs}"] = stats.sem(x, **kwargs)
        out["sem omit"] = stats.sem(xn, axis=1, nan_policy="omit")
        return out
    return run


def test_mode_rankdata_sem():
    x = np.array([[1, 2, 2, 3, 5], [3, 3, 1, 1, 0], [4, 4, 4, 0, 0]], np.float32)
    xn = x.copy()
    xn[0, 0] = np.nan
    args = (x, xn, np.array([1.0, np.nan]))
    got = _mode_rankdata_sem(mst)(*args)  # eagerly
    # JAX's references in one program (one compile, not one per call).
    want = jax.jit(_mode_rankdata_sem(jst))(*args)
    assert got.keys() == want.keys()
    for what in want:
        _check(got[what], want[what], what)


def test_errors():
    with pytest.raises(ValueError, match="one-dimensional"):
        mst.dirichlet.logpdf(np.ones((2, 2), np.float32) / 2, np.ones((2, 2), np.float32))
    with pytest.raises(ValueError, match="one entry fewer"):
        mst.dirichlet.logpdf(np.ones(5, np.float32) / 5, np.ones(3, np.float32))
    with pytest.raises(ValueError, match="integer type"):
        mst.multinomial.logpmf(np.array([1.0, 2.0]), 3, np.array([0.5, 0.5]))
    with pytest.raises(ValueError, match="incompatible shapes"):
        mst.multivariate_normal.logpdf(np.ones(3), np.zeros(3), np.eye(2))
    with pytest.raises(NotImplementedError, match="allow_singular"):
        mst.multivariate_normal.logpdf(np.ones(3), np.zeros(3), np.eye(3), allow_singular=True)
    with pytest.raises(ValueError, match="Illegal nan_policy"):
        mst.mode(np.ones(3), nan_policy="bad")
    with pytest.raises(NotImplementedError):
        mst.rankdata(np.ones(3), nan_policy="omit")
    with pytest.raises(ValueError, match="unknown method"):
        mst.rankdata(np.ones(3), method="bad")


@pytest.mark.parametrize("dist,fn,args", [
    ("norm", "logpdf", (1.0,)), ("norm", "cdf", (0.5,)), ("norm", "ppf", (0.25,)),
    ("t", "logpdf", (1.0, 3.0)), ("cauchy", "cdf", (2.0,)), ("laplace", "logpdf", (-1.0,)),
    ("expon", "logpdf", (0.5,)), ("logistic", "sf", (0.3,))])
def test_python_scalar_arguments_and_defaults(dist, fn, args):
    # loc/scale left at their Python-int defaults and x a Python float, as a
    # user first calls them.
    got = getattr(getattr(mst, dist), fn)(*args)
    want = getattr(getattr(jst, dist), fn)(*args)
    _check(got, want, f"{dist}.{fn}{args}")


def test_pdf_of_invalid_parameters_is_nan():
    """pdf = exp(logpdf), logpdf NaN for invalid parameters: NaN, not the
    uninitialized memory XLA's CPU backend returned for an exp it could
    prove was of NaN (JAX's own pdfs return that garbage in this jaxlib)."""
    x = np.array([0.2, 0.5, 0.9], np.float32)
    for got in (mlax.scipy.stats.wrapcauchy.pdf(x, np.float32(1.5)),
                mlax.scipy.stats.truncnorm.pdf(x, 1.5, 1.5),
                mlax.jit(lambda c, x: mlax.numpy.exp(mlax.numpy.where(c < 1, mlax.numpy.log(x),
                                                                      np.nan)))(
                    np.float32(1.5), np.ones(17, np.float32))):
        assert np.isnan(np.asarray(got)).all(), got
    np.testing.assert_allclose(mlax.scipy.stats.wrapcauchy.pdf(x, np.float32(0.5)),
                               jax.scipy.stats.wrapcauchy.pdf(x, np.float32(0.5)), rtol=1e-6)

"""scipy.stats and scipy.special at the extremes: far tails, near-zero and
near-one arguments, huge shape parameters, in float32 and float64. Each
case is one mlax disagreed with SciPy on (silently wrong values, -inf for a
representable log, NaN for a limit); compared with SciPy in float64 (the
truth, its value rounded to the dtype), with JAX's dtype and weak type, and
gradients with SciPy's finite differences and with JAX where JAX is finite."""
from __future__ import annotations

import warnings

import jax
import jax.scipy.special as jsp
import jax.scipy.stats as jst
import numpy as np
import pytest
import scipy.special as osp
import scipy.stats as ost

import mlax
import mlax.nn
import mlax.scipy.special as msp
import mlax.scipy.stats as mst

from _helpers import param_id

# (module path, function, [(x, *shape parameters)]): every case was wrong
# before (the value or its class: -inf, 0, 1, NaN), in float32 unless noted.
_CASES = [
    # chi2 is gamma's log_igammac / log_igamma at a = df / 2, y = x / 2, so
    # its cases stand for gamma's too (gamma's own run in the gradient test)
    ("stats.chi2", "logsf", [(200., 3.), (1000., 0.5), (300., 30.), (3., 30.), (0.5, 3.),
                             (2.5e4, 2e4), (1.9e4, 2e4), (200., 2.), (600., 200.), (2e-10, 2.),
                             (2e3, 600.), (620., 600.), (1., 0.002)]),
    ("stats.chi2", "logcdf", [(1e-30, 3.), (100., 1.), (1e-10, 30.), (300., 1000.), (3., 3.),
                              (1.5e4, 2e4), (2.1e4, 2e4), (6., 200.), (60., 2.), (1., 1.)]),
    ("stats.gumbel_r", "logsf", [(200.,), (300.,), (0.,), (-5.,)]),
    ("stats.gumbel_r", "sf", [(30.,), (10.,)]),
    ("stats.gumbel_r", "ppf", [(0.,), (1.,), (0.5,), (1e-30,)]),
    ("stats.gumbel_l", "logcdf", [(-200.,), (-100.,), (3.,), (0.,)]),
    ("stats.gumbel_l", "ppf", [(0.,), (1.,), (0.5,)]),
    ("stats.expon", "logcdf", [(1e-30,), (1e-10,), (0.5,), (30.,), (-1.,)]),
    ("stats.t", "logpdf", [(0., 1e6), (-3., 1e6), (1e30, 3.), (1., 3.)]),
    ("stats.cauchy", "logpdf", [(1e30,), (-1e30,), (1.,)]),
    ("stats.gennorm", "cdf", [(-30., 1.), (-1e3, 0.5), (3., 2.), (-3., 2.)]),
    ("stats.beta", "sf", [(1e-30, 0.01, 5.), (1e-10, 0.01, 5.), (0.3, 2., 3.), (0.9, 2., 3.)]),
    ("stats.beta", "logsf", [(1e-30, 0.01, 5.), (1e-10, 2., 3.), (0.1, 50., 50.)]),
    ("stats.beta", "logcdf", [(0.9, 50., 50.), (0.999, 2., 3.), (0.3, 2., 3.)]),
    ("special", "hyp1f1", [(-3., 2.5, 0.5), (-30., 2.5, 3.), (-0.5, 10., 20.), (-100., 0.5, 3.),
                           (-300., 2.5, 20.), (150., -2., 3.), (30., 0.5, 3.)]),
    ("special", "poch", [(100., 1.), (100., 2.5), (1e4, 0.5), (40., -1.), (3., 2.5), (-2., 0.5),
                         (-2., 1.), (-2., -1.), (-2.5, 0.5)]),
    ("special", "betaln", [(0.5, 8.), (2., 8.), (5., 10.), (8., 20.)]),
    ("special", "gammaincc", [(1e-10, 0.5), (1e-3, 0.5), (0.05, 1.), (0.099, 1e-30)]),
]
# float64 only: the float32 value underflows (log-space betainc is not here)
_CASES_64 = [("stats.beta", "logcdf", [(0.9, 1e3, 2.), (0.5, 1e3, 2.)])]
# hyp1f1's cases are (x, a, b) above, its arguments (a, b, x)
_ORDER = {"hyp1f1": lambda x, a, b: (a, b, x)}


def _lookup(root, path, name):
    mod = root
    for part in path.split("."):
        mod = getattr(mod, part)
    return getattr(mod, name)


_MLAX = {"stats": mst, "special": msp}
_JAX = {"stats": jst, "special": jsp}
_SCIPY = {"stats": ost, "special": osp}


def _fn(table, path, name):
    head, _, rest = path.partition(".")
    mod = table[head]
    return getattr(getattr(mod, rest), name) if rest else getattr(mod, name)


def _columns(cases, name, dtype):
    cols = [np.array(c, dtype) for c in zip(*cases)]
    return list(_ORDER[name](*cols)) if name in _ORDER else cols


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=param_id)
def test_extreme_values_match_scipy(x64, dtype):
    table = _CASES + (_CASES_64 if dtype == np.float64 else [])
    args = [_columns(cases, name, dtype) for _, name, cases in table]
    got = mlax.jit(lambda args: [_fn(_MLAX, p, n)(*a) for (p, n, _), a in zip(table, args)])(args)
    want = jax.eval_shape(lambda args: [_fn(_JAX, p, n)(*a) for (p, n, _), a in zip(table, args)],
                          args)
    rtol = 1e-9 if dtype == np.float64 else 2e-4
    for (path, name, cases), a, g, w in zip(table, args, got, want):
        assert (g.dtype, g.shape, g.weak_type) == (w.dtype, w.shape, w.weak_type), name
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            truth = _fn(_SCIPY, path, name)(*[v.astype(np.float64) for v in a]).astype(dtype)
        np.testing.assert_allclose(np.asarray(g), truth, rtol=rtol, atol=0,
                                   err_msg=f"{path}.{name} {cases}")


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=param_id)
def test_logs_beyond_scipy_range(x64, dtype):
    # Logs SciPy's log(sf) loses even in float64 (-inf), known in closed
    # form to rounding: log Q(a, y) = -y + (a - 1) log y - lgamma(a) +
    # O(1/y), log sf of the Gumbel = -z - e^-z/2.
    x = np.array([1e30, 1e4], dtype)
    got = mlax.jit(lambda x: (mst.chi2.logsf(x[0], 3.), mst.gumbel_r.logsf(x[1])))(x)
    np.testing.assert_allclose(np.asarray(got), [-5e29, -1e4], rtol=1e-6)


# grad in float64 against SciPy's central differences (and JAX where JAX's
# value is finite): in the tails these were NaN (JAX's too). chi2 is gamma's
# log_igamma / log_igammac at df / 2, so gamma's cases stand for both; the
# shape derivatives where this changed them (log_igammac's d/da; log_igamma's
# shares its code, so x alone there), each function's own program.
_GRADS = [
    ("gamma", "logsf", 2, [(3., 1.5), (1e3, 300.), (700., 1.5), (1.25e4, 1e4)]),
    ("gamma", "logcdf", 1, [(20., 1.5), (1e-20, 1.5), (0.5, 0.5), (8e3, 1e4)]),
    ("gumbel_r", "logsf", 1, [(500.,), (1.,)]), ("gumbel_l", "logcdf", 1, [(-500.,), (-1.,)]),
    ("expon", "logcdf", 1, [(1e-12,), (3.,)]), ("t", "logpdf", 2, [(-3., 30.), (1e100, 3.)]),
    ("cauchy", "logpdf", 1, [(1e100,), (2.,)]),
    ("beta", "logsf", 1, [(0.9, 2., 3.), (0.2, 2., 3.)]),
]


def test_gradients_match_finite_differences(x64):
    def grads(cols):
        return [mlax.vmap(mlax.grad(getattr(getattr(mst, d), f), argnums=tuple(range(n))))(*c)
                for (d, f, n, _), c in zip(_GRADS, cols)]
    cols = [tuple(np.array(c, np.float64) for c in zip(*cases)) for *_, cases in _GRADS]
    jax_gxs = jax.jit(lambda cols: [jax.vmap(jax.grad(getattr(getattr(jst, d), f)))(*c)
                                    for (d, f, _, _), c in zip(_GRADS, cols)])(cols)
    for (d, f, n, cases), g, jax_gx in zip(_GRADS, mlax.jit(grads)(cols), jax_gxs):
        fun = getattr(getattr(ost, d), f)
        jax_gx = np.asarray(jax_gx)
        for k, case in enumerate(cases):
            for i in range(n):
                h = 1e-6 * abs(case[i])
                plus, minus = list(case), list(case)
                plus[i] += h
                minus[i] -= h
                fd = (fun(*plus) - fun(*minus)) / (2 * h)
                got = float(g[i][k])
                np.testing.assert_allclose(got, fd, rtol=1e-5, atol=0, err_msg=f"{d}.{f}{case}")
                if i == 0 and np.isfinite(jax_gx[k]):
                    np.testing.assert_allclose(got, jax_gx[k], rtol=1e-4, atol=1e-300)


def test_log1mexp_gradient_below_eps():
    # JAX's custom_jvp 1 / expm1(x); differentiating the where gave NaN
    x = np.array([1e-10, 0.5, 30.], np.float32)
    got = mlax.jit(mlax.vmap(mlax.grad(mlax.nn.log1mexp)))(x)
    want = jax.vmap(jax.grad(jax.nn.log1mexp))(x)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-6)

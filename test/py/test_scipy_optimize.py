"""mlax.scipy.optimize.minimize (BFGS) against the installed JAX: every
field of OptimizeResults (x, success, status, fun, jac, hess_inv, nfev,
njev, nit) on a smooth convex problem with extra args, converged
(gtol) and stopped by maxiter, eagerly and under mlax.jit; vmap over the
starting point; the errors JAX raises.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import jax.scipy.optimize as jso
import numpy as np
import pytest

import mlax
import mlax.numpy as mnp
import mlax.scipy.optimize as mso

from _helpers import MODES, jvmap, run

A = np.array([[3., 1, 0], [1, 2, .5], [0, .5, 1]], np.float32)
B = np.array([1., -2, 0.5], np.float32)
X0 = np.zeros(3, np.float32)


def _objective(np_):
    return lambda x, a, b: 0.5 * x @ a @ x - b @ x + 0.1 * np_.sum(np_.cosh(x - 1.0))


def _check(got, want, rtol=1e-4, atol=1e-4):
    assert type(got).__name__ == "OptimizeResults" and got._fields == want._fields
    for name, g, w in zip(got._fields, got, want):
        g, w = np.asarray(g), np.asarray(w)
        assert g.shape == w.shape and g.dtype == w.dtype, (name, g.shape, w.shape, g.dtype, w.dtype)
        np.testing.assert_allclose(g, w, rtol=rtol, atol=atol, err_msg=name)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("options", [dict(gtol=1e-3), dict(maxiter=2)], ids=["gtol", "maxiter"])
def test_bfgs(options, mode):
    def solve(mod, np_):
        return lambda x, a, b: mod.minimize(_objective(np_), x, (a, b), method="BFGS",
                                            options=options)
    got = run(solve(mso, mnp), (X0, A, B), mode)
    _check(got, jax.jit(solve(jso, jnp))(X0, A, B))
    if "gtol" in options:
        assert bool(got.success) and int(got.status) == 0


def test_vmap():
    starts = np.stack([X0, X0 + 1, X0 - 0.5])

    def solve(mod, np_):
        return lambda x: mod.minimize(_objective(np_), x, (A, B), method="bfgs",
                                      options=dict(gtol=1e-3))
    _check(mlax.vmap(solve(mso, mnp))(starts), jvmap(solve(jso, jnp))(starts))


@pytest.mark.parametrize("call", [
    lambda m, np_: m.minimize(_objective(np_), X0, [A, B], method="BFGS"),
    lambda m, np_: m.minimize(_objective(np_), X0, (A, B), method="Nelder-Mead")],
    ids=lambda c: "")
def test_errors(call):
    with pytest.raises(Exception) as theirs:
        call(jso, jnp)
    with pytest.raises(theirs.type):
        call(mso, mnp)

"""mlax.scipy.sparse.linalg (cg, bicgstab, gmres) against the installed JAX:
A as a matrix and as a function, pytrees of vectors, x0, tol/atol,
maxiter, a preconditioner M, both gmres solve methods; values, dtypes and
weak types eagerly and under jit, the info JAX returns, gradients
(implicit, through custom_linear_solve) against JAX and finite
differences, vmap, and the errors JAX raises.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import jax.scipy.sparse.linalg as jsl
import numpy as np
import pytest

import mlax
import mlax.numpy as mnp
import mlax.scipy.sparse.linalg as msl

from _helpers import MODES, assert_tree_like, jgrad, jvmap, run

_R = np.random.default_rng(0)
_N = 5
_Q = _R.standard_normal((_N, _N)).astype(np.float32)
SPD = (_Q @ _Q.T + _N * np.eye(_N)).astype(np.float32)        # for cg
GEN = (_Q + 2 * _N * np.eye(_N)).astype(np.float32)            # for bicgstab / gmres
B = _R.standard_normal(_N).astype(np.float32)
X0 = _R.standard_normal(_N).astype(np.float32)
PRECOND = np.diag(1.0 / np.diag(SPD)).astype(np.float32)

SOLVERS = {"cg": (SPD, {}), "bicgstab": (GEN, {}),
           "gmres_batched": (GEN, dict(solve_method="batched")),
           "gmres_incremental": (GEN, dict(solve_method="incremental"))}


def _solver(mod, name):
    return getattr(mod, name.split("_")[0])


def _both(fn):
    """fn(module, numpy) on mlax (eagerly and jitted, by mode) and on JAX (jitted)."""
    def call(mode, *args):
        got = run(lambda *a: fn(msl, mnp, *a), args, mode)
        want = jax.jit(lambda *a: fn(jsl, jnp, *a))(*args)
        return got, want
    return call


# Each solver with A as a matrix and as a function, each in one mode: every
# pair of (solver, operator form, mode) values meets (gmres's loops are slow
# to compile; the full product repeats these pairs).
SOLVE_CASES = [(name, as_function, MODES[(i + as_function) % 2])
               for i, name in enumerate(SOLVERS) for as_function in (False, True)]


@pytest.mark.parametrize("name,as_function,mode", SOLVE_CASES,
                         ids=[f"{'function' if f else 'matrix'}-{n}-{m}"
                              for n, f, m in SOLVE_CASES])
def test_solve(name, as_function, mode):
    a, kw = SOLVERS[name]

    def solve(mod, np_, a, b):
        op = (lambda v: np_.dot(a, v)) if as_function else a
        return _solver(mod, name)(op, b, **kw)
    got, want = _both(solve)(mode, a, B)
    assert_tree_like(got, want, rtol=2e-4, atol=2e-4)
    np.testing.assert_allclose(np.asarray(got[0]), np.linalg.solve(a, B), rtol=1e-3, atol=1e-3)


@pytest.mark.parametrize("name", SOLVERS)
def test_options(name):
    """x0, tol, atol, maxiter and a preconditioner, as JAX's."""
    a, kw = SOLVERS[name]
    options = [dict(x0=X0), dict(tol=1e-2), dict(atol=1e-1, tol=0.0), dict(maxiter=1),
               dict(M=PRECOND), dict(M=lambda v: v / np.diag(a))]
    if name.startswith("gmres"):  # the same options, fewer compiles (gmres's are slow)
        options = [dict(x0=X0, tol=1e-2), dict(atol=1e-1, tol=0.0, M=PRECOND),
                   dict(restart=2, maxiter=1, M=lambda v: v / np.diag(a))]
    # All the option sets in one jitted program on each side.
    got, want = _both(lambda mod, np_, a, b: [_solver(mod, name)(a, b, **kw, **extra)
                                              for extra in options])("jit", a, B)
    for extra, g, w in zip(options, got, want):
        try:
            assert_tree_like(g, w, rtol=2e-4, atol=2e-4)
        except AssertionError as e:
            raise AssertionError(f"options {extra}: {e}") from e


@pytest.mark.parametrize("name", SOLVERS)
def test_pytree(name):
    """b and x as a dict of vectors, A a function on such dicts."""
    a, kw = SOLVERS[name]

    def solve(mod, np_, a, b):
        def op(v):
            x = np_.concatenate([v["u"], v["w"]])
            y = np_.dot(a, x)
            return {"u": y[:2], "w": y[2:]}
        tree_b = {"u": b[:2], "w": b[2:]}
        return _solver(mod, name)(op, tree_b, x0={"u": b[:2] * 0, "w": b[2:] * 0}, **kw)
    got, want = _both(solve)("eager", a, B)
    assert_tree_like(got, want, rtol=2e-4, atol=2e-4)


def test_float64_and_complex():
    from _helpers import x64
    with x64():
        a, b = SPD.astype(np.float64), B.astype(np.float64)
        got = msl.cg(a, b)
        want = jsl.cg(a, b)
        assert_tree_like(got, want, rtol=1e-9, atol=1e-9)
    # Complex systems (gmres needs complex triangular solves mlax lacks).
    bc = (B + 0.5j).astype(np.complex64)
    hermitian = (SPD + 1j * (np.triu(_Q, 1) - np.triu(_Q, 1).T)).astype(np.complex64)
    for solver, a in ((msl.cg, hermitian), (msl.bicgstab, GEN + 1j * np.eye(_N))):
        got = solver(a.astype(np.complex64), bc)
        want = getattr(jsl, solver.__name__)(a.astype(np.complex64), bc)
        assert_tree_like(got, want, rtol=2e-4, atol=2e-4)


def test_weak_scalar_start():
    """A Python-float b (weakly typed) keeps JAX's weak type."""
    got = msl.cg(lambda v: 2.0 * v, 3.0)
    want = jsl.cg(lambda v: 2.0 * v, 3.0)
    assert_tree_like(got, want)


@pytest.mark.parametrize("name", SOLVERS)
def test_grad(name):
    """Implicit derivatives with respect to b and to A (through the matvec's
    closure), against JAX's and finite differences."""
    a, kw = SOLVERS[name]

    def loss(mod, np_):
        def f(a, b):
            x, _ = _solver(mod, name)(lambda v: np_.dot(a, v), b, tol=1e-6, **kw)
            return np_.sum(x * np_.arange(1.0, _N + 1))
        return f
    got = mlax.jit(mlax.grad(loss(msl, mnp), argnums=(0, 1)))(a, B)
    want = jgrad(loss(jsl, jnp), argnums=(0, 1))(a, B)
    assert_tree_like(got, want, rtol=1e-3, atol=1e-4)
    a64, b64 = a.astype(np.float64), B.astype(np.float64)
    weights = np.arange(1.0, _N + 1)
    eps = 1e-3
    fd = np.array([(weights @ np.linalg.solve(a64, b64 + eps * e)
                    - weights @ np.linalg.solve(a64, b64 - eps * e)) / (2 * eps)
                   for e in np.eye(_N)])
    np.testing.assert_allclose(np.asarray(got[1]), fd, rtol=1e-3, atol=1e-3)


def test_vmap():
    bs = np.stack([B, 2 * B, B - 1])
    for name in ("cg", "gmres_batched"):
        a, kw = SOLVERS[name]
        got = mlax.vmap(lambda b: _solver(msl, name)(a, b, **kw)[0])(bs)
        want = jvmap(lambda b: _solver(jsl, name)(a, b, **kw)[0])(bs)
        assert_tree_like(got, want, rtol=2e-4, atol=2e-4)


@pytest.mark.parametrize("call", [
    lambda m: m.cg(np.ones((2, 3), np.float32), np.ones(2, np.float32)),
    lambda m: m.gmres(np.ones((2, 3), np.float32), np.ones(2, np.float32)),
    lambda m: m.cg("not an operator", np.ones(2, np.float32)),
    lambda m: m.cg(np.eye(2, dtype=np.float32), np.ones(2, np.float32),
                   x0=np.ones(3, np.float32)),
    lambda m: m.bicgstab(np.eye(2, dtype=np.float32), [np.ones(1, np.float32)] * 2,
                         x0=(np.ones(1, np.float32),) * 2),
    lambda m: m.gmres(np.eye(2, dtype=np.float32), np.ones(2, np.float32),
                      solve_method="qr")],
    ids=["cg_nonsquare", "gmres_nonsquare", "not_operator", "x0_shape", "x0_tree",
         "solve_method"])
def test_errors(call):
    with pytest.raises(Exception) as theirs:
        call(jsl)
    with pytest.raises(theirs.type):
        call(msl)

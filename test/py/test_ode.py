"""mlax.experimental.ode against the installed JAX's jax.experimental.ode:
odeint's trajectories (pytree states, extra args, rtol/atol, mxstep, hmax,
closures over traced values) eagerly and under jit, its adjoint-method
gradients against JAX's and finite differences, vmap, the algorithm's
pieces one by one, and the errors JAX raises.
"""
from __future__ import annotations

import jax
import jax.experimental.ode as jode
import jax.api_util
import jax.flatten_util
import jax.numpy as jnp
import numpy as np
import pytest

import mlax
import mlax.experimental.ode as mode_
import mlax.flatten_util
import mlax.numpy as mnp

from _helpers import MODES, assert_tree_like, jgrad, jvmap, run

T = np.linspace(0.0, 2.0, 5).astype(np.float32)
Y0 = np.array([1.0, 0.5], np.float32)


def _decay(np_):
    return lambda y, t, k: -k * y + np_.sin(t)


def _oscillator(np_):
    # A pytree state: (position, {"v": velocity}).
    return lambda s, t, w: (s[1]["v"], {"v": -w ** 2 * s[0]})


@pytest.mark.parametrize("mode", MODES)
def test_odeint_args(mode):
    def solve(mod, np_):
        return lambda y0, t, k: mod.odeint(_decay(np_), y0, t, k)
    got = run(solve(mode_, mnp), (Y0, T, np.float32(0.7)), mode)
    want = jax.jit(solve(jode, jnp))(Y0, T, np.float32(0.7))
    assert_tree_like(got, want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("mode", MODES)
def test_odeint_pytree_and_options(mode):
    y0 = (np.float32(1.0), {"v": np.float32(0.0)})
    for kw in (dict(), dict(rtol=1e-3, atol=1e-3), dict(mxstep=3), dict(hmax=0.05)):
        def solve(mod, np_):
            return lambda y0, t, w: mod.odeint(_oscillator(np_), y0, t, w, **kw)
        got = run(solve(mode_, mnp), (y0, T, np.float32(2.0)), mode)
        want = jax.jit(solve(jode, jnp))(y0, T, np.float32(2.0))
        assert_tree_like(got, want, rtol=1e-5, atol=1e-6)
    exact = np.cos(2.0 * T)
    np.testing.assert_allclose(np.asarray(got[0]), exact, rtol=1e-4, atol=1e-4)


def test_odeint_float64_closure():
    """A closure over a traced value (closure_convert), in 64-bit."""
    from _helpers import x64
    with x64():
        t = T.astype(np.float64)

        def solve(mod, np_):
            def f(y0, c):
                return mod.odeint(lambda y, t: -c * y, y0, t)
            return f
        got = mlax.jit(solve(mode_, mnp))(Y0.astype(np.float64), 1.5)
        want = jax.jit(solve(jode, jnp))(Y0.astype(np.float64), 1.5)
        assert_tree_like(got, want, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(np.asarray(got), Y0[None] * np.exp(-1.5 * t)[:, None],
                                   rtol=1e-7)


def test_odeint_grad():
    """Adjoint gradients with respect to y0, t and args, against JAX's and
    central finite differences."""
    def loss(mod, np_):
        def f(y0, t, k):
            return np_.sum(mod.odeint(_decay(np_), y0, t, k) ** 2)
        return f
    args = (Y0, T, np.float32(0.7))
    got = mlax.jit(mlax.grad(loss(mode_, mnp), argnums=(0, 1, 2)))(*args)
    want = jgrad(loss(jode, jnp), argnums=(0, 1, 2))(*args)
    assert_tree_like(got, want, rtol=1e-4, atol=1e-5)
    f = mlax.jit(loss(mode_, mnp))
    eps = 1e-2
    fd_k = (float(f(Y0, T, np.float32(0.7 + eps))) - float(f(Y0, T, np.float32(0.7 - eps)))) / (
        2 * eps)
    np.testing.assert_allclose(float(got[2]), fd_k, rtol=2e-3)
    fd_y = [(float(f(Y0 + eps * e, T, np.float32(0.7))) - float(f(Y0 - eps * e, T,
            np.float32(0.7)))) / (2 * eps) for e in np.eye(2, dtype=np.float32)]
    np.testing.assert_allclose(np.asarray(got[0]), fd_y, rtol=2e-3)


def test_odeint_grad_pytree_state():
    def loss(mod, np_):
        def f(x0, w):
            ys = mod.odeint(_oscillator(np_), (x0, {"v": 0.0 * x0}), T, w)
            return np_.sum(ys[0]) + np_.sum(ys[1]["v"])
        return f
    got = mlax.grad(loss(mode_, mnp), argnums=(0, 1))(np.float32(1.0), np.float32(2.0))
    want = jax.grad(loss(jode, jnp), argnums=(0, 1))(np.float32(1.0), np.float32(2.0))
    assert_tree_like(got, want, rtol=1e-4, atol=1e-5)


def test_odeint_vmap():
    ks = np.array([0.1, 0.7, 2.0], np.float32)
    got = mlax.vmap(lambda k: mode_.odeint(_decay(mnp), Y0, T, k))(ks)
    want = jvmap(lambda k: jode.odeint(_decay(jnp), Y0, T, k))(ks)
    assert_tree_like(got, want, rtol=1e-5, atol=1e-6)


def test_pieces():
    """The algorithm's pieces, called alone, as JAX's."""
    y0, y1 = Y0, Y0 * 0.9
    dt = np.float32(0.1)
    k = np.arange(14, dtype=np.float32).reshape(7, 2) / 10
    err = np.array([1e-9, -2e-9], np.float32)
    for name, args in [("fit_4th_order_polynomial", (y0, y1, (y0 + y1) / 2, -y0, -y1, dt)),
                       ("interp_fit_dopri", (y0, y1, k, dt)),
                       ("mean_error_ratio", (err, 1e-8, 1e-8, y0, y1)),
                       ("optimal_step_size", (dt, np.float32(0.5))),
                       ("optimal_step_size", (dt, np.float32(3.0))),
                       ("optimal_step_size", (dt, np.float32(0.0))),
                       ("abs2", (np.array([1 + 2j, -3j], np.complex64),)),
                       ("abs2", (y0,))]:
        got = run(getattr(mode_, name), args, "jit")
        want = jax.jit(getattr(jode, name))(*args)
        assert_tree_like(got, want, rtol=1e-6, atol=1e-6)

    def step(mod, np_):
        def f(y0, t0, dt):
            fun = lambda y, t: -y * np_.cos(t)  # noqa: E731
            f0 = fun(y0, t0)
            h = mod.initial_step_size(fun, t0, y0, 4, 1e-6, 1e-6, f0)
            return h, mod.runge_kutta_step(fun, y0, f0, t0, dt)
        return f
    got = mlax.jit(step(mode_, mnp))(Y0, np.float32(0.0), dt)
    want = jax.jit(step(jode, jnp))(Y0, np.float32(0.0), dt)
    assert_tree_like(got, want, rtol=1e-6, atol=1e-6)


def test_ravel_first_arg():
    def f(y, scale):
        return {"a": y["a"] * scale, "b": y["b"] + 1}
    y = {"a": np.array([1.0, 2.0], np.float32), "b": np.float32(3.0)}
    flat, unravel = mlax.flatten_util.ravel_pytree(y)
    got = mode_.ravel_first_arg(f, unravel)(flat, np.float32(2.0))
    jflat, junravel = jax.flatten_util.ravel_pytree(y)
    debug = jax.api_util.debug_info("odeint", f, (y, np.float32(2.0)), {})
    want = jode.ravel_first_arg(f, junravel, debug)(jflat, np.float32(2.0))
    assert_tree_like(got, want)


@pytest.mark.parametrize("call", [
    lambda m, np_: m.odeint(_decay(np_), Y0, np.arange(3), 1.0),
    lambda m, np_: m.odeint(_decay(np_), Y0, T, "k")],
    ids=["int_times", "bad_arg"])
def test_errors(call):
    with pytest.raises(Exception) as theirs:
        call(jode, jnp)
    with pytest.raises(theirs.type):
        call(mode_, mnp)


def test_eager_calls_reuse_the_compiled_program():
    """Eagerly the user's function keys the compiled program, so calling
    odeint again with it does not retrace."""
    from mlax._src.experimental import ode
    f = _decay(mnp)
    before = ode._odeint_wrapper.cache_misses
    for k in (0.5, 0.7, 0.9):
        mode_.odeint(f, Y0, T, np.float32(k))
    assert ode._odeint_wrapper.cache_misses - before == 1

"""logaddexp / logaddexp2 (and nn.softplus, which is logaddexp(x, 0)):
values and derivatives of every order against JAX's custom JVP, including
ties (x1 == x2, where the amax/|delta| formula has no second derivative)
and infinities; higher derivatives also against float64 finite differences.
(Complex input: test_complex_more.)
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mlax
import mlax.numpy as mnp

from _helpers import jgrad, jvmap

inf = np.inf



POINTS = [(1.0, 1.0), (-2.5, -2.5), (0.3, -0.2), (-4.0, 3.0), (-inf, 1.0), (1.0, -inf),
          (inf, 1.0), (1.0, inf), (inf, inf), (-inf, -inf), (inf, -inf), (0.0, np.nan)]


def _derivs(api, f, a, b, argnum):
    """f, its first three derivatives in argument `argnum` (reverse mode),
    the Hessian (jacfwd of jacrev), and forward over forward (both outputs)."""
    g1 = api.grad(f, argnums=argnum)
    g2 = api.grad(g1, argnums=argnum)
    g3 = api.grad(g2, argnums=argnum)
    hess = api.hessian(f, argnums=(0, 1))(a, b)

    def inner(x):
        return api.jvp(lambda v: f(v, b) if argnum == 0 else f(a, v), (x,), (1.0,))

    ff = api.jvp(inner, ((a, b)[argnum],), (1.0,))
    vals = [f(a, b), g1(a, b), g2(a, b), g3(a, b)]
    vals += [h for row in hess for h in row]
    vals += [v for pair in ff for v in pair]
    return np.array([float(np.asarray(v)) for v in vals])


@pytest.mark.parametrize("name", ["logaddexp", "logaddexp2"])
@pytest.mark.parametrize("point", POINTS, ids=str)
def test_derivatives_match_jax(name, point, x64):
    a, b = point
    for argnum in (0, 1):
        got = _derivs(mlax, getattr(mnp, name), a, b, argnum)
        ref = _derivs(jax, getattr(jnp, name), a, b, argnum)
        np.testing.assert_allclose(got, ref, rtol=1e-12, atol=1e-15, equal_nan=True,
                                   err_msg=f"{name}{point} argnum={argnum}")


def test_second_derivative_at_tie_is_quarter(x64):
    # The reported case: JAX 0.25, the amax/|delta| formula 0.
    d2 = mlax.grad(mlax.grad(lambda x: mnp.logaddexp(x, 1.0)))(1.0)
    assert float(d2) == pytest.approx(0.25, rel=1e-15)
    assert float(jax.grad(jax.grad(lambda x: jnp.logaddexp(x, 1.0)))(1.0)) == \
        pytest.approx(0.25, rel=1e-15)
    # logaddexp2: d2/dx2 log2(2^x + 2^c) at x = c is ln(2) / 4.
    d2 = mlax.grad(mlax.grad(lambda x: mnp.logaddexp2(x, 1.0)))(1.0)
    assert float(d2) == pytest.approx(np.log(2) / 4, rel=1e-14)


def _fd(f, x, order, h=1e-3):
    """Central finite differences of `order` (float64)."""
    if order == 0:
        return f(x)
    return (_fd(f, x + h, order - 1, h) - _fd(f, x - h, order - 1, h)) / (2 * h)


@pytest.mark.parametrize("name", ["logaddexp", "logaddexp2"])
@pytest.mark.parametrize("c", [1.0, -0.7])
def test_higher_derivatives_against_finite_differences(name, c, x64):
    npf = {"logaddexp": np.logaddexp, "logaddexp2": np.logaddexp2}[name]
    mf = getattr(mnp, name)
    g = lambda x: mf(x, c)  # noqa: E731
    for order in (1, 2, 3):
        g = mlax.grad(g)
        for x in (c, c + 0.4, c - 1.3):  # the tie, and either side of it
            ref = _fd(lambda v: npf(v, c), x, order)
            np.testing.assert_allclose(float(g(x)), ref, rtol=1e-4, atol=1e-6,
                                       err_msg=f"{name} order {order} at {x}")


def test_vectorized_jit_and_float32():
    x = np.array([-3.0, 0.5, 0.5, 2.0, -inf, inf], np.float32)
    y = np.array([1.0, 0.5, -1.0, 2.0, 0.0, 0.0], np.float32)
    for name in ("logaddexp", "logaddexp2"):
        mf, jf = getattr(mnp, name), getattr(jnp, name)
        for out, ref in [
                (mf(x, y), jf(x, y)),
                (mlax.jit(mf)(x, y), jf(x, y)),
                (mlax.vmap(mlax.grad(mf))(x, y), jvmap(jgrad(jf))(x, y)),
                (mlax.vmap(mlax.grad(mlax.grad(mf)))(x, y),
                 jvmap(jgrad(jgrad(jf)))(x, y)),
                (mlax.jit(mlax.grad(lambda a, b: mnp.sum(mf(a, b)), argnums=1))(x, y),
                 jgrad(lambda a, b: jnp.sum(jf(a, b)), argnums=1)(x, y))]:
            assert out.dtype == ref.dtype == np.float32
            np.testing.assert_allclose(np.asarray(out), np.asarray(ref), rtol=2e-6,
                                       atol=1e-7, equal_nan=True, err_msg=name)
        # Mixed dtypes and Python scalars promote as JAX.
        for args in [(np.int32(3), 2.0), (x, 1), (np.arange(3), np.float32(0.5))]:
            out, ref = mf(*args), jf(*args)
            assert (out.dtype, out.weak_type) == (ref.dtype, ref.weak_type)
            np.testing.assert_allclose(np.asarray(out), np.asarray(ref), rtol=2e-6)


def test_softplus_derivatives(x64):
    for x in (0.0, 1.5, -2.0, -inf, inf):
        for api, f in ((mlax, mlax.nn.softplus), (jax, jax.nn.softplus)):
            g1 = api.grad(f)
            g2 = api.grad(g1)
            g3 = api.grad(g2)
            vals = [float(np.asarray(g(x))) for g in (f, g1, g2, g3)]
            if api is mlax:
                got = vals
            else:
                np.testing.assert_allclose(got, vals, rtol=1e-12, atol=1e-15,
                                           err_msg=f"softplus at {x}")

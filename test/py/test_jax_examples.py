"""Small programs in the style of JAX's `examples/` folder, run with JAX and
with mlax and compared.

Each case is a few lines written the way those examples use the API (a
Python driver around jitted helpers, eager grad/hessian, scan/fori_loop
models) and exercises something that once differed from JAX in mlax.
"""
from __future__ import annotations

import numpy as np
import pytest

import jax
import jax.numpy as jnp

import mlax
import mlax.numpy as mnp

LIBS = [(jax, jnp), (mlax, mnp)]


def _both(make, *args):
    """make(lib, np_) run with JAX then with mlax: the two results."""
    return [make(L, n)(*args) for L, n in LIBS]


def _close(a, b, **tol):
    la, lb = jax.tree_util.tree_leaves(a), jax.tree_util.tree_leaves(b)
    assert len(la) == len(lb)
    for x, y in zip(la, lb):
        x, y = np.asarray(x), np.asarray(y)
        assert x.shape == y.shape and x.dtype == y.dtype, (x.shape, x.dtype, y.shape, y.dtype)
        np.testing.assert_allclose(y, x, **tol)


# -- a Python driver branching on jitted helpers' outputs under grad ---------

def _bouncing_ball(L, n):
    """A ball thrown at a piecewise-linear wall: the first segment it hits
    (found by Python `if`s on the outputs of jitted helpers) gives the loss,
    differentiated eagerly with respect to the wall."""
    @L.jit
    def segments(wall):
        out = []
        for i in range(wall.shape[0] - 1):
            y0, y1 = 4. - 0.5 * i, 4. - 0.5 * (i + 1)
            x0, x1 = wall[i] + 3., wall[i + 1] + 3.
            k = (y1 - y0) / (x1 - x0)
            out.append((k, y1 - x1 * k))
        return out

    @L.jit
    def hit_time(k, l, vx, vy):
        c, b, a = -l, vy - k * vx, -4.9
        t = (-b - n.sqrt(b * b - 4 * a * c)) / (2 * a)
        return t, vy * t - 4.9 * t * t

    def loss(wall, vx, vy):
        for i, (k, l) in enumerate(segments(wall)):
            t, y = hit_time(k, l, vx, vy)
            if t > 0 and 4. - 0.5 * (i + 1) < y < 4. - 0.5 * i:
                return (vx * t - 2.) ** 2 + (y - 1.) ** 2
        return 0.

    def run(wall):
        wall = n.asarray(wall)
        grads = [L.grad(loss)(wall, vx, vy) for vx, vy in ((3., 6.), (2.5, 7.), (4., 5.))]
        return [float(loss(wall, 3., 6.))] + grads
    return run


def test_grad_of_python_branches_on_jitted_outputs():
    # JAX's eager grad carries a jitted call's primal outputs, so `if t > 0`
    # on them works; mlax raised TracerBoolConversionError for them.
    wall = np.array([0.3, 0.1, 0.4, 0.2, 0.5, 0.0, 0.3, 0.2], np.float32)
    a, b = _both(_bouncing_ball, wall)
    assert any(float(np.abs(g).sum()) > 0 for g in a[1:])  # some throw hits the wall
    _close(a, b, rtol=1e-5, atol=1e-6)


def test_int_of_jitted_output_under_grad():
    def make(L, n):
        f = L.jit(lambda x: n.argmax(x))
        def loss(x):
            return x[int(f(x))] ** 2 + x.sum()
        return L.grad(loss)
    _close(*_both(make, np.array([1., 5., 2.], np.float32)))


def test_jit_with_static_argument_under_grad_keeps_values():
    def make(L, n):
        from functools import partial
        @partial(L.jit, static_argnums=1)
        def scaled_norm(x, p):
            return n.sum(n.abs(x) ** p)
        def loss(x):
            s = scaled_norm(x, 2)
            return n.where(s > 1, s, 0.) if s > 3 else -s
        return L.value_and_grad(loss)
    _close(*_both(make, np.array([1., 2.], np.float32)))
    _close(*_both(make, np.array([.1, .2], np.float32)))


def _closure_loss(L, n):
    def loss(x):
        s = x.sum()
        f = L.jit(lambda y: y * s)  # closes over a value of the grad's trace
        z = f(x)
        if z[0] > 0:
            return (z ** 2).sum()
        return z.sum()
    return loss


def test_jitted_closure_over_grad_values_gives_known_results():
    for x in (np.array([1., 2.], np.float32), np.array([-3., 1.], np.float32)):
        _close(*_both(lambda L, n: L.grad(_closure_loss(L, n)), x))


def test_branch_on_jitted_output_under_jit_of_grad_still_refuses():
    # Under an outer jit the values are abstract in both libraries.
    for L, n in LIBS:
        with pytest.raises(L.errors.TracerBoolConversionError):
            L.jit(L.grad(_closure_loss(L, n)))(n.array([1., 2.]))


# -- Python scalars from arrays, as a driver loop converts them --------------

@pytest.mark.parametrize("convert", [int, float, complex, lambda a: [10, 20, 30][a]],
                         ids=["int", "float", "complex", "index"])
@pytest.mark.parametrize("shape", [(1,), (1, 1), (2,)])
def test_scalar_conversion_of_non_scalar_array(convert, shape):
    # A policy returning `int(action)` for a shape-(1,) action: JAX's
    # TypeError in JAX's words (mlax gave NumPy's message).
    errors = []
    for _, n in LIBS:
        with pytest.raises(TypeError) as e:
            convert(n.ones(shape, dtype=n.int32))
        errors.append(str(e.value))
    assert errors[0] == errors[1]


def test_scalar_conversion_of_scalar_array():
    for x, convert in ((np.int32(2), int), (np.float32(2.5), float), (np.complex64(1j), complex),
                       (np.int8(-1), lambda a: [10, 20, 30][a]), (np.float32(4), lambda a: a.item())):
        a, b = (convert(n.asarray(x)) for _, n in LIBS)
        assert type(a) is type(b) and a == b
    with pytest.raises(TypeError, match="Only integer scalar arrays"):
        [1, 2][mnp.asarray(1.0)]

"""mlax.scipy.interpolate.RegularGridInterpolator against the installed JAX:
linear and nearest, fill_value NaN / None (extrapolation) / a number,
trailing value axes, tuple-of-arrays points, eagerly and under mlax.jit
(the interpolator as a pytree argument); a gradient; the errors JAX raises.
"""
from __future__ import annotations

import jax
import jax.scipy.interpolate as jip
import numpy as np
import pytest

import mlax
import mlax.scipy.interpolate as mip

from _helpers import MODES, assert_arrays_like as _check, jgrad, make_input, run

G = (np.linspace(0, 1, 5).astype(np.float32), np.array([0, .5, 2, 3], np.float32))
V = make_input((5, 4, 2), np.float32)
XI = np.random.default_rng(0).uniform(-0.2, 3.2, (3, 6, 2)).astype(np.float32)




def _calls(mod):
    def f(v, xi):
        out = []
        for method in ("linear", "nearest"):
            for fill in (np.nan, None, 0.0):
                out.append(mod.RegularGridInterpolator(G, v, method, fill_value=fill)(xi))
        it = mod.RegularGridInterpolator(G, v[..., 0])
        return tuple(out) + (it((xi[..., 0], xi[..., 1])), it(xi, method="nearest"))
    return f


@pytest.mark.parametrize("mode", MODES)
def test_regular_grid(mode):
    _check(run(_calls(mip), (V, XI), mode), jax.jit(_calls(jip))(V, XI))


def test_pytree_and_grad():
    it = mip.RegularGridInterpolator(G, V[..., 0], fill_value=None)
    _check((mlax.jit(lambda i, x: i(x))(it, XI),),
           (jip.RegularGridInterpolator(G, V[..., 0], fill_value=None)(XI),))

    def loss(mod):
        return lambda v, x: mod.RegularGridInterpolator(G, v, fill_value=None)(x).sum()
    _check(mlax.grad(loss(mip), argnums=(0, 1))(V[..., 0], XI),
           jgrad(loss(jip), argnums=(0, 1))(V[..., 0], XI))


@pytest.mark.parametrize("call", [
    lambda m: m.RegularGridInterpolator(G, V, "cubic"),
    lambda m: m.RegularGridInterpolator(G, V, bounds_error=True),
    lambda m: m.RegularGridInterpolator(G + G, V),
    lambda m: m.RegularGridInterpolator(G, V)(XI, method="spline"),
    lambda m: m.RegularGridInterpolator(G, V)(XI[..., :1])], ids=lambda c: "")
def test_errors(call):
    with pytest.raises(Exception) as theirs:
        call(jip)
    with pytest.raises(theirs.type):
        call(mip)

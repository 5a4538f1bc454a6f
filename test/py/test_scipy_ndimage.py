"""mlax.scipy.ndimage.map_coordinates against the installed JAX: orders 0
and 1 with every boundary mode (one program each way), integer input,
eagerly and under mlax.jit; a gradient and a vmap; the errors JAX raises.
"""
from __future__ import annotations

import jax
import jax.scipy.ndimage as jnd
import numpy as np
import pytest

import mlax
import mlax.scipy.ndimage as mnd

from _helpers import MODES, assert_arrays_like as _check, jgrad, jvmap, make_input, run

X = make_input((5, 6), np.float32)
C0 = np.random.default_rng(0).uniform(-3, 8, (4, 3)).astype(np.float32)
C1 = np.random.default_rng(1).uniform(-3, 8, (4, 3)).astype(np.float32)
_BOUNDARY = ("constant", "nearest", "wrap", "mirror", "reflect")




def _calls(mod):
    return lambda x, a, b: tuple(mod.map_coordinates(x, [a, b], order, m, cval=1.5)
                                 for order in (0, 1) for m in _BOUNDARY)


@pytest.mark.parametrize("mode", MODES)
def test_map_coordinates(mode):
    _check(run(_calls(mnd), (X, C0, C1), mode), jax.jit(_calls(jnd))(X, C0, C1))


def test_int_grad_vmap():
    xi = np.arange(30, dtype=np.int32).reshape(5, 6)
    _check((mnd.map_coordinates(xi, [C0, C1], 1, "reflect"),),
           (jnd.map_coordinates(xi, [C0, C1], 1, "reflect"),))

    def loss(mod):
        return lambda x, a: mod.map_coordinates(x, [a, C1], 1, "wrap").sum()
    _check((mlax.grad(loss(mnd), argnums=(0, 1))(X, C0)),
           (jgrad(loss(jnd), argnums=(0, 1))(X, C0)))
    _check((mlax.vmap(lambda a: mnd.map_coordinates(X, [a, a], 1))(C0),),
           (jvmap(lambda a: jnd.map_coordinates(X, [a, a], 1))(C0),))


@pytest.mark.parametrize("call", [
    lambda m: m.map_coordinates(X, [C0], 1), lambda m: m.map_coordinates(X, [C0, C1], 3),
    lambda m: m.map_coordinates(X, [C0, C1], 1, "grid-wrap")], ids=lambda c: "")
def test_errors(call):
    with pytest.raises(Exception) as theirs:
        call(jnd)
    with pytest.raises(theirs.type):
        call(mnd)

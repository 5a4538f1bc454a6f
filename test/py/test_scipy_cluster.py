"""mlax.scipy.cluster.vq.vq against the installed JAX: 2-d and 1-d
observations, integer input, eagerly and under mlax.jit; vmap; the errors
JAX raises.
"""
from __future__ import annotations

import jax
import jax.scipy.cluster.vq as jvq
import numpy as np
import pytest

import mlax
import mlax.scipy.cluster.vq as mvq

from _helpers import MODES, jvmap, make_input, run

OBS = make_input((7, 3), np.float32)
CB = make_input((4, 3), np.float32, seed=1)


def _check(got, want):
    for g, w in zip(got, want):
        assert isinstance(g, mlax.Array)
        assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, w.shape, g.dtype, w.dtype)
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("mode", MODES)
def test_vq(mode):
    def f(mod):
        return lambda o, c: mod.vq(o, c) + mod.vq(o[:, 0], c[:, 0])
    _check(run(f(mvq), (OBS, CB), mode), jax.jit(f(jvq))(OBS, CB))


def test_int_and_vmap():
    ints = np.arange(12, dtype=np.int32).reshape(4, 3)
    _check(mvq.vq(ints, ints[::2]), jvq.vq(ints, ints[::2]))
    _check(mlax.vmap(mvq.vq, in_axes=(0, None))(np.stack([OBS, -OBS]), CB),
           jvmap(jvq.vq, in_axes=(0, None))(np.stack([OBS, -OBS]), CB))


@pytest.mark.parametrize("call", [lambda m: m.vq(OBS, CB[0]),
                                  lambda m: m.vq(OBS[None], CB[None])], ids=lambda c: "")
def test_errors(call):
    with pytest.raises(Exception) as theirs:
        call(jvq)
    with pytest.raises(theirs.type):
        call(mvq)

"""mlax.image against the installed JAX: resize with every method (up- and
downscaling, antialias on and off, integer input), scale_and_translate with
array scale/translation, eagerly and under mlax.jit; a gradient in scale and
a vmap; ResizeMethod; the errors JAX raises.
"""
from __future__ import annotations

import jax
import jax.image as jim
import numpy as np
import pytest

import mlax
import mlax.image as mim

from _helpers import MODES, jgrad, jvmap, make_input, run

X = make_input((2, 9, 7, 3), np.float32)
S = np.array([1.7, 0.63], np.float32)
T = np.array([0.5, -1.1], np.float32)


def _check(got, want, rtol=2e-5, atol=2e-5):
    for g, w in zip(got, want):
        assert isinstance(g, mlax.Array)
        assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, w.shape, g.dtype, w.dtype)
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=rtol, atol=atol)


# Every method under jit, two eagerly (each case is a compile: CI time).
@pytest.mark.parametrize("method,mode", [
    (m, "jit") for m in ("nearest", "linear", "cubic", "lanczos3", "lanczos5", "area",
                         "cubic-pytorch")] + [("nearest", "eager"), ("linear", "eager")])
def test_resize(method, mode):
    def calls(mod):
        return lambda x: (mod.resize(x, (2, 5, 12, 3), method),
                          mod.resize(x, (2, 18, 4, 3), method, antialias=False))
    _check(run(calls(mim), (X,), mode), jax.jit(calls(jim))(X))


@pytest.mark.parametrize("mode", MODES)
def test_scale_and_translate(mode):
    def calls(mod):
        return lambda x, s, t: (
            mod.scale_and_translate(x, (2, 11, 5, 3), (1, 2), s, t, "linear"),
            mod.scale_and_translate(x, (2, 11, 5, 3), (1, 2), s, t, mod.ResizeMethod.LANCZOS3,
                                    antialias=False))
    _check(run(calls(mim), (X, S, T), mode), jax.jit(calls(jim))(X, S, T))


def test_dtypes_grad_vmap():
    ints = np.arange(12, dtype=np.int32).reshape(3, 4)
    _check((mim.resize(ints, (5, 6), "linear"), mim.resize(ints, (5, 6), "nearest"),
            mim.resize(X.astype(np.float16), (2, 4, 4, 3), "cubic")),
           (jim.resize(ints, (5, 6), "linear"), jim.resize(ints, (5, 6), "nearest"),
            jim.resize(X.astype(np.float16), (2, 4, 4, 3), "cubic")), rtol=2e-3, atol=2e-3)

    def loss(mod):
        return lambda s: (mod.scale_and_translate(X[0], (11, 5, 3), (0, 1), s, T, "cubic")
                          ** 2).sum()
    _check((mlax.grad(loss(mim))(S),), (jgrad(loss(jim))(S),), rtol=1e-4, atol=1e-3)
    _check((mlax.vmap(lambda x: mim.resize(x, (4, 4, 3), "linear"))(X),),
           (jvmap(lambda x: jim.resize(x, (4, 4, 3), "linear"))(X),))
    assert mim.ResizeMethod.from_string("bilinear") is mim.ResizeMethod.LINEAR
    assert [m.name for m in mim.ResizeMethod] == [m.name for m in jim.ResizeMethod]


@pytest.mark.parametrize("call", [
    lambda m: m.resize(X, (4, 4), "linear"),
    lambda m: m.resize(X, (2, 4, 4, 3), "bogus"),
    lambda m: m.scale_and_translate(X, (2, 4, 4, 3), (1, 2), S, T, "nearest"),
    lambda m: m.scale_and_translate(X, (4, 4), (0, 1), S, T, "linear")], ids=lambda c: "")
def test_errors(call):
    with pytest.raises(Exception) as theirs:
        call(jim)
    with pytest.raises(theirs.type):
        call(mim)

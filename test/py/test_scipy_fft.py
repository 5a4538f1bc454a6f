"""mlax.scipy.fft against the installed JAX: dct / idct / dctn / idctn
(type 2; norm None and 'ortho'; odd and even lengths; n and s padding and
truncation; complex and integer inputs), eagerly and under mlax.jit; a
gradient and a vmap; the errors JAX raises.
"""
from __future__ import annotations

import jax
import jax.scipy.fft as jsf
import numpy as np
import pytest

import mlax
import mlax.scipy.fft as msf

from _helpers import MODES, jgrad, jvmap, make_input, run


def _check(got, want, rtol=2e-5, atol=2e-5):
    for g, w in zip(got, want):
        assert isinstance(g, mlax.Array)
        assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, w.shape, g.dtype, w.dtype)
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=rtol, atol=atol)


X = make_input((3, 7, 4), np.float32)
E = make_input((4, 8), np.float32, seed=1)


def _calls(mod, norm):
    return lambda x, e: (mod.dct(x, axis=1, norm=norm), mod.idct(e, norm=norm),
                         mod.dct(e, n=5, axis=0, norm=norm), mod.idct(x, n=9, axis=1, norm=norm),
                         mod.dctn(x, norm=norm), mod.idctn(x, s=(4, 6), norm=norm),
                         mod.dctn(e, axes=[0], norm=norm), mod.idctn(x, axes=(0, 2), norm=norm))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("norm", [None, "ortho"])
def test_dct_family(norm, mode):
    _check(run(_calls(msf, norm), (X, E), mode), jax.jit(_calls(jsf, norm))(X, E))


def test_dtypes_and_roundtrip():
    c = (E + 1j * E[::-1]).astype(np.complex64)
    ints = np.arange(6, dtype=np.int32)
    x64 = E.astype(np.float64)
    _check((msf.dct(c), msf.idctn(c, norm="ortho"), msf.dct(ints), msf.dctn(x64)),
           (jsf.dct(c), jsf.idctn(c, norm="ortho"), jsf.dct(ints), jsf.dctn(x64)))
    np.testing.assert_allclose(np.asarray(msf.idctn(msf.dctn(E))), E, rtol=1e-5, atol=1e-5)


def test_grad_and_vmap():
    def loss(mod):
        return lambda a: (mod.dct(a, norm="ortho") * np.arange(8.0)).sum() + mod.idctn(a).sum()
    _check((mlax.grad(loss(msf))(E),), (jgrad(loss(jsf))(E),))
    _check((mlax.vmap(msf.idct)(E),), (jvmap(jsf.idct)(E),))


@pytest.mark.parametrize("call", [
    lambda m: m.dct(E, type=1), lambda m: m.idctn(E, type=3), lambda m: m.dct(E, norm="forward"),
    lambda m: m.dctn(E, s=(2, 2, 2)), lambda m: m.idct(E, axis=2)], ids=lambda c: "")
def test_errors(call):
    with pytest.raises(Exception) as theirs:
        call(jsf)
    with pytest.raises(theirs.type):
        call(msf)

"""mlax.scipy.linalg's special matrices and polar against the installed JAX:
the array-built ones (circulant, companion, fiedler, fiedler_companion,
leslie, convolution_matrix) batched, on float and int inputs, eagerly and
under mlax.jit; the size-only ones (hilbert, invhilbert, pascal, invpascal,
helmert, hadamard, dft) with their options; polar on both sides; a
gradient; the errors JAX raises.
"""
from __future__ import annotations

import jax
import jax.scipy.linalg as jsl
import numpy as np
import pytest

import mlax
import mlax.scipy.linalg as msl

from _helpers import MODES, assert_arrays_like as _check, jgrad, make_input, run

A = make_input((2, 5), np.float32)
S = make_input((2, 4), np.float32, seed=1)
M = make_input((2, 4, 3), np.float32, seed=2)




def _from_arrays(mod):
    return lambda a, s: (
        mod.circulant(a), mod.companion(a), mod.fiedler(a), mod.fiedler_companion(a),
        mod.fiedler_companion(a[:, :2]), mod.leslie(a, s), mod.leslie(a[0], s),
        mod.convolution_matrix(a, 3), mod.convolution_matrix(a, 7, "same"),
        mod.convolution_matrix(a[0], 4, "valid"))


@pytest.mark.parametrize("mode", MODES)
def test_array_matrices(mode):
    _check(run(_from_arrays(msl), (A, S), mode), jax.jit(_from_arrays(jsl))(A, S))


def test_int_inputs_and_sized_matrices():
    i = np.arange(4, dtype=np.int32)
    calls = [lambda m: m.fiedler(i), lambda m: m.circulant(i),
             lambda m: m.leslie(i, i[:3]), lambda m: m.companion(i + 1)]
    for n in (1, 5):
        calls += [lambda m, n=n: m.hilbert(n), lambda m, n=n: m.helmert(n),
                  lambda m, n=n: m.helmert(n, full=True), lambda m, n=n: m.dft(n),
                  lambda m, n=n: m.dft(n, "sqrtn"), lambda m, n=n: m.dft(n, "n")]
        calls += [lambda m, n=n, k=k: m.pascal(n, k) for k in (None, "lower", "upper")]
        calls += [lambda m, n=n, k=k: m.invpascal(n, k) for k in (None, "lower", "upper")]
    calls += [lambda m: m.invhilbert(5), lambda m: m.hadamard(8),
              lambda m: m.hadamard(4, np.float32)]
    _check([c(msl) for c in calls], [c(jsl) for c in calls], rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("mode", MODES)
def test_toeplitz_hankel(mode):
    """toeplitz and hankel, batched; with a complex first column alone the
    first row is its conjugate (Hermitian for a real c[0]), as JAX's."""
    c = (A + 1j * S[:, :1]).astype(np.complex64)

    def f(mod):
        return lambda c, a, s: (mod.toeplitz(c), mod.toeplitz(c[0]), mod.toeplitz(a, s),
                                mod.toeplitz(a), mod.hankel(c), mod.hankel(a, s))
    _check(run(f(msl), (c, A, S), mode), jax.jit(f(jsl))(c, A, S))
    c0 = c[0].copy()
    c0[0] = c0[0].real  # (a real diagonal: then the matrix is Hermitian)
    t = np.asarray(msl.toeplitz(c0))
    np.testing.assert_array_equal(t, np.conj(t.T))


@pytest.mark.parametrize("mode", MODES)
def test_polar(mode):
    def f(mod):
        return lambda m: (mod.polar(m) + mod.polar(m, "left", method="svd")
                          + mod.polar(m[0].T, "left"))
    _check(run(f(msl), (M,), mode), jax.jit(f(jsl))(M), rtol=1e-4, atol=1e-4)


def test_grad():
    def loss(mod):
        return lambda a: (mod.circulant(a[:4]) @ mod.companion(a)).sum() + mod.leslie(a, a[1:]).sum()
    _check((mlax.grad(loss(msl))(A[0] + 3),), (jgrad(loss(jsl))(A[0] + 3),), rtol=1e-4)


@pytest.mark.parametrize("call", [
    lambda m: m.companion(A[:, :1]), lambda m: m.leslie(A, A), lambda m: m.leslie(A[:, :1], S),
    lambda m: m.fiedler_companion(A[:, :0]), lambda m: m.convolution_matrix(A, 0),
    lambda m: m.convolution_matrix(A, 3, "middle"), lambda m: m.pascal(3, "diag"),
    lambda m: m.invpascal(3, "diag"), lambda m: m.helmert(0), lambda m: m.hadamard(6),
    lambda m: m.dft(4, "half"), lambda m: m.dft(4, dtype=np.float32), lambda m: m.polar(A[0]),
    lambda m: m.polar(M, "top"), lambda m: m.polar(M, "left")], ids=lambda c: "")
def test_errors(call):
    with pytest.raises(Exception) as theirs:
        call(jsl)
    with pytest.raises(theirs.type):
        call(msl)

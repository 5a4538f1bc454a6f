"""mlax.scipy.signal against the installed JAX: convolution and correlation
(N-d, 2-d, FFT; every mode; both methods; swapped operands), detrend
(linear with breakpoints, constant), stft / istft / welch / csd with their
main options; values, dtypes and shapes, eagerly and under mlax.jit; a
gradient and a vmap; the errors JAX raises.
"""
from __future__ import annotations

import functools

import jax
import jax.scipy.signal as jss
import numpy as np
import pytest

import mlax
import mlax.scipy.signal as mss

from _helpers import MODES, assert_arrays_like, jgrad, jvmap, make_input, run


_check = functools.partial(assert_arrays_like, rtol=2e-4, atol=2e-4)


X = make_input((2, 24), np.float32)
K = make_input((2, 5), np.float32, seed=1)
Y = make_input((2, 24), np.float32, seed=2)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("conv", ["full", "same", "valid"])
def test_convolve_correlate(conv, mode):
    def f(a, b):
        return (mss.convolve(a, b, conv), mss.correlate(a, b, conv, method="fft"),
                mss.fftconvolve(b, a, conv), mss.convolve2d(a, b, conv),
                mss.correlate2d(a, b, conv), mss.correlate2d(b, a, conv))

    def g(a, b):
        return (jss.convolve(a, b, conv), jss.correlate(a, b, conv, method="fft"),
                jss.fftconvolve(b, a, conv), jss.convolve2d(a, b, conv),
                jss.correlate2d(a, b, conv), jss.correlate2d(b, a, conv))
    _check(run(f, (X, K), mode), jax.jit(g)(X, K))


def test_convolve_dtypes_and_axes():
    ints = np.arange(6, dtype=np.int32), np.array([1, 2, 1], np.int32)
    _check(mss.convolve(*ints), jss.convolve(*ints))
    c = (X + 1j * Y).astype(np.complex64)
    _check(mss.correlate(c, K, "same"), jss.correlate(c, K, "same"))
    _check(mss.fftconvolve(c, K, "valid"), jss.fftconvolve(c, K, "valid"))
    x64, k64 = X.astype(np.float64), K.astype(np.float64)
    _check(mss.convolve(x64, k64), jss.convolve(x64, k64))
    _check(mss.fftconvolve(X, K[:, :3], axes=1, mode="same"),
           jss.fftconvolve(X, K[:, :3], axes=1, mode="same"))


@pytest.mark.parametrize("mode", MODES)
def test_detrend(mode):
    def f(a):
        return (mss.detrend(a), mss.detrend(a, axis=0, type="constant"),
                mss.detrend(a, bp=[7, 15]))

    def g(a):
        return (jss.detrend(a), jss.detrend(a, axis=0, type="constant"),
                jss.detrend(a, bp=[7, 15]))
    _check(run(f, (X,), mode), jax.jit(g)(X))


# Under jit every option; eagerly (op by op: one compile per op, the slow
# part of this file) one stft and one csd.
def test_spectral_eager():
    _check(mss.stft(X, nperseg=8) + mss.csd(X, Y, nperseg=8),
           jax.jit(lambda a, b: jss.stft(a, nperseg=8) + jss.csd(a, b, nperseg=8))(X, Y))


def test_spectral():
    def calls(m):
        return lambda a, b: (
            m.stft(a, nperseg=8) + m.stft(a, nperseg=8, noverlap=2, boundary="odd",
                                          detrend="linear", return_onesided=False)
            + m.welch(a, nperseg=8) + m.welch(a.T, nperseg=6, axis=0, average="median",
                                              window="hamming", scaling="spectrum")
            + m.csd(a, b, nperseg=8) + m.csd(a, b, nperseg=8, average="median"))
    _check(mlax.jit(calls(mss))(X, Y), jax.jit(calls(jss))(X, Y))


@pytest.mark.parametrize("mode", MODES)
def test_istft(mode):
    z = np.asarray(jss.stft(X, nperseg=8)[2])
    zt = np.ascontiguousarray(z.transpose(2, 0, 1))

    def f(a, b):
        return mss.istft(a, nperseg=8) + mss.istft(b, time_axis=0, freq_axis=2)

    def g(a, b):
        return jss.istft(a, nperseg=8) + jss.istft(b, time_axis=0, freq_axis=2)
    _check(run(f, (z, zt), mode), jax.jit(g)(z, zt))


def test_grad_and_vmap():
    def loss(mod):
        return lambda a: (mod.convolve(a, K[0], "same") ** 2).sum() + mod.welch(a, nperseg=8)[1].sum()
    _check(mlax.grad(loss(mss))(X[0]), jgrad(loss(jss))(X[0]))
    _check(mlax.vmap(lambda a: mss.fftconvolve(a, K[0]))(X),
           jvmap(lambda a: jss.fftconvolve(a, K[0]))(X))


@pytest.mark.parametrize("call", [
    lambda m: m.convolve(X, K, "bad"),
    lambda m: m.convolve(X, K[0]),
    lambda m: m.convolve(X, K, method="nope"),
    lambda m: m.convolve(np.ones((3, 2)), np.ones((2, 3))),
    lambda m: m.convolve2d(X[0], K[0]),
    lambda m: m.convolve2d(X, K, boundary="wrap"),
    lambda m: m.fftconvolve(X, K, "bad"),
    lambda m: m.detrend(X, type="quadratic"),
    lambda m: m.detrend(X, bp=[100]),
    lambda m: m.stft(X, nperseg=8, noverlap=8),
    lambda m: m.stft(X, nperseg=8, boundary="wrap"),
    lambda m: m.welch(X, nperseg=8, scaling="power"),
    lambda m: m.welch(X, nperseg=8, average="mode"),
    lambda m: m.istft(X[0]),
], ids=lambda c: "")
def test_errors(call):
    with pytest.raises(Exception) as theirs:
        call(jss)
    with pytest.raises(theirs.type):
        call(mss)

"""mlax.numpy's window functions: bartlett, hanning, hamming, blackman.
"""
from __future__ import annotations

import numpy as np

from mlax._src.base import dtypes
from mlax._src.numpy import manipulation as mnc
from mlax._src.numpy import lax_numpy as mnp
from mlax._src.numpy import array_creation
from mlax._src.numpy import ufuncs
from mlax._src.numpy import util


def _window(name, M, fn):
    M = mnc._static_int(name, "M", M)
    dt = dtypes.default_float()
    if M <= 0:
        return mnp.zeros((0,), dt)
    if M == 1:
        return mnp.ones((1,), dt)
    n = array_creation.arange(M).astype(dt)
    return fn(n, M)


def bartlett(M):
    return _window("bartlett", M, lambda n, M: 1 - ufuncs.abs(2 * n / (M - 1) - 1))


def hanning(M):
    return _window("hanning", M, lambda n, M: 0.5 - 0.5 * ufuncs.cos(2 * np.pi * n / (M - 1)))


def hamming(M):
    return _window("hamming", M, lambda n, M: 0.54 - 0.46 * ufuncs.cos(2 * np.pi * n / (M - 1)))


def blackman(M):
    return _window("blackman", M, lambda n, M: (0.42 - 0.5 * ufuncs.cos(2 * np.pi * n / (M - 1))
                                                + 0.08 * ufuncs.cos(4 * np.pi * n / (M - 1))))


def kaiser(M, beta):
    """The Kaiser window of M points and shape parameter beta:
    i0(beta * sqrt(1 - ((n - alpha) / alpha)**2)) / i0(beta), alpha = (M - 1) / 2."""
    def window(n, M):
        alpha = 0.5 * (M - 1)
        return ufuncs.divide(
            ufuncs.i0(beta * ufuncs.sqrt(1 - ((n - alpha) / alpha) ** 2)), ufuncs.i0(beta))
    return _window("kaiser", M, window)


kaiser = util._eager_jit(kaiser, ("M",))  # one jit dispatch eagerly (i0 is many ops)

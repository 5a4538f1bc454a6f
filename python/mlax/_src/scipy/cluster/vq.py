"""jax.scipy.cluster.vq.vq: each observation's nearest code-book entry
(Euclidean) and its distance, by one broadcast distance matrix."""
from __future__ import annotations

from mlax._src.numpy import linalg as np_linalg
from mlax._src.numpy.lax_numpy import asarray
from mlax._src.numpy.manipulation import argmin, take_along_axis
from mlax._src.numpy.util import _promote_inexact


def vq(obs, code_book, check_finite=True):
    del check_finite
    obs, cb = (asarray(a) for a in _promote_inexact("vq", asarray(obs), asarray(code_book)))
    if obs.ndim != cb.ndim:
        raise ValueError("Observation and code_book should have the same rank")
    if obs.ndim == 1:
        obs, cb = obs[:, None], cb[:, None]
    if obs.ndim != 2:
        raise ValueError("ndim different than 1 or 2 are not supported")
    dist = np_linalg.norm(obs[:, None, :] - cb[None, :, :], axis=-1)
    code = argmin(dist, axis=-1)
    return code, take_along_axis(dist, code[:, None], axis=-1)[:, 0]

"""Cases from JAX's own linalg/scipy/fft test grids (tests/linalg_test.py,
lax_scipy_test.py, lax_scipy_special_functions_test.py, scipy_stats_test.py,
fft_test.py, scipy_signal_test.py) on which mlax disagreed with JAX: each
compared with JAX (values, dtypes, weak types, exception classes)."""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mlax
import mlax.numpy as mnp

from _helpers import param_id


def _rand(shape, dtype, seed=0):
    rng = np.random.RandomState(seed)
    dtype = np.dtype(dtype)
    x = rng.randn(*shape) * 3
    if dtype.kind == "c":
        x = x + 1j * rng.randn(*shape) * 3
    return x.astype(dtype)


def _assert_same(got, want, rtol=1e-6, atol=1e-6):
    got_l, want_l = jax.tree_util.tree_leaves(got), jax.tree_util.tree_leaves(want)
    assert len(got_l) == len(want_l)
    for g, w in zip(got_l, want_l):
        assert g.shape == w.shape
        assert g.dtype == w.dtype
        assert g.aval.weak_type == w.aval.weak_type
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=rtol, atol=atol)


# linalg_test.py testQr's modes: numpy's 'raw' (LAPACK geqrf's compact form,
# h transposed) and the deprecated 'full' alias of 'reduced' were refused.
@pytest.mark.parametrize("shape", [(4, 3), (2, 3, 5)], ids=param_id)
@pytest.mark.parametrize("dtype", [np.float32, np.complex64], ids=param_id)
@pytest.mark.parametrize("mode", ["raw", "full"])
def test_qr_raw_and_full_modes(shape, dtype, mode):
    x = _rand(shape, dtype)
    got = mlax.jit(lambda a: mnp.linalg.qr(a, mode=mode))(x)
    want = jax.jit(lambda a: jnp.linalg.qr(a, mode=mode))(x)
    _assert_same(got, want, rtol=1e-5, atol=1e-5)

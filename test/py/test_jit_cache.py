"""The jit executable cache is bounded (`mlax_jit_cache_size`, per jitted
function; the least recently compiled signatures are dropped) and cleared by
`mlax.clear_caches()`."""
from __future__ import annotations

import numpy as np
import pytest

import mlax
import mlax.numpy as mnp


@pytest.fixture
def cache_size():
    old = mlax.config.mlax_jit_cache_size

    def set_(n):
        mlax.config.update("mlax_jit_cache_size", n)

    yield set_
    mlax.config.update("mlax_jit_cache_size", old)


def test_default_is_bounded():
    assert mlax.config.mlax_jit_cache_size == 4096


def test_cache_is_bounded(cache_size):
    cache_size(2)
    f = mlax.jit(lambda x: x * 2 + 1)
    for n in (1, 2, 3, 4, 1, 2):
        x = np.arange(n, dtype=np.float32)
        np.testing.assert_array_equal(np.asarray(f(x)), x * 2 + 1)
        assert len(f._cache) <= 2
    assert f.cache_misses >= 4


def test_unbounded(cache_size):
    cache_size(None)
    f = mlax.jit(lambda x: x + 1)
    for n in range(1, 6):
        f(np.zeros(n, np.float32))
    assert len(f._cache) == 5


def test_clear_caches():
    f = mlax.jit(lambda x: mnp.sin(x))
    x = np.ones(3, np.float32)
    f(x)
    assert f._cache
    mlax.clear_caches()
    assert not f._cache
    np.testing.assert_allclose(np.asarray(f(x)), np.sin(x), rtol=1e-6)


@pytest.mark.parametrize("bad", [-1, 1.5, "8", True])
def test_bad_cache_size(bad):
    with pytest.raises(ValueError, match="mlax_jit_cache_size"):
        mlax.config.update("mlax_jit_cache_size", bad)

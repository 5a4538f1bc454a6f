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


# ---------------------------------------------------------------------------
# The eager op cache: one jitted program per (op, parameters) run outside jit,
# bounded by `mlax_eager_cache_size` (least recently used dropped) and
# emptied by `mlax.clear_caches()`.
# ---------------------------------------------------------------------------

@pytest.fixture
def eager_cache_size():
    old = mlax.config.mlax_eager_cache_size

    def set_(n):
        mlax.config.update("mlax_eager_cache_size", n)

    yield set_
    mlax.config.update("mlax_eager_cache_size", old)


_SHAPES = [(12,), (3, 4), (4, 3), (2, 6), (6, 2), (2, 2, 3), (3, 2, 2), (12, 1)]


def _eager_reshapes(shapes):
    """Eager reshapes of one array to `shapes`: one cached program each,
    checked against jax.numpy."""
    import jax.numpy as jnp

    x = mnp.arange(12.0)
    for s in shapes:
        got = mnp.reshape(x, s)
        want = jnp.reshape(jnp.arange(12.0), s)
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


def test_eager_default_is_bounded():
    assert mlax.config.mlax_eager_cache_size == 4096


def test_eager_cache_is_bounded(eager_cache_size):
    import gc
    import weakref

    from mlax._src.core import primitives

    eager_cache_size(3)
    mlax.clear_caches()
    # Distinct programs by identity while alive (not by id(): a freed
    # program's id can be reused by the next one).
    seen = []
    for s in _SHAPES:
        _eager_reshapes([s])
        assert len(primitives._eager_function) <= 3
        for fun in primitives._eager_function._funs.values():
            if not any(r() is fun for r in seen):
                seen.append(weakref.ref(fun))
    assert len(seen) >= len(_SHAPES)  # one program per shape, and the arange
    gc.collect()
    # The dropped programs (and their executables) are freed, not kept alive.
    assert sum(r() is not None for r in seen) == 3


def test_eager_indexing_reuses_one_program():
    """Eager x[int] and x[unit-step slice] of one size compile once, as in
    JAX (the starts are arguments of one dynamic_slice program); the values
    are NumPy's."""
    from mlax._src.backend import runtime

    xn = np.arange(20.0, dtype=np.float32).reshape(4, 5)
    x = mnp.asarray(xn)
    for index in [(1,), (2,), (-1,), (slice(0, 2),), (slice(2, 4),), (slice(None), 3),
                  (slice(None), 0), (None, 2, slice(1, 4)), (None, 0, slice(2, 5))]:
        np.testing.assert_array_equal(np.asarray(x[index]), xn[index])
    before = runtime.compile_cache_size()
    for index in [(0,), (3,), (slice(1, 3),), (slice(None), 1), (None, 3, slice(0, 3))]:
        np.testing.assert_array_equal(np.asarray(x[index]), xn[index])
    assert runtime.compile_cache_size() == before


def test_eager_cache_lru_order(eager_cache_size):
    from mlax._src.core import primitives

    eager_cache_size(2)
    mlax.clear_caches()
    x = mnp.ones((2, 3))  # created before counting
    mnp.reshape(x, (3, 2))
    mnp.reshape(x, (6,))
    first = list(primitives._eager_function._funs.values())
    mnp.reshape(x, (3, 2))  # used again: now the most recent
    mnp.reshape(x, (1, 6))  # evicts (6,), not (3, 2)
    now = list(primitives._eager_function._funs.values())
    assert now[0] is first[0] and first[1] not in now
    np.testing.assert_array_equal(np.asarray(mnp.reshape(x, (6,))), np.ones(6))


def test_eager_unbounded(eager_cache_size):
    from mlax._src.core import primitives

    eager_cache_size(None)
    mlax.clear_caches()
    _eager_reshapes(_SHAPES)
    assert len(primitives._eager_function) >= len(_SHAPES)


def test_clear_caches_clears_eager_ops():
    from mlax._src.core import primitives

    _eager_reshapes(_SHAPES[:3])
    assert len(primitives._eager_function) > 0
    mlax.clear_caches()
    assert len(primitives._eager_function) == 0
    # Eager ops still work (and are cached again) after clearing.
    _eager_reshapes(_SHAPES)
    np.testing.assert_allclose(np.asarray(mnp.sin(mnp.ones(3))), np.sin(np.ones(3)), rtol=1e-6)
    assert len(primitives._eager_function) > 0


@pytest.mark.parametrize("bad", [-1, 1.5, "8", True])
def test_bad_eager_cache_size(bad):
    with pytest.raises(ValueError, match="mlax_eager_cache_size"):
        mlax.config.update("mlax_eager_cache_size", bad)


# ---------------------------------------------------------------------------
# Executables are shared by StableHLO text and device: distinct jitted
# functions (and eager ops) whose programs print the same compile once,
# bounded by `mlax_compile_cache_size` (least recently used dropped).
# ---------------------------------------------------------------------------

@pytest.fixture
def compile_cache_size():
    old = mlax.config.mlax_compile_cache_size

    def set_(n):
        mlax.config.update("mlax_compile_cache_size", n)

    yield set_
    mlax.config.update("mlax_compile_cache_size", old)


@pytest.fixture
def xla_compiles(monkeypatch):
    """Counts the programs handed to XLA."""
    from mlax._src.backend import runtime

    count = [0]
    real = runtime.backend

    class Counting:
        def __init__(self, b):
            self._b = b

        def __getattr__(self, name):
            return getattr(self._b, name)

        def compile_and_load(self, *args, **kwargs):
            count[0] += 1
            return self._b.compile_and_load(*args, **kwargs)

    monkeypatch.setattr(runtime, "backend", lambda *a: Counting(real(*a)))
    # Counted here are XLA compiles: none may come from a persistent cache
    # the test run shares (scripts/run.sh test sets one).
    monkeypatch.setattr(mlax.config, "jax_compilation_cache_dir", None)
    return count


def test_identical_programs_share_one_executable(xla_compiles):
    mlax.clear_caches()
    x = np.arange(6, dtype=np.float32)
    f = mlax.jit(lambda v: mnp.sin(v) * 3.0)
    g = mlax.jit(lambda w: mnp.sin(w) * 3.0)  # another function, the same program
    np.testing.assert_allclose(np.asarray(f(x)), np.sin(x) * 3, rtol=1e-6)
    assert xla_compiles[0] == 1
    np.testing.assert_allclose(np.asarray(g(x)), np.sin(x) * 3, rtol=1e-6)
    assert xla_compiles[0] == 1 and f.cache_misses == g.cache_misses == 1
    h = mlax.jit(lambda w: mnp.sin(w) * 4.0)  # a different program compiles
    np.testing.assert_allclose(np.asarray(h(x)), np.sin(x) * 4, rtol=1e-6)
    assert xla_compiles[0] == 2
    g(x.astype(np.int32))  # a new signature of g is a new program
    assert xla_compiles[0] == 3


def test_compile_cache_is_bounded_lru(compile_cache_size, xla_compiles):
    from mlax._src.backend import runtime

    compile_cache_size(2)
    mlax.clear_caches()
    x = np.ones(3, np.float32)
    fs = [mlax.jit(lambda v, k=k: v + float(k)) for k in range(3)]
    for k, f in enumerate(fs):
        np.testing.assert_array_equal(np.asarray(f(x)), x + k)
        assert runtime.compile_cache_size() <= 2
    assert xla_compiles[0] == 3
    # The program of fs[0] was dropped, fs[2]'s is kept: a fresh function
    # with fs[2]'s program reuses it, one with fs[0]'s compiles again.
    mlax.jit(lambda v: v + 2.0)(x)
    assert xla_compiles[0] == 3
    mlax.jit(lambda v: v + 0.0)(x)
    assert xla_compiles[0] == 4


def test_clear_caches_empties_compile_cache(xla_compiles):
    from mlax._src.backend import runtime

    x = np.ones(2, np.float32)
    mlax.jit(lambda v: v * 7.0)(x)
    assert runtime.compile_cache_size() >= 1
    mlax.clear_caches()
    assert runtime.compile_cache_size() == 0
    before = xla_compiles[0]
    np.testing.assert_array_equal(np.asarray(mlax.jit(lambda v: v * 7.0)(x)), x * 7)
    assert xla_compiles[0] == before + 1


@pytest.mark.parametrize("bad", [-1, 1.5, True, "8"])
def test_compile_cache_size_rejects_bad_values(bad):
    with pytest.raises(ValueError, match="mlax_compile_cache_size"):
        mlax.config.update("mlax_compile_cache_size", bad)


# ---------------------------------------------------------------------------
# The persistent compilation cache (JAX's `jax_compilation_cache_dir`):
# executables on disk, shared between processes.
# ---------------------------------------------------------------------------

@pytest.fixture
def persistent_cache(tmp_path, monkeypatch):
    from mlax._src.backend import runtime

    # monkeypatch restores both options after the test; update() checks them.
    monkeypatch.setattr(mlax.config, "jax_compilation_cache_dir", None)
    monkeypatch.setattr(mlax.config, "jax_persistent_cache_min_compile_time_secs",
                        mlax.config.jax_persistent_cache_min_compile_time_secs)
    mlax.config.update("jax_compilation_cache_dir", tmp_path)
    mlax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
    mlax.clear_caches()
    runtime._persistent_stats.clear()
    yield tmp_path
    mlax.clear_caches()


def test_persistent_cache_round_trip(persistent_cache, xla_compiles):
    from mlax._src.backend import runtime

    mlax.config.update("jax_compilation_cache_dir", persistent_cache)
    x = np.linspace(-1, 1, 5, dtype=np.float32)
    f = mlax.jit(lambda v: mnp.tanh(v) * 5.0 + v)
    np.testing.assert_allclose(np.asarray(f(x)), np.tanh(x) * 5 + x, rtol=1e-6)
    assert xla_compiles[0] == 1
    assert runtime.persistent_cache_stats() == {"hits": 0, "misses": 1, "writes": 1,
                                                "errors": 0}
    assert len(list(persistent_cache.glob("mlax-*.xla"))) == 1
    # A fresh process would find it on disk: so does this one once its
    # in-memory caches are gone, without compiling.
    mlax.clear_caches()
    g = mlax.jit(lambda w: mnp.tanh(w) * 5.0 + w)
    np.testing.assert_allclose(np.asarray(g(x)), np.tanh(x) * 5 + x, rtol=1e-6)
    assert xla_compiles[0] == 1
    assert runtime.persistent_cache_stats()["hits"] == 1


def test_persistent_cache_damaged_entry_compiles_again(persistent_cache, xla_compiles):
    mlax.config.update("jax_compilation_cache_dir", persistent_cache)
    x = np.arange(4, dtype=np.float32)
    mlax.jit(lambda v: v * 9.0)(x)
    (entry,) = persistent_cache.glob("mlax-*.xla")
    entry.write_bytes(b"mlax-xla-1\nnot zlib at all")
    mlax.clear_caches()
    with pytest.warns(RuntimeWarning, match="ignoring the persistent compilation cache entry"):
        out = mlax.jit(lambda v: v * 9.0)(x)
    np.testing.assert_array_equal(np.asarray(out), x * 9)
    assert xla_compiles[0] == 2
    # ... and the entry is replaced by a good one.
    mlax.clear_caches()
    np.testing.assert_array_equal(np.asarray(mlax.jit(lambda v: v * 9.0)(x)), x * 9)
    assert xla_compiles[0] == 2


def test_persistent_cache_threshold_and_off(persistent_cache, xla_compiles):
    mlax.config.update("jax_compilation_cache_dir", persistent_cache)
    mlax.config.update("jax_persistent_cache_min_compile_time_secs", 3600)
    mlax.jit(lambda v: v - 2.0)(np.ones(2, np.float32))
    assert not list(persistent_cache.glob("mlax-*.xla"))  # too quick to keep
    mlax.config.update("jax_compilation_cache_dir", None)
    mlax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
    mlax.jit(lambda v: v - 3.0)(np.ones(2, np.float32))
    assert not list(persistent_cache.glob("mlax-*.xla"))  # off: nothing written


def test_compilation_cache_module(persistent_cache, tmp_path, xla_compiles):
    from jax.experimental.compilation_cache import compilation_cache as jcc

    from mlax._src.backend import runtime
    from mlax.experimental.compilation_cache import compilation_cache as cc

    where = tmp_path / "elsewhere"
    cc.set_cache_dir(str(where))
    assert mlax.config.jax_compilation_cache_dir == str(where)
    mlax.jit(lambda v: v * 7.0 - 1.0)(np.ones(3, np.float32))
    assert len(list(where.glob("mlax-*.xla"))) == 1
    assert runtime.persistent_cache_stats()["writes"] == 1
    cc.reset_cache()  # the counters start again; the entries stay, as in JAX
    assert runtime.persistent_cache_stats() == dict.fromkeys(
        ("hits", "misses", "writes", "errors"), 0)
    assert len(list(where.glob("mlax-*.xla"))) == 1
    # (JAX's names, all there)
    assert {n for n in dir(jcc) if not n.startswith("_")} <= set(dir(cc))
    with pytest.raises(TypeError, match="jax_compilation_cache_dir"):
        cc.set_cache_dir(3)


@pytest.mark.parametrize("name,bad,exc", [
    ("jax_compilation_cache_dir", 3, TypeError),
    ("jax_persistent_cache_min_compile_time_secs", -1, ValueError),
    ("jax_persistent_cache_min_compile_time_secs", "1", ValueError)])
def test_persistent_cache_options_reject_bad_values(name, bad, exc):
    with pytest.raises(exc, match=name):
        mlax.config.update(name, bad)


def test_config_change_retraces_but_keeps_executables(xla_compiles):
    # x64 changes what is traced, so jitted functions trace again; a program
    # that prints the same StableHLO as before is not handed to XLA again.
    mlax.clear_caches()
    f = mlax.jit(lambda v: v * 2.0 + 1.0)
    x = np.arange(3, dtype=np.float32)
    np.testing.assert_array_equal(np.asarray(f(x)), x * 2 + 1)
    assert (f.cache_misses, xla_compiles[0]) == (1, 1)
    old = mlax.config.jax_enable_x64
    mlax.config.update("jax_enable_x64", not old)
    try:
        np.testing.assert_array_equal(np.asarray(f(x)), x * 2 + 1)
        assert f.cache_misses == 2 and xla_compiles[0] == 1
    finally:
        mlax.config.update("jax_enable_x64", old)


@pytest.mark.parametrize("name,switch", [
    ("x64", lambda: mlax.enable_x64()),
    ("precision", lambda: mlax.default_matmul_precision("float32")),
    ("rank", lambda: mlax.numpy_rank_promotion("raise")),
    ("dtype", lambda: mlax.numpy_dtype_promotion("strict")),
])
def test_config_blocks_find_their_programs_again(name, switch, xla_compiles):
    """jit keys its programs by the options they depend on (JAX's trace
    context): a loop that enters and leaves a config block traces once per
    setting, not twice per iteration, and each setting gets its own
    program (x64's results are float64 inside only)."""
    f = mlax.jit(lambda v: mnp.tanh(v @ v.T) * 2.0)
    g = mlax.jit(lambda v: v * 2.0)
    x = np.ones((4, 4), np.float32)
    f(x)
    start = f.cache_misses
    for _ in range(4):
        with switch():
            inside = f(x)
            x64_inside = g(np.float64(1.5)).dtype
        outside = f(x)
    assert f.cache_misses - start == 1
    np.testing.assert_allclose(np.asarray(inside), np.asarray(outside), rtol=1e-6)
    assert outside.dtype == np.float32
    assert g(np.float64(1.5)).dtype == np.float32
    assert x64_inside == (np.float64 if name == "x64" else np.float32)


def test_explain_names_the_config_option(caplog):
    mlax.config.update("mlax_explain_cache_misses", True)
    try:
        h = mlax.jit(lambda a: a + 1)
        h(1.0)
        with mlax.numpy_rank_promotion("warn"):
            with caplog.at_level("WARNING", logger="mlax"):
                h(1.0)
    finally:
        mlax.config.update("mlax_explain_cache_misses", False)
    assert "jax_numpy_rank_promotion: now 'warn' and before 'allow'" in caplog.text

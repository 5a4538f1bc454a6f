"""JAX's counter-based PRNG implementations beyond threefry2x32 and rbg
(philox2x32, philox4x32, threefry4x32), user-defined implementations
(mlax.extend.random.define_prng_impl) and mlax.extend.backend, bit for bit
against jax.random / jax.extend in one process.

Each implementation's checks run as one jitted program on each side (the
samplers take the key as an argument), so one compile covers them.
"""
import numpy as np
import pytest

import jax
import jax.extend.backend as jeb
import jax.extend.random as jer
import jax.numpy as jnp

import mlax
import mlax.extend.backend as meb
import mlax.extend.random as mer
import mlax.numpy as mnp
import mlax.random as mr

IMPLS = ["philox2x32", "philox4x32", "threefry4x32"]
SEEDS = [0, 7, -5, 2 ** 33 + 3]


def _assert_tree_equal(m, j):
    ml, jl = jax.tree_util.tree_leaves(m), jax.tree_util.tree_leaves(j)
    assert len(ml) == len(jl)
    for a, b in zip(ml, jl):
        a, b = np.asarray(a), np.asarray(b)
        assert a.dtype == b.dtype and a.shape == b.shape, (a.dtype, a.shape, b.dtype, b.shape)
        np.testing.assert_array_equal(a, b)


def _program(r, batched_split):
    """Splits (of one key and, vmapped, of a batch), folds in, bits of
    every width, floats and integers."""
    def run(k):
        a, b = r.split(k)
        return dict(split=r.key_data(r.split(k, (2, 3))), fold=r.key_data(r.fold_in(k, 9)),
                    b8=r.bits(a, (5,), "uint8"), b16=r.bits(a, (3,), "uint16"),
                    b32=r.bits(b, (2, 2)), uniform=r.uniform(b, (4,)),
                    normal=r.normal(a, (3,)),
                    randint=r.randint(a, (4,), 0, 10), batched=batched_split(r.split(k, 2)))
    return run


def _vmapped_split(keys):
    return mr.key_data(mlax.vmap(mr.split)(keys))


def _split_each(keys):
    # JAX's reference for a vmapped split, key by key: JAX's own vmapped
    # threefry4x32 split runs for minutes on the CPU (its unrolled cipher).
    return jnp.stack([jax.random.key_data(jax.random.split(k)) for k in keys])


@pytest.mark.parametrize("impl", IMPLS)
def test_keys_and_samples_match_jax(impl):
    for seed in SEEDS:
        _assert_tree_equal(mr.key_data(mr.key(seed, impl=impl)),
                           jax.random.key_data(jax.random.key(seed, impl=impl)))
    mk, jk = mr.key(42, impl=impl), jax.random.key(42, impl=impl)
    assert str(mk.dtype) == str(jk.dtype) and mr.key_impl(mk) == jax.random.key_impl(jk)
    assert str(mr.key_dtype(impl)) == str(jax.random.key_dtype(impl))
    _assert_tree_equal(mlax.jit(_program(mr, _vmapped_split))(mk),
                       jax.jit(_program(jax.random, _split_each))(jk))
    # wrap_key_data round trip, and JAX's error for data of the wrong shape
    data = np.asarray(jax.random.key_data(jk))
    _assert_tree_equal(mr.key_data(mr.wrap_key_data(data, impl=impl)), data)
    with pytest.raises(TypeError, match="expected key_data.shape to end with"):
        mr.wrap_key_data(np.zeros((3,), np.uint32), impl=impl)


def test_wide_seeds_and_64_bit_values_under_x64(x64):
    for impl in IMPLS:
        for seed in (2 ** 40 + 5, -(2 ** 35)):
            _assert_tree_equal(mr.key_data(mr.key(seed, impl=impl)),
                               jax.random.key_data(jax.random.key(seed, impl=impl)))
        mk, jk = mr.key(np.int64(2 ** 36), impl=impl), jax.random.key(np.int64(2 ** 36),
                                                                      impl=impl)
        _assert_tree_equal(mr.bits(mk, (3,), "uint64"), jax.random.bits(jk, (3,), "uint64"))


def test_default_impl_reads_raw_keys():
    with mlax.default_prng_impl("philox4x32"), jax.default_prng_impl("philox4x32"):
        rk, jrk = mr.PRNGKey(9), jax.random.PRNGKey(9)
        _assert_tree_equal(rk, jrk)
        _assert_tree_equal(mr.uniform(rk, (3,)), jax.random.uniform(jrk, (3,)))
        assert mr.key_impl(rk) == jax.random.key_impl(jrk) == "philox4x32"
    assert mlax.config.jax_default_prng_impl == "threefry2x32"


def test_poisson_is_threefry_only_as_jax():
    for lib in (jax.random, mr):
        with pytest.raises(NotImplementedError, match="only implemented for the threefry2x32"):
            lib.poisson(lib.key(0, impl="philox4x32"), 3.0)


def _toy(np_, r):
    """A user-defined implementation (uint32[2] keys, hashed by threefry),
    written once for each library."""
    def seed(s):
        return np_.stack([s.astype(np.uint32), (s ^ 7).astype(np.uint32)])

    def split(k, shape):
        n = int(np.prod(shape))
        return r.threefry_2x32((k[0], k[1]), np_.arange(2 * n, dtype=np.uint32)).reshape(
            shape + (2,))

    def fold_in(k, d):
        return r.threefry_2x32((k[0], k[1]), np_.stack([np_.uint32(0), d.astype(np.uint32)]))

    def random_bits(k, width, shape):
        n = int(np.prod(shape))
        bits = r.threefry_2x32((k[0], k[1]), np_.arange(max(n, 1), dtype=np.uint32))[:n]
        return bits.reshape(shape).astype(f"uint{width}")

    return r.define_prng_impl(key_shape=(2,), seed=seed, split=split, random_bits=random_bits,
                              fold_in=fold_in, name="toy", tag="toy")


def test_define_prng_impl_matches_jax():
    mi, ji = _toy(mnp, mer), _toy(jnp, jer)
    assert repr(mi) == repr(ji) and str(mi) == str(ji)
    mk, jk = mr.key(3, impl=mi), jax.random.key(3, impl=ji)
    assert str(mk.dtype) == str(jk.dtype) == "key<toy>"

    def run(r):
        return lambda k: dict(data=r.key_data(k), split=r.key_data(r.split(k, 3)),
                              fold=r.key_data(r.fold_in(k, 5)), u=r.uniform(k, (4,)),
                              n=r.normal(k, (3,)))
    _assert_tree_equal(mlax.jit(run(mr))(mk), jax.jit(run(jax.random))(jk))
    _assert_tree_equal(mr.key_data(mr.wrap_key_data(np.array([1, 2], np.uint32), impl=mi)),
                       np.array([1, 2], np.uint32))


def test_extend_random_functions_match_jax():
    count = np.arange(5, dtype=np.uint32)
    pair = (np.uint32(1), np.uint32(2))
    _assert_tree_equal(mer.threefry_2x32(pair, count), jer.threefry_2x32(pair, count))
    for lib in (jer, mer):
        with pytest.raises(TypeError, match="threefry_2x32 requires uint32 arguments"):
            lib.threefry_2x32((1, 2), np.arange(3))
    # random_seed over a batch of seeds; seed_with_impl; the impl objects
    for (mi, ji) in ((mer.threefry_prng_impl, jer.threefry_prng_impl),
                     (mer.rbg_prng_impl, jer.rbg_prng_impl),
                     (mer.unsafe_rbg_prng_impl, jer.unsafe_rbg_prng_impl)):
        assert str(mi) == str(ji)
        _assert_tree_equal(mr.key_data(mer.random_seed(mnp.arange(3), mi)),
                           jax.random.key_data(jer.random_seed(jnp.arange(3), ji)))
        _assert_tree_equal(mr.key_data(mer.seed_with_impl(mi, 5)),
                           jax.random.key_data(jer.seed_with_impl(ji, 5)))


def test_extend_backend():
    client = meb.get_backend()
    assert client.platform == jeb.get_backend().platform
    assert meb.get_backend(client) is client and meb.get_backend("cpu").platform == "cpu"
    assert set(meb.backends()) == set(jeb.backends())
    assert meb.get_default_device() == mlax.devices()[0]
    assert meb.backend_xla_version() == jeb.backend_xla_version()
    f = mlax.jit(lambda x: x + 1)
    f(1.0)
    meb.clear_in_memory_compilation_cache()
    assert float(f(1.0)) == 2.0

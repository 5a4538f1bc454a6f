"""lax.rng_bit_generator against JAX, bit for bit, in one process (CPU).

XLA implements the generator's algorithms, so equal bits mean mlax lowers
the op as JAX does (the key's u32[4] -> u64[2] bitcast, the algorithm, the
dtype).
"""
import numpy as np
import pytest

import jax

import mlax
from mlax import lax

ALGORITHMS = ["RNG_DEFAULT", "RNG_THREE_FRY", "RNG_PHILOX"]
BIT_DTYPES = ["uint8", "uint16", "uint32"]
SHAPES = [(), (5,), (2, 3), (4, 1, 3), (0, 2)]
KEY = np.array([1, 2, 3, 0xDEADBEEF], np.uint32)


def assert_bit_equal(m, j):
    m, j = np.asarray(m), np.asarray(j)
    assert (m.dtype, m.shape) == (j.dtype, j.shape), f"mlax {m.dtype}{m.shape} vs jax " \
                                                    f"{j.dtype}{j.shape}"
    assert m.tobytes() == j.tobytes(), f"values differ:\nmlax {m}\njax  {j}"


# ---------------------------------------------------------------------------
# lax.rng_bit_generator
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("dtype", BIT_DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_rng_bit_generator_eager(algorithm, dtype, shape):
    mk, mb = lax.rng_bit_generator(KEY, shape, dtype, getattr(lax.RandomAlgorithm, algorithm))
    jk, jb = jax.lax.rng_bit_generator(KEY, shape, dtype,
                                       getattr(jax.lax.RandomAlgorithm, algorithm))
    assert_bit_equal(mk, jk)
    assert_bit_equal(mb, jb)
    assert not mb.weak_type


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("dtype", BIT_DTYPES)
def test_rng_bit_generator_jit(algorithm, dtype):
    def f(lib):
        def run(key):
            k1, b1 = lib.lax.rng_bit_generator(key, (3, 4), dtype,
                                               getattr(lib.lax.RandomAlgorithm, algorithm))
            k2, b2 = lib.lax.rng_bit_generator(k1, (7,), dtype,
                                               getattr(lib.lax.RandomAlgorithm, algorithm))
            return k2, b1, b2
        return run
    for m, j in zip(mlax.jit(f(mlax))(KEY), jax.jit(f(jax))(KEY)):
        assert_bit_equal(m, j)


def test_rng_bit_generator_uint64_with_x64():
    with mlax.enable_x64(), jax.enable_x64(True):
        for algorithm in ALGORITHMS:
            mk, mb = lax.rng_bit_generator(KEY, (2, 3), np.uint64,
                                           getattr(lax.RandomAlgorithm, algorithm))
            jk, jb = jax.lax.rng_bit_generator(KEY, (2, 3), np.uint64,
                                               getattr(jax.lax.RandomAlgorithm, algorithm))
            assert_bit_equal(mk, jk)
            assert_bit_equal(mb, jb)


def test_rng_bit_generator_uint64_key_with_x64():
    key = np.array([0x0123456789ABCDEF, 42], np.uint64)
    with mlax.enable_x64(), jax.enable_x64(True):
        mk, mb = lax.rng_bit_generator(key, (5,))
        jk, jb = jax.lax.rng_bit_generator(key, (5,))
        assert_bit_equal(mk, jk)
        assert_bit_equal(mb, jb)


def test_rng_bit_generator_uint64_without_x64_is_uint32():
    mk, mb = lax.rng_bit_generator(KEY, (3,), np.uint64)
    with pytest.warns(UserWarning):
        jk, jb = jax.lax.rng_bit_generator(KEY, (3,), np.uint64)
    assert_bit_equal(mb, jb)


def test_rng_bit_generator_accepts_jax_algorithm_and_int():
    for algorithm in (jax.lax.RandomAlgorithm.RNG_PHILOX, 2):
        _, mb = lax.rng_bit_generator(KEY, (4,), algorithm=algorithm)
        _, jb = jax.lax.rng_bit_generator(KEY, (4,), algorithm=jax.lax.RandomAlgorithm.RNG_PHILOX)
        assert_bit_equal(mb, jb)
    assert str(lax.RandomAlgorithm.RNG_THREE_FRY) == str(jax.lax.RandomAlgorithm.RNG_THREE_FRY)
    assert [int(a) for a in lax.RandomAlgorithm] == [int(a) for a in jax.lax.RandomAlgorithm]


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_rng_bit_generator_vmap(algorithm):
    # JAX's batching rule: the first key draws every row; the other keys
    # come back unchanged.
    keys = np.arange(12, dtype=np.uint32).reshape(3, 4) * 7919
    def f(lib):
        return lambda k: lib.lax.rng_bit_generator(k, (2, 5), np.uint8,
                                                   getattr(lib.lax.RandomAlgorithm, algorithm))
    for m, j in zip(mlax.vmap(f(mlax))(keys), jax.vmap(f(jax))(keys)):
        assert_bit_equal(m, j)
    for m, j in zip(mlax.jit(mlax.vmap(f(mlax)))(keys), jax.jit(jax.vmap(f(jax)))(keys)):
        assert_bit_equal(m, j)
    # keys batched on another axis, bits out on another axis
    ka = np.ascontiguousarray(keys.T)
    mo = mlax.vmap(f(mlax), in_axes=1, out_axes=(0, 2))(ka)
    jo = jax.vmap(f(jax), in_axes=1, out_axes=(0, 2))(ka)
    for m, j in zip(mo, jo):
        assert_bit_equal(m, j)


def test_rng_bit_generator_vmap_of_unbatched_key():
    f = lambda lib: lambda x, k: (x, lib.lax.rng_bit_generator(k, (3,))[1])  # noqa: E731
    m = mlax.vmap(f(mlax), in_axes=(0, None))(np.arange(4.0, dtype=np.float32), KEY)
    j = jax.vmap(f(jax), in_axes=(0, None))(np.arange(4.0, dtype=np.float32), KEY)
    assert_bit_equal(m[1], j[1])


def test_rng_bit_generator_under_grad():
    # Integer bits carry no tangent: a float function of them differentiates.
    def f(lib):
        def loss(x):
            _, b = lib.lax.rng_bit_generator(KEY, (4,))
            return (x * b.astype(np.float32)).sum()
        return loss
    x = np.ones(4, np.float32)
    assert_bit_equal(mlax.grad(f(mlax))(x), jax.grad(f(jax))(x))


def test_rng_bit_generator_ir():
    text = str(mlax.make_ir(lambda k: lax.rng_bit_generator(
        k, (2,), np.uint16, lax.RandomAlgorithm.RNG_PHILOX))(KEY))
    assert "mlax.rng_bit_generator PHILOX" in text
    hlo = mlax.jit(lambda k: lax.rng_bit_generator(k, (2,))).lower(KEY).as_text()
    assert "rng_bit_generator" in hlo and "rng_algorithm DEFAULT" in hlo


def test_rng_bit_generator_errors():
    with pytest.raises(TypeError, match="rng_bit_generator: unsupported dtype int32"):
        lax.rng_bit_generator(KEY, (3,), np.int32)
    with pytest.raises(TypeError, match="unsupported dtype float32"):
        lax.rng_bit_generator(KEY, (3,), np.float32)
    with pytest.raises(TypeError, match=r"key must be a uint32 array of shape \(4,\) \(or "
                                        r"uint64 of shape \(2,\)\), got 'u32\[3\]'"):
        lax.rng_bit_generator(np.zeros(3, np.uint32), (3,))
    with pytest.raises(TypeError, match=r"key must be a uint32 array.*got 'i32\[4\]'"):
        mlax.jit(lambda k: lax.rng_bit_generator(k, (3,)))(np.zeros(4, np.int32))
    with pytest.raises(ValueError, match="unknown algorithm"):
        lax.rng_bit_generator(KEY, (3,), algorithm=5)
    with pytest.raises(TypeError, match="Shapes must be"):
        lax.rng_bit_generator(KEY, (1.5,))
    with pytest.raises(mlax.ConcretizationTypeError):
        mlax.jit(lambda n: lax.rng_bit_generator(KEY, n))(3)

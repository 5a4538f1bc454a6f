"""lax.rng_bit_generator and the rbg / unsafe_rbg PRNG implementations of
mlax.random against JAX, bit for bit, in one process (CPU).

XLA implements the generator's algorithms, so equal bits mean mlax lowers
the op as JAX does (the key's u32[4] -> u64[2] bitcast, the algorithm, the
dtype); the key implementations are mlax's own code after JAX's
(jax/_src/random/rbg.py).
"""
import numpy as np
import pytest

import jax
import jax.numpy as jnp

import mlax
import mlax.numpy as mnp
import mlax.random as mr
from mlax import lax

ALGORITHMS = ["RNG_DEFAULT", "RNG_THREE_FRY", "RNG_PHILOX"]
BIT_DTYPES = ["uint8", "uint16", "uint32"]
SHAPES = [(), (5,), (2, 3), (4, 1, 3), (0, 2)]
KEY = np.array([1, 2, 3, 0xDEADBEEF], np.uint32)
IMPLS = ["rbg", "unsafe_rbg"]


def assert_bit_equal(m, j, what=""):
    m, j = np.asarray(m), np.asarray(j)
    assert (m.dtype, m.shape) == (j.dtype, j.shape), f"{what} mlax {m.dtype}{m.shape} vs jax " \
                                                    f"{j.dtype}{j.shape}"
    assert m.tobytes() == j.tobytes(), f"{what} values differ:\nmlax {m}\njax  {j}"


def assert_keys_equal(m, j):
    """Typed keys (dtype and data) or raw keys (data) of mlax and JAX."""
    if isinstance(m, mr.KeyArray):
        assert str(m.dtype) == str(j.dtype)
        m, j = mr.key_data(m), jax.random.key_data(j)
    assert_bit_equal(m, j)


# ---------------------------------------------------------------------------
# lax.rng_bit_generator
# ---------------------------------------------------------------------------

# Every algorithm with every dtype, each pair at two shapes, chosen so that
# every shape meets every algorithm and every dtype (18 programs, not 45:
# the shape is independent of the algorithm and the dtype).
_EAGER_CASES = [(a, d, SHAPES[(i + j + k) % len(SHAPES)])
                for i, a in enumerate(ALGORITHMS) for j, d in enumerate(BIT_DTYPES)
                for k in (0, 2)]


@pytest.mark.parametrize("algorithm,dtype,shape", _EAGER_CASES,
                         ids=[f"{a}-{d}-{'x'.join(map(str, s)) or 'scalar'}"
                              for a, d, s in _EAGER_CASES])
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


# ---------------------------------------------------------------------------
# rbg and unsafe_rbg keys
# ---------------------------------------------------------------------------

def typed(impl, seed=0):
    return mr.key(seed, impl=impl), jax.random.key(seed, impl=impl)


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("seed", [0, 1, 42, -7])
def test_key_and_prngkey(impl, seed):
    mk, jk = typed(impl, seed)
    assert_keys_equal(mk, jk)
    assert str(mk.dtype) == str(jk.dtype) == ("key<rbg>" if impl == "rbg" else "key<urbg>")
    assert mk.shape == jk.shape == ()
    assert repr(mk) == repr(jk)
    assert_bit_equal(mr.PRNGKey(seed, impl=impl), jax.random.PRNGKey(seed, impl=impl))
    # traced seeds
    assert_bit_equal(mlax.jit(lambda s: mr.PRNGKey(s, impl=impl))(seed),
                     jax.jit(lambda s: jax.random.PRNGKey(s, impl=impl))(seed))


def test_key_with_x64_seed():
    with mlax.enable_x64(), jax.enable_x64(True):
        for impl in IMPLS:
            assert_keys_equal(*typed(impl, 0x123456789))


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("num", [2, 5, (2, 3), ()])
def test_split(impl, num):
    mk, jk = typed(impl, 3)
    ms, js = mr.split(mk, num), jax.random.split(jk, num)
    assert ms.shape == js.shape
    assert_keys_equal(ms, js)
    assert_keys_equal(mlax.jit(lambda k: mr.split(k, num))(mk),
                      jax.jit(lambda k: jax.random.split(k, num))(jk))


@pytest.mark.parametrize("impl", IMPLS)
def test_fold_in(impl):
    mk, jk = typed(impl, 11)
    for d in (0, 1, 12345, 2 ** 32 - 1):
        assert_keys_equal(mr.fold_in(mk, d), jax.random.fold_in(jk, d))
    assert_keys_equal(mlax.jit(mr.fold_in)(mk, np.uint32(77)),
                      jax.jit(jax.random.fold_in)(jk, np.uint32(77)))
    # chains of split and fold_in
    m2 = mr.split(mr.fold_in(mk, 5), 3)[1]
    j2 = jax.random.split(jax.random.fold_in(jk, 5), 3)[1]
    assert_keys_equal(mr.fold_in(m2, 9), jax.random.fold_in(j2, 9))


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("dtype", ["uint8", "uint16", "uint32"])
@pytest.mark.parametrize("shape", [(), (7,), (2, 3)])
def test_bits(impl, dtype, shape):
    mk, jk = typed(impl, 5)
    assert_bit_equal(mr.bits(mk, shape, dtype), jax.random.bits(jk, shape, dtype))


@pytest.mark.parametrize("impl", IMPLS)
def test_samplers(impl):
    mk, jk = typed(impl, 2024)
    cases = [
        (lambda r, k: r.uniform(k, (3, 4))),
        (lambda r, k: r.uniform(k, (5,), dtype=np.float16, minval=-2.0, maxval=3.0)),
        (lambda r, k: r.normal(k, (6,))),
        (lambda r, k: r.normal(k, (2, 2), dtype=jnp.bfloat16 if r is jax.random
                               else mnp.bfloat16)),
        (lambda r, k: r.randint(k, (8,), 0, 10)),
        (lambda r, k: r.randint(k, (3, 3), -5, 1000, dtype=np.int16)),
        (lambda r, k: r.permutation(k, 10)),
        (lambda r, k: r.permutation(k, np.arange(12.0, dtype=np.float32).reshape(3, 4), axis=1)),
        (lambda r, k: r.bernoulli(k, 0.3, (9,))),
        (lambda r, k: r.categorical(k, np.log(np.array([0.1, 0.6, 0.3], np.float32)),
                                    shape=(7,))),
        (lambda r, k: r.choice(k, 5, (3,), replace=False)),
        (lambda r, k: r.gumbel(k, (4,))),
        (lambda r, k: r.exponential(k, (4,))),
        (lambda r, k: r.truncated_normal(k, -1.0, 2.0, (4,))),
    ]
    # rbg and unsafe_rbg draw bits alike (they differ in split and fold_in,
    # which the samplers call the same way eagerly and under jit): each
    # sampler runs eagerly with one implementation and under jit with the
    # other, so each implementation and each mode meets every sampler.
    for i, case in enumerate(cases):
        if (i + IMPLS.index(impl)) % 2 == 0:
            assert_bit_equal(case(mr, mk), case(jax.random, jk), f"eager case {i}")
        else:
            assert_bit_equal(mlax.jit(lambda k: case(mr, k))(mk),
                             jax.jit(lambda k: case(jax.random, k))(jk), f"jit case {i}")


@pytest.mark.parametrize("impl", IMPLS)
def test_gamma_and_beta(impl):
    # JAX's gamma loops over the keys (lax.map) for rbg keys instead of
    # vmapping: a vmapped rng_bit_generator draws every row from one key.
    mk, jk = typed(impl, 8)
    a = np.array([0.5, 1.0, 3.0], np.float32)
    assert_bit_equal(mr.gamma(mk, a), jax.random.gamma(jk, a))
    assert_bit_equal(mr.beta(mk, 2.0, 3.0, (3,)), jax.random.beta(jk, 2.0, 3.0, (3,)))


@pytest.mark.parametrize("impl", IMPLS)
def test_vmap_over_keys(impl):
    mks = mr.split(mr.key(1, impl=impl), 4)
    jks = jax.random.split(jax.random.key(1, impl=impl), 4)
    for fm, fj in ((lambda k: mr.normal(k, (3,)), lambda k: jax.random.normal(k, (3,))),
                   (lambda k: mr.split(k), lambda k: jax.random.split(k)),
                   (lambda k: mr.fold_in(k, 3), lambda k: jax.random.fold_in(k, 3)),
                   (lambda k: mr.randint(k, (2,), 0, 9), lambda k: jax.random.randint(k, (2,), 0, 9))):
        m, j = mlax.vmap(fm)(mks), jax.vmap(fj)(jks)
        if isinstance(m, mr.KeyArray):
            assert_keys_equal(m, j)
        else:
            assert_bit_equal(m, j)


@pytest.mark.parametrize("impl", IMPLS)
def test_key_impl_data_wrap(impl):
    mk, jk = typed(impl, 4)
    assert mr.key_impl(mk) == str(jax.random.key_impl(jk)) == impl
    assert_bit_equal(mr.key_data(mk), jax.random.key_data(jk))
    data = np.asarray(jax.random.key_data(jax.random.split(jk, 3)))
    mw = mr.wrap_key_data(data, impl=impl)
    jw = jax.random.wrap_key_data(data, impl=impl)
    assert mw.shape == jw.shape == (3,)
    assert_keys_equal(mw, jw)
    assert_keys_equal(mr.split(mw[1]), jax.random.split(jw[1]))
    # the implementation given as a JAX object, a key dtype, or key_impl's result
    import jax.extend.random as jer
    jimpl = jer.rbg_prng_impl if impl == "rbg" else jer.unsafe_rbg_prng_impl
    for spec in (jimpl, jax.random.key_dtype(impl), mr.key_dtype(impl), mr.key_impl(mk)):
        assert_keys_equal(mr.wrap_key_data(data, impl=spec), jw)
    assert_keys_equal(mr.wrap_key_data(data, dtype=mk.dtype), jw)
    assert str(mr.key_dtype(impl)) == str(jax.random.key_dtype(impl))
    assert mr.key_dtype(impl) == mk.dtype != mr.key_dtype()


def test_wrap_key_data_errors():
    for impl, shape in (("rbg", (2,)), ("unsafe_rbg", (3, 2)), ("threefry2x32", (4,))):
        data = np.zeros(shape, np.uint32)
        with pytest.raises(TypeError) as je:
            jax.random.wrap_key_data(data, impl=impl)
        with pytest.raises(TypeError) as me:
            mr.wrap_key_data(data, impl=impl)
        prefix = str(je.value).split(" for impl=")[0].replace("JAX", "mlax")
        assert str(me.value).startswith(prefix), (str(me.value), prefix)
    for data in (np.zeros(4, np.int32), np.uint32(3)):
        with pytest.raises(TypeError) as je:
            jax.random.wrap_key_data(data, impl="rbg")
        with pytest.raises(TypeError) as me:
            mr.wrap_key_data(data, impl="rbg")
        assert str(me.value) == str(je.value).replace("JAX", "mlax")
    with pytest.raises(ValueError, match="Cannot specify both"):
        mr.wrap_key_data(np.zeros(4, np.uint32), impl="rbg", dtype=mr.key_dtype("rbg"))


def test_impl_errors():
    for bad in ("foo", "RBG"):
        with pytest.raises(ValueError) as je:
            jax.random.key(0, impl=bad)
        with pytest.raises(ValueError) as me:
            mr.key(0, impl=bad)
        assert str(me.value) == str(je.value)
    # a raw rbg key while the default is threefry2x32 (as JAX: the raw key is
    # read as the default implementation's)
    with pytest.raises(TypeError):
        jax.random.split(jax.random.PRNGKey(0, impl="rbg"))
    with pytest.raises(TypeError, match="last dimension is 2"):
        mr.split(mr.PRNGKey(0, impl="rbg"))
    # keys of different implementations do not compare
    with pytest.raises(TypeError, match="cannot compare key arrays"):
        mr.key(0) == mr.key(0, impl="rbg")  # noqa: B015
    # JAX's poisson is written for threefry keys only
    for impl in IMPLS:
        with pytest.raises(NotImplementedError) as je:
            jax.random.poisson(jax.random.key(0, impl=impl), 3.0)
        with pytest.raises(NotImplementedError) as me:
            mr.poisson(mr.key(0, impl=impl), 3.0)
        assert str(me.value).split(" not ")[0] == str(je.value).split(" not ")[0]


@pytest.mark.parametrize("impl", IMPLS)
def test_default_prng_impl_config(impl):
    assert mlax.config.jax_default_prng_impl == "threefry2x32"
    with mlax.default_prng_impl(impl), jax.default_prng_impl(impl):
        assert_bit_equal(mr.PRNGKey(9), jax.random.PRNGKey(9))
        mk, jk = mr.key(9), jax.random.key(9)
        assert str(mk.dtype) == str(jk.dtype)
        assert mr.key_impl(mr.PRNGKey(9)) == jax.random.key_impl(jax.random.PRNGKey(9)) == impl
        # raw keys are read as the default implementation's
        rk, jrk = mr.PRNGKey(9), jax.random.PRNGKey(9)
        assert_bit_equal(mr.split(rk, 3), jax.random.split(jrk, 3))
        assert_bit_equal(mr.fold_in(rk, 2), jax.random.fold_in(jrk, 2))
        assert_bit_equal(mr.uniform(rk, (4,)), jax.random.uniform(jrk, (4,)))
        assert_bit_equal(mlax.jit(lambda k: mr.normal(k, (3,)))(rk),
                         jax.jit(lambda k: jax.random.normal(k, (3,)))(jrk))
        assert str(mr.key_dtype()) == str(jax.random.key_dtype())
    assert mlax.config.jax_default_prng_impl == "threefry2x32"
    assert mr.PRNGKey(9).shape == (2,)
    mlax.config.update("jax_default_prng_impl", impl)
    try:
        assert mr.PRNGKey(0).shape == (4,)
    finally:
        mlax.config.update("jax_default_prng_impl", "threefry2x32")


def test_default_prng_impl_config_errors():
    with pytest.raises(ValueError) as je:
        jax.config.update("jax_default_prng_impl", "foo")
    with pytest.raises(ValueError) as me:
        mlax.config.update("jax_default_prng_impl", "foo")
    assert str(me.value) == str(je.value)
    assert mlax.config.jax_default_prng_impl == "threefry2x32"


def test_threefry_keys_unchanged():
    # The typed threefry key keeps JAX's repr and dtype.
    mk, jk = mr.key(3), jax.random.key(3)
    assert str(mk.dtype) == "key<fry>" and repr(mk) == repr(jk)
    assert mr.key_impl(mk) == "threefry2x32"
    assert_keys_equal(mr.split(mk, 4), jax.random.split(jk, 4))

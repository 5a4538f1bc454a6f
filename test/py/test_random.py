"""mlax.random against jax.random, bit for bit, in one process.

JAX's default `jax_threefry_partitionable` setting is the one mlax follows;
the first test checks that the installed JAX still has it.
"""
import numpy as np
import pytest

import jax
import jax.numpy as jnp

import mlax
import mlax.numpy as mnp
import mlax.random as mr

SEEDS = [0, 1, 42, 0x123456789, -7]
# The samplers' grids: a zero, a wider-than-32-bit and a negative seed. A
# sampler's program takes the key as an argument, so more seeds only rerun
# it; the keys of every seed are checked in test_prngkey_matches and
# test_split_matches.
SAMPLER_SEEDS = [0, 0x123456789, -7]
FLOATS = ["float32", "float16", "bfloat16"]


def bits_of(x):
    """The array's raw bytes (NaNs and -0.0 compare exactly)."""
    a = np.asarray(x)
    return a.dtype, a.shape, a.tobytes()


def assert_bit_equal(m, j):
    md, ms, mb = bits_of(m)
    jd, js, jb = bits_of(j)
    assert (md, ms) == (jd, js), f"mlax {md}{ms} vs jax {jd}{js}"
    assert mb == jb, f"values differ:\nmlax {np.asarray(m)}\njax  {np.asarray(j)}"
    assert getattr(m, "weak_type", False) == getattr(j, "weak_type", False)


def keys(seed):
    return mr.PRNGKey(seed), jax.random.PRNGKey(seed)


def test_installed_jax_uses_partitionable_threefry():
    assert jax.config.jax_threefry_partitionable is True


# ---------------------------------------------------------------------------
# Keys
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("seed", SEEDS + [2 ** 40 + 5, 2 ** 31, -(2 ** 31)])
def test_prngkey_matches(seed):
    m, j = keys(seed)
    assert_bit_equal(m, j)
    assert isinstance(m, mlax.Array)


def test_prngkey_from_array_seed_and_under_jit():
    for seed in (np.int32(5), np.uint32(7), mnp.asarray(9)):
        assert_bit_equal(mr.PRNGKey(seed), jax.random.PRNGKey(np.asarray(seed)))
    f = mlax.jit(lambda s: mr.PRNGKey(s))
    assert_bit_equal(f(np.int32(123)), jax.random.PRNGKey(123))


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("num", [2, 3, 5, (2, 3)])
def test_split_matches(seed, num):
    m, j = keys(seed)
    assert_bit_equal(mr.split(m, num), jax.random.split(j, num))


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("data", [0, 1, 7, 2 ** 32 - 1, np.int32(-3), np.uint32(12345)])
def test_fold_in_matches(seed, data):
    m, j = keys(seed)
    assert_bit_equal(mr.fold_in(m, data), jax.random.fold_in(j, data))


def test_split_unpacking_as_in_the_tutorials():
    key, jkey = keys(0)
    for _ in range(3):
        key, subkey = mr.split(key)
        jkey, jsub = jax.random.split(jkey)
        assert_bit_equal(mr.normal(subkey, (2,)), jax.random.normal(jsub, (2,)))
    key, *subkeys = mr.split(key, 5)
    jkey, *jsubkeys = jax.random.split(jkey, 5)
    assert len(subkeys) == 4
    for s, js in zip(subkeys, jsubkeys):
        assert_bit_equal(mr.normal(s, (2, 2)), jax.random.normal(js, (2, 2)))


def test_typed_keys_match_jax_typed_keys():
    k, jk = mr.key(42), jax.random.key(42)
    assert k.shape == jk.shape == ()
    assert str(k.dtype) == str(jk.dtype) == "key<fry>"
    assert repr(k) == repr(jk)
    ks, jks = mr.split(k, 3), jax.random.split(jk, 3)
    assert isinstance(ks, mr.KeyArray) and ks.shape == (3,)
    assert repr(ks) == repr(jks)
    assert_bit_equal(mr.key_data(ks), jax.random.key_data(jks))
    a, b = mr.split(k)
    ja, jb = jax.random.split(jk)
    assert_bit_equal(mr.uniform(b, (4,)), jax.random.uniform(jb, (4,)))
    assert_bit_equal(mr.key_data(mr.fold_in(a, 3)), jax.random.key_data(jax.random.fold_in(ja, 3)))
    assert_bit_equal(mr.key_data(mr.wrap_key_data(mr.key_data(k))), jax.random.key_data(jk))
    with pytest.raises(TypeError, match="key_data"):
        np.asarray(k)


def test_typed_keys_pass_through_jit_as_pytrees():
    k = mr.key(3)
    f = mlax.jit(lambda key: mr.split(key))
    out = f(k)
    assert isinstance(out, mr.KeyArray)
    assert_bit_equal(mr.key_data(out), jax.random.key_data(jax.random.split(jax.random.key(3))))


# ---------------------------------------------------------------------------
# Samplers
# ---------------------------------------------------------------------------

def _bits_calls(r, k, dtype, shape):
    return [r.bits(k, shape, dtype)]


BITS_GRID = tuple((d, s) for d in ["uint8", "uint16", "uint32"] for s in [(), (1,), (7,), (3, 4)])


@pytest.mark.parametrize("seed", SAMPLER_SEEDS)
@pytest.mark.parametrize("dtype,shape", BITS_GRID)
def test_bits(seed, dtype, shape):
    check_calls(_bits_calls, seed, (dtype, shape), BITS_GRID)


def _uniform_calls(r, k, dtype, shape):
    return [r.uniform(k, shape, dtype), r.uniform(k, shape, dtype, -2.5, 7.0)]


UNIFORM_GRID = tuple((d, s) for d in FLOATS for s in [(), (5,), (2, 3)])


@pytest.mark.parametrize("seed", SAMPLER_SEEDS)
@pytest.mark.parametrize("dtype,shape", UNIFORM_GRID)
def test_uniform(seed, dtype, shape):
    check_calls(_uniform_calls, seed, (dtype, shape), UNIFORM_GRID)


def test_uniform_with_array_bounds():
    m, j = keys(11)
    lo = np.array([0.0, -1.0, 5.0], np.float32)
    assert_bit_equal(mr.uniform(m, (2, 3), minval=lo, maxval=10.0),
                     jax.random.uniform(j, (2, 3), minval=lo, maxval=10.0))


def _normal_calls(r, k, dtype, shape):
    return [r.normal(k, shape, dtype)]


NORMAL_GRID = tuple((d, s) for d in FLOATS for s in [(), (6,), (3, 2)])


@pytest.mark.parametrize("seed", SAMPLER_SEEDS)
@pytest.mark.parametrize("dtype,shape", NORMAL_GRID)
def test_normal(seed, dtype, shape):
    check_calls(_normal_calls, seed, (dtype, shape), NORMAL_GRID)


def _truncated_normal_calls(r, k, dtype):
    lower = np.array([-3.0, 0.0, 1.0], np.float32)
    return [r.truncated_normal(k, -1.0, 2.0, (4, 3), dtype), r.truncated_normal(k, lower, 3.0)]


@pytest.mark.parametrize("seed", SAMPLER_SEEDS)
@pytest.mark.parametrize("dtype", FLOATS)
def test_truncated_normal(seed, dtype):
    check_calls(_truncated_normal_calls, seed, (dtype,), tuple((d,) for d in FLOATS))


def _bernoulli_calls(r, k, mode):
    p = np.array([0.1, 0.5, 0.9], np.float32)
    return [r.bernoulli(k, 0.3, (10,), mode=mode), r.bernoulli(k, p, mode=mode), r.bernoulli(k)]


@pytest.mark.parametrize("seed", SAMPLER_SEEDS)
@pytest.mark.parametrize("mode", ["low", "high"])
def test_bernoulli(seed, mode):
    check_calls(_bernoulli_calls, seed, (mode,), (("low",), ("high",)))


INT_DTYPES = ["int32", "int8", "uint8", "int16", "uint16", "uint32"]


def _randint_calls(r, k, dtype):
    return [r.randint(k, (9,), 0, 100, dtype), r.randint(k, (2, 2), 3, 3, dtype)]


@pytest.mark.parametrize("seed", SAMPLER_SEEDS)
@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_randint(seed, dtype):
    check_calls(_randint_calls, seed, (dtype,), tuple((d,) for d in INT_DTYPES))


def _gumbel_calls(r, k, dtype, mode):
    return [r.gumbel(k, (6,), dtype, mode=mode)]


GUMBEL_GRID = tuple((d, m) for d in FLOATS for m in ["low", "high", "highest"])


@pytest.mark.parametrize("seed", SAMPLER_SEEDS)
@pytest.mark.parametrize("dtype,mode", GUMBEL_GRID)
def test_gumbel(seed, dtype, mode):
    check_calls(_gumbel_calls, seed, (dtype, mode), GUMBEL_GRID)


def _exponential_calls(r, k, dtype):
    return [r.exponential(k, (3, 5), dtype)]


@pytest.mark.parametrize("seed", SAMPLER_SEEDS)
@pytest.mark.parametrize("dtype", FLOATS)
def test_exponential(seed, dtype):
    check_calls(_exponential_calls, seed, (dtype,), tuple((d,) for d in FLOATS))


def _categorical_calls(r, k):
    logits = np.log(np.array([[0.1, 0.2, 0.7], [0.5, 0.25, 0.25]], np.float32))
    with_neg_inf = np.array([0.0, -np.inf, 1.0, -np.inf], np.float32)
    return [r.categorical(k, logits), r.categorical(k, logits, axis=0),
            r.categorical(k, logits, shape=(4, 2)),
            *(r.categorical(k, logits, mode=mode) for mode in ("high", "highest")),
            r.categorical(k, logits[0], shape=(2,), replace=False),
            r.categorical(k, with_neg_inf, shape=(20,))]


def _permutation_calls(r, k):
    x = np.arange(12.0, dtype=np.float32).reshape(4, 3)
    b = np.array([True, False, True, True])
    return [r.permutation(k, 10), r.permutation(k, x), r.permutation(k, x, axis=1),
            r.permutation(k, x, axis=1, independent=True), r.permutation(k, b)]


def _choice_calls(r, k):
    x = np.arange(12.0, dtype=np.float32).reshape(4, 3)
    p = np.array([0.1, 0.2, 0.3, 0.4], np.float32)
    return [r.choice(k, 5, (3,)), r.choice(k, x, (2,)), r.choice(k, x, (2, 2), axis=1),
            r.choice(k, 10, (4,), replace=False), r.choice(k, 4, (6,), p=p),
            r.choice(k, 4, (3,), replace=False, p=p), r.choice(k, x, (0,))]


def _randint_edge_calls(r, k):
    big = 2 ** 31 - 1
    return [r.randint(k, (3, 4), -50, 7), r.randint(k, (10,), 0, 256, "uint8"),
            r.randint(k, (10,), -1000, 1000, "int8"),
            r.randint(k, (2, 3), np.array([0, 10, 20]), 30), r.randint(k, (5,), -big, big)]


# JAX's results of each table of calls (every parameter of a grid): ONE
# jitted program of the key (one compile for every seed and parameter, not
# one per primitive of every eager call); JAX's samplers are bit for bit the
# same under jit as eagerly.
_JAX_SAMPLES = {}


def check_calls(calls, seed, param=(), grid=((),)):
    """mlax's eager results of `calls(mr, key, *param)` bit for bit as JAX's,
    call by call; JAX's computed for every `param` of `grid` at once."""
    if (calls, grid) not in _JAX_SAMPLES:
        _JAX_SAMPLES[calls, grid] = jax.jit(
            lambda k: [calls(jax.random, k, *q) for q in grid])
    m, j = keys(seed)
    want = _JAX_SAMPLES[calls, grid](j)[grid.index(param)]
    got = calls(mr, m, *param)
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        try:
            assert_bit_equal(g, w)
        except AssertionError as e:
            raise AssertionError(f"{calls.__name__}{param}[{i}]: {e}") from None


def test_randint_edge_ranges():
    check_calls(_randint_edge_calls, 5)


@pytest.mark.parametrize("seed", SAMPLER_SEEDS)
def test_categorical(seed):
    check_calls(_categorical_calls, seed)


@pytest.mark.parametrize("seed", SAMPLER_SEEDS)
def test_permutation(seed):
    check_calls(_permutation_calls, seed)


@pytest.mark.parametrize("seed", SAMPLER_SEEDS)
def test_choice(seed):
    check_calls(_choice_calls, seed)


def _multivariate_normal_calls(r, k, dtype):
    cov = np.array([[2.0, 0.5, 0.1], [0.5, 1.0, 0.2], [0.1, 0.2, 0.5]], dtype)
    mean = np.array([1.0, -1.0, 0.5], dtype)
    return [r.multivariate_normal(k, mean, cov, (5,)), r.multivariate_normal(k, mean, cov)]


@pytest.mark.parametrize("seed", SAMPLER_SEEDS)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_multivariate_normal(seed, dtype):
    check_calls(_multivariate_normal_calls, seed, (dtype,), (("float32",), ("float64",)))


@pytest.mark.parametrize("shape", [None, (2,), (4, 2)])
def test_multivariate_normal_batched_covariances(shape):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((2, 3, 3)).astype(np.float32)
    cov = a @ np.swapaxes(a, -1, -2) + 3 * np.eye(3, dtype=np.float32)
    mean = rng.standard_normal((2, 3)).astype(np.float32)
    for seed in (0, 5):
        m, j = keys(seed)
        assert_bit_equal(mr.multivariate_normal(m, mean, cov, shape),
                         jax.random.multivariate_normal(j, mean, cov, shape))
        assert_bit_equal(mr.multivariate_normal(m, mean[0], cov, shape),
                         jax.random.multivariate_normal(j, mean[0], cov, shape))
    with pytest.raises(NotImplementedError, match="broadcast cov first"):
        mr.multivariate_normal(keys(0)[0], mean, cov[:1], (2,))


def test_multivariate_normal_not_positive_definite_gives_nan_as_jax():
    m, j = keys(0)
    cov = np.array([[1.0, 2.0], [2.0, 1.0]], np.float32)
    mean = np.zeros(2, np.float32)
    assert_bit_equal(mr.multivariate_normal(m, mean, cov, (3,)),
                     jax.random.multivariate_normal(j, mean, cov, (3,)))


# ---------------------------------------------------------------------------
# Semantics: reuse, jit, the tutorials' examples
# ---------------------------------------------------------------------------

def test_reusing_a_key_gives_identical_numbers():
    k = mr.PRNGKey(0)
    a, b = mr.normal(k, (2,)), mr.normal(k, (2,))
    assert_bit_equal(a, b)
    k1, k2 = mr.split(k)
    assert not np.array_equal(np.asarray(mr.normal(k1, (4,))), np.asarray(mr.normal(k2, (4,))))


def test_samplers_under_jit_match_eager_and_jax():
    @mlax.jit
    def sample(key):
        k1, k2, k3 = mr.split(key, 3)
        return (mr.normal(k1, (3,)), mr.uniform(k2, (2,), minval=1.0, maxval=2.0),
                mr.randint(k3, (4,), 0, 10))

    @jax.jit
    def jsample(key):
        k1, k2, k3 = jax.random.split(key, 3)
        return (jax.random.normal(k1, (3,)), jax.random.uniform(k2, (2,), minval=1.0, maxval=2.0),
                jax.random.randint(k3, (4,), 0, 10))

    for seed in SEEDS:
        m, j = keys(seed)
        for a, b in zip(sample(m), jsample(j)):
            assert_bit_equal(a, b)
    assert sample.cache_misses == 1  # one trace for every key (same shape and dtype)


def test_tutorial_uniform_with_a_large_seed():
    key, jkey = keys(0x123456789)
    key, subkey = mr.split(key)
    jkey, jsub = jax.random.split(jkey)
    assert_bit_equal(mr.uniform(subkey, (5,)), jax.random.uniform(jsub, (5,)))


def test_linear_regression_data_matches_jax():
    """The random data of the tutorial's linear regression (004 seed)."""
    def data(random, np_):
        key = random.PRNGKey(0)
        k1, k2 = random.split(key)
        W = random.normal(k1, (10, 5))
        b = random.normal(k2, (5,))
        key_sample, key_noise = random.split(k1)
        x = random.normal(key_sample, (20, 10))
        noise = random.normal(key_noise, (20, 5))
        y = np_.dot(x, W) + b + 0.1 * noise
        return W, b, x, noise, y

    m, j = data(mr, mnp), data(jax.random, jnp)
    for a, b in zip(m, j):
        assert_bit_equal(a, b)


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------

def test_bad_keys_are_rejected_clearly():
    with pytest.raises(TypeError, match="uint32"):
        mr.normal(mnp.zeros(2), (3,))
    with pytest.raises(TypeError, match="uint32"):
        mr.normal(np.zeros(3, np.uint32), (3,))
    with pytest.raises(ValueError, match="single key"):
        mr.normal(mr.split(mr.PRNGKey(0)), (3,))
    with pytest.raises(TypeError, match="unexpected PRNG key type"):
        mr.normal("key", (3,))
    with pytest.raises(TypeError, match="scalar seed"):
        mr.PRNGKey(np.arange(2))
    with pytest.raises(TypeError, match="integer"):
        mr.PRNGKey(1.5)


def test_bad_dtypes_and_shapes_are_rejected_like_jax():
    k, jk = keys(0)
    for fn, jfn, args in [(mr.uniform, jax.random.uniform, ((3,), "int32")),
                          (mr.normal, jax.random.normal, ((3,), "int32")),
                          (mr.bits, jax.random.bits, ((3,), "int32"))]:
        with pytest.raises(ValueError) as e:
            fn(k, *args)
        with pytest.raises(ValueError) as je:
            jfn(jk, *args)
        assert str(e.value).split(",")[0] == str(je.value).split(",")[0]
    with pytest.raises(TypeError, match="integer dtypes"):
        mr.randint(k, (3,), 0, 5, "float32")
    # (JAX's canonicalize_shape takes a Python int n as (n,), not a NumPy one)
    with pytest.raises(TypeError, match="Shapes must be 1D sequences"):
        mr.normal(k, np.int64(3))
    with pytest.raises(TypeError):
        jax.random.normal(jk, np.int64(3))
    with pytest.raises(TypeError, match="floating dtype"):
        mr.bernoulli(k, 1)
    with pytest.raises(ValueError, match="broadcast-compatible"):
        mr.uniform(k, (3,), minval=np.zeros(4, np.float32))
    with pytest.raises(ValueError, match="larger sample"):
        mr.choice(k, 3, (5,), replace=False)


def test_traced_shape_in_a_sampler_is_a_concretization_error():
    with pytest.raises(mlax.ConcretizationTypeError, match="static_argnums"):
        mlax.jit(lambda key, n: mr.normal(key, (n,)))(mr.PRNGKey(0), 3)
    out = mlax.jit(lambda key, n: mr.normal(key, (n,)), static_argnums=1)(mr.PRNGKey(0), 3)
    assert_bit_equal(out, jax.random.normal(jax.random.PRNGKey(0), (3,)))


_X64_SCRIPT = r"""
import numpy as np, jax
import mlax.random as mr
assert jax.config.jax_enable_x64
def same(a, b):
    a, b = np.asarray(a), np.asarray(b)
    assert a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes(), (a, b)
for seed in (0, 2 ** 40 + 5, -3):
    k, j = mr.PRNGKey(seed), jax.random.PRNGKey(seed)
    same(k, j)
    same(mr.split(k, 3), jax.random.split(j, 3))
    same(mr.bits(k, (5,)), jax.random.bits(j, (5,)))
    same(mr.uniform(k, (4,)), jax.random.uniform(j, (4,)))
    same(mr.normal(k, (4,), "float64"), jax.random.normal(j, (4,), "float64"))
    same(mr.randint(k, (6,), -2 ** 40, 2 ** 40), jax.random.randint(j, (6,), -2 ** 40, 2 ** 40))
    logits = np.log(np.array([0.2, 0.3, 0.5]))
    same(mr.categorical(k, logits, shape=(5,)), jax.random.categorical(j, logits, shape=(5,)))
    same(mr.permutation(k, 7), jax.random.permutation(j, 7))
    same(mr.choice(k, 4, (3,), p=np.array([0.1, 0.2, 0.3, 0.4])),
         jax.random.choice(j, 4, (3,), p=np.array([0.1, 0.2, 0.3, 0.4])))
print("ok")
"""


def test_bit_exact_with_x64_enabled():
    import os
    import subprocess
    import sys

    env = dict(os.environ, JAX_ENABLE_X64="1")
    out = subprocess.run([sys.executable, "-c", _X64_SCRIPT], env=env, capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-3000:]


def test_samplers_under_vmap_match_jax():
    if not hasattr(mlax, "vmap"):
        pytest.skip("mlax.vmap is not available in this tree")
    ks, jks = mr.split(mr.PRNGKey(3), 4), jax.random.split(jax.random.PRNGKey(3), 4)
    assert_bit_equal(mlax.vmap(lambda k: mr.normal(k, (3,)))(ks),
                     jax.vmap(lambda k: jax.random.normal(k, (3,)))(jks))
    assert_bit_equal(mlax.vmap(lambda k: mr.uniform(k, (2, 2), minval=-1.0))(ks),
                     jax.vmap(lambda k: jax.random.uniform(k, (2, 2), minval=-1.0))(jks))


# ---------------------------------------------------------------------------
# PRNG implementations (impl=)
# ---------------------------------------------------------------------------

def _threefry_impls():
    import jax.extend.random as jer
    return ["threefry2x32", jer.threefry_prng_impl, jax.random.key_impl(jax.random.key(0))]


@pytest.mark.parametrize("which", range(3))
def test_impl_threefry_accepted_as_jax(which):
    impl = _threefry_impls()[which]
    np.testing.assert_array_equal(np.asarray(mlax.random.PRNGKey(7, impl=impl)),
                                  np.asarray(jax.random.PRNGKey(7, impl=impl)))
    mk, jk = mlax.random.key(7, impl=impl), jax.random.key(7, impl=impl)
    np.testing.assert_array_equal(np.asarray(mlax.random.key_data(mk)),
                                  np.asarray(jax.random.key_data(jk)))
    data = np.asarray(jax.random.key_data(jk))
    np.testing.assert_array_equal(
        np.asarray(mlax.random.key_data(mlax.random.wrap_key_data(data, impl=impl))), data)
    assert str(mlax.random.key_dtype(impl)) == str(jax.random.key_dtype(impl))


def test_key_impl_matches_jax():
    for mk, jk in ((mlax.random.key(1), jax.random.key(1)),
                   (mlax.random.PRNGKey(1), jax.random.PRNGKey(1)),
                   (mlax.random.split(mlax.random.key(1), 3),
                    jax.random.split(jax.random.key(1), 3))):
        assert str(mlax.random.key_impl(mk)) == str(jax.random.key_impl(jk))
    # the result names an implementation the constructors accept
    impl = mlax.random.key_impl(mlax.random.key(1))
    np.testing.assert_array_equal(np.asarray(mlax.random.PRNGKey(3, impl=impl)),
                                  np.asarray(jax.random.PRNGKey(3)))


def test_unknown_impl_is_jax_error():
    for bad in ("foo", 3):
        with pytest.raises(Exception) as je:
            jax.random.PRNGKey(0, impl=bad)
        with pytest.raises(type(je.value)) as me:
            mlax.random.PRNGKey(0, impl=bad)
        assert str(me.value) == str(je.value)


@pytest.mark.parametrize("method", ["svd", "eigh"])
def test_multivariate_normal_factor_methods_and_sample_dtype(method):
    """method='svd' / 'eigh' factor a singular covariance too (mlax refused
    them); samples of another dtype than the covariance's come out in their
    common type, as JAX's einsum promotes."""
    m, j = keys(2)
    mean = np.array([1.0, 2.0, 3.0], np.float32)
    singular = np.array([[1.0, 1.0, 0.0], [1.0, 1.0, 0.0], [0.0, 0.0, 2.0]], np.float32)
    for dtype in (None, np.float16):
        got = mr.multivariate_normal(m, mean, singular, (4,), dtype=dtype, method=method)
        want = jax.random.multivariate_normal(j, mean, singular, (4,), dtype=dtype,
                                              method=method)
        assert got.dtype == want.dtype == np.float32 and got.shape == want.shape
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-5, atol=1e-5)
        # The samples lie on the covariance's support: x0 - x1 is mean's.
        np.testing.assert_allclose(np.asarray(got[:, 0] - got[:, 1]), -1.0, atol=2e-3)
    with pytest.raises(ValueError, match="method must be one of"):
        mr.multivariate_normal(m, mean, singular, method="qr")

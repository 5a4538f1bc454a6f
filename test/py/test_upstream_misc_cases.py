"""Cases from JAX's own tests (random_lax_test.py, random_test.py, nn_test.py,
tree_util_test.py, dtypes_test.py, batching_test.py) where mlax disagreed
with JAX, run side by side against JAX: values, dtypes and exception classes.
"""
import numpy as np
import pytest

import jax
import jax.numpy as jnp

import mlax
import mlax.numpy as mnp
import mlax.random as mr


def _check(m, j, rtol=1e-5, atol=1e-6):
    m, j = np.asarray(m), np.asarray(j)
    assert (m.dtype, m.shape) == (j.dtype, j.shape), (m.dtype, m.shape, j.dtype, j.shape)
    wide = np.complex128 if m.dtype.kind == "c" else np.float64
    np.testing.assert_allclose(m.astype(wide), j.astype(wide), rtol=rtol, atol=atol)


# --- random: gamma and its family differentiate in their shape parameters ---
# (JAX's random_gamma_p has a JVP through random_gamma_grad; mlax raised that
# reverse mode does not work through the sampler's while loops. gamma's own
# gradient is checked against scipy below.)

_GAMMA_GRADS = {
    "loggamma": lambda lib, r, n: lib.grad(
        lambda a: r.loggamma(r.PRNGKey(0), a).sum())(n.array([1e-4, 0.1, 1., 10.])),
    "gamma_broadcast_jit": lambda lib, r, n: lib.jit(lib.grad(
        lambda a: r.gamma(r.key(2), a, (4, 2)).sum()))(n.array([0.5, 2.])),
    "vmap_keys": lambda lib, r, n: lib.grad(
        lambda a: lib.vmap(lambda k: r.gamma(k, a))(r.split(r.key(2), 3)).sum())(1.5),
    "rbg": lambda lib, r, n: lib.grad(
        lambda a: r.gamma(r.key(2, impl="rbg"), a, (3,)).sum())(1.5),
}


@pytest.mark.parametrize("name", list(_GAMMA_GRADS))
def test_gamma_family_gradients(name):
    m = _GAMMA_GRADS[name](mlax, mr, mnp)
    j = _GAMMA_GRADS[name](jax, jax.random, jnp)
    for a, b in zip(jax.tree_util.tree_leaves(m), jax.tree_util.tree_leaves(j)):
        _check(a, b)


def test_gamma_gradient_against_scipy():
    # JAX's testGammaGrad: the implicit reparameterization gradient of a
    # sample z is -(d/da CDF(z; a)) / pdf(z; a).
    import scipy.stats
    alphas = np.array([0.01, 0.5, 2.0, 30.0], np.float32)
    z = np.asarray(mr.gamma(mr.PRNGKey(0), mnp.asarray(alphas)), np.float64)
    got = mlax.grad(lambda a: mr.gamma(mr.PRNGKey(0), a).sum())(mnp.asarray(alphas))
    a = alphas.astype(np.float64)
    eps = 0.01 * a / (1.0 + np.sqrt(a))
    cdf_dot = (scipy.stats.gamma.cdf(z, a + eps) - scipy.stats.gamma.cdf(z, a - eps)) / (2 * eps)
    np.testing.assert_allclose(np.asarray(got), -cdf_dot / scipy.stats.gamma.pdf(z, a),
                               rtol=7e-4)


# --- random: complex dtypes (normal, lognormal, orthogonal's unitary draws) ---
# (mlax raised NotImplementedError for normal and lognormal, and refused a
# complex dtype in orthogonal.)

_COMPLEX_DRAWS = {
    "normal": lambda lib, r: r.normal(r.PRNGKey(0), (4, 3), "complex64"),
    "normal_jit_vmap": lambda lib, r: lib.jit(lib.vmap(
        lambda k: r.normal(k, (3,), "complex64")))(r.split(r.key(5), 2)),
    "lognormal": lambda lib, r: r.lognormal(r.PRNGKey(0), 0.5, (4,), "complex64"),
    "orthogonal_wide": lambda lib, r: r.orthogonal(r.PRNGKey(0), 3, (), "complex64", 4),
    "orthogonal_batch": lambda lib, r: r.orthogonal(r.PRNGKey(0), 3, (2,), "complex64"),
}


@pytest.mark.parametrize("name", list(_COMPLEX_DRAWS))
def test_complex_draws(name):
    m = _COMPLEX_DRAWS[name](mlax, mr)
    j = _COMPLEX_DRAWS[name](jax, jax.random)
    m, j = np.asarray(m), np.asarray(j)
    assert (m.dtype, m.shape) == (j.dtype, j.shape)
    np.testing.assert_allclose(m, j, rtol=1e-6, atol=1e-6)
    if name.startswith("orthogonal"):
        q = m if m.shape[-2] >= m.shape[-1] else np.swapaxes(m, -1, -2)
        eye = np.eye(q.shape[-1])
        np.testing.assert_allclose(np.conj(np.swapaxes(q, -1, -2)) @ q,
                                   np.broadcast_to(eye, q.shape[:-2] + eye.shape), atol=1e-5)


# --- random: NumPy integer seeds, an int shape, permutation's axis ---

@pytest.mark.parametrize("seed", [np.uint64(2**64 - 1), np.int64(2**40 + 7), np.int8(-1),
                                  np.uint32(2**32 - 1)])
@pytest.mark.parametrize("impl", ["threefry2x32", "rbg"])
def test_numpy_integer_seeds(seed, impl):
    # A NumPy integer seeds as an array of its (canonicalized) dtype; mlax
    # took it as an int64 (np.uint64's max: OverflowError).
    _check(mr.key_data(mr.key(seed, impl=impl)), jax.random.key_data(jax.random.key(seed, impl=impl)))


def test_numpy_integer_seeds_x64():
    from _helpers import x64
    with x64():
        for seed in [np.uint64(2**64 - 1), np.int64(-5)]:
            _check(mr.PRNGKey(seed), jax.random.PRNGKey(seed))


def test_int_shape():
    # JAX's canonicalize_shape takes a Python int n as (n,); mlax raised.
    _check(mr.normal(mr.PRNGKey(0), 3), jax.random.normal(jax.random.PRNGKey(0), 3))
    _check(mr.key_data(mr.split(mr.PRNGKey(0), 3)),
           jax.random.key_data(jax.random.split(jax.random.PRNGKey(0), 3)))
    for lib in (mr, jax.random):
        with pytest.raises(TypeError):
            lib.normal(lib.PRNGKey(0), np.int64(3))


@pytest.mark.parametrize("axis", [1, 3, -2])
def test_permutation_of_int_checks_axis(axis):
    # (testPermutationErrors: mlax ignored the axis of a range's permutation.)
    for lib in (mr, jax.random):
        with pytest.raises(ValueError):
            lib.permutation(lib.PRNGKey(0), 10, axis=axis)
    _check(mr.permutation(mr.PRNGKey(0), 10, axis=-1),
           jax.random.permutation(jax.random.PRNGKey(0), 10, axis=-1))


# --- random: key arrays' shape methods (JAX's PRNGKeyArray has flatten,
# ravel, reshape, squeeze, swapaxes, take, transpose, T, itemsize; the other
# array methods are abstract: NotImplementedError). mlax had none of them. ---

_KEY_METHODS = {
    "reshape": lambda r: r.split(r.key(0), 6).reshape(2, 3),
    "reshape_tuple_neg": lambda r: r.split(r.key(0), 6).reshape((3, -1)),
    "T": lambda r: r.split(r.key(0), 6).reshape(2, 3).T,
    "transpose_axes": lambda r: r.split(r.key(0), 6).reshape(2, 3, 1).transpose(1, 2, 0),
    "swapaxes": lambda r: r.split(r.key(0), 6).reshape(2, 3).swapaxes(0, -1),
    "ravel": lambda r: r.split(r.key(0), 6).reshape(2, 3).ravel(),
    "squeeze": lambda r: r.split(r.key(0), 6).reshape(1, 6, 1).squeeze(0),
    "take": lambda r: r.split(r.key(0), 6).reshape(2, 3).take(np.array([2, 0]), axis=1),
    "take_flat": lambda r: r.split(r.key(0), 6).reshape(2, 3).take(np.array([4, 1])),
    "rbg_T": lambda r: r.split(r.key(0, impl="rbg"), 4).reshape(2, 2).T,
}


@pytest.mark.parametrize("name", list(_KEY_METHODS))
def test_key_array_shape_methods(name):
    m, j = _KEY_METHODS[name](mr), _KEY_METHODS[name](jax.random)
    assert m.shape == j.shape and str(m.dtype) == str(j.dtype)
    np.testing.assert_array_equal(np.asarray(mr.key_data(m)), np.asarray(jax.random.key_data(j)))


def test_key_array_methods_under_jit_and_errors():
    f = lambda r, lib: lib.jit(lambda k: lib.vmap(lib.vmap(r.uniform))(k.reshape(3, 2).T))(
        r.split(r.key(1), 6))
    _check(f(mr, mlax), f(jax.random, jax))
    for r in (mr, jax.random):
        k = r.split(r.key(0), 6)
        assert (k.itemsize, k.nbytes) == (8, 48)
        with pytest.raises(TypeError):
            k.reshape(4, 2)
        with pytest.raises(NotImplementedError):
            k.astype("int32")
        with pytest.raises(NotImplementedError):
            k.sum()


# --- nn: dot_product_attention's local_window_size, its implementation
# check, one_hot of a list (testOneHotNonArrayInput) ---

def _qkv(n):
    return (n.linspace(0, 1, 60).reshape(2, 5, 2, 3), n.linspace(0, 1, 48).reshape(2, 4, 2, 3),
            n.arange(48.).reshape(2, 4, 2, 3))


_ATTENTION = {
    "window": lambda lib, nn, n: nn.dot_product_attention(*_qkv(n), local_window_size=(1, 2)),
    "window_int": lambda lib, nn, n: nn.dot_product_attention(*_qkv(n), local_window_size=1),
    "window_causal": lambda lib, nn, n: nn.dot_product_attention(
        *_qkv(n), local_window_size=(2, 0), is_causal=True),
    "window_grad": lambda lib, nn, n: lib.grad(lambda q: nn.dot_product_attention(
        q, *_qkv(n)[1:], local_window_size=(0, 2)).sum())(_qkv(n)[0]),
    "one_hot_list": lambda lib, nn, n: nn.one_hot([0, 1, 2], 3),
}


@pytest.mark.parametrize("name", list(_ATTENTION))
def test_attention_window_and_one_hot_list(name):
    # (float32 sums of products up to 47: the gradient's ulps differ)
    _check(_ATTENTION[name](mlax, mlax.nn, mnp), _ATTENTION[name](jax, jax.nn, jnp), rtol=1e-4)


def test_attention_unknown_implementation():
    x = np.ones((2, 4, 2, 3), np.float32)
    for nn in (mlax.nn, jax.nn):
        with pytest.raises(ValueError, match="Unsupported implementation option: foo"):
            nn.dot_product_attention(x, x, x, implementation="foo")


# --- nn.initializers: complex dtypes (JAX's testInitializer runs the
# variance-scaling family over jtu.dtypes.inexact); mlax raised
# NotImplementedError ---

@pytest.mark.parametrize("name,shape", [("glorot_normal", (3, 2)), ("he_uniform", (2, 3, 4))])
def test_complex_initializers(name, shape):
    m = getattr(mlax.nn.initializers, name)()(mr.PRNGKey(0), shape, "complex64")
    j = getattr(jax.nn.initializers, name)()(jax.random.PRNGKey(0), shape, "complex64")
    _check(m, j)
    m = mlax.nn.initializers.variance_scaling(1.0, "fan_in", "uniform", dtype="complex64")(
        mr.PRNGKey(1), shape)
    j = jax.nn.initializers.variance_scaling(1.0, "fan_in", "uniform", dtype="complex64")(
        jax.random.PRNGKey(1), shape)
    _check(m, j)


# --- dtypes: promote_types of the Python types int, float, complex (JAX's
# weak types: promote_types(float, float32) is float32; mlax made them
# strong, float64 even without x64), and the strict lattice ---

_PROMOTE = [int, float, complex, bool, "bool", "int8", "uint32", "uint64", "float16", "bfloat16",
            "float32", "complex64", "int4"]


@pytest.mark.parametrize("promotion", ["standard", "strict"])
def test_promote_types_python_types(promotion):
    def outcome(np_, a, b):
        try:
            return str(np_.promote_types(a, b))
        except Exception as e:  # noqa: BLE001 (the class is compared)
            return type(e).__name__
    old = mlax.config.jax_numpy_dtype_promotion, jax.config.jax_numpy_dtype_promotion
    try:
        mlax.config.update("jax_numpy_dtype_promotion", promotion)
        jax.config.update("jax_numpy_dtype_promotion", promotion)
        for a in _PROMOTE:
            for b in _PROMOTE:
                assert outcome(mnp, a, b) == outcome(jnp, a, b), (a, b)
    finally:
        mlax.config.update("jax_numpy_dtype_promotion", old[0])
        jax.config.update("jax_numpy_dtype_promotion", old[1])


@pytest.mark.parametrize("value", [2**64, -2**63 - 1, (1, 2**70)])
def test_asarray_of_too_large_int(value):
    # JAX's OverflowError; mlax raised TypeError (NumPy's object array).
    for np_ in (mnp, jnp):
        with pytest.raises(OverflowError):
            np_.asarray(value)


# --- random: key arrays through jnp's functions that take JAX's (asarray,
# array, concatenate, stack, where, broadcast_to, expand_dims); mlax raised
# that a key array is not a valid mlax type ---

_KEY_NUMPY = {
    "concatenate": lambda r, n: n.concatenate([r.split(r.key(0), 2), r.split(r.key(1), 3)]),
    "concatenate_axis": lambda r, n: n.concatenate(
        [r.split(r.key(0), (2, 2)), r.split(r.key(1), (2, 1))], axis=-1),
    "stack_axis": lambda r, n: n.stack([r.split(r.key(0), 3), r.split(r.key(1), 3)], axis=1),
    "where": lambda r, n: n.where(np.array([True, False]), r.split(r.key(0)), r.split(r.key(1))),
    "where_broadcast": lambda r, n: n.where(True, r.key(0), r.split(r.key(1))),
    "broadcast_to": lambda r, n: n.broadcast_to(r.split(r.key(0), 2), (3, 2)),
    "expand_dims": lambda r, n: n.expand_dims(r.split(r.key(0), 2), (0, 2)),
    "asarray": lambda r, n: n.asarray(r.key(0)),
    "array": lambda r, n: n.array(r.split(r.key(0), 2)),
}


@pytest.mark.parametrize("name", list(_KEY_NUMPY))
def test_key_arrays_through_numpy(name):
    m, j = _KEY_NUMPY[name](mr, mnp), _KEY_NUMPY[name](jax.random, jnp)
    assert m.shape == j.shape and str(m.dtype) == str(j.dtype)
    np.testing.assert_array_equal(np.asarray(mr.key_data(m)), np.asarray(jax.random.key_data(j)))


def test_key_arrays_through_numpy_jit_and_errors():
    f = lambda lib, r, n: r.key_data(lib.jit(lambda c, a, b: n.stack([n.where(c, a, b), a]))(
        np.array([True, False]), r.split(r.key(0)), r.split(r.key(1))))
    np.testing.assert_array_equal(np.asarray(f(mlax, mr, mnp)), np.asarray(f(jax, jax.random, jnp)))
    for r, n in ((mr, mnp), (jax.random, jnp)):
        for bad in (lambda: n.concatenate([r.key(0), r.key(1)]),
                    lambda: n.concatenate([r.split(r.key(0)), np.zeros(2, np.uint32)]),
                    lambda: n.where(True, r.key(0), 1),
                    lambda: n.asarray(r.key(0), dtype="uint32")):
            with pytest.raises(ValueError):
                bad()


def test_grad_allow_int_of_key_arrays():
    # (test_grad_of_prng_key: float0 zeros of the key array's shape; mlax
    # returned a key array wrapping float0 data, whose shape raised.)
    for lib, r in ((mlax, mr), (jax, jax.random)):
        g = lib.grad(lambda x, k: x * 2., argnums=(0, 1), allow_int=True)(1., r.split(r.key(0), 3))
        assert np.asarray(g[1]).shape == (3,) and np.asarray(g[1]).dtype == jax.dtypes.float0
        with pytest.raises(TypeError):
            lib.grad(lambda k: 1.)(r.key(0))


# --- debug.callback / debug.print hand the callback arrays (JAX's device
# arrays), not NumPy arrays: a pytree printed shows Array(...) as JAX's ---

def test_debug_callback_gets_arrays():
    import contextlib
    import io

    def run(lib, n):
        seen = []
        lib.jit(lambda x: lib.debug.callback(lambda y: seen.append(y), x) or x)(n.arange(2))
        lib.effects_barrier()
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            lib.debug.print("{}", {"a": n.arange(2)})
            lib.jit(lambda x: lib.debug.print("{x}", x={"b": x}))(n.arange(2.))
            lib.effects_barrier()
        return seen, buf.getvalue()

    (m_seen, m_out), (j_seen, j_out) = run(mlax, mnp), run(jax, jnp)
    assert isinstance(m_seen[0], mlax.Array) and isinstance(j_seen[0], jax.Array)
    np.testing.assert_array_equal(np.asarray(m_seen[0]), np.asarray(j_seen[0]))
    assert m_out == j_out


# --- checkify: div_checks report a zero divisor of any dtype (JAX's
# div_error_check); mlax checked integer divisions only, so a float x / 0
# reported nothing, or the NaN it made ---

@pytest.mark.parametrize("name", ["float", "complex", "before_nan", "vmap"])
def test_checkify_division_by_zero_of_floats(name):
    from jax.experimental import checkify as jc
    from mlax.experimental import checkify as mc

    cases = {
        "float": lambda lib, n, c: c.checkify(lambda x, y: x / y, errors=c.div_checks)(
            n.arange(3.), n.array([1., 0., 2.])),
        "complex": lambda lib, n, c: c.checkify(lambda x, y: x / y, errors=c.div_checks)(
            n.ones(2, n.complex64), n.zeros(2, n.complex64)),
        "before_nan": lambda lib, n, c: c.checkify(lambda x: n.sin(x) / 0, errors=c.all_checks)(
            n.arange(3.)),
        "vmap": lambda lib, n, c: c.checkify(lib.vmap(lambda x, y: x / y), errors=c.div_checks)(
            n.arange(3.), n.array([1., 0., 2.])),
    }
    (m_err, m_out), (j_err, j_out) = cases[name](mlax, mnp, mc), cases[name](jax, jnp, jc)
    assert m_err.get() == j_err.get() and j_err.get() is not None
    np.testing.assert_array_equal(np.asarray(m_out), np.asarray(j_out))

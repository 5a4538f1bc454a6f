"""jax_default_matmul_precision (mlax.default_matmul_precision): the
precision of products and convolutions that name none, against JAX's, bit
for bit on this platform, errors included."""
import numpy as np
import pytest

import jax
import jax.numpy as jnp

import mlax
import mlax.numpy as mnp

RNG = np.random.default_rng(0)
A = RNG.standard_normal((8, 8)).astype(np.float32)
IMG = RNG.standard_normal((1, 2, 6, 6)).astype(np.float32)
W = RNG.standard_normal((1, 2, 3, 3)).astype(np.float32)


def outcome(fn):
    try:
        out = np.asarray(fn())
        return ("ok", out.dtype.name, out.tobytes())
    except Exception as e:  # noqa: BLE001
        return (type(e).__name__, str(e))


PRODUCTS = {
    "dot": lambda L, np_: np_.dot(A, A),
    "jit matmul": lambda L, np_: L.jit(np_.matmul)(A, A),
    "einsum": lambda L, np_: np_.einsum("ij,jk", A, A),
    "lax.dot_general": lambda L, np_: L.lax.dot_general(A, A, (((1,), (0,)), ((), ()))),
    "conv": lambda L, np_: L.lax.conv(IMG, W, (1, 1), "SAME"),
    "explicit precision wins": lambda L, np_: np_.dot(A, A, precision="highest"),
}


@pytest.mark.parametrize("value", [None, "bfloat16", "float32", "highest", "F16_F16_F32",
                                   "BF16_BF16_F32", "F64_F64_F64", "F16_F16_F16"])
@pytest.mark.parametrize("product", list(PRODUCTS.values()), ids=list(PRODUCTS))
def test_products_under_a_default_precision_as_jax(product, value):
    with jax.default_matmul_precision(value):
        theirs = outcome(lambda: product(jax, jnp))
    with mlax.default_matmul_precision(value):
        assert mlax.config.jax_default_matmul_precision == value
        ours = outcome(lambda: product(mlax, mnp))
    assert ours == theirs
    assert mlax.config.jax_default_matmul_precision is None


def test_a_jitted_function_follows_the_setting_it_is_called_under():
    f = mlax.jit(lambda x: x @ x)
    default = np.asarray(f(A))
    with mlax.default_matmul_precision("F64_F64_F64"):
        in64 = np.asarray(f(A))
    with jax.default_matmul_precision("F64_F64_F64"):
        want = np.asarray(jax.jit(lambda x: x @ x)(A))
    np.testing.assert_array_equal(in64, want)
    np.testing.assert_array_equal(np.asarray(f(A)), default)


def test_invalid_values_are_jaxs_error():
    with pytest.raises(ValueError) as ours:
        mlax.config.update("jax_default_matmul_precision", "bad")
    try:
        with pytest.raises(ValueError) as theirs:
            jax.config.update("jax_default_matmul_precision", "bad")
    finally:
        jax.config.update("jax_default_matmul_precision", None)
    assert str(ours.value) == str(theirs.value)
    assert mlax.config.jax_default_matmul_precision is None
    mlax.config.update("default_matmul_precision", "float32")  # JAX's short alias
    try:
        assert mlax.config.jax_default_matmul_precision == "float32"
    finally:
        mlax.config.update("default_matmul_precision", None)

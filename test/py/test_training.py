"""The linear-regression example of JAX's tutorial (the seed document), in
mlax and in JAX side by side: random data from PRNGKey(0), a vmapped loss,
grad with argnums, 101 jitted steps on W, b and then on a pytree of params,
and value_and_grad. Every loss must match JAX's to 1e-6."""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mlax
import mlax.numpy as mnp


def _example(api, lib, random, tree_map):
    def predict(W, b, x):
        return lib.dot(x, W) + b

    def mse(W, b, x_batched, y_batched):
        def squared_error(x, y):
            y_pred = predict(W, b, x)
            return lib.inner(y - y_pred, y - y_pred) / 2.0
        return lib.mean(api.vmap(squared_error)(x_batched, y_batched), axis=0)

    n_samples, x_dim, y_dim = 20, 10, 5
    key = random.PRNGKey(0)
    k1, k2 = random.split(key)
    W = random.normal(k1, (x_dim, y_dim))
    b = random.normal(k2, (y_dim,))
    key_sample, key_noise = random.split(k1)
    x_samples = random.normal(key_sample, (n_samples, x_dim))
    y_samples = predict(W, b, x_samples) + 0.1 * random.normal(key_noise, (n_samples, y_dim))

    @api.jit
    def update_params(W, b, x, y, lr):
        return W - lr * api.grad(mse, 0)(W, b, x, y), b - lr * api.grad(mse, 1)(W, b, x, y)

    losses = {"true": float(mse(W, b, x_samples, y_samples))}
    W_hat, b_hat = lib.zeros_like(W), lib.zeros_like(b)
    steps = []
    for i in range(101):
        W_hat, b_hat = update_params(W_hat, b_hat, x_samples, y_samples, 0.3)
        if i % 5 == 0:
            steps.append(float(mse(W_hat, b_hat, x_samples, y_samples)))
    losses["steps"] = steps

    def mse_pytree(params, x_batched, y_batched):
        return mse(params["W"], params["b"], x_batched, y_batched)

    @api.jit
    def update_params_pytree(params, learning_rate, x_samples, y_samples):
        return tree_map(lambda p, g: p - learning_rate * g, params,
                        api.grad(mse_pytree)(params, x_samples, y_samples))

    params = {"W": lib.zeros_like(W), "b": lib.zeros_like(b)}
    losses["first_grad"] = {k: np.asarray(v) for k, v in
                            api.grad(mse_pytree)(params, x_samples, y_samples).items()}
    tree_steps = []
    for i in range(101):
        params = update_params_pytree(params, 0.3, x_samples, y_samples)
        if i % 5 == 0:
            tree_steps.append(float(mse_pytree(params, x_samples, y_samples)))
    losses["tree_steps"] = tree_steps

    loss_grad_fn = api.value_and_grad(mse_pytree)
    vg_steps = []
    for i in range(31):
        loss_val, grads = loss_grad_fn(params, x_samples, y_samples)
        params = tree_map(lambda p, g: p - 0.3 * g, params, grads)
        if i % 5 == 0:
            vg_steps.append(float(loss_val))
    losses["value_and_grad_steps"] = vg_steps
    losses["data"] = (np.asarray(x_samples), np.asarray(y_samples))
    return losses


def test_linear_regression_tutorial_matches_jax():
    m = _example(mlax, mnp, mlax.random, mlax.tree_util.tree_map)
    j = _example(jax, jnp, jax.random, jax.tree_util.tree_map)
    # the random data is bit-for-bit JAX's
    for a, b in zip(m["data"], j["data"]):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6)
    assert m["true"] == pytest.approx(j["true"], rel=1e-6, abs=1e-6)
    for k in ("W", "b"):
        np.testing.assert_allclose(m["first_grad"][k], j["first_grad"][k], rtol=1e-5, atol=1e-6)
    for key in ("steps", "tree_steps", "value_and_grad_steps"):
        np.testing.assert_allclose(m[key], j[key], rtol=1e-6, atol=1e-6, err_msg=key)
    # and it converges, as the tutorial shows
    assert m["steps"][0] > 1.0 and m["steps"][-1] < 0.02
    assert m["tree_steps"] == pytest.approx(m["steps"], rel=1e-6)

"""vmap: the `mlax-vectorize` pass against jax.vmap and against a Python loop
over examples, for every op (the autodiff op table), several in_axes and
out_axes, nesting, and composition with jit and grad."""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mlax
import mlax.numpy as mnp

from _helpers import make_input
from test_autodiff import OPS, _impl, _inputs

B = 3


def _batch(specs, in_axes, seed=0):
    """Per-argument batched inputs: B examples stacked along each in_axis."""
    out = []
    for i, ((shape, kind), axis) in enumerate(zip(specs, in_axes)):
        if axis is None:
            out.append(make_input(shape, np.float32, kind, seed=seed + i))
            continue
        examples = [make_input(shape, np.float32, kind, seed=seed + 10 * i + k) for k in range(B)]
        out.append(np.stack(examples, axis=axis))
    return out


def _loop(f, args, in_axes, out_axis=0):
    results = []
    for k in range(B):
        ex = [a if ax is None else np.take(a, k, axis=ax) for a, ax in zip(args, in_axes)]
        results.append(np.asarray(f(*ex)))
    return np.stack(results, axis=out_axis)


def _axes_variants(specs):
    n = len(specs)
    variants = [tuple([0] * n)]
    last = tuple([-1] + [None] * (n - 1))
    variants.append(last)
    if n > 1:
        variants.append(tuple([None] + [0] * (n - 1)))
    return variants


@pytest.mark.parametrize("case", OPS, ids=[c[0] for c in OPS])
def test_each_op_under_vmap_matches_loop_and_jax(case):
    specs = case[2]
    fm, fj = _impl(case, "mlax"), _impl(case, "jax")
    for in_axes in _axes_variants(specs):
        args = _batch(specs, [a if a is None else (a % (len(s[0]) + 1)) for a, s in
                              zip(in_axes, specs)])
        got = mlax.vmap(fm, in_axes=in_axes)(*args)
        want = jax.vmap(fj, in_axes=in_axes)(*args)
        assert got.shape == want.shape and got.dtype == want.dtype, in_axes
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=2e-5, atol=2e-6,
                                   err_msg=str(in_axes))
        norm = [a if a is None else a % (len(s[0]) + 1) for a, s in zip(in_axes, specs)]
        np.testing.assert_allclose(np.asarray(got), _loop(fj, args, norm), rtol=2e-5,
                                   atol=2e-6, err_msg=str(in_axes))


@pytest.mark.parametrize("out_axes", [0, 1, -1])
def test_out_axes(out_axes):
    x = np.arange(24.0, dtype=np.float32).reshape(4, 2, 3)
    got = mlax.vmap(lambda v: mnp.sin(v) * 2, out_axes=out_axes)(x)
    want = jax.vmap(lambda v: jnp.sin(v) * 2, out_axes=out_axes)(x)
    assert got.shape == want.shape
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-6)


def test_out_axes_none_for_unbatched_output_and_pytrees():
    x = np.arange(6.0, dtype=np.float32).reshape(3, 2)
    w = np.float32(2.0)
    out = mlax.vmap(lambda a, w: {"y": a * w, "w": w * 1.0}, in_axes=(0, None),
                    out_axes={"y": 1, "w": None})(x, w)
    assert out["y"].shape == (2, 3) and out["w"].shape == ()
    np.testing.assert_allclose(np.asarray(out["y"]), (x * 2).T)
    tree_in = {"a": x, "b": (x[:, 0], np.float32(1.0))}
    got = mlax.vmap(lambda t: t["a"].sum() + t["b"][0] * t["b"][1],
                    in_axes=({"a": 0, "b": (0, None)},))(tree_in)
    np.testing.assert_allclose(np.asarray(got), x.sum(1) + x[:, 0])


def test_seed_apply_matrix_batch_of_ten():
    rng = np.random.default_rng(1)
    mat = rng.standard_normal((150, 100)).astype(np.float32)
    batched_x = rng.standard_normal((10, 100)).astype(np.float32)

    def apply_matrix(v):
        return mnp.dot(mat, v)

    def batched_apply_matrix(v_batched):
        return mnp.dot(v_batched, mat.T)

    got = mlax.vmap(apply_matrix)(batched_x)
    np.testing.assert_allclose(np.asarray(got), np.asarray(batched_apply_matrix(batched_x)),
                               atol=1e-4, rtol=1e-5)
    jitted = mlax.jit(mlax.vmap(apply_matrix))
    np.testing.assert_allclose(np.asarray(jitted(batched_x)), batched_x @ mat.T, atol=1e-4,
                               rtol=1e-5)
    # the batched program is one matrix product: no per-example loop or slice
    text = jitted.lower(batched_x).as_text()
    assert text.count("stablehlo.dot_general") == 1
    for op in ("stablehlo.while", "stablehlo.slice", "stablehlo.dynamic_slice"):
        assert op not in text


def test_per_example_gradients():
    def loss(lib):
        def f(params, x, y):
            h = lib.tanh(x @ params["W"] + params["b"])
            return lib.sum((h - y) ** 2)
        return f
    rng = np.random.default_rng(2)
    params = {"W": rng.standard_normal((4, 3)).astype(np.float32),
              "b": rng.standard_normal(3).astype(np.float32)}
    xs = rng.standard_normal((8, 4)).astype(np.float32)
    ys = rng.standard_normal((8, 3)).astype(np.float32)
    got = mlax.vmap(mlax.grad(loss(mnp)), in_axes=(None, 0, 0))(params, xs, ys)
    want = jax.vmap(jax.grad(loss(jnp)), in_axes=(None, 0, 0))(params, xs, ys)
    assert got["W"].shape == (8, 4, 3) and got["b"].shape == (8, 3)
    for k in params:
        np.testing.assert_allclose(np.asarray(got[k]), np.asarray(want[k]), rtol=1e-5,
                                   atol=1e-6)
    jitted = mlax.jit(mlax.vmap(mlax.grad(loss(mnp)), in_axes=(None, 0, 0)))
    for k in params:
        np.testing.assert_allclose(np.asarray(jitted(params, xs, ys)[k]), np.asarray(want[k]),
                                   rtol=1e-5, atol=1e-6)
    # and grad of a vmapped loss: the sum of the per-example gradients
    total = mlax.grad(lambda p: mnp.sum(mlax.vmap(loss(mnp), in_axes=(None, 0, 0))(p, xs, ys)))(
        params)
    for k in params:
        np.testing.assert_allclose(np.asarray(total[k]), np.asarray(want[k]).sum(0),
                                   rtol=1e-4, atol=1e-5)


def test_nested_vmap_and_jit():
    a = np.arange(6.0, dtype=np.float32).reshape(2, 3)
    b = np.arange(12.0, dtype=np.float32).reshape(4, 3)
    outer = mlax.vmap(mlax.vmap(lambda x, y: mnp.dot(x, y), in_axes=(None, 0)), in_axes=(0, None))
    np.testing.assert_allclose(np.asarray(outer(a, b)), a @ b.T)
    np.testing.assert_allclose(np.asarray(mlax.jit(outer)(a, b)), a @ b.T)
    inner_jit = mlax.vmap(mlax.jit(lambda x: mnp.sum(x ** 2)))
    np.testing.assert_allclose(np.asarray(inner_jit(a)), (a ** 2).sum(1))


def test_axis_size_with_no_mapped_inputs():
    out = mlax.vmap(lambda: mnp.ones(2), in_axes=(), axis_size=3)()
    assert out.shape == (3, 2)
    with pytest.raises(ValueError, match="at least one non-None value in in_axes"):
        mlax.vmap(lambda x: x, in_axes=None)(np.ones(3))


def test_vmap_errors_as_jax():
    with pytest.raises(ValueError, match="inconsistent sizes for array axes to be mapped"):
        mlax.vmap(lambda x, y: x + y)(np.ones(3), np.ones(4))
    with pytest.raises(ValueError, match="vmap was requested to map its argument along axis 2, "
                                         "which implies that its rank should be at least 3, "
                                         r"but is only 2 \(its shape is \(3, 4\)\)"):
        mlax.vmap(lambda x: x, in_axes=2)(np.ones((3, 4)))
    with pytest.raises(ValueError, match=r"len\(in_axes\)=2, len\(args\)=1"):
        mlax.vmap(lambda x: x, in_axes=(0, 0))(np.ones(3))
    with pytest.raises(mlax.CompileError, match="out_axes is none"):
        mlax.vmap(lambda x: x * 2, out_axes=None)(np.ones(3))


def test_jacobians_by_vmap_match_jax():
    f = lambda x: mnp.sin(x) * mnp.sum(x ** 2)  # noqa: E731
    fj = lambda x: jnp.sin(x) * jnp.sum(x ** 2)  # noqa: E731
    x = np.array([0.1, 0.5, -0.3, 1.2], np.float32)
    np.testing.assert_allclose(np.asarray(mlax.jacfwd(f)(x)), np.asarray(jax.jacfwd(fj)(x)),
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.asarray(mlax.jacrev(f)(x)), np.asarray(jax.jacrev(fj)(x)),
                               rtol=1e-5, atol=1e-6)


def test_unmapped_python_scalars_reach_the_function_as_they_are():
    """in_axes None Python scalars are passed through, as JAX's vmap passes
    them: a jit may take one as a static argument, Python may branch on it."""
    import functools

    def run(lib):
        @functools.partial(lib.jit, static_argnums=1)
        def scale(x, n):
            return x * n
        x = np.arange(3.0, dtype=np.float32)
        branch = lambda x, n: x * n if n > 0 else -x  # noqa: E731
        return [lib.vmap(scale, in_axes=(0, None))(x, 3),
                lib.vmap(branch, in_axes=(0, None))(x, -2),
                lib.vmap(branch, in_axes=(0, None))(x, 2)]
    for got, want in zip(run(mlax), run(jax)):
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(np.asarray(got), np.asarray(want))

"""linearize and linear_transpose against JAX: values, dtypes, pytrees and
errors, eagerly and under jit and vmap."""
import numpy as np
import pytest

import jax
import jax.numpy as jnp

import mlax
import mlax.numpy as mnp


def _same(ours, theirs, weak=True):
    o_leaves, o_tree = jax.tree.flatten(ours)
    t_leaves, t_tree = jax.tree.flatten(theirs)
    assert o_tree == t_tree
    for o, t in zip(o_leaves, t_leaves):
        if not isinstance(t, np.ndarray):  # JAX's eager outputs of Python scalars
            t = jnp.asarray(t)
        np.testing.assert_allclose(np.asarray(o), np.asarray(t), rtol=1e-6, atol=1e-6)
        assert np.asarray(o).dtype == np.asarray(t).dtype
        if weak:
            assert getattr(o, "weak_type", False) == getattr(t, "weak_type", False)


def _pair(m, j):
    def f(x, y):
        return {"p": x * y, "s": m.sin(x) + m.sum(y)}
    return f


X = np.float32(0.7)
Y = np.array([1.0, -2.0, 0.5], np.float32)
TX, TY = np.float32(1.5), np.array([0.1, 0.2, 0.3], np.float32)


def test_linearize_pytrees_eagerly():
    out, f_jvp = mlax.linearize(_pair(mnp, None), X, Y)
    out_j, f_jvp_j = jax.linearize(_pair(jnp, None), X, Y)
    _same(out, out_j)
    _same(f_jvp(TX, TY), f_jvp_j(TX, TY))
    _same(f_jvp(2 * TX, -TY), f_jvp_j(2 * TX, -TY))  # the same point, other tangents
    # f_jvp is a pytree: the primals are its leaves, as JAX's consts.
    assert isinstance(f_jvp, mlax.tree_util.Partial)


def test_linearize_weak_scalars_and_has_aux():
    f = lambda x: (3.0 * mnp.sin(x) + mnp.cos(x / 2.0), x * 2)  # noqa: E731
    fj = lambda x: (3.0 * jnp.sin(x) + jnp.cos(x / 2.0), x * 2)  # noqa: E731
    y, lin, aux = mlax.linearize(f, 2.0, has_aux=True)
    y_j, lin_j, aux_j = jax.linearize(fj, 2.0, has_aux=True)
    _same((y, lin(3.0), aux), (y_j, lin_j(3.0), aux_j))
    with pytest.raises(TypeError, match="two-element tuple"):
        mlax.linearize(lambda x: (x, x, x), 1.0, has_aux=True)


def test_linearize_integer_primals_and_outputs_have_float0_tangents():
    f = lambda x, n: (x * n, n)  # noqa: E731
    (y, n), lin = mlax.linearize(f, 2.0, 3)
    (y_j, n_j), lin_j = jax.linearize(f, 2.0, 3)
    zero = np.zeros((), mlax.float0)
    t, tn = lin(1.0, zero)
    t_j, tn_j = lin_j(1.0, np.zeros((), jax.dtypes.float0))
    np.testing.assert_allclose(t, t_j)
    assert tn.dtype == tn_j.dtype == mlax.float0
    with pytest.raises(ValueError, match=r"expected ~float0\[\]") as ours:
        lin(1.0, 1)
    with pytest.raises(ValueError, match=r"expected ~float0\[\]") as theirs:
        lin_j(1.0, 1)
    assert str(ours.value) == str(theirs.value)


def test_linearize_errors_as_jax():
    _, lin = mlax.linearize(_pair(mnp, None), X, Y)
    _, lin_j = jax.linearize(_pair(jnp, None), X, Y)
    for bad, exc in (((TX,), TypeError), ((TX, TY[:2]), ValueError)):
        with pytest.raises(exc) as ours:
            lin(*bad)
        with pytest.raises(exc) as theirs:
            lin_j(*bad)
        assert str(ours.value) == str(theirs.value)
    with pytest.raises(TypeError, match="Expected a callable value, got 3"):
        mlax.linearize(3, 1.0)


def test_linearize_under_jit_and_vmap():
    # Made inside jit, returned from it (a pytree), called outside and under vmap.
    y, lin = mlax.jit(lambda x: mlax.linearize(mnp.sin, x))(1.0)
    y_j, lin_j = jax.jit(lambda x: jax.linearize(jnp.sin, x))(1.0)
    ts = np.arange(3, dtype=np.float32)
    _same((y, lin(2.0)), (y_j, lin_j(2.0)))
    # (Weak types as mlax.jvp gives them: the primal output's; JAX's
    # linearize follows the tangents' dataflow instead.)
    _same(mlax.vmap(lin)(ts), jax.vmap(lin_j)(ts), weak=False)
    # Used inside jit.
    g = mlax.jit(lambda x, t: mlax.linearize(lambda v: v ** 3, x)[1](t))
    g_j = jax.jit(lambda x, t: jax.linearize(lambda v: v ** 3, x)[1](t))
    _same(g(Y, TY), g_j(Y, TY))


def test_linear_transpose_pytrees_and_shape_dtype_structs():
    def f(m, d):
        return {"a": d["x"] * 2.0, "b": m.sum(d["y"]) - d["x"][0]}
    sds = {"x": np.ones(3, np.float32), "y": mlax.ShapeDtypeStruct((2,), np.float32)}
    sds_j = {"x": np.ones(3, np.float32), "y": jax.ShapeDtypeStruct((2,), np.float32)}
    t = mlax.linear_transpose(lambda d: f(mnp, d), sds)
    t_j = jax.linear_transpose(lambda d: f(jnp, d), sds_j)
    ct = {"a": np.arange(3, dtype=np.float32), "b": np.float32(2.0)}
    # Weak types follow JAX's rule where primals are Python scalars (below);
    # JAX's transpose of sum gives a weak cotangent, mlax's a strong one.
    _same(t(ct), t_j(ct), weak=False)
    _same(mlax.jit(t)(ct), t_j(ct), weak=False)


def test_linear_transpose_scalars_and_errors():
    f = lambda x, y: 0.5 * x - y  # noqa: E731
    t = mlax.linear_transpose(f, 1.0, np.float32(2.0))
    t_j = jax.linear_transpose(f, 1.0, np.float32(2.0))
    # Weak types as mlax.vjp gives them (weak where the primal and the
    # cotangent are); JAX's follow the cotangents' dataflow.
    _same(t(1.0), t_j(1.0), weak=False)
    _same(t(np.float32(1.0))[1], t_j(np.float32(1.0))[1])
    for bad in (np.ones(2, np.float32), (1.0,), np.int32(1)):
        with pytest.raises(TypeError) as ours:
            t(bad)
        with pytest.raises(TypeError) as theirs:
            t_j(bad)
        assert str(ours.value).split(",")[0] == str(theirs.value).split(",")[0]
    g = lambda x: x.astype(np.int32)  # noqa: E731
    with pytest.raises(TypeError) as ours:
        mlax.linear_transpose(g, 1.0)
    with pytest.raises(TypeError) as theirs:
        jax.linear_transpose(g, 1.0)
    assert str(ours.value) == str(theirs.value)
    with pytest.raises(NotImplementedError, match="reduce_axes"):
        mlax.linear_transpose(f, 1.0, 1.0, reduce_axes=("i",))
    with pytest.raises(NotImplementedError, match="integer -> integer"):
        mlax.linear_transpose(lambda x: 2 * x, 3)


def test_linear_transpose_under_vmap_matches_the_matrix_transpose():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    t = mlax.linear_transpose(lambda x: mnp.asarray(a) @ x, np.zeros(3, np.float32))
    cts = np.eye(2, dtype=np.float32)
    (rows,) = mlax.vmap(t)(cts)
    np.testing.assert_allclose(rows, a)  # row i: a.T @ e_i


def test_fwd_and_bwd_as_jax_compiles_bwd_once():
    f = lambda m: lambda x, w: m.tanh(x @ w)  # noqa: E731
    fwd, bwd = mlax.fwd_and_bwd(f(mnp), argnums=(0, 1))
    fwd_j, bwd_j = jax.fwd_and_bwd(f(jnp), argnums=(0, 1))
    x = np.arange(6, dtype=np.float32).reshape(2, 3) / 6
    w = np.ones((3, 2), np.float32)
    ct = np.ones((2, 2), np.float32)
    for scale in (1.0, 2.0):
        y, res = fwd(x, w * scale)
        y_j, res_j = fwd_j(x, w * scale)
        _same((y, bwd(res, ct)), (y_j, bwd_j(res_j, ct)))
    assert fwd.cache_misses == bwd.cache_misses == 1
    fwd, bwd = mlax.fwd_and_bwd(lambda x, y: (x * y, y), argnums=1, has_aux=True, jitted=False)
    fwd_j, bwd_j = jax.fwd_and_bwd(lambda x, y: (x * y, y), argnums=1, has_aux=True,
                                   jitted=False)
    y, res, aux = fwd(2.0, 3.0)
    y_j, res_j, aux_j = fwd_j(2.0, 3.0)
    _same((y, aux, bwd(res, 1.0)), (y_j, aux_j, bwd_j(res_j, 1.0)))

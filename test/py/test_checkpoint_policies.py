"""mlax.checkpoint with JAX's rematerialisation policies, against jax.checkpoint:
values and derivatives for every policy, eagerly and under jit; the
everything-saving decision (a plain call instead of a remat_call); JAX's
TypeError for a policy result that is not a decision, only when
differentiated."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mlax
import mlax.numpy as mnp
from mlax.ad_checkpoint import checkpoint_name as m_name
from jax.ad_checkpoint import checkpoint_name as j_name


def _f(np_, name):
    def f(x, w):
        h = np_.sin(x @ w)
        h = name(h, "h")
        g = name(np_.tanh(h) * x, "g")
        return np_.sum(g @ w.T * h)
    return f


def _policies(cp):
    return {
        "none": None,
        "everything_saveable": cp.everything_saveable,
        "nothing_saveable": cp.nothing_saveable,
        "dots_saveable": cp.dots_saveable,
        "checkpoint_dots": cp.checkpoint_dots,
        "dots_with_no_batch_dims_saveable": cp.dots_with_no_batch_dims_saveable,
        "checkpoint_dots_with_no_batch_dims": cp.checkpoint_dots_with_no_batch_dims,
        "save_only_these_names": cp.save_only_these_names("h"),
        "save_any_names_but_these": cp.save_any_names_but_these("h"),
        "save_anything_except_these_names": cp.save_anything_except_these_names("g"),
        "save_from_both_policies": cp.save_from_both_policies(
            cp.dots_saveable, cp.save_only_these_names("g")),
        "offload_dot_with_no_batch_dims": cp.offload_dot_with_no_batch_dims(
            "device", "pinned_host"),
        "save_and_offload_only_these_names": cp.save_and_offload_only_these_names(
            names_which_can_be_saved=["h"], names_which_can_be_offloaded=["g"],
            offload_src="device", offload_dst="pinned_host"),
    }


def test_policy_names_match_jax():
    theirs = {n for n in dir(jax.checkpoint_policies) if not n.startswith("_")}
    ours = {n for n in dir(mlax.checkpoint_policies) if not n.startswith("_")}
    assert theirs <= ours


X = np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4)
W = np.linspace(0.5, -0.7, 16, dtype=np.float32).reshape(4, 4)


@pytest.mark.parametrize("name", sorted(_policies(jax.checkpoint_policies)))
@pytest.mark.parametrize("jit", [False, True])
def test_values_and_grads_match_jax(name, jit):
    jp = _policies(jax.checkpoint_policies)[name]
    mp = _policies(mlax.checkpoint_policies)[name]
    jf = jax.checkpoint(_f(jnp, j_name), policy=jp)
    mf = mlax.checkpoint(_f(mnp, m_name), policy=mp)
    jg = jax.value_and_grad(jf, argnums=(0, 1))
    mg = mlax.value_and_grad(mf, argnums=(0, 1))
    if jit:
        jg, mg = jax.jit(jg), mlax.jit(mg)
    jv, (jdx, jdw) = jg(X, W)
    mv, (mdx, mdw) = mg(X, W)
    np.testing.assert_allclose(np.asarray(mv), np.asarray(jv), rtol=1e-5)
    np.testing.assert_allclose(np.asarray(mdx), np.asarray(jdx), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.asarray(mdw), np.asarray(jdw), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.asarray(mf(X, W)), np.asarray(jf(X, W)), rtol=1e-5)


def _ir(f, *args):
    return str(mlax.make_ir(f)(*args)) if hasattr(mlax, "make_ir") else ""


def test_policy_decides_remat_call():
    cp = mlax.checkpoint_policies
    f = _f(mnp, m_name)
    saved = _ir(mlax.checkpoint(f, policy=cp.everything_saveable), X, W)
    recomputed = _ir(mlax.checkpoint(f, policy=cp.dots_saveable), X, W)
    default = _ir(mlax.checkpoint(f), X, W)
    assert "remat_call" not in saved
    assert "remat_call" in recomputed and "remat_call" in default

    def dots_only(x, w):
        return (x @ w) @ w
    assert "remat_call" not in _ir(mlax.checkpoint(dots_only, policy=cp.dots_saveable), X, W)
    assert "remat_call" in _ir(
        mlax.checkpoint(dots_only, policy=cp.nothing_saveable), X, W)


def test_bad_policy_result_raises_jax_error_under_grad():
    bad = lambda *a, **k: 3  # noqa: E731
    # Without a derivative the policy's answer is not looked at (as JAX).
    jax.checkpoint(lambda x: jnp.sin(x) * x, policy=bad)(1.0)
    mlax.checkpoint(lambda x: mnp.sin(x) * x, policy=bad)(1.0)
    with pytest.raises(TypeError) as je:
        jax.grad(jax.checkpoint(lambda x: jnp.sin(x) * x, policy=bad))(1.0)
    with pytest.raises(TypeError) as me:
        mlax.grad(mlax.checkpoint(lambda x: mnp.sin(x) * x, policy=bad))(1.0)
    assert str(me.value) == str(je.value)
    with pytest.raises(TypeError):
        mlax.jit(mlax.grad(mlax.checkpoint(lambda x: mnp.sin(x) * x, policy=bad)))(1.0)


def test_save_from_both_policies_rejects_non_bool():
    jcp, mcp = jax.checkpoint_policies, mlax.checkpoint_policies
    jp = jcp.save_from_both_policies(jcp.nothing_saveable, jcp.offload_dot_with_no_batch_dims(
        "device", "pinned_host"))
    mp = mcp.save_from_both_policies(mcp.nothing_saveable, mcp.offload_dot_with_no_batch_dims(
        "device", "pinned_host"))
    f = _f(jnp, j_name)
    with pytest.raises(ValueError):
        jax.grad(jax.checkpoint(f, policy=jp))(X, W)
    with pytest.raises(ValueError):
        mlax.grad(mlax.checkpoint(_f(mnp, m_name), policy=mp))(X, W)


def test_checkpoint_name_is_identity_and_remat_alias():
    x = np.arange(3.0, dtype=np.float32)
    np.testing.assert_array_equal(np.asarray(m_name(mnp.asarray(x), "a")),
                                  np.asarray(j_name(jnp.asarray(x), "a")))
    g = mlax.grad(mlax.remat(lambda x: mnp.sum(mnp.sin(x) ** 2),
                             policy=mlax.checkpoint_policies.everything_saveable))(x)
    jg = jax.grad(jax.remat(lambda x: jnp.sum(jnp.sin(x) ** 2),
                            policy=jax.checkpoint_policies.everything_saveable))(x)
    np.testing.assert_allclose(np.asarray(g), np.asarray(jg), rtol=1e-6)
    assert mlax.ad_checkpoint.checkpoint is mlax.checkpoint


def test_partial_policy_saves_the_named_values():
    """save_only_these_names('a'): the reverse pass takes `a` from the forward
    pass and recomputes only what it needs around it (JAX's choice): fewer
    recomputed sines than saving nothing, more than saving everything."""
    def f(np_, name):
        def f(x):
            a = name(np_.sin(np_.sin(x)), "a")
            return np_.sin(np_.sin(a))
        return f
    x = np.linspace(0, 1, 5).astype(np.float32)
    counts = {}
    cp = mlax.checkpoint_policies
    for key, pol in (("none", cp.nothing_saveable), ("a", cp.save_only_these_names("a")),
                     ("all", cp.everything_saveable)):
        loss = lambda x: mnp.sum(mlax.checkpoint(f(mnp, m_name), policy=pol)(x))  # noqa: E731
        counts[key] = mlax.jit(mlax.value_and_grad(loss)).lower(x).as_text().count(
            "stablehlo.sine")
        jpol = getattr(jax.checkpoint_policies, {"none": "nothing_saveable",
                                                 "all": "everything_saveable"}.get(key, "x"),
                       None) or jax.checkpoint_policies.save_only_these_names("a")
        jloss = lambda x: jnp.sum(jax.checkpoint(f(jnp, j_name), policy=jpol)(x))  # noqa: E731
        for got, want in zip(mlax.value_and_grad(loss)(x), jax.value_and_grad(jloss)(x)):
            np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-6)
    # 4 forward sines; saving nothing recomputes sin(x), sin(sin(x)), sin(a);
    # saving `a` recomputes sin(x) (to differentiate into x) and sin(a).
    assert counts == {"none": 7, "a": 6, "all": 4}


def test_partial_policy_with_static_argnums():
    cp = mlax.checkpoint_policies

    def f(n, x, w):
        for _ in range(n):
            x = mnp.tanh(x @ w)
        return mnp.sum(x)

    def jf(n, x, w):
        for _ in range(n):
            x = jnp.tanh(x @ w)
        return jnp.sum(x)
    mg = mlax.grad(mlax.checkpoint(f, policy=cp.dots_saveable, static_argnums=(0,)),
                   argnums=(1, 2))
    jg = jax.grad(jax.checkpoint(jf, policy=jax.checkpoint_policies.dots_saveable,
                                 static_argnums=(0,)), argnums=(1, 2))
    for got, want in zip(mg(3, X, W), jg(3, X, W)):
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-5, atol=1e-6)
    ir = str(mlax.make_ir(lambda x, w: mg(3, x, w))(X, W))
    assert ir.count("mlax.remat_call") == 2  # the saved dots, then the rest


def _residuals(saved):
    """(type, what) of each residual, without the source line (JAX gives
    line and column of its jaxpr equation, mlax the line of the op)."""
    return sorted((tuple(aval.shape), np.dtype(aval.dtype).name,
                   desc.rsplit(" from ", 1)[0] if desc.startswith("output of") else desc)
                  for aval, desc in saved)


def test_saved_residuals_match_jax(capsys):
    """print_saved_residuals: the values a vjp saves, as JAX's (types, and the
    arguments or ops they come from): everything the backward needs for a
    plain function; only the arguments for a checkpointed one (the eager
    vjp recomputes it in the backward, as JAX's remat does); the arguments
    and the first dot for dots_saveable (the backward uses the saved dot,
    and needs no other); keyword and variadic arguments named as JAX names
    them. Under jit, dots_saveable recomputes no dot: as many as JAX's
    program has."""
    from jax._src.ad_checkpoint import saved_residuals as j_saved
    from mlax._src.transforms.autodiff import saved_residuals as m_saved

    def f(np_):
        def f(x, y):
            return np_.sum(np_.cos(np_.sin(x) @ y) @ y)
        return f

    def kw(np_):
        def g(d, *ys, k):
            return np_.sum(np_.sin(d["a"]) * ys[0] * k)
        return g

    x = np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3)
    y = np.linspace(0, 1, 9, dtype=np.float32).reshape(3, 3)
    v = np.ones(2, np.float32)
    cases = [
        (f(mnp), f(jnp), (x, y), {}),
        (mlax.checkpoint(f(mnp)), jax.checkpoint(f(jnp)), (x, y), {}),
        (mlax.checkpoint(f(mnp), policy=mlax.checkpoint_policies.dots_saveable),
         jax.checkpoint(f(jnp), policy=jax.checkpoint_policies.dots_saveable), (x, y), {}),
        (kw(mnp), kw(jnp), ({"a": v}, v), {"k": v}),
    ]
    for m_fun, j_fun, args, kwargs in cases:
        got = m_saved(m_fun, *args, **kwargs)
        assert _residuals(got) == _residuals(j_saved(j_fun, *args, **kwargs))
        assert all(" from /" not in d or __file__ in d for _, d in got), got
    mlax.ad_checkpoint.print_saved_residuals(f(mnp), x, y)
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == "f32[3,3] from the argument y"
    assert any(line.startswith("f32[2,3] output of sin from ") and __file__ in line
               for line in printed), printed
    def dots(program):
        return program.count("stablehlo.dot_general")
    m_dots = mlax.checkpoint(f(mnp), policy=mlax.checkpoint_policies.dots_saveable)
    j_dots = jax.checkpoint(f(jnp), policy=jax.checkpoint_policies.dots_saveable)
    assert dots(mlax.jit(mlax.value_and_grad(m_dots, argnums=(0, 1))).lower(x, y).as_text()) \
        == dots(jax.jit(jax.value_and_grad(j_dots, argnums=(0, 1))).lower(x, y).as_text())
    # The eager vjp of the checkpointed function saving only its arguments
    # still pulls back JAX's cotangents.
    out, pullback = mlax.vjp(mlax.checkpoint(f(mnp)), x, y)
    j_out, j_pullback = jax.vjp(jax.checkpoint(f(jnp)), x, y)
    np.testing.assert_allclose(out, j_out, rtol=1e-6)
    for got, want in zip(pullback(np.float32(1.5)), j_pullback(np.float32(1.5))):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)

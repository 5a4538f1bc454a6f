"""vmap(spmd_axis_name=...) against jax.vmap on a 4x2 mesh of 8 CPU devices
(see conftest.py): the batch dimension of the sharding constraints and
shard_maps the vmap batches is split over the spmd axes. Values, result
layouts, the constraint's HLO sharding, shard_map, grad, nesting, errors."""
from __future__ import annotations

import re

import numpy as np
import pytest

import mlax
import mlax.numpy as mnp
from mlax import lax
from mlax.sharding import NamedSharding, PartitionSpec as P

jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402
from jax.sharding import NamedSharding as JNamed, PartitionSpec as JP  # noqa: E402

pytestmark = pytest.mark.skipif(
    mlax.device_count("cpu") < 8 or len(jax.devices("cpu")) < 8,
    reason="needs 8 CPU devices (XLA_FLAGS=--xla_force_host_platform_device_count=8)")


@pytest.fixture
def gspmd():
    """JAX emitting GSPMD (`mhlo.sharding`) as mlax does, not Shardy."""
    old = jax.config.jax_use_shardy_partitioner
    jax.config.update("jax_use_shardy_partitioner", False)
    try:
        yield
    finally:
        jax.config.update("jax_use_shardy_partitioner", old)


def _close(a, b, rtol=1e-5):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=rtol, atol=1e-6)


def _layout(arr):
    return sorted((s.device.id, s.index, s.replica_id) for s in arr.addressable_shards)


def _spec(arr):
    """The result's PartitionSpec, trailing Nones dropped (they say nothing)."""
    spec = list(arr.sharding.spec)
    while spec and spec[-1] is None:
        spec.pop()
    return tuple(spec)


def _constraint_shardings(text, ours):
    """The mhlo.sharding strings of the @Sharding custom calls of a
    StableHLO text (mlax's generic form, JAX's pretty form)."""
    if ours:
        return re.findall(r'call_target_name = "Sharding"[^}]*mhlo.sharding = "([^"]*)"', text)
    return re.findall(r'@Sharding\([^)]*\) \{[^}]*mhlo.sharding = "([^"]*)"', text)


X = np.arange(8 * 3 * 4, dtype=np.float32).reshape(8, 3, 4) / 10


def _constrained(lax_mod, np_mod, mesh, named, spec):
    def f(x):
        return lax_mod.with_sharding_constraint(np_mod.sin(x) * 2, named(mesh, spec))
    return f


@pytest.mark.parametrize("spmd,spec", [
    ("data", P(None, "model")),
    (("data", "model"), P()),
    (("model", "data"), P(None, None)),
    ("model", P(None, "data")),
])
def test_constraint_values_layout_hlo(meshes, gspmd, spmd, spec):
    m, j = meshes
    ours = mlax.jit(mlax.vmap(_constrained(lax, mnp, m, NamedSharding, spec),
                              spmd_axis_name=spmd))
    theirs = jax.jit(jax.vmap(_constrained(jax.lax, jnp, j, JNamed, JP(*spec)),
                              spmd_axis_name=spmd))
    a, b = ours(X), theirs(X)
    _close(a, b)
    assert _layout(a) == _layout(b)
    assert _spec(a) == _spec(b)
    hlo_ours = _constraint_shardings(ours.lower(X).as_text(), True)
    hlo_theirs = _constraint_shardings(theirs.lower(X).as_text(), False)
    assert hlo_ours and hlo_ours == hlo_theirs


def test_constraint_in_axes_out_axes(meshes, gspmd):
    m, j = meshes
    x = np.moveaxis(X, 0, 1)  # (3, 8, 4), mapped over axis 1
    ours = mlax.jit(mlax.vmap(_constrained(lax, mnp, m, NamedSharding, P(None, "model")),
                              in_axes=1, out_axes=2, spmd_axis_name="data"))
    theirs = jax.jit(jax.vmap(_constrained(jax.lax, jnp, j, JNamed, JP(None, "model")),
                              in_axes=1, out_axes=2, spmd_axis_name="data"))
    a, b = ours(x), theirs(x)
    _close(a, b)
    assert _layout(a) == _layout(b)
    # JAX constrains the value with the batch where it lies (dimension 1);
    # mlax-vectorize moves the batch in front first, so its constraint is
    # the same split with the batch dimension first.
    assert _constraint_shardings(theirs.lower(x).as_text(), False) == ["{devices=[1,4,2]<=[8]}"]
    assert _constraint_shardings(ours.lower(x).as_text(), True) == ["{devices=[4,1,2]<=[8]}"]


def test_eager_and_jit_inside(meshes):
    m, j = meshes
    f_ours = _constrained(lax, mnp, m, NamedSharding, P(None, "model"))
    f_theirs = _constrained(jax.lax, jnp, j, JNamed, JP(None, "model"))
    for ours, theirs in [
            (mlax.vmap(f_ours, spmd_axis_name="data"), jax.vmap(f_theirs, spmd_axis_name="data")),
            (mlax.vmap(mlax.jit(f_ours), spmd_axis_name="data"),
             jax.vmap(jax.jit(f_theirs), spmd_axis_name="data"))]:
        a, b = ours(X), theirs(X)
        _close(a, b)
        assert _layout(a) == _layout(b)


def test_nested(meshes, gspmd):
    m, j = meshes
    x = np.arange(4 * 2 * 3, dtype=np.float32).reshape(4, 2, 3)
    inner_o = lambda v: lax.with_sharding_constraint(v * 3, NamedSharding(m, P()))
    inner_t = lambda v: jax.lax.with_sharding_constraint(v * 3, JNamed(j, JP()))
    ours = mlax.jit(mlax.vmap(mlax.vmap(inner_o, spmd_axis_name="model"), spmd_axis_name="data"))
    theirs = jax.jit(jax.vmap(jax.vmap(inner_t, spmd_axis_name="model"), spmd_axis_name="data"))
    a, b = ours(x), theirs(x)
    _close(a, b)
    assert _layout(a) == _layout(b)
    assert (_constraint_shardings(ours.lower(x).as_text(), True) ==
            _constraint_shardings(theirs.lower(x).as_text(), False) ==
            ["{devices=[4,2,1]<=[8]}"])
    # An inner vmap without spmd axes: its batch dimension stays replicated.
    ours = mlax.jit(mlax.vmap(mlax.vmap(inner_o), spmd_axis_name="data"))
    assert _layout(ours(x)) == _layout(jax.jit(jax.vmap(jax.vmap(inner_t),
                                                        spmd_axis_name="data"))(x))


def test_grad(meshes, gspmd):
    m, j = meshes
    f_ours = _constrained(lax, mnp, m, NamedSharding, P(None, "model"))
    f_theirs = _constrained(jax.lax, jnp, j, JNamed, JP(None, "model"))
    # grad of vmap
    g_ours = mlax.jit(mlax.grad(lambda x: mnp.sum(mlax.vmap(f_ours, spmd_axis_name="data")(x) ** 2)))
    g_theirs = jax.jit(jax.grad(lambda x: jnp.sum(jax.vmap(f_theirs, spmd_axis_name="data")(x) ** 2)))
    _close(g_ours(X), g_theirs(X))
    # the cotangent is constrained alike
    hlo = _constraint_shardings(g_ours.lower(X).as_text(), True)
    assert hlo and set(hlo) == {"{devices=[4,1,2]<=[8]}"}
    # vmap of grad
    v_ours = mlax.jit(mlax.vmap(mlax.grad(lambda x: mnp.sum(f_ours(x) ** 2)), spmd_axis_name="data"))
    v_theirs = jax.jit(jax.vmap(jax.grad(lambda x: jnp.sum(f_theirs(x) ** 2)), spmd_axis_name="data"))
    a, b = v_ours(X), v_theirs(X)
    _close(a, b)
    assert (_constraint_shardings(v_ours.lower(X).as_text(), True) ==
            _constraint_shardings(v_theirs.lower(X).as_text(), False))


# ---------------------------------------------------------------------------
# shard_map
# ---------------------------------------------------------------------------

def test_shard_map(meshes, gspmd):
    m, j = meshes
    seen = []

    def body(l):
        def b(xb):
            seen.append(xb.shape)
            return l.psum(xb, "model")
        return b

    sm_o = mlax.shard_map(body(lax), mesh=m, in_specs=P(None, "model"), out_specs=P())
    sm_t = jax.shard_map(body(jax.lax), mesh=j, in_specs=JP(None, "model"), out_specs=JP())
    ours = mlax.jit(mlax.vmap(sm_o, spmd_axis_name="data"))
    theirs = jax.jit(jax.vmap(sm_t, spmd_axis_name="data"))
    a, b = ours(X), theirs(X)
    _close(a, b)
    assert a.shape == (8, 3, 2)
    assert _layout(a) == _layout(b)
    assert _spec(a) == _spec(b)
    text = ours.lower(X).as_text()
    # the operand split over data (batch) and model, its piece 2 examples
    assert 'mhlo.sharding = "{devices=[4,1,2]<=[8]}"' in text
    assert "tensor<2x3x2xf32>" in text
    assert 'mhlo.sharding = "{devices=[4,1,1,2]<=[8] last_tile_dim_replicate}"' in text


def test_shard_map_unbatched_operand_and_grad(meshes):
    m, j = meshes
    w = np.linspace(0.5, 1.5, 6).astype(np.float32)
    xs = np.arange(4 * 6, dtype=np.float32).reshape(4, 6) / 7

    def mk(sm, l, n, J, Pc):
        f = sm(lambda a, v: l.psum(n.sum(n.tanh(a * v)), "model"), mesh=J,
               in_specs=(Pc("model"), Pc("model")), out_specs=Pc())
        return f

    f_o = mk(mlax.shard_map, lax, mnp, m, P)
    f_t = mk(jax.shard_map, jax.lax, jnp, j, JP)
    ours = mlax.jit(mlax.vmap(f_o, in_axes=(0, None), spmd_axis_name="data"))
    theirs = jax.jit(jax.vmap(f_t, in_axes=(0, None), spmd_axis_name="data"))
    a, b = ours(xs, w), theirs(xs, w)
    _close(a, b)
    assert _layout(a) == _layout(b)
    g_o = mlax.jit(mlax.grad(lambda x, v: mnp.sum(
        mlax.vmap(f_o, in_axes=(0, None), spmd_axis_name="data")(x, v) ** 2), argnums=(0, 1)))
    g_t = jax.jit(jax.grad(lambda x, v: jnp.sum(
        jax.vmap(f_t, in_axes=(0, None), spmd_axis_name="data")(x, v) ** 2), argnums=(0, 1)))
    for u, t in zip(g_o(xs, w), g_t(xs, w)):
        _close(u, t, rtol=1e-4)


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------

def test_errors(meshes):
    m, _ = meshes
    f = _constrained(lax, mnp, m, NamedSharding, P(None, "model"))
    with pytest.raises(ValueError, match="cannot appear in with_sharding_constraint spec") as e:
        mlax.jit(mlax.vmap(f, spmd_axis_name="model"))(X)
    assert "test_vmap_spmd.py" in str(e.value)  # the constraint's line
    with pytest.raises(ValueError, match='mesh axis "foo", which is not in the mesh'):
        mlax.jit(mlax.vmap(f, spmd_axis_name="foo"))(X)
    with pytest.raises(ValueError, match="batch size 6 is not divisible by 4"):
        mlax.jit(mlax.vmap(f, spmd_axis_name="data"))(X[:6])
    with pytest.raises(ValueError, match="batch size 6 is not divisible by 4"):
        mlax.vmap(f, spmd_axis_name="data")(X[:6])  # eager
    # nested vmaps over the same mesh axis
    g = lambda v: lax.with_sharding_constraint(v, NamedSharding(m, P()))
    with pytest.raises(ValueError, match="cannot appear in with_sharding_constraint spec"):
        mlax.jit(mlax.vmap(mlax.vmap(g, spmd_axis_name="data"), spmd_axis_name="data"))(
            np.ones((4, 4, 3), np.float32))
    sm = mlax.shard_map(lambda xb: lax.psum(xb, "model"), mesh=m, in_specs=P(None, "model"),
                        out_specs=P())
    with pytest.raises(ValueError, match="cannot appear in shard_map in_specs"):
        mlax.jit(mlax.vmap(sm, spmd_axis_name="model"))(X)
    with pytest.raises(ValueError, match="batch size 6 is not divisible by 4"):
        mlax.jit(mlax.vmap(sm, spmd_axis_name="data"))(X[:6])
    with pytest.raises(TypeError, match="spmd_axis_name"):
        mlax.vmap(f, spmd_axis_name=3)
    with pytest.raises(ValueError, match="twice"):
        mlax.vmap(f, spmd_axis_name=("data", "data"))


def test_errors_match_jax(meshes):
    """The same mistakes are ValueErrors in JAX too."""
    _, j = meshes
    f = _constrained(jax.lax, jnp, j, JNamed, JP(None, "model"))
    with pytest.raises(ValueError, match="cannot appear in with_sharding_constraint spec"):
        jax.jit(jax.vmap(f, spmd_axis_name="model"))(X)
    sm = jax.shard_map(lambda xb: jax.lax.psum(xb, "model"), mesh=j,
                       in_specs=JP(None, "model"), out_specs=JP())
    with pytest.raises(ValueError, match="cannot appear in shard_map in_specs"):
        jax.jit(jax.vmap(sm, spmd_axis_name="model"))(X)


def test_without_mesh_ops_spmd_changes_nothing():
    x = np.arange(6, dtype=np.float32).reshape(3, 2)
    _close(mlax.vmap(lambda v: v * 2, spmd_axis_name="data")(x), x * 2)

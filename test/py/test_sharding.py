"""Arrays and programs over a mesh of CPU devices, against JAX.

conftest.py gives every test process eight CPU devices (mlax's and JAX's
clients alike). JAX meshes are built with `jax.sharding.Mesh`, whose axes are
Auto as mlax's are (jax.make_mesh defaults to Explicit axes)."""
from __future__ import annotations

import numpy as np
import pytest

import mlax
import mlax.numpy as mnp
from mlax import lax
from mlax.sharding import Mesh, NamedSharding, PartitionSpec as P

jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402
from jax.sharding import Mesh as JMesh, NamedSharding as JNamed, PartitionSpec as JP  # noqa: E402

pytestmark = pytest.mark.skipif(
    mlax.device_count("cpu") < 8 or len(jax.devices("cpu")) < 8,
    reason="needs 8 CPU devices (XLA_FLAGS=--xla_force_host_platform_device_count=8)")

SPECS = [(), ("data",), (None, "model"), ("data", "model"), (("data", "model"),),
         ("model", "data"), (None, ("model", "data"))]


@pytest.fixture(scope="module")
def meshes():
    m = Mesh(np.array(mlax.devices("cpu")[:8]).reshape(4, 2), ("data", "model"))
    j = JMesh(np.array(jax.devices("cpu")[:8]).reshape(4, 2), ("data", "model"))
    return m, j


def _layout(arr):
    return sorted((s.device.id, tuple((i.start, i.stop) for i in s.index), s.replica_id)
                  for s in arr.addressable_shards)


def test_reprs_match_jax(meshes):
    m, j = meshes
    assert repr(m) == repr(j)
    assert str(m) == str(j)
    for spec in SPECS:
        assert repr(P(*spec)) == repr(JP(*spec))
        assert repr(NamedSharding(m, P(*spec))) == repr(JNamed(j, JP(*spec)))
    assert m.shape == j.shape and m.size == j.size and m.axis_names == j.axis_names
    one, jone = mlax.make_mesh((8,), ("x",)), JMesh(np.array(jax.devices("cpu")[:8]), ("x",))
    assert repr(one) == repr(jone) and str(one) == str(jone)
    assert repr(NamedSharding(one, P("x"))) == repr(JNamed(jone, JP("x")))


@pytest.mark.parametrize("spec, exc, match", [
    (("x",), ValueError, "Resource axis: x of P('x',) is not found in mesh"),
    (("data", "data"), ValueError, "has duplicate entries for `data`"),
])
def test_spec_errors(meshes, spec, exc, match):
    m, j = meshes
    with pytest.raises(exc, match=match.replace("(", r"\(").replace(")", r"\)")) as e:
        NamedSharding(m, P(*spec))
    with pytest.raises(Exception) as je:
        JNamed(j, JP(*spec))
    assert str(e.value) == str(je.value)


@pytest.mark.parametrize("spec", SPECS)
def test_device_put_lays_out_as_jax(meshes, spec):
    m, j = meshes
    x = np.arange(8 * 8, dtype=np.float32).reshape(8, 8)
    a = mlax.device_put(x, NamedSharding(m, P(*spec)))
    b = jax.device_put(x, JNamed(j, JP(*spec)))
    np.testing.assert_array_equal(np.asarray(a), x)
    assert _layout(a) == _layout(b)
    for s in a.addressable_shards:
        np.testing.assert_array_equal(np.asarray(s.data), x[s.index])
    assert a.sharding.shard_shape(x.shape) == b.sharding.shard_shape(x.shape)
    assert a.is_fully_replicated == b.is_fully_replicated
    assert {d.id for d in a.devices()} == {d.id for d in b.devices()}
    assert str(a.sharding._to_xla_hlo_sharding(2)) == str(b.sharding._to_xla_hlo_sharding(2))


def test_device_put_errors_as_jax(meshes):
    m, j = meshes
    with pytest.raises(ValueError) as e:
        mlax.device_put(np.ones(6, np.float32), NamedSharding(m, P("data")))
    with pytest.raises(ValueError) as je:
        jax.device_put(np.ones(6, np.float32), JNamed(j, JP("data")))
    assert str(e.value) == str(je.value)
    with pytest.raises(ValueError, match="rank of at least 2"):
        mlax.device_put(np.ones(8, np.float32), NamedSharding(m, P("data", "model")))


def test_partition_spec_needs_a_mesh(meshes):
    m, _ = meshes
    with pytest.raises(ValueError, match="needs a mesh"):
        mlax.device_put(np.ones(8, np.float32), P("data"))
    with m:
        a = mlax.device_put(np.ones(8, np.float32), P("data"))
    assert a.sharding == NamedSharding(m, P("data"))


FUNCS = {
    "scale": lambda a: a * 2 + 1,
    "sum0": lambda a: a.sum(0),
    "sum_all": lambda a: a.sum(),
    "matmul": lambda a: a @ a.T,
    "transpose": lambda a: a.T,
}


@pytest.mark.parametrize("name", sorted(FUNCS))
@pytest.mark.parametrize("spec", [("data",), (None, "model"), ("data", "model")])
def test_jit_propagates_shardings_as_jax(meshes, name, spec):
    m, j = meshes
    f = FUNCS[name]
    x = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 7
    a = mlax.device_put(x, NamedSharding(m, P(*spec)))
    b = jax.device_put(x, JNamed(j, JP(*spec)))
    ra, rb = mlax.jit(f)(a), jax.jit(f)(b)
    np.testing.assert_allclose(np.asarray(ra), np.asarray(rb), rtol=1e-6)
    assert isinstance(ra.sharding, NamedSharding)
    assert ra.sharding.mesh == m
    assert str(ra.sharding._to_xla_hlo_sharding(ra.ndim)) == \
        str(rb.sharding._to_xla_hlo_sharding(rb.ndim))


def test_eager_ops_on_sharded_arrays(meshes):
    m, j = meshes
    x = np.linspace(0, 1, 16, dtype=np.float32).reshape(8, 2)
    a = mlax.device_put(x, NamedSharding(m, P("data")))
    b = jax.device_put(x, JNamed(j, JP("data")))
    for fa, fb in [(mnp.sin, jnp.sin), (lambda v: v + 1, lambda v: v + 1),
                   (lambda v: mnp.sum(v, 1), lambda v: jnp.sum(v, 1))]:
        ra, rb = fa(a), fb(b)
        np.testing.assert_allclose(np.asarray(ra), np.asarray(rb), rtol=1e-6)
        assert _layout(ra) == _layout(rb)


def test_in_and_out_shardings(meshes):
    m, j = meshes
    x = np.arange(32, dtype=np.float32).reshape(8, 4)
    f = mlax.jit(lambda a: a * 3, in_shardings=NamedSharding(m, P("data")),
                 out_shardings=NamedSharding(m, P(None, "model")))
    g = jax.jit(lambda a: a * 3, in_shardings=JNamed(j, JP("data")),
                out_shardings=JNamed(j, JP(None, "model")))
    ra, rb = f(x), g(x)
    np.testing.assert_array_equal(np.asarray(ra), np.asarray(rb))
    assert ra.sharding == NamedSharding(m, P(None, "model"))
    assert _layout(ra) == _layout(rb)
    hlo = f.lower(x).compile().as_text()
    assert "f32[2,4]" in hlo  # each device's piece of the argument
    lowered = f.lower(x)
    assert 'mhlo.sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"' in \
        lowered.as_text()
    assert '#mlax.sharding<["data"=4, "model"=2], [{"data"}]>' in lowered.as_text("mlax")
    # A pytree prefix: one sharding per positional argument.
    h = mlax.jit(lambda a, b: a + b, in_shardings=(NamedSharding(m, P("data")), None))
    r = h(x, x)
    np.testing.assert_array_equal(np.asarray(r), 2 * x)
    assert r.sharding.mesh == m


def test_in_shardings_mismatch_is_an_error(meshes):
    m, j = meshes
    x = np.arange(32, dtype=np.float32).reshape(8, 4)
    a = mlax.device_put(x, NamedSharding(m, P("data")))
    f = mlax.jit(lambda v: v, in_shardings=NamedSharding(m, P(None, "model")))
    with pytest.raises(ValueError, match="does not match the sharding on the respective arg"):
        f(a)
    b = jax.device_put(x, JNamed(j, JP("data")))
    with pytest.raises(ValueError, match="does not match the sharding on the respective arg"):
        jax.jit(lambda v: v, in_shardings=JNamed(j, JP(None, "model")))(b)
    with pytest.raises(ValueError, match="partitioned 4 times"):
        mlax.jit(lambda v: v, in_shardings=NamedSharding(m, P("data")))(np.ones(6))


def test_collective_in_compiled_program(meshes):
    m, _ = meshes
    x = np.arange(32, dtype=np.float32).reshape(8, 4)
    a = mlax.device_put(x, NamedSharding(m, P("data")))
    f = mlax.jit(lambda v: v.sum())
    np.testing.assert_allclose(float(f(a)), x.sum())
    hlo = f.lower(a).compile().as_text()
    assert "all-reduce" in hlo and "f32[2,4]" in hlo


def test_with_sharding_constraint_in_jit(meshes):
    m, j = meshes
    x = np.arange(48, dtype=np.float32).reshape(8, 6)

    def fa(v):
        return lax.with_sharding_constraint(v * 2, NamedSharding(m, P(None, "model"))) + 1

    def fb(v):
        return jax.lax.with_sharding_constraint(v * 2, JNamed(j, JP(None, "model"))) + 1

    ra, rb = mlax.jit(fa)(x), jax.jit(fb)(x)
    np.testing.assert_array_equal(np.asarray(ra), np.asarray(rb))
    assert _layout(ra) == _layout(rb)
    text = mlax.jit(fa).lower(x).as_text("mlax")
    assert "mlax.sharding_constraint" in text
    assert 'call_target_name = "Sharding"' in mlax.jit(fa).lower(x).as_text()
    # Outside jit it lays the array out (as device_put).
    e = lax.with_sharding_constraint(mnp.asarray(x), NamedSharding(m, P("data")))
    assert e.sharding == NamedSharding(m, P("data"))
    with pytest.raises(ValueError):
        mlax.jit(lambda v: lax.with_sharding_constraint(v, NamedSharding(m, P("data"))))(
            np.ones(6, np.float32))


def test_grad_and_vmap_through_constraint(meshes):
    m, j = meshes
    x = np.linspace(-1, 1, 48, dtype=np.float32).reshape(8, 6)

    def la(v):
        return mnp.sum(mnp.sin(lax.with_sharding_constraint(v, NamedSharding(m, P("data")))))

    def lb(v):
        return jnp.sum(jnp.sin(jax.lax.with_sharding_constraint(v, JNamed(j, JP("data")))))

    ga, gb = mlax.jit(mlax.grad(la))(x), jax.jit(jax.grad(lb))(x)
    np.testing.assert_allclose(np.asarray(ga), np.asarray(gb), rtol=1e-6)
    np.testing.assert_allclose(np.asarray(ga), np.cos(x), rtol=1e-6)

    def va(v):
        return lax.with_sharding_constraint(v * 2, NamedSharding(m, P("model")))

    def vb(v):
        return jax.lax.with_sharding_constraint(v * 2, JNamed(j, JP("model")))

    ra = mlax.jit(mlax.vmap(va))(x)
    rb = jax.jit(jax.vmap(vb))(x)
    np.testing.assert_array_equal(np.asarray(ra), np.asarray(rb))
    assert _layout(ra) == _layout(rb)


def _mlp_loss(np_mod, params, x, y):
    w1, b1, w2, b2 = params
    h = np_mod.tanh(x @ w1 + b1)
    return np_mod.mean((h @ w2 + b2 - y) ** 2)


def test_data_parallel_training_gives_single_device_losses(meshes):
    m, _ = meshes
    rng = np.random.default_rng(0)
    params = [rng.normal(size=(4, 16)).astype(np.float32) * 0.5,
              np.zeros(16, np.float32),
              rng.normal(size=(16, 1)).astype(np.float32) * 0.5,
              np.zeros(1, np.float32)]
    x = rng.normal(size=(64, 4)).astype(np.float32)
    y = np.sin(x.sum(1, keepdims=True)).astype(np.float32)

    @mlax.jit
    def step(p, xb, yb):
        loss, g = mlax.value_and_grad(lambda q: _mlp_loss(mnp, q, xb, yb))(p)
        return [w - 0.1 * dw for w, dw in zip(p, g)], loss

    def train(p, xb, yb):
        losses = []
        for _ in range(5):
            p, loss = step(p, xb, yb)
            losses.append(float(loss))
        return p, losses

    p1, single = train([mnp.asarray(w) for w in params], mnp.asarray(x), mnp.asarray(y))
    data = NamedSharding(m, P("data"))
    replicated = NamedSharding(m, P())
    p8, sharded = train([mlax.device_put(w, replicated) for w in params],
                        mlax.device_put(x, data), mlax.device_put(y, data))
    np.testing.assert_allclose(sharded, single, rtol=1e-5)
    for a, b in zip(p8, p1):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-5, atol=1e-6)
        assert a.sharding.mesh == m
    assert sharded[-1] < sharded[0]


def test_tensor_parallel_matmul(meshes):
    m, j = meshes
    rng = np.random.default_rng(1)
    x = rng.normal(size=(8, 16)).astype(np.float32)
    w = rng.normal(size=(16, 6)).astype(np.float32)
    a = mlax.device_put(x, NamedSharding(m, P()))
    b = mlax.device_put(w, NamedSharding(m, P(None, "model")))
    r = mlax.jit(lambda u, v: u @ v)(a, b)
    np.testing.assert_allclose(np.asarray(r), x @ w, rtol=1e-5)
    ja = jax.device_put(x, JNamed(j, JP()))
    jb = jax.device_put(w, JNamed(j, JP(None, "model")))
    rj = jax.jit(lambda u, v: u @ v)(ja, jb)
    assert str(r.sharding._to_xla_hlo_sharding(2)) == str(rj.sharding._to_xla_hlo_sharding(2))


def test_arrays_on_two_meshes_are_an_error(meshes):
    m, _ = meshes
    other = Mesh(np.array(mlax.devices("cpu")[:8]).reshape(2, 4), ("a", "b"))
    a = mlax.device_put(np.ones((8, 4), np.float32), NamedSharding(m, P("data")))
    b = mlax.device_put(np.ones((8, 4), np.float32), NamedSharding(other, P("a")))
    with pytest.raises(ValueError, match="incompatible devices"):
        mlax.jit(lambda u, v: u + v)(a, b)


def test_num_cpu_devices_after_the_client_exists():
    mlax.devices()
    with pytest.raises(RuntimeError, match="before backends are initialized"):
        mlax.config.update("jax_num_cpu_devices", 3)


def test_single_device_sharding_and_device_get(meshes):
    m, _ = meshes
    x = np.arange(8, dtype=np.float32)
    a = mlax.device_put(x, NamedSharding(m, P("data")))
    d = mlax.devices("cpu")[3]
    b = mlax.device_put(a, mlax.sharding.SingleDeviceSharding(d))
    assert b.devices() == {d}
    np.testing.assert_array_equal(mlax.device_get(a), x)
    assert mnp.asarray(x).sharding == mlax.sharding.SingleDeviceSharding(mlax.devices()[0])
    assert a.device == a.sharding


def test_global_arrays_from_pieces(meshes):
    m, j = meshes
    x = np.arange(64, dtype=np.float32).reshape(8, 8)
    for spec in SPECS:
        named = NamedSharding(m, P(*spec))
        a = mlax.make_array_from_callback(x.shape, named, lambda idx: x[idx])
        b = jax.make_array_from_callback(x.shape, JNamed(j, JP(*spec)), lambda idx: x[idx])
        np.testing.assert_array_equal(np.asarray(a), x)
        assert _layout(a) == _layout(b)
        pieces = [s.data for s in a.addressable_shards]
        c = mlax.make_array_from_single_device_arrays(x.shape, named, pieces[::-1])
        np.testing.assert_array_equal(np.asarray(c), x)
        assert c.sharding == named
        d = mlax.make_array_from_process_local_data(named, x)
        assert _layout(d) == _layout(b)
    named = NamedSharding(m, P("data"))
    pieces = [s.data for s in mlax.device_put(x, named).addressable_shards]
    with pytest.raises(ValueError, match="expected one piece on each"):
        mlax.make_array_from_single_device_arrays(x.shape, named, pieces[:3])
    with pytest.raises(ValueError, match="shape"):
        mlax.make_array_from_callback(x.shape, named, lambda idx: x)


def test_visualize_array_sharding(meshes, capsys):
    m, _ = meshes
    a = mlax.device_put(np.zeros((8, 8), np.float32), NamedSharding(m, P("data", "model")))
    mlax.debug.visualize_array_sharding(a)
    out = capsys.readouterr().out
    assert out.count("CPU") == 8 and "CPU 0" in out and "CPU 7" in out
    assert len([l for l in out.splitlines() if l.startswith("|")]) == 4  # 4 rows of tiles
    r = mlax.device_put(np.zeros(8, np.float32), NamedSharding(m, P()))
    mlax.debug.visualize_array_sharding(r)
    assert "CPU 0,1,2,3,4,5,6,7" in capsys.readouterr().out


def test_jit_objects_of_one_function_do_not_share_layouts(meshes):
    m, _ = meshes
    f = lambda v: v * 2  # noqa: E731
    a = mlax.device_put(np.ones((8, 4), np.float32), NamedSharding(m, P("data")))
    r1 = mlax.jit(f)(a)
    r2 = mlax.jit(f, out_shardings=NamedSharding(m, P(None, "model")))(a)
    assert r1.sharding.is_equivalent_to(NamedSharding(m, P("data")), 2)
    assert r2.sharding == NamedSharding(m, P(None, "model"))
    d = mlax.jit(f, donate_argnums=0)
    b = mlax.device_put(np.ones((8, 4), np.float32), NamedSharding(m, P("data")))
    np.testing.assert_array_equal(np.asarray(d(b)), np.full((8, 4), 2.0))
    assert b.is_deleted()


def test_an_array_reports_the_spec_it_was_given(meshes):
    """P('data') and P('data', None) are equal shardings; an array reports the
    one it was put with (as JAX's does), whichever an earlier array used."""
    m, j = meshes
    x = np.arange(16, dtype=np.float32).reshape(8, 2)
    for first, second in ((("data", None), ("data",)), (("data",), ("data", None))):
        mlax.device_put(x, NamedSharding(m, P(*first))).block_until_ready()
        ours = mlax.device_put(x, NamedSharding(m, P(*second)))
        theirs = jax.device_put(x, JNamed(j, JP(*second)))
        assert repr(ours.sharding) == repr(theirs.sharding)
        assert ours.sharding == NamedSharding(m, P(*first))

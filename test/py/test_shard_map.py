"""shard_map, pmap and the collectives against JAX on 8 CPU devices (see
conftest.py): values, result layouts, gradients, vmap, and the errors."""
from __future__ import annotations

import numpy as np
import pytest

import mlax
import mlax.numpy as mnp
from mlax import lax
from mlax.sharding import NamedSharding, PartitionSpec as P

jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402
from jax.sharding import PartitionSpec as JP  # noqa: E402

pytestmark = pytest.mark.skipif(
    mlax.device_count("cpu") < 8 or len(jax.devices("cpu")) < 8,
    reason="needs 8 CPU devices (XLA_FLAGS=--xla_force_host_platform_device_count=8)")


def _run(meshes, body, in_specs, out_specs, *args, jit=True, check_vma=False):
    """body(lax_module, numpy_module) run through mlax's and JAX's shard_map."""
    m, j = meshes
    ours = mlax.shard_map(lambda *a: body(lax, mnp, *a), mesh=m, in_specs=in_specs,
                          out_specs=out_specs)
    theirs = jax.shard_map(lambda *a: body(jax.lax, jnp, *a), mesh=j,
                           in_specs=_jspecs(in_specs), out_specs=_jspecs(out_specs),
                           check_vma=check_vma)
    if jit:
        ours, theirs = mlax.jit(ours), jax.jit(theirs)
    return ours(*args), theirs(*args)


def _jspecs(specs):
    if isinstance(specs, P):
        return JP(*specs)
    return tuple(_jspecs(s) for s in specs)


X = np.arange(8 * 6, dtype=np.float32).reshape(8, 6) / 10


def _close(a, b, rtol=1e-6):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=rtol, atol=1e-6)


CASES = {
    "psum": (lambda l, n, a: l.psum(n.sum(a, 0), "data"), P("data"), P()),
    "psum_both": (lambda l, n, a: l.psum(a, ("data", "model")), P("data", "model"), P()),
    "pmean": (lambda l, n, a: l.pmean(a, "model"), P("data", "model"), P("data")),
    "pmax": (lambda l, n, a: l.pmax(a, "data"), P("data"), P()),
    "pmin": (lambda l, n, a: l.pmin(a, "model"), P(None, "model"), P()),
    "all_gather": (lambda l, n, a: l.all_gather(a, "data"), P("data"), P(None, None)),
    "all_gather_tiled": (lambda l, n, a: l.all_gather(a, "data", tiled=True),
                         P("data"), P()),
    "all_gather_axis1": (lambda l, n, a: l.all_gather(a, "model", axis=1, tiled=True),
                         P("data", "model"), P("data")),
    "psum_scatter": (lambda l, n, a: l.psum_scatter(a, "data", tiled=True), P(), P("data")),
    "psum_scatter_dim1": (lambda l, n, a: l.psum_scatter(a, "model", scatter_dimension=1,
                                                         tiled=True), P("data"),
                          P("data", "model")),
    "ppermute_ring": (lambda l, n, a: l.ppermute(a, "data", [(i, (i + 1) % 4)
                                                              for i in range(4)]),
                      P("data"), P("data")),
    "ppermute_partial": (lambda l, n, a: l.ppermute(a, "data", [(0, 1), (1, 2)]),
                         P("data"), P("data")),
    "all_to_all": (lambda l, n, a: l.all_to_all(a, "model", 0, 1, tiled=True),
                   P("data", "model"), P("data", "model")),
    "pshuffle": (lambda l, n, a: l.pshuffle(a, "data", [2, 0, 3, 1]), P("data"), P("data")),
    "pswapaxes": (lambda l, n, a: l.pswapaxes(a[:, :2], "model", 1), P("data", "model"),
                  P("data", "model")),
    "axis_index": (lambda l, n, a: a + l.axis_index("data"), P("data"), P("data")),
    "axis_index_both": (lambda l, n, a: a * l.axis_index(("data", "model")),
                        P("data", "model"), P("data", "model")),
    "no_collective": (lambda l, n, a: n.sin(a) * 2, P("data", "model"), P("data", "model")),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_collectives_match_jax(meshes, name):
    body, ins, outs = CASES[name]
    a, b = _run(meshes, body, ins, outs, X)
    assert a.shape == b.shape and a.dtype == b.dtype
    _close(a, b)


def test_pbroadcast(meshes):
    # Against NumPy: JAX's pbroadcast has no CPU lowering under shard_map.
    m, _ = meshes
    f = mlax.jit(mlax.shard_map(lambda a: lax.pbroadcast(a, "data", 2), mesh=m,
                                in_specs=P("data"), out_specs=P("data")))
    np.testing.assert_array_equal(np.asarray(f(X)), np.tile(X[4:6], (4, 1)))


def test_axis_size(meshes):
    m, j = meshes
    a, b = _run(meshes, lambda l, n, v: v * l.axis_size("data") + l.axis_size(("data", "model")),
                P("data"), P("data"), X)
    _close(a, b)
    with pytest.raises(NameError, match="unbound axis name"):
        lax.axis_size("data")


def test_eager_shard_map_and_layout(meshes):
    body, ins, outs = CASES["ppermute_ring"]
    a, b = _run(meshes, body, ins, outs, X, jit=False)
    _close(a, b)
    assert a.sharding == NamedSharding(meshes[0], P("data"))


def test_collectives_in_compiled_program(meshes):
    m, _ = meshes
    f = mlax.jit(mlax.shard_map(lambda a: lax.psum(a, "data"), mesh=m, in_specs=P("data"),
                                out_specs=P()))
    hlo = f.lower(X).compile().as_text()
    assert "all-reduce" in hlo
    g = mlax.jit(mlax.shard_map(lambda a: lax.ppermute(a, "data", [(0, 1), (1, 0)]), mesh=m,
                                in_specs=P("data"), out_specs=P("data")))
    assert "collective-permute" in g.lower(X).compile().as_text()
    text = f.lower(X).as_text("mlax")
    assert "mlax.shard_map" in text and "mlax.all_reduce" in text


GRAD_CASES = {
    # data parallel: a replicated parameter, the batch split, a psum'd loss
    "data_parallel": (lambda l, n, w, x: l.psum(n.sum(n.tanh(x @ w)), "data"),
                      (P(), P("data")), P()),
    "psum_split_out": (lambda l, n, w, x: l.psum(n.tanh(x @ w), "data"),
                       (P(), P("data")), P("data")),
    "all_gather": (lambda l, n, w, x: n.sum(l.all_gather(x @ w, "data", tiled=True) ** 2),
                   (P(), P("data")), P()),
    "ppermute": (lambda l, n, w, x: n.sin(l.ppermute(x @ w, "data",
                                                    [(i, (i + 1) % 4) for i in range(4)])),
                 (P(), P("data")), P("data")),
    "psum_scatter": (lambda l, n, w, x: l.psum_scatter(n.tanh(x @ w), "data", tiled=True),
                     (P(), P()), P("data")),
}


@pytest.mark.parametrize("name", sorted(GRAD_CASES))
def test_grad_through_shard_map_matches_jax(meshes, name):
    m, j = meshes
    body, ins, outs = GRAD_CASES[name]
    w = np.linspace(-1, 1, 6, dtype=np.float32)
    x = np.linspace(-2, 2, 48, dtype=np.float32).reshape(8, 6)
    f_m = mlax.shard_map(lambda *a: body(lax, mnp, *a), mesh=m, in_specs=ins, out_specs=outs)
    f_j = jax.shard_map(lambda *a: body(jax.lax, jnp, *a), mesh=j, in_specs=_jspecs(ins),
                        out_specs=_jspecs(outs), check_vma=False)
    g_m = mlax.jit(mlax.grad(lambda w, x: mnp.sum(f_m(w, x)), argnums=(0, 1)))(w, x)
    g_j = jax.jit(jax.grad(lambda w, x: jnp.sum(f_j(w, x)), argnums=(0, 1)))(w, x)
    for a, b in zip(g_m, g_j):
        _close(a, b, rtol=1e-5)


def test_grad_data_parallel_equals_single_device(meshes):
    m, _ = meshes
    rng = np.random.default_rng(0)
    w = rng.normal(size=(6,)).astype(np.float32)
    x = rng.normal(size=(8, 6)).astype(np.float32)

    def local_loss(w, xb):
        return lax.psum(mnp.sum(mnp.tanh(xb @ w)), "data")

    f = mlax.shard_map(local_loss, mesh=m, in_specs=(P(), P("data")), out_specs=P())
    g = mlax.jit(mlax.grad(f))(w, x)
    g_ref = mlax.grad(lambda w: mnp.sum(mnp.tanh(x @ w)))(w)
    _close(g, g_ref, rtol=1e-5)


def test_vmap_of_shard_map(meshes):
    m, j = meshes
    xs = np.stack([X, 2 * X, -X])
    f_m = mlax.shard_map(lambda a: lax.psum(a, "data"), mesh=m, in_specs=P("data"),
                         out_specs=P())
    f_j = jax.shard_map(lambda a: jax.lax.psum(a, "data"), mesh=j, in_specs=JP("data"),
                        out_specs=JP(), check_vma=False)
    _close(mlax.jit(mlax.vmap(f_m))(xs), jax.jit(jax.vmap(f_j))(xs))
    g_m = mlax.shard_map(lambda a: lax.all_gather(a, "data", axis=0, tiled=True), mesh=m,
                         in_specs=P("data"), out_specs=P())
    g_j = jax.shard_map(lambda a: jax.lax.all_gather(a, "data", axis=0, tiled=True), mesh=j,
                        in_specs=JP("data"), out_specs=JP(), check_vma=False)
    _close(mlax.jit(mlax.vmap(g_m))(xs), jax.jit(jax.vmap(g_j))(xs))


def test_pmap_with_collectives():
    x = np.arange(16, dtype=np.float32).reshape(8, 2)

    def f_m(v):
        return v - lax.pmean(v, "i"), lax.axis_index("i"), lax.psum(1, "i")

    def f_j(v):
        return v - jax.lax.pmean(v, "i"), jax.lax.axis_index("i"), jax.lax.psum(1, "i")
    a = mlax.pmap(f_m, axis_name="i")(x)
    b = jax.pmap(f_j, axis_name="i")(x)
    for u, v in zip(a, b):
        _close(u, v)
        assert u.shape == v.shape
    c = mlax.pmap(lambda v, s: v * s, in_axes=(0, None))(x[:4], np.float32(3))
    _close(c, x[:4] * 3)
    with pytest.raises(ValueError, match="requires 9 logical devices"):
        mlax.pmap(lambda v: v)(np.zeros((9, 2), np.float32))


def test_errors(meshes):
    m, _ = meshes
    with pytest.raises(NameError, match="unbound axis name: data"):
        lax.psum(mnp.ones(3), "data")
    with pytest.raises(NameError, match="unbound axis name: nope"):
        mlax.jit(mlax.shard_map(lambda a: lax.psum(a, "nope"), mesh=m, in_specs=P("data"),
                                out_specs=P()))(X)
    with pytest.raises(ValueError, match="not found in mesh"):
        mlax.shard_map(lambda a: a, mesh=m, in_specs=P("x"), out_specs=P())(X)
    with pytest.raises(ValueError, match="not evenly divisible"):
        mlax.shard_map(lambda a: a, mesh=m, in_specs=P("data"), out_specs=P("data"))(
            np.ones((6, 2), np.float32))
    with pytest.raises(ValueError, match="pytree prefix"):
        mlax.shard_map(lambda a, b: a, mesh=m, in_specs=(P(), P(), P()), out_specs=P())(X, X)
    with pytest.raises(ValueError, match="out of range"):
        mlax.jit(mlax.shard_map(lambda a: lax.ppermute(a, "data", [(0, 7)]), mesh=m,
                                in_specs=P("data"), out_specs=P("data")))(X)


def test_eager_transformations_of_shard_map(meshes):
    m, j = meshes
    w = np.linspace(-1, 1, 6, dtype=np.float32)
    x = np.linspace(-2, 2, 48, dtype=np.float32).reshape(8, 6)
    body, ins, outs = GRAD_CASES["data_parallel"]
    f_m = mlax.shard_map(lambda *a: body(lax, mnp, *a), mesh=m, in_specs=ins, out_specs=outs)
    f_j = jax.shard_map(lambda *a: body(jax.lax, jnp, *a), mesh=j, in_specs=_jspecs(ins),
                        out_specs=_jspecs(outs), check_vma=False)
    _close(mlax.grad(f_m)(w, x), jax.grad(f_j)(w, x), rtol=1e-5)
    out_m, pull_m = mlax.vjp(f_m, w, x)
    out_j, pull_j = jax.vjp(f_j, w, x)
    _close(out_m, out_j, rtol=1e-5)
    for a, b in zip(pull_m(mnp.float32(2.0)), pull_j(jnp.float32(2.0))):
        _close(a, b, rtol=1e-5)
    xs = np.stack([x, -x])
    _close(mlax.vmap(f_m, in_axes=(None, 0))(w, xs), jax.vmap(f_j, in_axes=(None, 0))(w, xs),
           rtol=1e-5)
    # An eager grad whose argument already lies over the mesh.
    xm = mlax.device_put(x, NamedSharding(m, P("data")))
    _close(mlax.grad(lambda v: mnp.sum(v ** 2))(xm), 2 * x)


def test_vmap_axis_names_are_not_mesh_axes():
    # A collective over a vmap axis combines the examples (as JAX; more in
    # test_vmap_collectives.py); a name nothing binds is JAX's NameError.
    _close(mlax.vmap(lambda v: v - lax.pmean(v, "i"), axis_name="i")(X),
           jax.vmap(lambda v: v - jax.lax.pmean(v, "i"), axis_name="i")(X), rtol=1e-5)
    with pytest.raises(NameError, match="unbound axis name: j"):
        mlax.vmap(lambda v: lax.psum(v, "j"), axis_name="i")(X)
    # axis_name alone (no collective) changes nothing.
    _close(mlax.vmap(lambda v: v * 2, axis_name="i")(X), X * 2)


def test_mesh_of_one_device():
    """A mesh of one device (XLA compiles such a program for one device and
    reports no output shardings): shard_map with a psum, jitted and eagerly,
    and a jit with an input NamedSharding, as JAX's."""
    from jax.sharding import Mesh as JMesh, NamedSharding as JNamed

    m = mlax.sharding.Mesh(np.array(mlax.devices("cpu")[:1]), ("x",))
    j = JMesh(np.array(jax.devices("cpu")[:1]), ("x",))
    x = np.arange(6, dtype=np.float32).reshape(2, 3)

    def body(lax_, np_):
        return lambda a: lax_.psum(np_.sin(a), "x") * 2

    for jit in (True, False):
        ours = mlax.shard_map(body(lax, mnp), mesh=m, in_specs=P("x"), out_specs=P())
        theirs = jax.shard_map(body(jax.lax, jnp), mesh=j, in_specs=JP("x"), out_specs=JP())
        if jit:
            ours, theirs = mlax.jit(ours), jax.jit(theirs)
        got, want = ours(x), theirs(x)
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-6)
        assert got.sharding.spec == P() and got.sharding.mesh == m
    put = mlax.device_put(x, NamedSharding(m, P("x")))
    got = mlax.jit(lambda a: a.T @ a)(put)
    want = jax.jit(lambda a: a.T @ a)(jax.device_put(x, JNamed(j, JP("x"))))
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-6)


def test_deprecated_experimental_spellings(meshes):
    """`from jax.experimental.shard_map import shard_map` (mesh and specs
    positional, check_rep) and `jax.experimental.pjit.pjit`, which programs
    written for earlier JAX releases import: the same results and the same
    DeprecationWarnings as JAX's."""
    import jax.experimental.pjit as jpjit
    import mlax.experimental.pjit as mpjit
    from mlax.experimental.shard_map import shard_map as m_shard_map
    with pytest.warns(DeprecationWarning, match="shard_map is deprecated"):
        from jax.experimental.shard_map import shard_map as j_shard_map
    m, j = meshes
    with pytest.warns(DeprecationWarning, match="shard_map is deprecated"):
        ours = m_shard_map(lambda a: lax.psum(a, "data"), m, P("data"), P(), check_rep=False)
    theirs = j_shard_map(lambda a: jax.lax.psum(a, "data"), j, JP("data"), JP(),
                         check_rep=False)
    _close(mlax.jit(ours)(X), jax.jit(theirs)(X))
    for mod in (jpjit, mpjit):
        with pytest.warns(DeprecationWarning, match="pjit has been deprecated"):
            mod.pjit
    sharded = mpjit._pjit(lambda a: a * 2, in_shardings=NamedSharding(m, P("data")),
                          out_shardings=NamedSharding(m, P("data")))
    out = sharded(X)
    _close(out, X * 2)
    assert out.sharding == NamedSharding(m, P("data"))
    with pytest.raises(AttributeError):
        mpjit.no_such_name

"""Collectives over vmap(axis_name=...) axes (issue 19), against JAX.

`vmap(f, axis_name="i")` binds "i" for the collectives `f` calls: psum over
"i" sums over the mapped examples, axis_index("i") is the example's index,
and so on. mlax-vectorize rewrites each collective over the vmap's axis into
ops over the batch dimension (docs/vmap.md)."""
import numpy as np
import pytest

import jax
import jax.numpy as jnp

import mlax
import mlax.numpy as mnp
from mlax import lax

RNG = np.random.default_rng(0)


def _close(a, b, rtol=1e-5, atol=1e-5):
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape, (a.shape, b.shape)
    assert a.dtype == b.dtype, (a.dtype, b.dtype)
    np.testing.assert_allclose(a, b, rtol=rtol, atol=atol)


def _both(make, *args, rtol=1e-5, **vmap_kw):
    """vmap of make(lax) in mlax and make(jax.lax) in JAX, compared."""
    got = mlax.vmap(make(lax), **vmap_kw)(*args)
    want = jax.vmap(make(jax.lax), **vmap_kw)(*args)
    jax.tree_util.tree_map(lambda a, b: _close(a, b, rtol=rtol), got, want)
    return got


def _x(*shape, dtype=np.float32):
    if np.issubdtype(dtype, np.integer):
        return RNG.integers(-5, 6, size=shape).astype(dtype)
    return RNG.standard_normal(shape).astype(dtype)


# ---------------------------------------------------------------------------
# Each collective
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["psum", "pmax", "pmin", "pmean"])
@pytest.mark.parametrize("shape", [(5,), (4, 3), (2, 3, 2)])
def test_reductions(name, shape):
    x = _x(*shape)
    _both(lambda l: lambda v: getattr(l, name)(v, "i"), x, axis_name="i")
    # the reduced value with out_axes=None (the same for every example)
    _both(lambda l: lambda v: getattr(l, name)(v, "i"), x, axis_name="i", out_axes=None)


@pytest.mark.parametrize("dtype", [np.int32, np.float32])
@pytest.mark.parametrize("name", ["psum", "pmax", "pmin"])
def test_reductions_dtypes(name, dtype):
    _both(lambda l: lambda v: getattr(l, name)(v, "i") - v, _x(6, 2, dtype=dtype),
          axis_name="i")


def test_pmean_of_ints_is_float():
    _both(lambda l: lambda v: l.pmean(v, "i"), _x(4, 3, dtype=np.int32), axis_name="i")


def test_reductions_in_axes_out_axes():
    x = _x(3, 5, 2)
    _both(lambda l: lambda v: v - l.pmean(v, "i"), x, axis_name="i", in_axes=1, out_axes=1)
    _both(lambda l: lambda v: v - l.psum(v, "i"), x, axis_name="i", in_axes=2, out_axes=0)
    w = _x(2)
    # an unmapped operand: psum multiplies it by the size, pmax keeps it
    _both(lambda l: lambda v, u: (l.psum(u, "i"), l.pmax(u, "i"), v), x, w, axis_name="i",
          in_axes=(0, None))


def test_pytree_operand():
    x, y = _x(4, 2), _x(4)
    _both(lambda l: lambda a, b: l.psum({"a": a, "b": (b, b * 2)}, "i"), x, y, axis_name="i")


@pytest.mark.parametrize("dtype", [np.int32, np.float32])
def test_axis_index(dtype):
    x = _x(5, 3, dtype=dtype)
    _both(lambda l: lambda v: v * l.axis_index("i").astype(v.dtype), x, axis_name="i")
    _both(lambda l: lambda v: l.axis_index("i"), x, axis_name="i")
    # no mapped input: axis_size gives the size
    got = mlax.vmap(lambda: lax.axis_index("i"), axis_name="i", axis_size=4)()
    _close(got, np.arange(4, dtype=np.int32))


def test_axis_size():
    sizes = []

    def f(v):
        sizes.append(lax.axis_size("i"))
        return v * lax.axis_size("i")

    _close(mlax.vmap(f, axis_name="i")(np.ones((7, 2), np.float32)),
           np.full((7, 2), 7.0, np.float32))
    assert sizes == [7] and isinstance(sizes[0], int)


@pytest.mark.parametrize("axis", [0, 1, 2, -1])
@pytest.mark.parametrize("tiled", [False, True])
def test_all_gather(axis, tiled):
    x = _x(4, 3, 2)
    if tiled and axis == 2:
        pytest.skip("tiled all_gather's axis indexes an existing dimension")
    _both(lambda l: lambda v: l.all_gather(v, "i", axis=axis, tiled=tiled), x, axis_name="i")
    _both(lambda l: lambda v: l.all_gather(v, "i", axis=axis, tiled=tiled), x, axis_name="i",
          in_axes=1, out_axes=None)


def test_all_gather_int_and_unmapped():
    x = _x(3, 2, dtype=np.int32)
    _both(lambda l: lambda v: l.all_gather(v, "i"), x, axis_name="i")
    _both(lambda l: lambda v, u: l.all_gather(u, "i") + v[0], x, x[0], axis_name="i",
          in_axes=(0, None))


@pytest.mark.parametrize("dim", [0, 1])
@pytest.mark.parametrize("tiled", [False, True])
def test_psum_scatter(dim, tiled):
    shape = [4, 8, 3] if tiled else [4, 4, 3]
    if dim == 1:
        shape[1], shape[2] = shape[2], shape[1]
    x = _x(*shape)
    _both(lambda l: lambda v: l.psum_scatter(v, "i", scatter_dimension=dim, tiled=tiled), x,
          axis_name="i")


@pytest.mark.parametrize("perm", [
    [(0, 1), (1, 2), (2, 3), (3, 0)],
    [(0, 3), (3, 0), (1, 2), (2, 1)],
    [(i, i) for i in range(4)],
])
def test_ppermute(perm):
    x = _x(4, 4)
    _both(lambda l: lambda v: l.ppermute(v, "i", perm), x, axis_name="i")
    _both(lambda l: lambda v: l.ppermute(v, "i", perm), x, axis_name="i", in_axes=1, out_axes=1)


def test_pshuffle_pswapaxes_pbroadcast():
    x = _x(4, 3)
    _both(lambda l: lambda v: l.pshuffle(v, "i", [3, 1, 0, 2]), x, axis_name="i")
    _both(lambda l: lambda v: l.pswapaxes(v, "i", 0), _x(4, 4, 2), axis_name="i")
    _both(lambda l: lambda v: l.pbroadcast(v, "i", 2), x, axis_name="i")
    _both(lambda l: lambda v: l.pbroadcast(v, "i", 1), np.array([True, False, True]),
          axis_name="i")
    with pytest.raises(ValueError, match="does not represent a permutation"):
        mlax.vmap(lambda v: lax.pshuffle(v, "i", [0, 0, 1, 2]), axis_name="i")(x)
    with pytest.raises(ValueError, match="source 7 is out of range for axis 'i' of size 4"):
        mlax.vmap(lambda v: lax.pbroadcast(v, "i", 7), axis_name="i")(x)


def test_ppermute_partial_sends_zeros():
    # JAX's vmap asserts a complete permutation; mlax gives zeros where no
    # pair sends, as ppermute does over a mesh (and JAX under shard_map).
    x = _x(4, 3)
    got = mlax.vmap(lambda v: lax.ppermute(v, "i", [(0, 1), (1, 2)]), axis_name="i")(x)
    want = np.zeros_like(x)
    want[1], want[2] = x[0], x[1]
    _close(got, want)


@pytest.mark.parametrize("split,concat", [(0, 0), (0, 1), (1, 0), (1, 2), (2, 1)])
@pytest.mark.parametrize("tiled", [False, True])
def test_all_to_all(split, concat, tiled):
    shape = [4, 3, 2, 5]
    if tiled:
        shape[1 + split] = 8
    else:
        shape[1 + split] = 4
    if not tiled and concat > 2:
        pytest.skip("out of range")
    x = _x(*shape)
    _both(lambda l: lambda v: l.all_to_all(v, "i", split, concat, tiled=tiled), x,
          axis_name="i")


# ---------------------------------------------------------------------------
# Nested vmaps, tuple axis names
# ---------------------------------------------------------------------------

def _nested(make, x, **inner_kw):
    got = mlax.vmap(mlax.vmap(make(lax), axis_name="j", **inner_kw), axis_name="i")(x)
    want = jax.vmap(jax.vmap(make(jax.lax), axis_name="j", **inner_kw), axis_name="i")(x)
    jax.tree_util.tree_map(lambda a, b: _close(a, b), got, want)


@pytest.mark.parametrize("axes", ["i", "j", ("i", "j"), ("j", "i")])
def test_nested_reductions_and_index(axes):
    x = _x(3, 4, 2)
    _nested(lambda l: lambda v: l.psum(v, axes), x)
    _nested(lambda l: lambda v: v - l.pmean(v, axes), x)
    _nested(lambda l: lambda v: l.pmax(v, axes) + l.pmin(v, axes), x)
    _nested(lambda l: lambda v: l.axis_index(axes), x)
    _nested(lambda l: lambda v: v * l.axis_size(axes), x)


def _examples(x, axes):
    """The examples of a (3, 4, ...) input in the group order of `axes`
    over the vmaps i (size 3) and j (size 4), stacked."""
    if axes == "i" or axes == "j":
        return None
    xs = x if axes == ("i", "j") else np.swapaxes(x, 0, 1)
    return xs.reshape((12,) + x.shape[2:])


@pytest.mark.parametrize("axes", ["i", "j", ("i", "j"), ("j", "i")])
@pytest.mark.parametrize("tiled", [False, True])
@pytest.mark.parametrize("axis", [0, 1])
def test_nested_all_gather(axes, tiled, axis):
    x = _x(3, 4, 2, 5)

    def make(l):
        return lambda v: l.all_gather(v, axes, axis=axis, tiled=tiled)

    if not isinstance(axes, tuple):
        return _nested(make, x)
    # JAX's vmap asserts on all_gather over two vmap axes: against NumPy.
    stacked = np.moveaxis(_examples(x, axes), 0, axis)  # [.., 12 at axis, ..]
    if tiled:
        shape = list(x.shape[2:])
        shape[axis] *= 12
        stacked = stacked.reshape(shape)
    got = mlax.vmap(mlax.vmap(make(lax), axis_name="j"), axis_name="i")(x)
    _close(got, np.broadcast_to(stacked, (3, 4) + stacked.shape))


@pytest.mark.parametrize("axes", ["i", "j", ("i", "j"), ("j", "i")])
@pytest.mark.parametrize("tiled", [False, True])
def test_nested_psum_scatter(axes, tiled):
    k = 2 if tiled else 1
    n = 12 if isinstance(axes, tuple) else (3 if axes == "i" else 4)
    x = _x(3, 4, 2, n * k)

    def make(l):
        return lambda v: l.psum_scatter(v, axes, scatter_dimension=1, tiled=tiled)

    if not isinstance(axes, tuple):
        return _nested(make, x)
    # JAX's vmap asserts on psum_scatter over two vmap axes: against NumPy.
    total = x.sum((0, 1))  # [2, 12 * k]
    want = np.empty((3, 4, 2, k), np.float32)
    for i in range(3):
        for j in range(4):
            g = i * 4 + j if axes == ("i", "j") else j * 3 + i
            want[i, j] = total[:, g * k:(g + 1) * k]
    if not tiled:
        want = want[..., 0]
    got = mlax.vmap(mlax.vmap(make(lax), axis_name="j"), axis_name="i")(x)
    _close(got, want, rtol=1e-4, atol=1e-4)


def test_nested_single_axis_exchanges():
    x = _x(3, 4, 4, 2)
    _nested(lambda l: lambda v: l.ppermute(v, "i", [(0, 1), (1, 2), (2, 0)]), x)
    _nested(lambda l: lambda v: l.ppermute(v, "j", [(0, 1), (1, 2), (2, 3), (3, 0)]), x)
    _nested(lambda l: lambda v: l.all_to_all(v, "j", 0, 1), x)
    y = _x(3, 4, 3, 2)
    _nested(lambda l: lambda v: l.all_to_all(v, "i", 0, 1), y)


def test_same_name_inner_wins():
    x = _x(3, 4)
    _nested(lambda l: lambda v: l.psum(v, "j"), x)
    got = mlax.vmap(mlax.vmap(lambda v: lax.psum(v, "i"), axis_name="i"), axis_name="i")(x)
    want = jax.vmap(jax.vmap(lambda v: jax.lax.psum(v, "i"), axis_name="i"), axis_name="i")(x)
    _close(got, want)


# ---------------------------------------------------------------------------
# jit, grad
# ---------------------------------------------------------------------------

def test_under_jit():
    x = _x(4, 3)

    def f(l):
        return lambda v: l.all_gather(v, "i").sum(0) + l.psum(v, "i") * l.axis_index("i")

    got = mlax.jit(mlax.vmap(f(lax), axis_name="i"))(x)
    _close(got, jax.vmap(f(jax.lax), axis_name="i")(x), rtol=1e-4)
    # a jit inside the vmapped function
    got = mlax.vmap(mlax.jit(f(lax)), axis_name="i")(x)
    _close(got, jax.vmap(f(jax.lax), axis_name="i")(x), rtol=1e-4)


def test_jit_inside_vmaps_of_two_sizes():
    g = mlax.jit(lambda v: lax.psum(v, "i"))
    for n in (3, 5):
        x = _x(n, 2)
        _close(mlax.vmap(g, axis_name="i")(x), np.broadcast_to(x.sum(0), x.shape), rtol=1e-4)


def _loss(l, np_):
    def loss(w, v):
        h = np_.tanh(v * w)
        return np_.sum((h - l.pmean(h, "i")) ** 2) + np_.sum(l.all_gather(h, "i")[0])
    return loss


def test_grad_of_vmap():
    w, x = _x(3), _x(5, 3)

    def outer(l, np_, vmap, grad):
        loss = _loss(l, np_)
        return grad(lambda w: np_.sum(vmap(loss, in_axes=(None, 0), axis_name="i")(w, x)))

    got = outer(lax, mnp, mlax.vmap, mlax.grad)(w)
    want = outer(jax.lax, jnp, jax.vmap, jax.grad)(w)
    _close(got, want, rtol=1e-4)


def test_vmap_of_grad():
    w, x = _x(3), _x(5, 3)
    got = mlax.vmap(mlax.grad(_loss(lax, mnp)), in_axes=(None, 0), axis_name="i")(w, x)
    want = jax.vmap(jax.grad(_loss(jax.lax, jnp)), in_axes=(None, 0), axis_name="i")(w, x)
    _close(got, want, rtol=1e-4)


def test_vmap_of_grad_psum_scatter_and_ppermute():
    x = _x(4, 8)

    def f(l, np_):
        def g(v):
            s = l.psum_scatter(v * v, "i", tiled=True)
            p = l.ppermute(v, "i", [(0, 1), (1, 2), (2, 3), (3, 0)])
            return np_.sum(s) + np_.sum(p * v)
        return g

    _close(mlax.vmap(mlax.grad(f(lax, mnp)), axis_name="i")(x),
           jax.vmap(jax.grad(f(jax.lax, jnp)), axis_name="i")(x), rtol=1e-4)


def test_jit_grad_vmap():
    w, x = _x(3), _x(5, 3)
    loss = _loss(lax, mnp)
    got = mlax.jit(mlax.grad(lambda w: mnp.sum(mlax.vmap(loss, (None, 0), axis_name="i")(w, x))))(w)
    jloss = _loss(jax.lax, jnp)
    want = jax.grad(lambda w: jnp.sum(jax.vmap(jloss, (None, 0), axis_name="i")(w, x)))(w)
    _close(got, want, rtol=1e-4)


# ---------------------------------------------------------------------------
# Control flow and custom rules inside the vmapped function
# ---------------------------------------------------------------------------

def test_axis_index_in_cond_and_scan():
    x = _x(4, 3)

    def f(l):
        def g(v):
            return jax.lax.cond(True, lambda u: u + l.axis_index("i"), lambda u: u, v) \
                if l is jax.lax else lax.cond(True, lambda u: u + lax.axis_index("i"),
                                              lambda u: u, v)
        return g

    _both(f, x, axis_name="i")

    def h(l, scan):
        def g(v):
            def body(c, _):
                return c + l.psum(c, "i") * 0.1, l.axis_index("i")
            return scan(body, v, None, length=3)
        return g

    got = mlax.vmap(h(lax, lax.scan), axis_name="i")(x)
    want = jax.vmap(h(jax.lax, jax.lax.scan), axis_name="i")(x)
    jax.tree_util.tree_map(lambda a, b: _close(a, b, rtol=1e-4), got, want)


# ---------------------------------------------------------------------------
# shard_map around vmap
# ---------------------------------------------------------------------------

def test_vmap_inside_shard_map():
    from mlax.sharding import Mesh, PartitionSpec as P
    devices = mlax.devices()
    if len(devices) < 2:
        pytest.skip("needs 2 devices")
    m = Mesh(np.array(devices[:2]), ("data",))
    jm = jax.sharding.Mesh(np.array(jax.devices()[:2]), ("data",))
    x = _x(4, 3, 2)

    def body(l, vmap):
        def f(v):  # v: [2, 3, 2] per device
            return vmap(lambda u: l.psum(u, "i") + l.psum(u, "data")
                        + l.psum(u, ("data", "i")) + l.axis_index(("data", "i")),
                        axis_name="i")(v)
        return f

    got = mlax.shard_map(body(lax, mlax.vmap), mesh=m, in_specs=P("data"),
                         out_specs=P("data"))(x)
    want = jax.shard_map(body(jax.lax, jax.vmap), mesh=jm, in_specs=jax.P("data"),
                         out_specs=jax.P("data"), check_vma=False)(x)
    _close(got, want, rtol=1e-4)
    # all_gather over a mesh axis and a vmap axis at once, both orders
    # (JAX's vmap asserts here: against NumPy). Example i of device d is
    # x[2 d + i]; its position is 2 d + i over ("data", "i"), 2 i + d over
    # ("i", "data").
    for axes, order in ((("data", "i"), [0, 1, 2, 3]), (("i", "data"), [0, 2, 1, 3])):
        got = mlax.shard_map(
            lambda v: mlax.vmap(lambda u: lax.all_gather(u, axes, axis=1), axis_name="i")(v),
            mesh=m, in_specs=P("data"), out_specs=P("data"))(x)
        want = np.broadcast_to(np.moveaxis(x[order], 0, 1), (4, 3, 4, 2))
        _close(got, want)


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------

def test_unbound_name():
    x = _x(3, 2)
    with pytest.raises(NameError, match="unbound axis name: j"):
        mlax.vmap(lambda v: lax.psum(v, "j"), axis_name="i")(x)
    with pytest.raises(NameError, match="unbound axis name: i"):
        mlax.vmap(lambda v: lax.axis_index("i"))(x)
    with pytest.raises(NameError, match="unbound axis name: i"):
        mlax.vmap(lambda v: lax.axis_size("i"))(x)


def test_errors():
    x = _x(4, 3)
    with pytest.raises(ValueError, match="out of range"):
        mlax.vmap(lambda v: lax.ppermute(v, "i", [(0, 4)]), axis_name="i")(x)
    with pytest.raises(ValueError, match="unique"):
        mlax.vmap(lambda v: lax.ppermute(v, "i", [(0, 1), (0, 2)]), axis_name="i")(x)
    with pytest.raises(ValueError):
        mlax.vmap(lambda v: lax.psum_scatter(v, "i"), axis_name="i")(x)  # 3 != 4
    with pytest.raises(ValueError):
        mlax.vmap(lambda v: lax.all_to_all(v, "i", 0, 0), axis_name="i")(x)

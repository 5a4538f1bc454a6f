"""Compositions jax.lax writes in Python over other lax functions:
associative_scan, conv_transpose and conv_general_dilated_patches, against
JAX eagerly and under jit, with their derivatives and vmap.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from _helpers import jax_outcomes

import mlax
import mlax.lax as L
import mlax.numpy as mnp

MODES = ["eager", "jit"]


def run(fn, args, mode):
    return fn(*args) if mode == "eager" else mlax.jit(fn)(*args)


def data(shape, dtype=np.float32, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def close(got, want, tol=2e-5):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    scale = max(1.0, float(np.max(np.abs(want)))) if want.size else 1.0
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * scale)


# ---------------------------------------------------------------------------
# associative_scan
# ---------------------------------------------------------------------------

# JAX's results of each table in one jitted program (jax_outcomes): run
# eagerly, its associative_scan compiles every slice and add on its own.
SCAN_NS = [1, 2, 3, 4, 7, 8, 13]
SCAN_ADD_TABLE = [(lambda a, r=reverse: jax.lax.associative_scan(jnp.add, a, reverse=r),
                   (data((n, 3)),), {}) for n in SCAN_NS for reverse in (False, True)]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("n", SCAN_NS)
def test_associative_scan_add(n, reverse, mode):
    x = data((n, 3))
    got = run(lambda a: L.associative_scan(mnp.add, a, reverse=reverse), (x,), mode)
    close(got, jax_outcomes(SCAN_ADD_TABLE)[2 * SCAN_NS.index(n) + reverse])


SCAN_AXES = [0, 1, -1, 2]
# (jax rejects a negative axis with reverse=True; mlax normalizes it)
SCAN_AXIS_TABLE = [(lambda a, r=reverse, ax=axis: jax.lax.associative_scan(
    jnp.maximum, a, reverse=r, axis=ax % 3), (data((3, 5, 6)),), {})
    for axis in SCAN_AXES for reverse in (False, True)]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("axis", SCAN_AXES)
@pytest.mark.parametrize("reverse", [False, True])
def test_associative_scan_axis(axis, reverse, mode):
    x = data((3, 5, 6))
    got = run(lambda a: L.associative_scan(mnp.maximum, a, reverse=reverse, axis=axis), (x,),
              mode)
    close(got, jax_outcomes(SCAN_AXIS_TABLE)[2 * SCAN_AXES.index(axis) + reverse])


def test_associative_scan_int_and_bool():
    x = np.arange(10, dtype=np.int32)
    b = np.array([False, False, True, False, True, False])
    want_x, want_b = jax.jit(lambda x, b: (jax.lax.associative_scan(jnp.add, x),
                                           jax.lax.associative_scan(jnp.logical_or, b)))(x, b)
    close(L.associative_scan(mnp.add, x), want_x)
    close(L.associative_scan(mnp.logical_or, b), want_b)


@pytest.mark.parametrize("mode", MODES)
def test_associative_scan_pytree_matmul(mode):
    # Partial products of 2x2 matrices and a (value, count) pair at once.
    mats = data((6, 2, 2))
    cnt = np.arange(6, dtype=np.float32)

    def fn(a, b):
        return {"m": a["m"] @ b["m"], "c": a["c"] + b["c"]}

    def jfn(a, b):
        return {"m": a["m"] @ b["m"], "c": a["c"] + b["c"]}

    got = run(lambda m, c: L.associative_scan(fn, {"m": m, "c": c}), (mats, cnt), mode)
    want = jax.lax.associative_scan(jfn, {"m": mats, "c": cnt})
    close(got["m"], want["m"], 1e-4)
    close(got["c"], want["c"])


def test_associative_scan_grad_and_vmap():
    x = data((7,))
    f = lambda a: mnp.sum(L.associative_scan(mnp.multiply, a) ** 2)  # noqa: E731
    jf = lambda a: jnp.sum(jax.lax.associative_scan(jnp.multiply, a) ** 2)  # noqa: E731
    close(mlax.grad(f)(x), jax.grad(jf)(x), 1e-4)
    xs = data((4, 7))
    close(mlax.vmap(lambda a: L.associative_scan(mnp.add, a))(xs),
          jax.vmap(lambda a: jax.lax.associative_scan(jnp.add, a))(xs))


def test_associative_scan_errors():
    with pytest.raises(TypeError, match="callable"):
        L.associative_scan(1, np.ones(3))
    with pytest.raises(ValueError, match="same first"):
        L.associative_scan(lambda a, b: a, (np.ones(3), np.ones(4)))
    with pytest.raises(ValueError, match="out of bounds"):
        L.associative_scan(mnp.add, np.ones(3), axis=1)


# ---------------------------------------------------------------------------
# conv_transpose
# ---------------------------------------------------------------------------

CT_CASES = [
    # lhs shape, rhs shape, strides, padding, rhs_dilation, dimension_numbers
    ((2, 5, 3), (3, 3, 4), (2,), "SAME", None, None),
    ((2, 5, 3), (3, 3, 4), (2,), "VALID", None, None),
    ((1, 6, 5, 2), (3, 2, 2, 3), (2, 1), "SAME", None, None),
    ((1, 6, 5, 2), (3, 2, 2, 3), (1, 2), "VALID", (2, 1), None),
    ((1, 6, 5, 2), (3, 3, 2, 3), (2, 2), ((1, 1), (2, 0)), None, None),
    ((2, 3, 6, 5), (4, 3, 3, 3), (2, 2), "SAME", None, ("NCHW", "OIHW", "NCHW")),
]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("transpose_kernel", [False, True])
@pytest.mark.parametrize("lshape,rshape,strides,padding,rdil,dn", CT_CASES)
def test_conv_transpose(lshape, rshape, strides, padding, rdil, dn, transpose_kernel, mode):
    if transpose_kernel:
        # the kernel's in/out features swap roles
        spec = dn[1] if dn else {3: "HIO", 4: "HWIO"}[len(rshape)]
        i, o = spec.index("I"), spec.index("O")
        rshape = list(rshape)
        rshape[i], rshape[o] = rshape[o], rshape[i]
        rshape = tuple(rshape)
    x, k = data(lshape), data(rshape, seed=1)
    kw = dict(rhs_dilation=rdil, dimension_numbers=dn, transpose_kernel=transpose_kernel)
    got = run(lambda a, b: L.conv_transpose(a, b, strides, padding, **kw), (x, k), mode)
    close(got, jax.lax.conv_transpose(x, k, strides, padding, **kw), 1e-4)


def test_conv_transpose_consistent_padding():
    x, k = data((1, 5, 2)), data((3, 2, 4), seed=1)
    for padding in ("SAME", ((1, 1),), ((0, 2),)):
        got = L.conv_transpose(x, k, (2,), padding, use_consistent_padding=True)
        close(got, jax.lax.conv_transpose(x, k, (2,), padding, use_consistent_padding=True),
              1e-4)


def test_conv_transpose_grad_vmap():
    x, k = data((1, 5, 2)), data((3, 2, 4), seed=1)

    def f(a, b):
        return mnp.sum(L.conv_transpose(a, b, (2,), "SAME") ** 2)

    def jf(a, b):
        return jnp.sum(jax.lax.conv_transpose(a, b, (2,), "SAME") ** 2)

    for got, want in zip(mlax.grad(f, argnums=(0, 1))(x, k), jax.grad(jf, argnums=(0, 1))(x, k)):
        close(got, want, 1e-4)
    xs = data((3, 1, 5, 2))
    close(mlax.vmap(lambda a: L.conv_transpose(a, k, (2,), "VALID"))(xs),
          jax.vmap(lambda a: jax.lax.conv_transpose(a, k, (2,), "VALID"))(xs), 1e-4)


# ---------------------------------------------------------------------------
# conv_general_dilated_patches
# ---------------------------------------------------------------------------

PATCHES = [
    ((2, 3, 6, 5), (2, 3), (1, 1), "VALID", None, None, None),
    ((2, 3, 6, 5), (3, 3), (2, 1), "SAME", None, None, None),
    ((1, 2, 7), (3,), (2,), ((1, 2),), (1,), (2,), None),
    ((1, 6, 5, 3), (2, 2), (1, 2), ((1, 0), (0, 1)), (2, 1), None, ("NHWC", "HWIO", "NHWC")),
    ((1, 6, 5, 3), (2, 2), (1, 2), "SAME", None, (1, 2), ("NHWC", "HWIO", "NHWC")),
]
PATCHES_TABLE = [(jax.lax.conv_general_dilated_patches, (data(lshape), filt, strides, padding),
                  dict(lhs_dilation=ldil, rhs_dilation=rdil, dimension_numbers=dn))
                 for lshape, filt, strides, padding, ldil, rdil, dn in PATCHES]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("lshape,filt,strides,padding,ldil,rdil,dn", PATCHES)
def test_conv_general_dilated_patches(lshape, filt, strides, padding, ldil, rdil, dn, mode):
    x = data(lshape)
    kw = dict(lhs_dilation=ldil, rhs_dilation=rdil, dimension_numbers=dn)
    got = run(lambda a: L.conv_general_dilated_patches(a, filt, strides, padding, **kw), (x,),
              mode)
    want = jax_outcomes(PATCHES_TABLE)[PATCHES.index(
        (lshape, filt, strides, padding, ldil, rdil, dn))]
    close(got, want)

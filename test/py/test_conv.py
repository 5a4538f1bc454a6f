"""Convolutions and windowed reductions: lax.conv_general_dilated (conv,
conv_with_general_padding), lax.reduce_window, numpy.convolve/correlate.

Values, gradients and vmap are compared with JAX; derivatives also with
finite differences in float64.
"""
from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mlax
import mlax.lax as mlax_lax
import mlax.numpy as mnp

from _helpers import jgrad, jjvp, jvmap, make_input



def _close(a, b, dtype=np.float32):
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape and a.dtype == b.dtype, (a.shape, a.dtype, b.shape, b.dtype)
    if np.issubdtype(a.dtype, np.integer):
        np.testing.assert_array_equal(a, b)
    else:
        tol = {np.float64: 1e-10, np.float16: 2e-2}.get(np.dtype(dtype).type, 2e-5)
        np.testing.assert_allclose(a.astype(np.float64), b.astype(np.float64), rtol=tol,
                                   atol=tol)


# ---------------------------------------------------------------------------
# conv_general_dilated: values against JAX
# ---------------------------------------------------------------------------

# (id, lhs shape, rhs shape, keyword arguments of conv_general_dilated)
CONVS = [
    ("nchw_valid", (2, 3, 6, 5), (4, 3, 3, 2), dict(window_strides=(1, 1), padding="VALID")),
    ("nchw_same", (2, 3, 6, 5), (4, 3, 3, 2), dict(window_strides=(1, 1), padding="SAME")),
    ("same_lower_strided", (1, 2, 7, 6), (3, 2, 2, 3),
     dict(window_strides=(2, 3), padding="SAME_LOWER")),
    ("explicit_negative_padding", (1, 2, 7, 6), (3, 2, 2, 3),
     dict(window_strides=(1, 2), padding=((2, -1), (0, 3)))),
    ("nhwc_hwio", (2, 6, 5, 3), (3, 2, 3, 4),
     dict(window_strides=(1, 1), padding="SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))),
    ("odd_layouts", (5, 2, 3, 6), (2, 2, 4, 3),
     dict(window_strides=(2, 1), padding=((1, 1), (0, 2)),
          dimension_numbers=("HCNW", "WIHO", "WHNC"))),
    ("dilated", (1, 2, 9, 8), (2, 2, 3, 2),
     dict(window_strides=(1, 2), padding=((1, 2), (0, 0)), lhs_dilation=(2, 1),
          rhs_dilation=(1, 3))),
    ("feature_groups", (2, 6, 5, 5), (4, 3, 3, 3),
     dict(window_strides=(1, 1), padding="SAME", feature_group_count=2)),
    ("depthwise", (1, 4, 6, 6), (8, 1, 3, 3),
     dict(window_strides=(2, 2), padding="VALID", feature_group_count=4)),
    ("batch_groups", (4, 3, 6, 5), (6, 3, 3, 2),
     dict(window_strides=(1, 1), padding="VALID", batch_group_count=2)),
    ("conv1d", (2, 3, 10), (4, 3, 3), dict(window_strides=(2,), padding=((2, 1),))),
    ("conv3d", (1, 2, 4, 5, 3), (2, 2, 2, 3, 2),
     dict(window_strides=(1, 2, 1), padding="SAME", rhs_dilation=(2, 1, 1))),
    ("conv0d", (3, 4), (5, 4), dict(window_strides=(), padding=())),
]


def _conv_case(case, dtype=np.float32):
    _, ls, rs, kw = case
    lhs = make_input(ls, dtype, "any", seed=1)
    rhs = make_input(rs, dtype, "any", seed=2)
    return lhs, rhs, kw


def _all_convs(lax_):
    """Every case of CONVS as one function of all their operands."""
    return lambda args: {c[0]: lax_.conv_general_dilated(*args[c[0]], **c[3]) for c in CONVS}


@functools.lru_cache(maxsize=None)
def _jax_conv_values():
    """JAX's values of every case of CONVS: one jitted program."""
    return jax.jit(_all_convs(jax.lax))({c[0]: _conv_case(c)[:2] for c in CONVS})


@pytest.mark.parametrize("case", CONVS, ids=[c[0] for c in CONVS])
def test_conv_values_match_jax(case):
    lhs, rhs, kw = _conv_case(case)
    _close(mlax_lax.conv_general_dilated(lhs, rhs, **kw), _jax_conv_values()[case[0]])


def test_conv_values_match_jax_jit():
    """Every case under jit, in one program."""
    got = mlax.jit(_all_convs(mlax_lax))({c[0]: _conv_case(c)[:2] for c in CONVS})
    for c in CONVS:
        try:
            _close(got[c[0]], _jax_conv_values()[c[0]])
        except AssertionError as e:
            raise AssertionError(f"{c[0]}: {e}") from e


@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.float16],
                         ids=["float64", "int32", "float16"])
def test_conv_dtypes(dtype, x64):
    lhs, rhs, kw = _conv_case(CONVS[7], np.float32)
    if np.issubdtype(dtype, np.integer):
        lhs, rhs = (lhs * 4).astype(dtype), (rhs * 4).astype(dtype)
    else:
        lhs, rhs = lhs.astype(dtype), rhs.astype(dtype)
    got = mlax_lax.conv_general_dilated(lhs, rhs, **kw)
    want = jax.lax.conv_general_dilated(lhs, rhs, **kw)
    _close(got, want, dtype)


def test_conv_preferred_element_type():
    lhs = make_input((1, 2, 5), np.int8, "any", seed=3)
    rhs = make_input((3, 2, 2), np.int8, "any", seed=4)
    for pet in (np.int32, np.float32):
        got = mlax_lax.conv_general_dilated(lhs, rhs, (1,), "VALID", preferred_element_type=pet)
        want = jax.lax.conv_general_dilated(lhs, rhs, (1,), "VALID", preferred_element_type=pet)
        _close(got, want)
    # bf16 inputs accumulated in f32
    a = make_input((1, 2, 5), np.float32, seed=5).astype(jnp.bfloat16)
    b = make_input((3, 2, 2), np.float32, seed=6).astype(jnp.bfloat16)
    got = mlax_lax.conv_general_dilated(a, b, (1,), "SAME", preferred_element_type=np.float32)
    want = jax.lax.conv_general_dilated(a, b, (1,), "SAME", preferred_element_type=np.float32)
    _close(got, want)


def test_conv_shorthands_and_dimension_numbers():
    lhs = make_input((2, 3, 6, 5), np.float32, seed=7)
    rhs = make_input((4, 3, 3, 2), np.float32, seed=8)
    _close(mlax_lax.conv(lhs, rhs, (1, 2), "SAME"), jax.lax.conv(lhs, rhs, (1, 2), "SAME"))
    _close(mlax_lax.conv_with_general_padding(lhs, rhs, (2, 1), ((1, 0), (2, 2)), (1, 2), (2, 1)),
           jax.lax.conv_with_general_padding(lhs, rhs, (2, 1), ((1, 0), (2, 2)), (1, 2), (2, 1)))
    spec = ("NHWC", "OIHW", "NCHW")
    dm = mlax_lax.conv_dimension_numbers((2, 6, 5, 3), (4, 3, 3, 2), spec)
    dj = jax.lax.conv_dimension_numbers((2, 6, 5, 3), (4, 3, 3, 2), spec)
    assert tuple(map(tuple, dm)) == tuple(map(tuple, dj))
    assert isinstance(dm, mlax_lax.ConvDimensionNumbers)
    x = np.transpose(lhs, (0, 2, 3, 1))
    _close(mlax_lax.conv_general_dilated(x, rhs, (1, 1), "VALID", dimension_numbers=dm),
           jax.lax.conv_general_dilated(x, rhs, (1, 1), "VALID", dimension_numbers=dj))
    assert mlax_lax.padtype_to_pads((7, 6), (3, 2), (2, 3), "SAME") == \
        jax.lax.padtype_to_pads((7, 6), (3, 2), (2, 3), "SAME")


def test_conv_ir_is_one_op():
    lhs = np.ones((1, 2, 5), np.float32)
    rhs = np.ones((3, 2, 2), np.float32)
    text = str(mlax.make_ir(lambda a, b: mlax_lax.conv(a, b, (1,), "SAME"))(lhs, rhs))
    assert text.count("mlax.conv_general_dilated") == 1
    hlo = mlax.jit(lambda a, b: mlax_lax.conv(a, b, (1,), "SAME")).lower(lhs, rhs).as_text()
    assert "stablehlo.convolution" in hlo


# ---------------------------------------------------------------------------
# conv_general_dilated: derivatives and vmap
# ---------------------------------------------------------------------------

GRAD_CONVS = [c for c in CONVS if c[0] != "conv0d"] + [CONVS[-1]]


def _weighted(f, w, sum_):
    return lambda a, b: sum_(f(a, b) * w)


@pytest.mark.parametrize("case", GRAD_CONVS, ids=[c[0] for c in GRAD_CONVS])
def test_conv_grad_and_jvp_match_jax(case):
    lhs, rhs, kw = _conv_case(case)
    fm = lambda a, b: mlax_lax.conv_general_dilated(a, b, **kw)  # noqa: E731
    fj = lambda a, b: jax.lax.conv_general_dilated(a, b, **kw)  # noqa: E731
    w = make_input(jax.eval_shape(fj, lhs, rhs).shape, np.float32, seed=9)
    tl = make_input(lhs.shape, np.float32, seed=10)
    tr = make_input(rhs.shape, np.float32, seed=11)
    # JAX's gradient and jvp in one jitted program.
    gj, (_, tj) = jax.jit(lambda *x: (
        jax.grad(_weighted(fj, w, jnp.sum), argnums=(0, 1))(*x[:2]),
        jax.jvp(fj, x[:2], x[2:])))(lhs, rhs, tl, tr)
    gm = mlax.jit(mlax.grad(_weighted(fm, w, mnp.sum), argnums=(0, 1)))(lhs, rhs)
    for a, b in zip(gm, gj):
        _close(a, b)
    _, tm = mlax.jvp(fm, (lhs, rhs), (tl, tr))
    _close(tm, tj)


@pytest.mark.parametrize("case", [CONVS[i] for i in (3, 5, 6, 7, 9, 10)],
                         ids=[CONVS[i][0] for i in (3, 5, 6, 7, 9, 10)])
def test_conv_derivatives_f64_finite_differences(case, x64):
    lhs, rhs, kw = _conv_case(case, np.float64)
    fm = lambda a, b: mlax_lax.conv_general_dilated(a, b, **kw)  # noqa: E731
    w = make_input(jax.eval_shape(lambda a, b: jax.lax.conv_general_dilated(a, b, **kw), lhs,
                                  rhs).shape, np.float64, seed=9)
    s = _weighted(fm, w, mnp.sum)
    gl, gr = mlax.grad(s, argnums=(0, 1))(lhs, rhs)
    vl = make_input(lhs.shape, np.float64, seed=12)
    vr = make_input(rhs.shape, np.float64, seed=13)
    h = 1e-6
    numeric = (float(s(lhs + h * vl, rhs + h * vr)) - float(s(lhs - h * vl, rhs - h * vr))) / (2 * h)
    analytic = float(np.sum(np.asarray(gl) * vl) + np.sum(np.asarray(gr) * vr))
    np.testing.assert_allclose(analytic, numeric, rtol=1e-6, atol=1e-8)
    # second order: the Hessian-vector product of a bilinear map against JAX
    _, hvp = mlax.jvp(mlax.grad(s, argnums=(0, 1)), (lhs, rhs), (vl, vr))
    sj = _weighted(lambda a, b: jax.lax.conv_general_dilated(a, b, **kw), w, jnp.sum)
    _, hvp_j = jjvp(jgrad(sj, argnums=(0, 1)), (lhs, rhs), (vl, vr))
    for a, b in zip(hvp, hvp_j):
        _close(a, b, np.float64)


VMAP_AXES = [(0, None), (None, 0), (0, 0), (1, 2)]


@pytest.mark.parametrize("case", [CONVS[i] for i in (0, 4, 5, 7, 9, 11)],
                         ids=[CONVS[i][0] for i in (0, 4, 5, 7, 9, 11)])
@pytest.mark.parametrize("axes", VMAP_AXES, ids=["lhs", "rhs", "both", "both_inner"])
def test_conv_vmap_matches_jax(case, axes):
    lhs, rhs, kw = _conv_case(case)
    n = 3
    la, ra = axes

    def batched(x, axis, seed):
        if axis is None:
            return x
        xs = np.stack([make_input(x.shape, np.float32, seed=seed + i) for i in range(n)])
        return np.moveaxis(xs, 0, axis)

    bl, br = batched(lhs, la, 20), batched(rhs, ra, 30)
    fm = lambda a, b: mlax_lax.conv_general_dilated(a, b, **kw)  # noqa: E731
    fj = lambda a, b: jax.lax.conv_general_dilated(a, b, **kw)  # noqa: E731
    # (JAX's two in one jitted program)
    want0, want1 = jax.jit(lambda a, b: (jax.vmap(fj, in_axes=axes)(a, b),
                                         jax.vmap(fj, in_axes=axes, out_axes=1)(a, b)))(bl, br)
    # Out axis 0 eagerly for half the cases (each of a case's axes in turn,
    # rotating, so each case and each in_axes runs eagerly), else under jit
    # in the one program with out axis 1.
    if (CONVS.index(case) + VMAP_AXES.index(axes)) % 2 == 0:
        _close(mlax.vmap(fm, in_axes=axes)(bl, br), want0)
        _close(mlax.jit(mlax.vmap(fm, in_axes=axes, out_axes=1))(bl, br), want1)
    else:
        got0, got1 = mlax.jit(lambda a, b: (mlax.vmap(fm, in_axes=axes)(a, b),
                                            mlax.vmap(fm, in_axes=axes, out_axes=1)(a, b)))(bl, br)
        _close(got0, want0)
        _close(got1, want1)


def test_conv_vmap_of_grad_matches_jax():
    lhs, rhs, kw = _conv_case(CONVS[7])
    ks = np.stack([rhs, rhs * 2, -rhs])
    fm = lambda a, b: mnp.sum(mlax_lax.conv_general_dilated(a, b, **kw) ** 2)  # noqa: E731
    fj = lambda a, b: jnp.sum(jax.lax.conv_general_dilated(a, b, **kw) ** 2)  # noqa: E731
    got = mlax.vmap(mlax.grad(fm, argnums=(0, 1)), in_axes=(None, 0))(lhs, ks)
    want = jvmap(jgrad(fj, argnums=(0, 1)), in_axes=(None, 0))(lhs, ks)
    for a, b in zip(got, want):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-4, atol=1e-4)


# ---------------------------------------------------------------------------
# conv_general_dilated: errors name the function
# ---------------------------------------------------------------------------

def test_conv_error_ranks():
    with pytest.raises(TypeError, match="ndim to be equal"):
        mlax_lax.conv_general_dilated(np.ones((1, 2, 5)), np.ones((1, 2, 2, 2)), (1,), "VALID")
    with pytest.raises(TypeError, match="lax.conv_general_dilated.*rank at least 2"):
        mlax_lax.conv_general_dilated(np.ones((5,)), np.ones((2,)), (), "VALID")


def test_conv_error_features():
    with pytest.raises(ValueError, match=r"lax.conv_general_dilated: lhs feature dimension size "
                                         r"divided by feature_group_count \(3 / 1\) must equal "
                                         r"the rhs input feature dimension size \(2\)"):
        mlax_lax.conv_general_dilated(np.ones((1, 3, 5), np.float32),
                                      np.ones((4, 2, 2), np.float32), (1,), "VALID")
    with pytest.raises(ValueError, match="lax.conv_general_dilated: .*feature_group_count"):
        mlax.jit(lambda a, b: mlax_lax.conv_general_dilated(a, b, (1,), "VALID",
                                                            feature_group_count=2))(
            np.ones((1, 3, 5), np.float32), np.ones((4, 1, 2), np.float32))
    with pytest.raises(ValueError, match="lax.conv_general_dilated: .*batch_group_count"):
        mlax_lax.conv_general_dilated(np.ones((3, 2, 5), np.float32),
                                      np.ones((4, 2, 2), np.float32), (1,), "VALID",
                                      batch_group_count=2)


def test_conv_error_arguments():
    x, k = np.ones((1, 2, 5), np.float32), np.ones((3, 2, 2), np.float32)
    with pytest.raises(ValueError, match="lax.conv_general_dilated: window_strides"):
        mlax_lax.conv_general_dilated(x, k, (1, 1), "VALID")
    with pytest.raises(ValueError, match="lax.conv_general_dilated: padding"):
        mlax_lax.conv_general_dilated(x, k, (1,), ((1, 1), (1, 1)))
    with pytest.raises(TypeError, match="lax.conv_general_dilated: requires operands of one dtype"):
        mlax_lax.conv_general_dilated(x, k.astype(np.float16), (1,), "VALID")
    with pytest.raises(RuntimeError, match="Unrecognized padding type"):
        mlax_lax.conv_general_dilated(x, k, (1,), "FULL")
    with pytest.raises(TypeError, match="dimension_numbers"):
        mlax_lax.conv_general_dilated(x, k, (1,), "VALID", dimension_numbers=("NCW", "OIW"))


# ---------------------------------------------------------------------------
# reduce_window: pooling
# ---------------------------------------------------------------------------

# (id, shape, computation name, init (None: the identity), kwargs)
WINDOWS = [
    ("max_pool_2x2", (2, 6, 6, 3), "max", None,
     dict(window_dimensions=(1, 2, 2, 1), window_strides=(1, 2, 2, 1), padding="VALID")),
    ("max_pool_same", (2, 3, 7, 5), "max", None,
     dict(window_dimensions=(1, 1, 3, 3), window_strides=(1, 1, 2, 2), padding="SAME")),
    ("avg_pool_sum", (2, 3, 6, 6), "add", None,
     dict(window_dimensions=(1, 1, 3, 3), window_strides=(1, 1, 1, 1), padding="SAME")),
    ("min_pool_padded", (5, 7), "min", None,
     dict(window_dimensions=(2, 3), window_strides=(2, 1), padding=((1, 0), (2, 1)))),
    ("sum_dilated", (4, 6), "add", None,
     dict(window_dimensions=(2, 3), window_strides=(1, 2), padding=((1, 1), (0, 2)),
          base_dilation=(2, 1), window_dilation=(1, 2))),
    ("max_base_dilated", (4, 5), "max", None,
     dict(window_dimensions=(2, 2), window_strides=(1, 2), padding=((0, 1), (1, 0)),
          base_dilation=(2, 2))),
    ("mul_window", (3, 6), "mul", None,
     dict(window_dimensions=(1, 3), window_strides=(1, 1), padding="VALID")),
    ("sum_init_5", (3, 6), "add", 5.0,
     dict(window_dimensions=(2, 2), window_strides=(1, 1), padding="VALID")),
    ("max_init_0_padded", (3, 6), "max", 0.0,
     dict(window_dimensions=(2, 2), window_strides=(1, 2), padding="SAME")),
]

_IDENTITY = {"add": 0.0, "mul": 1.0, "max": -np.inf, "min": np.inf}


def _window_fn(case, backend):
    _, _, comp, init, kw = case
    lax_ = mlax_lax if backend == "mlax" else jax.lax
    if backend == "jax_differentiable" and init is not None:
        # JAX cannot differentiate reduce_window with a non-identity start;
        # the same function, from the identity, then combined with it.
        lax_ = jax.lax
        op = getattr(lax_, comp)
        return lambda x: op(lax_.reduce_window(x, _IDENTITY[comp], op, **kw),
                            jnp.asarray(init, x.dtype))
    if backend == "jax_differentiable":
        lax_ = jax.lax
    init = _IDENTITY[comp] if init is None else init
    return lambda x: lax_.reduce_window(x, init, getattr(lax_, comp), **kw)


def _all_windows(backend):
    """Every case of WINDOWS as one function of all their operands."""
    fns = {c[0]: _window_fn(c, backend) for c in WINDOWS}
    return lambda xs: {k: fns[k](xs[k]) for k in fns}


def _window_inputs():
    return {c[0]: make_input(c[1], np.float32, seed=3) for c in WINDOWS}


@functools.lru_cache(maxsize=None)
def _jax_window_values():
    """JAX's values of every case of WINDOWS: one jitted program."""
    return jax.jit(_all_windows("jax"))(_window_inputs())


@pytest.mark.parametrize("case", WINDOWS, ids=[c[0] for c in WINDOWS])
def test_reduce_window_values_match_jax(case):
    x = make_input(case[1], np.float32, seed=3)
    _close(_window_fn(case, "mlax")(x), _jax_window_values()[case[0]])


def test_reduce_window_values_match_jax_jit():
    """Every case under jit, in one program."""
    got = mlax.jit(_all_windows("mlax"))(_window_inputs())
    for c in WINDOWS:
        try:
            _close(got[c[0]], _jax_window_values()[c[0]])
        except AssertionError as e:
            raise AssertionError(f"{c[0]}: {e}") from e


def test_reduce_window_integer_and_numpy_computations():
    x = (make_input((4, 6), np.float32, seed=4) * 10).astype(np.int32)
    kw = dict(window_dimensions=(2, 2), window_strides=(2, 1), padding="SAME")
    info = np.iinfo(np.int32)
    comps = (("add", 0), ("max", info.min), ("min", info.max))
    # JAX's in one jitted program (eagerly: a compile per primitive)
    wants, want_f = jax.jit(lambda x: (
        [jax.lax.reduce_window(x, np.int32(init), getattr(jax.lax, comp), **kw)
         for comp, init in comps],
        jax.lax.reduce_window(x.astype(np.float32), -np.inf, jax.lax.max, **kw)))(x)
    for (comp, init), want in zip(comps, wants):
        got = mlax_lax.reduce_window(x, init, getattr(mlax_lax, comp), **kw)
        _close(got, want)
    got = mlax_lax.reduce_window(x.astype(np.float32), -np.inf, mnp.maximum, **kw)
    _close(got, want_f)


def test_avg_and_max_pool_layers():
    """The pooling users write: average pooling as a window sum over the
    window size, max pooling with -inf, both under jit and grad."""
    x = make_input((2, 8, 8, 3), np.float32, seed=5)

    def pools(lax_, np_):
        def f(x):
            avg = lax_.reduce_window(x, 0.0, lax_.add, (1, 2, 2, 1), (1, 2, 2, 1), "VALID") / 4.0
            mx = lax_.reduce_window(x, -np_.inf, lax_.max, (1, 3, 3, 1), (1, 2, 2, 1), "SAME")
            return np_.sum(avg ** 2) + np_.sum(mx * avg)
        return f

    fm, fj = pools(mlax_lax, mnp), pools(jax.lax, jnp)
    value, grad = jax.jit(lambda x: (fj(x), jax.grad(fj)(x)))(x)  # JAX's in one program
    np.testing.assert_allclose(float(mlax.jit(fm)(x)), float(value), rtol=1e-5)
    _close(mlax.jit(mlax.grad(fm))(x), grad)


DIFF_WINDOWS = [c for c in WINDOWS if c[2] != "mul"]


@pytest.mark.parametrize("case", DIFF_WINDOWS, ids=[c[0] for c in DIFF_WINDOWS])
def test_reduce_window_grad_and_jvp_match_jax(case):
    x = make_input(case[1], np.float32, seed=6)
    fm, fj = _window_fn(case, "mlax"), _window_fn(case, "jax_differentiable")
    fv = _window_fn(case, "jax")
    w = make_input(jax.eval_shape(fj, x).shape, np.float32, seed=7)
    t = make_input(case[1], np.float32, seed=8)
    # JAX's value, gradient and jvp in one jitted program.
    value, grad, (_, tangent) = jax.jit(lambda x, t: (
        fv(x), jax.grad(lambda x: jnp.sum(fj(x) * w))(x), jax.jvp(fj, (x,), (t,))))(x, t)
    _close(fm(x), value)
    _close(mlax.grad(lambda x: mnp.sum(fm(x) * w))(x), grad)
    _close(mlax.jvp(fm, (x,), (t,))[1], tangent)


@pytest.mark.parametrize("case", DIFF_WINDOWS, ids=[c[0] for c in DIFF_WINDOWS])
def test_reduce_window_derivatives_f64(case, x64):
    x = make_input(case[1], np.float64, seed=6)
    v = make_input(case[1], np.float64, seed=9)
    fm, fj = _window_fn(case, "mlax"), _window_fn(case, "jax_differentiable")
    w = make_input(jax.eval_shape(fj, x).shape, np.float64, seed=7)
    sm = lambda x: mnp.sum(fm(x) * w ** 2)  # noqa: E731
    sj = lambda x: jnp.sum(fj(x) * w ** 2)  # noqa: E731
    # JAX's gradient and Hessian-vector product in one jitted program.
    grad_j, (_, hvp_j) = jax.jit(lambda x, v: (jax.grad(sj)(x), jax.jvp(jax.grad(sj), (x,),
                                                                         (v,))))(x, v)
    g = mlax.grad(sm)(x)
    _close(g, grad_j, np.float64)
    h = 1e-6
    numeric = (float(sm(x + h * v)) - float(sm(x - h * v))) / (2 * h)
    np.testing.assert_allclose(float(np.sum(np.asarray(g) * v)), numeric, rtol=1e-6, atol=1e-8)
    # second derivatives (zero almost everywhere: the map is piecewise linear)
    _, hvp = mlax.jvp(mlax.grad(sm), (x,), (v,))
    _close(hvp, hvp_j, np.float64)


# Product windows: JAX differentiates them in forward mode only (a variadic
# reduce_window); mlax in both, exactly (zeros in a window included). Inputs
# hold zeros (single and double ones in a window), and windows of every kind.
PROD_WINDOWS = [
    ("prod_valid", (3, 6), dict(window_dimensions=(1, 3), window_strides=(1, 1),
                                padding="VALID")),
    ("prod_2d_same_strided", (4, 5), dict(window_dimensions=(2, 3), window_strides=(2, 1),
                                          padding="SAME")),
    ("prod_padded_dilated", (4, 6), dict(window_dimensions=(2, 3), window_strides=(1, 2),
                                         padding=((1, 1), (0, 2)), base_dilation=(2, 1),
                                         window_dilation=(1, 2))),
    ("prod_1d_overlapping", (9,), dict(window_dimensions=(4,), window_strides=(1,),
                                       padding=((2, 1),))),
]


def _prod_input(shape, dtype):
    x = make_input(shape, dtype, seed=11)
    flat = x.reshape(-1)
    flat[[1, 4, 5]] = 0  # one zero, and two neighbouring zeros
    return x


def _jax_prod_patches(x, window_dimensions, window_strides, padding, base_dilation=None,
                      window_dilation=None):
    """A product window in JAX from ops JAX differentiates in every mode
    (jax.lax.reduce_window with lax.mul has a forward rule only, and even
    that fails under vmap and nested jvp): the operand padded with 1, one
    strided slice per window offset, jnp.prod over them."""
    n = x.ndim
    bd = base_dilation or (1,) * n
    wd = window_dilation or (1,) * n
    if isinstance(padding, str):
        padding = jax.lax.padtype_to_pads(x.shape, window_dimensions, window_strides, padding)
    xp = jax.lax.pad(x, jnp.array(1, x.dtype), [(lo, hi, b - 1)
                                               for (lo, hi), b in zip(padding, bd)])
    span = [(w - 1) * d + 1 for w, d in zip(window_dimensions, wd)]
    out = [(p - s) // st + 1 for p, s, st in zip(xp.shape, span, window_strides)]
    parts = []
    for off in np.ndindex(*window_dimensions):
        start = [o * d for o, d in zip(off, wd)]
        limit = [b + (m - 1) * st + 1 for b, m, st in zip(start, out, window_strides)]
        parts.append(jax.lax.slice(xp, start, limit, window_strides))
    return jnp.prod(jnp.stack(parts, -1), -1)


def _prod_fns(kw):
    fm = lambda x: mlax_lax.reduce_window(x, 1.0, mlax_lax.mul, **kw)  # noqa: E731
    fj = lambda x: jax.lax.reduce_window(x, 1.0, jax.lax.mul, **kw)  # noqa: E731
    fr = lambda x: _jax_prod_patches(x, **kw)  # noqa: E731
    return fm, fj, fr


@pytest.mark.parametrize("case", PROD_WINDOWS, ids=[c[0] for c in PROD_WINDOWS])
def test_reduce_window_mul_derivatives_f64(case, x64):
    _, shape, kw = case
    fm, fj, fr = _prod_fns(kw)
    x = _prod_input(shape, np.float64)
    t = make_input(shape, np.float64, seed=12)
    w = make_input(jax.eval_shape(fj, x).shape, np.float64, seed=13)
    sm = lambda x: mnp.sum(fm(x) * w)  # noqa: E731
    sr = lambda x: jnp.sum(fr(x) * w)  # noqa: E731
    # Central finite differences, element by element: the function at x
    # plus and minus h along each axis.
    h = 1e-6
    steps = (h * np.eye(x.size)).reshape((x.size,) + x.shape)
    # JAX's references, all in one jitted program (one compile, not one per
    # reference): the value (reduce_window and the patches), the tangent,
    # the gradient, the function at the finite differences' points and the
    # Hessian-vector product.
    value_j, value_r, tangent_j, grad_r, f_plus, f_minus, want = jax.jit(lambda x, t, e: (
        fj(x), fr(x), jax.jvp(fj, (x,), (t,))[1], jax.grad(sr)(x), jax.vmap(sr)(x + e),
        jax.vmap(sr)(x - e), jax.jvp(jax.grad(sr), (x,), (t,))[1]))(x, t, steps)
    _close(fm(x), value_j, np.float64)
    _close(value_r, value_j, np.float64)  # the reference is the same function
    _close(mlax.jvp(fm, (x,), (t,))[1], tangent_j, np.float64)
    g = mlax.grad(sm)(x)
    _close(g, grad_r, np.float64)
    # ... and central finite differences, element by element.
    fd = ((np.asarray(f_plus) - np.asarray(f_minus)) / (2 * h)).reshape(x.shape)
    np.testing.assert_allclose(np.asarray(g), fd, rtol=1e-6, atol=1e-8)
    # Second order: Hessian-vector products, forward over reverse and
    # reverse over forward.
    _close(mlax.jvp(mlax.grad(sm), (x,), (t,))[1], want, np.float64)
    _close(mlax.grad(lambda x: mlax.jvp(sm, (x,), (t,))[1])(x), want, np.float64)


def test_reduce_window_mul_grad_jit_vmap_float32():
    _, shape, kw = PROD_WINDOWS[1]
    fm, _, fr = _prod_fns(kw)
    xs = np.stack([_prod_input(shape, np.float32), make_input(shape, np.float32, seed=14)])
    gm = mlax.jit(mlax.vmap(mlax.grad(lambda x: mnp.sum(fm(x) ** 2))))(xs)
    gj = jvmap(jgrad(lambda x: jnp.sum(fr(x) ** 2)))(xs)
    _close(gm, gj)
    # A start value other than 1 (no padding): the product times it.
    kw2 = dict(window_dimensions=(2, 2), window_strides=(1, 1), padding="VALID")
    gm = mlax.grad(lambda x: mnp.sum(mlax_lax.reduce_window(x, 2.5, mlax_lax.mul, **kw2)))(xs[0])
    gj = jgrad(lambda x: jnp.sum(2.5 * _jax_prod_patches(x, **kw2)))(xs[0])
    _close(gm, gj)


def test_max_pool_window_dilation_vjp_is_reported():
    x = make_input((8,), np.float32, seed=1)
    f = lambda x: mnp.sum(mlax_lax.reduce_window(x, -np.inf, mlax_lax.max, (2,), (1,),  # noqa
                                                 "VALID", window_dilation=(2,)))
    # forward mode works (select_and_gather_add supports dilation) ...
    t = np.ones(8, np.float32)
    fj = lambda x: jnp.sum(jax.lax.reduce_window(x, -np.inf, jax.lax.max, (2,), (1,),  # noqa
                                                  "VALID", window_dilation=(2,)))
    np.testing.assert_allclose(float(mlax.jvp(f, (x,), (t,))[1]), float(jjvp(fj, (x,), (t,))[1]),
                               rtol=1e-6)
    # ... reverse mode is not implemented, as in JAX
    with pytest.raises(Exception, match="window_dilation.*not implemented"):
        mlax.grad(f)(x)


@pytest.mark.parametrize("case", [WINDOWS[i] for i in (0, 1, 2, 4, 5)],
                         ids=[WINDOWS[i][0] for i in (0, 1, 2, 4, 5)])
def test_reduce_window_vmap_and_vmap_of_grad(case):
    xs = make_input((3,) + case[1], np.float32, seed=10)
    fm, fj = _window_fn(case, "mlax"), _window_fn(case, "jax")
    # JAX's three in one jitted program
    want0, want1, gj = jax.jit(lambda xs, xs1: (
        jax.vmap(fj)(xs), jax.vmap(fj, in_axes=1, out_axes=1)(xs1),
        jax.vmap(jax.grad(lambda x: jnp.sum(fj(x) ** 2)))(xs)))(xs, np.moveaxis(xs, 0, 1))
    _close(mlax.vmap(fm)(xs), want0)
    _close(mlax.vmap(fm, in_axes=1, out_axes=1)(np.moveaxis(xs, 0, 1)), want1)
    gm = mlax.vmap(mlax.grad(lambda x: mnp.sum(fm(x) ** 2)))(xs)
    _close(gm, gj)


def test_reduce_window_errors():
    x = np.ones((4, 4), np.float32)
    with pytest.raises(ValueError, match="lax.reduce_window: window_dimensions needs 2"):
        mlax_lax.reduce_window(x, 0.0, mlax_lax.add, (2,), (1, 1), "VALID")
    with pytest.raises(ValueError, match="lax.reduce_window: window_strides must be at least 1"):
        mlax_lax.reduce_window(x, 0.0, mlax_lax.add, (2, 2), (0, 1), "VALID")
    with pytest.raises(NotImplementedError, match="lax.reduce_window: computation"):
        mlax_lax.reduce_window(x, 0.0, lambda a, b: a + b, (2, 2), (1, 1), "VALID")
    with pytest.raises(NotImplementedError, match="lax.reduce_window: an init_value"):
        mlax_lax.reduce_window(x, 1.0, mlax_lax.add, (2, 2), (1, 1), "SAME")
    with pytest.raises(TypeError, match="lax.reduce_window: operand dtype float32 and "
                                        "init_value dtype int32"):
        mlax_lax.reduce_window(x, np.int32(0), mlax_lax.add, (2, 2), (1, 1), "VALID")


# ---------------------------------------------------------------------------
# numpy.convolve / correlate
# ---------------------------------------------------------------------------

def test_convolve_seed_example():
    got = mnp.convolve(mnp.array([1, 2, 1]), mnp.ones(10))
    assert got.dtype == np.float32
    np.testing.assert_array_equal(np.asarray(got), [1, 3, 4, 4, 4, 4, 4, 4, 4, 4, 3, 1])


@pytest.mark.parametrize("fn", ["convolve", "correlate"])
def test_convolve_correlate_match_jax(fn):
    """Every size pair and mode: eagerly as JAX's (JAX's in one jitted
    program), under jit (one program) as NumPy's."""
    cases = {(sizes, mode): (make_input((sizes[0],), np.float32, seed=1),
                             make_input((sizes[1],), np.float32, seed=2))
             for sizes in [(7, 3), (3, 7), (4, 4), (6, 1)] for mode in ["full", "same", "valid"]}

    def each(lib):
        return lambda args: [getattr(lib, fn)(*args[i], mode=mode)
                             for i, (_, mode) in enumerate(cases)]
    args = list(cases.values())
    want = jax.jit(each(jnp))(args)
    got_jit = mlax.jit(each(mnp))(args)
    for i, ((sizes, mode), (a, v)) in enumerate(cases.items()):
        try:
            _close(getattr(mnp, fn)(a, v, mode=mode), want[i])
            _close(got_jit[i], getattr(np, fn)(a, v, mode=mode).astype(np.float32))
        except AssertionError as e:
            raise AssertionError(f"sizes {sizes}, mode {mode}: {e}") from e


def test_convolve_dtypes_grad_and_vmap():
    a = np.arange(5, dtype=np.int32)
    v = np.array([1, -1], np.int32)
    x = make_input((6,), np.float32, seed=3)
    k = make_input((3,), np.float32, seed=4)
    xs = make_input((4, 6), np.float32, seed=5)
    # JAX's four in one jitted program
    conv_j, corr_j, gj, vmap_j = jax.jit(lambda a, v, x, k, xs: (
        jnp.convolve(a, v), jnp.correlate(a, v, "full"),
        jax.grad(lambda x, k: jnp.sum(jnp.convolve(x, k) ** 2), argnums=(0, 1))(x, k),
        jax.vmap(lambda x: jnp.convolve(x, k, mode="same"))(xs)))(a, v, x, k, xs)
    _close(mnp.convolve(a, v), conv_j)
    _close(mnp.correlate(a, v, "full"), corr_j)
    gm = mlax.grad(lambda x, k: mnp.sum(mnp.convolve(x, k) ** 2), argnums=(0, 1))(x, k)
    for a_, b_ in zip(gm, gj):
        _close(a_, b_)
    _close(mlax.vmap(lambda x: mnp.convolve(x, k, mode="same"))(xs), vmap_j)


def test_convolve_errors():
    with pytest.raises(ValueError, match="convolve\\(\\) only support 1-dimensional"):
        mnp.convolve(np.ones((2, 2)), np.ones(2))
    with pytest.raises(ValueError, match="mode must be one of"):
        mnp.correlate(np.ones(3), np.ones(2), mode="wide")
    with pytest.raises(ValueError, match="correlate: inputs cannot be empty"):
        mnp.correlate(np.ones(3), np.ones(0))

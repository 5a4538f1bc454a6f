"""Differential tests of edge cases where mlax once returned a wrong number without
an error (issue 21): each case runs eagerly and under mlax.jit and is compared,
value and dtype, with the installed jax (and NumPy where it has the function)."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mlax
import mlax.numpy as mnp

# The NumPy references divide by empty masks and overflow on purpose.
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

RNG = np.random.RandomState(21)


def _both(fn, *args):
    """fn(*args) eagerly and under mlax.jit (array arguments traced)."""
    return fn(*args), mlax.jit(fn)(*args)


def _check(got, want, rtol=1e-6, atol=0.0, check_dtype=True):
    got = np.asarray(got)
    want = np.asarray(want)
    if check_dtype:
        assert got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_allclose(got.astype(np.float64) if got.dtype.kind != "c" else got,
                               want.astype(np.float64) if want.dtype.kind != "c" else want,
                               rtol=rtol, atol=atol, equal_nan=True)


def _tol(dt):
    return {np.float16: 2e-3, jnp.bfloat16: 2e-2}.get(dt, 1e-5)


# -- where= in every reduction ------------------------------------------------

SHAPES = [(3, 2), (4, 5, 3)]
AXES = [None, 0, -1, (0, 1)]


_WHERE_NAMES = ["sum", "prod", "mean", "var", "std", "max", "min", "all", "any"]
_WHERE_DTYPES = [np.float32, np.int32, np.float16]


@pytest.mark.parametrize("name", _WHERE_NAMES)
@pytest.mark.parametrize("dt", _WHERE_DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_reductions_honour_where(name, dt, shape):
    """Each axis, against JAX and NumPy: under mlax.jit every axis in one
    program (against one jax.jit program), eagerly every other axis, rotating
    with the case so each axis also runs eagerly for every reduction."""
    x = (RNG.rand(*shape) * 4 + 0.5).astype(dt)
    mask = RNG.rand(*shape) > 0.4
    mask.flat[0] = True  # every output sees at least one element for axis=None
    kw = {"initial": 0} if name in ("max", "min") else {}
    tol = _tol(dt) * (10 if name in ("var", "std", "prod") else 1)

    def all_axes(np_):
        return lambda a, m: [getattr(np_, name)(a, axis=axis, where=m, **kw) for axis in AXES]

    want = jax.jit(all_axes(jnp))(x, mask)
    got = mlax.jit(all_axes(mnp))(x, mask)
    first = (_WHERE_DTYPES.index(dt) + SHAPES.index(shape)) % 2
    for i, axis in enumerate(AXES):
        what = f"axis={axis}"
        results = [("jit", got[i])]
        if i % 2 == first:
            results.append(("eager", getattr(mnp, name)(x, axis=axis, where=mask, **kw)))
        npw = getattr(np, name)(x, axis=axis, where=mask, **kw)
        for mode, out in results:
            try:
                _check(out, want[i], rtol=tol, atol=tol)
                _check(out, npw, rtol=tol, atol=tol, check_dtype=False)
            except AssertionError as e:
                raise AssertionError(f"{what}, {mode}: {e}") from None


def test_where_mask_broadcasts_and_keepdims():
    x = np.array([[1., 2], [3, 5], [7, 11]], np.float32)
    mask = np.array([[True, False], [True, True], [False, True]])
    for fn in ("var", "std", "mean"):
        _check(getattr(mnp, fn)(x, axis=0, where=mask), getattr(np, fn)(x, axis=0, where=mask))
    row = np.array([True, False])
    for fn in ("sum", "var", "mean"):
        got = getattr(mnp, fn)(x, axis=0, where=row, keepdims=True)
        _check(got, getattr(jnp, fn)(x, axis=0, where=row, keepdims=True))
    # var with ddof larger than the masked count is nan, as in JAX
    _check(mnp.var(x, axis=0, where=mask, ddof=2), jnp.var(x, axis=0, where=mask, ddof=2))


_WHERE_REDUCTIONS = ["sum", "prod", "mean", "var", "std", "max", "min", "all", "any",
                     "nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nanmax", "nanmin"]


def _where_kw(name):
    return {"initial": 0.0} if name in ("max", "min", "nanmax", "nanmin") else {}


@pytest.mark.parametrize("name", _WHERE_REDUCTIONS)
@pytest.mark.parametrize("mask", [np.array([1, 0, 2], np.int32),
                                  np.array([0.5, 0.0, 1.0], np.float32)],
                         ids=["int32", "float32"])
def test_non_bool_where_is_a_value_error_as_in_jax(name, mask):
    """jax.numpy refuses a where= that is not boolean in every reduction, the
    NaN-ignoring ones included (it does not cast it to bool), eagerly and under jit."""
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    kw = _where_kw(name)
    fn = getattr(jnp, name)
    for call in (lambda: fn(x, axis=1, where=mask, **kw),
                 lambda: jax.jit(lambda a, m: fn(a, axis=1, where=m, **kw))(x, mask)):
        with pytest.raises(ValueError, match="where must be None or a boolean array"):
            call()
    mfn = getattr(mnp, name)
    for call in (lambda: mfn(x, axis=1, where=mask, **kw),
                 lambda: mlax.jit(lambda a, m: mfn(a, axis=1, where=m, **kw))(x, mask)):
        with pytest.raises(ValueError, match=f"mnp.{name}: where must be None or a boolean"):
            call()


@pytest.mark.parametrize("name", [n for n in _WHERE_REDUCTIONS if n.startswith("nan")])
def test_nan_reductions_honour_a_bool_where_as_jax(name):
    x = np.array([[0.0, np.nan, 2.0], [3.0, 4.0, np.nan]], np.float32)
    mask = np.array([True, False, True])
    kw = _where_kw(name)
    want = getattr(jnp, name)(x, axis=1, where=mask, **kw)
    for got in _both(lambda a, m: getattr(mnp, name)(a, axis=1, where=m, **kw), x, mask):
        _check(got, want, rtol=1e-6)


def test_max_with_where_needs_initial():
    with pytest.raises(ValueError, match="initial"):
        mnp.max(np.ones(3, np.float32), where=np.array([True, False, True]))


# -- float16/bfloat16 accumulate in float32 -----------------------------------

@pytest.mark.parametrize("dt", [np.float16, jnp.bfloat16])
@pytest.mark.parametrize("name", ["sum", "mean", "var", "std", "prod"])
def test_half_precision_reductions_accumulate_in_float32(dt, name):
    n = 100_000 if name != "prod" else 64
    x = np.full(n, 1e-5 if name != "prod" else 1.01, np.float32)
    x[::3] *= 3
    x = x.astype(dt)
    want = getattr(jnp, name)(x)
    for got in _both(getattr(mnp, name), x):
        _check(got, want, rtol=_tol(dt), atol=1e-9)
    xs = x[: 4 * 1000].reshape(4, 1000) if name != "prod" else x.reshape(8, 8)
    _check(getattr(mnp, name)(xs, axis=1), getattr(jnp, name)(xs, axis=1), rtol=_tol(dt),
           atol=1e-9)


def test_mean_float16_of_many_small_values():
    x = np.full(100_000, 1e-5, np.float16)
    _check(mnp.mean(x), jnp.mean(x), rtol=1e-3)
    _check(mnp.mean(x), np.mean(x, dtype=np.float32).astype(np.float16), rtol=1e-3)


# -- average with N-D weights over permuted axes ------------------------------

@pytest.mark.parametrize("axis", [(2, 0, 1), (1, 0), (2, 0), (0, 2, 1), 1])
@pytest.mark.parametrize("dt", [np.float32, np.int32])
def test_average_nd_weights_in_axis_order(axis, dt):
    a = (RNG.rand(2, 3, 4) * 10).astype(dt)
    axes = axis if isinstance(axis, tuple) else (axis,)
    w = RNG.rand(*(a.shape[d] for d in axes)).astype(np.float32)
    want = jnp.average(a, axis=axis, weights=w)
    for got in _both(lambda x, y: mnp.average(x, axis=axis, weights=y), a, w):
        _check(got, want, rtol=1e-5)
    _check(mnp.average(a, axis=axis, weights=w), np.average(a, axis=axis, weights=w),
           rtol=1e-5, check_dtype=False)


# -- delete with a boolean mask -----------------------------------------------

@pytest.mark.parametrize("shape,axis", [((3, 4), 0), ((3, 4), 1), ((5,), 0), ((2, 3, 4), -1)])
def test_delete_boolean_mask(shape, axis):
    x = np.arange(np.prod(shape)).reshape(shape).astype(np.int32)
    mask = np.arange(shape[axis]) % 2 == 0
    want = np.delete(x, mask, axis=axis)
    _check(mnp.delete(x, mask, axis=axis), want)
    _check(mnp.delete(x, mask, axis=axis), jnp.delete(x, mask, axis=axis))
    with pytest.raises(ValueError):
        mnp.delete(x, np.ones(shape[axis] + 1, bool), axis=axis)


# -- piecewise: the last true condition wins ----------------------------------

@pytest.mark.parametrize("dt", [np.float32, np.int32])
def test_piecewise_overlapping_conditions(dt):
    x = np.array([1, 2, 3, 4, 5, 6], dt)
    cases = [
        ([x >= 1, (x == 2) | (x == 3), x == 3], [9, 19, 1, 40]),
        ([x < 4, x > 1], [lambda v: v * 0 + 9, lambda v: v * 10, 40]),
        ([x > 0, x > 2, x > 4], [1, 2, 3]),
    ]
    for conds, funcs in cases:
        want = np.piecewise(x, conds, funcs)
        _check(mnp.piecewise(x, conds, funcs), want)
        _check(mnp.piecewise(x, conds, funcs), jnp.piecewise(x, conds, funcs))
        got = mlax.jit(lambda v: mnp.piecewise(
            v, [c(v) for c in (lambda v: v >= 1, lambda v: (v == 2) | (v == 3),
                               lambda v: v == 3)], [9, 19, 1, 40]))(x)
        _check(got, np.piecewise(x, cases[0][0], cases[0][1]))


# -- trapezoid with an array dx -----------------------------------------------

@pytest.mark.parametrize("shape,axis,dxshape", [((2, 3), 0, (3,)), ((2, 3), -1, (2, 1)),
                                                ((3, 4, 5), 1, (3, 5)), ((4,), 0, ())])
def test_trapezoid_array_dx(shape, axis, dxshape):
    y = RNG.rand(*shape).astype(np.float32)
    dx = np.asarray(RNG.rand(*dxshape) + 0.5, np.float32)
    want = jnp.trapezoid(y, dx=dx, axis=axis)
    for got in _both(lambda a, d: mnp.trapezoid(a, dx=d, axis=axis), y, dx):
        _check(got, want, rtol=1e-5)
    _check(mnp.trapezoid(y, dx=dx, axis=axis), np.trapezoid(y, dx=dx, axis=axis), rtol=1e-5,
           check_dtype=False)


# -- index modes: negative indices --------------------------------------------

@pytest.mark.parametrize("mode", ["clip", "fill", None])
@pytest.mark.parametrize("axis", [0, 1])
def test_take_along_axis_negative_indices(mode, axis):
    x = np.arange(12.0, dtype=np.float32).reshape(4, 3)
    n = x.shape[axis]
    idx = np.array([-1, -n, -n - 1, 0, n - 1, n + 3, -2])
    idx = idx[:, None] if axis == 0 else idx[None, :]
    idx = np.broadcast_to(idx, (7, 3) if axis == 0 else (4, 7)).astype(np.int32)
    want = jnp.take_along_axis(x, idx, axis=axis, mode=mode)
    for got in _both(lambda a, i: mnp.take_along_axis(a, i, axis=axis, mode=mode), x, idx):
        _check(got, want)


@pytest.mark.parametrize("mode", ["clip", "wrap", "fill"])
def test_take_negative_indices_match_jax(mode):
    # jnp.take (like np.take) clips negative indices to 0 in 'clip' mode.
    x = np.arange(10.0, dtype=np.float32)
    idx = np.array([-1, -10, -11, 0, 9, 12], np.int32)
    _check(mnp.take(x, idx, mode=mode), jnp.take(x, idx, mode=mode))
    if mode != "fill":
        _check(mnp.take(x, idx, mode=mode), np.take(x, idx, mode=mode))


# -- integer remainder by zero, float floor division by zero ------------------

@pytest.mark.parametrize("dt", [np.int32, np.int8, np.uint8, np.int16])
@pytest.mark.parametrize("name", ["remainder", "mod", "fmod"])
def test_integer_remainder_by_zero_is_zero(dt, name):
    lo = 0 if np.dtype(dt).kind == "u" else -7
    x = np.arange(lo, lo + 12).astype(dt).reshape(3, 4)
    y = np.array([0, 3, 0, 2], dt) if lo == 0 else np.array([0, -3, 0, 2], dt)
    want = getattr(jnp, name)(x, y)
    for got in _both(getattr(mnp, name), x, y):
        _check(got, want)
    with np.errstate(all="ignore"):
        _check(getattr(mnp, name)(x, y), getattr(np, name)(x, y))
    got_i, got_r = mnp.divmod(x, y)
    _check(got_r, jnp.divmod(x, y)[1])


@pytest.mark.parametrize("dt", [np.int32, np.int8, np.uint8, np.int16])
def test_integer_floor_divide_by_zero_is_jaxs(dt):
    """JAX corrects the truncated quotient by the signs of the operands: a
    positive dividend over zero gives -2 (XLA's -1, minus one), a negative or
    zero one -1. (mlax compared the remainder's sign and gave -1 for all.)"""
    lo = 0 if np.dtype(dt).kind == "u" else -5
    x = np.arange(lo, lo + 12).astype(dt)
    y = np.zeros_like(x)
    y[::3] = 2 if lo == 0 else -2
    for got in _both(mnp.floor_divide, x, y):
        _check(got, jnp.floor_divide(x, y))
    _check(mnp.divmod(x, y)[0], jnp.divmod(x, y)[0])
    _check(mlax.jit(lambda a: a // 0)(x), jax.jit(lambda a: a // 0)(x))


@pytest.mark.parametrize("dt", [np.float32, np.float16])
def test_float_divmod_and_floor_divide_by_zero_and_inexact_quotients(dt):
    x = np.array([1., -1, 0, 1, 7.5, -7.5, np.inf, 1, -1], dt)
    y = np.array([0., 0, 0, 0.1, 2, -2, 2, -0., 0.1], dt)
    with np.errstate(all="ignore"):
        np_q, np_r = np.divmod(x, y)
        np_fd = np.floor_divide(x, y)
    for q, r in (mnp.divmod(x, y), mlax.jit(mnp.divmod)(x, y)):
        _check(q, jnp.divmod(x, y)[0])
        _check(r, jnp.divmod(x, y)[1])
        _check(q, np_q)
        _check(r, np_r, rtol=1e-3, atol=1e-6)
    for got in _both(mnp.floor_divide, x, y):
        _check(got, jnp.floor_divide(x, y))
        _check(got, np_fd)


# -- lcm wraps on overflow ----------------------------------------------------

@pytest.mark.parametrize("dt", [np.int8, np.int16, np.int32, np.uint8])
def test_lcm_wraps_like_numpy(dt):
    info = np.iinfo(dt)
    big = int(np.sqrt(info.max)) + 3
    vals = [12, 11, big, big + 2, 7, 0, 6, 4] if info.min == 0 else \
        [12, -11, big, -(big + 2), 7, 0, -6, 4]
    x = np.array(vals[::2], dt)
    y = np.array(vals[1::2], dt)
    want = np.lcm(x, y)
    for got in _both(mnp.lcm, x, y):
        _check(got, want)
        _check(got, jnp.lcm(x, y))
    _check(mnp.lcm(np.int8(12), np.int8(11)), np.int8(-124))


# -- complex vecdot / vdot conjugate the first argument -----------------------

@pytest.mark.parametrize("shape", [(2,), (3, 4), (2, 1, 5)])
def test_vecdot_and_vdot_conjugate_first_argument(shape):
    a = (RNG.randn(*shape) + 1j * RNG.randn(*shape)).astype(np.complex64)
    b = (RNG.randn(*shape) + 1j * RNG.randn(*shape)).astype(np.complex64)
    for got in _both(mnp.vecdot, a, b):
        _check(got, jnp.vecdot(a, b), rtol=1e-5)
        _check(got, np.vecdot(a, b), rtol=1e-5)
    for got in _both(mnp.vdot, a, b):
        _check(got, jnp.vdot(a, b), rtol=1e-5)
        _check(got, np.vdot(a, b), rtol=1e-5)
    r = RNG.randn(*shape).astype(np.float32)
    _check(mnp.vecdot(r, r), jnp.vecdot(r, r), rtol=1e-5)


# -- derivative rules at special points ---------------------------------------

@pytest.mark.parametrize("x0", [4.0, -3.0])
@pytest.mark.parametrize("name", ["div", "atan2", "cbrt"])
def test_high_order_derivatives_do_not_overflow(x0, name):
    fns = {"div": (lambda v: 1 / v, lambda v: 1 / v),
           "atan2": (lambda v: mnp.arctan2(1.0, v), lambda v: jnp.arctan2(1.0, v)),
           "cbrt": (mnp.cbrt, jnp.cbrt)}
    # Orders 1 to 6 in one program each for mlax and JAX, and the sixth
    # eagerly.
    gms, gjs = [fns[name][0]], [fns[name][1]]
    for order in range(1, 7):
        gms.append(mlax.grad(gms[-1]))
        gjs.append(jax.grad(gjs[-1]))
    got = mlax.jit(lambda v: [g(v) for g in gms[1:]])(x0)
    want = jax.jit(lambda v: [g(v) for g in gjs[1:]])(x0)
    for order, g, w in zip(range(1, 7), got, want):
        try:
            _check(g, w, rtol=2e-4, atol=1e-6)
        except AssertionError as e:
            raise AssertionError(f"order {order}: {e}") from None
    _check(gms[6](x0), want[5], rtol=2e-4, atol=1e-6)


def test_sixth_derivative_of_reciprocal_under_jit():
    g = lambda v: 2.0 / v  # noqa: E731
    gj = g
    for _ in range(6):
        g, gj = mlax.grad(g), jax.grad(gj)
    _check(mlax.jit(g)(4.0), gj(4.0), rtol=1e-5)
    _check(g(4.0), 720 * 2 / 4.0 ** 7, rtol=1e-5, check_dtype=False)


@pytest.mark.parametrize("n", [0, 1, 2, 3])
@pytest.mark.parametrize("x0", [0.0, 2.0, -1.5])
def test_grad_of_integer_power(n, x0):
    fm = mlax.grad(mlax.jit(lambda x, k: x ** k))
    fj = jax.grad(jax.jit(lambda x, k: x ** k))
    _check(fm(x0, n), fj(x0, n), rtol=1e-6)
    _check(mlax.grad(lambda x: x ** n)(x0), jax.grad(lambda x: x ** n)(x0), rtol=1e-6)
    # higher orders too: the exponent minus one stays an integer
    g, gj = (lambda x: x ** n), (lambda x: x ** n)
    for _ in range(3):
        g, gj = mlax.grad(g), jax.grad(gj)
        _check(g(x0), gj(x0), rtol=1e-6)


def test_grad_of_float_power_away_from_zero_exponent():
    # A float exponent keeps JAX's plain rule (nan for d/dx x**0.0 at x = 0).
    fm = mlax.grad(lambda a, b: a ** b)
    fj = jax.grad(lambda a, b: a ** b)
    _check(fm(0.0, 0.0), fj(0.0, 0.0))
    x = np.array([0.5, 2.0, 3.0], np.float32)
    y = np.array([0.5, -1.5, 2.5], np.float32)
    for argnums in (0, 1):
        fm = mlax.grad(lambda a, b: mnp.sum(a ** b), argnums=argnums)
        fj = jax.grad(lambda a, b: jnp.sum(a ** b), argnums=argnums)
        _check(fm(x, y), fj(x, y), rtol=1e-5)


# -- batched dynamic indices clamp before they are differentiated -------------

@pytest.mark.parametrize("idx", [[3], [5, -7, 1], [-1, 0, 2, 9]])
def test_jacrev_of_vmapped_dynamic_index_clamps(idx):
    x = np.array([1.0, 2.0, 3.0], np.float32)[: max(1, len(idx))]
    i = np.array(idx, np.int32)
    fm = lambda a, k: mlax.lax.dynamic_index_in_dim(a, k, 0, False)  # noqa: E731
    fj = lambda a, k: jax.lax.dynamic_index_in_dim(a, k, 0, False)  # noqa: E731
    for tm, tj in ((mlax.jacrev, jax.jacrev), (mlax.jacfwd, jax.jacfwd)):
        got = tm(mlax.vmap(fm, (None, 0)))(x, i)
        _check(got, tj(jax.vmap(fj, (None, 0)))(x, i))
    _check(mlax.vmap(fm, (None, 0))(x, i), jax.vmap(fj, (None, 0))(x, i))


@pytest.mark.parametrize("batched_operand", [False, True])
def test_grad_of_vmapped_dynamic_slice_clamps(batched_operand):
    x = np.arange(1.0, 6.0, dtype=np.float32)
    xs = np.stack([x, 2 * x, 3 * x, 4 * x])
    i = np.array([4, -3, 1, 9], np.int32)
    w = np.array([1.0, 10.0], np.float32)
    fm = lambda a, k: mnp.sum(mlax.lax.dynamic_slice_in_dim(a, k, 2, 0) * w)  # noqa: E731
    fj = lambda a, k: jnp.sum(jax.lax.dynamic_slice_in_dim(a, k, 2, 0) * w)  # noqa: E731
    axes = (0, 0) if batched_operand else (None, 0)
    arg = xs if batched_operand else x
    got = mlax.grad(lambda a: mnp.sum(mlax.vmap(fm, axes)(a, i)))(arg)
    want = jax.grad(lambda a: jnp.sum(jax.vmap(fj, axes)(a, i)))(arg)
    _check(got, want)
    _check(mlax.jit(mlax.grad(lambda a: mnp.sum(mlax.vmap(fm, axes)(a, i))))(arg), want)


@pytest.mark.parametrize("name,fn", [
    ("exp(x*nan)", lambda np_, x: np_.exp(x * np_.nan)),
    ("sin(nan/x)", lambda np_, x: np_.sin(np_.nan / x)),
    ("expm1(nan-x)", lambda np_, x: np_.expm1(np_.nan - x)),
    ("exp(x+nan) bf16", lambda np_, x: np_.exp(x.astype(np_.bfloat16) + np_.nan)),
])
def test_functions_of_a_provable_nan(name, fn):
    """XLA's CPU code for exp/sin/expm1 of a value LLVM can prove NaN (x * nan)
    returns garbage (JAX's jit gives ~1e25, 0, ... for exp(x * nan)); mlax
    lowers x op NaN to the NaN it is, so the values are NumPy's NaNs, under
    jit as eagerly."""
    x = np.arange(1, 5, dtype=np.float32)
    want = fn(np, x.astype(np.float64)) if "bf16" not in name else np.full(4, np.nan)
    for got in _both(lambda a: fn(mnp, a), x):
        assert np.isnan(np.asarray(got, np.float64)).all(), (name, got)
    assert np.isnan(want).all()
    # The derivative is still taken through the op (nan, as JAX's), not
    # through a constant (0).
    g = mlax.jit(mlax.grad(lambda a: mnp.sum(a * mnp.nan)))(x)
    jg = jax.grad(lambda a: jnp.sum(a * jnp.nan))(x)
    assert np.isnan(np.asarray(g)).all() and np.isnan(np.asarray(jg)).all()

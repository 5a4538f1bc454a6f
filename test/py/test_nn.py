"""mlax.nn against jax.nn: activations, softmax / log_softmax, logsumexp,
one_hot and standardize — values, dtypes and weak types over shapes
(0-d, empty), dtypes (f32, f16, bf16, int32, bool), axes and masks, eagerly
and under jit, with 64-bit types too; gradients against jax.grad (at the
kinks as well) and against finite differences in float64; errors."""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mlax
import mlax.numpy as mnp
from _helpers import (assert_like_jax, bf16, jax_outcomes, jvmap, make_input, pairwise,
                      param_id)

SHAPES = [(), (0,), (3, 4)]
DTYPES = [np.float32, np.float16, bf16, np.int32, np.bool_]

# (name, kwargs)
ACTIVATIONS = [
    ("relu", {}), ("relu6", {}), ("gelu", {}), ("gelu", {"approximate": False}),
    ("silu", {}), ("swish", {}), ("sigmoid", {}), ("log_sigmoid", {}), ("softplus", {}),
    ("elu", {}), ("elu", {"alpha": 0.5}), ("leaky_relu", {}),
    ("leaky_relu", {"negative_slope": 0.2}), ("celu", {}), ("celu", {"alpha": 2.0}),
    ("selu", {}), ("hard_tanh", {}),
]
ACT_IDS = [n + ("-" + "-".join(f"{k}={v}" for k, v in kw.items()) if kw else "")
           for n, kw in ACTIVATIONS]

TOL = {np.dtype(np.float32): 2e-6, np.dtype(np.float16): 2e-3, np.dtype(bf16): 2e-2,
       np.dtype(np.float64): 1e-13}


def _wide_input(shape, dtype):
    """Values over [-8, 8] (both tails of every activation, kinks included)."""
    if np.dtype(dtype) == np.bool_:
        return make_input(shape, dtype)
    if np.issubdtype(np.dtype(dtype), np.integer):
        return (make_input(shape, np.int32) * 2).astype(dtype)
    x = make_input(shape, np.float32) * 4.0
    if x.size:
        x.reshape(-1)[0] = 0.0
    return x.astype(dtype)


def _check(got, want, tol=None):
    if isinstance(want, (tuple, list)):
        assert isinstance(got, (tuple, list)) and len(got) == len(want)
        for g, w in zip(got, want):
            _check(g, w, tol)
        return
    assert isinstance(got, mlax.Array), type(got)
    g, w = np.asarray(got), np.asarray(want)
    assert g.shape == w.shape, (g.shape, w.shape)
    assert g.dtype == w.dtype, (g.dtype, w.dtype)
    if g.dtype.kind in "biu":
        np.testing.assert_array_equal(g, w)
    else:
        t = TOL.get(g.dtype, 2e-6) if tol is None else tol
        np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=t, atol=t,
                                   equal_nan=True)


def _same_outcome(fm, want, *args, mode="eager", tol=None, **kwargs):
    """fm matches JAX's outcome `want` (a result: value, dtype, shape), or
    both raise the same kind of error (`want` the exception JAX raised)."""
    if isinstance(want, Exception):
        exc = TypeError if isinstance(want, TypeError) else ValueError
        with pytest.raises(exc):
            if mode == "eager":
                fm(*args, **kwargs)
            else:
                mlax.jit(lambda *a: fm(*a, **kwargs))(*args)
        return None
    got = fm(*args, **kwargs) if mode == "eager" else mlax.jit(
        lambda *a: fm(*a, **kwargs))(*args)
    _check(got, want, tol)
    return got


def _table(fj, cases):
    """(fj, args, kwargs) for each (args, kwargs) of `cases`: a table for
    jax_outcomes (JAX's results of a table in one jitted program)."""
    return [(fj, args, kwargs) for args, kwargs in cases]


# Every dtype, each in one mode (and float32 in both), to keep the grid small.
DTYPE_MODES = [(np.float32, "eager"), (np.float32, "jit"), (np.float16, "jit"),
               (bf16, "eager"), (np.int32, "jit"), (np.bool_, "eager")]


# Every activation with every dtype/mode and every shape, and every shape
# with every dtype/mode (pairwise: the full product repeats these pairs).
ACT_GRID = pairwise(ACT_IDS, SHAPES, DTYPE_MODES)


def _act_call(act_id, x):
    name, kwargs = ACTIVATIONS[ACT_IDS.index(act_id)]
    return getattr(jax.nn, name), (x,), kwargs


ACT_GRID_TABLE = [_act_call(a, _wide_input(shape, dm[0])) for a, shape, dm in ACT_GRID]


@pytest.mark.parametrize("i", range(len(ACT_GRID)), ids=[param_id(c) for c in ACT_GRID])
def test_activations_match_jax(i):
    act_id, shape, (dtype, mode) = ACT_GRID[i]
    name, kwargs = ACTIVATIONS[ACT_IDS.index(act_id)]
    x = _wide_input(shape, dtype)
    got = _same_outcome(getattr(mlax.nn, name), jax_outcomes(ACT_GRID_TABLE)[i], x, mode=mode,
                        **kwargs)
    if got is not None:
        assert_like_jax(got, getattr(jax.nn, name), x, **kwargs)


SCALARS = [1.5, -2.0, 0.0, 3]
SCALAR_TABLE = [(getattr(jax.nn, name), (v,), kwargs) for name, kwargs in ACTIVATIONS
                for v in SCALARS]


@pytest.mark.parametrize("act", ACTIVATIONS, ids=ACT_IDS)
@pytest.mark.parametrize("value", SCALARS)
def test_activations_of_python_scalars_keep_jax_weak_types(act, value):
    name, kwargs = act
    want = jax_outcomes(SCALAR_TABLE)[ACTIVATIONS.index(act) * len(SCALARS)
                                      + SCALARS.index(value)]
    got = _same_outcome(getattr(mlax.nn, name), want, value, **kwargs)
    if got is not None:
        assert_like_jax(got, getattr(jax.nn, name), value, **kwargs)


# kinks and tails: relu'(0) = 0, relu6'(0) = relu6'(6) = 0, hard_tanh'(+-1), ...
GRAD_X = np.array([-9.0, -6.0, -1.0, -0.5, 0.0, 1e-3, 0.5, 1.0, 2.0, 6.0, 7.0, 30.0],
                  np.float32)


@pytest.mark.parametrize("act", ACTIVATIONS, ids=ACT_IDS)
def test_activation_gradients_match_jax(act):
    name, kwargs = act
    fm = lambda x: getattr(mlax.nn, name)(x, **kwargs)  # noqa: E731
    fj = lambda x: getattr(jax.nn, name)(x, **kwargs)  # noqa: E731
    # JAX's references (the gradient, the derivative at each scalar and the
    # second derivative) in one jitted program: one XLA compile instead of
    # one per primitive or per reference (what the test compares is mlax,
    # eagerly and jitted).
    scalars = [np.float32(v) for v in (0.0, 1.0, -0.5, 6.0)]
    gj, djs, g2j = jax.jit(lambda x, vs: (
        jax.grad(lambda x: jnp.sum(fj(x)))(x), [jax.grad(fj)(v) for v in vs],
        jax.grad(lambda x: jnp.sum(jax.grad(lambda y: jnp.sum(fj(y)))(x)))(x)))(GRAD_X, scalars)
    gm = mlax.grad(lambda x: mnp.sum(fm(x)))(GRAD_X)
    np.testing.assert_allclose(np.asarray(gm), np.asarray(gj), rtol=1e-5, atol=1e-6)
    # elementwise derivative of a scalar, under jit, and second derivative
    for v, dj in zip(scalars, djs):
        assert float(mlax.jit(mlax.grad(fm))(v)) == pytest.approx(
            float(dj), rel=1e-5, abs=1e-6)
    g2m = mlax.grad(lambda x: mnp.sum(mlax.grad(lambda y: mnp.sum(fm(y)))(x)))(GRAD_X)
    np.testing.assert_allclose(np.asarray(g2m), np.asarray(g2j), rtol=1e-4, atol=1e-5)


def test_relu_family_derivatives_at_kinks_are_zero():
    assert float(mlax.grad(mlax.nn.relu)(0.0)) == 0.0
    assert float(mlax.grad(mlax.nn.relu)(1e-6)) == 1.0
    assert float(mlax.grad(mlax.nn.relu6)(0.0)) == 0.0
    assert float(mlax.grad(mlax.nn.relu6)(6.0)) == 0.0
    assert float(mlax.grad(mlax.nn.relu6)(5.9)) == 1.0
    # jvp (forward mode) follows the same rule
    _, t = mlax.jvp(mlax.nn.relu, (np.float32(0.0),), (np.float32(1.0),))
    assert float(t) == 0.0



def _fd_grad(f, x, eps=1e-6):
    """Central finite differences of a scalar function of a float64 array."""
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[i] = eps
        g[i] = (float(f(x + d)) - float(f(x - d))) / (2 * eps)
    return g


FD_CASES = [
    ("gelu", lambda nn, x: nn.gelu(x)), ("gelu_erf", lambda nn, x: nn.gelu(x, approximate=False)),
    ("softplus", lambda nn, x: nn.softplus(x)), ("log_sigmoid", lambda nn, x: nn.log_sigmoid(x)),
    ("selu", lambda nn, x: nn.selu(x)), ("celu", lambda nn, x: nn.celu(x, 0.7)),
    ("silu", lambda nn, x: nn.silu(x)),
    ("softmax", lambda nn, x: nn.softmax(x, axis=0) * np.arange(1.0, 13.0).reshape(3, 4)),
    ("log_softmax", lambda nn, x: nn.log_softmax(x, axis=(0, 1)) * np.arange(12.0).reshape(3, 4)),
    ("logsumexp", lambda nn, x: nn.logsumexp(x, axis=1, b=np.array([1.0, 2.0, 0.5, 3.0]))),
    ("standardize", lambda nn, x: nn.standardize(x) * np.arange(12.0).reshape(3, 4)),
]


@pytest.mark.parametrize("case", FD_CASES, ids=[c[0] for c in FD_CASES])
def test_gradients_match_finite_differences_in_float64(case, x64):
    _, f = case
    x = np.random.default_rng(3).standard_normal((3, 4)) * 2.0
    loss = lambda v: mnp.sum(f(mlax.nn, v))  # noqa: E731
    g = mlax.grad(loss)(x)
    assert np.asarray(g).dtype == np.float64
    fd = _fd_grad(lambda v: loss(v), x)
    np.testing.assert_allclose(np.asarray(g), fd, rtol=1e-6, atol=1e-7)
    gj = jax.jit(jax.grad(lambda v: jnp.sum(f(jax.nn, v))))(x)
    np.testing.assert_allclose(np.asarray(g), np.asarray(gj), rtol=1e-10, atol=1e-12)


X64_DTYPES = [np.float64, np.float32, np.int32, np.int64]
X64_TABLE = [(getattr(jax.nn, name), (_wide_input((3, 4), dtype),), kwargs)
             for name, kwargs in ACTIVATIONS for dtype in X64_DTYPES]


@pytest.mark.parametrize("act", ACTIVATIONS, ids=ACT_IDS)
@pytest.mark.parametrize("dtype", X64_DTYPES, ids=lambda d: np.dtype(d).name)
def test_activations_with_x64(act, dtype, x64):
    name, kwargs = act
    x = _wide_input((3, 4), dtype)
    want = jax_outcomes(X64_TABLE)[ACTIVATIONS.index(act) * len(X64_DTYPES)
                                   + X64_DTYPES.index(dtype)]
    got = _same_outcome(getattr(mlax.nn, name), want, x, **kwargs)
    _same_outcome(getattr(mlax.nn, name), want, x, mode="jit", **kwargs)
    if got is not None:
        assert_like_jax(got, getattr(jax.nn, name), x, **kwargs)


# ---------------------------------------------------------------------------
# softmax / log_softmax / logsumexp
# ---------------------------------------------------------------------------

X = np.random.default_rng(5).standard_normal((3, 4)).astype(np.float32) * 3
B3 = np.random.default_rng(6).standard_normal((2, 3, 4)).astype(np.float32)
BIG = np.array([[1e4, 1e4 - 1.0, -1e4], [-3e38, 0.0, 3e38]], np.float32)
MASK = X > -1.0
MASK[:, 0] = False
MASK_ROW = np.array([True, False, True, True])
MASK2 = np.ones(X.shape, bool)  # every row keeps at least two distinct elements
MASK2[0, 1] = MASK2[2, 3] = MASK2[1, 0] = False

SOFTMAX_CASES = [
    ((X,), {}), ((X,), {"axis": 0}), ((X,), {"axis": (0, 1)}), ((X,), {"axis": None}),
    ((B3,), {"axis": (0, 2)}), ((B3,), {"axis": -2}), ((BIG,), {}),
    ((X.astype(np.float16),), {}), ((X.astype(bf16),), {"axis": 0}),
    ((np.arange(6, dtype=np.int32).reshape(2, 3),), {}),
    ((np.zeros((2, 0), np.float32),), {"axis": 1}), ((np.zeros((0, 3), np.float32),), {}),
    ((np.float32(2.0),), {"axis": None}), ((np.float32(2.0),), {}),
    ((X,), {"where": MASK}), ((X,), {"where": MASK_ROW}), ((B3,), {"axis": 1, "where": B3 > 0}),
    ((X,), {"axis": None, "where": MASK}),
    ((np.array([1.0, np.inf, 2.0], np.float32),), {}),
    ((np.array([-np.inf, -np.inf], np.float32),), {}),
]

SOFTMAX_TABLES = {name: _table(getattr(jax.nn, name), SOFTMAX_CASES)
                  for name in ("softmax", "log_softmax")}


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
@pytest.mark.parametrize("i", range(len(SOFTMAX_CASES)), ids=str)
@pytest.mark.parametrize("mode", ["eager", "jit"])
def test_softmax_family_matches_jax(name, i, mode):
    args, kwargs = SOFTMAX_CASES[i]
    want = jax_outcomes(SOFTMAX_TABLES[name])[i]
    got = _same_outcome(getattr(mlax.nn, name), want, *args, mode=mode, **kwargs)
    if got is not None and "where" not in kwargs and mode == "eager":
        assert_like_jax(got, getattr(jax.nn, name), *args, **kwargs)


def test_softmax_is_stable_for_large_inputs():
    out = np.asarray(mlax.nn.softmax(np.array([1000.0, 1000.0, -1000.0], np.float32)))
    np.testing.assert_allclose(out, [0.5, 0.5, 0.0])
    out = np.asarray(mlax.nn.log_softmax(np.array([1e30, 0.0], np.float32)))
    np.testing.assert_allclose(out, [0.0, -1e30])


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
@pytest.mark.parametrize("kwargs", [{}, {"axis": 0}, {"axis": (0, 1)}, {"where": MASK}],
                         ids=["last", "axis0", "both", "where"])
def test_softmax_family_gradients_match_jax(name, kwargs):
    w = np.random.default_rng(9).standard_normal(X.shape).astype(np.float32)
    lm = lambda x: mnp.sum(mnp.where(MASK if "where" in kwargs else True,  # noqa: E731
                                     getattr(mlax.nn, name)(x, **kwargs), 0.0) * w)
    lj = lambda x: jnp.sum(jnp.where(MASK if "where" in kwargs else True,  # noqa: E731
                                     getattr(jax.nn, name)(x, **kwargs), 0.0) * w)
    want = np.asarray(jax.jit(jax.grad(lj))(X))
    np.testing.assert_allclose(np.asarray(mlax.grad(lm)(X)), want, rtol=2e-5, atol=2e-6)
    np.testing.assert_allclose(np.asarray(mlax.jit(mlax.grad(lm))(X)), want,
                               rtol=2e-5, atol=2e-6)


B_W = np.array([1.0, -2.0, 0.0, 0.5], np.float32)

LSE_CASES = [
    ((X,), {}), ((X,), {"axis": 1}), ((X,), {"axis": 0, "keepdims": True}),
    ((X,), {"axis": (0, 1), "keepdims": True}), ((B3,), {"axis": (0, 2)}), ((BIG,), {"axis": 1}),
    ((X,), {"axis": 1, "b": np.abs(X)}), ((X,), {"axis": 1, "b": B_W}),
    ((X,), {"axis": 1, "b": B_W, "return_sign": True}),
    ((X,), {"return_sign": True}), ((X,), {"axis": 1, "where": MASK}),
    ((X,), {"axis": 0, "where": MASK, "keepdims": True}),
    ((X.astype(np.float16),), {"axis": 1}), ((X.astype(bf16),), {}),
    ((np.arange(4, dtype=np.int32),), {}), ((np.zeros((2, 0), np.float32),), {"axis": 1}),
    ((np.float32(3.0),), {}), ((np.array([-np.inf, -np.inf], np.float32),), {}),
    ((np.array([np.inf, 1.0], np.float32),), {}),
]
LSE_TABLE = _table(jax.nn.logsumexp, LSE_CASES)


@pytest.mark.parametrize("i", range(len(LSE_CASES)), ids=str)
@pytest.mark.parametrize("mode", ["eager", "jit"])
def test_logsumexp_matches_jax(i, mode):
    args, kwargs = LSE_CASES[i]
    want = jax_outcomes(LSE_TABLE)[i]
    _same_outcome(mlax.nn.logsumexp, want, *args, mode=mode, tol=3e-6 if
                  np.asarray(args[0]).dtype == np.float32 else None, **kwargs)


def test_logsumexp_in_scipy_special_and_gradients():
    import mlax.scipy.special

    assert mlax.scipy.special.logsumexp is mlax.nn.logsumexp
    kws = ({}, {"axis": 1}, {"axis": 1, "b": np.abs(X) + 0.1}, {"axis": 0, "where": MASK})
    # JAX's value and gradients in one jitted program (eagerly: a compile
    # per primitive).
    want, gjs = jax.jit(lambda x: (jax.scipy.special.logsumexp(x, axis=0), [
        jax.grad(lambda x, kw=kw: jnp.sum(jax.nn.logsumexp(x, **kw) ** 2))(x) for kw in kws]))(X)
    _check(mlax.scipy.special.logsumexp(X, axis=0), want)
    for kw, gj in zip(kws, gjs):
        gm = mlax.grad(lambda x: mnp.sum(mlax.nn.logsumexp(x, **kw) ** 2))(X)
        np.testing.assert_allclose(np.asarray(gm), np.asarray(gj), rtol=2e-5, atol=2e-6)


# ---------------------------------------------------------------------------
# one_hot, standardize
# ---------------------------------------------------------------------------

IDX = np.array([[0, 2, 5], [-1, 1, 3]], np.int32)

ONE_HOT_CASES = [
    ((IDX, 4), {}), ((IDX, 4), {"axis": 0}), ((IDX, 4), {"axis": 1}), ((IDX, 4), {"axis": -2}),
    ((IDX, 3), {"dtype": np.int32}), ((IDX, 3), {"dtype": np.bool_}),
    ((IDX, 3), {"dtype": jnp.bfloat16}), ((IDX[0], 6), {}), ((np.int32(2), 4), {}),
    ((np.zeros((0,), np.int32), 3), {}), ((IDX, 0), {}), ((IDX.astype(np.uint8), 4), {}),
    ((np.array([0.0, 2.0, 1.5], np.float32), 3), {}),
]
ONE_HOT_TABLE = _table(jax.nn.one_hot, ONE_HOT_CASES)


@pytest.mark.parametrize("i", range(len(ONE_HOT_CASES)), ids=str)
@pytest.mark.parametrize("mode", ["eager", "jit"])
def test_one_hot_matches_jax(i, mode):
    (x, n), kwargs = ONE_HOT_CASES[i]
    with np.testing.suppress_warnings() as sup:
        sup.filter(DeprecationWarning)
        want = jax_outcomes(ONE_HOT_TABLE)[i]
    got = mlax.nn.one_hot(x, n, **kwargs) if mode == "eager" else mlax.jit(
        lambda v: mlax.nn.one_hot(v, n, **kwargs))(x)
    _check(got, want)


STD_CASES = [
    ((X,), {}), ((X,), {"axis": 0}), ((X,), {"axis": (0, 1)}), ((X,), {"axis": None}),
    ((B3,), {"axis": (0, 2)}), ((X,), {"epsilon": 0.5}),
    ((X,), {"mean": np.float32(0.5), "variance": np.float32(2.0)}),
    ((X,), {"mean": X.mean(1, keepdims=True)}), ((X,), {"where": MASK2}),
    ((X,), {"algorithm": "stable"}), ((X.astype(np.float16),), {}),
    ((np.arange(12, dtype=np.int32).reshape(3, 4),), {}), ((np.float32(2.0),), {"axis": None}),
]
STD_TABLE = _table(jax.nn.standardize, STD_CASES)


@pytest.mark.parametrize("i", range(len(STD_CASES)), ids=str)
@pytest.mark.parametrize("mode", ["eager", "jit"])
def test_standardize_matches_jax(i, mode):
    args, kwargs = STD_CASES[i]
    want = jax_outcomes(STD_TABLE)[i]
    _same_outcome(mlax.nn.standardize, want, *args, mode=mode,
                  tol=2e-5 if np.asarray(args[0]).dtype != np.float16 else 2e-2, **kwargs)


def test_standardize_gradient_matches_jax():
    w = np.random.default_rng(2).standard_normal(X.shape).astype(np.float32)
    kws = ({}, {"axis": 0}, {"where": MASK2}, {"algorithm": "stable"})
    # JAX's gradients in one jitted program
    gjs = jax.jit(lambda x: [jax.grad(lambda x, kw=kw: jnp.sum(jax.nn.standardize(x, **kw) * w))(x)
                             for kw in kws])(X)
    for kw, gj in zip(kws, gjs):
        gm = mlax.grad(lambda x: mnp.sum(mlax.nn.standardize(x, **kw) * w))(X)
        np.testing.assert_allclose(np.asarray(gm), np.asarray(gj), rtol=1e-4, atol=1e-5)


def test_nn_functions_under_vmap():
    f = lambda nn: lambda x: nn.softmax(x) + nn.gelu(x) + nn.logsumexp(x)  # noqa: E731
    np.testing.assert_allclose(np.asarray(mlax.vmap(f(mlax.nn))(B3)),
                               np.asarray(jvmap(f(jax.nn))(B3)), rtol=1e-5, atol=1e-6)


# ---------------------------------------------------------------------------
# errors
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("call,jcall,exc,match", [
    (lambda: mlax.nn.softmax(X, axis=2), lambda: jax.nn.softmax(X, axis=2), ValueError,
     "nn.softmax: axis 2 is out of bounds"),
    (lambda: mlax.nn.log_softmax(X, axis=-3), lambda: jax.nn.log_softmax(X, axis=-3),
     ValueError, "nn.log_softmax: axis -3"),
    (lambda: mlax.nn.logsumexp(X, axis=(0, 5)), lambda: jax.nn.logsumexp(X, axis=(0, 5)),
     ValueError, "nn.logsumexp"),
    (lambda: mlax.nn.standardize(X, axis=4), lambda: jax.nn.standardize(X, axis=4),
     ValueError, "nn.standardize"),
    (lambda: mlax.nn.one_hot(IDX, 3, axis=3), lambda: jax.nn.one_hot(IDX, 3, axis=3),
     ValueError, "nn.one_hot"),
    (lambda: mlax.nn.sigmoid(IDX), lambda: jax.nn.sigmoid(IDX), TypeError, "nn.sigmoid"),
    (lambda: mlax.nn.silu(IDX), lambda: jax.nn.silu(IDX), TypeError, "nn.silu"),
    (lambda: mlax.nn.relu([1.0, 2.0]), lambda: jax.nn.relu([1.0, 2.0]), TypeError, "nn.relu"),
    (lambda: mlax.nn.softmax("x"), lambda: jax.nn.softmax("x"), TypeError, "nn.softmax"),
    (lambda: mlax.nn.standardize(X, algorithm="slow"),
     lambda: jax.nn.standardize(X, algorithm="slow"), ValueError, "nn.standardize"),
    (lambda: mlax.nn.one_hot(IDX, 2.5), lambda: jax.nn.one_hot(IDX, 2.5), TypeError,
     "nn.one_hot"),
])
def test_errors_match_jax_type_and_name_the_function(call, jcall, exc, match):
    with pytest.raises(Exception) as je:
        jcall()
    base = next(t for t in (TypeError, IndexError, ValueError) if isinstance(je.value, t))
    with pytest.raises(exc, match=match) as e:
        call()
    assert isinstance(e.value, base), (type(e.value), type(je.value))
    assert "test_nn.py" in str(e.value)


def test_traced_num_classes_is_a_concretization_error():
    with pytest.raises(mlax.ConcretizationTypeError, match="num_classes"):
        mlax.jit(lambda x, n: mlax.nn.one_hot(x, n))(IDX, 4)
    with pytest.raises(jax.errors.ConcretizationTypeError):
        jax.jit(lambda x, n: jax.nn.one_hot(x, n))(IDX, 4)


def test_every_function_is_exported():
    for name in ("relu relu6 gelu silu swish sigmoid log_sigmoid softplus elu leaky_relu celu "
                 "selu hard_tanh softmax log_softmax logsumexp one_hot standardize").split():
        assert callable(getattr(mlax.nn, name)), name
        assert hasattr(jax.nn, name), name


def test_aliases_take_jax_arrays_as_their_functions_do():
    """swish and hard_swish are silu and hard_silu (they were the unjitted
    functions, which refused a jax.Array the others take)."""
    x = jax.numpy.array([-1.0, 0.5, 2.0])
    for alias, name in (("swish", "silu"), ("hard_swish", "hard_silu")):
        assert getattr(mlax.nn, alias) is getattr(mlax.nn, name)
        np.testing.assert_allclose(np.asarray(getattr(mlax.nn, alias)(x)),
                                   np.asarray(getattr(jax.nn, alias)(x)), rtol=1e-6)


@pytest.mark.parametrize("dtype", [np.uint8, np.uint32])
def test_hard_tanh_of_unsigned_integers_clips(dtype):
    """hard_tanh of unsigned integers is min(x, 1), JAX's dtype. (JAX's value
    is wrong: it compares x < -1 with -1 wrapped to the type's maximum, so 0
    and 1 become that maximum.)"""
    x = np.array([0, 1, 2, 200], dtype)
    got = mlax.nn.hard_tanh(x)
    assert got.dtype == jax.nn.hard_tanh(x).dtype == dtype
    np.testing.assert_array_equal(np.asarray(got), np.minimum(x, 1))

"""mlax.scipy.special and the lax special functions (igamma, igammac,
igamma_grad_a, random_gamma_grad, betainc, bessel_i0e, bessel_i1e) against
the installed JAX: values, dtypes and weak types eagerly and under jit, on
broadcast shapes, Python scalars and float64 (x64); gradients against
jax.grad and (float64) central finite differences (betainc's in a, which
JAX lacks, against finite differences only); vmap; the errors JAX raises.
"""
from __future__ import annotations

import jax
import jax.scipy.special as jsp
import numpy as np
import pytest

import mlax
import mlax.lax as mlax_lax
import mlax.scipy.special as msp

from _helpers import jax_outcomes, jgrad, jjvp, jvmap, x64 as _x64

# Inputs by kind: each kind is a range the function is defined (and smooth) on.
_RANGES = {"any": (-3.0, 3.0), "pos": (0.5, 4.0), "unit": (0.05, 0.95), "big": (-12.0, 12.0),
           "zeta_x": (1.5, 4.0), "n": None, "order": None}


def _input(kind, shape, dtype, seed):
    rng = np.random.default_rng(seed)
    if kind == "n":  # polygamma's order: a non-negative integer array
        return rng.integers(0, 3, shape).astype(np.int32)
    if kind == "order":  # expn's order: small non-negative integers as floats
        return rng.integers(0, 4, shape).astype(dtype)
    lo, hi = _RANGES[kind]
    return rng.uniform(lo, hi, shape).astype(dtype)


# (name, argument kinds, argnums jax.grad differentiates)
SPECIAL = [
    ("gammaln", ("pos",), (0,)),
    ("gammasgn", ("any",), ()),
    ("loggamma", ("any",), ()),
    ("gamma", ("any",), (0,)),
    ("betaln", ("pos", "pos"), (0, 1)),
    ("beta", ("pos", "pos"), (0, 1)),
    ("betainc", ("pos", "pos", "unit"), (2,)),
    ("factorial", ("pos",), (0,)),
    ("comb", ("pos", "unit"), (0, 1)),
    ("digamma", ("pos",), (0,)),
    ("polygamma", ("n", "pos"), (1,)),
    ("gammainc", ("pos", "pos"), (0, 1)),
    ("gammaincc", ("pos", "pos"), (0, 1)),
    ("poch", ("pos", "unit"), (0, 1)),
    ("erf", ("any",), (0,)),
    ("erfc", ("any",), (0,)),
    ("erfinv", ("unit",), (0,)),
    ("erfcx", ("big",), (0,)),
    ("dawsn", ("big",), (0,)),
    ("ndtr", ("big",), (0,)),
    ("ndtri", ("unit",), (0,)),
    ("log_ndtr", ("big",), (0,)),
    ("expit", ("any",), (0,)),
    ("logit", ("unit",), (0,)),
    ("xlogy", ("any", "pos"), (0, 1)),
    ("xlog1py", ("any", "pos"), (0, 1)),
    ("entr", ("any",), ()),
    ("rel_entr", ("pos", "pos"), (0, 1)),
    ("kl_div", ("pos", "pos"), (0, 1)),
    ("boxcox", ("pos", "any"), (0, 1)),
    ("boxcox1p", ("pos", "any"), (0, 1)),
    ("i0e", ("big",), (0,)),
    ("i0", ("any",), (0,)),
    ("i1e", ("big",), (0,)),
    ("i1", ("any",), (0,)),
    ("zeta", ("zeta_x", "pos"), (0, 1)),
    ("spence", ("pos",), (0,)),
    ("expn", ("order", "pos"), (1,)),
    ("exp1", ("pos",), (0,)),
    ("expi", ("big",), (0,)),
]
NAMES = [name for name, _, _ in SPECIAL]
KINDS = {name: kinds for name, kinds, _ in SPECIAL}
# ndtr, ndtri, log_ndtr and spence take float32/float64 arrays only (as JAX):
# no Python-scalar or broadcast-promotion cases for them.
_ARRAY_ONLY = {"ndtr", "ndtri", "log_ndtr", "spence"}


def _args(name, shapes, dtype=np.float32, seed=0):
    return [_input(kind, shape, dtype, seed + i)
            for i, (kind, shape) in enumerate(zip(KINDS[name], shapes))]


def _check(out, expected, rtol=2e-5, atol=2e-6):
    assert isinstance(out, mlax.Array)
    assert out.shape == expected.shape, (out.shape, expected.shape)
    assert out.dtype == expected.dtype, (out.dtype, expected.dtype)
    assert out.weak_type == expected.weak_type, (out.weak_type, expected.weak_type)
    np.testing.assert_allclose(np.asarray(out), np.asarray(expected), rtol=rtol, atol=atol,
                               equal_nan=True)




@pytest.mark.parametrize("name", NAMES)
def test_values_eager_and_jit(name):
    """float32, the first argument (2, 3) and the others (3,) broadcast
    against it; eagerly, and for a sample also under jit."""
    shapes = [(2, 3)] + [(3,)] * (len(KINDS[name]) - 1)
    args = _args(name, shapes)
    expected = getattr(jsp, name)(*args)
    fn = getattr(msp, name)
    _check(fn(*args), expected)
    if name in _JIT_NAMES:  # eager calls are jitted too: a sample suffices
        _check(mlax.jit(fn)(*args), expected)


_JIT_NAMES = set(NAMES[::4])
_SCALAR_NAMES = [n for n in NAMES if n not in _ARRAY_ONLY and "n" not in KINDS[n]]


@pytest.mark.parametrize("name", _SCALAR_NAMES[::3])
def test_python_scalars_are_weak(name):
    args = [float(a) for a in _args(name, [()] * len(KINDS[name]))]
    _check(getattr(msp, name)(*args), getattr(jsp, name)(*args))


@pytest.mark.parametrize("name", ["betaln", "betainc", "gammaincc", "ndtri", "log_ndtr",
                                  "i1e", "zeta", "expi"])
def test_float64(name):
    with _x64():
        args = _args(name, [(4,)] * len(KINDS[name]), np.float64, seed=1)
        _check(getattr(msp, name)(*args), getattr(jsp, name)(*args), rtol=1e-12, atol=1e-14)


def test_integer_and_mixed_inputs_promote_as_jax():
    i = np.array([1, 2, 3], np.int32)
    _check(msp.gammaln(i), jsp.gammaln(i))
    _check(msp.xlogy(i, 2.5), jsp.xlogy(i, 2.5))
    h = np.array([0.5, 1.5], np.float16)  # computed in float32, as JAX does
    _check(msp.i0e(h), jsp.i0e(h), rtol=2e-3, atol=1e-3)
    # E_n in float16: each element's iteration stops where it converged (one
    # iterated on past it overflowed to NaN).
    x = np.array([0.3, 1.7, 2.5, 10.0], np.float16)
    with np.errstate(over="ignore"):
        _check(msp.exp1(x), jsp.exp1(x), rtol=2e-3, atol=1e-3)


def test_edge_values():
    """Zeros, infinities, NaN, out-of-domain points; shaped as in
    test_values_eager_and_jit, so the eager programs are shared."""
    x = np.array([[0.0, 1.0, -1.0], [np.inf, np.nan, 1e-30]], np.float32)
    a = np.array([1.0, 0.0, 2.0], np.float32)
    cases = [("gammainc", (a[None].repeat(2, 0), x[0])), ("gammaincc", (x, a)),
             ("xlogy", (x * 0, a)), ("entr", (x,)), ("rel_entr", (x, a)),
             ("ndtri", (np.array([[0.0, 1.0, 0.5], [1e-30, 1 - 1e-7, np.nan]], np.float32),)),
             ("log_ndtr", (np.array([[-40., -15., 0.], [6., 20., np.inf]], np.float32),)),
             ("i1e", (x,)), ("betainc", (x, a, np.array([0.0, 1.0, 0.5], np.float32)))]
    for name, args in cases:
        with np.errstate(invalid="ignore"):
            _check(getattr(msp, name)(*args), getattr(jsp, name)(*args))


@pytest.mark.parametrize("name,argnum",
                         [(n, i) for n, _, argnums in SPECIAL for i in argnums][::3])
def test_grad_matches_jax(name, argnum):
    args = _args(name, [(3,)] * len(KINDS[name]), seed=2)

    def loss(fn):
        return lambda *xs: fn(*xs).sum()

    got = mlax.grad(loss(getattr(msp, name)), argnums=argnum)(*args)
    want = jgrad(loss(getattr(jsp, name)), argnums=argnum)(*args)
    _check(got, want, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("name,argnum", [("gammainc", 0), ("betainc", 0), ("betainc", 2),
                                         ("i1e", 0),
                                         ("log_ndtr", 0), ("zeta", 0), ("expi", 0)])
def test_grad_matches_finite_differences(name, argnum):
    with _x64():
        args = _args(name, [(3,)] * len(KINDS[name]), np.float64, seed=3)
        fn = getattr(msp, name)
        grad = np.asarray(mlax.grad(lambda *xs: fn(*xs).sum(), argnums=argnum)(*args))
        eps = 1e-6
        hi, lo = list(args), list(args)
        hi[argnum], lo[argnum] = args[argnum] + eps, args[argnum] - eps
        fd = (np.asarray(fn(*hi)) - np.asarray(fn(*lo))) / (2 * eps)
        np.testing.assert_allclose(grad, fd, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("name", ["gammainc", "i0e", "log_ndtr", "xlogy"])
def test_vmap(name):
    args = _args(name, [(4, 3)] * len(KINDS[name]), seed=4)
    got = mlax.vmap(getattr(msp, name))(*args)
    _check(got, jvmap(getattr(jsp, name))(*args))


def test_sici():
    x = np.array([-20.0, -5.0, -0.5, 0.0, 0.3, 3.0, 6.0, 12.0, 1e10, np.inf, -np.inf], np.float32)
    for got, want in zip(msp.sici(x), jsp.sici(x)):
        _check(got, want)
    pos = x[[0, 1, 2, 4, 5, 6]]
    _check(mlax.grad(lambda t: sum(v.sum() for v in msp.sici(t)))(pos),
           jgrad(lambda t: sum(v.sum() for v in jsp.sici(t)))(pos), rtol=1e-5)


def test_static_argument_functions():
    a = np.array([3.0, 4.5], np.float32)
    _check(msp.multigammaln(a, 3), jsp.multigammaln(a, 3))
    for n in (1, 9):
        _check(msp.bernoulli(n), jsp.bernoulli(n), atol=1e-6)
    x = np.array([[0.5, -1.0, 2.0], [1.0, 1.0, 1.0]], np.float32)
    _check(msp.factorial(a), jsp.factorial(a))
    _check(msp.comb(a, 2.0, repetition=True), jsp.comb(a, 2.0, repetition=True), rtol=1e-5)
    _check(msp.logsumexp(x, axis=1), jsp.logsumexp(x, axis=1))
    _check(msp.softmax(x), jsp.softmax(x))
    _check(msp.log_softmax(x, axis=0), jsp.log_softmax(x, axis=0))
    _check(msp.log_ndtr(x, series_order=0), jsp.log_ndtr(x, series_order=0))


@pytest.mark.parametrize("name", ["igamma", "igammac", "igamma_grad_a", "random_gamma_grad"])
def test_lax_igamma_family(name):
    a = _input("pos", (5,), np.float32, 5)
    x = _input("pos", (5,), np.float32, 6) * 2
    _check(getattr(mlax_lax, name)(a, x), getattr(jax.lax, name)(a, x))


def test_lax_bessel_and_betainc_with_grad():
    x = _input("big", (6,), np.float32, 7)
    for name in ("bessel_i0e", "bessel_i1e"):
        f, g = getattr(mlax_lax, name), getattr(jax.lax, name)
        _check(mlax.jit(f)(x), g(x))
        _check(mlax.grad(lambda t: f(t).sum())(x), jgrad(lambda t: g(t).sum())(x))
    a, b, u = (_input(k, (4,), np.float32, s) for k, s in (("pos", 8), ("pos", 9), ("unit", 10)))
    _check(mlax_lax.betainc(a, b, u), jax.lax.betainc(a, b, u))
    # Forward mode in x alone, a and b closed over (their tangents are zeros).
    t = np.ones_like(u)
    _check(mlax.jvp(lambda v: mlax_lax.betainc(a, b, v), (u,), (t,))[1],
           jjvp(lambda v: jax.lax.betainc(a, b, v), (u,), (t,))[1], rtol=1e-5)


def test_errors():
    with pytest.raises(ValueError, match="must be of integer type"):
        msp.polygamma(1.0, 2.0)
    with pytest.raises(TypeError, match="is not supported"):
        msp.ndtr(np.array([1, 2], np.int32))
    with pytest.raises(TypeError, match="is not supported"):
        msp.ndtri(np.array([0.5], np.float16))
    with pytest.raises(NotImplementedError):
        msp.factorial(3.0, exact=True)
    with pytest.raises(NotImplementedError, match="Riemann zeta"):
        msp.zeta(2.0)
    with pytest.raises(ValueError, match="non-negative"):
        msp.bernoulli(-1)
    with pytest.raises(TypeError, match="series_order"):
        msp.log_ndtr(np.float32(1.0), series_order=1.5)
    with pytest.raises(ValueError, match="series_order"):
        msp.log_ndtr(np.float32(1.0), series_order=31)
    with pytest.raises(TypeError, match="lax.igamma.*same dtypes"):
        mlax_lax.igamma(np.float32(1.0), np.float16(1.0))
    with pytest.raises(TypeError, match="lax.betainc.*same shape"):
        mlax_lax.betainc(np.ones(2, np.float32), np.ones(3, np.float32), np.ones(2, np.float32))
    with pytest.raises(TypeError, match="lax.bessel_i0e.*floating-point"):
        mlax_lax.bessel_i0e(np.ones(2, np.int32))


# --- hyp1f1, hyp2f1, bessel_jn, owens_t, fresnel (JAX's algorithms) ---------

def _new_args(name, dtype, seed=0, n=6):
    rng = np.random.default_rng(seed)
    u = lambda lo, hi: rng.uniform(lo, hi, n).astype(dtype)  # noqa: E731
    if name == "hyp1f1":
        return [u(0.5, 3.0), u(0.5, 3.0), np.concatenate([u(-3.0, 3.0)[:-1],
                                                          np.array([120.0], dtype)])]
    if name == "hyp2f1":
        # x near 1 exercises the digamma transformation; a = -2 the terminal series.
        a, b = u(0.5, 2.0), u(0.5, 2.0)
        a[0] = -2.0
        x = u(-0.9, 0.8)
        x[1] = 0.95
        return [a, b, a + b + u(0.3, 1.5), x]
    if name == "owens_t":
        a = u(-3.0, 3.0)
        a[0], a[1] = 1.0, 0.4
        return [u(-3.0, 3.0), a]
    return [np.concatenate([u(-8.0, 8.0)[:-2], np.array([0.0, np.inf], dtype)])]


_NEW = ["hyp1f1", "hyp2f1", "owens_t", "fresnel"]


def _check_tree(got, want, **kw):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            _check(g, w, **kw)
    else:
        _check(got, want, **kw)


@pytest.mark.parametrize("name", _NEW)
def test_new_functions_values(name):
    args = _new_args(name, np.float32)
    want = getattr(jsp, name)(*args)
    fn = getattr(msp, name)
    _check_tree(fn(*args), want, rtol=1e-5, atol=1e-6)
    # Under jit each is traced in place in test_new_functions_grad (its
    # float64 finite differences) and test_new_functions_vmap.
    with _x64():
        args = _new_args(name, np.float64, seed=1)
        _check_tree(fn(*args), getattr(jsp, name)(*args), rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("name", _NEW)
def test_new_functions_vmap(name):
    args = [np.stack([a, a[::-1]]) for a in _new_args(name, np.float32, seed=5)]
    _check_tree(mlax.vmap(getattr(msp, name))(*args), jvmap(getattr(jsp, name))(*args),
                rtol=1e-5, atol=1e-6)


def _edges_and_promotion_cases():
    f = np.float32
    # a = b = 0, a = 0, b = 0 and a = b; a 0-d x broadcast.
    a, b = np.array([0., 0., 2., 1.], f), np.array([0., 1., 2., 0.], f)
    a2 = np.array([1.0, 0.5, 1.0, 2.0, 1.0, 1.5], f)
    c = np.array([2.0, -1.0, 3.0, 2.0, 1.5, 4.0], f)
    x = np.array([0.0, 0.3, 1.0, 0.5, 1.2, 1.0], f)
    i = np.array([1, 2, 3], np.int32)
    h = np.array([0.5, 1.5, -2.0], np.float16)  # float16 computed in float32
    # (name, arguments, tolerances); JAX's function is jsp's `name`
    return [("hyp1f1", (a, b, f(1.5)), {}),
            ("hyp1f1", (1, 2, 0.5), {}),  # Python scalars: weak
            ("hyp2f1", (a2, 1.0, c, x), dict(rtol=1e-5)),
            ("owens_t", (np.array([np.nan, 0.0, 1.0], f), np.array([1.0, 2.0, np.inf], f)), {}),
            ("fresnel", (i,), {}),
            ("fresnel", (h,), dict(rtol=1e-3, atol=1e-3)),
            ("owens_t", (i, 0.5), {})]


EDGES_AND_PROMOTION = _edges_and_promotion_cases()
# JAX's references: one jitted program (its functions are not jitted, and
# run eagerly they compile op by op).
EDGES_AND_PROMOTION_JAX = [(getattr(jsp, name), args, {}) for name, args, _ in EDGES_AND_PROMOTION]


def test_new_functions_edges_and_promotion():
    for (name, args, tol), want in zip(EDGES_AND_PROMOTION,
                                       jax_outcomes(EDGES_AND_PROMOTION_JAX)):
        _check_tree(getattr(msp, name)(*args), want, **tol)


def test_bessel_jn():
    z = np.array([[0.5, 1.0, 2.5], [4.0, 7.5, 10.0]], np.float32)
    for v, n_iter in ((0, 50), (3, 50), (5, 30)):
        _check(msp.bessel_jn(z, v=v, n_iter=n_iter), jsp.bessel_jn(z, v=v, n_iter=n_iter),
               rtol=1e-5, atol=1e-6)
    _check(mlax.jit(lambda t: msp.bessel_jn(t, v=2))(z), jsp.bessel_jn(z, v=2), rtol=1e-5,
           atol=1e-6)
    _check(mlax.vmap(lambda t: msp.bessel_jn(t, v=2))(z), jvmap(lambda t: jsp.bessel_jn(t, v=2))(z),
           rtol=1e-5, atol=1e-6)
    _check(mlax.grad(lambda t: msp.bessel_jn(t, v=2).sum())(z[0]),
           jgrad(lambda t: jsp.bessel_jn(t, v=2).sum())(z[0]), rtol=1e-4, atol=1e-5)
    with pytest.raises(TypeError):
        msp.bessel_jn(z, v=1.5)


# The arguments JAX differentiates each function in.
_NEW_GRADS = {"hyp1f1": (0, 1, 2), "hyp2f1": (0, 1, 2, 3), "owens_t": (0, 1), "fresnel": (0,)}
# Those also checked by finite differences: hyp2f1's a, b and c share one
# derivative rule (_hyp2f1_param_derivative), so a stands for the three.
_FD_GRADS = dict(_NEW_GRADS, hyp2f1=(0, 3))


def _total(fn):
    def f(*xs):
        out = fn(*xs)
        return sum(o.sum() for o in out) if isinstance(out, tuple) else out.sum()
    return f


def _smooth_args(name, dtype, seed):
    args = _new_args(name, dtype, seed)
    if name == "hyp1f1":
        args[2][-1] = 1.5  # stay in the series region
    if name == "hyp2f1":
        args[0][0], args[3][1] = 0.7, 0.5  # away from the terminal / transformed branches
    if name == "fresnel":
        args[0][-2:] = [0.3, 1.7]
    return args


@pytest.mark.parametrize("name", sorted(_NEW_GRADS))
def test_new_functions_grad(name):
    """Every differentiable argument at once: against JAX in float32, and
    against central differences of all elements in float64 (the functions
    are elementwise, so element k of the total's gradient is f'(x_k))."""
    argnums = _NEW_GRADS[name]
    fn = getattr(msp, name)
    args = _smooth_args(name, np.float32, 2)
    got = mlax.grad(_total(fn), argnums=argnums)(*args)
    want = jgrad(_total(getattr(jsp, name)), argnums=argnums)(*args)
    for g, w in zip(got, want):
        _check(g, w, rtol=1e-4, atol=1e-5)
    with _x64():
        args = _smooth_args(name, np.float64, 3)
        argnums = _FD_GRADS[name]
        grads = mlax.grad(_total(fn), argnums=argnums)(*args)
        eps = 1e-6

        # Both sides of every argument's difference in one call (the
        # functions are elementwise): one compile of the function, not 2n.
        shifts = [(k, d) for k in argnums for d in (eps, -eps)]
        moved = [np.concatenate([x + d if i == k else x for k, d in shifts])
                 for i, x in enumerate(args)]
        out = fn(*moved)
        out = np.asarray(sum(out) if isinstance(out, tuple) else out)
        sides = out.reshape(len(argnums), 2, -1)
        for g, (hi, lo) in zip(grads, sides):
            fd = (hi - lo) / (2 * eps)
            np.testing.assert_allclose(np.asarray(g), fd, rtol=1e-5, atol=1e-7)


def test_new_functions_errors():
    with pytest.raises(ValueError, match="complex"):
        msp.hyp1f1(1.0, 2.0, np.complex64(1.0))
    with pytest.raises(ValueError, match="complex"):
        msp.bessel_jn(np.complex64(1.0), v=1)
    with pytest.raises(NotImplementedError, match="complex"):
        msp.fresnel(np.complex64(1.0))


def test_owens_t_float32_under_x64_promotes_as_jax():
    """JAX's quadrature nodes are float64 NumPy arrays: with x64 on, float32
    arguments give a float64 result."""
    h = np.array([0.3, 1.2, -2.0], np.float32)
    a = np.array([0.5, 2.0, -0.7], np.float32)
    with _x64():
        _check(msp.owens_t(h, a), jsp.owens_t(h, a), rtol=1e-12, atol=1e-14)


# --- the complex-valued functions: wofz (and erfcx of complex z), sph_harm_y --

def _complex_points(region, n, seed):
    """Points of one region of the plane: the Faddeeva function is computed
    differently near 0, far out, on the axes and in the lower half-plane
    (by reflection, where it grows as exp(-z^2))."""
    rng = np.random.default_rng(seed)
    u = lambda lo, hi: rng.uniform(lo, hi, n)  # noqa: E731
    return {"small": u(-0.5, 0.5) + 1j * u(-0.5, 0.5), "upper": u(-8, 8) + 1j * u(0, 8),
            "large": (u(-1, 1) + 1j * u(0, 1)) * 1e3, "real": u(-30, 30) + 0j,
            "imag": 1j * u(-3, 30), "lower": u(-4, 4) - 1j * u(0, 3)}[region]


_REGIONS = ["small", "upper", "large", "real", "imag", "lower"]


@pytest.mark.parametrize("region", _REGIONS)
def test_wofz_against_jax_and_scipy(region):
    scipy_special = pytest.importorskip("scipy.special")
    z = _complex_points(region, 24, seed=_REGIONS.index(region)).astype(np.complex64)
    want = jsp.wofz(z)
    _check(msp.wofz(z), want, rtol=1e-6, atol=0)
    _check(mlax.jit(msp.wofz)(z.reshape(4, 6)), want.reshape(4, 6), rtol=1e-6, atol=0)
    ref = scipy_special.wofz(z.astype(np.complex128))
    np.testing.assert_allclose(np.asarray(msp.wofz(z)), ref, rtol=2e-6)
    with _x64():
        z = z.astype(np.complex128)
        _check(msp.wofz(z), jsp.wofz(z), rtol=1e-13, atol=0)
        np.testing.assert_allclose(np.asarray(msp.wofz(z)), scipy_special.wofz(z), rtol=1e-12)


WOFZ_32 = [(jsp.wofz, (z,), {}) for z in (
    1.0, 2, 0.5 - 1.5j, np.float32(1.5), np.array([1, -2, 3], np.int32),
    np.array([0.5, 1.5], np.float16), np.array([True, False]),
    np.array([0.5 + 0.25j], np.complex64))]
WOFZ_64 = [(jsp.wofz, (z,), {}) for z in (
    1.0, 3, 0.5 - 1.5j, np.array([0.5, -2.0]), np.array([2, 3], np.int64),
    np.array([1 + 1j], np.complex128), np.array([0.5, 2.0], np.float32))]


def test_wofz_dtypes_and_weak_types_as_jax():
    """Real, integer, narrow and Python-scalar arguments become complex
    (complex64; complex128 for float64 / 64-bit integers under x64); the
    result is strongly typed even for a Python scalar, as JAX's (JAX's
    references one jitted program a table: its wofz is not jitted, and run
    eagerly it compiles op by op)."""
    for (_, (z,), _), want in zip(WOFZ_32, jax_outcomes(WOFZ_32)):
        _check(msp.wofz(z), want, rtol=1e-6, atol=0)
    with _x64():
        for (_, (z,), _), want in zip(WOFZ_64, jax_outcomes(WOFZ_64)):
            # (float32 stays complex64)
            _check(msp.wofz(z), want, rtol=1e-6 if getattr(z, "dtype", None) == np.float32 else 1e-13, atol=0)


def test_wofz_derivatives():
    """JAX's custom_jvp dw/dz = -2 z w(z) + 2i/sqrt(pi): jvp and holomorphic
    grad against JAX, the real part's grad of a real argument against JAX,
    and the complex derivative against central differences in complex128."""
    z = _complex_points("upper", 6, 7).astype(np.complex64)
    z[:3] = np.conj(z[:3])  # the lower half-plane too
    t = np.full_like(z, 1 - 0.5j)
    got, want = mlax.jvp(msp.wofz, (z,), (t,)), jjvp(jsp.wofz, (z,), (t,))
    _check(got[0], want[0], rtol=1e-6, atol=0)
    _check(got[1], want[1], rtol=1e-5, atol=1e-7)
    _check(mlax.grad(msp.wofz, holomorphic=True)(z[0]),
           jax.grad(jsp.wofz, holomorphic=True)(z[0]), rtol=1e-5, atol=1e-7)
    x = np.array([-2.0, -0.3, 0.0, 0.7, 3.0], np.float32)
    _check(mlax.grad(lambda v: msp.wofz(v).real.sum())(x),
           jgrad(lambda v: jsp.wofz(v).real.sum())(x), rtol=1e-5, atol=1e-7)
    _check(mlax.grad(lambda v: msp.wofz(v).imag)(0.7), jgrad(lambda v: jsp.wofz(v).imag)(0.7),
           rtol=1e-5, atol=1e-7)
    with _x64():
        z = z.astype(np.complex128)
        deriv = np.asarray(mlax.jvp(msp.wofz, (z,), (np.ones_like(z),))[1])
        h = 1e-6
        for step in (h, 1j * h):  # holomorphic: the same along both axes
            fd = (np.asarray(msp.wofz(z + step)) - np.asarray(msp.wofz(z - step))) / (2 * step)
            np.testing.assert_allclose(deriv, fd, rtol=1e-7)


def test_wofz_vmap_and_erfcx_of_complex():
    z = _complex_points("upper", 12, 8).astype(np.complex64).reshape(3, 4)
    z[0] = -z[0]
    _check(mlax.vmap(msp.wofz)(z), jvmap(jsp.wofz)(z), rtol=1e-6, atol=0)
    _check(mlax.vmap(mlax.vmap(msp.wofz), in_axes=1)(z), jvmap(jvmap(jsp.wofz), in_axes=1)(z),
           rtol=1e-6, atol=0)
    # erfcx(z) = wofz(iz) for complex z, as JAX's; real z keeps its real rule.
    _check(msp.erfcx(z), jsp.erfcx(z), rtol=1e-6, atol=0)
    _check(msp.erfcx(0.5 + 2j), jsp.erfcx(0.5 + 2j), rtol=1e-6, atol=0)
    _check(mlax.grad(msp.erfcx, holomorphic=True)(np.complex64(0.3 - 0.2j)),
           jax.grad(jsp.erfcx, holomorphic=True)(np.complex64(0.3 - 0.2j)), rtol=1e-5)


def test_wofz_errors_as_jax():
    for bad in ([1.0, 2.0], None):
        with pytest.raises(TypeError):
            jsp.wofz(bad)
        with pytest.raises(TypeError):
            msp.wofz(bad)


def _sph_points(n_max, count, seed, dtype=np.float32):
    rng = np.random.default_rng(seed)
    n = rng.integers(0, n_max + 1, count)
    m = np.array([rng.integers(-k, k + 1) for k in n])
    theta = rng.uniform(0.05, np.pi - 0.05, count).astype(dtype)
    phi = rng.uniform(0, 2 * np.pi, count).astype(dtype)
    return n, m, theta, phi


@pytest.mark.parametrize("n_max", [0, 1, 2, 16])  # no recurrence, one step, the scan
def test_sph_harm_y_values(n_max):
    n, m, theta, phi = _sph_points(n_max, 12, seed=n_max)
    want = jsp.sph_harm_y(n, m, theta, phi)
    _check(msp.sph_harm_y(n, m, theta, phi), want, rtol=1e-5, atol=1e-6)
    fn = lambda *a: msp.sph_harm_y(*a, n_max=n_max)  # noqa: E731
    _check(mlax.jit(fn)(n, m, theta, phi), want, rtol=1e-5, atol=1e-6)
    # A scalar theta, a scalar phi (broadcast), m of another integer type.
    _check(msp.sph_harm_y(n, m.astype(np.int8), 0.7, phi[0]),
           jsp.sph_harm_y(n, m.astype(np.int8), 0.7, phi[0]), rtol=1e-5, atol=1e-6)
    with _x64():
        n, m, theta, phi = _sph_points(n_max, 12, seed=n_max + 1, dtype=np.float64)
        got = msp.sph_harm_y(n, m, theta, phi)
        _check(got, jsp.sph_harm_y(n, m, theta, phi), rtol=1e-12, atol=1e-14)
        scipy_special = pytest.importorskip("scipy.special")
        np.testing.assert_allclose(np.asarray(got), scipy_special.sph_harm_y(n, m, theta, phi),
                                   rtol=1e-10, atol=1e-13)


def test_sph_harm_y_n_max_shapes_and_dtypes_as_jax():
    """n_max below max(n) clips the degrees to it, above it changes nothing;
    arguments broadcast (and theta's points clip to n's) as JAX gathers
    them; mixed float widths and integer angles promote as JAX's."""
    n, m, theta, phi = _sph_points(6, 8, seed=20)
    for n_max in (3, 9):  # max(n) = 6 is the default, in the cases below
        _check(msp.sph_harm_y(n, m, theta, phi, n_max=n_max),
               jsp.sph_harm_y(n, m, theta, phi, n_max=n_max), rtol=1e-5, atol=1e-6)
    cases = [(n, m[:1], theta[:1], phi[:1]), (n, m, theta[:3], phi), (n[:1], m[:1], theta, phi),
             (n, np.stack([m, -m]), theta, phi), (n[:2], m[:2], np.array([1, 2]), np.array([0, 4])),
             (n, m, theta, 1.5), (n, m, np.float32(0.4), phi),
             (n, m, theta.astype(np.float16), phi)]
    # JAX's references in one program (its sph_harm_y is not jitted: run
    # eagerly it compiles op by op), but the float16 one, below.
    wants = jax.jit(lambda: [jsp.sph_harm_y(*args) for args in cases[:-1]])()
    for args, want in zip(cases, wants):
        _check(msp.sph_harm_y(*args), want, rtol=1e-5, atol=1e-6)
    # A float16 theta runs the Legendre recurrence in float16 in both (each
    # ~1e-3 off the float32 result). Where XLA keeps intermediates in float32
    # depends on how it fuses the program: one point alone agrees exactly,
    # eight points differ by one float16 ulp (6e-5 on 0.0765).
    _check(msp.sph_harm_y(*cases[-1]), jsp.sph_harm_y(*cases[-1]), rtol=2e-3, atol=2e-4)
    # A 0-d array theta is a scalar too.
    _check(msp.sph_harm_y(n, m, mlax.numpy.asarray(0.4), phi),
           jsp.sph_harm_y(n, m, jax.numpy.asarray(0.4), phi), rtol=1e-5, atol=1e-6)
    with _x64():  # float64 theta with float32 phi; NumPy int64 n and m
        cases = [(n, m, theta.astype(np.float64), phi), (n, m, theta, phi),
                 (n.astype(np.int32), m.astype(np.int32), theta, phi), (n, m, 0.4, phi)]
        wants = jax.jit(lambda: [jsp.sph_harm_y(*args) for args in cases])()
        for args, want in zip(cases, wants):
            _check(msp.sph_harm_y(*args), want, rtol=1e-5, atol=1e-6)
    # Under jit, a scalar theta (a weak 0-d tracer) is made a strong 1-D array.
    fn = lambda mod: lambda t: mod.sph_harm_y(n, m, t, phi, n_max=6)  # noqa: E731
    _check(mlax.jit(fn(msp))(0.4), jax.jit(fn(jsp))(0.4), rtol=1e-5, atol=1e-6)


def test_sph_harm_y_grad_and_vmap():
    n, m, theta, phi = _sph_points(5, 6, seed=30)
    for part in ("real", "imag"):
        def loss(mod):
            def f(t, p):
                return getattr(mod.sph_harm_y(n, m, t, p), part).sum()
            return f
        got = mlax.grad(loss(msp), argnums=(0, 1))(theta, phi)
        want = jgrad(loss(jsp), argnums=(0, 1))(theta, phi)
        for argnum in (0, 1):  # theta, phi
            try:
                _check(got[argnum], want[argnum], rtol=2e-4, atol=2e-5)
            except AssertionError as e:
                raise AssertionError(f"grad of {part} in argument {argnum}: {e}") from None
    with _x64():
        n, m, theta, phi = _sph_points(5, 6, seed=31, dtype=np.float64)
        f = lambda t, p: msp.sph_harm_y(n, m, t, p).real.sum()  # noqa: E731
        g_theta, g_phi = mlax.grad(f, argnums=(0, 1))(theta, phi)
        eps = 1e-6
        for g, (hi, lo) in ((g_theta, ((theta + eps, phi), (theta - eps, phi))),
                            (g_phi, ((theta, phi + eps), (theta, phi - eps)))):
            # Each point's value depends only on its own angles: one shift of
            # all of them gives every partial derivative.
            fd = (np.asarray(msp.sph_harm_y(n, m, *hi)) -
                  np.asarray(msp.sph_harm_y(n, m, *lo))).real / (2 * eps)
            np.testing.assert_allclose(np.asarray(g), fd, rtol=1e-6, atol=1e-9)
    n, m, theta, phi = _sph_points(4, 5, seed=32)
    thetas = np.stack([theta, theta[::-1], theta * 0.5])
    fn = lambda mod: lambda t: mod.sph_harm_y(n, m, t, phi)  # noqa: E731
    _check(mlax.vmap(fn(msp))(thetas), jvmap(fn(jsp))(thetas), rtol=1e-5, atol=1e-6)
    fn = lambda mod: lambda t, p: mod.sph_harm_y(n, m, t, p)  # noqa: E731
    _check(mlax.vmap(fn(msp), in_axes=(None, 0))(theta, thetas),
           jvmap(fn(jsp), in_axes=(None, 0))(theta, thetas), rtol=1e-5, atol=1e-6)


def test_sph_harm_y_errors_as_jax():
    n, m, theta, phi = _sph_points(3, 4, seed=40)
    f32 = np.float32
    cases = [
        (NotImplementedError, lambda s: s.sph_harm_y(n, m, theta, phi, diff_n=0)),
        (TypeError, lambda s: s.sph_harm_y(2, 1, 0.3, 0.7)),  # n must be 1-D
        (TypeError, lambda s: s.sph_harm_y(n.astype(f32), m, theta, phi)),
        (TypeError, lambda s: s.sph_harm_y(n, m.astype(f32), theta, phi)),
        (IndexError, lambda s: s.sph_harm_y(np.array([-1]), np.array([0]), theta[:1], phi[:1])),
        (ValueError, lambda s: s.sph_harm_y(n[:0], m[:0], theta[:0], phi[:0])),  # max of none
        (ValueError, lambda s: s.sph_harm_y(n, m, np.ones((2, 4), f32), phi)),
        (TypeError, lambda s: s.sph_harm_y(n, m, theta, phi[:2])),
        (TypeError, lambda s: s.sph_harm_y(n, m, theta.astype(np.float16),
                                           phi.astype(np.float16))),
        (TypeError, lambda s: s.sph_harm_y(n, m, theta, phi.astype(np.complex64))),
        (ValueError, lambda s: s.sph_harm_y(n, m, theta, phi, n_max="a")),
    ]
    for exc, call in cases:
        with pytest.raises(exc):
            call(jsp)
        with pytest.raises(exc):
            call(msp)
    # Without n_max the degrees must be concrete: under jit, a
    # ConcretizationTypeError naming n_max; a traced n_max is one too.
    for mod, jit in ((msp, mlax.jit), (jsp, jax.jit)):
        with pytest.raises(mod is msp and mlax.errors.ConcretizationTypeError
                           or jax.errors.ConcretizationTypeError, match="n_max"):
            jit(lambda a: mod.sph_harm_y(a, m, theta, phi))(n)
        with pytest.raises(mod is msp and mlax.errors.ConcretizationTypeError
                           or jax.errors.ConcretizationTypeError):
            jit(lambda k: mod.sph_harm_y(n, m, theta, phi, n_max=k))(3)

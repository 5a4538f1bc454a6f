"""Complex numbers end to end, against JAX: lax.real/imag/conj/complex, the
NumPy functions on complex input (real, imag, conj, angle, isreal,
iscomplex, var, std, nanvar, nanstd, the Array properties), and derivatives through complex
values (grad of real functions of complex inputs, jvp, vjp, holomorphic
grad). Values, dtypes and weak types; eagerly, under jit and under vmap."""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from _helpers import jax_outcomes
from jax._src import config as jax_config

import mlax
import mlax.lax as mlax_lax
import mlax.numpy as mnp

RNG = np.random.default_rng(19)


def _complex_input(shape, dtype=np.complex64, seed=0):
    rng = np.random.default_rng(seed)
    return (rng.uniform(-2, 2, shape) + 1j * rng.uniform(-2, 2, shape)).astype(dtype)


Z = _complex_input((2, 3))
Z2 = _complex_input((2, 3), seed=1)
# Special values (abs, isclose, nan_to_num) and ties of real parts (orders).
ZS = np.array([[np.inf + 1j, complex(np.inf, np.inf), complex(np.nan, np.inf)],
               [3e38 + 3e38j, 1e-30 - 1e-30j, -0.0 - 0.0j]], np.complex64)
ZT = np.array([[1 + 2j, -1 + 0j, 1 - 1j, 0.5 + 0j], [2j, -2j, 1 + 2j, 0j],
               [-1 + 1j, -1 - 1j, 3 + 0j, 1 + 0j]], np.complex64)
X = RNG.uniform(-2, 2, (2, 3)).astype(np.float32)
Y = RNG.uniform(-2, 2, (2, 3)).astype(np.float32)


def _check(out, ref, rtol=2e-6, atol=2e-6):
    """`out` is an mlax value equal to JAX's `ref` in value, dtype and weak type."""
    assert out.shape == ref.shape, (out.shape, ref.shape)
    assert out.dtype == ref.dtype, (out.dtype, ref.dtype)
    assert out.weak_type == ref.weak_type, (out.weak_type, ref.weak_type)
    np.testing.assert_allclose(np.asarray(out), np.asarray(ref), rtol=rtol, atol=atol)


# (name, fn(m, lax, *args), args): m is the numpy module, lax the lax module.
# Python scalars check weak types; real inputs check the real-input branches.
CASES = [
    ("lax.real", lambda m, l, z: l.real(z), (Z,)),
    ("lax.imag", lambda m, l, z: l.imag(z), (Z,)),
    ("lax.conj", lambda m, l, z: l.conj(z), (Z,)),
    ("lax.conj_of_float", lambda m, l, x: l.conj(x), (X,)),
    ("lax.complex", lambda m, l, x, y: l.complex(x, y), (X, Y)),
    ("lax.real_of_python_scalar", lambda m, l: l.real(1.5 - 2j), ()),
    ("lax.complex_of_python_scalars", lambda m, l: l.complex(1.5, -2.0), ()),
    ("real", lambda m, l, z: m.real(z), (Z,)),
    ("imag", lambda m, l, z: m.imag(z), (Z,)),
    ("imag_of_float", lambda m, l, x: m.imag(x), (X,)),
    ("conj", lambda m, l, z: m.conj(z), (Z,)),
    ("conjugate_of_float", lambda m, l, x: m.conjugate(x), (X,)),
    ("angle", lambda m, l, z: m.angle(z), (Z,)),
    ("angle_deg", lambda m, l, z: m.angle(z, deg=True), (Z,)),
    ("angle_of_float", lambda m, l, x: m.angle(x), (X,)),
    ("angle_of_python_scalar", lambda m, l: m.angle(1.0 - 1j), ()),
    ("isreal", lambda m, l, z: m.isreal(m.asarray(z).at[0, 1].set(3.0)), (Z,)),
    ("iscomplex", lambda m, l, z: m.iscomplex(m.asarray(z).at[1, 2].set(-1.0)), (Z,)),
    ("var", lambda m, l, z: m.var(z), (Z,)),
    ("var_axis_ddof", lambda m, l, z: m.var(z, axis=1, ddof=1, keepdims=True), (Z,)),
    ("var_where", lambda m, l, z: m.var(z, axis=0, where=np.array([True, False, True])), (Z,)),
    ("var_complex_dtype", lambda m, l, z: m.var(z, dtype=np.complex64), (Z,)),
    ("std", lambda m, l, z: m.std(z, axis=0), (Z,)),
    ("nanvar", lambda m, l, z: m.nanvar(m.asarray(z).at[0, 1].set(np.nan), axis=1), (Z,)),
    ("nanstd", lambda m, l, z: m.nanstd(m.asarray(z).at[1, 1].set(np.nan)), (Z,)),
    ("array_properties", lambda m, l, z: m.asarray(z).real + 2 * m.asarray(z).imag, (Z,)),
    ("array_conj", lambda m, l, z: m.asarray(z).conj() * m.asarray(z).conjugate(), (Z,)),
    ("abs_squared", lambda m, l, z: m.real(z * m.conj(z)), (Z,)),
    ("isnan_isinf_isfinite", lambda m, l, z: m.stack([
        f(m.asarray(z).at[0, 0].set(np.nan).at[0, 1].set(1j * np.inf).at[1, 0].set(np.nan * 1j))
        for f in (m.isnan, m.isinf, m.isfinite)]), (Z,)),
    # Magnitudes: no overflow or underflow in the squares; JAX's infinities
    # and NaNs (ZS holds them).
    ("abs", lambda m, l, z: m.abs(z), (Z,)),
    ("abs_special_values", lambda m, l, z: m.abs(z), (ZS,)),
    ("lax.abs", lambda m, l, z: l.abs(z), (ZS,)),
    ("linalg.norm", lambda m, l, z: m.linalg.norm(z, axis=1), (Z,)),
    ("isclose", lambda m, l, z, w: m.isclose(z, m.asarray(z).at[0, :2].set(w[0, :2]),
                                             rtol=1e-3), (Z, Z2)),
    ("isclose_special_values", lambda m, l, z: m.stack([
        m.isclose(z, z[::-1]), m.isclose(z, z, equal_nan=True)]), (ZS,)),
    ("allclose", lambda m, l, z: m.allclose(z, z * (1 + 1e-7)), (Z,)),
    # Orders: complex values sort lexicographically, real part first.
    ("cumsum", lambda m, l, z: m.cumsum(z, axis=1), (Z,)),
    ("lax.cumsum_reverse", lambda m, l, z: l.cumsum(z, axis=1, reverse=True), (Z,)),
    ("sort", lambda m, l, z: m.sort(z, axis=-1), (ZT,)),
    ("argsort", lambda m, l, z: m.argsort(z, axis=0), (ZT,)),
    ("lax.sort_key_val", lambda m, l, z: l.sort_key_val(z, l.imag(z))[1], (ZT,)),
    ("max_min", lambda m, l, z: m.stack([m.max(z, axis=1), m.min(z, axis=1)]), (ZT,)),
    ("max_initial_keepdims", lambda m, l, z: m.max(z, axis=0, initial=0.5 + 1j,
                                                   keepdims=True), (ZT,)),
    ("nan_to_num", lambda m, l, z: m.nan_to_num(z, posinf=9.0), (ZS,)),
    ("nanmax_nanmin", lambda m, l, z: m.stack([
        m.nanmax(m.asarray(z).at[0, 1].set(np.nan), axis=1),
        m.nanmin(m.asarray(z).at[2, :].set(complex(1, np.nan)), axis=1)]), (ZT,)),
]


def _stacked(args):
    return [np.stack([a, a[::-1]]) for a in args]


# JAX's results of each table in one jitted program (jax_outcomes).
JAX_TABLE = [(lambda *a, fn=fn: fn(jnp, jax.lax, *a), args, {}) for _, fn, args in CASES]
VMAP_TABLE = [(jax.vmap(lambda *a, fn=fn: fn(jnp, jax.lax, *a)), _stacked(args), {})
              for _, fn, args in CASES]


@pytest.mark.parametrize("name, fn, args, mode", [
    pytest.param(*case, mode, id=f"{case[0]}-{mode}") for mode in ("eager", "jit", "vmap")
    for case in CASES if case[2] or mode != "vmap"])  # a function of no arguments maps nothing
def test_against_jax(name, fn, args, mode):
    i = [c[0] for c in CASES].index(name)
    if mode == "eager":
        out = fn(mnp, mlax_lax, *args)
    elif mode == "jit":
        out = mlax.jit(lambda *a: fn(mnp, mlax_lax, *a))(*args)
    else:
        out = mlax.vmap(lambda *a: fn(mnp, mlax_lax, *a))(*_stacked(args))
    _check(out, jax_outcomes(VMAP_TABLE if mode == "vmap" else JAX_TABLE)[i])


def test_complex128_under_x64():
    z = _complex_input((3,), np.complex128)
    old = mlax.config.jax_enable_x64
    mlax.config.update("jax_enable_x64", True)
    try:
        with jax_config.enable_x64(True):
            for f in (lambda m, l: l.real(z), lambda m, l: l.conj(z),
                      lambda m, l: l.complex(l.imag(z), l.real(z)),
                      lambda m, l: m.var(z)):
                _check(mlax.jit(lambda: f(mnp, mlax_lax))(), f(jnp, jax.lax),
                       rtol=1e-14, atol=1e-14)
            g = mlax.grad(lambda v: mnp.real(v * mnp.conj(v)).sum())(z)
            _check(g, jax.grad(lambda v: jnp.real(v * jnp.conj(v)).sum())(z), rtol=1e-14)
    finally:
        mlax.config.update("jax_enable_x64", old)


def test_errors_are_jaxs():
    with pytest.raises(TypeError, match="lax.real"):
        mlax_lax.real(X)
    with pytest.raises(TypeError, match="lax.imag"):
        mlax_lax.imag(np.arange(3))
    with pytest.raises(TypeError, match="lax.complex requires arguments to have the same dtypes"):
        mlax_lax.complex(X, X.astype(np.float16))
    with pytest.raises(TypeError, match="lax.complex.*needs float32 or float64"):
        mlax_lax.complex(Z, Z)
    with pytest.raises(TypeError, match="lax.conj.*needs float32, float64 or complex"):
        mlax_lax.conj(np.arange(3))
    for bad in (lambda: jax.lax.real(X), lambda: jax.lax.complex(X, X.astype(np.float16)),
                lambda: jax.lax.complex(Z, Z), lambda: jax.lax.conj(np.arange(3))):
        with pytest.raises(TypeError):  # the same class as JAX's
            bad()
    with pytest.raises(TypeError, match="mnp.argmax: does not accept dtype complex64"):
        mnp.argmax(Z)
    with pytest.raises(TypeError):
        jnp.argmax(Z)
    with pytest.raises(ValueError, match="real dtype parameters"):
        mnp.var(Z, dtype=np.float32)
    with pytest.raises(ValueError):
        jnp.var(Z, dtype=np.float32)


# Real-valued functions of complex inputs (JAX's grad is the conjugate of
# df/dx + i df/dy's conjugate: df/dx - i df/dy), through the new ops and the
# holomorphic ones (mul, exp, sin, sum, dot, fft, reshape, indexing).
REAL_OF_COMPLEX = [
    ("abs_squared", lambda m, l, z: m.real(z * m.conj(z)).sum()),
    ("imag_and_real", lambda m, l, z: (m.imag(z) ** 2 * m.real(z)).sum()),
    ("exp_times_conj", lambda m, l, z: m.real(m.exp(z) * m.conj(z)).mean()),
    ("sin_dot", lambda m, l, z: m.imag(m.dot(m.sin(z).reshape(-1), z.reshape(-1)))),
    ("complex_of_parts", lambda m, l, z: m.real(
        l.complex(m.imag(z), m.real(z) ** 2) * z[0, 1]).sum()),
    ("var", lambda m, l, z: m.var(z)),
    ("std_axis", lambda m, l, z: m.std(z, axis=1).sum()),
    ("fft_energy", lambda m, l, z: m.real(m.fft.fft(z) * m.conj(m.fft.fft(z))).sum()),
    ("angle", lambda m, l, z: m.angle(z).sum()),
    ("abs", lambda m, l, z: m.abs(z).sum()),
    ("abs_of_cumsum", lambda m, l, z: (m.abs(m.cumsum(z, axis=1)) * m.real(z)).sum()),
    ("lax.abs_at_zero", lambda m, l, z: l.abs(z * m.asarray([[0, 1, 1], [1, 0, 1]])).sum()),
]

REAL_OF_COMPLEX_GRADS = [(jax.grad(lambda z, fn=fn: fn(jnp, jax.lax, z)), (Z,), {})
                         for _, fn in REAL_OF_COMPLEX]


@pytest.mark.parametrize("mode", ["eager", "jit"])
@pytest.mark.parametrize("name, fn", REAL_OF_COMPLEX, ids=[c[0] for c in REAL_OF_COMPLEX])
def test_grad_of_real_function_of_complex(name, fn, mode):
    ref = jax_outcomes(REAL_OF_COMPLEX_GRADS)[[c[0] for c in REAL_OF_COMPLEX].index(name)]
    g = mlax.grad(lambda z: fn(mnp, mlax_lax, z))
    out = g(Z) if mode == "eager" else mlax.jit(g)(Z)
    _check(out, ref, rtol=2e-5, atol=2e-5)


def test_grad_matches_finite_differences():
    """df/dx - i df/dy by central differences, in float64."""
    z = _complex_input((3,), np.complex64)
    f = REAL_OF_COMPLEX[2][1]
    g = np.asarray(mlax.grad(lambda v: f(mnp, mlax_lax, v))(z))
    fd = np.empty(3, np.complex128)
    z64, h = z.astype(np.complex128), 1e-6
    for k in range(3):
        e = np.zeros(3)
        e[k] = h
        dx = (f(np, None, z64 + e) - f(np, None, z64 - e)) / (2 * h)
        dy = (f(np, None, z64 + 1j * e) - f(np, None, z64 - 1j * e)) / (2 * h)
        fd[k] = dx - 1j * dy
    np.testing.assert_allclose(g, fd, rtol=1e-4, atol=1e-4)


def test_vmap_of_grad_and_value_and_grad():
    f = REAL_OF_COMPLEX[0][1]
    zs = np.stack([Z, Z2])
    _check(mlax.vmap(mlax.grad(lambda z: f(mnp, mlax_lax, z)))(zs),
           jax.vmap(jax.grad(lambda z: f(jnp, jax.lax, z)))(zs))
    v, g = mlax.value_and_grad(lambda z: f(mnp, mlax_lax, z))(Z)
    rv, rg = jax.value_and_grad(lambda z: f(jnp, jax.lax, z))(Z)
    _check(v, rv, rtol=2e-5)
    _check(g, rg)


# Forward mode: complex tangents through each new op (and a real tangent
# into complex / conj of a real input).
JVP_CASES = [
    ("real", lambda m, l, z: l.real(z), (Z,), (Z2,)),
    ("imag", lambda m, l, z: l.imag(z) * 3.0, (Z,), (Z2,)),
    ("conj", lambda m, l, z: l.conj(z) * z, (Z,), (Z2,)),
    ("complex", lambda m, l, x, y: l.complex(x * y, y), (X, Y), (Y, X)),
    ("conj_of_float", lambda m, l, x: l.conj(x) * 2j, (X,), (Y,)),
    ("fft", lambda m, l, z: m.fft.ifft(m.fft.fft(z) * z), (Z,), (Z2,)),
    ("rfft", lambda m, l, x: m.real(m.fft.rfft(x)) + m.imag(m.fft.rfft(x)), (X,), (Y,)),
]


@pytest.mark.parametrize("name, fn, primals, tangents", JVP_CASES,
                         ids=[c[0] for c in JVP_CASES])
def test_jvp(name, fn, primals, tangents):
    out, t = mlax.jvp(lambda *a: fn(mnp, mlax_lax, *a), primals, tangents)
    ref_out, ref_t = jax.jvp(lambda *a: fn(jnp, jax.lax, *a), primals, tangents)
    _check(out, ref_out, rtol=2e-5, atol=2e-5)
    _check(t, ref_t, rtol=2e-5, atol=2e-5)


@pytest.mark.parametrize("name, fn, primals, cotangent_of", [
    ("conj_mul", lambda m, l, z: l.conj(z) * z[::-1], (Z,), None),
    ("complex", lambda m, l, x, y: l.complex(x, y * x), (X, Y), None),
    ("imag", lambda m, l, z: l.imag(z), (Z,), "real"),
    ("irfft", lambda m, l, z: m.fft.irfft(z), (Z,), "real"),
], ids=["conj_mul", "complex", "imag", "irfft"])
def test_vjp(name, fn, primals, cotangent_of):
    out, pullback = mlax.vjp(lambda *a: fn(mnp, mlax_lax, *a), *primals)
    ref_out, ref_pullback = jax.vjp(lambda *a: fn(jnp, jax.lax, *a), *primals)
    shape, dt = ref_out.shape, ref_out.dtype
    ct = (RNG.uniform(-1, 1, shape) + (0 if cotangent_of else 1j * RNG.uniform(-1, 1, shape)))
    ct = ct.astype(dt)
    _check(out, ref_out, rtol=2e-5, atol=2e-5)
    for got, want in zip(pullback(ct), ref_pullback(ct)):
        _check(got, want, rtol=2e-5, atol=2e-5)


def test_holomorphic_grad():
    f = lambda m, z: m.sin(z) * z + m.exp(z) / (z + 3.0)  # noqa: E731
    z = np.complex64(0.5 - 1.2j)
    _check(mlax.grad(lambda v: f(mnp, v), holomorphic=True)(z),
           jax.grad(lambda v: f(jnp, v), holomorphic=True)(z), rtol=2e-5)
    v, g = mlax.value_and_grad(lambda v: f(mnp, v), holomorphic=True)(z)
    rv, rg = jax.value_and_grad(lambda v: f(jnp, v), holomorphic=True)(z)
    _check(v, rv, rtol=2e-5)
    _check(g, rg, rtol=2e-5)
    with pytest.raises(TypeError, match="holomorphic=True requires inputs with complex"):
        mlax.grad(lambda v: v * v, holomorphic=True)(np.float32(1.0))
    with pytest.raises(TypeError, match="holomorphic=True requires outputs with complex"):
        mlax.grad(lambda v: mnp.real(v), holomorphic=True)(z)
    with pytest.raises(TypeError, match="requires real-valued outputs"):
        mlax.grad(lambda v: v * v)(z)


def test_linalg_on_complex_differentiates_as_jax():
    """The factorizations' rules hold for complex matrices (JAX's conjugate
    transposes; test_linalg_derivatives has the full set)."""
    a = _complex_input((3, 3)) + 3 * np.eye(3, dtype=np.complex64)
    got = mlax.grad(lambda m: mnp.real(mlax_lax.linalg.qr(m)[1]).sum())(a)
    want = jax.grad(lambda m: jnp.real(jax.lax.linalg.qr(m)[1]).sum())(a)
    _check(got, want, rtol=1e-4)


def test_jacobians():
    """jacfwd/jacrev: holomorphic Jacobians, jacrev of a real function of
    complex inputs, and JAX's errors for complex values without holomorphic."""
    z = _complex_input((3,))
    f = lambda m, v: m.sin(v) * v[::-1]  # noqa: E731
    for jac in ("jacfwd", "jacrev"):
        _check(getattr(mlax, jac)(lambda v: f(mnp, v), holomorphic=True)(z),
               getattr(jax, jac)(lambda v: f(jnp, v), holomorphic=True)(z), rtol=2e-5)
    g = lambda m, v: m.real(v * m.conj(v[::-1]))  # noqa: E731
    _check(mlax.jacrev(lambda v: g(mnp, v))(z), jax.jacrev(lambda v: g(jnp, v))(z))
    with pytest.raises(TypeError, match="jacfwd requires real-valued inputs"):
        mlax.jacfwd(lambda v: g(mnp, v))(z)
    with pytest.raises(TypeError, match="jacrev requires real-valued outputs"):
        mlax.jacrev(lambda v: f(mnp, v))(z)
    with pytest.raises(TypeError, match="jacfwd with holomorphic=True requires outputs"):
        mlax.jacfwd(lambda v: g(mnp, v), holomorphic=True)(z)
    for bad in (lambda: jax.jacfwd(lambda v: g(jnp, v))(z),
                lambda: jax.jacrev(lambda v: f(jnp, v))(z),
                lambda: jax.jacfwd(lambda v: g(jnp, v), holomorphic=True)(z)):
        with pytest.raises(TypeError):
            bad()


# The holomorphic ops' rules, unchanged, are right for complex values under
# JAX's convention: grad of real(f(z) * w) against JAX's, one op each.
HOLOMORPHIC = [
    ("pow", lambda m, v: v ** (v * 0.5 + 1)), ("sqrt", lambda m, v: m.sqrt(v)),
    ("log1p", lambda m, v: m.log1p(v)), ("tanh", lambda m, v: m.tanh(v)),
    ("sinh", lambda m, v: m.sinh(v)), ("arcsin", lambda m, v: m.arcsin(v * 0.3)),
    ("divide", lambda m, v: v / (v[::-1] + 1)), ("prod", lambda m, v: m.prod(v) * v),
    ("cumprod", lambda m, v: m.cumprod(v)), ("matmul", lambda m, v: m.outer(v, v) @ v),
    ("where", lambda m, v: m.where(m.real(v) > 0.5, v * v, v)),
    ("pad_gather", lambda m, v: m.pad(m.concatenate([v, v * 2]), 1)[np.array([0, 2, 2])]),
]

HZ = (np.random.default_rng(3).uniform(0.2, 1, (4, 2)) @ [1, 1j]).astype(np.complex64)
HOLOMORPHIC_GRADS = [(jax.grad(lambda v, f=f: jnp.real(f(jnp, v) * (1 - 2j)).sum()), (HZ,), {})
                     for _, f in HOLOMORPHIC]


@pytest.mark.parametrize("name, f", HOLOMORPHIC, ids=[c[0] for c in HOLOMORPHIC])
def test_grad_through_holomorphic_ops(name, f):
    _check(mlax.grad(lambda v: mnp.real(f(mnp, v) * (1 - 2j)).sum())(HZ),
           jax_outcomes(HOLOMORPHIC_GRADS)[[c[0] for c in HOLOMORPHIC].index(name)],
           rtol=1e-4, atol=1e-4)

"""Derivatives through the factorizations of mlax.lax.linalg that JAX
differentiates: svd's singular vectors (forward and reverse mode), and
complex matrices through triangular_solve, eigh, qr, lu and svd.

Every case runs on mlax and on JAX (the same LAPACK kernels, so the same
signs and phases of the vectors) and compares values and dtypes, eagerly
and under jit; a few are also checked against central finite differences
with losses that do not depend on the vectors' signs or phases. Inputs are
well conditioned: distinct singular values and eigenvalues.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import jax.scipy.linalg as jsl
import numpy as np
import pytest

import mlax
import mlax.lax as L
import mlax.numpy as mnp
import mlax.scipy.linalg as msl

DTYPES = ["float32", "float64", "complex64", "complex128"]
SHAPES = [(3, 3), (2, 4, 3), (3, 5)]


@pytest.fixture(params=DTYPES)
def dtype(request):
    if request.param in ("float64", "complex128"):
        request.getfixturevalue("x64")
    return np.dtype(request.param)


def _tol(dtype):
    return 1e-9 if np.dtype(dtype) in (np.float64, np.complex128) else 2e-3


def close(got, want, dtype):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    t = _tol(dtype)
    scale = max(1.0, float(np.max(np.abs(want)))) if want.size else 1.0
    np.testing.assert_allclose(got, want, rtol=t, atol=t * scale)


def matrix(shape, dtype, seed=0, spread=True):
    """A random matrix; with `spread`, a diagonal-heavy one whose singular
    values are far apart."""
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    if spread:
        k = min(shape[-2:])
        d = np.zeros(shape[-2:])
        d[np.arange(k), np.arange(k)] = 3.0 * np.arange(k, 0, -1)
        a = a + d
    return a.astype(dtype)


def weights(shape, dtype, seed):
    return matrix(shape, dtype, seed=100 + seed, spread=False)


def check_grad_and_jvp(f, jf, args, dtype, argnums=0, values=None):
    """mlax's grad (eager and jit) and jvp against JAX's, for a real loss.

    JAX's references are one jitted program: its loss and gradient (and the
    `values` of the optional pair (mlax function, JAX function), compared
    eagerly and under jit too). The reference for the jvp's tangent is
    JAX's directional derivative re(sum(grad * t)) (JAX's convention for a
    real loss of complex inputs): what JAX's jvp of the loss gives, without
    a second program."""
    nums = argnums if isinstance(argnums, tuple) else (argnums,)

    def reference(*a):
        value, grad = jax.value_and_grad(jf, argnums=argnums)(*a)
        return value, grad, (values[1](*a) if values else None)
    jp, want, jvalues = jax.jit(reference)(*args)
    for got in (mlax.grad(f, argnums=argnums)(*args),
                mlax.jit(mlax.grad(f, argnums=argnums))(*args)):
        for g, w in zip(jax.tree_util.tree_leaves(got), jax.tree_util.tree_leaves(want)):
            close(g, w, dtype)
    if values:
        want_values = jax.tree_util.tree_leaves(jvalues)
        for got in (values[0](*args), mlax.jit(values[0])(*args)):
            got = jax.tree_util.tree_leaves(got)
            assert len(got) == len(want_values)
            for g, w in zip(got, want_values):
                close(g, w, dtype)
    tans = tuple(weights(np.shape(args[i]), dtype, 50 + i) for i in nums)

    primals = tuple(args[i] for i in nums)

    def sub(fn):
        def g(*p):
            full = list(args)
            for i, v in zip(nums, p):
                full[i] = v
            return fn(*full)
        return g

    p, t = mlax.jvp(sub(f), primals, tans)
    grads = jax.tree_util.tree_leaves(want)
    assert len(grads) == len(tans)
    jt = sum(np.real(np.sum(np.asarray(g).astype(np.complex128) * tan))
             for g, tan in zip(grads, tans))
    close(p, jp, dtype)
    close(t, np.asarray(jt).astype(np.asarray(jp).dtype), dtype)


def re_sum(lib, x, w):
    """A real loss of a real or complex `x`."""
    return lib.sum(lib.real(x * w))


# ---------------------------------------------------------------------------
# svd: singular vectors in forward and reverse mode
# ---------------------------------------------------------------------------

# Each shape (square, batched tall, wide) with a real and a complex dtype,
# each dtype at least once: the shape and the dtype pick independent parts
# of the rule (the full product is twice the compiles for no other path).
SVD_CASES = [((3, 3), "float32"), ((3, 3), "complex128"), ((2, 4, 3), "float64"),
             ((2, 4, 3), "complex64"), ((3, 5), "float32"), ((3, 5), "complex128")]


@pytest.mark.parametrize("shape,dtype", SVD_CASES,
                         ids=["x".join(map(str, s)) + "-" + d for s, d in SVD_CASES],
                         indirect=["dtype"])
def test_svd_vectors(shape, dtype):
    a = matrix(shape, dtype)
    k = min(shape[-2:])
    wu = weights(shape[:-1] + (k,), dtype, 1)
    ws = weights(shape[:-2] + (k,), np.float64, 2).astype(np.finfo(dtype).dtype)
    wv = weights(shape[:-2] + (k, shape[-1]), dtype, 3)

    def loss(lib, la):
        def f(x):
            u, s, vt = la.svd(x, full_matrices=False)
            return re_sum(lib, u, wu) + lib.sum(s * ws) + re_sum(lib, vt, wv)
        return f

    check_grad_and_jvp(loss(mnp, L.linalg), loss(jnp, jax.lax.linalg), (a,), dtype)


def test_svd_vectors_full_square(dtype):
    a = matrix((2, 3, 3), dtype)
    w = weights((2, 3, 3), dtype, 4)

    def loss(lib, la):
        def f(x):
            u, _, vt = la.svd(x, full_matrices=True)
            return re_sum(lib, u @ vt, w)
        return f

    check_grad_and_jvp(loss(mnp, L.linalg), loss(jnp, jax.lax.linalg), (a,), dtype)


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("cdtype", ["float64", "complex128"])
def test_svd_vectors_finite_differences(shape, cdtype, x64):
    # |u|^2 and |vt|^2 do not depend on the vectors' signs or phases.
    a = matrix(shape, cdtype)
    k = min(shape[-2:])
    wu = weights(shape[:-1] + (k,), np.float64, 5)
    wv = weights(shape[:-2] + (k, shape[-1]), np.float64, 6)

    def f(x):
        u, s, vt = L.linalg.svd(x, full_matrices=False)
        return (mnp.sum(mnp.abs(u) ** 2 * wu) + mnp.sum(mnp.abs(vt) ** 2 * wv)
                + mnp.sum(s ** 3))

    g = np.asarray(mlax.grad(f)(a))
    t = weights(shape, cdtype, 7)
    eps = 1e-6
    fd = (float(f(a + eps * t)) - float(f(a - eps * t))) / (2 * eps)
    # JAX's convention: for a real f of complex z, df = re(sum(grad * dz)).
    np.testing.assert_allclose(np.real(np.sum(g * t)), fd, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("cdtype", ["float64", "complex128"])
def test_svd_first_left_vector_sum(cdtype, x64):
    # What users write: grad of a function of u straight from mnp.linalg.svd.
    dtype = np.dtype(cdtype)
    a = matrix((4, 4), dtype)
    f = lambda x: mnp.sum(mnp.real(mnp.linalg.svd(x)[0]))  # noqa: E731
    jf = lambda x: jnp.sum(jnp.real(jnp.linalg.svd(x)[0]))  # noqa: E731
    check_grad_and_jvp(f, jf, (a,), dtype)


@pytest.mark.parametrize("name", ["lstsq", "pinv"])
def test_complex_svd_composites(name, cdtype):
    """pinv and lstsq of complex matrices: values, dtypes and derivatives as
    JAX's (conjugate transposes of the SVD's factors)."""
    dt = np.dtype(cdtype)
    a = matrix((5, 3), dt)
    b = weights((5, 2), dt, 8)
    fns = {
        "lstsq": (lambda la, np_: lambda x, y: re_sum(np_, la.lstsq(x, y)[0], 1.5)),
        "pinv": (lambda la, np_: lambda x, y: re_sum(np_, la.pinv(x) @ y, 0.5)),
    }
    values = {"lstsq": lambda la: lambda x, y: tuple(la.lstsq(x, y)),
              "pinv": lambda la: lambda x, y: la.pinv(x)}[name]
    check_grad_and_jvp(fns[name](mnp.linalg, mnp), fns[name](jnp.linalg, jnp), (a, b), dt,
                       argnums=(0, 1), values=(values(mnp.linalg), values(jnp.linalg)))


def test_complex_matrix_rank(cdtype):
    a = matrix((3, 4, 4), np.dtype(cdtype))
    a[1, :, 0] = a[1, :, 1]  # rank 3
    got, want = mnp.linalg.matrix_rank(a), jnp.linalg.matrix_rank(a)
    assert np.asarray(got).tolist() == np.asarray(want).tolist() == [4, 3, 4]
    assert np.asarray(got).dtype == np.asarray(want).dtype


@pytest.mark.parametrize("name", ["lstsq", "pinv", "norm_2", "norm_nuc"])
def test_svd_composites(name, x64):
    a = matrix((5, 3), np.float64)
    b = weights((5, 2), np.float64, 8)
    fns = {
        "lstsq": (lambda la: lambda x, y: la.lstsq(x, y)[0].sum()),
        "pinv": (lambda la: lambda x, y: (la.pinv(x) @ y).sum()),
        "norm_2": (lambda la: lambda x, y: la.norm(x, 2) * y.sum()),
        "norm_nuc": (lambda la: lambda x, y: la.norm(x, "nuc") * y.sum()),
    }
    check_grad_and_jvp(fns[name](mnp.linalg), fns[name](jnp.linalg), (a, b), np.float64,
                       argnums=(0, 1))


def test_svd_vectors_vmap_of_grad(dtype):
    a = matrix((3, 4, 3), dtype)
    w = weights((4, 3), dtype, 9)

    def loss(lib, la):
        return lambda x: re_sum(lib, la.svd(x, full_matrices=False)[0], w)

    got = mlax.vmap(mlax.grad(loss(mnp, L.linalg)))(a)
    want = jax.jit(jax.vmap(jax.grad(loss(jnp, jax.lax.linalg))))(a)
    close(got, want, dtype)
    close(mlax.jit(mlax.vmap(mlax.grad(loss(mnp, L.linalg))))(a), want, dtype)


def test_svd_vectors_full_matrices_nonsquare_raises():
    a = matrix((4, 3), np.float32)
    for fn, lib in ((mlax.grad, mnp), (jax.grad, jnp)):
        with pytest.raises(NotImplementedError):
            fn(lambda x: lib.sum(lib.linalg.svd(x)[0]))(a)
    with pytest.raises(NotImplementedError):
        mlax.jvp(lambda x: mnp.linalg.svd(x)[2], (a,), (a,))
    with pytest.raises(NotImplementedError):
        jax.jvp(lambda x: jnp.linalg.svd(x)[2], (a,), (a,))


# ---------------------------------------------------------------------------
# Complex matrices through triangular_solve, eigh, qr and lu
# ---------------------------------------------------------------------------

@pytest.fixture(params=["complex64", "complex128"])
def cdtype(request):
    if request.param == "complex128":
        request.getfixturevalue("x64")
    return np.dtype(request.param)


# Each flag combination in one precision, alternating (the flags and the
# precision are independent: both precisions meet conjugate_a).
@pytest.mark.parametrize("kw,cdtype", [
    (dict(left_side=True, lower=True), "complex64"),
    (dict(left_side=False, lower=False, transpose_a=True, unit_diagonal=True), "complex128"),
    (dict(left_side=True, lower=False, transpose_a=True, conjugate_a=True), "complex64"),
    (dict(left_side=True, lower=True, conjugate_a=True), "complex128"),
    (dict(left_side=False, lower=False, conjugate_a=True, unit_diagonal=True), "complex64"),
], ids=["left_lower-complex64", "right_transpose_unit-complex128", "left_adjoint-complex64",
        "left_conjugate-complex128", "right_conjugate_unit-complex64"], indirect=["cdtype"])
def test_complex_triangular_solve(kw, cdtype):
    a = matrix((2, 3, 3), cdtype, seed=1)
    b = weights((2, 3, 2) if kw["left_side"] else (2, 2, 3), cdtype, 10)
    w = weights(b.shape, cdtype, 11)
    def loss(la):
        return lambda x, y: re_sum(mnp if la is L.linalg else jnp,
                                   la.triangular_solve(x, y, **kw), w)

    # (the values too, eagerly and under jit)
    check_grad_and_jvp(loss(L.linalg), loss(jax.lax.linalg), (a, b), cdtype, argnums=(0, 1),
                       values=(lambda x, y: L.linalg.triangular_solve(x, y, **kw),
                               lambda x, y: jax.lax.linalg.triangular_solve(x, y, **kw)))


def test_complex_triangular_solve_holomorphic(cdtype):
    a = matrix((3, 3), cdtype, seed=2)
    b = weights((3, 2), cdtype, 12)
    f = lambda y: L.linalg.triangular_solve(a, y, left_side=True, lower=True)  # noqa: E731
    jf = lambda y: jax.lax.linalg.triangular_solve(a, y, left_side=True, lower=True)  # noqa: E731
    want = jax.jit(jax.jacrev(jf, holomorphic=True))(b)
    close(mlax.jacrev(f, holomorphic=True)(b), want, cdtype)
    close(mlax.jacfwd(f, holomorphic=True)(b), want, cdtype)


def test_complex_triangular_solve_conjugate_vmap(cdtype):
    """conjugate_a alone (a solve with conj(a)) under vmap, of the solve and
    of its gradient, with `a` batched and `b` shared and the other way round."""
    kw = dict(left_side=True, lower=False, conjugate_a=True)
    a = matrix((3, 3, 3), cdtype, seed=7)
    b = weights((3, 3, 2), cdtype, 23)
    w = weights((3, 2), cdtype, 24)

    def loss(lib, la):
        return lambda x, y: re_sum(lib, la.triangular_solve(x, y, **kw), w)

    for axes, args in (((0, None), (a, b[0])), ((None, 0), (a[0], b))):
        want = jax.jit(jax.vmap(lambda x, y: jax.lax.linalg.triangular_solve(x, y, **kw),
                                in_axes=axes))(*args)
        close(mlax.vmap(lambda x, y: L.linalg.triangular_solve(x, y, **kw), in_axes=axes)(*args),
              want, cdtype)
        want = jax.jit(jax.vmap(jax.grad(loss(jnp, jax.lax.linalg), argnums=(0, 1)),
                                in_axes=axes))(*args)
        got = mlax.jit(mlax.vmap(mlax.grad(loss(mnp, L.linalg), argnums=(0, 1)),
                                 in_axes=axes))(*args)
        for g, wt in zip(got, want):
            close(g, wt, cdtype)


def test_complex_triangular_solve_conjugate_finite_differences(x64):
    a = matrix((3, 3), np.complex128, seed=8)
    b = weights((3, 2), np.complex128, 25)
    w = weights((3, 2), np.complex128, 26)

    def f(x, y):
        return re_sum(mnp, L.linalg.triangular_solve(x, y, left_side=True, lower=True,
                                                     conjugate_a=True), w)

    ga, gb = (np.asarray(g) for g in mlax.grad(f, argnums=(0, 1))(a, b))
    # (a tangent on the whole of `a`: the triangle not read must get a zero gradient)
    ta, tb = weights((3, 3), np.complex128, 27), weights((3, 2), np.complex128, 28)
    eps = 1e-6
    fd = (float(f(a + eps * ta, b + eps * tb)) - float(f(a - eps * ta, b - eps * tb))) / (2 * eps)
    np.testing.assert_allclose(np.real(np.sum(ga * ta) + np.sum(gb * tb)), fd, rtol=1e-6,
                               atol=1e-6)
    assert np.all(np.triu(ga, 1) == 0)


def hermitian(shape, dtype, seed=0):
    a = matrix(shape, dtype, seed=seed, spread=False)
    n = shape[-1]
    return ((a + np.conj(np.swapaxes(a, -1, -2))) / 2
            + np.diag(3.0 * np.arange(n))).astype(dtype)


def test_complex_eigh(cdtype):
    a = hermitian((2, 3, 3), cdtype)
    wv = weights((2, 3, 3), cdtype, 13)
    ww = weights((2, 3), np.float64, 14).astype(np.finfo(cdtype).dtype)

    def loss(lib, la):
        def f(x):
            v, w = la.eigh(x)
            return re_sum(lib, v, wv) + lib.sum(w * ww)
        return f

    check_grad_and_jvp(loss(mnp, L.linalg), loss(jnp, jax.lax.linalg), (a,), cdtype)


def test_complex_eigh_finite_differences(x64):
    a = hermitian((3, 3), np.complex128)
    wv = weights((3, 3), np.float64, 15)

    def f(x):
        v, w = L.linalg.eigh(x)
        return mnp.sum(mnp.abs(v) ** 2 * wv) + mnp.sum(w * mnp.arange(1.0, 4.0))

    g = np.asarray(mlax.grad(f)(a))
    t = weights((3, 3), np.complex128, 16)
    eps = 1e-6
    fd = (float(f(a + eps * t)) - float(f(a - eps * t))) / (2 * eps)
    np.testing.assert_allclose(np.real(np.sum(g * t)), fd, rtol=1e-6, atol=1e-6)


# Each shape in one precision, alternating (both precisions appear).
@pytest.mark.parametrize("shape,cdtype", [((2, 4, 3), "complex64"), ((3, 3), "complex128"),
                                          ((2, 5), "complex64")],
                         ids=["tall-complex64", "square-complex128", "wide-complex64"],
                         indirect=["cdtype"])
def test_complex_qr(shape, cdtype):
    a = matrix(shape, cdtype, seed=3)
    k = min(shape[-2:])
    wq = weights(shape[:-1] + (k,), cdtype, 17)
    wr = weights(shape[:-2] + (k, shape[-1]), cdtype, 18)

    def loss(lib, la):
        def f(x):
            q, r = la.qr(x, full_matrices=False)
            return re_sum(lib, q, wq) + re_sum(lib, r, wr)
        return f

    check_grad_and_jvp(loss(mnp, L.linalg), loss(jnp, jax.lax.linalg), (a,), cdtype)


def test_qr_full_matrices_of_a_tall_matrix(x64):
    # Q's last m - n columns (jax's rule after arXiv:2409.13374): grad and
    # jvp as JAX's, and the directional derivative as finite differences
    # (complex: the real case is the same rule without conjugates).
    dtype = np.dtype("complex128")
    a = matrix((2, 5, 3), dtype, seed=7)
    wq, wr = weights((2, 5, 5), dtype, 21), weights((2, 5, 3), dtype, 22)

    def loss(lib, la):
        def f(x):
            q, r = la.qr(x, full_matrices=True)
            return re_sum(lib, q, wq) + re_sum(lib, r, wr)
        return f

    check_grad_and_jvp(loss(mnp, L.linalg), loss(jnp, jax.lax.linalg), (a,), dtype)
    f = loss(mnp, L.linalg)
    t = weights(a.shape, dtype, 23)
    eps = 1e-6
    fd = (float(f(a + eps * t)) - float(f(a - eps * t))) / (2 * eps)
    np.testing.assert_allclose(np.real(np.sum(np.asarray(mlax.grad(f)(a)) * t)), fd,
                               rtol=1e-6, atol=1e-6)


# Each shape in one precision, alternating (both precisions appear).
@pytest.mark.parametrize("shape,cdtype", [((2, 3, 3), "complex128"), ((4, 3), "complex64"),
                                          ((3, 4), "complex128")],
                         ids=["square-complex128", "tall-complex64", "wide-complex128"],
                         indirect=["cdtype"])
def test_complex_lu(shape, cdtype):
    a = matrix(shape, cdtype, seed=4)
    w = weights(shape, cdtype, 19)

    def loss(lib, la):
        return lambda x: re_sum(lib, la.lu(x)[0], w)

    check_grad_and_jvp(loss(mnp, L.linalg), loss(jnp, jax.lax.linalg), (a,), cdtype)


def test_complex_lu_holomorphic_jacobians(cdtype):
    a = matrix((3, 3), cdtype, seed=5)
    f = lambda x: L.linalg.lu(x)[0]  # noqa: E731
    jf = lambda x: jax.lax.linalg.lu(x)[0]  # noqa: E731
    want = jax.jit(jax.jacfwd(jf, holomorphic=True))(a)
    close(mlax.jacfwd(f, holomorphic=True)(a), want, cdtype)
    close(mlax.jacrev(f, holomorphic=True)(a), want, cdtype)


def test_complex_vmap_of_grad(cdtype):
    a = matrix((3, 4, 3), cdtype, seed=6)
    w = weights((4, 3), cdtype, 20)

    def loss(lib, la):
        return lambda x: re_sum(lib, la.qr(x, full_matrices=False)[0], w)

    want = jax.jit(jax.vmap(jax.grad(loss(jnp, jax.lax.linalg))))(a)
    close(mlax.vmap(mlax.grad(loss(mnp, L.linalg)))(a), want, cdtype)


def hermitian_pd(shape, dtype, seed=0):
    a = matrix(shape, dtype, seed=seed, spread=False)
    n = shape[-1]
    return (a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n)).astype(dtype)


def test_complex_cholesky(cdtype):
    a = hermitian_pd((2, 3, 3), cdtype)
    w = weights((2, 3, 3), cdtype, 21)
    # symmetrize_input=False reads the lower triangle only (values; JAX's
    # derivative there uses the whole tangent, not the triangle read).
    lower_only = np.tril(a) + np.triu(weights((3, 3), cdtype, 22), 1)
    for x, sym in ((a, True), (lower_only, False)):
        want = jax.lax.linalg.cholesky(x, symmetrize_input=sym)
        close(L.linalg.cholesky(x, symmetrize_input=sym), want, cdtype)
        close(mlax.jit(lambda y: L.linalg.cholesky(y, symmetrize_input=sym))(x), want, cdtype)

    def loss(lib, la):
        return lambda x: re_sum(lib, la.cholesky(x), w)

    check_grad_and_jvp(loss(mnp, L.linalg), loss(jnp, jax.lax.linalg), (a,), cdtype)



def test_scipy_cholesky_derivatives(cdtype):
    """scipy.linalg.cholesky reads one triangle. Along Hermitian tangents
    its jvp is JAX's; its gradient is that of the triangle read (JAX's rule
    uses the whole tangent, so JAX's gradient is no reference off the
    Hermitian directions): checked against finite differences."""
    a = hermitian_pd((3, 3), cdtype)
    t = hermitian((3, 3), cdtype, seed=3)
    w = weights((3, 3), cdtype, 29)
    for lower in (True, False):
        got = mlax.jvp(lambda x: msl.cholesky(x, lower=lower), (a,), (t,))
        want = jax.jvp(lambda x: jsl.cholesky(x, lower=lower), (a,), (t,))
        for g, wt in zip(got, want):
            close(g, wt, cdtype)
        f = lambda x: re_sum(mnp, msl.cholesky(x, lower=lower), w)  # noqa: E731
        g = np.asarray(mlax.jit(mlax.grad(f))(a)).astype(np.complex128)
        read = np.tril if lower else np.triu
        assert np.all(g == read(g))  # (nothing from the triangle not read)
        d = weights((3, 3), cdtype, 30)  # (any direction, not only Hermitian ones)
        eps = 1e-3 if cdtype == np.complex64 else 1e-6
        fd = (float(f(a + eps * d)) - float(f(a - eps * d))) / (2 * eps)
        np.testing.assert_allclose(np.real(np.sum(g * d)), fd, rtol=10 * _tol(cdtype),
                                   atol=10 * _tol(cdtype))


# ---------------------------------------------------------------------------
# mnp.linalg on complex matrices: values and derivatives
# ---------------------------------------------------------------------------

def _mnp_cases():
    rhs = matrix((3, 2), np.complex128, seed=30, spread=False)
    return {
        "solve": (lambda lib: lambda x: lib.linalg.solve(x, rhs.astype(x.dtype)), (2, 3, 3)),
        "inv": (lambda lib: lib.linalg.inv, (3, 3)),
        "qr": (lambda lib: lambda x: tuple(lib.linalg.qr(x)), (2, 4, 3)),
        "eigh": (lambda lib: lambda x: tuple(lib.linalg.eigh(x)), "hermitian"),
        "eigvalsh": (lambda lib: lib.linalg.eigvalsh, "hermitian"),
        "svd": (lambda lib: lambda x: tuple(lib.linalg.svd(x, full_matrices=False)), (3, 5)),
        "svdvals": (lambda lib: lib.linalg.svdvals, (2, 4, 3)),
        "norm_2": (lambda lib: lambda x: lib.linalg.norm(x, 2), (4, 3)),
        "norm_nuc": (lambda lib: lambda x: lib.linalg.norm(x, "nuc"), (3, 4)),
        "cholesky": (lambda lib: lib.linalg.cholesky, "hermitian_pd"),
        "cholesky_upper": (lambda lib: lambda x: lib.linalg.cholesky(x, upper=True),
                           "hermitian_pd"),
        "det_closed_form": (lambda lib: lib.linalg.det, (2, 3, 3)),
        "det_lu": (lambda lib: lib.linalg.det, (2, 4, 4)),
        "slogdet_closed_form": (lambda lib: lambda x: tuple(lib.linalg.slogdet(x)), (2, 2)),
        "slogdet_lu": (lambda lib: lambda x: tuple(lib.linalg.slogdet(x)), (2, 4, 4)),
        "svd_hermitian": (lambda lib: lambda x: tuple(lib.linalg.svd(x, hermitian=True)),
                          "hermitian_indefinite"),
        "svdvals_hermitian": (lambda lib: lambda x: lib.linalg.svd(x, hermitian=True,
                                                                   compute_uv=False),
                              "hermitian_indefinite"),
        "pinv_hermitian": (lambda lib: lambda x: lib.linalg.pinv(x, hermitian=True),
                           "hermitian_indefinite"),
        # (of the factor: JAX's scipy cholesky reads one triangle but
        # differentiates with the whole tangent, which mlax's does not)
        "cho_solve_lower": (lambda lib: lambda c: _sl(lib).cho_solve((c, True), rhs),
                            (2, 3, 3)),
        "cho_solve_upper": (lambda lib: lambda c: _sl(lib).cho_solve((c, False), rhs[:, 0]),
                            (2, 3, 3)),
        **{f"solve_triangular_{trans}": (
            lambda lib, trans=trans: lambda x: _sl(lib).solve_triangular(
                x, rhs, trans=trans, lower=trans != "T"), (2, 3, 3)) for trans in "NTC"},
    }


def _sl(lib):
    return msl if lib is mnp else jsl


MNP_CASES = _mnp_cases()


def real_loss(lib, fn):
    """A real loss of every (complex or real) output of `fn`."""
    def f(x):
        outs = jax.tree_util.tree_leaves(fn(x))
        return sum(lib.sum(lib.real(o * (1.0 + 0.5j * (i + 1)))) for i, o in enumerate(outs))
    return f


def _mnp_input(shape, cdtype):
    if shape == "hermitian":
        return hermitian((2, 3, 3), cdtype)
    if shape == "hermitian_indefinite":  # eigenvalues near -2.5, 0.5 and 3.5
        return hermitian((2, 3, 3), cdtype) - 2.5 * np.eye(3)
    if shape == "hermitian_pd":
        return hermitian_pd((2, 3, 3), cdtype)
    return matrix(shape, cdtype, seed=7)


def check_table(cases, dtype):
    """check_grad_and_jvp of every case {name: (f, jf, x, (value fn, JAX's))}
    at once: the cases' losses are of separate inputs, so ONE program
    differentiates them all (the gradient of their sum is each one's
    gradient), and one program each computes their values and their jvp.
    Every check of check_grad_and_jvp, the failure naming the case."""
    xs = {k: c[2] for k, c in cases.items()}
    tans = {k: weights(np.shape(x), dtype, 50) for k, x in xs.items()}

    def total(fns):
        return lambda x: sum(fns[k](x[k]) for k in fns)

    def each(fns):
        return lambda x: {k: fns[k](x[k]) for k in fns}
    ours, theirs = ({k: c[i] for k, c in cases.items()} for i in (0, 1))
    values, jvalues = ({k: c[3][i] for k, c in cases.items()} for i in (0, 1))

    def reference(x):
        out, vjp = jax.vjp(each(theirs), x)
        return out, vjp({k: jnp.ones_like(v) for k, v in out.items()})[0], each(jvalues)(x)
    jp, want, want_values = jax.jit(reference)(xs)

    def close_named(got, want, what):
        got, want = jax.tree_util.tree_leaves(got), jax.tree_util.tree_leaves(want)
        assert len(got) == len(want), what
        for g, w in zip(got, want):
            try:
                close(g, w, dtype)
            except AssertionError as e:
                raise AssertionError(f"{what}: {e}") from None
    for got, how in ((mlax.grad(total(ours))(xs), "grad"),
                     (mlax.jit(mlax.grad(total(ours)))(xs), "jit(grad)")):
        for k in xs:
            close_named(got[k], want[k], f"{how} {k}")
    for got, how in ((each(values)(xs), "values"), (mlax.jit(each(values))(xs), "jit values")):
        for k in xs:
            close_named(got[k], want_values[k], f"{how} {k}")
    p, t = mlax.jvp(each(ours), (xs,), (tans,))
    for k in xs:
        jt = np.real(np.sum(np.asarray(want[k]).astype(np.complex128) * tans[k]))
        close_named(p[k], jp[k], f"jvp primal {k}")
        close_named(t[k], np.asarray(jt).astype(np.asarray(jp[k]).dtype), f"jvp tangent {k}")


def test_mnp_complex(x64):
    """Every case of MNP_CASES: values (eagerly and under jit), grad (eagerly
    and under jit) and jvp as JAX's, all cases in one program each.
    complex128 only: the functions add no precision-specific code, and
    float64 tolerances are what catch a wrong formula."""
    cdtype = np.dtype(np.complex128)
    check_table({name: (real_loss(mnp, fn(mnp)), real_loss(jnp, fn(jnp)),
                        _mnp_input(shape, cdtype), (fn(mnp), fn(jnp)))
                 for name, (fn, shape) in sorted(MNP_CASES.items())}, cdtype)


def test_mnp_complex_refusals():
    a = matrix((3, 3), np.complex64)
    for lib in (mnp, jnp):
        with pytest.raises(NotImplementedError):
            lib.linalg.slogdet(a, method="qr")


# ---------------------------------------------------------------------------
# eig's eigenvectors under enable_eigvec_derivs (JAX's eig_jvp_rule)
# ---------------------------------------------------------------------------

def _eig_loss(lib, la, left=True):
    w1, w2 = weights((3, 3), np.float64, 23), weights((3, 3), np.float64, 24)

    def f(x):
        w, *vecs = la.eig(x, compute_left_eigenvectors=left, enable_eigvec_derivs=True)
        out = lib.sum(lib.real(w) * lib.arange(3.0)) + lib.sum(lib.real(vecs[-1] * w1))
        if left:
            out = out + lib.sum(lib.imag(vecs[0] * w2))
        return out
    return f


def test_eig_vectors(dtype):
    a = matrix((2, 3, 3), dtype, seed=8)
    check_grad_and_jvp(_eig_loss(mnp, L.linalg), _eig_loss(jnp, jax.lax.linalg), (a,), dtype)


def test_eig_vectors_finite_differences_and_vmap(x64):
    a = matrix((2, 3, 3), np.float64, seed=9)
    f = _eig_loss(mnp, L.linalg)
    g = np.asarray(mlax.grad(f)(a))
    t = weights(a.shape, np.float64, 25)
    eps = 1e-6
    fd = (float(f(a + eps * t)) - float(f(a - eps * t))) / (2 * eps)
    np.testing.assert_allclose(np.sum(g * t), fd, rtol=1e-6, atol=1e-6)
    want = jax.jit(jax.vmap(jax.grad(_eig_loss(jnp, jax.lax.linalg))))(a)
    close(mlax.vmap(mlax.grad(f))(a), want, np.float64)
    # Right eigenvectors alone.
    close(mlax.grad(_eig_loss(mnp, L.linalg, left=False))(a),
          jax.jit(jax.grad(_eig_loss(jnp, jax.lax.linalg, left=False)))(a), np.float64)


def test_eig_vectors_need_the_flag():
    a = matrix((3, 3), np.float32, seed=10)
    for grad, lib, la in ((mlax.grad, mnp, L.linalg), (jax.grad, jnp, jax.lax.linalg)):
        with pytest.raises(NotImplementedError):
            grad(lambda x: lib.sum(lib.real(la.eig(x)[2])))(a)

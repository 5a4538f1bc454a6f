"""lax.custom_linear_solve and lax.custom_root against JAX: values, dtypes
and weak types, eagerly and under jit; derivatives (grad, jvp, vjp, also
against finite differences) that come from the equations and never from the
solvers, which are `while_loop`s (reverse mode cannot go through them);
vmap; pytrees; has_aux; errors (JAX's classes)."""
import contextlib

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mlax
import mlax.numpy as mnp
from mlax import lax
from _helpers import assert_tree_like as same, x64


def x64_for(dtype):
    return x64() if dtype == np.float64 else contextlib.nullcontext()

LIBS = {"mlax": (mlax, mnp, lax), "jax": (jax, jnp, jax.lax)}


def spd(n, dtype, seed=0):
    r = np.random.RandomState(seed)
    m = r.randn(n, n)
    return (m @ m.T + n * np.eye(n)).astype(dtype)


def diagonally_dominant(n, dtype, seed=1):
    r = np.random.RandomState(seed)
    m = r.randn(n, n)
    return (m + np.diag(np.abs(m).sum(1) + 2.0)).astype(dtype)


def vec(n, dtype, seed=2):
    return np.random.RandomState(seed).randn(n).astype(dtype)


# ---------------------------------------------------------------------------
# Solvers written with while_loop, for either library
# ---------------------------------------------------------------------------

def cg(np_, lax_, calls=None):
    """Conjugate gradients, n steps at most (exact in exact arithmetic)."""
    def solve(matvec, b):
        if calls is not None:
            calls.append("solve")
        n = b.shape[0]
        x0 = np_.zeros_like(b)
        rs0 = np_.sum(b * b)

        def cond(s):
            return (s[4] < n) & (s[3] > 0)

        def body(s):
            x, r, p, rs, k = s
            ap = matvec(p)
            alpha = rs / np_.sum(p * ap)
            x = x + alpha * p
            r = r - alpha * ap
            rs_new = np_.sum(r * r)
            return x, r, r + (rs_new / rs) * p, rs_new, k + 1
        return lax_.while_loop(cond, body, (x0, b, b, rs0, 0))[0]
    return solve


def jacobi(np_, lax_, diag, steps=60, calls=None, name="solve", aux=False):
    """Jacobi iteration for a diagonally dominant map whose diagonal is
    `diag` (a value the solver closes over)."""
    def solve(matvec, b):
        if calls is not None:
            calls.append(name)

        def body(s):
            x, k = s
            return x + (b - matvec(x)) / diag, k + 1
        x, k = lax_.while_loop(lambda s: s[1] < steps, body, (np_.zeros_like(b), 0))
        return (x, k) if aux else x
    return solve


def nonsymmetric_solve(lib, a, b, calls=None, aux=False):
    _, np_, lax_ = LIBS[lib]
    d = np_.diag(a)
    return lax_.custom_linear_solve(
        lambda x: a @ x, b, jacobi(np_, lax_, d, calls=calls, aux=aux),
        jacobi(np_, lax_, d, calls=calls, name="transpose_solve", aux=aux), has_aux=aux)


def symmetric_solve(lib, a, b, calls=None):
    _, np_, lax_ = LIBS[lib]
    return lax_.custom_linear_solve(lambda x: a @ x, b, cg(np_, lax_, calls), symmetric=True)


SOLVES = {"symmetric": (symmetric_solve, spd), "nonsymmetric": (nonsymmetric_solve,
                                                                diagonally_dominant)}


# ---------------------------------------------------------------------------
# custom_linear_solve
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("kind", SOLVES)
@pytest.mark.parametrize("n", [3, 5])
def test_linear_solve_values(kind, n):
    solve, make = SOLVES[kind]
    a, b = make(n, np.float32), vec(n, np.float32)
    want = solve("jax", a, b)
    same(solve("mlax", a, b), want, rtol=1e-4)
    same(mlax.jit(lambda a, b: solve("mlax", a, b))(a, b), want, rtol=1e-4)
    np.testing.assert_allclose(np.asarray(want), np.linalg.solve(a, b), rtol=1e-4)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_dtypes_and_weak_types(dtype):
    """The solution has b's dtype; a root found from a Python-scalar guess
    stays weakly typed, as in JAX."""
    a, b = spd(3, dtype), vec(3, dtype)
    tol = dict(rtol=1e-5) if dtype == np.float32 else dict(rtol=1e-12)
    with x64_for(dtype):
        same(lax.custom_linear_solve(lambda x: a @ x, b, cg(mnp, lax), symmetric=True),
             jax.lax.custom_linear_solve(lambda x: a @ x, b, cg(jnp, jax.lax), symmetric=True),
             **tol)
        p = dtype(2.0)
        for guess in (1.0, dtype(1.0)):
            same(lax.custom_root(lambda x: x * x - p, guess, newton(mnp, lax),
                                 lambda g, y: y / g(1.0)),
                 jax.lax.custom_root(lambda x: x * x - p, guess, newton(jnp, jax.lax),
                                     lambda g, y: y / g(1.0)), **tol)


@pytest.mark.parametrize("kind", SOLVES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("wrap", ["eager", "jit"])
def test_linear_solve_grad_matrix_and_rhs(kind, dtype, wrap):
    """Gradients with respect to the matrix matvec closes over and to b, as
    JAX's; the while_loop solvers are never differentiated (reverse mode
    through them would be an error)."""
    solve, make = SOLVES[kind]
    n = 4
    a, b, w = make(n, dtype), vec(n, dtype), vec(n, dtype, seed=5)

    def loss(lib):
        _, np_, _ = LIBS[lib]
        return lambda a, b: np_.sum(np_.sin(solve(lib, a, b)) * w)

    with x64_for(dtype):
        grad = mlax.grad(loss("mlax"), argnums=(0, 1))
        if wrap == "jit":
            grad = mlax.jit(grad)
        got = grad(a, b)
        want = jax.jit(jax.grad(loss("jax"), argnums=(0, 1)))(a, b)
        same(got, want, rtol=1e-4 if dtype == np.float32 else 1e-9, atol=1e-6)
        if dtype == np.float64:  # against central differences of the exact solve
            exact = lambda a, b: np.sum(np.sin(np.linalg.solve(a, b)) * w)  # noqa: E731
            eps = 1e-6
            fd_b = [(exact(a, b + eps * e) - exact(a, b - eps * e)) / (2 * eps)
                    for e in np.eye(n)]
            np.testing.assert_allclose(np.asarray(got[1]), fd_b, rtol=1e-5, atol=1e-8)
            e = np.zeros((n, n))
            e[1, 2] = 1
            fd_a = (exact(a + eps * e, b) - exact(a - eps * e, b)) / (2 * eps)
            np.testing.assert_allclose(np.asarray(got[0])[1, 2], fd_a, rtol=1e-5, atol=1e-8)


@pytest.mark.parametrize("kind", SOLVES)
def test_linear_solve_calls_each_solver_once(kind):
    """solve and transpose_solve are traced once each (their programs are
    reused by the derivative), as in JAX, not differentiated."""
    solve, make = SOLVES[kind]
    a, b = make(4, np.float32), vec(4, np.float32)
    counts = {}
    for lib, (api, np_, _) in LIBS.items():
        calls = []
        api.jit(api.grad(lambda a, b: np_.sum(solve(lib, a, b, calls) ** 2),
                         argnums=(0, 1)))(a, b)
        counts[lib] = sorted(calls)
    assert counts["mlax"] == counts["jax"]
    text = mlax.jit(mlax.grad(lambda b: mnp.sum(solve("mlax", a, b) ** 2))).lower(b).as_text()
    assert "stablehlo.while" in text


@pytest.mark.parametrize("kind", SOLVES)
def test_linear_solve_jvp_and_vjp(kind):
    solve, make = SOLVES[kind]
    n = 4
    a, b = make(n, np.float32), vec(n, np.float32)
    da, db = make(n, np.float32, seed=7) * 0.1, vec(n, np.float32, seed=8)
    got = mlax.jvp(lambda a, b: solve("mlax", a, b), (a, b), (da, db))
    want = jax.jvp(lambda a, b: solve("jax", a, b), (a, b), (da, db))
    same(got, want, rtol=1e-4, atol=1e-5)
    got = mlax.jit(lambda a, b, da, db: mlax.jvp(lambda a, b: solve("mlax", a, b), (a, b),
                                                  (da, db)))(a, b, da, db)
    same(got, want, rtol=1e-4, atol=1e-5)
    ct = vec(n, np.float32, seed=9)
    y, pullback = mlax.vjp(lambda a, b: solve("mlax", a, b), a, b)
    y_j, pullback_j = jax.vjp(lambda a, b: solve("jax", a, b), a, b)
    same(y, y_j, rtol=1e-4)
    same(pullback(ct), pullback_j(ct), rtol=1e-4, atol=1e-5)


def test_linear_solve_jvp_needs_no_transpose_solve():
    """Forward mode solves again with `solve`; only reverse mode needs
    transpose_solve, and without it is JAX's TypeError."""
    a, b = diagonally_dominant(4, np.float32), vec(4, np.float32)
    db = vec(4, np.float32, seed=3)

    def f(lib):
        _, np_, lax_ = LIBS[lib]
        return lambda b: lax_.custom_linear_solve(lambda x: a @ x, b,
                                                  jacobi(np_, lax_, np.diag(a)))
    same(mlax.jvp(f("mlax"), (b,), (db,)), jax.jvp(f("jax"), (b,), (db,)), rtol=1e-4)
    with pytest.raises(TypeError, match="transpose_solve required"):
        jax.grad(lambda b: f("jax")(b).sum())(b)
    with pytest.raises(TypeError, match="transpose_solve required"):
        mlax.grad(lambda b: f("mlax")(b).sum())(b)


@pytest.mark.parametrize("kind", SOLVES)
def test_linear_solve_vmap(kind):
    solve, make = SOLVES[kind]
    n = 3
    a = np.stack([make(n, np.float32, seed=s) for s in range(4)])
    bs = np.stack([vec(n, np.float32, seed=s) for s in range(4)])
    # over b only, over both, and the gradient of each example
    g = lambda lib: LIBS[lib][0].vmap(LIBS[lib][0].grad(  # noqa: E731
        lambda a, b: LIBS[lib][1].sum(solve(lib, a, b) ** 2), argnums=(0, 1)))
    # JAX's three in one jitted program (eagerly, op by op).
    want_b, want_ab, want_g = jax.jit(lambda a, bs: (
        jax.vmap(lambda b: solve("jax", a[0], b))(bs),
        jax.vmap(lambda a, b: solve("jax", a, b))(a, bs), g("jax")(a, bs)))(a, bs)
    same(mlax.vmap(lambda b: solve("mlax", a[0], b))(bs), want_b, rtol=1e-4)
    same(mlax.vmap(lambda a, b: solve("mlax", a, b))(a, bs), want_ab, rtol=1e-4)
    same(g("mlax")(a, bs), want_g, rtol=1e-3, atol=1e-5)
    same(mlax.jit(g("mlax"))(a, bs), want_g, rtol=1e-3, atol=1e-5)


def test_linear_solve_pytree_rhs():
    """b a dict of arrays: matvec acts blockwise; the derivative flows to the
    values matvec closes over, not to those solve closes over."""
    a, d = spd(3, np.float32), np.array([2.0, 3.0], np.float32)
    b = {"u": vec(3, np.float32), "v": np.array([1.0, -2.0], np.float32)}

    def f(lib):
        _, np_, lax_ = LIBS[lib]

        def fun(a, d, b):
            matvec = lambda x: {"u": a @ x["u"], "v": d * x["v"]}  # noqa: E731
            solve = lambda mv, r: {"u": np_.linalg.solve(a, r["u"]),  # noqa: E731
                                   "v": r["v"] / d}
            x = lax_.custom_linear_solve(matvec, b, solve, symmetric=True)
            return np_.sum(x["u"] ** 3) + np_.sum(np_.cos(x["v"]))
        return fun
    same(mlax.grad(f("mlax"), argnums=(0, 1, 2))(a, d, b),
         jax.jit(jax.grad(f("jax"), argnums=(0, 1, 2)))(a, d, b), rtol=1e-4, atol=1e-5)
    same(mlax.jit(f("mlax"))(a, d, b), jax.jit(f("jax"))(a, d, b), rtol=1e-5)


def test_linear_solve_has_aux():
    a, b = diagonally_dominant(4, np.float32), vec(4, np.float32)
    got = nonsymmetric_solve("mlax", a, b, aux=True)
    want = nonsymmetric_solve("jax", a, b, aux=True)
    same(got, want, rtol=1e-4)
    same(mlax.jit(lambda a, b: nonsymmetric_solve("mlax", a, b, aux=True))(a, b), want,
         rtol=1e-4)

    def loss(lib):
        return lambda a, b: LIBS[lib][1].sum(nonsymmetric_solve(lib, a, b, aux=True)[0] ** 2)
    same(mlax.grad(loss("mlax"), argnums=(0, 1))(a, b),
         jax.grad(loss("jax"), argnums=(0, 1))(a, b), rtol=1e-4, atol=1e-5)
    ta, tb = a * 0.01, vec(4, np.float32, seed=4)
    same(mlax.jvp(lambda a, b: nonsymmetric_solve("mlax", a, b, aux=True), (a, b), (ta, tb)),
         jax.jvp(lambda a, b: nonsymmetric_solve("jax", a, b, aux=True), (a, b), (ta, tb)),
         rtol=1e-4, atol=1e-5)


def test_linear_solve_second_derivative():
    """x = A^-1 b: the Hessian of sum(x**2) in b is 2 A^-T A^-1; JAX's and
    mlax's both come from solves (the transposed solve differentiated
    again through its own rule), never through the while_loop."""
    a, b = spd(3, np.float64), vec(3, np.float64)
    with x64():
        # JAX's two Hessians in one jitted program (eagerly, op by op).
        want, want_ab = jax.jit(lambda a, b: (
            jax.hessian(lambda b: jnp.sum(symmetric_solve("jax", a, b) ** 2))(b),
            jax.hessian(lambda a, b: jnp.sum(symmetric_solve("jax", a, b) ** 2),
                        argnums=(0, 1))(a, b)))(a, b)
        got = mlax.hessian(lambda b: mnp.sum(symmetric_solve("mlax", a, b) ** 2))(b)
        same(got, want, rtol=1e-8)
        inv = np.linalg.inv(a)
        np.testing.assert_allclose(np.asarray(got), 2 * inv.T @ inv, rtol=1e-8)
        # in the matrix matvec closes over too: forward mode over the
        # transposed rule, whose solves are fwd calls by then
        got = mlax.hessian(lambda a, b: mnp.sum(symmetric_solve("mlax", a, b) ** 2),
                           argnums=(0, 1))(a, b)
        same(got, want_ab, rtol=1e-7, atol=1e-12)


@pytest.mark.parametrize("case", ["matvec_shape", "solve_tree", "aux_not_pair",
                                  "transpose_solve_shape"])
def test_linear_solve_errors(case):
    a, b = spd(3, np.float32), vec(3, np.float32)

    def call(lib):
        _, np_, lax_ = LIBS[lib]
        good = lambda mv, r: np_.linalg.solve(a, r)  # noqa: E731
        if case == "matvec_shape":
            return lax_.custom_linear_solve(lambda x: np_.concatenate([x, x]), b, good)
        if case == "solve_tree":
            return lax_.custom_linear_solve(lambda x: a @ x, b, lambda mv, r: (r, r))
        if case == "aux_not_pair":
            return lax_.custom_linear_solve(lambda x: a @ x, b, lambda mv, r: (r, r, r),
                                            has_aux=True)
        return lax_.custom_linear_solve(lambda x: a @ x, b, good,
                                        lambda vm, r: np_.concatenate([r, r]))
    with pytest.raises(Exception) as want:
        call("jax")
    with pytest.raises(want.type):
        call("mlax")
    with pytest.raises(want.type):
        mlax.jit(lambda: call("mlax"))()


# ---------------------------------------------------------------------------
# custom_root
# ---------------------------------------------------------------------------

def newton(np_, lax_, calls=None, aux=False):
    """Newton's method for an elementwise f, in a while_loop, with the
    derivative by forward mode of f (so the solver itself is not
    reverse-differentiable)."""
    api = jax if np_ is jnp else mlax

    def solve(f, x0):
        if calls is not None:
            calls.append("solve")

        def body(s):
            x, k = s
            fx, dfx = api.jvp(f, (x,), (np_.ones_like(x),))
            return x - fx / dfx, k + 1
        x, k = lax_.while_loop(lambda s: s[1] < 30, body, (x0, 0))
        # (aux: the residual; an integer aux breaks JAX's custom_root jvp,
        # which gives it integer zeros rather than float0 ones)
        return (x, f(x)) if aux else x
    return solve


def bisection(np_, lax_):
    """Bisection on [0, 10] for a scalar increasing f."""
    def solve(f, x0):
        def body(s):
            lo, hi = s
            mid = (lo + hi) / 2
            up = f(mid) > 0
            return np_.where(up, lo, mid), np_.where(up, mid, hi)
        lo, hi = lax_.fori_loop(0, 60, lambda i, s: body(s),
                                (np_.zeros_like(x0), np_.full_like(x0, 10)))
        return (lo + hi) / 2
    return solve


def sqrt_root(lib, p, x0, solver="newton", calls=None, aux=False):
    """The root of x**2 - p, by `solver`."""
    _, np_, lax_ = LIBS[lib]
    solve = newton(np_, lax_, calls, aux) if solver == "newton" else bisection(np_, lax_)
    return lax_.custom_root(lambda x: x ** 2 - p, x0, solve, lambda g, y: y / g(1.0),
                            has_aux=aux)


@pytest.mark.parametrize("solver", ["newton", "bisection"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_root_scalar_values_and_grad(solver, dtype):
    p, x0 = dtype(2.5), dtype(1.0)
    with x64_for(dtype):
        same(sqrt_root("mlax", p, x0, solver), sqrt_root("jax", p, x0, solver), rtol=1e-5)
        same(mlax.jit(lambda p: sqrt_root("mlax", p, x0, solver))(p),
             jax.jit(lambda p: sqrt_root("jax", p, x0, solver))(p), rtol=1e-5)
        got = mlax.grad(lambda p: sqrt_root("mlax", p, x0, solver))(p)
        same(got, jax.grad(lambda p: sqrt_root("jax", p, x0, solver))(p), rtol=1e-5)
        same(mlax.jit(mlax.grad(lambda p: sqrt_root("mlax", p, x0, solver)))(p), got)
        # d sqrt(p) / dp, and central differences of the exact root
        np.testing.assert_allclose(np.asarray(got), 0.5 / np.sqrt(p), rtol=1e-5)
        if dtype == np.float64:
            eps = 1e-6
            fd = (np.sqrt(p + eps) - np.sqrt(p - eps)) / (2 * eps)
            np.testing.assert_allclose(np.asarray(got), fd, rtol=1e-7)


def vector_root(lib, c, p, x0, calls=None):
    """The root of x**3 + c*x - p, elementwise; tangent_solve divides by the
    diagonal Jacobian (the linearized f applied to ones)."""
    _, np_, lax_ = LIBS[lib]
    return lax_.custom_root(lambda x: x ** 3 + c * x - p, x0, newton(np_, lax_, calls),
                            lambda g, y: y / g(np_.ones_like(y)))


def test_root_vector_grad_jvp_vmap():
    c = np.array([1.0, 2.0, 0.5], np.float32)
    p = np.array([3.0, -1.0, 2.0], np.float32)
    x0 = np.zeros(3, np.float32)
    same(vector_root("mlax", c, p, x0), vector_root("jax", c, p, x0), rtol=1e-5)

    def loss(lib):
        return lambda c, p: LIBS[lib][1].sum(LIBS[lib][1].sin(vector_root(lib, c, p, x0)))
    want = jax.grad(loss("jax"), argnums=(0, 1))(c, p)
    same(mlax.grad(loss("mlax"), argnums=(0, 1))(c, p), want, rtol=1e-4, atol=1e-6)
    same(mlax.jit(mlax.grad(loss("mlax"), argnums=(0, 1)))(c, p), want, rtol=1e-4, atol=1e-6)
    dc, dp = np.array([0.1, -0.2, 0.3], np.float32), np.ones(3, np.float32)
    same(mlax.jvp(lambda c, p: vector_root("mlax", c, p, x0), (c, p), (dc, dp)),
         jax.jvp(lambda c, p: vector_root("jax", c, p, x0), (c, p), (dc, dp)), rtol=1e-4)
    ps = np.stack([p, p + 1, p * 2])
    same(mlax.vmap(lambda p: vector_root("mlax", c, p, x0))(ps),
         jax.vmap(lambda p: vector_root("jax", c, p, x0))(ps), rtol=1e-5)
    same(mlax.vmap(mlax.grad(lambda p: mnp.sum(vector_root("mlax", c, p, x0))))(ps),
         jax.vmap(jax.grad(lambda p: jnp.sum(vector_root("jax", c, p, x0))))(ps), rtol=1e-4)
    # The initial guess gets no derivative (as in JAX).
    same(mlax.grad(lambda x0: mnp.sum(vector_root("mlax", c, p, x0)))(x0),
         jax.grad(lambda x0: jnp.sum(vector_root("jax", c, p, x0)))(x0))


def test_root_solver_called_once_and_has_aux():
    counts = {}
    for lib, (api, _, _) in LIBS.items():
        calls = []
        api.jit(api.grad(lambda p: sqrt_root(lib, p, 1.0, calls=calls)))(np.float32(2.0))
        counts[lib] = calls
    assert counts["mlax"] == counts["jax"]
    p = np.float32(3.0)
    same(sqrt_root("mlax", p, 1.0, aux=True), sqrt_root("jax", p, 1.0, aux=True))
    same(mlax.grad(lambda p: sqrt_root("mlax", p, 1.0, aux=True)[0])(p),
         jax.grad(lambda p: sqrt_root("jax", p, 1.0, aux=True)[0])(p))


@pytest.mark.parametrize("case", ["f_tree", "solve_tree", "aux_not_pair"])
def test_root_errors(case):
    def call(lib):
        _, np_, lax_ = LIBS[lib]
        solve = newton(np_, lax_)
        ts = lambda g, y: y / g(1.0)  # noqa: E731
        if case == "f_tree":
            return lax_.custom_root(lambda x: (x, x), 1.0, solve, ts)
        if case == "solve_tree":
            return lax_.custom_root(lambda x: x - 2, 1.0, lambda f, x: (x, x), ts)
        return lax_.custom_root(lambda x: x - 2, 1.0, lambda f, x: (x, x, x), ts,
                                has_aux=True)
    with pytest.raises(Exception) as want:
        call("jax")
    with pytest.raises(want.type):
        call("mlax")

"""lax.cond / switch / while_loop / fori_loop / scan / map against JAX:
values, derivatives (also against finite differences), vmap, errors."""
import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mlax
import mlax.numpy as mnp
from mlax import lax
from _helpers import assert_tree_like, x64 as _x64

rng = np.random.RandomState(0)


def close(a, b, rtol=1e-5, atol=1e-5):
    a_leaves, a_tree = jax.tree_util.tree_flatten(jax.tree_util.tree_map(np.asarray, a))
    b_leaves, b_tree = jax.tree_util.tree_flatten(jax.tree_util.tree_map(np.asarray, b))
    assert a_tree == b_tree
    for x, y in zip(a_leaves, b_leaves):
        assert x.shape == y.shape, (x.shape, y.shape)
        assert x.dtype == y.dtype, (x.dtype, y.dtype)
        np.testing.assert_allclose(x, y, rtol=rtol, atol=atol)


# ---------------------------------------------------------------------------
# The seed examples
# ---------------------------------------------------------------------------

def test_less_stupid_fn_fori_loop():
    def less_stupid_fn(np_, lax_, x):
        y = np_.copy(x) if hasattr(np_, "copy") else x
        x = lax_.fori_loop(0, 1000, lambda i, x: x * x, x)
        return y, x

    x = np.array([1.1, -1.1, 1.0, 0.5], np.float32)
    got = mlax.jit(lambda x: less_stupid_fn(mnp, lax, x))(x)
    want = jax.jit(lambda x: less_stupid_fn(jnp, jax.lax, x))(x)
    close(got, want)
    # One loop in the program, not 1000 unrolled multiplications.
    text = mlax.jit(lambda x: lax.fori_loop(0, 1000, lambda i, x: x * x, x)).lower(x).as_text()
    assert text.count("stablehlo.while") == 1
    assert text.count("stablehlo.multiply") == 1


def test_less_stupid_fn_while_loop():
    def f(lax_, x):
        return lax_.while_loop(lambda ix: ix[0] < 1000, lambda ix: (ix[0] + 1, ix[1] * ix[1]),
                               (0, x))

    x = np.array([1.1, -1.1, 0.9], np.float32)
    close(mlax.jit(lambda x: f(lax, x))(x), jax.jit(lambda x: f(jax.lax, x))(x))


def test_cond_fn_seed():
    @mlax.jit
    def cond_fn(x):
        pred = mnp.abs(x.max() - x.min()) <= 1.0
        return lax.cond(pred, lambda x: x, lambda x: x / 2, x)

    np.testing.assert_array_equal(cond_fn(mnp.array([0.1, 0.2])), np.float32([0.1, 0.2]))
    np.testing.assert_array_equal(cond_fn(mnp.array([-0.5, 0.5])), np.float32([-0.5, 0.5]))
    np.testing.assert_array_equal(cond_fn(mnp.array([1.0, -1.0])), np.float32([0.5, -0.5]))
    assert "mlax.cond" in str(mlax.make_ir(cond_fn)(mnp.array([1.0, -1.0])))


@pytest.mark.parametrize("x", [0, 1, 7, 38, 39, 40, 123512])
def test_is_even_switch(x):
    n = 40
    branches = [(lambda v: (lambda: v))(i % 2 == 0) for i in range(n)]
    got = mlax.jit(lambda x: lax.switch(x, branches))(x)
    want = jax.jit(lambda x: jax.lax.switch(x, branches))(x)
    assert got.dtype == want.dtype == np.bool_
    assert bool(got) == bool(want)


def _rnn(np_, lax_, params, h0, xs):
    W, U, b = params

    def step(h, x):
        h = np_.tanh(W @ h + U @ x + b)
        return h, np_.sum(h * h)

    h, ys = lax_.scan(step, h0, xs)
    return np_.sum(h) + np_.sum(ys)


def _rnn_inputs(hidden=8, inp=5, steps=7, dtype=np.float32):
    r = np.random.RandomState(1)
    params = (r.randn(hidden, hidden).astype(dtype) * 0.3,
              r.randn(hidden, inp).astype(dtype) * 0.3, r.randn(hidden).astype(dtype) * 0.1)
    return params, np.zeros(hidden, dtype), r.randn(steps, inp).astype(dtype)


def test_scan_rnn_and_gradient():
    params, h0, xs = _rnn_inputs()
    close(mlax.jit(lambda p, h, x: _rnn(mnp, lax, p, h, x))(params, h0, xs),
          jax.jit(lambda p, h, x: _rnn(jnp, jax.lax, p, h, x))(params, h0, xs))
    got = mlax.jit(mlax.grad(lambda p, h, x: _rnn(mnp, lax, p, h, x), argnums=(0, 1, 2)))(
        params, h0, xs)
    want = jax.grad(lambda p, h, x: _rnn(jnp, jax.lax, p, h, x), argnums=(0, 1, 2))(
        params, h0, xs)
    close(got, want, rtol=1e-4, atol=1e-5)


def test_scan_rnn_gradient_finite_differences():
    with _x64():
        params, h0, xs = _rnn_inputs(hidden=4, inp=3, steps=5, dtype=np.float64)
        f = lambda W: _rnn(mnp, lax, (W, params[1], params[2]), h0, xs)  # noqa: E731
        g = np.asarray(mlax.grad(f)(params[0]))
        assert g.dtype == np.float64
        eps = 1e-6
        fd = np.zeros_like(params[0])
        # The first difference eagerly (op by op), the others by one compiled
        # program of f (an eager call of f is a dispatch of each of its ops).
        jf = mlax.jit(f)
        for n, i in enumerate(np.ndindex(*params[0].shape)):
            d = np.zeros_like(params[0])
            d[i] = eps
            ev = f if n == 0 else jf
            fd[i] = (float(ev(params[0] + d)) - float(ev(params[0] - d))) / (2 * eps)
        np.testing.assert_allclose(g, fd, rtol=1e-6, atol=1e-8)




def test_fori_loop_with_jitted_body():
    body = mlax.jit(lambda i, x: x * 0.5 + mnp.sin(x) + i)
    jbody = jax.jit(lambda i, x: x * 0.5 + jnp.sin(x) + i)
    x = np.float32([0.3, -1.0])
    close(mlax.jit(lambda x: lax.fori_loop(0, 10, body, x))(x),
          jax.jit(lambda x: jax.lax.fori_loop(0, 10, jbody, x))(x))
    close(mlax.grad(lambda x: lax.fori_loop(0, 10, body, x).sum())(x),
          jax.grad(lambda x: jax.lax.fori_loop(0, 10, jbody, x).sum())(x), rtol=1e-4)


# ---------------------------------------------------------------------------
# Values
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("jit", [False, True])
@pytest.mark.parametrize("pred", [True, False, 0, 3, np.int32(-2), np.bool_(True)])
def test_cond_values(jit, pred):
    x = np.float32([1.0, 2.0])
    f = lambda p, x: lax.cond(p, lambda x: x * 2, lambda x: -x, x)  # noqa: E731
    jf = lambda p, x: jax.lax.cond(p, lambda x: x * 2, lambda x: -x, x)  # noqa: E731
    got = (mlax.jit(f) if jit else f)(pred, x)
    close(got, jf(pred, x))


def test_cond_pytrees_closures_and_several_operands():
    w = mnp.array([1.0, 2.0, 3.0])
    jw = jnp.array([1.0, 2.0, 3.0])

    def f(lax_, w, p, a, b):
        return lax_.cond(p, lambda a, b: {"s": a["x"] * w, "t": (b, b + 1)},
                         lambda a, b: {"s": a["x"] - w, "t": (b * 2, b)}, a, b)

    a = {"x": np.float32([1.0, 1.0, 1.0])}
    for p in (True, False):
        close(mlax.jit(lambda p, a, b: f(lax, w, p, a, b))(p, a, 5),
              jax.jit(lambda p, a, b: f(jax.lax, jw, p, a, b))(p, a, 5))


@pytest.mark.parametrize("index", [-3, 0, 1, 2, 3, 10])
def test_switch_clamps_index(index):
    branches = [lambda x: x + 1, lambda x: x * 10, lambda x: x - 100]
    got = mlax.jit(lambda i, x: lax.switch(i, branches, x))(index, 2)
    want = jax.jit(lambda i, x: jax.lax.switch(i, branches, x))(index, 2)
    close(got, want)


def test_switch_one_branch_calls_it():
    assert int(lax.switch(5, [lambda x: x + 1], 1)) == 2


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.float16])
def test_while_loop_dtypes(dtype):
    f = lambda lax_, x: lax_.while_loop(lambda c: c[0] < 7,  # noqa: E731
                                        lambda c: (c[0] + 1, c[1] + c[1] // 2 + 1), (0, x))
    x = np.array([1, 2, 3], dtype)
    close(mlax.jit(lambda x: f(lax, x))(x), jax.jit(lambda x: f(jax.lax, x))(x))


def test_while_loop_zero_iterations_and_closure():
    k = mnp.asarray(3.0, np.float32)
    got = mlax.jit(lambda x: lax.while_loop(lambda v: v > k * 100, lambda v: v * k, x))(2.0)
    assert float(got) == 2.0
    got = mlax.jit(lambda x: lax.while_loop(lambda v: v < k * 100, lambda v: v * k, x))(2.0)
    assert float(got) == 486.0


@pytest.mark.parametrize("lower,upper", [(0, 10), (3, 7), (5, 5), (7, 3), (-4, 2)])
def test_fori_loop_static_and_traced_bounds(lower, upper):
    body = lambda i, x: x * 2 + i  # noqa: E731
    want = jax.lax.fori_loop(lower, upper, body, 1)
    close(mlax.jit(lambda x: lax.fori_loop(lower, upper, body, x))(1),
          jax.jit(lambda x: jax.lax.fori_loop(lower, upper, body, x))(1))
    close(mlax.jit(lambda lo, hi, x: lax.fori_loop(lo, hi, body, x))(lower, upper, 1), want)
    # traced bounds: a while loop; static ones: a scan.
    ir_traced = str(mlax.make_ir(lambda lo, hi: lax.fori_loop(lo, hi, body, 1))(lower, upper))
    ir_static = str(mlax.make_ir(lambda x: lax.fori_loop(lower, upper, body, x))(1))
    assert "mlax.while" in ir_traced and "mlax.scan" in ir_static


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("unroll", [1, 2, 3, True])
@pytest.mark.parametrize("length", [0, 1, 5])
def test_scan_reverse_unroll_length(reverse, unroll, length):
    xs = np.arange(length * 2, dtype=np.float32).reshape(length, 2)

    def f(np_, lax_, xs):
        def step(c, x):
            return (c[0] + x, c[1] * 2), (np_.sum(x) * c[1], c[0])
        return lax_.scan(step, (np_.zeros(2, np.float32), 1), xs, reverse=reverse,
                         unroll=unroll)

    close(mlax.jit(lambda xs: f(mnp, lax, xs))(xs), jax.jit(lambda xs: f(jnp, jax.lax, xs))(xs))


def test_scan_no_xs_and_none_ys():
    got = lax.scan(lambda c, _: (c + 1, None), 0, None, length=4)
    want = jax.lax.scan(lambda c, _: (c + 1, None), 0, None, length=4)
    close(got[0], want[0])
    assert got[1] is None


def test_map_and_batched_map():
    xs = rng.randn(7, 3).astype(np.float32)
    f = lambda x: mnp.sin(x) * mnp.sum(x)  # noqa: E731
    jf = lambda x: jnp.sin(x) * jnp.sum(x)  # noqa: E731
    close(lax.map(f, xs), jax.lax.map(jf, xs))
    close(mlax.jit(lambda xs: lax.map(f, xs, batch_size=3))(xs),
          jax.lax.map(jf, xs, batch_size=3))


def test_nested_control_flow():
    def f(np_, lax_, xs):
        def step(c, x):
            c = lax_.cond(x > 0, lambda c: c + x, lambda c: c * 0.5, c)
            inner = lax_.fori_loop(0, 3, lambda i, v: v + np_.cos(v), x)
            return c, inner
        return lax_.scan(step, 1.0, xs)

    xs = rng.randn(6).astype(np.float32)
    close(mlax.jit(lambda xs: f(mnp, lax, xs))(xs), jax.jit(lambda xs: f(jnp, jax.lax, xs))(xs))
    g = mlax.grad(lambda xs: f(mnp, lax, xs)[1].sum() + f(mnp, lax, xs)[0])(xs)
    jg = jax.grad(lambda xs: f(jnp, jax.lax, xs)[1].sum() + f(jnp, jax.lax, xs)[0])(xs)
    close(g, jg, rtol=1e-4)


def test_eager_outside_jit():
    assert float(lax.cond(True, lambda x: x + 1.0, lambda x: x - 1.0, 1.0)) == 2.0
    assert int(lax.while_loop(lambda v: v < 10, lambda v: v + 3, 0)) == 12
    c, ys = lax.scan(lambda c, x: (c + x, c), 0.0, mnp.arange(4.0))
    np.testing.assert_array_equal(ys, np.float32([0, 0, 1, 3]))


def test_weak_typed_carry_made_strong():
    # init is a weakly typed Python float, the body returns float32: JAX
    # promotes the carry; so does mlax.
    f = lambda lax_, np_: lax_.fori_loop(0, 3, lambda i, x: x + np_.ones((), np.float32), 0.0)  # noqa
    got, want = mlax.jit(lambda: f(lax, mnp))(), jax.jit(lambda: f(jax.lax, jnp))()
    close(got, want)
    assert got.weak_type == want.weak_type


def _loops_with_weak_state(lax_, np_):
    # A weak carry the body makes strong (a), one it keeps weak (b), a strong
    # one the body returns as a Python float (c): JAX traces the body with
    # the initial types (so a is still weak inside it, and so is a * 3) and
    # types the results as the body's outputs.
    def body(c):
        a, b, c_ = c
        return a + np_.float32(1), a * 2, 1.0
    w = lax_.while_loop(lambda c: c[0] < 3, body, (1.0, 1.0, np_.float32(2)))
    s = lax_.scan(lambda c, x: (body(c), c[0] * 3 + c[2]), (1.0, 1.0, np_.float32(2)),
                  np_.arange(3.0))
    f = lax_.fori_loop(0, 3, lambda i, c: body(c), (1.0, 1.0, np_.float32(2)))
    return w, s, f


def test_loop_results_weak_types_as_jax():
    want = _loops_with_weak_state(jax.lax, jnp)
    for got in (_loops_with_weak_state(lax, mnp),
                mlax.jit(lambda: _loops_with_weak_state(lax, mnp))()):
        close(got, want)
        assert [x.weak_type for x in jax.tree_util.tree_leaves(got)] == \
            [x.weak_type for x in jax.tree_util.tree_leaves(want)]


# ---------------------------------------------------------------------------
# Derivatives
# ---------------------------------------------------------------------------

def _fns(np_, lax_):
    return {
        "cond": lambda x: lax_.cond(x.sum() > 0, lambda x: np_.sin(x) * x,
                                    lambda x: np_.cos(x) ** 2, x).sum(),
        "switch": lambda x: lax_.switch((x.sum() > 0).astype(np.int32) + 1,
                                        [lambda x: x, lambda x: x ** 3, lambda x: np_.exp(x)],
                                        x).sum(),
        "fori": lambda x: lax_.fori_loop(0, 5, lambda i, v: v * 0.9 + np_.sin(v) * i, x).sum(),
        "scan": lambda x: lax_.scan(lambda c, y: (c * y + np_.tanh(c), c * c), x[0],
                                    x)[1].sum(),
        "scan_rev": lambda x: lax_.scan(lambda c, y: (np_.sin(c) + y, c * y), x[1], x,
                                        reverse=True)[1].sum(),
        "scan_consts": lambda x: lax_.scan(lambda c, y: (c + y * x[0], c * x[1]), 0.0, x,
                                           unroll=2)[1].sum(),
    }


@pytest.mark.parametrize("name", list(_fns(jnp, jax.lax)))
@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_grad_jvp_against_jax(name, sign):
    x = (np.abs(rng.randn(4)) * sign).astype(np.float32)
    f, jf = _fns(mnp, lax)[name], _fns(jnp, jax.lax)[name]
    t = rng.randn(4).astype(np.float32)
    # JAX's gradient, jvp and Hessian in one jitted program.
    grad_j, jvp_j, hess_j = jax.jit(lambda x, t: (jax.grad(jf)(x), jax.jvp(jf, (x,), (t,)),
                                                  jax.hessian(jf)(x)))(x, t)
    close(mlax.grad(f)(x), grad_j, rtol=1e-4, atol=1e-4)
    close(mlax.jit(mlax.grad(f))(x), grad_j, rtol=1e-4, atol=1e-4)
    close(mlax.jvp(f, (x,), (t,)), jvp_j, rtol=1e-4, atol=1e-4)
    close(mlax.hessian(f)(x), hess_j, rtol=1e-3, atol=1e-3)


@pytest.mark.parametrize("name", list(_fns(jnp, jax.lax)))
def test_grad_finite_differences_f64(name):
    with _x64():
        x = np.array([0.3, -0.4, 0.2, 0.5])
        f = _fns(mnp, lax)[name]
        g = np.asarray(mlax.grad(f)(x))
        assert g.dtype == np.float64
        eps = 1e-6
        fd = [(float(f(x + eps * e)) - float(f(x - eps * e))) / (2 * eps) for e in np.eye(4)]
        np.testing.assert_allclose(g, fd, rtol=1e-6, atol=1e-8)


def test_jvp_through_while_loop():
    f = lambda np_, lax_, x: lax_.while_loop(  # noqa: E731
        lambda c: c[0] < 5, lambda c: (c[0] + 1, c[1] * 1.1 + np_.sin(c[1]), c[2] + c[1]),
        (0, x, 0.0))
    (p, t), (jp, jt) = (mlax.jvp(lambda x: f(mnp, lax, x), (0.5,), (1.0,)),
                        jax.jvp(lambda x: f(jnp, jax.lax, x), (0.5,), (1.0,)))
    close(p, jp)
    assert t[0].dtype == jt[0].dtype  # float0: the integer counter has no tangent
    close(t[1:], jt[1:])
    # forward mode through a while with traced bounds
    close(mlax.jacfwd(lambda x, n: lax.fori_loop(0, n, lambda i, v: v * v, x))(1.1, 3),
          jax.jacfwd(lambda x, n: jax.lax.fori_loop(0, n, lambda i, v: v * v, x))(1.1, 3))


def test_grad_through_while_loop_raises_jax_error():
    f = lambda x: lax.while_loop(lambda v: v < 10, lambda v: v * 2, x)  # noqa: E731
    with pytest.raises(ValueError, match="Reverse-mode differentiation does not work for "
                                        "lax.while_loop or lax.fori_loop with dynamic"):
        mlax.grad(f)(1.0)
    # A traced trip count: reverse mode fails under jit, as in JAX; outside
    # jit the count is known (JAX's eager grad sees it) and the loop a scan.
    g = lambda lax_: lambda x, n: lax_.fori_loop(0, n, lambda i, v: v * 2.5, x)  # noqa: E731
    with pytest.raises(ValueError, match="Reverse-mode differentiation"):
        mlax.jit(mlax.grad(g(lax)))(1.0, 3)
    with pytest.raises(ValueError, match="Reverse-mode differentiation"):
        jax.jit(jax.grad(g(jax.lax)))(1.0, 3)
    close(mlax.grad(g(lax))(1.0, 3), jax.grad(g(jax.lax))(1.0, 3))


def test_grad_of_cond_integer_operand_and_closure():
    w = np.float32(3.0)
    f = lambda x, k: lax.cond(k > 1, lambda x: x * w * k, lambda x: x + w, x)  # noqa: E731
    jf = lambda x, k: jax.lax.cond(k > 1, lambda x: x * w * k, lambda x: x + w, x)  # noqa
    for k in (0, 2):
        close(mlax.grad(f)(2.0, k), jax.grad(jf)(2.0, k))
    # differentiating w.r.t. a closed-over value
    g = mlax.grad(lambda w: lax.cond(True, lambda x: x * w, lambda x: x, 2.0))(3.0)
    assert float(g) == 2.0


# ---------------------------------------------------------------------------
# vmap
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", list(_fns(jnp, jax.lax)))
def test_vmap_and_per_example_grads(name):
    xs = rng.randn(3, 4).astype(np.float32)
    f, jf = _fns(mnp, lax)[name], _fns(jnp, jax.lax)[name]
    close(mlax.vmap(f)(xs), jax.vmap(jf)(xs), rtol=1e-4, atol=1e-4)
    close(mlax.vmap(mlax.grad(f))(xs), jax.vmap(jax.grad(jf))(xs), rtol=1e-4, atol=1e-4)


def test_vmap_batched_predicate_while():
    xs = np.float32([-3.0, 0.5, 4.0, 20.0])
    f = lambda lax_, x: lax_.while_loop(lambda v: v < 10, lambda v: v + 1.5, x)  # noqa
    close(mlax.vmap(lambda x: f(lax, x))(xs), jax.vmap(lambda x: f(jax.lax, x))(xs))


def test_vmap_switch_batched_and_unbatched_index():
    branches = [lambda x: x ** 2, lambda x: -x, lambda x: x * 3]
    idx = np.array([0, 2, 1, 5, -1], np.int32)
    xs = rng.randn(5).astype(np.float32)
    close(mlax.vmap(lambda i, x: lax.switch(i, branches, x))(idx, xs),
          jax.vmap(lambda i, x: jax.lax.switch(i, branches, x))(idx, xs))
    close(mlax.vmap(lambda i, x: lax.switch(i, branches, x), in_axes=(None, 0))(2, xs),
          jax.vmap(lambda i, x: jax.lax.switch(i, branches, x), in_axes=(None, 0))(2, xs))


def test_vmap_scan_batched_xs_and_carry():
    params, h0, xs = _rnn_inputs()
    hb = rng.randn(3, 8).astype(np.float32)
    xb = rng.randn(2, 7, 5).astype(np.float32)
    close(mlax.vmap(lambda h: _rnn(mnp, lax, params, h, xs))(hb),
          jax.vmap(lambda h: _rnn(jnp, jax.lax, params, h, xs))(hb), rtol=1e-4)
    close(mlax.vmap(lambda x: _rnn(mnp, lax, params, h0, x))(xb),
          jax.vmap(lambda x: _rnn(jnp, jax.lax, params, h0, x))(xb), rtol=1e-4)


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------

def test_branch_output_types_differ():
    with pytest.raises(TypeError, match=r"(?s)identical types.*f32\[\].*i32\[\]"):
        mlax.jit(lambda x: lax.cond(x > 0, lambda x: 1, lambda x: 1.0, x))(1.0)
    with pytest.raises(TypeError, match="pytree structure"):
        mlax.jit(lambda x: lax.cond(x > 0, lambda x: (x, x), lambda x: x, x))(1.0)
    with pytest.raises(TypeError, match=r"(?s)branch 0 output.*branch 1 output.*f32\[2\]"):
        lax.switch(0, [lambda x: x, lambda x: mnp.stack([x, x])], 1.0)


def test_loop_carry_types_differ():
    with pytest.raises(TypeError, match=r"(?s)body_fun input.*body_fun output.*f32\[3\]"):
        lax.while_loop(lambda x: True, lambda x: mnp.zeros(3), 1.0)
    with pytest.raises(TypeError, match=r"(?s)input carry.*output carry.*i32"):
        lax.scan(lambda c, x: (c.astype(np.int32), x), 1.0, mnp.arange(3.0))
    with pytest.raises(TypeError, match="pytree structure"):
        lax.scan(lambda c, x: ((c, c), x), 1.0, mnp.arange(3.0))
    with pytest.raises(TypeError, match="must be a pair"):
        lax.scan(lambda c, x: c, 1.0, mnp.arange(3.0))


def test_bad_predicates_and_indices():
    with pytest.raises(TypeError, match="cond_fun must return a boolean scalar"):
        lax.while_loop(lambda x: x, lambda x: x, 1.0)
    with pytest.raises(TypeError, match="Pred must be a scalar"):
        lax.cond(np.array([True, False]), lambda: 1, lambda: 2)
    with pytest.raises(TypeError, match="Pred type must be either boolean or number"):
        lax.cond(1.5j, lambda: 1, lambda: 2)  # (a float is true where nonzero, as JAX's)
    with pytest.raises(TypeError, match="Index type must be an integer"):
        lax.switch(1.0, [lambda: 1, lambda: 2])
    with pytest.raises(ValueError, match="Empty branch sequence"):
        lax.switch(0, [])
    with pytest.raises(TypeError, match="must be callable"):
        lax.cond(True, 1, lambda: 2)


def test_scan_length_errors():
    with pytest.raises(ValueError, match="different leading axis sizes"):
        lax.scan(lambda c, x: (c, x), 0.0, (mnp.zeros(3), mnp.zeros(4)))
    with pytest.raises(ValueError, match="no values to scan over"):
        lax.scan(lambda c, x: (c, x), 0.0, None)
    with pytest.raises(ValueError, match="disagrees with leading axis sizes"):
        lax.scan(lambda c, x: (c, x), 0.0, mnp.zeros(3), length=4)
    with pytest.raises(ValueError, match="statically known"):
        mlax.jit(lambda n: lax.fori_loop(0, n, lambda i, x: x, 1.0, unroll=2))(3)


def test_python_control_flow_on_tracers_suggests_lax_cond():
    def f(x):
        if x > 0:
            return x
        return -x

    with pytest.raises(mlax.TracerBoolConversionError, match="lax.cond") as info:
        mlax.jit(f)(1.0)
    assert re.search(r"test_control_flow.py", str(info.value))

    def g(x):
        while x < 10:
            x = x * 2
        return x

    with pytest.raises(mlax.TracerBoolConversionError):
        mlax.jit(g)(1.0)


def test_leaked_tracer_from_a_branch():
    leaked = []

    def branch(x):
        leaked.append(x)
        return x

    mlax.jit(lambda x: lax.cond(True, branch, branch, x))(1.0)
    with pytest.raises(mlax.UnexpectedTracerError):
        mlax.jit(lambda y: y + leaked[0])(1.0)


# ---------------------------------------------------------------------------
# platform_dependent (this test machine compiles for CPU)
# ---------------------------------------------------------------------------

BRANCHES = {
    "cpu": dict(cpu=lambda x: x * 3.0, cuda=lambda x: x * 2.0),
    "default": dict(cuda=lambda x: x * 2.0, tpu=lambda x: x * 4.0, default=lambda x: x - 1.0),
    "cpu and default": dict(rocm=lambda x: x * 2.0, cpu=lambda x: x ** 2,
                            default=lambda x: x - 1.0),
}


@pytest.mark.skipif(mlax.default_backend() != "cpu", reason="the CPU branch is checked")
@pytest.mark.parametrize("case", ["cpu", "default", "cpu and default"])
@pytest.mark.parametrize("x", [1.5, np.float32(1.5), np.arange(3, dtype=np.float32)])
def test_platform_dependent(case, x):
    kw = BRANCHES[case]
    f_m = lambda x: lax.platform_dependent(x, **kw)  # noqa: E731
    f_j = lambda x: jax.lax.platform_dependent(x, **kw)  # noqa: E731
    assert_tree_like(f_m(x), f_j(x))  # eagerly the chosen branch runs (a Python float stays one)
    assert_tree_like(mlax.jit(f_m)(x), jax.jit(f_j)(x))
    s = lambda f, np_: lambda x: np_.sum(f(x))  # noqa: E731
    assert_tree_like(mlax.grad(s(f_m, mnp))(x), jax.grad(s(f_j, jnp))(x))
    assert_tree_like(mlax.jit(mlax.grad(s(f_m, mnp)))(x), jax.jit(jax.grad(s(f_j, jnp)))(x))
    xs = np.stack([np.asarray(x, np.float32)] * 2)
    assert_tree_like(mlax.vmap(f_m)(xs), jax.vmap(f_j)(xs))


@pytest.mark.skipif(mlax.default_backend() != "cpu", reason="the CPU branch is checked")
def test_platform_dependent_several_operands_and_grouping():
    assert_tree_like(lax.platform_dependent(2.0, 3.0, cpu=lambda x, y: x * y),
         jax.lax.platform_dependent(2.0, 3.0, cpu=lambda x, y: x * y))
    assert_tree_like(lax.platform_dependent(cpu=lambda: 7), jax.lax.platform_dependent(cpu=lambda: 7))
    shared = lambda x: x + 10.0  # noqa: E731  (one branch for two platforms)
    assert_tree_like(mlax.jit(lambda x: lax.platform_dependent(x, cuda=lambda x: x, cpu=shared,
                                                   tpu=shared))(1.0),
         jax.jit(lambda x: jax.lax.platform_dependent(x, cuda=lambda x: x, cpu=shared,
                                                      tpu=shared))(1.0))


@pytest.mark.skipif(mlax.default_backend() != "cpu", reason="the CPU branch is checked")
@pytest.mark.parametrize("case", ["no branch", "no branches", "nothing", "gpu", "not callable",
                                  "default not callable", "branch types differ"])
@pytest.mark.parametrize("wrap", ["eager", "jit"])
def test_platform_dependent_errors(case, wrap):
    if case == "nothing" and wrap == "jit":
        pytest.skip("JAX's is an internal TypeError (safe_zip of no branches); mlax's is "
                    "the NotImplementedError of eager JAX")
    kw = {"no branch": dict(cuda=lambda x: x * 2.0), "no branches": dict(
              cuda=lambda x: x * 2.0, tpu=lambda x: x * 3.0), "nothing": {},
          "gpu": dict(gpu=lambda x: x), "not callable": dict(cpu=3),
          "default not callable": dict(cpu=lambda x: x, default=3),
          "branch types differ": dict(cuda=lambda x: x, cpu=lambda x: x.astype(np.int32))}[case]
    x = np.float32(1.0)
    if case == "branch types differ" and wrap == "eager":
        # (JAX runs only the chosen branch eagerly)
        assert_tree_like(lax.platform_dependent(x, **kw), jax.lax.platform_dependent(x, **kw))
        return
    for api, lax_ in ((jax, jax.lax), (mlax, lax)):
        f = lambda x: lax_.platform_dependent(x, **kw)  # noqa: E731
        if wrap == "jit":
            f = api.jit(f)
        with pytest.raises(Exception) as info:
            f(x)
        if api is jax:
            want = info.type
        else:
            assert info.type is want, (info.type, want, info.value)

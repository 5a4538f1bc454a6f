"""The rest of jax.custom_derivatives: symbolic zeros in custom_jvp /
custom_vjp rules (`symbolic_zeros=True`: which tangents and cotangents the
rules see as SymbolicZero, recorded from inside the rules in both
libraries), CustomVJPPrimal and its tree helper, zero_from_primal,
`optimize_remat=True` and linear_call. Each program runs on mlax and on
JAX; logs, values, dtypes and weak types must agree."""
from functools import partial

import numpy as np
import pytest

import jax
import jax.numpy as jnp

import mlax
import mlax.numpy as mnp
from _helpers import assert_tree_like, run_logged

LIBS = {"mlax": (mlax, mnp), "jax": (jax, jnp)}
X3 = np.array([0.3, -0.7, 1.1], np.float32)
Y3 = np.array([1.5, 2.0, -0.5], np.float32)


def _zero_seen(lib, t):
    """What a rule records of one (co)tangent: SymbolicZero's tangent type,
    or that it is an ordinary value."""
    if type(t) is lib.custom_derivatives.SymbolicZero:
        return ("zero", t.shape, np.dtype(t.dtype).name, bool(t.weak_type))
    return "value"


def sin_times(lib, np_, log):
    """h(x, y, k) = sin(x) * y * k with a symbolic-zeros rule that skips the
    zero terms and returns SymbolicZero for the second output (2y) where y's
    tangent is one."""
    cd = lib.custom_derivatives

    def primal(x, y, k):
        return np_.sin(x) * y * k, y * 2.0
    h = lib.custom_jvp(primal)

    def rule(primals, tangents):
        x, y, k = primals
        tx, ty, _ = tangents
        log.append(tuple(_zero_seen(lib, t) for t in tangents))
        # (Not h: mlax traces the rule of a call inside a rule too, for a
        # higher derivative, where JAX would call it only then.)
        out = primal(x, y, k)
        terms = []
        if type(tx) is not cd.SymbolicZero:
            terms.append(np_.cos(x) * tx * y * k)
        if type(ty) is not cd.SymbolicZero:
            terms.append(np_.sin(x) * ty * k)
        t0 = sum(terms[1:], terms[0]) if terms else cd.zero_from_primal(out[0], True)
        t1 = cd.zero_from_primal(out[1], True) if type(ty) is cd.SymbolicZero else ty * 2.0
        return out, (t0, t1)
    h.defjvp(rule, symbolic_zeros=True)
    return h


def sin_cos_vjp(lib, np_, log):
    """g(x, y, k) = (sin(x) * y * k, cos(x)), symbolic zeros on: fwd records
    what is perturbed, bwd which output cotangents are zero, and returns a
    SymbolicZero for k and None for an unperturbed y."""
    cd = lib.custom_derivatives

    def primal(x, y, k):
        return np_.sin(x) * y * k, np_.cos(x)
    g = lib.custom_vjp(primal)

    def fwd(x, y, k):
        log.append(("fwd", x.perturbed, y.perturbed, k.perturbed))
        xv, yv, kv = cd.custom_vjp_primal_tree_values((x, y, k))
        return primal(xv, yv, kv), (xv, yv, kv)

    def bwd(res, cts):
        x, y, k = res
        c0, c1 = cts
        log.append(("bwd",) + tuple(_zero_seen(lib, c) for c in cts))
        gx = np_.zeros_like(x)
        gy = None
        if type(c0) is not cd.SymbolicZero:
            gx = gx + np_.cos(x) * y * k * c0
            gy = np_.sin(x) * k * c0
        if type(c1) is not cd.SymbolicZero:
            gx = gx - np_.sin(x) * c1
        return gx, gy, cd.zero_from_primal(k, True)
    g.defvjp(fwd, bwd, symbolic_zeros=True)
    return g


def scaled(lib, np_, log):
    """nondiff_argnums with symbolic zeros: the fixed arguments reach the
    rules as they are, the others as CustomVJPPrimal / SymbolicZero."""
    cd = lib.custom_derivatives

    @partial(lib.custom_vjp, nondiff_argnums=(0,))
    def f(scale, x, y):
        return scale * x * y

    def fwd(scale, x, y):
        log.append(("fwd", scale, type(x).__name__, x.perturbed, y.perturbed))
        return scale * x.value * y.value, (x.value, y.value)

    def bwd(scale, res, c):
        log.append(("bwd", scale, _zero_seen(lib, c)))
        return scale * res[1] * c, cd.SymbolicZero(cd.zero_from_primal(res[1], True).aval)
    f.defvjp(fwd, bwd, symbolic_zeros=True)
    return lambda x, y: f(2.0, x, y)


def jvp_program(body):
    def run(lib, np_, log):
        return body(lib, np_, sin_times(lib, np_, log))
    return run


def vjp_program(body):
    def run(lib, np_, log):
        return body(lib, np_, sin_cos_vjp(lib, np_, log))
    return run


def first(h):
    return lambda x, y: h(x, y, 3)[0].sum()


CASES = {
    # custom_jvp: the tangents of y (not differentiated) and of the integer k
    # are SymbolicZero; the rule's SymbolicZero output is instantiated.
    # (The tangents only: JAX's eager jvp returns the primal outputs the
    # rule computes from constants as NumPy values.)
    "jvp in x": jvp_program(lambda lib, np_, h: lib.jvp(
        lambda x: h(x, Y3, 3), (X3,), (np.ones(3, np.float32),))[1]),
    "jit(jvp) in y, weakly typed": jvp_program(lambda lib, np_, h: lib.jit(lambda y: lib.jvp(
        lambda y: h(0.5, y, 2), (y,), (1.0,))[1])(1.5)),
    "grad in x": jvp_program(lambda lib, np_, h: lib.grad(first(h))(X3, Y3)),
    "grad in y": jvp_program(lambda lib, np_, h: lib.grad(first(h), argnums=1)(X3, Y3)),
    "grad in both": jvp_program(lambda lib, np_, h: lib.grad(first(h), argnums=(0, 1))(X3, Y3)),
    "grad, y depends on x": jvp_program(lambda lib, np_, h: lib.grad(
        lambda x: h(x, x * 2.0, 3)[0].sum())(X3)),
    "jit(grad) in x": jvp_program(lambda lib, np_, h: lib.jit(lib.grad(first(h)))(X3, Y3)),
    "jit(jvp) in y": jvp_program(lambda lib, np_, h: lib.jit(lambda x, y: lib.jvp(
        lambda y: h(x, y, 3), (y,), (np.ones(3, np.float32),)))(X3, Y3)),
    "vjp in x": jvp_program(lambda lib, np_, h: lib.vjp(
        lambda x: h(x, Y3, 3), X3)[1]((np.ones(3, np.float32), np.ones(3, np.float32)))),
    "plain call": jvp_program(lambda lib, np_, h: h(X3, Y3, 3)),
    # custom_vjp: fwd's CustomVJPPrimal.perturbed, bwd's SymbolicZero
    # cotangents of outputs the result does not use.
    "vjp grad in x, first output": vjp_program(lambda lib, np_, g: lib.grad(first(g))(X3, Y3)),
    "vjp grad in y, both outputs": vjp_program(lambda lib, np_, g: lib.grad(
        lambda x, y: sum(o.sum() for o in g(x, y, 3)), argnums=1)(X3, Y3)),
    "vjp jit(grad), both arguments": vjp_program(lambda lib, np_, g: lib.jit(lib.grad(
        lambda x, y: g(x, y, 2)[1].sum(), argnums=(0, 1)))(X3, Y3)),
    "vjp, y from x": vjp_program(lambda lib, np_, g: lib.grad(
        lambda x: g(x, x + 1.0, 2)[0].sum())(X3)),
    "vjp value_and_grad, scalars": vjp_program(lambda lib, np_, g: lib.value_and_grad(
        lambda x: g(x, 2.0, 2)[0])(0.5)),
    "vjp plain jit": vjp_program(lambda lib, np_, g: lib.jit(g)(X3, Y3, 3)),
    "vjp nondiff_argnums": lambda lib, np_, log: lib.jit(lib.grad(
        lambda x, y: scaled(lib, np_, log)(x, y).sum()))(X3, Y3),
    "vjp grad, no output of one call used": vjp_program(lambda lib, np_, g: lib.grad(
        lambda x: g(x, 2.0, 2)[0] + 0.0 * lib.lax.stop_gradient(g(x, 3.0, 1)[1]))(0.5)),
}


@pytest.mark.parametrize("name", list(CASES))
def test_rules_see_the_symbolic_zeros_jax_passes(name):
    (got_log, got), (want_log, want) = (run_logged(CASES[name], *LIBS[which])
                                        for which in ("mlax", "jax"))
    assert got_log == want_log
    assert_tree_like(got, want, rtol=2e-6, atol=1e-6)


def test_vmap_of_grad_with_symbolic_zeros_matches_jax():
    # (Under vmap JAX's rule sees the batched tangents; the log may differ
    # in how often the rules run, the zeros seen and the values may not.)
    for make in (sin_times, sin_cos_vjp):
        results = {}
        for which, (lib, np_) in LIBS.items():
            log = []
            h = make(lib, np_, log)
            results[which] = (lib.vmap(lib.grad(lambda x, y: h(x, y, 3)[0]))(X3, Y3),
                              sorted(set(map(str, log))))
        assert results["mlax"][1] == results["jax"][1]
        assert_tree_like(results["mlax"][0], results["jax"][0], rtol=2e-6, atol=1e-6)


NESTED = {
    # Where a later derivative may still reach the call, mlax passes values
    # for float tangents it cannot prove zero: fewer SymbolicZeros than
    # JAX's, never one JAX does not pass, and the same derivatives.
    "grad in a scan body": lambda lib, h: lib.grad(lambda x, y: lib.lax.scan(
        lambda c, yi: (c + h(c, yi, 2)[0], None), x, y)[0])(np.float32(0.3), Y3),
    "checkpoint": lambda lib, h: lib.grad(lib.checkpoint(lambda x, y: h(x, y, 2)[0]))(0.3, 1.5),
    "grad of grad": lambda lib, h: lib.grad(lib.grad(lambda x, y: h(x, y, 2)[0]),
                                            argnums=(0, 1))(0.3, 1.5),
    "grad in y of grad in x": lambda lib, h: lib.grad(
        lambda y: lib.grad(lambda x, y: h(x, y, 2)[0])(0.3, y))(1.5),
}


@pytest.mark.parametrize("name", list(NESTED))
def test_where_mlax_cannot_know_rules_see_values_and_derivatives_agree(name):
    results = {}
    for which, (lib, np_) in LIBS.items():
        log = []
        results[which] = (NESTED[name](lib, sin_times(lib, np_, log)), log)
    (got, got_log), (want, want_log) = results["mlax"], results["jax"]
    assert_tree_like(got, want, rtol=2e-6, atol=1e-6)
    zeros_seen = [{i for i, t in enumerate(entry) if t != "value"} for entry in got_log]
    assert zeros_seen and all({2} <= z for z in zeros_seen)  # (the integer's)
    jax_zeros = set().union(*[{i for i, t in enumerate(e) if t != "value"} for e in want_log])
    assert set().union(*zeros_seen) <= jax_zeros


def test_gradients_match_finite_differences():
    log = []
    h = sin_times(mlax, mnp, log)
    g = sin_cos_vjp(mlax, mnp, log)
    x, y, eps = np.float64(0.4), np.float64(1.3), 1e-3
    for k in (h, g):
        def f(x, y, k=k):
            return k(x, y, 3)[0] + k(x, y, 3)[1]
        dx, dy = mlax.grad(f, argnums=(0, 1))(np.float32(x), np.float32(y))
        fd_x = (float(f(x + eps, y)) - float(f(x - eps, y))) / (2 * eps)
        fd_y = (float(f(x, y + eps)) - float(f(x, y - eps))) / (2 * eps)
        np.testing.assert_allclose([float(dx), float(dy)], [fd_x, fd_y], rtol=2e-3)


def test_symbolic_zero_and_zero_from_primal_match_jax():
    primal = (1.0, np.int32(2), np.ones((2, 3), np.float32), {"b": np.bool_(True)})
    want = jax.custom_derivatives.zero_from_primal(primal)
    got = mlax.custom_derivatives.zero_from_primal(primal)
    assert_tree_like(got, want)
    w = jax.custom_derivatives.zero_from_primal(primal, symbolic_zeros=True)
    g = mlax.custom_derivatives.zero_from_primal(primal, symbolic_zeros=True)
    wl, gl = jax.tree_util.tree_leaves(w), mlax.tree_util.tree_leaves(g)
    assert [_zero_seen(jax, z) for z in wl] == [_zero_seen(mlax, z) for z in gl]
    assert [repr(z) for z in gl] == [repr(z) for z in wl] == ["SymbolicZero"] * 4
    z, zj = gl[2], wl[2]
    assert (z.ndim, z.size) == (zj.ndim, zj.size) == (2, 6)
    assert z.aval.shape == (2, 3)
    f = mlax.custom_derivatives.SymbolicZero.from_primal_value(np.int8(3))
    assert (f.shape, f.dtype) == ((), jax.dtypes.float0)
    with pytest.raises(AttributeError, match="SymbolicZero has no attribute nope"):
        z.nope  # noqa: B018


def test_custom_vjp_primal_tree_values():
    for lib in (jax, mlax):
        cd = lib.custom_derivatives
        tree = {"a": cd.CustomVJPPrimal(1.0, True), "b": (cd.CustomVJPPrimal(2, False),)}
        assert cd.custom_vjp_primal_tree_values(tree) == {"a": 1.0, "b": (2,)}
        p = cd.CustomVJPPrimal(value=3.0, perturbed=False)
        assert (p.value, p.perturbed) == (3.0, False)
        with pytest.raises(TypeError, match="unexpected leaf type <class 'float'>"):
            cd.custom_vjp_primal_tree_values((cd.CustomVJPPrimal(1.0, True), 2.0))


def _bad_rules(lib, np_, which):
    cd = lib.custom_derivatives

    @lib.custom_jvp
    def h(x):
        return np_.sin(x)
    h.defjvp(lambda p, t: (h(*p), cd.zero_from_primal(np.ones(2, np.float32), True)),
             symbolic_zeros=True)

    @lib.custom_vjp
    def g(x):
        return np_.sin(x)
    g.defvjp(lambda x: (g(x.value), None),
             lambda r, c: (cd.zero_from_primal(np.ones(2, np.float32), True),),
             symbolic_zeros=True)
    return {"jvp": lambda: lib.jvp(h, (X3,), (X3,)),
            "bwd": lambda: lib.grad(lambda x: g(x).sum())(X3),
            "remat": lambda: lib.custom_vjp(np_.sin).defvjp(None, None, True, True)}[which]


@pytest.mark.parametrize("which, error, match", [
    ("jvp", TypeError, "Expected float32\\[3\\] \\(tangent type of float32\\[3\\]\\) but got "
                       "float32\\[2\\]"),
    ("bwd", ValueError, "Custom VJP bwd rule produced a SymbolicZero with a shape/dtype that "
                        "does not match"),
    ("remat", NotImplementedError, "remat optimization for custom_vjp does not support "
                                   "symbolic zeros"),
])
def test_bad_symbolic_zeros_raise_jax_errors(which, error, match):
    for lib, np_ in LIBS.values():
        with pytest.raises(error, match=match):
            _bad_rules(lib, np_, which)()


def _remat_program(lib, np_):
    @lib.custom_vjp
    def f(x, w):
        return np_.tanh(x * w)

    def fwd(x, w):
        y = np_.tanh(x * w)
        return y, (x, w, y)

    def bwd(res, c):
        x, w, y = res
        d = (1.0 - y * y) * c
        return d * w, (d * x).sum()
    f.defvjp(fwd, bwd, optimize_remat=True)

    def loss(x, w):
        return lib.checkpoint(lambda x: f(f(x, w), w))(x).sum()
    w = np.float32(0.7)
    return loss(X3, w), lib.jit(lib.grad(loss, argnums=(0, 1)))(X3, w), \
        lib.grad(lambda x: f(x, 0.5).sum())(X3)


def test_optimize_remat_keeps_values_and_gradients():
    assert_tree_like(_remat_program(mlax, mnp), _remat_program(jax, jnp), rtol=2e-6, atol=1e-6)


# linear_call: JAX's docstring examples, and the transformations.

def _div(r, x):
    return x / r


def _div_t(r, t):
    return t / r


def _custom_id(lib, x):
    return lib.custom_derivatives.linear_call(lambda _, x: x, lambda _, t: 7.0 * t, (), x)


def _transpose(lib, f, example):
    return lambda y: lib.linear_transpose(f, example)(y)[0]


def _tree_fun(r, lin):
    return {"s": lin["a"] * r[0] + lin["b"][0], "t": lin["b"][0] * r[1]}


def _tree_fun_t(r, ct):
    return {"a": ct["s"] * r[0], "b": (ct["s"] + ct["t"] * r[1],)}


def _squares(lib, x):
    """A nonlinear function of a linear call whose transpose is its own (a
    wrong one, to be told apart) and whose residual is an array."""
    np_ = lib.numpy
    lin = lib.custom_derivatives.linear_call(
        lambda r, v: r * v + v[::-1], lambda r, t: 7.0 * r * t, 1.0 + X3 * X3, np_.sin(x))
    return (lin * lin).sum()


def _scaled_by(lib, w):
    """A linear_call whose functions close over a traced `w` (the transpose
    a wrong one, to be told apart)."""
    return lambda x: lib.custom_derivatives.linear_call(
        lambda _, x: x * w, lambda _, t: 3.0 * t * w, (), x)


LINEAR = {
    # (Arrays: on Python scalars JAX's eager linear_call returns its own
    # float type.)
    "value": lambda lib: X3 + lib.custom_derivatives.linear_call(_div, _div_t, 3.0, X3),
    "transpose": lambda lib: _transpose(
        lib, lambda x: x + lib.custom_derivatives.linear_call(_div, _div_t, 3.0, x), X3)(Y3),
    "custom transpose": lambda lib: _transpose(lib, partial(_custom_id, lib), X3)(Y3),
    "transpose twice": lambda lib: _transpose(
        lib, _transpose(lib, partial(_custom_id, lib), X3), X3)(Y3),
    "grad": lambda lib: lib.grad(lambda x: _custom_id(lib, x).sum())(X3),
    "jit(grad)": lambda lib: lib.jit(lib.grad(lambda x: (_custom_id(lib, x) * x).sum()))(X3),
    "jvp": lambda lib: lib.jvp(partial(_custom_id, lib), (X3,), (Y3,)),
    "jit(jvp)": lambda lib: lib.jit(lambda x, t: lib.jvp(
        lambda v: lib.custom_derivatives.linear_call(_div, _div_t, x, v), (x,), (t,)))(X3, Y3),
    "pytrees, vjp": lambda lib: lib.vjp(
        lambda a, b: lib.custom_derivatives.linear_call(
            _tree_fun, _tree_fun_t, (2.0, X3), {"a": a, "b": (b,)}), X3, Y3)[1](
        {"s": np.ones(3, np.float32), "t": Y3}),
    "closures, jit(grad)": lambda lib: lib.jit(lambda w, x: lib.grad(
        lambda x: _scaled_by(lib, w)(x).sum())(x))(np.float32(2.0), X3),
    "closures, jit(jvp)": lambda lib: lib.jit(lambda w, x: lib.jvp(
        _scaled_by(lib, w), (x,), (Y3,)))(np.float32(2.0), X3),
    # Second order: the tangent of a linear call is a linear call again
    # (forward) and is transposed by its transpose (reverse).
    "jit(jvp of jvp)": lambda lib: lib.jit(lambda x, t: lib.jvp(
        lambda x: lib.jvp(partial(_squares, lib), (x,), (t,))[1], (x,), (t,)))(X3, Y3),
    "jvp of grad": lambda lib: lib.jvp(lib.grad(partial(_squares, lib)), (X3,), (Y3,)),
    "grad of jvp": lambda lib: lib.grad(
        lambda x: lib.jvp(partial(_squares, lib), (x,), (Y3,))[1])(X3),
    "bad transpose tree": lambda lib: lib.grad(lambda x: lib.custom_derivatives.linear_call(
        lambda r, x: x * r, lambda r, t: (t * r,), 2.0, x))(1.0),
}


@pytest.mark.parametrize("name", list(LINEAR))
def test_linear_call_matches_jax(name):
    def run(lib):
        try:
            return LINEAR[name](lib)
        except TypeError as e:
            return str(e).split(",")[0]
    got, want = run(mlax), run(jax)
    if isinstance(want, str):
        assert got == want
    else:
        assert_tree_like(got, want, rtol=2e-6, atol=1e-6)


def test_linear_call_under_vmap_matches_jax_per_example():
    # (JAX's linear_call has no batching rule: compared with JAX on each
    # example.)
    def per_example(lib):
        def f(r, x):
            return lib.custom_derivatives.linear_call(_div, lambda r, t: 7.0 * t / r, r, x)
        return f
    f = per_example(mlax)
    got = (mlax.vmap(f)(Y3, X3), mlax.vmap(mlax.grad(f, argnums=1))(Y3, X3),
           mlax.grad(lambda x: mlax.vmap(f, in_axes=(None, 0))(np.float32(4.0), x).sum())(X3))
    jf = per_example(jax)
    want = tuple(jnp.stack(v) for v in zip(*[
        (jf(r, x), jax.grad(jf, argnums=1)(r, x), jax.grad(jf, argnums=1)(np.float32(4.0), x))
        for r, x in zip(Y3, X3)]))
    assert_tree_like(got, want, rtol=2e-6, atol=1e-6)


def test_linear_call_in_its_residuals_differentiates_fun():
    # (JAX's linear_call fails an internal assertion there.)
    def f(r, x):
        return mlax.custom_derivatives.linear_call(_div, _div_t, r, x)
    got = mlax.grad(lambda r: f(r, X3).sum())(np.float32(2.0))
    want = jax.grad(lambda r: _div(r, X3).sum())(np.float32(2.0))
    assert_tree_like(got, want, rtol=2e-6)

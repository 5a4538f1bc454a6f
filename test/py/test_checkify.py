"""mlax.experimental.checkify against jax.experimental.checkify: the same
messages (err.get()), exception classes and outputs, eagerly, under jit (of
the checkified function, and checkify of a jitted one), under vmap, the
automatic checks (NaN, division by zero, out-of-bounds indexing),
check_error, and grad through a checkified function."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.experimental import checkify as jcheckify

import mlax
import mlax.numpy as mnp
from mlax import lax as mlax_lax
from mlax.experimental import checkify as mcheckify


def _user(ck):
    def f(x):
        ck.check(x > 0, "x must be positive, got {x}", x=x)
        ck.check(x < 10, "{} too big", x)
        return x * 2
    return f


M_F, J_F = _user(mcheckify), _user(jcheckify)
M_CHECKED, J_CHECKED = mcheckify.checkify(M_F), jcheckify.checkify(J_F)
M_JIT_CHECKED, J_JIT_CHECKED = mlax.jit(M_CHECKED), jax.jit(J_CHECKED)
M_CHECKED_JIT, J_CHECKED_JIT = mcheckify.checkify(mlax.jit(M_F)), jcheckify.checkify(jax.jit(J_F))


def _call(m, j, *args):
    """m(*args) and j(*args), each given its own library's arrays (JAX's
    eager checkify closes over its arguments: a NumPy one stays NumPy)."""
    return m(*map(mnp.asarray, args)), j(*map(jnp.asarray, args))


def _same(m, j):
    m_err, m_out = m
    j_err, j_out = j
    assert isinstance(m_err, mcheckify.Error)
    assert m_err.get() == j_err.get()
    for mo, jo in zip(jax.tree_util.tree_leaves(m_out), jax.tree_util.tree_leaves(j_out)):
        mo, jo = np.asarray(mo), np.asarray(jo)
        assert mo.dtype == jo.dtype and mo.shape == jo.shape
        np.testing.assert_array_equal(mo, jo)


@pytest.mark.parametrize("how", ["eager", "jit_of_checkify", "checkify_of_jit"])
def test_user_checks(how):
    m, j = {"eager": (M_CHECKED, J_CHECKED), "jit_of_checkify": (M_JIT_CHECKED, J_JIT_CHECKED),
            "checkify_of_jit": (M_CHECKED_JIT, J_CHECKED_JIT)}[how]
    for x in (-3.0, 2.0, 12.0):
        _same(*_call(m, j, np.float32(x)))


def test_throw_and_get_exception():
    (m_err, _), (j_err, _) = _call(M_CHECKED, J_CHECKED, np.float32(12.0))
    assert issubclass(mcheckify.JaxRuntimeError, ValueError)
    with pytest.raises(mcheckify.JaxRuntimeError) as m_exc:
        m_err.throw()
    with pytest.raises(jcheckify.JaxRuntimeError) as j_exc:
        j_err.throw()
    assert str(m_exc.value) == str(j_exc.value) == "12.0 too big (`check` failed)"
    assert type(m_err.get_exception()).__name__ == type(j_err.get_exception()).__name__
    assert str(m_err) == str(j_err)
    ok, _ = M_CHECKED(mnp.float32(2.0))
    assert ok.throw() is None and ok.get_exception() is None
    assert mcheckify.init_error.get() is None


def test_check_outside_checkify():
    for ck, xp, jit in ((mcheckify, mnp, mlax.jit), (jcheckify, jnp, jax.jit)):
        with pytest.raises(ck.JaxRuntimeError, match=r"^bad 1.0 \(`check` failed\)$"):
            ck.check(xp.float32(1.0) < 0, "bad {}", xp.float32(1.0))
        ck.check(xp.float32(1.0) > 0, "fine")
        ck.debug_check(False, "dropped without checkify")
        # Staged without checkify: JAX's error, naming the fix.
        with pytest.raises(ValueError, match="not functionalized") as exc:
            jit(lambda x: ck.check(x < 0, "bad"))(1.0)
        assert not isinstance(exc.value, ck.JaxRuntimeError)


def test_bad_arguments():
    def messages(ck, xp):
        out = []
        for args in ((xp.array([True, False]), "m"), (True, "m {}", 1), (1, "m")):
            with pytest.raises(TypeError) as exc:
                ck.check(*args)
            out.append(str(exc.value))
        with pytest.raises(TypeError, match="debug_check"):
            ck.debug_check(xp.array([True]), "m")
        with pytest.raises(TypeError, match="check_error"):
            ck.check_error("not an error")
        return out
    assert messages(mcheckify, mnp) == messages(jcheckify, jnp)
    with pytest.raises(TypeError, match="checkify: errors"):
        mcheckify.checkify(M_F, errors={"nan"})


def test_debug_check_under_checkify():
    def f(ck):
        return lambda x: ck.debug_check(x > 0, "dbg {}", x)
    _same(*_call(mcheckify.checkify(f(mcheckify)), jcheckify.checkify(f(jcheckify)),
                 np.int32(-1)))


def test_vmap():
    xs = np.array([-3.0, 2.0, 12.0], np.float32)
    m, j = mlax.vmap(M_CHECKED)(xs), jax.vmap(J_CHECKED)(xs)
    _same(m, j)
    assert m[0].get().count("at mapped index") == 2
    with pytest.raises(mcheckify.JaxRuntimeError, match="at mapped index 0"):
        m[0].throw()
    _same(mlax.jit(mlax.vmap(M_CHECKED))(xs[1:2]), jax.jit(jax.vmap(J_CHECKED))(xs[1:2]))


def _nan_cases(xp, lax_):
    inf = np.float32(np.inf)
    return [(xp.sin, inf), (xp.log, -1.0), (lambda x: x / x, 0.0), (lambda x: inf - x, inf),
            (lambda x: xp.sum(x * xp.array([inf, -inf])), 1.0),
            (lambda x: xp.dot(xp.array([x, x]), xp.array([inf, -inf])), 1.0),
            (lambda x: lax_.cos(x) + 1, 1.0)]


def test_nan_checks():
    for (mf, x), (jf, _) in zip(_nan_cases(mnp, mlax_lax), _nan_cases(jnp, jax.lax)):
        _same(*_call(mcheckify.checkify(mf, errors=mcheckify.nan_checks),
                     jcheckify.checkify(jf, errors=jcheckify.nan_checks), np.float32(x)))
    # Not enabled: no NaN check.
    assert mcheckify.checkify(mnp.log)(mnp.float32(-1.0))[0].get() is None


def test_div_checks():
    cases = [(lambda x, y: x // y, lambda x, y: x // y),
             (lambda x, y: x % y, lambda x, y: x % y),
             (mlax_lax.div, jax.lax.div), (mnp.divmod, jnp.divmod)]
    for mf, jf in cases:
        for y in (0, 2):
            _same(*_call(mcheckify.checkify(mf, errors=mcheckify.div_checks),
                         jcheckify.checkify(jf, errors=jcheckify.div_checks),
                         np.int32(7), np.int32(y)))


def _index_cases(xp, lax_):
    return [(lambda x, i: x[i], 5), (lambda x, i: x[i], -5), (lambda x, i: x[i], 1),
            (lambda x, i: x[xp.array([0, 1]) + i], 1),
            (lambda x, i: lax_.dynamic_slice(x, (i,), (2,)), 2),
            (lambda x, i: lax_.dynamic_update_slice(x, xp.ones(2), (i,)), 2),
            (lambda x, i: x.at[i].set(1.0), 5), (lambda x, i: x.at[i].add(1.0), 1)]


def test_index_checks():
    x = np.arange(3, dtype=np.float32)
    for (mf, i), (jf, _) in zip(_index_cases(mnp, mlax_lax), _index_cases(jnp, jax.lax)):
        _same(*_call(mcheckify.checkify(mf, errors=mcheckify.index_checks),
                     jcheckify.checkify(jf, errors=jcheckify.index_checks), x, np.int32(i)))
    y = np.ones((2, 3), np.float32)
    f = lambda y, i, j: y[i, j]  # noqa: E731
    _same(*_call(mcheckify.checkify(f, errors=mcheckify.index_checks),
                 jcheckify.checkify(f, errors=jcheckify.index_checks),
                 y, np.int32(1), np.int32(3)))


def _ordered(ck, xp, lax_):
    def f(x):
        y = lax_.log(x)
        ck.check(x > 0, "positive, got {}", x)
        z = lax_.sin(x * np.float32(np.inf))
        return y + xp.sqrt(z)
    return f


def test_first_failure_wins():
    """As JAX: a failed `check` first, then the automatic checks in program
    order; vmap reports each index's first."""
    mf, jf = _ordered(mcheckify, mnp, mlax_lax), _ordered(jcheckify, jnp, jax.lax)
    for errors in ("all_checks", "nan_checks", "float_checks"):
        m = mcheckify.checkify(mf, errors=getattr(mcheckify, errors))
        j = jcheckify.checkify(jf, errors=getattr(jcheckify, errors))
        for x in (-1.0, 0.0, np.inf):
            _same(*_call(m, j, np.float32(x)))
    xs = np.array([1.0, -1.0, np.inf, 0.0], np.float32)
    _same(mlax.jit(mlax.vmap(mcheckify.checkify(mf, errors=mcheckify.all_checks)))(xs),
          jax.jit(jax.vmap(jcheckify.checkify(jf, errors=jcheckify.all_checks)))(xs))


def test_check_error():
    for ck, checked, xp in ((mcheckify, M_CHECKED, mnp), (jcheckify, J_CHECKED, jnp)):
        err, _ = checked(xp.float32(-3.0))
        with pytest.raises(ck.JaxRuntimeError, match="x must be positive, got -3.0"):
            ck.check_error(err)
        ck.check_error(checked(xp.float32(2.0))[0])
    # Re-checkified: an Error from a jitted checkified function joins the
    # outer checks.
    def outer(ck, inner):
        def g(x):
            err, out = inner(x)
            ck.check_error(err)
            ck.check(out < 100, "huge")
            return out
        return g
    m = mcheckify.checkify(outer(mcheckify, M_JIT_CHECKED))
    j = jcheckify.checkify(outer(jcheckify, J_JIT_CHECKED))
    for x in (-3.0, 2.0, 60.0):
        _same(*_call(m, j, np.float32(x)))


def test_grad():
    # grad through a checkified function, its Error as aux.
    m_grad = mlax.grad(lambda x: M_CHECKED(x)[::-1], has_aux=True)
    j_grad = jax.grad(lambda x: J_CHECKED(x)[::-1], has_aux=True)
    for x in (-3.0, 2.0):
        (mg, merr), (jg, jerr) = _call(m_grad, j_grad, np.float32(x))
        assert merr.get() == jerr.get()
        np.testing.assert_allclose(mg, jg)
        eps = 1e-3
        fd = (M_CHECKED(mnp.float32(x + eps))[1] - M_CHECKED(mnp.float32(x - eps))[1]) / (2 * eps)
        np.testing.assert_allclose(mg, fd, rtol=1e-2)

    # A check on a derivative inside the checkified function.
    def h(ck, xp, grad):
        def f(x):
            g = grad(xp.sin)(x)
            ck.check(g > 0, "grad {} not positive", g)
            return g
        return f
    for x in (3.0, 0.5):
        _same(*_call(mcheckify.checkify(h(mcheckify, mnp, mlax.grad)),
                     jcheckify.checkify(h(jcheckify, jnp, jax.grad)), np.float32(x)))


def test_checkify_of_grad():
    """Checks in the function grad (value_and_grad, jvp) differentiates, as
    JAX's (on primal values)."""
    def g(ck, xp):
        def f(x):
            ck.check(x > 0, "x must be positive, got {x}", x=x)
            return xp.sin(x) * xp.log(x)
        return f
    m = mcheckify.checkify(mlax.grad(g(mcheckify, mnp)), errors=mcheckify.all_checks)
    j = jcheckify.checkify(jax.grad(g(jcheckify, jnp)), errors=jcheckify.all_checks)
    for x in (-3.0, 2.0):
        _same(*_call(m, j, np.float32(x)))
    _same(*_call(mlax.jit(m), jax.jit(j), np.float32(-1.0)))
    # A NaN of the differentiated function's own ops (its derivative's ops
    # are made by mlax's autodiff pass, which checkify does not observe).
    _same(*_call(mcheckify.checkify(mlax.grad(lambda x: mnp.sin(x) * mnp.log(x)),
                                    errors=mcheckify.nan_checks),
                 jcheckify.checkify(jax.grad(lambda x: jnp.sin(x) * jnp.log(x)),
                                    errors=jcheckify.nan_checks), np.float32(-1.0)))
    mv = mcheckify.checkify(mlax.value_and_grad(g(mcheckify, mnp)))
    jv = jcheckify.checkify(jax.value_and_grad(g(jcheckify, jnp)))
    _same(*_call(mv, jv, np.float32(-1.0)))
    mj = mcheckify.checkify(lambda x: mlax.jvp(g(mcheckify, mnp), (x,), (mnp.ones_like(x),)))
    jj = jcheckify.checkify(lambda x: jax.jvp(g(jcheckify, jnp), (x,), (jnp.ones_like(x),)))
    for x in (-1.0, 2.0):
        _same(*_call(mj, jj, np.float32(x)))


def test_checkify_of_vmap():
    """Checks in the mapped function: one error, each kind's from its last
    failing index, as JAX's."""
    m = mcheckify.checkify(mlax.vmap(_ordered(mcheckify, mnp, mlax_lax)),
                           errors=mcheckify.all_checks)
    j = jcheckify.checkify(jax.vmap(_ordered(jcheckify, jnp, jax.lax)),
                           errors=jcheckify.all_checks)
    for xs in ([-3.0, 2.0, -12.0], [1.0, np.inf, 2.0], [1.0, 2.0, 3.0]):
        _same(*_call(m, j, np.array(xs, np.float32)))
    _same(*_call(mlax.jit(mcheckify.checkify(mlax.vmap(M_F))),
                 jax.jit(jcheckify.checkify(jax.vmap(J_F))), np.array([-3.0, 2.0, 12.0],
                                                                     np.float32)))


def _branches(ck, xp, lax_):
    def small_log(x):
        ck.check(x < 10, "small {}", x)
        return xp.log(x)
    return lambda i, x: lax_.switch(i, [_user(ck), small_log, lambda x: x], x)


def test_cond_and_switch():
    """Checks in branches, each branch's error or none (placeholders for
    the kinds it lacks), as JAX's."""
    m = mcheckify.checkify(_branches(mcheckify, mnp, mlax_lax), errors=mcheckify.all_checks)
    j = jcheckify.checkify(_branches(jcheckify, jnp, jax.lax), errors=jcheckify.all_checks)
    for i, x in ((0, -1.0), (0, 12.0), (1, -1.0), (1, 12.0), (2, -1.0)):
        _same(*_call(m, j, np.int32(i), np.float32(x)))
    _same(*_call(mlax.jit(m), jax.jit(j), np.int32(1), np.float32(12.0)))
    mc = mcheckify.checkify(lambda x: mlax_lax.cond(x > 5, M_F, mnp.log, x),
                            errors=mcheckify.all_checks)
    jc = jcheckify.checkify(lambda x: jax.lax.cond(x > 5, J_F, jnp.log, x),
                            errors=jcheckify.all_checks)
    for x in (-1.0, 12.0, 3.0):
        _same(*_call(mc, jc, np.float32(x)))


def _scanned(ck, xp, lax_):
    def body(c, x):
        ck.check(c < 5, "c small, got {}", c)
        ck.check(x > 0, "x positive, got {}", x)
        return c + x, xp.log(x)
    return (lambda c, xs: lax_.scan(body, c, xs),
            lambda c, xs: lax_.scan(body, c, xs, reverse=True))


def test_scan():
    """Checks in a scan's body: each kind's first failure in time (forward
    or reverse), its iteration's payload, as JAX's carried error."""
    for mf, jf in zip(_scanned(mcheckify, mnp, mlax_lax), _scanned(jcheckify, jnp, jax.lax)):
        m = mcheckify.checkify(mf, errors=mcheckify.all_checks)
        j = jcheckify.checkify(jf, errors=jcheckify.all_checks)
        for xs in ([1.0, 2.0, 3.0], [1.0, -1.0, 3.0], [3.0, 3.0, -1.0], [-2.0, 1.0, 10.0]):
            _same(*_call(m, j, np.float32(0.0), np.array(xs, np.float32)))
    def fori(ck, lax_):
        return lambda x: lax_.fori_loop(
            0, 3, lambda i, c: (ck.check(c < 2, "fori {} {}", i, c), c + 1.0)[1], x)
    _same(*_call(mcheckify.checkify(fori(mcheckify, mlax_lax)),
                 jcheckify.checkify(fori(jcheckify, jax.lax)), np.float32(0.0)))


def _looped(ck, xp, lax_):
    def body(c):
        i, x = c
        ck.check(x < 5, "x small, got {} at {}", x, i)
        return i + 1, x * 2 + xp.log(x)
    return lambda x: lax_.while_loop(lambda c: c[0] < 4, body, (0, x))


def test_while_loop():
    """Checks in a while_loop's body, carried: the first failure in time."""
    m = mcheckify.checkify(_looped(mcheckify, mnp, mlax_lax), errors=mcheckify.all_checks)
    j = jcheckify.checkify(_looped(jcheckify, jnp, jax.lax), errors=jcheckify.all_checks)
    for x in (0.5, 2.0, -1.0, 0.01):
        _same(*_call(m, j, np.float32(x)))


def _cond_checked(ck, xp, lax_):
    def cond(c):
        ck.check(c < 30, "too big {c}", c=c)
        return c < 10.0

    def body(c):
        ck.check(c > 0, "nonpositive {c}", c=c)
        return xp.abs(c) * 3 + 1
    return lambda x: lax_.while_loop(cond, body, x)


def test_checks_in_a_while_loops_cond_fun():
    """As JAX's: cond_fun's checks are made on the initial state and on
    the state after each iteration (the last one, where the loop stops,
    included), in order with the body's."""
    m = mcheckify.checkify(_cond_checked(mcheckify, mnp, mlax_lax))
    j = jcheckify.checkify(_cond_checked(jcheckify, jnp, jax.lax))
    for x in (1.0, 60.0, -1.0, 9.9):
        _same(*_call(m, j, np.float32(x)))
    _same(*_call(mlax.jit(m), jax.jit(j), np.float32(9.9)))
    _same(*_call(mcheckify.checkify(mlax.jit(_cond_checked(mcheckify, mnp, mlax_lax))),
                 jcheckify.checkify(jax.jit(_cond_checked(jcheckify, jnp, jax.lax))),
                 np.float32(60.0)))


@pytest.mark.parametrize("how", ["vjp", "jacrev", "hessian", "jit_vjp"])
def test_checks_in_differentiated_functions(how):
    """Checks in the function of a vjp, jacrev or hessian join the
    checkified function's Error (from the forward pass), as in JAX."""
    def program(lib, ck, xp):
        def f(x):
            ck.check(x > 0, "nonpositive {x}", x=x)
            return xp.sin(x) * x
        transformed = {
            "vjp": lambda x: lib.vjp(f, x)[1](xp.float32(1))[0],
            "jacrev": lib.jacrev(f),
            "hessian": lib.hessian(f),
            "jit_vjp": lib.jit(lambda x: lib.vjp(f, x)[1](xp.float32(1))[0]),
        }[how]
        return ck.checkify(transformed)
    m, j = program(mlax, mcheckify, mnp), program(jax, jcheckify, jnp)
    for x in (-1.0, 2.0):
        _same(*_call(m, j, np.float32(x)))


def _custom(lib, np_, ck):
    """A custom_jvp, a custom_vjp and two checkpointed functions (one with
    a policy), each with a check of its own, called one after another."""
    @lib.custom_jvp
    def g(x):
        ck.check(x > 0, "g needs x > 0, got {}", x)
        return np_.log(x)
    g.defjvp(lambda p, t: (g(p[0]), t[0] / p[0]))  # (the rule calls g: JAX checks it)

    @lib.custom_vjp
    def v(x):
        ck.check(x < 10, "v needs x < 10, got {}", x)
        return np_.sin(x)
    v.defvjp(lambda x: (np_.sin(x), x), lambda x, ct: (ct * np_.cos(x),))

    def c(x):
        ck.check(x != 3, "c: x is 3")
        return np_.exp(x) * 2

    def c2(x):
        ck.check(x != 4, "c2: x is 4")
        return x * x
    cp = lib.checkpoint(c)
    cpp = lib.checkpoint(c2, policy=lib.checkpoint_policies.dots_saveable)
    return lambda x: g(x) + v(x) + cp(x) + cpp(x)


M_CUSTOM, J_CUSTOM = _custom(mlax, mnp, mcheckify), _custom(jax, jnp, jcheckify)


def test_checks_inside_custom_rules_and_checkpoint():
    """The checks of a custom_jvp or custom_vjp function and of a
    checkpointed one are made, as JAX's: eagerly, under jit and of the
    function's gradient (JAX makes the function's checks, not a custom
    rule's); the automatic NaN check sees the ops of mlax.nn's custom_jvp
    functions."""
    xs = (-1.0, 3.0, 4.0, 12.0, 2.0)  # each check fails first once; none at 2
    for m, j in ((mlax.jit(mcheckify.checkify(M_CUSTOM)), jax.jit(jcheckify.checkify(J_CUSTOM))),
                 (mlax.jit(mcheckify.checkify(mlax.grad(M_CUSTOM))),
                  jax.jit(jcheckify.checkify(jax.grad(J_CUSTOM))))):
        for x in xs:
            m_err, m_out = m(np.float32(x))
            j_err, j_out = j(np.float32(x))
            assert m_err.get() == j_err.get()
            np.testing.assert_allclose(np.asarray(m_out), np.asarray(j_out), rtol=1e-6)
    _same(*_call(mcheckify.checkify(M_CUSTOM), jcheckify.checkify(J_CUSTOM), np.float32(4.0)))
    # Under vmap (JAX's checkify of this vmap fails inside JAX): the error of
    # the first failing example, the values of each.
    m_err, m_out = mlax.jit(mcheckify.checkify(mlax.vmap(M_CUSTOM)))(
        mnp.asarray(np.float32([2.0, 12.0])))
    j_err, j_out = jax.jit(jcheckify.checkify(J_CUSTOM))(np.float32(12.0))
    assert m_err.get() == j_err.get() == "v needs x < 10, got 12.0 (`check` failed)"
    np.testing.assert_allclose(np.asarray(m_out)[1], np.asarray(j_out), rtol=1e-6)
    # mlax.nn's relu and logsumexp are custom_jvp functions.
    for lib, ck, np_, f in ((mlax, mcheckify, mnp, None), (jax, jcheckify, jnp, None)):
        f = ck.checkify(lambda x: lib.nn.relu(np_.log(x)) + lib.nn.logsumexp(np_.log(-x)),
                        errors=ck.nan_checks)
        assert f(np_.float32(-1.0))[0].get() == "nan generated by primitive: log."
        assert f(np_.float32(1.0))[0].get() == "nan generated by primitive: log."
        assert lib.jit(f)(np_.float32(-1.0))[0].get() == "nan generated by primitive: log."

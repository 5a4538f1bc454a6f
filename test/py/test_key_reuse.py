"""PRNG key-reuse checking (jax_debug_key_reuse) against JAX: the same
programs raise KeyReuseError, or do not, in both libraries, eagerly and
under jit; with the switch off nothing is checked and values are JAX's."""
import jax
import numpy as np
import pytest

import mlax
from mlax import errors as mlax_errors

LIBS = {"jax": (jax, jax.errors.KeyReuseError), "mlax": (mlax, mlax_errors.KeyReuseError)}


# Each program takes the library module; `raises` is what JAX does (checked
# too, so that a program neither library flags cannot pass unseen).
def eager_reuse(m):
    key = m.random.key(0)
    m.random.normal(key)
    return m.random.normal(key)


def split_then_reuse(m):
    key = m.random.key(0)
    m.random.split(key)
    return m.random.normal(key)


def split_twice(m):
    key = m.random.key(0)
    m.random.split(key)
    return m.random.split(key)


def unpack_split(m):
    k1, k2 = m.random.split(m.random.key(0))
    return m.random.normal(k1) + m.random.uniform(k2)


def index_twice(m):
    keys = m.random.split(m.random.key(0))
    m.random.normal(keys[0])
    return m.random.normal(keys[0])


def fold_in_then_use(m):
    key = m.random.key(0)
    a = m.random.normal(m.random.fold_in(key, 1)) + m.random.normal(m.random.fold_in(key, 2))
    return a + m.random.normal(key)


def clone_then_use(m):
    key = m.random.key(0)
    return m.random.normal(m.random.clone(key)) + m.random.normal(key)


def key_data_then_use(m):
    key = m.random.key(0)
    m.random.key_data(key)
    m.random.normal(key)
    return m.random.key_data(key)


def raw_key_reuse(m):
    key = m.random.PRNGKey(0)
    return m.random.normal(key) + m.random.normal(key)


def jit_reuse(m):
    return m.jit(lambda k: m.random.normal(k) + m.random.normal(k))(m.random.key(0))


def jit_split_then_reuse(m):
    def f(k):
        m.random.split(k)
        return m.random.normal(k)
    return m.jit(f)(m.random.key(0))


def jit_called_twice(m):
    key = m.random.key(0)
    f = m.jit(lambda k: m.random.normal(k))
    f(key)
    return f(key)


def jit_forwards(m):
    key = m.random.key(0)
    f = m.jit(lambda k: k)
    f(key)
    return m.random.normal(f(key))


def jit_returns_split(m):
    keys = m.jit(lambda k: m.random.split(k))(m.random.key(0))
    return m.random.normal(keys[0]) + m.random.normal(keys[1])


def jit_clone(m):
    return m.jit(lambda k: m.random.normal(m.random.clone(k)) + m.random.normal(k))(
        m.random.key(0))


def jit_closure_twice(m):
    key = m.random.key(0)
    return m.jit(lambda: m.random.normal(key) + m.random.normal(key))()


def nested_jit(m):
    g = m.jit(lambda k: m.random.normal(k))
    return m.jit(lambda k: g(k) + g(k))(m.random.key(0))


def cond_both_branches(m):
    def f(key, p):
        return m.lax.cond(p, lambda k: m.random.normal(k), lambda k: m.random.uniform(k), key)
    return m.jit(f)(m.random.key(0), True)


def cond_closure_both_branches(m):
    def f(key, p):
        return m.lax.cond(p, lambda: m.random.normal(key), lambda: m.random.uniform(key))
    return m.jit(f)(m.random.key(0), True)


def cond_then_reuse(m):
    def f(key, p):
        x = m.lax.cond(p, lambda k: m.random.normal(k), lambda k: 0.0, key)
        return x + m.random.normal(key)
    return m.jit(f)(m.random.key(0), True)


def eager_cond_then_reuse(m):
    key = m.random.key(0)
    m.lax.cond(True, lambda k: m.random.normal(k), lambda k: m.random.uniform(k), key)
    return m.random.normal(key)


def loop_closure_reuse(m):
    def f(key):
        return m.lax.fori_loop(0, 3, lambda i, x: x + m.random.normal(key), 0.0)
    return m.jit(f)(m.random.key(0))


def loop_carry_split(m):
    def body(i, c):
        key, x = c
        key, sub = m.random.split(key)
        return key, x + m.random.normal(sub)
    return m.jit(lambda k: m.lax.fori_loop(0, 3, body, (k, 0.0))[1])(m.random.key(0))


def loop_carry_reuse(m):
    def body(i, c):
        key, x = c
        return key, x + m.random.normal(key)
    return m.jit(lambda k: m.lax.fori_loop(0, 3, body, (k, 0.0))[1])(m.random.key(0))


def scan_carry_reuse(m):
    return m.jit(lambda k: m.lax.scan(lambda c, _: (c, m.random.normal(c)), k, None,
                                      length=3)[1])(m.random.key(0))


def scan_over_keys(m):
    return m.jit(lambda k: m.lax.scan(lambda c, kk: (c + m.random.normal(kk), None), 0.0,
                                      m.random.split(k, 3))[0])(m.random.key(0))


def while_carry_reuse(m):
    def f(key):
        return m.lax.while_loop(lambda c: c[1] < 3,
                                lambda c: (c[0], c[1] + m.random.normal(c[0])), (key, 0.0))[1]
    return m.jit(f)(m.random.key(0))


def jit_static_args_twice(m):
    f = m.jit(lambda k, n: m.random.normal(k, (n,)), static_argnums=1)
    key = m.random.key(0)
    f(key, 2)
    return f(key, 3)


def jit_forwarded_key_used(m):
    key, _ = m.jit(lambda k: (k, m.random.normal(k)))(m.random.key(0))
    return m.random.normal(key)


def traced_index_then_static(m):
    def f(keys, i):
        return m.random.normal(keys[i]) + m.random.normal(keys[0])
    return m.jit(f)(m.random.split(m.random.key(0), 3), 1)


def switch_all_branches(m):
    def f(key, i):
        return m.lax.switch(i, [lambda k: m.random.normal(k), lambda k: m.random.uniform(k),
                                lambda k: 0.0], key)
    return m.jit(f)(m.random.key(0), 1)


def while_closure_reuse(m):  # fori_loop with traced bounds is a while loop
    def f(key, n):
        return m.lax.fori_loop(0, n, lambda i, x: x + m.random.normal(key), 0.0)
    return m.jit(f)(m.random.key(0), 3)


def eager_scan_then_reuse(m):
    def body(c, _):
        c, s = m.random.split(c)
        return c, m.random.normal(s)
    key = m.random.key(0)
    m.lax.scan(body, key, None, length=2)
    return m.random.normal(key)


def vmap_reuse(m):
    return m.vmap(lambda k: m.random.normal(k) + m.random.normal(k))(
        m.random.split(m.random.key(0), 3))


def grad_closure_reuse(m):
    key = m.random.key(0)
    return m.grad(lambda x: x * m.random.normal(key) + m.random.normal(key))(1.0)


CASES = [
    (eager_reuse, True), (split_then_reuse, True), (split_twice, True),
    (unpack_split, False), (index_twice, True), (fold_in_then_use, False),
    (clone_then_use, False), (key_data_then_use, False), (raw_key_reuse, False),
    (jit_reuse, True), (jit_split_then_reuse, True),
    (jit_called_twice, True), (jit_forwards, False), (jit_returns_split, False),
    (jit_clone, False), (jit_closure_twice, True), (nested_jit, True),
    (cond_both_branches, False), (cond_closure_both_branches, False),
    (cond_then_reuse, True), (eager_cond_then_reuse, True), (loop_closure_reuse, True),
    (loop_carry_split, False), (loop_carry_reuse, True), (scan_carry_reuse, True),
    (scan_over_keys, False), (while_carry_reuse, True), (vmap_reuse, True),
    (grad_closure_reuse, True), (jit_static_args_twice, True), (jit_forwarded_key_used, True),
    (traced_index_then_static, True), (switch_all_branches, False),
    (while_closure_reuse, True), (eager_scan_then_reuse, True),
]


def _outcome(lib, program):
    module, error = LIBS[lib]
    with module.debug_key_reuse(True):
        try:
            out = program(module)
        except error as e:
            return "KeyReuseError", str(e)
    return "ok", np.asarray(out)


@pytest.mark.parametrize("program,raises", CASES, ids=[c[0].__name__ for c in CASES])
def test_same_outcome_as_jax(program, raises):
    want, jax_detail = _outcome("jax", program)
    got, mlax_detail = _outcome("mlax", program)
    assert want == ("KeyReuseError" if raises else "ok"), jax_detail
    assert got == want, mlax_detail
    if want == "ok":  # checking does not change the numbers
        np.testing.assert_allclose(mlax_detail, jax_detail, rtol=1e-6)


def test_messages():
    """JAX's wording: eagerly the argument's index, under jit the op's."""
    for program, text in ((eager_reuse, "Previously-consumed key passed to jit-compiled "
                           "function at index 0"),
                          (jit_reuse, "In jit, argument 0 is already consumed."),
                          (loop_closure_reuse, "scan body function leads to key reuse when "
                           "repeatedly executed")):
        for lib in LIBS:
            kind, message = _outcome(lib, program)
            assert kind == "KeyReuseError" and text in message, (lib, message)


def test_off_by_default_and_config_switch():
    assert mlax.config.jax_debug_key_reuse is False is jax.config.jax_debug_key_reuse
    # Off: reuse goes unchecked, and the numbers are JAX's.
    np.testing.assert_allclose(np.asarray(eager_reuse(mlax)), np.asarray(eager_reuse(jax)),
                               rtol=1e-6)
    np.testing.assert_allclose(np.asarray(jit_reuse(mlax)), np.asarray(jit_reuse(jax)),
                               rtol=1e-6)
    mlax.config.update("jax_debug_key_reuse", True)
    try:
        with pytest.raises(mlax_errors.KeyReuseError):
            eager_reuse(mlax)
    finally:
        mlax.config.update("jax_debug_key_reuse", False)
    assert mlax.debug_key_reuse.value is False
    with pytest.raises(TypeError):
        mlax.config.update("jax_debug_key_reuse", "yes")
    assert issubclass(mlax_errors.KeyReuseError, TypeError)


def test_key_state_does_not_leak_out_of_the_switch():
    """Keys consumed while checking was on are usable once it is off."""
    key = mlax.random.key(0)
    with mlax.debug_key_reuse(True):
        mlax.random.normal(key)
    np.testing.assert_allclose(np.asarray(mlax.random.normal(key)),
                               np.asarray(jax.random.normal(jax.random.key(0))), rtol=1e-6)


@pytest.mark.parametrize("sampler", ["gamma", "poisson"])
def test_samplers_with_loops(sampler):
    """Samplers that loop over split keys (and poisson's two algorithms on
    one key) take a fresh key, and refuse it a second time, as JAX's."""
    for lib in LIBS:
        module, error = LIBS[lib]
        draw = lambda k: getattr(module.random, sampler)(k, 3.0, (4,))  # noqa: E731
        with module.debug_key_reuse(True):
            key = module.random.key(0)
            values = np.asarray(draw(key))
            with pytest.raises(error):
                draw(key)
        if lib == "jax":
            want = values
    np.testing.assert_allclose(values, want, rtol=1e-5)

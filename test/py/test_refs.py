"""Mutable array references (mlax.ref: new_ref, Ref, get/set/swap/addupdate,
freeze, empty_ref, free_ref) against JAX's: each scenario is written once
over a namespace (JAX's or mlax's) and both runs are compared, values,
dtypes and weak types, eagerly, under jit, in control flow and under
grad/jvp/vjp/vmap; errors by class and message."""
import types

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mlax
import mlax.numpy as mnp
from _helpers import assert_tree_like

JAX = types.SimpleNamespace(jax=jax, np=jnp, lax=jax.lax, ref=jax.ref, random=jax.random)
MLAX = types.SimpleNamespace(jax=mlax, np=mnp, lax=mlax.lax, ref=mlax.ref, random=mlax.random)


def eager_basics(L):
    j, np_ = L.jax, L.np
    out = [j.new_ref(1.0)[...], j.new_ref(3)[...], j.new_ref(np.arange(3))[...],
           j.new_ref(np_.ones((2, 3), np_.int8))[...]]
    x = j.new_ref(np_.zeros(3))
    out.append(x[1])
    x[1] += 5.
    x[0:2] = np_.array([7., 8.], np.float32)
    out += [x[...], x[-1]]
    out.append(L.ref.swap(x, 1, 10.))
    L.ref.addupdate(x, 2, 1.)
    L.ref.set(x, 0, np.float32(9.))
    out += [L.ref.get(x), L.ref.get(x, 2), x.shape, x.ndim, x.size, x.dtype == np.float32, len(x)]
    m = j.new_ref(np_.arange(6.).reshape(2, 3))
    m[1, 1:] = np_.array([-1., -2.], np.float32)
    out += [m[...], m[0], m[:, 2]]
    w = j.new_ref(2.0)
    w[...] = np_.float32(3.)
    out.append(w[...])  # read as the Ref's type: weak
    out.append(L.ref.freeze(x))
    return out


def jit_refs(L):
    j, np_ = L.jax, L.np
    x_ref = j.new_ref(np_.zeros(3))

    @j.jit
    def f():  # the guide's first example: a Ref closed over
        x_ref[1] += 1.
    f()
    f()

    @j.jit
    def g(r, v):
        r[...] += v
        return r[...].sum()
    a = j.new_ref(np_.ones(2))
    out = [x_ref[...], g(a, 1.), g(a, 2.), a[...]]
    b = j.new_ref(np_.zeros(2))
    out.append(g(b, 3.))  # a second Ref of the same type: the same program
    out.append(b[...])
    out.append(j.jit(lambda d: d["r"][...] * 2)({"r": a}))

    def local(x):
        r = j.new_ref(x)
        r[0] = 5.
        return r[...] + L.ref.freeze(r)
    out.append(j.jit(local)(np_.zeros(2)))

    def from_empty():
        r = j.empty_ref(j.ShapeDtypeStruct((2,), np_.float32))
        r[...] = np_.ones(2)
        return r[...]
    out.append(j.jit(from_empty)())
    out.append(j.jit(lambda i: x_ref[i])(1))
    j.jit(lambda i, v: x_ref.__setitem__(i, v))(2, 7.)
    out.append(x_ref[...])
    inner = j.jit(lambda q, v: q.__setitem__(0, v))
    j.jit(lambda v: inner(x_ref, v))(-4.)  # a Ref through an inner jit
    out.append(x_ref[...])
    return out


def control_flow(L):
    j, np_, lax = L.jax, L.np, L.lax
    r = j.new_ref(np_.zeros(3))

    def body(i, c):
        r[i] += c
        return c + 1.
    out = [lax.fori_loop(0, 3, body, 1.), r[...]]
    out.append(j.jit(lambda n: lax.fori_loop(0, n, body, 1.))(2))  # a while loop
    out.append(r[...])

    def sbody(c, x):
        r[...] += x
        return c + r[0], r[1]
    out += [j.jit(lambda: lax.scan(sbody, 0., np_.arange(3.)))(), r[...]]

    def wb(c):
        r[0] += 1.
        return c + 1
    out += [lax.while_loop(lambda c: c < 3, wb, 0), r[...]]
    lax.cond(True, lambda: r.__setitem__(1, 100.), lambda: None)
    j.jit(lambda p: lax.cond(p, lambda: r.__setitem__(1, -1.),
                             lambda: r.__setitem__(2, -2.)))(False)
    out.append(r[...])
    lax.switch(1, [lambda: r.__setitem__(0, 1.), lambda: r.__setitem__(0, 2.)])
    lax.cond(True, lambda q: q.__setitem__(2, 7.), lambda q: None, r)  # a Ref operand
    out.append(r[...])

    def nested(c, x):  # a cond writing inside a scan's body
        lax.cond(x > 0, lambda: r.__setitem__(0, r[0] + x), lambda: None)
        return c, None
    j.jit(lambda: lax.scan(nested, 0., np_.array([1., -1., 2.])))()
    out.append(r[...])

    def local(x):
        q = j.new_ref(x)

        def b(i, _):
            q[...] = q[...] * x
        lax.fori_loop(0, 2, b, None)
        return q[...]
    out += [local(2.), j.grad(local)(2.)]
    return out


def transformations(L):
    j, np_, lax = L.jax, L.np, L.lax

    def g(x):  # the guide's example
        r = j.new_ref(0.)
        r[...] = np_.sin(x)
        return r[...]

    def g2(x):
        r = j.new_ref(np_.zeros(3))
        r[1] = x * 2
        r[...] += x
        return (r[...] * r[...]).sum()
    out = [j.grad(g)(1.), j.jit(j.grad(g))(1.), j.value_and_grad(g2)(1.5),
           j.jvp(g, (1.,), (2.,)), j.vjp(g2, 1.5)[1](1.), j.vmap(g)(np_.arange(3.)),
           j.vmap(g2)(np_.arange(3.)), j.grad(lambda x: j.vmap(g)(x).sum())(np_.arange(3.))]
    p = j.new_ref(0.)

    def plumbing(x):  # a Ref closed over, written with values not differentiated
        p[...] = lax.stop_gradient(x)
        return x * 3
    out += [j.grad(plumbing)(2.), p[...]]
    out.append(j.grad(lambda x: x * 2 if p[...] > 0 else x)(1.))  # eagerly, Python sees it

    def plumbing_arg(x, q):
        q[...] = lax.stop_gradient(x * 2)
        return x * x
    out += [j.jit(j.grad(plumbing_arg))(2., p), p[...]]
    out += [j.jvp(lambda x: plumbing_arg(x, p), (3.,), (1.,)), p[...]]
    b = j.new_ref(np_.zeros(3))

    def acc(x, rr):
        rr[...] += x
        return x * 2
    out += [j.vmap(acc, in_axes=(0, 0))(np_.arange(3.), b), b[...]]
    out.append(j.vmap(lambda x: x * b[...])(np_.ones((2, 3))))  # read, unmapped
    return out


@pytest.mark.parametrize("scenario", [eager_basics, jit_refs, control_flow, transformations],
                         ids=lambda s: s.__name__)
def test_like_jax(scenario):
    got, want = scenario(MLAX), scenario(JAX)
    assert_tree_like(got, want)


def test_repr_and_types():
    for init in (1.0, np.arange(3, dtype=np.int32), np.zeros((2, 2), np.float32)):
        assert repr(mlax.new_ref(init)) == repr(jax.new_ref(init))
        assert repr(mlax.new_ref(init).aval) == repr(jax.new_ref(init).aval)
        assert repr(mlax.typeof(mlax.new_ref(init))) == repr(jax.typeof(jax.new_ref(init)))
    x, y = mlax.new_ref(mnp.zeros(3)), jax.new_ref(jnp.zeros(3))
    x[1] = 2.
    y[1] = 2.
    assert repr(x) == repr(y) == "Ref([0., 2., 0.], dtype=float32)"
    assert isinstance(x, mlax.Ref) and isinstance(x.aval, mlax.ref.AbstractRef)
    assert mlax.free_ref(x) == jax.free_ref(y) == ()


def test_jit_compiles_once_per_type():
    a = mlax.new_ref(mnp.ones(2))

    @mlax.jit
    def g(r, v):
        r[...] += v
    for v in (1., 2., 3.):
        g(a, v)
    g(mlax.new_ref(mnp.zeros(2)), 1.)
    assert g._ref_twin.cache_misses == 1
    np.testing.assert_array_equal(np.asarray(a[...]), [7., 7.])
    c = mlax.new_ref(mnp.zeros(3))

    @mlax.jit
    def f():
        c[...] += 1.
    for _ in range(3):
        f()
    assert f._ref_twin.cache_misses == 1  # the Ref's value is an input, not a constant
    np.testing.assert_array_equal(np.asarray(c[...]), [3., 3., 3.])


def test_grad_against_finite_differences():
    def loss(x):
        r = mlax.new_ref(mnp.zeros(3))

        def body(i, _):
            r[i] = mnp.sin(x * (i + 1.))
        mlax.lax.fori_loop(0, 3, body, None)
        return (r[...] ** 2).sum()
    x, eps = 0.7, 1e-3
    fd = (loss(x + eps) - loss(x - eps)) / (2 * eps)
    np.testing.assert_allclose(float(mlax.grad(loss)(x)), float(fd), rtol=1e-2)


def _error(fun):
    try:
        fun()
    except Exception as e:  # noqa: BLE001 (the class is what is compared)
        return type(e), str(e)
    raise AssertionError("no error")


def _errors(L):
    j, np_ = L.jax, L.np
    a = j.new_ref(np_.ones(2))
    p = j.new_ref(0.)
    cases = {
        "dtype": lambda: a.__setitem__(0, 1),
        "shape": lambda: a.__setitem__(..., np_.ones(3)),
        "return": lambda: j.jit(lambda r: r)(a),
        "return local": lambda: j.jit(lambda: j.new_ref(1.))(),
        "alias": lambda: j.jit(lambda r, s: r[...] + s[...])(a, a),
        "closed and arg": lambda: j.jit(lambda r: r[...] + a[...])(a),
        "differentiated": lambda: j.grad(lambda x: (p.__setitem__(..., x), x)[1])(2.),
        "vmap write": lambda: j.vmap(lambda x: p.__setitem__(..., x))(np_.arange(3.)),
        "new_ref list": lambda: j.new_ref([1., 2.]),
        "iterate": lambda: list(a),
        "bool under jit": lambda: j.jit(lambda x: x * 2 if p[...] > 0 else x)(1.),
    }
    return {k: _error(f) for k, f in cases.items()}


def test_errors_like_jax():
    got, want = _errors(MLAX), _errors(JAX)
    for case in want:
        assert got[case][0].__name__ == want[case][0].__name__, (case, got[case], want[case])
    same_message = ("dtype", "shape", "differentiated", "vmap write", "new_ref list", "iterate",
                    "return", "alias", "closed and arg")
    for case in same_message:
        assert got[case][1].split("Transforms")[0] == want[case][1].split("Transforms")[0], \
            (case, got[case][1], want[case][1])
    # (JAX's goes on with the line the Ref was made on)
    assert got["return local"][1] == want["return local"][1].split("\n")[0]


def test_dead_ref_and_unsupported():
    escaped = []

    @mlax.jit
    def leak(x):
        escaped.append(mlax.new_ref(x))
        return x
    leak(1.)
    with pytest.raises(mlax.errors.UnexpectedTracerError, match="after that trace ended"):
        escaped[0][...]
    p = mlax.new_ref(0.)
    with pytest.raises(TypeError, match="mutable array reference"):
        mlax.make_jaxpr(lambda r: r[...])(p)


def stateful_rng(L, random):
    np_ = L.np
    rng = random.stateful_rng(42)
    out = [rng.uniform(), rng.uniform()]
    ju = L.jax.jit(rng.uniform)
    out += [ju(), ju(), L.random.key_data(rng.key()), L.random.key_data(rng.key(2)),
            rng.random(3), rng.normal(1., 2., (2,)), rng.integers(10, size=4),
            rng.integers(3, 10, size=(2, 2))]
    out.append(L.lax.scan(lambda c, _: (c + rng.uniform(), None), 0., None, length=3)[0])
    child = random.stateful_rng(123)
    out.append(L.jax.vmap(lambda g, x: x + g.uniform())(child.split(3), np_.zeros(3)))
    out += [c.integers(0, 10, 2) for c in child.spawn(2)]
    out.append(rng._counter[...])
    return out


def test_stateful_rng_bit_for_bit():
    import jax.experimental.random as jax_random
    import mlax.experimental.random as mlax_random
    got, want = stateful_rng(MLAX, mlax_random), stateful_rng(JAX, jax_random)
    assert_tree_like(got, want, rtol=0, atol=0)
    with pytest.raises(TypeError, match="requires an explicit seed"):
        mlax.jit(lambda: mlax_random.stateful_rng().uniform())()

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

JAX = types.SimpleNamespace(jax=jax, np=jnp, lax=jax.lax, ref=jax.ref, random=jax.random,
                            export=jax.export)
MLAX = types.SimpleNamespace(jax=mlax, np=mnp, lax=mlax.lax, ref=mlax.ref, random=mlax.random,
                             export=mlax.export)


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


def _struct(s):
    return (tuple(s.shape), np.dtype(s.dtype).name, bool(getattr(s, "weak_type", False)))


def staged(L):
    """make_jaxpr, eval_shape, jit(...).trace / .lower / .compile of functions
    taking or closing over Refs: traced on the Refs' types, never reading or
    writing them; a compiled one reads and writes them when called."""
    j, np_ = L.jax, L.np
    p = j.new_ref(np_.zeros(3))

    def f(r, x):
        r[1] += x
        return r[...].sum()
    out = [_struct(j.eval_shape(f, p, 1.)), _struct(j.eval_shape(lambda x: f(p, x), 1.)),
           _struct(j.eval_shape(f, p.aval, 1.))]
    ja, jc = j.make_jaxpr(f)(p, 1.), j.make_jaxpr(lambda x: f(p, x))(1.)
    out += [repr(ja.in_avals[0]), [_struct(a) for a in ja.out_avals], len(ja.consts),
            [_struct(a) for a in jc.in_avals], len(jc.consts), jc.consts[0] is p, p[...]]
    lowered = j.jit(f).lower(p, 1.)
    out += [repr(lowered.args_info[0][0]._aval), p[...]]
    compiled = lowered.compile()
    out += [compiled(p, 2.), p[...], compiled(p, 3.), p[...]]
    out += [j.jit(lambda: f(p, 4.)).lower().compile()(), p[...]]
    traced = j.jit(f).trace(p, 1.)
    out += [repr(traced.jaxpr.in_avals[0]), repr(traced.args_info[0][0]._aval),
            traced.lower().compile()(p, 5.), p[...]]
    out.append(_error(lambda: compiled(j.new_ref(np_.zeros(4)), 1.))[0].__name__)
    by_type = j.jit(f).lower(p.aval, 1.).compile()  # (a Ref's type stands for it)
    out += [repr(by_type.args_info[0][0]._aval), by_type(p, 6.), p[...]]
    return out


def loops(L):
    """Refs as scan xs (a Ref per row), cond_fun writing Refs, and the weak
    type of a Ref a program wrote."""
    j, np_, lax = L.jax, L.np, L.lax
    m = j.new_ref(np_.arange(6.).reshape(3, 2))

    def body(c, x):
        x[...] = x[...] * 2 + c
        x[0] += 1.
        return c + x[1], x[0]
    out = [lax.scan(body, 0., m), m[...]]
    out += [j.jit(lambda: lax.scan(body, 1., m, reverse=True))(), m[...]]
    out.append(j.jit(lambda v: lax.scan(lambda c, x: (c + x[0][...].sum() * x[1], None), 0.,
                                        (m, v)))(np_.arange(3.)))
    r, s = j.new_ref(np_.zeros(3)), j.new_ref(0.)

    def cond_fun(c):  # as JAX: the writes of the evaluation ending the loop are dropped
        r[0] += 1.
        r[1] = c * 1.
        return c < 3

    def body_fun(c):
        s[...] += 10.
        return c + 1
    out += [lax.while_loop(cond_fun, lambda c: c + 1, 0), r[...]]
    out += [j.jit(lambda n: lax.while_loop(cond_fun, body_fun, n))(1), r[...], s[...]]
    error = _error(lambda: j.jit(lambda: lax.while_loop(  # JAX's error
        cond_fun, lambda c: (r.__setitem__(1, 0.), c + 1)[1], 0))())
    out.append([error[0].__name__, error[1]])
    weak = [j.new_ref(2.0) for _ in range(4)]
    j.jit(lambda: weak[0].__setitem__(..., np_.float32(3.)))()
    j.jit(lambda: weak[1].__setitem__(..., weak[1][...] * 2))()
    j.jit(lambda: weak[2][...] + 1)()  # only read: as it was
    lax.fori_loop(0, 2, lambda i, c: weak[3].__setitem__(..., weak[3][...] + 1), None)
    out += [repr(w) for w in weak] + [w[...] for w in weak]
    return out


def custom_and_remat(L):
    """Refs written inside checkpoint (with and without policies) and by
    custom_jvp / custom_vjp functions and custom_vjp's fwd."""
    j, np_, lax = L.jax, L.np, L.lax
    r = j.new_ref(np_.zeros(4))

    def ck(x):
        r[0] = lax.stop_gradient(x)
        r[1] += 1.
        return np_.sin(x) * x
    pols = j.checkpoint_policies
    out = [j.checkpoint(ck)(1.5), r[...], j.jit(j.checkpoint(ck))(0.125), r[...],
           j.checkpoint(ck, policy=pols.nothing_saveable)(0.25), r[...],
           j.jit(j.checkpoint(ck, policy=pols.everything_saveable))(0.75), r[...],
           j.jvp(j.checkpoint(ck), (0.5,), (1.,)), r[...]]

    @j.custom_jvp
    def cj(x):
        r[2] = x
        return x * 2
    cj.defjvp(lambda p, t: (cj(p[0]), t[0] * 3))
    out += [j.grad(cj)(3.), r[...], j.grad(lambda x: cj(x) * x)(2.), r[...]]

    @j.custom_vjp
    def cv(x):
        r[3] = x
        return x * 2

    def cv_fwd(x):
        r[3] = x + 100.
        return x * 2, x

    cv.defvjp(cv_fwd, lambda res, g: (g * res,))
    out += [j.jit(cv)(2.), r[...], j.grad(cv)(3.), r[...], j.jit(j.grad(cv))(4.), r[...]]
    return out


def dynamic_slices(L):
    """`ds` (a slice at a traced start) indexing Refs and arrays."""
    j, np_ = L.jax, L.np
    m = j.new_ref(np_.arange(12.).reshape(3, 4))
    v = j.new_ref(np_.zeros(5))

    def f(i):
        v[j.ds(i, 2)] = np_.ones(2)
        v[j.ds(i + 1, 2, 2)] += 3.
        x = np_.arange(10.)
        return (m[j.ds(i, 2), j.ds(1, 2)], m[1, j.ds(i, 2)], m[j.ds(i, 2)], m[j.ds(0, 2, 2)],
                m[..., j.ds(i, 3)], x[j.ds(i, 3)], x.at[j.ds(i, 2)].set(-1.), m[j.ds(2)])
    out = [f(1), v[...], j.jit(f)(1), v[...], j.jit(f)(2), j.jit(f)(7), v[...]]
    out += [repr(j.ds(1, 2)), repr(j.ds(3)), repr(j.ds(1, 2, 2)), repr(j.ds(None))]
    return out


@pytest.mark.parametrize("scenario", [eager_basics, jit_refs, control_flow, transformations,
                                      staged, loops, custom_and_remat, dynamic_slices],
                         ids=lambda s: s.__name__)
def test_like_jax(scenario):
    got, want = _strings_apart(scenario(MLAX)), _strings_apart(scenario(JAX))
    assert got[1] == want[1]
    assert_tree_like(got[0], want[0])


def _strings_apart(tree):
    """(`tree` with its strings as 0, its strings): reprs, names, compared as they are."""
    leaves, treedef = jax.tree_util.tree_flatten(tree)
    return (treedef.unflatten([0 if isinstance(x, str) else x for x in leaves]),
            [x for x in leaves if isinstance(x, str)])


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
        "fori carry": lambda: L.lax.fori_loop(0, 2, lambda i, c: c, a),
        "scan carry": lambda: L.lax.scan(lambda c, x: (c, None), a, None, length=2),
        "while carry": lambda: L.lax.while_loop(lambda c: False, lambda c: c, a),
        "scan returns a row": lambda: j.jit(lambda: L.lax.scan(lambda c, x: (c, x), 0., a))(),
        "export": lambda: L.export.export(j.jit(lambda r: r[...]))(a),
    }
    return {k: _error(f) for k, f in cases.items()}


def test_errors_like_jax():
    got, want = _errors(MLAX), _errors(JAX)
    for case in want:
        assert got[case][0].__name__ == want[case][0].__name__, (case, got[case], want[case])
    same_message = ("dtype", "shape", "differentiated", "vmap write", "new_ref list", "iterate",
                    "return", "alias", "closed and arg")
    for case in ("fori carry", "scan carry", "while carry", "scan returns a row"):
        assert "mutable array references cannot be returned" in got[case][1], got[case]
    for case in same_message:
        assert got[case][1].split("Transforms")[0] == want[case][1].split("Transforms")[0], \
            (case, got[case][1], want[case][1])
    # (JAX's goes on with the line the Ref was made on)
    assert got["return local"][1] == want["return local"][1].split("\n")[0]


def test_make_jaxpr_form():
    """A function on Refs prints with its Refs typed as such, read once at
    the start and written once at the end where changed; closed-over Refs
    are constvars (the Refs its consts)."""
    p, q = mlax.new_ref(mnp.zeros(3)), mlax.new_ref(1.)

    def f(r, x):
        r[1] += x * q[...]
        return r[...].sum()
    closed = mlax.make_jaxpr(f)(p, 2.)
    text = str(closed)
    assert text.startswith("{ lambda a:Ref{f32[]} ; b:Ref{f32[3]} c:f32[]. let"), text
    lines = text.splitlines()
    assert lines[1].strip() == "d:f32[] <- a[...]" and lines[2].strip() == "e:f32[3] <- b[...]"
    assert lines[-2].strip().startswith("b[...] <- "), text
    assert sum("<-" in line for line in lines) == 3  # (q is only read)
    assert closed.consts == [q] and [repr(a) for a in closed.in_avals] == \
        ["Ref{float32[3]}", "ShapedArray(float32[], weak_type=True)"]
    assert np.asarray(p[...]).tolist() == [0., 0., 0.]  # (traced, not run)


def test_not_threaded_yet():
    """What JAX supports and mlax refuses (NotImplementedError): a Ref
    written by a custom_jvp rule traced lazily (under jvp/grad), by a
    custom_vjp bwd, by a checkpointed function differentiated in reverse
    mode (JAX writes it again in the backward pass), by a shard_map body."""
    r = mlax.new_ref(mnp.zeros(2))

    @mlax.custom_jvp
    def f(x):
        return x * 2

    def f_jvp(p, t):
        r[0] = p[0]
        return f(p[0]), t[0] * 2
    f.defjvp(f_jvp)

    @mlax.custom_vjp
    def g(x):
        return x * 2

    def g_bwd(res, ct):
        r[1] = ct
        return (ct * 2,)
    g.defvjp(lambda x: (x * 2, None), g_bwd)

    def h(x):
        r[0] += 1.
        return mnp.sin(x)
    mesh = mlax.make_mesh((1,), ("i",))
    sm = mlax.shard_map(lambda x: (r.__setitem__(0, x.sum()), x)[1], mesh=mesh,
                        in_specs=mlax.sharding.PartitionSpec(),
                        out_specs=mlax.sharding.PartitionSpec())
    for fun in (lambda: mlax.jvp(f, (1.,), (1.,)), lambda: mlax.grad(g)(1.),
                lambda: mlax.grad(mlax.checkpoint(h))(1.), lambda: sm(mnp.ones(2))):
        with pytest.raises(NotImplementedError, match="mutable array reference|Ref"):
            fun()
    assert np.asarray(r[...]).tolist() == [0., 0.]


def test_dead_ref():
    escaped = []

    @mlax.jit
    def leak(x):
        escaped.append(mlax.new_ref(x))
        return x
    leak(1.)
    with pytest.raises(mlax.errors.UnexpectedTracerError, match="after that trace ended"):
        escaped[0][...]


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

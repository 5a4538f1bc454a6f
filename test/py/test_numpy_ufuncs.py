"""mnp.ufunc (jax.numpy's ufunc objects and their methods, frompyfunc) and the
other jax.numpy functions mlax.numpy gained with them (i0, kaiser, nextafter,
histogramdd/2d, packbits, put, place, frombuffer, load/save, ...), against
jax.numpy: values, dtypes, shapes and exception classes, eagerly and under
mlax.jit, with grad and vmap where JAX supports them."""
from __future__ import annotations

import io

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from _helpers import MODES, jgrad, jvmap, make_input, run

import mlax
import mlax.numpy as mnp

F32 = np.float32
X = make_input((3, 4), F32)          # mixed signs
XI = make_input((3, 4), np.int32)
XB = make_input((3, 4), np.bool_)
WHERE = np.array([True, False, True, True])

BINARY = ["add", "multiply", "subtract", "maximum", "minimum", "logaddexp", "logaddexp2",
          "bitwise_and", "bitwise_or", "bitwise_xor", "logical_and", "logical_or",
          "logical_xor"]
_INPUT = {"bitwise_and": XI, "bitwise_or": XI, "bitwise_xor": XI, "logical_and": XB,
          "logical_or": XI, "logical_xor": XB}


def _inp(name):
    return _INPUT.get(name, X)


def check(out, ref, rtol=2e-6, atol=2e-6):
    """out (mlax) is JAX's ref: same structure, dtype, shape and values."""
    if isinstance(ref, (tuple, list)):
        assert isinstance(out, (tuple, list)) and len(out) == len(ref)
        for o, r in zip(out, ref):
            check(o, r, rtol, atol)
        return
    assert isinstance(out, mlax.Array), type(out)
    assert (out.dtype, out.shape) == (ref.dtype, ref.shape), \
        f"{out.dtype}{out.shape} != jax's {ref.dtype}{ref.shape}"
    np.testing.assert_allclose(np.asarray(out), np.asarray(ref), rtol=rtol, atol=atol)


def test_ufunc_objects_match_jax():
    jax_ufuncs = sorted(n for n in dir(jnp) if isinstance(getattr(jnp, n), jnp.ufunc))
    ours = sorted(n for n in dir(mnp) if isinstance(getattr(mnp, n), mnp.ufunc))
    assert ours == jax_ufuncs
    for name in ours:
        m, j = getattr(mnp, name), getattr(jnp, name)
        assert (m.nin, m.nout, m.nargs, m.__name__) == (j.nin, j.nout, j.nargs, j.__name__)
        if j.identity is None or m.identity is None:
            assert m.identity is j.identity, name
        else:
            assert m.identity == j.identity and type(m.identity) is type(j.identity), name
    assert repr(mnp.add) == "<mnp.ufunc 'add'>"
    assert mnp.add == mnp.add and hash(mnp.add) == hash(mnp.add) and mnp.add != mnp.multiply
    # Calls are unchanged, and the objects work as static jit arguments.
    check(mnp.add(X, 1), jnp.add(X, 1))
    f = mlax.jit(lambda op, x: op(x, x), static_argnums=0)
    check(f(mnp.maximum, X), jnp.maximum(X, X))
    with pytest.raises(NotImplementedError):
        mnp.add(X, X, out=X)
    with pytest.raises(NotImplementedError):
        mnp.add(X, X, where=WHERE)


def test_lax_reduce_accepts_ufunc_objects():
    for mode in MODES:
        check(run(lambda x: mlax.lax.reduce(x, 0.0, mnp.add, (0,)), (X,), mode),
              jax.lax.reduce(X, 0.0, jnp.add, (0,)))
    check(mlax.lax.reduce(XI, np.int32(-9), mnp.maximum, (1,)),
          jax.lax.reduce(XI, np.int32(-9), jnp.maximum, (1,)))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", BINARY)
def test_reduce(name, mode):
    m, j = getattr(mnp, name), getattr(jnp, name)
    x = _inp(name)
    initial = j.identity if j.identity is not None else -1
    kw = [dict(axis=1, keepdims=True), dict(axis=None, where=WHERE, initial=initial)]
    for k in kw:
        check(run(lambda a: m.reduce(a, **k), (x,), mode), jax.jit(lambda a: j.reduce(a, **k))(x),
              rtol=1e-5)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", ["add", "multiply", "subtract", "maximum", "logaddexp",
                                  "bitwise_xor", "logical_or"])
def test_accumulate(name, mode):
    m, j = getattr(mnp, name), getattr(jnp, name)
    x = _inp(name)
    check(run(lambda a: m.accumulate(a, axis=1), (x,), mode),
          jax.jit(lambda a: j.accumulate(a, axis=1))(x), rtol=1e-5)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", ["add", "subtract", "maximum", "logical_and"])
def test_outer(name, mode):
    m, j = getattr(mnp, name), getattr(jnp, name)
    a, b = _inp(name)[0], _inp(name)[1:, :2]
    check(run(m.outer, (a, b), mode), jax.jit(j.outer)(a, b))


IDX = np.array([0, 2, 0, 3])  # a repeated index: updates accumulate


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", ["add", "multiply", "subtract", "maximum", "logical_or"])
def test_at(name, mode):
    m, j = getattr(mnp, name), getattr(jnp, name)
    x, b = _inp(name)[0], _inp(name)[1]
    check(run(lambda a, v: m.at(a, IDX, v, inplace=False), (x, b), mode),
          jax.jit(lambda a, v: j.at(a, IDX, v, inplace=False))(x, b))


def test_at_forms_and_bool_add():
    check(mnp.negative.at(X, (1, IDX[:2]), inplace=False),
          jnp.negative.at(X, (1, IDX[:2]), inplace=False))
    check(mnp.add.at(XB[0], IDX, True, inplace=False), jnp.add.at(XB[0], IDX, True, inplace=False))
    # A slice in the index (JAX's jitted at rejects one): as numpy.maximum.at.
    expected = X.copy()
    np.maximum.at(expected, (slice(None), 1), 0.5)
    np.testing.assert_array_equal(mnp.maximum.at(X, (slice(None), 1), 0.5, inplace=False),
                                  expected)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", ["add", "maximum"])
def test_reduceat(name, mode):
    m, j = getattr(mnp, name), getattr(jnp, name)
    ind = np.array([0, 2, 1])
    check(run(lambda a, i: m.reduceat(a, i, axis=1), (X, ind), mode),
          jax.jit(lambda a, i: j.reduceat(a, i, axis=1))(X, ind))


def test_ufunc_errors():
    cases = [
        lambda np_: np_.maximum.reduce(X, where=WHERE),          # no identity, no initial
        lambda np_: np_.add.reduce(X, where=np.ones(4)),         # non-bool where
        lambda np_: np_.negative.reduce(X),                      # unary
        lambda np_: np_.negative.outer(X, X),
        lambda np_: np_.add.at(X, IDX, 1.0),                     # inplace=True
        lambda np_: np_.maximum.reduce(np.zeros((0, 2), F32)),  # empty, no identity
        lambda np_: np_.subtract.accumulate(X, axis=None),
        lambda np_: np_.add.reduceat(X, np.array([[0]])),
        lambda np_: np_.bitwise_and.reduce(X),                   # float
    ]
    for case in cases:
        with pytest.raises(Exception) as theirs:
            case(jnp)
        with pytest.raises(type(theirs.value)):
            case(mnp)
    # (JAX's reduce rejects an array out= as an unhashable static argument.)
    with pytest.raises(NotImplementedError):
        mnp.add.reduce(X, out=X)


def test_frompyfunc():
    m = mnp.frompyfunc(lambda a, b: a * b + 1, nin=2, nout=1, identity=0)
    j = jnp.frompyfunc(lambda a, b: a * b + 1, nin=2, nout=1, identity=0)
    assert isinstance(m, mnp.ufunc) and (m.nin, m.nout, m.identity) == (2, 1, 0)
    check(m(X, X[0]), j(X, X[0]))
    check(m.reduce(X, axis=1), j.reduce(X, axis=1), rtol=1e-5)
    check(mlax.jit(lambda a: m.accumulate(a))(X), j.accumulate(X), rtol=1e-5)


def test_grad_and_vmap():
    cases = [
        (lambda a: mnp.add.reduce(a * a).sum(), lambda a: jnp.add.reduce(a * a).sum()),
        (lambda a: mnp.subtract.reduce(a, axis=1).sum(), lambda a: jnp.subtract.reduce(a, axis=1).sum()),
        (lambda a: mnp.maximum.accumulate(a, axis=1).sum(),
         lambda a: jnp.maximum.accumulate(a, axis=1).sum()),
        (lambda a: mnp.logaddexp.reduce(a, axis=None), lambda a: jnp.logaddexp.reduce(a, axis=None)),
        (lambda a: mnp.multiply.outer(a[0], a[1]).sum(), lambda a: jnp.multiply.outer(a[0], a[1]).sum()),
        (lambda a: mnp.maximum.at(a, IDX, 0.0, inplace=False).sum(),
         lambda a: jnp.maximum.at(a, IDX, 0.0, inplace=False).sum()),
    ]
    for mf, jf in cases:
        check(mlax.grad(mf)(X), jgrad(jf)(X), rtol=1e-5)
    vcases = [
        (lambda a: mnp.add.reduce(a), lambda a: jnp.add.reduce(a)),
        (lambda a: mnp.maximum.accumulate(a), lambda a: jnp.maximum.accumulate(a)),
        (lambda a: mnp.minimum.outer(a, a[:2]), lambda a: jnp.minimum.outer(a, a[:2])),
        (lambda a: mnp.add.at(a, IDX, 1.0, inplace=False),
         lambda a: jnp.add.at(a, IDX, 1.0, inplace=False)),
    ]
    for mf, jf in vcases:
        check(mlax.vmap(mf)(X), jvmap(jf)(X), rtol=1e-5)


# ---------------------------------------------------------------------------
# The other functions
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("mode", MODES)
def test_i0_nextafter_kaiser(mode):
    check(run(mnp.i0, (X,), mode), jax.jit(jnp.i0)(X), rtol=1e-5)
    check(run(mnp.nextafter, (X, 0.0), mode), jax.jit(jnp.nextafter)(X, 0.0))
    check(run(mnp.nextafter, (XI, XI[::-1]), mode), jax.jit(jnp.nextafter)(XI, XI[::-1]))
    if mode == "jit":
        check(mnp.kaiser(7, 3.0), jnp.kaiser(7, 3.0), rtol=1e-5)
        check(mnp.kaiser(1, 3.0), jnp.kaiser(1, 3.0))
    else:
        x = np.array([0.0, 1.5, -2.0], F32)
        check(mlax.grad(lambda v: mnp.i0(v).sum())(x), jgrad(lambda v: jnp.i0(v).sum())(x),
              rtol=1e-5)
        with pytest.raises(ValueError):
            mnp.i0(np.ones(2, np.complex64))


SAMPLE = make_input((20, 3), F32, seed=1)
W = make_input((20,), F32, "pos")
RANGE = [(-1, 1), (-2, 2)]

# Composite functions: every case under mlax.jit against one jitted JAX
# program, and the first case eagerly too.


def _check_cases(cases, rtol=1e-5):
    for i, (mf, jf, args) in enumerate(cases):
        ref = jax.jit(jf)(*args)
        check(mlax.jit(mf)(*args), ref, rtol=rtol)
        if i == 0:
            check(mf(*args), ref, rtol=rtol)


def test_histogramdd_2d():
    _check_cases([
        (lambda s, w: mnp.histogramdd(s, bins=[2, 3, 4], weights=w, density=True),
         lambda s, w: jnp.histogramdd(s, bins=[2, 3, 4], weights=w, density=True), (SAMPLE, W)),
        (lambda x, y: mnp.histogram2d(x, y, bins=4, range=RANGE),
         lambda x, y: jnp.histogram2d(x, y, bins=4, range=RANGE), (SAMPLE[:, 0], SAMPLE[:, 1])),
    ])
    with pytest.raises(ValueError):
        mnp.histogramdd(SAMPLE, bins=[2, 3])


BITS = make_input((2, 11), np.bool_)
PACKED = np.asarray(jnp.packbits(BITS, axis=1))


def test_packbits_unpackbits():
    kw = dict(axis=1, bitorder="little")
    _check_cases([
        (mnp.packbits, jnp.packbits, (BITS,)),
        (lambda b: mnp.packbits(b, **kw), lambda b: jnp.packbits(b, **kw), (BITS,)),
        (mnp.unpackbits, jnp.unpackbits, (PACKED,)),
        (lambda p: mnp.unpackbits(p, **kw), lambda p: jnp.unpackbits(p, **kw), (PACKED,)),
        (lambda p: mnp.unpackbits(p, axis=1, count=11),
         lambda p: jnp.unpackbits(p, axis=1, count=11), (PACKED,)),
        (lambda p: mnp.unpackbits(p, axis=1, count=20),
         lambda p: jnp.unpackbits(p, axis=1, count=20), (PACKED,)),
    ])
    for f, args in [(lambda m: m.packbits, (X,)), (lambda m: m.unpackbits, (XI,)),
                    (lambda m: m.packbits, (XI, None, "middle"))]:
        with pytest.raises(Exception) as theirs:
            f(jnp)(*args)
        with pytest.raises(type(theirs.value)):
            f(mnp)(*args)


def test_put_place():
    ind, vals = np.array([0, -5, 13]), np.array([-1, -2])

    def put(m, put_mode):
        return lambda a, i: m.put(a, i, vals, mode=put_mode, inplace=False)

    _check_cases([
        (lambda a, m: mnp.place(a, m, np.array([50, 60]), inplace=False),
         lambda a, m: jnp.place(a, m, np.array([50, 60]), inplace=False), (XI, XI > 0)),
        *[(put(mnp, pm), put(jnp, pm), (XI, ind)) for pm in (None, "wrap")],
        (lambda a, i: mnp.put_along_axis(a, i, 7, axis=None, inplace=False),
         lambda a, i: jnp.put_along_axis(a, i, 7, axis=None, inplace=False),
         (XI, np.array([1, 3]))),
    ])


def test_put_place_errors():
    cases = [lambda m: m.put(XI, 0, 1), lambda m: m.place(XI, XI > 0, 1),
             lambda m: m.put_along_axis(XI, np.zeros((3, 1), int), 1, 1),
             lambda m: m.place(XI, XB[0], 1, inplace=False),
             lambda m: m.place(XI, XB, np.array([], np.int32), inplace=False),
             lambda m: m.put(XI, 0, 1, mode="bad", inplace=False),
             lambda m: m.put_along_axis(XI, np.zeros(3, int), 1, 1, inplace=False)]
    for case in cases:
        with pytest.raises(Exception) as theirs:
            case(jnp)
        with pytest.raises(type(theirs.value)):
            case(mnp)


def test_host_io_and_printing():
    check(mnp.frombuffer(b"\x01\x02\x03\x04", dtype=np.uint8),
          jnp.frombuffer(b"\x01\x02\x03\x04", dtype=np.uint8))
    check(mnp.fromstring("1 2 3", dtype=int, sep=" "), jnp.fromstring("1 2 3", dtype=int, sep=" "))
    for name in ("fromfile", "fromiter"):
        with pytest.raises(NotImplementedError):
            getattr(mnp, name)([1, 2])
    f = io.BytesIO()
    mnp.save(f, mnp.asarray(X).astype(mnp.bfloat16))
    f.seek(0)
    check(mnp.load(f), jnp.asarray(X).astype(jnp.bfloat16))
    f = io.BytesIO()
    mnp.savez(f, a=X)
    f.seek(0)
    np.testing.assert_array_equal(mnp.load(f)["a"], X)
    with mnp.printoptions(precision=2):
        assert mnp.get_printoptions()["precision"] == 2
        assert mnp.array_str(mnp.asarray(X)) == jnp.array_str(jnp.asarray(X))
        mnp.set_printoptions(precision=3)  # (undone as the block exits)
        assert np.get_printoptions()["precision"] == 3
    assert mnp.array_repr(np.arange(3)) == jnp.array_repr(np.arange(3))
    assert mnp.euler_gamma == jnp.euler_gamma and mnp.ComplexWarning is jnp.ComplexWarning
    check(mnp.from_dlpack(np.arange(3.0, dtype=F32)), jnp.from_dlpack(np.arange(3.0, dtype=F32)))


def test_einsum_path():
    ops = (np.ones((2, 3)), np.ones((3, 100)), mnp.ones((100, 5)))
    jops = tuple(np.asarray(o) for o in ops)
    for optimize in ("optimal", False, True):
        ours, theirs = (mnp.einsum_path("ij,jk,kl", *ops, optimize=optimize),
                        jnp.einsum_path("ij,jk,kl", *jops, optimize=optimize))
        assert ours[0] == theirs[0]

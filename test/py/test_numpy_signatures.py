"""mlax.numpy's functions take jax.numpy's parameters: the same positional
parameters in the same order (a call written for JAX, or for NumPy, means
the same), and JAX's keyword-only ones. The gaps left are listed below, so
that a new one fails here and a closed one is struck from the list."""
import inspect

import numpy as np
import pytest

import jax
import jax.numpy as jnp

import mlax
import mlax.numpy as mnp

# Parameters of jax.numpy functions that mlax.numpy's lack (or names
# differently at that position): none left. `out_sharding` is taken as None
# only (mlax has no sharding yet; any other value is a NotImplementedError,
# see test_out_sharding_other_than_none_is_not_implemented).
KNOWN_GAPS = {}


def _gaps(jf, mf):
    """JAX's parameters `mf` does not take as `jf` does."""
    jp, mp = inspect.signature(jf).parameters, inspect.signature(mf).parameters
    if any(q.kind == q.VAR_KEYWORD for q in mp.values()):
        return set()
    star = any(q.kind == q.VAR_POSITIONAL for q in mp.values())
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    m_pos = [n for n, q in mp.items() if q.kind in positional]
    gaps = set()
    for i, (n, q) in enumerate((n, q) for n, q in jp.items() if q.kind in positional):
        if i >= len(m_pos):
            if not star:
                gaps.add(n)
        elif q.kind == q.POSITIONAL_OR_KEYWORD and m_pos[i] != n and not star:
            gaps.add(n)
    gaps |= {n for n, q in jp.items() if q.kind == q.KEYWORD_ONLY and n not in mp}
    return gaps


def _pairs():
    for name in sorted(dir(jnp)):
        jf, mf = getattr(jnp, name), getattr(mnp, name, None)
        if name.startswith("_") or mf is None or not callable(jf) or isinstance(jf, type):
            continue
        try:
            inspect.signature(jf), inspect.signature(mf)
        except (TypeError, ValueError):
            continue
        yield name, jf, mf


def test_signatures_match_jax_but_for_the_known_gaps():
    found = {name: _gaps(jf, mf) for name, jf, mf in _pairs()}
    new = {n: g - KNOWN_GAPS.get(n, set()) for n, g in found.items()}
    assert not {n: g for n, g in new.items() if g}, "parameters JAX has and mlax lacks"
    closed = {n: g - found.get(n, set()) for n, g in KNOWN_GAPS.items()}
    assert not {n: g for n, g in closed.items() if g}, "gaps closed: strike them from KNOWN_GAPS"


X = np.arange(12.0, dtype=np.float32).reshape(3, 4)
XN = np.where(X == 5, np.nan, X).astype(np.float32)

CALLS = {
    # Positional calls in JAX's (and NumPy's) parameter order.
    "sum positional keepdims": lambda m: m.sum(X, 0, None, None, True),
    "max positional keepdims": lambda m: m.max(X, 1, None, True),
    "mean positional keepdims": lambda m: m.mean(X, 0, None, None, True),
    "var positional ddof": lambda m: m.var(X, 1, None, None, 1),
    "any positional keepdims": lambda m: m.any(X > 3, 0, None, True),
    # The parameters added beside them.
    "var correction": lambda m: m.var(X, 1, correction=1.5),
    "std mean": lambda m: m.std(X, 0, mean=m.mean(X, 0, keepdims=True) + 1),
    "nanvar mean": lambda m: m.nanvar(XN, 1, mean=XN[:, 1:2]),
    "nanstd mean": lambda m: m.nanstd(XN, 0, mean=XN[1:2]),
    "sum promote_integers": lambda m: m.sum(np.int8([100, 100]), promote_integers=False),
    "prod promote_integers": lambda m: m.prod(np.uint8([20, 20]), promote_integers=True),
    "concatenate dtype": lambda m: m.concatenate([X[0], np.arange(2)], dtype="int32"),
    "stack dtype": lambda m: m.stack([X[0], X[1]], 1, dtype="float16"),
    "digitize method": lambda m: m.digitize(X[0], np.float32([0.5, 2.5]), method="compare_all"),
    "round a": lambda m: m.round(a=X / 7, decimals=2),
    "broadcast_to array": lambda m: m.broadcast_to(array=X[0], shape=(2, 4)),
}


@pytest.mark.parametrize("name", list(CALLS))
def test_calls_in_jax_parameter_order_match_jax(name):
    got, want = CALLS[name](mnp), CALLS[name](jnp)
    assert (got.dtype, got.shape) == (want.dtype, want.shape)
    np.testing.assert_allclose(np.asarray(got, np.float64), np.asarray(want, np.float64),
                               rtol=1e-6)


ERRORS = {
    "sum out": (lambda m: m.sum(X, 0, None, X[0]), NotImplementedError),
    "stack out": (lambda m: m.stack([X], out=X), NotImplementedError),
    "var ddof and correction": (lambda m: m.var(X, ddof=1, correction=1), ValueError),
    # Functions that are one jit dispatch eagerly: `out` is traced, not static
    # (its message names mnp.cumsum / mnp.nanmean: the class is compared).
    "cumsum out": (lambda m: m.cumsum(X, out=X), NotImplementedError),
    "nanmean out": (lambda m: m.nanmean(X, out=X[0]), NotImplementedError),
    "outer out": (lambda m: m.outer(X[0], X[0], out=X), NotImplementedError),
}
_SAME_CLASS_ONLY = {"cumsum out", "nanmean out"}


@pytest.mark.parametrize("name", list(ERRORS))
def test_unsupported_parameters_raise_as_jax(name):
    fn, exc = ERRORS[name]
    with pytest.raises(exc) as got:
        fn(mnp)
    with pytest.raises(exc) as want:
        fn(jnp)
    if name not in _SAME_CLASS_ONLY:
        assert str(got.value) == str(want.value)


# ---------------------------------------------------------------------------
# The parameters added to close gaps, against jax.numpy: values, dtypes, weak
# types, eagerly and under mlax.jit (each entry: a function of the module and
# the arrays, and the arrays, passed as jit arguments).
# ---------------------------------------------------------------------------

XI = np.int32([[0, 0, 1, 0], [0, 2, 0, 0], [0, 0, 0, 0]])
IDX = np.int32([[0, -1, 2, -4], [3, -2, 1, 0], [-3, 2, -1, 1]])
ROWS, COLS = np.int32([0, 2, 5, -1]), np.int32([3, 0, 1, 7])

ADDED = {
    "array ndmin": (lambda m, x: m.array(x, ndmin=4), (X,)),
    "array ndmin of a scalar": (lambda m: m.array(2.5, ndmin=2), ()),
    "array order copy": (lambda m, x: m.array(x, "float16", order=None, copy=False), (X,)),
    "asarray order copy": (lambda m, x: m.asarray(x, "int8", "K", copy=True), (XI,)),
    "asarray copy False": (lambda m, x: m.asarray(x, copy=False), (X,)),
    "asarray host copy False": (lambda m: m.asarray(XI, copy=False, device=None), ()),
    "astype copy device": (lambda m, x: m.astype(x, "int32", copy=True, device=None), (X,)),
    "astype None": (lambda m, x: m.astype(x, None), (XI,)),
    # (jnp.reshape of a NumPy array is NumPy's method: a NumPy result.)
    "reshape shape copy": (lambda m, x: m.reshape(m.asarray(x), shape=(4, 3), copy=False),
                           (X,)),
    "reshape order F": (lambda m, x: m.reshape(m.asarray(x), (2, -1), order="F"), (X,)),
    "ravel order F": (lambda m, x: m.ravel(x, "F", out_sharding=None), (X,)),
    "fmax x1 x2": (lambda m, x: m.fmax(x1=x, x2=XN[::-1]), (XN,)),
    "fmin x1 x2": (lambda m, x: m.fmin(x2=x, x1=3.0), (XN,)),
    "inner precision preferred_element_type": (
        lambda m, a: m.inner(a, a, precision="highest", preferred_element_type="float32"), (XI,)),
    "inner scalar preferred_element_type": (
        lambda m, a: m.inner(a, 2, preferred_element_type="float32"), (XI,)),
    "vdot precision preferred_element_type": (
        lambda m, a: m.vdot(a, a[::-1], precision=None, preferred_element_type="float32"), (XI,)),
    "take_along_axis no negative wrap, fill": (
        lambda m, x, i: m.take_along_axis(x, i, axis=1, wrap_negative_indices=False), (X, IDX)),
    "take_along_axis no negative wrap, clip": (
        lambda m, x, i: m.take_along_axis(x, i, 1, "clip", wrap_negative_indices=False), (X, IDX)),
    "take_along_axis negative wrap": (
        lambda m, x, i: m.take_along_axis(x, i, 1, wrap_negative_indices=True), (X, IDX)),
    "ravel_multi_index dtype": (
        lambda m, r, c: m.ravel_multi_index((r, c), (3, 4), mode="clip", dtype="int8"),
        (ROWS, COLS)),
    "ravel_multi_index default dtype": (
        lambda m, r, c: m.ravel_multi_index((r, c), (3, 4), mode="wrap", order="F"), (ROWS, COLS)),
    "zeros device out_sharding": (lambda m: m.zeros((2,), "int16", device=None,
                                                    out_sharding=None), ()),
    "full_like device out_sharding": (lambda m, x: m.full_like(x, 2, device=None,
                                                               out_sharding=None), (X,)),
    "empty_like device": (lambda m, x: m.empty_like(x, "bool", (2,), device=None), (X,)),
    "arange device out_sharding": (lambda m: m.arange(2, 9, 3, device=None,
                                                      out_sharding=None), ()),
    "linspace device": (lambda m: m.linspace(0, 1, 5, device=None), ()),
    "eye device": (lambda m: m.eye(3, 4, 1, "int32", device=None), ()),
    "dot out_sharding": (lambda m, x: m.dot(x, x.T, out_sharding=None), (X,)),
    "matmul out_sharding": (lambda m, x: m.matmul(x.T, x, out_sharding=None), (X,)),
    "tensordot out_sharding": (lambda m, x: m.tensordot(x, x, 2, out_sharding=None), (X,)),
    "einsum out_sharding": (lambda m, x: m.einsum("ij,ij->i", x, x, out_sharding=None), (X,)),
    "broadcast_to out_sharding": (lambda m, x: m.broadcast_to(x, (2, 3, 4),
                                                              out_sharding=None), (X,)),
    "repeat out_sharding": (lambda m, x: m.repeat(x, 2, 0, out_sharding=None), (X,)),
    "percentile out_sharding": (lambda m, x: m.percentile(x, 30.0, 1, out_sharding=None), (X,)),
    "bincount out_sharding": (lambda m, x: m.bincount(x, length=4, out_sharding=None),
                              (np.int32([0, 3, 1, 3]),)),
}


@pytest.mark.parametrize("name", list(ADDED))
def test_added_parameters_match_jax(name):
    fn, args = ADDED[name]
    want = fn(jnp, *args)
    for got in (fn(mnp, *args), mlax.jit(lambda *a: fn(mnp, *a))(*args)):
        assert (got.dtype, got.shape, got.weak_type) == (want.dtype, want.shape, want.weak_type)
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-6)


def test_trim_zeros_axis_matches_jax():
    # Eager only: the result's shape depends on the values (JAX's
    # concretization error under jit).
    z = np.pad(XI, ((1, 0), (0, 2)))
    for kwargs in ({}, {"axis": 0}, {"axis": -1}, {"axis": (0, 1), "trim": "b"},
                   {"axis": 1, "trim": "f"}, {"axis": ()}, {"trim": ""}):
        got, want = mnp.trim_zeros(z, **kwargs), jnp.trim_zeros(z, **kwargs)
        assert (got.dtype, got.shape) == (want.dtype, want.shape), kwargs
        np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
    got, want = mnp.trim_zeros(np.zeros((2, 3)), axis=1), jnp.trim_zeros(np.zeros((2, 3)), axis=1)
    assert got.shape == want.shape == (2, 0)


def test_issubdtype_arg_names():
    for a, b in ((np.int8, np.integer), ("float32", np.inexact), (jnp.bfloat16, np.floating),
                 (np.uint8, np.signedinteger)):
        assert mnp.issubdtype(arg1=a, arg2=b) == jnp.issubdtype(arg1=a, arg2=b)


def test_device_places_creation_results():
    from mlax._src.backend import runtime

    dev, cpu = mlax.devices()[0], mlax.devices("cpu")[0]
    for d in (dev, cpu, runtime._sharding(cpu)):
        want = {cpu if d is not dev else dev}
        for out in (mnp.zeros(3, device=d), mnp.ones((), "int8", device=d),
                    mnp.empty(2, device=d), mnp.full((2,), 7, device=d),
                    mnp.zeros_like(X, device=d), mnp.ones_like(X, device=d),
                    mnp.full_like(X, 1.5, device=d), mnp.empty_like(X, device=d),
                    mnp.arange(4, device=d), mnp.linspace(0, 1, 3, device=d),
                    mnp.eye(2, device=d), mnp.array([1, 2], device=d),
                    mnp.array(mnp.arange(2.0), device=d), mnp.asarray(X, device=d),
                    mnp.astype(X, "int32", device=d)):
            assert out.devices() == want
    np.testing.assert_array_equal(np.asarray(mnp.full((2,), 7, device=cpu)), [7, 7])
    assert mnp.array(2, device=cpu).weak_type and mnp.full(2, 1.0, device=cpu).weak_type
    # Under jit the value is JAX's (the program runs on its own device).
    got = mlax.jit(lambda x: mnp.zeros_like(x, device=cpu) + mnp.arange(4.0, device=cpu))(X)
    want = jax.jit(lambda x: jnp.zeros_like(x, device=jax.devices("cpu")[0])
                   + jnp.arange(4.0, device=jax.devices("cpu")[0]))(X)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
    with pytest.raises(TypeError, match="device must be a Device"):
        mnp.zeros(2, device="cpu")


_SHARDED = {
    "arange": lambda s: mnp.arange(3, out_sharding=s),
    "array": lambda s: mnp.array([1], out_sharding=s),
    "asarray": lambda s: mnp.asarray(X, out_sharding=s),
    "zeros": lambda s: mnp.zeros(2, out_sharding=s),
    "ones": lambda s: mnp.ones(2, out_sharding=s),
    "empty": lambda s: mnp.empty(2, out_sharding=s),
    "full": lambda s: mnp.full(2, 1, out_sharding=s),
    "zeros_like": lambda s: mnp.zeros_like(X, out_sharding=s),
    "ones_like": lambda s: mnp.ones_like(X, out_sharding=s),
    "full_like": lambda s: mnp.full_like(X, 1, out_sharding=s),
    "reshape": lambda s: mnp.reshape(X, -1, out_sharding=s),
    "ravel": lambda s: mnp.ravel(X, out_sharding=s),
    "broadcast_to": lambda s: mnp.broadcast_to(X, X.shape, out_sharding=s),
    "dot": lambda s: mnp.dot(X, X.T, out_sharding=s),
    "matmul": lambda s: mnp.matmul(X, X.T, out_sharding=s),
    "tensordot": lambda s: mnp.tensordot(X, X, out_sharding=s),
    "einsum": lambda s: mnp.einsum("ij->i", X, out_sharding=s),
    "repeat": lambda s: mnp.repeat(X, 2, out_sharding=s),
    "percentile": lambda s: mnp.percentile(X, 50, out_sharding=s),
    "bincount": lambda s: mnp.bincount(np.int32([1]), out_sharding=s),
}


def test_out_sharding_other_than_none_is_not_implemented():
    """mlax has no sharding (no mesh, NamedSharding or PartitionSpec): a
    requested one is refused, not silently dropped. (JAX takes those and
    raises TypeError for any other object.)"""
    for name, fn in _SHARDED.items():
        with pytest.raises(NotImplementedError, match="does not support sharding yet"):
            fn(("x",))


def test_array_positional_arguments_deprecated_as_jax():
    for m in (mnp, jnp):
        with pytest.warns(DeprecationWarning, match="positionally is deprecated"):
            out = m.array(X, None, True, "K", 3)
        assert out.shape == (1, 3, 4)


_DEVICES = {mnp: lambda: mlax.devices()[0], jnp: lambda: jax.devices()[0]}

ADDED_ERRORS = {
    "array order F": (lambda m: m.array(X, order="F"), NotImplementedError),
    "asarray order C": (lambda m: m.asarray(X, order="C"), NotImplementedError),
    "array too many positional": (lambda m: m.array(X, None, True, "K", 0, 1), TypeError),
    "array copy twice": (lambda m: m.array(X, None, False, copy=False), TypeError),
    "ravel order K": (lambda m: m.ravel(X, "K"), NotImplementedError),
    "reshape order A": (lambda m: m.reshape(m.asarray(X), -1, "A"), NotImplementedError),
    "reshape order bad": (lambda m: m.reshape(m.asarray(X), -1, "Q"), ValueError),
    "reshape newshape gone": (lambda m: m.reshape(m.asarray(X), newshape=-1), TypeError),
    "zeros device and out_sharding": (
        lambda m: m.zeros(2, device=_DEVICES[m](), out_sharding="x"), ValueError),
    "ravel_multi_index float dtype": (
        lambda m: m.ravel_multi_index((ROWS, COLS), (3, 4), "clip", dtype="float32"),
        ValueError),
    "ravel_multi_index small dtype": (
        lambda m: m.ravel_multi_index((ROWS, COLS), (30, 40), "clip", dtype="int8"), ValueError),
    "add out": (lambda m: m.add(X, X, out=X), NotImplementedError),
    "add where": (lambda m: m.add(X, X, where=X > 0), NotImplementedError),
    "inner bad precision": (lambda m: m.inner(X, X, precision="bogus"), ValueError),
}
# Messages that name the function or the ufunc by its module, and lax's
# precision message (mlax's does not list JAX's DotAlgorithmPresets).
_ADDED_SAME_CLASS_ONLY = {"reshape newshape gone", "add out", "add where",
                          "inner bad precision"}


@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
@pytest.mark.parametrize("name", list(ADDED_ERRORS))
def test_added_parameters_raise_as_jax(name, jit):
    fn, exc = ADDED_ERRORS[name]
    m_fn = mlax.jit(lambda: fn(mnp)) if jit else (lambda: fn(mnp))
    j_fn = jax.jit(lambda: fn(jnp)) if jit else (lambda: fn(jnp))
    with pytest.raises(exc) as got:
        m_fn()
    with pytest.raises(exc) as want:
        j_fn()
    if name not in _ADDED_SAME_CLASS_ONLY:
        assert str(got.value) == str(want.value)

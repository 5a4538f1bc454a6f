"""mlax.numpy's functions take jax.numpy's parameters: the same positional
parameters in the same order (a call written for JAX, or for NumPy, means
the same), and JAX's keyword-only ones. The gaps left are listed below, so
that a new one fails here and a closed one is struck from the list."""
import inspect

import numpy as np
import pytest

import jax.numpy as jnp

import mlax.numpy as mnp

# Parameters of jax.numpy functions that mlax.numpy's lack (or names
# differently at that position). Most are device placement and sharding
# (issue 17), `out` of the ufunc objects, and layout options.
KNOWN_GAPS = {
    "add": {'where', 'out'},
    "arange": {'device', 'out_sharding'},
    "array": {'ndmin', 'device', 'order', 'out_sharding'},
    "asarray": {'out_sharding', 'device', 'order', 'copy'},
    "astype": {'device', 'copy'},
    "bincount": {'out_sharding'},
    "bitwise_and": {'where', 'out'},
    "bitwise_or": {'where', 'out'},
    "bitwise_xor": {'where', 'out'},
    "broadcast_to": {'out_sharding'},
    "dot": {'out_sharding'},
    "einsum": {'out_sharding'},
    "empty": {'device', 'out_sharding'},
    "empty_like": {'device'},
    "eye": {'device'},
    "fmax": {'x1', 'x2'},
    "fmin": {'x1', 'x2'},
    "full": {'device', 'out_sharding'},
    "full_like": {'device', 'out_sharding'},
    "inner": {'precision', 'preferred_element_type'},
    "issubdtype": {'arg1', 'arg2'},
    "linspace": {'device'},
    "logaddexp": {'where', 'out'},
    "logaddexp2": {'where', 'out'},
    "logical_and": {'where', 'out'},
    "logical_or": {'where', 'out'},
    "logical_xor": {'where', 'out'},
    "matmul": {'out_sharding'},
    "maximum": {'where', 'out'},
    "minimum": {'where', 'out'},
    "multiply": {'where', 'out'},
    "negative": {'where', 'out'},
    "ones": {'device', 'out_sharding'},
    "ones_like": {'device', 'out_sharding'},
    "percentile": {'out_sharding'},
    "ravel": {'order', 'out_sharding'},
    "ravel_multi_index": {'dtype'},
    "repeat": {'out_sharding'},
    "reshape": {'shape', 'out_sharding', 'copy'},
    "subtract": {'where', 'out'},
    "take_along_axis": {'wrap_negative_indices'},
    "tensordot": {'out_sharding'},
    "trim_zeros": {'axis'},
    "vdot": {'precision', 'preferred_element_type'},
    "zeros": {'device', 'out_sharding'},
    "zeros_like": {'device', 'out_sharding'},
}


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

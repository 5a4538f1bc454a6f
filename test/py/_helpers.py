"""Shared helpers for the mlax pytest suite.

Conventions:
  * Values are checked against NumPy (computed on the same inputs).
  * dtypes, shapes and weak types are checked against JAX, using
    `jax.eval_shape` (abstract evaluation: no XLA compile, so cheap).
"""
from __future__ import annotations

import contextlib
import zlib

import jax
import ml_dtypes
import numpy as np

import mlax

bf16 = np.dtype(ml_dtypes.bfloat16)

# Pseudo-dtypes naming Python scalars (weakly typed in JAX and mlax).
PY_SCALARS = ("pybool", "pyint", "pyfloat")

MODES = ("eager", "jit")


def dtype_id(dt) -> str:
    return dt if isinstance(dt, str) else np.dtype(dt).name


def make_input(shape, dtype, kind="any", seed=0):
    """A deterministic input of `shape` and `dtype`.

    kind: "any" (mixed signs), "pos" (strictly positive), "nonzero",
    "small" (non-negative and small: exponents).
    """
    rng = np.random.default_rng(zlib.crc32(repr((tuple(shape), dtype_id(dtype), kind, seed)).encode()))
    if dtype in PY_SCALARS:
        assert shape == ()
        v = make_input((), {"pybool": np.bool_, "pyint": np.int32, "pyfloat": np.float32}[dtype],
                       kind, seed)
        return {"pybool": bool, "pyint": int, "pyfloat": float}[dtype](v)
    dt = np.dtype(dtype)
    if dt == np.bool_:
        out = rng.random(shape) > 0.5
        if kind in ("pos", "nonzero"):
            out = np.ones(shape, bool)
        return np.asarray(out)
    if np.issubdtype(dt, np.integer):
        lo, hi = {"any": (-5, 6), "pos": (1, 6), "nonzero": (1, 6), "small": (0, 4)}[kind]
        if np.issubdtype(dt, np.unsignedinteger):
            lo = builtins_max(lo, 0)
        out = rng.integers(lo, hi, shape)
        if kind == "nonzero" and not np.issubdtype(dt, np.unsignedinteger):
            out = out * rng.choice([-1, 1], shape)
        return np.asarray(out).astype(dt)
    if kind == "pos":
        out = rng.uniform(0.5, 3.0, shape)
    elif kind == "nonzero":
        out = rng.uniform(0.5, 3.0, shape) * rng.choice([-1, 1], shape)
    elif kind == "small":
        out = rng.uniform(0.0, 2.0, shape)
    else:
        out = rng.uniform(-2.0, 2.0, shape)
    return np.asarray(out).astype(dt)


def builtins_max(a, b):
    return a if a > b else b


def to_mlax(x):
    """NumPy inputs become mlax Arrays; Python scalars stay Python scalars."""
    if isinstance(x, np.ndarray):
        return mlax.numpy.asarray(x)
    return x


def standard_normal(shape, dtype, seed=0):
    """Standard normal values of `dtype` (real and imaginary parts drawn
    separately for a complex dtype)."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if np.issubdtype(dtype, np.complexfloating):
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def run(fn, args, mode):
    """fn(*args) eagerly or under mlax.jit (all args dynamic)."""
    if mode == "eager":
        return fn(*args)
    assert mode == "jit"
    return mlax.jit(fn)(*args)


def tol_for(dtype):
    dt = np.dtype(dtype)
    if dt == np.float16:
        return dict(rtol=2e-3, atol=2e-3)
    if dt == bf16:
        return dict(rtol=1.6e-2, atol=1.6e-2)
    if dt in (np.float32, np.complex64):
        return dict(rtol=2e-6, atol=2e-6)
    return dict(rtol=0, atol=0)


def assert_values(out, expected, dtype=None, **tol):
    """`out` (an mlax.Array) equals NumPy's `expected` within dtype tolerance."""
    assert isinstance(out, mlax.Array), f"expected an mlax.Array, got {type(out).__name__}"
    got = np.asarray(out)
    expected = np.asarray(expected)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    dt = np.dtype(dtype if dtype is not None else out.dtype)
    t = tol_for(dt)
    t.update(tol)
    if dt == np.bool_ or np.issubdtype(dt, np.integer):
        np.testing.assert_array_equal(got, expected.astype(dt))
    else:
        np.testing.assert_allclose(got.astype(np.float64) if dt == bf16 else got,
                                   expected.astype(np.float64), equal_nan=True, **t)


def assert_arrays_like(got, want, rtol=1e-5, atol=1e-5):
    """Each of `got` (mlax.Arrays) has the shape and dtype of the matching
    `want` (JAX's results) and its values within rtol/atol. A single array
    counts as a sequence of one."""
    got, want = (list(v) if isinstance(v, (tuple, list)) else [v] for v in (got, want))
    assert len(got) == len(want), (len(got), len(want))
    for g, w in zip(got, want):
        assert isinstance(g, mlax.Array), f"expected an mlax.Array, got {type(g).__name__}"
        assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, w.shape, g.dtype, w.dtype)
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=rtol, atol=atol)


def assert_tree_like(got, want, rtol=1e-5, atol=1e-5):
    """`got` (mlax's results) and `want` (JAX's) agree leaf by leaf: tree,
    shape, dtype, weak type, Python scalars staying Python scalars, and values
    within rtol/atol (float0 zeros only in shape and dtype)."""
    g_leaves, g_tree = jax.tree_util.tree_flatten(got)
    w_leaves, w_tree = jax.tree_util.tree_flatten(want)
    assert g_tree == w_tree, (g_tree, w_tree)
    for g, w in zip(g_leaves, w_leaves):
        if isinstance(w, (bool, int, float, complex)):
            assert type(g) is type(w), (type(g), type(w))
        assert np.shape(g) == np.shape(w), (np.shape(g), np.shape(w))
        assert np.asarray(g).dtype == np.asarray(w).dtype, (np.asarray(g).dtype,
                                                            np.asarray(w).dtype)
        if np.asarray(w).dtype == jax.dtypes.float0:  # (JAX's are a TypedNdArray)
            continue
        assert getattr(g, "weak_type", None) == getattr(w, "weak_type", None), \
            (getattr(g, "weak_type", None), getattr(w, "weak_type", None))
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=rtol, atol=atol)


def assert_leaves_like(got, want, rtol=1e-6, atol=1e-6, err_msg=""):
    """The leaves of `got` (mlax's results) and `want` (JAX's) agree one by
    one: shape, dtype, weak type and values within rtol/atol. Unlike
    assert_tree_like the node types may differ (mlax's result namedtuples
    are its own classes)."""
    got_l, want_l = jax.tree_util.tree_leaves(got), jax.tree_util.tree_leaves(want)
    assert len(got_l) == len(want_l), err_msg
    for g, w in zip(got_l, want_l):
        assert g.shape == w.shape, err_msg
        assert g.dtype == w.dtype, err_msg
        assert g.aval.weak_type == w.aval.weak_type, err_msg
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=rtol, atol=atol,
                                   err_msg=err_msg)


def assert_like_jax(out, jax_fn, *args, **kwargs):
    """`out`'s shape, dtype and weak type are what JAX gives for jax_fn(*args)."""
    ref = jax.eval_shape(lambda *a: jax_fn(*a, **kwargs), *args)
    assert isinstance(out, mlax.Array), f"expected an mlax.Array, got {type(out).__name__}"
    assert out.shape == ref.shape, f"shape {out.shape} != jax's {ref.shape}"
    assert out.dtype == ref.dtype, f"dtype {out.dtype} != jax's {ref.dtype}"
    assert out.weak_type == ref.weak_type, \
        f"weak_type {out.weak_type} != jax's {ref.weak_type} (dtype {out.dtype})"
    return ref


def np_ref_input(x):
    """What NumPy computes on for an input: bfloat16 upcast to float32."""
    if isinstance(x, np.ndarray) and x.dtype == bf16:
        return x.astype(np.float32)
    return x



def pairwise(*factors):
    """A small list of cases (tuples, one value per factor) in which every
    pair of values of any two factors occurs at least once: the full product
    of independent options (an FFT's axis, length and norm, say) mostly
    repeats what these pairs already test, at one compile per case.
    Deterministic (greedy, first best), so test ids are stable. Repeated
    values within a factor are kept apart by position, so several of one
    factor's values may be equal."""
    import itertools

    factors = [list(f) for f in factors]
    if len(factors) < 2:
        return [tuple(v) for v in itertools.product(*factors)]
    uncovered = {(i, a, j, b)
                 for i, j in itertools.combinations(range(len(factors)), 2)
                 for a in range(len(factors[i])) for b in range(len(factors[j]))}
    cases = []
    candidates = list(itertools.product(*(range(len(f)) for f in factors)))
    while uncovered:
        best, gain = None, -1
        for cand in candidates:
            g = sum((i, cand[i], j, cand[j]) in uncovered
                    for i, j in itertools.combinations(range(len(cand)), 2))
            if g > gain:
                best, gain = cand, g
        uncovered -= {(i, best[i], j, best[j])
                      for i, j in itertools.combinations(range(len(best)), 2)}
        cases.append(tuple(factors[k][v] for k, v in enumerate(best)))
    return cases


def param_id(value) -> str:
    """A readable test id for a parameter value: dtypes by name."""
    if isinstance(value, np.dtype) or (isinstance(value, type) and issubclass(value, np.generic)):
        return np.dtype(value).name
    if isinstance(value, tuple):
        return "(" + ",".join(param_id(v) for v in value) + ")"
    return str(value)


# JAX references as one jitted program each. A JAX transformation applied
# outside jit runs op by op, each primitive its own XLA compile (a gradient:
# tens of compiles); under jax.jit it is one. What is under test is mlax:
# the reference's values are JAX's either way, up to the rounding of fusion.
def eager_share(n, offset, k=3):
    """Which of `n` cases, all run under jit in one program, also run
    eagerly (each call its own compile): every k-th, from `offset` (the
    test's place in its parametrization), so that across the tests of a
    parametrization each case position runs eagerly somewhere."""
    return range(offset % k, n, k)


def jgrad(*args, **kwargs):
    return jax.jit(jax.grad(*args, **kwargs))


def jvmap(*args, **kwargs):
    return jax.jit(jax.vmap(*args, **kwargs))


def jjvp(fun, primals, tangents):
    return jax.jit(lambda p, t: jax.jvp(fun, p, t))(tuple(primals), tuple(tangents))


@contextlib.contextmanager
def x64():
    """64-bit mode in mlax and (thread-locally) in JAX, together."""
    from jax._src import config as jax_config

    old = mlax.config.jax_enable_x64
    mlax.config.update("jax_enable_x64", True)
    try:
        with jax_config.enable_x64(True):
            yield
    finally:
        mlax.config.update("jax_enable_x64", old)


def run_logged(program, lib, np_):
    """(log, result) of `program(lib, np_, log)`, a program that logs the
    calls of its custom rules into `log`; an exception's class name ends the
    log (result None), to be compared with JAX's."""
    log = []
    try:
        out = program(lib, np_, log)
    except Exception as e:  # noqa: BLE001 (the class is compared with JAX's)
        log.append(type(e).__name__)
        out = None
    return log, out


_JAX_TABLES = {}


def jax_outcomes(cases):
    """JAX's outcome for each of `cases`, (fn, args, kwargs) triples: its
    result, or the exception it raises. All of a table's calls run as one
    jitted program (one XLA compile, not one per primitive of every call),
    the NumPy arrays among args and kwargs passed as arguments; a call that
    fails to trace under jit (it needs a concrete value, say) runs eagerly,
    so an exception is always JAX's eager one. Computed once per table
    (`cases` by identity) and mode of 64-bit types."""
    key = (id(cases), bool(jax.config.jax_enable_x64))
    if key in _JAX_TABLES:
        return _JAX_TABLES[key][1]
    is_arr = lambda v: isinstance(v, np.ndarray)  # noqa: E731
    dyn = [([a for a in args if is_arr(a)], {k: v for k, v in kwargs.items() if is_arr(v)})
           for _, args, kwargs in cases]
    traced_ok = [True] * len(cases)

    def program(dyn):
        outs = []
        for i, ((fn, args, kwargs), (xs, kws)) in enumerate(zip(cases, dyn)):
            it = iter(xs)
            full = [next(it) if is_arr(a) else a for a in args]
            try:
                outs.append(fn(*full, **{**kwargs, **kws}))
            except Exception:  # noqa: BLE001 (retried eagerly below)
                traced_ok[i] = False
                outs.append(None)
        return outs

    outs = jax.jit(program)(dyn)
    for i, (fn, args, kwargs) in enumerate(cases):
        if not traced_ok[i]:
            try:
                outs[i] = fn(*args, **kwargs)
            except Exception as e:  # noqa: BLE001 (the outcome compared)
                outs[i] = e
    _JAX_TABLES[key] = (cases, outs)  # (cases kept alive: their id is the key)
    return outs

"""Property-based tests (hypothesis): random shapes, dtypes, axes, indices and
pytrees, valid and invalid, through mlax.numpy / mlax.lax and the
transformations. Every call either returns what JAX returns on the same
inputs (same pytree structure, shape, dtype, weak type, and values within
tolerance) or raises an exception of the same kind as JAX's
(TypeError / ValueError / IndexError / ...; messages are not compared).

Deterministic and bounded for CI (`derandomize=True`, a few dozen examples
per property). A long run on demand:

    MLAX_PROPERTY_EXAMPLES=2000 python -m pytest test/py/test_properties.py

The number of calls tried per property is printed in the terminal summary
(test/py/conftest.py).
"""
from __future__ import annotations

import collections
import os

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import mlax
import mlax.numpy as mnp

bf16 = np.dtype(ml_dtypes.bfloat16)

_LONG = int(os.environ.get("MLAX_PROPERTY_EXAMPLES", "0") or 0)

# Calls tried, per property; test/py/conftest.py prints them.
CALLS: collections.Counter = collections.Counter()


@pytest.fixture(autouse=True, scope="module")
def _report_calls(request):
    request.config._mlax_property_calls = CALLS
    yield


def prop(n):
    """Settings of one property: `n` examples in CI, $MLAX_PROPERTY_EXAMPLES
    on demand; deterministic (no example database, derandomized)."""
    return settings(max_examples=_LONG or n, deadline=None, derandomize=True, database=None,
                    suppress_health_check=list(HealthCheck), print_blob=True)


# ---------------------------------------------------------------------------
# Comparing mlax with JAX
# ---------------------------------------------------------------------------

# The exception "kinds" compared: the first of these the exception is an
# instance of (JAX's ConcretizationTypeError is a TypeError, and so on).
_FAMILIES = (IndexError, KeyError, ZeroDivisionError, OverflowError, NotImplementedError,
             TypeError, ValueError, AttributeError, RuntimeError)


def families(e: BaseException) -> set:
    """The kinds `e` is an instance of (NumPy's AxisError is both an
    IndexError and a ValueError, as in NumPy)."""
    return {cls for cls in _FAMILIES if isinstance(e, cls)} or {type(e)}


def same_kind(e1: BaseException, e2: BaseException) -> bool:
    return bool(families(e1) & families(e2))


def _tol(dt, scale=1.0):
    dt = np.dtype(dt)
    if dt == np.float16:
        return 4e-3 * scale, 4e-3 * scale
    if dt == bf16:
        return 3e-2 * scale, 3e-2 * scale
    if np.issubdtype(dt, np.inexact):
        return 2e-5 * scale, 2e-5 * scale
    return 0, 0


class Mismatch(AssertionError):
    pass


def _describe(args):
    out = []
    for a in args:
        if isinstance(a, np.ndarray):
            out.append(f"{a.dtype}{list(a.shape)}={a.tolist()!r}"[:300])
        else:
            out.append(repr(a)[:300])
    return ", ".join(out)


def _leaf(x):
    if isinstance(x, mlax.Array):
        return np.asarray(x), x.dtype, bool(x.weak_type)
    if isinstance(x, jax.Array):
        return np.asarray(x), x.dtype, bool(x.weak_type)
    a = np.asarray(x)
    return a, a.dtype, None


def assert_same(got, want, what="", scale=1.0, check_weak=True):
    gl, gt = jax.tree_util.tree_flatten(got)
    wl, wt = jax.tree_util.tree_flatten(want)
    if gt != wt:
        raise Mismatch(f"{what}: pytree structure {gt} != JAX's {wt}")
    for g, w in zip(gl, wl):
        ga, gdt, gweak = _leaf(g)
        wa, wdt, wweak = _leaf(w)
        if ga.shape != wa.shape:
            raise Mismatch(f"{what}: shape {ga.shape} != JAX's {wa.shape}")
        if np.dtype(gdt) != np.dtype(wdt):
            raise Mismatch(f"{what}: dtype {gdt} != JAX's {wdt}")
        if check_weak and gweak is not None and wweak is not None and gweak != wweak:
            raise Mismatch(f"{what}: weak_type {gweak} != JAX's {wweak} ({gdt})")
        rtol, atol = _tol(wdt, scale)
        if rtol == 0:
            if not np.array_equal(ga, wa):
                raise Mismatch(f"{what}: values\n{ga!r}\n!= JAX's\n{wa!r}")
        else:
            try:
                np.testing.assert_allclose(ga.astype(np.float64), wa.astype(np.float64),
                                           rtol=rtol, atol=atol, equal_nan=True)
            except AssertionError as e:
                raise Mismatch(f"{what}: values differ from JAX's:\n{e}") from None


def check(name, mfn, jfn, *args, scale=1.0, check_weak=True, may_raise=(), same_kinds=(),
          **kwargs):
    """mfn(*args, **kwargs) behaves as jfn(*args, **kwargs).

    Deliberate, documented differences: `may_raise` are exception classes
    mlax may raise where JAX returns; `same_kinds` are extra exception
    classes counted as one kind (mlax's, JAX's)."""
    CALLS[name] += 1
    what = f"{name}({_describe(args)}{', ' if kwargs else ''}" \
           f"{', '.join(f'{k}={v!r}' for k, v in kwargs.items())})"
    try:
        want = jfn(*args, **kwargs)
        jax.block_until_ready(want)
    except Exception as e:  # noqa: BLE001
        jexc = e
    else:
        jexc = None
    try:
        got = mfn(*args, **kwargs)
        mlax.block_until_ready(got)
    except mlax.CompileError as e:
        raise Mismatch(f"{what}: mlax raised CompileError (an internal error: the "
                       f"front end let an invalid call through); JAX: {jexc!r}\n{e}") from e
    except Exception as e:  # noqa: BLE001
        if jexc is None:
            if isinstance(e, tuple(may_raise)):
                return None
            raise Mismatch(f"{what}: mlax raised {type(e).__name__}: {e}\n"
                           f"where JAX returned {want!r}") from e
        if not same_kind(e, jexc) and not any(
                isinstance(e, a) and isinstance(jexc, b) for a, b in same_kinds):
            raise Mismatch(f"{what}: mlax raised {type(e).__name__}: {e}\n"
                           f"where JAX raised {type(jexc).__name__}: {jexc}") from e
        return None
    if jexc is not None:
        raise Mismatch(f"{what}: mlax returned {got!r}\nwhere JAX raised "
                       f"{type(jexc).__name__}: {jexc}")
    assert_same(got, want, what, scale=scale, check_weak=check_weak)
    return got


# ---------------------------------------------------------------------------
# Strategies
# ---------------------------------------------------------------------------

DTYPES = [np.dtype(np.bool_), np.dtype(np.int8), np.dtype(np.int32), np.dtype(np.uint8),
          np.dtype(np.uint32), np.dtype(np.float16), bf16, np.dtype(np.float32)]
FLOATS = [np.dtype(np.float16), bf16, np.dtype(np.float32)]

dtypes = st.sampled_from(DTYPES)
float_dtypes = st.sampled_from(FLOATS)
# A small vocabulary of dims keeps the number of distinct compiles (both
# mlax's and JAX's) low, so more calls fit in the time budget.
dims = st.sampled_from([1, 2, 3, 0, 4])


def shapes(min_rank=0, max_rank=4):
    return st.lists(dims, min_size=min_rank, max_size=max_rank).map(tuple)


def _values(rng, shape, dt, mode):
    if dt == np.bool_:
        return rng.random(shape) > 0.5
    if np.issubdtype(dt, np.integer):
        info = np.iinfo(dt)
        if mode == "wide":
            return rng.integers(info.min, int(info.max) + 1, shape, dtype=np.int64).astype(dt)
        lo = 0 if info.min == 0 else -5
        return rng.integers(lo, 6, shape).astype(dt)
    out = np.round(rng.uniform(-3, 3, shape), 2)
    if mode == "wide" and out.size:
        flat = out.reshape(-1)
        specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e30, -1e-30, 0.5])
        k = rng.integers(0, flat.size + 1)
        flat[rng.choice(flat.size, k, replace=True)] = rng.choice(specials, k)
    return out.astype(dt)


@st.composite
def arrays(draw, shape=None, dtype=None, wide=True):
    if shape is None:
        shape = draw(shapes())
    elif isinstance(shape, st.SearchStrategy):
        shape = draw(shape)
    dt = draw(dtypes) if dtype is None else np.dtype(dtype)
    seed = draw(st.integers(0, 2**16))
    mode = draw(st.sampled_from(["plain", "plain", "plain", "wide"])) if wide else "plain"
    return _values(np.random.default_rng(seed), shape, dt, mode)


@st.composite
def operands(draw, shape=None, dtype=None):
    """An array, or sometimes a Python scalar (weakly typed in both)."""
    kind = draw(st.sampled_from(["array"] * 5 + ["int", "float", "bool"]))
    if kind == "int":
        return draw(st.integers(-4, 4))
    if kind == "float":
        return draw(st.sampled_from([0.0, 0.5, -1.5, 2.0, 3.25]))
    if kind == "bool":
        return draw(st.booleans())
    return draw(arrays(shape=shape, dtype=dtype))


@st.composite
def shape_pairs(draw):
    """Two shapes: broadcastable (most of the time) or not."""
    a = draw(shapes())
    kind = draw(st.sampled_from(["same", "bcast", "bcast", "other"]))
    if kind == "same":
        return a, a
    if kind == "other":
        return a, draw(shapes())
    b = list(a[draw(st.integers(0, len(a))):])  # drop leading dims
    for i in range(len(b)):
        if draw(st.booleans()):
            b[i] = 1
    b = tuple(b)
    return (a, b) if draw(st.booleans()) else (b, a)


def axes(rank, allow_tuple=True, allow_none=True):
    """A valid or invalid axis: ints in [-rank-1, rank], None, tuples
    (sometimes with repeats)."""
    one = st.integers(-rank - 1, rank)
    options = [one, one]
    if allow_none:
        options.append(st.none())
    if allow_tuple:
        options.append(st.lists(st.integers(-rank - 1, max(rank, 0)), max_size=3).map(tuple))
    return st.one_of(*options)


def both(name, *, jname=None, lax=False):
    m = getattr(mlax.lax if lax else mnp, name)
    j = getattr(jax.lax if lax else jnp, jname or name)
    return name, m, j


def _in(x):
    """The same input for both libraries (NumPy arrays and scalars are
    shared as they are; bfloat16 NumPy arrays are understood by both)."""
    return x


# ---------------------------------------------------------------------------
# Elementwise
# ---------------------------------------------------------------------------

UNARY = ["negative", "abs", "sin", "cos", "tan", "exp", "expm1", "log", "log1p", "sqrt",
         "tanh", "floor", "ceil", "trunc", "round", "sign", "square", "reciprocal",
         "logical_not", "bitwise_not", "invert", "isnan", "isinf", "isfinite", "positive"]


@prop(30)
@given(name=st.sampled_from(UNARY), x=operands())
def test_unary(name, x):
    _, m, j = both(name)
    # Transcendentals of large/special inputs: looser, the two pipelines
    # may fuse differently.
    check(name, m, j, x, scale=5.0)


BINARY = ["add", "subtract", "multiply", "divide", "true_divide", "floor_divide", "power",
          "maximum", "minimum", "equal", "not_equal", "less", "less_equal", "greater",
          "greater_equal", "logical_and", "logical_or", "logical_xor", "bitwise_and",
          "bitwise_or", "bitwise_xor", "arctan2", "remainder", "mod", "fmod", "hypot",
          "logaddexp"]


@prop(40)
@given(name=st.sampled_from(BINARY), pair=shape_pairs(), data=st.data())
def test_binary(name, pair, data):
    _, m, j = both(name)
    x = data.draw(operands(shape=pair[0]))
    y = data.draw(operands(shape=pair[1]))
    try:
        np.broadcast_shapes(np.shape(x), np.shape(y))
        kinds = ()
    except ValueError:
        # JAX itself raises ValueError for most ops and TypeError for some
        # (bool add/multiply go straight to lax.or/and): either will do.
        kinds = ((ValueError, TypeError),)
    check(name, m, j, x, y, scale=5.0, same_kinds=kinds)


LAX_BINARY = ["add", "sub", "mul", "max", "min", "eq", "lt", "ge"]


@prop(15)
@given(name=st.sampled_from(LAX_BINARY), pair=shape_pairs(), dts=st.tuples(dtypes, dtypes),
       data=st.data())
def test_lax_binary_is_strict(name, pair, dts, data):
    """lax ops take no implicit promotion or broadcasting: mismatched dtypes
    or shapes raise TypeError, as in JAX."""
    _, m, j = both(name, lax=True)
    x = data.draw(arrays(shape=pair[0], dtype=dts[0], wide=False))
    y = data.draw(arrays(shape=pair[1], dtype=dts[1] if data.draw(st.booleans()) else dts[0],
                         wide=False))
    # mlax.lax is strict about shapes (docs: "the strict primitive layer";
    # mlax.numpy broadcasts) where jax.lax broadcasts size-1 and 0-d operands.
    check("lax." + name, m, j, x, y, may_raise=(TypeError,) if x.shape != y.shape else ())


# ---------------------------------------------------------------------------
# Reductions and cumulative ops
# ---------------------------------------------------------------------------

REDUCTIONS = ["sum", "prod", "max", "min", "mean", "all", "any", "var", "std", "argmax",
              "argmin", "count_nonzero"]


@prop(40)
@given(name=st.sampled_from(REDUCTIONS), x=arrays(), keepdims=st.booleans(), data=st.data())
def test_reduction(name, x, keepdims, data):
    _, m, j = both(name)
    single = name in ("argmax", "argmin")
    axis = data.draw(axes(x.ndim, allow_tuple=not single))
    kwargs = {"axis": axis}
    if keepdims:
        kwargs["keepdims"] = True
    check(name, m, j, x, scale=20.0 if name in ("var", "std", "mean") else 5.0, **kwargs)


@prop(15)
@given(name=st.sampled_from(["cumsum", "cumprod"]), x=arrays(), data=st.data())
def test_cumulative(name, x, data):
    _, m, j = both(name)
    axis = data.draw(axes(x.ndim, allow_tuple=False))
    check(name, m, j, x, axis=axis, scale=20.0)


# ---------------------------------------------------------------------------
# Shapes
# ---------------------------------------------------------------------------

@prop(20)
@given(x=arrays(wide=False), data=st.data())
def test_reshape(x, data):
    size = x.size
    # A valid target (a factorisation of the size, maybe with one -1) or an
    # invalid one (wrong size, two -1s, negative dims).
    kind = data.draw(st.sampled_from(["valid", "valid", "minus1", "bad"]))
    if kind == "bad":
        new = tuple(data.draw(st.lists(st.integers(-2, 5), max_size=4)))
    else:
        new = []
        rest = size
        for _ in range(data.draw(st.integers(0, 3))):
            d = data.draw(st.sampled_from([d for d in (1, 2, 3, 4, 0) if
                                           (d and rest % d == 0) or (d == 0 and rest == 0)]
                                          or [1]))
            new.append(d)
            rest = rest // d if d else 0
        if rest != 1 or size == 0 and not new:
            new.append(rest)
        if kind == "minus1" and new:
            new[data.draw(st.integers(0, len(new) - 1))] = -1
        new = tuple(new)
    # mlax raises NumPy's ValueError for a size mismatch where JAX raises
    # TypeError (pinned by test_numpy_ops.py::test_shape_op_errors); JAX
    # raises ZeroDivisionError for -1 next to a 0 dim.
    kinds = ((ValueError, TypeError), (ValueError, ZeroDivisionError))
    # jnp.reshape of a NumPy array is NumPy's reshape: give JAX a jax.Array.
    check("reshape", mnp.reshape, lambda a, s: jnp.reshape(jnp.asarray(a), s), x, new,
          same_kinds=kinds)
    check("Array.reshape", lambda a, s: mnp.asarray(a).reshape(s),
          lambda a, s: jnp.asarray(a).reshape(s), x, new, same_kinds=kinds)


@prop(15)
@given(x=arrays(wide=False), data=st.data())
def test_transpose_swapaxes(x, data):
    r = x.ndim
    kind = data.draw(st.sampled_from(["perm", "perm", "bad", "none"]))
    if kind == "perm":
        perm = tuple(data.draw(st.permutations(range(r))))
        perm = tuple(p - r if data.draw(st.booleans()) else p for p in perm)
    elif kind == "bad":
        perm = tuple(data.draw(st.lists(st.integers(-r - 1, r), max_size=r + 1)))
    else:
        perm = None
    check("transpose", mnp.transpose, jnp.transpose, x, perm)
    a1, a2 = data.draw(st.integers(-r - 1, r)), data.draw(st.integers(-r - 1, r))
    check("swapaxes", mnp.swapaxes, jnp.swapaxes, x, a1, a2)


@prop(20)
@given(name=st.sampled_from(["concatenate", "stack"]), base=shapes(0, 3),
       n=st.integers(0, 3), data=st.data())
def test_concatenate_stack(name, base, n, data):
    _, m, j = both(name)
    xs = []
    for _ in range(n):
        shape = list(base)
        if shape and data.draw(st.integers(0, 3)) == 0:  # sometimes change one dim
            i = data.draw(st.integers(0, len(shape) - 1))
            shape[i] = data.draw(dims)
        if data.draw(st.integers(0, 8)) == 0:  # or the rank
            shape = shape[1:]
        dt = data.draw(st.sampled_from(FLOATS[2:] + [np.dtype(np.int32), np.dtype(np.bool_),
                                                     np.dtype(np.float16)]))
        xs.append(data.draw(arrays(shape=tuple(shape), dtype=dt, wide=False)))
    axis = data.draw(st.integers(-len(base) - 2, len(base) + 1))
    check(name, m, j, xs, axis=axis)


@prop(20)
@given(x=arrays(wide=False), data=st.data())
def test_squeeze_expand_dims(x, data):
    r = x.ndim
    ax = data.draw(st.one_of(st.none(), st.integers(-r - 1, r),
                             st.lists(st.integers(-r - 1, r), max_size=2).map(tuple)))
    check("squeeze", mnp.squeeze, jnp.squeeze, x, ax)
    ax = data.draw(st.one_of(st.integers(-r - 2, r + 1),
                             st.lists(st.integers(-r - 3, r + 2), max_size=3).map(tuple)))
    check("expand_dims", mnp.expand_dims, jnp.expand_dims, x, ax)


@prop(10)
@given(pair=shape_pairs(), x=st.data())
def test_broadcast_to(pair, x):
    a = x.draw(arrays(shape=pair[0], wide=False))
    check("broadcast_to", mnp.broadcast_to, jnp.broadcast_to, a, pair[1])


# ---------------------------------------------------------------------------
# Gathers, selects, sorting
# ---------------------------------------------------------------------------

def int_arrays(shape, bound):
    return st.integers(0, 2**16).map(
        lambda seed: np.random.default_rng(seed).integers(-bound - 2, bound + 2, shape)
        .astype(np.int32))


@prop(20)
@given(x=arrays(wide=False), data=st.data())
def test_take(x, data):
    r = x.ndim
    axis = data.draw(st.one_of(st.none(), st.integers(-r - 1, r)))
    n = x.size if axis is None else (x.shape[axis] if -r <= axis < r else 3)
    idx = data.draw(st.one_of(st.integers(-n - 2, n + 1), int_arrays(data.draw(shapes(0, 2)), n)))
    mode = data.draw(st.sampled_from([None, None, "clip", "wrap", "fill"]))
    if axis is not None and -r <= axis < r and x.shape[axis] == 0 and np.size(idx) == 0:
        # An empty take from an empty axis: jax.numpy.take returns its input
        # unchanged (the wrong shape); mlax gives NumPy's shape.
        idx = np.zeros((1,), np.int32)
    kwargs = {} if mode is None else {"mode": mode}
    check("take", mnp.take, jnp.take, x, idx, axis=axis, **kwargs)


@prop(15)
@given(x=arrays(shapes(1, 3), wide=False), data=st.data())
def test_take_along_axis(x, data):
    r = x.ndim
    axis = data.draw(st.integers(-r - 1, r))
    ishape = list(x.shape)
    if -r <= axis < r:
        ishape[axis] = data.draw(dims)
    if data.draw(st.integers(0, 4)) == 0:
        ishape = ishape[1:]
    n = x.shape[axis] if -r <= axis < r else 2
    idx = data.draw(int_arrays(tuple(ishape), n))
    if -r <= axis < r and x.shape[axis] == 0:
        # Out-of-bounds indices into an empty axis: JAX gives 0 whatever the
        # mode (not its documented fill value); mlax fills. Not compared.
        return
    check("take_along_axis", mnp.take_along_axis, jnp.take_along_axis, x, idx, axis)


@prop(15)
@given(pair=shape_pairs(), data=st.data())
def test_where_clip(pair, data):
    c = data.draw(arrays(shape=pair[0], dtype=np.bool_))
    x = data.draw(operands(shape=pair[1]))
    y = data.draw(operands(shape=data.draw(st.sampled_from([pair[0], pair[1], ()]))))
    check("where", mnp.where, jnp.where, c, x, y)
    a = data.draw(arrays(shape=pair[1]))
    lo = data.draw(st.one_of(st.none(), operands(shape=pair[0])))
    hi = data.draw(st.one_of(st.none(), operands(shape=())))
    check("clip", mnp.clip, jnp.clip, a, lo, hi, scale=5.0)


@prop(20)
@given(name=st.sampled_from(["sort", "argsort"]), x=arrays(), data=st.data())
def test_sort(name, x, data):
    _, m, j = both(name)
    r = x.ndim
    axis = data.draw(st.one_of(st.none(), st.integers(-r - 1, r)))
    kwargs = {}
    if data.draw(st.booleans()):
        kwargs["descending"] = True
    if name == "argsort" and x.dtype.kind == "f":
        # Ties between NaNs / +-0 order by index in both; but equal floats
        # in f16/bf16 (rounded) still tie deterministically; compare as is.
        pass
    check(name, m, j, x, axis=axis, **kwargs)


# ---------------------------------------------------------------------------
# Indexing
# ---------------------------------------------------------------------------

@st.composite
def indices(draw, shape):
    """An index expression for an array of `shape`: ints (in and out of
    bounds, negative), slices (any start/stop, step != 0 mostly), None,
    Ellipsis, integer arrays, boolean masks; sometimes too many."""
    parts = []
    n_ellipsis = 0
    budget = len(shape) + draw(st.integers(-len(shape), 1))
    pos = 0
    for _ in range(max(budget, 0) + draw(st.integers(0, 1))):
        d = shape[pos] if pos < len(shape) else 2
        kind = draw(st.sampled_from(["int", "int", "slice", "slice", "none", "ellipsis",
                                     "intarray", "bool"]))
        if kind == "int":
            parts.append(draw(st.integers(-d - 1, d)))
            pos += 1
        elif kind == "slice":
            bound = st.one_of(st.none(), st.integers(-d - 2, d + 2))
            step = draw(st.one_of(st.none(), st.sampled_from([1, 2, -1, -2, 3, 0])))
            parts.append(slice(draw(bound), draw(bound), step))
            pos += 1
        elif kind == "none":
            parts.append(None)
        elif kind == "ellipsis":
            n_ellipsis += 1
            if n_ellipsis > 1 and draw(st.integers(0, 3)):
                continue  # two Ellipses only now and then (IndexError)
            parts.append(Ellipsis)
        elif kind == "intarray":
            parts.append(draw(int_arrays(draw(shapes(0, 2)), d)))
            pos += 1
        else:
            parts.append(np.random.default_rng(draw(st.integers(0, 99))).random(
                shape[pos:pos + 1]) > 0.5 if pos < len(shape) else np.array(True))
            pos += 1
    if len(parts) == 1 and draw(st.booleans()):
        return parts[0]
    return tuple(parts)


def _getitem(lib):
    return lambda a, i: lib.asarray(a)[i]


@prop(40)
@given(x=arrays(wide=False), data=st.data())
@example(x=np.arange(6, dtype=np.float32).reshape(2, 3), data=None)
def test_getitem(x, data):
    idx = data.draw(indices(x.shape)) if data is not None else (Ellipsis, None, 1)
    # mlax raises NumPy's IndexError for an out-of-bounds static integer
    # (test_indexing.py::test_bad_indices_raise_clear_errors) where JAX
    # clamps it.
    check("getitem", _getitem(mnp), _getitem(jnp), x, idx, **_index_allowances(x, idx))


def _index_allowances(x, idx, update=False):
    """The deliberate differences of mlax's indexing from JAX's, for `check`."""
    may_raise, kinds = [], [(IndexError, ValueError)]
    # Index arrays that do not broadcast together: NumPy's IndexError
    # (test_indexing.py pins it) where JAX raises ValueError.
    if _static_int_out_of_bounds(x.shape, idx):
        # mlax raises NumPy's IndexError for an out-of-bounds static integer
        # (test_indexing.py::test_bad_indices_raise_clear_errors); JAX clamps.
        may_raise.append(IndexError)
    if _has_bool_scalar(idx):
        may_raise.append(IndexError)
        kinds.append((IndexError, Exception))
    if x.size == 0:
        # JAX is inconsistent about static indices into a size-0 axis (an
        # IndexError for x[0], nothing or an internal gather TypeError with
        # advanced indexing) and skips the update checks of empty scatters;
        # mlax raises IndexError (and ValueError/TypeError for updates that
        # do not broadcast / a bool add) consistently.
        may_raise += [IndexError, ValueError, TypeError] if update else [IndexError]
        kinds.append((IndexError, TypeError))
    return {"may_raise": tuple(may_raise), "same_kinds": tuple(kinds)}


def _has_bool_scalar(idx):
    """A 0-d boolean index: mlax rejects it with an IndexError saying so
    (a documented limitation, indexing.py: "use None to add an axis")."""
    parts = idx if isinstance(idx, tuple) else (idx,)
    return any(isinstance(p, np.ndarray) and p.ndim == 0 and p.dtype == np.bool_
               for p in parts)


def _static_int_out_of_bounds(shape, idx):
    """Whether NumPy rejects `idx` for a static integer out of bounds."""
    parts = idx if isinstance(idx, tuple) else (idx,)
    parts = tuple(np.zeros_like(p) if isinstance(p, np.ndarray) and p.ndim and
                  p.dtype != np.bool_ else p for p in parts)
    try:
        np.empty(shape, np.int8)[parts]
    except IndexError as e:
        return "out of bounds" in str(e)
    except Exception:  # noqa: BLE001
        return False
    return False


def _at(lib, method):
    return lambda a, i, v: getattr(lib.asarray(a).at[i], method)(v)


@prop(30)
@given(x=arrays(wide=False), method=st.sampled_from(["set", "add", "multiply", "min", "max"]),
       data=st.data())
def test_at_update(x, method, data):
    idx = data.draw(indices(x.shape))
    # The update: a scalar, or an array broadcastable (or not) to x[idx].
    try:
        target = np.empty(x.shape, np.int8)[idx].shape
    except Exception:  # noqa: BLE001  an invalid index: any shape will do
        target = ()
    vshape = data.draw(st.sampled_from([(), target, target[1:], (3,)]))
    v = data.draw(operands(shape=vshape, dtype=x.dtype))
    check(f"at[].{method}", _at(mnp, method), _at(jnp, method), x, idx, v,
          **_index_allowances(x, idx, update=True))


# ---------------------------------------------------------------------------
# Transformations
# ---------------------------------------------------------------------------

# f(x) pairs (mlax, jax) for the transformation properties; each is a small
# composite of ops so the passes (autodiff, vectorize) see several kinds.
FUNS = {
    "sin": (lambda x: mnp.sin(x), lambda x: jnp.sin(x)),
    "poly": (lambda x: x * x + 2 * x - 1, lambda x: x * x + 2 * x - 1),
    "tanh_exp": (lambda x: mnp.tanh(x) * mnp.exp(x / 4), lambda x: jnp.tanh(x) * jnp.exp(x / 4)),
    "sum_keep": (lambda x: x - mnp.sum(x, axis=-1, keepdims=True),
                 lambda x: x - jnp.sum(x, axis=-1, keepdims=True)),
    "max0": (lambda x: mnp.maximum(x, 0.0), lambda x: jnp.maximum(x, 0.0)),
    "where": (lambda x: mnp.where(x > 0, x, x * 3), lambda x: jnp.where(x > 0, x, x * 3)),
    "cumsum": (lambda x: mnp.cumsum(x, axis=-1), lambda x: jnp.cumsum(x, axis=-1)),
    "transpose": (lambda x: mnp.transpose(x) * 2, lambda x: jnp.transpose(x) * 2),
    "sort": (lambda x: mnp.sort(x, axis=-1), lambda x: jnp.sort(x, axis=-1)),
    "index": (lambda x: x[..., ::-1][..., :2], lambda x: x[..., ::-1][..., :2]),
    "reshape": (lambda x: mnp.reshape(x, (-1,)) ** 2, lambda x: jnp.reshape(x, (-1,)) ** 2),
    "prod": (lambda x: mnp.prod(x, axis=0), lambda x: jnp.prod(x, axis=0)),
    "at_set": (lambda x: x.at[..., 0].set(1.0) * x, lambda x: x.at[..., 0].set(1.0) * x),
    "sqrt": (lambda x: mnp.sqrt(x * x + 1), lambda x: jnp.sqrt(x * x + 1)),
}


@prop(15)
@given(fname=st.sampled_from(sorted(FUNS)), x=arrays(wide=False))
def test_jit(fname, x):
    m, j = FUNS[fname]
    check(f"jit/{fname}", mlax.jit(m), jax.jit(j), x)


@prop(20)
@given(fname=st.sampled_from(sorted(FUNS)), x=arrays(wide=False),
       jit=st.booleans())
def test_grad_of_sum(fname, x, jit):
    m, j = FUNS[fname]
    gm = mlax.grad(lambda v: mnp.sum(m(v)))
    # JAX's reference is jitted either way: one compile, not one per op.
    gj = jax.jit(jax.grad(lambda v: jnp.sum(j(v))))
    if jit:
        gm = mlax.jit(gm)
    # Gradients of f16/bf16 sums accumulate rounding: looser.
    check(f"grad/{fname}", gm, gj, x, scale=50.0)


@prop(20)
@given(fname=st.sampled_from(sorted(FUNS)), x=arrays(wide=False),
       in_axes=st.sampled_from([0, 0, 0, 1, -1, None]))
def test_vmap(fname, x, in_axes):
    m, j = FUNS[fname]
    # (JAX's reference jitted: one compile, not one per op.)
    check(f"vmap/{fname}", mlax.vmap(m, in_axes=in_axes),
          jax.jit(jax.vmap(j, in_axes=in_axes)), x, scale=5.0)


# ---------------------------------------------------------------------------
# Pytrees
# ---------------------------------------------------------------------------

@st.composite
def pytrees(draw, depth=2):
    leaf = arrays(shape=draw(st.sampled_from([(), (2,), (2, 3)])),
                  dtype=draw(float_dtypes), wide=False)
    if depth == 0:
        return draw(leaf)
    kind = draw(st.sampled_from(["leaf", "tuple", "list", "dict", "none"]))
    if kind == "leaf":
        return draw(leaf)
    if kind == "none":
        return None
    children = [draw(pytrees(depth - 1)) for _ in range(draw(st.integers(0, 3)))]
    if kind == "tuple":
        return tuple(children)
    if kind == "list":
        return children
    return {f"k{i}": c for i, c in enumerate(children)}


def _tree_sum(lib, tree_util):
    def f(t):
        leaves = tree_util.tree_leaves(t)
        total = 0.0
        for leaf in leaves:
            total = total + lib.sum(lib.sin(leaf).astype(lib.float32))
        return total
    return f


@prop(15)
@given(tree=pytrees(), data=st.data())
def test_pytrees(tree, data):
    which = data.draw(st.sampled_from(["jit_identity", "jit_map", "grad", "vmap"]))
    if which == "jit_identity":
        check("pytree/jit_identity", mlax.jit(lambda t: t), jax.jit(lambda t: t), tree)
    elif which == "jit_map":
        check("pytree/jit_map",
              mlax.jit(lambda t: mlax.tree_util.tree_map(lambda v: v * 2 + 1, t)),
              jax.jit(lambda t: jax.tree_util.tree_map(lambda v: v * 2 + 1, t)), tree)
    elif which == "grad":  # (JAX's references jitted: one compile, not one per op)
        check("pytree/grad", mlax.grad(_tree_sum(mnp, mlax.tree_util)),
              jax.jit(jax.grad(_tree_sum(jnp, jax.tree_util))), tree, scale=50.0)
    else:
        check("pytree/vmap", mlax.vmap(lambda t: mlax.tree_util.tree_map(mnp.cos, t)),
              jax.jit(jax.vmap(lambda t: jax.tree_util.tree_map(jnp.cos, t))), tree, scale=5.0)


# ---------------------------------------------------------------------------
# Regressions: what the properties found (fixed in mlax), pinned as is
# ---------------------------------------------------------------------------

_B = np.array([True, False, True])
_REGRESSIONS = {
    # bools divide as ints (JAX's promote_args_numeric), strongly typed
    "floor_divide(bool, bool)": ("floor_divide", (False, np.True_), {}),
    "remainder(bool, bool)": ("remainder", (_B, _B[::-1].copy()), {}),
    "fmod(bool, int)": ("fmod", (_B, 1), {}),
    # a power with a bool operand is a strong integer power
    "power(bool, 2)": ("power", (_B, 2), {}),
    # a 0-d array has no axis 0
    "cumsum(0-d, axis=0)": ("cumsum", (np.float32(1),), {"axis": 0}),
    "cumprod(0-d, axis=-1)": ("cumprod", (np.int32(2),), {"axis": -1}),
    # repeated axes are rejected
    "expand_dims(repeated)": ("expand_dims", (np.True_, (0, 0)), {}),
    # a non-empty take from an empty axis raises in every mode
    "take(empty, 0)": ("take", (np.zeros(0, np.float32), 0), {}),
    "take(empty, [1], fill)": ("take", (np.zeros((2, 0), np.int32), np.array([1])),
                               {"axis": 1, "mode": "fill"}),
}


@pytest.mark.parametrize("case", sorted(_REGRESSIONS))
def test_regressions(case):
    name, args, kwargs = _REGRESSIONS[case]
    check(name, getattr(mnp, name), getattr(jnp, name), *args, **kwargs)


@pytest.mark.parametrize("method,idx,v", [
    ("add", 0, True),  # a bool add/multiply is a TypeError, as lax.add
    ("multiply", slice(None), np.array([True, False, False])),
    ("add", 0, -1),  # bool x with int updates: combined as ints, cast back
    ("add", np.array([0, 0, 2]), -1),
    ("max", 1, 2),
])
def test_bool_at_update_regressions(method, idx, v):
    check(f"at[].{method}", _at(mnp, method), _at(jnp, method), _B, idx, v)


@pytest.mark.parametrize("x,idx", [
    (np.zeros((0,), np.float32), (Ellipsis, 0)),  # a static index into a size-0 axis
    (np.zeros((0,), np.float32), 0),
])
def test_update_of_empty_axis_regressions(x, idx):
    check("at[].set", _at(mnp, "set"), _at(jnp, "set"), x, idx, 1.0)
    check("vmap/at_set", mlax.vmap(FUNS["at_set"][0]), jax.vmap(FUNS["at_set"][1]),
          np.zeros((1, 0), np.float32))


def test_grad_of_empty_at_set_regression():
    """grad through x.at[...].set of an empty x used to fail in the C++
    autodiff (the empty scatter's derivative, see below); an
    update of nothing is now no scatter at all."""
    check("grad/at_set", mlax.grad(lambda v: mnp.sum(FUNS["at_set"][0](v))),
          jax.grad(lambda v: jnp.sum(FUNS["at_set"][1](v))), np.zeros((0, 1), np.float16))


def _lax_scatter(lax_, name, dn, **kw):
    return lambda v, i, u: getattr(lax_, name)(v, i, u, dn, **kw)


@pytest.mark.parametrize("name", ["scatter", "scatter_add", "scatter_mul", "scatter_min",
                                  "scatter_max"])
def test_grad_of_lax_scatter_into_empty_operand(name):
    """The derivative of a scatter with an empty operand used to emit an
    mlax.gather with slice size 1 on a size-0 dimension, which the gather
    verifier rejected (a CompileError); the read-back of updates that fit
    nowhere is now zeros (test/lit/Autodiff/indexing.mlir)."""
    kw = {"unique_indices": True} if name == "scatter_mul" else {}  # JAX's requirement

    def loss(lax_, lib):
        dn = lax_.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0, 1),
                                          scatter_dims_to_operand_dims=(0, 1))
        sc = _lax_scatter(lax_, name, dn, **kw)
        return lambda v, u: lib.sum(sc(v, np.zeros((0, 2), np.int32), u))

    mg = mlax.grad(loss(mlax.lax, mnp), argnums=(0, 1))
    jg = jax.grad(loss(jax.lax, jnp), argnums=(0, 1))
    x, u = np.zeros((0, 1), np.float32), np.zeros((0,), np.float32)
    check(f"grad/{name}_empty", mg, jg, x, u)
    check(f"jit/grad/{name}_empty", mlax.jit(mg), jax.jit(jg), x, u)


def test_grad_of_lax_scatter_into_empty_operand_drops_updates():
    """Updates into an operand with a size-0 dimension are all dropped: their
    cotangent is zeros (JAX raises an internal TypeError from its transpose's
    gather here, so this one is checked against the definition)."""
    dn = mlax.lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0, 1),
                                          scatter_dims_to_operand_dims=(0, 1))
    x, i, u = np.zeros((0, 1), np.float32), np.zeros((3, 2), np.int32), np.ones(3, np.float32)
    gx, gu = mlax.grad(lambda v, w: mnp.sum(mlax.lax.scatter_add(v, i, w, dn)),
                       argnums=(0, 1))(x, u)
    assert gx.shape == (0, 1) and np.asarray(gu).tolist() == [0.0, 0.0, 0.0]


@st.composite
def scatter_cases(draw):
    """A lax.scatter* call on a 2-D operand: rows chosen by one index each
    (some out of bounds, where the scatter drops the update), each update a
    window of `w` rows (w > 1: update_window_dims) or one row (inserted)."""
    n = draw(st.integers(0, 5))
    m = draw(st.integers(1, 3))
    name = draw(st.sampled_from(["scatter", "scatter_add", "scatter_mul", "scatter_min",
                                 "scatter_max"]))
    # No updates into an empty operand: JAX's transpose then fails inside
    # (test_grad_of_lax_scatter_into_empty_operand_drops_updates).
    k = draw(st.integers(0, 4)) if n else 0
    window = draw(st.integers(1, 2)) if n >= 2 and draw(st.booleans()) else None
    lo, hi = -3, n + 2
    if name == "scatter_mul":  # JAX differentiates it only with unique indices
        starts = draw(st.lists(st.integers(lo, hi), min_size=k, max_size=k, unique=True))
    else:
        starts = draw(st.lists(st.integers(lo, hi), min_size=k, max_size=k))
    idx = np.array(starts, np.int32).reshape(k, 1)
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    # Small integers as floats: ties (min/max) and repeats do happen.
    x = rng.integers(-2, 3, (n, m)).astype(np.float32)
    upd_shape = (k, m) if window is None else (k, window, m)
    u = rng.integers(-2, 3, upd_shape).astype(np.float32)
    w = rng.integers(1, 4, (n, m)).astype(np.float32)
    if window is None:
        dims = dict(update_window_dims=(1,), inserted_window_dims=(0,),
                    scatter_dims_to_operand_dims=(0,))
    else:
        dims = dict(update_window_dims=(1, 2), inserted_window_dims=(),
                    scatter_dims_to_operand_dims=(0,))
    return name, dims, x, idx, u, w


@prop(24)
@given(case=scatter_cases(), jit=st.booleans())
def test_grad_of_lax_scatter(case, jit):
    """Gradients of every scatter combiner with respect to the operand and
    the updates, out-of-bounds (dropped) updates included, as JAX's."""
    name, dims, x, idx, u, w = case
    kw = {"unique_indices": True} if name == "scatter_mul" else {}

    def loss(lax_, lib):
        dn = lax_.ScatterDimensionNumbers(**dims)
        sc = _lax_scatter(lax_, name, dn, **kw)
        return lambda v, upd: lib.sum(sc(v, idx, upd) * w)

    mg = mlax.grad(loss(mlax.lax, mnp), argnums=(0, 1))
    # JAX's reference is jitted either way: one compile, not one per op.
    jg = jax.jit(jax.grad(loss(jax.lax, jnp), argnums=(0, 1)))
    check(f"grad/lax.{name}", mlax.jit(mg) if jit else mg, jg, x, u)


@prop(25)
@given(n=st.integers(1, 5), m=st.integers(1, 3), k=st.integers(0, 4),
       mode=st.sampled_from([None, "clip", "promise_in_bounds"]), seed=st.integers(0, 2**16))
def test_grad_of_lax_gather(n, m, k, mode, seed):
    """The gradient of a gather with out-of-bounds starts: dropped (JAX's
    default and promise_in_bounds) or sent to the clamped rows ('clip')."""
    rng = np.random.default_rng(seed)
    idx = rng.integers(-3, n + 3, (k, 1)).astype(np.int32)
    x = rng.standard_normal((n, m)).astype(np.float32)
    w = rng.integers(1, 4, (k, m)).astype(np.float32)

    def loss(lax_, lib):
        dn = lax_.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,),
                                         start_index_map=(0,))
        return lambda v: lib.sum(lax_.gather(v, idx, dn, (1, m), mode=mode) * w)

    # (JAX's references jitted: one compile, not one per op.)
    check(f"grad/lax.gather[{mode}]", mlax.grad(loss(mlax.lax, mnp)),
          jax.jit(jax.grad(loss(jax.lax, jnp))), x)
    check(f"value/lax.gather[{mode}]", lambda v: loss(mlax.lax, mnp)(v),
          jax.jit(loss(jax.lax, jnp)), x)

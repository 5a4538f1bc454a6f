"""More property-based tests (hypothesis) against JAX, in the manner of
test_properties.py (whose helpers and per-property call counts they share):

  * mlax.random: every sampler, for random seeds (raw and typed keys),
    shapes, dtypes and parameters, eagerly and vmapped under jit, is
    jax.random's: bit for bit (same dtype, shape, weak type and bytes) for
    the primitive samplers, within a few float32 ulps for the composite
    ones (gamma, beta, t, ...: XLA fuses their math differently); invalid
    calls raise an exception of the kind JAX raises;
  * control flow: lax.cond / switch / while_loop / fori_loop / scan for
    random shapes, dtypes, lengths, bounds, `reverse` and `unroll`, eagerly
    and under jit, return JAX's values; gradients of scan and cond are
    JAX's; invalid calls raise the kind of exception JAX raises.

Deterministic and bounded for CI; `MLAX_PROPERTY_EXAMPLES=N` runs N
examples per property. The calls tried are printed in the terminal summary.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import jax.random as jr
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import mlax
import mlax.numpy as mnp
import mlax.random as mr
from test_properties import (  # noqa: F401  (_report_calls: the call counts)
    CALLS, Mismatch, _describe, _report_calls, bf16, check, prop, same_kind)

FLOATS = [np.dtype(np.float32), np.dtype(np.float16), bf16]


# ---------------------------------------------------------------------------
# Bit-exact comparison
# ---------------------------------------------------------------------------

def _raw(x):
    """(numpy value, dtype, weak type) of a leaf; keys as their uint32 data."""
    if isinstance(x, mr.KeyArray):
        return np.asarray(mr.key_data(x)), "key<fry>", False
    if isinstance(x, jax.Array) and jax.dtypes.issubdtype(x.dtype, jax.dtypes.prng_key):
        return np.asarray(jr.key_data(x)), "key<fry>", False
    if isinstance(x, (mlax.Array, jax.Array)):
        return np.asarray(x), np.dtype(x.dtype), bool(x.weak_type)
    a = np.asarray(x)
    return a, a.dtype, None


def check_bits(name, mfn, jfn, *args, rtol=None, same_kinds=()):
    """mfn(*args) is bit for bit jfn(*args) (or both raise the same kind of
    exception). `rtol`: compare values within it instead of bits;
    `same_kinds`: (mlax's, JAX's) exception classes counted as one kind."""
    CALLS[name] += 1
    what = f"{name}({_describe(args)})"
    try:
        want = jfn(*args)
        jax.block_until_ready(want)
        jexc = None
    except Exception as e:  # noqa: BLE001
        jexc = e
    try:
        got = mfn(*args)
        mlax.block_until_ready(got)
    except mlax.CompileError as e:
        raise Mismatch(f"{what}: mlax raised CompileError; JAX: {jexc!r}\n{e}") from e
    except Exception as e:  # noqa: BLE001
        if jexc is None:
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
    is_key = lambda x: isinstance(x, mr.KeyArray)  # noqa: E731
    gl, gt = jax.tree_util.tree_flatten(got, is_leaf=is_key)
    wl, wt = jax.tree_util.tree_flatten(want)
    if len(gl) != len(wl):
        raise Mismatch(f"{what}: {len(gl)} results, JAX {len(wl)}")
    for g, w in zip(gl, wl):
        ga, gdt, gweak = _raw(g)
        wa, wdt, wweak = _raw(w)
        if (ga.shape, str(gdt)) != (wa.shape, str(wdt)):
            raise Mismatch(f"{what}: {gdt}{list(ga.shape)} != JAX's {wdt}{list(wa.shape)}")
        if gweak is not None and wweak is not None and gweak != wweak:
            raise Mismatch(f"{what}: weak_type {gweak} != JAX's {wweak}")
        if rtol is None:
            if ga.tobytes() != wa.tobytes():
                raise Mismatch(f"{what}: bits differ\nmlax {ga!r}\nJAX  {wa!r}")
        else:
            np.testing.assert_allclose(ga.astype(np.float64), wa.astype(np.float64),
                                       rtol=rtol, atol=rtol, err_msg=what)
    return got


# ---------------------------------------------------------------------------
# mlax.random
# ---------------------------------------------------------------------------

def shapes(max_dims=3, max_size=4):
    return st.lists(st.integers(0, max_size), max_size=max_dims).map(tuple)


def _sampler_case(draw, name):
    """(call(random_module, key) -> sample, rtol) for sampler `name`."""
    shape = draw(shapes())
    fdt = draw(st.sampled_from(FLOATS))
    rtol = None
    if name == "bits":
        dt = draw(st.sampled_from([None, np.uint8, np.uint16, np.uint32]))
        call = lambda r, k: r.bits(k, shape, dt)  # noqa: E731
    elif name == "uniform":
        lo = draw(st.sampled_from([0.0, -1.0, -3.5, 2.0]))
        hi = lo + draw(st.sampled_from([1.0, 0.25, 10.0]))
        if draw(st.booleans()) and shape:  # array bounds, broadcast to the shape
            lo = np.full(shape[-1:], lo, fdt)
        call = lambda r, k: r.uniform(k, shape, fdt, lo, hi)  # noqa: E731
    elif name == "normal":
        call = lambda r, k: r.normal(k, shape, fdt)  # noqa: E731
    elif name == "truncated_normal":
        lo = draw(st.sampled_from([-2.0, -0.5, 0.0, 1.0]))
        hi = lo + draw(st.sampled_from([0.5, 1.0, 3.0]))
        shp = shape if draw(st.booleans()) else None
        call = lambda r, k: r.truncated_normal(k, lo, hi, shp, fdt)  # noqa: E731
    elif name == "bernoulli":
        mode = draw(st.sampled_from(["low", "high"]))
        if draw(st.booleans()):
            p, shp = draw(st.sampled_from([0.0, 0.3, 0.5, 1.0])), shape
        else:
            p = np.linspace(0, 1, int(np.prod(shape, dtype=np.int64))).astype(
                fdt).reshape(shape)
            shp = None
        call = lambda r, k: r.bernoulli(k, p, shp, mode)  # noqa: E731
    elif name == "exponential":
        call = lambda r, k: r.exponential(k, shape, fdt)  # noqa: E731
    elif name == "gumbel":
        mode = draw(st.sampled_from([None, "low", "high", "highest"]))
        call = lambda r, k: r.gumbel(k, shape, fdt, mode)  # noqa: E731
    elif name == "categorical":
        batch = draw(shapes(2, 3))
        n = draw(st.integers(1, 5))
        axis = draw(st.integers(-len(batch) - 1, len(batch)))
        logits_shape = list(batch)
        logits_shape.insert(axis % (len(batch) + 1), n)
        rng = np.random.default_rng(draw(st.integers(0, 2**16)))
        logits = rng.standard_normal(logits_shape).astype(fdt)
        replace = draw(st.booleans())
        prefix = draw(shapes(1, 3))
        if not replace:
            prefix = prefix if int(np.prod(prefix, dtype=np.int64)) <= n else ()
        shp = tuple(prefix) + tuple(batch) if draw(st.booleans()) else None
        call = lambda r, k: r.categorical(k, logits, axis, shp, replace)  # noqa: E731
    elif name == "randint":
        dt = draw(st.sampled_from([np.int8, np.int16, np.int32, np.uint8, np.uint16,
                                   np.uint32]))
        info = np.iinfo(dt)
        lo = draw(st.integers(max(int(info.min), -300), min(int(info.max), 300)))
        hi = draw(st.sampled_from([lo + 1, lo + 7, lo + 1000, int(info.max), lo - 1]))
        call = lambda r, k: r.randint(k, shape, lo, hi, dt)  # noqa: E731
    elif name == "permutation":
        if draw(st.booleans()):
            n = draw(st.integers(0, 8))
            call = lambda r, k: r.permutation(k, n)  # noqa: E731
        else:
            shp = draw(shapes(3, 4).filter(lambda s: len(s) > 0))
            x = np.arange(int(np.prod(shp, dtype=np.int64)), dtype=np.int32).reshape(shp)
            axis = draw(st.integers(-len(shp), len(shp) - 1))
            independent = draw(st.booleans())
            call = lambda r, k: r.permutation(k, x, axis, independent)  # noqa: E731
    elif name == "choice":
        a = draw(st.one_of(st.integers(1, 6),
                           st.sampled_from([np.arange(5, dtype=np.float32),
                                            np.arange(12, dtype=np.int32).reshape(4, 3)])))
        n = a if isinstance(a, int) else a.shape[0]
        shp = draw(shapes(2, 3))
        replace = draw(st.booleans())
        if not replace and int(np.prod(shp, dtype=np.int64)) > n:
            shp = (min(n, 2),)
        p = None
        if draw(st.booleans()):
            p = np.arange(1, n + 1, dtype=np.float32)
            p /= p.sum()
        call = lambda r, k: r.choice(k, a, shp, replace, p)  # noqa: E731
    elif name == "multivariate_normal":
        n = draw(st.integers(1, 3))
        rng = np.random.default_rng(draw(st.integers(0, 2**16)))
        a = rng.standard_normal((n, n)).astype(np.float32)
        cov = (a @ a.T + n * np.eye(n)).astype(np.float32)
        mean = rng.standard_normal((n,)).astype(np.float32)
        shp = draw(shapes(2, 3)) if draw(st.booleans()) else None
        call = lambda r, k: r.multivariate_normal(k, mean, cov, shp)  # noqa: E731
        rtol = 2e-5  # a Cholesky factorization: not bit for bit
    elif name == "split":
        num = draw(st.one_of(st.integers(1, 4), shapes(2, 3)))
        call = lambda r, k: r.split(k, num)  # noqa: E731
    elif name == "fold_in":
        data = draw(st.one_of(st.integers(0, 2**32 - 1), st.integers(-2**31, 2**31 - 1).map(
            np.int32)))
        call = lambda r, k: r.fold_in(k, data)  # noqa: E731
    else:
        raise AssertionError(name)
    return call, rtol


SAMPLERS = ["bits", "uniform", "normal", "truncated_normal", "bernoulli", "exponential",
            "gumbel", "categorical", "randint", "permutation", "choice",
            "multivariate_normal", "split", "fold_in"]

_LIBS = {"m": (mr, mlax.jit, mlax.vmap), "j": (jr, jax.jit, jax.vmap)}


def _run_sampler(lib, call, make_key, seed, mode, batch):
    """The sampler eagerly (the samplers are jitted programs of their own,
    as JAX's) or vmapped over `batch` split keys under jit: one compile
    each."""
    r, jit, vmap = _LIBS[lib]
    key = getattr(r, make_key)(seed)
    if mode == "eager":
        return call(r, key)
    assert mode == "jit(vmap)"
    return jit(lambda k: vmap(lambda k1: call(r, k1))(r.split(k, batch)))(key)


# Modes: eagerly, and vmapped under jit (the unbatched sampler under jit is
# the eager one's program inside a jit: one compile per mode and library).
SAMPLER_MODES = ["eager", "jit(vmap)"]


@pytest.mark.parametrize("mode", SAMPLER_MODES)
@pytest.mark.parametrize("name", SAMPLERS)
@prop(2)
@given(data=st.data())
def test_random_sampler_is_bit_exact(name, mode, data):
    call, rtol = _sampler_case(data.draw, name)
    seed = data.draw(st.one_of(st.integers(-2**31, 2**31 - 1), st.integers(0, 2**40)))
    make_key = data.draw(st.sampled_from(["PRNGKey", "key"]))
    batch = data.draw(st.integers(1, 3))
    check_bits(f"random.{name}[{mode}]",
               lambda s: _run_sampler("m", call, make_key, s, mode, batch),
               lambda s: _run_sampler("j", call, make_key, s, mode, batch), seed,
               rtol=rtol)


def _sampler_more_case(draw, name):
    """The samplers of mlax._src.random.distributions (composites of the ones above:
    gamma's rejection loop, transcendental transforms): call(r, key). Their
    values are compared within a few float32 ulps: XLA fuses the two
    programs' elementwise math differently, so the last bit may differ."""
    shape = draw(shapes(2, 3))
    f32 = np.float32
    pos = st.sampled_from([0.3, 0.7, 1.0, 2.5, 6.0])  # shape parameters > 0
    if name in ("cauchy", "laplace", "logistic", "maxwell"):
        return lambda r, k: getattr(r, name)(k, shape, f32)  # noqa: E731
    if name == "rademacher":
        dt = draw(st.sampled_from([None, np.int32, np.int8, np.float32]))
        return lambda r, k: r.rademacher(k, shape, dt)  # noqa: E731
    if name in ("chisquare", "gamma", "loggamma", "pareto", "rayleigh", "t", "wald",
                "generalized_normal", "lognormal"):
        a = draw(pos)
        return lambda r, k: getattr(r, name)(k, a, shape, f32)  # noqa: E731
    if name in ("beta", "f", "weibull_min"):
        a, b = draw(pos), draw(pos)
        return lambda r, k: getattr(r, name)(k, a, b, shape, f32)  # noqa: E731
    if name == "double_sided_maxwell":
        loc, scale = draw(st.sampled_from([-1.0, 0.0, 2.0])), draw(pos)
        return lambda r, k: r.double_sided_maxwell(k, loc, scale, shape, f32)  # noqa: E731
    if name == "geometric":
        p = draw(st.sampled_from([0.1, 0.5, 0.9]))
        return lambda r, k: r.geometric(k, p, shape)  # noqa: E731
    if name == "triangular":
        left, right = -1.0, draw(st.sampled_from([0.5, 2.0]))
        mode = draw(st.sampled_from([-1.0, 0.0, right]))
        return lambda r, k: r.triangular(k, left, mode, right, shape, f32)  # noqa: E731
    if name == "dirichlet":
        n = draw(st.integers(1, 4))
        alpha = np.array(draw(st.lists(pos, min_size=n, max_size=n)), f32)
        return lambda r, k: r.dirichlet(k, alpha, shape, f32)  # noqa: E731
    if name == "ball":
        d, p = draw(st.integers(1, 4)), draw(st.sampled_from([1, 2, 3.5]))
        return lambda r, k: r.ball(k, d, p, shape, f32)  # noqa: E731
    raise AssertionError(name)


SAMPLERS_MORE = ["ball", "beta", "cauchy", "chisquare", "dirichlet", "double_sided_maxwell",
                 "f", "gamma", "generalized_normal", "geometric", "laplace", "loggamma",
                 "logistic", "lognormal", "maxwell", "pareto", "rademacher", "rayleigh", "t",
                 "triangular", "wald", "weibull_min"]


@pytest.mark.parametrize("mode", SAMPLER_MODES)
@pytest.mark.parametrize("name", SAMPLERS_MORE)
@prop(1)
@given(data=st.data())
def test_random_sampler_more_matches_jax(name, mode, data):
    call = _sampler_more_case(data.draw, name)
    seed = data.draw(st.integers(-2**31, 2**31 - 1))
    make_key = data.draw(st.sampled_from(["PRNGKey", "key"]))
    check_bits(f"random.{name}[{mode}]",
               lambda s: _run_sampler("m", call, make_key, s, mode, 2),
               lambda s: _run_sampler("j", call, make_key, s, mode, 2), seed, rtol=2e-5)


# Invalid calls: (name, call(random_module, key)). JAX's exception kind is
# the reference; the message is not compared.
_INVALID = {
    "bits/signed dtype": lambda r, k: r.bits(k, (2,), np.int32),
    "uniform/int dtype": lambda r, k: r.uniform(k, (2,), np.int32),
    "normal/int dtype": lambda r, k: r.normal(k, (2,), np.int32),
    # (A negative dimension is left out: JAX fails inside with an MLIRError.)
    "uniform/shape of floats": lambda r, k: r.uniform(k, (2.5,)),
    "uniform/bounds do not broadcast": lambda r, k: r.uniform(
        k, (2, 3), minval=np.zeros(4, np.float32)),
    "randint/float dtype": lambda r, k: r.randint(k, (2,), 0, 5, np.float32),
    "bernoulli/int p": lambda r, k: r.bernoulli(k, np.int32(1)),
    "bernoulli/bad mode": lambda r, k: r.bernoulli(k, 0.5, (2,), "middle"),
    "gumbel/bad mode": lambda r, k: r.gumbel(k, (2,), mode="medium"),
    "categorical/int logits": lambda r, k: r.categorical(k, np.arange(3)),
    "categorical/bad shape": lambda r, k: r.categorical(k, np.zeros((2, 3), np.float32),
                                                        shape=(4, 3)),
    "choice/too many without replacement": lambda r, k: r.choice(k, 3, (4,), False),
    "choice/p of the wrong size": lambda r, k: r.choice(k, 3, (2,), True,
                                                       np.ones(4, np.float32) / 4),
    "choice/shape not a sequence": lambda r, k: r.choice(k, 3, 2),
    "permutation/float scalar": lambda r, k: r.permutation(k, 2.5),
    "permutation/bad axis": lambda r, k: r.permutation(k, np.arange(4), 1),
    "fold_in/array data": lambda r, k: r.fold_in(k, np.arange(2, dtype=np.uint32)),
    "split/batched key": lambda r, k: r.split(r.split(k, 2)),
    "multivariate_normal/cov shape": lambda r, k: r.multivariate_normal(
        k, np.zeros(3, np.float32), np.eye(2, dtype=np.float32)),
    "multivariate_normal/method": lambda r, k: r.multivariate_normal(
        k, np.zeros(2, np.float32), np.eye(2, dtype=np.float32), method="qr"),
}


# Deliberate differences: JAX checks no bounds' shapes in uniform, and fails
# inside (a TypeError from its multiply); mlax checks them first and raises
# the ValueError JAX's other samplers raise for the same mistake.
_INVALID_KINDS = {"uniform/bounds do not broadcast": ((ValueError, TypeError),)}


@pytest.mark.parametrize("jit", [False, True])
@pytest.mark.parametrize("make_key", ["PRNGKey", "key"])
@pytest.mark.parametrize("name", sorted(_INVALID))
def test_random_invalid_calls_raise_as_jax(name, make_key, jit):
    call = _INVALID[name]

    def run(lib):
        r, jit_, _ = _LIBS[lib]
        key = getattr(r, make_key)(0)
        return jit_(lambda k: call(r, k))(key) if jit else call(r, key)

    with pytest.raises(Exception):  # noqa: B017  the case is invalid for JAX
        run("j")
    check_bits(f"random.invalid/{name}", lambda _: run("m"), lambda _: run("j"), 0,
               same_kinds=_INVALID_KINDS.get(name, ()))


# (seed=None is left out: mlax's TypeError where JAX's jnp.array raises ValueError.)
@pytest.mark.parametrize("bad", [1.5, "0", np.zeros(2, np.int32), np.float32(3)])
@pytest.mark.parametrize("make_key", ["PRNGKey", "key"])
def test_random_bad_seeds_raise_as_jax(bad, make_key):
    check_bits(f"random.{make_key}/bad seed", lambda s: getattr(mr, make_key)(s),
               lambda s: getattr(jr, make_key)(s), bad)


@pytest.mark.parametrize("key", [np.zeros(3, np.uint32), np.zeros(2, np.float32),
                                 np.zeros((), np.uint32)])
def test_random_bad_raw_keys_raise_as_jax(key):
    check_bits("random.normal/bad key", lambda k: mr.normal(k, (2,)),
               lambda k: jr.normal(k, (2,)), key)


# ---------------------------------------------------------------------------
# Control flow
# ---------------------------------------------------------------------------

CF_DTYPES = [np.dtype(np.float32), np.dtype(np.int32), np.dtype(np.float16), bf16,
             np.dtype(np.int8), np.dtype(np.uint8), np.dtype(np.bool_)]
_NUM_DTYPES = [d for d in CF_DTYPES if d != np.bool_]


@st.composite
def cf_arrays(draw, dtypes=None, shape=None):
    dt = draw(st.sampled_from(dtypes or _NUM_DTYPES))
    shape = draw(shapes(2, 3)) if shape is None else shape
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    if dt == np.bool_:
        return rng.random(shape) > 0.5
    if np.issubdtype(dt, np.integer):
        return rng.integers(0, 5, shape).astype(dt)
    return rng.uniform(-2, 2, shape).astype(dt)


def _lin(lib, x, a, b):
    """a * x + b in x's dtype (no promotion: lax-level arithmetic)."""
    dt = x.dtype
    return lib.asarray(x * lib.asarray(a, dt) + lib.asarray(b, dt), dt)


def _branches(lib):
    """Branch functions of (x, y) keeping dtypes and shapes."""
    return [
        lambda x, y: (_lin(lib, x, 2, 1), y),
        lambda x, y: (_lin(lib, x, 3, -1), _lin(lib, y, 1, 1)),
        lambda x, y: (x, _lin(lib, y, 2, 0)),
        lambda x, y: (_lin(lib, x, 1, 2), y),
    ]


def _maybe_jit(lib, jit, f):
    if not jit:
        return f
    return (mlax.jit if lib is mnp else jax.jit)(f)


@prop(12)
@given(x=cf_arrays(), y=cf_arrays(), pred=st.sampled_from([True, False, 0, 3, np.bool_(True),
                                                           np.int32(0)]),
       jit=st.booleans())
def test_cond(x, y, pred, jit):
    def f(lax_, lib):
        br = _branches(lib)
        return _maybe_jit(lib, jit, lambda p, a, b: lax_.cond(p, br[0], br[1], a, b))

    check("lax.cond", f(mlax.lax, mnp), f(jax.lax, jnp), pred, x, y)


@prop(12)
@given(x=cf_arrays(), y=cf_arrays(), n=st.integers(1, 4), index=st.integers(-3, 6),
       jit=st.booleans())
def test_switch(x, y, n, index, jit):
    def f(lax_, lib):
        br = _branches(lib)[:n]
        return _maybe_jit(lib, jit, lambda i, a, b: lax_.switch(i, br, a, b))

    check("lax.switch", f(mlax.lax, mnp), f(jax.lax, jnp), np.int32(index), x, y)


@prop(12)
@given(x=cf_arrays(), n=st.integers(-2, 6), jit=st.booleans())
def test_while_loop(x, n, jit):
    def f(lax_, lib):
        def run(x, n):
            def body(c):
                i, v = c
                return i + 1, _lin(lib, v, 1, 1)
            return lax_.while_loop(lambda c: c[0] < n, body, (np.int32(0), x))
        return _maybe_jit(lib, jit, run)

    check("lax.while_loop", f(mlax.lax, mnp), f(jax.lax, jnp), x, np.int32(n))


_BOUND_TYPES = [int, np.int32, np.int16, np.int8, np.uint8, float]


@prop(20)
@given(x=cf_arrays(), lo=st.integers(-3, 4), hi=st.integers(-3, 6),
       types=st.tuples(st.sampled_from(_BOUND_TYPES), st.sampled_from(_BOUND_TYPES)),
       unroll=st.sampled_from([None, 1, 2, 3, True]), traced=st.booleans(), jit=st.booleans())
def test_fori_loop(x, lo, hi, types, unroll, traced, jit):
    """Bounds of any dtype (JAX: equal dtypes or a weak Python int; concrete
    bounds are int(bound), even floats), known or traced (a while loop)."""
    if np.dtype(types[0]).kind == "u" and lo < 0:
        lo = -lo
    if np.dtype(types[1]).kind == "u" and hi < 0:
        hi = -hi
    lo_v, hi_v = types[0](lo), types[1](hi)
    if traced:
        unroll = None if unroll not in (None, 1) else unroll  # JAX: unroll needs static bounds
        if float in types:
            return  # a float while-loop counter: not what fori_loop is for
    kw = {} if unroll is None else {"unroll": unroll}

    def f(lax_, lib):
        def body(i, c):
            v, acc = c
            # `acc + i`: the index's dtype and weak type show in the result.
            return lib.asarray(v + lib.asarray(i, v.dtype), v.dtype), acc + i
        if traced:  # bounds as (traced, under jit) arguments: a while loop
            return _maybe_jit(lib, jit, lambda v, a, b: lax_.fori_loop(a, b, body, (v, 0), **kw))
        return _maybe_jit(lib, jit, lambda v: lax_.fori_loop(lo_v, hi_v, body, (v, 0), **kw))

    args = (x, lo_v, hi_v) if traced else (x,)
    check("lax.fori_loop", f(mlax.lax, mnp), f(jax.lax, jnp), *args)


@st.composite
def scan_cases(draw, dtypes=None):
    dt = draw(st.sampled_from(dtypes or _NUM_DTYPES))
    length = draw(st.integers(0, 5))
    shape = draw(shapes(2, 3))
    carry = draw(cf_arrays([dt], shape))
    xs = draw(cf_arrays([dt], (length,) + shape))
    return carry, xs


def _scan_fn(lib):
    def step(c, x):
        c2 = lib.asarray(c * lib.asarray(0.5 if np.issubdtype(c.dtype, np.floating) else 1,
                                         c.dtype) + x, c.dtype)
        return c2, (lib.asarray(c * x, c.dtype), lib.sum(c2))
    return step


@prop(20)
@given(case=scan_cases(), reverse=st.booleans(), unroll=st.sampled_from([1, 2, 3, True, False]),
       with_xs=st.booleans(), jit=st.booleans())
def test_scan(case, reverse, unroll, with_xs, jit):
    carry, xs = case
    length = xs.shape[0]

    def f(lax_, lib):
        step = _scan_fn(lib)
        if with_xs:
            return _maybe_jit(lib, jit, lambda c, x: lax_.scan(step, c, x, reverse=reverse,
                                                                unroll=unroll))
        # No xs: `length` steps of a function of the carry alone.
        return _maybe_jit(lib, jit, lambda c, x: lax_.scan(
            lambda c_, _: step(c_, c_), c, None, length=length, reverse=reverse,
            unroll=unroll))

    check("lax.scan", f(mlax.lax, mnp), f(jax.lax, jnp), carry, xs, scale=10.0)


@prop(12)
@given(case=scan_cases([np.dtype(np.float32)]), reverse=st.booleans(),
       unroll=st.sampled_from([1, 2, True]), jit=st.booleans())
def test_grad_of_scan(case, reverse, unroll, jit):
    carry, xs = case

    def f(lax_, lib, grad, jit):
        step = _scan_fn(lib)

        def loss(c, x):
            cf, (ys, sums) = lax_.scan(lambda a, b: step(lib.sin(a), b), c, x, reverse=reverse,
                                       unroll=unroll)
            return lib.sum(cf) + lib.sum(ys * ys) + lib.sum(sums)
        return _maybe_jit(lib, jit, grad(loss, argnums=(0, 1)))

    # JAX's reference is jitted either way: one compile, not one per op.
    check("grad/lax.scan", f(mlax.lax, mnp, mlax.grad, jit), f(jax.lax, jnp, jax.grad, True),
          carry, xs, scale=10.0)


@prop(12)
@given(x=cf_arrays([np.dtype(np.float32)]), y=cf_arrays([np.dtype(np.float32)]),
       pred=st.booleans(), index=st.integers(-1, 4), jit=st.booleans())
def test_grad_of_cond_and_switch(x, y, pred, index, jit):
    def branches(lib):
        return [lambda a, b: lib.sum(lib.sin(a)) + lib.sum(b * b),
                lambda a, b: lib.sum(a * 3.0) * lib.sum(lib.cos(b)) if a.size else lib.sum(b),
                lambda a, b: lib.sum(lib.exp(a * 0.1)) - lib.sum(b)]

    def f(lax_, lib, grad, jit):
        br = branches(lib)
        loss_c = lambda p, a, b: lax_.cond(p, br[0], br[1], a, b)  # noqa: E731
        loss_s = lambda i, a, b: lax_.switch(i, br, a, b)  # noqa: E731
        gc, gs = grad(loss_c, argnums=(1, 2)), grad(loss_s, argnums=(1, 2))
        # Under jit both gradients in one program; eagerly one each.
        return _maybe_jit(lib, jit, lambda p, i, a, b: (gc(p, a, b), gs(i, a, b)))

    # JAX's reference is jitted either way: one compile, not one per op.
    check("grad/lax.cond+switch", f(mlax.lax, mnp, mlax.grad, jit),
          f(jax.lax, jnp, jax.grad, True), pred, np.int32(index), x, y)


# Invalid control flow: (name, call(lax, numpy)); JAX's exception kind is the
# reference.
_CF_INVALID = {
    "cond/array predicate": lambda lax_, lib: lax_.cond(np.array([True, False]), lambda x: x,
                                                        lambda x: x, 1.0),
    "cond/branches differ in dtype": lambda lax_, lib: lax_.cond(
        True, lambda x: x, lambda x: lib.asarray(x, np.int32), np.float32(1)),
    "cond/branches differ in shape": lambda lax_, lib: lax_.cond(
        True, lambda x: x, lambda x: lib.stack([x, x]), np.float32(1)),
    "cond/branches differ in structure": lambda lax_, lib: lax_.cond(
        True, lambda x: (x, x), lambda x: x, np.float32(1)),
    "cond/branch not callable": lambda lax_, lib: lax_.cond(True, 1, lambda x: x, 1.0),
    "switch/no branches": lambda lax_, lib: lax_.switch(0, [], 1.0),
    "switch/array index": lambda lax_, lib: lax_.switch(np.array([0, 1]), [lambda x: x], 1.0),
    "switch/float index": lambda lax_, lib: lax_.switch(np.float32(0.5), [lambda x: x], 1.0),
    "while_loop/array predicate": lambda lax_, lib: lax_.while_loop(
        lambda c: c < 3, lambda c: c + 1, np.zeros(2, np.int32)),
    "while_loop/float predicate": lambda lax_, lib: lax_.while_loop(
        lambda c: c * 1.0, lambda c: c + 1, np.float32(0)),
    "while_loop/body changes dtype": lambda lax_, lib: lax_.while_loop(
        lambda c: c < 3, lambda c: lib.asarray(c, np.float32) + 1, np.int32(0)),
    "while_loop/body changes shape": lambda lax_, lib: lax_.while_loop(
        lambda c: lib.sum(c) < 3, lambda c: lib.concatenate([c, c]), np.zeros(1, np.int32)),
    "fori_loop/bounds differ in dtype": lambda lax_, lib: lax_.fori_loop(
        np.uint8(0), 3, lambda i, v: v, 1.0),
    "fori_loop/array bounds": lambda lax_, lib: lax_.fori_loop(
        np.zeros(2, np.int32), 3, lambda i, v: v, 1.0),
    "fori_loop/body changes dtype": lambda lax_, lib: lax_.fori_loop(
        0, 3, lambda i, v: lib.asarray(v, np.int32), np.float32(1)),
    "scan/carry changes dtype": lambda lax_, lib: lax_.scan(
        lambda c, x: (lib.asarray(c, np.int32), x), np.float32(0), np.zeros(3, np.float32)),
    "scan/carry changes shape": lambda lax_, lib: lax_.scan(
        lambda c, x: (lib.stack([c, c]), x), np.float32(0), np.zeros(3, np.float32)),
    "scan/xs of different lengths": lambda lax_, lib: lax_.scan(
        lambda c, x: (c, x), np.float32(0), (np.zeros(3, np.float32), np.zeros(2, np.float32))),
    "scan/length disagrees with xs": lambda lax_, lib: lax_.scan(
        lambda c, x: (c, x), np.float32(0), np.zeros(3, np.float32), length=4),
    "scan/no xs and no length": lambda lax_, lib: lax_.scan(lambda c, x: (c, x),
                                                            np.float32(0), None),
    "scan/scalar xs": lambda lax_, lib: lax_.scan(lambda c, x: (c, x), np.float32(0),
                                                  np.float32(1)),
    "scan/f returns one value": lambda lax_, lib: lax_.scan(lambda c, x: c, np.float32(0),
                                                            np.zeros(3, np.float32)),
    "scan/f not callable": lambda lax_, lib: lax_.scan(3, np.float32(0),
                                                       np.zeros(3, np.float32)),
}


# Deliberate differences: JAX fails inside on a scalar xs under jit (an
# IndexError); mlax raises the ValueError JAX raises eagerly.
_CF_INVALID_KINDS = {"scan/scalar xs": ((ValueError, IndexError),)}


@pytest.mark.parametrize("jit", [False, True])
@pytest.mark.parametrize("name", sorted(_CF_INVALID))
def test_control_flow_invalid_calls_raise_as_jax(name, jit):
    call = _CF_INVALID[name]

    def run(lax_, lib):
        if jit:
            return (mlax.jit if lib is mnp else jax.jit)(lambda: call(lax_, lib))()
        return call(lax_, lib)

    with pytest.raises(Exception):  # noqa: B017  the case is invalid for JAX
        run(jax.lax, jnp)
    check(f"lax.invalid/{name}", lambda: run(mlax.lax, mnp), lambda: run(jax.lax, jnp),
          same_kinds=_CF_INVALID_KINDS.get(name, ()))

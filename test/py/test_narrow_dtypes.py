"""JAX's narrow dtypes on mlax: the float8s, float4_e2m1fn, int4 and uint4
(ml_dtypes' types), checked against JAX on the same inputs.

Values are compared bit for bit (both run XLA's conversions and arithmetic),
with dtypes and weak types; errors by exception class. float6_*, int1/uint1
and int2/uint2 stay out: this jaxlib's XLA cannot run them (see
test_unavailable_dtypes)."""
from __future__ import annotations

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np
import pytest
from _helpers import eager_share

import mlax
import mlax.numpy as mnp
from mlax import lax

FLOAT8 = ["float8_e3m4", "float8_e4m3", "float8_e4m3b11fnuz", "float8_e4m3fn",
          "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz", "float8_e8m0fnu"]
NARROW_FLOATS = FLOAT8 + ["float4_e2m1fn"]
NARROW_INTS = ["int4", "uint4"]
NARROW = NARROW_FLOATS + NARROW_INTS
WIDE = ["bool", "int8", "int16", "int32", "uint8", "uint32", "float16", "bfloat16", "float32",
        "complex64"]
MODES = ("eager", "jit")


def _dt(name):
    return np.dtype(getattr(ml_dtypes, name, None) or name)


def _bits(x):
    """The raw bits of an array (NaNs compare by payload, -0 differs from 0)."""
    a = np.asarray(x)
    if a.dtype == np.bool_:
        return a
    return a.view(np.dtype(f"u{a.dtype.itemsize}"))


def assert_same(m, j, what=""):
    assert m.dtype == j.dtype, (what, m.dtype, j.dtype)
    assert getattr(m, "weak_type", False) == getattr(j, "weak_type", False), what
    assert m.shape == j.shape, what
    np.testing.assert_array_equal(_bits(m), _bits(j), err_msg=what)


def every_value(name):
    """Every value of a narrow dtype: all its bit patterns."""
    dt = _dt(name)
    if name in NARROW_INTS:
        info = ml_dtypes.iinfo(dt)
        return np.arange(int(info.min), int(info.max) + 1).astype(dt)
    bits = ml_dtypes.finfo(dt).bits
    return np.arange(2 ** bits, dtype=np.uint8).view(dt)


def _run(mode, fn, *args):
    """`fn` on mlax arrays of `args`, eagerly or under jit."""
    return mlax.jit(fn)(*args) if mode == "jit" else fn(*(mnp.asarray(a) for a in args))


def _run_jax(mode, fn, *args):
    return jax.jit(fn)(*args) if mode == "jit" else fn(*(jnp.asarray(a) for a in args))


def check_all(name, names, fns_m, fns_j, *args, labels=None, k=3):
    """Each fns_m[i](*args) is fns_j[i](*args) bit for bit: under jit all of
    them in one program per library; mlax's eagerly for a share of them
    (eager_share), against the same (jitted) JAX results. `labels` name the
    functions in failure messages."""
    labels = labels or [f"function {i}" for i in range(len(fns_m))]
    assert len(fns_m) == len(fns_j) == len(labels)
    got = mlax.jit(lambda *a: [f(*a) for f in fns_m])(*args)
    want = jax.jit(lambda *a: [f(*a) for f in fns_j])(*args)
    for label, m, j in zip(labels, got, want):
        assert_same(m, j, f"{name}: {label}, jit")
    # (k at most len(names): across the dtypes each function runs eagerly.)
    for i in eager_share(len(fns_m), names.index(name), min(k, len(names))):
        assert_same(_run("eager", fns_m[i], *args), want[i], f"{name}: {labels[i]}, eager")


# ---------------------------------------------------------------------------
# Scalar types, construction, transfer
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", NARROW)
def test_scalar_type(name):
    m, j = getattr(mnp, name), getattr(jnp, name)
    assert np.dtype(m) == np.dtype(j) == _dt(name)
    assert m == _dt(name).type and m.dtype == j.dtype
    value = 1 if name in NARROW_INTS else 2.5
    assert_same(m(value), j(value))
    assert isinstance(np.asarray(m(value))[()], m)
    assert mnp.dtype(m) == jnp.dtype(j)


@pytest.mark.parametrize("name", NARROW)
def test_host_device_round_trip(name):
    """Every bit pattern goes to the device and back unchanged."""
    x = every_value(name)
    a = mnp.asarray(x)
    assert a.dtype == x.dtype and not a.weak_type
    np.testing.assert_array_equal(_bits(np.asarray(a)), _bits(x))
    np.testing.assert_array_equal(_bits(mlax.device_put(x)), _bits(x))
    assert_same(mlax.jit(lambda v: v)(x), jax.jit(lambda v: v)(x))


@pytest.mark.parametrize("name", NARROW)
def test_asarray_from_python_and_numpy(name):
    values = [0, 1, 3, 9, -2] if name in NARROW_INTS else [0.0, 1.5, -2.75, 300.0, 1e-3]
    dt = getattr(mnp, name)
    assert_same(mnp.asarray(values, dtype=dt), jnp.asarray(values, dtype=getattr(jnp, name)))
    f32 = np.asarray(values, np.float32)
    assert_same(mnp.asarray(f32, dtype=dt), jnp.asarray(f32, dtype=getattr(jnp, name)))
    assert_same(mnp.array(f32).astype(dt), jnp.array(f32).astype(getattr(jnp, name)))


@pytest.mark.parametrize("name", NARROW)
@pytest.mark.parametrize("mode", MODES)
def test_zeros_ones_full(name, mode):
    """(Under jit, all five in one program.)"""
    fill = 3 if name in NARROW_INTS else 1.75

    def f(np_):
        dt = getattr(np_, name)
        return lambda v: [np_.zeros((2, 3), dt), np_.ones(4, dt), np_.full((3,), fill, dt),
                          np_.zeros_like(v), np_.ones_like(v)]

    x = every_value(name)
    for what, m, j in zip(["zeros", "ones", "full", "zeros_like", "ones_like"],
                          _run(mode, f(mnp), x), _run_jax(mode, f(jnp), x)):
        assert_same(m, j, f"{what}, {mode}")


@pytest.mark.parametrize("name", NARROW)
def test_creation_functions(name):
    for make in (lambda X: X.arange(3, dtype=getattr(X, name)),
                 lambda X: X.linspace(0, 2, 5, dtype=getattr(X, name)),
                 lambda X: X.eye(2, dtype=getattr(X, name)),
                 lambda X: X.full_like(X.zeros(2), 1.5, dtype=getattr(X, name)),
                 lambda X: X.concatenate([X.ones(2, getattr(X, name)),
                                          X.zeros(1, getattr(X, name))])):
        m, j = _outcome(lambda: make(mnp), value=True), _outcome(lambda: make(jnp), value=True)
        if isinstance(j, str):
            assert m == j
        else:
            assert_same(m, j)


# ---------------------------------------------------------------------------
# Conversions
# ---------------------------------------------------------------------------

_WIDE_VALUES = np.array([0.0, -0.0, 1.0, -1.5, 0.3, 2.5, 3.5, 7.0, 15.0, 17.0, 100.0, 448.0,
                         500.0, 1e4, 6e4, -6e4, 1e-3, 1e-6, 1e-9, np.inf, -np.inf, np.nan],
                        np.float32)


@pytest.mark.parametrize("name", NARROW)
def test_convert_from_narrow(name):
    """Every value of a narrow dtype converted to each dtype, bit-exact with
    JAX: under jit all targets in one program (one compile per source dtype,
    not one per pair); eagerly (one compile per pair) every 11th target,
    rotating with the source, so that each target is converted eagerly from
    some source (against the jitted JAX results)."""
    x = every_value(name)
    targets = [_dt(to) for to in NARROW + WIDE]
    got = mlax.jit(lambda v: [v.astype(to) for to in targets])(x)
    want = jax.jit(lambda v: [v.astype(to) for to in targets])(x)
    for to, m, j in zip(targets, got, want):
        assert_same(m, j, f"{name} -> {to.name}, jit")
    for i in eager_share(len(targets), NARROW.index(name), min(11, len(NARROW))):
        assert_same(lax.convert_element_type(x, targets[i]), want[i],
                    f"{name} -> {targets[i].name}, eager")


_CONVERT_SOURCES = ["float32", "float16", "bfloat16", "int32", "int8", "uint8", "bool"]


@pytest.mark.parametrize("src", _CONVERT_SOURCES)
def test_convert_to_narrow(src):
    """Wide values (overflowing, subnormal, inf, nan) into each narrow dtype:
    under jit all of them in one program, eagerly a share (check_all: every
    7th target, so each target from one source)."""
    if src == "bool":
        x = np.array([True, False])
    elif np.issubdtype(_dt(src), np.integer):
        x = np.arange(-20, 21).astype(_dt(src))
    else:
        x = _WIDE_VALUES.astype(_dt(src))
    dts = [_dt(name) for name in NARROW]
    check_all(src, _CONVERT_SOURCES,
              [lambda v, dt=dt: lax.convert_element_type(v, dt) for dt in dts],
              [lambda v, dt=dt: jax.lax.convert_element_type(v, dt) for dt in dts], x,
              labels=[f"-> {dt.name}" for dt in dts], k=len(_CONVERT_SOURCES))


@pytest.mark.parametrize("name", NARROW)
@pytest.mark.parametrize("mode", MODES)
def test_bitcast_convert_type(name, mode):
    """Bitcasts between 8-bit and narrow types: same width keeps the shape,
    4-bit elements add or consume a last dimension, as in JAX."""
    bits = mlax.dtypes.itemsize_bits(_dt(name))
    pack = 8 // bits
    wide = np.arange(256, dtype=np.uint8)
    narrow = every_value(name)
    narrow = np.resize(narrow, (16 * pack,)).reshape(16, pack) if pack > 1 else narrow
    cases = ((wide, name), (wide.view(np.int8), name), (narrow, "uint8"), (narrow, "int8"),
             (narrow.reshape(-1), "uint8"))
    # The calls JAX rejects (found without a compile) are compared one by one,
    # the exception's class; the others under jit run in one program.
    rejected = [isinstance(_outcome(lambda: jax.eval_shape(
        lambda v: jax.lax.bitcast_convert_type(v, _dt(to)), x), value=True), str)
        for x, to in cases]
    for (x, to), bad in zip(cases, rejected):
        if bad:
            m = _outcome(lambda: _run(mode, lambda v: lax.bitcast_convert_type(v, _dt(to)), x),
                         value=True)
            j = _outcome(lambda: _run_jax(
                mode, lambda v: jax.lax.bitcast_convert_type(v, _dt(to)), x), value=True)
            assert isinstance(j, str) and m == j, (to, x.shape, m, j)
    ok = [case for case, bad in zip(cases, rejected) if not bad]

    def f(lax_):
        return lambda *xs: [lax_.bitcast_convert_type(v, _dt(to)) for v, (_, to) in zip(xs, ok)]

    got = _run(mode, f(lax), *(x for x, _ in ok))
    want = _run_jax(mode, f(jax.lax), *(x for x, _ in ok))
    for (x, to), m, j in zip(ok, got, want):
        assert_same(m, j, f"{x.dtype}{list(x.shape)} -> {to}, {mode}")


# ---------------------------------------------------------------------------
# Arithmetic, comparisons, reductions
# ---------------------------------------------------------------------------

def _pair(name):
    x = every_value(name)
    return x, x[::-1].copy()


# Each test below checks a list of functions against JAX: all of them under
# jit in one program, a share of them eagerly (check_all).

@pytest.mark.parametrize("name", NARROW)
def test_elementwise(name):
    a, b = _pair(name)

    def f(np_):
        return [lambda u, v: u + v, lambda u, v: u * v, lambda u, v: u - v,
                lambda u, v: np_.maximum(u, v), lambda u, v: -u, lambda u, v: u + 1,
                lambda u, v: 2 * u]

    check_all(name, NARROW, f(mnp), f(jnp), a, b,
              labels=["u + v", "u * v", "u - v", "maximum", "-u", "u + 1", "2 * u"])


@pytest.mark.parametrize("name", NARROW_FLOATS)
def test_float_math(name):
    a, b = _pair(name)

    def f(np_):
        return [lambda u, v: u / v, lambda u, v: np_.sqrt(u), lambda u, v: np_.exp(u),
                lambda u, v: np_.floor(u), lambda u, v: np_.abs(u), lambda u, v: u + 1.5,
                lambda u, v: np_.where(u > v, u, 0.0)]

    check_all(name, NARROW_FLOATS, f(mnp), f(jnp), a, b,
              labels=["u / v", "sqrt", "exp", "floor", "abs", "u + 1.5", "where"])


@pytest.mark.parametrize("name", NARROW_INTS)
@pytest.mark.parametrize("mode", MODES)
def test_int_math(name, mode):
    a, b = _pair(name)
    b = np.where(b == 0, np.ones_like(b), b)

    def f(np_):
        return lambda u, v: (u // v, u % v, u & v, u | v, u ^ v, ~u, u << 1, u + 100,
                             np_.where(u > v, u, 0), np_.abs(v) if name[0] == "u" else v)

    for m, j in zip(_run(mode, f(mnp), a, b), _run_jax(mode, f(jnp), a, b)):
        assert_same(m, j)


@pytest.mark.parametrize("name", NARROW_INTS)
@pytest.mark.parametrize("mode", MODES)
def test_shifts(name, mode):
    """lax's shifts match JAX's. `>>` shifts uint4 logically, as for
    every unsigned type; jnp's `>>` shifts them arithmetically (8 >> 1 == 12
    in uint4), because NumPy does not see ml_dtypes' uint4 as unsigned."""
    a, _ = _pair(name)
    s = np.ones_like(a)
    for m, j in ((lax.shift_right_logical, jax.lax.shift_right_logical),
                 (lax.shift_right_arithmetic, jax.lax.shift_right_arithmetic),
                 (lax.shift_left, jax.lax.shift_left)):
        assert_same(_run(mode, m, a, s), _run_jax(mode, j, a, s))
    logical = name.startswith("u")
    expected = (jax.lax.shift_right_logical if logical else jax.lax.shift_right_arithmetic)(a, s)
    assert_same(_run(mode, lambda u: u >> 1, a), expected)
    assert_same(_run(mode, mnp.right_shift, a, s), expected)
    wide = a.astype(np.uint8 if logical else np.int8) >> 1
    np.testing.assert_array_equal(np.asarray(expected).astype(wide.dtype), wide)


@pytest.mark.parametrize("name", NARROW)
def test_comparisons(name):
    a, b = _pair(name)
    fns = [lambda u, v: u < v, lambda u, v: u <= v, lambda u, v: u == v, lambda u, v: u != v,
           lambda u, v: u > v, lambda u, v: u >= v]
    check_all(name, NARROW, fns, fns, a, b, labels=["<", "<=", "==", "!=", ">", ">="])


@pytest.mark.parametrize("name", NARROW)
def test_reductions(name):
    x = every_value(name).reshape(-1, 2)

    def f(np_):
        out = [] if name == "float8_e8m0fnu" else [lambda v: np_.max(v),
                                                  lambda v: np_.min(v, axis=0)]
        out += [lambda v: np_.sum(v, axis=1, promote_integers=False),
               lambda v: np_.prod(v[:2], promote_integers=False),
               lambda v: np_.sort(v.ravel()), lambda v: np_.cumsum(v[:3], axis=0)]
        if name in NARROW_FLOATS:
            out += [lambda v: np_.sum(v), lambda v: np_.mean(v, axis=0)]
        else:
            out += [lambda v: np_.mean(v)]
        return out

    labels = ([] if name == "float8_e8m0fnu" else ["max", "min(axis=0)"]) + [
        "sum(axis=1)", "prod", "sort", "cumsum"] + (
        ["sum", "mean(axis=0)"] if name in NARROW_FLOATS else ["mean"])
    check_all(name, NARROW, f(mnp), f(jnp), x, labels=labels)


def _e8m0_without_2_to_the_minus_127():
    """XLA's CPU arithmetic flushes 2^-127 (a float32 subnormal, the bits 0 of
    float8_e8m0fnu) to zero, which is NaN there, in JAX as in mlax."""
    return every_value("float8_e8m0fnu")[1:]


@pytest.mark.parametrize("mode", MODES)
def test_max_min_e8m0(mode):
    """float8_e8m0fnu has no sign and no inf: mlax's max starts from its
    lowest value (2^-127), its min from its highest. JAX starts from ±inf,
    NaN there, so its max and min of any float8_e8m0fnu array are NaN;
    checked against NumPy on float32 instead."""
    x = _e8m0_without_2_to_the_minus_127()[:-3].reshape(-1, 4)  # without the NaN
    w = x.astype(np.float32)
    cases = [(fn, np_fn, axis) for fn, np_fn in ((mnp.max, np.max), (mnp.min, np.min))
             for axis in (None, 0, 1)]
    got = _run(mode, lambda v: [fn(v, axis=axis) for fn, _, axis in cases], x)  # one program
    for (fn, np_fn, axis), m in zip(cases, got):
        assert m.dtype == x.dtype, (fn.__name__, axis)
        np.testing.assert_array_equal(np.asarray(m).astype(np.float32), np_fn(w, axis=axis),
                                      err_msg=f"{fn.__name__}(axis={axis}), {mode}")
    m = _run(mode, mnp.max, every_value("float8_e8m0fnu"))
    assert np.isnan(np.asarray(m).astype(np.float32))


@pytest.mark.parametrize("name", NARROW)
def test_argmin_argmax(name):
    """Against JAX (check_all), but where JAX fails: its argmax of
    float8_e8m0fnu starts from its -inf, which is NaN there, so it answers 0
    for any input; that is checked against NumPy on float32 (the first
    maximum, the first NaN), which is what mlax gives."""
    x = _e8m0_without_2_to_the_minus_127()[1:] if name == "float8_e8m0fnu" else every_value(name)
    x = np.concatenate([x[1::2], x[::2]]).reshape(-1, 2)
    cases = [(fn, axis) for fn in ("argmax", "argmin") for axis in (None, 0, 1)]
    labels = [f"{fn}(axis={axis})" for fn, axis in cases]
    fns_m = [lambda v, fn=fn, axis=axis: getattr(mnp, fn)(v, axis=axis) for fn, axis in cases]
    if name != "float8_e8m0fnu":
        fns_j = [lambda v, fn=fn, axis=axis: getattr(jnp, fn)(v, axis=axis)
                 for fn, axis in cases]
        check_all(name, NARROW, fns_m, fns_j, x, labels=labels)
        return
    wide = x.astype(np.float32)
    got = mlax.jit(lambda v: [f(v) for f in fns_m])(x)
    eager = {i: _run("eager", fns_m[i], x) for i in eager_share(len(cases), NARROW.index(name))}
    for i, ((fn, axis), m) in enumerate(zip(cases, got)):
        for mode, out in [("jit", m)] + ([("eager", eager[i])] if i in eager else []):
            assert out.dtype == np.int32, (labels[i], mode)
            np.testing.assert_array_equal(out, getattr(np, fn)(wide, axis=axis),
                                          err_msg=f"{labels[i]}, {mode}")


@pytest.mark.parametrize("name", NARROW_FLOATS)
def test_dot(name):
    a, b = _pair(name)
    a, b = a[:8].reshape(2, 4), b[:8].reshape(4, 2)
    assert_same(mlax.jit(mnp.matmul)(a, b), jax.jit(jnp.matmul)(a, b))
    assert_same(mnp.dot(a[0], b[:, 0]), jnp.dot(a[0], b[:, 0]))


@pytest.mark.parametrize("name", ["float8_e4m3fn", "float8_e5m2", "float4_e2m1fn"])
def test_grad_and_vmap(name):
    x = np.array([0.5, 1.0, 1.5, 2.0], _dt(name))

    def loss(np_):
        return lambda v: (v * v).astype(np_.float32).sum()

    assert_same(mlax.grad(loss(mnp))(x), jax.grad(loss(jnp))(x))
    assert_same(mlax.jit(mlax.grad(loss(mnp)))(x), jax.jit(jax.grad(loss(jnp)))(x))
    assert_same(mlax.vmap(lambda v: v * v + 1.0)(x), jax.vmap(lambda v: v * v + 1.0)(x))


# ---------------------------------------------------------------------------
# Promotion, finfo / iinfo, errors
# ---------------------------------------------------------------------------

_PROMOTE = NARROW + WIDE + ["int64", "float64"]


def _outcome(fn, value=False):
    try:
        out = fn()
    except Exception as e:  # noqa: BLE001  (the class is what is compared)
        return type(e).__name__
    if value:
        return out
    return out.dtype if hasattr(out, "dtype") else np.dtype(out)


@pytest.mark.parametrize("a", _PROMOTE)
def test_promote_types_table(a):
    for b in _PROMOTE:
        m = _outcome(lambda: mnp.promote_types(_dt(a), _dt(b)))
        j = _outcome(lambda: jnp.promote_types(_dt(a), _dt(b)))
        assert m == j, (a, b, m, j)


@pytest.mark.parametrize("name", NARROW)
def test_result_type_with_scalars(name):
    dt = _dt(name)
    for other in (1, 1.5, 1j, True, np.float32(1), np.int8(1)):
        m = _outcome(lambda: mnp.result_type(dt, other))
        j = _outcome(lambda: jnp.result_type(dt, other))
        assert m == j, (name, other, m, j)
    x = every_value(name)
    for other in (1, 1.5, True):
        m, j = _outcome(lambda: mnp.asarray(x) + other), _outcome(lambda: jnp.asarray(x) + other)
        assert m == j, (name, other, m, j)


def test_promotion_error_is_jax_class():
    x = np.ones(2, ml_dtypes.float8_e4m3fn)
    with pytest.raises(mlax.dtypes.TypePromotionError, match="8-bit floats"):
        mnp.asarray(x) + np.float32(1)
    with pytest.raises(jax.dtypes.TypePromotionError, match="8-bit floats"):
        jnp.asarray(x) + np.float32(1)
    i4 = np.ones(2, ml_dtypes.int4)
    with pytest.raises(mlax.dtypes.TypePromotionError,
                       match=r"\('int4', \"<class 'float'>\"\) .*4-bit integers"):
        mnp.asarray(i4) + 1.5
    with pytest.raises(jax.dtypes.TypePromotionError, match="4-bit integers"):
        jnp.asarray(i4) + 1.5


@pytest.mark.parametrize("name", NARROW_FLOATS)
def test_finfo(name):
    m, j = mnp.finfo(getattr(mnp, name)), jnp.finfo(getattr(jnp, name))
    for field in ("bits", "eps", "epsneg", "max", "min", "tiny", "smallest_normal",
                  "smallest_subnormal", "resolution", "nmant", "nexp", "maxexp", "minexp",
                  "dtype"):
        assert str(getattr(m, field)) == str(getattr(j, field)), field
    assert mnp.finfo(mnp.zeros(2, getattr(mnp, name))).dtype == _dt(name)


@pytest.mark.parametrize("name", NARROW_INTS)
def test_iinfo(name):
    m, j = mnp.iinfo(getattr(mnp, name)), jnp.iinfo(getattr(jnp, name))
    assert (m.bits, m.min, m.max, m.dtype) == (j.bits, j.min, j.max, j.dtype)


@pytest.mark.parametrize("name", NARROW)
def test_dtype_predicates(name):
    m, j = getattr(mnp, name), getattr(jnp, name)
    for kind in ("floating", "inexact", "integer", "signedinteger", "unsignedinteger", "number"):
        assert mnp.issubdtype(m, getattr(mnp, kind)) == jnp.issubdtype(j, getattr(jnp, kind))
    for kind in ("bool", "signed integer", "unsigned integer", "integral", "real floating",
                 "numeric"):
        assert mnp.isdtype(m, kind) == jnp.isdtype(j, kind), kind
    assert mlax.dtypes.itemsize_bits(m) == jax.dtypes.itemsize_bits(j)


@pytest.mark.parametrize("name", NARROW_INTS)
def test_int_sum_promotion_fails_as_in_jax(name):
    """jnp.sum promotes integers to the default int, which fails for 4-bit
    integers (JAX: ValueError); promote_integers=False works."""
    x = every_value(name)
    with pytest.raises(ValueError):
        jnp.sum(x)
    with pytest.raises(ValueError, match="promote_integers=False"):
        mnp.sum(x)
    with pytest.raises(ValueError):
        mlax.jit(mnp.prod)(x)


@pytest.mark.parametrize("name", ["int4"])
def test_abs_rejects_narrow_ints_as_jax(name):
    x = every_value(name)
    with pytest.raises(TypeError):
        jnp.abs(x)
    with pytest.raises(TypeError, match="narrow-width integers"):
        mnp.abs(x)


def test_jaxpr_names():
    x, i = every_value("float8_e4m3fn")[:3], every_value("int4")[:3]
    text = str(mlax.make_jaxpr(lambda u, v: (u * u, v.astype(mnp.float8_e5m2)))(x, i))
    assert "f8_e4m3fn[3]" in text and "i4[3]" in text and "f8_e5m2[3]" in text
    assert "new_dtype=float8_e5m2" in text
    j = str(jax.make_jaxpr(lambda u, v: (u * u, v.astype(jnp.float8_e5m2)))(x, i))
    assert "f8_e4m3fn[3]" in j and "i4[3]" in j and "new_dtype=float8_e5m2" in j


@pytest.mark.parametrize("name", ["float6_e2m3fn", "float6_e3m2fn", "int1", "uint1", "int2",
                                  "uint2"])
def test_unavailable_dtypes(name):
    """float6 and 1- and 2-bit integers fail in JAX on this jaxlib too (XLA
    has no float6 primitive type; the CPU client rejects s1/u1 buffers; the
    CPU compiler aborts the process on a concatenate of 2-bit integers): mlax
    says so up front with a TypeError instead of reaching XLA."""
    if not hasattr(ml_dtypes, name):
        pytest.skip(f"ml_dtypes has no {name}")
    assert not hasattr(mnp, name)
    dt = np.dtype(getattr(ml_dtypes, name))
    with pytest.raises(TypeError, match="jaxlib"):
        mnp.zeros(2, dt)
    with pytest.raises(TypeError, match="jaxlib"):
        mnp.asarray(np.zeros(2, dt))
    with pytest.raises(TypeError, match="jaxlib"):
        mnp.ones(2).astype(dt)



@pytest.mark.parametrize("name", NARROW_INTS)
def test_randint_of_4_bit_integers_as_jax(name):
    """randint(dtype=int4/uint4): bit for bit JAX's draws (the bounds clipped
    to the dtype's range, as JAX's; NumPy's iinfo knows no 4-bit type)."""
    dt = getattr(ml_dtypes, name)
    info = ml_dtypes.iinfo(dt)
    for lo, hi in ((int(info.min), int(info.max) + 1), (-100, 100), (2, 5)):
        got = mlax.random.randint(mlax.random.key(3), (64,), lo, hi, dtype=dt)
        want = jax.random.randint(jax.random.key(3), (64,), lo, hi, dtype=dt)
        assert got.dtype == want.dtype == dt
        np.testing.assert_array_equal(np.asarray(got).astype(int), np.asarray(want).astype(int))

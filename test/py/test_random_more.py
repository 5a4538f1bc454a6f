"""The remaining jax.random samplers in mlax.random, against jax.random bit for bit.

Transforms of uniform/normal/exponential (cauchy ... wald) and the gamma family
(Marsaglia-Tsang while loops under vmap): eagerly, under jit, under vmap over
keys, for float32/float16/bfloat16 and float64 under x64, with broadcast
parameters, plus JAX's argument errors.

Known few-ulp exceptions (asserted with `assert_within_ulp`, see there):
 * f, t, generalized_normal, ball and chisquare under vmap (float32, up to
   4 ulps: their epilogues of exp/div/pow over gamma samples fuse differently).
 * wald under an outer jit with its mean a Python constant (up to 4 ulps).
maxwell, double_sided_maxwell, and beta and dirichlet under vmap, were within
1-4 ulps while mlax unrolled threefry's rounds; with the rounds a loop, as
JAX emits them, they are bit-exact.
"""
import numpy as np
import pytest

import jax

import mlax
import mlax.random as mr


def _keys():
    return [(mr.PRNGKey(0), jax.random.PRNGKey(0)), (mr.PRNGKey(42), jax.random.PRNGKey(42)),
            (mr.split(mr.PRNGKey(7))[1], jax.random.split(jax.random.PRNGKey(7))[1])]


def assert_bit_equal(m, j, what=""):
    m, j = np.asarray(m), np.asarray(j)
    assert (m.dtype, m.shape) == (j.dtype, j.shape), \
        f"{what}: mlax {m.dtype}{m.shape} vs jax {j.dtype}{j.shape}"
    assert m.tobytes() == j.tobytes(), f"{what}: values differ:\nmlax {m}\njax  {j}"


def assert_within_ulp(m, j, ulps=1, what=""):
    """Equal up to `ulps` units in the last place. Used only where XLA's CPU
    code generation, not the formula, differs: XLA fuses a float epilogue (a
    division, an exp, a pow) into a different loop from JAX's program and
    LLVM contracts/vectorizes it differently (a multiply-add becomes an FMA).
    The same ops on the same inputs, compiled standalone, agree bit for bit."""
    m, j = np.asarray(m), np.asarray(j)
    assert (m.dtype, m.shape) == (j.dtype, j.shape), what
    mf, jf = m.astype(np.float64), j.astype(np.float64)
    spacing = np.spacing(np.abs(j).astype(m.dtype)).astype(np.float64)
    assert np.all(np.abs(mf - jf) <= ulps * spacing), f"{what}: mlax {m}\njax  {j}"



# name -> call(module, key, shape, dtype)
TRANSFORMS = {
    "cauchy": lambda r, k, s, d: r.cauchy(k, s, d),
    "laplace": lambda r, k, s, d: r.laplace(k, s, d),
    "logistic": lambda r, k, s, d: r.logistic(k, s, d),
    "pareto": lambda r, k, s, d: r.pareto(k, 2.5, s, d),
    "rademacher": lambda r, k, s, d: r.rademacher(k, s, d),
    "rayleigh": lambda r, k, s, d: r.rayleigh(k, 1.5, s, d),
    "maxwell": lambda r, k, s, d: r.maxwell(k, s, d),
    "double_sided_maxwell": lambda r, k, s, d: r.double_sided_maxwell(k, 0.5, 2.0, s, d),
    "weibull_min": lambda r, k, s, d: r.weibull_min(k, 2.0, 1.5, s, d),
    "lognormal": lambda r, k, s, d: r.lognormal(k, 0.7, s, d),
    "geometric": lambda r, k, s, d: r.geometric(k, 0.3, s),
    "triangular": lambda r, k, s, d: r.triangular(k, 0.0, 0.3, 1.0, s, d),
    "wald": lambda r, k, s, d: r.wald(k, 1.3, s, d),
}


# Each distinct sampler program costs a compile (its threefry loop) in each
# library, so each sampler runs in one of the two 16-bit float types; both
# types are covered, alternating over the samplers.
_HALF = {name: ("float16", "bfloat16")[i % 2] for i, name in enumerate(sorted(TRANSFORMS))}


def _jax_table(table, call, names=None):
    """JAX's `call(name, fn, key)` of every sampler of `table` as ONE jitted
    program of the key (one compile for the table and every key, not one per
    sampler and shape). For the transforms its results are bit for bit JAX's
    eager ones; the gamma family's are not (XLA fuses their float epilogues
    differently inside the larger program), so those keep JAX's eager calls."""
    names = sorted(table) if names is None else names
    return jax.jit(lambda k: {name: call(name, table[name], k) for name in names})


_JAX_TRANSFORMS = {
    "float32": _jax_table(TRANSFORMS, lambda _, fn, k: fn(jax.random, k, (2, 5), "float32")),
    "half": _jax_table(TRANSFORMS, lambda name, fn, k: fn(jax.random, k, (2, 5), _HALF[name])),
    "scalar": _jax_table(TRANSFORMS, lambda _, fn, k: fn(jax.random, k, (), "float32")),
    "vmap": _jax_table(TRANSFORMS, lambda _, fn, ks: jax.vmap(
        lambda k: fn(jax.random, k, (2,), "float32"))(ks)),
}


@pytest.mark.parametrize("name", sorted(TRANSFORMS))
def test_transform_samplers_match_jax(name):
    fn = TRANSFORMS[name]
    for mk, jk in _keys():
        assert_bit_equal(fn(mr, mk, (2, 5), "float32"), _JAX_TRANSFORMS["float32"](jk)[name],
                         "float32")
    half = _HALF[name]
    for mk, jk in _keys()[:2]:
        assert_bit_equal(fn(mr, mk, (2, 5), half), _JAX_TRANSFORMS["half"](jk)[name], half)
    # A scalar shape under jit and a 1-D shape under vmap over keys.
    mk, jk = _keys()[2]
    out = mlax.jit(lambda k: fn(mr, k, (), "float32"))(mk)
    if name == "wald":
        # Under an outer jit the Python-float mean becomes a constant that XLA
        # folds into the cancellation-prone x = mean + ... - ... differently
        # from JAX's program (see assert_within_ulp); eagerly, and with the
        # mean traced, wald is bit-exact (test_parameters_as_traced_arguments).
        assert_within_ulp(out, _JAX_TRANSFORMS["scalar"](jk)[name], ulps=4, what="jit")
    else:
        assert_bit_equal(out, _JAX_TRANSFORMS["scalar"](jk)[name], "jit")
    mks, jks = mr.split(mr.PRNGKey(3), 3), jax.random.split(jax.random.PRNGKey(3), 3)
    assert_bit_equal(mlax.vmap(lambda k: fn(mr, k, (2,), "float32"))(mks),
                     _JAX_TRANSFORMS["vmap"](jks)[name], "vmap")


FLOAT64_TRANSFORMS = ["cauchy", "laplace", "logistic", "pareto", "rayleigh", "weibull_min",
                      "lognormal", "triangular", "wald", "rademacher", "geometric"]
_JAX_FLOAT64 = _jax_table(TRANSFORMS, lambda _, fn, k: fn(jax.random, k, (5,), "float64"),
                          FLOAT64_TRANSFORMS)


@pytest.mark.parametrize("name", FLOAT64_TRANSFORMS)
def test_transform_samplers_float64(name, x64):
    fn = TRANSFORMS[name]
    for mk, jk in _keys()[:2]:
        assert_bit_equal(fn(mr, mk, (5,), "float64"), _JAX_FLOAT64(jk)[name])


def test_broadcast_parameters():
    b = np.array([0.5, 1.0, 3.0], np.float32)
    for mk, jk in _keys()[:2]:
        for call in [
            lambda r, k: r.pareto(k, b, (2, 3)),
            lambda r, k: r.pareto(k, b),
            lambda r, k: r.rayleigh(k, b[:, None], (3, 4)),
            lambda r, k: r.lognormal(k, b, (2, 3)),
            lambda r, k: r.geometric(k, b / 4),
            lambda r, k: r.triangular(k, np.zeros(3, np.float32), b / 4, 1.0, (2, 3)),
            lambda r, k: r.wald(k, b),
            lambda r, k: r.weibull_min(k, b, 2.0, (2, 3)),
            lambda r, k: r.double_sided_maxwell(k, np.zeros((2, 1), np.float16),
                                                np.ones(3, np.float16), (), "float16"),
            lambda r, k: r.geometric(k, np.float16(0.2), (3,), "int16"),
            lambda r, k: r.rademacher(k, (4,), "float32"),
        ]:
            assert_bit_equal(call(mr, mk), call(jax.random, jk))


def test_parameters_as_traced_arguments():
    mk, jk = _keys()[1]
    b = np.array([0.5, 1.0, 3.0], np.float32)
    assert_bit_equal(mlax.jit(lambda k, b: mr.pareto(k, b))(mk, b), jax.random.pareto(jk, b))
    assert_bit_equal(mlax.jit(lambda k, m: mr.wald(k, m, (2, 3)))(mk, b),
                     jax.random.wald(jk, b, (2, 3)))


# ---------------------------------------------------------------------------
# The gamma family
# ---------------------------------------------------------------------------

A3 = np.array([0.3, 1.0, 2.5], np.float32)


def test_gamma_matches_jax():
    """Each case is its own Marsaglia-Tsang loop (seconds to compile in each
    library), so each case covers another path: an array alpha broadcast to
    a larger shape; a Python-scalar alpha (in float16); a traced alpha
    under an outer jit; vmap over keys with the shape left to alpha."""
    for mk, jk in _keys():
        assert_bit_equal(mr.gamma(mk, A3, (2, 3)), jax.random.gamma(jk, A3, (2, 3)), "A3 (2,3)")
    mk, jk = _keys()[0]
    assert_bit_equal(mr.gamma(mk, 1.7, (2, 5), "float16"),
                     jax.random.gamma(jk, 1.7, (2, 5), "float16"), "1.7 float16")
    # JAX's reference is its eager program above again (no other compile).
    assert_bit_equal(mlax.jit(lambda k, a: mr.gamma(k, a, (2, 3)))(mk, A3),
                     jax.random.gamma(jk, A3, (2, 3)), "jit")
    mks, jks = mr.split(mr.PRNGKey(3), 3), jax.random.split(jax.random.PRNGKey(3), 3)
    assert_bit_equal(mlax.vmap(lambda k: mr.gamma(k, A3))(mks),
                     jax.vmap(lambda k: jax.random.gamma(k, A3))(jks), "vmap")


def test_loggamma_and_chisquare_match_jax():
    # alpha 0.01 is where log space matters (gamma's samples underflow);
    # loggamma in float16 is dirichlet's path (its float16 case below).
    a4 = np.array([0.01, 0.3, 1.0, 2.5], np.float32)
    for mk, jk in _keys():
        assert_bit_equal(mr.loggamma(mk, a4, (2, 4)), jax.random.loggamma(jk, a4, (2, 4)),
                         "loggamma")
        assert_bit_equal(mr.chisquare(mk, 3.0, (4,)), jax.random.chisquare(jk, 3.0, (4,)),
                         "chisquare")
    mks, jks = mr.split(mr.PRNGKey(3), 3), jax.random.split(jax.random.PRNGKey(3), 3)
    assert_within_ulp(mlax.vmap(lambda k: mr.chisquare(k, A3 * 4))(mks),
                      jax.vmap(lambda k: jax.random.chisquare(k, A3 * 4))(jks), ulps=4,
                      what="chisquare vmap")


GAMMA_DERIVED = {
    "beta": lambda r, k, s, d: r.beta(k, 0.5, A3, s, d),
    "f": lambda r, k, s, d: r.f(k, 3.0, 5.0, s, d),
    "t": lambda r, k, s, d: r.t(k, 4.0, s, d),
    "generalized_normal": lambda r, k, s, d: r.generalized_normal(k, 1.5, s, d),
    "ball": lambda r, k, s, d: r.ball(k, 3, 2, s, d),
    "dirichlet": lambda r, k, s, d: r.dirichlet(k, A3, s, d),
}


@pytest.mark.parametrize("name", sorted(GAMMA_DERIVED))
def test_gamma_derived_samplers_match_jax(name):
    fn = GAMMA_DERIVED[name]
    s = (2, 3)
    for mk, jk in _keys():
        assert_bit_equal(fn(mr, mk, s, "float32"), fn(jax.random, jk, s, "float32"))
    if name == "dirichlet":
        mk, jk = _keys()[1]
        assert_bit_equal(fn(mr, mk, s, "float16"), fn(jax.random, jk, s, "float16"))
    mks, jks = mr.split(mr.PRNGKey(3), 3), jax.random.split(jax.random.PRNGKey(3), 3)
    got = mlax.vmap(lambda k: fn(mr, k, (3,), "float32"))(mks)
    want = jax.vmap(lambda k: fn(jax.random, k, (3,), "float32"))(jks)
    if name in ("beta", "dirichlet"):
        assert_bit_equal(got, want)
    else:
        assert_within_ulp(got, want, ulps=4)


def test_gamma_family_float64(x64):
    mk, jk = _keys()[0]
    assert_bit_equal(mr.gamma(mk, A3.astype(np.float64)),
                     jax.random.gamma(jk, A3.astype(np.float64)))


# ---------------------------------------------------------------------------
# Errors, as JAX's
# ---------------------------------------------------------------------------

def test_errors():
    k = mr.PRNGKey(0)
    for name in ["cauchy", "laplace", "logistic", "maxwell"]:
        with pytest.raises(ValueError, match=f"dtype argument to `{name}` must be a float"):
            getattr(mr, name)(k, (2,), "int32")
    for call, name in [(lambda: mr.pareto(k, 1.0, dtype="int32"), "pareto"),
                       (lambda: mr.rayleigh(k, 1.0, dtype="int32"), "rayleigh"),
                       (lambda: mr.wald(k, 1.0, dtype="int32"), "wald"),
                       (lambda: mr.gamma(k, 1.0, dtype="int32"), "gamma"),
                       (lambda: mr.beta(k, 1.0, 1.0, dtype="int32"), "beta"),
                       (lambda: mr.t(k, 1.0, dtype="int32"), "t")]:
        with pytest.raises(ValueError, match=f"dtype argument to `{name}` must be a float"):
            call()
    with pytest.raises(ValueError, match="dtype argument to `lognormal` must be a float or "
                                         "complex"):
        mr.lognormal(k, dtype="int32")
    with pytest.raises(ValueError, match="dtype argument to `geometric` must be an int"):
        mr.geometric(k, 0.5, dtype="float32")
    with pytest.raises(ValueError, match="pareto parameter shapes must be broadcast-compatible"):
        mr.pareto(k, np.ones(3), (2,))
    with pytest.raises(ValueError, match="triangular parameter shapes"):
        mr.triangular(k, 0.0, np.full(4, 0.5), 1.0, (3,))
    with pytest.raises(ValueError, match="gamma parameter shapes"):
        mr.gamma(k, np.ones(3), (2,))
    with pytest.raises(ValueError, match="In arguments to rayleigh, cannot safely cast"):
        mr.rayleigh(k, 1j)
    with pytest.raises(ValueError, match="In arguments to pareto, cannot safely cast"):
        mr.pareto(k, np.ones(2, np.float32), dtype="float16")
    with pytest.raises(ValueError, match="dirichlet requires alpha.ndim >= 1"):
        mr.dirichlet(k, 1.0)
    with pytest.raises(ValueError, match="accepts a single key"):
        mr.cauchy(mr.split(k, 2))
    # JAX raises the same kinds
    with pytest.raises(ValueError, match="In arguments to rayleigh"):
        jax.random.rayleigh(jax.random.PRNGKey(0), 1j)
    with pytest.raises(ValueError, match="In arguments to pareto"):
        jax.random.pareto(jax.random.PRNGKey(0), np.ones(2, np.float32), dtype="float16")

"""lax.rng_uniform against JAX: XLA's stateful generator, whose values are
XLA's and change from draw to draw, so the values are tested statistically
(range, mean, variance, every integer drawn) and the dtype, shape and weak
type exactly; errors are JAX's, except for the dtypes on which XLA's
RngUniform aborts the process under JAX (mlax refuses them).
"""
import numpy as np
import pytest

import jax
import jax.numpy as jnp
from jax._src.interpreters import mlir as jax_mlir
from jax._src.lib.mlir import ir as jax_ir

import mlax
import mlax.numpy as mnp
from _helpers import assert_like_jax

BF16 = jnp.bfloat16

BOUNDS = {
    "f32": (np.float32(-1.5), np.float32(2.5)),
    "python_float": (0.0, 1.0),
    "python_int": (-3, 7),
    "i32": (np.int32(-5), np.int32(5)),
    "u32": (np.uint32(2), np.uint32(9)),
    "f16": (np.float16(0.5), np.float16(1.5)),
    "bf16": (np.array(0.0, BF16)[()], np.array(4.0, BF16)[()]),
    "f64_without_x64": (np.float64(0.0), np.float64(1.0)),
    "f32_and_python_float": (np.float32(0.0), 3.0),
    "python_int_and_i32": (0, np.int32(4)),
}
SHAPES = [(), (5,), (2, 3), (0, 3)]


@pytest.mark.parametrize("bounds", BOUNDS)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("mode", ["eager", "jit"])
def test_dtype_shape_and_weak_type_like_jax(bounds, shape, mode):
    a, b = BOUNDS[bounds]
    if mode == "eager":
        out = mlax.lax.rng_uniform(a, b, shape)
    else:
        out = mlax.jit(lambda a, b: mlax.lax.rng_uniform(a, b, shape))(a, b)
    ref = assert_like_jax(out, lambda a, b: jax.lax.rng_uniform(a, b, shape), a, b)
    got = np.asarray(out).astype(np.float64)
    assert np.all((got >= float(a)) & (got <= float(b))), got
    if out.dtype.itemsize >= 4:  # (XLA draws f16 and bf16 in f32: b rounds in)
        assert np.all(got < float(b)), got
    assert ref.shape == shape


def test_x64_dtypes():
    with mlax.enable_x64(), jax.enable_x64(True):
        for a, b in [(np.float64(0), np.float64(1)), (np.int64(-4), np.int64(4)),
                     (np.uint64(1), np.uint64(3)), (0.0, 1.0), (0, 2**40)]:
            out = mlax.lax.rng_uniform(a, b, (1000,))
            assert_like_jax(out, lambda a, b: jax.lax.rng_uniform(a, b, (1000,)), a, b)
            got = np.asarray(out)
            assert got.min() >= a and got.max() < b


N = 200_000


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.float64, "bfloat16"])
@pytest.mark.parametrize("mode", ["eager", "jit"])
def test_floats_are_uniform(dtype, mode):
    a, b = -2.0, 3.0
    dtype = np.dtype(dtype)
    lo, hi = np.array(a, dtype)[()], np.array(b, dtype)[()]
    fun = lambda lo, hi: mlax.lax.rng_uniform(lo, hi, (N,))  # noqa: E731
    out = fun(lo, hi) if mode == "eager" else mlax.jit(fun)(lo, hi)
    x = np.asarray(out).astype(np.float64)
    # XLA draws f16 and bf16 in f32 and rounds, so b itself occurs (in JAX too).
    assert x.min() >= a and (x.max() < b if dtype.itemsize >= 4 else x.max() <= b)
    width = b - a
    # The mean of N uniform draws is within 5 standard errors of (a+b)/2; a
    # coarse dtype rounds each draw by up to a step of its grid.
    step = float(jnp.finfo(dtype).eps) * max(abs(a), abs(b))
    assert abs(x.mean() - (a + b) / 2) < 5 * width / np.sqrt(12 * N) + step
    assert abs(x.var() - width ** 2 / 12) < 0.02 * width ** 2 / 12 + step * width
    # Every tenth of the range gets its share (within 5 sigma of a binomial).
    counts = np.histogram(x, bins=10, range=(a, b))[0]
    p = 0.1
    assert np.all(np.abs(counts - N * p) < 5 * np.sqrt(N * p * (1 - p)) + step / width * N)


@pytest.mark.parametrize("a, b", [(np.int32(-5), np.int32(5)), (np.uint32(3), np.uint32(11)),
                                  (np.int32(0), np.int32(1))])
def test_integers_are_uniform(a, b):
    x = np.asarray(mlax.lax.rng_uniform(a, b, (N,)))
    values, counts = np.unique(x, return_counts=True)
    np.testing.assert_array_equal(values, np.arange(a, b))
    p = 1 / (int(b) - int(a))
    assert np.all(np.abs(counts - N * p) < 5 * np.sqrt(N * p * (1 - p)) + 1)


def test_traced_bounds():
    f = mlax.jit(lambda a, b: mlax.lax.rng_uniform(a * 2.0, b + 1.0, (10_000,)))
    x = np.asarray(f(np.float32(1.0), np.float32(4.0)))
    assert x.min() >= 2.0 and x.max() < 5.0 and abs(x.mean() - 3.5) < 0.05


def _draws_differ(lib):
    f = lib.jit(lambda: lib.lax.rng_uniform(0.0, 1.0, (64,)))
    two = lib.jit(lambda: lib.numpy.stack([lib.lax.rng_uniform(0.0, 1.0, (64,)),
                                           lib.lax.rng_uniform(0.0, 1.0, (64,))]))()
    eager = [lib.lax.rng_uniform(np.float32(0), np.float32(1), (64,)) for _ in range(2)]
    return [not np.array_equal(np.asarray(x), np.asarray(y))
            for x, y in [(f(), f()), (two[0], two[1]), tuple(eager)]]


def test_each_draw_is_new_like_jax():
    """A stateful generator: a second run of a program, a second op in one
    program and a second eager call each draw new numbers (two draws of one
    program are never merged)."""
    assert _draws_differ(mlax) == _draws_differ(jax) == [True, True, True]


def test_stablehlo_like_jax():
    def rng_ops(text):
        with jax_mlir.make_ir_context():
            module = jax_ir.Module.parse(text)
            out = []
            for fn in module.body.operations:
                for block in fn.regions[0].blocks:
                    for op in block.operations:
                        if op.operation.name == "stablehlo.rng":
                            out.append((str(op.operation.attributes["rng_distribution"]),
                                        [str(v.type) for v in op.operation.operands],
                                        str(op.operation.results[0].type)))
            return out

    def f(lib):
        return lib.jit(lambda a, b: lib.lax.rng_uniform(a, b, (4, 2))).lower(
            np.float32(0), np.float32(1)).as_text()
    got, want = rng_ops(f(mlax)), rng_ops(f(jax))
    assert got == want
    assert got[0][0] == "#stablehlo<rng_distribution UNIFORM>"


def test_b_not_above_a_keeps_dtype_and_shape():
    """Where b <= a the values are XLA's choice: only their type is JAX's."""
    out = mlax.lax.rng_uniform(np.float32(1), np.float32(1), (4,))
    assert_like_jax(out, lambda a, b: jax.lax.rng_uniform(a, b, (4,)), np.float32(1),
                    np.float32(1))


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------

def _raises_like_jax(fun):
    with pytest.raises(Exception) as j:
        fun(jax)
    with pytest.raises(j.type) as m:
        fun(mlax)
    return m.value


ERRORS = {
    "mixed_dtypes": lambda lib: lib.lax.rng_uniform(np.float32(0), np.float16(1), (3,)),
    "float_and_int": lambda lib: lib.lax.rng_uniform(0, 1.0, (3,)),
    "not_scalars": lambda lib: lib.lax.rng_uniform(np.zeros(2, np.float32),
                                                   np.ones(2, np.float32), (3,)),
    "int_shape": lambda lib: lib.lax.rng_uniform(0.0, 1.0, 3),
    "float_shape": lambda lib: lib.lax.rng_uniform(0.0, 1.0, (2.0,)),
    "complex": lambda lib: lib.lax.rng_uniform(np.complex64(0), np.complex64(1), (3,)),
    "complex_jit": lambda lib: lib.jit(lambda: lib.lax.rng_uniform(
        np.complex64(0), np.complex64(1), (3,)))(),
    "mixed_dtypes_jit": lambda lib: lib.jit(lambda a: lib.lax.rng_uniform(a, 1, (3,)))(
        np.float32(0)),
    "not_an_array": lambda lib: lib.lax.rng_uniform("a", "b", (3,)),
}


@pytest.mark.parametrize("case", ERRORS)
def test_errors_like_jax(case):
    _raises_like_jax(ERRORS[case])


def test_dtypes_xla_cannot_draw_are_refused():
    """XLA's RngUniform aborts the process on 8- and 16-bit integers and
    bools (a failed CHECK in its compiler, JAX included): mlax refuses them
    before compiling."""
    for dtype in (np.int8, np.uint8, np.int16, np.uint16, np.bool_):
        a, b = np.array(0, dtype)[()], np.array(1, dtype)[()]
        with pytest.raises(ValueError, match="the types XLA's RngUniform supports"):
            mlax.lax.rng_uniform(a, b, (3,))
        with pytest.raises(ValueError, match="the types XLA's RngUniform supports"):
            mlax.jit(lambda a, b: mlax.lax.rng_uniform(a, b, (3,)))(a, b)  # noqa: B023


TRANSFORMS = {
    "grad": lambda lib: lib.grad(lambda a: lib.lax.rng_uniform(a, 1.0, ()))(0.0),
    "grad_jit": lambda lib: lib.jit(lib.grad(lambda a: lib.lax.rng_uniform(a, 1.0, ())))(0.0),
    "jvp": lambda lib: lib.jvp(lambda a: lib.lax.rng_uniform(a, 1.0, (2,)), (0.0,), (1.0,)),
    "vmap": lambda lib: lib.vmap(lambda a: lib.lax.rng_uniform(a, 1.0, (3,)))(
        np.zeros(2, np.float32)),
}


@pytest.mark.parametrize("transform", TRANSFORMS)
def test_no_derivative_or_batching_rule(transform):
    error = _raises_like_jax(TRANSFORMS[transform])
    assert isinstance(error, NotImplementedError)


def test_vmap_with_unbatched_bounds_draws_once():
    """As JAX's vmap: the bounds are not batched, so one draw is broadcast."""
    for lib in (mlax, jax):
        out = lib.vmap(lambda x: x + lib.lax.rng_uniform(0.0, 1.0, (3,)))(  # noqa: B023
            np.zeros((4, 3), np.float32))
        rows = np.asarray(out)
        assert rows.shape == (4, 3) and np.all(rows == rows[0])


def test_grad_of_the_rest_uses_the_draw():
    """The bounds are not differentiated: the gradient of x * r is r, the
    numbers drawn in that same run (JAX's too)."""
    for lib in (mlax, jax):
        def f(x):
            r = lib.lax.rng_uniform(np.float32(2), np.float32(3), (5,))  # noqa: B023
            return (x * r).sum(), r
        g, r = lib.grad(f, has_aux=True)(np.ones(5, np.float32))
        np.testing.assert_array_equal(np.asarray(g), np.asarray(r))
        assert np.all((np.asarray(r) >= 2) & (np.asarray(r) < 3))

"""lax.composite against JAX: values, dtypes and weak types eagerly and under
jit, the stablehlo.composite both emit (name, composite_attributes, version,
the decomposition's signature), and JAX's errors: differentiating through a
composite (ValueError), batching it (NotImplementedError), names StableHLO
rejects, traced attributes and closures, attributes with no MLIR form.
"""
import functools

import numpy as np
import pytest

import jax
import jax.numpy as jnp
from jax._src.interpreters import mlir as jax_mlir
from jax._src.lib.mlir import ir as jax_ir

import mlax
import mlax.numpy as mnp
from _helpers import assert_tree_like

X = np.array([0.0, 0.5, -1.25], np.float32)
Y = np.array([[1.0, 2.0], [3.0, -4.0]], np.float32)


def tangent(lib):
    return lib.lax.composite(lambda x: lib.lax.sin(x) / lib.lax.cos(x), "my.tangent")


def softmax(lib):
    @functools.partial(lib.lax.composite, name="my.softmax", version=2)
    def f(x, /, *, axis):
        e = lib.numpy.exp(x - lib.numpy.max(x, axis=axis, keepdims=True))
        return e / lib.numpy.sum(e, axis=axis, keepdims=True)
    return f


def pytree_io(lib):
    """Pytree arguments and results, an integer result, a Python scalar."""
    def decomposition(pair, scale):
        x, y = pair
        return {"sum": x.sum() * scale, "parts": (y * scale, (y > 0).astype(lib.numpy.int32))}
    return lib.lax.composite(decomposition, "my.pytree", version=1)


CASES = {
    "tangent": (tangent, lambda c: c(X)),
    "softmax_axis0": (softmax, lambda c: c(Y, axis=0)),
    "softmax_axis1": (softmax, lambda c: c(Y, axis=1)),
    "pytree": (pytree_io, lambda c: c((X, Y), 2.0)),
    "python_scalar": (tangent, lambda c: c(0.5)),
    "int_arg": (lambda lib: lib.lax.composite(lambda n, x: x * n, "my.scale"),
                lambda c: c(3, X)),
    "no_args": (lambda lib: lib.lax.composite(lambda: lib.numpy.arange(4), "my.iota"),
                lambda c: c()),
}


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("mode", ["eager", "jit"])
def test_values_like_jax(case, mode):
    make, call = CASES[case]

    def run(lib):
        fun = lambda: call(make(lib))  # noqa: E731
        return fun() if mode == "eager" else lib.jit(fun)()
    assert_tree_like(run(mlax), run(jax), rtol=2e-6, atol=2e-6)


@pytest.mark.parametrize("mode", ["eager", "jit"])
def test_traced_arguments(mode):
    """The composite's operands are traced values of the enclosing function."""
    def f(lib):
        def g(x, y):
            return softmax(lib)(x * 2.0, axis=1) + tangent(lib)(y)
        return g if mode == "eager" else lib.jit(g)
    assert_tree_like(f(mlax)(Y, Y), f(jax)(Y, Y), rtol=2e-6, atol=2e-6)


def test_closure_over_concrete_arrays():
    """A decomposition may close over arrays that are not traced."""
    for lib in (mlax, jax):
        c = lib.numpy.ones(3) * 2.0
        out = lib.jit(lambda x: lib.lax.composite(lambda y: y + c, "my.shift")(x))(X)  # noqa: B023
        np.testing.assert_allclose(np.asarray(out), X + 2.0)


def test_nested_and_repeated_composites():
    def f(lib):
        def g(x):
            inner = lib.lax.composite(lambda y: y * 3.0, "my.inner")
            outer = lib.lax.composite(lambda y: inner(y) + 1.0, "my.outer")
            return outer(x) + inner(x) + inner(x * 2.0)
        return g
    assert_tree_like(mlax.jit(f(mlax))(X), jax.jit(f(jax))(X))
    assert _composites(mlax.jit(f(mlax)).lower(X).as_text()) == \
        _composites(jax.jit(f(jax)).lower(X).as_text())


# ---------------------------------------------------------------------------
# The StableHLO: stablehlo.composite with JAX's attributes
# ---------------------------------------------------------------------------

def _composites(text):
    """(name, composite_attributes, version, the decomposition's type) of each
    stablehlo.composite of the StableHLO `text`, parsed by jaxlib's MLIR so
    that mlax's (generic) and JAX's (pretty) text read alike."""
    with jax_mlir.make_ir_context():
        module = jax_ir.Module.parse(text)
        funcs = {str(op.attributes["sym_name"]).strip('"'): op
                 for op in module.body.operations}
        out = []
        for fn in funcs.values():
            for block in fn.regions[0].blocks:
                for op in block.operations:
                    if op.operation.name != "stablehlo.composite":
                        continue
                    attrs = op.operation.attributes
                    callee = funcs[str(attrs["decomposition"])[1:].strip('"')]
                    out.append((
                        str(attrs["name"]),
                        str(attrs["composite_attributes"]) if "composite_attributes" in attrs
                        else None,
                        str(attrs["version"]) if "version" in attrs else None,
                        str(callee.attributes["function_type"])))
        return sorted(out)


ATTRIBUTES = {
    "none": {},
    "python_scalars": dict(flag=True, n=3, x=2.5, big=-2**63),
    "strings": dict(s="fast", b=b"bytes"),
    "numpy_scalars": dict(i=np.int8(-3), u=np.uint8(3), h=np.float16(1.5), f=np.float32(0.25),
                          d=np.float64(0.1), t=np.bool_(True),
                          bf=np.array(1.5, jnp.bfloat16)[()]),
    "arrays": dict(a=np.arange(3, dtype=np.int32), m=np.eye(2), z=np.array(3, np.int8),
                   e=np.zeros((0, 2), np.float32), p=np.array([True, False])),
    "dtypes": dict(d=np.dtype("float32"), b=jnp.dtype("bfloat16"), i=np.dtype("int8")),
    "containers": dict(l=[1, 2.0, "x"], t=(True, (1, "s")), d={"k": [True], "v": 1.5},
                       empty=[]),
    "nones_left_out": dict(a=None, b=1, c=None),
    "special_floats": dict(nan=float("nan"), inf=float("inf")),
}


@pytest.mark.parametrize("attributes", ATTRIBUTES)
@pytest.mark.parametrize("version", [0, 3])
def test_stablehlo_like_jax(attributes, version):
    kwargs = ATTRIBUTES[attributes]

    def f(lib):
        comp = lib.lax.composite(lambda a0, a1, /, **_: (a0 * 2.0, a1.sum()), "my.op",
                                 version=version)
        return lambda x, y: comp(x, y, **kwargs)
    got = _composites(mlax.jit(f(mlax)).lower(X, Y).as_text())
    want = _composites(jax.jit(f(jax)).lower(X, Y).as_text())
    assert got == want
    assert len(got) == 1 and got[0][0] == '"my.op"'
    assert_tree_like(mlax.jit(f(mlax))(X, Y), jax.jit(f(jax))(X, Y))


def test_the_decomposition_is_named_after_the_composite():
    text = mlax.jit(tangent(mlax)).lower(X).as_text()
    assert '"stablehlo.composite"' in text
    assert "decomposition = @my.tangent" in text
    assert "func.func private @my.tangent(" in text


def test_composite_survives_jit_of_jit():
    f = mlax.jit(lambda x: mlax.jit(tangent(mlax))(x) * 2.0)
    assert '"stablehlo.composite"' in f.lower(X).as_text()
    np.testing.assert_allclose(np.asarray(f(X)), np.tan(X) * 2.0, rtol=2e-6)


# ---------------------------------------------------------------------------
# Derivatives and batching: JAX's errors where a tangent or a batch reaches
# the composite, its value where none does
# ---------------------------------------------------------------------------

def _raises_like_jax(fun):
    """`fun(lib)` raises the same class in mlax and JAX; returns mlax's."""
    with pytest.raises(Exception) as j:
        fun(jax)
    with pytest.raises(Exception) as m:
        fun(mlax)
    assert isinstance(m.value, j.type) or type(m.value).__name__ == j.type.__name__, \
        (type(m.value).__mro__, j.type)
    return m.value


TRANSFORMS = {
    "grad": lambda lib: lib.grad(lambda x: tangent(lib)(x).sum())(X),
    "grad_jit": lambda lib: lib.jit(lib.grad(lambda x: tangent(lib)(x).sum()))(X),
    "jvp": lambda lib: lib.jvp(tangent(lib), (X,), (X,)),
    "vjp": lambda lib: lib.vjp(tangent(lib), X)[1](X),
    "linearize": lambda lib: lib.linearize(tangent(lib), X)[1](X),
    "hessian": lambda lib: lib.hessian(lambda x: tangent(lib)(x).sum())(X),
    "vmap": lambda lib: lib.vmap(tangent(lib))(Y),
    "vmap_jit": lambda lib: lib.jit(lib.vmap(tangent(lib)))(Y),
}


@pytest.mark.parametrize("transform", TRANSFORMS)
def test_no_derivative_or_batching_rule(transform):
    error = _raises_like_jax(TRANSFORMS[transform])
    if transform.startswith("vmap"):
        assert isinstance(error, NotImplementedError)
        assert "Batching rule for 'composite' not implemented" in str(error)
    else:
        assert isinstance(error, ValueError)
        assert "JVP rule for composite not implemented" in str(error)


INACTIVE = {
    # Differentiated with respect to x only; the composite sees y.
    "grad": lambda lib: lib.grad(lambda x, y: (x * tangent(lib)(y)).sum())(X, X),
    "jvp": lambda lib: lib.jvp(lambda x: x * tangent(lib)(X), (X,), (X,)),
    "grad_stop_gradient": lambda lib: lib.grad(
        lambda x: (x * tangent(lib)(lib.lax.stop_gradient(x))).sum())(X),
    # Batched over x only.
    "vmap": lambda lib: lib.vmap(lambda x, y: x * tangent(lib)(y), in_axes=(0, None))(
        np.stack([X, -X]), X),
    "vmap_jit": lambda lib: lib.jit(lib.vmap(lambda x: x * tangent(lib)(X)))(np.stack([X, X])),
}


@pytest.mark.parametrize("transform", INACTIVE)
def test_transforms_where_nothing_reaches_it(transform):
    assert_tree_like(INACTIVE[transform](mlax), INACTIVE[transform](jax), rtol=2e-6,
                     atol=2e-6)


def test_gradient_of_the_rest_against_finite_differences():
    """Where the composite takes no differentiated value, the gradient of
    the rest is exact: central differences agree."""
    f = lambda x: mnp.sum(mnp.sin(x) * tangent(mlax)(X))  # noqa: E731
    g = np.asarray(mlax.grad(f)(X))
    eps = 1e-3
    for i in range(X.size):
        e = np.zeros_like(X)
        e[i] = eps
        fd = (float(f(X + e)) - float(f(X - e))) / (2 * eps)
        np.testing.assert_allclose(g[i], fd, rtol=1e-2, atol=1e-3)


# ---------------------------------------------------------------------------
# Names, attributes and closures JAX rejects
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["tangent", "1my.op", "my.", "", "my op.x"])
def test_name_must_be_namespaced_under_jit(name):
    def f(lib):
        return lib.jit(lambda x: lib.lax.composite(lambda y: y * 2.0, name)(x))(X)
    error = _raises_like_jax(f)
    assert isinstance(error, ValueError)
    assert "namespaced" in str(error)


@pytest.mark.parametrize("name", ["tangent", "my.op$v2", "a.b.c"])
def test_eager_runs_the_decomposition_whatever_the_name(name):
    """Outside any trace JAX runs the decomposition (its impl rule): the
    name and the attributes are never lowered."""
    def f(lib):
        return lib.lax.composite(lambda y, **_: y * 2.0, name)(X, attr=object())
    assert_tree_like(f(mlax), f(jax))


BAD = {
    "object_attribute": dict(a=object()),
    "complex_attribute": dict(a=1j),
    "numpy_complex_attribute": dict(a=np.complex64(1j)),
    "nested_none": dict(a=[None]),
    "type_attribute": dict(a=np.float32),
    "int_too_large": dict(a=2**70),
    "non_string_key": dict(a={1: 2}),
    "array_attribute": dict(a=np.ones(2)),  # (fine: the control case)
}


@pytest.mark.parametrize("case", BAD)
def test_attributes_jax_cannot_lower(case):
    kwargs = BAD[case]

    def f(lib):
        comp = lib.lax.composite(lambda y, **_: y * 2.0, "my.op")
        return lib.jit(lambda x: comp(x, **kwargs)).lower(X)
    if case == "array_attribute":
        f(jax)
        f(mlax)
        return
    _raises_like_jax(f)


@pytest.mark.parametrize("name, version", [(3, 0), (None, 0), ("my.op", "v1"), ("my.op", 1.5),
                                           ("my.op", None)])
def test_bad_name_or_version(name, version):
    def f(lib):
        comp = lib.lax.composite(lambda y: y * 2.0, name, version=version)
        return lib.jit(comp).lower(X)
    _raises_like_jax(f)


def test_version_outside_int32_is_refused():
    """(JAX wraps it silently: 2**40 becomes version 0.)"""
    with pytest.raises(OverflowError, match="does not fit in int32"):
        mlax.jit(mlax.lax.composite(lambda y: y, "my.op", version=2**40)).lower(X)


def test_version_of_numpy_and_bool_integers():
    for version in (np.int32(2), True):
        def f(lib):
            comp = lib.lax.composite(lambda y: y + 1.0, "my.op", version=version)  # noqa: B023
            return lib.jit(comp).lower(X)
        assert _composites(f(mlax).as_text()) == \
            _composites(f(jax).as_text())


def test_traced_attribute_is_unexpected_tracer_error():
    def f(lib):
        comp = lib.lax.composite(lambda y, **_: y, "my.op")
        return lib.jit(lambda x: comp(x, a=x))(X)
    error = _raises_like_jax(f)
    assert isinstance(error, mlax.errors.UnexpectedTracerError)
    assert "as an attribute" in str(error)


def test_closure_over_a_traced_value_is_unexpected_tracer_error():
    def f(lib):
        return lib.jit(lambda x: lib.lax.composite(lambda y: y * x, "my.op")(x))(X)
    error = _raises_like_jax(f)
    assert isinstance(error, mlax.errors.UnexpectedTracerError)
    assert "as a constant" in str(error)


def test_positional_string_argument_is_a_type_error():
    def f(lib):
        return lib.jit(lambda x: lib.lax.composite(lambda y, s: y, "my.op")(x, "s"))(X)
    _raises_like_jax(f)


def test_python_branch_on_a_traced_value_in_the_decomposition():
    """The decomposition is traced abstractly even outside jit, as JAX's."""
    def f(lib):
        return lib.lax.composite(lambda y: y if y[0] > 0 else -y, "my.op")(X)
    error = _raises_like_jax(f)
    assert isinstance(error, mlax.errors.TracerBoolConversionError)

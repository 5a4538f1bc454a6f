"""Tracer misuse raises JAX-named errors with useful messages, and no error
leaves mlax in a bad state or crashes the process."""
from __future__ import annotations

import inspect
import os
import subprocess
import sys
import textwrap

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mlax
import mlax.numpy as mnp

X = np.arange(3, dtype=np.float32)


def _line_of(marker: str) -> int:
    """The line number of the source line of this file containing `marker`."""
    lines = inspect.getsource(sys.modules[__name__]).splitlines()
    hits = [i + 1 for i, line in enumerate(lines) if marker in line and "_line_of" not in line]
    assert len(hits) == 1, hits
    return hits[0]


# ---------------------------------------------------------------------------
# Tracer conversions
# ---------------------------------------------------------------------------

def test_if_on_tracer_raises_tracer_bool_conversion_error():
    @mlax.jit
    def f(x):
        if x > 0:
            return x
        return -x

    with pytest.raises(mlax.TracerBoolConversionError) as e:
        f(1.0)
    assert isinstance(e.value, mlax.ConcretizationTypeError)  # as in JAX
    assert isinstance(e.value, TypeError)
    msg = str(e.value)
    assert "bool[]" in msg and "mlax.numpy.where" in msg
    assert "static_argnums" in msg


@pytest.mark.parametrize("fn", [
    lambda x: x if x.sum() else -x,
    lambda x: (x[0] > 0) and x,
    lambda x: not x[1],
    lambda x: [v for v in range(3) if x[v] > 0],
    lambda x: bool(x[2]),
    lambda x: x[0] if mnp.any(x > 1) else x[1],
], ids=["ternary", "and", "not", "comprehension-if", "bool()", "any"])
def test_python_control_flow_on_tracers(fn):
    with pytest.raises(mlax.TracerBoolConversionError, match="boolean conversion"):
        mlax.jit(fn)(X)


@pytest.mark.parametrize("fn", [
    lambda x: (x > 0) and x,
    lambda x: not x,
    lambda x: bool(x),
    lambda x: bool(x[:0]),
], ids=["and", "not", "bool()", "empty"])
def test_truth_value_of_a_traced_non_scalar_is_jaxs_value_error(fn):
    # As JAX: the size is checked before the value is asked for.
    with pytest.raises(ValueError, match="truth value of an"):
        jax.jit(fn)(X)
    with pytest.raises(ValueError, match="truth value of an"):
        mlax.jit(fn)(X)


def test_while_loop_on_tracer():
    def f(x):
        while x < 10:
            x = x * 2
        return x

    with pytest.raises(mlax.TracerBoolConversionError):
        mlax.jit(f)(1.0)
    assert f(mnp.asarray(np.float32(1.0))).item() == 16.0  # fine eagerly


@pytest.mark.parametrize("conv,what", [(int, "int()"), (float, "float()"),
                                       (complex, "complex()")])
def test_int_float_of_tracer_raise_concretization_error(conv, what):
    with pytest.raises(mlax.ConcretizationTypeError) as e:
        mlax.jit(lambda x: conv(x))(1.0)
    # JAX's words: "The problem arose with the `int` function."
    assert f"the `{what[:-2]}` function" in str(e.value)
    assert "Abstract tracer value" in str(e.value)
    assert not isinstance(e.value, mlax.TracerBoolConversionError)


def test_numpy_conversion_of_tracer():
    with pytest.raises(mlax.TracerArrayConversionError, match="__array__"):
        mlax.jit(lambda x: np.asarray(x))(X)
    with pytest.raises(mlax.TracerArrayConversionError):
        mlax.jit(lambda x: np.sin(x))(X)
    # As in JAX, a tracer has tolist(), which needs a concrete value.
    with pytest.raises(mlax.ConcretizationTypeError, match="tolist"):
        mlax.jit(lambda x: x.tolist())(X)


@pytest.mark.parametrize("fn", [
    lambda x: mnp.zeros(range(x)),
    lambda x: [1, 2, 3][x],
    lambda x: "abc" * x,
], ids=["range", "list-index", "str-repeat"])
def test_integer_conversion_of_tracer(fn):
    with pytest.raises(mlax.TracerIntegerConversionError, match="__index__"):
        mlax.jit(fn)(np.int32(2))


def test_traced_slice_bound_is_jax_index_error():
    import jax
    import jax.numpy as jnp
    with pytest.raises(IndexError, match="Slice entries must be static integers"):
        mlax.jit(lambda x: mnp.arange(10)[: x])(np.int32(2))
    with pytest.raises(IndexError, match="Slice entries must be static integers"):
        jax.jit(lambda x: jnp.arange(10)[: x])(np.int32(2))


def test_tracer_as_shape_raises_concretization_error():
    with pytest.raises(mlax.ConcretizationTypeError, match="shape"):
        mlax.jit(lambda n: mnp.zeros(n))(np.int32(3))
    with pytest.raises(mlax.ConcretizationTypeError, match="shape"):
        mlax.jit(lambda n: mnp.ones((2, n)))(np.int32(3))
    with pytest.raises(mlax.ConcretizationTypeError):
        mlax.jit(lambda n: mnp.arange(n))(np.int32(3))
    with pytest.raises(mlax.ConcretizationTypeError):
        mlax.jit(lambda x, n: mnp.sum(x, axis=n))(X, np.int32(0))
    # static_argnums is the fix the message suggests
    assert mlax.jit(lambda n: mnp.zeros(n), static_argnums=0)(3).shape == (3,)


def test_boolean_mask_under_jit():
    with pytest.raises(mlax.NonConcreteBooleanIndexError, match="bool"):
        mlax.jit(lambda x: x[x > 1])(X)


def test_tracers_are_unhashable():
    with pytest.raises(TypeError, match="unhashable"):
        mlax.jit(lambda x: {x: 1})(X)


# ---------------------------------------------------------------------------
# Leaked tracers
# ---------------------------------------------------------------------------

_leaked = []


def test_leaked_tracer_used_later_raises_unexpected_tracer_error():
    @mlax.jit
    def leak(x):
        _leaked.append(x * 2)  # stored in a global: escapes its trace
        return x

    leak(X)
    tracer = _leaked.pop()
    with pytest.raises(mlax.UnexpectedTracerError, match="escape the scope"):
        mnp.sin(tracer)  # eagerly
    with pytest.raises(mlax.UnexpectedTracerError):
        mlax.jit(lambda y: y + tracer)(X)  # inside another trace
    with pytest.raises(mlax.UnexpectedTracerError):
        mlax.jit(lambda y: tracer)(X)  # returned from another jit
    with pytest.raises(mlax.UnexpectedTracerError):
        tracer + 1  # operators too


def test_leaked_tracer_from_a_finished_inner_jit():
    box = []

    @mlax.jit
    def inner(x):
        box.append(x)
        return x

    @mlax.jit
    def outer(x):
        inner(x + 1)
        return box[-1] * 2  # inner's tracer, used in the outer trace

    with pytest.raises(mlax.UnexpectedTracerError):
        outer(X)


def test_tracer_repr_is_harmless():
    seen = []
    mlax.jit(lambda x: seen.append(repr(x)) or x)(X)
    assert seen == ["JitTracer(float32[3])"]  # JAX's repr


# ---------------------------------------------------------------------------
# Shape and dtype errors point at the user's line
# ---------------------------------------------------------------------------

def test_broadcast_error_names_function_shapes_and_line():
    a = mnp.ones((2, 3))
    b = mnp.ones((4,))
    with pytest.raises(ValueError) as e:
        mnp.add(a, b)  # BROADCAST-EAGER
    msg = str(e.value)
    assert "add" in msg and "(2, 3)" in msg and "(4,)" in msg
    assert os.path.basename(__file__) in msg
    assert f"{__file__}:{_line_of('BROADCAST-EAGER')}" in msg


def test_broadcast_error_under_jit_points_at_the_traced_line():
    def f(x, y):
        return x * 2 + y  # BROADCAST-JIT

    with pytest.raises(ValueError) as e:
        mlax.jit(f)(np.ones((2, 3), np.float32), np.ones((2,), np.float32))
    msg = str(e.value)
    assert "add" in msg and "(2, 3)" in msg and "(2,)" in msg
    assert f"{__file__}:{_line_of('BROADCAST-JIT')}" in msg
    assert "(f)" in msg  # the function's name


@pytest.mark.parametrize("fn,name", [
    (lambda a, b: a - b, "subtract"),
    (lambda a, b: mnp.where(a > 0, a, b), "where"),
    (lambda a, b: mnp.maximum(a, b), "maximum"),
    (lambda a, b: a @ b, "matmul"),
    (lambda a, b: mnp.dot(a, b), "dot"),
])
def test_shape_errors_name_the_function(fn, name):
    a = np.ones((2, 3), np.float32)
    b = np.ones((4, 5), np.float32)
    with pytest.raises((ValueError, TypeError)) as e:
        fn(mnp.asarray(a), mnp.asarray(b))
    msg = str(e.value)
    assert name in msg and "(2, 3)" in msg and "(4, 5)" in msg
    assert os.path.basename(__file__) in msg


def test_lax_shape_error_points_at_line():
    with pytest.raises(TypeError) as e:
        mlax.lax.add(np.ones(2, np.float32), np.ones(3, np.float32))  # LAX-LINE
    assert f"{__file__}:{_line_of('LAX-LINE')}" in str(e.value)


# ---------------------------------------------------------------------------
# Bad inputs
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("value", [
    np.array(["a", "b"]),
    np.array([b"x"]),
    np.array([object(), 1], dtype=object),
    ["a", "b"],
    "text",
], ids=["unicode", "bytes", "object", "list-of-str", "str"])
def test_unsupported_array_contents_are_rejected(value):
    with pytest.raises(TypeError) as e:
        mnp.array(value)
    assert "mnp.array" in str(e.value) and "cannot make an array" in str(e.value)


@pytest.mark.parametrize("dtype", [np.longdouble, np.clongdouble, np.dtype("M8[s]"),
                                   np.dtype("m8[s]")])
def test_unsupported_dtypes_are_rejected(dtype):
    if np.dtype(dtype) in (np.float64, np.complex128):
        pytest.skip("long double is double on this platform")
    with pytest.raises(TypeError, match="does not support dtype"):
        mnp.zeros(3, dtype)
    with pytest.raises(TypeError, match="not support|cannot"):
        mnp.asarray(np.zeros(2, dtype))


def test_unsupported_argument_types_to_jit():
    with pytest.raises(TypeError, match="not a valid mlax type"):
        mlax.jit(lambda s: s)("a string")
    with pytest.raises(TypeError, match="object"):
        mlax.jit(lambda s: s)(object())
    with pytest.raises(TypeError):
        mlax.jit(lambda x: x)(np.array(["a"]))


@pytest.mark.parametrize("fn,name", [(mnp.exp, "exp"), (mnp.sin, "sin"), (mnp.negative, "negative"),
                                     (mnp.logical_not, "logical_not")])
def test_list_argument_raises_type_error(fn, name):
    with pytest.raises(TypeError) as e:
        fn([1.0, 2.0])
    msg = str(e.value)
    assert f"mnp.{name}" in msg and "list" in msg and "mnp.array" in msg


def test_list_argument_to_binary_function():
    with pytest.raises(TypeError, match="mnp.add.*list"):
        mnp.add([1.0], 2.0)
    with pytest.raises(TypeError, match="tuple"):
        mnp.multiply(mnp.ones(2), (1.0, 2.0))


def test_python_int_out_of_range():
    with pytest.raises(OverflowError, match="int32"):
        mlax.jit(lambda x: x)(2**40)


def test_bitwise_on_floats_rejected():
    with pytest.raises(TypeError, match="bitwise_and.*float32"):
        mnp.bitwise_and(mnp.ones(2), mnp.ones(2))
    with pytest.raises(TypeError, match="invert.*float32"):
        mnp.invert(mnp.ones(2))


# ---------------------------------------------------------------------------
# Recovery: errors leave no state behind
# ---------------------------------------------------------------------------

def test_errors_inside_jit_leave_no_trace_state():
    from mlax._src.core import tracer as core

    for bad in (lambda x: bool(x), lambda x: x + mnp.ones(7), lambda x: int(x)):
        with pytest.raises((TypeError, ValueError)):
            mlax.jit(bad)(X)
        assert core.trace_stack() == []
    out = mnp.sin(mnp.asarray(X))  # eager ops still run eagerly
    assert isinstance(out, mlax.Array)
    np.testing.assert_allclose(np.asarray(out), np.sin(X), rtol=1e-6)
    f = mlax.jit(lambda x: x + 1)
    assert f(X).tolist() == [1.0, 2.0, 3.0]


def test_failed_trace_is_not_cached():
    calls = []

    def f(x, fail):
        calls.append(1)
        if fail:
            raise RuntimeError("boom")
        return x

    jf = mlax.jit(f, static_argnums=1)
    with pytest.raises(RuntimeError, match="boom"):
        jf(X, True)
    with pytest.raises(RuntimeError, match="boom"):
        jf(X, True)
    assert len(calls) == 2
    assert jf(X, False).tolist() == X.tolist()


def test_errors_do_not_crash_the_process(tmp_path):
    script = tmp_path / "errors.py"
    script.write_text(textwrap.dedent("""
        import numpy as np
        import mlax, mlax.numpy as mnp

        leaked = []
        def leak(x):
            leaked.append(x)
            return x
        mlax.jit(leak)(1.0)

        cases = [
            lambda: mlax.jit(lambda x: 1 if x > 0 else 0)(1.0),
            lambda: mlax.jit(lambda x: int(x))(1.0),
            lambda: mlax.jit(lambda x: np.asarray(x))(1.0),
            lambda: mlax.jit(lambda x: range(x))(1),
            lambda: mnp.sin(leaked[0]),
            lambda: mnp.ones((2, 3)) + mnp.ones(4),
            lambda: mnp.array(np.array(["s"])),
            lambda: mnp.exp([1.0]),
            lambda: mlax.lax.add(1, 1.0),
            lambda: mlax.lax.transpose(mnp.ones((2, 3)), (0, 0)),
            lambda: mnp.ones((2, 3)).reshape(4, 2),
            lambda: mnp.ones(3)[0, 0],
        ]
        for case in cases:
            try:
                case()
            except Exception as e:
                print(type(e).__name__)
            else:
                print("NO ERROR")
        print("ALIVE", float(mlax.jit(lambda x: x * 2)(21.0)))
    """))
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.split()
    assert lines[:12] == [
        "TracerBoolConversionError", "ConcretizationTypeError", "TracerArrayConversionError",
        "TracerIntegerConversionError", "UnexpectedTracerError", "ValueError", "TypeError",
        "TypeError", "TypeError", "TypeError", "ValueError", "IndexError"], proc.stdout
    assert lines[-2:] == ["ALIVE", "42.0"]


# ---------------------------------------------------------------------------
# Differential: the exception JAX raises for the same user error
# ---------------------------------------------------------------------------

F = np.float32(1.0)
V3 = np.ones(3, np.float32)


def _custom_vjp(M, bwd):
    @M.custom_vjp
    def f(x):
        return x * 2
    f.defvjp(lambda x: (x * 2, x), bwd)
    return f


def _custom_jvp(M, tangent):
    @M.custom_jvp
    def f(x):
        return x * 2
    f.defjvp(lambda p, t: (p[0] * 2, tangent(t[0])))
    return f


# (M, np_, lax) -> a call that is a user error in JAX.
_JAX_ERRORS = {
    # Reverse mode of a loop with a traced trip count (a pass diagnostic).
    "grad-while": lambda M, np_, lax: M.grad(
        lambda x: lax.while_loop(lambda v: v < 10, lambda v: v * 2, x))(F),
    "jit-vjp-while": lambda M, np_, lax: M.jit(lambda x: M.vjp(
        lambda x: lax.while_loop(lambda v: v < 10, lambda v: v * 2, x), x)[1](x))(F),
    # vmap's out_axes=None on a batched output (a pass diagnostic).
    "vmap-out-axes-none": lambda M, np_, lax: M.vmap(
        lambda a, b: (a, b), out_axes=(0, None))(V3, V3),
    # Forward mode of a custom_vjp function.
    "jvp-of-custom-vjp": lambda M, np_, lax: M.jvp(
        _custom_vjp(M, lambda r, g: (g,)), (F,), (F,)),
    # Derivatives JAX does not implement (pass diagnostics).
    "svd-full-matrices-jvp": lambda M, np_, lax: M.jvp(
        lambda a: np_.linalg.svd(a, full_matrices=True)[0],
        (np.ones((4, 2), np.float32),), (np.ones((4, 2), np.float32),)),
    "reduce-window-dilation-grad": lambda M, np_, lax: M.grad(lambda x: lax.reduce_window(
        x, -np.inf, lax.max, (2,), (1,), "VALID", window_dilation=(2,)).sum())(
        np.arange(6, dtype=np.float32)),
    # Custom rules that return the wrong types.
    "custom-vjp-bwd-shape": lambda M, np_, lax: M.grad(
        _custom_vjp(M, lambda r, g: (np_.ones(3),)))(F),
    "custom-jvp-tangent-shape": lambda M, np_, lax: M.jvp(
        _custom_jvp(M, lambda t: np_.ones(3)), (F,), (F,)),
    "custom-jvp-tangent-dtype": lambda M, np_, lax: M.jvp(
        _custom_jvp(M, lambda t: t.astype(np_.float16)), (F,), (F,)),
    "vjp-cotangent-dtype": lambda M, np_, lax: M.vjp(lambda x: x * 2, V3)[1](
        np.ones(3, np.int32)),
    "vjp-cotangent-shape": lambda M, np_, lax: M.vjp(lambda x: x * 2, V3)[1](
        np.ones(4, np.float32)),
    # lax shape rules.
    "transpose-perm": lambda M, np_, lax: lax.transpose(np.ones((2, 3), np.float32), (0, 0)),
    "rev-dims": lambda M, np_, lax: lax.rev(V3, (0, 0)),
    "slice-out-of-bounds": lambda M, np_, lax: lax.slice(np.ones((2, 3)), (0, 0), (3, 3)),
    "concatenate-dimension": lambda M, np_, lax: lax.concatenate([V3, V3], 1),
    "select-n-bool-3-cases": lambda M, np_, lax: lax.select_n(V3 > 0, V3, V3, V3),
    "dot-rank-3": lambda M, np_, lax: lax.dot(np.ones((2, 2, 2)), np.ones((2, 2, 2))),
    # Broadcasting: one rank reaches the lax op (TypeError), two ranks fail
    # in rank promotion (ValueError).
    "add-same-rank": lambda M, np_, lax: np_.ones(3) + np_.ones(4),
    "add-different-rank": lambda M, np_, lax: np_.ones((2, 3)) + np_.ones(4),
    "matmul-core-dimension": lambda M, np_, lax: np_.ones((2, 3)) @ np_.ones((4, 5)),
    # Transformations' own argument checks.
    "grad-integer-output": lambda M, np_, lax: M.grad(lambda x: (x * 2).astype(np_.int32))(F),
    "vmap-sizes": lambda M, np_, lax: M.vmap(lambda a, b: a + b)(V3, np.ones(4, np.float32)),
    "jvp-tangent-shape": lambda M, np_, lax: M.jvp(lambda x: x, (V3,), (np.ones(4, np.float32),)),
    "scan-carry-type": lambda M, np_, lax: lax.scan(
        lambda c, x: (c.astype(np_.int32), x), F, V3),
    "cond-branch-types": lambda M, np_, lax: lax.cond(
        True, lambda x: x, lambda x: x.astype(np_.int32), F),
}


def _raised(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        return e
    raise AssertionError("no error raised")


@pytest.mark.parametrize("name", list(_JAX_ERRORS))
def test_user_errors_raise_jax_exception_class(name):
    case = _JAX_ERRORS[name]
    expected = _raised(lambda: case(jax, jnp, jax.lax))
    got = _raised(lambda: case(mlax, mnp, mlax.lax))
    # JAX's class: a builtin one, or the builtin base of a jax.errors class.
    cls = next(c for c in type(expected).__mro__ if c.__module__ == "builtins")
    assert isinstance(got, cls), (f"JAX raised {type(expected).__name__}: {expected}\n"
                                  f"mlax raised {type(got).__name__}: {got}")
    message = str(got)
    # The user's error comes first: no pass pipeline, reproducer or mlax frame.
    assert "Failure while executing pass pipeline" not in message
    assert "reproducer" not in message and "mlax/_src" not in message, message


# Diagnostics of the compiler: the message is JAX's, at the user's line; the
# pass and the reproducer follow in a note.
@pytest.mark.parametrize("name,words", [
    ("grad-while", "Reverse-mode differentiation does not work for lax.while_loop"),
    ("vmap-out-axes-none", "got axis spec None but output was batched"),
])
def test_pass_diagnostics_read_as_jax_errors_at_the_users_line(name, words):
    case = _JAX_ERRORS[name]
    assert words in str(_raised(lambda: case(jax, jnp, jax.lax)))
    got = _raised(lambda: case(mlax, mnp, mlax.lax))
    first = str(got).splitlines()[0]
    assert first.startswith(f"{__file__}:") and words in first, first
    notes = "\n".join(getattr(got, "__notes__", []))
    assert "mlax compiler detail" in notes and "reproducer" in notes


# A tracer error names the function the user wrote, its argument and what
# it is traced for, as JAX does; never mlax's wrappers.
def _bool_of(v):
    return v if v > 0 else -v


@pytest.mark.parametrize("name,call", [
    ("scan", lambda M, lax: lax.scan(lambda v, x: (_bool_of(v), x), F, V3)),
    ("cond", lambda M, lax: lax.cond(True, _bool_of, lambda v: v, F)),
    ("switch", lambda M, lax: lax.switch(0, [_bool_of, lambda v: v], F)),
    ("while_body", lambda M, lax: lax.while_loop(lambda v: v < 10, _bool_of, F)),
    ("fori_loop", lambda M, lax: lax.fori_loop(0, 3, lambda i, v: _bool_of(v), F)),
    ("jit", lambda M, lax: M.grad(M.jit(_bool_of))(F)),
    ("checkpoint / remat", lambda M, lax: M.grad(M.checkpoint(_bool_of))(F)),
])
def test_tracer_errors_name_what_the_function_is_traced_for(name, call):
    for M, lax in ((jax, jax.lax), (mlax, mlax.lax)):
        with pytest.raises(M.errors.TracerBoolConversionError) as e:
            call(M, lax)
        context = next(line for line in str(e.value).splitlines() if "occurred while" in line)
        assert f"for {name}." in context and "the argument v." in context, context
        if name not in ("scan", "fori_loop"):  # there the traced function is the lambda
            assert (f"the function _bool_of at {__file__}:{_line_of('def _bool_of')} "
                    in context), context

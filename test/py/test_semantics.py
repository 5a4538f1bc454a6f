"""jit semantics as JAX's: what is cached and when tracing happens, globals,
print, loops, and the tracer errors (their classes and their words, compared
with what the installed JAX says for the same function)."""
import logging

import numpy as np
import pytest

import jax
import jax.numpy as jnp

import mlax
import mlax.numpy as mnp


def error_of(fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except Exception as e:  # noqa: BLE001
        return e
    raise AssertionError("no error raised")


def jax_lines(e):
    """JAX's message without its docs link."""
    return [l for l in str(e).splitlines() if l and not l.startswith("See https")]


# ---------------------------------------------------------------------------
# The cache key: function, pytree structure, shapes, dtypes, weak types, statics
# ---------------------------------------------------------------------------

def create_filled(np_, val, length):
    return np_.full((length,), val)


def test_create_filled_needs_static_argnums_as_in_jax():
    m = error_of(mlax.jit(lambda v, n: create_filled(mnp, v, n)), 2, 5)
    j = error_of(jax.jit(lambda v, n: create_filled(jnp, v, n)), 2, 5)
    assert isinstance(m, mlax.ConcretizationTypeError) and isinstance(m, TypeError)
    assert isinstance(j, TypeError)
    assert "static_argnums" in str(m) and "static_argnums" in str(j)
    assert "depends on the value of the argument n" in str(m)
    assert "depends on the value of the argument n" in str(j)


def test_create_filled_with_static_argnums_caches_per_static_value():
    f = mlax.jit(lambda v, n: create_filled(mnp, v, n), static_argnums=(1,))
    jf = jax.jit(lambda v, n: create_filled(jnp, v, n), static_argnums=(1,))
    for val, length in [(2, 5), (1.0, 10), (3, 5), (2.0, 10), (2, 5)]:
        m, j = f(val, length), jf(val, length)
        assert m.shape == j.shape and m.dtype == j.dtype and m.weak_type == j.weak_type
        np.testing.assert_array_equal(np.asarray(m), np.asarray(j))
    # (int, 5) and (float, 10): two traces; other calls hit the cache. (JAX's
    # own cache size is not compared: after the full suite it depends on
    # global jit-key state other tests leave behind.)
    assert f.cache_misses == 2


def test_cache_key_shapes_dtypes_weak_types_and_structure():
    f = mlax.jit(lambda x: x)
    f(mnp.ones(3))
    f(mnp.ones(3) * 2)
    assert f.cache_misses == 1
    f(mnp.ones(4))  # shape
    f(mnp.ones(3, dtype=mnp.int32))  # dtype
    assert f.cache_misses == 3
    f(1.0)  # weak f32[]
    f(np.float32(1.0))  # strong f32[]
    assert f.cache_misses == 5
    f(2.0)
    assert f.cache_misses == 5
    g = mlax.jit(lambda t: t)
    g((mnp.ones(2), mnp.ones(2)))
    g([mnp.ones(2), mnp.ones(2)])  # structure
    g({"a": mnp.ones(2), "b": mnp.ones(2)})
    g({"a": mnp.ones(2), "b": mnp.ones(2)})
    assert g.cache_misses == 3


def test_static_args_must_be_hashable():
    m = error_of(mlax.jit(lambda x, y: x, static_argnums=1), 1, [1, 2])
    j = error_of(jax.jit(lambda x, y: x, static_argnums=1), 1, [1, 2])
    assert type(m) is type(j) is ValueError
    assert jax_lines(m) == jax_lines(j)
    # static_argnames as well
    m = error_of(mlax.jit(lambda x, y: x, static_argnames="y"), 1, y={"a": 1})
    assert isinstance(m, ValueError) and "Non-hashable static arguments" in str(m)


def test_changed_global_is_seen_only_on_retrace():
    """The tutorial's `shift` example: same outputs as JAX."""
    ns = {"mnp": mnp, "jnp": jnp}
    exec("shift = -1.0\ndef fm(x):\n    return x + shift\ndef fj(x):\n    return x + shift\n", ns)
    x1, x2, x3 = [0, 1, 2], [0, -1, 0], [0, 1, 2, 3]
    fm, fj = mlax.jit(ns["fm"]), jax.jit(ns["fj"])
    outs = []
    ns["shift"] = -1.0
    outs.append((fm(mnp.array(x1)), fj(jnp.array(x1))))
    ns["shift"] = 1.0
    outs.append((fm(mnp.array(x2)), fj(jnp.array(x2))))  # cached: old shift
    outs.append((fm(mnp.array(x3)), fj(jnp.array(x3))))  # new shape: retrace sees 1.0
    for m, j in outs:
        np.testing.assert_array_equal(np.asarray(m), np.asarray(j))
    np.testing.assert_array_equal(np.asarray(outs[1][0]), [-1.0, -2.0, -1.0])
    np.testing.assert_array_equal(np.asarray(outs[2][0]), [1.0, 2.0, 3.0, 4.0])


def test_global_array_is_captured_at_trace_time():
    ns = {"mnp": mnp}
    exec("b = mnp.array([1, 2, 3])\ndef f(x):\n    return x + b\n", ns)
    f = mlax.jit(ns["f"])
    x = mnp.array([1, 2, 3])
    np.testing.assert_array_equal(np.asarray(f(x)), [2, 4, 6])
    ns["b"] = mnp.array([0, 0, 0])
    np.testing.assert_array_equal(np.asarray(f(x)), [2, 4, 6])


def test_print_runs_only_while_tracing(capsys):
    @mlax.jit
    def f(x):
        print("called identity function", x)
        return x

    f(0.5)
    f(1.0)
    f(mnp.array([-1, 1]))
    out = capsys.readouterr().out.splitlines()
    assert out == ["called identity function JitTracer(~float32[])",
                   "called identity function JitTracer(int32[2])"]


def test_tracer_repr_matches_jax():
    seen, jseen = [], []
    mlax.jit(lambda x, y: seen.append((repr(x), repr(y))) or x)(mnp.arange(5), 1.0)
    jax.jit(lambda x, y: jseen.append((repr(x), repr(y))) or x)(jnp.arange(5), 1.0)
    assert seen == jseen == [("JitTracer(int32[5])", "JitTracer(~float32[])")]


def test_python_loops_unroll():
    @mlax.jit
    def f(x):
        for _ in range(4):
            x = x * 2
        return x

    assert f(np.float32(1.0)).item() == 16.0
    ir = str(mlax.make_ir(f._fun)(1.0))
    assert ir.count("mlax.mul") == 4


# ---------------------------------------------------------------------------
# Errors: class hierarchy and words as JAX's
# ---------------------------------------------------------------------------

def f_bool(x):
    if x > 0:
        return x
    return -x


def f_index(x, n):
    return list(range(n))


def f_int(x):
    return int(x)


def f_float(x):
    return float(x)


def f_array(x):
    return np.asarray(x)


def f_two(x, y):
    return bool(x + y > 0)


def f_tree(p):
    return bool(p["a"] > 0)


def f_varargs(x, *args):
    return bool(args[0] > 0)


@pytest.mark.parametrize("fn,args,cls", [
    (f_bool, (1.0,), "TracerBoolConversionError"),
    (f_index, (1, 3), "TracerIntegerConversionError"),
    (f_int, (1,), "ConcretizationTypeError"),
    (f_float, (1.0,), "ConcretizationTypeError"),
    (f_array, (1.0,), "TracerArrayConversionError"),
    (f_two, (1.0, 2.0), "TracerBoolConversionError"),
    (f_tree, ({"a": 1.0, "b": 2.0},), "TracerBoolConversionError"),
    (f_varargs, (1.0, 2.0), "TracerBoolConversionError"),
], ids=["bool", "index", "int", "float", "array", "two-args", "pytree-arg", "varargs"])
def test_tracer_errors_say_what_jax_says(fn, args, cls):
    m = error_of(mlax.jit(fn), *args)
    j = error_of(jax.jit(fn), *args)
    assert type(m).__name__ == type(j).__name__ == cls
    assert isinstance(m, getattr(mlax, cls))
    # Every line JAX prints, mlax prints too (mlax then adds the fix).
    mlines = str(m).splitlines()
    for line in jax_lines(j):
        line = line.replace("jnp.array", "mlax.numpy.array")
        assert line in mlines, f"missing JAX line: {line!r}\nmlax said:\n{m}"


def test_error_hierarchy_as_jax():
    assert issubclass(mlax.TracerBoolConversionError, mlax.ConcretizationTypeError)
    assert issubclass(mlax.ConcretizationTypeError, TypeError)
    assert issubclass(mlax.TracerIntegerConversionError, TypeError)
    assert issubclass(mlax.TracerArrayConversionError, TypeError)
    assert issubclass(mlax.UnexpectedTracerError, TypeError)
    assert issubclass(mlax.NonConcreteBooleanIndexError, IndexError)
    for name in ["TracerBoolConversionError", "ConcretizationTypeError",
                 "TracerIntegerConversionError", "TracerArrayConversionError",
                 "UnexpectedTracerError", "NonConcreteBooleanIndexError"]:
        builtin = [c for c in getattr(jax.errors, name).__mro__ if c.__module__ == "builtins"]
        assert issubclass(getattr(mlax, name), builtin[0]), (name, builtin[0])


def test_bool_error_has_the_fix():
    m = error_of(mlax.jit(f_bool), 1.0)
    assert "mlax.numpy.where" in str(m) and "static_argnums" in str(m)


def test_non_concrete_boolean_index():
    m = error_of(mlax.jit(lambda x: x[x < 0]), mnp.arange(3.0))
    j = error_of(jax.jit(lambda x: x[x < 0]), jnp.arange(3.0))
    assert type(m).__name__ == type(j).__name__ == "NonConcreteBooleanIndexError"
    assert str(m).splitlines()[0] == str(j).splitlines()[0] == \
        "Array boolean indices must be concrete; got bool[3]"
    assert "mlax.numpy.where" in str(m)


def test_value_not_from_arguments_names_the_ops():
    m = error_of(mlax.jit(lambda x: bool(mnp.ones(3).sum() > 0)), 1.0)
    assert isinstance(m, mlax.TracerBoolConversionError)
    assert "This value became a tracer due to mlax operations on these lines" in str(m)
    assert __file__ in str(m)


def test_nested_jit_error_names_the_inner_function():
    @mlax.jit
    def inner(z):
        return bool(z > 0)

    m = error_of(mlax.jit(lambda x: inner(x * 2)), 1.0)
    assert "while tracing the function inner at" in str(m)
    assert "depends on the value of the argument z" in str(m)


_leaked = []


def test_unexpected_tracer_error():
    @mlax.jit
    def leak(x):
        _leaked.append(x * 2)
        return x

    @jax.jit
    def jleak(x):
        _leaked.append(x * 2)
        return x

    leak(1.0)
    m = error_of(lambda: _leaked[-1] + 1)
    jleak(1.0)
    j = error_of(lambda: _leaked[-1] + 1)
    assert type(m).__name__ == type(j).__name__ == "UnexpectedTracerError"
    assert isinstance(m, TypeError) and isinstance(j, TypeError)
    assert str(m).startswith("Encountered an unexpected tracer.")
    assert "The function being traced when the value leaked was leak at" in str(m)
    assert "The function being traced when the value leaked was jleak at" in str(j)
    # and using it inside another trace, or bool() on it, fails the same way
    tracer = _leaked[0]
    assert isinstance(error_of(mlax.jit(lambda y: y + tracer), 1.0), mlax.UnexpectedTracerError)


# ---------------------------------------------------------------------------
# Explaining cache misses
# ---------------------------------------------------------------------------

@pytest.fixture
def explain():
    mlax.config.update("jax_explain_cache_misses", True)
    yield
    mlax.config.update("mlax_explain_cache_misses", False)


def test_explain_cache_misses_logs_the_reason(explain, caplog):
    f = mlax.jit(lambda v, n: create_filled(mnp, v, n), static_argnums=(1,))
    with caplog.at_level(logging.WARNING, logger="mlax"):
        f(2, 5)
        f(2, 5)
        f(2, 10)
        f(2.0, 10)
    msgs = [r.getMessage() for r in caplog.records if "TRACING CACHE MISS" in r.getMessage()]
    assert len(msgs) == 3
    assert "never seen function" in msgs[0]
    assert "different static arguments" in msgs[1] and "at n, now 10 and before 5" in msgs[1]
    assert "different input types" in msgs[2] and "at v, now ~f32[] and before ~i32[]" in msgs[2]
    assert all(__file__ in m for m in msgs)  # the call site


def test_explain_cache_misses_pytree_change(explain, caplog):
    g = mlax.jit(lambda x, p: x + p["a"])
    with caplog.at_level(logging.WARNING, logger="mlax"):
        g(mnp.ones(3), {"a": 1.0})
        g(mnp.ones(3), {"a": 1.0, "b": 2.0})
    msgs = [r.getMessage() for r in caplog.records if "TRACING CACHE MISS" in r.getMessage()]
    assert len(msgs) == 2 and "different input pytree" in msgs[1]


def test_no_explanations_by_default(caplog):
    f = mlax.jit(lambda x: x)
    with caplog.at_level(logging.WARNING, logger="mlax"):
        f(1.0)
        f(mnp.ones(2))
    assert not [r for r in caplog.records if "TRACING CACHE MISS" in r.getMessage()]
    assert f.cache_misses == 2

"""The small public modules JAX users import: mlax.flatten_util, mlax.typing,
mlax.custom_derivatives, mlax.test_util and mlax.errors' JAX-named classes,
checked against JAX (values, dtypes, shapes, exception classes)."""
from __future__ import annotations

import functools

import jax
import jax.flatten_util
import numpy as np
import pytest

import mlax
import mlax.custom_derivatives
import mlax.errors
import mlax.numpy as mnp
import mlax.test_util
import mlax.typing
from mlax.flatten_util import ravel_pytree


# ---------------------------------------------------------------------------
# flatten_util.ravel_pytree
# ---------------------------------------------------------------------------

_TREES = {
    "one_dtype": lambda: {"w": np.arange(6, dtype=np.float32).reshape(2, 3),
                          "b": (np.ones(2, np.float32), np.float32(3.5))},
    "mixed": lambda: [np.arange(3, dtype=np.int32), np.ones((2,), np.float16), 2.0, True],
    "complex": lambda: (np.array([1 + 2j], np.complex64), np.array([0.5], np.float32)),
    "empty": lambda: {},
}


@pytest.mark.parametrize("name", sorted(_TREES))
def test_ravel_pytree_matches_jax(name):
    tree = _TREES[name]()
    flat, unravel = ravel_pytree(tree)
    ref, ref_unravel = jax.flatten_util.ravel_pytree(tree)
    assert isinstance(flat, mlax.Array)
    assert flat.shape == ref.shape and flat.dtype == ref.dtype
    np.testing.assert_array_equal(np.asarray(flat), np.asarray(ref))
    back, ref_back = unravel(flat), ref_unravel(ref)
    assert jax.tree.structure(back) == jax.tree.structure(ref_back)
    for a, b in zip(jax.tree.leaves(back), jax.tree.leaves(ref_back)):
        assert a.shape == b.shape and a.dtype == b.dtype, (a, b)
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))


def test_unravel_functions_compare_by_structure():
    # as JAX's HashablePartial: equal trees' unravel functions are equal
    # (so one can be a jit static argument)
    u1 = ravel_pytree({"a": np.ones(2, np.float32), "b": 1})[1]
    u2 = ravel_pytree({"a": np.zeros(2, np.float32), "b": 5})[1]
    u3 = ravel_pytree({"a": np.zeros(3, np.float32), "b": 5})[1]
    assert u1 == u2 and hash(u1) == hash(u2) and u1 != u3


def test_unravel_dtype_rules():
    # One input dtype: unravel takes any dtype (JAX issue 7809).
    _, unravel = ravel_pytree([np.ones(2, np.float32)])
    assert unravel(mnp.ones(2, "int32"))[0].dtype == np.int32
    # Mixed dtypes: unravel insists on the promoted dtype, with JAX's TypeError.
    _, unravel = ravel_pytree([np.ones(2, np.float32), np.int32(1)])
    with pytest.raises(TypeError, match="expected dtype float32"):
        unravel(mnp.ones(3, "int32"))


def test_ravel_pytree_under_jit_and_grad():
    tree = {"a": mnp.ones((2, 2)), "b": mnp.arange(3.0)}
    f = mlax.jit(lambda t: ravel_pytree(t)[1](2 * ravel_pytree(t)[0]))
    out = f(tree)
    np.testing.assert_array_equal(np.asarray(out["b"]), [0.0, 2.0, 4.0])
    g = mlax.grad(lambda t: (ravel_pytree(t)[0] ** 2).sum())(tree)
    np.testing.assert_array_equal(np.asarray(g["a"]), 2 * np.ones((2, 2)))


# ---------------------------------------------------------------------------
# typing, custom_derivatives, errors
# ---------------------------------------------------------------------------

def test_typing_names():
    import typing
    assert mlax.Array in typing.get_args(mlax.typing.ArrayLike)
    assert np.ndarray in typing.get_args(mlax.typing.ArrayLike)
    assert np.dtype in typing.get_args(mlax.typing.DTypeLike)


def test_custom_derivatives_are_the_top_level_objects():
    cd = mlax.custom_derivatives
    assert (cd.custom_jvp, cd.custom_vjp, cd.custom_gradient, cd.closure_convert) == (
        mlax.custom_jvp, mlax.custom_vjp, mlax.custom_gradient, mlax.closure_convert)


def test_error_classes_have_jax_bases():
    e = mlax.errors
    assert issubclass(e.JAXTypeError, TypeError) and issubclass(e.JAXIndexError, IndexError)
    assert issubclass(e.ConcretizationTypeError, e.JAXTypeError)
    assert issubclass(e.NonConcreteBooleanIndexError, e.JAXIndexError)
    assert e.JaxRuntimeError is jax.errors.JaxRuntimeError  # the one PJRT raises
    with pytest.raises(e.JAXTypeError):
        mlax.jit(lambda x: bool(x))(1.0)


# ---------------------------------------------------------------------------
# test_util
# ---------------------------------------------------------------------------

def _f(x, y):
    return mnp.sin(x) * y ** 2 + mnp.exp(0.3 * y).sum()


def test_check_grads_passes_on_correct_derivatives():
    args = (np.float32(0.5), np.array([1.0, -2.0], np.float32))
    mlax.test_util.check_grads(_f, args, order=2, modes=("fwd", "rev", "lin"))
    mlax.test_util.check_jvp(_f, functools.partial(mlax.jvp, _f), args)
    mlax.test_util.check_vjp(_f, functools.partial(mlax.vjp, _f), args)


def test_check_grads_catches_a_wrong_rule():
    @mlax.custom_jvp
    def f(x):
        return mnp.sin(x)

    f.defjvp(lambda p, t: (f(p[0]), 2.0 * t[0]))  # wrong: should be cos(x) * t

    @mlax.custom_vjp
    def g(x):
        return mnp.sin(x)

    g.defvjp(lambda x: (mnp.sin(x), x), lambda x, ct: (ct * x,))

    x = (np.array([0.5, 1.0], np.float32),)
    with pytest.raises(AssertionError):
        mlax.test_util.check_grads(f, x, order=1, modes=("fwd",))
    with pytest.raises(AssertionError):
        mlax.test_util.check_grads(g, x, order=1, modes=("rev",))
    with pytest.raises(TypeError, match="forward-mode"):  # as JAX: no jvp of a custom_vjp
        mlax.test_util.check_grads(g, x, order=1, modes=("fwd",))

"""Edge cases of indexing, einsum, vectorize and the transformations on
which mlax disagreed with JAX 0.10.2 (cases from JAX's tests/api_test.py,
lax_numpy_indexing_test.py, lax_numpy_vectorize_test.py, random_test.py):
each compared with JAX (values, dtypes, weak types, exception classes)."""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mlax
import mlax.numpy as mnp

from _helpers import assert_tree_like, param_id

X = np.arange(24.0, dtype=np.float32).reshape(2, 3, 4)
_I = np.array([0, 1])

# A scalar boolean is an integer array index arange(1) (True) or arange(0)
# (False) of a new axis of length 1: it broadcasts with the other advanced
# indices (integers, arrays) and sits among slices, None and `...`.
_BOOL_INDICES = [(True, 0), (False, 1), (True, Ellipsis, 0), (0, True, _I), (True, -1, False),
                 (_I, slice(1, 3), True), (True, None, 0), (True, np.array([True, False]), 1)]


@pytest.mark.parametrize("index", _BOOL_INDICES, ids=param_id)
def test_scalar_boolean_beside_integer_and_array_indices(index):
    want = jnp.asarray(X)[index]
    assert_tree_like(mnp.asarray(X)[index], want)
    assert_tree_like(mnp.asarray(X).at[index].get(), jnp.asarray(X).at[index].get())
    v = np.arange(want.size, dtype=np.float32).reshape(want.shape) + 100
    assert_tree_like(mnp.asarray(X).at[index].add(v), jnp.asarray(X).at[index].add(v))


def test_scalar_boolean_index_under_jit_grad_vmap():
    index = (0, True, _I)
    f = lambda a: (a.at[index].set(2.0) * a[index].sum()).sum()  # noqa: E731
    assert_tree_like(mlax.jit(lambda a: a[index])(X), jax.jit(lambda a: a[index])(X))
    assert_tree_like(mlax.grad(f)(X), jax.grad(f)(X))
    xs = np.stack([X, X + 1])
    assert_tree_like(mlax.vmap(lambda a: a[index])(xs), jax.vmap(lambda a: a[index])(xs))


def test_scalar_boolean_after_none_follows_numpy():
    # JAX inserts the new axis at the boolean's place in the index tuple,
    # counting the None, so its x[None, True] is x[:1][None] (it drops x[1])
    # and differs from its own x[None][:, True]; mlax follows NumPy, which
    # agrees with both spellings.
    for index in [(None, True), (None, slice(None), False), (_I, None, True)]:
        np.testing.assert_array_equal(mnp.asarray(X)[index], X[index])
    assert mnp.asarray(X)[None, True].shape == jnp.asarray(X)[None][:, True].shape


# einsum's operand-list form takes any sortable labels (JAX's opt_einsum maps
# the k-th smallest to the k-th symbol: a-z, A-Z, then Unicode from chr(192)),
# and the string form any character; mlax took ints in [0, 52) and letters only.
_A = np.arange(6.0, dtype=np.float32).reshape(2, 3)
_B = np.arange(12.0, dtype=np.float32).reshape(3, 4)


@pytest.mark.parametrize("args", [
    (_A, [51, 52], _B, [52, 300], [51, 300]), (_A, [-1, 100], _B, [100, 7]),
    (_A, ["i", "j"], _B, ["j", "k"]), (_A, [Ellipsis, 52], _B, [52, 1], [Ellipsis, 1]),
    ("ÀÁ,ÁÂ", _A, _B), ("a1,1b->ba", _A, _B),
    # 30 labels: the 27th-30th smallest map to 'A'-'D', which sort first in
    # the implicit output
    (np.ones((2, 3, 4, 5) + (1,) * 26, np.float32), list(range(30)))], ids=param_id)
def test_einsum_labels_beyond_52(args):
    assert_tree_like(mnp.einsum(*args), jnp.einsum(*args))


def test_einsum_unsortable_labels_raise():
    for lib in (jnp, mnp):
        with pytest.raises(TypeError):
            lib.einsum(_A, [0, "b"], _B, ["b", 1])


# jax.numpy.vectorize (tests/lax_numpy_vectorize_test.py): positional Nones
# pass through, `excluded` and `signature` are checked, and the function's
# outputs are checked against the signature, with JAX's exception classes.
_MM = "(n,m),(m,k)->(n,k)"


@pytest.mark.parametrize("make,args,exc", [
    (lambda lib: lib.vectorize(lambda a: a, excluded={1.5}), None, TypeError),
    (lambda lib: lib.vectorize(lambda a: a, excluded={-1}), None, ValueError),
    (lambda lib: lib.vectorize(lambda a: a, signature="(n)"), (np.ones(2),), ValueError),
    (lambda lib: lib.vectorize(lib.dot, signature=_MM), (np.zeros((3, 2)),), TypeError),
    (lambda lib: lib.vectorize(lib.dot, signature=_MM), (np.zeros(2), np.zeros((2, 2))),
     ValueError),
    (lambda lib: lib.vectorize(lib.dot, signature=_MM), (np.zeros((2, 3)), np.zeros((4, 5))),
     ValueError),
    (lambda lib: lib.vectorize(lib.dot, signature="(n,m),(m,k)->(n,k),()"),
     (np.zeros((2, 2)),) * 2, TypeError),
    (lambda lib: lib.vectorize(lambda *a: a, signature="(),()->(),(),()"), (1.0, 2.0), TypeError),
    (lambda lib: lib.vectorize(lib.dot, signature="(n,m),(m,k)->(n)"), (np.zeros((2, 2)),) * 2,
     ValueError),
    (lambda lib: lib.vectorize(lib.dot, signature="(n,m),(m,k)->(n,n)"),
     (np.zeros((2, 3)), np.zeros((3, 4))), ValueError),
    (lambda lib: lib.vectorize(lambda a, b: a, signature="(n),(n)->()"), (np.ones(2), None),
     ValueError),
], ids=range(11))
def test_vectorize_errors(make, args, exc):
    for lib in (jnp, mnp):
        with pytest.raises(exc):
            make(lib)(*args)


def test_vectorize_none_arguments_and_keywords():
    x = np.arange(6.0, dtype=np.float32).reshape(2, 3)
    f = lambda a, b: a.sum() if b is None else a * b  # noqa: E731
    for sig in (None, "(n),()->()"):
        assert_tree_like(mnp.vectorize(f, signature=sig)(x, None),
                         jnp.vectorize(f, signature=sig)(x, None))
    # Size-1 batch axes are not mapped (JAX's vmap in_axes None), and come back.
    g = mnp.vectorize(lambda a, b: a @ b, signature="(n),(n)->()")
    y = np.ones((1, 1, 3), np.float32)
    assert_tree_like(g(y, x[:, None]), jnp.vectorize(lambda a, b: a @ b,
                                                     signature="(n),(n)->()")(y, x[:, None]))
    # A keyword that is not excluded is mapped as NumPy's vectorize maps it
    # (JAX drops it and calls the function with its default).
    h = lambda a, b=1.0: a * b  # noqa: E731
    np.testing.assert_array_equal(mnp.vectorize(h)(x, b=np.arange(3.0)),
                                  np.vectorize(h)(x, b=np.arange(3.0)))


def test_vmap_unmapped_untraced_results_come_back_as_they_are():
    # JAX's vmap returns an out_axes=None result that is no value of its trace
    # (a Python scalar, a NumPy value) unchanged; a jit around makes it an array.
    x = np.arange(3.0, dtype=np.float32)
    for fun, axes in [(lambda a: 1.0, None), (lambda a: (a * 2, 1), (0, None)),
                      (lambda a: {"b": True, "c": np.ones(2)}, None)]:
        want = jax.vmap(fun, out_axes=axes)(x)
        got = mlax.vmap(fun, out_axes=axes)(x)
        assert_tree_like(got, want)
        assert all(type(g) is type(w) for g, w in zip(jax.tree_util.tree_leaves(got),
                                                      jax.tree_util.tree_leaves(want))
                   if not isinstance(w, jax.Array))
    assert_tree_like(mlax.jit(mlax.vmap(lambda a: 1.0, out_axes=None))(x),
                     jax.jit(jax.vmap(lambda a: 1.0, out_axes=None))(x))


# x ** y's derivatives as JAX's: a float exponent takes lax.pow's rule
# y * x ** (y - 1) (nan at 0 for y = 0., and for the second derivative of
# x ** 1.), a concrete integer one integer_pow's (0 for y = 0, -inf for
# x ** -2 at 0); integer powers are integer_pow's values.
@pytest.mark.parametrize("y", [0.0, 1.0, 2.0, 0.5, -1.0, 3, 0, -2], ids=param_id)
def test_power_derivatives_at_and_around_zero(y):
    xs = np.array([0.0, 1.0, -1.0, 2.0], np.float32)

    def derivatives(lib, grad, vmap):
        f = lambda x: lib.power(x, y)  # noqa: E731
        g = lambda x: x ** y  # noqa: E731
        return (vmap(grad(f))(xs), vmap(grad(grad(f)))(xs), vmap(grad(g))(xs),
                vmap(grad(lambda x: lib.power(x, 2) * x ** y))(xs))

    want = derivatives(jnp, jax.grad, jax.vmap)
    got = derivatives(mnp, mlax.grad, mlax.vmap)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=1e-6)
        np.testing.assert_array_equal(np.signbit(g) | np.isnan(g), np.signbit(w) | np.isnan(w))


def test_integer_power_dtypes_and_errors():
    for base in [3, True, np.arange(4, dtype=np.uint8), np.float16(2), 2.0]:
        for y in [0, 2, np.int32(3), np.array(2)]:
            assert_tree_like(mnp.power(base, y), jnp.power(base, y))
    assert_tree_like(mnp.power(2.0, np.int64(-1)), jnp.power(2.0, np.int64(-1)))
    for lib in (jnp, mnp):  # (mlax gave wrapped garbage: 3 ** -1 was 2111105451)
        with pytest.raises(TypeError):
            lib.power(np.arange(3, dtype=np.int32), -1)


@pytest.mark.parametrize("draw", [lambda r, k: r.normal(k, (2 ** 16, 2 ** 17)),
                                  lambda r, k: r.bits(k, (2 ** 32 + 1,)),
                                  lambda r, k: r.randint(k, (3, 2 ** 31), 0, 9)], ids=range(3))
def test_random_more_than_2_32_values_abstractly(draw):
    # (JAX counts them in 64 bits; mlax refused more than 2**32)
    for key in (lambda r: r.key(0), lambda r: r.PRNGKey(0)):
        got = mlax.eval_shape(lambda k: draw(mlax.random, k), key(mlax.random))
        want = jax.eval_shape(lambda k: draw(jax.random, k), key(jax.random))
        assert (got.shape, got.dtype) == (want.shape, want.dtype)


def test_jvp_and_vjp_of_functions_of_prng_keys():
    # A typed key is a leaf in JAX: its tangent is float0 zeros of its shape
    # (mlax wanted its data's); a raw key's cotangent is float0 of the data's
    # shape even after a typed key's vjp of the same program.
    f = lambda r: (lambda k, x: (r.random.normal(k) * x, k))  # noqa: E731
    for new_key, t in [(lambda r: r.key(0), np.zeros((), jax.dtypes.float0)),
                       (lambda r: r.PRNGKey(0), np.zeros(2, jax.dtypes.float0))]:
        (y, _), (ty, tk) = mlax.jvp(f(mlax), (new_key(mlax.random), 2.0), (t, 1.0))
        (y0, _), (ty0, tk0) = jax.jvp(f(jax), (new_key(jax.random), 2.0), (t, 1.0))
        assert_tree_like((y, ty), (y0, ty0))
        assert (tk.shape, tk.dtype) == (tk0.shape, tk0.dtype)
        g = lambda r: (lambda k, x: r.random.normal(k) * x)  # noqa: E731
        ct = mlax.vjp(g(mlax), new_key(mlax.random), 2.0)[1](1.0)
        ct0 = jax.vjp(g(jax), new_key(jax.random), 2.0)[1](1.0)
        assert [(c.shape, c.dtype) for c in ct] == [(c.shape, c.dtype) for c in ct0]
    with pytest.raises(TypeError):
        mlax.jvp(f(mlax), (mlax.random.key(0), 2.0), (np.zeros(()), 1.0))


@pytest.mark.parametrize("fun,kw", [(lambda a, b: a, {"static_argnames": "c"}),
                                    (lambda a, /, b: a, {"static_argnames": "a"}),
                                    (lambda a, b: a, {"donate_argnames": ("b", "q")})],
                         ids=range(3))
def test_jit_refuses_argnames_the_function_cannot_take(fun, kw):
    for lib in (jax, mlax):
        with pytest.raises(ValueError, match="invalid argnames"):
            lib.jit(fun, **kw)
    mlax.jit(lambda a, **k: a, static_argnames="z")  # (any name, with **kwargs)


def test_custom_jvp_rule_must_return_a_pair():
    for lib in (jax, mlax):
        f = lib.custom_jvp(lambda a: a ** 2)
        f.defjvp(lambda p, t: (p[0] ** 2,))
        with pytest.raises(TypeError, match="must produce a pair"):
            lib.jvp(f, (2.0,), (1.0,))


def test_jacrev_refuses_integer_outputs():
    x = np.arange(3.0, dtype=np.float32)
    for lib, lnp in ((jax, jnp), (mlax, mnp)):  # (mlax gave a Jacobian of zeros)
        with pytest.raises(TypeError, match="real-valued outputs"):
            lib.jacrev(lambda a: lnp.round(a).astype(int))(x)
    assert_tree_like(mlax.jacfwd(lambda a: mnp.round(a).astype(int))(x),
                     jax.jacfwd(lambda a: jnp.round(a).astype(int))(x))


def test_vmap_dict_in_axes_and_eval_shape_int_overflow():
    for lib in (jax, mlax):
        with pytest.raises(TypeError):
            lib.vmap(lambda a, b: a + b, in_axes={"a": 0})(a=np.ones(2), b=np.ones(2))
        with pytest.raises(OverflowError):
            lib.eval_shape(lambda a: a, 2 ** 40)

"""mlax.numpy breadth: flip roll tile repeat take take_along_axis split
hstack vstack tri tril triu meshgrid argmax argmin cumsum cumprod sort
argsort searchsorted tensordot einsum trace linalg.norm nan_to_num logaddexp
hypot isclose allclose — values and dtypes against NumPy and JAX, eagerly and
under jit, gradients against jax.grad, and errors."""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from _helpers import jax_outcomes, jgrad

import mlax
import mlax.numpy as mnp

RNG = np.random.default_rng(1)
A = RNG.standard_normal((3, 4)).astype(np.float32)
B3 = RNG.standard_normal((2, 3, 4)).astype(np.float32)
V = RNG.standard_normal(5).astype(np.float32)
I8 = np.arange(1, 7, dtype=np.int8)
NANS = np.array([1.0, np.nan, 3.0, np.nan, -np.inf, np.inf], np.float32)

# (name, args, kwargs, also compare with numpy)
CASES = [
    ("flip", (A,), {}, True), ("flip", (B3, (0, 2)), {}, True),
    ("roll", (A, 2), {}, True), ("roll", (A, -1, 1), {}, True),
    ("roll", (B3, (1, 5), (0, 2)), {}, True),
    ("tile", (A, (2, 1, 2)), {}, True), ("tile", (V, 3), {}, True),
    ("repeat", (A, 2), {}, True), ("repeat", (A, np.array([1, 0, 2]), 0), {}, True),
    ("repeat", (A, 3), {"axis": 1, "total_repeat_length": 10}, False),
    ("take", (A, np.array([0, 5, 11])), {}, True),
    ("take", (A, np.array([0, 11, 13, -1])), {}, False),  # out of bounds: NaN (fill)
    ("take", (A, np.array([[0, 3], [-1, 9]]), 1), {}, False),
    ("take", (A, np.array([0, 7, -1]), 1), {"mode": "clip"}, True),
    ("take", (A, np.array([0, 7, -1]), 1), {"mode": "wrap"}, True),
    ("take", (np.arange(5), np.array([9])), {}, False),
    ("take_along_axis", (A, np.argsort(A, axis=1), 1), {}, True),
    ("take_along_axis", (A, np.array([[0], [5], [-1]]), 1), {}, False),
    ("take_along_axis", (B3, np.zeros((1, 3, 2), np.int32), 2), {}, False),
    ("split", (A, 2, 1), {}, True), ("split", (A, [1, 3], 1), {}, True),
    ("array_split", (A, 3, 1), {}, True),
    ("hstack", ([A, A],), {}, True), ("hstack", ([V, V[:2]],), {}, True),
    ("vstack", ([A, A[0]],), {}, True), ("vstack", ([V, V],), {}, True),
    ("dstack", ([A, A],), {}, True), ("column_stack", ([V, V],), {}, True),
    ("tri", (3, 4, 1), {}, True), ("tri", (3,), {"dtype": np.int32}, True),
    ("tril", (A,), {}, True), ("tril", (B3, 1), {}, True), ("triu", (A, -1), {}, True),
    ("meshgrid", (A[0], A[:, 0]), {}, True),
    ("meshgrid", (A[0], A[:, 0], V), {"indexing": "ij"}, True),
    ("meshgrid", (A[0], A[:, 0]), {"sparse": True}, True),
    ("argmax", (A,), {}, True), ("argmax", (A, 1), {}, True),
    ("argmin", (A, 0), {"keepdims": True}, True), ("argmax", (NANS,), {}, True),
    ("argmin", (NANS,), {}, True), ("argmax", (np.array([True, False, True]),), {}, True),
    ("argmin", (np.array([3, 1, 1], np.uint8),), {}, True),
    ("cumsum", (A, 1), {}, True), ("cumsum", (A,), {}, True),
    ("cumsum", (np.array([True, True, False]),), {}, False),
    ("cumsum", (I8,), {}, False), ("cumsum", (A, 0), {"dtype": np.int32}, False),
    ("cumprod", (A, 0), {}, True), ("cumprod", (I8,), {}, False),
    ("cumprod", (np.array([[1.0, 0.0, 3.0, 2.0]], np.float32), 1), {}, True),
    ("sort", (A,), {}, True), ("sort", (A, 0), {"descending": True}, False),
    ("sort", (A, None), {}, True), ("sort", (NANS,), {}, True),
    ("argsort", (A,), {}, True), ("argsort", (np.array([3, 1, 3, 1]),), {}, True),
    ("argsort", (np.array([3, 1, 3, 1]),), {"descending": True}, False),
    ("argsort", (A, 0), {"descending": True}, False),
    ("searchsorted", (np.array([1., 2, 2, 3]), np.array([2., 0, 5, np.nan])), {}, True),
    ("searchsorted", (np.array([1., 2, 2, 3]), 2.), {"side": "right"}, True),
    ("searchsorted", (np.array([1, 5, 9]), np.array([[0, 5], [9, 10]])), {}, True),
    ("searchsorted", (np.array([3., 1, 2]), 1.5), {"sorter": np.array([1, 2, 0])}, True),
    ("tensordot", (A, A.T), {"axes": 1}, True),
    ("tensordot", (A, A), {"axes": ([0, 1], [0, 1])}, True),
    ("tensordot", (B3, A), {"axes": ([1, 2], [0, 1])}, True),
    ("tensordot", (A, V), {"axes": 0}, True),
    ("einsum", ("ij,kj->ik", A, A), {}, True), ("einsum", ("ij->j", A), {}, True),
    ("einsum", ("ii->i", A[:3, :3]), {}, True), ("einsum", ("ii", A[:3, :3]), {}, True),
    ("einsum", ("...j,j", A, A[0]), {}, True), ("einsum", ("ij,jk,kl", A, A.T, A), {}, True),
    ("einsum", ("i,j", A[0], A[1]), {}, True),
    ("einsum", ("bij,bjk->bki", B3, B3.transpose(0, 2, 1)), {}, True),
    ("einsum", ("ij", A), {}, True), ("einsum", ("ji", A), {}, True),
    ("trace", (A,), {}, True), ("trace", (A, 1), {}, True), ("trace", (A, -2), {}, True),
    ("trace", (B3, 0, 1, 2), {}, True),
    ("trace", (np.ones((3, 4), np.int8),), {}, False), ("diagonal", (A, -1), {}, True),
    ("nan_to_num", (NANS,), {}, True),
    ("nan_to_num", (NANS,), {"nan": 1.0, "posinf": 9.0}, True),
    ("nan_to_num", (np.array([1, 2]),), {}, True),
    ("logaddexp", (A, 2 * A), {}, True), ("logaddexp", (NANS, NANS), {}, True),
    ("logaddexp", (np.float32(1e30), np.float32(1e30)), {}, True),
    ("hypot", (A, 3.0), {}, True), ("hypot", (np.float32(3e30), np.float32(4e30)), {}, True),
    ("hypot", (NANS, 1.0), {}, True), ("hypot", (np.array([3, 0]), np.array([4, 0])), {}, True),
    ("isclose", (A, A + 1e-6), {}, True),
    ("isclose", (np.array([1, 2]), np.array([1, 3])), {}, True),
    ("isclose", (NANS, NANS), {}, True), ("isclose", (NANS, NANS), {"equal_nan": True}, True),
    ("isclose", (A, A + 1e-3), {"rtol": 0, "atol": 1e-2}, True),
    ("allclose", (A, A), {}, True), ("allclose", (A, A + 1), {}, True),
]


STATIC_AFTER_FIRST = {"repeat", "searchsorted"}


def test_split_at_negative_cut_points_as_numpy():
    got = mnp.split(V, [-2, 1])
    for g, w in zip(got, np.split(V, [-2, 1])):
        np.testing.assert_array_equal(np.asarray(g), w)


def _check(got, want, np_want=None):
    if isinstance(want, (list, tuple)):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            _check(g, w)
        return
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape and got.dtype == want.dtype, (got.dtype, want.dtype)
    if got.dtype.kind in "biu":
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_allclose(got, want, rtol=2e-6, atol=1e-6, equal_nan=True)


JAX_TABLE = [(getattr(jnp, name), args, kwargs) for name, args, kwargs, _ in CASES]


@pytest.mark.parametrize("i", range(len(CASES)), ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
@pytest.mark.parametrize("mode", ["eager", "jit"])
def test_matches_jax_and_numpy(i, mode):
    name, args, kwargs, with_numpy = CASES[i]
    want = jax_outcomes(JAX_TABLE)[i]
    fm = getattr(mnp, name)
    if mode == "eager" or isinstance(args[0], str):
        got = fm(*args, **kwargs)
    else:
        arrays = [i for i, a in enumerate(args) if isinstance(a, np.ndarray)]
        if name in STATIC_AFTER_FIRST:  # e.g. repeat counts must be concrete, as in JAX
            arrays = arrays[:1]

        def f(*xs):
            full = list(args)
            for i, x in zip(arrays, xs):
                full[i] = x
            return fm(*full, **kwargs)

        got = mlax.jit(f)(*[args[i] for i in arrays])
    _check(got, want)
    if with_numpy:
        ref = getattr(np, name)(*args, **kwargs)
        if isinstance(ref, (list, tuple)):
            for g, r in zip(got, ref):
                np.testing.assert_allclose(np.asarray(g), r, rtol=1e-5, atol=1e-5,
                                           equal_nan=True)
        else:
            np.testing.assert_allclose(np.asarray(got), ref, rtol=1e-5, atol=1e-5,
                                       equal_nan=True)


NORMS = [(A[0], None, None), (A[0], 1, None), (A[0], 2, None), (A[0], np.inf, None),
         (A[0], -np.inf, None), (A[0], 0, None), (A[0], 3, None), (A[0], 0.5, None),
         (A, None, None), (A, "fro", None), (A, 1, None), (A, -1, None), (A, np.inf, None),
         (A, -np.inf, None), (A, None, 1), (A, 2, 0), (B3, None, (0, 2)), (B3, 1, (2, 1)),
         (np.arange(4), None, None)]


@pytest.mark.parametrize("x,ord_,axis", NORMS, ids=[str(i) for i in range(len(NORMS))])
@pytest.mark.parametrize("keepdims", [False, True])
def test_linalg_norm(x, ord_, axis, keepdims):
    want = jnp.linalg.norm(x, ord=ord_, axis=axis, keepdims=keepdims)
    got = mnp.linalg.norm(x, ord=ord_, axis=axis, keepdims=keepdims)
    _check(got, want)
    np.testing.assert_allclose(np.asarray(got), np.linalg.norm(
        x, ord=ord_, axis=axis, keepdims=keepdims), rtol=1e-5)


@pytest.mark.parametrize("shape", [(3, 0, 0), (3, 0, 2), (3, 2, 0)])
def test_matrix_norms_of_empty_matrices(shape):
    """The max-type matrix norms (1, inf, 2) of an empty matrix are 0, as
    JAX's; the min-type ones raise where JAX's raise."""
    x = np.ones(shape, np.float32)
    for ord_ in (1, -1, 2, -2, np.inf, -np.inf, "nuc", "fro", "f"):
        try:
            want = jnp.linalg.norm(x, ord=ord_, axis=(-2, -1))
        except ValueError:
            with pytest.raises(ValueError):
                mnp.linalg.norm(x, ord=ord_, axis=(-2, -1))
            continue
        _check(mnp.linalg.norm(x, ord=ord_, axis=(-2, -1)), want)


def test_linalg_is_a_submodule():
    import mlax.numpy.linalg as la

    assert la.norm is mnp.linalg.norm
    # The spectral norm comes from the SVD (test_linalg.py covers it fully).
    np.testing.assert_allclose(np.asarray(mnp.linalg.norm(A, ord=2)),
                               np.asarray(jnp.linalg.norm(A, ord=2)), rtol=1e-5)


def test_traced_roll_shift_and_repeat_length():
    got = mlax.jit(lambda a, s: mnp.roll(a, s, 1))(A, 3)
    np.testing.assert_array_equal(np.asarray(got), np.roll(A, 3, 1))
    got = mlax.jit(lambda a, s: mnp.roll(a, s))(A, -5)
    np.testing.assert_array_equal(np.asarray(got), np.roll(A, -5))
    reps = np.array([2, 0, 1, 3], np.int32)
    got = mlax.jit(lambda v, r: mnp.repeat(v, r, total_repeat_length=6))(V[:4], reps)
    want = jnp.repeat(V[:4], reps, total_repeat_length=6)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


GRADS = [
    ("roll", lambda np_: lambda x: np_.roll(x, 2, 1) * x),
    ("tile", lambda np_: lambda x: np_.tile(x, (2, 1)) ** 2),
    ("repeat", lambda np_: lambda x: np_.repeat(x, np.array([2, 0, 1]), axis=0) ** 2),
    ("take", lambda np_: lambda x: np_.take(x, np.array([0, 5, 5, 11])) ** 2),
    ("take_along_axis", lambda np_: lambda x: np_.take_along_axis(
        x, np.array([[3], [0], [1]]), 1) ** 2),
    ("tril", lambda np_: lambda x: np_.tril(x, 1) * x),
    ("cumsum", lambda np_: lambda x: np_.cumsum(x, 0) ** 2),
    ("cumprod", lambda np_: lambda x: np_.cumprod(x, 1)),
    ("sort", lambda np_: lambda x: np_.sort(x, 0, descending=True) * np.arange(12.).reshape(3, 4)),
    ("tensordot", lambda np_: lambda x: np_.tensordot(x, x, axes=([0], [0]))),
    ("einsum", lambda np_: lambda x: np_.einsum("ij,kj,ii->ik", x, x, x[:3, :3])),
    ("trace", lambda np_: lambda x: np_.trace(x * x, 1)),
    ("norm", lambda np_: lambda x: np_.linalg.norm(x, axis=1)),
    ("norm_inf", lambda np_: lambda x: np_.linalg.norm(x, ord=np.inf, axis=0)),
    ("logaddexp", lambda np_: lambda x: np_.logaddexp(x, x[::-1])),
    ("hypot", lambda np_: lambda x: np_.hypot(x, 2.0 * x[::-1])),
    ("nan_to_num", lambda np_: lambda x: np_.nan_to_num(x) * x),
]


@pytest.mark.parametrize("case", GRADS, ids=[c[0] for c in GRADS])
def test_gradients_match_jax(case):
    fm, fj = case[1](mnp), case[1](jnp)
    w = RNG.standard_normal(jax.eval_shape(fj, A).shape).astype(np.float32)
    gm = mlax.grad(lambda x: mnp.sum(fm(x) * w))(A)
    gj = jgrad(lambda x: jnp.sum(fj(x) * w))(A)
    np.testing.assert_allclose(np.asarray(gm), np.asarray(gj), rtol=2e-5, atol=2e-5)


def test_logaddexp_gradient_at_ties_is_half():
    assert float(mlax.grad(lambda a: mnp.logaddexp(a, 1.0))(1.0)) == 0.5
    assert float(jax.grad(lambda a: jnp.logaddexp(a, 1.0))(1.0)) == 0.5


def test_vmap_of_breadth_functions():
    f = lambda np_: lambda x, i: np_.take_along_axis(x, i, 0) + np_.cumprod(x, 0)  # noqa: E731
    idx = np.array([[[0, 1, 2, 2]], [[2, 2, 0, 1]]], np.int32)
    got = mlax.vmap(f(mnp))(B3, idx)
    want = jax.vmap(f(jnp))(B3, idx)
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-6)
    g = lambda np_: lambda x: np_.einsum("ij,kj->ki", x, x) + np_.argmax(x, 1)[0]  # noqa: E731
    np.testing.assert_allclose(np.asarray(mlax.vmap(g(mnp))(B3)),
                               np.asarray(jax.vmap(g(jnp))(B3)), rtol=1e-5)


@pytest.mark.parametrize("call,exc,match", [
    (lambda: mnp.split(A, 3, 1), ValueError, "equal division"),
    (lambda: mnp.argmax(np.zeros((0,), np.float32)), ValueError, "empty sequence"),
    (lambda: mnp.tensordot(A, A, axes=([0], [1])), TypeError, "shape mismatch"),
    (lambda: mnp.einsum("ij,jk", A, A), ValueError, "size of label"),
    (lambda: mnp.einsum("ij->k", A), ValueError, "output subscript"),
    (lambda: mnp.einsum("ijk", A), ValueError, "do not match"),
    (lambda: mnp.take(A, np.array([0.5])), ValueError, "indices must be integers"),
    (lambda: mnp.take(A, np.array([0]), mode="bogus"), ValueError, "invalid mode"),
    (lambda: mnp.take_along_axis(A, np.array([0]), 1), ValueError, "same number of dim"),
    (lambda: mnp.tril(V), ValueError, "at least 2-d"),
    (lambda: mnp.trace(V), ValueError, "at least 2 dimensions"),
    (lambda: mnp.trace(A, 0, 1, 1), ValueError, "cannot be the same"),
    (lambda: mnp.searchsorted(A, 1.0), ValueError, "1-dimensional"),
    (lambda: mnp.searchsorted(V, 1.0, side="middle"), ValueError, "side"),
    (lambda: mnp.meshgrid(A), ValueError, "1-D"),
    (lambda: mnp.meshgrid(V, indexing="yx"), ValueError, "indexing"),
    (lambda: mnp.repeat(A, np.array([1, 2]), 0), ValueError, "cannot be broadcast"),
    (lambda: mnp.tile(A, (-1,)), ValueError, "negative"),
    (lambda: mnp.roll(A, (1, 2), 0), ValueError, "same length"),
    (lambda: mnp.sort(np.float32(1.0)), ValueError, "0-d"),
    (lambda: mnp.linalg.norm(A, ord="fro", axis=0), ValueError, "invalid norm order"),
    (lambda: mnp.linalg.norm(B3, ord=1), ValueError, "improper number of dimensions"),
])
def test_errors_name_the_function_and_line(call, exc, match):
    with pytest.raises(exc, match=match) as e:
        call()
    assert "mnp." in str(e.value)
    assert "test_numpy_breadth.py" in str(e.value)


def test_traced_repeat_count_needs_total_length():
    with pytest.raises(mlax.ConcretizationTypeError, match="total_repeat_length"):
        mlax.jit(lambda v, r: mnp.repeat(v, r))(V, np.int32(2))


def test_every_requested_function_exists():
    for name in ("tile repeat flip roll take take_along_axis split hstack vstack tri tril "
                 "triu meshgrid argmax argmin cumsum cumprod sort argsort searchsorted "
                 "tensordot einsum trace nan_to_num logaddexp hypot isclose allclose").split():
        assert callable(getattr(mnp, name)), name
    assert callable(mnp.linalg.norm)


@pytest.mark.parametrize("method,args", [
    ("argmax", ()), ("argmin", (1,)), ("argsort", ()), ("sort", (0,)), ("cumsum", (1,)),
    ("cumprod", ()), ("take", (np.array([0, 4]),)), ("repeat", (2, 1)), ("diagonal", ()),
])
def test_array_and_tracer_methods_match_jax(method, args):
    want = getattr(jnp.asarray(A), method)(*args)
    got = getattr(mnp.asarray(A), method)(*args)
    got_jit = mlax.jit(lambda t: getattr(t, method)(*args))(A)
    _check(got, want)
    _check(got_jit, want)


def test_nonzero_method():
    _check(mnp.asarray(NZ_M).nonzero(), jnp.asarray(NZ_M).nonzero())
    _check(mlax.jit(lambda t: t.nonzero(size=4, fill_value=-1))(NZ_M),
           jnp.asarray(NZ_M).nonzero(size=4, fill_value=-1))


NZ_M = np.array([[0, 3, 0], [1, 0, 2]])


def test_searchsorted_method():
    v = np.array([1.0, 2.0, 3.0], np.float32)
    assert int(mnp.asarray(v).searchsorted(2.5)) == int(jnp.asarray(v).searchsorted(2.5)) == 2


@pytest.mark.parametrize("name,args,kwargs", [
    ("fliplr", (A,), {}), ("flipud", (A,), {}), ("atleast_1d", (np.float32(2.0),), {}),
    ("atleast_2d", (V,), {}), ("atleast_3d", (A,), {}), ("atleast_3d", (V,), {}),
    ("cumulative_sum", (V,), {}), ("cumulative_sum", (A,), {"axis": 1, "include_initial": True}),
])
def test_small_helpers_match_jax(name, args, kwargs):
    _check(getattr(mnp, name)(*args, **kwargs), getattr(jnp, name)(*args, **kwargs))


def test_index_results_are_default_ints_with_x64():
    old = mlax.config.jax_enable_x64, jax.config.jax_enable_x64
    mlax.config.update("jax_enable_x64", True)
    jax.config.update("jax_enable_x64", True)
    try:
        a = np.arange(4.0)
        for name, args in [("argmax", (a,)), ("argmin", (a,)), ("argsort", (a,)),
                           ("searchsorted", (a, 1.5)), ("cumsum", (np.array([True]),)),
                           ("tri", (2,)), ("hypot", (1, 2))]:
            got, want = getattr(mnp, name)(*args), getattr(jnp, name)(*args)
            assert np.asarray(got).dtype == np.asarray(want).dtype, name
            np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
    finally:
        mlax.config.update("jax_enable_x64", old[0])
        jax.config.update("jax_enable_x64", old[1])


NZ = np.array([[0, 3, 0], [1, 0, 2]])


@pytest.mark.parametrize("name", ["nonzero", "flatnonzero", "argwhere", "where"])
@pytest.mark.parametrize("size,fill", [(None, None), (2, None), (6, None), (6, -1),
                                       (4, (7, 8))])
def test_nonzero_family_matches_jax(name, size, fill):
    if name == "flatnonzero" and isinstance(fill, tuple):
        return
    kw = {} if size is None else {"size": size, "fill_value": fill}
    want = getattr(jnp, name)(NZ, **kw)
    _check(getattr(mnp, name)(NZ, **kw), want)
    if size is not None:
        _check(mlax.jit(lambda a: getattr(mnp, name)(a, **kw))(NZ), want)
    else:
        ref = getattr(np, name)(NZ)
        for g, r in zip(getattr(mnp, name)(NZ) if name in ("nonzero", "where") else [
                getattr(mnp, name)(NZ)], ref if name in ("nonzero", "where") else [ref]):
            np.testing.assert_array_equal(np.asarray(g), r)


def test_nonzero_edge_cases():
    _check(mnp.argwhere(np.float32(3.0)), jnp.argwhere(np.float32(3.0)))
    _check(mnp.argwhere(np.float32(0.0)), jnp.argwhere(np.float32(0.0)))
    _check(mnp.count_nonzero(NZ, axis=0), jnp.count_nonzero(NZ, axis=0))
    _check(mnp.count_nonzero(NZ), jnp.count_nonzero(NZ))
    with pytest.raises(mlax.ConcretizationTypeError, match="size"):
        mlax.jit(lambda a: mnp.nonzero(a))(NZ)
    with pytest.raises(ValueError, match="0d"):
        mnp.nonzero(np.float32(1.0))
    with pytest.raises(ValueError, match="both or neither"):
        mnp.where(NZ > 0, 1.0)

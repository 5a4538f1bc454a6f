"""mlax.numpy_more (copies, queries, building, index helpers, set ops,
selection, calculus, polynomials, windows, vectorize) against jax.numpy,
eagerly and under jit, plus their errors."""
import numpy as np
import pytest
from _helpers import jax_outcomes

import jax
import jax.numpy as jnp

import mlax
import mlax.numpy as mnp

RNG = np.random.default_rng(0)


def check(m, j, rtol=1e-5, atol=1e-6):
    if isinstance(j, (tuple, list)):
        assert isinstance(m, (tuple, list)) and len(m) == len(j), (m, j)
        for a, b in zip(m, j):
            check(a, b, rtol, atol)
        return
    j = np.asarray(j)
    m_np = np.asarray(m)
    assert m_np.shape == j.shape, (m_np.shape, j.shape)
    assert m_np.dtype == j.dtype, (m_np.dtype, j.dtype)
    wide = np.complex128 if np.iscomplexobj(j) else np.float64  # (complex: both parts)
    np.testing.assert_allclose(m_np.astype(wide) if m_np.dtype != bool else m_np,
                               j.astype(wide) if j.dtype != bool else j,
                               rtol=rtol, atol=atol)


def both(fn_m, fn_j, *args, jit=True, **kw):
    """fn_m on mlax, fn_j on JAX, with `args` (NumPy), eagerly and jitted."""
    ref = fn_j(*args, **kw)
    check(fn_m(*args, **kw), ref)
    if jit:
        check(mlax.jit(lambda *a: fn_m(*a, **kw))(*args), ref)


def f32(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def ints(*shape, hi=5):
    return RNG.integers(0, hi, shape).astype(np.int32)


# ---------------------------------------------------------------------------
# Copies and queries
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("x", [f32(3), ints(2, 3), np.array(True), f32(0, 2)])
def test_copy_shape_ndim_size(x):
    both(mnp.copy, jnp.copy, x)
    assert mnp.shape(mnp.asarray(x)) == jnp.shape(jnp.asarray(x))
    assert mnp.ndim(mnp.asarray(x)) == jnp.ndim(x)
    assert mnp.size(mnp.asarray(x)) == jnp.size(x)
    if x.ndim:
        assert mnp.size(mnp.asarray(x), 0) == jnp.size(x, 0)
    out = mnp.copy(mnp.asarray(x))
    assert out is not None and out.dtype == jnp.copy(x).dtype


def test_copy_in_the_seed_example():
    def stupid_fn(x):
        y = mnp.copy(x)
        for _ in range(3):
            x = x * x
        return y
    x = mnp.array([1.1, -1.1])
    np.testing.assert_array_equal(np.asarray(mlax.jit(stupid_fn)(x)),
                                  np.array([1.1, -1.1], np.float32))


@pytest.mark.parametrize("args", [
    (np.float32, np.int32), (np.int8, np.uint8), (np.float16, np.bfloat16 if hasattr(np, "bfloat16") else np.float32),
    (np.int64, np.int32), (np.bool_, np.int16), (np.uint32, np.int32), (np.float32, np.complex64)])
def test_promote_types_and_result_type(args):
    assert mnp.promote_types(*args) == jnp.promote_types(*args)
    assert mnp.result_type(*args) == jnp.result_type(*args)


@pytest.mark.parametrize("args", [(1, 2.0), (np.float16(1), 1), (True, 1), (1, 1j),
                                  (np.ones(2, np.int8), 3)])
def test_result_type_of_values(args):
    assert mnp.result_type(*args) == jnp.result_type(*args)


def test_dtype_queries():
    for dt in (np.float32, np.float16, mnp.bfloat16, np.int8, np.uint16, np.bool_):
        for kind in ("bool", "signed integer", "unsigned integer", "integral",
                     "real floating", "complex floating", "numeric"):
            assert mnp.isdtype(dt, kind) == jnp.isdtype(dt, kind), (dt, kind)
    assert mnp.issubdtype(np.float32, mnp.floating) and not mnp.issubdtype(np.int32,
                                                                           mnp.floating)
    assert mnp.finfo(np.float32).eps == jnp.finfo(np.float32).eps
    assert mnp.finfo(mnp.bfloat16).bits == 16
    assert mnp.iinfo(np.int8).min == -128 and mnp.iinfo(mnp.ones(2, np.int32)).max == 2**31 - 1
    assert mnp.can_cast(np.int8, np.int32) and not mnp.can_cast(np.float32, np.int32)
    assert mnp.isscalar(1.0) and mnp.isscalar(mnp.asarray(1.0)) and not mnp.isscalar(
        mnp.ones(2))
    assert mnp.iterable([1]) and not mnp.iterable(1)
    with pytest.raises(ValueError, match="unknown kind"):
        mnp.isdtype(np.float32, "floaty")


# ---------------------------------------------------------------------------
# Building and reshaping
# ---------------------------------------------------------------------------

def test_broadcast_arrays_concat_permute_unstack():
    a, b = f32(3, 1), f32(1, 4)
    both(lambda x, y: tuple(mnp.broadcast_arrays(x, y)),
         lambda x, y: tuple(jnp.broadcast_arrays(x, y)), a, b)
    both(lambda x, y: mnp.concat([x, y.T], axis=None),
         lambda x, y: jnp.concat([x, y.T], axis=None), a, b)
    x = f32(2, 3, 4)
    both(lambda x: mnp.permute_dims(x, (2, 0, 1)), lambda x: jnp.permute_dims(x, (2, 0, 1)), x)
    both(mnp.matrix_transpose, jnp.matrix_transpose, x)
    both(lambda x: mnp.unstack(x, axis=1), lambda x: jnp.unstack(x, axis=1), x)
    for axis, start in [(2, 0), (0, 3), (1, 1), (-1, 1)]:
        both(lambda x: mnp.rollaxis(x, axis, start), lambda x: jnp.rollaxis(x, axis, start), x)
    with pytest.raises(ValueError, match="at least 2"):
        mnp.matrix_transpose(mnp.ones(3))


@pytest.mark.parametrize("axis", [None, 0, 1, -1])
def test_append_delete_insert(axis):
    x = ints(3, 4, hi=9)
    vals = ints(3, 4, hi=9) if axis is not None else ints(5)
    both(lambda a, v: mnp.append(a, v, axis=axis), lambda a, v: jnp.append(a, v, axis=axis),
         x, vals)
    for obj in (1, [0, 2], slice(0, 3, 2), -1):
        both(lambda a: mnp.delete(a, obj, axis=axis),
             lambda a: jnp.delete(a, np.asarray(obj) if isinstance(obj, list) else obj,
                                  axis=axis), x, jit=True)
    for obj, v in ((1, 7), ([0, 2], 9), (-1, 3)):
        ref = jnp.insert(x, np.asarray(obj) if isinstance(obj, list) else obj, v, axis=axis)
        check(mnp.insert(x, obj, v, axis=axis), ref)
    if axis in (1, -1):  # a block of values at one position
        check(mnp.insert(x, 2, [5, 6, 7], axis=axis), jnp.insert(x, 2, np.array([5, 6, 7]),
                                                                 axis=axis))


def test_delete_insert_errors():
    with pytest.raises(IndexError):
        mnp.delete(mnp.arange(3), 5)
    with pytest.raises(np.exceptions.AxisError):
        mnp.insert(mnp.ones((2, 2)), 0, 1, axis=3)
    with pytest.raises(mlax.errors.ConcretizationTypeError):
        mlax.jit(lambda x, i: mnp.delete(x, i))(mnp.arange(3), mnp.asarray([1]))


@pytest.mark.parametrize("fn,shape,sections", [
    ("hsplit", (4, 6), 3), ("hsplit", (6,), [2, 4]), ("vsplit", (4, 6), 2),
    ("dsplit", (2, 2, 4), [1])])
def test_hvd_split(fn, shape, sections):
    x = f32(*shape)
    both(lambda a: tuple(getattr(mnp, fn)(a, sections)),
         lambda a: tuple(getattr(jnp, fn)(a, sections)), x)


def test_split_rank_errors():
    with pytest.raises(ValueError, match="2 or more"):
        mnp.vsplit(mnp.ones(4), 2)
    with pytest.raises(ValueError, match="3 or more"):
        mnp.dsplit(mnp.ones((2, 2)), 2)


@pytest.mark.parametrize("new_shape", [(2, 3), 7, (3, 4, 2), (0,)])
def test_resize(new_shape):
    both(lambda a: mnp.resize(a, new_shape), lambda a: jnp.resize(a, new_shape), f32(5))


def test_block_and_diagflat_and_fill_diagonal():
    a, b, c = f32(2, 2), f32(2, 1), f32(1, 3)
    both(lambda a, b, c: mnp.block([[a, b], [c]]), lambda a, b, c: jnp.block([[a, b], [c]]),
         a, b, c)
    both(lambda v: mnp.block([v, v]), lambda v: jnp.block([v, v]), f32(3))
    both(lambda v: mnp.diagflat(v, 1), lambda v: jnp.diagflat(v, 1), f32(2, 2))
    for shape in ((3, 3), (2, 2, 2), (3, 5), (5, 2)):
        x = f32(*shape)
        both(lambda a: mnp.fill_diagonal(a, 7.0, inplace=False),
             lambda a: jnp.fill_diagonal(a, 7.0, inplace=False), x)
    # wrap=True (JAX does not have it): as NumPy.
    x = f32(7, 2)
    ref = x.copy()
    np.fill_diagonal(ref, 7.0, wrap=True)
    np.testing.assert_array_equal(np.asarray(mnp.fill_diagonal(x, 7.0, wrap=True,
                                                               inplace=False)), ref)
    with pytest.raises(NotImplementedError, match="inplace=False"):
        mnp.fill_diagonal(mnp.ones((2, 2)), 1.0)
    with pytest.raises(TypeError, match="tuple"):
        mnp.block((mnp.ones(2), mnp.ones(2)))


# ---------------------------------------------------------------------------
# Index helpers
# ---------------------------------------------------------------------------

def test_ix_indices_grids():
    both(lambda a, b: mnp.ix_(a, b), lambda a, b: jnp.ix_(a, b), ints(3), ints(2))
    check(mnp.indices((2, 3)), jnp.indices((2, 3)))
    check(mnp.indices((2, 3), sparse=True), jnp.indices((2, 3), sparse=True))
    check(mnp.mgrid[0:3, 1:4:2], jnp.mgrid[0:3, 1:4:2])
    check(mnp.mgrid[0:1:5j], jnp.mgrid[0:1:5j])
    check(mnp.ogrid[0:3, 0:2], jnp.ogrid[0:3, 0:2])
    check(mnp.r_[1:4, [7, 8], 0], jnp.r_[1:4, [7, 8], 0])
    check(mnp.c_[np.ones(2), np.zeros(2)], jnp.c_[np.ones(2), np.zeros(2)])
    check(mnp.r_["0,2", [1, 2], [3, 4]], jnp.r_["0,2", [1, 2], [3, 4]])
    assert mnp.s_[1:2] == jnp.s_[1:2] and mnp.index_exp[1] == jnp.index_exp[1]
    with pytest.raises(ValueError, match="1-d"):
        mnp.ix_(mnp.ones((2, 2)))


@pytest.mark.parametrize("n,k,m", [(3, 0, None), (4, 1, 5), (4, -1, 3)])
def test_tri_and_diag_indices(n, k, m):
    check(mnp.tril_indices(n, k, m), jnp.tril_indices(n, k, m))
    check(mnp.triu_indices(n, k, m), jnp.triu_indices(n, k, m))
    x = f32(n, m or n)
    check(mnp.tril_indices_from(x, k), jnp.tril_indices_from(x, k))
    check(mnp.triu_indices_from(x, k), jnp.triu_indices_from(x, k))
    check(mnp.diag_indices(n, 3), jnp.diag_indices(n, 3))
    check(mnp.diag_indices_from(f32(n, n)), jnp.diag_indices_from(f32(n, n)))
    check(mnp.mask_indices(n, mnp.triu, k), jnp.mask_indices(n, jnp.triu, k))


def test_unravel_and_ravel_multi_index():
    idx = np.array([0, 5, 11, 3], np.int32)
    both(lambda i: mnp.unravel_index(i, (3, 4)), lambda i: jnp.unravel_index(i, (3, 4)), idx)
    coords = (np.array([0, 2, 1], np.int32), np.array([3, 0, 1], np.int32))
    for mode in ("raise", "clip", "wrap"):
        check(mnp.ravel_multi_index(coords, (3, 4), mode=mode),
              jnp.ravel_multi_index(coords, (3, 4), mode=mode))
    check(mnp.ravel_multi_index(coords, (3, 4), order="F"),
          jnp.ravel_multi_index(coords, (3, 4), order="F"))
    check(mlax.jit(lambda a, b: mnp.ravel_multi_index((a, b), (3, 4), mode="clip"))(*coords),
          jnp.ravel_multi_index(coords, (3, 4), mode="clip"))
    with pytest.raises(ValueError, match="invalid entry"):
        mnp.ravel_multi_index((np.array([5]), np.array([0])), (3, 4))
    with pytest.raises(TypeError, match="int indices"):
        mnp.unravel_index(np.array([1.0]), (2, 2))


# ---------------------------------------------------------------------------
# Sets
# ---------------------------------------------------------------------------

A = np.array([5, 1, 3, 3, 7, 1], np.int32)
B = np.array([3, 8, 1, 9], np.int32)


@pytest.mark.parametrize("invert", [False, True])
def test_isin(invert):
    both(lambda a, b: mnp.isin(a, b, invert=invert), lambda a, b: jnp.isin(a, b, invert=invert),
         A.reshape(2, 3), B)


@pytest.mark.parametrize("fn", ["union1d", "intersect1d", "setdiff1d", "setxor1d"])
def test_set_ops(fn):
    kw = {"assume_unique": True} if fn == "setxor1d" else {}
    a, b = (np.unique(A), np.unique(B)) if fn == "setxor1d" else (A, B)
    check(getattr(mnp, fn)(a, b, **kw), getattr(jnp, fn)(a, b, **kw))
    # Under jit with a static size (padded with fill_value); JAX's three in
    # one jitted program.
    sizes = ((6, None), (6, -1), (2, 0))
    refs = jax.jit(lambda x, y: [getattr(jnp, fn)(x, y, size=size, fill_value=fill, **kw)
                                 for size, fill in sizes])(a, b)
    for (size, fill), ref in zip(sizes, refs):
        out = mlax.jit(lambda x, y: getattr(mnp, fn)(x, y, size=size, fill_value=fill, **kw))(
            a, b)
        check(out, ref)


def test_set_ops_need_size_under_jit():
    with pytest.raises(mlax.errors.ConcretizationTypeError):
        mlax.jit(lambda x, y: mnp.intersect1d(x, y))(A, B)


def test_unique_variants():
    x = np.array([[3, 1], [3, 2]], np.int32)
    for fn in ("unique_values", "unique_counts", "unique_inverse", "unique_all"):
        m, j = getattr(mnp, fn)(x), getattr(jnp, fn)(x)
        check(tuple(m) if fn != "unique_values" else m, tuple(j) if fn != "unique_values" else j)
    m = mlax.jit(lambda v: mnp.unique_counts(v, size=4, fill_value=0))(x)
    check(tuple(m), tuple(jnp.unique_counts(x, size=4, fill_value=0)))
    assert m._fields == ("values", "counts")


# ---------------------------------------------------------------------------
# Selection and sorting
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_choose(mode):
    idx = np.array([[0, 2], [1, 5]], np.int32) if mode != "raise" else \
        np.array([[0, 2], [1, 1]], np.int32)
    choices = [f32(2, 2), f32(2), f32(1, 2)]
    check(mnp.choose(idx, choices, mode=mode), jnp.choose(idx, choices, mode=mode))
    if mode != "raise":
        check(mlax.jit(lambda i, *c: mnp.choose(i, c, mode=mode))(idx, *choices),
              jnp.choose(idx, choices, mode=mode))


def test_compress_and_extract():
    x = f32(3, 4)
    cond = np.array([True, False, True])
    check(mnp.compress(cond, x, axis=0), jnp.compress(cond, x, axis=0))
    check(mnp.compress([1, 0, 1, 1], x, axis=1), jnp.compress(np.array([1, 0, 1, 1]), x, axis=1))
    check(mnp.compress(cond, x), jnp.compress(cond, x))
    check(mlax.jit(lambda c, a: mnp.compress(c, a, axis=0, size=3, fill_value=-1))(cond, x),
          jnp.compress(cond, x, axis=0, size=3, fill_value=-1))
    m = x > 0
    check(mnp.extract(m, x), jnp.extract(m, x))
    check(mlax.jit(lambda c, a: mnp.extract(c, a, size=5))(m, x), jnp.extract(m, x, size=5))
    with pytest.raises(mlax.errors.ConcretizationTypeError):
        mlax.jit(lambda c, a: mnp.extract(c, a))(m, x)
    with pytest.raises(ValueError, match="longer"):
        mnp.compress([1, 1, 1, 1], mnp.ones(3))


def test_lexsort_partition_sort_complex():
    k1 = np.array([1, 1, 0, 0, 2], np.int32)
    k2 = np.array([3, 1, 2, 0, 1], np.int32)
    both(lambda a, b: mnp.lexsort((a, b)), lambda a, b: jnp.lexsort((a, b)), k1, k2)
    both(lambda a, b: mnp.lexsort([a, b]), lambda a, b: jnp.lexsort([a, b]), k2, k1)
    x = f32(2, 6)
    for kth, axis in ((2, -1), (0, 1), (5, -1), (-1, -1), (1, 0)):
        both(lambda a: mnp.partition(a, kth, axis), lambda a: jnp.partition(a, kth, axis), x)
        both(lambda a: mnp.argpartition(a, kth, axis),
             lambda a: jnp.argpartition(a, kth, axis), x)
    with pytest.raises(ValueError, match="kth"):
        mnp.partition(mnp.ones(3), 5)


def test_sort_complex_matches():
    x = f32(6)
    check(mnp.sort_complex(x), jnp.sort_complex(x))


def test_trim_zeros():
    x = np.array([0, 0, 3, 0, 4, 0], np.int32)
    for trim in ("fb", "f", "b"):
        check(mnp.trim_zeros(x, trim), jnp.trim_zeros(x, trim))
    check(mnp.trim_zeros(np.zeros(3, np.int32)), jnp.trim_zeros(np.zeros(3, np.int32)))


# ---------------------------------------------------------------------------
# Products, calculus, polynomials, windows
# ---------------------------------------------------------------------------

def test_vecdot_matvec_vecmat():
    both(mnp.vecdot, jnp.vecdot, f32(2, 3), f32(3))
    both(mnp.matvec, jnp.matvec, f32(2, 3, 4), f32(4))
    both(mnp.vecmat, jnp.vecmat, f32(3), f32(2, 3, 4))
    with pytest.raises(ValueError):
        mnp.vecdot(mnp.ones(3), mnp.ones(4))


@pytest.mark.parametrize("use_x", [False, True])
def test_trapezoid(use_x):
    y = f32(3, 5)
    if use_x:
        x = np.sort(f32(5))
        both(lambda y, x: mnp.trapezoid(y, x), lambda y, x: jnp.trapezoid(y, x), y, x)
    else:
        both(lambda y: mnp.trapezoid(y, dx=0.5, axis=0),
             lambda y: jnp.trapezoid(y, dx=0.5, axis=0), y)


def test_gradient():
    f = f32(4, 5)
    both(lambda a: tuple(mnp.gradient(a)), lambda a: tuple(jnp.gradient(a)), f)
    both(lambda a: mnp.gradient(a, 2.0, axis=1), lambda a: jnp.gradient(a, 2.0, axis=1), f)
    x = np.cumsum(np.abs(f32(5))) + 0.1
    both(lambda a, x: mnp.gradient(a, x, axis=1), lambda a, x: jnp.gradient(a, x, axis=1), f, x)
    x6 = f32(6)
    check(mlax.grad(lambda a: mnp.sum(mnp.gradient(a) ** 2))(x6),
          jax.grad(lambda a: jnp.sum(jnp.gradient(a) ** 2))(x6))
    with pytest.raises(ValueError, match="at least 2"):
        mnp.gradient(mnp.ones(1))


@pytest.mark.parametrize("increasing", [False, True])
def test_vander(increasing):
    both(lambda x: mnp.vander(x, 4, increasing=increasing),
         lambda x: jnp.vander(x, 4, increasing=increasing), f32(3))
    both(lambda x: mnp.vander(x), lambda x: jnp.vander(x), ints(3))


def test_polynomials():
    p, q = f32(4), f32(2)
    for fn in ("polyadd", "polysub", "polymul"):
        both(getattr(mnp, fn), getattr(jnp, fn), p, q)
    both(lambda a: mnp.polyder(a, 2), lambda a: jnp.polyder(a, 2), p)
    both(lambda a: mnp.polyint(a, 2, k=np.array([1.0, 2.0])),
         lambda a: jnp.polyint(a, 2, k=np.array([1.0, 2.0])), p)
    both(lambda a, b: mnp.polydiv(a, b), lambda a, b: jnp.polydiv(a, b), p, q)
    both(mnp.poly, jnp.poly, f32(3))
    with pytest.raises(ValueError):
        mnp.polyadd(mnp.ones((2, 2)), mnp.ones(2))


def test_polyfit_when_lstsq_exists():
    import mlax.numpy.linalg as la

    x = np.linspace(-1, 1, 8).astype(np.float32)
    y = (3 * x**2 - x + 0.5).astype(np.float32)
    if not hasattr(la, "lstsq"):
        with pytest.raises(NotImplementedError):
            mnp.polyfit(x, y, 2)
        return
    check(mnp.polyfit(x, y, 2), jnp.polyfit(x, y, 2), rtol=1e-3, atol=1e-4)


WINDOWS = ["bartlett", "blackman", "hamming", "hanning"]
WINDOW_MS = [0, 1, 5, 8]
# JAX's windows in one jitted program (jax_outcomes).
WINDOW_TABLE = [(getattr(jnp, fn), (M,), {}) for fn in WINDOWS for M in WINDOW_MS]


@pytest.mark.parametrize("fn", WINDOWS)
@pytest.mark.parametrize("M", WINDOW_MS)
def test_windows(fn, M):
    want = jax_outcomes(WINDOW_TABLE)[WINDOWS.index(fn) * len(WINDOW_MS) + WINDOW_MS.index(M)]
    check(getattr(mnp, fn)(M), want, atol=1e-6)


# ---------------------------------------------------------------------------
# Functions of functions
# ---------------------------------------------------------------------------

def test_apply_along_and_over_axes():
    x = f32(3, 4, 2)
    for axis in (0, 1, 2, -1):
        both(lambda a: mnp.apply_along_axis(lambda v: mnp.sum(v * v), axis, a),
             lambda a: jnp.apply_along_axis(lambda v: jnp.sum(v * v), axis, a), x)
    both(lambda a: mnp.apply_along_axis(lambda v: v[::-1] * 2, 1, a),
         lambda a: jnp.apply_along_axis(lambda v: v[::-1] * 2, 1, a), x)
    both(lambda a: mnp.apply_over_axes(mnp.sum, a, [0, 2]),
         lambda a: jnp.apply_over_axes(jnp.sum, a, [0, 2]), x)


def test_fromfunction_and_piecewise():
    check(mnp.fromfunction(lambda i, j: i * 10 + j, (3, 4), dtype=np.int32),
          jnp.fromfunction(lambda i, j: i * 10 + j, (3, 4), dtype=np.int32))
    x = np.linspace(-2, 2, 9).astype(np.float32)
    both(lambda v: mnp.piecewise(v, [v < 0, v > 1], [lambda t: -t, lambda t: t * t, 0.5]),
         lambda v: jnp.piecewise(v, [v < 0, v > 1], [lambda t: -t, lambda t: t * t, 0.5]), x)
    with pytest.raises(ValueError, match="functions"):
        mnp.piecewise(mnp.ones(2), [mnp.ones(2) > 0], [1, 2, 3])


def test_vectorize():
    f = mnp.vectorize(lambda a, b: a * b + 1)
    g = jnp.vectorize(lambda a, b: a * b + 1)
    both(f, g, f32(3, 1), f32(4))
    dot = mnp.vectorize(lambda a, b: mnp.sum(a * b), signature="(n),(n)->()")
    jdot = jnp.vectorize(lambda a, b: jnp.sum(a * b), signature="(n),(n)->()")
    both(dot, jdot, f32(2, 3, 5), f32(5))
    with pytest.raises(TypeError, match="positional"):
        dot(mnp.ones(3))


def test_unwrap():
    p = np.cumsum(RNG.uniform(-4, 4, 10)).astype(np.float32)
    both(mnp.unwrap, jnp.unwrap, p)
    both(lambda a: mnp.unwrap(a, period=4.0), lambda a: jnp.unwrap(a, period=4.0), p)

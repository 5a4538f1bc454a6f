"""Linear algebra: mlax.lax.linalg (cholesky, triangular_solve, eigh, qr,
geqrf, svd), mlax.numpy.linalg and mlax.scipy.linalg.

Values are compared with JAX (same LAPACK kernels on CPU) over shapes with
batch dimensions, in float32 and float64, eagerly and under jit; derivatives
with JAX's and with float64 finite differences; vmap with JAX's vmap.
"""
from __future__ import annotations

import itertools
from types import SimpleNamespace

import jax
import jax.numpy as jnp
import jax.scipy.linalg as jsl
import numpy as np
import pytest

import mlax
import mlax.lax as L
import mlax.numpy as mnp
import mlax.scipy.linalg as msl
from jax._src.lax import linalg as jax_linalg
from mlax._src.numpy import linalg as mlax_linalg

from _helpers import param_id

MODES = ["eager", "jit"]



@pytest.fixture(params=["float32", "float64"])
def dtype(request):
    if request.param == "float64":
        request.getfixturevalue("x64")
    return np.dtype(request.param)


def run(fn, args, mode):
    return fn(*args) if mode == "eager" else mlax.jit(fn)(*args)


def _tol(dtype):
    return 1e-10 if np.dtype(dtype) in (np.float64, np.complex128) else 2e-4


def close(got, want, dtype=None, tol=None, what=""):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, (what, got.shape, want.shape)
    assert got.dtype == want.dtype, (what, got.dtype, want.dtype)
    t = tol if tol is not None else _tol(dtype or got.dtype)
    scale = max(1.0, float(np.max(np.abs(want)))) if want.size else 1.0
    np.testing.assert_allclose(got, want, rtol=t, atol=t * scale, err_msg=what)


# The libraries a table of calls is written against: `calls(lib)` gives
# {name: (function, *arguments)} for mlax (MLAX) and for JAX (JAX).
MLAX = SimpleNamespace(np=mnp, la=mnp.linalg, lax=L.linalg, sl=msl, geqrf=mlax_linalg.geqrf,
                       geqp3=mlax_linalg.geqp3)
JAX = SimpleNamespace(np=jnp, la=jnp.linalg, lax=jax.lax.linalg, sl=jsl, geqrf=jax_linalg.geqrf,
                      geqp3=jax_linalg.geqp3)


def _program(calls):
    fns = {k: c[0] for k, c in calls.items()}
    return (lambda args: {k: fns[k](*args[k]) for k in fns}), {k: tuple(c[1:])
                                                               for k, c in calls.items()}


def run_all(calls, mode):
    """{name: fn(*args)} of {name: (fn, *args)}: eagerly (op by op), or under
    jit as ONE program (one compile for all the calls, not one each)."""
    if mode == "eager":
        return {k: c[0](*c[1:]) for k, c in calls.items()}
    fn, args = _program(calls)
    return mlax.jit(fn)(args)


def both(calls, mode):
    """(mlax's, JAX's) results of the table `calls(lib)`: mlax's eagerly or
    under one jit, JAX's under one jax.jit (one compile, not one a call)."""
    fn, args = _program(calls(JAX))
    return run_all(calls(MLAX), mode), jax.jit(fn)(args)


def close_all(got, want, tol=None, skip=()):
    """Each named result (a tuple's leaves each) as JAX's, the failure
    naming the call."""
    assert set(got) == set(want), (sorted(got), sorted(want))
    for k in want:
        if k in skip:
            continue
        g, w = jax.tree_util.tree_leaves(got[k]), jax.tree_util.tree_leaves(want[k])
        assert len(g) == len(w), (k, len(g), len(w))
        for i, (gi, wi) in enumerate(zip(g, w)):
            close(gi, wi, tol=tol, what=f"{k}[{i}]" if len(w) > 1 else k)


def general(shape, dtype=np.float32, seed=0):
    """A well-conditioned random matrix (square ones get n on the diagonal)."""
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape)
    if len(shape) >= 2 and shape[-1] == shape[-2]:
        a = a + shape[-1] * np.eye(shape[-1])
    return a.astype(dtype)


def spd(shape, dtype=np.float32, seed=0):
    a = np.random.default_rng(seed).standard_normal(shape)
    return (a @ np.swapaxes(a, -1, -2) + shape[-1] * np.eye(shape[-1])).astype(dtype)


def sym(shape, dtype=np.float32, seed=0):
    a = np.random.default_rng(seed).standard_normal(shape)
    return (a + np.swapaxes(a, -1, -2)).astype(dtype)


def signed_columns(v):
    """Eigen/singular vectors with each column's largest entry made positive
    (they are unique only up to sign)."""
    v = np.asarray(v)
    idx = np.argmax(np.abs(v), axis=-2)[..., None, :]
    s = np.sign(np.take_along_axis(v, idx, axis=-2))
    return v * s


SQUARE = [(3, 3), (1, 1), (2, 4, 4), (2, 3, 5, 5)]
DTYPES = ["float32", "float64"]
RECT = [(5, 3), (3, 5), (4, 4), (2, 6, 2), (2, 2, 3, 4)]
# A covering set of precision x mode, where the two are independent (the
# same calls, op by op or as one program): each precision and each mode
# once. Eagerly (each op its own program: slow) in single precision.
DTYPE_MODES = [("float32", "eager"), ("float64", "jit")]
CDTYPE_MODES = [("complex64", "eager"), ("complex128", "jit")]


def covering(shapes):
    """Each shape once, the precision and the mode cycling through their
    pairs: every shape, precision and mode (and, given four shapes, every
    precision x mode pair) is tested, at one case per shape (the shape
    and the precision or mode are independent: batch dimensions and
    rectangular shapes go through the same code in both)."""
    return [(s, DTYPES[i % 2], MODES[i // 2 % 2]) for i, s in enumerate(shapes)]


# ---------------------------------------------------------------------------
# Decompositions against JAX
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("shape,dtype,mode", covering(SQUARE),
                         indirect=["dtype"], ids=param_id)
def test_cholesky(shape, dtype, mode):
    a = spd(shape, dtype)
    low = np.tril(a) + 7 * np.triu(np.ones(shape, dtype), 1)  # only the lower triangle counts
    close_all(*both(lambda lib: {
        "cholesky": (lib.la.cholesky, a),
        "cholesky_upper": (lambda x: lib.la.cholesky(x, upper=True), a),
        "lax_cholesky": (lib.lax.cholesky, a),
        "lax_cholesky_lower_only": (lambda x: lib.lax.cholesky(x, symmetrize_input=False), low),
    }, mode))


def test_cholesky_not_positive_definite_is_nan():
    # NaN in the lower triangle, zeros above (as JAX).
    a = np.stack([-np.eye(3, dtype=np.float32), spd((3, 3))])
    got, want = np.asarray(mnp.linalg.cholesky(a)), np.asarray(jnp.linalg.cholesky(a))
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    assert np.isnan(got[0][np.tril_indices(3)]).all() and not np.isnan(got[1]).any()


@pytest.mark.parametrize("shape,dtype,mode", covering(SQUARE),
                         indirect=["dtype"], ids=param_id)
def test_eigh(shape, dtype, mode):
    a = sym(shape, dtype)
    # UPLO reads one triangle only.
    up = np.triu(a) + 5 * np.tril(np.ones(shape, dtype), -1)
    got, want = both(lambda lib: {
        "eigh": (lib.la.eigh, a),
        "eigvalsh": (lib.la.eigvalsh, a),
        "eigh_upper": (lambda x: lib.la.eigh(x, UPLO="U", symmetrize_input=False)[0], up),
        "lax_eigh_upper": (lambda x: lib.lax.eigh(x, lower=False, symmetrize_input=False), up),
    }, mode)
    (w, v), (jw, jv) = got["eigh"], want["eigh"]
    close(w, jw, what="eigh")
    close(signed_columns(v), signed_columns(jv), dtype, tol=10 * _tol(dtype), what="eigh")
    close_all(got, want, skip=("eigh", "lax_eigh_upper"))
    v2, w2 = got["lax_eigh_upper"]
    close(w2, want["lax_eigh_upper"][1], what="lax_eigh_upper")
    np.testing.assert_allclose(
        np.asarray(v2) @ (np.asarray(w2)[..., None] * np.swapaxes(np.asarray(v2), -1, -2)),
        np.triu(a) + np.swapaxes(np.triu(a, 1), -1, -2), atol=50 * _tol(dtype))


@pytest.mark.parametrize("shape,dtype,mode", covering(RECT),
                         indirect=["dtype"], ids=param_id)
def test_qr(shape, dtype, mode):
    a = general(shape, dtype)
    close_all(*both(lambda lib: {
        **{f"qr_{qmode}": (lambda x, qmode=qmode: lib.la.qr(x, mode=qmode), a)
           for qmode in ("reduced", "complete", "r")},
        **{f"lax_qr_full={full}": (lambda x, full=full: lib.lax.qr(x, full_matrices=full), a)
           for full in (False, True)},
        "geqrf": (lib.geqrf, a),  # internal, as in JAX
    }, mode))


def _pivot_test_matrix(shape, dtype):
    # columns scaled apart, so that geqp3's column order is definite
    return (general(shape, dtype) * np.arange(1, shape[-1] + 1)[::-1] ** 1.5).astype(dtype)


@pytest.mark.parametrize("shape,dtype,mode", covering([(5, 3), (3, 5), (2, 4, 4)]),
                         indirect=["dtype"], ids=param_id)
def test_qr_pivoting(shape, dtype, mode):
    a = _pivot_test_matrix(shape, dtype)
    jpvt = np.zeros(a.shape[:-2] + a.shape[-1:], np.int32)
    got, want = both(lambda lib: {
        **{f"lax_qr_full={full}": (
            lambda x, full=full: lib.lax.qr(x, pivoting=True, full_matrices=full), a)
           for full in (False, True)},
        **{f"scipy_qr_{smode}": (lambda x, smode=smode: lib.sl.qr(x, pivoting=True, mode=smode),
                                 a)
           for smode in ("full", "r", "economic")},
        "geqp3": (lib.geqp3, a, jpvt),  # internal, as in JAX
    }, mode)
    for k in want:
        assert len(got[k]) == len(want[k]), k
        for i, (g, w) in enumerate(zip(got[k], want[k])):
            if np.asarray(w).dtype == np.int32:  # the permutations exactly
                assert np.asarray(g).dtype == np.int32, k
                np.testing.assert_array_equal(g, w, err_msg=f"{k}[{i}]")
            else:
                close(g, w, what=f"{k}[{i}]")
    for full in (False, True):
        assert got[f"lax_qr_full={full}"][2].dtype == np.int32


def test_qr_pivoting_derivatives_vmap_and_empty(x64):
    a = _pivot_test_matrix((2, 5, 3), np.float64)
    t = general((2, 5, 3), np.float64, seed=1)

    def loss(lib, full):
        def f(x):
            q, r, p = lib.lax.linalg.qr(x, pivoting=True, full_matrices=full)
            return lib.numpy.sum(q[..., :3] * 0.3) + lib.numpy.sum(r ** 2) + lib.numpy.sum(p)
        return f
    eps = 1e-6  # (the column order does not change within eps)

    def fd(f, x, dx):
        return (f(x + eps * dx) - f(x - eps * dx)) / (2 * eps)
    # One matrix: JAX's pivoted jvp of a batch fails (a triangular_solve of
    # mismatched batch dimensions).
    got = mlax.jvp(loss(mlax, False), (a[0],), (t[0],))
    np.testing.assert_allclose(got, jax.jvp(loss(jax, False), (a[0],), (t[0],)), rtol=1e-9)
    # The full Q of a wide matrix: against finite differences only, since
    # JAX's pivoted jvp of a wide matrix takes R's last columns from the
    # unpermuted matrix (off by 5% here). (mlax's qr has no derivative of a
    # tall matrix's full Q.)
    f = loss(mlax, True)
    _, tangent = mlax.jvp(f, (a[0].T,), (t[0].T,))
    np.testing.assert_allclose(tangent, fd(f, a[0].T, t[0].T), rtol=1e-7)
    f = loss(mlax, False)
    close(mlax.grad(f)(a[0]), jax.grad(loss(jax, False))(a[0]))
    np.testing.assert_allclose(np.sum(np.asarray(mlax.grad(f)(a)) * t), fd(f, a, t), rtol=1e-6)
    got = mlax.vmap(lambda x: L.linalg.qr(x, pivoting=True))(a)
    want = jax.vmap(lambda x: jax.lax.linalg.qr(x, pivoting=True))(a)
    close(got[0], want[0])
    close(got[1], want[1])
    np.testing.assert_array_equal(got[2], want[2])
    for shape in ((0, 3), (3, 0)):
        got = L.linalg.qr(np.ones(shape, np.float32), pivoting=True)
        want = jax.lax.linalg.qr(np.ones(shape, np.float32), pivoting=True)
        for g, w in zip(got, want):
            assert (g.shape, g.dtype) == (w.shape, w.dtype)
            np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("shape,dtype,mode", covering(RECT + [(1, 1), (6, 1)]),
                         indirect=["dtype"], ids=param_id)
def test_svd(shape, dtype, mode):
    a = general(shape, dtype, seed=3)
    got, want = both(lambda lib: {
        **{f"svd_full={full}": (lambda x, full=full: lib.la.svd(x, full_matrices=full), a)
           for full in (True, False)},
        "svd_no_uv": (lambda x: lib.la.svd(x, compute_uv=False), a),
        "svdvals": (lib.la.svdvals, a),
        "lax_svd_no_uv": (lambda x: lib.lax.svd(x, compute_uv=False), a),
        "lax_svd": (lambda x: lib.lax.svd(x, full_matrices=False), a),
    }, mode)
    for full in (True, False):
        u, s, vh = got[f"svd_full={full}"]
        ju, js, jvh = want[f"svd_full={full}"]
        what = f"svd_full={full}"
        close(s, js, what=what)
        k = min(shape[-2:])
        close(signed_columns(np.asarray(u)[..., :k]), signed_columns(np.asarray(ju)[..., :k]),
              tol=10 * _tol(dtype), what=what)
        close(u, ju, tol=10 * _tol(dtype), what=what) if not full else None
        assert vh.shape == jvh.shape and u.shape == ju.shape
        # The reconstruction from the first k vectors.
        rec = (np.asarray(u)[..., :k] * np.asarray(s)[..., None, :]) @ np.asarray(vh)[..., :k, :]
        np.testing.assert_allclose(rec, a, atol=50 * _tol(dtype) * np.abs(a).max())
        if full:  # the completed bases are orthonormal
            for m in (np.asarray(u), np.asarray(vh)):
                np.testing.assert_allclose(m @ np.swapaxes(m, -1, -2),
                                           np.broadcast_to(np.eye(m.shape[-1]), m.shape),
                                           atol=50 * _tol(dtype))
    close_all(got, want, skip=("svd_full=True", "svd_full=False", "lax_svd"))
    close(got["lax_svd"][1], want["lax_svd"][1], what="lax_svd")


@pytest.mark.parametrize("dtype,mode", DTYPE_MODES, indirect=["dtype"])
def test_svd_hermitian(dtype, mode):
    a = sym((2, 4, 4), dtype, seed=5)
    got, want = both(lambda lib: {
        "svd": (lambda x: lib.la.svd(x, hermitian=True), a),
        "svd_no_uv": (lambda x: lib.la.svd(x, hermitian=True, compute_uv=False), a)}, mode)
    u, s, vh = got["svd"]
    js = want["svd"][1]
    close(s, js, what="svd")
    np.testing.assert_allclose((np.asarray(u) * np.asarray(s)[..., None, :]) @ np.asarray(vh), a,
                               atol=100 * _tol(dtype))
    close(got["svd_no_uv"], js, what="svd_no_uv")


_TRIANGULAR_FLAGS = [dict(zip(("left_side", "lower", "transpose_a", "unit_diagonal"), flags))
                     for flags in itertools.product((True, False), repeat=4)]


def test_triangular_solve(dtype):
    """Every combination of the four flags, all in one jitted program; eagerly
    a covering pair (each flag value once: eager and jit lower the same op)."""
    a = general((2, 4, 4), dtype, seed=1)
    b = {left: general((2, 4, 3) if left else (2, 3, 4), dtype, seed=2) for left in (True, False)}

    def calls(lib):
        return {"-".join(f"{k}={v}" for k, v in kw.items()): (
            lambda x, y, kw=kw: lib.lax.triangular_solve(x, y, **kw), a, b[kw["left_side"]])
            for kw in _TRIANGULAR_FLAGS}
    got, want = both(calls, "jit")
    close_all(got, want)
    eager_cases = [k for k in want if k in ("left_side=True-lower=True-transpose_a=False-"
                                            "unit_diagonal=False",
                                            "left_side=False-lower=False-transpose_a=True-"
                                            "unit_diagonal=True")]
    assert len(eager_cases) == 2
    eager = {k: v for k, v in calls(MLAX).items() if k in eager_cases}
    close_all(run_all(eager, "eager"), {k: want[k] for k in eager_cases})


def test_triangular_solve_as_a_process_first_lapack_call():
    """A fresh process (no jax imported) whose first LAPACK kernel is trsm:
    the kernel must be initialised before the program runs (it crashed)."""
    import json
    import subprocess
    import sys
    code = ("import sys; sys.modules['jax'] = None\n"
            "import numpy as np, mlax.scipy.linalg as sl\n"
            "a = np.triu(np.ones((4, 4), np.float32)) + 3 * np.eye(4, dtype=np.float32)\n"
            "print(np.asarray(sl.solve_triangular(a, np.ones(4, np.float32))).tolist())\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    a = np.triu(np.ones((4, 4), np.float32)) + 3 * np.eye(4, dtype=np.float32)
    np.testing.assert_allclose(json.loads(out.stdout), np.linalg.solve(a, np.ones(4)), rtol=1e-6)


# ---------------------------------------------------------------------------
# numpy.linalg composites against JAX
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("dtype,mode", DTYPE_MODES, indirect=["dtype"])
def test_solve(dtype, mode):
    a = general((2, 4, 4), dtype, seed=1)
    cases = {"vector": (a[0], general((4,), dtype, seed=2)),
             "matrix": (a[0], general((4, 3), dtype, seed=2)),
             "batched": (a, general((2, 4, 2), dtype, seed=2)),
             "b_broadcast": (a, general((4, 2), dtype, seed=2)),
             "a_broadcast": (a[0], general((3, 4, 2), dtype, seed=2)),
             "a_batch_vector_b": (a, general((4,), dtype, seed=2))}
    close_all(*both(lambda lib: {k: (lib.la.solve, *xy) for k, xy in cases.items()}, mode),
              tol=10 * _tol(dtype))


@pytest.mark.parametrize("shape,dtype,mode", covering(SQUARE),
                         indirect=["dtype"], ids=param_id)
def test_inv_det_slogdet(shape, dtype, mode):
    a = general(shape, dtype, seed=4)
    a = a * np.where(np.arange(shape[-1]) % 2 == 0, 1, -1).astype(dtype)  # some negative dets
    close_all(*both(lambda lib: {"inv": (lib.la.inv, a), "det": (lib.la.det, a),
                                 "slogdet": (lib.la.slogdet, a)}, mode),
              tol=10 * _tol(dtype))
    assert isinstance(mnp.linalg.slogdet(a), mnp.linalg.SlogdetResult)


def test_det_signs_and_singular(x64):
    rng = np.random.default_rng(0)
    for _ in range(10):  # Householder sign bookkeeping on random matrices
        a = rng.standard_normal((5, 5))
        np.testing.assert_allclose(np.asarray(mnp.linalg.det(a)), np.linalg.det(a), rtol=1e-10)
    perm = np.eye(4)[[1, 0, 3, 2]]  # det +1 with two swaps, each a reflector
    np.testing.assert_allclose(np.asarray(mnp.linalg.det(perm)), 1.0)
    np.testing.assert_allclose(np.asarray(mnp.linalg.det(np.eye(4)[[1, 0, 2, 3]])), -1.0)
    singular = np.array([[1.0, 2.0], [2.0, 4.0]])
    assert abs(float(mnp.linalg.det(singular))) < 1e-12
    sign, logabs = mnp.linalg.slogdet(np.zeros((3, 3)))
    assert float(sign) == 0 and float(logabs) == -np.inf


@pytest.mark.parametrize("shape,dtype,mode", covering(RECT),
                         indirect=["dtype"], ids=param_id)
def test_pinv_matrix_rank(shape, dtype, mode):
    a = general(shape, dtype, seed=6)
    # Rank-deficient: a product of thin factors.
    *b, m, n = shape
    low = (general(tuple(b) + (m, 1), dtype, 1) @ general(tuple(b) + (1, n), dtype, 2))
    got, want = both(lambda lib: {
        "pinv": (lib.la.pinv, a),
        "pinv_rtol": (lambda x: lib.la.pinv(x, rtol=0.5), a),
        "matrix_rank": (lib.la.matrix_rank, a),
        "matrix_rank_deficient": (lib.la.matrix_rank, low),
        "pinv_deficient": (lib.la.pinv, low),
        "matrix_rank_tol": (lambda x: lib.la.matrix_rank(x, tol=1e9), a),
        "matrix_rank_vector": (lib.la.matrix_rank, np.array([0.0, 1.0], dtype)),
    }, mode)
    close_all(got, want, tol=10 * _tol(dtype), skip=("pinv_deficient",))
    close(got["pinv_deficient"], want["pinv_deficient"], tol=50 * _tol(dtype),
          what="pinv_deficient")


@pytest.mark.parametrize("shapes,dtype,mode", covering(
    [((6, 3), (6,)), ((6, 3), (6, 2)), ((3, 5), (3,)), ((4, 4), (4, 2))]),
    indirect=["dtype"], ids=param_id)
def test_lstsq(shapes, dtype, mode):
    a = general(shapes[0], dtype, seed=7)
    b = general(shapes[1], dtype, seed=8)
    close_all(*both(lambda lib: {
        "lstsq": (lib.la.lstsq, a, b),
        "lstsq_rcond": (lambda x, y: lib.la.lstsq(x, y, rcond=0.3)[0], a, b),
    }, mode), tol=50 * _tol(dtype))
    # (eagerly only: JAX's numpy_resid does not trace)
    close_all({"numpy_resid": mnp.linalg.lstsq(a, b, numpy_resid=True)},
              {"numpy_resid": jnp.linalg.lstsq(a, b, numpy_resid=True)}, tol=50 * _tol(dtype))


@pytest.mark.parametrize("dtype,mode", DTYPE_MODES, indirect=["dtype"])
def test_matrix_power_tensorsolve_tensorinv(dtype, mode):
    a = general((2, 3, 3), dtype, seed=9) / 3
    t = general((6, 2, 3), dtype, seed=10).reshape(6, 6)
    t = (t + 6 * np.eye(6, dtype=dtype)).reshape(2, 3, 6)
    b = general((2, 3), dtype, seed=11)
    t4 = t.reshape(2, 3, 2, 3)
    got, want = both(lambda lib: {
        **{f"matrix_power_{n}": (lambda x, n=n: lib.la.matrix_power(x, n), a)
           for n in (0, 1, 2, 5, -1, -3)},
        "tensorsolve": (lib.la.tensorsolve, t, b),
        "tensorinv": (lambda x: lib.la.tensorinv(x, ind=2), t4)}, mode)
    close_all(got, want, tol=50 * _tol(dtype), skip=("tensorsolve", "tensorinv"))
    close_all({k: got[k] for k in ("tensorsolve", "tensorinv")},
              {k: want[k] for k in ("tensorsolve", "tensorinv")}, tol=10 * _tol(dtype))


@pytest.mark.parametrize("dtype,mode", DTYPE_MODES, indirect=["dtype"])
def test_norm_spectral_nuclear(dtype, mode):
    a = general((2, 4, 3), dtype, seed=12)
    close_all(*both(lambda lib: {k: v for ord in (2, -2, "nuc") for k, v in {
        f"ord={ord}-axis=(1,2)": (lambda x, ord=ord: lib.la.norm(x, ord=ord, axis=(1, 2)), a),
        f"ord={ord}-axis=(2,0)-keepdims": (
            lambda x, ord=ord: lib.la.norm(x, ord=ord, axis=(2, 0), keepdims=True), a),
        f"ord={ord}-2d": (lambda x, ord=ord: lib.la.norm(x, ord=ord), a[0]),
    }.items()}, mode))
    ints = np.arange(6).reshape(2, 3)
    for ord in (2, -2, "nuc"):
        close(mnp.linalg.norm(ints, ord=ord), jnp.linalg.norm(ints, ord=ord), what=str(ord))


def test_integer_inputs_promote():
    a = np.array([[4, 1], [1, 3]])
    close(mnp.linalg.inv(a), jnp.linalg.inv(a))
    close(mnp.linalg.det(a), jnp.linalg.det(a))
    close(mnp.linalg.eigvalsh(a), jnp.linalg.eigvalsh(a))
    close(mnp.linalg.cholesky(a), jnp.linalg.cholesky(a))


@pytest.mark.parametrize("shape", [(0, 0), (2, 0, 0), (0, 3), (3, 0), (0, 2, 2)])
def test_empty_matrices(shape):
    a = np.zeros(shape, np.float32)
    close(mnp.linalg.svdvals(a), jnp.linalg.svdvals(a))
    close(mnp.linalg.pinv(a), jnp.linalg.pinv(a))
    for m, j in ((mnp.linalg.qr(a, mode="complete"), jnp.linalg.qr(a, mode="complete")),
                 (mnp.linalg.qr(a), jnp.linalg.qr(a)),
                 (mnp.linalg.svd(a), jnp.linalg.svd(a)),
                 (mnp.linalg.svd(a, full_matrices=False), jnp.linalg.svd(a, full_matrices=False))):
        for g, w in zip(m, j):
            close(g, w)
    if shape[-1] == shape[-2]:
        for fn, jf in ((mnp.linalg.eigvalsh, jnp.linalg.eigvalsh),
                       (mnp.linalg.inv, jnp.linalg.inv), (mnp.linalg.det, jnp.linalg.det),
                       (mnp.linalg.cholesky, jnp.linalg.cholesky)):
            close(mlax.jit(fn)(a), jf(a))


def test_complex_lax_level():
    rng = np.random.default_rng(0)
    a = (rng.standard_normal((2, 4, 3)) + 1j * rng.standard_normal((2, 4, 3))).astype(np.complex64)
    q, r = L.linalg.qr(a, full_matrices=False)
    jq, jr = jax.lax.linalg.qr(a, full_matrices=False)
    close(q, jq)
    close(r, jr)
    close(L.linalg.svd(a, compute_uv=False), jax.lax.linalg.svd(a, compute_uv=False))
    h = a[:, :3, :3] @ np.conj(np.swapaxes(a[:, :3, :3], -1, -2))
    v, w = L.linalg.eigh(h, symmetrize_input=False)
    close(w, jax.lax.linalg.eigh(h, symmetrize_input=False)[1])
    b = a[:, :3, :2]
    tri = np.triu(a[:, :3, :3]) + 3 * np.eye(3, dtype=np.complex64)
    close(L.linalg.triangular_solve(tri, b, left_side=True, transpose_a=True, conjugate_a=True),
          jax.lax.linalg.triangular_solve(tri, b, left_side=True, transpose_a=True,
                                          conjugate_a=True))


# ---------------------------------------------------------------------------
# scipy.linalg
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("dtype,mode", DTYPE_MODES, indirect=["dtype"])
def test_scipy_linalg(dtype, mode):
    a = spd((3, 3), dtype, seed=13)
    b = general((3, 2), dtype, seed=14)
    bv = general((3,), dtype, seed=15)
    # (not symmetric: only the triangle asked for is read, as JAX's and scipy's)
    skew = a + np.triu(general((3, 3), dtype, seed=18), 1)
    t = np.tril(general((3, 3), dtype, seed=16))
    g = general((4, 3), dtype, seed=17)
    # The trans x unit_diagonal grid: all of it under jit (one program), a
    # covering set (each trans and each unit value) eagerly.
    grid = [(trans, unit) for i, trans in enumerate((0, 1, 2, "N", "T", "C"))
            for unit in (False, True) if mode == "jit" or unit == bool(i % 2)]

    def calls(lib):
        out = {}
        for lower in (False, True):
            out[f"cholesky_lower={lower}"] = (lambda x, lower=lower: lib.sl.cholesky(
                x, lower=lower), a)
            out[f"cholesky_skew_lower={lower}"] = (lambda x, lower=lower: lib.sl.cholesky(
                x, lower=lower), skew)
            # (JAX leaves the other triangle unspecified, mlax's is zero)
            tri = ((lib.np.tril if lower else lib.np.triu) if lib is JAX else lambda x: x)
            out[f"cho_factor_lower={lower}"] = (lambda x, lower=lower, tri=tri: tri(
                lib.sl.cho_factor(x, lower=lower)[0]), skew.T)
            c = np.asarray(lib.sl.cho_factor(a, lower=lower)[0])  # (each library's own)
            for name, rhs in (("matrix", b), ("vector", bv)):
                out[f"cho_solve_lower={lower}_{name}"] = (
                    lambda x, y, lower=lower: lib.sl.cho_solve((x, lower), y), c, rhs)
        for trans, unit in grid:
            out[f"solve_triangular_trans={trans}_unit={unit}"] = (
                lambda x, y, trans=trans, unit=unit: lib.sl.solve_triangular(
                    x, y, trans=trans, lower=True, unit_diagonal=unit), t, b)
        out["solve_triangular_upper"] = (lib.sl.solve_triangular, np.triu(a), bv)
        out["solve"] = (lib.sl.solve, a, b)
        out["det"] = (lib.sl.det, a)
        out["inv"] = (lib.sl.inv, a)
        out["eigh_eigvals_only"] = (lambda x: lib.sl.eigh(x, eigvals_only=True), a)
        out["eigh"] = (lambda x: lib.sl.eigh(x)[0], a)
        for qmode in ("full", "economic", "r"):
            out[f"qr_{qmode}"] = (lambda x, qmode=qmode: lib.sl.qr(x, mode=qmode), g)
        out["svd_no_uv"] = (lambda x: lib.sl.svd(x, compute_uv=False), g)
        return out
    got, want = both(calls, mode)
    loose = [k for k in want if k.startswith(("cho_solve", "solve", "det", "inv"))
             and k != "solve_triangular_upper"]
    close_all(got, want, skip=loose)
    close_all({k: got[k] for k in loose}, {k: want[k] for k in loose}, tol=10 * _tol(dtype))


def _complex(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)


@pytest.mark.parametrize("cdtype,mode", CDTYPE_MODES)
def test_scipy_linalg_complex(cdtype, mode, x64):
    """cho_factor/cho_solve (a = L L^H), solve_triangular (trans 'C': the
    conjugate transpose) and qr on complex matrices, real ones promoted
    with a complex right-hand side, as JAX's."""
    dt = np.dtype(cdtype)
    real = np.finfo(dt).dtype
    g = _complex((2, 3, 3), dt, 20)
    a = (g @ np.conj(np.swapaxes(g, -1, -2)) + 3 * np.eye(3)).astype(dt)
    b, bv = _complex((3, 2), dt, 21), _complex((3,), dt, 22)
    tol = 10 * _tol(dt)
    skew = a + np.triu(_complex((3, 3), dt, 27), 1)  # (only one triangle is read)
    t = np.tril(_complex((3, 3), dt, 23)) + 3 * np.eye(3, dtype=dt)
    t_real = np.tril(general((3, 3), real, seed=24))
    c_real = np.linalg.cholesky(spd((3, 3), real, seed=25))
    gq = _complex((4, 3), dt, 26)
    # The trans x unit_diagonal x (complex or real t) grid: all of it under
    # jit (one program), a covering set eagerly (each value of each, and
    # every unit_diagonal x t pair).
    grid = [(trans, unit, tname) for i, trans in enumerate((0, 1, 2, "N", "T", "C"))
            for unit in (False, True) for tname in ("complex", "real")
            if mode == "jit" or (unit == bool(i % 2) and tname == ("real", "complex")[i // 2 % 2])]
    factors = {(lower, lib is MLAX): np.asarray(lib.sl.cho_factor(a, lower=lower)[0])
               for lower in (False, True) for lib in (MLAX, JAX)}

    def calls(lib):
        out = {}
        for lower in (False, True):
            out[f"cho_factor_lower={lower}"] = (
                lambda x, lower=lower: (lib.np.tril if lower else lib.np.triu)(
                    lib.sl.cho_factor(x, lower=lower)[0]), a)
            out[f"cholesky_skew_lower={lower}"] = (
                lambda x, lower=lower: lib.sl.cholesky(x, lower=lower), skew)
            for name, rhs in (("matrix", b), ("vector", bv)):
                out[f"cho_solve_lower={lower}_{name}"] = (
                    lambda x, y, lower=lower: lib.sl.cho_solve((x, lower), y),
                    factors[lower, lib is MLAX], rhs)
        for trans, unit, tname in grid:
            out[f"solve_triangular_trans={trans}_unit={unit}_{tname}"] = (
                lambda x, y, trans=trans, unit=unit: lib.sl.solve_triangular(
                    x, y, trans=trans, lower=True, unit_diagonal=unit),
                t if tname == "complex" else t_real, b)
        out["cho_solve_real_factor"] = (lambda x, y: lib.sl.cho_solve((x, True), y), c_real, b)
        for qmode in ("full", "economic", "r"):
            out[f"qr_{qmode}"] = (lambda x, qmode=qmode: lib.sl.qr(x, mode=qmode), gq)
        return out
    got, want = both(calls, mode)
    close_all(got, want, tol=tol)
    for k in want:
        if k.startswith("cho_solve_lower"):  # (the round trip)
            product = np.einsum("bij,bj...->bi...", a, np.asarray(got[k]))
            rhs = b if k.endswith("matrix") else bv
            close(product, np.broadcast_to(rhs, product.shape), tol=100 * _tol(dt), what=k)


@pytest.mark.parametrize("cdtype,mode", CDTYPE_MODES)
def test_svd_pinv_hermitian_complex(cdtype, mode, x64):
    """svd(hermitian=True) and pinv(hermitian=True) of complex Hermitian
    matrices with eigenvalues of both signs, as JAX's (the same heevd
    phases, so the vectors are compared directly)."""
    dt = np.dtype(cdtype)
    g = _complex((2, 4, 4), dt, 30)
    a = ((g + np.conj(np.swapaxes(g, -1, -2))) / 2 + np.diag([-4.0, -1.0, 2.0, 6.0])).astype(dt)
    # pinv: of the Hermitian matrix and, as JAX's, of the Hermitian part of
    # a matrix that is not Hermitian.
    not_hermitian = a + np.triu(_complex((4, 4), dt, 31), 1)
    got, want = both(lambda lib: {
        "svd": (lambda x: lib.la.svd(x, hermitian=True), a),
        "svd_no_uv": (lambda x: lib.la.svd(x, hermitian=True, compute_uv=False), a),
        "pinv": (lambda y: lib.la.pinv(y, hermitian=True), a),
        "pinv_not_hermitian": (lambda y: lib.la.pinv(y, hermitian=True), not_hermitian),
    }, mode)
    close_all(got, want, tol=10 * _tol(dt))
    close(got["svd_no_uv"], want["svd"][1], tol=10 * _tol(dt), what="svd_no_uv")
    u, s, vh = (np.asarray(x) for x in got["svd"])
    close((u * s[..., None, :]) @ vh, a, tol=100 * _tol(dt))
    for lib in (mnp, jnp):
        with pytest.raises(TypeError):
            lib.linalg.pinv(np.ones((3, 4), dt), hermitian=True)


def test_pinv_default_cutoff():
    """JAX's default rtol, 10 max(m, n) eps: a singular value of 20 eps
    (relative to the largest) of a 4x4 matrix counts as zero."""
    u, _ = np.linalg.qr(general((4, 4), np.float64, seed=7))
    eps = np.finfo(np.float32).eps
    a = ((u * np.array([1.0, 0.5, 0.2, 20 * eps])) @ u.T).astype(np.float32)
    want = jnp.linalg.pinv(a)
    assert float(np.max(np.abs(want))) < 10  # (the small value dropped)
    close(mnp.linalg.pinv(a), want)
    close(mlax.jit(mnp.linalg.pinv)(a), want)


# ---------------------------------------------------------------------------
# Derivatives: against JAX and float64 finite differences
# ---------------------------------------------------------------------------

def _weights(shape, seed):
    return np.random.default_rng(100 + seed).standard_normal(shape)


def _losses():
    """(name, mlax loss, jax loss, input maker), losses of one array."""
    def w(x, seed):
        return _weights(np.shape(x), seed).astype(x.dtype)

    def eigh_loss(lib, la):
        def f(x):
            wv, v = la.eigh(x)
            # Invariant under eigenvector signs.
            c = np.arange(1.0, x.shape[-1] + 1).astype(x.dtype)
            return lib.sum(wv * c) + lib.sum(lib.square(v[..., 0, :]) * c)
        return f

    def qr_loss(lib, la, mode):
        def f(x):
            q, r = la.qr(x, mode=mode)
            return lib.sum(q * w(q, 1)) + lib.sum(r * w(r, 2))
        return f

    return [
        ("cholesky", lambda x: mnp.sum(mnp.linalg.cholesky(x) * w(x, 0)),
         lambda x: jnp.sum(jnp.linalg.cholesky(x) * w(x, 0)), lambda d: spd((2, 3, 3), d)),
        ("eigh", eigh_loss(mnp, mnp.linalg), eigh_loss(jnp, jnp.linalg),
         lambda d: sym((2, 3, 3), d) + np.diag([0.0, 3.0, 7.0]).astype(d)),
        ("qr_tall", qr_loss(mnp, mnp.linalg, "reduced"), qr_loss(jnp, jnp.linalg, "reduced"),
         lambda d: general((2, 4, 3), d)),
        ("qr_square_complete", qr_loss(mnp, mnp.linalg, "complete"),
         qr_loss(jnp, jnp.linalg, "complete"), lambda d: general((3, 3), d)),
        ("qr_wide", qr_loss(mnp, mnp.linalg, "reduced"), qr_loss(jnp, jnp.linalg, "reduced"),
         lambda d: general((2, 3), d)),
        ("svdvals", lambda x: mnp.sum(mnp.linalg.svdvals(x) * np.arange(1.0, 4).astype(x.dtype)),
         lambda x: jnp.sum(jnp.linalg.svdvals(x) * np.arange(1.0, 4).astype(x.dtype)),
         lambda d: general((2, 5, 3), d)),
        ("norm_nuc", lambda x: mnp.linalg.norm(x, "nuc"), lambda x: jnp.linalg.norm(x, "nuc"),
         lambda d: general((3, 4), d)),
        ("norm_2", lambda x: mnp.linalg.norm(x, 2), lambda x: jnp.linalg.norm(x, 2),
         lambda d: general((4, 3), d)),
        ("det", lambda x: mnp.sum(mnp.linalg.det(x)), lambda x: jnp.sum(jnp.linalg.det(x)),
         lambda d: general((2, 3, 3), d) / 3),
        ("slogdet", lambda x: mnp.sum(mnp.linalg.slogdet(x)[1]),
         lambda x: jnp.sum(jnp.linalg.slogdet(x)[1]), lambda d: general((3, 3), d)),
        ("inv", lambda x: mnp.sum(mnp.linalg.inv(x) * w(x, 3)),
         lambda x: jnp.sum(jnp.linalg.inv(x) * w(x, 3)), lambda d: general((2, 3, 3), d)),
        ("solve", lambda x: mnp.sum(mnp.linalg.solve(x, w(x[..., 0], 4)) * w(x[..., 0], 5)),
         lambda x: jnp.sum(jnp.linalg.solve(x, w(x[..., 0], 4)) * w(x[..., 0], 5)),
         lambda d: general((3, 3), d)),
        ("pinv", lambda x: mnp.sum(mnp.linalg.pinv(x) * w(np.swapaxes(x, -1, -2), 6)),
         lambda x: jnp.sum(jnp.linalg.pinv(x) * w(np.swapaxes(x, -1, -2), 6)),
         lambda d: general((4, 3), d)),
        ("solve_triangular", lambda x: mnp.sum(msl.solve_triangular(x, w(x, 7), lower=True)),
         lambda x: jnp.sum(jsl.solve_triangular(x, w(x, 7), lower=True)),
         lambda d: general((3, 3), d)),
    ]


LOSSES = _losses()


def test_grad_against_jax(dtype):
    """Every loss's gradient (eagerly and under jit) and jvp as JAX's: the
    losses of separate inputs, so one program differentiates them all (the
    gradient of their sum is each one's gradient)."""
    xs = {name: make(dtype) for name, _, _, make in LOSSES}
    ts = {name: _weights(x.shape, 9).astype(dtype) for name, x in xs.items()}
    ours = {name: f for name, f, _, _ in LOSSES}
    theirs = {name: jf for name, _, jf, _ in LOSSES}

    def total(fns):
        return lambda x: sum(fns[k](x[k]) for k in fns)

    def each(fns):
        return lambda x: {k: fns[k](x[k]) for k in fns}
    # JAX's references under one jax.jit (values and gradients); JAX's jvp
    # of a scalar loss is its gradient's inner product with the tangent.
    def values_and_grads(x):
        out, vjp = jax.vjp(each(theirs), x)
        return out, vjp({k: jnp.ones_like(v) for k, v in out.items()})[0]
    jp, want = jax.jit(values_and_grads)(xs)
    tol = 20 * _tol(dtype)
    for got, how in ((mlax.grad(total(ours))(xs), "grad"),
                     (mlax.jit(mlax.grad(total(ours)))(xs), "jit(grad)")):
        for k in xs:
            close(got[k], want[k], tol=tol, what=f"{how} {k}")
    p, tan = mlax.jvp(each(ours), (xs,), (ts,))
    for k in xs:
        close(p[k], jp[k], tol=tol, what=f"jvp primal {k}")
        jtan = np.sum(np.asarray(want[k], np.float64) * ts[k]).astype(dtype)
        close(tan[k], jtan, tol=tol, what=f"jvp tangent {k}")


def test_grad_finite_differences(x64):
    """Each loss's gradient along a direction as central finite differences
    (float64): the losses evaluated together, one program."""
    xs = {name: make(np.float64) for name, _, _, make in LOSSES}
    fs = {name: f for name, f, _, _ in LOSSES}
    ts = {name: _weights(x.shape, 11) for name, x in xs.items()}
    g = mlax.grad(lambda x: sum(fs[k](x[k]) for k in fs))(xs)
    values = mlax.jit(lambda x: {k: fs[k](x[k]) for k in fs})
    eps = 1e-6
    plus = values({k: xs[k] + eps * ts[k] for k in xs})
    minus = values({k: xs[k] - eps * ts[k] for k in xs})
    for k in xs:
        fd = (float(plus[k]) - float(minus[k])) / (2 * eps)
        np.testing.assert_allclose(np.sum(np.asarray(g[k]) * ts[k]), fd, rtol=1e-6, atol=1e-6,
                                   err_msg=k)


def test_triangular_solve_grads_both_operands(dtype):
    a = general((2, 3, 3), dtype, seed=1)
    b = general((2, 3, 2), dtype, seed=2)
    for kw in (dict(left_side=True, lower=True), dict(left_side=False, lower=False,
                                                      transpose_a=True, unit_diagonal=True),
               dict(left_side=True, lower=False, transpose_a=True)):
        b2 = b if kw["left_side"] else np.swapaxes(b, -1, -2)
        wt = _weights(b2.shape, 3).astype(dtype)

        def f(x, y, lib=mnp, la=L.linalg):
            return lib.sum(la.triangular_solve(x, y, **kw) * wt)

        def jf(x, y):
            return jnp.sum(jax.lax.linalg.triangular_solve(x, y, **kw) * wt)

        for got, want in zip(mlax.grad(f, argnums=(0, 1))(a, b2),
                             jax.jit(jax.grad(jf, argnums=(0, 1)))(a, b2)):
            close(got, want, tol=20 * _tol(dtype))
        ta, tb = _weights(a.shape, 4).astype(dtype), _weights(b2.shape, 5).astype(dtype)
        close(mlax.jvp(f, (a, b2), (ta, tb))[1],
              jax.jit(lambda *p: jax.jvp(jf, p[:2], p[2:])[1])(a, b2, ta, tb),
              tol=20 * _tol(dtype))


def test_second_derivatives(x64):
    a = spd((3, 3), np.float64)
    t = _weights((3, 3), 1)

    def f(x):
        return mnp.sum(mnp.linalg.cholesky(x) * t)

    def jf(x):
        return jnp.sum(jnp.linalg.cholesky(x) * t)

    close(mlax.hessian(f)(a), jax.jit(jax.hessian(jf))(a), tol=1e-8)
    g = lambda x: mnp.sum(mnp.linalg.eigvalsh(x) ** 2)  # noqa: E731
    jg = lambda x: jnp.sum(jnp.linalg.eigvalsh(x) ** 2)  # noqa: E731
    close(mlax.hessian(g)(sym((3, 3), np.float64)),
          jax.jit(jax.hessian(jg))(sym((3, 3), np.float64)), tol=1e-8)


def test_derivative_errors():
    a = general((4, 3), np.float32)
    with pytest.raises(NotImplementedError, match="full_matrices of a non-square 4x3 matrix"):
        mlax.grad(lambda x: mnp.sum(mnp.linalg.svd(x)[0]))(a)
    with pytest.raises(Exception, match="full_matrices of a non-square 4x3 matrix"):
        mlax.jvp(lambda x: mnp.linalg.svd(x)[1], (a,), (a,))


# ---------------------------------------------------------------------------
# vmap
# ---------------------------------------------------------------------------

def test_vmap(dtype):
    a = spd((5, 3, 3), dtype)
    g = general((5, 4, 3), dtype)
    b = general((3, 2), dtype, seed=3)
    bs = np.stack([b] * 5) + np.arange(5.0, dtype=dtype)[:, None, None]

    def calls(lib):
        def vm(f, axis=0):
            return (jax.vmap if lib is JAX else mlax.vmap)(f, in_axes=axis)
        la = lib.la
        return {
            "cholesky": (vm(la.cholesky), a),
            "eigvalsh": (vm(la.eigvalsh), a),
            "qr_r": (vm(lambda x: la.qr(x)[1]), g),
            "svdvals": (vm(la.svdvals), g),
            "det": (vm(la.det), a),
            "inv": (vm(la.inv), a),
            "pinv": (vm(la.pinv), g),
            "solve_batched_a": (vm(lambda x: la.solve(x, b)), a),
            "solve_batched_b": (vm(lambda y: la.solve(a[0], y)), bs),
            "triangular_solve": (vm(lambda x: lib.lax.triangular_solve(x, b, left_side=True,
                                                                       lower=True)), a),
            "eigvalsh_axis_2": (vm(la.eigvalsh, 2), np.moveaxis(a, 0, 2)),
            "grad_det": (vm((jax.grad if lib is JAX else mlax.grad)(la.det)), a),
        }
    fn, args = _program(calls(JAX))
    want = jax.jit(fn)(args)
    for mode in MODES:
        got = run_all(calls(MLAX), mode)
        close_all(got, want, tol=20 * _tol(dtype), skip=("grad_det",))
        close(got["grad_det"], want["grad_det"], tol=50 * _tol(dtype), what=f"{mode} grad_det")


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("name,exc", [("cholesky", TypeError), ("eigh", TypeError),
                                      ("eigvalsh", TypeError), ("inv", ValueError),
                                      ("det", ValueError), ("slogdet", ValueError)])
def test_square_and_ndim_errors(name, exc):
    fn = getattr(mnp.linalg, name)
    for x in (np.ones((2, 3), np.float32), np.ones((3,), np.float32)):
        with pytest.raises(exc):  # the exception type JAX raises
            getattr(jnp.linalg, name)(x)
    with pytest.raises(exc, match=f"mnp.linalg.{name}: needs square matrices"):
        fn(np.ones((2, 3), np.float32))
    with pytest.raises(exc, match=f"mnp.linalg.{name}: needs an array of at least 2"):
        fn(np.ones((3,), np.float32))


def test_other_errors():
    a = np.eye(3, dtype=np.float32)
    with pytest.raises(ValueError, match="Unsupported QR decomposition mode 'bad'"):
        mnp.linalg.qr(a, mode="bad")
    with pytest.raises(ValueError, match="UPLO must be 'L' or 'U'"):
        mnp.linalg.eigh(a, UPLO="X")
    with pytest.raises(ValueError, match="mnp.linalg.solve: b of shape"):
        mnp.linalg.solve(a, np.ones((4,), np.float32))
    with pytest.raises(ValueError, match="Invalid shapes for solve"):
        mnp.linalg.solve(np.ones((2, 3, 3)), np.ones((2, 3)))
    with pytest.raises(TypeError, match="mnp.linalg.qr: needs an array of at least 2"):
        mnp.linalg.qr(np.ones(3))
    with pytest.raises(TypeError, match="mnp.linalg.svd: needs an array of at least 2"):
        mnp.linalg.svd(np.ones(3))
    with pytest.raises(TypeError, match="mnp.linalg.svdvals: needs an array of at least 2"):
        mnp.linalg.svdvals(np.ones(3))
    with pytest.raises(TypeError, match="Array must be two-dimensional"):
        mnp.linalg.lstsq(np.ones((2, 3, 3)), np.ones(3))
    with pytest.raises(ValueError, match="Leading dimensions of input arrays must match"):
        mnp.linalg.lstsq(np.ones((3, 2)), np.ones(4))
    with pytest.raises(TypeError, match="exponent must be an integer"):
        mnp.linalg.matrix_power(a, 1.5)
    with pytest.raises(TypeError, match="matrix_power: needs square matrices"):
        mnp.linalg.matrix_power(np.ones((2, 3)), 2)
    with pytest.raises(TypeError, match="lax.linalg.triangular_solve: needs a and b with equal "
                                        "batch dimensions"):
        L.linalg.triangular_solve(np.ones((2, 3, 3), np.float32), np.ones((3, 3), np.float32),
                                  left_side=True)
    with pytest.raises(ValueError, match="triangular_solve: Incompatible shapes"):  # as JAX
        L.linalg.triangular_solve(a, np.ones((2, 3), np.float32), left_side=True)
    with pytest.raises(TypeError, match="lax.linalg.eigh: supports float32"):
        L.linalg.eigh(np.eye(2, dtype=np.float16), symmetrize_input=False)
    with pytest.raises(ValueError, match="lax.linalg.qr: needs an array of at least 2"):
        L.linalg.qr(np.ones(3, np.float32))
    with pytest.raises(TypeError, match="lax.linalg.qr: supports float32"):
        L.linalg.qr(np.ones((3, 3), np.int32), pivoting=True)
    with pytest.raises(ValueError, match="tensorinv is only possible"):
        mnp.linalg.tensorinv(np.ones((2, 3, 4)), ind=1)


def test_float16_computes_in_float32():
    a = np.eye(2, dtype=np.float16) * 2
    got = mnp.linalg.inv(a)
    assert got.dtype == np.float32
    close(got, np.linalg.inv(a.astype(np.float32)))


# ---------------------------------------------------------------------------
# LU: lax.linalg.lu, scipy.linalg.lu / lu_factor / lu_solve
# ---------------------------------------------------------------------------

LU_SHAPES = [(3, 3), (1, 1), (5, 3), (3, 5), (2, 4, 4), (2, 2, 3, 4)]


def _lu_operand(shape, dtype, seed=0):
    # No diagonal boost: rows get swapped.
    a = np.random.default_rng(seed).standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * np.random.default_rng(seed + 1).standard_normal(shape)
    return a.astype(dtype)


def _check_lu(got, want, a):
    lu_, piv, perm = got
    np.testing.assert_array_equal(np.asarray(piv), np.asarray(want[1]))
    np.testing.assert_array_equal(np.asarray(perm), np.asarray(want[2]))
    assert np.asarray(piv).dtype == np.int32 and np.asarray(perm).dtype == np.int32
    close(lu_, want[0], tol=10 * _tol(a.dtype))
    # P a = L U
    m, n = a.shape[-2:]
    k = min(m, n)
    lu_ = np.asarray(lu_)
    low = np.tril(lu_, -1)[..., :, :k] + np.eye(m, k, dtype=lu_.dtype)
    up = np.triu(lu_)[..., :k, :]
    pa = np.take_along_axis(a, np.asarray(perm)[..., None], axis=-2)
    close(low @ up, pa, tol=20 * _tol(a.dtype))


@pytest.mark.parametrize("shape,dtype,mode", covering(LU_SHAPES),
                         indirect=["dtype"], ids=param_id)
def test_lu(shape, dtype, mode):
    a = _lu_operand(shape, dtype)
    _check_lu(run(L.linalg.lu, (a,), mode), jax.lax.linalg.lu(a), a)


@pytest.mark.parametrize("cdtype", ["complex64", "complex128"])
def test_lu_complex(cdtype, x64):
    a = _lu_operand((2, 4, 3), np.dtype(cdtype))
    _check_lu(mlax.jit(L.linalg.lu)(a), jax.lax.linalg.lu(a), a)
    # scipy.linalg.lu's permutation matrix is real for complex input.
    got, want = msl.lu(a[0]), jsl.lu(a[0])
    assert [x.dtype for x in got] == [x.dtype for x in want]
    for x, y in zip(got, want):
        np.testing.assert_allclose(np.asarray(x), np.asarray(y), rtol=1e-5, atol=1e-5)


def test_lu_singular_and_empty(x64):
    # A singular matrix still factors (a zero on U's diagonal), as in JAX;
    # solving with it gives the same non-finite values.
    a = np.array([[1.0, 2, 3], [2, 4, 6], [1, 1, 1]])
    _check_lu(L.linalg.lu(a), jax.lax.linalg.lu(a), a)
    b = np.ones(3)
    got, want = np.asarray(mnp.linalg.solve(a, b)), np.asarray(jnp.linalg.solve(a, b))
    np.testing.assert_array_equal(np.isfinite(got), np.isfinite(want))
    sign, logabs = mnp.linalg.slogdet(a)
    assert float(sign) == 0 and float(logabs) == -np.inf
    # det's derivative is the adjugate, finite at a rank n - 1 matrix (and
    # zero at lower ranks), as in JAX.
    close(mlax.grad(mnp.linalg.det)(np.pad(a, ((0, 1), (0, 1)))),
          jax.grad(jnp.linalg.det)(np.pad(a, ((0, 1), (0, 1)))))
    sing4 = np.array([[1.0, 2, 0, 1], [2, 4, 1, 0], [0, 1, 1, 1], [3, 6, 1, 1]])
    close(mlax.grad(mnp.linalg.det)(sing4), jax.grad(jnp.linalg.det)(sing4))
    for shape in [(0, 0), (2, 0, 3), (3, 0), (0, 2)]:
        e = np.zeros(shape)
        for g, w in zip(mlax.jit(L.linalg.lu)(e), jax.lax.linalg.lu(e)):
            close(g, w)


def _lu_loss(lib, lu_fn):
    def f(x):
        lu_ = lu_fn(x)[0]
        return lib.sum(lu_ * _weights(lu_.shape, 1).astype(x.dtype))
    return f


@pytest.mark.parametrize("shape", [(3, 3), (4, 3), (3, 5), (2, 3, 3)])
def test_lu_derivatives(shape, dtype):
    a = _lu_operand(shape, dtype, seed=2)
    f, jf = _lu_loss(mnp, L.linalg.lu), _lu_loss(jnp, jax.lax.linalg.lu)
    want = jax.jit(jax.grad(jf))(a)  # one compile, not one per primitive
    close(mlax.grad(f)(a), want, tol=50 * _tol(dtype))
    close(mlax.jit(mlax.grad(f))(a), want, tol=50 * _tol(dtype))
    t = _weights(shape, 3).astype(dtype)
    close(mlax.jvp(f, (a,), (t,))[1], jax.jit(lambda x, v: jax.jvp(jf, (x,), (v,))[1])(a, t),
          tol=50 * _tol(dtype))


def test_lu_finite_differences_and_hessian(x64):
    a = _lu_operand((4, 4), np.float64, seed=3)
    f = _lu_loss(mnp, L.linalg.lu)
    t = _weights(a.shape, 5)
    eps = 1e-6
    fd = (float(f(a + eps * t)) - float(f(a - eps * t))) / (2 * eps)
    np.testing.assert_allclose(np.sum(np.asarray(mlax.grad(f)(a)) * t), fd, rtol=1e-6)
    # Second order differentiates the rule itself.
    g, jg = (lambda x: mnp.sum(mnp.linalg.solve(x, t[:, 0]) ** 2),
             lambda x: jnp.sum(jnp.linalg.solve(x, t[:, 0]) ** 2))
    close(mlax.hessian(g)(a), jax.jit(jax.hessian(jg))(a), tol=1e-8)


def test_lu_vmap(dtype):
    a = _lu_operand((5, 4, 3), dtype, seed=4)
    want = jax.jit(jax.vmap(jax.lax.linalg.lu))(a)
    for got in (mlax.vmap(L.linalg.lu)(a), mlax.jit(mlax.vmap(L.linalg.lu, in_axes=2))(
            np.moveaxis(a, 0, 2))):
        _check_lu(got, want, a)
    sq = _lu_operand((5, 3, 3), dtype, seed=5)
    close(mlax.vmap(mlax.grad(_lu_loss(mnp, L.linalg.lu)))(sq),
          jax.jit(jax.vmap(jax.grad(_lu_loss(jnp, jax.lax.linalg.lu))))(sq),
          tol=50 * _tol(dtype))


def test_lu_pivots_to_permutation():
    piv = np.array([[2, 2, 3, 3], [1, 1, 2, 3]], np.int32)
    for size in (4, 6):
        np.testing.assert_array_equal(
            np.asarray(mlax.jit(L.linalg.lu_pivots_to_permutation, static_argnums=1)(piv, size)),
            np.asarray(jax.lax.linalg.lu_pivots_to_permutation(piv, size)))
    with pytest.raises(ValueError, match="permutation_size 3 is smaller than the number"):
        L.linalg.lu_pivots_to_permutation(piv, 3)


# Eagerly (each op its own program: slow) in float32 only.
@pytest.mark.parametrize("dtype,mode", [("float32", "eager"), ("float32", "jit"),
                                        ("float64", "jit")], indirect=["dtype"])
def test_scipy_lu(dtype, mode):
    a = _lu_operand((2, 4, 4), dtype, seed=7)
    fac = {True: tuple(np.asarray(x) for x in msl.lu_factor(a)), False: jsl.lu_factor(a)}
    # Each right-hand side shape once, each with another `trans`: the shape
    # and the transposition are independent.
    rhs = list(zip((_lu_operand((4,), dtype, 8), _lu_operand((4, 3), dtype, 8),
                    _lu_operand((2, 4, 2), dtype, 8)), (0, 1, 2)))
    b = rhs[-1][0]

    def calls(lib):
        out = {}
        for shape in [(4, 4), (5, 3), (3, 5)]:
            x = _lu_operand(shape, dtype, seed=6)
            out[f"lu_{shape}"] = (lib.sl.lu, x)
            out[f"lu_permute_l_{shape}"] = (lambda y: lib.sl.lu(y, permute_l=True), x)
            out[f"lu_factor_{shape}"] = (lib.sl.lu_factor, x)
        for y, trans in rhs:
            out[f"lu_solve_trans={trans}"] = (
                lambda f0, f1, y, trans=trans: lib.sl.lu_solve((f0, f1), y, trans=trans),
                *fac[lib is MLAX], y)
        out["solve"] = (lib.sl.solve, a, b)
        out["inv"] = (lib.sl.inv, a)
        out["det"] = (lib.sl.det, a)
        return out
    got, want = both(calls, mode)
    for k in want:
        if k.startswith("lu_factor"):  # (the pivots exactly)
            close(got[k][0], want[k][0], tol=10 * _tol(dtype), what=k)
            np.testing.assert_array_equal(np.asarray(got[k][1]), np.asarray(want[k][1]),
                                          err_msg=k)
    close_all({k: got[k] for k in want if k.startswith("lu_") and "factor" not in k
               and "solve" not in k},
              {k: want[k] for k in want if k.startswith("lu_") and "factor" not in k
               and "solve" not in k}, tol=10 * _tol(dtype))
    rest = [k for k in want if not k.startswith(("lu_factor", "lu_p", "lu_("))]
    close_all({k: got[k] for k in rest}, {k: want[k] for k in rest}, tol=20 * _tol(dtype))


def test_lu_errors():
    with pytest.raises(TypeError, match="lax.linalg.lu: needs an array of at least 2"):
        L.linalg.lu(np.ones(3, np.float32))
    with pytest.raises(TypeError, match="lax.linalg.lu: supports float32"):
        L.linalg.lu(np.ones((3, 3), np.int32))
    with pytest.raises(ValueError, match="scipy.linalg.lu_solve: needs square matrices"):
        msl.lu_solve((np.ones((3, 4), np.float32), np.zeros(3, np.int32)), np.ones(3))
    with pytest.raises(ValueError, match="scipy.linalg.lu_solve: b of shape"):
        msl.lu_solve(msl.lu_factor(np.eye(3)), np.ones(4))
    with pytest.raises(ValueError, match="'trans' value must be 0, 1, or 2"):
        msl.lu_solve(msl.lu_factor(np.eye(3)), np.ones(3), trans=3)
    with pytest.raises(ValueError, match="scipy.linalg.lu: needs an array of at least 2"):
        msl.lu(np.ones(3))


# ---------------------------------------------------------------------------
# The array API's functions of jax.numpy.linalg (cross, diagonal, matmul,
# matrix_norm, matrix_transpose, multi_dot, outer, tensordot, trace, vecdot,
# vector_norm, cond): one table, evaluated by both libraries
# ---------------------------------------------------------------------------

def _array_api_inputs(dtype):
    return dict(m=general((2, 3, 3), dtype), v=general((4, 3), dtype, seed=1),
                w=general((4, 3), dtype, seed=2), r=general((3, 5), dtype, seed=3),
                s=general((5, 2), dtype, seed=4), p=general((3,), dtype, seed=5),
                q=general((2,), dtype, seed=6))


# id: (function of (linalg module, inputs), differentiable)
ARRAY_API = {
    "cross": (lambda la, a: la.cross(a["v"], a["w"]), True),
    "cross_axis": (lambda la, a: la.cross(a["v"].T, a["w"].T, axis=0), True),
    "diagonal": (lambda la, a: la.diagonal(a["m"], offset=1), True),
    "matmul": (lambda la, a: la.matmul(a["m"], a["r"]), True),
    "matrix_norm": (lambda la, a: (la.matrix_norm(a["m"]),
                                   la.matrix_norm(a["m"], ord=1, keepdims=True),
                                   la.matrix_norm(a["m"], ord=2)), True),
    "matrix_transpose": (lambda la, a: la.matrix_transpose(a["m"][..., :2]), True),
    "multi_dot": (lambda la, a: (la.multi_dot([a["p"], a["r"], a["s"], a["q"]]),
                                 la.multi_dot([a["v"], a["r"], a["s"]]),
                                 la.multi_dot([a["m"][0], a["p"]])), True),
    "outer": (lambda la, a: la.outer(a["p"], a["q"]), True),
    "tensordot": (lambda la, a: (la.tensordot(a["m"], a["r"], axes=1),
                                 la.tensordot(a["v"], a["w"], axes=((0, 1), (0, 1)))), True),
    "trace": (lambda la, a: (la.trace(a["m"]), la.trace(a["m"], offset=-1)), True),
    "vecdot": (lambda la, a: (la.vecdot(a["v"], a["w"]), la.vecdot(a["v"], a["w"], axis=0)),
               True),
    "vector_norm": (lambda la, a: (la.vector_norm(a["m"]),
                                   la.vector_norm(a["v"], axis=1, ord=1),
                                   la.vector_norm(a["v"], axis=0, ord=np.inf, keepdims=True),
                                   la.vector_norm(a["v"], axis=(0, 1), ord=-np.inf),
                                   la.vector_norm(a["v"], ord=3),
                                   la.vector_norm(a["v"], ord=0)), True),
    "cond": (lambda la, a: tuple(la.cond(a["m"], p) for p in (None, -2, 1, "fro")),
             False),
}


def _tuple(out):
    return out if isinstance(out, tuple) else (out,)


# Eagerly (each op its own program: slow) in float32 only; under jit all
# the functions in one program.
@pytest.mark.parametrize("mode,dtype", [("eager", np.float32), ("jit", np.float32),
                                        ("jit", np.float64)], ids=["eager-float32",
                                                                   "jit-float32",
                                                                   "jit-float64"])
def test_array_api_linalg_matches_jax(dtype, mode, request):
    if dtype == np.float64:
        request.getfixturevalue("x64")
    inputs = _array_api_inputs(dtype)
    got, want = both(lambda lib: {name: (lambda a, fn=fn: _tuple(fn(lib.la, a)), inputs)
                                  for name, (fn, _) in ARRAY_API.items()}, mode)
    for name in ARRAY_API:
        assert len(got[name]) == len(want[name]), name
        for i, (g, w) in enumerate(zip(got[name], want[name])):
            assert isinstance(g, mlax.Array) and g.weak_type == w.weak_type, (name, i)
            close(g, w, dtype, what=f"{name}[{i}]")


@pytest.mark.parametrize("name", [n for n, (_, diff) in ARRAY_API.items() if diff])
def test_array_api_linalg_grad_and_vmap(name):
    fn = ARRAY_API[name][0]
    inputs = _array_api_inputs(np.float32)

    def scalar(la, np_mod):
        return lambda a: sum(np_mod.sum(np_mod.sin(o)) for o in _tuple(fn(la, a)))

    got = mlax.jit(mlax.grad(scalar(mnp.linalg, mnp)))(inputs)
    want = jax.jit(jax.grad(scalar(jnp.linalg, jnp)))(inputs)
    for key in inputs:
        close(got[key], want[key], tol=1e-3)
    batched = {k: np.stack([v, v[::-1] * 2]) for k, v in inputs.items()}
    got = _tuple(mlax.vmap(lambda a: fn(mnp.linalg, a))(batched))
    want = _tuple(jax.jit(jax.vmap(lambda a: fn(jnp.linalg, a)))(batched))
    for g, w in zip(got, want):
        close(g, w, tol=1e-3)


def test_cond_of_singular_and_nan_matrices():
    singular = np.array([[1.0, 2.0], [2.0, 4.0]], np.float32)
    nan = np.array([[np.nan, 1.0], [0.0, 1.0]], np.float32)
    for p in (1, np.inf):
        for x in (singular, nan):
            got = mlax.jit(mnp.linalg.cond, static_argnums=1)(x, p)
            np.testing.assert_array_equal(np.asarray(got),
                                          np.asarray(jnp.linalg.cond(x, p)))


_ARRAY_API_ERRORS = {
    "cross": lambda la: la.cross(np.ones((2, 2)), np.ones((2, 2))),
    "matrix_transpose": lambda la: la.matrix_transpose(np.ones(3)),
    "multi_dot_none": lambda la: la.multi_dot([]),
    "multi_dot_ndim": lambda la: la.multi_dot([np.ones((2, 2)), np.ones((2, 2, 2)),
                                               np.ones((2, 2))]),
    "multi_dot_mismatch": lambda la: la.multi_dot([np.ones((2, 3)), np.ones((2, 2))]),
    "outer": lambda la: la.outer(np.ones((2, 2)), np.ones(2)),
    "vector_norm_string": lambda la: la.vector_norm(np.ones(3), ord="inf"),
    "cond_1d": lambda la: la.cond(np.ones(3)),
    "cond_empty": lambda la: la.cond(np.ones((0, 0))),
    "cond_not_square": lambda la: la.cond(np.ones((2, 3)), 1),
    "diagonal_1d": lambda la: la.diagonal(np.ones(3)),
    "vecdot_mismatch": lambda la: la.vecdot(np.ones(3), np.ones(4)),
}


@pytest.mark.parametrize("name", list(_ARRAY_API_ERRORS))
def test_array_api_linalg_errors_match_jax(name):
    with pytest.raises(Exception) as want:
        _ARRAY_API_ERRORS[name](jnp.linalg)
    with pytest.raises(want.type):
        _ARRAY_API_ERRORS[name](mnp.linalg)


@pytest.mark.parametrize("name", ["cross", "multi_dot_none", "outer", "cond_1d"])
def test_array_api_linalg_errors_name_the_function_and_line(name):
    function = name.split("_")[0] if name != "multi_dot_none" else "multi_dot"
    with pytest.raises(ValueError, match=rf"mnp\.linalg\.{function}: .*test_linalg\.py"):
        _ARRAY_API_ERRORS[name](mnp.linalg)

"""jax.scipy.linalg's compositions of existing linear algebra: expm (Padé
approximation with scaling and squaring, as JAX) and expm_frechet,
block_diag, toeplitz and hankel, and the functions built on the Schur and
Hessenberg reductions (schur, rsf2csf, sqrtm, funm, solve_sylvester,
hessenberg), eigh_tridiagonal and qr_multiply, with JAX's algorithms. The
factorizations themselves live in mlax._src.numpy.linalg and
mlax._src.lax.linalg."""
from __future__ import annotations

import functools

import numpy as np

from mlax._src.base import dtypes
from mlax._src.lax import lax
from mlax._src.lax import linalg as lax_linalg
from mlax._src.lax import slicing
from mlax._src.lax.control_flow import cond, fori_loop, scan, switch, while_loop
from mlax._src.numpy import linalg as np_linalg
from mlax._src.numpy.util import _eager_jit
from mlax._src.numpy import library
from mlax._src.numpy import manipulation
from mlax._src.numpy import statistics as stats
from mlax._src.numpy import ufuncs
from mlax._src.numpy.lax_numpy import promote_dtypes
from mlax._src.numpy.util import _promote_inexact
from mlax._src.numpy.manipulation import atleast_2d
from mlax._src.numpy.statistics import digitize
from mlax._src.numpy.vectorize import vectorize
from mlax._src.scipy import common as jnp
from mlax._src.scipy.common import dispatched

# Padé coefficients b_0..b_m of degree m (Higham 2005, "The scaling and
# squaring method for the matrix exponential revisited").
_PADE = {
    3: (120., 60., 12., 1.),
    5: (30240., 15120., 3360., 420., 30., 1.),
    7: (17297280., 8648640., 1995840., 277200., 25200., 1512., 56., 1.),
    9: (17643225600., 8821612800., 2075673600., 302702400., 30270240., 2162160., 110880.,
        3960., 90., 1.),
    13: (64764752532480000., 32382376266240000., 7771770303897600., 1187353796428800.,
         129060195264000., 10559470521600., 670442572800., 33522128640., 1323241920.,
         40840800., 960960., 16380., 182., 1.),
}
# The largest 1-norm each degree handles to working precision (Higham's theta_m),
# and the norm beyond which the matrix is scaled down by powers of two.
_THETA = {np.dtype(np.float64): ((3, 5, 7, 9, 13),
                                  (1.495585217958292e-2, 2.539398330063230e-1,
                                   9.504178996162932e-1, 2.097847961257068e0),
                                  5.371920351148152),
          np.dtype(np.float32): ((3, 5, 7), (4.258730016922831e-1, 1.880152677804762e0),
                                 3.925724783138660)}


def _pade(m):
    def uv(a):
        b = _PADE[m]
        n = a.shape[0]
        ident = jnp.eye(n, dtype=a.dtype)
        a2 = a @ a
        powers = {0: ident, 2: a2}
        if m >= 5:
            powers[4] = a2 @ a2
        if m >= 7:
            powers[6] = powers[4] @ a2
        if m == 9:
            powers[8] = powers[6] @ a2
        if m == 13:
            a6 = powers[6]
            u = a @ (a6 @ (b[13] * a6 + b[11] * powers[4] + b[9] * a2)
                     + b[7] * a6 + b[5] * powers[4] + b[3] * a2 + b[1] * ident)
            v = (a6 @ (b[12] * a6 + b[10] * powers[4] + b[8] * a2)
                 + b[6] * a6 + b[4] * powers[4] + b[2] * a2 + b[0] * ident)
            return u, v
        u = a @ sum(b[k + 1] * powers[k] for k in range(0, m, 2))
        v = sum(b[k] * powers[k] for k in range(0, m, 2))
        return u, v
    return uv


def _expm_2d(a, upper_triangular, max_squarings):
    real = dtypes.real_part(a.dtype)  # (complex matrices: the bounds of their real type, as JAX's)
    if real not in _THETA:
        raise TypeError(f"A.dtype={a.dtype} is not supported.")
    degrees, bounds, max_norm = _THETA[real]
    norm = np_linalg.norm(a, 1)
    n_squarings = jnp.maximum(0, jnp.floor(jnp.log2(norm / max_norm)))
    a = a / (2 ** n_squarings).astype(a.dtype)
    index = digitize(norm, jnp.asarray(np.asarray(bounds, real)))
    u, v = switch(index, [_pade(m) for m in degrees], a)
    p, q = u + v, -u + v

    def compute(args):
        p, q = args
        r = (np_linalg.solve_triangular(q, p) if upper_triangular else np_linalg.solve(q, p))

        def square(r, i):
            return cond(i < n_squarings, lambda x: x @ x, lambda x: x, r), None

        return scan(square, r, jnp.arange(max_squarings, dtype=n_squarings.dtype))[0]

    return cond(n_squarings > max_squarings, lambda args: jnp.full_like(args[0], np.nan),
                compute, (p, q))


def expm(A, *, upper_triangular=False, max_squarings=16):  # noqa: N803 (scipy's name)
    """The matrix exponential of a (batched) square matrix (jax.scipy.linalg.expm)."""
    return _expm(A, upper_triangular=upper_triangular, max_squarings=max_squarings)


@dispatched(static_argnames=("upper_triangular", "max_squarings"))
def _expm(a, *, upper_triangular, max_squarings):
    a, = jnp._promote_inexact("expm", a)
    a = jnp.asarray(a)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"Expected A to be a (batched) square matrix, got A.shape={a.shape!r}.")
    fn = vectorize(lambda m: _expm_2d(m, upper_triangular, max_squarings),
                   signature="(n,n)->(n,n)")
    return fn(a) if a.ndim > 2 else _expm_2d(a, upper_triangular, max_squarings)


@dispatched
def block_diag(*arrs):
    """The arrays (at most 2-d) as the diagonal blocks of one matrix
    (jax.scipy.linalg.block_diag)."""
    if not arrs:
        arrs = (jnp.zeros((1, 0)),)
    arrs = [jnp.asarray(a) for a in promote_dtypes("block_diag", *arrs)]
    for i, a in enumerate(arrs):
        if a.ndim > 2:
            raise ValueError("Arguments to mlax.scipy.linalg.block_diag must have at most 2 "
                             f"dimensions, got shape {a.shape} at argument {i}.")
    arrs = [atleast_2d(a) for a in arrs]
    total = sum(a.shape[1] for a in arrs)
    rows, col = [], 0
    for a in arrs:
        zero = np.zeros((), a.dtype)
        rows.append(lax.pad(a, zero, ((0, 0, 0), (col, total - a.shape[1] - col, 0))))
        col += a.shape[1]
    return jnp.concatenate(rows, axis=0)


def _diagonal_matrix(elems, n_rows, n_cols, index):
    """elems[..., index(i, j)] for the (n_rows, n_cols) grid."""
    i = np.arange(n_rows)[:, None]
    j = np.arange(n_cols)[None, :]
    return elems[..., index(i, j)]


def _first_column_and_row(name, c, r):
    """toeplitz's and hankel's c and r: promoted, at least 1-d, broadcast
    over their common batch; with that batch and their lengths m and n."""
    c, r = promote_dtypes(name, c, r)
    c, r = jnp.asarray(c), jnp.asarray(r)
    c, r = (jnp.reshape(v, (1,)) if v.ndim == 0 else v for v in (c, r))
    batch = jnp.broadcast_shapes(c.shape[:-1], r.shape[:-1])
    c = jnp.broadcast_to(c, batch + c.shape[-1:])
    r = jnp.broadcast_to(r, batch + r.shape[-1:])
    return c, r, batch, c.shape[-1], r.shape[-1]


@dispatched
def _toeplitz(c, r):
    c, r, batch, m, n = _first_column_and_row("toeplitz", c, r)
    if m == 0 or n == 0:
        return jnp.zeros(batch + (m, n), c.dtype)
    # T[i, j] = c[i - j] below the diagonal, r[j - i] above: one vector read
    # along anti-shifted rows.
    elems = jnp.concatenate([c[..., ::-1], r[..., 1:]], axis=-1)
    return _diagonal_matrix(elems, m, n, lambda i, j: m - 1 - i + j)


def toeplitz(c, r=None):
    """The Toeplitz matrix with first column c and first row r (r defaults to
    c's conjugate, so a complex c gives a Hermitian matrix; r[0] is ignored)
    (jax.scipy.linalg.toeplitz); batched over leading axes."""
    if r is None:
        r = ufuncs.conjugate(jnp.asarray(c))
    return _toeplitz(c, r)


@dispatched
def _hankel(c, r):
    c, r, batch, m, n = _first_column_and_row("hankel", c, r)
    if m == 0 or n == 0:
        return jnp.zeros(batch + (m, n), c.dtype)
    # H[i, j] = c[i + j] while inside c, then r[i + j - m + 1].
    elems = jnp.concatenate([c, r[..., 1:]], axis=-1)
    return _diagonal_matrix(elems, m, n, lambda i, j: i + j)


def hankel(c, r=None):
    """The Hankel matrix with first column c and last row r (zeros by
    default; r[0] is ignored) (jax.scipy.linalg.hankel)."""
    if r is None:
        r = jnp.zeros_like(jnp.asarray(c))
    return _hankel(c, r)


# One jit dispatch when called outside a trace, as JAX's is.
expm = _eager_jit(expm, ("upper_triangular", "max_squarings"))


# ---------------------------------------------------------------------------
# The Schur family: schur, rsf2csf, sqrtm, funm, solve_sylvester; hessenberg,
# eigh_tridiagonal, expm_frechet, qr_multiply (JAX's algorithms).
# ---------------------------------------------------------------------------

_mT, _adj = np_linalg._mT, np_linalg._mH  # (transpose, conjugate transpose)


def _to_complex(*xs):
    """The arrays at their common complex dtype (JAX's promote_dtypes_complex)."""
    xs = promote_dtypes("promote_dtypes_complex", *xs)
    return [x.astype(dtypes.to_complex(x.dtype)) for x in xs]


def schur(a, output="real"):
    """The Schur decomposition `a = z t z^H` (jax.scipy.linalg.schur): `(t, z)`;
    `output='complex'` computes it in the complex dtype (upper triangular `t`).
    LAPACK gees (CPU)."""
    if output not in ("real", "complex"):
        raise ValueError(f"Expected 'output' to be either 'real' or 'complex', got {output=}.")
    return _schur(a, output=output)


@dispatched(static_argnames=("output",))
def _schur(a, *, output):
    a = jnp.asarray(a)
    if output == "complex":
        a = a.astype(dtypes.to_complex(a.dtype))
    return lax_linalg.schur(a)


def _rsf2csf_2d(t, z):
    t, z = _to_complex(t, z)
    eps = np.finfo(t.dtype).eps
    n = t.shape[0]
    if n == 1:
        return t, z

    def update(m, t, z):
        mu = np_linalg.eigvals(slicing.dynamic_slice(t, (m - 1, m - 1), (2, 2))) - t[m, m]
        r = np_linalg.norm(jnp.stack([mu[0], t[m, m - 1]])).astype(t.dtype)
        c = mu[0] / r
        s = t[m, m - 1] / r
        g = jnp.stack([jnp.stack([ufuncs.conjugate(c), s]), jnp.stack([-s, c])])
        t_rows = slicing.dynamic_slice_in_dim(t, m - 1, 2, axis=0)
        col_mask = jnp.arange(n) >= m - 1
        rotated = g @ jnp.where(col_mask, t_rows, 0)
        t = slicing.dynamic_update_slice_in_dim(t, jnp.where(~col_mask, t_rows, rotated),
                                                m - 1, axis=0)
        t_cols = slicing.dynamic_slice_in_dim(t, m - 1, 2, axis=1)
        row_mask = jnp.arange(n)[:, None] < m + 1
        rotated = jnp.where(row_mask, t_cols, 0) @ _adj(g)
        t = slicing.dynamic_update_slice_in_dim(t, jnp.where(~row_mask, t_cols, rotated),
                                                m - 1, axis=1)
        z_cols = slicing.dynamic_slice_in_dim(z, m - 1, 2, axis=1)
        z = slicing.dynamic_update_slice_in_dim(z, z_cols @ _adj(g), m - 1, axis=1)
        return t, z

    def step(i, tz):
        m = n - i
        t, z = tz
        sub = jnp.abs(t[m, m - 1])
        t, z = cond(sub > eps * (jnp.abs(t[m - 1, m - 1]) + jnp.abs(t[m, m])), update,
                    lambda m, t, z: (t, z), m, t, z)
        t = t.at[m, m - 1].set(0.0)
        return t, z

    return fori_loop(1, n, step, (t, z))


@dispatched(static_argnames=("check_finite",))
def rsf2csf(T, Z, check_finite=True):  # noqa: N803 (scipy's names)
    """The complex Schur form and vectors from the real ones
    (jax.scipy.linalg.rsf2csf): each 2x2 block of `T` is triangularised by
    a Givens rotation."""
    del check_finite
    t, z = jnp.asarray(T), jnp.asarray(Z)
    if t.ndim < 2 or t.shape[-1] != t.shape[-2]:
        raise ValueError("Input 'T' must be square.")
    if z.ndim < 2 or z.shape[-1] != z.shape[-2]:
        raise ValueError("Input 'Z' must be square.")
    if t.shape[-1] != z.shape[-1]:
        raise ValueError(f"Input array shapes must match: Z: {z.shape} vs. T: {t.shape}")
    return vectorize(_rsf2csf_2d, signature="(n,n),(n,n)->(n,n),(n,n)")(t, z)


def _sqrtm_triu(t):
    diag = jnp.sqrt(stats.diag(t))
    n = diag.size
    u = stats.diag(diag)

    def i_loop(k, data):
        j, u = data
        i = j - 1 - k
        s = fori_loop(i + 1, j, lambda l, val: val + u[i, l] * u[l, j],
                      jnp.zeros((), u.dtype))
        value = jnp.where(t[i, j] == s, jnp.zeros((), u.dtype),
                          (t[i, j] - s) / (diag[i] + diag[j]))
        return j, u.at[i, j].set(value)

    def j_loop(j, u):
        return fori_loop(0, j, i_loop, (j, u))[1]

    return fori_loop(0, n, j_loop, u)


@dispatched
def _sqrtm(a):
    t, z = schur(a, output="complex")
    return z @ _sqrtm_triu(t) @ _adj(z)


def sqrtm(A, blocksize=1):  # noqa: N803 (scipy's name)
    """The matrix square root (jax.scipy.linalg.sqrtm), through the complex
    Schur form (always complex, as JAX's)."""
    if blocksize > 1:
        raise NotImplementedError("Blocked version is not implemented yet.")
    return _sqrtm(A)


def _algorithm_11_1_1(f, t):
    """Golub and Van Loan's Algorithm 11.1.1 (Parlett's recurrence), as JAX."""
    n = t.shape[0]
    minden = jnp.abs(t[0, 0])

    def inner(i, state):
        p, f, minden = state
        j = i + p
        s = t[i - 1, j - 1] * (f[j - 1, j - 1] - f[i - 1, i - 1])
        ind = (jnp.arange(n) >= i) & (jnp.arange(n) < j - 1)
        val = (jnp.where(ind, t[i - 1], 0) @ jnp.where(ind, f[:, j - 1], 0)
               - jnp.where(ind, f[i - 1], 0) @ jnp.where(ind, t[:, j - 1], 0))
        s = s + val
        den = t[j - 1, j - 1] - t[i - 1, i - 1]
        s = jnp.where(den != 0, s / den, s)
        f = f.at[i - 1, j - 1].set(s)
        return p, f, jnp.minimum(minden, jnp.abs(den))

    def outer(p, state):
        _, f, minden = fori_loop(1, n - p + 1, inner, (p, *state))
        return f, minden

    return fori_loop(1, n, outer, (f, minden))


def funm(A, func, disp=True):  # noqa: N803 (scipy's name)
    """`func` of a square matrix (jax.scipy.linalg.funm): `func` on the
    eigenvalues of the complex Schur form, Parlett's recurrence above the
    diagonal. Complex, as JAX's; with `disp=False` also the error estimate."""
    a = jnp.asarray(A)
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ValueError("expected square array_like input")
    t, z = schur(a)
    t, z = rsf2csf(t, z)
    f = stats.diag(func(stats.diag(t))).astype(t.dtype)
    f, minden = _algorithm_11_1_1(f, t)
    f = z @ f @ _adj(z)
    if disp:
        return f
    tol = np.finfo(np.float32 if f.dtype == np.complex64 else np.float64).eps
    minden = jnp.where(minden == 0.0, tol, minden)
    err = jnp.where(jnp.any(jnp.isinf(f)), np.inf, jnp.minimum(1, jnp.maximum(
        tol, (tol / minden) * np_linalg.norm(jnp.triu(t, 1), 1))))
    return f, err


def _sylvester_triangular(r, s, f):
    """Y with R Y + Y S = F for upper triangular R and S, element by element
    from the bottom right (JAX's scan)."""
    m, n = f.shape
    total = m * n

    def step(y_flat, idx):
        i, j = idx // n, idx % n
        y = y_flat.reshape((m, n))
        rhs = f[i, j]
        row_term = jnp.sum(jnp.where(jnp.arange(m) > i, r[i, :] * y[:, j], 0.0))
        col_term = jnp.sum(jnp.where(jnp.arange(n) > j, y[i, :] * s[:, j], 0.0))
        rhs = rhs - (row_term + col_term)
        return y_flat.at[i * n + j].set(rhs / (r[i, i] + s[j, j])), None

    y_flat, _ = scan(step, jnp.zeros((total,), f.dtype),
                     jnp.arange(total - 1, -1, -1))
    return y_flat.reshape((m, n))


def _solve_sylvester_2d(a, b, c, *, method, tol):
    m, n = c.shape[-2:]
    if method == "schur":
        r, u = schur(a, output="complex")
        s, v = schur(_adj(b), output="complex")
        f = _adj(u) @ c.astype(r.dtype) @ v
        y = _sylvester_triangular(r, _adj(s), f)
        x = u @ y @ _adj(v)
    elif method == "eigen":
        ra, ua = np_linalg._np_eig(a)
        rb, ub = np_linalg._np_eig(b)
        f = np_linalg.solve(ua, c.astype(ra.dtype) @ ub)
        y = f / (ra[:, None] + rb[None, :])
        x = ua[:m, :m] @ y[:m, :n] @ np_linalg.inv(ub)[:n, :n]
    else:
        raise ValueError(f"Unrecognized method {method}. The two valid methods are either "
                         "\"schur\" or \"eigen\".")
    if not jnp.is_complex(c):
        x = ufuncs.real(x)
    near = jnp.any(jnp.abs(np_linalg.eigvals(a)[:, None] + np_linalg.eigvals(b)[None, :]) < tol)
    return cond(near, lambda: jnp.zeros_like(x) * np.nan, lambda: x)


@dispatched(static_argnames=("method",))
def solve_sylvester(A, B, C, *, method="schur", tol=1e-8):  # noqa: N803 (scipy's names)
    """X with `A X + X B = C` (jax.scipy.linalg.solve_sylvester): by the
    Schur forms of A and B^H (`method='schur'`) or their eigenvectors
    (`'eigen'`); NaN where eigenvalues of A and -B come within `tol`."""
    a, b, c = _promote_inexact("solve_sylvester", jnp.asarray(A), jnp.asarray(B),
                               jnp.asarray(C))
    m, n = c.shape[-2:]
    if a.shape[-2:] != (m, m) or b.shape[-2:] != (n, n):
        raise ValueError(f"Incompatible shapes for Sylvester equation:\nA: {a.shape}\n"
                         f"B: {b.shape}\nC: {c.shape}")
    fn = functools.partial(_solve_sylvester_2d, method=method, tol=tol)
    return vectorize(fn, signature="(m,m),(n,n),(m,n)->(m,n)")(a, b, c)


@dispatched(static_argnames=("calc_q", "overwrite_a", "check_finite"))
def hessenberg(a, *, calc_q=False, overwrite_a=False, check_finite=True):
    """The upper Hessenberg form `h` of a square matrix, and with `calc_q`
    the unitary `q` with `a = q h q^H` (jax.scipy.linalg.hessenberg; LAPACK
    gehrd and orgqr/ungqr)."""
    del overwrite_a, check_finite
    a = jnp.asarray(a)
    n = a.shape[-1]
    if n == 0:
        return (jnp.zeros_like(a), jnp.zeros_like(a)) if calc_q else jnp.zeros_like(a)
    a_out, taus = lax_linalg.hessenberg(a)
    h = jnp.triu(a_out, -1)
    if not calc_q:
        return h
    q = lax_linalg.householder_product(a_out[..., 1:, :-1], taus)
    batch = a_out.shape[:-2]
    dt = a_out.dtype
    q = library.block([[jnp.ones(batch + (1, 1), dtype=dt), jnp.zeros(batch + (1, n - 1), dt)],
                       [jnp.zeros(batch + (n - 1, 1), dt), q]])
    return h, q


@dispatched(static_argnames=("method", "compute_expm"))
def expm_frechet(A, E, *, method=None, compute_expm=True):  # noqa: N803 (scipy's names)
    """The Frechet derivative of expm at `A` in the direction `E`
    (jax.scipy.linalg.expm_frechet): the JVP of expm, as JAX's; with
    compute_expm also expm(A)."""
    from mlax._src.transforms import autodiff

    del method
    a, e = jnp.asarray(A), jnp.asarray(E)
    if a.ndim < 2 or a.shape[-2] != a.shape[1]:
        raise ValueError(f"expected A to be a (batched) square matrix, got A.shape={a.shape}")
    if e.ndim < 2 or e.shape[-2] != e.shape[-1]:
        raise ValueError(f"expected E to be a (batched) square matrix, got E.shape={e.shape}")
    if a.shape != e.shape:
        raise ValueError("expected A and E to be the same shape, got "
                         f"A.shape={a.shape} E.shape={e.shape}")
    fn = functools.partial(_expm, upper_triangular=False, max_squarings=16)
    expm_a, frechet = autodiff.jvp(fn, (a,), (e,))
    return (expm_a, frechet) if compute_expm else frechet


def qr_multiply(a, c, mode="right", pivoting=False, conjugate=False, overwrite_a=False,
                overwrite_c=False):
    """`Q @ c` (`mode='left'`) or `c @ Q` (`'right'`) for the Q of `a`'s QR
    decomposition, with R (jax.scipy.linalg.qr_multiply): geqrf (geqp3 with
    `pivoting`, which adds the column permutation), then the reflectors
    applied to `c` (lax.linalg.ormqr)."""
    del overwrite_a, overwrite_c
    if mode not in ("right", "left"):
        raise ValueError(f"mode must be 'right' or 'left', got {mode!r}")
    return _qr_multiply(a, c, mode=mode, conjugate=bool(conjugate), pivoting=bool(pivoting))


@dispatched(static_argnames=("mode", "conjugate", "pivoting"))
def _qr_multiply(a, c, *, mode, conjugate, pivoting):
    a, c = _promote_inexact("qr_multiply", jnp.asarray(a), jnp.asarray(c))
    onedim = c.ndim == 1
    if onedim:
        c = c[:, None] if mode == "left" else c[None, :]
    m, n = a.shape[-2:]
    k = min(m, n)
    if mode == "left":
        if c.shape[-2] != k:
            raise ValueError(
                f"Array shapes are not compatible for Q @ c operation: a has shape "
                f"{tuple(a.shape)} so Q has {k} columns, but c has {c.shape[-2]} rows "
                f"(expected {k}).")
    elif c.shape[-1] != m:
        raise ValueError(
            f"Array shapes are not compatible for c @ Q operation: a has shape "
            f"{tuple(a.shape)} so Q has {m} rows, but c has {c.shape[-1]} columns "
            f"(expected {m}).")
    batch = jnp.broadcast_shapes(a.shape[:-2], c.shape[:-2])
    a = jnp.broadcast_to(a, batch + a.shape[-2:])
    c = jnp.broadcast_to(c, batch + c.shape[-2:])
    if pivoting:
        r, p, taus = np_linalg.geqp3(a, jnp.zeros(a.shape[:-2] + (n,), np.int32))
        p = p - 1  # (geqp3's columns are 1-based)
    else:
        r, taus = np_linalg.geqrf(a)
    if m > n and mode == "left":
        zeros = jnp.zeros(c.shape[:-2] + (m - k,) + c.shape[-1:], dtype=c.dtype)
        c = jnp.concatenate([c, zeros], axis=-2)
    if conjugate:
        c = _mT(c)
    left = (mode == "left") != conjugate
    cq = np_linalg.ormqr(r, taus, c, left=left, transpose=conjugate)
    if conjugate:
        cq = _mT(cq)
    if mode == "right":
        cq = cq[..., :k]
    if onedim:
        cq = cq.ravel()
    r = jnp.triu(r[..., :k, :])
    return (cq, r, p) if pivoting else (cq, r)


def _sturm_counts(alpha, beta_sq, pivmin, alpha0_perturbation, x):
    """The number of eigenvalues below each `x`: the sign changes of the
    Sturm sequence (JAX's recurrence, unrolled by blocks of 16)."""
    n = alpha.shape[0]
    zeros = jnp.zeros(x.shape, dtype=np.int32)
    q = alpha[0] - x
    count = jnp.where(q < 0, zeros + 1, zeros)
    q = jnp.where(alpha[0] == x, alpha0_perturbation, q)

    def step(i, q, count):
        q = alpha[i] - beta_sq[i - 1] / q - x
        count = jnp.where(q <= pivmin, count + 1, count)
        q = jnp.where(q <= pivmin, jnp.minimum(q, -pivmin), q)
        return q, count

    def steps(count_of):
        def run(args):
            start, q, count = args
            for j in range(count_of):
                q, count = step(start + j, q, count)
            return start + count_of, q, count
        return run

    blocksize = 16
    i, q, count = steps((n - 1) % blocksize)((1, q, count))
    _, _, count = while_loop(lambda iqc: iqc[0] < n, steps(blocksize),
                             (jnp.asarray(i, np.int32), q, count))
    return count


def _tridiagonal_eigenvectors(alpha, beta, eigvals, key):
    """Inverse iteration for the eigenvectors (JAX's), close eigenvalues'
    vectors orthogonalised by QR."""
    from mlax._src.random import prng

    n, k = alpha.shape[0], eigvals.shape[0]
    dl = stats.pad(ufuncs.conjugate(beta), (1, 0))
    du = stats.pad(beta, (0, 1))
    gap = eigvals[1:] - eigvals[:-1]
    eps = np.finfo(eigvals.dtype).eps
    t_norm = jnp.maximum(jnp.abs(eigvals[0]), jnp.abs(eigvals[-1]))
    close = gap < np.sqrt(eps) * t_norm
    left_close = stats.pad(close, (1, 0), constant_values=False)
    right_close = stats.pad(close, (0, 1), constant_values=False)
    starts_mask = jnp.logical_and(jnp.logical_not(left_close), right_close)
    ends_mask = jnp.logical_and(left_close, jnp.logical_not(right_close))
    max_clusters = k // 2 + 1
    starts = manipulation.nonzero(starts_mask, size=max_clusters)[0]
    ends = manipulation.nonzero(ends_mask, size=max_clusters)[0] + 1
    num_clusters = jnp.sum(starts_mask)
    arange_k = jnp.arange(k)
    solve_dtype = np.result_type(alpha.dtype, beta.dtype)
    v = prng.normal(key, (k, n), dtype=dtypes.real_part(solve_dtype)).astype(solve_dtype)
    v = v / np_linalg.norm(v, axis=-1, keepdims=True).astype(solve_dtype)

    def orthogonalize(ev):
        def cluster(i, ev):
            start, end = starts[i], ends[i]
            padded = stats.pad(ev, ((0, k), (0, 0)))
            block = slicing.dynamic_slice(padded, (start, 0), (k, n))
            mask = (arange_k < end - start).astype(ev.dtype)
            q, _ = np_linalg._np_qr(_mT(block * mask[:, None]))
            qt = _mT(q) * mask[:, None]
            update = slicing.dynamic_update_slice(jnp.zeros((2 * k, n), ev.dtype), qt,
                                                  (start, 0))[:k, :]
            inside = (arange_k >= start) & (arange_k < end)
            return jnp.where(inside[:, None], update, ev)
        return fori_loop(0, num_clusters, cluster, ev)

    shifted = (alpha[None, :] - eigvals[:, None]).astype(solve_dtype)
    dl_b = jnp.broadcast_to(dl[None, :], (k, n)).astype(solve_dtype)
    du_b = jnp.broadcast_to(du[None, :], (k, n)).astype(solve_dtype)

    def step(state):
        i, v, nrm_v, _ = state
        v_new = lax_linalg.tridiagonal_solve(dl_b, shifted, du_b, v[:, :, None],
                                             perturb_singular=True)[..., 0]
        nrm_new = np_linalg.norm(v_new, axis=-1, keepdims=True)
        v_new = v_new / nrm_new.astype(v_new.dtype)
        return i + 1, orthogonalize(v_new), nrm_new[..., 0], nrm_v

    def going(state):
        i, _, nrm_v, nrm_old = state
        return jnp.logical_and(i < 5, jnp.any(nrm_v >= 1.1 * nrm_old))

    init = (jnp.asarray(0, np.int32), v, jnp.ones(k, eigvals.dtype), jnp.zeros(k, eigvals.dtype))
    return while_loop(going, step, init)[1]


def eigh_tridiagonal(d, e, *, eigvals_only=False, select="a", select_range=None, tol=None,
                     key=None):
    """The eigenvalues (ascending) of the symmetric (Hermitian) tridiagonal
    matrix with diagonal `d` and off-diagonal `e`, and unless `eigvals_only`
    its eigenvectors (columns) (jax.scipy.linalg.eigh_tridiagonal): JAX's
    bisection on Sturm counts, then inverse iteration from random vectors
    (`key`, by default key(42))."""
    if select == "v":
        raise NotImplementedError("eigh_tridiagonal(..., select='v') is not implemented")
    if select not in ("a", "i"):
        raise ValueError("'select must have a value in {'a', 'i', 'v'}.")
    if select == "i":
        if select_range is None:
            raise ValueError("for select='i', select_range must be specified.")
        if select_range[0] > select_range[1]:
            raise ValueError("Got empty index range in select_range.")
        select_range = tuple(int(x) for x in select_range)
    if not eigvals_only and key is None:
        from mlax._src.random import prng
        key = prng.key(42)
    return _eigh_tridiagonal(d, e, tol, key, eigvals_only=bool(eigvals_only), select=select,
                             select_range=select_range)


@dispatched(static_argnames=("eigvals_only", "select", "select_range"))
def _eigh_tridiagonal(d, e, tol, key, *, eigvals_only, select, select_range):
    alpha, beta = jnp.asarray(d), jnp.asarray(e)
    supported = (np.float32, np.float64, np.complex64, np.complex128)
    if alpha.dtype != beta.dtype:
        raise TypeError("diagonal and off-diagonal values must have same dtype, got "
                        f"{alpha.dtype} and {beta.dtype}")
    if alpha.dtype not in supported:
        raise TypeError("Only float32 and float64 inputs are supported as inputs to "
                        "jax.scipy.linalg.eigh_tridiagonal, got "
                        f"{alpha.dtype} and {beta.dtype}")
    n = alpha.shape[0]
    if n <= 1:
        real = ufuncs.real(alpha)
        return real if eigvals_only else (real, jnp.eye(n, dtype=alpha.dtype))
    if jnp.is_complex(alpha):
        alpha = ufuncs.real(alpha)
        beta_sq = ufuncs.real(beta * ufuncs.conjugate(beta))
        beta_abs = jnp.sqrt(beta_sq)
    else:
        beta_abs = jnp.abs(beta)
        beta_sq = jnp.square(beta)
    row_sum = jnp.concatenate([beta_abs[:1], beta_abs[:-1] + beta_abs[1:], beta_abs[-1:]])
    est_max = jnp.max(alpha + row_sum)
    est_min = jnp.min(alpha - row_sum)
    t_norm = jnp.maximum(jnp.abs(est_min), jnp.abs(est_max))
    finfo = np.finfo(alpha.dtype)
    one = np.ones([], dtype=alpha.dtype)
    safemin = np.maximum(one / finfo.max, (one + finfo.eps) * finfo.tiny)
    pivmin = safemin * jnp.maximum(1, jnp.max(beta_sq))
    alpha0_perturbation = jnp.square(finfo.eps * beta_abs[0])
    abs_tol = finfo.eps * t_norm
    if tol is not None:
        abs_tol = jnp.maximum(tol, abs_tol)
    max_it = finfo.nmant + 1
    if select == "a":
        targets = jnp.arange(n, dtype=np.int32)
    else:
        targets = jnp.arange(select_range[0], select_range[1] + 1, dtype=np.int32)
    fudge = 2.1
    slack = jnp.asarray(n, alpha.dtype) * fudge * finfo.eps * t_norm
    shape = targets.shape
    lower = jnp.broadcast_to(est_min - slack - 2 * fudge * pivmin, shape)
    upper = jnp.broadcast_to(est_max + slack + fudge * pivmin, shape)
    mid = 0.5 * (upper + lower)
    pivmin = jnp.broadcast_to(pivmin, shape)
    alpha0_perturbation = jnp.broadcast_to(alpha0_perturbation, shape)

    def going(args):
        i, lower, _, upper = args
        return jnp.logical_and(i < max_it, abs_tol < jnp.max(upper - lower))

    def body(args):
        i, lower, mid, upper = args
        counts = _sturm_counts(alpha, beta_sq, pivmin, alpha0_perturbation, mid)
        lower = jnp.where(counts <= targets, mid, lower)
        upper = jnp.where(counts > targets, mid, upper)
        return i + 1, lower, 0.5 * (lower + upper), upper

    _, _, mid, _ = while_loop(going, body, (jnp.asarray(0, np.int32), lower, mid, upper))
    if eigvals_only:
        return mid
    return mid, _mT(_tridiagonal_eigenvectors(alpha, beta, mid, key))

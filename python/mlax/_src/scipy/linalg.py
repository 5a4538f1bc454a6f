"""jax.scipy.linalg's compositions of existing linear algebra: expm (Padé
approximation with scaling and squaring, as JAX), block_diag, toeplitz and
hankel. The factorizations themselves live in mlax._src.numpy.linalg."""
from __future__ import annotations

import numpy as np


from mlax._src.lax import lax
from mlax._src.lax.control_flow import cond, scan, switch
from mlax._src.numpy import linalg as np_linalg
from mlax._src.numpy.util import _eager_jit
from mlax._src.numpy.lax_numpy import promote_dtypes
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
    if a.dtype not in _THETA:
        raise TypeError(f"A.dtype={a.dtype} is not supported.")
    degrees, bounds, max_norm = _THETA[a.dtype]
    norm = np_linalg.norm(a, 1)
    n_squarings = jnp.maximum(0, jnp.floor(jnp.log2(norm / max_norm)))
    a = a / (2 ** n_squarings).astype(a.dtype)
    index = digitize(norm, jnp.asarray(np.asarray(bounds, a.dtype)))
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
    c; r[0] is ignored) (jax.scipy.linalg.toeplitz); batched over leading axes."""
    if r is None:
        r = c
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

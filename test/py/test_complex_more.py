"""Complex input to the functions that took only real numbers until JAX's
complex results were matched: arctan2 / lax.atan2, fmax, fmin, sinc,
lax.cumprod / cummax / cummin, logaddexp(2) and the nn functions on it
(softplus, log_sigmoid, mish), logsumexp / logmeanexp, expit, logit, xlogy,
xlog1py, boxcox(1p), gamma, loggamma, cov / corrcoef, poly of a matrix;
and the lexicographic order of complex values they rest on (lax.max / min,
the ordered comparisons, lax.reduce_max / reduce_min, scatter_max /
scatter_min).

One jitted program computes the whole table for mlax and one for JAX
(complex64, then complex128 under x64), edge values included (zeros, poles,
the negative real axis, infinities, NaNs, ties of real parts); values,
dtypes and weak types must agree. Then some of the calls eagerly, and the
derivatives: holomorphic grad, grad of a real function of complex input,
jvp where JAX's reverse mode fails (loggamma's while loop); and vmap."""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from _helpers import x64

import mlax
import mlax.numpy as mnp

J = (jnp, jax.lax, jax.nn, jax.scipy.special)
M = (mnp, mlax.lax, mlax.nn, mlax.scipy.special)
NAN, INF = np.nan, np.inf

# Generic points (rows) and edge values (the last row): 0, a pole of Gamma,
# the negative real axis, a tie of real parts with the row above, 1, NaN.
Z = np.array([[1.26 + 2.35j, -0.5 + 0.25j, 2.5 - 1.5j, 0.3 - 0.7j, -1.2 - 0.4j, 0.8 + 0.1j],
              [0.2 + 1.1j, 1.5 - 0.3j, -0.7 + 0.9j, 0.4 + 0.4j, -2.2 + 1.3j, 1.1 - 1.9j],
              [0j, -1 + 0j, -2.5 + 0j, 0.4 - 3j, 1 + 0j, complex(NAN, 0)]])
W = np.array([[0.5 - 0.5j, 1.0 + 0.0j, -0.3 + 2.0j, 0.3 + 0.2j, 0.9 - 1.1j, -1.5 + 0.5j],
              [1.7 + 0.2j, -0.6 - 0.8j, 0.25 + 0.5j, 0.4 - 0.1j, 2.0 + 0.0j, -0.2 - 0.3j],
              [0j, complex(-INF, 0), 0j, 0.4 + 0.6j, complex(NAN, NAN), 0.5 + 0.5j]])


def _table(lib, z, w, names=None):
    """name -> value of each call on complex z, w (same shape); only `names`
    when given."""
    np_, lax, nn, sp = lib
    zs, ws = z[:2], w[:2]  # the generic rows: no NaN in a reduction
    calls = {
        "arctan2": lambda: np_.arctan2(z, w),
        "lax.atan2": lambda: lax.atan2(z, w),
        "fmax": lambda: np_.fmax(z, w),
        "fmin": lambda: np_.fmin(z, w),
        "maximum": lambda: np_.maximum(z, w),
        "minimum": lambda: np_.minimum(z, w),
        "maximum ties": lambda: np_.maximum(z, z.real + 1j * w.imag),
        "greater_equal": lambda: np_.greater_equal(z, w),
        "less": lambda: np_.less(z, w),
        "sinc": lambda: np_.sinc(z),
        "cumprod": lambda: lax.cumprod(zs),
        "cumprod axis 1 reverse": lambda: lax.cumprod(zs, 1, True),
        # (no NaN: with NaNs JAX's complex cummax / cummin / reduce_max give
        # whatever the order of its fold picks, mlax's what its scan's or
        # sort's picks)
        "cummax": lambda: lax.cummax(z[:, :5], 1),
        "cummin reverse": lambda: lax.cummin(z[:, :5], 0, True),
        "cummax ties": lambda: lax.cummax(z[1:, 3:5], 0),
        "maximum.accumulate": lambda: np_.maximum.accumulate(z[:, :5], axis=1),
        "reduce_max": lambda: lax.reduce_max(z[:, :5], (1,)),
        "reduce_min": lambda: lax.reduce_min(z[:, :5], (0,)),
        "reduce_max of none": lambda: lax.reduce_max(z[:, :0], (1,)),
        "reduce max from": lambda: lax.reduce(z[:, :5], np.asarray(1 + 0.5j, z.dtype), lax.max,
                                              (1,)),
        # repeated indices, one out of bounds (dropped), ties of real parts
        "at max": lambda: z[1].at[np.array([0, 3, 0, 3, 9])].max(w[1, :5]),
        "at min": lambda: zs.at[:, np.array([1, 1, 4])].min(ws[:, 1:4]),
        "logaddexp": lambda: np_.logaddexp(z, w),
        "logaddexp2": lambda: np_.logaddexp2(z, w),
        "softplus": lambda: nn.softplus(z),
        "log_sigmoid": lambda: nn.log_sigmoid(z),
        "mish": lambda: nn.mish(z),
        "logsumexp": lambda: nn.logsumexp(zs),
        "logsumexp axis 1 b": lambda: nn.logsumexp(zs, 1, b=ws.real),
        "logsumexp -inf": lambda: sp.logsumexp(w[2, :3]),
        "logsumexp return_sign": lambda: sp.logsumexp(zs, axis=0, return_sign=True),
        "logsumexp where": lambda: nn.logsumexp(zs, where=zs.real > 0),
        "logmeanexp": lambda: nn.logmeanexp(zs, axis=0),
        "expit": lambda: sp.expit(z),
        "logit": lambda: sp.logit(z),
        "xlogy": lambda: sp.xlogy(z, w),
        "xlog1py": lambda: sp.xlog1py(z, w),
        "boxcox": lambda: sp.boxcox(z, w),
        "boxcox1p": lambda: sp.boxcox1p(z, w),
        "gamma": lambda: sp.gamma(z),
        "loggamma": lambda: sp.loggamma(z),
        "loggamma far left": lambda: sp.loggamma(z - 6.0),
        "cov": lambda: np_.cov(zs),
        "corrcoef": lambda: np_.corrcoef(zs),
        "corrcoef x y": lambda: np_.corrcoef(zs, ws),
        "poly": lambda: np_.poly(zs[0]),
        "poly of a matrix": lambda: np_.poly(zs[:, :2]),
    }
    return {k: f() for k, f in calls.items() if names is None or k in names}


EAGER = ("arctan2", "fmax", "sinc", "cumprod", "softplus", "logsumexp", "gamma", "loggamma",
         "corrcoef", "poly of a matrix")


def _parts(x):
    x = np.asarray(x)
    return np.stack([x.real, x.imag]) if np.iscomplexobj(x) else x


def _compare(got, want, rtol, atol, where=""):
    assert set(got) == set(want)
    for name in want:
        for g, w in zip(jax.tree_util.tree_leaves(got[name]),
                        jax.tree_util.tree_leaves(want[name])):
            label = f"{name}{where}"
            assert (g.dtype, g.weak_type, g.shape) == (w.dtype, w.weak_type, w.shape), (
                label, g.dtype, g.weak_type, g.shape, w.dtype, w.weak_type, w.shape)
            # Real and imaginary parts each: NaNs, infinities and signs of
            # infinite parts where JAX has them.
            np.testing.assert_allclose(_parts(g), _parts(w), rtol=rtol, atol=atol,
                                       err_msg=label)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_values_match_jax(dtype):
    rtol, atol = (2e-5, 1e-5) if dtype == np.complex64 else (1e-12, 1e-12)
    with x64() if dtype == np.complex128 else _nothing():
        z, w = Z.astype(dtype), W.astype(dtype)
        want = jax.jit(lambda z, w: _table(J, z, w))(z, w)
        got = mlax.jit(lambda z, w: _table(M, z, w))(z, w)
        _compare(got, want, rtol, atol)
        if dtype == np.complex64:  # eagerly (one dispatch a call: a few of them)
            _compare(_table(M, z, w, EAGER), {k: want[k] for k in EAGER}, rtol, atol,
                     " (eager)")


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


# Holomorphic functions of one complex argument (the others fixed at W's
# generic rows): JAX's grad(holomorphic=True) of their sum.
HOLOMORPHIC = {
    "arctan2": lambda L, z, w: L[0].arctan2(z, w), "sinc": lambda L, z, w: L[0].sinc(z),
    "cumprod": lambda L, z, w: L[1].cumprod(z, 1),
    "logaddexp": lambda L, z, w: L[0].logaddexp(z, w),
    "softplus": lambda L, z, w: L[2].softplus(z), "mish": lambda L, z, w: L[2].mish(z),
    "logsumexp": lambda L, z, w: L[2].logsumexp(z, 0),
    "expit": lambda L, z, w: L[3].expit(z), "logit": lambda L, z, w: L[3].logit(z),
    "xlogy": lambda L, z, w: L[3].xlogy(w, z), "xlog1py": lambda L, z, w: L[3].xlog1py(w, z),
    "boxcox": lambda L, z, w: L[3].boxcox(z, w), "gamma": lambda L, z, w: L[3].gamma(z),
}


def _transformed(lib, grad, jvp, vmap, z, w):
    out = {name: grad(lambda z: f(lib, z, w).sum(), holomorphic=True)(z)
           for name, f in HOLOMORPHIC.items()}
    # Real functions of complex input (grad conjugated, as JAX's).
    out["|fmax|^2"] = grad(lambda z: (abs(lib[0].fmax(z, w)) ** 2).sum())(z)
    out["|cummax|"] = grad(lambda z: abs(lib[1].cummax(z, 1)).sum())(z)
    out["re loggamma"] = jvp(lambda z: lib[3].loggamma(z), (z,), (w,))[1]
    # vmap: loggamma's while loop with a batched predicate, the scan of
    # cummax over a mapped axis, poly of a batch of matrices.
    out["vmap loggamma"] = vmap(lib[3].loggamma)(z - 3.0)
    out["vmap cummax"] = vmap(lib[1].cummax, in_axes=1, out_axes=1)(z)
    out["vmap logsumexp"] = vmap(lib[2].logsumexp)(z)
    out["vmap poly"] = vmap(lib[0].poly)(lib[0].stack([z[:, :2].T, w[:, :2].T]))
    return out


def test_derivatives_and_vmap_match_jax():
    z, w = Z[:2].astype(np.complex64), W[:2].astype(np.complex64)
    want = jax.jit(lambda z, w: _transformed(J, jax.grad, jax.jvp, jax.vmap, z, w))(z, w)
    got = mlax.jit(lambda z, w: _transformed(M, mlax.grad, mlax.jvp, mlax.vmap, z, w))(z, w)
    _compare(got, want, 1e-4, 1e-5)


def test_what_stays_refused():
    # JAX's owens_t runs on complex input, but its values are not Owen's T
    # (the defining integral of T(-0.5+0.25j, 1) is 0.1095+0.0175j; JAX
    # gives 0.1025+0j): mlax keeps scipy.special's ValueError.
    with pytest.raises(ValueError, match="owens_t does not support complex"):
        mlax.scipy.special.owens_t(np.complex64(-0.5 + 0.25j), np.complex64(1))
    with pytest.raises(TypeError, match="lax.cummax.*bool"):
        mlax.lax.cummax(np.ones(3, bool))

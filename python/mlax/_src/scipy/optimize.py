"""jax.scipy.optimize.minimize with method='BFGS' (and JAX's experimental
L-BFGS, 'l-bfgs-experimental-do-not-rely-on-this', on the same line search): the BFGS quasi-Newton
iteration with a strong-Wolfe line search (bracketing, then zoom by cubic /
quadratic interpolation or bisection; Nocedal & Wright, Algorithms 3.5 and
3.6), the same algorithm and constants as JAX's, so iterates, counts and
status codes agree. Each loop is one while_loop; the states are dicts of
arrays, and a branch's update is a `where` over the whole state."""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from mlax._src.lax.control_flow import fori_loop, while_loop
from mlax._src.lax.linalg import Precision
from mlax._src.numpy import linalg as np_linalg
from mlax._src.numpy.array_creation import eye
from mlax._src.numpy.lax_numpy import asarray, stack, where
from mlax._src.numpy.tensor_contractions import dot
from mlax._src.numpy.ufuncs import abs as np_abs
from mlax._src.numpy.manipulation import roll
from mlax._src.numpy.ufuncs import conjugate, isfinite, logical_not, maximum, minimum, real, sign, sqrt
from mlax._src.numpy.util import _promote_inexact
from mlax._src.transforms.autodiff import value_and_grad


class OptimizeResults(NamedTuple):
    """The result of minimize, as jax.scipy.optimize.OptimizeResults."""
    x: object
    success: object
    status: object
    fun: object
    jac: object
    hess_inv: object
    nfev: object
    njev: object
    nit: object


def _dot(a, b):
    return dot(a, b, precision=Precision.HIGHEST)


def _pick(cond, new, old, keys=None):
    return {k: where(cond, new[k], old[k]) for k in (keys if keys is not None else new)}


def _i32(v):
    # A weakly typed integer, as JAX's Python-int counters and status codes
    # (nfev, njev, nit and status come back weakly typed).
    return asarray(int(v))


def _cubicmin(a, fa, fpa, b, fb, c, fc):
    db, dc = b - a, c - a
    denom = (db * dc) ** 2 * (db - dc)
    # A and B as one 2x2 matrix-vector product at HIGHEST precision, as JAX:
    # on a near-quadratic phi, A is a cancellation near 0 and the minimizer
    # its rounding's amplification, so only the same arithmetic gives the
    # same zoom steps (elementwise products and a subtraction took another
    # step on Rosenbrock's first line search).
    r = stack([fb - fa - fpa * db, fc - fa - fpa * dc])
    d1 = stack([stack([dc ** 2, -db ** 2]), stack([-dc ** 3, db ** 3])])
    big_a, big_b = _dot(d1, r) / denom
    return a + (-big_b + sqrt(big_b * big_b - 3.0 * big_a * fpa)) / (3.0 * big_a)


def _quadmin(a, fa, fpa, b, fb):
    db = b - a
    return a - fpa / (2.0 * ((fb - fa - fpa * db) / db ** 2))


def _zoom(phi_grad, wolfe1, wolfe2, lo, hi, g0, skip):
    """Zoom between (a_lo, phi_lo, dphi_lo) and (a_hi, ...) to a strong-Wolfe step."""
    dt = lo[0].dtype
    st = dict(done=asarray(False), failed=asarray(False), j=_i32(0),
              a_lo=lo[0], phi_lo=lo[1], dphi_lo=lo[2], a_hi=hi[0], phi_hi=hi[1], dphi_hi=hi[2],
              a_rec=(lo[0] + hi[0]) / 2.0, phi_rec=(lo[1] + hi[1]) / 2.0,
              a_star=asarray(1.0).astype(dt), phi_star=lo[1], dphi_star=lo[2], g_star=g0,
              nfev=_i32(0), ngev=_i32(0))
    threshold = 1e-5 if np.finfo(np.dtype(dt)).bits < 64 else 1e-10

    def body(s):
        s = dict(s)
        dalpha = s["a_hi"] - s["a_lo"]
        a, b = minimum(s["a_hi"], s["a_lo"]), maximum(s["a_hi"], s["a_lo"])
        s["failed"] = s["failed"] | (dalpha <= threshold)
        cubic = _cubicmin(s["a_lo"], s["phi_lo"], s["dphi_lo"], s["a_hi"], s["phi_hi"],
                          s["a_rec"], s["phi_rec"])
        use_cubic = (s["j"] > 0) & (cubic > a + 0.2 * dalpha) & (cubic < b - 0.2 * dalpha)
        quad = _quadmin(s["a_lo"], s["phi_lo"], s["dphi_lo"], s["a_hi"], s["phi_hi"])
        use_quad = ~use_cubic & (quad > a + 0.1 * dalpha) & (quad < b - 0.1 * dalpha)
        a_j = where(use_cubic, cubic, where(use_quad, quad, (s["a_lo"] + s["a_hi"]) / 2.0))
        phi_j, dphi_j, g_j = phi_grad(a_j)
        s["nfev"] = s["nfev"] + 1
        s["ngev"] = s["ngev"] + 1
        hi_to_j = wolfe1(a_j, phi_j) | (phi_j >= s["phi_lo"])
        star_to_j = wolfe2(dphi_j) & ~hi_to_j
        hi_to_lo = (dphi_j * (s["a_hi"] - s["a_lo"]) >= 0.0) & ~hi_to_j & ~star_to_j
        lo_to_j = ~hi_to_j & ~star_to_j
        s.update(_pick(hi_to_j, dict(a_hi=a_j, phi_hi=phi_j, dphi_hi=dphi_j, a_rec=s["a_hi"],
                                     phi_rec=s["phi_hi"]), s))
        s["done"] = star_to_j | s["done"]
        s.update(_pick(star_to_j, dict(a_star=a_j, phi_star=phi_j, dphi_star=dphi_j,
                                       g_star=g_j), s))
        s.update(_pick(hi_to_lo, dict(a_hi=s["a_lo"], phi_hi=s["phi_lo"], dphi_hi=s["dphi_lo"],
                                      a_rec=s["a_hi"], phi_rec=s["phi_hi"]), s))
        s.update(_pick(lo_to_j & ~hi_to_lo, dict(a_rec=s["a_lo"], phi_rec=s["phi_lo"]), s))
        s.update(_pick(lo_to_j, dict(a_lo=a_j, phi_lo=phi_j, dphi_lo=dphi_j), s))
        s["j"] = s["j"] + 1
        s["failed"] = s["failed"] | (s["j"] >= 30)
        return s

    return while_loop(lambda s: ~s["done"] & ~skip & ~s["failed"], body, st)


def _line_search(f, xk, pk, old_fval, old_old_fval, gfk, c1=1e-4, c2=0.9, maxiter=20):
    def phi_grad(t):
        phi, g = value_and_grad(f)(xk + t.astype(pk.dtype) * pk)
        return phi, real(_dot(g, pk)), g

    phi_0, dphi_0 = old_fval, real(_dot(gfk, pk))
    if old_old_fval is None:  # (L-BFGS) the first trial step is 1
        start = asarray(1.0).astype(phi_0.dtype)
    else:
        cand = 1.01 * 2 * (phi_0 - old_old_fval) / dphi_0
        start = where(cand > 1, asarray(1.0).astype(cand.dtype), cand)

    def wolfe1(a, phi):
        return phi > phi_0 + c1 * a * dphi_0

    def wolfe2(dphi):
        return np_abs(dphi) <= -c2 * dphi_0

    dt = phi_0.dtype
    st = dict(done=asarray(False), failed=asarray(False), i=_i32(1),
              a_i1=asarray(0.0).astype(dt), phi_i1=phi_0, dphi_i1=dphi_0, nfev=_i32(0),
              ngev=_i32(0), a_star=asarray(0.0).astype(dt), phi_star=phi_0, dphi_star=dphi_0,
              g_star=gfk)
    keys = ("a_star", "phi_star", "dphi_star", "g_star")

    def body(s):
        s = dict(s)
        a_i = where(s["i"] == 1, start, s["a_i1"] * 2.0).astype(dt)
        phi_i, dphi_i, g_i = phi_grad(a_i)
        s["nfev"] = s["nfev"] + 1
        s["ngev"] = s["ngev"] + 1
        to_zoom1 = wolfe1(a_i, phi_i) | ((phi_i >= s["phi_i1"]) & (s["i"] > 1))
        to_i = wolfe2(dphi_i) & ~to_zoom1
        to_zoom2 = (dphi_i >= 0.0) & ~to_zoom1 & ~to_i
        z1 = _zoom(phi_grad, wolfe1, wolfe2, (s["a_i1"], s["phi_i1"], s["dphi_i1"]),
                   (a_i, phi_i, dphi_i), gfk, ~to_zoom1)
        z2 = _zoom(phi_grad, wolfe1, wolfe2, (a_i, phi_i, dphi_i),
                   (s["a_i1"], s["phi_i1"], s["dphi_i1"]), gfk, ~to_zoom2)
        s["nfev"] = s["nfev"] + z1["nfev"] + z2["nfev"]
        s["ngev"] = s["ngev"] + z1["ngev"] + z2["ngev"]
        s["done"] = to_zoom1 | s["done"]
        s["failed"] = (to_zoom1 & z1["failed"]) | s["failed"]
        s.update(_pick(to_zoom1, z1, s, keys))
        s["done"] = to_i | s["done"]
        s.update(_pick(to_i, dict(a_star=a_i, phi_star=phi_i, dphi_star=dphi_i, g_star=g_i), s))
        s["done"] = to_zoom2 | s["done"]
        s["failed"] = (to_zoom2 & z2["failed"]) | s["failed"]
        s.update(_pick(to_zoom2, z2, s, keys))
        s.update(i=s["i"] + 1, a_i1=a_i, phi_i1=phi_i, dphi_i1=dphi_i)
        return s

    s = while_loop(lambda s: ~s["done"] & (s["i"] <= maxiter) & ~s["failed"], body, st)
    status = where(s["failed"], _i32(1), where(s["i"] > maxiter, _i32(3), _i32(0)))
    a_k = s["a_star"]
    if np.finfo(np.dtype(a_k.dtype)).bits != 64:
        a_k = where(np_abs(a_k) < 1e-8, sign(a_k) * 1e-8, a_k)
    return dict(failed=s["failed"] | ~s["done"], nfev=s["nfev"], ngev=s["ngev"], a_k=a_k,
                f_k=s["phi_star"], g_k=s["g_star"], status=status)


def _bfgs(fun, x0, maxiter=None, norm=np.inf, gtol=1e-5, line_search_maxiter=10):
    if maxiter is None:
        maxiter = np.size(x0) * 200
    d = x0.shape[0]
    f0, g0 = value_and_grad(fun)(x0)
    st = dict(converged=np_linalg.norm(g0, ord=norm) < gtol, failed=asarray(False), k=_i32(0),
              nfev=_i32(1), ngev=_i32(1), x=x0, f=f0, g=g0, H=eye(d, dtype=x0.dtype),
              old_old=f0 + np_linalg.norm(g0) / 2, ls_status=_i32(0))

    def body(s):
        s = dict(s)
        p = -_dot(s["H"], s["g"])
        ls = _line_search(fun, s["x"], p, s["f"], s["old_old"], s["g"],
                          maxiter=line_search_maxiter)
        s_k = ls["a_k"].astype(p.dtype) * p
        y_k = ls["g_k"] - s["g"]
        rho = 1.0 / _dot(y_k, s_k)
        w = eye(d, dtype=rho.dtype) - rho * (s_k[:, None] * y_k[None, :])
        h_new = (_dot(_dot(w, s["H"]), w.T) + rho * s_k[:, None] * s_k[None, :])
        s.update(nfev=s["nfev"] + ls["nfev"], ngev=s["ngev"] + ls["ngev"], failed=ls["failed"],
                 ls_status=ls["status"], H=where(isfinite(rho), h_new, s["H"]),
                 converged=np_linalg.norm(ls["g_k"], ord=norm) < gtol, k=s["k"] + 1,
                 x=s["x"] + s_k, f=ls["f_k"], g=ls["g_k"], old_old=s["f"])
        return s

    s = while_loop(lambda s: logical_not(s["converged"]) & logical_not(s["failed"])
                   & (s["k"] < maxiter), body, st)
    status = where(s["converged"], _i32(0), where(s["k"] == maxiter, _i32(1),
                                                  where(s["failed"], 2 + s["ls_status"],
                                                        _i32(-1))))
    return s, status


def _two_loop_recursion(s, maxcor):
    # The L-BFGS direction from the last min(k, maxcor) (s, y, rho) pairs
    # (Nocedal & Wright, Algorithm 7.4), the newest last in the histories.
    dtype = s["rho"].dtype
    curr = where(s["k"] < maxcor, s["k"], _i32(maxcor))
    q = -conjugate(s["g"])

    def body1(j, carry):
        i = maxcor - 1 - j
        q, a_his = carry
        a_i = s["rho"][i] * real(_dot(conjugate(s["s_his"][i]), q)).astype(dtype)
        return q - a_i * conjugate(s["y_his"][i]), a_his.at[i].set(a_i)

    q, a_his = fori_loop(0, curr, body1, (q, s["rho"] * 0))
    q = s["gamma"] * q

    def body2(j, q):
        i = maxcor - curr + j
        b_i = s["rho"][i] * real(_dot(s["y_his"][i], q)).astype(dtype)
        return q + (a_his[i] - b_i) * s["s_his"][i]

    return fori_loop(0, curr, body2, q)


def _push(history, new):
    return roll(history, -1, axis=0).at[-1].set(new)


def _lbfgs(fun, x0, maxiter=None, norm=np.inf, maxcor=10, ftol=2.220446049250313e-09,
           gtol=1e-05, maxfun=None, maxgrad=None, maxls=20):
    """JAX's experimental L-BFGS (method 'l-bfgs-experimental-do-not-rely-on-this'):
    the same iteration, line search, limits and status codes (1: maxiter,
    2: maxfun, 3: maxgrad, 4: f decreased by less than ftol, 5: line search
    failed)."""
    d = x0.shape[0]
    dtype = x0.dtype
    if maxiter is None and maxfun is None and maxgrad is None:
        maxiter = d * 200
    maxiter = np.inf if maxiter is None else maxiter
    maxfun = np.inf if maxfun is None else maxfun
    maxgrad = np.inf if maxgrad is None else maxgrad
    f0, g0 = value_and_grad(fun)(x0)
    st = dict(converged=asarray(False), failed=asarray(False), k=asarray(0), nfev=asarray(1),
              ngev=asarray(1), x=x0, f=f0, g=g0, s_his=asarray(np.zeros((maxcor, d), dtype)),
              y_his=asarray(np.zeros((maxcor, d), dtype)),
              rho=asarray(np.zeros((maxcor,), dtype)), gamma=asarray(1.0).astype(g0.dtype),
              status=asarray(0), ls_status=_i32(0))

    def body(s):
        s = dict(s)
        p = _two_loop_recursion(s, maxcor)
        ls = _line_search(fun, s["x"], p, s["f"], None, s["g"], maxiter=maxls)
        s_k = ls["a_k"].astype(p.dtype) * p
        f1, g1 = ls["f_k"], ls["g_k"]
        y_k = g1 - s["g"]
        rho_inv = real(_dot(y_k, s_k))
        rho_k = (1.0 / rho_inv).astype(y_k.dtype)
        gamma = rho_inv / real(_dot(conjugate(y_k), y_k))
        status = asarray(0)
        status = where(s["f"] - f1 < ftol, 4, status)
        status = where(s["ngev"] >= maxgrad, 3, status)
        status = where(s["nfev"] >= maxfun, 2, status)
        status = where(s["k"] >= maxiter, 1, status)
        status = where(ls["failed"], 5, status)
        converged = np_linalg.norm(g1, ord=norm) < gtol
        s.update(converged=converged, failed=(status > 0) & ~converged, k=s["k"] + 1,
                 nfev=s["nfev"] + ls["nfev"], ngev=s["ngev"] + ls["ngev"],
                 x=(s["x"] + s_k).astype(s["x"].dtype), f=f1.astype(s["f"].dtype),
                 g=g1.astype(s["g"].dtype), s_his=_push(s["s_his"], s_k),
                 y_his=_push(s["y_his"], y_k), rho=_push(s["rho"], rho_k),
                 gamma=gamma.astype(s["g"].dtype), status=where(converged, 0, status),
                 ls_status=ls["status"])
        return s

    return while_loop(lambda s: ~s["converged"] & ~s["failed"], body, st)


def minimize(fun, x0, args=(), *, method, tol=None, options=None):
    if options is None:
        options = {}
    if not isinstance(args, tuple):
        raise TypeError("args argument to jax.scipy.optimize.minimize must be a tuple, got "
                        f"{args}")
    (x0,) = _promote_inexact("minimize", asarray(x0))
    x0 = asarray(x0)
    if method.lower() == "l-bfgs-experimental-do-not-rely-on-this":
        s = _lbfgs(lambda x: fun(x, *args), x0, **options)
        return OptimizeResults(x=s["x"], success=s["converged"] & logical_not(s["failed"]),
                               status=s["status"], fun=s["f"], jac=s["g"], hess_inv=None,
                               nfev=s["nfev"], njev=s["ngev"], nit=s["k"])
    if method.lower() != "bfgs":
        raise ValueError(f"Method {method} not recognized")
    s, status = _bfgs(lambda x: fun(x, *args), x0, **options)
    return OptimizeResults(x=s["x"], success=s["converged"] & logical_not(s["failed"]),
                           status=status, fun=s["f"], jac=s["g"], hess_inv=s["H"],
                           nfev=s["nfev"], njev=s["ngev"], nit=s["k"])

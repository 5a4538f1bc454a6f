"""jax.experimental.ode: odeint, the adaptive-step Dormand-Prince (Runge-Kutta
4(5)) integrator, with JAX's reverse-mode rule: the adjoint method (the
augmented system integrated backwards between the output times, Appendix C
of arXiv:1806.07366) as a custom_vjp. The step, error-control, initial-step
and dense-output pieces are JAX's, with the same constants, so trajectories
agree step for step."""
from __future__ import annotations

import functools
import operator

import numpy as np

from mlax._src.base import dtypes
from mlax._src.base.tree import tree_leaves, tree_map
from mlax._src.core import tracer as core
from mlax._src.core.primitives import aval_of
from mlax._src.flatten_util import ravel_pytree
from mlax._src.jit.api import jit
from mlax._src.lax.control_flow import fori_loop, scan, while_loop
from mlax._src.lax.linalg import Precision
from mlax._src.numpy import linalg as np_linalg
from mlax._src.numpy.array_creation import arange
from mlax._src.numpy.lax_numpy import array, asarray, concatenate, where, zeros, zeros_like
from mlax._src.numpy.polynomial import polyval
from mlax._src.numpy.reductions import mean
from mlax._src.numpy.tensor_contractions import dot
from mlax._src.numpy.ufuncs import abs as np_abs
from mlax._src.numpy.ufuncs import clip, iscomplexobj, maximum, minimum, sqrt
from mlax._src.numpy.util import _promote_inexact
from mlax._src.transforms.autodiff import closure_convert, custom_vjp, vjp
from mlax._src.transforms.vmap import vmap

# JAX runs odeint under default_matmul_precision("highest"); mlax names it
# on every product instead.
_dot = functools.partial(dot, precision=Precision.HIGHEST)


def ravel_first_arg(f, unravel, debug_info=None):
    """`f(y, *args)` as a function of y's flat vector (`unravel` rebuilds
    y) returning its result's flat vector."""
    del debug_info  # JAX's tracing metadata; mlax names functions itself

    def raveled(y_flat, *args):
        return ravel_pytree(f(unravel(y_flat), *args))[0]
    return raveled


def interp_fit_dopri(y0, y1, k, dt):
    """The coefficients of the 4th-order polynomial interpolating a
    Dormand-Prince step (dense output)."""
    dps_c_mid = array([
        6025192743 / 30085553152 / 2, 0, 51252292925 / 65400821598 / 2,
        -2691868925 / 45128329728 / 2, 187940372067 / 1594534317056 / 2,
        -1776094331 / 19743644256 / 2, 11237099 / 235043384 / 2], dtype=y0.dtype)
    y_mid = y0 + dt.astype(y0.dtype) * _dot(dps_c_mid, k)
    return asarray(fit_4th_order_polynomial(y0, y1, y_mid, k[0], k[-1], dt))


def fit_4th_order_polynomial(y0, y1, y_mid, dy0, dy1, dt):
    """(a, b, c, d, e) of the quartic through y0, y_mid, y1 with slopes dy0,
    dy1 at the ends, over the step [0, 1] scaled by dt."""
    dt = dt.astype(y0.dtype)
    a = -2. * dt * dy0 + 2. * dt * dy1 - 8. * y0 - 8. * y1 + 16. * y_mid
    b = 5. * dt * dy0 - 3. * dt * dy1 + 18. * y0 + 14. * y1 - 32. * y_mid
    c = -4. * dt * dy0 + dt * dy1 - 11. * y0 - 5. * y1 + 16. * y_mid
    d = dt * dy0
    e = y0
    return a, b, c, d, e


def initial_step_size(fun, t0, y0, order, rtol, atol, f0):
    """The first step's size (Hairer, Norsett and Wanner, Solving Ordinary
    Differential Equations I, Sec. II.4)."""
    y0, f0 = _promote_inexact("initial_step_size", y0, f0)
    y0, f0 = asarray(y0), asarray(f0)
    dtype = y0.dtype
    scale = atol + np_abs(y0) * rtol
    d0 = np_linalg.norm(y0 / scale.astype(dtype))
    d1 = np_linalg.norm(f0 / scale.astype(dtype))
    h0 = where((d0 < 1e-5) | (d1 < 1e-5), 1e-6, 0.01 * d0 / d1)
    y1 = y0 + h0.astype(dtype) * f0
    f1 = fun(y1, t0 + h0)
    d2 = np_linalg.norm((f1 - f0) / scale.astype(dtype)) / h0
    h1 = where((d1 <= 1e-15) & (d2 <= 1e-15), maximum(1e-6, h0 * 1e-3),
               (0.01 / maximum(d1, d2)) ** (1. / (order + 1.)))
    return minimum(100. * h0, h1)


def runge_kutta_step(func, y0, f0, t0, dt):
    """One Dormand-Prince step: (y1, f1, the error estimate, the 7 stages)."""
    alpha = array([1 / 5, 3 / 10, 4 / 5, 8 / 9, 1., 1., 0], dtype=dt.dtype)
    beta = array(
        [[1 / 5, 0, 0, 0, 0, 0, 0], [3 / 40, 9 / 40, 0, 0, 0, 0, 0],
         [44 / 45, -56 / 15, 32 / 9, 0, 0, 0, 0],
         [19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729, 0, 0, 0],
         [9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656, 0, 0],
         [35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84, 0]], dtype=f0.dtype)
    c_sol = array([35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84, 0],
                  dtype=f0.dtype)
    c_error = array([
        35 / 384 - 1951 / 21600, 0, 500 / 1113 - 22642 / 50085, 125 / 192 - 451 / 720,
        -2187 / 6784 - -12231 / 42400, 11 / 84 - 649 / 6300, -1. / 60.], dtype=f0.dtype)

    def body_fun(i, k):
        ti = t0 + dt * alpha[i - 1]
        yi = y0 + dt.astype(f0.dtype) * _dot(beta[i - 1, :], k)
        return k.at[i, :].set(func(yi, ti))

    k = zeros((7, f0.shape[0]), f0.dtype).at[0, :].set(f0)
    k = fori_loop(1, 7, body_fun, k)
    y1 = dt.astype(f0.dtype) * _dot(c_sol, k) + y0
    y1_error = dt.astype(f0.dtype) * _dot(c_error, k)
    return y1, k[-1], y1_error, k


def abs2(x):
    """|x|^2 elementwise (real and complex)."""
    if iscomplexobj(x):
        return x.real ** 2 + x.imag ** 2
    return x ** 2


def mean_error_ratio(error_estimate, rtol, atol, y0, y1):
    """The RMS of the error estimate over the mixed tolerance."""
    err_tol = atol + rtol * maximum(np_abs(y0), np_abs(y1))
    err_ratio = error_estimate / err_tol.astype(error_estimate.dtype)
    return sqrt(mean(abs2(err_ratio)))


def optimal_step_size(last_step, mean_error_ratio, safety=0.9, ifactor=10.0, dfactor=0.2,
                      order=5.0):
    """The next step's size from the last one and its error ratio."""
    dfactor = where(mean_error_ratio < 1, 1.0, dfactor)
    factor = minimum(ifactor, maximum(mean_error_ratio ** (-1.0 / order) * safety, dfactor))
    return where(mean_error_ratio == 0, last_step * ifactor, last_step * factor)


def _is_array_or_scalar(x):
    return dtypes.is_python_scalar(x) or isinstance(x, np.generic) or (
        hasattr(x, "dtype") and hasattr(x, "shape"))


def odeint(func, y0, t, *args, rtol=1.4e-8, atol=1.4e-8, mxstep=np.inf, hmax=np.inf):
    """Integrates dy/dt = func(y, t, *args) from y(t[0]) = y0 with adaptive
    Dormand-Prince steps, as jax.experimental.ode.odeint: `y0` an array or
    pytree, `t` strictly increasing float times; returns y at every t (a
    new leading axis of len(t)). `rtol`/`atol` bound the local error,
    `mxstep` the steps between two output times, `hmax` the step size.
    Reverse-mode derivatives (with respect to y0, t and args) integrate the
    adjoint system backwards."""
    for arg in tree_leaves(args):
        if not _is_array_or_scalar(arg):
            raise TypeError(
                f"The contents of odeint *args must be arrays or scalars, but got {arg}.")
    if not dtypes.is_float(aval_of(t).dtype):
        raise TypeError(f"t must be an array of floats, but got {t}.")
    if core.trace_stack():
        # The traced values func closes over become arguments of the custom_vjp.
        converted, consts = closure_convert(func, y0, t[0], *args)
    else:  # nothing to hoist; func itself keys the compiled program's cache
        converted, consts = func, []
    return _odeint_wrapper(converted, rtol, atol, mxstep, hmax, y0, t, *args, *consts)


@functools.partial(jit, static_argnums=(0, 1, 2, 3, 4))
def _odeint_wrapper(func, rtol, atol, mxstep, hmax, y0, ts, *args):
    y0, unravel = ravel_pytree(y0)
    func = ravel_first_arg(func, unravel)
    out = _odeint(func, rtol, atol, mxstep, hmax, y0, ts, *args)
    return vmap(unravel)(out)


@functools.partial(custom_vjp, nondiff_argnums=(0, 1, 2, 3, 4))
def _odeint(func, rtol, atol, mxstep, hmax, y0, ts, *args):
    def func_(y, t):
        return func(y, t, *args)

    def scan_fun(carry, target_t):
        def cond_fun(state):
            i, _, _, t, dt, _, _ = state
            return (t < target_t) & (i < mxstep) & (dt > 0)

        def body_fun(state):
            i, y, f, t, dt, last_t, interp_coeff = state
            next_y, next_f, next_y_error, k = runge_kutta_step(func_, y, f, t, dt)
            next_t = t + dt
            error_ratio = mean_error_ratio(next_y_error, rtol, atol, y, next_y)
            new_interp_coeff = interp_fit_dopri(y, next_y, k, dt)
            dt = clip(optimal_step_size(dt, error_ratio), min=0., max=hmax)
            new = [i + 1, next_y, next_f, next_t, dt, t, new_interp_coeff]
            old = [i + 1, y, f, t, dt, last_t, interp_coeff]
            return [where(error_ratio <= 1., n, o) for n, o in zip(new, old)]

        _, *carry = while_loop(cond_fun, body_fun, [0] + carry)
        _, _, t, _, last_t, interp_coeff = carry
        relative_output_time = (target_t - last_t) / (t - last_t)
        y_target = polyval(interp_coeff, relative_output_time.astype(interp_coeff.dtype))
        return carry, y_target

    f0 = func_(y0, ts[0])
    dt = clip(initial_step_size(func_, ts[0], y0, 4, rtol, atol, f0), min=0., max=hmax)
    interp_coeff = array([y0] * 5)
    init_carry = [y0, f0, ts[0], dt, ts[0], interp_coeff]
    _, ys = scan(scan_fun, init_carry, ts[1:])
    return concatenate((y0[None], ys))


def _odeint_fwd(func, rtol, atol, mxstep, hmax, y0, ts, *args):
    ys = _odeint(func, rtol, atol, mxstep, hmax, y0, ts, *args)
    return ys, (ys, ts, args)


def _odeint_rev(func, rtol, atol, mxstep, hmax, res, g):
    ys, ts, args = res

    def aug_dynamics(augmented_state, t, *args):
        """The system augmented with the adjoints of y, t and args; `t` is
        negated time (the augmented system runs backwards)."""
        y, y_bar, *_ = augmented_state
        y_dot, vjpfun = vjp(func, y, -t, *args)
        return (-y_dot, *vjpfun(y_bar))

    def scan_fun(carry, i):
        y_bar, t0_bar, args_bar = carry
        # The effect of moving the output time (real even for complex y).
        t_bar = _dot(func(ys[i], ts[i], *args), g[i]).real
        t0_bar = t0_bar - t_bar
        # The augmented system backwards to the previous output time.
        _, y_bar, t0_bar, args_bar = odeint(
            aug_dynamics, (ys[i], y_bar, t0_bar, args_bar), array([-ts[i], -ts[i - 1]]),
            *args, rtol=rtol, atol=atol, mxstep=mxstep, hmax=hmax)
        y_bar, t0_bar, args_bar = tree_map(operator.itemgetter(1), (y_bar, t0_bar, args_bar))
        y_bar = y_bar + g[i - 1]  # the gradient from this output
        return (y_bar, t0_bar, args_bar), t_bar

    init_carry = (g[-1], 0., tree_map(zeros_like, args))
    (y_bar, t0_bar, args_bar), rev_ts_bar = scan(
        scan_fun, init_carry, arange(len(ts) - 1, 0, -1))
    ts_bar = concatenate([array([t0_bar]), rev_ts_bar[::-1]])
    return (y_bar, ts_bar, *args_bar)


_odeint.defvjp(_odeint_fwd, _odeint_rev)

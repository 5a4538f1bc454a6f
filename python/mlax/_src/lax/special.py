"""lax's special functions without an op of their own: the regularized
incomplete gamma functions (igamma, igammac, igamma_grad_a,
random_gamma_grad), the regularized incomplete beta function (betainc; its
derivative in a and b, which JAX lacks, by central differences) and the
exponentially scaled modified Bessel functions (bessel_i0e, bessel_i1e).

JAX gives each of these a primitive lowered by a decomposition into
elementwise ops and while loops (XLA's math library: series and continued
fractions for igamma / betainc, Cephes' Chebyshev expansions for the Bessel
functions); here the decomposition is traced directly, and `custom_jvp`
carries the derivative JAX defines for the primitive, so grad never
differentiates through the loops. Strict as jax.lax: equal shapes and one
floating dtype; float16/bfloat16 are computed in float32.
"""
from __future__ import annotations

import functools
from fractions import Fraction
from math import comb

import numpy as np

from mlax._src.core.primitives import aval_of, shape_error
from mlax._src.lax.control_flow import while_loop
from mlax._src.lax.lax import (
    _check_kind, abs, add, bitwise_and, bitwise_not, bitwise_or, convert_element_type, div, eq,
    broadcast_in_dim, exp, expm1, full_like, ge, gt, le, log, log1p, lt, mul, ne, neg, reduce_or,
    rem, select, sign, sqrt, sub)
from mlax._src.lax.lax import max as max_, min as min_
from mlax._src.lax.math import digamma, erfc, lgamma
from mlax._src.transforms.autodiff import custom_jvp, jvp


def _c(like, value):
    """`value` as an array of `like`'s shape and dtype."""
    return full_like(like, value)


def _any(pred):
    """Whether any element of the bool array is true (a scalar)."""
    return reduce_or(pred, tuple(range(aval_of(pred).ndim)))


def _i32(value):
    return convert_element_type(value, np.int32)


def _bcast(scalar, like):
    """A scalar broadcast to `like`'s shape."""
    return broadcast_in_dim(scalar, aval_of(like).shape, ())


def _or(*preds):
    return functools.reduce(bitwise_or, preds)


def _isnan(x):
    return ne(x, x)


def _checked(name, *args):
    """Checks lax's strict signature; returns the working dtype (float32 for
    the 16-bit floats, whose constants the algorithms cannot carry)."""
    avals = [aval_of(a) for a in args]
    for a in avals:
        _check_kind(name, "real_float", a)
    first = avals[0]
    for a in avals[1:]:
        if a.dtype != first.dtype:
            raise shape_error(f"lax.{name}", "requires arguments to have the same dtypes, got "
                              + ", ".join(v.dtype.name for v in avals))
        if a.shape != first.shape:
            raise shape_error(f"lax.{name}", "requires arguments to have the same shape, got "
                              + " and ".join(str(v.shape) for v in avals))
    return np.dtype(np.float32) if first.dtype.itemsize < 4 else first.dtype


def _in_working_dtype(name, impl):
    """impl(*args, dtype=...) run in the working dtype, the result cast back."""
    def fn(*args):
        work = _checked(name, *args)
        avals = [aval_of(a) for a in args]
        weak = all(a.weak_type for a in avals)  # as an elementwise lax op's result
        args = [convert_element_type(a, work) for a in args]
        return convert_element_type(impl(*args, dtype=work), avals[0].dtype, weak_type=weak)
    return fn


# ---------------------------------------------------------------------------
# Incomplete gamma: a power series for x < max(1, a), else a continued
# fraction (XLA's math.cc / Cephes igam.c). Each loop also carries the
# derivative of its terms with respect to `a`, for igamma_grad_a and
# random_gamma_grad.
# ---------------------------------------------------------------------------

_VALUE, _DERIVATIVE, _SAMPLE_DERIVATIVE = "value", "derivative", "sample_derivative"
_MAX_ITERATIONS = 2000


def _igamma_series(ax, x, a, enabled, dtype, mode):
    eps = float(np.finfo(dtype).eps)

    def body(vals):
        enabled, r, c, ans, x, dc_da, dans_da = vals
        r = add(r, _c(r, 1))
        dc_da = sub(mul(dc_da, div(x, r)), div(mul(c, x), mul(r, r)))
        dans_da = add(dans_da, dc_da)
        c = mul(c, div(x, r))
        ans = add(ans, c)
        if mode == _VALUE:
            going = bitwise_and(enabled, gt(div(c, ans), _c(c, eps)))
        else:
            going = bitwise_and(enabled, gt(abs(div(dc_da, dans_da)), _c(c, eps)))
        new = (r, c, ans, x, dc_da, dans_da)
        return (going,) + tuple(select(enabled, n, o) for n, o in zip(new, vals[1:7]))

    init = (enabled, a, _c(a, 1), _c(a, 1), x, _c(a, 0), _c(a, 0),
            convert_element_type(0, np.int32))
    # At most _MAX_ITERATIONS terms (Cephes' MAXITER): the terms only start to
    # shrink once r passes about a + sqrt(a), and r + 1 rounds to r for a huge
    # a. Large a near x is the asymptotic expansion's (_temme) anyway.
    vals = while_loop(
        lambda v: bitwise_and(lt(v[7], convert_element_type(_MAX_ITERATIONS, np.int32)),
                              _any(v[0])),
        lambda v: body(v[:7]) + (add(v[7], convert_element_type(1, np.int32)),), init)
    ans, dans_da = vals[3], vals[6]
    if mode == _VALUE:
        return div(mul(ans, ax), a)
    dlogax_da = sub(log(x), digamma(add(a, _c(a, 1))))
    if mode == _DERIVATIVE:
        return div(mul(ax, add(mul(ans, dlogax_da), dans_da)), a)
    return div(neg(mul(add(dans_da, mul(ans, dlogax_da)), x)), a)


def _igammac_continued_fraction(ax, x, a, enabled, dtype, mode):
    eps = float(np.finfo(dtype).eps)

    def cond(vals):
        return bitwise_and(lt(vals[5], _c(vals[5], _MAX_ITERATIONS)), _any(vals[0]))

    def body(vals):
        (enabled, ans, t, y, z, c, pkm1, qkm1, pkm2, qkm2,
         dpkm2_da, dqkm2_da, dpkm1_da, dqkm1_da, dans_da) = vals
        c = add(c, _c(c, 1))  # the iteration count, a scalar
        y = add(y, _c(y, 1))
        z = add(z, _c(z, 2))
        cb = _bcast(c, y)
        yc = mul(y, cb)
        pk = sub(mul(pkm1, z), mul(pkm2, yc))
        qk = sub(mul(qkm1, z), mul(qkm2, yc))
        qk_nonzero = ne(qk, _c(qk, 0))
        r = div(pk, qk)
        t = select(qk_nonzero, abs(div(sub(ans, r), r)), _c(r, 1))
        ans = select(qk_nonzero, r, ans)
        dpk_da = add(sub(sub(mul(dpkm1_da, z), pkm1), mul(dpkm2_da, yc)), mul(pkm2, cb))
        dqk_da = add(sub(sub(mul(dqkm1_da, z), qkm1), mul(dqkm2_da, yc)), mul(qkm2, cb))
        dans_da_new = select(qk_nonzero, div(sub(dpk_da, mul(ans, dqk_da)), qk), dans_da)
        grad_change = select(qk_nonzero, abs(sub(dans_da_new, dans_da)), _c(dans_da, 1))
        pkm2, pkm1, qkm2, qkm1 = pkm1, pk, qkm1, qk
        dpkm2_da, dqkm2_da, dpkm1_da, dqkm1_da = dpkm1_da, dqkm1_da, dpk_da, dqk_da
        # Rescale the recurrences before they overflow.
        rescale = gt(abs(pk), _c(pk, 1 / eps))
        pkm2, pkm1, qkm2, qkm1, dpkm2_da, dqkm2_da, dpkm1_da, dqkm1_da = (
            select(rescale, mul(v, _c(v, eps)), v)
            for v in (pkm2, pkm1, qkm2, qkm1, dpkm2_da, dqkm2_da, dpkm1_da, dqkm1_da))
        if mode == _VALUE:
            going = bitwise_and(enabled, gt(t, _c(t, eps)))
        else:
            going = bitwise_and(enabled, gt(grad_change, _c(grad_change, eps)))
        new = (ans, t, y, z)
        kept = tuple(select(enabled, n, o) for n, o in zip(new, vals[1:5]))
        rest = (pkm1, qkm1, pkm2, qkm2, dpkm2_da, dqkm2_da, dpkm1_da, dqkm1_da, dans_da_new)
        rest = tuple(select(enabled, n, o) for n, o in zip(rest, vals[6:]))
        return (going,) + kept + (c,) + rest

    y = sub(_c(a, 1), a)
    z = add(add(x, y), _c(x, 1))
    pkm1 = add(x, _c(x, 1))
    qkm1 = mul(z, x)
    ans = div(pkm1, qkm1)
    dqkm1_da = neg(x)
    dans_da = div(neg(mul(ans, dqkm1_da)), qkm1)
    zero = _c(x, 0)
    init = (enabled, ans, _c(x, 1), y, z, convert_element_type(0, dtype), pkm1, qkm1,
            _c(x, 1), x, zero, zero, zero, dqkm1_da, dans_da)
    vals = while_loop(cond, body, init)
    ans = vals[1]
    if mode == _VALUE:
        return mul(ans, ax)
    dans_da = vals[14]
    dlogax_da = sub(log(x), digamma(a))
    if mode == _DERIVATIVE:
        return mul(ax, add(mul(ans, dlogax_da), dans_da))
    return neg(mul(add(dans_da, mul(ans, dlogax_da)), x))


def _log_ax(a, x):
    """log(x^a e^-x / Gamma(a)), the common factor of both expansions."""
    return sub(sub(mul(a, log(x)), x), lgamma(a))


def _underflows(log_ax, dtype):
    return lt(log_ax, _c(log_ax, -np.log(np.finfo(dtype).max)))


# ---------------------------------------------------------------------------
# Temme's uniform asymptotic expansion (DLMF 8.12.3-8.12.12; Cephes igam.c's
# asymptotic_series) for a large a near x, where the series would need about
# sqrt(a) terms and x^a e^-x / Gamma(a) loses every digit to cancellation:
#   Q(a, x) = erfc(eta sqrt(a/2)) / 2 + e^(-a eta^2/2) / sqrt(2 pi a) sum_k c_k(eta) a^-k,
#   P(a, x) = erfc(-eta sqrt(a/2)) / 2 - (the same sum),
# eta^2 / 2 = sigma - log(1 + sigma), sigma = (x - a) / a, eta of sigma's sign.
# Used for a > 200 and |sigma| < 0.3 (wider than Cephes' 4.5 / sqrt(a), so
# that no a leaves a slow series): there |eta| < 0.37 and a^-10 < 1e-23.
# ---------------------------------------------------------------------------

_TEMME_K, _TEMME_N = 10, 25
_TEMME_MIN_A, _TEMME_MAX_SIGMA = 200.0, 0.3


@functools.cache
def _temme_coefficients():
    """d[k][n], the Taylor coefficients in eta of Temme's c_k(eta)
    (DLMF 8.12.12), computed exactly and rounded to float."""
    K, m = _TEMME_K, _TEMME_N + 2 * _TEMME_K + 2
    # alpha_n: lambda - 1 = sum_n alpha_n eta^n (DLMF 8.12.13); mu = lambda - 1
    # solves mu mu' = eta (1 + mu), which gives each alpha_n from the earlier.
    al = [Fraction(0), Fraction(1)]
    for j in range(2, m):
        al.append((al[j - 1] - sum((j + 1 - i) * al[i] * al[j + 1 - i] for i in range(2, j)))
                  / (j + 1))
    # gamma_k: Stirling's Gamma*(a) ~ sum_k gamma_k a^-k (DLMF 5.11.3), the
    # exponential of sum_j B_2j / (2j (2j - 1)) a^(1 - 2j).
    bern = [Fraction(1)]
    for j in range(1, 2 * K + 1):
        bern.append(-sum(comb(j + 1, i) * bern[i] for i in range(j)) / (j + 1))
    log_series = [Fraction(0)] * K
    for j in range(1, K):
        if 2 * j - 1 < K:
            log_series[2 * j - 1] = bern[2 * j] / (2 * j * (2 * j - 1))
    gam = [Fraction(1)] + [Fraction(0)] * (K - 1)
    for n in range(1, K):
        gam[n] = sum(i * log_series[i] * gam[n - i] for i in range(1, n + 1)) / n
    d = [[Fraction(-1, 3)] + [(n + 2) * al[n + 2] for n in range(1, m - 2)]]
    for k in range(1, K):
        d.append([(-1) ** k * gam[k] * d[0][n] + (n + 2) * d[k - 1][n + 2]
                  for n in range(len(d[-1]) - 2)])
    return tuple(tuple(float(v) for v in row[:_TEMME_N]) for row in d)


def _temme_q(sigma):
    """-2 (log(1 + s) - s) / s^2 for |s| < 0.3, without the cancellation:
    2 / (2 + s) - 4 s T / (2 + s)^3 with T = sum_j u^(2j-2) / (2j + 1),
    u = s / (2 + s) (log(1 + s) = 2 atanh(u))."""
    two_sigma = add(sigma, _c(sigma, 2))
    u = div(sigma, two_sigma)
    u2 = mul(u, u)
    t = _c(u2, 1 / 25)
    for j in range(11, 0, -1):
        t = add(mul(t, u2), _c(u2, 1 / (2 * j + 1)))
    return sub(div(_c(sigma, 2), two_sigma),
               div(mul(_c(sigma, 4), mul(sigma, t)), mul(two_sigma, mul(two_sigma, two_sigma))))


def _temme_size(dtype):
    """(rows, terms) of Temme's table summed for `dtype`."""
    return (_TEMME_K, _TEMME_N) if np.dtype(dtype).itemsize >= 8 else _TEMME_SIZE_32


_TEMME_SIZE_32 = (5, 12)


def _temme_regime(a, x):
    return bitwise_and(gt(a, _c(a, _TEMME_MIN_A)),
                       lt(abs(div(sub(x, a), a)), _c(a, _TEMME_MAX_SIGMA)))


def _temme_parts(a, x):
    """(eta, sum_k c_k(eta) a^-k) of Temme's expansion."""
    sigma = div(sub(x, a), a)
    q = _temme_q(sigma)  # eta^2 / 2 = sigma - log(1 + sigma) = sigma^2 q / 2
    eta = mul(sigma, sqrt(q))  # smooth through sigma = 0, as its derivatives need
    inv_a = div(_c(a, 1), a)
    total = _c(a, 0)
    # Rows and terms the dtype needs (a > 200, |eta| < 0.37): float64 all
    # of them; 32 bits and narrower far fewer (a smaller program to compile).
    rows, terms = _temme_size(aval_of(a).dtype)
    for row in reversed(_temme_coefficients()[:rows]):
        row = row[:terms]
        ck = _c(eta, row[-1])
        for coeff in reversed(row[:-1]):
            ck = add(mul(ck, eta), _c(eta, coeff))
        total = add(mul(total, inv_a), ck)
    return eta, total


def _temme(a, x, lower, parts=None):
    """P(a, x) (lower) or Q(a, x) by Temme's expansion (for _temme_regime)."""
    eta, total = parts or _temme_parts(a, x)
    sgn = -1.0 if lower else 1.0
    half_erfc = mul(_c(a, 0.5), erfc(mul(_c(eta, sgn), mul(eta, sqrt(mul(a, _c(a, 0.5)))))))
    weight = div(exp(mul(_c(a, -0.5), mul(a, mul(eta, eta)))),
                 sqrt(mul(_c(a, 2 * np.pi), a)))
    return add(half_erfc, mul(_c(a, sgn), mul(weight, total)))


def _temme_deep(a, x, lower, dtype):
    """Where the tail Temme's expansion gives (Q above a, P below) is past
    e^-y^2, y^2 = a eta^2 / 2 > 80 (float32) or 600: there _temme_log."""
    sigma = div(sub(x, a), a)
    y2 = mul(a, sub(sigma, log1p(sigma)))
    side = lt(x, a) if lower else gt(x, a)
    limit = 80.0 if np.dtype(dtype).itemsize < 8 else 600.0
    return bitwise_and(side, gt(y2, _c(a, limit)))


def _temme_log(a, x, lower, parts=None):
    """log of _temme's tail far out (_temme_deep): Q (or P) =
    e^-y^2 (erfcx(y) / 2 + sgn sum / sqrt(2 pi a)), y = |eta| sqrt(a/2),
    erfcx by its asymptotic series (y^2 > 80: 7 terms to 5e-11; > 600: 4e-17),
    so the log stays where the value underflows."""
    eta, total = parts or _temme_parts(a, x)
    sgn = -1.0 if lower else 1.0
    y2 = mul(mul(a, _c(a, 0.5)), mul(eta, eta))
    y = sqrt(y2)
    inv = div(_c(a, 1), mul(_c(a, 2), y2))
    series = _c(a, 0.0)
    for k in range(7, 0, -1):  # sum (-1)^k (2k-1)!! inv^k
        coeff = float(np.prod(np.arange(1, 2 * k, 2))) * (-1) ** k
        series = mul(add(series, _c(a, coeff)), inv)
    erfcx = div(add(_c(a, 1), series), mul(y, _c(a, np.sqrt(np.pi))))
    scaled_total = div(total, sqrt(mul(_c(a, 2 * np.pi), a)))
    bracket = add(mul(_c(a, 0.5), erfcx), mul(_c(a, sgn), scaled_total))
    return sub(log(bracket), y2)


def _temme_safe(regime, a, x):
    """a and x where `regime` holds, harmless values elsewhere."""
    return select(regime, a, _c(a, 1000)), select(regime, x, _c(x, 1000))


def _temme_da(a, x):
    """dP/da of Temme's expansion of P(a, x)."""
    return jvp(lambda a_: _temme(a_, x, True), (a,), (_c(a, 1),))[1]


def _temme_log_dx(a, x):
    """log dP/dx = log(x^(a-1) e^-x / Gamma(a)) for a large a near x, without the
    cancellation of a log x - x - lgamma(a): with Stirling's
    Gamma(a) = sqrt(2 pi / a) (a/e)^a Gamma*(a) and x = a (1 + sigma), it is
    exp(a (log1p(sigma) - sigma)) sqrt(a / (2 pi)) / (x Gamma*(a)), Gamma*(a)
    by its series to a^-4 (a > 200: the next term is below 3e-15)."""
    sigma = div(sub(x, a), a)
    inv_a = div(_c(a, 1), a)
    gamma_star = _c(a, -571 / 2488320)
    for c in (-139 / 51840, 1 / 288, 1 / 12, 1.0):
        gamma_star = add(mul(gamma_star, inv_a), _c(a, c))
    # a (log1p(sigma) - sigma) = -a sigma^2 q / 2, q without the cancellation
    log_power = mul(_c(a, -0.5), mul(a, mul(sigma, mul(sigma, _temme_q(sigma)))))
    return sub(add(log_power, mul(_c(a, 0.5), log(div(a, _c(a, 2 * np.pi))))),
               log(mul(x, gamma_star)))


def _temme_dx(a, x):
    """dP/dx by Temme's (as _temme_log_dx)."""
    return exp(_temme_log_dx(a, x))


_EULER = 0.5772156649015329
# zeta(k) for k = 2..17: lgamma(1 + a) = -gamma a + sum_k (-1)^k zeta(k) / k a^k
_ZETA = (1.6449340668482264, 1.2020569031595943, 1.0823232337111382, 1.0369277551433699,
         1.0173430619844491, 1.0083492773819228, 1.0040773561979443, 1.0020083928260822,
         1.0009945751278181, 1.0004941886041195, 1.0002460865533080, 1.0001227133475785,
         1.0000612481350587, 1.0000305882363070, 1.0000152822594087, 1.0000076371976379)


def _small_a(a, x):
    """Where Q(a, x) is taken by _igammac_small_a: a < 0.1 and x < 1.1."""
    return bitwise_and(bitwise_and(gt(a, _c(a, 0)), lt(a, _c(a, 0.1))),
                       bitwise_and(gt(x, _c(x, 0)), lt(x, _c(x, 1.1))))


def _igammac_small_a(a, x):
    """Q(a, x) for a < 0.1, x < 1.1 (Cephes' igamc_series):
    -expm1(a log x - lgamma(1 + a)) - x^a / Gamma(a) sum_n>=1 (-x)^n / (n! (a + n)).
    1 - P lost Q's digits there (Q is about a E1(x): gammaincc(1e-10, 0.5)
    was 3.5e-6 off in float64, gammaincc(1e-3, 0.5) 1.4e-3 in float32, as JAX);
    lgamma(1 + a) by its Taylor series (1 + a rounds)."""
    # Terms for the dtype (a < 0.1, x < 1.1): float64 16 and 20 (last terms
    # below 1e-17), 32 bits and narrower 7 and 12 (below 1e-8)
    wide = np.dtype(aval_of(a).dtype).itemsize >= 8
    lgam1p = _c(a, 0.0)
    for k in range(17 if wide else 8, 1, -1):  # sum_k>=2 zeta(k)/k (-a)^k, Horner in -a
        lgam1p = mul(add(lgam1p, _c(a, _ZETA[k - 2] / k)), neg(a))
    lgam1p = mul(add(neg(lgam1p), _c(a, -_EULER)), a)

    def term(vals):  # one loop, not 20 unrolled terms: a smaller program
        n, fac, total = vals
        n = add(n, _c(n, 1))
        fac = mul(fac, div(neg(x), n))
        return n, fac, add(total, div(fac, add(a, n)))

    count = _c(x, 20.0 if wide else 12.0)
    _, _, total = while_loop(lambda v: _any(lt(v[0], count)), term,
                             (_c(x, 0.0), _c(x, 1.0), _c(x, 0.0)))
    log_x = log(x)
    head = neg(expm1(sub(mul(a, log_x), lgam1p)))
    return sub(head, mul(exp(sub(mul(a, log_x), lgamma(a))), total))


def _igamma_edges(a, x):
    """(a == 0, x == 0, x == inf, the domain error: x < 0, a < 0, a = x = 0
    or a NaN), the edge cases of P(a, x) and Q(a, x) and their logs."""
    a_is_zero = eq(a, _c(a, 0))
    x_is_zero = eq(x, _c(x, 0))
    x_is_inf = eq(x, _c(x, np.inf))
    domain_error = _or(lt(x, _c(x, 0)), lt(a, _c(a, 0)), bitwise_and(a_is_zero, x_is_zero),
                       bitwise_or(_isnan(a), _isnan(x)))
    return a_is_zero, x_is_zero, x_is_inf, domain_error


def _igamma_value(a, x, *, dtype):
    _, x_is_zero, x_is_inf, domain_error = _igamma_edges(a, x)
    use_cf = bitwise_and(ge(x, _c(x, 1)), gt(x, a))
    log_ax = _log_ax(a, x)
    temme = _temme_regime(a, x)
    enabled = bitwise_not(_or(x_is_zero, domain_error, _underflows(log_ax, dtype), x_is_inf,
                              temme))
    ax = exp(log_ax)
    out = select(
        use_cf,
        sub(_c(a, 1), _igammac_continued_fraction(ax, x, a, bitwise_and(enabled, use_cf),
                                                  dtype, _VALUE)),
        _igamma_series(ax, x, a, bitwise_and(enabled, bitwise_not(use_cf)), dtype, _VALUE))
    out = select(temme, _temme(*_temme_safe(temme, a, x), True), out)
    out = select(x_is_zero, _c(a, 0), out)
    out = select(x_is_inf, _c(a, 1), out)
    return select(domain_error, _c(a, np.nan), out)


def _igammac_value(a, x, *, dtype):
    a_is_zero, x_is_zero, x_is_inf, domain_error = _igamma_edges(a, x)
    use_series = bitwise_or(lt(x, _c(x, 1)), lt(x, a))
    log_ax = _log_ax(a, x)
    temme = _temme_regime(a, x)
    enabled = bitwise_not(_or(domain_error, _underflows(log_ax, dtype), x_is_inf, a_is_zero,
                              temme))
    ax = exp(log_ax)
    series = _igamma_series(ax, x, a, bitwise_and(enabled, use_series), dtype, _VALUE)
    cf = _igammac_continued_fraction(ax, x, a, bitwise_and(enabled, bitwise_not(use_series)),
                                     dtype, _VALUE)
    out = select(use_series, sub(_c(a, 1), series), cf)
    small_a = _small_a(a, x)
    out = select(small_a, _igammac_small_a(select(small_a, a, _c(a, 0.05)),
                                           select(small_a, x, _c(x, 0.5))), out)
    out = select(temme, _temme(*_temme_safe(temme, a, x), False), out)
    out = select(bitwise_or(x_is_inf, a_is_zero), _c(out, 0), out)
    return select(domain_error, _c(a, np.nan), out)


def _igamma_derivative(mode, log_scale=None):
    """dP/da (mode _DERIVATIVE) or a Gamma(a, 1) sample's dx/da. With
    log_scale, (log_scale, dP/da / e^log_scale) of (a, x, log_scale):
    the loops run without x^a e^-x / Gamma(a), so that the ratio stays
    finite where dP/da and P underflow."""
    def impl(a, x, *args, dtype):
        is_nan = bitwise_or(_isnan(a), _isnan(x))
        x_is_zero = eq(x, _c(x, 0))
        domain_error = bitwise_or(lt(x, _c(x, 0)), le(a, _c(a, 0)))
        use_cf = bitwise_and(gt(x, _c(x, 1)), gt(x, a))
        log_ax = _log_ax(a, x)
        temme = _temme_regime(a, x)
        if log_scale:
            underflows = gt(x, _c(x, float(np.finfo(dtype).eps) ** -2))
            ax = exp(sub(log_ax, args[0]))  # the factor over the scale
        else:
            underflows = _underflows(log_ax, dtype)
            ax = exp(log_ax)
        enabled = bitwise_not(_or(x_is_zero, domain_error, underflows, is_nan, temme))
        out = select(
            use_cf,
            neg(_igammac_continued_fraction(ax, x, a, bitwise_and(enabled, use_cf), dtype,
                                            mode)),
            _igamma_series(ax, x, a, bitwise_and(enabled, bitwise_not(use_cf)), dtype, mode))
        safe = _temme_safe(temme, a, x)
        if mode == _DERIVATIVE:
            temme_da = _temme_da(*safe)
            if log_scale:
                # Where the value is the small tail and past Temme's e^-80
                # (e^-600), dP/da / P = d log P / da and dP/da / Q = -d log Q / da
                # of _temme_log (dP/da and the value both underflow there)
                above = gt(x, a)
                small = lt(args[0], _c(a, -np.log(2.0)))
                deep = bitwise_and(small, bitwise_or(_temme_deep(*safe, True, dtype),
                                                     _temme_deep(*safe, False, dtype)))
                d_upper = jvp(lambda a_: _temme_log(a_, safe[1], False), (safe[0],), (_c(a, 1),))[1]
                d_lower = jvp(lambda a_: _temme_log(a_, safe[1], True), (safe[0],), (_c(a, 1),))[1]
                temme_da = select(deep, select(above, neg(d_upper), d_lower),
                                  div(temme_da, exp(args[0])))
            out = select(temme, temme_da, out)
        else:  # a Gamma(a, 1) sample x moves with a as dx/da = -(dP/da) / (dP/dx)
            out = select(temme, neg(div(_temme_da(*safe), _temme_dx(*safe))), out)
        out = select(x_is_zero, _c(out, 0), out)
        return select(bitwise_or(domain_error, is_nan), _c(a, np.nan), out)
    return impl


_igamma_raw = _in_working_dtype("igamma", _igamma_value)
_igammac_raw = _in_working_dtype("igammac", _igammac_value)
igamma_grad_a = _in_working_dtype("igamma_grad_a", _igamma_derivative(_DERIVATIVE))
random_gamma_grad = _in_working_dtype("random_gamma_grad",
                                      _igamma_derivative(_SAMPLE_DERIVATIVE))
igamma_grad_a.__name__ = "igamma_grad_a"
igamma_grad_a.__doc__ = ("Elementwise derivative of igamma(a, x) with respect to a "
                         "(jax.lax.igamma_grad_a).")
random_gamma_grad.__name__ = "random_gamma_grad"
random_gamma_grad.__doc__ = ("Elementwise derivative of a Gamma(a, 1) sample x with respect "
                             "to a (jax.lax.random_gamma_grad).")


def _igamma_dx_value(a, x, *, dtype):
    """d/dx igamma(a, x) = x^(a-1) e^-x / Gamma(a) (Temme's where the powers
    cancel)."""
    temme = _temme_regime(a, x)
    direct = exp(sub(sub(mul(sub(a, _c(a, 1)), log(x)), x), lgamma(a)))
    return select(temme, _temme_dx(*_temme_safe(temme, a, x)), direct)


_igamma_dx = _in_working_dtype("igamma", _igamma_dx_value)


@custom_jvp
def igamma(a, x):
    """Elementwise regularized lower incomplete gamma function P(a, x)
    (jax.lax.igamma)."""
    return _igamma_raw(a, x)


@igamma.defjvp
def _igamma_jvp(primals, tangents):
    (a, x), (ta, tx) = primals, tangents
    return igamma(a, x), add(mul(ta, igamma_grad_a(a, x)), mul(tx, _igamma_dx(a, x)))


@custom_jvp
def igammac(a, x):
    """Elementwise regularized upper incomplete gamma function Q(a, x) = 1 - P(a, x)
    (jax.lax.igammac)."""
    return _igammac_raw(a, x)


@igammac.defjvp
def _igammac_jvp(primals, tangents):
    (a, x), (ta, tx) = primals, tangents
    return igammac(a, x), neg(add(mul(ta, igamma_grad_a(a, x)), mul(tx, _igamma_dx(a, x))))


def _log1mexp_neg(v):
    """log(1 - e^v) for v <= 0, without the cancellation at either end."""
    return select(gt(v, _c(v, -np.log(2.0))), log(neg(expm1(v))), log1p(neg(exp(v))))


def _log_igamma_value(a, x, *, dtype, upper):
    """log Q(a, x) (upper) or log P(a, x), in log space: the expansions run
    without their common factor x^a e^-x / Gamma(a), whose log is added to
    the log of theirs, so a tail the value underflows to 0 (or rounds to 1)
    keeps its log (SciPy's log(gammaincc) in float64 reach about 1e-308; in
    float32, Q(1.5, 200) already underflows). The complement is
    log1p(-e^(log of the other)); Temme's region takes the log of its value."""
    a_is_zero, x_is_zero, x_is_inf, domain_error = _igamma_edges(a, x)
    use_cf = bitwise_and(ge(x, _c(x, 1)), gt(x, a))
    temme = _temme_regime(a, x)
    # Beyond 1/eps^2 the continued fraction (about 1/x, whose recurrences
    # overflow past sqrt(max)) is below rounding in log Q, about -x.
    huge = gt(x, _c(x, float(np.finfo(dtype).eps) ** -2))
    enabled = bitwise_not(_or(domain_error, x_is_zero, x_is_inf, a_is_zero, temme, huge))
    one = _c(x, 1)
    series = _igamma_series(one, x, a, bitwise_and(enabled, bitwise_not(use_cf)), dtype, _VALUE)
    cf = _igammac_continued_fraction(one, x, a, bitwise_and(enabled, use_cf), dtype, _VALUE)
    cf = select(huge, div(one, x), cf)
    log_ax = _log_ax(a, select(x_is_zero, one, x))
    log_direct = add(log_ax, log(select(use_cf, cf, series)))  # log Q where use_cf, else log P
    complement = _log1mexp_neg(log_direct)
    if upper:
        out = select(use_cf, log_direct, complement)
    else:
        out = select(use_cf, complement, log_direct)
    small_a = _small_a(a, x)
    q_small = _igammac_small_a(select(small_a, a, _c(a, 0.05)), select(small_a, x, _c(x, 0.5)))
    out = select(small_a, log(q_small) if upper else log1p(neg(q_small)), out)
    # Temme's: the log of its tail (far out, _temme_log), or log1p(-the
    # other tail) where that one is below 1/2 (log of a value near 1 lost it)
    safe = _temme_safe(temme, a, x)
    parts = _temme_parts(*safe)
    this, other = _temme(*safe, not upper, parts), _temme(*safe, upper, parts)
    near_one = lt(other, _c(other, 0.5))
    in_temme = select(near_one, log1p(neg(other)), log(this))
    in_temme = select(_temme_deep(*safe, not upper, dtype), _temme_log(*safe, not upper, parts),
                      in_temme)
    out = select(temme, in_temme, out)
    zero, minus_inf = _c(x, 0), _c(x, -np.inf)
    full, empty = (minus_inf, zero) if upper else (zero, minus_inf)  # at x = inf, at x = 0
    out = select(bitwise_or(x_is_inf, a_is_zero), full, select(x_is_zero, empty, out))
    return select(domain_error, _c(a, np.nan), out)


_log_igamma_raw = _in_working_dtype("igamma", functools.partial(_log_igamma_value, upper=False))
_log_igammac_raw = _in_working_dtype("igammac", functools.partial(_log_igamma_value, upper=True))


def _log_density_value(a, x, *, dtype):
    """log(x^(a-1) e^-x / Gamma(a)), dP/dx's log (Temme's where the powers cancel)."""
    temme = _temme_regime(a, x)
    direct = sub(sub(mul(sub(a, _c(a, 1)), log(x)), x), lgamma(a))
    return select(temme, _temme_log_dx(*_temme_safe(temme, a, x)), direct)


_log_density = _in_working_dtype("igamma", _log_density_value)
# dP/da / e^log_p for log_p = log P or log Q: d log P / da, -d log Q / da
_igamma_grad_a_over = _in_working_dtype("igamma", _igamma_derivative(_DERIVATIVE, log_scale=True))


def _log_regularized_gamma(raw, upper, name, doc):
    """log P(a, x) (or log Q with `upper`) as `raw` computes it, with its
    JVP: d log P = dP / P, dP/dx's log less log P (no underflow in the
    tail), and d log P / da from _igamma_grad_a_over; log Q's are log P's
    negated (that helper gives -d log Q / da for Q)."""
    def value(a, x):
        return raw(a, x)

    value.__name__ = value.__qualname__ = name
    value.__doc__ = doc
    fn = custom_jvp(value)

    @fn.defjvp
    def _jvp(primals, tangents):
        (a, x), (ta, tx) = primals, tangents
        out = fn(a, x)
        dx = exp(sub(_log_density(a, x), out))
        d = add(mul(ta, _igamma_grad_a_over(a, x, out)), mul(tx, dx))
        return out, neg(d) if upper else d

    return fn


log_igamma = _log_regularized_gamma(
    _log_igamma_raw, False, "log_igamma",
    """log P(a, x), kept where P underflows (not in jax.lax: what
    jax.scipy.stats computes as log(gammainc), -inf there).""")
log_igammac = _log_regularized_gamma(
    _log_igammac_raw, True, "log_igammac",
    """log Q(a, x), kept where Q underflows (not in jax.lax: what
    jax.scipy.stats computes as log(gammaincc), -inf there).""")


# ---------------------------------------------------------------------------
# Regularized incomplete beta: the continued fraction of DLMF 8.17.22,
# evaluated by the modified Lentz method on whichever of I_x(a, b) and
# 1 - I_{1-x}(b, a) converges fast (XLA's math.cc).
# ---------------------------------------------------------------------------

def _lentz(num_iterations, tiny, threshold, numerator, denominator, inputs):
    def cond(vals):
        return bitwise_and(lt(vals[0], _c(vals[0], num_iterations)), vals[1])

    def body(vals):
        it, _, c, d, h = vals
        an, bn = numerator(it, *inputs), denominator(it, *inputs)
        c = add(bn, div(an, c))
        c = select(lt(abs(c), _c(c, tiny)), _c(c, tiny), c)
        d = add(bn, mul(an, d))
        d = select(lt(abs(d), _c(d, tiny)), _c(d, tiny), d)
        d = div(_c(d, 1), d)
        delta = mul(c, d)
        h = mul(h, delta)
        going = _any(ge(abs(sub(delta, _c(delta, 1))), _c(delta, threshold)))
        return add(it, _c(it, 1)), going, c, d, h

    b0 = denominator(_i32(0), *inputs)
    h = select(lt(abs(b0), _c(b0, tiny)), _c(b0, tiny), b0)
    init = (_i32(1), convert_element_type(True, np.bool_), h, _c(h, 0), h)
    return while_loop(cond, body, init)[4]


def _betainc_value(a, b, x, *, dtype):
    def numerator(it, a, b, x):
        # d_1 = 1, d_{2m+1} = -(a+m)(a+b+m)x / ((a+2m)(a+2m+1)) and
        # d_{2m} = m(b-m)x / ((a+2m-1)(a+2m)); the m = 0 odd term is written
        # so that a tiny a stays exact.
        m = _bcast(convert_element_type(div(sub(it, _i32(1)), _i32(2)), dtype), x)
        one, two = _c(a, 1), _c(a, 2)
        a2m = add(a, mul(two, m))
        zero_num = div(mul(neg(add(a, b)), x), add(a, one))
        even = select(eq(m, _c(m, 0)), zero_num,
                      div(mul(mul(neg(add(a, m)), add(add(a, b), m)), x),
                          mul(a2m, add(a2m, one))))
        odd = div(mul(mul(m, sub(b, m)), x), mul(sub(a2m, one), a2m))
        out = select(eq(rem(it, _i32(2)), _i32(0)), even, odd)
        return select(eq(it, _i32(1)), _c(x, 1), out)

    def denominator(it, a, b, x):
        return select(eq(it, _i32(0)), _c(x, 0), _c(x, 1))

    a_is_zero = bitwise_or(eq(a, _c(a, 0)), eq(b, _c(b, np.inf)))
    b_is_zero = bitwise_or(eq(b, _c(b, 0)), eq(a, _c(a, np.inf)))
    x_is_zero, x_is_one = eq(x, _c(x, 0)), eq(x, _c(x, 1))
    is_nan = _or(_isnan(a), _isnan(b), _isnan(x))
    result_is_zero = bitwise_or(bitwise_and(b_is_zero, bitwise_not(x_is_one)),
                                bitwise_and(a_is_zero, x_is_zero))
    result_is_one = bitwise_or(bitwise_and(a_is_zero, bitwise_not(x_is_zero)),
                               bitwise_and(b_is_zero, x_is_one))
    result_is_nan = _or(lt(a, _c(a, 0)), lt(b, _c(b, 0)), lt(x, _c(x, 0)), gt(x, _c(x, 1)),
                        bitwise_and(a_is_zero, b_is_zero), is_nan)

    # The fraction converges fast for x < (a+1)/(a+b+2) (DLMF 8.17.23); else use
    # the symmetry I_x(a, b) = 1 - I_{1-x}(b, a) (DLMF 8.17.4).
    fast = lt(x, div(add(a, _c(a, 1)), add(add(a, b), _c(b, 2))))
    a, b = select(fast, a, b), select(fast, b, a)
    x = select(fast, x, sub(_c(x, 1), x))
    eps = float(np.finfo(dtype).eps / 2)
    fraction = _lentz(200 if dtype == np.float32 else 600, eps, eps, numerator, denominator,
                      (a, b, x))
    # a * Gamma(a) = Gamma(a + 1) -> 1 as a -> 0+ keeps tiny a finite.
    very_small = float(np.finfo(dtype).tiny * 2)
    lbeta_small_a = sub(lgamma(b), lgamma(add(a, b)))
    lbeta = add(lgamma(a), lbeta_small_a)
    factor = select(lt(a, _c(a, very_small)),
                    exp(sub(mul(log1p(neg(x)), b), lbeta_small_a)),
                    div(exp(sub(add(mul(log(x), a), mul(log1p(neg(x)), b)), lbeta)), a))
    out = mul(fraction, factor)
    out = select(fast, out, sub(_c(out, 1), out))
    out = select(result_is_zero, _c(out, 0), out)
    out = select(result_is_one, _c(out, 1), out)
    return select(result_is_nan, _c(out, np.nan), out)


_betainc_raw = _in_working_dtype("betainc", _betainc_value)


@custom_jvp
def betainc(a, b, x):
    """Elementwise regularized incomplete beta function I_x(a, b)
    (jax.lax.betainc). Differentiable in x exactly; in a and b (where JAX
    raises) by central differences of the function itself."""
    return _betainc_raw(a, b, x)


def _central_difference(f, v):
    """df/dv by a central difference with a step of eps^(1/3) |v|, kept
    inside v > 0 (the parameters' domain)."""
    eps = float(np.finfo(_checked("betainc", v)).eps)
    h = mul(_c(v, eps ** (1 / 3)), max_(abs(v), _c(v, 1)))
    h = min_(h, mul(_c(v, 0.5), v))
    return div(sub(f(add(v, h)), f(sub(v, h))), add(h, h))


@betainc.defjvp
def _betainc_jvp(primals, tangents):
    (a, b, x), (ta, tb, tx) = primals, tangents
    lbeta = sub(add(lgamma(a), lgamma(b)), lgamma(add(a, b)))
    dx = exp(sub(add(mul(sub(b, _c(b, 1)), log1p(neg(x))), mul(sub(a, _c(a, 1)), log(x))),
                 lbeta))
    da = _central_difference(lambda v: _betainc_raw(v, b, x), a)
    db = _central_difference(lambda v: _betainc_raw(a, v, x), b)
    return betainc(a, b, x), add(mul(tx, dx), add(mul(ta, da), mul(tb, db)))


# ---------------------------------------------------------------------------
# Exponentially scaled modified Bessel functions of orders 0 and 1: Cephes'
# Chebyshev expansions on [0, 8] and (8, inf) (i0.c, i1.c); float32 keeps
# the trailing terms Cephes' single-precision version keeps.
# ---------------------------------------------------------------------------

_I0E_A = (
    -4.41534164647933937950e-18, 3.33079451882223809783e-17, -2.43127984654795469359e-16,
    1.71539128555513303061e-15, -1.16853328779934516808e-14, 7.67618549860493561688e-14,
    -4.85644678311192946090e-13, 2.95505266312963983461e-12, -1.72682629144155570723e-11,
    9.67580903537323691224e-11, -5.18979560163526290666e-10, 2.65982372468238665035e-09,
    -1.30002500998624804212e-08, 6.04699502254191894932e-08, -2.67079385394061173391e-07,
    1.11738753912010371815e-06, -4.41673835845875056359e-06, 1.64484480707288970893e-05,
    -5.75419501008210370398e-05, 1.88502885095841655729e-04, -5.76375574538582365885e-04,
    1.63947561694133579842e-03, -4.32430999505057594430e-03, 1.05464603945949983183e-02,
    -2.37374148058994688156e-02, 4.93052842396707084878e-02, -9.49010970480476444210e-02,
    1.71620901522208775349e-01, -3.04682672343198398683e-01, 6.76795274409476084995e-01)
_I0E_B = (
    -7.23318048787475395456e-18, -4.83050448594418207126e-18, 4.46562142029675999901e-17,
    3.46122286769746109310e-17, -2.82762398051658348494e-16, -3.42548561967721913462e-16,
    1.77256013305652638360e-15, 3.81168066935262242075e-15, -9.55484669882830764870e-15,
    -4.15056934728722208663e-14, 1.54008621752140982691e-14, 3.85277838274214270114e-13,
    7.18012445138366623367e-13, -1.79417853150680611778e-12, -1.32158118404477131188e-11,
    -3.14991652796324136454e-11, 1.18891471078464383424e-11, 4.94060238822496958910e-10,
    3.39623202570838634515e-09, 2.26666899049817806459e-08, 2.04891858946906374183e-07,
    2.89137052083475648297e-06, 6.88975834691682398426e-05, 3.36911647825569408990e-03,
    8.04490411014108831608e-01)
_I1E_A = (
    2.77791411276104639959e-18, -2.11142121435816608115e-17, 1.55363195773620046921e-16,
    -1.10559694773538630805e-15, 7.60068429473540693410e-15, -5.04218550472791168711e-14,
    3.22379336594557470981e-13, -1.98397439776494371520e-12, 1.17361862988909016308e-11,
    -6.66348972350202774223e-11, 3.62559028155211703701e-10, -1.88724975172282928790e-09,
    9.38153738649577178388e-09, -4.44505912879632808065e-08, 2.00329475355213526229e-07,
    -8.56872026469545474066e-07, 3.47025130813767847674e-06, -1.32731636560394358279e-05,
    4.78156510755005422638e-05, -1.61760815825896745588e-04, 5.12285956168575772895e-04,
    -1.51357245063125314899e-03, 4.15642294431288815669e-03, -1.05640848946261981558e-02,
    2.47264490306265168283e-02, -5.29459812080949914269e-02, 1.02643658689847095384e-01,
    -1.76416518357834055153e-01, 2.52587186443633654823e-01)
_I1E_B = (
    7.51729631084210481353e-18, 4.41434832307170791151e-18, -4.65030536848935832153e-17,
    -3.20952592199342395980e-17, 2.96262899764595013876e-16, 3.30820231092092828324e-16,
    -1.88035477551078244854e-15, -3.81440307243700780478e-15, 1.04202769841288027642e-14,
    4.27244001671195135429e-14, -2.10154184277266431302e-14, -4.08355111109219731823e-13,
    -7.19855177624590851209e-13, 2.03562854414708950722e-12, 1.41258074366137813316e-11,
    3.25260358301548823856e-11, -1.89749581235054123450e-11, -5.58974346219658380687e-10,
    -3.83538038596423702205e-09, -2.63146884688951950684e-08, -2.51223623787020892529e-07,
    -3.88256480887769039346e-06, -1.10588938762623716291e-04, -9.76109749136146840777e-03,
    7.78576235018280120474e-01)
# Terms Cephes' float32 versions keep (the rest are below float32's precision).
_F32_TERMS = {"i0e": (18, 7), "i1e": (17, 7)}


def _chebyshev(x, coefficients):
    """Clenshaw's recurrence for a Chebyshev series (Cephes' chbevl)."""
    b0, b1, b2 = _c(x, 0), _c(x, 0), _c(x, 0)
    for coef in coefficients:
        b2, b1 = b1, b0
        b0 = add(sub(mul(x, b1), b2), _c(x, coef))
    return mul(_c(x, 0.5), sub(b0, b2))


def _bessel_ie(name, small, large, *, odd):
    def impl(x, *, dtype):
        if dtype == np.float32:
            n_small, n_large = _F32_TERMS[name]
            small_c, large_c = small[-n_small:], large[-n_large:]
        else:
            small_c, large_c = small, large
        z = abs(x)
        # Both branches are evaluated everywhere: keep each one's argument in range.
        z_small = select(le(z, _c(z, 8)), z, _c(z, 8))
        z_large = select(gt(z, _c(z, 8)), z, _c(z, 8))
        near = _chebyshev(sub(mul(_c(z, 0.5), z_small), _c(z, 2)), small_c)
        if odd:
            near = mul(near, z_small)
        far = div(_chebyshev(sub(div(_c(z, 32), z_large), _c(z, 2)), large_c), sqrt(z_large))
        out = select(le(z, _c(z, 8)), near, far)
        return mul(sign(x), out) if odd else out
    return _in_working_dtype(f"bessel_{name}", impl)


_bessel_i0e_raw = _bessel_ie("i0e", _I0E_A, _I0E_B, odd=False)
_bessel_i1e_raw = _bessel_ie("i1e", _I1E_A, _I1E_B, odd=True)


@custom_jvp
def bessel_i0e(x):
    """Exponentially scaled modified Bessel function of order 0,
    exp(-|x|) i0(x) (jax.lax.bessel_i0e)."""
    return _bessel_i0e_raw(x)


@bessel_i0e.defjvp
def _bessel_i0e_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    y = bessel_i0e(x)
    return y, mul(t, sub(bessel_i1e(x), mul(sign(x), y)))


@custom_jvp
def bessel_i1e(x):
    """Exponentially scaled modified Bessel function of order 1,
    exp(-|x|) i1(x) (jax.lax.bessel_i1e)."""
    return _bessel_i1e_raw(x)


@bessel_i1e.defjvp
def _bessel_i1e_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    y = bessel_i1e(x)
    # i1e' = i0e - y (sign(x) + 1/x), 1/2 at the origin.
    eps = float(np.finfo(_checked("bessel_i1e", x)).eps)
    not_tiny = gt(abs(x), _c(x, eps))
    safe_x = select(not_tiny, x, _c(x, eps))
    dy = sub(bessel_i0e(safe_x), mul(y, add(sign(safe_x), div(_c(x, 1), safe_x))))
    return y, mul(t, select(not_tiny, dy, _c(x, 0.5)))

"""Numerical checks of mlax's autodiff against central finite differences,
as jax.test_util: check_jvp, check_vjp and check_grads (to any order, in
forward, reverse and linearize modes). Each compares in one random direction
(NumPy RandomState(0), as JAX) and raises AssertionError on a mismatch."""
from __future__ import annotations

import functools
import operator

import ml_dtypes
import numpy as np

from mlax._src.base import dtypes as _dtypes
from mlax._src.base import tree as tree_util
from mlax._src.transforms import autodiff
from mlax._src.transforms import linear

EPS = 1e-4

_bf16 = np.dtype(ml_dtypes.bfloat16)

# Tolerances by dtype: of values (exact for integers) and of derivatives.
_DEFAULT_TOL = {
    np.dtype(np.bool_): 0, **{np.dtype(t): 0 for t in (
        np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)},
    _bf16: 1e-2, np.dtype(np.float16): 1e-3, np.dtype(np.float32): 1e-6,
    np.dtype(np.float64): 1e-15, np.dtype(np.complex64): 1e-6,
    np.dtype(np.complex128): 1e-15,
}
_GRAD_TOL = {
    _bf16: 1e-1, np.dtype(np.float16): 1e-2, np.dtype(np.float32): 2e-3,
    np.dtype(np.float64): 1e-5, np.dtype(np.complex64): 1e-3, np.dtype(np.complex128): 1e-5,
}

_map = tree_util.tree_map


def _is_python_scalar(x):
    return not isinstance(x, np.generic) and isinstance(x, (bool, int, float, complex))


def _dtype(x):
    if hasattr(x, "dtype"):
        return np.dtype(x.dtype)
    if _is_python_scalar(x):
        return np.dtype({bool: np.bool_, int: np.int32, float: np.float32,
                         complex: np.complex64}[type(x)])
    return np.asarray(x).dtype


def _tolerance(dtype, tol):
    if not isinstance(tol, dict):
        return tol
    dtype = np.dtype(_dtypes.canonicalize(np.dtype(dtype)))
    return tol.get(dtype, _DEFAULT_TOL.get(dtype, 0))


def _merge_tolerance(tol, default):
    if tol is None:
        return default
    if not isinstance(tol, dict):
        return tol
    out = dict(default)
    out.update({np.dtype(k): v for k, v in tol.items()})
    return out


def _assert_close(a, b, atol, rtol, err_msg):
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape, (a.shape, b.shape)
    atol = max(_tolerance(a.dtype, atol), _tolerance(b.dtype, atol))
    rtol = max(_tolerance(a.dtype, rtol), _tolerance(b.dtype, rtol))
    if a.dtype == _bf16:
        a = a.astype(np.float32)
    if b.dtype == _bf16:
        b = b.astype(np.float32)
    kw = {}
    if atol:
        kw["atol"] = atol * a.size
    if rtol:
        kw["rtol"] = rtol * b.size
    with np.errstate(invalid="ignore"):
        np.testing.assert_allclose(a, b, err_msg=err_msg, **kw)


def check_close(xs, ys, atol=None, rtol=None, err_msg=""):
    _map(functools.partial(_assert_close, atol=atol, rtol=rtol, err_msg=err_msg), xs, ys)


def _check_dtypes_match(xs, ys):
    def check(x, y):
        assert _dtypes.canonicalize(_dtype(x)) == _dtypes.canonicalize(_dtype(y)), \
            (_dtype(x), _dtype(y))
    _map(check, xs, ys)


def _preserve_input_types(f):
    def wrapped(*args):
        result = np.array(f(*[np.asarray(a) for a in args]), dtype=_dtype(args[0]))
        return result.item() if all(_is_python_scalar(a) for a in args) else result
    return wrapped


_add = functools.partial(_map, _preserve_input_types(operator.add))
_sub = functools.partial(_map, _preserve_input_types(operator.sub))
_conj = functools.partial(_map, _preserve_input_types(np.conj))


def _safe_sub(xs, ys):
    def sub(x, y):
        dtype = _dtype(x)
        x, y = np.asarray(x), np.asarray(y)
        with np.errstate(invalid="ignore"):  # inf - inf counts as 0
            return np.where(np.equal(x, y), np.array(0, dtype), np.subtract(x, y, dtype=dtype))
    return _map(sub, xs, ys)


def _scalar_mul(xs, a):
    def mul(x):
        dtype = _dtype(x)
        out = np.multiply(np.asarray(x), np.array(a, dtype=dtype), dtype=dtype)
        return out.item() if _is_python_scalar(x) else out
    return _map(mul, xs)


def _rand_like(rng, x):
    shape, dtype = np.shape(x), _dtype(x)
    out = np.asarray(rng.randn(*shape), dtype=dtype)
    if np.issubdtype(dtype, np.complexfloating):
        out = out + dtype.type(1.0j) * np.asarray(rng.randn(*shape), dtype=dtype)
    return out.item() if _is_python_scalar(x) else out


def _inner_prod(xs, ys):
    def contract(x, y):
        x, y = np.asarray(x), np.asarray(y)
        return np.real(np.dot(np.conj(x).reshape(-1), y.reshape(-1)))
    return tree_util.tree_reduce(np.add, _map(contract, xs, ys))


def numerical_jvp(f, primals, tangents, eps=EPS):
    delta = _scalar_mul(tangents, eps)
    f_pos = f(*_add(primals, delta))
    f_neg = f(*_sub(primals, delta))
    return _scalar_mul(_safe_sub(f_pos, f_neg), 0.5 / eps)


def check_jvp(f, f_jvp, args, atol=None, rtol=None, eps=EPS, err_msg=""):
    """f_jvp(args, tangents) (usually partial(mlax.jvp, f)) against central
    differences of f in one random direction."""
    atol = _merge_tolerance(atol, _GRAD_TOL)
    rtol = _merge_tolerance(rtol, _GRAD_TOL)
    tangent = _map(functools.partial(_rand_like, np.random.RandomState(0)), args)
    v_out, t_out = f_jvp(args, tangent)
    _check_dtypes_match(v_out, t_out)
    v_expected = f(*args)
    _check_dtypes_match(v_out, v_expected)
    t_expected = numerical_jvp(f, args, tangent, eps=eps)
    check_close(v_out, v_expected, atol=atol, rtol=rtol,
                err_msg=f"{err_msg} primal" if err_msg else "primal")
    check_close(t_out, t_expected, atol=atol, rtol=rtol,
                err_msg=f"{err_msg} tangent" if err_msg else "tangent")


def check_vjp(f, f_vjp, args, atol=None, rtol=None, eps=EPS, err_msg=""):
    """f_vjp(*args) (usually partial(mlax.vjp, f)) against finite differences:
    <t, vjp(c)> must equal <jvp_numerical(t), c> for random t and c."""
    atol = _merge_tolerance(atol, _GRAD_TOL)
    rtol = _merge_tolerance(rtol, _GRAD_TOL)
    rand_like = functools.partial(_rand_like, np.random.RandomState(0))
    v_out, vjpfun = f_vjp(*args)
    v_expected = f(*args)
    check_close(v_out, v_expected, atol=atol, rtol=rtol,
                err_msg=f"{err_msg} primal" if err_msg else "primal")
    tangent = _map(rand_like, args)
    tangent_out = numerical_jvp(f, args, tangent, eps=eps)
    cotangent = _map(rand_like, v_out)
    cotangent_out = _conj(vjpfun(_conj(cotangent)))
    ip = _inner_prod(tangent, cotangent_out)
    ip_expected = _inner_prod(tangent_out, cotangent)
    check_close(ip, ip_expected, atol=atol, rtol=rtol,
                err_msg=(f"{err_msg} cotangent projection" if err_msg
                         else "cotangent projection"))


def _jvp_from_lin(f, primals, tangents):
    out, f_lin = linear.linearize(f, *primals)
    return out, f_lin(*tangents)


def check_grads(f, args, order, modes=("fwd", "rev"), atol=None, rtol=None, eps=None):
    """Checks f's derivatives up to `order` at args, in the given modes
    ("fwd": jvp, "rev": vjp, "lin": linearize), against finite differences."""
    args = tuple(args)
    eps = eps or EPS
    _check_jvp = functools.partial(check_jvp, atol=atol, rtol=rtol, eps=eps)
    _check_vjp = functools.partial(check_vjp, atol=atol, rtol=rtol, eps=eps)

    def _check_grads(f, args, order, err_msg=""):
        if "fwd" in modes:
            msg = f"JVP of {err_msg}" if err_msg else "JVP"
            _check_jvp(f, functools.partial(autodiff.jvp, f), args, err_msg=msg)
            if order > 1:
                _check_grads(functools.partial(autodiff.jvp, f), (args, args), order - 1, msg)
        if "rev" in modes:
            msg = f"VJP of {err_msg}" if err_msg else "VJP"
            _check_vjp(f, functools.partial(autodiff.vjp, f), args, err_msg=msg)
            if order > 1:
                def f_vjp(*args):
                    out, vjp_fn = autodiff.vjp(f, *args)
                    return vjp_fn(out)
                _check_grads(f_vjp, args, order - 1, msg)
        if "lin" in modes:
            msg = f"LIN of {err_msg}" if err_msg else "LIN"
            _check_jvp(f, functools.partial(_jvp_from_lin, f), args, err_msg=msg)
            if order > 1:
                _check_grads(functools.partial(_jvp_from_lin, f), (args, args), order - 1, msg)

    _check_grads(f, args, order)

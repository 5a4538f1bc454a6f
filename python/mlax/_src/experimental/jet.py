"""jax.experimental.jet: Taylor-mode higher-order differentiation.

`jet(f, (x0,), ((x1, ..., xK),))` gives the first K derivatives in t at 0 of
f along the input curve x(t) = x0 + sum_k x_k t^k / k!. JAX propagates
truncated Taylor polynomials through per-primitive rules; mlax obtains the
same numbers from its own forward-mode autodiff: the output's k-th
derivative along the curve is k nested jvps in the scalar t. That is exact
for every function mlax can differentiate (custom_jvp rules included, where
JAX's jet ignores them), at a cost that grows with the order (fine for the
orders jet is used at, up to about 5)."""
from __future__ import annotations

import functools

import numpy as np

from mlax._src.base import dtypes
from mlax._src.base.tree import (register_pytree_node, tree_flatten, tree_structure,
                                 tree_unflatten, treedef_is_leaf)
from mlax._src.lax import math as lax_math
from mlax._src.numpy.lax_numpy import zeros_like
from mlax._src.transforms.autodiff import jvp


class ZeroTerm:
    """JAX's symbolic zero for one term of a series (a pytree with no leaves,
    so, as in JAX, jet rejects it as an input term)."""


zero_term = ZeroTerm()
register_pytree_node(ZeroTerm, lambda z: ((), None), lambda _, xs: zero_term)


class ZeroSeries:
    """JAX's symbolic zero for a whole series (a pytree with no leaves)."""


zero_series = ZeroSeries()
register_pytree_node(ZeroSeries, lambda z: ((), None), lambda _, xs: zero_series)


def fact(n):
    """n!, computed as JAX's jet does (exp of lgamma, so it rounds the same)."""
    return lax_math.exp(lax_math.lgamma(n + 1.))


def _taylor_coefficients(flat_fun, primals, coefficients, order):
    """Primal outputs and, per output, its Taylor coefficients y_1..y_K
    (not factorial-scaled) of flat_fun along x(t) = x0 + sum_k c_k t^k."""

    def curve_value(t):
        xs = []
        for x0, cs in zip(primals, coefficients):
            acc = None
            for c in reversed(cs):  # Horner: c1 + t (c2 + t (c3 + ...))
                acc = c if acc is None else c + t * acc
            xs.append(x0 if acc is None else x0 + t * acc)
        return flat_fun(*xs)

    # derivatives[k](t) = [y(t), y'(t), ..., y^(k)(t)]: one more jvp in t per order.
    def with_next_derivative(derivatives, t):
        values, tangents = jvp(derivatives, (t,), (1.0,))
        return values + [tangents[-1]]

    derivatives = lambda t: [curve_value(t)]  # noqa: E731
    for _ in range(order):
        derivatives = functools.partial(with_next_derivative, derivatives)
    values = derivatives(0.0)
    primals_out = values[0]
    terms_out = [[values[k][i] / float(np.prod(np.arange(1, k + 1))) for k in range(1, order + 1)]
                 for i in range(len(primals_out))]
    return primals_out, terms_out


def jet(fun, primals, series, factorial_scaled=True, **_):
    """Like `jax.experimental.jet.jet`: `(fun(*primals), series_out)`, the
    output's Taylor series along the input series. `primals` is a tuple of
    arrays, `series` a tuple (one per primal) of equally long lists of arrays;
    with `factorial_scaled` (the default) the k-th term of either series is
    the k-th derivative, otherwise the k-th Taylor coefficient."""
    try:
        order, = set(map(len, series))
    except ValueError:
        raise ValueError("jet terms have inconsistent lengths for different arguments") \
            from None
    for i, (x, terms) in enumerate(zip(primals, series)):
        if not treedef_is_leaf(tree_structure(x)):
            raise ValueError(f"primal value at position {i} is not an array")
        for j, t in enumerate(terms):
            if not treedef_is_leaf(tree_structure(t)):
                raise ValueError(f"term {j} for argument {i} is not an array")
            if isinstance(t, (ZeroTerm, ZeroSeries)):
                # (JAX fails on it later, dividing it by j!.)
                raise TypeError(f"jet: term {j} for argument {i} is a symbolic zero; "
                                "pass an array of zeros")
    # As JAX's: the arguments pair up with the series (zip), the rest is dropped.
    n = min(len(primals), len(series))
    primals = list(primals)[:n]
    if factorial_scaled:
        series = [[term / fact(k + 1) for k, term in enumerate(terms)] for terms in series]
    series = [list(terms) for terms in series][:n]
    info = {}

    def flat_fun(*xs):
        leaves, info["tree"] = tree_flatten(fun(*xs))
        inexact = [dtypes.is_inexact(l.dtype if hasattr(l, "dtype")
                                     else dtypes.scalar_type_of(l)[0]) for l in leaves]
        info["inexact"] = inexact
        return [l for l, keep in zip(leaves, inexact) if keep]

    if order == 0:
        out_leaves, out_tree = tree_flatten(fun(*primals))
        return (tree_unflatten(out_tree, out_leaves),
                tree_unflatten(out_tree, [[] for _ in out_leaves]))
    kept_primals, kept_terms = _taylor_coefficients(flat_fun, primals, series, order)
    if all(info["inexact"]):
        out_primals = list(kept_primals)
    else:
        # Integer and boolean outputs have no series (zeros, as JAX's); their
        # values come from a plain call.
        out_primals, _ = tree_flatten(fun(*primals))
    kept = iter(kept_terms)
    out_terms = [next(kept) if keep else [zeros_like(p)] * order
                 for p, keep in zip(out_primals, info["inexact"])]
    if factorial_scaled:
        out_terms = [[term * fact(k + 1) for k, term in enumerate(terms)]
                     for terms in out_terms]
    return tree_unflatten(info["tree"], out_primals), tree_unflatten(info["tree"], out_terms)


jet2 = functools.partial(jet, factorial_scaled=False)

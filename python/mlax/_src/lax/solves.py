"""Solves differentiated implicitly: custom_linear_solve and custom_root, as
jax.lax's (jax/_src/lax/control_flow/solves.py).

The user's solver is never differentiated: it may be an iteration in
`while_loop`, which reverse mode cannot go through. Derivatives come from the
equation the solution satisfies instead.

Both are built on the custom derivative calls (transforms.autodiff): each
function JAX traces to a jaxpr (matvec, solve, f, ...) is traced once here
with `closure_convert`, so the traced values it closes over (a matrix
entry, a parameter of f) become explicit arguments of the custom call, and
its derivative rule can differentiate with respect to them.

* custom_linear_solve(matvec, b, ...) is a custom_jvp call whose primal is
  a custom_vjp call of `solve`. Its JVP solves again: x = A^-1 b gives
  dx = A^-1 (db - dA x). Reverse mode transposes that rule; the solve in it
  is a custom_vjp call whose bwd is the transposed problem (`transpose_solve`
  with the transposed matvec, itself a custom_linear_solve), which
  mlax-autodiff uses when it transposes a custom_jvp rule.
* custom_root(f, guess, ...) is a custom_jvp call: at the root u*(m) of
  f_m, du* = -(d_u f)^-1 (d_m f)[dm], the inverse by `tangent_solve` on f
  linearized at the root. Reverse mode transposes that (tangent_solve must
  be differentiable, as in JAX).
"""
from __future__ import annotations

import functools

import numpy as np

from mlax._src.base import dtypes
from mlax._src.base.tree import registry, tree_map
from mlax._src.core.tracing import _run
from mlax._src.lax import lax
from mlax._src.transforms import autodiff
from mlax._src.transforms.linear import linear_transpose


def _check_tree(func_name, expected_name, actual_tree, expected_tree, has_aux=False):
    """JAX's check of a function's output structure (and of has_aux's pair)."""
    if has_aux:
        children = actual_tree.children()
        if len(children) != 2:
            raise ValueError(
                f"{func_name}() produced a pytree with structure {actual_tree}, but a pytree "
                "tuple with auxiliary output was expected because has_aux was set to True.")
        actual_tree = children[0]
    if actual_tree != expected_tree:
        raise TypeError(
            f"{func_name}() output pytree structure must match {expected_name}, got "
            f"{actual_tree} and {expected_tree}.")


def _shape_checked(fun, name, expected_leaves, has_aux):
    """`fun`, raising JAX's ValueError when its output (without aux) has
    other shapes than `expected_leaves`."""
    expected = [np.shape(x) for x in expected_leaves]

    def checked(*args):
        out = fun(*args)
        y = out
        if has_aux:
            y, _ = out
        actual = [np.shape(x) for x in registry.flatten(y)[0]]
        if actual != expected:
            raise ValueError(
                f"{name}() output shapes must match b, got {actual} and {expected}")
        return out
    return checked


def _converted(fun, *example_args):
    """closure_convert of `fun` at `example_args`: (the converted function,
    called as f(*args, *consts); the traced values it closes over, consts;
    its output tree)."""
    tree = []

    def recorded(*args):
        out = fun(*args)
        tree.append(registry.flatten(out)[1])
        return out
    converted, consts = autodiff.closure_convert(recorded, *example_args)
    return converted, list(consts), tree[0]


def _is_float(x) -> bool:
    return dtypes.is_inexact(np.dtype(x.dtype))


def _jvp_in_consts(fun, consts, dconsts):
    """The tangent of `fun(*consts)` for tangents `dconsts` of its floating
    consts (the others, integers, have none); None when no const has one."""
    which = [i for i, c in enumerate(consts) if _is_float(c)]
    if not which:
        return None

    def of_float(*fs):
        full = list(consts)
        for i, v in zip(which, fs):
            full[i] = v
        return fun(*full)
    return autodiff.jvp(of_float, tuple(consts[i] for i in which),
                        tuple(dconsts[i] for i in which))[1]


def _zeros_like(tree):
    return tree_map(lambda x: lax.full_like(x, 0), tree)


# ---------------------------------------------------------------------------
# custom_linear_solve
# ---------------------------------------------------------------------------

def _linear_solves(matvec, vecmat, solve, transpose_solve, has_aux):
    """The two custom_linear_solve functions, of (consts, b): for the
    problem (index 0) and for its transpose (index 1), whose matvec is
    `vecmat` and whose solves are swapped. `matvec(consts, x)`,
    `solve(consts, b)`; consts are (matvec's, solve's, transpose_solve's)."""
    maps = (matvec, vecmat)
    solves = (solve, transpose_solve)
    functions = []

    def solution(out):
        return out[0] if has_aux else out

    # (Each side's functions close over its values through `one_side`, not
    # default arguments: custom_jvp / custom_vjp fill defaults in as
    # arguments, as JAX's do.)
    def one_side(side):
        apply_matvec, apply_solve = maps[side], solves[side]

        def primal(consts, b):
            return apply_solve(consts, b)

        def fwd(consts, b):
            return apply_solve(consts, b), consts

        def bwd(consts, ct):
            # The solve is linear in b: its transpose is the transposed solve.
            if solves[1 - side] is None:
                raise TypeError("transpose_solve required for backwards mode automatic "
                                "differentiation of custom_linear_solve")
            # (An aux output's cotangent is dropped, as JAX's transpose does.)
            return None, solution(functions[1 - side](consts, solution(ct)))

        solve_call = autodiff.custom_vjp(primal)
        solve_call.defvjp(fwd, bwd)

        def implicit(consts, b):
            return solve_call(consts, b)

        linear_solve = autodiff.custom_jvp(implicit)

        def rule(primals, tangents):
            # A x = b, so A dx = db - dA x: solve again (never through solve).
            consts, b = primals
            dconsts, db = tangents
            out = linear_solve(consts, b)
            x = solution(out)
            rhs = db
            da_x = _jvp_in_consts(lambda *mc: apply_matvec((list(mc),) + tuple(consts[1:]), x),
                                  consts[0], dconsts[0])
            if da_x is not None:
                rhs = tree_map(lax.sub, db, da_x)
            dx = solution(linear_solve(consts, rhs))
            return out, ((dx, _zeros_like(out[1])) if has_aux else dx)

        linear_solve.defjvp(rule)
        return linear_solve

    functions.extend(one_side(side) for side in (0, 1))
    return functions


def custom_linear_solve(matvec, b, solve, transpose_solve=None, symmetric=False,
                        has_aux=False):
    """Like `jax.lax.custom_linear_solve`: `solve(matvec, b)`, differentiated
    as the solution x of the linear equation `matvec(x) == b` rather than
    through `solve` (which need not be differentiable: an iteration in
    `while_loop` is the use case).

    Forward mode solves again for dx = A^-1 (db - dA x), where dA comes from
    the traced values `matvec` closes over; reverse mode uses
    `transpose_solve(vecmat, ct)`, vecmat being the transpose of matvec
    (`solve` itself when `symmetric`). With `has_aux`, `solve` and
    `transpose_solve` return (x, aux), and so does this; aux has a zero
    derivative."""
    if transpose_solve is None and symmetric:
        transpose_solve = solve

    def traced(b):
        b_leaves, tree = registry.flatten(b)
        mv, mv_consts, out_tree = _converted(
            _shape_checked(matvec, "matvec", b_leaves, False), b)
        _check_tree("matvec", "b", out_tree, tree, False)
        sv, sv_consts, out_tree = _converted(
            _shape_checked(functools.partial(solve, matvec), "solve", b_leaves, has_aux), b)
        _check_tree("solve", "b", out_tree, tree, has_aux)
        tsv, tsv_consts = None, []
        if transpose_solve is not None:
            user_vecmat = matvec if symmetric else _transpose_one_output(matvec, b)
            tsv, tsv_consts, out_tree = _converted(
                _shape_checked(functools.partial(transpose_solve, user_vecmat),
                               "transpose_solve", b_leaves, has_aux), b)
            _check_tree("transpose_solve", "b", out_tree, tree, has_aux)

        def apply_matvec(consts, x):
            return mv(x, *consts[0])

        if symmetric:
            apply_vecmat = apply_matvec
        else:
            def apply_vecmat(consts, y):
                return _transpose_one_output(lambda x: mv(x, *consts[0]), b)(y)

        functions = _linear_solves(
            apply_matvec, apply_vecmat,
            lambda consts, r: sv(r, *consts[1]),
            None if tsv is None else (lambda consts, r: tsv(r, *consts[2])),
            has_aux)
        return functions[0]((mv_consts, sv_consts, tsv_consts), b)

    return _run(traced, "custom_linear_solve", (b,))


def _transpose_one_output(linear_fun, primal):
    transposed = linear_transpose(linear_fun, primal)
    return lambda y: transposed(y)[0]


# ---------------------------------------------------------------------------
# custom_root
# ---------------------------------------------------------------------------

def custom_root(f, initial_guess, solve, tangent_solve, has_aux=False):
    """Like `jax.lax.custom_root`: `solve(f, initial_guess)`, a root of `f`,
    differentiated with respect to the traced values `f` closes over by the
    implicit function theorem rather than through `solve`:
    du* = -(d_u f)^-1 (d_m f)[dm], the inverse applied by
    `tangent_solve(g, y)`, g being f linearized at the root (for a scalar,
    `lambda g, y: y / g(1.0)`). The initial guess gets no derivative. With
    `has_aux`, `solve` returns (root, aux), and so does this."""

    def traced(guess):
        _, tree = registry.flatten(guess)
        fc, f_consts, out_tree = _converted(f, guess)
        _check_tree("f", "initial_guess", out_tree, tree, False)
        sv, sv_consts, out_tree = _converted(functools.partial(solve, f), guess)
        _check_tree("solve", "initial_guess", out_tree, tree, has_aux)

        def linearize_and_solve(x, rhs):
            return tangent_solve(lambda v: autodiff.jvp(f, (x,), (v,))[1], rhs)

        ls, ls_consts, out_tree = _converted(linearize_and_solve, guess, guess)
        _check_tree("tangent_solve", "x", out_tree, tree, False)

        def primal(consts, guess):
            return sv(guess, *consts[1])

        root = autodiff.custom_jvp(primal)

        @root.defjvp
        def rule(primals, tangents):
            consts, guess = primals
            dconsts, _ = tangents
            out = root(consts, guess)
            u = out[0] if has_aux else out
            df = _jvp_in_consts(lambda *c: fc(u, *c), consts[0], dconsts[0])
            if df is None:
                du = _zeros_like(u)
            else:
                du = tree_map(lax.neg, ls(u, df, *consts[2]))
            return out, ((du, _zeros_like(out[1])) if has_aux else du)

        return root((f_consts, sv_consts, ls_consts), guess)

    return _run(traced, "custom_root", (initial_guess,))

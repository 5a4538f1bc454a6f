"""grad, value_and_grad, jvp, vjp, jacfwd, jacrev, hessian, custom_jvp,
custom_vjp, stop_gradient.

Differentiation is not done here: each transformation traces the function
into a private `func.func` and emits one `mlax.jvp` / `mlax.vjp` op naming it;
the `mlax-autodiff` pass generates the derivative code from each op's rules.
Called outside any trace, a transformation traces itself into a module and
runs it (retraced every call, as JAX's eager transformations re-run Python;
the executables are cached by program text).
"""
from __future__ import annotations

import collections
import contextlib
import functools
import inspect
import threading

import numpy as np
from mlir import ir
from mlir.dialects import func as func_d

from mlax._src.backend import compiler
from mlax._src.core import tracer as core
from mlax._src.base import debug_info, dtypes, errors, public_tree
from mlax._src.base.config import config
from mlax._src.backend import host_callbacks, native, partial_eval, runtime
from mlax._src.core import key_reuse, primitives, ref_state, tracing
from mlax._src.core.tracing import (  # noqa: F401  (autodiff._run etc. as before)
    _Callee, _eager_cache, _name_of, _plain_rebuild, _run, clear_cache)
from mlax._src.core.array import Array
from mlax._src.core.tracer import Tracer
from mlax._src.base.tree import registry
from mlax._src.transforms.vmap import vmap
from mlax._src.transforms import ad_checkpoint as _ad_checkpoint
from mlax._src.transforms.symbolic_zeros import (  # noqa: F401  (re-exported)
    CustomVJPPrimal, SymbolicZero, custom_vjp_primal_tree_values, tangent_aval, value_aval)


# JAX's dtype of the (co)tangents of integer and boolean values.
float0 = dtypes.float0


def _i64s(values):
    return ir.DenseI64ArrayAttr.get([int(v) for v in values])


def _carries_tangent(aval) -> bool:
    """Real and complex floats carry (co)tangents (complex ones by JAX's
    convention: rules transpose without conjugating)."""
    return dtypes.is_inexact(aval.dtype)


def _as_leaf_value(outer, x, aval):
    """`x` (a tangent or cotangent) as an SSA value of `aval`'s type."""
    if isinstance(x, Tracer):
        if x.aval.shape != aval.shape or x.aval.dtype != aval.dtype:
            x = primitives_convert(x, aval)
        return outer.value_of(x)
    value = np.asarray(x)
    if value.shape != aval.shape:
        value = np.broadcast_to(value, aval.shape)
    return primitives.constant_value(outer, value.astype(aval.dtype), aval)


# The array functions autodiff calls that live in higher layers (lax,
# numpy): mlax._src.numpy registers them when it is imported, so this layer
# never imports upward.
_array_functions = {}


def register_array_functions(**functions):
    """Called by the numpy layer: convert_element_type, broadcast_in_dim,
    reshape and zeros_like."""
    _array_functions.update(functions)


def primitives_convert(x, aval):
    if x.aval.dtype != aval.dtype:
        x = _array_functions["convert_element_type"](x, aval.dtype)
    if x.aval.shape != aval.shape:
        x = _array_functions["broadcast_in_dim"](x, aval.shape, tuple(range(len(aval.shape) - x.ndim,
                                                            len(aval.shape))))
    return x


# ---------------------------------------------------------------------------
# Checks with JAX's messages
# ---------------------------------------------------------------------------

def _check_argnums(argnums, nargs, fname):
    multiple = isinstance(argnums, (tuple, list))
    nums = tuple(argnums) if multiple else (argnums,)
    for a in nums:
        if not isinstance(a, (int, np.integer)) or isinstance(a, bool):
            raise TypeError(f"{type(a).__name__!r} object cannot be interpreted as an integer")
    for a in nums:
        if not -nargs <= a < nargs:
            raise TypeError(
                f"differentiating with respect to argnums={argnums!r} requires at least "
                f"{(a if a >= 0 else -a - 1) + 1} positional arguments to be passed by the "
                f"caller, but got only {nargs} positional arguments.")
    return multiple, tuple(int(a) % nargs for a in nums)


def _check_array_leaf(leaf, fname, what):
    """A differentiated (or mapped) argument must be an array; the fix named
    is one that exists for `fname`."""
    if not tracing.is_array_leaf(leaf):
        raise TypeError(
            f"Argument '{leaf!r}' of type {type(leaf)} is not a valid JAX type: {fname} "
            f"differentiates with respect to it ({what}). Only arrays, NumPy arrays and "
            "Python scalars can be differentiated; pass other values at positions not in "
            "argnums (they are closed over) or close over them in a lambda.")


def _merge_static(all_leaves, dyn, dyn_values):
    """`all_leaves` with the leaves at positions `dyn` replaced by `dyn_values`."""
    merged = list(all_leaves)
    for j, v in zip(dyn, dyn_values):
        merged[j] = v
    return merged


def _check_grad_input(aval, fname, allow_int, holomorphic=False):
    if holomorphic and not dtypes.is_complex(aval.dtype):
        raise TypeError(f"{fname} with holomorphic=True requires inputs with complex dtype, "
                        f"but got {aval.dtype.name}.")
    if dtypes.is_inexact(aval.dtype) or allow_int:
        return
    raise TypeError(
        f"{fname} requires real- or complex-valued inputs (input dtype that is a "
        f"sub-dtype of np.inexact), but got {aval.dtype.name}. If you want to use "
        "Boolean- or integer-valued inputs, use vjp or set allow_int to True.")


def _check_scalar_output(aval, fname, holomorphic=False):
    if aval.shape != ():
        raise TypeError(
            f"Gradient only defined for scalar-output functions. Output had shape: "
            f"{aval.shape}.")
    if holomorphic:
        if not dtypes.is_complex(aval.dtype):
            raise TypeError(f"{fname} with holomorphic=True requires outputs with complex "
                            f"dtype, but got {aval.dtype.name}.")
    elif not dtypes.is_float(aval.dtype):
        raise TypeError(
            f"{fname} requires real-valued outputs (output dtype that is a sub-dtype of "
            f"np.floating), but got {aval.dtype.name}. For holomorphic differentiation, "
            "pass holomorphic=True. For differentiation of non-holomorphic functions "
            "involving complex outputs, use jax.vjp directly.")


def _check_complex_output(aval, fname, holomorphic):
    """jacfwd / jacrev: holomorphic outputs are complex, others are not (JAX's)."""
    if holomorphic and not dtypes.is_complex(aval.dtype):
        raise TypeError(f"{fname} with holomorphic=True requires outputs with complex dtype, "
                        f"but got {aval.dtype.name}.")
    if not holomorphic and dtypes.is_complex(aval.dtype):
        raise TypeError(
            f"{fname} requires real-valued outputs (output dtype that is a sub-dtype of "
            f"np.floating), but got {aval.dtype.name}. For holomorphic differentiation, pass "
            "holomorphic=True. For differentiation of non-holomorphic functions involving "
            "complex outputs, use jax.vjp directly.")


# ---------------------------------------------------------------------------
# grad and value_and_grad
# ---------------------------------------------------------------------------

def _leaf_ranges(args):
    """Flattens each positional argument; returns (leaves, [(start, stop, treedef)])."""
    leaves, ranges = [], []
    for a in args:
        ls, td = registry.flatten(a)
        ranges.append((len(leaves), len(leaves) + len(ls), td))
        leaves += ls
    return leaves, ranges


def _value_and_grad_traced(fun, argnums, has_aux, allow_int, fname, args, kwargs,
                           holomorphic=False):
    multiple, nums = _check_argnums(argnums, len(args), fname)
    leaves, ranges = _leaf_ranges(args)
    kw_leaves, kw_tree = registry.flatten(kwargs)
    n_pos = len(leaves)
    wrt = []
    for i in nums:
        start, stop, _ = ranges[i]
        for j in range(start, stop):
            _check_array_leaf(leaves[j], fname, f"argnums={argnums!r}")
            aval = tracing._leaf_aval(leaves[j])
            _check_grad_input(aval, fname, allow_int, holomorphic)
            if _carries_tangent(aval):
                wrt.append(j)
    # Arguments that are not differentiated may be anything (a function, a
    # string): they are closed over, as in JAX, Python ints and bools among
    # them too (a jitted function may take them as static arguments); arrays
    # and Python floats among them stay arguments of the traced function.
    all_leaves = leaves + kw_leaves
    differentiated = {j for i in nums for j in range(ranges[i][0], ranges[i][1])}
    dyn = [j for j, leaf in enumerate(all_leaves) if tracing.is_array_leaf(leaf)
           and (j in differentiated or not dtypes.is_python_integer(leaf))]
    position = {j: k for k, j in enumerate(dyn)}
    out_info = {}

    def flat_fun(*dyn_xs):
        xs = _merge_static(all_leaves, dyn, dyn_xs)
        pos = [ranges[i][2].unflatten(xs[ranges[i][0]:ranges[i][1]])
               for i in range(len(args))]
        kw = kw_tree.unflatten(xs[n_pos:])
        # checkify's checks in `fun` leave the callee as extra outputs.
        observed = out_info["observed"] = primitives.ObservedCall(refs=True)
        out = observed(fun, *pos, **kw)
        if has_aux:
            if not (isinstance(out, (tuple, list)) and len(out) == 2):
                raise TypeError(
                    "expected function with aux output to return a two-element tuple, but "
                    f"got type {type(out)} with value {out!r}")
            out, aux = out
        else:
            aux = None
        out_leaves, out_tree = registry.flatten(out)
        if len(out_leaves) != 1 or out_leaves[0] is not out:  # ([x] too, as JAX's)
            raise TypeError(
                f"Gradient only defined for scalar-output functions. Output was {out!r}.")
        aux_leaves, aux_tree = tracing.pass_through_untraced(aux)
        out_info["aux_tree"] = aux_tree
        out_info["out_tree"] = out_tree
        out_info["n_aux"] = len(aux_leaves)
        return [out_leaves[0]] + list(aux_leaves) + list(observed.leaves)

    callee = _Callee(flat_fun, [all_leaves[j] for j in dyn], _name_of(fun), known=True,
                     transform=fname, debug=(fun, tracing.debug_tree(args, kwargs, dyn)),
                     differentiated=("vjp", frozenset(position[j] for j in wrt)))
    out_aval = callee.out_avals[0]
    _check_scalar_output(out_aval, fname, holomorphic)
    outer = callee.outer
    one = primitives.constant_value(outer, np.ones((), out_aval.dtype), out_aval.update(weak_type=False))
    grad_avals = [callee.in_avals[position[j]] for j in wrt]
    _trace_needed_rules(callee.sym, "vjp")
    ops = native.ops()
    with outer.ip, core.user_location():
        op = ops.VjpOp([a.mlir_type() for a in callee.out_avals] +
                       [a.mlir_type() for a in grad_avals],
                       callee.symbol, callee.operands, [one],
                       _i64s([position[j] for j in wrt]), _i64s([0]))
    results = list(op.results)
    nout = len(callee.out_avals)
    value = Tracer(results[0], out_aval, outer)
    outs = [Tracer(r, a, outer) for r, a in zip(results[1:nout], callee.out_avals[1:])]
    n_aux = out_info["n_aux"]
    aux = out_info["aux_tree"].unflatten(outs[:n_aux])
    out_info["observed"].hand_back(outs[n_aux:])
    grads_by_leaf = dict(zip(wrt, [Tracer(r, a, outer)
                                   for r, a in zip(results[nout:], grad_avals)]))

    def grad_leaf(j):
        g = grads_by_leaf.get(j)
        if g is None:  # an integer input with allow_int: JAX gives float0 zeros
            aval = tracing._leaf_aval(all_leaves[j])
            return np.zeros(aval.shape, dtype=float0)
        return g

    grads = []
    for i in nums:
        start, stop, td = ranges[i]
        grads.append(td.unflatten([grad_leaf(j) for j in range(start, stop)]))
    grads = tuple(grads) if multiple else grads[0]
    value = out_info["out_tree"].unflatten([value])
    return ((value, aux) if has_aux else value), grads


def _undifferentiated_scalars(argnums, args, kwargs):
    """Positions among the leaves of (args, kwargs) of the Python ints and bools
    not differentiated: passed through to the function as they are (JAX
    closes over the arguments not in argnums)."""
    nums = argnums if isinstance(argnums, (tuple, list)) else (argnums,)
    try:
        nums = {int(a) % len(args) for a in nums} if args else set()
    except (TypeError, ValueError):
        return ()  # (the transformation raises its own error)
    out, start = [], 0
    for i, a in enumerate(list(args) + [kwargs]):
        leaves, _ = registry.flatten(a)
        if i not in nums:
            out += [start + k for k, leaf in enumerate(leaves) if dtypes.is_python_integer(leaf)]
        start += len(leaves)
    return out


def value_and_grad(fun, argnums=0, has_aux=False, holomorphic=False, allow_int=False,
                   reduce_axes=()):
    """Like `jax.value_and_grad`: `f`'s value and its gradient with respect to
    the positional arguments `argnums`."""
    if not callable(fun):
        raise TypeError(f"Expected a callable value, got {fun!r}")
    fname = "value_and_grad"

    @functools.wraps(fun)
    def value_and_grad_f(*args, **kwargs):
        traced = functools.partial(_value_and_grad_traced, fun, argnums, has_aux, allow_int,
                                   fname)
        return _run(lambda *a, **k: traced(a, k, holomorphic),
                    f"value_and_grad_{_name_of(fun)}", args, kwargs, transform=fname,
                    static=_undifferentiated_scalars(argnums, args, kwargs))

    value_and_grad_f.__doc__ = (f"Value and gradient of {getattr(fun, '__name__', fun)!s} "
                                f"with respect to positional argument(s) {argnums}.")
    return value_and_grad_f


def grad(fun, argnums=0, has_aux=False, holomorphic=False, allow_int=False, reduce_axes=()):
    """Like `jax.grad`: the gradient of scalar-valued `fun` with respect to its
    positional arguments `argnums` (an int or a tuple of ints)."""
    if not callable(fun):
        raise TypeError(f"Expected a callable value, got {fun!r}")
    fname = "grad"

    @functools.wraps(fun)
    def grad_f(*args, **kwargs):
        def traced(*a, **k):
            out, g = _value_and_grad_traced(fun, argnums, has_aux, allow_int, fname, a, k,
                                            holomorphic)
            return (g, out[1]) if has_aux else g
        return _run(traced, f"grad_{_name_of(fun)}", args, kwargs, transform=fname,
                    static=_undifferentiated_scalars(argnums, args, kwargs))

    grad_f.__doc__ = (f"Gradient of {getattr(fun, '__name__', fun)!s} with respect to "
                      f"positional argument(s) {argnums}.")
    return grad_f


# ---------------------------------------------------------------------------
# jvp and vjp
# ---------------------------------------------------------------------------

def _check_tangent(p_aval, t, fname):
    t_aval = value_aval(t)
    if t_aval.shape != p_aval.shape:
        raise ValueError(
            f"{fname} called with different primal and tangent shapes;Got primal shape "
            f"{p_aval.shape} and tangent shape as {t_aval.shape}")
    expected = tangent_aval(p_aval).dtype
    same = t_aval.dtype == expected or (t_aval.weak_type and _carries_tangent(t_aval)
                                        and _carries_tangent(p_aval))
    if not same:
        raise TypeError(
            "primal and tangent arguments to jax.jvp do not match; dtypes must be equal, "
            "or in case of int/bool primal dtype the tangent dtype must be float0.Got "
            f"primal dtype {p_aval.dtype.name} and so expected tangent dtype "
            f"{expected}, but got tangent dtype {t_aval.dtype} instead.")


def _jvp_leaves(primals, tangents):
    """The leaves of `primals`, their tree, and the tangent of each leaf.
    A typed PRNG key is a leaf in JAX (and in the user's view of the tree,
    public_tree), whose tangent is float0 zeros of the key array's shape;
    here it is a node over its uint32 data, whose tangent is float0 zeros
    of the data's shape."""
    p_nodes, p_tree = public_tree.tree_flatten(primals)
    t_nodes, t_tree = public_tree.tree_flatten(tangents)
    if p_tree != t_tree:
        raise TypeError(
            "primal and tangent arguments to jvp must have the same tree structure; "
            f"primals have tree structure {p_tree} whereas tangents have tree structure "
            f"{t_tree}.")
    t_leaves = []
    for p, t in zip(p_nodes, t_nodes):
        if not isinstance(p, key_reuse.Tracked):
            t_leaves.append(t)
            continue
        t_aval = value_aval(t)
        if t_aval.dtype != dtypes.float0:
            raise TypeError(
                "primal and tangent arguments to jax.jvp do not match; dtypes must be "
                "equal, or in case of int/bool primal dtype the tangent dtype must be "
                f"float0.Got primal dtype {p.dtype} and so expected tangent dtype "
                f"float0, but got tangent dtype {t_aval.dtype} instead.")
        if tuple(t_aval.shape) != tuple(p.shape):
            raise ValueError(
                "jvp called with different primal and tangent shapes;Got primal shape "
                f"{tuple(p.shape)} and tangent shape as {tuple(t_aval.shape)}")
        t_leaves += [np.zeros(tracing._leaf_aval(d).shape, dtypes.float0)
                     for d in registry.flatten(p)[0]]
    p_leaves, p_tree = registry.flatten(primals)
    return p_leaves, p_tree, t_leaves


def _jvp_traced(fun, primals, tangents, has_aux=False, transform="jvp"):
    p_leaves, p_tree, t_leaves = _jvp_leaves(primals, tangents)
    p_avals = [tracing._leaf_aval(p) for p in p_leaves]
    for pa, t in zip(p_avals, t_leaves):
        _check_tangent(pa, t, "jvp")
    info = {}
    wrt = [i for i, a in enumerate(p_avals) if _carries_tangent(a)]

    def flat(*xs):
        observed = info["observed"] = primitives.ObservedCall(refs=True)  # checkify's checks
        out = observed(fun, *p_tree.unflatten(xs))
        if has_aux:
            if not (isinstance(out, (tuple, list)) and len(out) == 2):
                raise TypeError("jvp with has_aux=True requires the function to return a "
                                "pair (output, auxiliary data).")
            out, aux = out
        else:
            aux = None
        o_leaves, o_tree = registry.flatten(out)
        a_leaves, a_tree = tracing.pass_through_untraced(aux)
        info.update(tree=o_tree, aux_tree=a_tree, n=len(o_leaves), n_aux=len(a_leaves))
        return list(o_leaves) + list(a_leaves) + list(observed.leaves)

    callee = _Callee(flat, p_leaves, _name_of(fun), known=True, transform=transform,
                     debug=(fun, tracing.debug_tree(primals, {})),
                     differentiated=("jvp", frozenset(wrt)))
    outer = callee.outer
    tangent_values = [_as_leaf_value(outer, t_leaves[i], p_avals[i].update(weak_type=False))
                      for i in wrt]
    out_avals = callee.out_avals
    _trace_needed_rules(callee.sym, "jvp")
    ops = native.ops()
    with outer.ip, core.user_location():
        op = ops.JvpOp([a.mlir_type() for a in out_avals] * 2, callee.symbol,
                       callee.operands, tangent_values, _i64s(wrt))
    results = list(op.results)
    n_all, n, n_aux = len(out_avals), info["n"], info["n_aux"]
    outs = [Tracer(r, a, outer) for r, a in zip(results[:n], out_avals)]
    # As JAX's: a tangent output has its primal output's aval (weak type too).
    touts = [Tracer(r, a, outer) if _carries_tangent(a)
             else np.zeros(a.shape, float0)
             for r, a in zip(results[n_all:n_all + n], out_avals)]
    out, tout = info["tree"].unflatten(outs), info["tree"].unflatten(touts)
    info["observed"].hand_back([Tracer(r, a, outer) for r, a in
                                zip(results[n + n_aux:n_all], out_avals[n + n_aux:])])
    if has_aux:
        aux = info["aux_tree"].unflatten(
            [Tracer(r, a, outer) for r, a in
             zip(results[n:n + n_aux], out_avals[n:n + n_aux])])
        return out, tout, aux
    return out, tout


def jvp(fun, primals, tangents, has_aux=False):
    """Like `jax.jvp`: `(fun(*primals), d fun(primals)[tangents])` (and `aux`
    with has_aux)."""
    if not callable(fun):
        raise TypeError(f"Expected a callable value, got {fun!r}")
    for name, v in (("primal", primals), ("tangent", tangents)):
        if not isinstance(v, (tuple, list)):
            raise TypeError(f"{name} arguments to jax.jvp must be a tuple or a list; "
                            f"found {type(v).__name__}.")
    if len(primals) != len(tangents):
        raise TypeError("jvp called with different numbers of primal and tangent "
                        f"arguments: {len(primals)} and {len(tangents)}")
    # Outside a trace, a program of its own (whose float0 tangents, those of
    # integer outputs, the tracer puts back as static leaves).
    return _run(lambda p, t: _jvp_traced(fun, p, t, has_aux), f"jvp_{_name_of(fun)}",
                (tuple(primals), tuple(tangents)), transform="jvp")


class _Pullback:
    """The function `vjp` returns: cotangents of the outputs to cotangents of
    the inputs. Inside a trace it emits an `mlax.vjp` of the traced function;
    outside it runs as a program of its own."""

    def __init__(self, fun, primals, has_aux, callee=None):
        self._fun = fun
        self._primals = primals
        self._has_aux = has_aux
        self._callee = callee
        # Cotangents are weakly typed where the primal and every cotangent
        # seed are (as JAX's); jacrev's basis counts as weak.
        self._basis_seeds = False
        # An eager vjp's backward program and the residuals its forward
        # returned (see _SplitVjp), used when called outside any trace.
        self._split = self._residuals = None
        # Or the program of an eager vjp whose bwds it calls (_DeferredVjp).
        self._deferred = self._p_leaves = None

    def __call__(self, cotangent):
        if self._split is not None and not core.trace_stack():
            return self._split.pullback(self._fun, self._residuals, cotangent)
        if self._deferred is not None and not core.trace_stack():
            return self._deferred.pullback(self._fun, self._p_leaves, cotangent)
        if self._callee is not None and core.trace_stack() and \
                self._callee.outer.is_ancestor_of_current():
            return self._emit(self._callee, cotangent)
        fun, has_aux = self._fun, self._has_aux

        def traced(primals, ct):
            callee = _vjp_callee(fun, primals, has_aux)
            return _Pullback(fun, primals, has_aux, callee)._emit(callee, ct)
        return _run(traced, f"vjp_{_name_of(fun)}", (self._primals, cotangent),
                    transform="vjp")

    def _emit(self, callee, cotangent):
        p_leaves, p_tree = registry.flatten(self._primals)
        out_avals = callee.out_avals[:callee.n_out]
        ct_leaves, seeds = _check_cotangent(self._fun, callee.main_tree, out_avals, cotangent)
        outer = core.current_trace()
        ct_values = [_as_leaf_value(outer, ct_leaves[i], out_avals[i].update(weak_type=False))
                     for i in seeds]
        p_avals = callee.in_avals[:len(p_leaves)]
        _, by_leaf = _emit_vjp_op(callee, p_avals, ct_values, seeds)
        seeds_weak = self._basis_seeds or _seeds_weak(ct_leaves, seeds, out_avals)
        return _cotangent_tree(p_tree, p_avals, by_leaf, seeds_weak,
                               lambda v, a: Tracer(v, a, outer))


def _check_cotangent(fun, main_tree, out_avals, cotangent):
    """The cotangent's leaves and the indices of the outputs that seed the
    pullback, after JAX's checks of its structure, shapes and dtypes."""
    ct_leaves, ct_tree = registry.flatten(cotangent)
    if ct_tree != main_tree:
        code = getattr(inspect.unwrap(fun), "__code__", None)
        where = f" at {code.co_filename}:{code.co_firstlineno}" if code else ""
        raise ValueError(
            "unexpected tree structure.\n\nThe argument to a VJP function returned by "
            "`jax.vjp` must match the pytree\nstructure of the differentiated function "
            f"{_name_of(fun)}{where}.\n\nBut the tree structures differ: the output is "
            f"{main_tree}, the cotangent {ct_tree}.")
    seeds = [i for i, a in enumerate(out_avals) if _carries_tangent(a)]
    for a, c in zip(out_avals, ct_leaves):
        if getattr(c, "dtype", None) == float0:  # the cotangent of an integer output
            c_aval = core.ShapedArray(np.shape(c), float0)
        else:
            c_aval = c.aval if isinstance(c, Tracer) else tracing._leaf_aval(c)
        if c_aval.shape != a.shape or (_carries_tangent(a) and c_aval.dtype != a.dtype):
            raise ValueError(
                "unexpected JAX type (e.g. shape/dtype) for argument to VJP function: got "
                f"{errors.aval_str(c_aval).lstrip('~')}, but expected "
                f"{errors.aval_str(a).lstrip('~')} because the corresponding output of "
                "the differentiated function had JAX type "
                f"{errors.aval_str(a).lstrip('~')}")
    return ct_leaves, seeds


def _seeds_weak(ct_leaves, seeds, out_avals):
    """Whether the cotangent of a weakly typed primal stays weak: every seed
    is weak, or seeds an output of a strong type. (In JAX a weak input
    reaches a strong output only through its promotion, a convert whose
    transpose gives back a weak cotangent; through weak ops a strong seed
    makes it strong.)"""
    return all(not out_avals[i].weak_type or
               getattr(ct_leaves[i], "weak_type", False) or
               (not isinstance(ct_leaves[i], Tracer) and
                tracing._leaf_aval(ct_leaves[i]).weak_type)
               for i in seeds)


def _emit_vjp_op(callee, p_avals, ct_values, seeds, trace_rules=True):
    """An mlax.vjp of `callee` seeded by `ct_values` (SSA values) at the
    outputs `seeds`. Returns (its primal results as tracers, {index of a
    primal leaf that carries a cotangent: its cotangent value}).
    `trace_rules=False`: the custom rules it needs are left to the caller."""
    outer = core.current_trace()
    wrt = [i for i, a in enumerate(p_avals) if _carries_tangent(a)]
    operands = [outer.value_of(t) if isinstance(t, Tracer) else v
                for t, v in zip(callee.operand_sources, callee.operands)]
    if trace_rules:
        if getattr(callee, "bwd_rules", None) is None:
            callee.bwd_rules = _trace_needed_rules(callee.sym, "vjp")
        else:
            # The pullback called again: JAX calls bwd for each backward pass.
            for entry in callee.bwd_rules:
                entry.trace_backward()
    ops = native.ops()
    with outer.ip, core.user_location():
        op = ops.VjpOp([a.mlir_type() for a in callee.out_avals] +
                       [p_avals[i].mlir_type() for i in wrt],
                       callee.symbol, operands, ct_values, _i64s(wrt), _i64s(seeds))
    n = len(callee.out_avals)
    results = list(op.results)
    primals = [Tracer(r, a, outer) for r, a in zip(results[:n], callee.out_avals)]
    return primals, dict(zip(wrt, results[n:]))


def _cotangent_tree(p_tree, p_avals, by_leaf, seeds_weak, make):
    """The cotangents as `p_tree`: `make(value, aval)` of each leaf in
    `by_leaf`, float0 zeros for the others."""
    cts = []
    for i, a in enumerate(p_avals):
        if i in by_leaf:
            cts.append(make(by_leaf[i], a.update(weak_type=a.weak_type and seeds_weak)))
        else:
            cts.append(np.zeros(a.shape, dtype=float0))
    return tuple(p_tree.unflatten(cts))


def _vjp_callee(fun, primals, has_aux, transform="vjp"):
    p_leaves, p_tree = registry.flatten(primals)
    info = {}

    def flat(*xs):
        observed = info["observed"] = primitives.ObservedCall(refs=True)  # checkify's checks
        out = observed(fun, *p_tree.unflatten(xs))
        if has_aux:
            if not (isinstance(out, (tuple, list)) and len(out) == 2):
                raise TypeError("vjp with has_aux=True requires the function to return a "
                                "pair (output, auxiliary data).")
            out, aux = out
        else:
            aux = None
        o_leaves, o_tree = registry.flatten(out)
        a_leaves, a_tree = tracing.pass_through_untraced(aux)
        info.update(main_tree=o_tree, aux_tree=a_tree, n_out=len(o_leaves),
                    n_aux=len(a_leaves))
        return list(o_leaves) + list(a_leaves) + list(observed.leaves)

    wrt = frozenset(i for i, leaf in enumerate(p_leaves)
                    if _carries_tangent(tracing._leaf_aval(leaf)))
    callee = _Callee(flat, p_leaves, _name_of(fun), known=True, transform=transform,
                     debug=(fun, tracing.debug_tree(primals, {})),
                     differentiated=("vjp", wrt))
    callee.main_tree = info["main_tree"]
    callee.aux_tree = info["aux_tree"]
    callee.n_out = info["n_out"]
    callee.n_aux, callee.observed = info["n_aux"], info["observed"]
    callee.operand_sources = list(p_leaves) + list(callee.captured)
    return callee


class _SplitVjp:
    """An eager `vjp`'s program, traced once as forward and backward together
    and cut in two (backend.partial_eval): the forward runs when `vjp` is
    called and returns the residuals; the backward, compiled when a pullback
    first needs it, takes them and the cotangents. As in JAX, the forward
    (its callbacks included) runs once, and pulling back does not redo it."""

    def __init__(self, name, p_avals, p_tree, forward, backward_module, n_res,
                 ct_kept, seeds, wrt, main_tree, out_avals, table):
        self.name = name
        self.p_avals, self.p_tree = p_avals, p_tree
        self.forward = forward
        self._backward_module = backward_module
        self._backward = None
        self.n_res, self.ct_kept = n_res, ct_kept
        self.seeds, self.wrt = seeds, wrt
        self.main_tree, self.out_avals = main_tree, out_avals
        self._table = table

    def backward(self):
        if self._backward is None:
            module = self._backward_module
            if self._table:
                host_callbacks.table_of(module).extend(self._table)
            text = module.operation.get_asm(enable_debug_info=False)
            exe = compiler.compile_stablehlo(text, None, name=self.name, module=module)
            res_avals = self.forward.out_avals[len(self.forward.out_avals) - self.n_res:]
            in_avals = list(res_avals) + [self.out_avals[i].update(weak_type=False)
                                          for i in self.seeds]
            outs = [self.p_avals[i].update(weak_type=False) for i in self.wrt]
            entry = tracing._Executable(exe, in_avals, outs, registry.flatten(outs)[1],
                                        text, {})
            entry.kept = tuple(range(self.n_res)) + tuple(self.n_res + j for j in self.ct_kept)
            self._backward, self._backward_module = entry, None
        return self._backward

    def pullback(self, fun, residuals, cotangent):
        ct_leaves, seeds = _check_cotangent(fun, self.main_tree, self.out_avals, cotangent)
        results = self.backward()(list(residuals) + [ct_leaves[i] for i in seeds])
        weak = _seeds_weak(ct_leaves, seeds, self.out_avals)
        return _cotangent_tree(self.p_tree, self.p_avals, dict(zip(self.wrt, results)), weak,
                               lambda v, a: v if v.aval == a else Array(v._buf, a))


class _DeferredVjp:
    """An eager `vjp` of a function that reaches a custom_vjp: JAX calls its
    bwd each time the pullback is called, not in vjp(). The program traced
    in vjp() (forward and backward, the bwds stand-ins) is kept as traced;
    vjp() runs its forward half, and each pullback traces the bwds into it
    (`left`: their _LazyRules) and runs it whole. The function's Python (and
    fwd's) runs once, in vjp(); its forward computation runs again with the
    backward."""

    def __init__(self, name, module, trace, left, out_avals, out_tree, p_avals, info):
        self.name, self.module, self.trace, self.left = name, module, trace, left
        self.out_avals, self.out_tree, self.p_avals = out_avals, out_tree, p_avals
        self.info = info
        self.ct_avals = [out_avals[i].update(weak_type=False) for i in info["seeds"]]

    def _copy(self, n_results=None):
        """A copy of the traced program to lower (which changes it), its
        @main returning its first `n_results` results only, if given."""
        module = ir.Module.parse(self.module.operation.get_asm(enable_debug_info=True),
                                 self.module.context)
        table = host_callbacks.callbacks_of(self.module)
        if table:
            host_callbacks.table_of(module).extend(table)
        if n_results is not None:
            main = next(op for op in module.body.operations
                        if "sym_name" in op.attributes
                        and op.attributes["sym_name"].value == "main")
            ret = list(main.regions[0].blocks[0].operations)[-1]
            kept = list(ret.operands)[:n_results]
            with module.context, ir.InsertionPoint(ret), ret.location:
                func_d.ReturnOp(kept)
                ret.erase()
                inputs = ir.FunctionType(main.attributes["function_type"].value).inputs
                main.attributes["function_type"] = ir.TypeAttr.get(
                    ir.FunctionType.get(inputs, [v.type for v in kept]))
        return module

    def forward(self, p_leaves):
        """The primal outputs (and aux), running the forward half."""
        n = len(self.info["callee"].out_avals)
        outs = self.out_avals[:n]
        module = self._copy(n)
        zeros = [np.zeros(a.shape, a.dtype) for a in self.ct_avals]
        return tracing.run_module(module, outs, registry.flatten(outs)[1],
                                  self.p_avals + tuple(self.ct_avals),
                                  list(p_leaves) + zeros, self.name)

    def pullback(self, fun, p_leaves, cotangent):
        callee = self.info["callee"]
        ct_leaves, seeds = _check_cotangent(fun, callee.main_tree,
                                            callee.out_avals[:callee.n_out], cotangent)
        trace = self.trace
        # The bwds are traced into the program traced in vjp() (its trace
        # resumed, inserting before @main's return), replacing the last ones.
        saved = trace.ip, trace.alive
        stack = core.trace_stack()
        with trace.module.context, ir.Location.unknown():
            trace.ip = ir.InsertionPoint.at_block_terminator(trace.block)
            trace.alive = True
            stack.append(trace)
            try:
                for entry in self.left:
                    old = entry.op.attributes["bwd"].value
                    entry.trace_backward()
                    _function_named(trace, old).erase()
            finally:
                stack.pop()
                trace.ip, trace.alive = saved
        _, cts = tracing.run_module(
            self._copy(), self.out_avals, self.out_tree,
            self.p_avals + tuple(self.ct_avals),
            list(p_leaves) + [ct_leaves[i] for i in seeds], self.name)
        weak = _seeds_weak(ct_leaves, seeds, callee.out_avals[:callee.n_out])
        return _cotangent_tree(self.info["p_tree"], self.p_avals,
                               dict(zip(self.info["wrt"], cts)), weak,
                               lambda v, a: v if v.aval == a else Array(v._buf, a))


def _eager_vjp(fun, primals, has_aux):
    """`vjp` outside any trace, as (out, aux, pullback), its forward run once
    (see _SplitVjp). A function that reaches a custom_vjp (whose bwd JAX
    calls only for the pullback) is a _DeferredVjp. None where the program
    cannot be cut (the caller then runs the forward now and forward and
    backward at pullback time)."""
    p_leaves, p_tree = registry.flatten(primals)
    if not all(tracing.is_array_leaf(leaf) for leaf in p_leaves):
        return None
    name = f"vjp_{_name_of(fun)}"
    if tracing._arguments_device(name, p_leaves) is not None:
        return None
    p_avals = tuple(tracing._leaf_aval(leaf) for leaf in p_leaves)
    try:
        module, out_avals, out_tree, info = _trace_vjp_program(fun, p_leaves, p_tree, p_avals,
                                                               has_aux)
    except ref_state.RefsNeeded:
        return None  # Refs made outside: the general path (tracing._run) passes them in
    callee = info["callee"]
    if info["left"]:
        deferred = _DeferredVjp(name, module, info.pop("trace"), info.pop("left"), out_avals,
                                out_tree, p_avals, info)
        results = deferred.forward(p_leaves)
        out, aux = _forward_results(callee, results)
        aux = tracing.unwrap_pass_through(aux)
        pullback = _Pullback(fun, primals, has_aux)
        pullback._deferred, pullback._p_leaves = deferred, list(p_leaves)
        return out, aux, pullback
    table = host_callbacks.callbacks_of(module)
    # (With the outputs' weak types, which the text does not show, and the
    # primals' tree: a typed key and its raw data trace to one program, but
    # their cotangents are float0 of different shapes.)
    key = (module.operation.get_asm(enable_debug_info=False), out_tree, p_tree, p_avals,
           tuple(out_avals), config.trace_context)
    split = None
    if not table:  # (a program with callbacks is never shared: see tracing._run)
        with tracing._eager_lock:
            split = tracing._eager_split_cache.get(key)
            if split is not None:
                tracing._eager_split_cache.move_to_end(key)
    if split is None:
        split = _split(module, name, callee, info, p_avals, p_tree, table)
        if split is None:
            return None
        if not table:
            with tracing._eager_lock:
                tracing._eager_split_cache[key] = split
                while len(tracing._eager_split_cache) > tracing._EAGER_CACHE_SIZE:
                    tracing._eager_split_cache.popitem(last=False)
    results = split.forward(list(p_leaves))
    n_early = len(results) - split.n_res
    out, aux = _forward_results(callee, results[:n_early])
    aux = tracing.unwrap_pass_through(aux)
    pullback = _Pullback(fun, primals, has_aux)
    pullback._split, pullback._residuals = split, results[n_early:]
    return out, aux, pullback


def _trace_vjp_program(fun, p_leaves, p_tree, p_avals, has_aux, backward_rules=False):
    """The combined program of an eager vjp, `main(primals, cotangents) ->
    (outputs, input cotangents)`, traced (not lowered): (module, out_avals,
    out_tree, info). The custom_vjp bwds it reaches are left untraced
    (info["left"]: JAX calls them at pullback time) unless
    `backward_rules`."""
    info = {}

    def combined(*xs):
        callee = _vjp_callee(fun, p_tree.unflatten(xs), has_aux)
        trace = core.current_trace()
        out_avals = callee.out_avals[:callee.n_out]
        seeds = [i for i, a in enumerate(out_avals) if _carries_tangent(a)]
        cts = [trace.add_argument(out_avals[i].update(weak_type=False)) for i in seeds]
        # The rules the forward pass needs are traced now; bwds, which JAX
        # calls when the pullback is, are left to it (a _DeferredVjp).
        left = _trace_needed_rules(callee.sym, "vjp", backward=backward_rules)
        outs, by_leaf = _emit_vjp_op(callee, p_avals, [t.value for t in cts], seeds,
                                     trace_rules=False)
        wrt = sorted(by_leaf)
        info.update(callee=callee, seeds=seeds, wrt=wrt, n_ct=len(cts), trace=trace,
                    left=left if not backward_rules else [], p_tree=p_tree)
        return outs, [Tracer(by_leaf[i], p_avals[i].update(weak_type=False), trace)
                      for i in wrt]

    _, treedef = registry.flatten((tuple(p_leaves), {}))
    module, out_avals, out_tree = tracing.trace_to_module(
        combined, treedef, p_avals, _plain_rebuild, known=list(p_leaves), transform="vjp",
        refs_in=True)
    return module, out_avals, out_tree, info


def saved_residuals(fun, *args, **kwargs):
    """As jax.ad_checkpoint's saved_residuals: [(aval, description)] for each
    value the backward pass of `fun` at `args` uses that the forward pass
    computes or is given: what a `vjp` saves between the two. A description
    is "from the argument <name>" or "output of <op> from <file:line>".

    mlax's residuals are those of an eager `vjp`'s program cut in two after
    its passes (backend.partial_eval): the values the backward really reads,
    after simplification, where JAX lists those of its linearized jaxpr. Op
    names are the StableHLO ops', with JAX's primitive name where they are
    one of JAX's (sin for stablehlo.sine)."""
    p_leaves, p_tree = registry.flatten((args, kwargs))
    if not all(tracing.is_array_leaf(leaf) for leaf in p_leaves):
        p_leaves = [leaf if tracing.is_array_leaf(leaf) else np.asarray(leaf)
                    for leaf in p_leaves]
    p_avals = tuple(tracing._leaf_aval(leaf) for leaf in p_leaves)

    def flat(a, k):
        return fun(*a, **k)
    flat.__name__ = _name_of(fun)
    module, _, _, info = _trace_vjp_program(flat, p_leaves, p_tree, p_avals, False,
                                            backward_rules=True)
    callee = info["callee"]
    kept = _lowered_kept(module, f"vjp_{_name_of(fun)}", len(p_avals) + info["n_ct"])
    p_kept = [i for i in kept if i < len(p_avals)]
    names = debug_info.arg_names(fun, p_tree, lambda t: t)
    out = []
    for ty, source in partial_eval.residual_sources(module, len(p_kept),
                                                    len(callee.out_avals)):
        aval = core.ShapedArray(*dtypes.shape_dtype_of(ty), False)
        if source[0] == "argument":
            out.append((aval, f"from the argument {names[p_kept[source[1]]]}"))
        else:
            _, name, where = source
            op = _JAX_NAMES.get(name, name.rpartition(".")[2])
            out.append((aval, f"output of {op}" + (f" from {where}" if where else "")))
    return out


def print_saved_residuals(fun, *args, **kwargs):
    """As jax.ad_checkpoint.print_saved_residuals: prints saved_residuals,
    one line per residual (`f32[3,3] output of sin from f.py:5`)."""
    for aval, description in saved_residuals(fun, *args, **kwargs):
        print(f"{aval.str_short()} {description}")


# StableHLO ops named by the JAX primitive they are (saved_residuals).
_JAX_NAMES = {f"stablehlo.{k}": v for k, v in {
    "sine": "sin", "cosine": "cos", "tangent": "tan", "multiply": "mul", "subtract": "sub",
    "divide": "div", "remainder": "rem", "negate": "neg", "exponential": "exp",
    "exponential_minus_one": "expm1", "log_plus_one": "log1p", "logistic": "logistic",
    "maximum": "max", "minimum": "min", "power": "pow", "select": "select_n",
    "convert": "convert_element_type", "broadcast_in_dim": "broadcast_in_dim",
    "atan2": "atan2", "abs": "abs", "sqrt": "sqrt", "rsqrt": "rsqrt", "cbrt": "cbrt",
    "tanh": "tanh", "dot_general": "dot_general", "transpose": "transpose",
    "reshape": "reshape", "reduce": "reduce", "compare": "compare", "concatenate":
    "concatenate", "slice": "slice", "dynamic_slice": "dynamic_slice", "gather": "gather",
    "scatter": "scatter", "iota": "iota", "sign": "sign", "floor": "floor", "ceil": "ceil",
    "round_nearest_even": "round", "is_finite": "is_finite", "clamp": "clamp",
    "reverse": "rev", "pad": "pad", "convolution": "conv_general_dilated",
    "reduce_window": "reduce_window", "sort": "sort", "while": "while", "case": "cond",
    "if": "cond"}.items()}


def _lowered_kept(module, name, n_args):
    """Lowers the combined program `module` of an eager vjp (in place);
    returns the indices of the arguments the lowered program still takes."""
    compiler.to_stablehlo(
        module, name=name, platform=runtime.lowering_platform(runtime.default_device()))
    kept = compiler.kept_arguments(module)
    return range(n_args) if kept is None else kept


def _split(module, name, callee, info, p_avals, p_tree, table):
    """Lowers the combined program `module` and cuts it (a _SplitVjp), or
    None when it cannot be cut."""
    n_p, n_early = len(p_avals), len(callee.out_avals)
    kept = _lowered_kept(module, name, n_p + info["n_ct"])
    if "mhlo.num_partitions" in module.operation.attributes:
        return None  # partitioned over a mesh: the pullback runs the whole program
    p_kept = [i for i in kept if i < n_p]
    ct_kept = [i - n_p for i in kept if i >= n_p]
    try:
        fwd, bwd, res_types = partial_eval.split(module, len(p_kept), n_early)
    except partial_eval.NotSplittable:
        return None
    if table:
        host_callbacks.table_of(fwd).extend(table)
    text = fwd.operation.get_asm(enable_debug_info=False)
    exe = compiler.compile_stablehlo(text, None, name=name, module=fwd)
    res_avals = [core.ShapedArray(*dtypes.shape_dtype_of(t), False) for t in res_types]
    outs = list(callee.out_avals) + res_avals
    forward = tracing._Executable(exe, p_avals, outs, registry.flatten(outs)[1], text, {})
    forward.kept = tuple(p_kept) if len(p_kept) != n_p else None
    return _SplitVjp(name, p_avals, p_tree, forward, bwd, len(res_avals), ct_kept,
                     info["seeds"], info["wrt"], callee.main_tree,
                     callee.out_avals[:callee.n_out], table)


def _forward_results(callee, results):
    """The outputs and auxiliary data among the results of a call of a vjp
    callee; checkify's checks among them go to its observer."""
    n_main = callee.n_out + callee.n_aux
    callee.observed.hand_back(results[n_main:])
    return (callee.main_tree.unflatten(results[:callee.n_out]),
            callee.aux_tree.unflatten(results[callee.n_out:n_main]))


def vjp(fun, *primals, has_aux=False):
    """Like `jax.vjp`: `(fun(*primals), pullback)` (and `aux` with has_aux),
    where `pullback(cotangent)` returns one cotangent per primal."""
    if not callable(fun):
        raise TypeError(f"Expected a callable value, got {fun!r}")

    def forward(*p):
        callee = _vjp_callee(fun, p, has_aux)
        results = callee.call()
        out, aux = _forward_results(callee, results)
        return callee, out, aux

    if core.trace_stack():
        callee, out, aux = forward(*primals)
        aux = tracing.unwrap_pass_through(aux)
        pullback = _Pullback(fun, primals, has_aux, callee)
    elif (eager := _eager_vjp(fun, primals, has_aux)) is not None:
        out, aux, pullback = eager
    else:
        def traced(*p):
            _, out, aux = forward(*p)
            return out, aux
        out, aux = _run(traced, f"vjp_{_name_of(fun)}", primals, transform="vjp")
        pullback = _Pullback(fun, primals, has_aux)
    return (out, pullback, aux) if has_aux else (out, pullback)


# ---------------------------------------------------------------------------
# Jacobians
# ---------------------------------------------------------------------------

def _std_basis(avals, dtype_of=None):
    """The rows of the identity, split per leaf: leaf k gets shape
    (total,) + its shape."""
    total = sum(a.size for a in avals)
    eye = np.eye(total)
    parts, start = [], 0
    for a in avals:
        dt = dtype_of(a) if dtype_of else a.dtype
        parts.append(eye[:, start:start + a.size].reshape((total,) + a.shape).astype(dt))
        start += a.size
    return parts, total


def _split_last(x, lead_shape, avals):
    """Splits the last axis of `x` (of size sum of avals' sizes) into one
    array per aval, each reshaped to lead_shape + aval.shape."""
    pieces, start = [], 0
    for av in avals:
        piece = x[..., start:start + av.size]
        pieces.append(_array_functions["reshape"](piece, tuple(lead_shape) + tuple(av.shape)))
        start += av.size
    return pieces


def jacfwd(fun, argnums=0, has_aux=False, holomorphic=False):
    """Like `jax.jacfwd`: the Jacobian by forward mode, as `vmap` of `jvp` over
    the standard basis (leaves of shape `out.shape + in.shape`)."""

    @functools.wraps(fun)
    def jac_f(*args):
        def traced(*a):
            multiple, nums = _check_argnums(argnums, len(a), "jacfwd")
            diff = tuple(a[i] for i in nums)
            d_leaves, d_tree = registry.flatten(diff)
            d_avals = [tracing._leaf_aval(x) for x in d_leaves]
            for av in d_avals:
                if dtypes.is_complex(av.dtype) and not holomorphic:
                    raise TypeError(
                        f"jacfwd requires real-valued inputs (input dtype that is a sub-dtype "
                        f"of np.floating), but got {av.dtype.name}. For holomorphic "
                        "differentiation, pass holomorphic=True. For differentiation of "
                        "non-holomorphic functions involving complex inputs or integer "
                        "inputs, use jax.jvp directly.")
                _check_grad_input(av, "jacfwd", False, holomorphic)

            def f_of_leaves(*leaves):
                full = list(a)
                for i, v in zip(nums, d_tree.unflatten(leaves)):
                    full[i] = v
                out = fun(*full)
                return out[0] if has_aux else out

            def pushfwd(*tangents):
                return _jvp_traced(f_of_leaves, tuple(d_leaves), tuple(tangents),
                                   transform="jacfwd")

            basis, _ = _std_basis(d_avals)
            primal_out, columns = vmap(pushfwd, out_axes=(None, -1))(*basis)
            o_leaves, o_tree = registry.flatten(columns)
            # The float0 columns of integer outputs are zeros of the outputs'
            # dtype, as JAX's Jacobian of them.
            o_leaves = [np.zeros(col.shape, _aval_of_leaf(p).dtype)
                        if getattr(col, "dtype", None) == float0 else col
                        for col, p in zip(o_leaves, registry.flatten(primal_out)[0])]
            if holomorphic:
                for col in o_leaves:
                    _check_complex_output(col.aval, "jacfwd", True)
            per_out = []
            for col in o_leaves:
                pieces = _split_last(col, col.shape[:-1], d_avals)
                structured = d_tree.unflatten(pieces)
                per_out.append(tuple(structured) if multiple else structured[0])
            jac = o_tree.unflatten(per_out)
            if has_aux:
                aux_leaves, aux_tree = tracing.pass_through_untraced(fun(*a)[1])
                return jac, aux_tree.unflatten(aux_leaves)
            return jac
        return _run(traced, f"jacfwd_{_name_of(fun)}", args, transform="jacfwd")

    return jac_f


def jacrev(fun, argnums=0, has_aux=False, holomorphic=False, allow_int=False):
    """Like `jax.jacrev`: the Jacobian by reverse mode, as `vmap` of the
    pullback over the standard basis (leaves of shape `out.shape + in.shape`)."""

    @functools.wraps(fun)
    def jac_f(*args):
        def traced(*a):
            multiple, nums = _check_argnums(argnums, len(a), "jacrev")
            diff = tuple(a[i] for i in nums)
            d_leaves, d_tree = registry.flatten(diff)
            for leaf in d_leaves:
                _check_grad_input(tracing._leaf_aval(leaf), "jacrev", allow_int, holomorphic)

            def f_of_diff(*vals):
                full = list(a)
                for i, v in zip(nums, vals):
                    full[i] = v
                return fun(*full)

            callee = _vjp_callee(f_of_diff, diff, has_aux, "jacrev")
            # The outputs' values are not needed (the pullback's mlax.vjp
            # computes the forward): no call of their own, so the forward's
            # callbacks run once, as in JAX. The auxiliary data needs one.
            aux = None
            if has_aux or callee.observed.leaves:  # (checkify's checks are results too)
                aux = _forward_results(callee, callee.call())[1]
            pullback = _Pullback(f_of_diff, diff, has_aux, callee)
            pullback._basis_seeds = True
            o_avals = list(callee.out_avals[:callee.n_out])
            for oa in o_avals:
                _check_complex_output(oa, "jacrev", holomorphic)
                if not dtypes.is_inexact(oa.dtype):  # (JAX's _check_output_dtype_revderiv)
                    raise TypeError(
                        f"jacrev requires real-valued outputs (output dtype that is a "
                        f"sub-dtype of np.floating), but got {oa.dtype.name}. For "
                        "differentiation of functions with integer outputs, use jax.vjp "
                        "directly.")
            basis, total = _std_basis(o_avals)
            rows = vmap(lambda *cts: pullback(callee.main_tree.unflatten(cts)))(*basis)
            row_leaves = registry.flatten(rows)[0]  # per input leaf: (total,) + in.shape
            per_out = []
            for j, oa in enumerate(o_avals):
                start = sum(o.size for o in o_avals[:j])
                pieces = [_array_functions["reshape"](r[start:start + oa.size], tuple(oa.shape) + tuple(
                    tracing._leaf_aval(d).shape)) for r, d in zip(row_leaves, d_leaves)]
                structured = d_tree.unflatten(pieces)
                per_out.append(tuple(structured) if multiple else structured[0])
            jac = callee.main_tree.unflatten(per_out)
            return (jac, aux) if has_aux else jac
        return _run(traced, f"jacrev_{_name_of(fun)}", args, transform="jacrev")

    return jac_f


def hessian(fun, argnums=0, has_aux=False, holomorphic=False):
    """Like `jax.hessian`: `jacfwd(jacrev(fun))`."""
    return jacfwd(jacrev(fun, argnums, has_aux=has_aux, holomorphic=holomorphic),
                  argnums, has_aux=has_aux, holomorphic=holomorphic)


# ---------------------------------------------------------------------------
# stop_gradient
# ---------------------------------------------------------------------------

def _stop_gradient_leaf(x):
    trace = core.current_trace()
    if trace is None:
        return x
    aval = x.aval if isinstance(x, Tracer) else tracing._leaf_aval(x)
    if not _carries_tangent(aval):
        return x
    value = primitives.to_value(trace, x, aval)
    ops = native.ops()
    with trace.ip, core.user_location():
        r = ops.StopGradientOp(value).result
    return Tracer(r, aval, trace)


def stop_gradient(x):
    """The identity, with a zero derivative (applied to every leaf)."""
    leaves, tree = registry.flatten(x)
    return tree.unflatten([_stop_gradient_leaf(leaf) for leaf in leaves])


# ---------------------------------------------------------------------------
# custom_jvp and custom_vjp
# ---------------------------------------------------------------------------

def _positional(fun, args, kwargs, fill_defaults=True):
    """The call's arguments as positions, defaults filled in (as JAX's
    resolve_kwargs: a defaulted argument is at its position, so
    nondiff_argnums naming it find it even when the caller left it out).
    `fill_defaults=False`: defaults only where keywords are given."""
    if not kwargs and not fill_defaults:
        return tuple(args)
    try:
        sig = inspect.signature(fun)
    except (TypeError, ValueError):  # (no signature to read: as given)
        if kwargs:
            raise
        return tuple(args)
    bound = sig.bind(*args, **kwargs)
    bound.apply_defaults()
    return tuple(bound.args) + tuple(bound.kwargs.values())


def _no_captures(callee, what):
    if callee.captured:
        raise NotImplementedError(
            f"{what} closes over values traced outside it ({len(callee.captured)} of "
            "them); pass them to the function as arguments instead.")


class _SplitCall:
    """A call of `fun` inside a trace, split as custom_jvp / custom_vjp /
    checkpoint need it: the arguments at `fixed_argnums` stay Python values,
    the others are flattened and `fun` is traced over their leaves into a
    private function (`callee`); `out_tree` is its output structure."""

    def __init__(self, fun, fixed_argnums, args, captures_error=None, concrete=True,
                 traced_for=None, via=None, report=True):
        """`via(self, leaves)`, where given, stands for `fun`: it returns
        the flattened results (setting `out_tree`) from a custom rule (the
        function as a derivative sees it)."""
        self.args = args
        fixed = sorted({i % len(args) for i in fixed_argnums})
        self.fixed = [args[i] for i in fixed]
        self.diff_idx = [i for i in range(len(args)) if i not in fixed]
        self.d_args = tuple(args[i] for i in self.diff_idx)
        self.d_leaves, self.d_tree = registry.flatten(self.d_args)
        self.out_tree = None
        self.callee = None  # (while it is traced)

        def primal(*leaves):
            # checkify's checks in the function are reported by a call of
            # their own (_report_checks), not by this one.
            dropping = primitives.ObservedCall(discard=True) if report else _plain_call
            if via is not None:
                return dropping(via, self, leaves)
            o_leaves, self.out_tree = registry.flatten(dropping(fun, *self.full(leaves)))
            return o_leaves

        # Errors name `fun` and its arguments: the leaves of the arguments
        # not at fixed_argnums.
        dynamic, start = [], 0
        for i, a in enumerate(args):
            n = len(registry.flatten(a)[0])
            if i in self.diff_idx:
                dynamic += range(start, start + n)
            start += n
        self.callee = _Callee(primal, self.d_leaves, _name_of(fun),
                              known=True if concrete else None,
                              debug=(fun, tracing.debug_tree(args, {}, dynamic)),
                              traced_for=traced_for)
        if captures_error is not None:
            _no_captures(self.callee, captures_error)

    def full(self, leaves):
        """All the arguments, the traced ones rebuilt from `leaves`."""
        out = list(self.args)
        for i, v in zip(self.diff_idx, self.d_tree.unflatten(leaves)):
            out[i] = v
        return out

    def emit(self, op_class, *symbols, lazy=None):
        """Emits `op_class(result types, callee, *symbols, operands)`; returns
        the results in the function's output structure. `lazy`: (the symbol
        of a stand-in rule, the _LazyRules' `forward`, `backward`), traced
        when a derivative needs them."""
        callee, outer = self.callee, self.callee.outer
        ops = native.ops()
        with outer.ip, core.user_location():
            op = getattr(ops, op_class)([a.mlir_type() for a in callee.out_avals],
                                        callee.symbol, *symbols, callee.operands)
        self.op = op
        if lazy is not None:
            entry = outer.lazy_rules[lazy[0]] = _LazyRules(op, *lazy[1:])
            if outer.differentiated is not None and entry.forward is not None:
                # (An active call traces its forward rule at once.)
                entry.inactive_in = outer.func_op.attributes["sym_name"].value
        return self.out_tree.unflatten(
            [Tracer(r, a, outer) for r, a in zip(op.results, callee.out_avals)])

    def plain_call(self):
        return self.out_tree.unflatten(self.callee.call())


def _plain_call(fun, *args):
    return fun(*args)


def _report_checks(fun, fixed_argnums, args, concrete, traced_for):
    """Under checkify: the checks `fun` makes on `args` (a custom_jvp or
    custom_vjp function, a checkpointed one), made by a plain call of `fun`
    of their own, which only returns them, and handed to the checker. The
    call whose results are used (an op a derivative replaces by a rule or
    recomputes) drops its checks. As in JAX, the checks are the function's:
    a custom rule's own are not made."""
    if primitives.current_observer() is None:
        return
    calls = []

    def checks_of(*a):
        calls.append(primitives.ObservedCall())
        calls[-1](fun, *a)
        return calls[-1].leaves
    split = _SplitCall(checks_of, fixed_argnums, args, concrete=concrete,
                       traced_for=traced_for, report=False)
    if calls[-1].leaves:
        calls[-1].hand_back(registry.flatten(split.plain_call())[0])


def _call_traced(callee, args):
    """An mlax.call of the traced function `callee` in the current trace on
    `args` (tracers or constants): its results as tracers."""
    trace = core.current_trace()
    operands = [trace.value_of(_as_tracer(x)) for x in args]
    ops = native.ops()
    with trace.ip, core.user_location():
        op = ops.CallOp([a.mlir_type() for a in callee.out_avals], callee.symbol, operands)
    return [Tracer(r, a, trace) for r, a in zip(op.results, callee.out_avals)]


def _placeholders(avals):
    return [np.zeros(a.shape, a.dtype) for a in avals]


def _zeros_function(in_avals, out_avals, name):
    """A private function of `in_avals` returning zeros of `out_avals`: what
    an op names in place of a custom rule not traced yet."""
    out_avals = list(out_avals)

    def zeros(*xs):
        return [_as_tracer(np.zeros(a.shape, a.dtype)) for a in out_avals]
    return _Callee(zeros, _placeholders(in_avals), name, avals=list(in_avals))


class _SymbolIndex:
    """The ops naming symbols in the functions of `trace`'s module, read
    from the IR once per function (nested ops included), so that the walks
    of `_trace_needed_rules` over the functions a derivative reaches visit
    each op of the module once instead of once per walk. The symbols an
    indexed op names are read again at each walk: tracing a rule sets new
    ones on the custom_jvp/custom_vjp call that named its stand-in (an op
    already naming a symbol, so already indexed). Functions traced after
    the index was made (the rules) are indexed when a walk first reaches
    them. Valid while no function it indexed changes otherwise (no op is
    added to or erased from them), as during one `_trace_needed_rules`."""

    def __init__(self, trace):
        self.module = trace.module
        self.funcs = {}
        self.by_func = {}  # symbol -> [op naming symbols]

    def _func(self, sym):
        func = self.funcs.get(sym)
        if func is None:
            # (Scanned again when a symbol is not found: rules traced since.)
            for op in self.module.body.operations:
                if "sym_name" in op.attributes:
                    self.funcs.setdefault(op.attributes["sym_name"].value, op.operation)
            func = self.funcs.get(sym)
        return func

    def ops_of(self, sym):
        """The ops of the function `sym` that name symbols, or None if the
        module has no function `sym`."""
        found = self.by_func.get(sym)
        if found is not None:
            return found
        func = self._func(sym)
        if func is None:
            return None
        found, ops = [], [func]
        while ops:
            op = ops.pop()
            if op.name != "mlax.constant":
                # (A constant names no symbol; and reading a complex dense
                # attribute through the bindings aborts the process.)
                attributes = op.attributes
                for i in range(len(attributes)):
                    if isinstance(attributes[i].attr, ir.FlatSymbolRefAttr):
                        found.append(op)
                        break
            for region in op.regions:
                for block in region.blocks:
                    ops.extend(block.operations)
        self.by_func[sym] = found
        return found

    def reachable(self, callee_sym, into_custom_jvp_callees=True):
        """(op name, the symbols it names) for every op naming symbols of
        the function `callee_sym` and of the functions those ops name (with
        `into_custom_jvp_callees` false, not the primal functions of
        custom_jvp calls, which neither forward nor reverse mode
        differentiates: they use the rule)."""
        seen, queue = set(), [callee_sym]
        while queue:
            sym = queue.pop()
            if sym in seen:
                continue
            seen.add(sym)
            ops = self.ops_of(sym)
            if ops is None:
                continue
            for op in ops:
                name = op.name
                symbols, followed = [], []
                attributes = op.attributes
                for i in range(len(attributes)):
                    named = attributes[i]
                    attr = named.attr
                    if isinstance(attr, ir.FlatSymbolRefAttr):
                        symbols.append(attr.value)
                        if (into_custom_jvp_callees or name != "mlax.custom_jvp_call"
                                or named.name != "callee"):
                            followed.append(attr.value)
                yield name, symbols
                queue.extend(followed)


class _LazyRules:
    """The custom rules of one custom_jvp / custom_vjp call (or checkpoint
    policy) not traced yet: `forward()` traces what the forward pass of a
    derivative needs (a custom_vjp's fwd, a custom_jvp's rule), `backward()`
    what only its backward pass does (a custom_vjp's bwd, again at each
    call); each returns {attribute of `op`: symbol}, and is None where there
    is nothing (left) to trace."""

    def __init__(self, op, forward=None, backward=None):
        self.op, self.forward, self.backward = op, forward, backward
        # The function a derivative is taken of where the call is on values
        # it does not differentiate (the symbol): that derivative needs no
        # rule (JAX's JVP trace sees zero tangents and calls the function),
        # one of an enclosing function may.
        self.inactive_in = None

    def trace_forward(self):
        if self.forward is None:
            return {}
        forward, self.forward = self.forward, None
        return self._set(forward())

    def trace_backward(self):
        return self._set(self.backward())

    def _set(self, attributes):
        attributes = attributes or {}
        for attr, symbol in attributes.items():
            self.op.attributes[attr] = symbol
        return attributes


def _check_forward_mode(trace, callee_sym):
    """JAX's TypeError where forward mode over the function `callee_sym`
    meets a custom_vjp call. One inside a reverse-mode request (`mlax.vjp`)
    is not met: that request, done first, replaces it by calls of its `fwd`
    and `bwd`, and forward mode differentiates those (as JAX's does, which
    sees the rules' operations), so a custom_vjp call in `fwd` or `bwd` is
    met again. Neither mode differentiates a custom_jvp call's function;
    its rule is called, so only the forward derivatives over this one (an
    `mlax.jvp` inside) differentiate it (linear_call's rule holds a
    custom_vjp call, which a first jvp does not meet)."""
    funcs = {}
    for op in trace.module.body.operations:
        if "sym_name" in op.attributes:
            funcs[op.attributes["sym_name"].value] = op.operation
    # (symbol, how many forward-mode derivatives differentiate it directly)
    seen, queue = set(), [(callee_sym, 1)]
    while queue:
        sym, forward = queue.pop()
        if (sym, forward) in seen or sym not in funcs:
            continue
        seen.add((sym, forward))
        ops = [funcs[sym]]
        while ops:
            op = ops.pop()
            if op.name == "mlax.custom_vjp_call" and forward:
                raise TypeError(
                    "can't apply forward-mode autodiff (jvp) to a custom_vjp function.")
            if op.name != "mlax.constant":
                # (A constant names no symbol; and reading a complex dense
                # attribute through the bindings aborts the process.)
                attributes = op.attributes
                for i in range(len(attributes)):
                    named = attributes[i]
                    if not isinstance(named.attr, ir.FlatSymbolRefAttr):
                        continue
                    if op.name in ("mlax.custom_jvp_call", "mlax.custom_vjp_call") \
                            and named.name == "callee":
                        continue
                    if op.name == "mlax.vjp":
                        queue.append((named.attr.value, 0))
                    elif op.name == "mlax.custom_vjp_call":
                        queue.append((named.attr.value, max(forward, 1)))
                    elif op.name == "mlax.custom_jvp_call":
                        queue.append((named.attr.value, max(forward - 1, 0)))
                    elif op.name == "mlax.jvp" and forward:
                        queue.append((named.attr.value, forward + 1))
                    else:
                        queue.append((named.attr.value, forward))
            for region in op.regions:
                for block in region.blocks:
                    ops.extend(block.operations)


def _trace_needed_rules(callee_sym, mode, backward=True):
    """Traces the custom rules that differentiating the function `callee_sym`
    in `mode` ("jvp" or "vjp") needs, as JAX calls them only then: those of
    the custom_jvp/custom_vjp calls it reaches (through the functions its ops
    name; rules traced for an earlier derivative are followed too, so a
    second derivative differentiates them). Forward mode through a
    custom_vjp function is JAX's TypeError. Returns the _LazyRules whose
    backward it traced, or with `backward=False` (only what the forward pass
    needs: an eager vjp, which calls bwd at pullback time) left."""
    trace = core.current_trace()
    pending = trace.lazy_rules
    if not pending and mode == "vjp":
        # Nothing to trace, and reverse mode has no error to find: skip the
        # walks over every op of the module (a third of tracing a gradient).
        return []
    found = []
    # A custom_jvp call's primal function is not differentiated (its rule
    # is), so a custom_vjp call there (lax.custom_linear_solve's) is no
    # forward-mode error and needs no rules; its other calls' rules are
    # traced as before, for a higher derivative.
    if mode == "jvp":
        _check_forward_mode(trace, callee_sym)
    index = _SymbolIndex(trace)
    for name, symbols in index.reachable(callee_sym, into_custom_jvp_callees=False):
        found.extend(s for s in symbols if s in pending)
    for name, symbols in index.reachable(callee_sym):
        if name == "mlax.custom_jvp_call":
            found.extend(s for s in symbols if s in pending)
    with_backward = _trace_pending(pending, found, callee_sym, backward)
    if mode == "vjp":
        # Reverse mode transposes custom_jvp rules, and transposes a
        # custom_vjp call in one by its bwd (mlax-autodiff's `linear`): trace
        # those rules too.
        rules = [symbols for name, symbols in index.reachable(callee_sym)
                 if name == "mlax.custom_jvp_call"]
        found = []
        for symbols in rules:
            for rule in symbols:
                for name, named in index.reachable(rule):
                    if name == "mlax.custom_vjp_call":
                        found.extend(s for s in named if s in pending)
        with_backward += _trace_pending(pending, found, callee_sym, backward)
    return with_backward


def _trace_pending(pending, stubs, callee_sym, backward):
    """Traces the rules of the calls naming the stand-ins `stubs` (those
    still pending and active in `callee_sym`): the forward rule, and the
    backward one too unless `backward` is False. Returns the entries whose
    backward was traced or is left."""
    with_backward = []
    for stub in dict.fromkeys(stubs):
        entry = pending.get(stub)
        if entry is None or entry.inactive_in == callee_sym:
            continue
        traced = entry.trace_forward()
        if entry.backward is None or backward:
            for key in [k for k, e in pending.items() if e is entry]:
                del pending[key]
            if entry.backward is not None:
                entry.trace_backward()
                with_backward.append(entry)
        else:
            # Still found by the stand-in the op names now.
            for symbol in traced.values():
                pending.setdefault(symbol.value, entry)
            with_backward.append(entry)
    return with_backward


def zero_from_primal(val, symbolic_zeros=False):
    """Like `jax.custom_derivatives.zero_from_primal`: for each leaf of
    `val`, its zero tangent, a SymbolicZero with `symbolic_zeros`."""
    def zero(x):
        aval = tangent_aval(value_aval(x))
        if symbolic_zeros:
            return SymbolicZero(aval)
        if aval.dtype == float0:
            return np.zeros(aval.shape, float0)
        return _array_functions["zeros_like"](x)
    leaves, tree = registry.flatten(val)
    return tree.unflatten([zero(x) for x in leaves])


# How many custom rules (jvp rule, fwd, bwd) are being traced: a function
# traced inside one may be differentiated again, with the rule.
_rules = threading.local()


@contextlib.contextmanager
def _tracing_rule():
    _rules.depth = getattr(_rules, "depth", 0) + 1
    try:
        yield
    finally:
        _rules.depth -= 1


def tracing_custom_rule() -> bool:
    """Whether a custom_jvp rule or a custom_vjp fwd / bwd is being traced
    (in this thread)."""
    return getattr(_rules, "depth", 0) > 0


def _surely_unperturbed(leaves):
    """The indices of `leaves` (the arguments of a custom_jvp / custom_vjp
    call) that no derivative reaching the call perturbs: integers and
    booleans, and the leaves that do not depend on what the one function
    being differentiated differentiates, where that derivative is the only
    one that can reach the call: every trace enclosing it is a top-level
    one or a vmap's, none a custom rule, loop body or checkpointed function
    (which a derivative may differentiate again, with respect to what this
    one holds fixed). Elsewhere only integers and booleans count."""
    zero = {i for i, x in enumerate(leaves)
            if not dtypes.is_inexact(_aval_of_leaf(x).dtype)}
    stack = core.trace_stack()
    differentiated = [k for k, t in enumerate(stack) if t.differentiated is not None]
    if len(differentiated) != 1 or getattr(_rules, "depth", 0):
        return frozenset(zero)
    d = differentiated[0]
    if any(t.parent is not None and (t.transform != "vmap" or t.traced_for is not None)
           for t in stack[:d]):
        return frozenset(zero)
    found = tracing.active_arguments(leaves)
    active = found[1] if found else frozenset()
    outer = stack[:d + 1]
    for i, x in enumerate(leaves):
        if i not in active and (not isinstance(x, Tracer)
                                or any(x.trace is t for t in outer)):
            zero.add(i)
    return frozenset(zero)


class custom_jvp:
    """Like `jax.custom_jvp`: a function with a user-defined forward-mode
    derivative (`defjvp`); reverse mode transposes the rule."""

    def __init__(self, fun, nondiff_argnums=()):
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.nondiff_argnums = tuple(nondiff_argnums)
        self.jvp = None
        self.symbolic_zeros = False

    def defjvp(self, jvp, symbolic_zeros=False):
        """`symbolic_zeros=True`: the rule gets a SymbolicZero in place of
        each tangent known to be zero (see transforms/symbolic_zeros.py for
        what mlax knows), and may return SymbolicZero tangents."""
        self.jvp = jvp
        self.symbolic_zeros = symbolic_zeros
        return jvp

    def defjvps(self, *jvps):
        def jvp(primals, tangents):
            out = self(*primals)
            tout = None
            for rule, t in zip(jvps, tangents):
                if rule is None:
                    continue
                term = rule(t, out, *primals)
                tout = term if tout is None else tout + term
            if tout is None:
                tout = _array_functions["zeros_like"](out)
            return out, tout
        self.defjvp(jvp)

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return functools.partial(self, obj)

    def __call__(self, *args, **kwargs):
        if self.jvp is None:
            raise AttributeError(
                f"No JVP defined for custom_jvp function {getattr(self.fun, '__name__', '')} "
                "using defjvp.")
        args = _positional(self.fun, args, kwargs)
        if not core.trace_stack():
            return self.fun(*args)
        return _threading_refs(self, self._traced_call, args)

    def _with_refs(self, refs):
        """This function with `refs` (which it writes) as explicit state: a
        first argument of their values, their final values a second result
        (with zero tangents: nothing differentiates through a Ref)."""
        fun, jvp = self.fun, self.jvp

        def with_refs(values, *args):
            with ref_state.bound(refs, values):
                return fun(*args), [r._value for r in refs]

        def jvp_with_refs(*a):
            *fixed, primals, tangents = a
            with ref_state.bound(refs, primals[0]):
                out, tout = jvp(*fixed, tuple(primals[1:]), tuple(tangents[1:]))
                finals = [r._value for r in refs]
            return (out, finals), (tout, [np.zeros(f.shape, f.dtype) for f in finals])
        functools.update_wrapper(with_refs, fun)
        twin = custom_jvp(with_refs, _shifted(self.nondiff_argnums, fun))
        twin.defjvp(jvp_with_refs, symbolic_zeros=self.symbolic_zeros)
        return twin

    def _traced_call(self, args):
        fixed = {i % len(args) for i in self.nondiff_argnums}
        # Under a derivative (of these arguments) JAX calls the rule, not the
        # function: so does the function traced here, which then is the
        # rule's primal half at zero tangents.
        now = tracing.differentiated_mode([a for i, a in enumerate(args) if i not in fixed])
        # (Decided now, while the trace stack is the call's.)
        zeros = _surely_unperturbed(registry.flatten(
            tuple(a for i, a in enumerate(args) if i not in fixed))[0]) \
            if self.symbolic_zeros else frozenset()
        rules = {}
        # (Differentiated, JAX runs the rule, whose checks it makes, not
        # the function's: the rule calling the function checks both.)
        _report_checks(self._rule_primal(fixed) if now else self.fun, self.nondiff_argnums,
                       args, True, "custom_jvp function")
        call = _SplitCall(self.fun, self.nondiff_argnums, args, "custom_jvp function",
                          via=(lambda call, leaves: self._primal_from_rule(call, rules, leaves,
                                                                          zeros))
                          if now else None)
        if now:
            return call.emit("CustomJvpCallOp", rules["rule"].symbol)
        stub = _zeros_function(call.callee.in_avals + call.callee.in_avals,
                               call.callee.out_avals * 2,
                               _name_of(self.fun) + "_jvp_rule_pending")
        return call.emit("CustomJvpCallOp", stub.symbol,
                         lazy=(stub.sym,
                               lambda: {"jvp_rule": self._trace_rule(call, zeros).symbol}))

    def _rule_primal(self, fixed):
        """The rule's primal output as a function of the arguments (the
        tangents zeros): what runs of the call when it is differentiated."""
        def primal(*args):
            ps = tuple(a for i, a in enumerate(args) if i not in fixed)

            def zero(x):
                aval = _aval_of_leaf(x)
                if self.symbolic_zeros:
                    return SymbolicZero(tangent_aval(aval))
                return np.zeros(aval.shape, aval.dtype if dtypes.is_inexact(aval.dtype)
                                else float0)
            ts = tuple(registry.flatten(p)[1].unflatten(
                [zero(x) for x in registry.flatten(p)[0]]) for p in ps)
            return self.jvp(*(args[i] for i in sorted(fixed)), ps, ts)[0]
        return primal

    def _rule(self, call, in_avals, zeros):
        """The rule as a function of the primal and tangent leaves, returning
        the primal and tangent output leaves (the tangents as the primal
        outputs' types). The tangents at `zeros` are SymbolicZeros."""
        n = len(call.d_leaves)

        def rule(*xs):
            ps = call.d_tree.unflatten(xs[:n])
            # As JAX's, the tangent of an integer or boolean primal is float0
            # zeros (what jvp takes for it).
            ts = call.d_tree.unflatten([
                SymbolicZero(tangent_aval(a)) if i in zeros
                else t if dtypes.is_inexact(a.dtype) else np.zeros(a.shape, float0)
                for i, (t, a) in enumerate(zip(xs[n:], in_avals))])
            with _tracing_rule():
                pair = self.jvp(*call.fixed, tuple(ps), tuple(ts))
            if not (isinstance(pair, (tuple, list)) and len(pair) == 2):
                raise TypeError(
                    f"Custom JVP rule {_name_of(self.jvp)} for function "
                    f"{_name_of(self.fun)} must produce a pair (list or tuple of length "
                    f"two) representing primal and tangent outputs, but got {pair}.")
            out, tout = pair
            o_leaves, o_tree = registry.flatten(out)
            t_leaves, t_tree = registry.flatten(tout)
            expected = call.out_tree if call.out_tree is not None else o_tree
            if o_tree != expected or t_tree != expected:
                raise TypeError(
                    "Custom JVP rule must produce primal and tangent outputs with equal "
                    f"container (pytree) structures, got {o_tree} and {t_tree} (the "
                    f"function returns {expected}).")
            call.out_tree = expected
            out_avals = (call.callee.out_avals if call.callee is not None
                         else [_aval_of_leaf(o) for o in o_leaves])
            for t, oa in zip(t_leaves, out_avals):
                t_aval = t.aval if type(t) is SymbolicZero else _aval_of_leaf(t)
                if _carries_tangent(oa) and (t_aval.shape != oa.shape
                                             or t_aval.dtype != oa.dtype):
                    raise TypeError(
                        "Custom JVP rule must produce primal and tangent outputs with "
                        "corresponding shapes and dtypes. Expected "
                        f"{errors.aval_str(oa).lstrip('~')} (tangent type of "
                        f"{errors.aval_str(oa).lstrip('~')}) but got "
                        f"{errors.aval_str(t_aval).lstrip('~')}.")
            # A SymbolicZero the rule returns is instantiated, as JAX's.
            ts_out = [primitives_convert(_as_tracer(t), oa.update(weak_type=False))
                      if _carries_tangent(oa) and type(t) is not SymbolicZero
                      else _as_tracer(np.zeros(oa.shape, oa.dtype))
                      for t, oa in zip(t_leaves, out_avals)]
            return list(o_leaves) + ts_out
        return rule

    def _rule_callee(self, call, in_avals, zeros):
        # The rule sees the primals' values where they are known, as JAX's
        # rule does under an eager transformation; never the tangents'. A
        # call of this function inside its rule is a custom_jvp call again
        # (as JAX binds it again), whose own rule is traced only if a higher
        # derivative needs it.
        known = [core.known_of(x) for x in call.d_leaves] + [None] * len(in_avals)
        rule_callee = _Callee(self._rule(call, in_avals, zeros), _placeholders(in_avals * 2),
                              _name_of(self.fun) + "_jvp_rule", avals=in_avals * 2,
                              known=known)
        _no_captures(rule_callee, "custom_jvp rule")
        return rule_callee

    def _trace_rule(self, call, zeros):
        """The rule of a call traced with the function, when a derivative
        first needs it."""
        callee = call.callee
        rule_callee = self._rule_callee(call, list(callee.in_avals), zeros)
        rule_types = [a.mlir_type() for a in rule_callee.out_avals]
        expected = [a.mlir_type() for a in callee.out_avals] * 2
        if [str(t) for t in rule_types] != [str(t) for t in expected]:
            raise TypeError(
                "Custom JVP rule must produce primal outputs with the function's shapes "
                f"and dtypes: expected {[a.str_short() for a in callee.out_avals]}, got "
                f"{[a.str_short() for a in rule_callee.out_avals[:len(callee.out_avals)]]}.")
        return rule_callee

    def _primal_from_rule(self, call, rules, leaves, zeros):
        """The function's results, traced (with `leaves` its arguments) as the
        primal outputs of the rule at zero tangents; the rule's callee goes
        to `rules`."""
        in_avals = [_aval_of_leaf(x) for x in call.d_leaves]
        rule_callee = rules["rule"] = self._rule_callee(call, in_avals, zeros)
        tangents = [np.zeros(a.shape, a.dtype) for a in in_avals]
        return _call_traced(rule_callee, list(leaves) + tangents)[:len(rule_callee.out_avals) // 2]


def _aval_of_leaf(x):
    return x.aval if isinstance(x, Tracer) else tracing._leaf_aval(x)


def _shifted(nondiff_argnums, fun):
    """`nondiff_argnums` of `fun`, for the function taking one more first
    argument (see `_threading_refs`)."""
    n = len(inspect.signature(fun).parameters) if nondiff_argnums else 0
    return tuple((i % n if i < 0 else i) + 1 for i in nondiff_argnums)


def _threading_refs(custom, call, args):
    """`call(args)` (a custom_jvp / custom_vjp call in a trace); where the
    function (or a rule traced with it) writes Refs made outside it, the
    call of `custom._with_refs(refs)` on their values and `args`, their
    final values written back. A twin itself threads no more."""
    return _with_refs_threaded(
        lambda: call(args),
        lambda refs: custom._with_refs(refs)._traced_call(
            ([ref_state.read(r) for r in refs],) + tuple(args)))


def _with_refs_threaded(plain, threaded):
    """`plain()`; where what it traces writes Refs made outside it (the
    internal RefsNotThreaded), `threaded(refs)` -> (out, the Refs' final
    values) instead, those values written back into the Refs."""
    refs = []
    while True:
        try:
            if not refs:
                return plain()
            out, finals = threaded(refs)
        except tracing.RefsNotThreaded as e:
            new = [r for r in e.refs if all(r is not s for s in refs)]
            if not new:
                raise
            refs += new
            continue
        ref_state.write_back(refs, finals)
        return out


def _leaf_path(tree, i) -> str:
    """JAX's key path (`[0]`, `[1]['w']`) of leaf `i` of `tree`."""
    try:
        path = registry.flatten_with_path(tuple(tree))[0][i][0]
        return "".join(str(k) for k in path)
    except Exception:  # noqa: BLE001 (a name is a nicety)
        return f"[{i}]"


def _as_tracer(x):
    """A concrete value as a traced constant of the current trace."""
    if isinstance(x, Tracer):
        return x
    trace = core.current_trace()
    aval = tracing._leaf_aval(x)
    value = primitives.to_value(trace, x, aval)
    return Tracer(value, aval, trace)


class custom_vjp:
    """Like `jax.custom_vjp`: a function with a user-defined reverse-mode
    derivative (`defvjp(fwd, bwd)`)."""

    def __init__(self, fun, nondiff_argnums=()):
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.nondiff_argnums = tuple(nondiff_argnums)
        self.fwd = self.bwd = None
        self.symbolic_zeros = self.optimize_remat = False

    def defvjp(self, fwd, bwd, symbolic_zeros=False, optimize_remat=False):
        """`symbolic_zeros=True`: fwd gets a CustomVJPPrimal(value, perturbed)
        in place of each argument leaf, bwd a SymbolicZero in place of each
        output cotangent known to be zero (see transforms/symbolic_zeros.py
        for what mlax knows); bwd may return None or SymbolicZero for an
        argument's cotangent in either mode.

        `optimize_remat=True` is accepted and changes nothing: JAX uses it
        to run the function rather than fwd where checkpoint recomputes a
        call whose residuals nothing needs, an optimization that leaves
        values and derivatives as they are. mlax's checkpoint recomputes
        what the derivative code uses, and XLA drops fwd's unused work."""
        if symbolic_zeros and optimize_remat:
            raise NotImplementedError(
                "remat optimization for custom_vjp does not support symbolic zeros")
        self.fwd, self.bwd = fwd, bwd
        self.symbolic_zeros, self.optimize_remat = symbolic_zeros, optimize_remat

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return functools.partial(self, obj)

    def __call__(self, *args, **kwargs):
        if self.fwd is None:
            raise AttributeError(
                f"No VJP defined for custom_vjp function {getattr(self.fun, '__name__', '')} "
                "using defvjp.")
        args = _positional(self.fun, args, kwargs)
        if not core.trace_stack():
            return self.fun(*args)
        return _threading_refs(self, self._traced_call, args)

    def _with_refs(self, refs):
        """This function with `refs` (which it or fwd writes) as explicit
        state: a first argument of their values, their final values a
        second result (a zero cotangent: nothing differentiates through a
        Ref). bwd's own writes are not threaded (NotImplementedError)."""
        fun, fwd, bwd = self.fun, self.fwd, self.bwd
        avals = [r._aval for r in refs]
        unwrap = (lambda vs: [getattr(v, "value", v) for v in vs]) if self.symbolic_zeros \
            else (lambda vs: vs)

        def with_refs(values, *args):
            with ref_state.bound(refs, values):
                return fun(*args), [r._value for r in refs]

        def fwd_with_refs(values, *args):
            with ref_state.bound(refs, unwrap(values)):
                out, res = fwd(*args)
                return (out, [r._value for r in refs]), res

        def bwd_with_refs(*a):
            *fixed, res, (g, _) = a
            cts = bwd(*fixed, res, g)
            cts = tuple(cts) if isinstance(cts, (tuple, list)) else cts
            return ([np.zeros(v.shape, v.dtype) for v in avals],) + cts
        functools.update_wrapper(with_refs, fun)
        twin = custom_vjp(with_refs, _shifted(self.nondiff_argnums, fun))
        twin.defvjp(fwd_with_refs, bwd_with_refs, symbolic_zeros=self.symbolic_zeros,
                    optimize_remat=self.optimize_remat)
        return twin

    def _traced_call(self, args):
        fixed = {i % len(args) for i in self.nondiff_argnums}
        # Under a derivative (of these arguments) JAX calls fwd, not the
        # function: so does the function traced here, which then is fwd's
        # primal half. Otherwise fwd is traced when a derivative reaches the
        # call, bwd (in both cases) when its backward pass does.
        now = tracing.differentiated_mode([a for i, a in enumerate(args) if i not in fixed])
        state = {}
        if self.symbolic_zeros:
            # (Decided now, while the trace stack is the call's.)
            state["unperturbed"] = _surely_unperturbed(registry.flatten(
                tuple(a for i, a in enumerate(args) if i not in fixed))[0])
        # (Differentiated, JAX runs fwd, whose checks it makes, not the
        # function's: fwd calling the function checks both.)
        _report_checks(self._fwd_primal(fixed) if now else self.fun, self.nondiff_argnums,
                       args, True, "custom_vjp function")
        call = _SplitCall(self.fun, self.nondiff_argnums, args, "custom_vjp function",
                          via=(lambda call, leaves: _call_traced(self._trace_fwd(call, state), leaves)
                               [:state["n_out"]]) if now else None)
        if now == "jvp":
            raise TypeError("can't apply forward-mode autodiff (jvp) to a custom_vjp function.")
        callee = call.callee

        def stub():
            # What bwd's attribute names until bwd is traced: zeros.
            return _zeros_function(list(state.get("res_avals", ())) + list(callee.out_avals),
                                   callee.in_avals, _name_of(self.fun) + "_bwd_pending")

        def backward():
            return {"bwd": self._trace_bwd(call, state).symbol}
        if now:
            pending = stub()
            return call.emit("CustomVjpCallOp", state["fwd"].symbol, pending.symbol,
                             lazy=(pending.sym, None, backward))

        def forward():
            fwd = self._trace_fwd(call, state)
            return {"fwd": fwd.symbol, "bwd": stub().symbol}
        # Until then fwd is the function itself (no residuals).
        pending = stub()
        return call.emit("CustomVjpCallOp", callee.symbol, pending.symbol,
                         lazy=(pending.sym, forward, backward))

    def _fwd_primal(self, fixed):
        """fwd's primal output as a function of the arguments."""
        def primal(*args):
            if self.symbolic_zeros:
                args = [a if i in fixed else registry.flatten(a)[1].unflatten(
                    [CustomVJPPrimal(x, True) for x in registry.flatten(a)[0]])
                    for i, a in enumerate(args)]
            return self.fwd(*args)[0]
        return primal

    def _trace_fwd(self, call, state):
        """fwd of the call's traced arguments as a private function (in
        `state`: it, the number of primal outputs, the residuals' avals,
        tree and what is known of their values)."""
        def fwd(*leaves):
            if self.symbolic_zeros:
                leaves = [CustomVJPPrimal(x, i not in state["unperturbed"])
                          for i, x in enumerate(leaves)]
            with _tracing_rule():
                res_out = self.fwd(*call.full(leaves))
            if not (isinstance(res_out, (tuple, list)) and len(res_out) == 2):
                raise TypeError(
                    "Custom VJP fwd rule must produce a pair (list or tuple of length two) "
                    "where the first element represents the primal output and the second "
                    "element represents residuals.")
            out, res = res_out
            o_leaves, o_tree = registry.flatten(out)
            if call.out_tree is not None and o_tree != call.out_tree:
                raise TypeError(
                    "Custom VJP fwd rule must produce an output with the same container "
                    f"(pytree) structure as the function: got {o_tree}, expected "
                    f"{call.out_tree}.")
            call.out_tree = o_tree
            r_leaves, state["res_tree"] = registry.flatten(res)
            # bwd sees the residuals' values where fwd ran on known values
            # (an eager transformation), as JAX's bwd does.
            state["res_known"] = [core.known_of(r) for r in r_leaves]
            state["n_out"] = len(o_leaves)
            return list(o_leaves) + list(r_leaves)

        # A call of this function inside fwd or bwd is a custom_vjp call
        # again (as JAX binds it again), whose rules are traced only if a
        # higher derivative needs them.
        in_avals = [_aval_of_leaf(x) for x in call.d_leaves]
        fwd_callee = _Callee(fwd, _placeholders(in_avals), _name_of(self.fun) + "_fwd",
                             avals=in_avals, known=[core.known_of(x) for x in call.d_leaves])
        _no_captures(fwd_callee, "custom_vjp fwd rule")
        state["fwd"] = fwd_callee
        state["res_avals"] = fwd_callee.out_avals[state["n_out"]:]
        return fwd_callee

    def _trace_bwd(self, call, state):
        """bwd as a private function of the residuals and the cotangents of
        the outputs, returning one cotangent per traced argument leaf."""
        callee = call.callee
        res_avals = state["res_avals"]

        def bwd(*xs):
            res = state["res_tree"].unflatten(xs[:len(res_avals)])
            cts_out = list(xs[len(res_avals):])
            if self.symbolic_zeros:
                # The cotangents of the results no derivative can reach, and
                # of integer ones, are symbolic zeros.
                cts_out = [SymbolicZero(tangent_aval(a))
                           if not dtypes.is_inexact(a.dtype) or _reaches_no_result(r) else c
                           for c, a, r in zip(cts_out, callee.out_avals, call.op.results)]
                if all(type(c) is SymbolicZero for c in cts_out):
                    # (JAX's backward pass skips bwd then.)
                    return [_as_tracer(np.zeros(a.shape, a.dtype)) for a in callee.in_avals]
            ct = call.out_tree.unflatten(cts_out)
            with _tracing_rule():
                cts = self.bwd(*call.fixed, res, ct)
            if not isinstance(cts, (tuple, list)) or len(cts) != len(call.d_args):
                raise TypeError(
                    "Custom VJP bwd rule must produce a tuple with one cotangent per "
                    f"differentiable primal argument ({len(call.d_args)}), got {cts!r:.200}.")
            c_leaves = []
            for arg, c in zip(call.d_args, cts):
                a_leaves, a_tree = registry.flatten(arg)
                if c is None:
                    c_leaves += [None] * len(a_leaves)
                    continue
                cl, c_tree = registry.flatten(c)
                if c_tree != a_tree:
                    raise TypeError(
                        "Custom VJP bwd rule must produce an output with the same container "
                        f"(pytree) structure as the args tuple of the primal function: got "
                        f"{c_tree}, expected {a_tree}.")
                c_leaves += cl
            for i, (c, a) in enumerate(zip(c_leaves, callee.in_avals)):
                if type(c) is SymbolicZero:
                    if c.shape != a.shape or c.dtype != tangent_aval(a).dtype:
                        raise ValueError(
                            "Custom VJP bwd rule produced a SymbolicZero with a shape/dtype "
                            "that does not match the corresponding input tangent "
                            f"shape/dtype: at output{_leaf_path(call.d_args, i)} the "
                            f"SymbolicZero had shape/dtype {c.aval.str_short()} while the "
                            "corresponding input had shape/dtype "
                            f"{a.str_short()}. Consider just returning a None here "
                            "instead of a SymbolicZero object.")
                    c_leaves[i] = None
                elif c is not None and _aval_of_leaf(c).shape != a.shape:
                    raise ValueError(
                        "Custom VJP bwd rule must produce an output with the same type as "
                        "the args tuple of the primal function, but at output"
                        f"{_leaf_path(call.d_args, i)} the bwd rule produced an output of "
                        f"type {errors.aval_str(_aval_of_leaf(c)).lstrip('~')} corresponding "
                        f"to an input of type {errors.aval_str(a).lstrip('~')}, so the "
                        "shapes do not match")
            outs = []
            for c, a in zip(c_leaves, callee.in_avals):
                if c is None:
                    outs.append(_as_tracer(np.zeros(a.shape, a.dtype)))
                else:
                    outs.append(primitives_convert(_as_tracer(c), a.update(weak_type=False)))
            return outs

        bwd_avals = list(res_avals) + list(callee.out_avals)
        bwd_callee = _Callee(bwd, _placeholders(bwd_avals), _name_of(self.fun) + "_bwd",
                             avals=bwd_avals,
                             known=state["res_known"] + [None] * len(callee.out_avals))
        _no_captures(bwd_callee, "custom_vjp bwd rule")
        return bwd_callee


def _reaches_no_result(value):
    """Whether `value` (a result of a custom_vjp call) flows into nothing
    its function returns or hands to another op with effects or regions:
    then no cotangent reaches it. Its uses are stop_gradient's and those of
    ops whose results are all such."""
    seen, stack = {value}, [value]
    while stack:
        for use in stack.pop().uses:
            op = use.owner
            if op.name == "mlax.stop_gradient":
                continue
            if not len(op.results) or len(op.regions):
                return False
            for r in op.results:
                if r not in seen:
                    seen.add(r)
                    stack.append(r)
    return True


def linear_call(fun, fun_transpose, residual_args, linear_args):
    """Like `jax.custom_derivatives.linear_call`: `fun(residual_args,
    linear_args)`, where `fun` is linear in `linear_args` and
    `fun_transpose(residual_args, cotangent)` is its transpose. jvp takes
    the tangent as `fun` of the linear arguments' tangents (JAX's tangent
    of a linear call is that call on the tangents); reverse mode (vjp,
    grad, linear_transpose) calls `fun_transpose`, whose own transpose is
    `fun`.

    Built as a custom_jvp function whose primal function is a custom_vjp
    one with `fun_transpose` as bwd and whose rule's tangent is the
    function again: forward mode differentiates it to any order, and
    reverse mode transposes the rule by that bwd. JAX does not differentiate with respect to
    `residual_args` (an internal assertion fails); mlax does, by
    differentiating `fun` there. Traced values `fun` and `fun_transpose`
    close over become residuals (closure_convert)."""
    if not core.trace_stack():
        # (Traced and run, as JAX's evaluates its jaxpr: the results are
        # arrays whatever `fun` computes with.)
        leaves, tree = registry.flatten((residual_args, linear_args))
        return _run(lambda *xs: linear_call(fun, fun_transpose, *tree.unflatten(xs)),
                    f"linear_call_{_name_of(fun)}", tuple(leaves))
    fun_c, f_consts = closure_convert(fun, residual_args, linear_args)
    t_c, t_consts = closure_convert(fun_transpose, residual_args,
                                    fun_c(residual_args, linear_args, *f_consts))
    if f_consts or t_consts:
        # (Custom rules take no closures: the hoisted values go along with
        # the residuals.)
        def fun(r, x):
            return fun_c(r[0], x, *r[1])

        def fun_transpose(r, ct):
            return t_c(r[0], ct, *r[2])
        residual_args = (residual_args, list(f_consts), list(t_consts))
    return _linear_call(fun, fun_transpose, residual_args, linear_args)


def _linear_call(fun, fun_transpose, residual_args, linear_args):
    """linear_call of functions that close over no traced value."""
    r_leaves, r_tree = registry.flatten(residual_args)
    l_leaves, l_tree = registry.flatten(linear_args)
    return _linear_function(fun, fun_transpose, r_tree, l_tree)(*r_leaves, *l_leaves)


def _linear_function(fun, fun_transpose, r_tree, l_tree):
    """`linear_call`'s function of the residual and linear leaves."""
    n = r_tree.num_leaves

    def apply(*leaves):
        return fun(r_tree.unflatten(leaves[:n]), l_tree.unflatten(leaves[n:]))
    apply.__name__ = f"linear_call_{_name_of(fun)}"

    def transpose(rs, ct):
        cts = _linear_call(fun_transpose, fun, r_tree.unflatten(rs), ct)
        c_leaves, c_tree = registry.flatten(cts)
        if c_tree != l_tree:
            raise TypeError(
                "transpose output pytree structure must match that of linear inputs, got "
                f"output structure {c_tree} and input structure {l_tree}.")
        return (None,) * n + tuple(c_leaves)

    # Reverse mode transposes `fun` by fun_transpose (a custom_vjp), forward
    # mode differentiates it by its rule, whose tangent is the function
    # again at the linear arguments' tangents (so a jvp of a jvp is one too;
    # reverse mode transposes the rule's call of it by its custom_vjp).
    transposable = custom_vjp(apply)
    transposable.defvjp(lambda *leaves: (apply(*leaves), leaves[:n]), transpose)

    function = custom_jvp(transposable)

    def rule(primals, tangents):
        out = function(*primals)
        linear = [np.zeros(t.shape, _aval_of_leaf(p).dtype) if type(t) is SymbolicZero else t
                  for p, t in zip(primals[n:], tangents[n:])]
        tout = function(*primals[:n], *linear)
        if any(type(t) is not SymbolicZero for t in tangents[:n]):
            # (The derivative of `fun` with respect to perturbed residuals.)
            ts = [np.zeros(t.shape, t.dtype) if type(t) is SymbolicZero else t
                  for t in tangents[:n]]
            _, t_res = jvp(lambda *rs: apply(*rs, *primals[n:]), primals[:n], ts)
            o_leaves, o_tree = registry.flatten(tout)
            tout = o_tree.unflatten([a + b for a, b in zip(o_leaves,
                                                          registry.flatten(t_res)[0])])
        return out, tout
    function.defjvp(rule, symbolic_zeros=True)
    return function


def custom_gradient(fun):
    """Like `jax.custom_gradient` (TensorFlow's): `fun` returns `(value,
    vjp_rule)`, where `vjp_rule(cotangent)` returns one cotangent per
    argument; the function returned computes `value`, and reverse mode
    differentiates it with `vjp_rule`.

    Built on custom_vjp, as JAX's: the residuals are the arguments, and the
    backward pass calls `fun` again for its rule, so the rule may close over
    the forward pass's intermediates (the simplifier's CSE shares them with
    the forward pass once both are inlined)."""

    def primal(*args):
        return fun(*args)[0]

    def fwd(*args):
        return fun(*args)[0], args

    def bwd(args, cotangent):
        out, rule = fun(*args)
        out_tree, ct_tree = registry.flatten((out,))[1], registry.flatten((cotangent,))[1]
        if out_tree != ct_tree:
            raise TypeError(f"{out_tree}\n!=\n{ct_tree}")
        cts = rule(cotangent)
        # A rule for a function of one argument may return its cotangent bare.
        return (cts,) if registry.flatten(cts)[1].num_nodes == 1 else cts

    primal.__name__ = getattr(fun, "__name__", "custom_gradient")
    with_rule = custom_vjp(primal)
    with_rule.defvjp(fwd, bwd)

    @functools.wraps(fun)
    def wrapped(*args, **kwargs):
        # (As JAX's, whose rule takes the arguments given: a defaulted one
        # left out is no primal of the rule.)
        return with_rule(*_positional(fun, args, kwargs, fill_defaults=False))

    return wrapped


def closure_convert(fun, *example_args):
    """Like `jax.closure_convert`: `(converted, hoisted)`, where
    `converted(*args, *hoisted)` computes `fun(*args)` and `hoisted` are the
    traced values `fun` closes over (on arguments like `example_args`), now
    explicit arguments: what custom_vjp / custom_jvp functions, which cannot
    close over traced values, need of a function they take.

    Outside any trace nothing is hoisted. Inside one, `fun` is traced once
    into a private function of the module, and `converted` calls it; every
    traced value it closes over is hoisted (JAX keeps integer ones closed
    over: mlax's custom rules could not take them so)."""
    leaves, in_tree = registry.flatten(example_args)

    def check_tree(args):
        args_leaves, tree = registry.flatten(tuple(args))
        if tree != in_tree:
            raise TypeError(
                "The inputs to the closure produced by closure_convert must have the same "
                "Pytree structure as the example arguments passed when closure_convert was "
                f"called. Expected {in_tree}, but got {tree}")
        return args_leaves

    if not core.trace_stack():
        def converted_eager(*args):
            check_tree(args)
            return fun(*args)
        return converted_eager, []
    callee = _Callee(lambda *xs: fun(*in_tree.unflatten(xs)), leaves, _name_of(fun),
                     debug=(fun, tracing.debug_tree(example_args, {})))
    hoisted = list(callee.captured)

    def converted(*args_and_hoisted):
        split = len(args_and_hoisted) - len(hoisted)
        args_leaves = check_tree(args_and_hoisted[:split])
        trace = core.current_trace()
        if trace is None or trace.module is not callee.outer.module:
            raise TypeError(
                f"the function closure_convert made of {_name_of(fun)} is called outside "
                "the trace it was made in; call closure_convert again there")
        in_avals = callee.in_avals + tuple(t.aval for t in hoisted)
        operands = []
        for x, aval in zip(list(args_leaves) + list(args_and_hoisted[split:]), in_avals):
            x_aval = tracing._leaf_aval(x)
            if x_aval.shape != aval.shape or x_aval.dtype != aval.dtype:
                raise TypeError(
                    f"the function closure_convert made of {_name_of(fun)} takes "
                    f"{[a.str_short() for a in in_avals]}; got {x_aval.str_short()} for "
                    f"{aval.str_short()}")
            operands.append(primitives.to_value(trace, x, aval))
        ops = native.ops()
        with trace.ip, core.user_location():
            op = ops.CallOp([a.mlir_type() for a in callee.out_avals], callee.symbol,
                            operands)
        return callee.out_tree.unflatten(
            [Tracer(r, a, trace) for r, a in zip(op.results, callee.out_avals)])

    return converted, hoisted


# ---------------------------------------------------------------------------
# checkpoint (rematerialisation)
# ---------------------------------------------------------------------------

def checkpoint(fun=None, *, prevent_cse=True, policy=None, static_argnums=()):
    """Like `jax.checkpoint` (`jax.remat`): the same function, whose reverse-mode
    derivative recomputes `fun`'s intermediates from its inputs instead of
    keeping them alive from the forward pass (an `mlax.remat_call`; the
    recomputation sits behind an optimization barrier so neither CSE nor XLA
    merges it back). Saves memory at the price of recomputation.

    `policy` (see `mlax.checkpoint_policies`) is JAX's: it is called on each
    operation of the traced function (and each `checkpoint_name`) and says
    whether its result may be saved. If it saves every result the function
    is an ordinary call; if none, one remat_call; if some, the saved values
    are computed by one remat_call and passed to a second that recomputes
    the rest (see transforms/ad_checkpoint.py). Values and derivatives do
    not depend on the policy. A policy result that is not a
    decision is JAX's TypeError, raised, as in JAX, when the function is
    differentiated."""
    if fun is None:
        return functools.partial(checkpoint, prevent_cse=prevent_cse, policy=policy,
                                 static_argnums=static_argnums)
    if isinstance(static_argnums, int):
        static_argnums = (static_argnums,)

    @functools.wraps(fun)
    def remat_f(*args):
        # As JAX's, `fun` is traced abstractly, even outside jit: Python
        # cannot look at its values.
        def traced(*a):
            # Refs made outside that `fun` writes: explicit state, their
            # values an extra argument and their final values extra
            # results (not recomputed: written once, as JAX's).
            def threaded(refs):
                if tracing.differentiated_mode(a) == "vjp":
                    raise NotImplementedError(
                        f"checkpoint / remat: the function {_name_of(fun)} writes a "
                        f"mutable array reference of type {refs[0].aval} made outside it "
                        "and is differentiated in reverse mode: JAX writes it again when "
                        "the backward pass recomputes the function; mlax's backward pass "
                        "writes no Refs. Write the Ref outside the checkpointed function.")
                n = len(a)
                return traced_fun(ref_state.threaded(fun, refs),
                                  tuple(i % n + 1 for i in static_argnums) if n else (),
                                  ([ref_state.read(r) for r in refs],) + tuple(a))
            return _with_refs_threaded(lambda: traced_fun(fun, static_argnums, a), threaded)

        def traced_fun(fun, static_argnums, a):
            _report_checks(fun, static_argnums, a, False, "checkpoint / remat")
            with _ad_checkpoint.recording_names() as names:
                split = _SplitCall(fun, static_argnums, a, concrete=False,
                                   traced_for="checkpoint / remat")
            if policy is None:
                return split.emit("RematCallOp")
            callee = split.callee
            func_op = _function_named(callee.outer, callee.sym)
            try:
                save_all = _ad_checkpoint.saves_everything(policy, func_op, names)
            except _ad_checkpoint.PolicyFailed as failed:
                # JAX evaluates the policy when the function is differentiated:
                # raise then (the rule tracing hook of custom_vjp, which runs
                # when a derivative reaches this call).
                out = split.emit("RematCallOp")
                op = split.op

                def raise_policy_error(e=failed.error):
                    raise e
                callee.outer.lazy_rules[callee.sym] = _LazyRules(op, raise_policy_error)
                return out
            if save_all:
                return split.plain_call()
            out = _partial_remat(fun, static_argnums, a, policy)
            return split.emit("RematCallOp") if out is None else out
        if not core.trace_stack():
            static = {i % len(args) for i in static_argnums} if args else set()
            if static:  # static arguments are closed over
                dyn = [i for i in range(len(args)) if i not in static]

                def traced_dyn(*d):
                    full = list(args)
                    for i, v in zip(dyn, d):
                        full[i] = v
                    return traced(*full)
                return _run(traced_dyn, f"checkpoint_{_name_of(fun)}",
                            tuple(args[i] for i in dyn))
            return _run(traced, f"checkpoint_{_name_of(fun)}", args)
        return traced(*args)

    return remat_f


remat = checkpoint


def _partial_remat(fun, static_argnums, args, policy):
    """checkpoint with a policy that saves some values: `h` (a remat_call)
    computes the saved values from the operands, `g` (a remat_call) is `fun`
    with those values as arguments in their place. The reverse pass keeps the
    operands and the saved values, recomputes the rest of `fun` from them and
    recomputes `h` only to send the saved values' cotangents on. None when
    the policy saves none of the values."""
    static_argnums = tuple(i % len(args) for i in static_argnums) if args else ()
    collector = _ad_checkpoint.Saver(policy)

    def h(*a):
        with collector.active():
            fun(*a)
        return list(collector.saved)
    hs = _SplitCall(h, static_argnums, args, concrete=False, traced_for="checkpoint / remat")
    if not hs.callee.out_avals:
        return None
    saved = hs.emit("RematCallOp")
    # Its derivative takes its results (the saved values) from the forward
    # pass instead of recomputing them (passes/lib/Transforms/Autodiff.cpp).
    hs.op.operation.attributes["mlax.saves_results"] = ir.UnitAttr.get(hs.op.context)
    replacer = _ad_checkpoint.Saver(policy, values=[])

    def g(*a):
        replacer.values = list(a[-1])
        with replacer.active():
            out = fun(*a[:-1])
        if replacer.k != len(replacer.values):
            raise RuntimeError("checkpoint: the function saved different values when traced "
                               "again (does it depend on Python state?)")
        return out
    return _SplitCall(g, static_argnums, tuple(args) + (saved,), concrete=False,
                      traced_for="checkpoint / remat").emit("RematCallOp")


def _function_named(trace, sym):
    for op in trace.module.body.operations:
        if "sym_name" in op.attributes and op.attributes["sym_name"].value == sym:
            return op.operation
    raise KeyError(sym)


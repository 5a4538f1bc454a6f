"""Sparse-aware autodiff, as jax.experimental.sparse's grad, value_and_grad,
jacfwd, jacrev and jacobian.

Differentiating with respect to a sparse array means differentiating in the
subspace its sparsity pattern spans: only its stored values (`data`) are
variables, its index buffers are constants, and the derivative comes back
as a sparse array of the same pattern. So each wrapper flattens the
arguments to dense buffers, marks the data buffer of every sparse argument in
`argnums` (and every leaf of the dense ones), applies mlax's own transform to
the flat function, and rebuilds sparse derivatives around the results."""
from __future__ import annotations

import functools

from mlax._src.base import tree
from mlax._src.experimental.sparse.base import JAXSparse
from mlax._src.numpy import lax_numpy as mnp
from mlax._src.transforms import autodiff


def _is_sparse(x):
    return isinstance(x, JAXSparse)


def _flatten_for_sparse_ad(fun, argnums, args, fname):
    """`fun` over the arguments' dense buffers, the flat argnums to
    differentiate, those buffers, and the function that turns the flat
    derivatives back into the arguments' structure."""
    _, nums = autodiff._check_argnums(argnums, len(args), fname)
    # First flatten to sparse and dense leaves, then each sparse leaf to its buffers.
    leaves1, tree1 = tree.tree_flatten(args, is_leaf=_is_sparse)
    spans1 = _child_spans(tree1)
    leaves2, tree2 = tree.tree_flatten(leaves1)
    spans2 = _child_spans(tree2)
    diff1 = [j for i in nums for j in spans1[i]]
    # A dense leaf is one buffer; of a sparse leaf only its first buffer (the
    # data) is differentiated.
    argnums_flat = tuple(spans2[j][0] for j in diff1)

    def fun_flat(*flat, **kwargs):
        return fun(*tree.tree_unflatten(tree1, tree.tree_unflatten(tree2, flat)), **kwargs)

    def postprocess(flat_derivs):
        out = [None] * tree1.num_leaves
        for j, d in zip(diff1, flat_derivs):
            out[j] = _rebuild(leaves1[j], d) if _is_sparse(leaves1[j]) else d
        derivs = tuple(d for d in tree.tree_unflatten(tree1, out) if tree.tree_leaves(d))
        return derivs[0] if len(derivs) == 1 else derivs

    return fun_flat, argnums_flat, leaves2, postprocess


def _child_spans(treedef):
    """The flat leaf positions of each child of `treedef`."""
    spans, start = [], 0
    for child in treedef.children():
        spans.append(list(range(start, start + child.num_leaves)))
        start += child.num_leaves
    return spans


def _rebuild(mat, deriv):
    """A sparse array of `mat`'s pattern holding `deriv` as its data; a
    Jacobian's leading (output) dimensions become leading batch dimensions of
    the result, with the index buffers broadcast along them, as JAX's."""
    bufs, aux = mat.tree_flatten()
    lead = tuple(deriv.shape[:deriv.ndim - bufs[0].ndim])
    if not lead:
        return type(mat).tree_unflatten(aux, (deriv, *bufs[1:]))
    if not hasattr(mat, "n_batch"):
        raise NotImplementedError(
            f"a Jacobian with respect to a {type(mat).__name__} argument: its format has no "
            "batch dimensions to hold the output dimensions; use BCOO or BCSR")
    rest = [mnp.broadcast_to(b, lead + tuple(b.shape)) for b in bufs[1:]]
    aux = dict(aux, shape=lead + tuple(aux["shape"]))
    return type(mat).tree_unflatten(aux, (deriv, *rest))


def _wrap(transform, name, has_value=False):
    def sparse_transform(fun, argnums=0, has_aux=False, **kwargs):
        if not callable(fun):
            raise TypeError(f"Expected a callable value, got {fun!r}")

        @functools.wraps(fun)
        def transformed(*args, **fkwargs):
            fun_flat, nums, flat, post = _flatten_for_sparse_ad(fun, argnums, args, name)
            out = transform(fun_flat, argnums=nums, has_aux=has_aux, **kwargs)(*flat, **fkwargs)
            if has_value:
                return out[0], post(out[1])
            if has_aux:
                return post(out[0]), out[1]
            return post(out)

        transformed.__doc__ = (f"Sparse-aware {name} of {getattr(fun, '__name__', fun)!s} "
                               f"with respect to positional argument(s) {argnums}.")
        return transformed

    sparse_transform.__name__ = sparse_transform.__qualname__ = name
    sparse_transform.__doc__ = (
        f"Sparse-aware version of `mlax.{name}` (as `jax.experimental.sparse.{name}`): "
        "arguments and results as the dense transform's, but the derivative with respect "
        "to a sparse array is taken in the subspace of its sparsity pattern and returned "
        "as a sparse array of that pattern.")
    return sparse_transform


grad = _wrap(autodiff.grad, "grad")
value_and_grad = _wrap(autodiff.value_and_grad, "value_and_grad", has_value=True)
jacfwd = _wrap(autodiff.jacfwd, "jacfwd")
jacrev = _wrap(autodiff.jacrev, "jacrev")
jacobian = jacrev

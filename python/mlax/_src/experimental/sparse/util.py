"""jax.experimental.sparse's utilities: its warning and error classes, the
static description of a sparse array (SparseInfo), vmap applied once per
batch dimension (nfold_vmap), counting stored elements of a dense array, and
converting between CSR row pointers and COO rows."""
from __future__ import annotations

import functools
from typing import NamedTuple

from mlax._src.base.tree import tree_flatten, tree_unflatten
from mlax._src.lax.shape import squeeze
from mlax._src.numpy import lax_numpy as mnp
from mlax._src.numpy.reductions import cumsum
from mlax._src.transforms.vmap import vmap


class SparseEfficiencyError(ValueError):
    pass


class SparseEfficiencyWarning(UserWarning):
    pass


class CuSparseEfficiencyWarning(SparseEfficiencyWarning):
    pass


class SparseInfo(NamedTuple):
    shape: tuple
    indices_sorted: bool = False
    unique_indices: bool = False


def nfold_vmap(fun, n, *, broadcasted=True, in_axes=0):
    """`fun` vmapped `n` times; `broadcasted`: arguments whose mapped axis has
    size 1 are broadcast (BCOO batch dimensions of data and indices may)."""
    _vmap = broadcasting_vmap if broadcasted else vmap
    for _ in range(n):
        fun = _vmap(fun, in_axes=in_axes)
    return fun


def broadcasting_vmap(fun, in_axes=0, out_axes=0):
    @functools.wraps(fun)
    def batched(*args):
        leaves, tree = tree_flatten(args)
        axes = [in_axes] * len(leaves) if isinstance(in_axes, int) or in_axes is None else \
            tree_flatten(in_axes, is_leaf=lambda x: x is None)[0]
        size = max(x.shape[i] for x, i in zip(leaves, axes) if i is not None)
        if size > 1:
            if any(i is not None and x.shape[i] not in (1, size) for x, i in zip(leaves, axes)):
                raise ValueError("broadcasting_vmap: mismatched input shapes")
            leaves, axes = zip(*(
                (x, None) if i is None else
                (squeeze(x, (i,)), None) if x.shape[i] == 1 else (x, i)
                for x, i in zip(leaves, axes)))
        return vmap(fun, in_axes=tuple(tree_unflatten(tree, axes)),
                    out_axes=out_axes)(*tree_unflatten(tree, leaves))
    return batched


def csr_to_coo(indices, indptr):
    """The (row, column) of each element stored in CSR form."""
    return cumsum(mnp.zeros_like(indices).at[indptr].add(1)) - 1, indices


def row_pointers(rows, *, n_rows, index_dtype):
    """CSR row pointers (n_rows + 1,) of sorted row indices; out-of-range
    rows (padding) are not counted."""
    counts = mnp.zeros(n_rows, index_dtype).at[rows].add(mnp.ones((), index_dtype),
                                                          mode="drop")
    return mnp.zeros(n_rows + 1, index_dtype).at[1:].set(cumsum(counts))


def count_stored_elements_per_batch(mat, n_batch=0, n_dense=0):
    """The number of nonzero (sparse-dimension) elements of each batch."""
    mask = mnp.asarray(mat) != 0
    if n_dense > 0:
        mask = mask.any(tuple(-(i + 1) for i in range(n_dense)))
    return mask.sum(tuple(range(n_batch, mask.ndim)))


def count_stored_elements(mat, n_batch=0, n_dense=0):
    """The nse that fromdense needs to hold every nonzero of `mat`."""
    return count_stored_elements_per_batch(mat, n_batch, n_dense).max(initial=0)

"""Format-generic constructors and conversion of jax.experimental.sparse's
api module: empty, eye and todense."""
from __future__ import annotations

import operator

from mlax._src.base.tree import tree_flatten, tree_unflatten
from mlax._src.experimental.sparse.base import JAXSparse
from mlax._src.experimental.sparse.bcoo import BCOO, _static_int
from mlax._src.experimental.sparse.bcsr import BCSR
from mlax._src.experimental.sparse.coo import COO
from mlax._src.experimental.sparse.csr import CSC, CSR
from mlax._src.experimental.sparse.transform import mark_todense

_FORMATS = {"bcoo": BCOO, "bcsr": BCSR, "coo": COO, "csr": CSR, "csc": CSC}


def _format(name, sparse_format, formats):
    if sparse_format not in formats:
        raise ValueError(f"sparse_format={sparse_format!r} not recognized; must be one of "
                         f"{list(formats)}")
    return _FORMATS[sparse_format]


def todense(arr):
    """The dense array of a sparse array; a dense array passes through (in
    a function traced for sparsify, a traced value becomes the dense array
    of the sparse array it stands for)."""
    marked = mark_todense(arr)
    if marked is not None:
        return marked
    leaves, tree = tree_flatten(arr)
    arr = tree_unflatten(tree, leaves)
    return arr.todense() if isinstance(arr, JAXSparse) else arr


def empty(shape, dtype=None, index_dtype="int32", sparse_format="bcoo", **kwds):
    """A sparse array of `shape` storing nothing (nse=0 unless given)."""
    cls = _format("empty", sparse_format, ("bcsr", "bcoo", "coo", "csr", "csc"))
    return cls._empty(tuple(shape), dtype=dtype, index_dtype=index_dtype, **kwds)


def eye(N, M=None, k=0, dtype=None, index_dtype="int32", sparse_format="bcoo", **kwds):
    """A 2-D sparse array with ones on the k-th diagonal."""
    if M is None:
        M = N
    N, M, k = (_static_int("eye", what, v) for what, v in (("N", N), ("M", M), ("k", k)))
    cls = _format("eye", sparse_format, ("bcoo", "coo", "csr", "csc"))
    return cls._eye(M=operator.index(M), N=N, k=k, dtype=dtype, index_dtype=index_dtype,
                    **kwds)

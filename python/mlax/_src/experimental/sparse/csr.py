"""CSR and CSC, jax.experimental.sparse's legacy 2-D compressed-row and
compressed-column formats (data, indices, indptr), with their products; a
CSC is the CSR of the transpose. BCSR is the format to prefer, as in JAX."""
from __future__ import annotations

import numpy as np

from mlax._src.base import dtypes
from mlax._src.base.tree import register_pytree_node_class
from mlax._src.numpy import lax_numpy as mnp
from mlax._src.experimental.sparse.bcoo import _asarray
from mlax._src.experimental.sparse.coo import (
    Legacy2D, _checked_product, _coo_product, _coo_todense, _eye_coords, _fromdense_coords,
    _promoted_matmul)
from mlax._src.experimental.sparse.util import csr_to_coo, row_pointers


def csr_fromdense(mat, *, nse=None, index_dtype=np.int32):
    """A CSR matrix of the nonzeros of a 2-D array (under jit pass `nse`)."""
    data, row, col, true_nonzeros = _fromdense_coords("csr_fromdense", mat, nse)
    index_dtype = dtypes.canonicalize(index_dtype)
    n_rows = np.shape(mat)[0]
    indptr = row_pointers(mnp.where(true_nonzeros, row, n_rows), n_rows=n_rows,
                          index_dtype=index_dtype)
    return CSR((data, col.astype(index_dtype), indptr), shape=np.shape(mat))


def csr_todense(mat):
    """The dense array of a CSR matrix."""
    row, col = csr_to_coo(mat.indices, mat.indptr)
    return _coo_todense(mat.data, row, col, mat.shape)


def _csr_product(data, indices, indptr, B, shape, transpose):
    row, col = csr_to_coo(indices, indptr)
    return _coo_product(data, row, col, B, shape, transpose)


def csr_matvec(mat, v, transpose=False):
    """mat @ v (mat.T @ v with `transpose`) of a CSR matrix and a vector."""
    return _checked_product("csr_matvec", 1, mat.data, *csr_to_coo(mat.indices, mat.indptr),
                            v, mat.shape, transpose)


def csr_matmat(mat, B, *, transpose=False):
    """mat @ B (mat.T @ B with `transpose`) of a CSR matrix and a matrix."""
    return _checked_product("csr_matmat", 2, mat.data, *csr_to_coo(mat.indices, mat.indptr),
                            B, mat.shape, transpose)


class _CompressedBase(Legacy2D):
    """What CSR and CSC share: the three buffers and the pytree."""

    def __init__(self, args, *, shape):
        self.data, self.indices, self.indptr = map(_asarray, args)
        super().__init__(args, shape=shape)

    @property
    def _bufs(self):
        return (self.data, self.indices, self.indptr)

    def tree_flatten(self):
        return (self.data, self.indices, self.indptr), {"shape": self.shape}

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        obj = object.__new__(cls)
        obj.data, obj.indices, obj.indptr = children
        if aux_data.keys() != {"shape"}:
            raise ValueError(f"{cls.__name__}.tree_unflatten: invalid aux_data={aux_data}")
        obj.__dict__.update(**aux_data)
        return obj

    def transpose(self, axes=None):
        """The transpose: the same buffers read as the other format (a CSR's
        rows are its transpose's columns)."""
        if axes is not None:
            raise NotImplementedError("axes argument to transpose()")
        return self._transposed_format((self.data, self.indices, self.indptr),
                                       shape=self.shape[::-1])

    @classmethod
    def _empty_compressed(cls, shape, n_ptr, dtype, index_dtype):
        shape = tuple(shape)
        if len(shape) != 2:
            raise ValueError(f"{cls.__name__} must have ndim=2; got shape={shape}")
        return cls((mnp.zeros(0, dtype), mnp.zeros(0, index_dtype),
                    mnp.zeros(shape[n_ptr] + 1, index_dtype)), shape=shape)


@register_pytree_node_class
class CSR(_CompressedBase):
    """A 2-D sparse matrix in compressed-row format: row r's elements are
    `data[indptr[r]:indptr[r + 1]]` at columns `indices[...]`."""

    @classmethod
    def fromdense(cls, mat, *, nse=None, index_dtype=np.int32):
        """A CSR matrix of the nonzeros of a 2-D array."""
        return csr_fromdense(mat, nse=nse, index_dtype=index_dtype)

    @classmethod
    def _empty(cls, shape, *, dtype=None, index_dtype="int32"):
        return cls._empty_compressed(shape, 0, dtype, index_dtype)

    @classmethod
    def _eye(cls, N, M, k, *, dtype=None, index_dtype="int32"):
        diag_size, row, col = _eye_coords(N, M, k, index_dtype)
        if diag_size <= 0:
            return cls._empty((N, M), dtype=dtype, index_dtype=index_dtype)
        indptr = row_pointers(row, n_rows=N, index_dtype=dtypes.canonicalize(index_dtype))
        return cls((mnp.ones(diag_size, dtype), col, indptr), shape=(N, M))

    def todense(self):
        """The dense array."""
        return csr_todense(self)

    def __matmul__(self, other):
        return _promoted_matmul(self.data, other, lambda d, o: _csr_product(
            d, self.indices, self.indptr, o, self.shape, False))


@register_pytree_node_class
class CSC(_CompressedBase):
    """A 2-D sparse matrix in compressed-column format (the CSR of its
    transpose)."""

    @classmethod
    def fromdense(cls, mat, *, nse=None, index_dtype=np.int32):
        """A CSC matrix of the nonzeros of a 2-D array."""
        return csr_fromdense(_asarray(mat).T, nse=nse, index_dtype=index_dtype).T

    @classmethod
    def _empty(cls, shape, *, dtype=None, index_dtype="int32"):
        return cls._empty_compressed(shape, 1, dtype, index_dtype)

    @classmethod
    def _eye(cls, N, M, k, *, dtype=None, index_dtype="int32"):
        return CSR._eye(M, N, -k, dtype=dtype, index_dtype=index_dtype).T

    def todense(self):
        """The dense array."""
        return csr_todense(self.T).T

    def __matmul__(self, other):
        return _promoted_matmul(self.data, other, lambda d, o: _csr_product(
            d, self.indices, self.indptr, o, self.shape[::-1], True))


CSR._transposed_format, CSC._transposed_format = CSC, CSR

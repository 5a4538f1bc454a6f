"""BCSR, the batched-CSR sparse array of jax.experimental.sparse: two sparse
dimensions (rows, columns) after `n_batch` batch dimensions, stored as
`data[*batch, nse, *dense]`, column `indices[*batch, nse]` and row pointers
`indptr[*batch, rows + 1]`.

As in JAX, every operation converts to BCOO (row indices from the row
pointers), runs BCOO's, and converts back (row pointers from counts of the
sorted row indices).
"""
from __future__ import annotations

import functools

import numpy as np

from mlax._src.base import dtypes
from mlax._src.base.tree import register_pytree_node_class
from mlax._src.lax import lax
from mlax._src.numpy import lax_numpy as mnp
from mlax._src.experimental.sparse import bcoo
from mlax._src.experimental.sparse.base import JAXSparse
from mlax._src.experimental.sparse.bcoo import BCOO, _asarray, _static_int
from mlax._src.experimental.sparse.bcoo_structural import (
    bcoo_broadcast_in_dim, bcoo_concatenate)
from mlax._src.experimental.sparse.util import (
    SparseInfo, count_stored_elements, csr_to_coo, nfold_vmap, row_pointers)


def _compatible(shape1, shape2):
    return all(s1 in (1, s2) for s1, s2 in zip(shape1, shape2))


def _validate_bcsr_indices(indices, indptr, shape):
    if not dtypes.is_int(indices.dtype) or not dtypes.is_int(indptr.dtype):
        raise TypeError(f"BCSR: indices and indptr must be integers, got {indices.dtype} and "
                        f"{indptr.dtype}")
    shape = tuple(shape)
    n_batch = indices.ndim - 1
    n_dense = len(shape) - n_batch - 2
    if n_batch < 0 or n_dense < 0:
        raise ValueError(f"BCSR: indices of shape {indices.shape} do not fit shape={shape}")
    if not _compatible(indices.shape[:n_batch], shape[:n_batch]):
        raise ValueError(f"indices batch dimensions not compatible for "
                         f"indices.shape={indices.shape}, shape={shape}")
    if not _compatible(indptr.shape[:n_batch], shape[:n_batch]):
        raise ValueError(f"indptr batch dimensions not compatible for "
                         f"indptr.shape={indptr.shape}, shape={shape}")
    if tuple(indptr.shape[n_batch:]) != (shape[n_batch] + 1,):
        raise ValueError("indptr shape must match the matrix shape plus 1.")
    return n_batch, n_dense, indices.shape[-1]


def _validate_bcsr(data, indices, indptr, shape):
    n_batch, n_dense, nse = _validate_bcsr_indices(indices, indptr, shape)
    shape = tuple(shape)
    if not _compatible(data.shape[:n_batch], shape[:n_batch]):
        raise ValueError(f"data batch dimensions not compatible for data.shape={data.shape}, "
                         f"shape={shape}")
    if tuple(data.shape[-(n_dense + 1):]) != (nse,) + shape[n_batch + 2:]:
        raise ValueError(f"Invalid data.shape={data.shape} for nse={nse}, n_batch={n_batch}, "
                         f"n_dense={n_dense}")
    return n_batch, n_dense, nse


def _bcsr_to_bcoo(indices, indptr, *, shape):
    n_batch, _, _ = _validate_bcsr_indices(indices, indptr, shape)
    return mnp.stack(nfold_vmap(csr_to_coo, n_batch)(indices, indptr), axis=indices.ndim)


def _bcoo_to_bcsr(indices, *, shape, index_dtype):
    """Column indices and row pointers of BCOO indices sorted in each batch."""
    n_batch, n_sparse, _, _ = bcoo._validate_bcoo_indices(indices, shape)
    if n_sparse != 2:
        raise ValueError("Must have 2 sparse dimensions to be converted to BCSR.")
    n_rows = shape[n_batch]

    get_ptr = functools.partial(row_pointers, n_rows=n_rows, index_dtype=index_dtype)
    return indices[..., 1], nfold_vmap(get_ptr, n_batch, broadcasted=False)(indices[..., 0])


def bcsr_fromdense(mat, *, nse=None, n_batch=0, n_dense=0, index_dtype=np.int32):
    """A BCSR matrix of the nonzeros of `mat` (under jit pass a static `nse`)."""
    mat = _asarray(mat)
    if mat.ndim - n_batch - n_dense != 2:
        raise ValueError("bcsr_fromdense: must have 2 sparse dimensions.")
    if nse is None:
        nse = count_stored_elements(mat, n_batch, n_dense)
    nse = _static_int("bcsr_fromdense", "nse", nse)
    mat_bcoo = bcoo.bcoo_fromdense(mat, nse=nse, index_dtype=index_dtype, n_dense=n_dense,
                                   n_batch=n_batch)
    indices, indptr = _bcoo_to_bcsr(mat_bcoo.indices, shape=mat.shape,
                                    index_dtype=dtypes.canonicalize(index_dtype))
    return BCSR((mat_bcoo.data, indices, indptr), shape=mat.shape)


def bcsr_todense(mat):
    """The dense array of a BCSR matrix."""
    return mat.to_bcoo().todense()


def bcsr_extract(indices, indptr, mat):
    """The data of a BCSR with these indices holding `mat`'s values there."""
    mat = _asarray(mat)
    indices, indptr = _asarray(indices), _asarray(indptr)
    return bcoo._bcoo_extract(_bcsr_to_bcoo(indices, indptr, shape=mat.shape), mat)


def bcsr_dot_general(lhs, rhs, *, dimension_numbers, precision=None,
                     preferred_element_type=None, out_sharding=None):
    """lax.dot_general of a BCSR lhs and a dense rhs (a dense result)."""
    del precision, out_sharding  # unused, as in JAX
    if not isinstance(rhs, JAXSparse):
        if not isinstance(lhs, JAXSparse):
            return lax.dot_general(_asarray(lhs), _asarray(rhs), dimension_numbers,
                                   preferred_element_type=preferred_element_type)
        if isinstance(lhs, BCSR):
            return bcoo.bcoo_dot_general(lhs.to_bcoo(), _asarray(rhs),
                                         dimension_numbers=dimension_numbers,
                                         preferred_element_type=preferred_element_type)
    raise NotImplementedError("bcsr_dot_general currently implemented for BCSR lhs and "
                              "ndarray rhs.")


def bcsr_sum_duplicates(mat, nse=None):
    """`mat` with duplicate indices summed and indices sorted; `nse` (needed
    under jit) pads or cuts the result."""
    return BCSR.from_bcoo(bcoo.bcoo_sum_duplicates(mat.to_bcoo(), nse=nse))


def bcsr_eliminate_zeros(mat, nse=None):
    """`mat` without its explicitly stored zeros, duplicates summed."""
    return BCSR.from_bcoo(bcoo.bcoo_eliminate_zeros(mat.to_bcoo(), nse=nse))


def bcsr_broadcast_in_dim(mat, *, shape, broadcast_dimensions, sharding=None):
    """lax.broadcast_in_dim of a BCSR array (through BCOO)."""
    return BCSR.from_bcoo(bcoo_broadcast_in_dim(
        mat.to_bcoo(), shape=shape, broadcast_dimensions=broadcast_dimensions,
        sharding=sharding))


def bcsr_concatenate(operands, *, dimension):
    """lax.concatenate of BCSR arrays along a batch or sparse dimension."""
    return BCSR.from_bcoo(bcoo_concatenate([mat.to_bcoo() for mat in operands],
                                           dimension=dimension))


@register_pytree_node_class
class BCSR(JAXSparse):
    """Batched CSR sparse array: `data[*batch, nse, *dense]` at columns
    `indices[*batch, nse]`, rows delimited by `indptr[*batch, rows + 1]`."""

    def __init__(self, args, *, shape, indices_sorted=False, unique_indices=False):
        try:
            data, indices, indptr = args
        except (TypeError, ValueError):
            raise TypeError("BCSR: args must be a triple (data, indices, indptr), got "
                            f"{type(args).__name__}") from None
        self.data, self.indices, self.indptr = map(_asarray, (data, indices, indptr))
        self.indices_sorted = indices_sorted
        self.unique_indices = unique_indices
        super().__init__(args, shape=shape)
        n_sparse = len(self.shape) - (self.indices.ndim - 1) - \
            (self.data.ndim - self.indices.ndim)
        if n_sparse != 2:
            raise ValueError(f"BCSR array must have 2 sparse dimensions; {n_sparse} is given.")
        _validate_bcsr(self.data, self.indices, self.indptr, self.shape)

    @property
    def _bufs(self):
        return (self.data, self.indices, self.indptr)

    @property
    def _info(self):
        return SparseInfo(self.shape, self.indices_sorted, self.unique_indices)

    @property
    def nse(self):
        return self.indices.shape[-1]

    @property
    def dtype(self):
        return self.data.dtype

    @property
    def n_batch(self):
        return self.indices.ndim - 1

    @property
    def n_sparse(self):
        return 2

    @property
    def n_dense(self):
        return self.data.ndim - self.indices.ndim

    @property
    def _sparse_shape(self):
        return tuple(self.shape[self.n_batch:self.n_batch + 2])

    def _repr_extra(self):
        extra = f", n_batch={self.n_batch}" if self.n_batch else ""
        return extra + (f", n_dense={self.n_dense}" if self.n_dense else "")

    def transpose(self, *args, **kwargs):
        raise NotImplementedError("Transpose is not implemented.")

    def tree_flatten(self):
        return (self.data, self.indices, self.indptr), self._info._asdict()

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        obj = object.__new__(cls)
        obj.data, obj.indices, obj.indptr = children
        if aux_data.keys() != {"shape", "indices_sorted", "unique_indices"}:
            raise ValueError(f"BCSR.tree_unflatten: invalid aux_data={aux_data}")
        obj.__dict__.update(**aux_data)
        return obj

    @classmethod
    def _empty(cls, shape, *, dtype=None, index_dtype="int32", n_dense=0, n_batch=0, nse=0):
        shape = tuple(shape)
        if n_dense < 0 or n_batch < 0 or nse < 0:
            raise ValueError(f"Invalid inputs: shape={shape}, n_dense={n_dense}, "
                             f"n_batch={n_batch}, nse={nse}")
        if len(shape) - n_dense - n_batch != 2:
            raise ValueError("BCSR sparse.empty: must have 2 sparse dimensions.")
        batch_shape, (rows, cols) = shape[:n_batch], shape[n_batch:n_batch + 2]
        data = mnp.zeros((*batch_shape, nse, *shape[n_batch + 2:]), dtype)
        indices = mnp.full((*batch_shape, nse), cols, index_dtype)
        indptr = mnp.zeros((*batch_shape, rows + 1), index_dtype)
        return cls((data, indices, indptr), shape=shape)

    def sum_duplicates(self, nse=None, remove_zeros=True):
        """This array with duplicate indices summed (and, with `remove_zeros`,
        stored zeros dropped), indices sorted; under jit pass `nse`."""
        if remove_zeros:
            return bcsr_eliminate_zeros(self, nse=nse)
        return bcsr_sum_duplicates(self, nse=nse)

    @classmethod
    def fromdense(cls, mat, *, nse=None, index_dtype=np.int32, n_dense=0, n_batch=0):
        """A BCSR array of the nonzeros of a dense array."""
        return bcsr_fromdense(mat, nse=nse, index_dtype=index_dtype, n_dense=n_dense,
                              n_batch=n_batch)

    def todense(self):
        """The dense array."""
        return bcsr_todense(self)

    def to_bcoo(self):
        """This array as a BCOO (same data, row indices from the pointers)."""
        return BCOO((self.data, _bcsr_to_bcoo(self.indices, self.indptr, shape=self.shape)),
                    shape=self.shape)

    @classmethod
    def from_bcoo(cls, arr):
        """A BCOO array with two sparse dimensions as a BCSR (indices sorted
        first if they may not be)."""
        if arr.n_sparse != 2:
            raise NotImplementedError(f"BSCR.from_bcoo requires n_sparse=2; got "
                                      f"arr.n_sparse={arr.n_sparse}")
        if not arr.indices_sorted:
            arr = arr.sort_indices()
        indices, indptr = _bcoo_to_bcsr(arr.indices, shape=arr.shape,
                                        index_dtype=arr.indices.dtype)
        return cls((arr.data, indices, indptr), shape=arr.shape)

    @classmethod
    def from_scipy_sparse(cls, mat, *, index_dtype=None, n_dense=0, n_batch=0):
        """A BCSR array of a 2-D scipy.sparse array."""
        if n_dense != 0 or n_batch != 0:
            raise NotImplementedError("BCSR from_scipy_sparse with nonzero n_dense/n_batch.")
        if mat.ndim != 2:
            raise ValueError(f"BCSR from_scipy_sparse requires 2D array; {mat.ndim}D is given.")
        mat = mat.tocsr()
        index_dtype = index_dtype or np.int32
        return cls((mnp.asarray(mat.data), mnp.asarray(mat.indices.astype(index_dtype)),
                    mnp.asarray(mat.indptr.astype(index_dtype))), shape=mat.shape)

    def __matmul__(self, other):
        if isinstance(other, JAXSparse):
            raise NotImplementedError("bcsr_dot_general currently implemented for BCSR lhs "
                                      "and ndarray rhs.")
        return bcoo._matmul(self.to_bcoo(), _asarray(other))

    def __rmatmul__(self, other):
        raise NotImplementedError("bcsr_dot_general currently implemented for BCSR lhs and "
                                  "ndarray rhs.")

    def __getitem__(self, index):
        raise NotImplementedError("BCSR indexing is not implemented (as in JAX, whose sparse "
                                  "rule for slice is BCOO's only); index mat.to_bcoo()")

"""COO, jax.experimental.sparse's legacy 2-D coordinate format (data, row,
col), with its matrix-vector and matrix-matrix products; BCOO is the format
to prefer, as in JAX."""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from mlax._src.base import dtypes
from mlax._src.base.tree import register_pytree_node_class
from mlax._src.lax import lax
from mlax._src.numpy import lax_numpy as mnp
from mlax._src.numpy.array_creation import arange
from mlax._src.numpy.library import result_type
from mlax._src.numpy.manipulation import nonzero
from mlax._src.experimental.sparse.base import JAXSparse
from mlax._src.experimental.sparse.bcoo import _asarray, _static_int


class COOInfo(NamedTuple):
    shape: tuple
    rows_sorted: bool = False
    cols_sorted: bool = False


def _fromdense_coords(name, mat, nse):
    """The row, column and value of the first `nse` (default: all, which
    needs concrete values) nonzeros of a 2-D array in row-major order, zero
    values padding; and which are true nonzeros."""
    mat = _asarray(mat)
    if mat.ndim != 2:
        raise ValueError(f"{name}: expected a 2-D array, got shape {mat.shape}")
    nse = _static_int(name, "nse", (mat != 0).sum() if nse is None else nse)
    row, col = nonzero(mat, size=nse)
    true_nonzeros = arange(nse) < (mat != 0).sum()
    data = mnp.where(true_nonzeros, mat[row, col], mnp.zeros((), mat.dtype))
    return data, row, col, true_nonzeros


def coo_fromdense(mat, *, nse=None, index_dtype=np.int32):
    """A COO matrix of the nonzeros of a 2-D array (under jit pass `nse`)."""
    data, row, col, _ = _fromdense_coords("coo_fromdense", mat, nse)
    return COO((data, row.astype(index_dtype), col.astype(index_dtype)), shape=np.shape(mat),
               rows_sorted=True)


def _coo_todense(data, row, col, shape):
    return mnp.zeros(shape, data.dtype).at[row, col].add(data)


def coo_todense(mat):
    """The dense array of a COO matrix."""
    return _coo_todense(mat.data, mat.row, mat.col, mat.shape)


def _coo_product(data, row, col, B, shape, transpose):
    """The product of the matrix (data, row, col) of `shape` (transposed if
    `transpose`) with a vector or matrix B."""
    B = _asarray(B)
    if transpose:
        row, col = col, row
    rows, cols = shape[::-1] if transpose else shape
    if B.ndim not in (1, 2) or B.shape[0] != cols:
        raise TypeError(f"sparse product: a matrix of shape {tuple(shape)}"
                        f"{' transposed' if transpose else ''} cannot multiply an operand of "
                        f"shape {B.shape}")
    if data.dtype != B.dtype:
        raise TypeError(f"sparse product: data of dtype {data.dtype} and operand of dtype "
                        f"{B.dtype} differ (promote them first)")
    prod = (data[:, None] if B.ndim == 2 else data) * B[col]
    return mnp.zeros((rows, *B.shape[1:]), prod.dtype).at[row].add(prod)


def _checked_product(name, ndim, data, row, col, B, shape, transpose):
    """`_coo_product` of an operand that must have `ndim` dimensions (1 for
    the matvec functions, 2 for the matmat ones)."""
    if _asarray(B).ndim != ndim:
        raise TypeError(f"{name}: the dense operand must be {ndim}-D, got shape {np.shape(B)}")
    return _coo_product(data, row, col, B, shape, transpose)


def coo_matvec(mat, v, transpose=False):
    """mat @ v (mat.T @ v with `transpose`) of a COO matrix and a vector."""
    return _checked_product("coo_matvec", 1, *mat._bufs, v, mat.shape, transpose)


def coo_matmat(mat, B, *, transpose=False):
    """mat @ B (mat.T @ B with `transpose`) of a COO matrix and a matrix."""
    return _checked_product("coo_matmat", 2, *mat._bufs, B, mat.shape, transpose)


def _promoted_matmul(data, other, product):
    """`product(data, other)` after promoting both to one dtype (the
    legacy formats' `@`)."""
    if isinstance(other, JAXSparse):
        raise NotImplementedError("matmul between two sparse objects.")
    other = _asarray(other)
    if other.ndim not in (1, 2):
        raise NotImplementedError(f"matmul with object of shape {other.shape}")
    dt = result_type(data, other)
    return product(data.astype(dt), other.astype(dt))


def _eye_coords(N, M, k, index_dtype):
    """The length of the k-th diagonal of an N x M matrix and its rows and
    columns (as NumPy arrays: static)."""
    diag_size = min(N, M - k) if k > 0 else min(N + k, M)
    idx = np.arange(max(diag_size, 0))
    dt = dtypes.canonicalize(index_dtype)
    return diag_size, (idx - min(k, 0)).astype(dt), (idx + max(k, 0)).astype(dt)


class Legacy2D(JAXSparse):
    """What the legacy formats share: 2-D, every element of data stored."""

    @property
    def nse(self):
        return self.data.size

    @property
    def dtype(self):
        return self.data.dtype


@register_pytree_node_class
class COO(Legacy2D):
    """A 2-D sparse matrix in coordinate format: `data[i]` at
    (`row[i]`, `col[i]`); duplicates add up."""

    def __init__(self, args, *, shape, rows_sorted=False, cols_sorted=False):
        self.data, self.row, self.col = map(_asarray, args)
        self._rows_sorted = rows_sorted
        self._cols_sorted = cols_sorted
        super().__init__(args, shape=shape)

    @property
    def _info(self):
        return COOInfo(shape=self.shape, rows_sorted=self._rows_sorted,
                       cols_sorted=self._cols_sorted)

    @property
    def _bufs(self):
        return (self.data, self.row, self.col)

    @classmethod
    def fromdense(cls, mat, *, nse=None, index_dtype=np.int32):
        """A COO matrix of the nonzeros of a 2-D array."""
        return coo_fromdense(mat, nse=nse, index_dtype=index_dtype)

    def _sort_indices(self):
        if self._rows_sorted:
            return self
        row, col, data = lax.sort((self.row, self.col, self.data), num_keys=2)
        return COO((data, row, col), shape=self.shape, rows_sorted=True)

    @classmethod
    def _empty(cls, shape, *, dtype=None, index_dtype="int32"):
        shape = tuple(shape)
        if len(shape) != 2:
            raise ValueError(f"COO must have ndim=2; got shape={shape}")
        data = mnp.zeros(0, dtype)
        row = col = mnp.zeros(0, index_dtype)
        return cls((data, row, col), shape=shape, rows_sorted=True, cols_sorted=True)

    @classmethod
    def _eye(cls, N, M, k, *, dtype=None, index_dtype="int32"):
        diag_size, row, col = _eye_coords(N, M, k, index_dtype)
        if diag_size <= 0:
            return cls._empty((N, M), dtype=dtype, index_dtype=index_dtype)
        return cls((mnp.ones(diag_size, dtype), row, col), shape=(N, M), rows_sorted=True,
                   cols_sorted=True)

    def todense(self):
        """The dense array."""
        return coo_todense(self)

    def transpose(self, axes=None):
        """The transpose (rows and columns swapped)."""
        if axes is not None:
            raise NotImplementedError("axes argument to transpose()")
        return COO((self.data, self.col, self.row), shape=self.shape[::-1],
                   rows_sorted=self._cols_sorted, cols_sorted=self._rows_sorted)

    def tree_flatten(self):
        return (self.data, self.row, self.col), self._info._asdict()

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        obj = object.__new__(cls)
        obj.data, obj.row, obj.col = children
        if aux_data.keys() != {"shape", "rows_sorted", "cols_sorted"}:
            raise ValueError(f"COO.tree_unflatten: invalid aux_data={aux_data}")
        obj.shape = aux_data["shape"]
        obj._rows_sorted = aux_data["rows_sorted"]
        obj._cols_sorted = aux_data["cols_sorted"]
        return obj

    def __matmul__(self, other):
        return _promoted_matmul(self.data, other, lambda d, o: _coo_product(
            d, self.row, self.col, o, self.shape, False))

"""BCOO, the batched-COO sparse array of jax.experimental.sparse, and its
operations. A BCOO of shape `batch + sparse + dense` stores
`data[*batch, nse, *dense]` at `indices[*batch, nse, n_sparse]`; duplicate
indices add up and out-of-range indices (the padding) are ignored.

JAX makes each operation a primitive with its own JVP, transpose and
batching rules; here each is the composition of gathers, scatters, sorts and
dot_generals that JAX's rules lower to, so mlax's autodiff and vectorize
passes derive the same derivatives (with respect to data and to dense
operands; indices are integers) and batching. The algorithms are JAX's, so
data and indices agree element for element, padding included.
"""
from __future__ import annotations

import math
import operator
import warnings
from typing import NamedTuple

import numpy as np

from mlax._src.base import dtypes
from mlax._src.base import errors
from mlax._src.base.tree import register_pytree_node_class
from mlax._src.core import tracer as core
from mlax._src.core.tracer import Tracer
from mlax._src.lax import lax
from mlax._src.lax.shape import expand_dims
from mlax._src.numpy import lax_numpy as mnp
from mlax._src.numpy.array_creation import arange, eye as dense_eye
from mlax._src.numpy.library import result_type
from mlax._src.numpy.manipulation import column_stack, meshgrid, nonzero
from mlax._src.numpy.reductions import cumsum
from mlax._src.numpy.ufuncs import maximum
from mlax._src.experimental.sparse.base import JAXSparse
from mlax._src.experimental.sparse.util import (
    SparseEfficiencyError, SparseEfficiencyWarning, SparseInfo, count_stored_elements,
    nfold_vmap)
from mlax._src.transforms.vmap import register_vmappable, vmap


class BCOOProperties(NamedTuple):
    n_batch: int
    n_sparse: int
    n_dense: int
    nse: int


def _asarray(x):
    return x if isinstance(x, (Tracer, mnp.Array)) else mnp.asarray(x)


def _validate_bcoo_indices(indices, shape) -> BCOOProperties:
    if not dtypes.is_int(indices.dtype):
        raise TypeError(f"BCOO: indices must be integers, got {indices.dtype}")
    shape = tuple(shape)
    if indices.ndim < 2:
        raise ValueError(f"BCOO: indices must have shape (*batch, nse, n_sparse), got "
                         f"{indices.shape}")
    nse, n_sparse = indices.shape[-2:]
    n_batch = indices.ndim - 2
    n_dense = len(shape) - n_batch - n_sparse
    if n_dense < 0:
        raise ValueError(f"BCOO: indices of shape {indices.shape} do not fit shape={shape}")
    if any(s1 not in (1, s2) for s1, s2 in zip(indices.shape[:n_batch], shape[:n_batch])):
        raise ValueError(f"indices batch dimensions not compatible for "
                         f"indices.shape={indices.shape}, shape={shape}")
    return BCOOProperties(n_batch=n_batch, n_sparse=n_sparse, n_dense=n_dense, nse=nse)


def _validate_bcoo(data, indices, shape) -> BCOOProperties:
    props = _validate_bcoo_indices(indices, shape)
    n_batch, n_sparse, n_dense, nse = props
    shape = tuple(shape)
    if data.ndim < n_batch or any(s1 not in (1, s2) for s1, s2 in
                                  zip(data.shape[:n_batch], shape[:n_batch])):
        raise ValueError(f"data batch dimensions not compatible for data.shape={data.shape}, "
                         f"shape={shape}")
    if tuple(data.shape[n_batch:]) != (nse,) + shape[n_batch + n_sparse:]:
        raise ValueError(f"Invalid data.shape={data.shape} for nse={nse}, n_batch={n_batch}, "
                         f"n_dense={n_dense}")
    return props


def _static_int(name, what, value):
    """`value` as a Python int; a traced value raises ConcretizationTypeError."""
    if isinstance(value, Tracer):
        known = core.concrete_value(value)
        if known is None:
            raise errors.concretization(value, f"the {what} argument of {name} (it sets the "
                                               "shape of the result; pass it as an int)")
        value = known
    return operator.index(np.asarray(value).item() if hasattr(value, "shape") else value)


def _batch_grids(shape, indices_shape, n_batch):
    """Index arrays selecting, for each batch position, the row of indices
    (0 where indices broadcast along that batch dimension) and the batch
    position itself."""
    ind_slices = tuple(np.zeros(s, int) if i_s == 1 else np.arange(s)
                       for s, i_s in zip(shape[:n_batch], indices_shape[:n_batch]))
    ind_grid = tuple(np.meshgrid(*ind_slices, indexing="ij", sparse=True))
    batch_slices = tuple(np.arange(s) for s in shape[:n_batch])
    batch_grid = tuple(np.meshgrid(*batch_slices, np.arange(1), indexing="ij", sparse=True))[:-1]
    return ind_grid, batch_grid


# ---------------------------------------------------------------------------
# todense / fromdense / extract
# ---------------------------------------------------------------------------

def bcoo_todense(mat):
    """The dense array of a BCOO matrix."""
    return _bcoo_todense(mat.data, mat.indices, spinfo=mat._info)


def _bcoo_todense(data, indices, *, spinfo):
    data, indices = _asarray(data), _asarray(indices)
    shape = spinfo.shape
    n_batch, n_sparse, _, _ = _validate_bcoo(data, indices, shape)
    ind_grid, batch_ind = _batch_grids(shape, indices.shape, n_batch)
    sparse_ind = tuple(indices[ind_grid + (slice(None), i)] for i in range(n_sparse))
    if not sparse_ind:
        data = data.sum(n_batch, keepdims=bool(batch_ind), dtype=data.dtype)
    return mnp.zeros(shape, data.dtype).at[batch_ind + sparse_ind].add(data)


_TRACED_NSE = "the nse argument of bcoo_fromdense"


def bcoo_fromdense(mat, *, nse=None, n_batch=0, n_dense=0, index_dtype=np.int32):
    """A BCOO matrix of the nonzeros of `mat` (under jit pass a static `nse`)."""
    mat = _asarray(mat)
    n_batch, n_dense = operator.index(n_batch), operator.index(n_dense)
    if n_batch < 0 or n_dense < 0 or n_batch + n_dense > mat.ndim:
        raise ValueError(f"bcoo_fromdense: invalid n_batch={n_batch}, n_dense={n_dense} for "
                         f"an array of shape {mat.shape}")
    if nse is None:
        nse = count_stored_elements(mat, n_batch, n_dense)
    nse = _static_int("bcoo_fromdense", "nse", nse)
    data, indices = _bcoo_fromdense(mat, nse=nse, n_batch=n_batch, n_dense=n_dense,
                                    index_dtype=index_dtype)
    return BCOO((data, indices), shape=mat.shape, indices_sorted=True, unique_indices=True)


def _bcoo_fromdense(mat, *, nse, n_batch=0, n_dense=0, index_dtype=np.int32):
    mat = _asarray(mat)
    index_dtype = dtypes.canonicalize(index_dtype)
    n_sparse = mat.ndim - n_dense - n_batch
    mask = mat != 0
    if n_dense > 0:
        mask = mask.any([-(i + 1) for i in range(n_dense)])

    def _nonzero(a):
        if a.ndim:
            return mnp.stack(nonzero(a, size=nse, fill_value=a.shape[:n_sparse]), -1)
        return mnp.zeros((nse, 0), index_dtype)

    indices = nfold_vmap(_nonzero, n_batch, broadcasted=False)(mask).astype(index_dtype)
    data = _bcoo_extract(indices, mat)
    true_nse = mask.sum(list(range(n_batch, mask.ndim)))[..., None]
    true_nonzeros = lax.broadcasted_iota(true_nse.dtype, (1,) * n_batch + (nse,),
                                         n_batch) < true_nse
    true_nonzeros = true_nonzeros[(n_batch + 1) * (slice(None),) + n_dense * (None,)]
    return mnp.where(true_nonzeros, data, mnp.zeros((), data.dtype)), indices


def bcoo_extract(sparr, arr, *, assume_unique=None):
    """A BCOO with `sparr`'s indices holding `arr`'s values there (duplicate
    indices get the value once, at the first, unless `assume_unique`)."""
    if not isinstance(sparr, BCOO):
        raise TypeError(f"First argument to bcoo_extract should be a BCOO array. "
                        f"Got type(sparr)={type(sparr)}")
    a = _asarray(arr)
    if tuple(a.shape) != sparr.shape:
        raise ValueError(f"shape mismatch: sparr.shape={sparr.shape} a.shape={a.shape}")
    if assume_unique is None:
        assume_unique = sparr.unique_indices
    data = _bcoo_extract(sparr.indices, a, assume_unique=assume_unique)
    return BCOO((data, sparr.indices), **sparr._info._asdict())


def _tuple_replace(tup, ind, val):
    return tuple(val if i == ind else t for i, t in enumerate(tup))


def _bcoo_extract(indices, arr, *, assume_unique=True):
    arr = _asarray(arr)
    props = _validate_bcoo_indices(indices, arr.shape)
    original_props = props
    if not assume_unique:
        indices, sort_ind = _unique_indices(indices, shape=arr.shape, return_index=True)
        props = _validate_bcoo_indices(indices, arr.shape)
    ind_grid, batch_ind = _batch_grids(arr.shape, indices.shape, props.n_batch)
    sparse_ind = tuple(indices[ind_grid + (slice(None), i)] for i in range(props.n_sparse))
    if not sparse_ind + batch_ind:
        result = arr[None]
    else:
        result = arr.at[batch_ind + sparse_ind].get(mode="fill", fill_value=0)
    if props.n_sparse == 0 and props.nse != 1:
        if assume_unique:
            result = lax.broadcast_in_dim(
                result, _tuple_replace(result.shape, props.n_batch, props.nse),
                tuple(range(result.ndim)))
        else:
            out_shape = _tuple_replace(result.shape, props.n_batch, original_props.nse)
            ind = props.n_batch * (slice(None),) + (slice(1),)
            result = mnp.zeros(out_shape, result.dtype).at[ind].set(result)
    if not assume_unique:
        unbatched_shape = (original_props.nse, *result.shape[props.n_batch + 1:])

        def f(r, i):
            return mnp.zeros(unbatched_shape, r.dtype).at[i].add(r)
        for _ in range(props.n_batch):
            f = vmap(f)
        result = f(result, sort_ind)
    return result


# ---------------------------------------------------------------------------
# sorting and de-duplicating indices
# ---------------------------------------------------------------------------

def bcoo_sort_indices(mat):
    """`mat` with its indices sorted lexicographically (duplicates kept)."""
    data, indices = _asarray(mat.data), _asarray(mat.indices)
    props = _validate_bcoo(data, indices, mat.shape)
    if props.n_sparse:
        indices, perm = nfold_vmap(_sort_indices_unbatched, props.n_batch,
                                   broadcasted=False)(indices)
        data = nfold_vmap(lambda d, p: d[p], props.n_batch)(data, perm)
    return BCOO((data, indices), shape=mat.shape, indices_sorted=True,
                unique_indices=mat.unique_indices)


def _sort_indices_unbatched(indices):
    nse, n = indices.shape
    *cols, perm = lax.sort((*(indices[:, i] for i in range(n)), lax.iota(indices.dtype, nse)),
                           num_keys=n)
    return column_stack(cols), perm


def _unique_rows(rows, fill, *, size):
    """The distinct rows of `rows` (nse, n), sorted, padded to `size` with
    `fill`; the index of each input row's distinct row; the input position of
    each distinct row's first occurrence; and the number of distinct rows."""
    nse, n = rows.shape
    *cols, perm = lax.sort((*(rows[:, i] for i in range(n)), lax.iota(np.int32, nse)),
                           num_keys=n)
    ordered = column_stack(cols)
    starts = mnp.concatenate([mnp.ones((min(nse, 1),), bool),
                              (ordered[1:] != ordered[:-1]).any(-1)])
    group = cumsum(starts.astype(np.int32)) - 1
    count = starts.sum(dtype=np.int32)
    first = mnp.where(starts, group, size)
    unique = mnp.broadcast_to(fill, (size, n)).at[first].set(ordered, mode="drop")
    inverse = mnp.zeros((nse,), np.int32).at[perm].set(group)
    index = mnp.zeros((size,), np.int32).at[first].set(perm, mode="drop")
    return unique, inverse, index, count


def _unique_indices(indices, *, shape, return_inverse=False, return_index=False,
                    return_true_size=False):
    props = _validate_bcoo_indices(indices, shape)
    sparse_shape = tuple(shape[props.n_batch:props.n_batch + props.n_sparse])

    def f(idx):
        if props.n_sparse == 0:
            # (One element, which the data summed over nse goes to.)
            outs = [mnp.zeros((1, 0), idx.dtype), mnp.zeros(1, np.int32),
                    mnp.zeros(1, np.int32), mnp.asarray(1, np.int32)]
        else:
            fill = mnp.asarray(sparse_shape, idx.dtype)[None]
            # Out-of-range rows (padding) become one row: the fill value.
            idx = mnp.where((idx >= fill).any(-1, keepdims=True), fill, idx)
            unique, inverse, index, count = _unique_rows(idx, fill, size=props.nse)
            count = count - (idx == fill).all(-1).any().astype(count.dtype)
            outs = [unique, inverse, index, count]
        keep = [True, return_inverse, return_index, return_true_size]
        out = tuple(o for o, k in zip(outs, keep) if k)
        return out[0] if len(out) == 1 else out
    return nfold_vmap(f, props.n_batch, broadcasted=False)(indices)


def _adjust_indices_nse(indices, *, nse, shape):
    props = _validate_bcoo_indices(indices, shape)
    if nse <= props.nse:
        return indices[..., :nse, :]
    fill = lax.broadcast_in_dim(
        mnp.asarray(shape[props.n_batch:props.n_batch + props.n_sparse], indices.dtype),
        (*indices.shape[:-2], nse - props.nse, indices.shape[-1]), (indices.ndim - 1,))
    return lax.concatenate([indices, fill], indices.ndim - 2)


def bcoo_sum_duplicates(mat, nse=None):
    """`mat` with duplicate indices summed and indices sorted; `nse` (needed
    under jit) pads or cuts the result."""
    data, indices = _asarray(mat.data), _asarray(mat.indices)
    props = _validate_bcoo(data, indices, mat.shape)
    if nse is not None:
        nse = _static_int("bcoo_sum_duplicates", "nse", nse)
    indices_out, mapping, nse_batched = _unique_indices(
        indices, shape=mat.shape, return_inverse=True, return_true_size=True)
    if nse is None:
        nse = 1 if props.n_sparse == 0 else _static_int(
            "bcoo_sum_duplicates", "nse", nse_batched.max())
    indices_out = _adjust_indices_nse(indices_out, nse=nse, shape=mat.shape)
    if props.n_sparse == 0:
        data = data.sum(props.n_batch, keepdims=True, dtype=data.dtype)
    out_shape = (*map(max, indices.shape[:props.n_batch], data.shape[:props.n_batch]),
                 nse, *data.shape[props.n_batch + 1:])
    unbatched_shape = out_shape[props.n_batch:]
    permute = nfold_vmap(
        lambda m, d: mnp.zeros(unbatched_shape, d.dtype).at[m].add(d, mode="drop"),
        props.n_batch)
    data_out = permute(mapping, data)
    return BCOO((data_out, indices_out), shape=mat.shape, indices_sorted=True,
                unique_indices=True)


def bcoo_eliminate_zeros(mat, nse=None):
    """`mat` without its explicitly stored zeros, duplicates summed."""
    data, indices, shape = _asarray(mat.data), _asarray(mat.indices), mat.shape
    props = _validate_bcoo(data, indices, shape)
    mask = (data == 0).all(tuple(range(props.n_batch + 1, data.ndim)))
    dims_to_contract = tuple(i for i, s in enumerate(indices.shape[:props.n_batch]) if s == 1)
    mask = mask.all(dims_to_contract, keepdims=True)
    fill_value = mnp.asarray(shape[props.n_batch:props.n_batch + props.n_sparse], indices.dtype)
    f = lambda i, m: mnp.where(m[:, None], fill_value[None, :], i)  # noqa: E731
    indices = nfold_vmap(f, props.n_batch)(indices, mask)
    return bcoo_sum_duplicates(BCOO((data, indices), shape=shape), nse=nse)


# ---------------------------------------------------------------------------
# transpose, reductions, products
# ---------------------------------------------------------------------------

def _validate_permutation(data, indices, permutation, shape):
    if not isinstance(permutation, (tuple, list, np.ndarray)):
        raise TypeError(f"transpose permutation must be a tuple/list/ndarray, got "
                        f"{type(permutation)}.")
    permutation = tuple(int(p) for p in permutation)
    if tuple(sorted(permutation)) != tuple(range(len(shape))):
        raise TypeError("transpose permutation isn't a permutation of operand dimensions, "
                        f"got permutation {permutation} for shape {shape}.")
    n_batch, n_sparse, n_dense, _ = _validate_bcoo(data, indices, shape)
    batch_perm = permutation[:n_batch]
    sparse_perm = [p - n_batch for p in permutation[n_batch:n_batch + n_sparse]]
    dense_perm = [p - n_sparse - n_batch for p in permutation[n_batch + n_sparse:]]
    if n_batch and tuple(sorted(batch_perm)) != tuple(range(n_batch)):
        raise NotImplementedError("transpose permutation cannot permute batch axes with "
                                  f"non-batch axes; got permutation {permutation}, with "
                                  f"n_batch={n_batch}.")
    if n_dense and tuple(sorted(dense_perm)) != tuple(range(n_dense)):
        raise NotImplementedError("transpose permutation cannot permute dense axes with "
                                  f"non-dense axes; got permutation {permutation}, with "
                                  f"n_dense={n_dense}.")
    return batch_perm, sparse_perm, dense_perm


def bcoo_transpose(mat, *, permutation):
    """`mat` with its axes permuted (batch, sparse and dense axes each among
    themselves)."""
    data, indices = _asarray(mat.data), _asarray(mat.indices)
    batch_perm, sparse_perm, dense_perm = _validate_permutation(
        data, indices, permutation, mat.shape)
    out_shape = tuple(mat.shape[p] for p in permutation)
    if tuple(permutation) != tuple(range(mat.ndim)):
        n_batch = len(batch_perm)
        indices = indices[..., np.asarray(sparse_perm, int)].transpose(
            *batch_perm, n_batch, n_batch + 1)
        data = data.transpose(*batch_perm, n_batch, *(d + n_batch + 1 for d in dense_perm))
    return BCOO((data, indices), shape=out_shape, unique_indices=mat.unique_indices)


def bcoo_reduce_sum(mat, *, axes):
    """The sum of `mat` over `axes`, as a BCOO."""
    data, indices = _asarray(mat.data), _asarray(mat.indices)
    shape = mat.shape
    axes = [operator.index(a) for a in axes]
    if not all(-len(shape) <= a < len(shape) for a in axes):
        raise ValueError(f"bcoo_reduce_sum: axes {tuple(axes)} out of range for shape {shape}")
    axes = sorted({a % len(shape) for a in axes})
    n_batch, n_sparse, _, nse = _validate_bcoo(data, indices, shape)
    dense_axes = tuple(ax - n_sparse + 1 for ax in axes if ax >= n_batch + n_sparse)
    data = data.sum(dense_axes)
    if n_sparse:
        # Padding (out-of-range indices) must not count.
        fill_value = mnp.expand_dims(
            mnp.asarray(shape[n_batch:n_batch + n_sparse], indices.dtype),
            tuple(range(indices.ndim - 1)))
        mask = (indices < fill_value).all(-1)
        if data.ndim > mask.ndim:
            mask = expand_dims(mask, tuple(range(mask.ndim, data.ndim)))
        data = mnp.where(mask, data, mnp.zeros((), data.dtype))
    sparse_idx = [i for i in range(n_sparse) if i + n_batch not in axes]
    if not sparse_idx:
        indices = mnp.zeros(_tuple_replace(indices.shape, n_batch + 1, 0), indices.dtype)
    else:
        indices = indices[..., np.array(sparse_idx)]
    batch_axes = {ax for ax in axes if ax < n_batch}
    for ax in batch_axes:
        if data.shape[ax] == 1:
            if indices.shape[ax] == 1:
                data = data * mnp.asarray(shape[ax], data.dtype)
            else:
                data = lax.broadcast_in_dim(data, _tuple_replace(data.shape, ax, shape[ax]),
                                            tuple(range(data.ndim)))
        elif indices.shape[ax] == 1:
            data = data.sum(ax, keepdims=True)
    new_batch_dims = tuple(sorted(set(range(n_batch)) - batch_axes))
    new_batch_shape = tuple(data.shape[i] for i in new_batch_dims)
    new_nse = nse * math.prod([data.shape[i] for i in batch_axes])
    order = (*new_batch_dims, *sorted(batch_axes))
    data = lax.reshape(data.transpose(*order, *range(n_batch, data.ndim)),
                       (*new_batch_shape, new_nse, *data.shape[n_batch + 1:]))
    indices = lax.reshape(indices.transpose(*order, *range(n_batch, indices.ndim)),
                          (*new_batch_shape, new_nse, *indices.shape[n_batch + 1:]))
    out_shape = tuple(shape[i] for i in range(len(shape)) if i not in axes)
    return BCOO((data, indices), shape=out_shape)


def _dims_tuple(dims):
    if isinstance(dims, (int, np.integer)):
        return (int(dims),)
    return tuple(operator.index(d) for d in dims)


def _dot_general_shape(lhs_shape, rhs_shape, dimension_numbers):
    (lc, rc), (lb, rb) = dimension_numbers
    for name, dims, shape in (("lhs contracting", lc, lhs_shape),
                              ("rhs contracting", rc, rhs_shape),
                              ("lhs batch", lb, lhs_shape), ("rhs batch", rb, rhs_shape)):
        if any(not 0 <= d < len(shape) for d in dims):
            raise TypeError(f"dot_general requires {name} dimensions in range for shape "
                            f"{shape}, got {dims}")
    if len(lc) != len(rc) or len(lb) != len(rb):
        raise TypeError("dot_general requires equal numbers of lhs and rhs contracting and "
                        f"batch dimensions, got {dimension_numbers}")
    if tuple(lhs_shape[d] for d in lb) != tuple(rhs_shape[d] for d in rb):
        raise TypeError("dot_general requires lhs batch dimensions and rhs batch dimensions "
                        f"to have the same shape, got {lhs_shape}, {rhs_shape} with "
                        f"{dimension_numbers}")
    if tuple(lhs_shape[d] for d in lc) != tuple(rhs_shape[d] for d in rc):
        raise TypeError("dot_general requires contracting dimensions to have the same shape, "
                        f"got {tuple(lhs_shape[d] for d in lc)} and "
                        f"{tuple(rhs_shape[d] for d in rc)}.")
    lhs_free = [s for i, s in enumerate(lhs_shape) if i not in (*lc, *lb)]
    rhs_free = [s for i, s in enumerate(rhs_shape) if i not in (*rc, *rb)]
    return (*(lhs_shape[d] for d in lb), *lhs_free, *rhs_free)


def _remaining(original, *removed_lists):
    removed = set().union(*removed_lists)
    return [i for i in original if i not in removed]


def bcoo_dot_general(lhs, rhs, *, dimension_numbers, precision=None,
                     preferred_element_type=None, out_sharding=None):
    """lax.dot_general with a BCOO operand: a dense result for a dense other
    operand, a BCOO one for two BCOO operands (JAX's bcoo_spdot_general)."""
    del precision, out_sharding  # unused, as in JAX
    (lc, rc), (lb, rb) = dimension_numbers
    dn = ((_dims_tuple(lc), _dims_tuple(rc)), (_dims_tuple(lb), _dims_tuple(rb)))
    if isinstance(lhs, BCOO) and isinstance(rhs, BCOO):
        return _bcoo_spdot_general(lhs, rhs, dimension_numbers=dn,
                                   preferred_element_type=preferred_element_type)
    if isinstance(lhs, BCOO):
        return _bcoo_dot_general(lhs.data, lhs.indices, rhs, dimension_numbers=dn,
                                 preferred_element_type=preferred_element_type,
                                 lhs_spinfo=lhs._info)
    if isinstance(rhs, BCOO):
        return _bcoo_rdot_general(lhs, rhs.data, rhs.indices, dimension_numbers=dn,
                                  preferred_element_type=preferred_element_type,
                                  rhs_spinfo=rhs._info)
    return lax.dot_general(lhs, rhs, dn, preferred_element_type=preferred_element_type)


def _bcoo_rdot_general(lhs, rhs_data, rhs_indices, *, dimension_numbers,
                       preferred_element_type, rhs_spinfo):
    reversed_dn = tuple(d[::-1] for d in dimension_numbers)
    result = _bcoo_dot_general(rhs_data, rhs_indices, lhs, lhs_spinfo=rhs_spinfo,
                               dimension_numbers=reversed_dn,
                               preferred_element_type=preferred_element_type)
    n_contract, n_batch = (len(d[0]) for d in dimension_numbers)
    n_swap = len(rhs_spinfo.shape) - n_contract
    permutation = (*range(n_batch), *range(n_swap, result.ndim), *range(n_batch, n_swap))
    return lax.transpose(result, permutation)


def _bcoo_dot_general(lhs_data, lhs_indices, rhs, *, dimension_numbers,
                      preferred_element_type, lhs_spinfo):
    lhs_data, lhs_indices, rhs = _asarray(lhs_data), _asarray(lhs_indices), _asarray(rhs)
    out_shape = _dot_general_shape(lhs_spinfo.shape, tuple(rhs.shape), dimension_numbers)
    (lhs_contracting, rhs_contracting), (lhs_batch, rhs_batch) = dimension_numbers
    n_batch, n_sparse, _, _ = _validate_bcoo(lhs_data, lhs_indices, lhs_spinfo.shape)
    if lhs_batch and max(lhs_batch) >= n_batch:
        raise NotImplementedError(
            "bcoo_dot_general batch dimensions must be among the batch dimensions in the "
            f"sparse representation.\ngot lhs_batch={lhs_batch}, n_batch={n_batch}")
    if any(d >= n_batch + n_sparse for d in lhs_contracting):
        raise NotImplementedError("bcoo_dot_general: contracting over dense dimensions.")
    if preferred_element_type is not None:
        out_dtype = dtypes.canonicalize(preferred_element_type)
    else:
        out_dtype = result_type(lhs_data, rhs)
        lhs_data, rhs = lhs_data.astype(out_dtype), rhs.astype(out_dtype)

    pairs = list(zip(lhs_contracting, rhs_contracting))
    lhs_contracting_b = tuple(l for l, _ in pairs if l < n_batch)
    rhs_contracting_b = tuple(r for l, r in pairs if l < n_batch)
    lhs_contracting_s = tuple(l for l, _ in pairs if l >= n_batch)
    rhs_contracting_s = tuple(r for l, r in pairs if l >= n_batch)

    if lhs_batch or lhs_contracting_b:
        batch_perm = [*lhs_batch, *_remaining(range(n_batch), lhs_batch, lhs_contracting_b),
                      *lhs_contracting_b]
        lhs_data = lhs_data.transpose([*batch_perm, *range(n_batch, lhs_data.ndim)])
        lhs_indices = lhs_indices.transpose([*batch_perm, *range(n_batch, lhs_indices.ndim)])
    if lhs_contracting_s:
        lhs_contracting_s = tuple(d - n_batch for d in lhs_contracting_s)
        sparse_perm = np.array([*lhs_contracting_s,
                                *_remaining(range(n_sparse), lhs_contracting_s)], int)
        lhs_indices = lhs_indices[..., sparse_perm]
    rhs_perm = [*rhs_batch, *rhs_contracting_b, *rhs_contracting_s,
                *_remaining(range(rhs.ndim), rhs_batch, rhs_contracting)]
    rhs = rhs.transpose(rhs_perm)

    def result(out_array, lhs_data, lhs_indices, rhs):
        idx = tuple(lhs_indices[..., i] for i in range(n_sparse))
        idx_right = idx[:len(lhs_contracting_s)]
        idx_out = idx[len(lhs_contracting_s):]
        if idx_right and lhs_indices.ndim > 2:
            idx_batch = tuple(np.meshgrid(*(np.arange(n) for n in lhs_indices.shape[:-1]),
                                          indexing="ij"))[:lhs_indices.ndim - 2]
            idx_right = (*idx_batch, *idx_right)
        batch_dims = list(range(len(lhs_contracting_b) + bool(lhs_contracting_s)))
        picked = rhs.at[idx_right].get(mode="fill", fill_value=0) if idx_right else rhs
        prod = lax.dot_general(lhs_data, picked, (([], []), (batch_dims, batch_dims)),
                               preferred_element_type=preferred_element_type)
        if idx_out:
            return out_array.at[idx_out].add(prod.astype(out_array.dtype))
        return prod.sum(tuple(range(prod.ndim - out_array.ndim)), dtype=out_array.dtype)

    result = nfold_vmap(result, n_batch - len(lhs_contracting_b))
    rhs = expand_dims(rhs, tuple(range(len(rhs_batch), n_batch - len(lhs_contracting_b))))
    out_array = mnp.zeros(out_shape, out_dtype)
    return result(out_array, lhs_data, lhs_indices, rhs)


def _bcoo_spdot_general(lhs, rhs, *, dimension_numbers, preferred_element_type):
    """dot_general of two BCOO arrays, as a BCOO: JAX's bcoo_spdot_general.
    Every pair of stored elements whose contracted indices agree makes an
    element of the result (an outer product over the two nse), duplicates
    summed into JAX's nse: the product of the operands' nse (an operand all
    of whose sparse dimensions are contracted counts 1), at most the
    result's number of sparse elements. The result's batch dimensions are
    the common batch dimensions, then the lhs's other ones, then the rhs's."""
    lhs_data, lhs_indices = _asarray(lhs.data), _asarray(lhs.indices)
    rhs_data, rhs_indices = _asarray(rhs.data), _asarray(rhs.indices)
    lhs_shape, rhs_shape = lhs.shape, rhs.shape
    out_shape = _dot_general_shape(lhs_shape, rhs_shape, dimension_numbers)
    lp = _validate_bcoo(lhs_data, lhs_indices, lhs_shape)
    rp = _validate_bcoo(rhs_data, rhs_indices, rhs_shape)
    (lhs_contracting, rhs_contracting), (lhs_batch, rhs_batch) = dimension_numbers
    if lp.n_dense or rp.n_dense:
        raise NotImplementedError("bcoo_spdot_general with dense dimensions.")
    if (lhs_batch and max(lhs_batch) >= lp.n_batch) or \
            (rhs_batch and max(rhs_batch) >= rp.n_batch):
        raise NotImplementedError("bcoo_spdot_general: batch_dims must correspond to batch "
                                  "dimensions of the sparse representation.")
    for c, p in ((lhs_contracting, lp), (rhs_contracting, rp)):
        if c and (min(c) < p.n_batch or max(c) >= p.n_batch + p.n_sparse):
            raise NotImplementedError(
                "bcoo_spdot_general only supports contraction of sparse indices.")
    if rp.n_batch > len(rhs_batch) and lp.n_sparse > len(lhs_contracting):
        raise ValueError("bcoo_spdot_general: cannot have unused batch dims on rhs with "
                         "unused sparse dims on lhs.")
    if preferred_element_type is not None:
        out_dtype = dtypes.canonicalize(preferred_element_type)
    else:
        out_dtype = result_type(lhs_data, rhs_data)
    lhs_data, rhs_data = lhs_data.astype(out_dtype), rhs_data.astype(out_dtype)
    out_nse = ((lp.nse if lp.n_sparse > len(lhs_contracting) else 1) *
               (rp.nse if rp.n_sparse > len(rhs_contracting) else 1))
    out_n_batch = lp.n_batch + rp.n_batch - len(lhs_batch)
    out_nse = min(out_nse, math.prod(out_shape[out_n_batch:]))

    # Batch dimensions to the front, the common ones first.
    def front(data, indices, n_batch, batch):
        perm = [*batch, *_remaining(range(n_batch), batch)]
        return (data.transpose([*perm, *range(n_batch, data.ndim)]),
                indices.transpose([*perm, *range(n_batch, indices.ndim)]))
    lhs_data, lhs_indices = front(lhs_data, lhs_indices, lp.n_batch, lhs_batch)
    rhs_data, rhs_indices = front(rhs_data, rhs_indices, rp.n_batch, rhs_batch)
    lhs_c = [d - lp.n_batch for d in lhs_contracting]
    rhs_c = [d - rp.n_batch for d in rhs_contracting]
    lhs_sparse_shape = lhs_shape[lp.n_batch:]
    rhs_sparse_shape = rhs_shape[rp.n_batch:]
    unbatched_shape = (*(s for i, s in enumerate(lhs_sparse_shape) if i not in lhs_c),
                       *(s for i, s in enumerate(rhs_sparse_shape) if i not in rhs_c))
    index_dtype = result_type(lhs_indices, rhs_indices)

    def unbatched(ld, li, rd, ri):
        lhs_i, rhs_i = li[:, np.array(lhs_c, int)], ri[:, np.array(rhs_c, int)]
        lhs_j = li[:, np.array(_remaining(range(lp.n_sparse), lhs_c), int)]
        rhs_j = ri[:, np.array(_remaining(range(rp.n_sparse), rhs_c), int)]
        overlap = (lhs_i[:, None] == rhs_i[None, :]).all(-1)
        lhs_valid = (lhs_i < mnp.asarray([lhs_sparse_shape[d] for d in lhs_c],
                                         lhs_i.dtype)).all(-1)
        rhs_valid = (rhs_i < mnp.asarray([rhs_sparse_shape[d] for d in rhs_c],
                                         rhs_i.dtype)).all(-1)
        data = mnp.where(overlap & lhs_valid[:, None] & rhs_valid[None, :],
                         ld[:, None] * rd[None, :], mnp.zeros((), ld.dtype)).ravel()
        indices = mnp.concatenate(
            [mnp.broadcast_to(lhs_j[:, None].astype(index_dtype),
                              (li.shape[0], ri.shape[0], lhs_j.shape[-1])),
             mnp.broadcast_to(rhs_j[None, :].astype(index_dtype),
                              (li.shape[0], ri.shape[0], rhs_j.shape[-1]))], axis=-1)
        indices = indices.reshape(data.shape[0], indices.shape[-1])
        # (Zeros kept, as JAX keeps them: eliminating them breaks autodiff.)
        out = bcoo_sum_duplicates(BCOO((data, indices), shape=unbatched_shape), nse=out_nse)
        return out.data, out.indices

    func = nfold_vmap(unbatched, rp.n_batch - len(rhs_batch), in_axes=(None, None, 0, 0))
    func = nfold_vmap(func, lp.n_batch - len(lhs_batch), in_axes=(0, 0, None, None))
    func = nfold_vmap(func, len(lhs_batch))
    data, indices = func(lhs_data, lhs_indices, rhs_data, rhs_indices)
    return BCOO((data, indices.astype(lhs.indices.dtype)), shape=out_shape)


def bcoo_dot_general_sampled(A, B, indices, *, dimension_numbers):
    """The entries at `indices` (a BCOO's, of the product's shape) of
    dot_general(A, B): the data of a sparse result."""
    A, B, indices = _asarray(A), _asarray(B), _asarray(indices)
    (lc, rc), (lb, rb) = dimension_numbers
    dn = ((_dims_tuple(lc), _dims_tuple(rc)), (_dims_tuple(lb), _dims_tuple(rb)))
    if A.dtype != B.dtype:
        dt = result_type(A, B)
        A, B = A.astype(dt), B.astype(dt)
    return _bcoo_extract(indices, lax.dot_general(A, B, dn))


def bcoo_multiply_dense(sp_mat, v):
    """The data of the elementwise product of a BCOO and a dense array (or
    scalar) broadcasting to its shape, at the BCOO's indices."""
    data, indices = _asarray(sp_mat.data), _asarray(sp_mat.indices)
    v = _asarray(v)
    shape = sp_mat.shape
    if v.ndim == 0:
        return data * v.astype(data.dtype)
    if tuple(v.shape) == shape:
        # Duplicates need no care: the product distributes over their sum.
        return lax.mul(data, _bcoo_extract(indices, v))
    if len(v.shape) > len(shape) or any(
            a not in (1, b) for a, b in zip(v.shape[::-1], shape[::-1])):
        raise NotImplementedError(
            "multiplication between sparse and dense is only implemented for cases where the "
            f"output shape matches the sparse matrix shape. Got shape={shape}, "
            f"v.shape={tuple(v.shape)}")
    v = expand_dims(v, tuple(range(len(shape) - v.ndim)))
    props = _validate_bcoo(data, indices, shape)

    def _mul(data, indices, v):
        ind = tuple(indices[:, i] for i in range(indices.shape[1]))
        ind = tuple(i if s != 1 else 0 for i, s in zip(ind, v.shape))
        return data * v[ind]
    return nfold_vmap(_mul, props.n_batch)(data, indices, v)


def bcoo_multiply_sparse(lhs, rhs):
    """The elementwise product of two BCOO arrays of one shape, as a BCOO
    (nse is the product of theirs)."""
    lhs_data, lhs_indices = _asarray(lhs.data), _asarray(lhs.indices)
    rhs_data, rhs_indices = _asarray(rhs.data), _asarray(rhs.indices)
    lp = _validate_bcoo(lhs_data, lhs_indices, lhs.shape)
    rp = _validate_bcoo(rhs_data, rhs_indices, rhs.shape)
    if len(lhs.shape) != len(rhs.shape):
        raise TypeError("bcoo_multiply_sparse: arrays must have same number of dimensions, "
                        f"got {lhs.shape}, {rhs.shape}")
    if lp.n_dense != rp.n_dense:
        raise NotImplementedError("bcoo_multiply_sparse: arrays with differing numbers of "
                                  f"dense dimensions: {lp}, {rp}")
    # As JAX: batch dimensions one operand has beyond the other's become
    # sparse ones (bcoo_update_layout) inside the map over the common ones.
    n_batch = min(lp.n_batch, rp.n_batch)
    out_shape = tuple(np.broadcast_shapes(lhs.shape, rhs.shape))
    lshape, rshape = lhs.shape[n_batch:], rhs.shape[n_batch:]
    dt = result_type(lhs_data, rhs_data)
    lhs_data, rhs_data = lhs_data.astype(dt), rhs_data.astype(dt)

    def _unbatched(data, indices, shape):
        if indices.ndim > 2:
            mat = bcoo_update_layout(BCOO((data, indices), shape=shape), n_batch=0)
            data, indices = mat.data, mat.indices
        return data, indices

    def _mul(ld, li, rd, ri):
        ld, li = _unbatched(ld, li, lshape)
        rd, ri = _unbatched(rd, ri, rshape)
        l_nse, l_nsparse = li.shape
        r_nse, r_nsparse = ri.shape
        dims = np.array([i for i, (s1, s2) in enumerate(zip(lshape[:l_nsparse],
                                                             rshape[:r_nsparse]))
                         if s1 != 1 and s2 != 1], dtype=int)
        nse = l_nse * r_nse
        mask = (li[:, None, dims] == ri[None, :, dims]).all(-1)
        i_lhs, i_rhs = nonzero(mask, size=nse, fill_value=(l_nse, r_nse))
        data = (ld.at[i_lhs].get(mode="fill", fill_value=0) *
                rd.at[i_rhs].get(mode="fill", fill_value=0))
        indices = maximum(
            li.at[i_lhs].get(mode="fill", fill_value=max(lshape, default=0)),
            ri.at[i_rhs].get(mode="fill", fill_value=max(rshape, default=0)))
        return data, indices
    data, indices = nfold_vmap(_mul, n_batch)(lhs_data, lhs_indices, rhs_data, rhs_indices)
    return BCOO((data, indices), shape=out_shape)


# ---------------------------------------------------------------------------
# layout
# ---------------------------------------------------------------------------

def bcoo_update_layout(mat, *, n_batch=None, n_dense=None, on_inefficient="error"):
    """`mat` stored with `n_batch` batch and `n_dense` dense dimensions
    (growing either stores explicit zeros: SparseEfficiencyError unless
    `on_inefficient` is 'warn' or None)."""
    if not isinstance(mat, BCOO):
        raise TypeError(f"bcoo_update_layout: input should be BCOO array, got "
                        f"type(mat)={type(mat)}")
    n_batch = mat.n_batch if n_batch is None else operator.index(n_batch)
    n_dense = mat.n_dense if n_dense is None else operator.index(n_dense)
    if (n_batch, n_dense) == (mat.n_batch, mat.n_dense):
        return mat
    n_sparse = mat.ndim - n_batch - n_dense
    if on_inefficient not in ("error", "warn", None):
        raise ValueError(f"on_inefficent={on_inefficient!r}; expected one of "
                         "['error', 'warn', None].")
    if n_batch < 0:
        raise ValueError(f"n_batch must be non-negative; got {n_batch}")
    if n_dense < 0:
        raise ValueError(f"n_dense must be non-negative; got {n_dense}")
    if n_sparse < 0:
        raise ValueError(f"sum of n_batch={n_batch} and n_dense={n_dense} cannot be larger "
                         f"than mat.ndim={mat.ndim}.")

    def inefficient(msg):
        if on_inefficient == "error":
            raise SparseEfficiencyError(
                msg + " To disable this error, set the on_inefficient argument of "
                "bcoo_update_layout to 'warn' or None.")
        if on_inefficient == "warn":
            warnings.warn(msg + " To disable this warning, set the on_inefficient argument "
                          "of bcoo_update_layout to None.", SparseEfficiencyWarning)

    if n_dense > mat.n_dense and any(d > 1 for d in mat.shape[-n_dense:mat.ndim - mat.n_dense]):
        inefficient(f"For matrix of shape {mat.shape}, increasing n_dense from {mat.n_dense} "
                    f"to {n_dense} results in inefficient storage.")
    if n_batch > mat.n_batch and any(d > 1 for d in mat.shape[mat.n_batch:n_batch]):
        inefficient(f"For matrix of shape {mat.shape}, increasing n_batch from {mat.n_batch} "
                    f"to {n_batch} results in inefficient storage.")

    data, indices, shape = _asarray(mat.data), _asarray(mat.indices), mat.shape
    cur_batch, cur_dense = mat.n_batch, mat.n_dense

    if n_dense < cur_dense:  # dense dimensions become sparse ones
        n = cur_dense - n_dense

        def to_sparse(d, i):
            new_d = lax.reshape(d, (math.prod(d.shape[:n]), *d.shape[n:]))
            meshes = meshgrid(*(arange(s, dtype=i.dtype) for s in d.shape[:n]),
                                  indexing="ij")
            new_i = column_stack([mnp.broadcast_to(i, (new_d.shape[0], i.size)),
                                  *(m.ravel() for m in meshes)])
            return new_d, new_i
        data, indices = nfold_vmap(to_sparse, cur_batch + 1)(data, indices)
        data = lax.reshape(data, (*data.shape[:cur_batch],
                                  math.prod(data.shape[cur_batch:cur_batch + 2]),
                                  *data.shape[cur_batch + 2:]))
        indices = lax.reshape(indices, (*indices.shape[:cur_batch],
                                        math.prod(indices.shape[cur_batch:cur_batch + 2]),
                                        *indices.shape[cur_batch + 2:]))
        cur_dense = n_dense

    if n_batch < cur_batch:  # batch dimensions become sparse ones
        n = cur_batch - n_batch

        def unbatch(d, i):
            nse = i.shape[-2]
            new_d = lax.reshape(d, (math.prod(d.shape[:n + 1]), *d.shape[n + 1:]))
            meshes = meshgrid(*(arange(s, dtype=i.dtype) for s in (*i.shape[:n], nse)),
                                  indexing="ij")
            new_i = lax.reshape(i, (math.prod(i.shape[:n + 1]), *i.shape[n + 1:]))
            new_i = column_stack((*(m.ravel() for m in meshes[:-1]), new_i))
            return new_d, new_i
        data, indices = nfold_vmap(unbatch, n_batch)(data, indices)
        cur_batch = n_batch

    if n_dense > cur_dense:  # sparse dimensions become dense ones
        n = n_dense - cur_dense

        def to_dense(d, i):
            new_d = mnp.zeros(shape[-n_dense:], d.dtype).at[tuple(i[-n:])].set(d)
            return new_d, i[:-n]
        data, indices = nfold_vmap(to_dense, cur_batch + 1)(data, indices)
        cur_dense = n_dense

    if n_batch > cur_batch:  # sparse dimensions become batch ones
        n = n_batch - cur_batch

        def batch(d, i):
            nse = i.shape[-2]
            idx = tuple(i[:, j] for j in range(n)) + (arange(nse),)
            new_i = mnp.broadcast_to(i[:, n:], (*shape[cur_batch:n_batch], nse, i.shape[-1] - n))
            new_d_shape = (*shape[cur_batch:n_batch], nse, *d.shape[d.ndim - n_dense:])
            new_d = mnp.zeros(new_d_shape, d.dtype).at[idx].set(d)
            return new_d, new_i
        data, indices = nfold_vmap(batch, cur_batch)(data, indices)

    return BCOO((data, indices), shape=shape)


# ---------------------------------------------------------------------------
# the BCOO class
# ---------------------------------------------------------------------------

def _is_scalar_or_dense(x):
    return not isinstance(x, JAXSparse)


@register_pytree_node_class
class BCOO(JAXSparse):
    """Batched COO sparse array: `data` of shape `[*batch, nse, *dense]`
    stored at `indices` of shape `[*batch, nse, n_sparse]`; duplicate
    indices add up.

    >>> M = mnp.array([[0., 2., 0.], [1., 0., 4.]])
    >>> BCOO.fromdense(M)
    BCOO(float32[2, 3], nse=3)
    """

    def __init__(self, args, *, shape, indices_sorted=False, unique_indices=False):
        try:
            data, indices = args
        except (TypeError, ValueError):
            raise TypeError("BCOO: args must be a pair (data, indices), got "
                            f"{type(args).__name__}") from None
        self.data, self.indices = _asarray(data), _asarray(indices)
        self.indices_sorted = indices_sorted
        self.unique_indices = unique_indices
        super().__init__(args, shape=shape)
        _validate_bcoo(self.data, self.indices, self.shape)

    @property
    def _info(self):
        return SparseInfo(self.shape, self.indices_sorted, self.unique_indices)

    @property
    def _bufs(self):
        return (self.data, self.indices)

    @property
    def nse(self):
        return self.indices.shape[-2]

    @property
    def dtype(self):
        return self.data.dtype

    @property
    def n_batch(self):
        return self.indices.ndim - 2

    @property
    def n_sparse(self):
        return self.indices.shape[-1]

    @property
    def n_dense(self):
        return self.data.ndim - 1 - self.n_batch

    def _repr_extra(self):
        extra = f", n_batch={self.n_batch}" if self.n_batch else ""
        return extra + (f", n_dense={self.n_dense}" if self.n_dense else "")

    def _like(self, data):
        """A BCOO with these indices and `data`."""
        return BCOO((data, self.indices), shape=self.shape, indices_sorted=self.indices_sorted,
                    unique_indices=self.unique_indices)

    @classmethod
    def fromdense(cls, mat, *, nse=None, index_dtype=np.int32, n_dense=0, n_batch=0):
        """A BCOO array of the nonzeros of a dense array."""
        return bcoo_fromdense(mat, nse=nse, index_dtype=index_dtype, n_dense=n_dense,
                              n_batch=n_batch)

    @classmethod
    def from_scipy_sparse(cls, mat, *, index_dtype=None, n_dense=0, n_batch=0):
        """A BCOO array of a scipy.sparse array."""
        if n_dense != 0 or n_batch != 0:
            raise NotImplementedError("BCOO.fromscipy with nonzero n_dense/n_batch")
        mat = mat.tocoo()
        data = mnp.asarray(mat.data)
        indices = column_stack((mnp.asarray(mat.row), mnp.asarray(mat.col))).astype(
            index_dtype or np.int32)
        return cls((data, indices), shape=mat.shape)

    @classmethod
    def _empty(cls, shape, *, dtype=None, index_dtype="int32", n_dense=0, n_batch=0, nse=0):
        shape = tuple(shape)
        n_sparse = len(shape) - n_dense - n_batch
        if n_sparse < 0 or n_dense < 0 or n_batch < 0 or nse < 0:
            raise ValueError(f"Invalid inputs: shape={shape}, n_dense={n_dense}, "
                             f"n_batch={n_batch}, nse={nse}")
        batch_shape, sparse_shape = shape[:n_batch], shape[n_batch:n_batch + n_sparse]
        dense_shape = shape[n_batch + n_sparse:]
        data = mnp.zeros((*batch_shape, nse, *dense_shape), dtype)
        indices = mnp.broadcast_to(mnp.asarray(sparse_shape, index_dtype),
                                   (*batch_shape, nse, n_sparse))
        return cls((data, indices), shape=shape, indices_sorted=True, unique_indices=True)

    @classmethod
    def _eye(cls, N, M, k, *, dtype=None, index_dtype="int32", n_batch=0, n_dense=0):
        n_sparse = 2 - n_batch - n_dense
        if n_sparse < 0 or n_dense < 0 or n_batch < 0:
            raise ValueError(f"Invalid inputs: shape={(N, M)}, n_dense={n_dense}, "
                             f"n_batch={n_batch}")
        diag_size = min(N, M - k) if k > 0 else min(N + k, M)
        if diag_size <= 0:
            return cls._empty((N, M), dtype=dtype, index_dtype=index_dtype, n_batch=n_batch,
                              n_dense=n_dense)
        if n_dense > 0 or n_batch > 1:
            return cls.fromdense(dense_eye(N, M, k, dtype=dtype), n_batch=n_batch,
                                 n_dense=n_dense, index_dtype=index_dtype)
        # Static values: built in NumPy, one transfer each.
        if n_batch == 0:
            data = mnp.ones(diag_size, dtype=dtype)
            idx = np.arange(diag_size)
            indices = mnp.asarray(np.stack([idx + max(-k, 0), idx + max(k, 0)], 1).astype(
                dtypes.canonicalize(index_dtype)))
        else:
            data = np.ones(N, dtype=dtypes.canonicalize(dtype or dtypes.default_float()))
            indices = np.arange(N) + k
            if k < 0:
                data[:abs(k)] = 0
                indices[:abs(k)] = M
            elif k > 0:
                data[M - abs(k):] = 0
                indices[M - abs(k)] = M  # (JAX marks only this one entry as padding)
            data = mnp.asarray(data[:, None])
            indices = mnp.asarray(indices[:, None, None].astype(index_dtype))
        return cls((data, indices), shape=(N, M), indices_sorted=True, unique_indices=True)

    def sum_duplicates(self, nse=None, remove_zeros=True):
        """This array with duplicate indices summed (and, with `remove_zeros`,
        stored zeros dropped), indices sorted; under jit pass `nse`."""
        if remove_zeros:
            return bcoo_eliminate_zeros(self, nse=nse)
        return bcoo_sum_duplicates(self, nse=nse)

    def update_layout(self, *, n_batch=None, n_dense=None, on_inefficient="error"):
        """This array stored with `n_batch` batch and `n_dense` dense
        dimensions (see bcoo_update_layout)."""
        return bcoo_update_layout(self, n_batch=n_batch, n_dense=n_dense,
                                  on_inefficient=on_inefficient)

    def sort_indices(self):
        """This array with its indices sorted."""
        return bcoo_sort_indices(self)

    def todense(self):
        """The dense array."""
        return bcoo_todense(self)

    def transpose(self, axes=None):
        """The transpose (reversed axes by default)."""
        perm = list(range(self.ndim)[::-1] if axes is None else axes)
        mat_t = bcoo_transpose(self, permutation=perm)
        sparse_perm = [p - self.n_batch for p in perm[self.n_batch:self.n_batch + self.n_sparse]]
        is_sorted = self.indices_sorted if tuple(sparse_perm) == tuple(range(self.n_sparse)) \
            else False
        return BCOO((mat_t.data, mat_t.indices), shape=mat_t.shape, indices_sorted=is_sorted,
                    unique_indices=self.unique_indices)

    def sum(self, axis=None, dtype=None, out=None, keepdims=False):
        """The sum over `axis`: a BCOO, or a dense scalar over every axis."""
        if out is not None or keepdims or dtype is not None:
            raise NotImplementedError("BCOO.sum: only the axis argument is supported")
        axes = tuple(range(self.ndim)) if axis is None else _dims_tuple(axis)
        mat = bcoo_reduce_sum(self, axes=axes)
        return mat.data.sum() if mat.shape == () else mat

    def astype(self, dtype):
        """This array with data cast to `dtype`."""
        mat = self if self.unique_indices else self.sum_duplicates(nse=self.nse,
                                                                   remove_zeros=False)
        return mat._like(mat.data.astype(dtype))

    def __neg__(self):
        return self._like(-self.data)

    def __pos__(self):
        return self._like(+self.data)

    def __abs__(self):
        mat = self if self.unique_indices else self.sum_duplicates(nse=self.nse,
                                                                   remove_zeros=False)
        return mat._like(abs(mat.data))

    def __mul__(self, other):
        if isinstance(other, BCOO):
            return bcoo_multiply_sparse(self, other)
        if not _is_scalar_or_dense(other):
            return NotImplemented
        dt = result_type(self.data, other)
        other = _asarray(other)
        data = bcoo_multiply_dense(self._like(self.data.astype(dt)), other.astype(dt))
        return self._like(data)

    __rmul__ = __mul__

    def __truediv__(self, other):
        if isinstance(other, JAXSparse):
            raise NotImplementedError(
                "Division by a sparse array is not implemented because it would result in "
                "dense output. If this is your intent, use sparse.todense() to convert your "
                "arguments to a dense array.")
        dt = result_type(self.data, other, 1.0)
        other = _asarray(other)
        return self._like(bcoo_multiply_dense(self._like(self.data.astype(dt)),
                                              1 / other.astype(dt)))

    def __matmul__(self, other):
        if isinstance(other, JAXSparse) and not isinstance(other, BCOO):
            return NotImplemented
        return _matmul(self, other if isinstance(other, BCOO) else _asarray(other))

    def __rmatmul__(self, other):
        if isinstance(other, JAXSparse) and not isinstance(other, BCOO):
            return NotImplemented
        return _matmul(_asarray(other), self)

    def tree_flatten(self):
        return (self.data, self.indices), self._info._asdict()

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        obj = object.__new__(cls)
        obj.data, obj.indices = children
        if aux_data.keys() != {"shape", "indices_sorted", "unique_indices"}:
            raise ValueError(f"BCOO.tree_unflatten: invalid aux_data={aux_data}")
        obj.__dict__.update(**aux_data)
        if all(hasattr(c, "shape") and hasattr(c, "ndim") for c in children):
            _check_unflattened(obj)
        return obj


def _check_unflattened(mat):
    """Leaves that do not fit the shape are an error, not a silently wrong
    array (vmap maps a BCOO as a whole, see _vmap_axis)."""
    data, indices, shape = mat.data, mat.indices, mat.shape
    n_batch = indices.ndim - 2
    ok = (indices.ndim >= 2 and data.ndim >= n_batch + 1
          and data.shape[n_batch] == indices.shape[-2]
          and n_batch + indices.shape[-1] + data.ndim - n_batch - 1 == len(shape)
          and all(a in (1, b) for a, b in zip(indices.shape[:n_batch], shape))
          and all(a in (1, b) for a, b in zip(data.shape[:n_batch], shape)))
    if not ok:
        raise ValueError(
            f"BCOO: data of shape {tuple(data.shape)} and indices of shape "
            f"{tuple(indices.shape)} do not fit shape={shape}")


# vmap maps a BCOO along one of its batch dimensions, data and indices
# together, as JAX's (its BCOO is vmappable): the function sees a BCOO of
# one fewer batch dimension, and a BCOO result gets the mapped axis as a
# batch dimension.

def _vmap_axis(mat, axis, what):
    if what == "in_axes":
        a = axis + mat.ndim if axis < 0 else axis
        if not 0 <= a < mat.n_batch:
            raise ValueError(
                f"Cannot map in_axis={axis} for BCOO array with n_batch={mat.n_batch}. "
                "in_axes for batched BCOO operations must correspond to a batch dimension.")
        return a
    a = axis + mat.ndim + 1 if axis < 0 else axis
    if not 0 <= a <= mat.n_batch:
        raise ValueError(
            f"BCOO: cannot add out_axis={axis} for BCOO array with n_batch={mat.n_batch}. "
            "BCOO batch axes must be a contiguous block of leading dimensions.")
    return a


def _vmap_to_elt(mat, axis):
    elt = object.__new__(BCOO)  # (mat's leaves, the example's shape: not validated)
    elt.data, elt.indices = mat.data, mat.indices
    elt.__dict__.update(shape=mat.shape[:axis] + mat.shape[axis + 1:],
                        indices_sorted=mat.indices_sorted, unique_indices=mat.unique_indices)
    return elt


def _vmap_from_elt(mat, leaves, axis, size):
    shape = mat.shape if axis is None else mat.shape[:axis] + (size,) + mat.shape[axis:]
    return BCOO(tuple(leaves), shape=shape, indices_sorted=mat.indices_sorted,
                unique_indices=mat.unique_indices)


register_vmappable(BCOO, _vmap_axis, _vmap_to_elt, _vmap_from_elt)


def _matmul(a, b):
    """a @ b with one operand a BCOO (jnp.matmul's dimension rules, without
    broadcasting of leading dimensions)."""
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("matmul: operands must not be scalars (use *), got shapes "
                         f"{a.shape} and {b.shape}")
    vector = min(a.ndim, b.ndim) == 1  # contracted with the other's matrix dimension
    if not vector and max(a.ndim, b.ndim) > 2 and (a.ndim != b.ndim
                                                   or a.shape[:-2] != b.shape[:-2]):
        raise NotImplementedError(
            "BCOO matmul: operands with more than 2 dimensions must have equal leading "
            f"(batch) dimensions, got shapes {a.shape} and {b.shape}")
    batch = tuple(range(a.ndim - 2)) if a.ndim > 2 and not vector else ()
    lc = a.ndim - 1
    rc = 0 if b.ndim == 1 else b.ndim - 2
    return bcoo_dot_general(a, b, dimension_numbers=(([lc], [rc]), (batch, batch)))

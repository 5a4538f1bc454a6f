"""The structural operations of BCOO arrays (jax.experimental.sparse's
bcoo_reshape, bcoo_slice, bcoo_concatenate, ...): the sparse counterparts of
lax's shape and slicing ops, and the BCOO methods JAX routes through them
(reshape, __getitem__, __iter__).

As in bcoo.py, each is JAX's algorithm written as a composition of mlax ops,
so the layouts (n_batch, n_dense) and nse of results are JAX's; arguments
are checked by tracing the dense lax op they mirror (JAX's abstract eval),
so bad arguments raise that op's errors.
"""
from __future__ import annotations

import functools
import math
import operator

import numpy as np

from mlax._src.jit.jaxpr import ShapeDtypeStruct, eval_shape
from mlax._src.lax import convolution as lax_conv
from mlax._src.lax import lax
from mlax._src.lax.shape import expand_dims, squeeze
from mlax._src.lax.slicing import GatherDimensionNumbers, GatherScatterMode, _check_mode
from mlax._src.numpy import indexing as mnp_indexing
from mlax._src.numpy import lax_numpy as mnp
from mlax._src.numpy.library import result_type
from mlax._src.numpy.index_tricks import ravel_multi_index, unravel_index
from mlax._src.numpy.ufuncs import clip
from mlax._src.experimental.sparse.bcoo import (
    BCOO, _adjust_indices_nse, _asarray, _validate_bcoo, _validate_permutation,
    bcoo_sum_duplicates, bcoo_transpose, bcoo_update_layout)
from mlax._src.transforms.vmap import vmap


def _split(seq, n_batch, n_sparse):
    seq = list(seq)
    return seq[:n_batch], seq[n_batch:n_batch + n_sparse], seq[n_batch + n_sparse:]


def _check_bcoo(name, mat):
    if not isinstance(mat, BCOO):
        raise TypeError(f"{name}: input should be BCOO array, got type(mat)={type(mat)}")


def _dense_shape(fun, *operands, **params):
    """The shape `fun` (a dense lax op) gives these operands' shapes and
    dtypes; its errors for bad arguments."""
    structs = [ShapeDtypeStruct(tuple(o.shape), o.dtype) for o in operands]
    return tuple(eval_shape(functools.partial(fun, **params), *structs).shape)


def _sum_duplicates_to(data, indices, shape, nse):
    out = bcoo_sum_duplicates(BCOO((data, indices), shape=shape), nse=nse)
    return out.data, out.indices


def _set_nse(mat, nse):
    """`mat` with `nse` stored elements: cut, or padded with zeros at
    out-of-range indices."""
    if mat.nse == nse:
        return mat
    batch = (slice(None),) * mat.n_batch
    if nse <= mat.nse:
        data = mat.data[(*batch, slice(nse))]
    else:
        data = mnp.zeros((*mat.data.shape[:mat.n_batch], nse, *mat.data.shape[mat.n_batch + 1:]),
                         mat.dtype).at[(*batch, slice(mat.nse))].set(mat.data)
    indices = _adjust_indices_nse(_asarray(mat.indices), nse=nse, shape=mat.shape)
    return BCOO((data, indices), shape=mat.shape, indices_sorted=mat.indices_sorted,
                unique_indices=mat.unique_indices)


# ---------------------------------------------------------------------------
# broadcast_in_dim, concatenate, reshape, squeeze, rev
# ---------------------------------------------------------------------------

def bcoo_broadcast_in_dim(mat, *, shape, broadcast_dimensions, sharding=None):
    """lax.broadcast_in_dim of a BCOO array (new leading dimensions are
    batch dimensions; sparse dimensions cannot grow)."""
    del sharding  # (single device)
    _check_bcoo("bcoo_broadcast_in_dim", mat)
    data, indices = _broadcast_in_dim(mat.data, mat.indices, mat.shape, tuple(shape),
                                      tuple(operator.index(d) for d in broadcast_dimensions))
    return BCOO((data, indices), shape=shape)


def _broadcast_in_dim(data, indices, old_shape, shape, broadcast_dimensions):
    data, indices = _asarray(data), _asarray(indices)
    if len(old_shape) != len(broadcast_dimensions):
        raise ValueError(f"spinfo.shape={old_shape} and broadcast_dimensions="
                         f"{broadcast_dimensions} must have the same length")
    props = _validate_bcoo(data, indices, old_shape)
    batch_dims, sparse_dims, dense_dims = _split(broadcast_dimensions, props.n_batch,
                                                 props.n_sparse)
    if max(batch_dims, default=0) > min(sparse_dims, default=len(shape)):
        raise ValueError("Cannot mix batch and sparse dimensions during broadcast_in_dim")
    if max(sparse_dims, default=0) > min(dense_dims, default=len(shape)):
        raise ValueError("Cannot mix sparse and dense dimensions during broadcast_in_dim")
    new_n_batch = min(broadcast_dimensions[props.n_batch:], default=len(shape))
    new_n_dense = props.n_dense and len(shape) - min(broadcast_dimensions[-props.n_dense:])
    new_n_sparse = len(shape) - new_n_batch - new_n_dense
    if (math.prod(old_shape[props.n_batch:props.n_batch + props.n_sparse])
            != math.prod(shape[new_n_batch:new_n_batch + new_n_sparse])):
        raise NotImplementedError("Adding sparse dimensions with lengths != 1")
    if (new_n_batch, new_n_dense) != (props.n_batch, props.n_dense):
        data = lax.broadcast_in_dim(
            data, (*shape[:new_n_batch], props.nse, *shape[new_n_batch + new_n_sparse:]),
            (*batch_dims, new_n_batch, *(b + 1 - new_n_sparse for b in dense_dims)))
        indices = lax.broadcast_in_dim(
            indices, (*shape[:new_n_batch], props.nse, props.n_sparse),
            (*batch_dims, new_n_batch, new_n_batch + 1))
    if new_n_sparse != props.n_sparse:
        ind = np.array(sparse_dims, int) - new_n_batch
        indices = mnp.zeros((*shape[:new_n_batch], props.nse, new_n_sparse),
                            indices.dtype).at[..., ind].set(indices)
    return data, indices


def bcoo_concatenate(operands, *, dimension):
    """lax.concatenate of BCOO arrays along a batch or sparse dimension."""
    dimension = operator.index(dimension)
    operands = list(operands)
    if not all(isinstance(op, BCOO) for op in operands):
        raise ValueError("bcoo_concatenate: expected operands to be a sequence of BCOO arrays. "
                         f"Got {operands}")
    out_shape = _dense_shape(lambda *ops: lax.concatenate(ops, dimension), *operands)
    if len({op.n_dense for op in operands}) > 1:
        raise ValueError("bcoo_concatenate requires inputs to have matching nse dimensions.")
    n_batches = {op.n_batch for op in operands}
    # As JAX: op[None] adds a batch dimension of size 1; align it with the others.
    if len(n_batches) != 1 and max(n_batches) == 1:
        if all(op.shape[0] == 1 for op in operands if op.n_batch == 0):
            operands = [bcoo_update_layout(op, n_batch=1) if op.n_batch == 0 else op
                        for op in operands]
        elif all(op.shape[0] == 1 for op in operands if op.n_batch == 1):
            operands = [bcoo_update_layout(op, n_batch=0) if op.n_batch == 1 else op
                        for op in operands]
        n_batches = {op.n_batch for op in operands}
    if len(n_batches) != 1:
        raise ValueError("bcoo_concatenate requires inputs to have matching batch dimensions.")
    n_batch, n_sparse = operands[0].n_batch, operands[0].n_sparse
    index_batches = [op.indices.shape[:n_batch] for op in operands]
    data_batches = [op.data.shape[:n_batch] for op in operands]
    if dimension < n_batch:
        index_batches = [s[:dimension] + s[dimension + 1:] for s in index_batches]
        data_batches = [s[:dimension] + s[dimension + 1:] for s in data_batches]
    if not len(set(index_batches)) == len(set(data_batches)) == 1:
        raise NotImplementedError("concatenation of arrays with broadcasted batch indices")
    if dimension < n_batch:
        nse = max(op.nse for op in operands)
        operands = [_set_nse(op, nse) for op in operands]
        indices = lax.concatenate([op.indices for op in operands], dimension)
        data = lax.concatenate([op.data for op in operands], dimension)
    elif dimension < n_batch + n_sparse:
        offsets = np.cumsum([0] + [op.shape[dimension] for op in operands[:-1]])
        data = lax.concatenate([op.data for op in operands], n_batch)
        indices = lax.concatenate(
            [op.indices.at[..., dimension - n_batch].add(np.asarray(off, op.indices.dtype))
             for op, off in zip(operands, offsets)], n_batch)
    else:
        raise NotImplementedError("Concatenation along dense dimensions.")
    return BCOO((data, indices), shape=out_shape)


def bcoo_reshape(mat, *, new_sizes, dimensions=None, sharding=None):
    """lax.reshape of a BCOO array: batch, sparse and dense dimensions are
    reshaped among themselves (they must not mix)."""
    del sharding  # (single device)
    _check_bcoo("bcoo_reshape", mat)
    new_sizes = tuple(operator.index(s) for s in new_sizes)
    if (mat.indices.shape[:mat.n_batch] != mat.data.shape[:mat.n_batch]
            != mat.shape[:mat.n_batch]):
        raise NotImplementedError("reshape of arrays with broadcasted batch dimensions.")
    if math.prod(new_sizes) != mat.size:
        raise TypeError(f"reshape total size must be unchanged, got new_sizes {new_sizes} "
                        f"for shape {mat.shape}.")
    batch_shape, sparse_shape, _ = _split(mat.shape, mat.n_batch, mat.n_sparse)
    data, indices = _asarray(mat.data), _asarray(mat.indices)
    batch_perm, sparse_perm, dense_perm = _validate_permutation(
        data, indices, dimensions or tuple(range(mat.ndim)), mat.shape)
    batch_size, sparse_size = math.prod(batch_shape), math.prod(sparse_shape)
    cuml_shape = np.cumprod(new_sizes)
    if batch_size != 1 and batch_size not in cuml_shape:
        raise ValueError("bcoo_reshape: new shape cannot mix batch and sparse dimensions; "
                         f"got shape={mat.shape} new_shape={new_sizes} with "
                         f"n_batch={mat.n_batch}")
    if sparse_size != 1 and batch_size * sparse_size not in cuml_shape:
        raise ValueError("bcoo_reshape: new shape cannot mix sparse and dense dimensions; "
                         f"got shape={mat.shape} new_shape={new_sizes} with "
                         f"n_dense={mat.n_dense}")
    i1 = int(cuml_shape.searchsorted(batch_size, side="right"))
    i2 = int(cuml_shape.searchsorted(batch_size * sparse_size, side="right"))
    new_batch, new_sparse, new_dense = new_sizes[:i1], new_sizes[i1:i2], new_sizes[i2:]
    data = lax.reshape(data, (*new_batch, mat.nse, *new_dense),
                       (*batch_perm, mat.n_batch, *(p + mat.n_batch + 1 for p in dense_perm)))
    indices = lax.reshape(indices, (*new_batch, mat.nse, mat.n_sparse),
                          (*batch_perm, mat.n_batch, mat.n_batch + 1))
    if not new_sparse:
        indices = mnp.zeros((*new_batch, mat.nse, 0), indices.dtype)
    elif sparse_shape:
        cols = tuple(indices[..., i] for i in sparse_perm)
        dims = tuple(int(mat.shape[mat.n_batch + i]) for i in sparse_perm)
        flat = ravel_multi_index(cols, dims, mode="clip")
        oob = (indices >= mnp.asarray(sparse_shape, indices.dtype)).any(-1, keepdims=True)
        new_cols = unravel_index(flat, new_sparse)
        indices = mnp.concatenate([c[..., None] for c in new_cols], axis=-1).astype(
            indices.dtype)
        indices = mnp.where(oob, mnp.asarray(new_sparse, indices.dtype), indices)
    return BCOO((data, indices), shape=new_sizes)


def bcoo_squeeze(arr, *, dimensions):
    """lax.squeeze of a BCOO array."""
    _check_bcoo("bcoo_squeeze", arr)
    dimensions = tuple(operator.index(d) for d in dimensions)
    if any(not -arr.ndim <= d < arr.ndim for d in dimensions):
        raise ValueError(f"axis {dimensions} is out of bounds for array of dimension {arr.ndim}")
    dimensions = tuple(d % arr.ndim for d in dimensions)
    if any(arr.shape[d] != 1 for d in dimensions):
        raise ValueError("cannot select an axis to squeeze out which has size not equal to one, "
                         f"got shape={arr.shape} and dimensions={dimensions}")
    batch_dims = tuple(d for d in dimensions if d < arr.n_batch)
    sparse_dims = np.array([i for i in range(arr.n_sparse) if i + arr.n_batch not in dimensions],
                           dtype=int)
    dense_dims = tuple(d - arr.n_sparse + 1 for d in dimensions
                       if d >= arr.n_batch + arr.n_sparse)
    data = squeeze(_asarray(arr.data), batch_dims + dense_dims)
    indices = squeeze(_asarray(arr.indices)[..., sparse_dims], batch_dims)
    out_shape = tuple(s for i, s in enumerate(arr.shape) if i not in dimensions)
    return BCOO((data, indices), shape=out_shape, indices_sorted=arr.indices_sorted,
                unique_indices=arr.unique_indices)


def bcoo_rev(operand, dimensions):
    """lax.rev of a BCOO array."""
    _check_bcoo("bcoo_rev", operand)
    dimensions = [operator.index(d) for d in dimensions]
    _dense_shape(lax.rev, operand, dimensions=dimensions)
    n_batch, n_sparse = operand.n_batch, operand.n_sparse
    batch_dims = [d for d in dimensions if d < n_batch]
    sparse_dims = [d for d in dimensions if n_batch <= d < n_batch + n_sparse]
    dense_dims = [d for d in dimensions if d >= n_batch + n_sparse]
    data, indices = _asarray(operand.data), _asarray(operand.indices)
    if batch_dims:
        indices = lax.rev(indices, batch_dims)
    if batch_dims or dense_dims:
        data = lax.rev(data, batch_dims + [d + 1 - n_sparse for d in dense_dims])
    if sparse_dims:
        sparse_shape = np.array(operand.shape[n_batch:n_batch + n_sparse])
        spdims = np.array([d - n_batch for d in sparse_dims])
        indices = indices.at[..., spdims].mul(np.asarray(-1, indices.dtype))
        indices = indices.at[..., spdims].add((sparse_shape[spdims] - 1).astype(indices.dtype))
        indices = mnp.where(indices < 0, mnp.asarray(sparse_shape, indices.dtype), indices)
    return BCOO((data, indices), shape=operand.shape)


# ---------------------------------------------------------------------------
# slicing and gathering
# ---------------------------------------------------------------------------

def _mask_out_of_window(data, indices, n_batch, n_dense, keep, fill):
    """Entries whose sparse index is outside the window (`keep` false) move to
    the padding index `fill`, with zero data."""
    indices = mnp.where(keep, indices, fill)
    keep_data = expand_dims(keep[..., 0], tuple(range(n_batch + 1, n_batch + 1 + n_dense)))
    return mnp.where(keep_data, data, mnp.zeros((), data.dtype)), indices


def bcoo_slice(mat, *, start_indices, limit_indices, strides=None):
    """lax.slice of a BCOO array (nse is capped at the slice's number of
    sparse positions, duplicates summed)."""
    _check_bcoo("bcoo_slice", mat)
    start_indices = [operator.index(i) for i in start_indices]
    limit_indices = [operator.index(i) for i in limit_indices]
    strides = [1] * mat.ndim if strides is None else [operator.index(i) for i in strides]
    if not len(start_indices) == len(limit_indices) == mat.ndim:
        raise ValueError(f"bcoo_slice: indices must have size mat.ndim={mat.ndim}")
    if len(strides) != mat.ndim:
        raise ValueError(f"len(strides) = {len(strides)}; expected {mat.ndim}")
    if any(s <= 0 for s in strides):
        raise ValueError(f"strides must be a sequence of positive integers; got {strides}")
    if not all(0 <= start <= end <= size
               for start, end, size in zip(start_indices, limit_indices, mat.shape)):
        raise ValueError(f"bcoo_slice: invalid indices. Got start_indices={start_indices}, "
                         f"limit_indices={limit_indices} and shape={mat.shape}")
    n_batch, n_sparse = mat.n_batch, mat.n_sparse
    start_b, start_s, start_d = _split(start_indices, n_batch, n_sparse)
    end_b, end_s, end_d = _split(limit_indices, n_batch, n_sparse)
    stride_b, stride_s, stride_d = _split(strides, n_batch, n_sparse)
    data, indices = _asarray(mat.data), _asarray(mat.indices)
    data_slices, index_slices = [], []
    for i, (start, end, stride) in enumerate(zip(start_b, end_b, stride_b)):
        data_slices.append(slice(None) if data.shape[i] != mat.shape[i]
                           else slice(start, end, stride))
        index_slices.append(slice(None) if indices.shape[i] != mat.shape[i]
                            else slice(start, end, stride))
    data_slices.append(slice(None))
    index_slices.extend([slice(None), slice(None)])
    data_slices.extend(slice(start, end, stride)
                       for start, end, stride in zip(start_d, end_d, stride_d))
    data, indices = data[tuple(data_slices)], indices[tuple(index_slices)]
    new_shape = tuple((end - start + stride - 1) // stride
                      for start, end, stride in zip(start_indices, limit_indices, strides))
    if n_sparse:
        dt = indices.dtype
        lead = tuple(range(n_batch + 1))
        starts = expand_dims(mnp.asarray(start_s, dt), lead)
        ends = expand_dims(mnp.asarray(end_s, dt), lead)
        steps = expand_dims(mnp.asarray(stride_s, dt), lead)
        keep = ((indices >= starts) & (indices < ends)
                & ((indices - starts) % steps == 0)).all(-1, keepdims=True)
        data, indices = _mask_out_of_window(
            data, (indices - starts + steps - 1) // steps, n_batch, mat.n_dense, keep,
            (ends - starts + steps - 1) // steps)
        new_nse = math.prod(new_shape[n_batch:n_batch + n_sparse])
        if mat.nse > new_nse:
            data, indices = _sum_duplicates_to(data, indices, new_shape, new_nse)
    return BCOO((data, indices), shape=new_shape)


def bcoo_dynamic_slice(mat, start_indices, slice_sizes):
    """lax.dynamic_slice of a BCOO array (starts may be traced; sizes are
    static)."""
    _check_bcoo("bcoo_dynamic_slice", mat)
    slice_sizes = tuple(operator.index(i) for i in slice_sizes)
    start_indices = [_asarray(i) for i in start_indices]
    _dense_shape(lambda x, *s: lax.dynamic_slice(x, s, slice_sizes), mat, *start_indices)
    n_batch, n_sparse = mat.n_batch, mat.n_sparse
    start_b, start_s, start_d = _split(start_indices, n_batch, n_sparse)
    size_b, size_s, size_d = _split(slice_sizes, n_batch, n_sparse)
    data, indices = _asarray(mat.data), _asarray(mat.indices)
    zero = np.zeros((), start_indices[0].dtype if start_indices else np.int32)
    data_start, data_sizes, ind_start, ind_sizes = [], [], [], []
    for i, (start, size) in enumerate(zip(start_b, size_b)):
        data_bcast = data.shape[i] != mat.shape[i]
        ind_bcast = indices.shape[i] != mat.shape[i]
        data_start.append(zero if data_bcast else start)
        data_sizes.append(1 if data_bcast else size)
        ind_start.append(zero if ind_bcast else start)
        ind_sizes.append(1 if ind_bcast else size)
    data_start.append(zero)
    data_sizes.append(mat.nse)
    ind_start.extend([zero, zero])
    ind_sizes.extend([mat.nse, n_sparse])
    data_start.extend(start_d)
    data_sizes.extend(size_d)
    data = lax.dynamic_slice(data, data_start, data_sizes)
    indices = lax.dynamic_slice(indices, ind_start, ind_sizes)
    if n_sparse:
        dt = indices.dtype
        lead = tuple(range(n_batch + 1))
        sparse_shape = mnp.asarray(mat.shape[n_batch:n_batch + n_sparse], dt)
        sizes = mnp.asarray(size_s, dt)
        starts = mnp.stack([s.astype(dt) for s in start_s])
        starts = mnp.where(starts < 0, starts + sparse_shape, starts)
        starts = clip(starts, mnp.zeros((), dt), sparse_shape - sizes)
        starts, sizes = expand_dims(starts, lead), expand_dims(sizes, lead)
        keep = ((indices >= starts) & (indices < starts + sizes)).all(-1, keepdims=True)
        data, indices = _mask_out_of_window(data, indices - starts, n_batch, mat.n_dense, keep,
                                            sizes)
        if mat.nse > math.prod(size_s):
            data, indices = _sum_duplicates_to(data, indices, slice_sizes, math.prod(size_s))
    return BCOO((data, indices), shape=slice_sizes)


def bcoo_gather(operand, start_indices, dimension_numbers, slice_sizes, *,
                unique_indices=False, indices_are_sorted=False, mode=None, fill_value=None):
    """lax.gather of a BCOO array (mode 'promise_in_bounds' only, as in JAX):
    one dynamic slice per start index."""
    _check_bcoo("bcoo_gather", operand)
    _validate_bcoo(_asarray(operand.data), _asarray(operand.indices), operand.shape)
    if mode is None:
        mode = GatherScatterMode.PROMISE_IN_BOUNDS
    if _check_mode("bcoo_gather", mode, {"CLIP", "FILL_OR_DROP", "PROMISE_IN_BOUNDS"}) \
            != "PROMISE_IN_BOUNDS":
        raise NotImplementedError(f"bcoo_gather: mode={mode} not yet supported.")
    start_indices = _asarray(start_indices)
    slice_sizes = tuple(operator.index(s) for s in slice_sizes)
    out_shape = _dense_shape(
        lax.gather, operand, start_indices, dimension_numbers=dimension_numbers,
        slice_sizes=slice_sizes, unique_indices=unique_indices,
        indices_are_sorted=indices_are_sorted, mode=mode, fill_value=fill_value)
    offset_dims = tuple(dimension_numbers.offset_dims)
    collapsed = tuple(dimension_numbers.collapsed_slice_dims)
    full_starts = [np.zeros((), start_indices.dtype)] * operand.ndim
    in_axes = [None] * operand.ndim
    full_sizes = list(operand.shape)
    for i, j in enumerate(dimension_numbers.start_index_map):
        full_starts[j] = start_indices[..., i].ravel()
        full_sizes[j] = slice_sizes[j]
        in_axes[j] = 0

    # JAX maps the BCOO result of one slice over the start indices (a new
    # leading batch dimension); mlax maps its leaves.
    def one_slice(starts):
        sliced = bcoo_squeeze(bcoo_dynamic_slice(operand, starts, full_sizes),
                              dimensions=collapsed)
        return sliced.data, sliced.indices, sliced.shape
    elt_shape = []

    def leaves(starts):
        data, indices, shape = one_slice(starts)
        elt_shape[:] = shape
        return data, indices
    data, indices = vmap(leaves, in_axes=(in_axes,))(full_starts)
    result = BCOO((data, indices), shape=(data.shape[0], *elt_shape))
    result = bcoo_reshape(result, new_sizes=(*start_indices.shape[:-1], *result.shape[1:]),
                          dimensions=tuple(range(result.ndim)))
    if result.shape:
        batch_dims = tuple(d for d in range(len(out_shape)) if d not in offset_dims)
        permutation = np.zeros(result.ndim, dtype=int)
        permutation[np.array(batch_dims + offset_dims, dtype=int)] = np.arange(result.ndim)
        if set(permutation[:len(batch_dims)]) != set(range(len(batch_dims))):
            result = bcoo_update_layout(result, n_batch=0)
        result = bcoo_transpose(result, permutation=tuple(int(p) for p in permutation))
    result = result.reshape(out_shape)
    return result if result.dtype == operand.dtype else result.astype(operand.dtype)


# ---------------------------------------------------------------------------
# convolution
# ---------------------------------------------------------------------------

def bcoo_conv_general_dilated(lhs, rhs, *, window_strides, padding, lhs_dilation=None,
                              rhs_dilation=None, dimension_numbers=None, feature_group_count=1,
                              batch_group_count=1, precision=None, preferred_element_type=None,
                              out_sharding=None):
    """lax.conv_general_dilated with BCOO operands, as far as JAX builds it:
    1-D, one batch and one feature, unit strides and dilations; a BCOO
    result of shape (1, 1, n)."""
    del out_sharding, precision  # (single device; XLA's default precision)
    n = len(lhs.shape) - 2
    if n < 0 or len(rhs.shape) != len(lhs.shape):
        raise TypeError(f"conv_general_dilated: lhs and rhs need equal rank at least 2, got "
                        f"shapes {lhs.shape} and {rhs.shape}")
    _dense_shape(lax_conv.conv_general_dilated, lhs, rhs, window_strides=window_strides,
                 padding=padding, lhs_dilation=lhs_dilation, rhs_dilation=rhs_dilation,
                 dimension_numbers=dimension_numbers, feature_group_count=feature_group_count,
                 batch_group_count=batch_group_count,
                 preferred_element_type=preferred_element_type)
    if lhs_dilation is not None and tuple(lhs_dilation) != (1,) * n:
        raise NotImplementedError("bcoo convolution with lhs_dilation.")
    if rhs_dilation is not None and tuple(rhs_dilation) != (1,) * n:
        raise NotImplementedError("bcoo convolution with lhs_dilation.")
    if tuple(window_strides) != (1,) * n:
        raise NotImplementedError("bcoo convolution with non-unit window_strides.")
    if batch_group_count != feature_group_count != 1:
        raise NotImplementedError("bcoo convolution with non-unit group counts.")
    if lhs.shape[:2] != rhs.shape[:2] != (1, 1):
        raise NotImplementedError("bcoo convolution with leading dimensions other than (1, 1)")
    if n != 1:
        raise NotImplementedError("bcoo convolution with other than one spatial dimension")
    if isinstance(padding, str):
        padding = lax_conv.padtype_to_pads(lhs.shape[2:], rhs.shape[2:], window_strides,
                                           padding)
    (pad_lo, pad_hi), = (tuple(map(int, p)) for p in padding)
    index_dtype = (lhs.indices.dtype if isinstance(lhs, BCOO)
                   else rhs.indices.dtype if isinstance(rhs, BCOO) else np.int32)
    lhs_data, lhs_ind = _as_1d_for_conv(lhs, index_dtype)
    rhs_data, rhs_ind = _as_1d_for_conv(rhs, index_dtype)
    dt = result_type(lhs_data, rhs_data)
    data = (lhs_data.astype(dt)[:, None] * rhs_data.astype(dt)[None, :]).ravel()
    indices = (lhs_ind[:, None] + (pad_lo - rhs_ind)[None, :]).ravel()
    mask = indices < 0
    indices = mnp.where(mask, mnp.zeros((), indices.dtype), indices)
    data = mnp.where(mask, mnp.zeros((), data.dtype), data)
    dimsize = max(0, lhs.shape[-1] + pad_lo + pad_hi - rhs.shape[-1] + 1)
    return BCOO((expand_dims(data, (0, 1)), expand_dims(indices, (0, 1, 3))),
                shape=(1, 1, dimsize))


def _as_1d_for_conv(mat, index_dtype):
    """The data and flat sparse index (nse,) of a (1, 1, n) operand."""
    if isinstance(mat, BCOO):
        mat = bcoo_update_layout(mat, n_batch=2, n_dense=0)
        data = squeeze(_asarray(mat.data), (0, 1))
        indices = squeeze(_asarray(mat.indices), (0, 1))[:, 0]
        # Padding entries would land inside the result's range: zero them.
        return mnp.where(indices < mat.shape[-1], data, mnp.zeros((), data.dtype)), indices
    if isinstance(mat, (mnp.Array, np.ndarray)) or hasattr(mat, "shape"):
        data = squeeze(_asarray(mat), (0, 1))
        return data, lax.iota(index_dtype, data.shape[0])
    raise TypeError(f"bcoo_conv_general_dilated: input of type {type(mat)} not recognized.")


# ---------------------------------------------------------------------------
# the BCOO methods that route through these (JAX's sparsify of the dense ops)
# ---------------------------------------------------------------------------

def _reshape(self, *args, order="C"):
    """This array reshaped (jnp.reshape's arguments; batch, sparse and dense
    dimensions must not mix)."""
    if order != "C":
        raise NotImplementedError("BCOO.reshape: only order='C' is supported")
    shape = args[0] if len(args) == 1 and not isinstance(args[0], (int, np.integer)) else args
    shape = [operator.index(s) for s in shape]
    if shape.count(-1) > 1:
        raise ValueError("can only specify one unknown dimension")
    if -1 in shape:
        known = math.prod(s for s in shape if s != -1)
        shape[shape.index(-1)] = self.size // known if known else 0
    if tuple(shape) == self.shape:
        return self
    return bcoo_reshape(self, new_sizes=tuple(shape))


def _getitem(self, index):
    """self[index] for integer, slice, None and ... indices (static, or
    traced scalar integers), as JAX's static and dynamic slicing of sparse
    arrays."""
    entries = mnp_indexing._entries(self.shape, index)
    kinds = {e[0] for e in entries}
    if mnp_indexing._ARRAY in kinds:
        if any(np.ndim(e[1]) != 0 for e in entries if e[0] == mnp_indexing._ARRAY):
            return _leading_array_getitem(self, entries)
        return _dynamic_getitem(self, entries)
    starts, limits, strides, rev, squeeze, newaxes = [], [], [], [], [], []
    for e in entries:
        if e[0] == mnp_indexing._NONE:
            newaxes.append(len(starts) - len(squeeze) + len(newaxes))
        elif e[0] == mnp_indexing._INT:
            starts.append(e[1]), limits.append(e[1] + 1), strides.append(1)
            squeeze.append(e[2])
        else:
            start, stop, step, n = e[1]
            if step < 0:  # the slice in increasing order, then reversed
                rev.append(e[2])
                start = start + (n - 1) * step if n else 0
                step = -step
            if n == 0:
                start = 0
            starts.append(start), limits.append(start + (n - 1) * step + 1 if n else start)
            strides.append(step)
    result = self
    if (starts, limits, strides) != ([0] * self.ndim, list(self.shape), [1] * self.ndim):
        result = bcoo_slice(result, start_indices=starts, limit_indices=limits, strides=strides)
    return _finish_getitem(result, squeeze, rev, newaxes)


def _finish_getitem(result, squeeze, rev, newaxes):
    if rev:
        result = bcoo_rev(result, rev)
    if squeeze:
        result = bcoo_squeeze(result, dimensions=squeeze)
    if newaxes:
        shape = list(result.shape)
        for d in newaxes:
            shape.insert(d, 1)
        dims = [d for d in range(len(shape)) if d not in newaxes]
        result = bcoo_broadcast_in_dim(result, shape=tuple(shape), broadcast_dimensions=dims)
    return result


def _dynamic_getitem(self, entries):
    """self[...] with traced scalar integers: one bcoo_dynamic_slice."""
    starts, sizes, rev, squeeze, newaxes, n_dims = [], [], [], [], [], 0
    for e in entries:
        if e[0] == mnp_indexing._NONE:
            newaxes.append(n_dims - len(squeeze) + len(newaxes))
            continue
        n_dims += 1
        if e[0] == mnp_indexing._INT:
            starts.append(np.int32(e[1])), sizes.append(1), squeeze.append(e[2])
        elif e[0] == mnp_indexing._ARRAY:
            i = _asarray(e[1])
            starts.append(mnp.where(i < 0, i + self.shape[e[2]], i)), sizes.append(1)
            squeeze.append(e[2])
        else:
            start, stop, step, n = e[1]
            if step not in (1, -1):
                raise NotImplementedError("BCOO indexing: a traced integer index beside a "
                                          "strided slice is not built in mlax")
            if step < 0:
                rev.append(e[2])
                start = start - n + 1 if n else 0
            starts.append(np.int32(start if n else 0)), sizes.append(n)
    result = bcoo_dynamic_slice(self, starts, sizes)
    return _finish_getitem(result, squeeze, rev, newaxes)


def _leading_array_getitem(self, entries):
    """self[idx] (an integer array on the first axis, the others whole):
    the gather JAX's indexing emits, as a bcoo_gather."""
    first, rest = entries[0], entries[1:]
    whole = all(e[0] == mnp_indexing._SLICE and e[1] == (0, self.shape[e[2]], 1, self.shape[e[2]])
                for e in rest)
    if first[0] != mnp_indexing._ARRAY or first[2] != 0 or not whole:
        raise NotImplementedError("BCOO indexing with array indices is built for one integer "
                                  "array on the first axis (x[idx]); use integers, slices, "
                                  "None and ... elsewhere")
    idx = mnp_indexing._as_index_array(first[1], self.shape[0])
    k = np.ndim(idx)
    dn = GatherDimensionNumbers(offset_dims=tuple(range(k, k + self.ndim - 1)),
                                collapsed_slice_dims=(0,), start_index_map=(0,))
    return bcoo_gather(self, _asarray(idx)[..., None], dn, (1, *self.shape[1:]))


def _iter(self):
    return iter(self[i] for i in range(self.shape[0]))


BCOO.reshape = _reshape
BCOO.__getitem__ = _getitem
BCOO.__iter__ = _iter

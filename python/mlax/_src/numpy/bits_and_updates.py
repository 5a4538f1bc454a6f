"""mlax.numpy's packbits / unpackbits and the functional forms of NumPy's
in-place updates (put, put_along_axis, place: inplace=False returns the
updated copy, as in jax.numpy)."""
from __future__ import annotations

import numpy as np

from mlax._src.base import dtypes
from mlax._src.numpy import util


def _arr(name, x):
    from mlax._src.numpy.lax_numpy import asarray
    util._check_arg(name, x)
    return asarray(x)


def _check_bitorder(bitorder):
    if bitorder not in ("little", "big"):
        raise ValueError("'order' must be either 'little' or 'big'")


def packbits(a, axis=None, bitorder="big"):
    """The nonzero-ness of a's elements packed 8 to a uint8, along `axis`
    (the flattened array with axis=None), zero-padded to a multiple of 8."""
    from mlax._src.numpy import lax_numpy as mnp
    from mlax._src.numpy.array_creation import arange
    from mlax._src.numpy.lax_numpy import swapaxes
    from mlax._src.numpy.reductions import sum as _sum
    from mlax._src.numpy.statistics import pad
    from mlax._src.numpy.ufuncs import left_shift, not_equal
    arr = _arr("packbits", a)
    if not (dtypes.is_int(arr.dtype) or dtypes.is_bool(arr.dtype)):
        raise TypeError("Expected an input array of integer or boolean data type")
    _check_bitorder(bitorder)
    arr = mnp.astype(not_equal(arr, mnp.zeros((), arr.dtype)), dtypes.uint8)
    bits = arange(8, dtype=dtypes.uint8)
    if bitorder == "big":
        bits = bits[::-1]
    if axis is None:
        arr, axis = mnp.ravel(arr), 0
    arr = swapaxes(arr, axis, -1)
    rem = arr.shape[-1] % 8
    if rem:
        arr = pad(arr, [(0, 0)] * (arr.ndim - 1) + [(0, 8 - rem)])
    arr = mnp.reshape(arr, arr.shape[:-1] + (arr.shape[-1] // 8, 8))
    packed = mnp.astype(_sum(left_shift(arr, bits), axis=-1), dtypes.uint8)
    return swapaxes(packed, axis, -1)


def unpackbits(a, axis=None, count=None, bitorder="big"):
    """The bits of a uint8 array as uint8 0s and 1s, 8 per element along
    `axis` (the flattened array with axis=None); `count` keeps that many
    (or drops -count) of them."""
    from mlax._src.numpy import lax_numpy as mnp
    from mlax._src.numpy.array_creation import arange
    from mlax._src.numpy.lax_numpy import swapaxes
    from mlax._src.numpy.statistics import pad
    from mlax._src.numpy.ufuncs import bitwise_and, greater, left_shift
    arr = _arr("unpackbits", a)
    if arr.dtype != dtypes.uint8:
        raise TypeError("Expected an input array of unsigned byte data type")
    _check_bitorder(bitorder)
    bits = left_shift(mnp.ones((), dtypes.uint8), arange(8, dtype=dtypes.uint8))
    if bitorder == "big":
        bits = bits[::-1]
    if axis is None:
        arr, axis = mnp.ravel(arr), 0
    arr = swapaxes(arr, axis, -1)
    unpacked = mnp.astype(greater(bitwise_and(arr[..., None], bits), 0), dtypes.uint8)
    unpacked = mnp.reshape(unpacked, unpacked.shape[:-2] + (-1,))
    if count is not None:
        if count > unpacked.shape[-1]:
            unpacked = pad(unpacked, [(0, 0)] * (unpacked.ndim - 1) +
                           [(0, count - unpacked.shape[-1])])
        else:
            unpacked = unpacked[..., :count]
    return swapaxes(unpacked, axis, -1)


def _inplace_error(name):
    return ValueError(f"mnp.{name} cannot modify arrays in-place, because mlax arrays are "
                      "immutable. Pass inplace=False to instead return an updated array.")


def _tile_to_size(arr, size):
    from mlax._src.numpy.manipulation import tile
    if arr.size < size:
        arr = tile(arr, int(np.ceil(size / arr.size)))
    return arr[:size] if arr.size > size else arr


def put(a, ind, v, mode=None, *, inplace=True):
    """A copy of `a` with the flattened positions `ind` set to `v` (tiled to
    len(ind)); needs inplace=False. mode: None (out-of-bounds dropped), 'clip'
    or 'wrap'."""
    from mlax._src.numpy import lax_numpy as mnp
    from mlax._src.numpy.ufuncs import clip, remainder
    if inplace:
        raise _inplace_error("put")
    arr, ind_arr, v_arr = _arr("put", a), _arr("put", ind), _arr("put", v)
    ind_arr, v_arr = mnp.ravel(ind_arr), mnp.ravel(v_arr)
    if not arr.size or not ind_arr.size or not v_arr.size:
        return arr
    v_arr = _tile_to_size(v_arr, ind_arr.size)
    if mode is None:
        pass
    elif mode == "clip":
        ind_arr = clip(ind_arr, 0, arr.size - 1)
    elif mode == "wrap":
        ind_arr = remainder(ind_arr, arr.size)
    elif mode == "raise":
        raise NotImplementedError("The 'raise' mode to mnp.put is not supported.")
    else:
        raise ValueError(f"mode should be one of 'wrap' or 'clip'; got mode={mode!r}")
    # As JAX: through unravel_index, which clips out-of-bounds indices.
    from mlax._src.numpy.index_tricks import unravel_index
    return arr.at[unravel_index(ind_arr, arr.shape)].set(v_arr, mode="drop")


def put_along_axis(arr, indices, values, axis, inplace=True, *, mode=None):
    """A copy of `arr` with `values` put at `indices` along `axis` (the
    inverse of take_along_axis); needs inplace=False."""
    from mlax._src.numpy import lax_numpy as mnp
    from mlax._src.numpy.index_tricks import indices as _indices
    if inplace:
        raise _inplace_error("put_along_axis")
    arr, indices, values = (_arr("put_along_axis", x) for x in (arr, indices, values))
    shape = arr.shape
    if axis is None:
        arr, axis_ = mnp.ravel(arr), 0
    else:
        axis_ = axis
    if arr.ndim != indices.ndim:
        raise ValueError("put_along_axis arguments 'arr' and 'indices' must have same ndim. "
                         f"Got arr.ndim={arr.ndim} and indices.ndim={indices.ndim}.")
    try:
        values = mnp.broadcast_to(values, indices.shape)
    except ValueError:
        raise ValueError("put_along_axis argument 'values' must be broadcastable to "
                         f"'indices'. Got values.shape={values.shape} and "
                         f"indices.shape={indices.shape}.") from None
    if not -arr.ndim <= axis_ < arr.ndim:
        raise np.exceptions.AxisError(f"axis {axis_} is out of bounds for array of "
                                      f"dimension {arr.ndim}")
    axis_ %= arr.ndim
    idx = list(_indices(arr.shape, sparse=True))
    idx[axis_] = indices
    result = arr.at[tuple(idx)].set(values, mode=mode)
    return mnp.reshape(result, shape) if axis is None else result


def place(arr, mask, vals, *, inplace=True):
    """A copy of `arr` with its elements where `mask` holds replaced, in
    order, by `vals` (repeated as needed); needs inplace=False."""
    from mlax._src.numpy import lax_numpy as mnp
    data, mask_arr, vals_arr = (_arr("place", x) for x in (arr, mask, vals))
    vals_arr = mnp.ravel(vals_arr)
    if inplace:
        raise _inplace_error("place")
    if data.size != mask_arr.size:
        raise ValueError("place: arr and mask must be the same size")
    if not vals_arr.size:
        raise ValueError("Cannot place values from an empty array")
    if not data.size:
        return data
    n = mask_arr.size
    idx = mnp.where(mnp.ravel(mask_arr), size=n, fill_value=n)[0]
    vals_arr = _tile_to_size(vals_arr, n)
    return mnp.reshape(mnp.ravel(data).at[idx].set(vals_arr, mode="drop"), data.shape)


# One jit dispatch each when called on arrays, as jax.numpy's.
packbits = util._eager_jit(packbits, ("axis", "bitorder"))
unpackbits = util._eager_jit(unpackbits, ("axis", "count", "bitorder"))
put = util._eager_jit(put, ("mode", "inplace"))
put_along_axis = util._eager_jit(put_along_axis, ("axis", "inplace", "mode"))
place = util._eager_jit(place, ("inplace",))

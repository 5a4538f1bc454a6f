"""Compositions jax.lax itself writes in Python over other lax functions:
associative_scan (loops.py), conv_transpose and conv_general_dilated_patches
(convolution.py). Their derivatives and batching come from the ops they use.
"""
from __future__ import annotations

import operator

import numpy as np

from mlax._src.base import dtypes
from mlax._src.lax.lax import add, bitwise_or, concatenate, pad, rev, slice_in_dim
from mlax._src.core.primitives import aval_of, shape_error
from mlax._src.base.tree import tree_flatten, tree_unflatten


# ---------------------------------------------------------------------------
# associative_scan
# ---------------------------------------------------------------------------

def _slice(x, start, limit, stride, axis):
    return slice_in_dim(x, start, limit, stride, axis)


def _interleave(a, b, axis):
    """a[0], b[0], a[1], b[1], ... along `axis` (a has as many or one more)."""
    na, nb = aval_of(a).shape[axis], aval_of(b).shape[axis]
    a_pad = [(0, 0, 0)] * aval_of(a).ndim
    b_pad = [(0, 0, 0)] * aval_of(b).ndim
    a_pad[axis] = (0, 1 if na == nb else 0, 1)
    b_pad[axis] = (1, 0 if na == nb else 1, 1)
    dt = aval_of(a).dtype
    combine = bitwise_or if dtypes.is_bool(dt) else add
    zero = np.zeros((), dt)
    return combine(pad(a, zero, a_pad), pad(b, zero, b_pad))


def associative_scan(fn, elems, reverse=False, axis=0):
    """jax.lax.associative_scan: the inclusive scan of `elems` along `axis`
    with the associative `fn`, by JAX's parallel (Blelloch-style) recursion:
    result[k] = fn(...fn(fn(e[0], e[1]), e[2])..., e[k])."""
    name = "lax.associative_scan"
    if not callable(fn):
        raise TypeError(f"{name}: fn argument should be callable.")
    elems_flat, tree = tree_flatten(elems)
    if not elems_flat:
        raise ValueError(f"{name}: elems has no arrays")
    ndim = aval_of(elems_flat[0]).ndim
    axis = operator.index(axis)
    if not -ndim <= axis < max(ndim, 1) or ndim == 0:
        raise shape_error(name, f"axis {axis} is out of bounds for arrays of rank {ndim}",
                          ValueError)
    axis %= ndim
    if reverse:
        elems_flat = [rev(e, [axis]) for e in elems_flat]

    def combine(a_flat, b_flat):
        c = fn(tree_unflatten(tree, a_flat), tree_unflatten(tree, b_flat))
        c_flat, c_tree = tree_flatten(c)
        if c_tree != tree:
            raise TypeError(f"{name}: fn must return the structure of elems ({tree}), "
                            f"got {c_tree}")
        return c_flat

    num = aval_of(elems_flat[0]).shape[axis]
    if any(aval_of(e).ndim <= axis or aval_of(e).shape[axis] != num for e in elems_flat[1:]):
        raise ValueError("Array inputs to associative_scan must have the same first "
                         f"dimension. (saw: {[aval_of(e).shape for e in elems_flat]})")

    def scan(elems):
        n = aval_of(elems[0]).shape[axis]
        if n < 2:
            return elems
        reduced = combine([_slice(e, 0, n - 1, 2, axis) for e in elems],
                          [_slice(e, 1, n, 2, axis) for e in elems])
        odd = scan(reduced)
        if n % 2 == 0:
            m = aval_of(odd[0]).shape[axis]
            even = combine([_slice(e, 0, m - 1, 1, axis) for e in odd],
                           [_slice(e, 2, n, 2, axis) for e in elems])
        else:
            even = combine(odd, [_slice(e, 2, n, 2, axis) for e in elems])
        even = [concatenate([_slice(e, 0, 1, 1, axis), r], axis)
                for e, r in zip(elems, even)]
        return [_interleave(e, o, axis) for e, o in zip(even, odd)]

    scans = scan(elems_flat)
    if reverse:
        scans = [rev(s, [axis]) for s in scans]
    return tree_unflatten(tree, scans)


# ---------------------------------------------------------------------------
# conv_transpose, conv_general_dilated_patches
# ---------------------------------------------------------------------------

def _dilate_dim(d, r):
    return 0 if d == 0 else 1 + r * (d - 1)


def _conv_transpose_padding(k, s, padding):
    """Before/after padding of one dimension of a transposed convolution
    (jax's _conv_transpose_padding)."""
    if padding == "SAME":
        pad_len = k + s - 2
        pad_a = k - 1 if s > k - 1 else int(np.ceil(pad_len / 2))
    elif padding == "VALID":
        pad_len = k + s - 2 + max(k - s, 0)
        pad_a = k - 1
    elif isinstance(padding, tuple):
        pads = tuple(k - p - 1 for p in padding)
        pad_a = pads[0]
        pad_len = sum(pads)
    else:
        raise ValueError(f"Invalid padding mode: {padding}")
    return pad_a, pad_len - pad_a


def conv_transpose(lhs, rhs, strides, padding, rhs_dilation=None, dimension_numbers=None,
                   transpose_kernel=False, precision=None, preferred_element_type=None,
                   use_consistent_padding=False):
    """jax.lax.conv_transpose: a fractionally strided convolution (strides
    become lhs dilation), with keras' Conv2DTranspose output padding;
    `transpose_kernel` flips the kernel's spatial dimensions and swaps its
    input and output feature dimensions."""
    from mlax._src.lax.lax import transpose
    from mlax._src.lax.convolution import conv_dimension_numbers, conv_general_dilated

    la, ra = aval_of(lhs), aval_of(rhs)
    ndims = la.ndim
    if ra.ndim != ndims or ndims < 2:
        raise shape_error("lax.conv_transpose", f"lhs and rhs need one rank of at least 2, "
                          f"got shapes {la.shape} and {ra.shape}", ValueError)
    one = (1,) * (ndims - 2)
    if dimension_numbers is None:
        defaults = {2: ("NC", "IO", "NC"), 3: ("NHC", "HIO", "NHC"),
                    4: ("NHWC", "HWIO", "NHWC"), 5: ("NHWDC", "HWDIO", "NHWDC")}
        if ndims not in defaults:
            raise ValueError("No 4+ dimensional dimension_number defaults.")
        dimension_numbers = defaults[ndims]
    dn = conv_dimension_numbers(la.shape, ra.shape, dimension_numbers)
    k_sdims = [ra.shape[d] for d in dn.rhs_spec[2:]]
    if rhs_dilation is None:
        rhs_dilation = one
    strides = tuple(strides)
    if use_consistent_padding or (isinstance(padding, str) and padding in {"SAME", "VALID"}):
        eff = [_dilate_dim(k, r) for k, r in zip(k_sdims, rhs_dilation)]
        replicated = [padding] * len(strides) if isinstance(padding, str) else \
            [tuple(p) for p in padding]
        pads = tuple(_conv_transpose_padding(k, s, p) for k, s, p in
                     zip(eff, strides, replicated))
    else:
        pads = padding
    if transpose_kernel:
        for d in dn.rhs_spec[2:]:
            rhs = rev(rhs, [d])
        perm = list(range(ndims))
        o, i = dn.rhs_spec[0], dn.rhs_spec[1]
        perm[o], perm[i] = perm[i], perm[o]
        rhs = transpose(rhs, perm)
    return conv_general_dilated(lhs, rhs, one, pads, strides, rhs_dilation, dn,
                                precision=precision,
                                preferred_element_type=preferred_element_type)


def conv_general_dilated_patches(lhs, filter_shape, window_strides, padding,
                                 lhs_dilation=None, rhs_dilation=None,
                                 dimension_numbers=None, precision=None,
                                 preferred_element_type=None):
    """jax.lax.conv_general_dilated_patches: the receptive-field patches of a
    conv_general_dilated as output features (channels major, then the
    flattened filter positions), by a grouped convolution with an identity
    kernel as jax.lax does."""
    from mlax._src.lax.convolution import conv_dimension_numbers, conv_general_dilated

    la = aval_of(lhs)
    filter_shape = tuple(operator.index(f) for f in filter_shape)
    dn = conv_dimension_numbers(la.shape, (1, 1) + filter_shape, dimension_numbers)
    lhs_spec, rhs_spec, _ = dn
    spatial = int(np.prod(filter_shape))
    channels = la.shape[lhs_spec[1]]
    eye = np.eye(spatial, dtype=la.dtype)
    k = np.broadcast_to(eye, (channels, spatial, spatial)).reshape(
        (channels * spatial, 1) + filter_shape)
    k = np.moveaxis(k, (0, 1), (rhs_spec[0], rhs_spec[1]))
    return conv_general_dilated(lhs, np.ascontiguousarray(k), window_strides, padding,
                                lhs_dilation=lhs_dilation, rhs_dilation=rhs_dilation,
                                dimension_numbers=dn, feature_group_count=channels,
                                preferred_element_type=preferred_element_type)

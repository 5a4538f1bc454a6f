"""ravel_pytree: a pytree of arrays as one flat vector and the function that
rebuilds the pytree from such a vector (jax.flatten_util's behaviour)."""
from __future__ import annotations

import numpy as np

from mlax._src.base import dtypes
from mlax._src.base import public_tree
from mlax._src.base import tree as tree_util
from mlax._src.lax import lax
from mlax._src.lax import shape as lax_shape
from mlax._src.numpy import lax_numpy as mnp
from mlax._src.numpy import library
from mlax._src.numpy import ufuncs


class _HashablePartial:
    """functools.partial that compares and hashes by its function and
    arguments, so two unravel functions for the same tree structure, shapes
    and dtypes are equal (usable as jit static arguments, as JAX's)."""

    def __init__(self, f, *args):
        self.f, self.args = f, args

    def __eq__(self, other):
        return (type(other) is _HashablePartial and self.f.__code__ == other.f.__code__
                and self.args == other.args)

    def __hash__(self):
        return hash((self.f.__code__, self.args))

    def __call__(self, *args):
        return self.f(*self.args, *args)


def _leaf_dtype(x):
    """A leaf's dtype as JAX's dtypes.dtype: Python scalars get the default
    (canonical) types, arrays keep theirs."""
    dt = getattr(x, "dtype", None)
    if dt is not None:
        if isinstance(dt, dtypes.ExtendedDType):  # a key array's (JAX's error)
            raise TypeError(f"Cannot determine dtype of {dt}")
        return np.dtype(dt)
    return mnp.asarray(x).dtype


def ravel_pytree(pytree):
    """(flat 1-D array of every leaf, unravel): the leaves are promoted to one
    dtype; unravel gives each leaf its own dtype back. An empty pytree gives a
    float32 vector of length 0."""
    # As JAX's, on the user's pytree leaves: a key array is one (refused).
    leaves, treedef = public_tree.tree_flatten(pytree)
    flat, unravel_list = _ravel_list(leaves)
    return flat, _HashablePartial(_unravel_pytree, treedef, unravel_list)


def _unravel_pytree(treedef, unravel_list, flat):
    return tree_util.tree_unflatten(treedef, unravel_list(flat))


def _no_leaves(_):
    return []


def _ravel_list(lst):
    if not lst:
        return mnp.zeros((0,), "float32"), _HashablePartial(_no_leaves)
    from_dtypes = tuple(_leaf_dtype(x) for x in lst)
    to_dtype = np.dtype(library.result_type(*from_dtypes))
    sizes = tuple(int(np.size(x)) for x in lst)
    shapes = tuple(tuple(np.shape(x)) for x in lst)
    if all(dt == to_dtype for dt in from_dtypes):
        # One dtype: no conversions, so unravel works on any dtype (as JAX's).
        raveled = lax.concatenate([mnp.ravel(mnp.asarray(x)) for x in lst], 0)
        return raveled, _HashablePartial(_unravel_list_single_dtype, sizes, shapes)
    raveled = lax.concatenate(
        [mnp.ravel(lax.convert_element_type(mnp.asarray(x), to_dtype)) for x in lst], 0)
    return raveled, _HashablePartial(_unravel_list, sizes, shapes, from_dtypes, to_dtype)


def _split(arr, sizes):
    arr = mnp.asarray(arr)
    return lax_shape.split(arr, sizes) if len(sizes) > 1 else [arr]


def _unravel_list_single_dtype(sizes, shapes, arr):
    return [mnp.reshape(c, s) for c, s in zip(_split(arr, sizes), shapes)]


def _unravel_list(sizes, shapes, from_dtypes, to_dtype, arr):
    arr_dtype = np.dtype(getattr(arr, "dtype", None) or mnp.asarray(arr).dtype)
    if arr_dtype != to_dtype:
        raise TypeError(f"unravel function given array of dtype {arr_dtype}, "
                        f"but expected dtype {to_dtype}")
    out = []
    for chunk, shape, dtype in zip(_split(arr, sizes), shapes, from_dtypes):
        chunk = mnp.reshape(chunk, shape)
        if np.issubdtype(to_dtype, np.complexfloating) and not np.issubdtype(
                dtype, np.complexfloating):
            chunk = ufuncs.real(chunk)  # complex -> real drops the imaginary part silently
        out.append(lax.convert_element_type(chunk, dtype))
    return out

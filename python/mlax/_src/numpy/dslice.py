"""`mlax.ds` (JAX's `jax.ds`): a slice of a static size at a start that may
be traced, for indexing arrays and Refs (`x[ds(i, 2)]` under jit).

`ds(i, n, stride)` is `i:i+n*stride:stride` with `i` possibly traced: the
start is clamped so that the slice fits, as `lax.dynamic_slice`'s. Indexing
takes the window of every Slice entry with one dynamic_slice, then indexes
the window with the other entries; a write puts the updated window back
with dynamic_update_slice.
"""
from __future__ import annotations

import builtins

import numpy as np

from mlax._src.base.tree import register_pytree_node_class
from mlax._src.core.array import Array
from mlax._src.core.tracer import Tracer


def _is_static(x) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


@register_pytree_node_class
class Slice:
    """A slice with a start index (static or traced), a static size and a
    static stride (jax's `Slice`; a traced start is its pytree child)."""

    __slots__ = ("start", "size", "stride")
    __match_args__ = ("start", "size", "stride")

    def __init__(self, start, size, stride=1):
        if stride < 0:
            raise ValueError("`stride` must be >= 0.")
        self.start, self.size, self.stride = start, size, stride

    is_dynamic_start = property(lambda self: not _is_static(self.start))
    is_dynamic_size = property(lambda self: not _is_static(self.size))

    def __repr__(self):
        return f"Slice(start={self.start!r}, size={self.size!r}, stride={self.stride!r})"

    def __eq__(self, other):
        return isinstance(other, Slice) and (self.start, self.size, self.stride) == (
            other.start, other.size, other.stride)

    __hash__ = None

    def tree_flatten(self):
        dyn_start, dyn_size = self.is_dynamic_start, self.is_dynamic_size
        return ((self.start if dyn_start else None, self.size if dyn_size else None),
                (None if dyn_start else self.start, None if dyn_size else self.size,
                 self.stride))

    @classmethod
    def tree_unflatten(cls, aux, children):
        start, size = (a if a is not None else b for a, b in zip(children, aux[:2]))
        return cls(start, size, aux[2])

    @classmethod
    def from_slice(cls, slc: builtins.slice, size: int) -> "Slice":
        start, stop, step = slc.indices(size)
        if step < 1:
            raise ValueError(f"slice must have a step >= 1 (found: {step})")
        return cls(start, len(range(start, stop, step)), step)


def ds(start, size=None, stride=None):
    """`ds(i, n)` is `i:i+n` with `i` possibly traced; `ds(n)` is `:n`,
    `ds(None)` is `:`, `ds(i, n, s)` takes `n` elements `s` apart."""
    if start is None:
        return builtins.slice(None)
    if stride is None:
        stride = 1
    if not isinstance(stride, int):
        raise ValueError("Non-static stride in `dslice`")
    if size is None:
        start, size = 0, start
    return Slice(start, size, stride)


dslice = ds


def has_slices(index) -> bool:
    parts = index if isinstance(index, tuple) else (index,)
    return builtins.any(isinstance(i, Slice) for i in parts)


def window(x, index, shape):
    """(the starts of the window of `index`'s Slice entries in an array of
    `shape`, the window's sizes, `index` on the window: each Slice a step
    slice of it)."""
    parts = index if isinstance(index, tuple) else (index,)

    def dims_of(i):
        if i is None or i is Ellipsis:
            return 0
        if isinstance(i, (np.ndarray, Array, Tracer)) and np.dtype(i.dtype) == np.bool_:
            return max(np.ndim(i), 1)
        return 1
    n_real = builtins.sum(dims_of(i) for i in parts)
    starts, sizes, rest = [0] * len(shape), list(shape), []
    dim = 0
    for i in parts:
        if i is Ellipsis:
            dim += len(shape) - n_real
        elif isinstance(i, Slice):
            if i.is_dynamic_size:
                raise TypeError(f"mlax.ds: the size of a slice must be a static integer, "
                                f"got {i.size!r}")
            if dim >= len(shape):
                raise IndexError(f"too many indices for array: array is {len(shape)}-"
                                 f"dimensional, but {n_real} were indexed")
            length = (i.size - 1) * i.stride + 1 if i.size > 0 else 0
            if length > shape[dim]:
                raise ValueError(f"mlax.ds: a slice of {i.size} elements {i.stride} apart "
                                 f"does not fit in axis {dim} of size {shape[dim]}")
            starts[dim], sizes[dim] = i.start, length
            i = builtins.slice(None, None, i.stride if i.stride > 1 else None)
        rest.append(i)
        dim += dims_of(i)
    return starts, sizes, tuple(rest)

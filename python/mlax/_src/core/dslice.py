"""`mlax.ds` (JAX's `jax.ds`): a slice of a static size at a start that may
be traced, for indexing arrays and Refs (`x[ds(i, 2)]` under jit).

`ds(i, n)` is `i:i+n` with `i` possibly traced, `ds(i, n, s)` the `n`
elements `s` apart from `i`. Indexing with them is numpy/indexing.py's, as
JAX's: a unit-stride Slice reads (and writes a Ref) as dynamic_slice does (a
negative start wrapped once, then clamped so that it fits); `.at[...]` of
an array drops an update whose window does not fit; a strided Slice is the
integer indices i, i+s, ...: clamped when read, dropped when written.
"""
from __future__ import annotations

import builtins

import numpy as np

from mlax._src.base.tree import register_pytree_node_class


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

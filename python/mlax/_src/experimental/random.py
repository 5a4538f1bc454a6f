"""jax.experimental.random: a stateful PRNG over JAX's stateless one, its
state a counter in a Ref (`mlax.ref`), so draws update it implicitly, eagerly
and under jit, vmap (of `split` generators) and control flow. Bit for bit
JAX's: each draw folds the counter into the base key."""
from __future__ import annotations

import dataclasses
import operator
from typing import Sequence

import numpy as np

from mlax._src.base.tree import register_dataclass
from mlax._src.core import refs
from mlax._src.core import tracer as core
from mlax._src.numpy import lax_numpy
from mlax._src.random import prng


def _canonicalize_size(size, *args) -> tuple:
    if size is None:
        return np.broadcast_shapes(*(np.shape(arg) for arg in args))
    if isinstance(size, (int, np.number)):
        return (operator.index(size),)
    return tuple(map(operator.index, size))


@register_dataclass
@dataclasses.dataclass(frozen=True, slots=True)
class StatefulPRNG:
    """A stateful generator (made by `stateful_rng`): a typed PRNG key and
    a scalar integer counter in a Ref."""

    _base_key: object
    _counter: refs.Ref

    def key(self, shape: int | Sequence[int] = ()):
        """A new key (or `shape` of them), updating the state."""
        if self._base_key.shape:
            raise ValueError("cannot operate on split stateful generator")
        key = prng.fold_in(self._base_key, refs.get(self._counter))
        refs.addupdate(self._counter, ..., 1)
        shape = _canonicalize_size(shape)
        return prng.split(key, shape) if shape else key

    def random(self, size=None, dtype=float):
        """Floats in [0.0, 1.0)."""
        return prng.uniform(self.key(), shape=_canonicalize_size(size), dtype=dtype)

    def uniform(self, low=0, high=1, size=None, *, dtype=float):
        return prng.uniform(self.key(), _canonicalize_size(size, low, high),
                            minval=low, maxval=high, dtype=dtype)

    def normal(self, loc=0, scale=1, size=None, *, dtype=float):
        norm = prng.normal(self.key(), _canonicalize_size(size, loc, scale), dtype)
        return (lax_numpy.asarray(loc)
                + lax_numpy.asarray(scale) * norm).astype(dtype)

    def integers(self, low, high=None, size=None, *, dtype=int):
        if high is None:
            low, high = 0, low
        return prng.randint(self.key(), _canonicalize_size(size, low, high),
                            minval=low, maxval=high, dtype=dtype)

    def split(self, num):
        """One generator of `num` independent ones, for vmap."""
        return StatefulPRNG(self.key(num),
                            refs.new_ref(lax_numpy.zeros(num, dtype=int)))

    def spawn(self, n_children: int) -> list:
        """`n_children` independent generators."""
        return [type(self)(key, refs.new_ref(0)) for key in self.key(n_children)]


def stateful_rng(seed=None, *, impl=None) -> StatefulPRNG:
    """A stateful generator seeded with `seed` (NumPy's entropy when None,
    outside any trace only)."""
    if seed is None:
        if core.trace_stack():
            raise TypeError(
                "When used within transformed code, jax.experimental.random.stateful_rng()"
                " requires an explicit seed to be set.")
        entropy = np.random.SeedSequence().entropy
        seed = np.int64(entropy & np.iinfo(np.int64).max)
    return StatefulPRNG(prng.key(seed, impl=impl), refs.new_ref(0))

"""JAXSparse: the base class of sparse arrays (jax.experimental.sparse._base):
shape bookkeeping, repr, and the operators a format may leave unbuilt."""
from __future__ import annotations

import abc
import math

from mlax._src.core.tracer import Tracer


class JAXSparse(abc.ABC):
    """Base class of high-level sparse arrays."""
    __hash__ = None
    # Dense arrays' binary operators (mlax's and NumPy's) defer to ours.
    _mlax_defer_operators = True
    __array_ufunc__ = None

    @property
    @abc.abstractmethod
    def dtype(self): ...

    @property
    @abc.abstractmethod
    def nse(self) -> int: ...

    def __init__(self, args, *, shape):
        try:
            self.shape = tuple(int(s) for s in shape)
        except TypeError:
            raise TypeError(f"{type(self).__name__}: shape must be a sequence of integers, "
                            f"got {shape!r}") from None

    def __len__(self):
        return self.shape[0]

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def _repr_extra(self) -> str:
        return ""

    def __repr__(self):
        name = type(self).__name__
        try:
            body = f"{name}({self.dtype}{list(self.shape)}, nse={self.nse}{self._repr_extra()})"
        except Exception:  # as JAX's: a half-built object still prints
            body = f"{name}(<invalid>)"
        if isinstance(self.data, Tracer):
            body = f"{type(self.data).__name__}[{body}]"
        return body

    @abc.abstractmethod
    def tree_flatten(self): ...

    @classmethod
    @abc.abstractmethod
    def tree_unflatten(cls, aux_data, children): ...

    @abc.abstractmethod
    def transpose(self, axes=None): ...

    @abc.abstractmethod
    def todense(self): ...

    @property
    def T(self):
        return self.transpose()

    def block_until_ready(self):
        for arg in self.tree_flatten()[0]:
            arg.block_until_ready()
        return self

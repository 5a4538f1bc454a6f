"""mlax.numpy's host-side helpers, as jax.numpy has them: arrays from bytes,
strings and files (NumPy parses, mlax holds the result), .npy/.npz files,
print options and reprs (mlax arrays print through NumPy), DLPack import."""
from __future__ import annotations

import numpy as np

from mlax._src.base import dtypes

ComplexWarning = np.exceptions.ComplexWarning
euler_gamma = np.euler_gamma
array_repr = np.array_repr
array_str = np.array_str
save = np.save
savez = np.savez
get_printoptions = np.get_printoptions
printoptions = np.printoptions
set_printoptions = np.set_printoptions

_IMPURE = ("mnp.{0}() is not implemented because it may be non-pure and thus unsafe for use "
           "with jit and other transformations (it consumes its {1}). Consider "
           "mnp.asarray(np.{0}(...)) instead.")


def _asarray(x):
    from mlax._src.numpy.lax_numpy import asarray
    return asarray(x)


def frombuffer(buffer, dtype=float, count=-1, offset=0):
    """A 1-D array of the data in a buffer (as numpy.frombuffer)."""
    return _asarray(np.frombuffer(buffer=buffer, dtype=dtype, count=count, offset=offset))


def fromstring(string, dtype=float, count=-1, *, sep):
    """A 1-D array of the numbers in a text string (as numpy.fromstring with sep)."""
    return _asarray(np.fromstring(string, dtype=dtype, count=count, sep=sep))


def fromfile(*args, **kwargs):
    """Not implemented, as in jax.numpy: reading a file is a side effect."""
    raise NotImplementedError(_IMPURE.format("fromfile", "file object"))


def fromiter(*args, **kwargs):
    """Not implemented, as in jax.numpy: consuming an iterable is a side effect."""
    raise NotImplementedError(_IMPURE.format("fromiter", "iterable"))


def load(file, *args, **kwargs):
    """numpy.load, with the result as an mlax array (bfloat16 recovered from
    the 2-byte void type NumPy saves it as)."""
    out = np.load(file, *args, **kwargs)
    if isinstance(out, np.ndarray):
        if out.dtype == "V2":
            out = out.view(dtypes.bfloat16)
        try:
            out = _asarray(out)
        except (TypeError, ValueError, AssertionError):  # a dtype mlax has no array of
            pass
    return out


def from_dlpack(x, /, *, device=None, copy=None):
    """An mlax array from a DLPack-capable object (mlax.dlpack.from_dlpack)."""
    from mlax._src.jit.dlpack import from_dlpack as _from_dlpack
    return _from_dlpack(x, device=device, copy=copy)

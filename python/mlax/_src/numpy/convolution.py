"""mlax.numpy.convolve and correlate, on lax.conv_general_dilated (as JAX)."""
from __future__ import annotations

from mlax._src.base import dtypes
from mlax._src.lax import lax
from mlax._src.lax.convolution import conv_general_dilated
from mlax._src.numpy.util import _eager_jit, _promote_inexact, promote_dtypes
from mlax._src.core.primitives import aval_of


def _conv(x, y, mode, op, precision, preferred_element_type):
    if aval_of(x).ndim != 1 or aval_of(y).ndim != 1:
        raise ValueError(f"{op}() only support 1-dimensional inputs.")
    if preferred_element_type is None:
        x, y = _promote_inexact(op, x, y)
    else:
        x, y = promote_dtypes(op, x, y)
    nx, ny = aval_of(x).shape[0], aval_of(y).shape[0]
    if nx == 0 or ny == 0:
        raise ValueError(f"{op}: inputs cannot be empty, got shapes {(nx,)} and {(ny,)}.")
    reverse_out = False
    if op == "correlate":
        if dtypes.is_complex(aval_of(y).dtype):  # (as JAX: the conjugate of y, then
            y = lax.conj(y)                      # swapped with x when it is longer)
        if nx < ny:
            x, y, nx, ny = y, x, ny, nx
            reverse_out = True
    else:
        if nx < ny:
            x, y, nx, ny = y, x, ny, nx
        y = lax.rev(y, (0,))
    if mode == "valid":
        padding = [(0, 0)]
    elif mode == "same":
        padding = [(ny // 2, ny - ny // 2 - 1)]
    elif mode == "full":
        padding = [(ny - 1, ny - 1)]
    else:
        raise ValueError("mode must be one of ['full', 'same', 'valid']")
    x3 = lax.reshape(x, (1, 1, nx))
    y3 = lax.reshape(y, (1, 1, ny))
    result = conv_general_dilated(x3, y3, (1,), padding, precision=precision,
                                  preferred_element_type=preferred_element_type)
    out = lax.reshape(result, (aval_of(result).shape[2],))
    return lax.rev(out, (0,)) if reverse_out else out


def convolve(a, v, mode="full", *, precision=None, preferred_element_type=None):
    """numpy.convolve: the discrete linear convolution of two 1-D arrays."""
    return _conv(a, v, mode, "convolve", precision, preferred_element_type)


def correlate(a, v, mode="valid", *, precision=None, preferred_element_type=None):
    """numpy.correlate: the cross-correlation of two 1-D (real) arrays."""
    return _conv(a, v, mode, "correlate", precision, preferred_element_type)


# One jit dispatch per call when eager, as jax.numpy's.
convolve = _eager_jit(convolve, ("mode", "precision", "preferred_element_type"))
correlate = _eager_jit(correlate, ("mode", "precision", "preferred_element_type"))

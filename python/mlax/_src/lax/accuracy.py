"""The accuracy hints of the transcendental lax ops (`lax.exp(x,
accuracy=...)`, ...): `Tolerance` and `AccuracyMode`, as jax.lax's, and
their translation into the ops' `#mlax.accuracy` attribute (see
MlaxAttributes.td), which the lowering hands XLA as StableHLO's
`result_accuracy`. The backend picks an implementation meeting the hint or
rejects the program; on CPU every hint gives the default implementation.
"""
from __future__ import annotations

import enum
import operator
import struct

from mlax._src.base.jaxlib_internals import JaxRuntimeError
from mlax._src.core import tracer as core

_INT64_MAX = 2**63 - 1


class Tolerance:
    """An accuracy hint as error bounds (jax.lax.Tolerance): absolute
    `atol`, relative `rtol` and units in the last place `ulps`; at least one
    non-zero, none negative. The backend may pick a cheaper implementation
    within them, or refuse the program."""

    def __init__(self, atol: float = 0.0, rtol: float = 0.0, ulps: int = 0):
        if atol < 0.0 or rtol < 0.0 or ulps < 0.0:
            raise ValueError('Tolerances must be non-negative.')
        if atol == 0.0 and rtol == 0.0 and ulps == 0:
            raise ValueError('At least one of atol, rtol, or ulps must be set.')

        self.atol = atol
        self.rtol = rtol
        self.ulps = ulps


class AccuracyMode(enum.Enum):
    """An accuracy hint as a mode (jax.lax.AccuracyMode)."""
    HIGHEST = 1
    DEFAULT = 2


def _negative(name, what, value):
    # Only a NaN passes Tolerance's own check (or a field set afterwards):
    # XLA rejects such a program, which is JAX's error class.
    raise JaxRuntimeError(f"INVALID_ARGUMENT: lax.{name}: accuracy: negative tolerance "
                          f"Tolerance.{what} = {value}; tolerances must be non-negative "
                          f"(at {core.user_location_str()})")


def _real(name, what, value):
    try:
        value = float(value)
    except (TypeError, ValueError):
        raise TypeError(f"lax.{name}: accuracy: Tolerance.{what} must be a real number, "
                        f"got {value!r} (at {core.user_location_str()})") from None
    if not value >= 0:
        _negative(name, what, value)
    return value


def _f64_literal(value):
    """`value` as an MLIR float literal read back exactly: its f64 bits in hex."""
    return "0x%016X" % struct.unpack("<Q", struct.pack("<d", value))[0]


def accuracy_param(name, accuracy):
    """The `#mlax.accuracy` text for lax.<name>'s `accuracy` (None: none
    asked), hashable as an op parameter. Errors as JAX's: another kind of
    value is a NotImplementedError; a Tolerance whose fields are not numbers
    (ulps not an integer, or past int64) a TypeError."""
    if accuracy is None:
        return None
    if isinstance(accuracy, AccuracyMode):
        return f"#mlax.accuracy<{accuracy.name.lower()}>"
    if not isinstance(accuracy, Tolerance):
        raise NotImplementedError(f"Accuracy {accuracy} not supported")
    atol = _real(name, "atol", accuracy.atol)
    rtol = _real(name, "rtol", accuracy.rtol)
    try:
        ulps = operator.index(accuracy.ulps)
    except TypeError:
        raise TypeError(f"lax.{name}: accuracy: Tolerance.ulps must be an integer, "
                        f"got {accuracy.ulps!r} (at {core.user_location_str()})") from None
    if ulps > _INT64_MAX:
        raise TypeError(f"lax.{name}: accuracy: Tolerance.ulps must fit in int64, "
                        f"got {ulps} (at {core.user_location_str()})")
    if ulps < 0:
        _negative(name, "ulps", ulps)
    if atol == 0.0 and rtol == 0.0 and ulps == 0:
        raise ValueError('At least one of atol, rtol, or ulps must be set.')
    return (f"#mlax.accuracy<atol = {_f64_literal(abs(atol))}, "
            f"rtol = {_f64_literal(abs(rtol))}, ulps = {ulps}>")

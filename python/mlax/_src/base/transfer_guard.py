"""Transfer guards (jax.transfer_guard and its three directions): log or
refuse the data movements mlax makes between the host and devices.

jaxlib applies them wherever it moves data, for mlax exactly as for JAX
(see jaxlib_internals.set_transfer_guard); mlax says which transfers the
user asked for (mlax.device_put, mlax.device_get), which the
'log_explicit' / 'disallow_explicit' levels let through. The process-wide
levels are config options (`jax_transfer_guard_host_to_device`, ...;
`jax_transfer_guard` sets all three); the context managers set them for the
calling thread, as JAX's do.
"""
from __future__ import annotations

import contextlib

from mlax._src.base import jaxlib_internals
from mlax._src.base.config import TRANSFER_DIRECTIONS, check_transfer_guard_level, config


class TransferGuard:
    """One direction's guard: `.value` is its level (the thread's, else
    the process's; None: unset, which jaxlib treats as 'allow'), and
    `with guard(level):` sets it for the calling thread."""

    def __init__(self, direction: str):
        self._direction = direction

    def __repr__(self):
        return f"TransferGuard({self._direction!r})"

    @property
    def value(self):
        local = jaxlib_internals.transfer_guard_level(self._direction, thread_local=True)
        return local if local is not None else getattr(
            config, f"jax_transfer_guard_{self._direction}")

    @contextlib.contextmanager
    def __call__(self, new_val):
        check_transfer_guard_level(new_val)
        previous = jaxlib_internals.transfer_guard_level(self._direction, thread_local=True)
        jaxlib_internals.set_transfer_guard(self._direction, new_val, thread_local=True)
        try:
            yield
        finally:
            jaxlib_internals.set_transfer_guard(self._direction, previous, thread_local=True)


transfer_guard_host_to_device = TransferGuard("host_to_device")
transfer_guard_device_to_device = TransferGuard("device_to_device")
transfer_guard_device_to_host = TransferGuard("device_to_host")
_GUARDS = (transfer_guard_host_to_device, transfer_guard_device_to_device,
           transfer_guard_device_to_host)
assert tuple(g._direction for g in _GUARDS) == TRANSFER_DIRECTIONS


@contextlib.contextmanager
def transfer_guard(new_val):
    """Sets the guard level of all three directions for the calling thread
    (jax.transfer_guard): 'allow', 'log', 'disallow', 'log_explicit' or
    'disallow_explicit'."""
    check_transfer_guard_level(new_val)
    with contextlib.ExitStack() as stack:
        for guard in _GUARDS:
            stack.enter_context(guard(new_val))
        yield


def explicit_put():
    """The block's host-to-device and device-to-device transfers were asked
    for by the user (mlax.device_put)."""
    return jaxlib_internals.explicit_transfer("put")


def explicit_get():
    """The block's device-to-host transfers were asked for by the user
    (mlax.device_get)."""
    return jaxlib_internals.explicit_transfer("get")

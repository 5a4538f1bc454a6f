"""Devices and processes of the PJRT backends, as jax's top-level device
functions (jax._src.xla_bridge), and print_environment_info."""
from __future__ import annotations

import os
import platform
import sys
import warnings

import numpy as np
from jaxlib import xla_client

from mlax._src.backend import runtime
from mlax._src.base.version import __version__


# The class of the devices mlax.devices() returns (jaxlib's, as jax.Device).
Device = xla_client.Device


def _backend_named(name):
    try:
        return runtime.backend(name)
    except RuntimeError as e:
        raise RuntimeError(f"mlax: backend {name!r} is not available here ({e}); "
                           f"'cpu' always is") from None


def devices(backend=None):
    """The devices of a PJRT backend ('cpu', 'gpu', 'cuda', 'rocm', 'tpu'; by
    default the default one: a GPU where there is one), as jax.devices."""
    return _backend_named(backend).devices()


def local_devices(backend=None):
    return _backend_named(backend).local_devices()


def default_backend() -> str:
    """The platform of the default device, as jax.default_backend: 'cpu',
    'gpu' (CUDA or ROCm) or 'tpu'."""
    return runtime.default_backend()


def device_count(backend=None) -> int:
    """The number of devices of the backend, over all processes."""
    return int(_backend_named(backend).device_count())


def local_device_count(backend=None) -> int:
    """The number of devices of the backend this process drives."""
    return int(_backend_named(backend).local_device_count())


def process_index(backend=None) -> int:
    """This process's index among the processes of a multi-process run (0
    in a single process)."""
    return int(_backend_named(backend).process_index())


def process_count(backend=None) -> int:
    return max((d.process_index for d in devices(backend)), default=0) + 1


def process_indices(backend=None) -> list:
    return list(range(process_count(backend)))


# JAX's old names, with JAX's (default-category) warnings.
def host_id(backend=None) -> int:
    warnings.warn("mlax.host_id has been renamed to mlax.process_index. This alias will "
                  "eventually be removed; please update your code.", stacklevel=2)
    return process_index(backend)


def host_count(backend=None) -> int:
    warnings.warn("mlax.host_count has been renamed to mlax.process_count. This alias will "
                  "eventually be removed; please update your code.", stacklevel=2)
    return process_count(backend)


def host_ids(backend=None) -> list:
    warnings.warn("mlax.host_ids has been renamed to mlax.process_indices. This alias will "
                  "eventually be removed; please update your code.", stacklevel=2)
    return process_indices(backend)


def print_environment_info(return_string: bool = False):
    """mlax's, jaxlib's, NumPy's and Python's versions, the devices
    and the platform (and the MLAX_/JAX_/XLA_ environment), to quote in a
    bug report; returned instead of printed with `return_string`."""
    import jaxlib

    python_version = sys.version.replace("\n", " ")
    default = devices()
    lines = [
        f"mlax:   {__version__}",
        f"jaxlib: {getattr(jaxlib, '__version__', 'unknown')}",
        f"numpy:  {np.__version__}",
        f"python: {python_version}",
        f"device info: {default[0].device_kind}-{device_count()}, "
        f"{local_device_count()} local devices",
        f"process_count: {process_count()}",
        f"platform: {platform.uname()}",
    ]
    lines += [f"{k}={v}" for k, v in os.environ.items()
              if k.startswith(("MLAX_", "JAX_", "XLA_"))]
    info = "\n".join(lines)
    if return_string:
        return info
    print(info)
    return None


# jax.extend.backend: the PJRT clients themselves, for libraries built on
# mlax (they are jaxlib's Client objects, as JAX's).

def get_backend(platform=None):
    """The PJRT client of `platform` (a name, a client, or None for the
    default one), as jax.extend.backend.get_backend."""
    if isinstance(platform, xla_client.Client):
        return platform
    return _backend_named(platform)


def backends():
    """{platform: PJRT client} of the platforms available here: the
    default one's, and the CPU's."""
    out = {}
    for name in (None, "cpu"):
        client = runtime.backend(name)
        out.setdefault(client.platform, client)
    return out


def get_default_device():
    """The device uncommitted computations run on (jax_default_device's,
    else the default backend's first)."""
    return runtime.default_device()


def backend_xla_version(platform=None):
    """The XLA version a PJRT plugin reports (None for jaxlib's built-in
    clients, as JAX's)."""
    return getattr(get_backend(platform), "xla_version", None)

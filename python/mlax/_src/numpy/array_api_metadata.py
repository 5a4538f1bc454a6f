"""The Python array API's metadata (https://data-apis.org/array-api/), as
jax.numpy has it: `Array.__array_namespace__()` is mlax.numpy, which has
`__array_api_version__` and `__array_namespace_info__()`, so libraries
written against the standard (array-api-compat users) take mlax arrays."""
from __future__ import annotations

from types import ModuleType

import numpy as np

from mlax._src.base.config import config

__array_api_version__ = "2024.12"


def __array_namespace__(self, *, api_version: None | str = None) -> ModuleType:
    """The array API namespace of mlax arrays: mlax.numpy."""
    if api_version is not None and api_version != __array_api_version__:
        raise ValueError(f"{api_version=!r} is not available; "
                         f"available versions are: {[__array_api_version__]}")
    return _namespace


# The public mlax.numpy module, which sets it when imported (_src imports
# nothing of the public namespace).
_namespace: ModuleType | None = None


def __array_namespace_info__() -> "ArrayNamespaceInfo":
    return ArrayNamespaceInfo()


_KINDS_32 = {
    "bool": ("bool",),
    "signed integer": ("int8", "int16", "int32"),
    "unsigned integer": ("uint8", "uint16", "uint32"),
    "real floating": ("float32",),
    "complex floating": ("complex64",),
}
_KINDS_64 = {"signed integer": ("int64",), "unsigned integer": ("uint64",),
             "real floating": ("float64",), "complex floating": ("complex128",)}


class ArrayNamespaceInfo:
    """What the array API's `__array_namespace_info__()` describes: the
    capabilities, devices and data types of mlax.numpy (those of jax.numpy)."""

    _capabilities = {
        "boolean indexing": False,  # within transformations
        "data-dependent shapes": False,  # within transformations
        "max dimensions": 64,  # XLA's limit
    }

    def capabilities(self):
        return dict(self._capabilities)

    def default_device(self):
        # None: placed by mlax (the default device), as JAX's uncommitted arrays.
        return None

    def devices(self):
        from mlax._src.jit import devices as devices_lib

        out = [None]
        for platform in devices_lib.backends():
            out.extend(devices_lib.devices(platform))
        return out

    def default_dtypes(self, *, device=None):
        del device  # the same on every device
        x64 = config.jax_enable_x64
        return {"real floating": np.dtype(np.float64 if x64 else np.float32),
                "complex floating": np.dtype(np.complex128 if x64 else np.complex64),
                "integral": np.dtype(np.int64 if x64 else np.int32),
                "indexing": np.dtype(np.int64 if x64 else np.int32)}

    def _kinds(self):
        kinds = {k: list(v) for k, v in _KINDS_32.items()}
        if config.jax_enable_x64:
            for k, v in _KINDS_64.items():
                kinds[k] += v
        kinds["integral"] = kinds["signed integer"] + kinds["unsigned integer"]
        kinds["numeric"] = (kinds["integral"] + kinds["real floating"]
                            + kinds["complex floating"])
        return {k: {n: np.dtype(n) for n in v} for k, v in kinds.items()}

    def dtypes(self, *, device=None, kind=None):
        del device  # the same on every device
        kinds = self._kinds()
        if kind is None:
            return kinds["numeric"] | kinds["bool"]
        if isinstance(kind, tuple):
            out = {}
            for k in kind:
                out |= kinds[k]
            return out
        return kinds[kind]

"""Device meshes, as jax.experimental.mesh_utils: arrays of devices in the
shape `Mesh` takes, ordered for collectives.

On CPU the devices keep the order given; on GPU and TPU they are ordered by
id (XLA's global numbering). JAX additionally lays TPU meshes out along the
physical torus of the chips (`_get_physical_tpu_mesh`); mlax does not read
TPU topology, so a TPU mesh here is id-ordered, correct but possibly with
slower collectives. `device_kind_handler_dict` takes a function per
`device_kind` that builds meshes for it first, as in JAX.
"""
from __future__ import annotations

import collections
import math
from typing import Any, Callable, Sequence

import numpy as np

from mlax._src.jit.devices import devices as _devices

# device_kind -> handler(mesh_shape, devices, *, contiguous_submeshes) that
# returns a device mesh, or None to fall back to the default layout.
device_kind_handler_dict: dict[str, Callable[..., np.ndarray | None]] = {}


def _axis_sizes(mesh_shape) -> tuple[int, ...] | None:
    try:
        return tuple(int(s) for s in mesh_shape)
    except (TypeError, ValueError):
        return None


def create_device_mesh(mesh_shape: Sequence[int], devices: Sequence[Any] | None = None, *,
                       contiguous_submeshes: bool = False,
                       allow_split_physical_axes: bool = False) -> np.ndarray:
    """An array of `devices` (default: all of them) of shape `mesh_shape`.
    The product of `mesh_shape` must be the number of devices."""
    if devices is None:
        devices = _devices()
    shape = _axis_sizes(mesh_shape)
    if shape is None:
        raise ValueError("`mesh_shape` passed to `create_device_mesh` should be a sequence "
                         f"of ints. Got {mesh_shape}")
    if math.prod(shape) != len(devices):
        raise ValueError(f"Number of devices {len(devices)} must equal the product "
                         f"of mesh_shape {shape}")
    last = devices[-1]
    handler = device_kind_handler_dict.get(last.device_kind)
    if handler is not None:
        result = handler(shape, devices, contiguous_submeshes=contiguous_submeshes)
        if result is not None:
            return result
    if last.platform in ("gpu", "tpu"):
        return np.asarray(sorted(devices, key=lambda d: d.id)).reshape(shape)
    return np.asarray(devices).reshape(shape)


def create_hybrid_device_mesh(mesh_shape: Sequence[int], dcn_mesh_shape: Sequence[int],
                              devices: Sequence[Any] | None = None, *,
                              process_is_granule: bool = False,
                              should_sort_granules_by_key: bool = True,
                              allow_split_physical_axes: bool = False) -> np.ndarray:
    """A mesh over several granules (slices, or processes with
    `process_is_granule`): each granule's devices form a `mesh_shape` mesh,
    and the granules are laid out as `dcn_mesh_shape`; the result's shape is
    their elementwise product."""
    if devices is None:
        devices = _devices()
    attr = "process_index" if process_is_granule else "slice_index"
    if not hasattr(devices[0], attr):
        raise ValueError(f"Device {devices[0]} does not have attribute {attr}. See "
                         "`process_is_granule` option.")
    by_granule = collections.defaultdict(list)
    for dev in devices:
        by_granule[getattr(dev, attr)].append(dev)
    granules = ([by_granule[k] for k in sorted(by_granule)] if should_sort_granules_by_key
                else list(by_granule.values()))
    if math.prod(dcn_mesh_shape) != len(granules):
        raise ValueError(f"Number of slices {len(granules)} must equal the product of "
                         f"dcn_mesh_shape {dcn_mesh_shape}")
    meshes = [create_device_mesh(mesh_shape, g, allow_split_physical_axes=allow_split_physical_axes)
              for g in granules]
    layout = np.arange(len(granules)).reshape(dcn_mesh_shape)
    blocks = np.vectorize(lambda i: meshes[i], otypes=[object])(layout)
    return np.block(blocks.tolist())

"""jax.debug's sharding tools: inspect_array_sharding (calls back with the
sharding of each array of a pytree), visualize_sharding (a plain-text
picture of which devices hold which tile of a 1-D or 2-D shape) and
visualize_array_sharding (the two together).

Eagerly the sharding is the array's. Under jit JAX calls back when the
program is lowered, with XLA's choice: mlax calls back when it traces (which
lowering does), with the program's device when no mesh is involved; over a
mesh the layout of an intermediate is XLA's propagation, which mlax does not
read back, so that is NotImplementedError."""
from __future__ import annotations

from mlax._src.backend import runtime
from mlax._src.backend import sharding as sharding_lib
from mlax._src.base.tree import registry
from mlax._src.core import tracer as core
from mlax._src.core.tracer import Tracer


def _traced_sharding(value):
    mesh = sharding_lib.traced_over_mesh() or sharding_lib.current_mesh()
    if mesh is not None:
        raise NotImplementedError(
            "inspect_array_sharding under jit over a mesh: the layout of a traced value is "
            "chosen by XLA's sharding propagation, which mlax does not read back; inspect "
            "the jitted function's results instead")
    return runtime._sharding(runtime.default_device())


def inspect_array_sharding(value, *, callback):
    """Calls `callback(sharding)` for each array of the pytree `value`: at
    once eagerly, when the function is traced under jit."""
    for leaf in registry.flatten(value)[0]:
        if isinstance(leaf, Tracer):
            core.check_tracer(leaf)
            callback(_traced_sharding(leaf))
        else:
            callback(leaf.sharding)


def visualize_sharding(shape, sharding, *, use_color: bool = True, scale: float = 1.0,
                       min_width: int = 9, max_width: int = 80, color_map=None):
    """Prints which devices hold which tile of a 1-D or 2-D `shape` laid out
    by `sharding` (as jax.debug.visualize_sharding, in plain text: no
    colors, no `rich`)."""
    del use_color, scale, max_width, color_map  # rich's styling
    print(_sharding_picture(tuple(shape), sharding, min_width=min_width))


def visualize_array_sharding(arr, **kwargs):
    """visualize_sharding of an array's shape and sharding (under jit: its
    sharding as inspect_array_sharding finds it)."""
    shape = tuple(arr.shape)
    inspect_array_sharding(arr, callback=lambda s: visualize_sharding(shape, s, **kwargs))


def _sharding_picture(shape, sharding, min_width=9) -> str:
    if len(shape) not in (1, 2):
        raise ValueError("`visualize_sharding` only works for shapes with 1 and 2 dimensions.")
    ndim = len(shape)
    grid = shape if ndim == 2 else (1,) + shape
    tiles = {}
    for d, idx in sharding.devices_indices_map(shape).items():
        if ndim == 1:
            idx = (slice(0, 1),) + tuple(idx)
        key = tuple((s.start or 0, grid[i] if s.stop is None else s.stop)
                    for i, s in enumerate(idx))
        tiles.setdefault(key, []).append(d.id)
    rows = sorted({k[0] for k in tiles})
    cols = sorted({k[1] for k in tiles})
    labels = {k: f"{runtime.default_backend().upper()} " + ",".join(map(str, sorted(v)))
              for k, v in tiles.items()}
    width = max([min_width] + [len(v) + 2 for v in labels.values()])
    sep = "+" + "+".join("-" * width for _ in cols) + "+"
    lines = [sep]
    for r in rows:
        cells = [labels.get((r, c), "").center(width) for c in cols]
        lines.append("|" + "|".join(cells) + "|")
        lines.append(sep)
    return "\n".join(lines)

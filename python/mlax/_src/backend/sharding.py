"""Shardings, as jax.sharding: a logical device `Mesh`, `PartitionSpec`s
over its axes, `NamedSharding` (an array laid out over a mesh) and
`SingleDeviceSharding`.

A NamedSharding is what mlax's IR carries (the `#mlax.sharding` attribute on
@main's arguments and results and on `mlax.sharding_constraint`; see
docs/sharding.md); the lowering turns it into XLA's HLO sharding, and XLA's
SPMD partitioner does the rest. Here it also lays out device buffers: an
array with a NamedSharding over N devices is one jaxlib array of N shards.

Mesh axes are JAX's `Auto` axes (sharding propagated by XLA). JAX's
sharding-in-types axes (`Explicit`, `Manual`) are not implemented.
"""
from __future__ import annotations

import contextlib
import enum
import functools
import itertools
import math
import threading

import numpy as np

from mlax._src.base import jaxlib_internals

import abc

SingleDeviceSharding = jaxlib_internals.SingleDeviceSharding


class Sharding(abc.ABC):
    """How an array lies on devices (jax.sharding.Sharding): NamedSharding
    and SingleDeviceSharding are both."""


Sharding.register(SingleDeviceSharding)


def make_single_device_sharding(device):
    return SingleDeviceSharding(device)


def get_mesh():
    """The mesh of the innermost `with mesh:` / `set_mesh` (None outside)."""
    return current_mesh()


class AxisType(enum.Enum):
    """How a mesh axis is sharded (jax.sharding.AxisType); mlax's axes are
    all Auto: XLA propagates their shardings."""
    Auto = enum.auto()
    Explicit = enum.auto()
    Manual = enum.auto()

    def __repr__(self):
        return self.name


class DuplicateSpecError(ValueError):
    """A PartitionSpec maps one mesh axis to two dimensions."""


class IndivisibleError(ValueError):
    """A sharded dimension is not a multiple of its mesh axes' size."""


class PartitionSpec(tuple):
    """How each dimension of an array is split over mesh axes: None (not
    split), an axis name, or a tuple of axis names (major to minor).
    Dimensions past the spec's length are not split."""

    UNCONSTRAINED = None  # (JAX's sentinel; mlax has no unconstrained dims)

    def __new__(cls, *partitions):
        for p in partitions:
            if not (p is None or isinstance(p, str) or (
                    isinstance(p, tuple) and all(isinstance(a, str) for a in p))):
                raise TypeError(f"PartitionSpec entries must be None, a mesh axis name or a "
                                f"tuple of names, got {p!r}")
        return tuple.__new__(cls, partitions)

    def __repr__(self):
        return "P(" + ", ".join(repr(p) for p in self) + ("," if len(self) == 1 else "") + ")"

    __str__ = __repr__

    def __eq__(self, other):
        if not isinstance(other, tuple):
            return NotImplemented
        return tuple(self) == tuple(other)

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self):
        return tuple.__hash__(self)

    def __reduce__(self):
        return (PartitionSpec, tuple(self))

    def axes_of(self, dim: int) -> tuple:
        """The mesh axes dimension `dim` is split over (empty: not split)."""
        if dim >= len(self) or self[dim] is None:
            return ()
        p = self[dim]
        return (p,) if isinstance(p, str) else tuple(p)


P = PartitionSpec

_mesh_stack = threading.local()


class Mesh:
    """An n-dimensional array of devices with named axes (jax.sharding.Mesh)."""

    def __init__(self, devices, axis_names, axis_types=None):
        devices = np.asarray(devices, dtype=object)
        if isinstance(axis_names, str):
            axis_names = (axis_names,)
        axis_names = tuple(axis_names)
        if devices.ndim != len(axis_names):
            raise ValueError(
                f"Mesh requires the ndim of its first argument (`devices`) to equal the "
                f"length of its second argument (`axis_names`), but got devices.ndim == "
                f"{devices.ndim} and len(axis_names) == {len(axis_names)}.")
        if len(set(axis_names)) != len(axis_names):
            raise ValueError(f"Mesh axis names must be unique, got {axis_names}")
        for name in axis_names:
            if not isinstance(name, str) or not name:
                raise TypeError(f"Mesh axis names must be non-empty strings, got {name!r}")
        flat = list(devices.flat)
        if len({id(d) for d in flat}) != len(flat):
            raise ValueError("Mesh devices must be distinct")
        if axis_types is None:
            axis_types = (AxisType.Auto,) * len(axis_names)
        elif isinstance(axis_types, AxisType):
            axis_types = (axis_types,) * len(axis_names)
        axis_types = tuple(axis_types)
        if len(axis_types) != len(axis_names):
            raise ValueError(f"Mesh: {len(axis_types)} axis_types for {len(axis_names)} axes")
        if any(t is not AxisType.Auto for t in axis_types):
            raise NotImplementedError(
                "mlax: only AxisType.Auto mesh axes are supported (XLA propagates the "
                "shardings); JAX's sharding-in-types axes (Explicit, Manual) are not")
        self.devices = devices
        self.axis_names = axis_names
        self.axis_types = axis_types
        self._ids = tuple(d.id for d in flat)

    @functools.cached_property
    def shape(self):
        import collections

        return collections.OrderedDict(zip(self.axis_names, self.devices.shape))

    @property
    def axis_sizes(self) -> tuple:
        return tuple(self.devices.shape)

    @property
    def shape_tuple(self) -> tuple:
        return tuple(zip(self.axis_names, self.devices.shape))

    @property
    def size(self) -> int:
        return int(self.devices.size)

    @property
    def empty(self) -> bool:
        return self.devices.size == 0

    @functools.cached_property
    def device_ids(self) -> np.ndarray:
        return np.vectorize(lambda d: d.id, otypes=[int])(self.devices)

    @functools.cached_property
    def _flat_devices(self) -> tuple:
        return tuple(self.devices.flat)

    @functools.cached_property
    def local_devices(self) -> list:
        return [d for d in self._flat_devices if d.process_index == d.client.process_index()]

    @functools.cached_property
    def is_multi_process(self) -> bool:
        return len(self.local_devices) != self.size

    def __eq__(self, other):
        return (isinstance(other, Mesh) and self._ids == other._ids
                and self.axis_names == other.axis_names
                and self.devices.shape == other.devices.shape)

    def __hash__(self):
        return hash((self._ids, self.axis_names, self.devices.shape))

    def __repr__(self):
        return (f"Mesh(axis_sizes={self.axis_sizes}, axis_names={self.axis_names}, "
                f"axis_types=({', '.join(t.name for t in self.axis_types)}"
                f"{',' if len(self.axis_types) == 1 else ''}))")

    def __str__(self):
        axes = ", ".join(f"{n!r}: {s}" for n, s in self.shape_tuple)
        types = ", ".join(t.name for t in self.axis_types)
        return f"Mesh({axes}, axis_types=({types}{',' if len(self.axis_types) == 1 else ''}))"

    # `with mesh:` makes it the mesh a bare PartitionSpec refers to (in
    # with_sharding_constraint and jit's shardings), as in JAX.
    def __enter__(self):
        stack = getattr(_mesh_stack, "stack", None)
        if stack is None:
            stack = _mesh_stack.stack = []
        stack.append(self)
        return self

    def __exit__(self, *exc):
        _mesh_stack.stack.pop()
        return False

    def mlir_text(self) -> str:
        """The mesh part of an `#mlax.sharding` attribute."""
        return "[" + ", ".join(f'"{n}"={s}' for n, s in self.shape_tuple) + "]"


def current_mesh() -> Mesh | None:
    """The mesh of the innermost `with mesh:` / `set_mesh` (None outside)."""
    stack = getattr(_mesh_stack, "stack", None)
    return stack[-1] if stack else None


# The axis names collectives (lax.psum, ...) may name, innermost last: the
# meshes of the shard_map/pmap bodies being traced and the vmap(axis_name=)
# axes of the vmapped functions being traced, in one stack (the innermost
# binder of a name wins, as in JAX).
def _binders() -> list:
    stack = getattr(_mesh_stack, "binders", None)
    if stack is None:
        stack = _mesh_stack.binders = []
    return stack


def push_axis_env(mesh: Mesh) -> None:
    _binders().append(("mesh", mesh))


def pop_axis_env() -> None:
    _binders().pop()


def push_vmap_axis(name, size: int) -> None:
    """vmap(axis_name=...) names its mapped axis (of `size`) while `fun` is
    traced."""
    _binders().append(("vmap", name, int(size)))


def pop_vmap_axis() -> None:
    _binders().pop()


def vmap_axis_names() -> list:
    return [b[1] for b in _binders() if b[0] == "vmap"]


def axis_env_mesh() -> Mesh | None:
    """The mesh of the innermost shard_map/pmap body being traced."""
    for b in reversed(_binders()):
        if b[0] == "mesh":
            return b[1]
    return None


def bound_axis_names() -> list:
    """Every axis name a collective may name here, outermost first."""
    names = []
    for b in _binders():
        names += list(b[1].axis_names) if b[0] == "mesh" else [b[1]]
    return names


def resolve_axis(name):
    """What binds axis `name`, innermost first: ("vmap", size), ("mesh",
    mesh), or None when nothing does."""
    for b in reversed(_binders()):
        if b[0] == "vmap" and b[1] == name:
            return ("vmap", b[2])
        if b[0] == "mesh" and name in b[1].axis_names:
            return ("mesh", b[1])
    return None


class _MeshRecord:
    __slots__ = ("mesh",)

    def __init__(self):
        self.mesh = None


@contextlib.contextmanager
def recording_constraint_mesh():
    """`with recording_constraint_mesh() as seen:` around a trace: afterwards
    `seen.mesh` is the mesh of the last sharding constraint or shard_map
    traced inside (None if none was), over which the program must be
    partitioned even with no sharded argument. Outside any such block
    nothing is recorded."""
    stack = getattr(_mesh_stack, "recorders", None)
    if stack is None:
        stack = _mesh_stack.recorders = []
    record = _MeshRecord()
    stack.append(record)
    try:
        yield record
    finally:
        stack.pop()


@contextlib.contextmanager
def tracing_over_mesh(mesh: Mesh):
    """`with tracing_over_mesh(mesh):` around the trace of a program XLA
    partitions over `mesh` (its intermediates' layouts are XLA's choice)."""
    stack = getattr(_mesh_stack, "traced_over", None)
    if stack is None:
        stack = _mesh_stack.traced_over = []
    stack.append(mesh)
    try:
        yield
    finally:
        stack.pop()


def traced_over_mesh() -> Mesh | None:
    """The mesh of the innermost tracing_over_mesh block, or None."""
    stack = getattr(_mesh_stack, "traced_over", None)
    return stack[-1] if stack else None


def note_constraint_mesh(mesh: Mesh) -> None:
    """Records that a trace put a sharding constraint (or a shard_map) over
    `mesh`, for the innermost recording_constraint_mesh block."""
    stack = getattr(_mesh_stack, "recorders", None)
    if stack:
        stack[-1].mesh = mesh


def set_mesh(mesh: Mesh):
    """`with set_mesh(mesh):` (jax.sharding.set_mesh / use_mesh)."""
    if not isinstance(mesh, Mesh):
        raise TypeError(f"set_mesh expects a Mesh, got {mesh!r}")
    return mesh


def make_mesh(axis_shapes, axis_names, axis_types=None, *, devices=None) -> Mesh:
    """A mesh of `axis_shapes` over the first prod(axis_shapes) devices (by
    default all devices of the default backend), as jax.make_mesh. mlax's
    axes are Auto (JAX defaults to Explicit; see the module docstring)."""
    from mlax._src.backend import runtime

    axis_shapes = tuple(int(s) for s in axis_shapes)
    axis_names = tuple(axis_names)
    if len(axis_shapes) != len(axis_names):
        raise ValueError(f"make_mesh: {len(axis_shapes)} axis shapes for "
                         f"{len(axis_names)} axis names")
    if devices is None:
        devices = runtime.backend().devices()
    devices = list(devices)
    n = math.prod(axis_shapes)
    if n > len(devices) or n < 1:
        raise ValueError(
            f"Number of devices {len(devices)} must be >= the product of mesh_shape "
            f"{axis_shapes}")
    return Mesh(np.array(devices[:n], dtype=object).reshape(axis_shapes), axis_names,
                axis_types)


class NamedSharding(Sharding):
    """An array laid out over `mesh`: dimension i split over the mesh axes
    `spec[i]`, replicated over the others (jax.sharding.NamedSharding)."""

    __slots__ = ("mesh", "spec", "_memory_kind", "_hlo")

    def __init__(self, mesh: Mesh, spec: PartitionSpec = PartitionSpec(), *,
                 memory_kind=None):
        if not isinstance(mesh, Mesh):
            raise TypeError(f"NamedSharding expects a Mesh, got {type(mesh).__name__}")
        if not isinstance(spec, PartitionSpec):
            if isinstance(spec, (tuple, list)) or spec is None:
                spec = PartitionSpec(*(spec or ()))
            else:
                raise TypeError(f"NamedSharding expects a PartitionSpec, got {spec!r}")
        seen = set()
        for i in range(len(spec)):
            for axis in spec.axes_of(i):
                if axis not in mesh.shape:
                    raise ValueError(f"Resource axis: {axis} of {spec!r} is not found in "
                                     f"mesh: {mesh.axis_names}.")
                if axis in seen:
                    raise DuplicateSpecError(
                        "A single NamedSharding spec specification can map every mesh axis "
                        f"to at most one positional dimension, but {spec!r} has duplicate "
                        f"entries for `{axis}`")
                seen.add(axis)
        if memory_kind not in (None, "device"):
            raise NotImplementedError(f"mlax: memory_kind={memory_kind!r} (only 'device')")
        self.mesh = mesh
        self.spec = spec
        self._memory_kind = memory_kind
        self._hlo = {}

    memory_kind = property(lambda self: "device")

    def __repr__(self):
        return f"NamedSharding(mesh={self.mesh}, spec={self.spec!r}, memory_kind=device)"

    def __eq__(self, other):
        if not isinstance(other, NamedSharding):
            return False
        return self.mesh == other.mesh and _trimmed(self.spec) == _trimmed(other.spec)

    def __hash__(self):
        return hash((self.mesh, _trimmed(self.spec)))

    @property
    def device_set(self) -> set:
        return set(self.mesh._flat_devices)

    @property
    def _device_assignment(self) -> tuple:
        return self.mesh._flat_devices

    @property
    def addressable_devices(self) -> set:
        return set(self.mesh.local_devices)

    @property
    def num_devices(self) -> int:
        return self.mesh.size

    @property
    def is_fully_addressable(self) -> bool:
        return not self.mesh.is_multi_process

    @property
    def is_fully_replicated(self) -> bool:
        return all(self.mesh.shape[a] == 1 for i in range(len(self.spec))
                   for a in self.spec.axes_of(i))

    def tiles(self, ndim: int) -> tuple:
        """How many pieces each of `ndim` dimensions is cut into."""
        return tuple(math.prod(self.mesh.shape[a] for a in self.spec.axes_of(i))
                     for i in range(ndim))

    def check_shape(self, shape, what: str = "") -> None:
        """JAX's errors for a spec longer than the rank, or a dimension its
        mesh axes do not divide."""
        shape = tuple(shape)
        if len(self.spec) > len(shape):
            raise ValueError(
                f"{what or 'An argument'} was given the sharding of {self!r}, which implies "
                f"that it has a rank of at least {len(self.spec)}, but it is {len(shape)}")
        tiles = self.tiles(len(shape))
        for i, (n, t) in enumerate(zip(shape, tiles)):
            if n % t:
                raise IndivisibleError(
                    f"Sharding {self!r} implies that array axis {i} is partitioned {t} "
                    f"times, but the dimension size is {n} (full shape: {shape}, "
                    f"per-dimension tiling factors: {list(tiles)} should evenly divide "
                    "the shape)")

    def shard_shape(self, global_shape) -> tuple:
        self.check_shape(global_shape)
        return tuple(n // t for n, t in zip(global_shape, self.tiles(len(global_shape))))

    def devices_indices_map(self, global_shape) -> dict:
        """{device: the tuple of slices of the global array it holds}."""
        global_shape = tuple(global_shape)
        shard = self.shard_shape(global_shape)
        names = self.mesh.axis_names
        sizes = self.mesh.axis_sizes
        out = {}
        for pos, device in zip(itertools.product(*(range(s) for s in sizes)),
                               self.mesh._flat_devices):
            coord = dict(zip(names, pos))
            index = []
            for i, n in enumerate(global_shape):
                axes = self.spec.axes_of(i)
                if not axes:
                    index.append(slice(None))
                    continue
                k = 0
                for a in axes:  # major to minor
                    k = k * self.mesh.shape[a] + coord[a]
                index.append(slice(k * shard[i], (k + 1) * shard[i]))
            out[device] = tuple(index)
        return out

    def addressable_devices_indices_map(self, global_shape) -> dict:
        local = set(self.mesh.local_devices)
        return {d: i for d, i in self.devices_indices_map(global_shape).items() if d in local}

    def replica_ids(self, global_shape) -> dict:
        """{device: which copy of its piece it holds} (0 for the first)."""
        seen: dict = {}
        out = {}
        for d, index in self.devices_indices_map(global_shape).items():
            key = tuple((s.start, s.stop) for s in index)
            out[d] = seen.get(key, 0)
            seen[key] = out[d] + 1
        return out

    def _to_xla_hlo_sharding(self, ndim: int):
        """XLA's HloSharding of an array of rank `ndim` (the tile
        assignment in the mesh's device order, iota form)."""
        hlo = self._hlo.get(ndim)
        if hlo is None:
            hlo = self._hlo[ndim] = _hlo_sharding(self, ndim)
        return hlo

    def mlir_text(self, ndim: int) -> str:
        """The `#mlax.sharding` attribute of an array of rank `ndim`."""
        dims = ", ".join("{" + ", ".join(f'"{a}"' for a in self.spec.axes_of(i)) + "}"
                         for i in range(min(ndim, len(self.spec))))
        return f"#mlax.sharding<{self.mesh.mlir_text()}, [{dims}]>"

    def with_spec(self, spec) -> "NamedSharding":
        return NamedSharding(self.mesh, spec if isinstance(spec, PartitionSpec)
                             else PartitionSpec(*spec))

    def is_equivalent_to(self, other, ndim: int) -> bool:
        if isinstance(other, NamedSharding) and other.mesh._ids == self.mesh._ids:
            return self._to_xla_hlo_sharding(ndim) == other._to_xla_hlo_sharding(ndim)
        return self.is_fully_replicated and getattr(other, "is_fully_replicated", False) \
            and self.device_set == other.device_set


def _trimmed(spec: PartitionSpec) -> tuple:
    """The spec without trailing unsplit dimensions (P('x') and P('x', None)
    lay an array out alike)."""
    parts = [tuple(spec.axes_of(i)) for i in range(len(spec))]
    while parts and not parts[-1]:
        parts.pop()
    return tuple(parts)


def _hlo_sharding(sharding: NamedSharding, ndim: int):
    from jaxlib import xla_client

    mesh = sharding.mesh
    tiles = sharding.tiles(ndim)
    used = [a for i in range(ndim) for a in sharding.spec.axes_of(i)]
    unused = [a for a in mesh.axis_names if a not in used]
    replicate = math.prod(mesh.shape[a] for a in unused)
    if math.prod(tiles) == 1:
        return xla_client.HloSharding.replicate()
    perm = [mesh.axis_names.index(a) for a in used + unused]
    dims = list(tiles) + ([replicate] if replicate > 1 else [])
    subgroups = [xla_client.OpSharding.Type.REPLICATED] if replicate > 1 else []
    return xla_client.HloSharding.iota_tile(dims, list(mesh.axis_sizes), perm, subgroups)


def named_sharding_of(hlo, mesh: Mesh, ndim: int) -> NamedSharding | None:
    """The NamedSharding over `mesh` whose HLO sharding is `hlo` (what XLA
    chose for an output), or None when no spec over this mesh gives it."""
    if hlo.is_replicated():
        return NamedSharding(mesh, PartitionSpec())
    axes = [a for a in mesh.axis_names if mesh.shape[a] > 1]
    # Each split axis goes to one dimension or to none; the order of a
    # dimension's axes follows the mesh (then every other order is tried).
    for assignment in itertools.product(range(-1, ndim), repeat=len(axes)):
        groups = [[a for a, d in zip(axes, assignment) if d == i] for i in range(ndim)]
        for orders in itertools.product(*(itertools.permutations(g) for g in groups)):
            spec = PartitionSpec(*(None if not g else g[0] if len(g) == 1 else tuple(g)
                                   for g in orders))
            candidate = NamedSharding(mesh, spec)
            if candidate._to_xla_hlo_sharding(ndim) == hlo:
                return candidate
    return None


def named_sharding_from_op_sharding(op_sharding, mesh: Mesh, ndim: int):
    from jaxlib import xla_client

    return named_sharding_of(xla_client.HloSharding.from_proto(op_sharding), mesh, ndim)


def resolve(sharding, what: str):
    """`sharding` as a NamedSharding or SingleDeviceSharding: a bare
    PartitionSpec refers to the mesh of the enclosing `with mesh:`."""
    if isinstance(sharding, PartitionSpec):
        mesh = current_mesh()
        if mesh is None:
            raise ValueError(
                f"{what}: a PartitionSpec {sharding!r} needs a mesh: pass "
                f"NamedSharding(mesh, spec) or call it inside `with mesh:`")
        return NamedSharding(mesh, sharding)
    if isinstance(sharding, (NamedSharding, jaxlib_internals.SingleDeviceSharding)):
        return sharding
    raise TypeError(f"{what}: expected a NamedSharding, a SingleDeviceSharding or a "
                    f"PartitionSpec, got {sharding!r}")

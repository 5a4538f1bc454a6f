"""Pytrees, on jaxlib's C++ registry (the one JAX uses), so flattening is
fast and node types registered with JAX are pytrees in mlax too (and the
other way round).

Built in: list, tuple, dict (sorted keys), None (no leaves), namedtuple,
OrderedDict, defaultdict. `PyTreeDef` prints as JAX's, e.g.
`PyTreeDef([*, *, (*, *)])` or `PyTreeDef({'W': *, 'b': *, 'n': *})`.
"""
from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from mlax._src.base.jaxlib_internals import pytree as _pytree

registry = _pytree.default_registry()
# What jit dispatch flattens arguments with (mlax._src.jit.dispatch): the same
# node types (each registration below goes to both), plus mlax.Array.
dispatch_registry = _pytree.PyTreeRegistry()
PyTreeDef = _pytree.PyTreeDef
SequenceKey = _pytree.SequenceKey
DictKey = _pytree.DictKey
GetAttrKey = _pytree.GetAttrKey
FlattenedIndexKey = _pytree.FlattenedIndexKey


# ---------------------------------------------------------------------------
# Flattening
# ---------------------------------------------------------------------------

def tree_flatten(tree, is_leaf: Callable[[Any], bool] | None = None):
    """(leaves, treedef): the leaves left to right and the structure."""
    return registry.flatten(tree, is_leaf)


def tree_unflatten(treedef: PyTreeDef, leaves: Iterable[Any]):
    """The pytree of structure `treedef` holding `leaves`."""
    if not isinstance(treedef, PyTreeDef):
        raise TypeError(f"tree_unflatten: expected a PyTreeDef, got {type(treedef).__name__}")
    return treedef.unflatten(leaves)


def tree_leaves(tree, is_leaf=None) -> list:
    return registry.flatten(tree, is_leaf)[0]


def tree_structure(tree, is_leaf=None) -> PyTreeDef:
    return registry.flatten(tree, is_leaf)[1]


def treedef_tuple(treedefs: Iterable[PyTreeDef]) -> PyTreeDef:
    """A tuple treedef whose children are `treedefs`."""
    return _pytree.treedef_tuple(registry, list(treedefs))


def treedef_children(treedef: PyTreeDef) -> list[PyTreeDef]:
    return treedef.children()


def treedef_is_leaf(treedef: PyTreeDef) -> bool:
    return treedef.num_nodes == 1


def all_leaves(iterable: Iterable[Any], is_leaf=None) -> bool:
    """Whether every element of `iterable` is a leaf."""
    if is_leaf is None:
        return _pytree.all_leaves(registry, iterable)
    items = list(iterable)
    return items == tree_leaves(items, is_leaf)


def is_tree_node(typ: type) -> bool:
    return registry.is_node(typ)


def flatten_one_level(tree):
    """(children, aux data) of one node; ValueError for a leaf."""
    out = registry.flatten_one_level(tree)
    if out is None:
        raise ValueError(f"can't tree-flatten type: {type(tree)}")
    return out


def flatten_one_level_with_keys(tree):
    """([(key, child)], aux data) of one node; ValueError for a leaf."""
    out = registry.flatten_one_level_with_keys(tree)
    if out is None:
        raise ValueError(f"can't tree-flatten type: {type(tree)}")
    return out


# The types JAX names for paths: a key entry is any of the key classes
# (SequenceKey, DictKey, GetAttrKey, FlattenedIndexKey); a path is a tuple of them.
KeyEntry = TypeVar("KeyEntry", bound=Any)
KeyPath = tuple[KeyEntry, ...]


def tree_flatten_with_path(tree, is_leaf=None, is_leaf_takes_path: bool = False):
    """([(key path, leaf), ...], treedef). `is_leaf(x)`, or `is_leaf(path, x)`
    with `is_leaf_takes_path`."""
    if is_leaf is not None and not is_leaf_takes_path:
        is_leaf_x = is_leaf
        is_leaf = lambda _, x: is_leaf_x(x)  # noqa: E731
    return registry.flatten_with_path(tree, is_leaf)


def tree_leaves_with_path(tree, is_leaf=None, is_leaf_takes_path: bool = False):
    return tree_flatten_with_path(tree, is_leaf, is_leaf_takes_path)[0]


def keystr(keys, *, simple: bool = False, separator: str = "") -> str:
    """A key path as text, e.g. `['foo'][0].bar`."""
    def simple_str(k):
        for attr in ("idx", "key", "name"):
            if hasattr(k, attr):
                return str(getattr(k, attr))
        return str(k)

    return separator.join(map(simple_str if simple else str, keys))


# ---------------------------------------------------------------------------
# Mapping and reducing
# ---------------------------------------------------------------------------

def tree_map(f: Callable[..., Any], tree, *rest, is_leaf=None):
    """`f` applied leafwise; `rest` are trees with `tree`'s structure (or
    one that has it as a prefix)."""
    leaves, treedef = registry.flatten(tree, is_leaf)
    all_leaves_ = [leaves] + [treedef.flatten_up_to(r) for r in rest]
    return treedef.unflatten(f(*xs) for xs in zip(*all_leaves_))


def tree_map_with_path(f, tree, *rest, is_leaf=None, is_leaf_takes_path: bool = False):
    keyed, treedef = tree_flatten_with_path(tree, is_leaf, is_leaf_takes_path)
    paths = [k for k, _ in keyed]
    leaves = [v for _, v in keyed]
    others = [treedef.flatten_up_to(r) for r in rest]
    return treedef.unflatten(f(p, *xs) for p, *xs in zip(paths, leaves, *others))


class _Unspecified:
    pass


def tree_reduce(function: Callable, tree, initializer: Any = _Unspecified, is_leaf=None):
    """functools.reduce over the leaves."""
    leaves = tree_leaves(tree, is_leaf)
    if initializer is _Unspecified:
        return functools.reduce(function, leaves)
    return functools.reduce(function, leaves, initializer)


def tree_reduce_associative(operation: Callable, tree, *, identity: Any = _Unspecified,
                            is_leaf=None):
    """Reduces the leaves pairwise as a balanced tree (`operation` must be
    associative): log-depth, where tree_reduce is a left fold."""
    leaves = tree_leaves(tree, is_leaf)
    if not leaves:
        if identity is _Unspecified:
            raise TypeError("Must specify identity for parallel reduction of empty sequence.")
        return identity
    return _balanced_reduce(leaves, operation)


def _balanced_reduce(leaves, operation):
    # Halves as JAX splits them: the first n//2 leaves, then the rest.
    if len(leaves) == 1:
        return leaves[0]
    half = len(leaves) // 2
    return operation(_balanced_reduce(leaves[:half], operation),
                     _balanced_reduce(leaves[half:], operation))


def tree_all(tree, *, is_leaf=None) -> bool:
    return all(tree_leaves(tree, is_leaf))


def tree_transpose(outer_treedef: PyTreeDef, inner_treedef: PyTreeDef | None, pytree_to_transpose,
                   *, is_leaf=None):
    """Turns a tree of trees (outer of inner) into an inner of outer trees."""
    flat, treedef = tree_flatten(pytree_to_transpose, is_leaf)
    if inner_treedef is None:
        inner_treedef = tree_structure(outer_treedef.flatten_up_to(pytree_to_transpose)[0],
                                       is_leaf)
    inner_size = inner_treedef.num_leaves
    outer_size = outer_treedef.num_leaves
    if treedef.num_leaves != inner_size * outer_size:
        expected = outer_treedef.compose(inner_treedef)
        raise TypeError(f"Mismatch\n{treedef}\n != \n{expected}")
    it = iter(flat)
    lol = [[next(it) for _ in range(inner_size)] for __ in range(outer_size)]
    subtrees = [outer_treedef.unflatten(col) for col in zip(*lol)]
    return inner_treedef.unflatten(subtrees)


def prefix_leaves(prefix_tree, full_tree, is_leaf, error):
    """One leaf of `prefix_tree` per leaf of `full_tree` (`prefix_tree` is a
    pytree prefix of it whose leaves `is_leaf` recognises; a single such leaf
    applies to every leaf). Where it is not a prefix, raises ValueError with
    `error(reason)`: what in_axes, in_specs and shardings arguments share."""
    if is_leaf(prefix_tree):
        return [prefix_tree] * tree_structure(full_tree).num_leaves
    leaves, treedef = tree_flatten(prefix_tree, is_leaf)
    try:
        subtrees = treedef.flatten_up_to(full_tree)
    except (ValueError, TypeError) as e:
        raise ValueError(error(e)) from None
    out = []
    for leaf, sub in zip(leaves, subtrees):
        out.extend([leaf] * tree_structure(sub).num_leaves)
    return out


def tree_broadcast(prefix_tree, full_tree, is_leaf=None):
    """`prefix_tree` with each leaf repeated over the matching subtree of `full_tree`."""
    prefix_leaves, prefix_def = tree_flatten(prefix_tree, is_leaf)
    subtrees = prefix_def.flatten_up_to(full_tree)
    full_def = tree_structure(full_tree, is_leaf)
    out = []
    for leaf, sub in zip(prefix_leaves, subtrees):
        out.extend([leaf] * tree_structure(sub).num_leaves)
    return full_def.unflatten(out)


# ---------------------------------------------------------------------------
# Registering node types
# ---------------------------------------------------------------------------

def register_pytree_node(nodetype: type, flatten_func: Callable, unflatten_func: Callable,
                         flatten_with_keys_func: Callable | None = None) -> None:
    """Makes `nodetype` a pytree node: `flatten_func(x) -> (children, aux)`,
    `unflatten_func(aux, children) -> x`. Shared with JAX's registry."""
    if not isinstance(nodetype, type):
        raise TypeError(f"register_pytree_node: expected a type, got {nodetype!r}")
    registry.register_node(nodetype, flatten_func, unflatten_func, flatten_with_keys_func)
    dispatch_registry.register_node(nodetype, flatten_func, unflatten_func)


def register_pytree_with_keys(nodetype: type, flatten_with_keys: Callable,
                              unflatten_func: Callable, flatten_func: Callable | None = None):
    """Like register_pytree_node, with `flatten_with_keys(x) ->
    ([(key, child), ...], aux)` giving key paths."""
    if flatten_func is None:
        def flatten_func(x):
            key_children, aux = flatten_with_keys(x)
            return [c for _, c in key_children], aux
    registry.register_node(nodetype, flatten_func, unflatten_func, flatten_with_keys)
    dispatch_registry.register_node(nodetype, flatten_func, unflatten_func)


def register_pytree_node_class(cls):
    """Class decorator: `cls.tree_flatten()` and `cls.tree_unflatten(aux, children)`."""
    register_pytree_node(cls, lambda x: x.tree_flatten(), cls.tree_unflatten)
    return cls


def register_pytree_with_keys_class(cls):
    """Class decorator: `cls.tree_flatten_with_keys()` and `cls.tree_unflatten`."""
    flatten = getattr(cls, "tree_flatten", None)
    register_pytree_with_keys(cls, lambda x: x.tree_flatten_with_keys(), cls.tree_unflatten,
                              (lambda x: x.tree_flatten()) if flatten else None)
    return cls


def register_dataclass(nodetype=None, data_fields=None, meta_fields=None, drop_fields=()):
    """Registers a dataclass: `data_fields` are children (leaves), fields
    marked `field(metadata=dict(static=True))` (or named in `meta_fields`)
    are static aux data. Usable as a decorator."""
    if nodetype is None:
        return functools.partial(register_dataclass, data_fields=data_fields,
                                 meta_fields=meta_fields, drop_fields=drop_fields)
    if data_fields is None or meta_fields is None:
        if (data_fields is None) != (meta_fields is None):
            raise TypeError("register_dataclass: data_fields and meta_fields must both be "
                            f"specified when either is specified. Got {data_fields=} "
                            f"{meta_fields=}.")
        if not dataclasses.is_dataclass(nodetype):
            raise TypeError("register_dataclass: data_fields and meta_fields are required "
                            f"when nodetype is not a dataclass. Got {nodetype=}.")
        fields = dataclasses.fields(nodetype)
        data_fields = [f.name for f in fields if not f.metadata.get("static", False)]
        meta_fields = [f.name for f in fields if f.metadata.get("static", False)]
    meta_fields, data_fields = tuple(meta_fields), tuple(data_fields)
    if dataclasses.is_dataclass(nodetype):
        init_fields = {f.name for f in dataclasses.fields(nodetype) if f.init}
        init_fields.difference_update(drop_fields)
        if {*meta_fields, *data_fields} != init_fields:
            msg = ("data_fields and meta_fields must include all dataclass fields with "
                   "``init=True`` and only them.")
            if missing := init_fields - {*meta_fields, *data_fields}:
                msg += (f" Missing fields: {missing}. Add them to drop_fields to suppress "
                        "this error.")
            if unexpected := {*meta_fields, *data_fields} - init_fields:
                msg += f" Unexpected fields: {unexpected}."
            raise ValueError(msg)
    if overlap := set(data_fields) & set(meta_fields):
        raise ValueError("data_fields and meta_fields must not overlap. Overlapping fields: "
                         f"{overlap}.")
    registry.register_dataclass_node(nodetype, list(data_fields), list(meta_fields))
    dispatch_registry.register_dataclass_node(nodetype, list(data_fields), list(meta_fields))
    return nodetype


def static_field(**kwargs):
    """A dataclasses.field marked static (aux data, not a leaf) for
    register_dataclass: jax.tree.static."""
    metadata = {"static": True, **(kwargs.pop("metadata", None) or {})}
    return dataclasses.field(metadata=metadata, **kwargs)


def register_static(cls):
    """Registers `cls` as a pytree with no leaves (a static value under jit)."""
    register_pytree_with_keys(cls, lambda obj: ((), obj), lambda obj, _: obj)
    return cls


class Partial(functools.partial):
    """functools.partial that is a pytree (its bound arguments are leaves),
    so it can be passed to jitted functions."""

    def __new__(cls, func, *args, **kw):
        if isinstance(func, functools.partial):
            original_func = func
            func = _HashableCallableShim(original_func)
            out = super().__new__(cls, func, *args, **kw)
            func.func = original_func.func
            func.args = original_func.args
            func.keywords = original_func.keywords
            return out
        return super().__new__(cls, func, *args, **kw)


class _HashableCallableShim:
    def __init__(self, fun):
        self.fun = fun

    def __call__(self, *args, **kw):
        return self.fun(*args, **kw)

    def __hash__(self):
        return hash(self.fun)

    def __eq__(self, other):
        if isinstance(other, _HashableCallableShim):
            return self.fun == other.fun
        return self.fun == other


if not registry.is_node(Partial):
    register_pytree_node(
        Partial,
        lambda partial_: ((partial_.args, partial_.keywords), partial_.func),
        lambda func, xs: Partial(func, *xs[0], **xs[1]))

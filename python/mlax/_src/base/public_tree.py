"""The pytree functions users call (mlax.tree_util, mlax.tree): mlax's
internal ones (mlax._src.base.tree) except that the types registered here
are leaves.

A typed PRNG key array is one such type. To JAX's tree functions a key
array is a leaf (`jax.tree.map(f, {'k': key})` calls f on the key), and
that is what users' code relies on (counting parameters, mapping over a
training state that holds a key). mlax's transformations, though, see into
it: it is a registered node whose child is its uint32 key data, so jit,
vmap, grad and the control-flow primitives trace the data and rebuild the
key around it. The functions below flatten with an `is_leaf` that stops at
these types; it is added only once a value of one of them has been made
(`note_made`), so programs without keys flatten exactly as before, at
jaxlib's C++ speed.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mlax._src.base import tree as _tree
from mlax._src.base.tree import PyTreeDef, _Unspecified

_leaf_types: tuple[type, ...] = ()
_made = False


def register_leaf_type(cls: type) -> None:
    """Makes `cls` (a registered node type) a leaf to the public functions."""
    global _leaf_types
    if cls not in _leaf_types:
        _leaf_types = _leaf_types + (cls,)


def note_made() -> None:
    """Called when a value of a registered leaf type is created."""
    global _made
    _made = True


def _stop(is_leaf):
    """`is_leaf`, extended to the registered leaf types once any exists."""
    if not _made:
        return is_leaf
    types = _leaf_types
    if is_leaf is None:
        return lambda x: type(x) in types
    return lambda x: type(x) in types or is_leaf(x)


def tree_flatten(tree, is_leaf: Callable[[Any], bool] | None = None):
    """(leaves, treedef): the leaves left to right and the structure."""
    return _tree.tree_flatten(tree, _stop(is_leaf))


def tree_leaves(tree, is_leaf=None) -> list:
    return _tree.tree_leaves(tree, _stop(is_leaf))


def tree_structure(tree, is_leaf=None) -> PyTreeDef:
    return _tree.tree_structure(tree, _stop(is_leaf))


def all_leaves(iterable, is_leaf=None) -> bool:
    """Whether every element of `iterable` is a leaf."""
    return _tree.all_leaves(iterable, _stop(is_leaf))


def is_tree_node(typ: type) -> bool:
    return typ not in _leaf_types and _tree.is_tree_node(typ)


def flatten_one_level(tree):
    """(children, aux data) of one node; ValueError for a leaf."""
    if type(tree) in _leaf_types:
        raise ValueError(f"can't tree-flatten type: {type(tree)}")
    return _tree.flatten_one_level(tree)


def flatten_one_level_with_keys(tree):
    """([(key, child)], aux data) of one node; ValueError for a leaf."""
    if type(tree) in _leaf_types:
        raise ValueError(f"can't tree-flatten type: {type(tree)}")
    return _tree.flatten_one_level_with_keys(tree)


def _stop_with_path(is_leaf, is_leaf_takes_path):
    """_stop for the path functions: an `is_leaf(path, x)`."""
    if is_leaf is not None and not is_leaf_takes_path:
        is_leaf_x = is_leaf
        is_leaf = lambda _, x: is_leaf_x(x)  # noqa: E731
    if not _made:
        return is_leaf
    types = _leaf_types
    if is_leaf is None:
        return lambda _, x: type(x) in types
    return lambda path, x: type(x) in types or is_leaf(path, x)


def tree_flatten_with_path(tree, is_leaf=None, is_leaf_takes_path: bool = False):
    """([(key path, leaf), ...], treedef). `is_leaf(x)`, or `is_leaf(path, x)`
    with `is_leaf_takes_path`."""
    return _tree.tree_flatten_with_path(tree, _stop_with_path(is_leaf, is_leaf_takes_path),
                                        is_leaf_takes_path=True)


def tree_leaves_with_path(tree, is_leaf=None, is_leaf_takes_path: bool = False):
    return tree_flatten_with_path(tree, is_leaf, is_leaf_takes_path)[0]


def tree_map(f: Callable[..., Any], tree, *rest, is_leaf=None):
    """`f` applied leafwise; `rest` are trees with `tree`'s structure (or
    one that has it as a prefix)."""
    return _tree.tree_map(f, tree, *rest, is_leaf=_stop(is_leaf))


def tree_map_with_path(f, tree, *rest, is_leaf=None, is_leaf_takes_path: bool = False):
    return _tree.tree_map_with_path(f, tree, *rest,
                                    is_leaf=_stop_with_path(is_leaf, is_leaf_takes_path),
                                    is_leaf_takes_path=True)


def tree_reduce(function: Callable, tree, initializer: Any = _Unspecified, is_leaf=None):
    """functools.reduce over the leaves."""
    return _tree.tree_reduce(function, tree, initializer, _stop(is_leaf))


def tree_reduce_associative(operation: Callable, tree, *, identity: Any = _Unspecified,
                            is_leaf=None):
    """Reduces the leaves pairwise as a balanced tree (`operation` must be
    associative): log-depth, where tree_reduce is a left fold."""
    return _tree.tree_reduce_associative(operation, tree, identity=identity,
                                         is_leaf=_stop(is_leaf))


def tree_all(tree, *, is_leaf=None) -> bool:
    return _tree.tree_all(tree, is_leaf=_stop(is_leaf))


def tree_transpose(outer_treedef: PyTreeDef, inner_treedef: PyTreeDef | None, pytree_to_transpose):
    """Turns a tree of trees (outer of inner) into an inner of outer trees."""
    return _tree.tree_transpose(outer_treedef, inner_treedef, pytree_to_transpose,
                                is_leaf=_stop(None))


def tree_broadcast(prefix_tree, full_tree, is_leaf=None):
    """`prefix_tree` with each leaf repeated over the matching subtree of `full_tree`."""
    return _tree.tree_broadcast(prefix_tree, full_tree, _stop(is_leaf))

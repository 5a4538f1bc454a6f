"""Pytrees, on jaxlib's C++ registry (the one JAX uses), so flattening is
fast and node types registered with JAX are pytrees in mlax too."""
from __future__ import annotations

from jaxlib._jax import pytree as _pytree

registry = _pytree.default_registry()
PyTreeDef = _pytree.PyTreeDef


def tree_flatten(tree, is_leaf=None):
    return registry.flatten(tree, is_leaf)


def tree_unflatten(treedef, leaves):
    return treedef.unflatten(leaves)


def tree_leaves(tree, is_leaf=None):
    return registry.flatten(tree, is_leaf)[0]


def tree_structure(tree, is_leaf=None):
    return registry.flatten(tree, is_leaf)[1]


def tree_map(f, tree, *rest, is_leaf=None):
    leaves, treedef = registry.flatten(tree, is_leaf)
    others = [treedef.flatten_up_to(r) for r in rest]
    return treedef.unflatten(f(*xs) for xs in zip(leaves, *others))

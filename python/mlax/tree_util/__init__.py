"""mlax.tree_util: pytree utilities (as jax.tree_util), on jaxlib's C++ registry."""
from mlax._src.base.public_tree import (  # noqa: F401
    all_leaves, flatten_one_level, flatten_one_level_with_keys, is_tree_node, tree_all,
    tree_broadcast, tree_flatten, tree_flatten_with_path, tree_leaves, tree_leaves_with_path,
    tree_map, tree_map_with_path, tree_reduce, tree_reduce_associative, tree_structure,
    tree_transpose)
from mlax._src.base.tree import (  # noqa: F401
    DictKey, FlattenedIndexKey, GetAttrKey, KeyEntry, KeyPath, Partial, PyTreeDef, SequenceKey,
    keystr, register_dataclass, register_pytree_node, register_pytree_node_class,
    register_pytree_with_keys, register_pytree_with_keys_class, register_static,
    tree_unflatten, treedef_children, treedef_is_leaf, treedef_tuple)
from mlax._src.base.tree import registry as default_registry  # noqa: F401

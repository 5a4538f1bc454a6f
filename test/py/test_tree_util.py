"""mlax.tree_util / mlax.tree against jax.tree_util / jax.tree."""
import collections
import dataclasses
import functools
import operator
from typing import NamedTuple

import numpy as np
import pytest

import jax
import jax.numpy as jnp

import mlax
import mlax.numpy as mnp
import mlax.tree as mtree
import mlax.tree_util as mtu
from jax.flatten_util import ravel_pytree as jax_ravel_pytree
from mlax.flatten_util import ravel_pytree as mlax_ravel_pytree


class Params(NamedTuple):
    a: int
    b: float


TREES = [
    [1, 2, (3, 4)],
    {"n": 5, "W": 1.0, "b": 2.0},
    Params(1, 5.0),
    collections.OrderedDict([("z", 1), ("a", (2, 3))]),
    (None, [None, 1], {"x": None}),
    [{"W": 1, "b": 2}, {"W": 3, "b": 4}],
    (),
    7,
    collections.defaultdict(list, {"b": [1], "a": 2}),
]


@pytest.mark.parametrize("tree", TREES, ids=range(len(TREES)))
def test_flatten_structure_and_repr_match_jax(tree):
    leaves, treedef = mtu.tree_flatten(tree)
    jleaves, jtreedef = jax.tree_util.tree_flatten(tree)
    assert leaves == jleaves
    assert str(treedef) == str(jtreedef)
    assert repr(mtu.tree_structure(tree)) == repr(jax.tree_util.tree_structure(tree))
    assert mtu.tree_leaves(tree) == jax.tree_util.tree_leaves(tree)
    assert mtu.tree_unflatten(treedef, leaves) == tree
    assert mtree.structure(tree) == jax.tree.structure(tree)  # one registry: equal treedefs


def test_reprs_from_the_tutorials():
    params = [1, 2, (mnp.arange(3), mnp.ones(2))]
    assert str(mtree.structure(params)) == "PyTreeDef([*, *, (*, *)])"
    params = {"n": 5, "W": mnp.ones((2, 2)), "b": mnp.zeros(2)}
    assert str(mtree.structure(params)) == "PyTreeDef({'W': *, 'b': *, 'n': *})"
    leaves = mtree.leaves(params)
    assert [getattr(l, "shape", l) for l in leaves] == [(2, 2), (2,), 5]
    assert str(mtree.structure(Params(1, 5.0))) == "PyTreeDef(CustomNode(namedtuple[Params], [*, *]))"
    layers = [{"W": mnp.zeros((64, 784)), "b": mnp.zeros(64)},
              {"W": mnp.zeros((10, 64)), "b": mnp.zeros(10)}]
    assert (mtu.tree_map(lambda l: str(l.shape), layers)
            == [{"W": "(64, 784)", "b": "(64,)"}, {"W": "(10, 64)", "b": "(10,)"}])
    assert str(mtu.tree_structure(layers)) == "PyTreeDef([{'W': *, 'b': *}, {'W': *, 'b': *}])"


def test_tree_map_several_trees_and_is_leaf():
    a = {"x": [1, 2], "y": 3}
    b = {"x": [10, 20], "y": 30}
    assert mtree.map(operator.add, a, b) == jax.tree.map(operator.add, a, b)
    # a prefix tree's leaf may stand for a whole subtree of the others
    assert mtu.tree_map(lambda p, t: (p, t), {"x": 0, "y": 1}, {"x": [5, 6], "y": 7}) == \
        jax.tree_util.tree_map(lambda p, t: (p, t), {"x": 0, "y": 1}, {"x": [5, 6], "y": 7})
    is_pair = lambda x: isinstance(x, tuple) and len(x) == 2
    t = [(1, 2), [(3, 4)]]
    assert mtu.tree_map(sum, t, is_leaf=is_pair) == jax.tree_util.tree_map(sum, t, is_leaf=is_pair)
    with pytest.raises(ValueError):
        mtu.tree_map(operator.add, [1, 2], [1, 2, 3])


def test_tree_reduce_all_and_transpose():
    t = {"a": [1, 2], "b": (3, 4)}
    assert mtree.reduce(operator.add, t) == jax.tree.reduce(operator.add, t) == 10
    assert mtu.tree_reduce(operator.mul, t, 10) == jax.tree_util.tree_reduce(operator.mul, t, 10)
    assert mtu.tree_all([True, (True, 1)]) and not mtu.tree_all([True, 0])
    outer = mtu.tree_structure([0, 0, 0])
    inner = mtu.tree_structure({"x": 0, "y": 0})
    value = [{"x": 1, "y": 2}, {"x": 3, "y": 4}, {"x": 5, "y": 6}]
    assert mtree.transpose(outer, inner, value) == jax.tree.transpose(
        jax.tree.structure([0, 0, 0]), jax.tree.structure({"x": 0, "y": 0}), value)
    assert mtu.tree_transpose(outer, None, value) == {"x": [1, 3, 5], "y": [2, 4, 6]}
    with pytest.raises(TypeError, match="Mismatch"):
        mtu.tree_transpose(outer, inner, value[:2])


def test_paths_and_keystr():
    params = {"foo": {"bar": {"baz": 1, "bat": [2, 3]}}}
    paths = [mtu.keystr(p) for p, _ in mtu.tree_leaves_with_path(params)]
    jpaths = [jax.tree_util.keystr(p) for p, _ in jax.tree_util.tree_leaves_with_path(params)]
    assert paths == jpaths == ["['foo']['bar']['bat'][0]", "['foo']['bar']['bat'][1]",
                               "['foo']['bar']['baz']"]
    assert [mtu.keystr(p, simple=True, separator="/")
            for p, _ in mtu.tree_leaves_with_path(params)] == ["foo/bar/bat/0", "foo/bar/bat/1",
                                                                 "foo/bar/baz"]
    assert mtu.tree_map_with_path(lambda p, x: (mtu.keystr(p), x), [5]) == [("[0]", 5)]


def test_treedef_helpers():
    td = mtu.tree_structure(((1, 2), 3))
    assert [str(c) for c in mtu.treedef_children(td)] == \
        [str(c) for c in jax.tree_util.treedef_children(jax.tree_util.tree_structure(((1, 2), 3)))]
    assert mtu.treedef_is_leaf(mtu.tree_structure(1))
    assert not mtu.treedef_is_leaf(td)
    assert str(mtu.treedef_tuple([mtu.tree_structure(1), mtu.tree_structure([1])])) == \
        "PyTreeDef((*, [*]))"
    assert mtu.all_leaves([1, 2.0, mnp.ones(2)]) and not mtu.all_leaves([[1]])
    assert td.num_leaves == 3


@mtu.register_pytree_node_class
class Box:
    def __init__(self, value, label):
        self.value, self.label = value, label

    def tree_flatten(self):
        return (self.value,), self.label

    @classmethod
    def tree_unflatten(cls, label, children):
        return cls(children[0], label)

    def __eq__(self, other):
        return isinstance(other, Box) and (self.value, self.label) == (other.value, other.label)


class Pair:
    def __init__(self, a, b):
        self.a, self.b = a, b


mtu.register_pytree_node(Pair, lambda p: ((p.a, p.b), None), lambda _, c: Pair(*c))


@mtu.register_dataclass
@dataclasses.dataclass
class State:
    x: object
    y: object
    op: str = dataclasses.field(metadata=dict(static=True), default="add")


def test_custom_nodes_registered_in_mlax_work_in_mlax_and_jax():
    b = Box(3, "lbl")
    assert mtu.tree_leaves(b) == jax.tree_util.tree_leaves(b) == [3]
    assert str(mtu.tree_structure(b)) == str(jax.tree_util.tree_structure(b))
    assert mtu.tree_map(lambda v: v + 1, b) == Box(4, "lbl")
    p = mtu.tree_map(lambda v: v * 2, Pair(1, 2))
    assert (p.a, p.b) == (2, 4)
    s = State(1, 2, "mul")
    assert mtu.tree_leaves(s) == [1, 2]
    assert str(mtu.tree_structure(s)) == str(jax.tree_util.tree_structure(s))
    assert mtu.tree_map(lambda v: v * 10, s) == State(10, 20, "mul")


def test_register_dataclass_errors_as_jax():
    @dataclasses.dataclass
    class D:
        a: int
        b: int

    with pytest.raises(ValueError, match="Missing fields"):
        mtu.register_dataclass(D, data_fields=["a"], meta_fields=[])
    with pytest.raises(TypeError, match="must both be specified"):
        mtu.register_dataclass(D, data_fields=["a"])


def test_nodes_registered_with_jax_are_pytrees_in_mlax():
    class Thing:
        def __init__(self, a, b):
            self.a, self.b = a, b

    jax.tree_util.register_pytree_node(Thing, lambda t: ((t.a, t.b), "aux"),
                                       lambda aux, c: Thing(*c))
    t = Thing(mnp.ones(2), 3.0)
    assert len(mtu.tree_leaves(t)) == 2
    out = mlax.jit(lambda th: th.a * th.b)(t)
    np.testing.assert_array_equal(np.asarray(out), [3.0, 3.0])
    # and through jit's output too
    back = mlax.jit(lambda th: Thing(th.a + 1, th.b))(t)
    assert isinstance(back, Thing)
    np.testing.assert_array_equal(np.asarray(back.a), [2.0, 2.0])


def test_transformations_take_and_return_pytrees():
    params = {"W": mnp.ones((2, 3)), "b": mnp.zeros(3), "meta": (mnp.ones(1), None)}
    f = mlax.jit(lambda p, x: {"y": x @ p["W"] + p["b"], "k": [p["meta"][0] * 2]})
    out = f(params, mnp.ones(2))
    assert set(out) == {"y", "k"} and isinstance(out["k"], list)
    np.testing.assert_array_equal(np.asarray(out["y"]), [2.0, 2.0, 2.0])
    s = mlax.jit(lambda st: State(st.x + st.y, st.y, st.op))(State(mnp.ones(2), mnp.ones(2), "x"))
    assert isinstance(s, State) and s.op == "x"
    b = mlax.jit(lambda bx: Box(bx.value * 3, bx.label))(Box(mnp.ones(2), "q"))
    assert b.label == "q"
    np.testing.assert_array_equal(np.asarray(b.value), [3.0, 3.0])


def test_partial_is_a_pytree():
    part = mtu.Partial(operator.add, mnp.ones(2))
    assert len(mtu.tree_leaves(part)) == 1
    out = mlax.jit(lambda p, x: p(x))(part, mnp.ones(2))
    np.testing.assert_array_equal(np.asarray(out), [2.0, 2.0])


def test_tree_module_names_match_jax_tree():
    for name in ["map", "leaves", "structure", "flatten", "unflatten", "reduce", "transpose",
                 "all", "map_with_path", "leaves_with_path", "flatten_with_path"]:
        assert hasattr(jax.tree, name) and hasattr(mtree, name), name
    leaves, td = mtree.flatten({"a": 1, "b": [2, 3]})
    assert mtree.unflatten(td, [x * 2 for x in leaves]) == {"a": 2, "b": [4, 6]}


# ---------------------------------------------------------------------------
# Typed PRNG key arrays are leaves to the tree functions, as JAX's are
# (mlax's transformations still see into them: see the last test)
# ---------------------------------------------------------------------------

def _key_states():
    jk, mk = jax.random.key(0), mlax.random.key(0)
    return ({"rng": jk, "w": jnp.ones(3), "keys": jax.random.split(jk, 2)},
            {"rng": mk, "w": mnp.ones(3), "keys": mlax.random.split(mk, 2)})


def _describe(x):
    return (tuple(x.shape), str(x.dtype))


def test_key_arrays_are_leaves():
    js, ms = _key_states()
    assert str(mtu.tree_structure(ms)) == str(jax.tree_util.tree_structure(js))
    assert str(mtu.tree_structure(ms["rng"])) == "PyTreeDef(*)"
    assert ([_describe(x) for x in mtu.tree_leaves(ms)]
            == [_describe(x) for x in jax.tree_util.tree_leaves(js)])
    shapes = mtree.map(lambda x: x.shape, ms)
    assert shapes == jax.tree.map(lambda x: x.shape, js) == {"rng": (), "w": (3,), "keys": (2,)}
    # Mapping the identity rebuilds the same keys; mapping with a second
    # tree hands f both keys.
    same = mtree.map(lambda x: x, ms)
    assert bool(mnp.all(same["keys"] == ms["keys"]))
    pairs = mtree.map(lambda a, b: (a.dtype, b.dtype), ms, ms)
    assert str(pairs["rng"][0]) == "key<fry>"
    jpaths = [(p, _describe(x)) for p, x in jax.tree_util.tree_flatten_with_path(js)[0]]
    mpaths = [(p, _describe(x)) for p, x in mtu.tree_flatten_with_path(ms)[0]]
    assert jpaths == mpaths
    assert mtu.tree_reduce(lambda n, x: n + 1, ms, 0) == 3
    assert mtu.all_leaves([ms["rng"], 1]) and jax.tree_util.all_leaves([js["rng"], 1])
    assert not mtu.is_tree_node(type(ms["rng"]))
    with pytest.raises(ValueError):
        mtu.flatten_one_level(ms["rng"])
    out = mtu.tree_transpose(mtu.tree_structure([0, 0]), mtu.tree_structure((0, 0)),
                             [(ms["rng"], 1), (ms["rng"], 2)])
    assert _describe(out[0][1]) == ((), "key<fry>") and out[1] == [1, 2]
    # ravel_pytree meets the key as a leaf and refuses it, as JAX's (mlax
    # raveled its uint32 data into floats).
    for ravel, state in ((jax_ravel_pytree, js), (mlax_ravel_pytree, ms)):
        with pytest.raises(TypeError, match="Cannot determine dtype of key<fry>"):
            ravel(state)


def test_path_functions_take_is_leaf_takes_path():
    tree = {"a": 1, "b": (2, 3), "c": [4, {"d": 5}]}
    j = jax.tree_util.tree_flatten_with_path(tree, is_leaf=lambda x: isinstance(x, tuple))
    m = mtu.tree_flatten_with_path(tree, is_leaf=lambda x: isinstance(x, tuple))
    assert m[0] == j[0] and str(m[1]) == str(j[1])
    by_depth = dict(is_leaf=lambda p, x: len(p) == 2, is_leaf_takes_path=True)
    assert (mtu.tree_map_with_path(lambda p, x: str(p), tree, **by_depth)
            == jax.tree_util.tree_map_with_path(lambda p, x: str(p), tree, **by_depth))
    assert (mtu.tree_leaves_with_path(tree, **by_depth)
            == jax.tree_util.tree_leaves_with_path(tree, **by_depth))


def test_transformations_see_through_keys_in_state():
    """jit, vmap, grad and scan take states holding keys, as JAX's."""
    js, ms = _key_states()

    for lib, state in ((jax, js), (mlax, ms)):
        def loss(w, state, lib=lib):
            return (w * lib.random.normal(state["rng"], (3,))).sum()

        val = lib.jit(loss)(state["w"], state)
        g = lib.grad(loss)(state["w"], state)
        per_key = lib.vmap(lambda k: lib.random.uniform(k))(state["keys"])
        summed = lib.lax.scan(lambda c, k: (c + lib.random.normal(k), None), 0.0,
                              state["keys"])[0]
        if lib is jax:
            expect = (val, g, per_key, summed)
    # The same keys draw the same numbers in both libraries.
    for got, want in zip((val, g, per_key, summed), expect):
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-6)

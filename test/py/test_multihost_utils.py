"""mlax.experimental.multihost_utils against JAX's in this single process
(process_count() == 1): gathers, broadcasts, equality checks and barriers
give JAX's values, types and errors; host-local and global arrays convert
over a 4x2 mesh of CPU devices as JAX's do; the preemption and live-devices
helpers answer as JAX's do without a distributed runtime.
"""
from __future__ import annotations

import jax
import jax.experimental.multihost_utils as jmu
import numpy as np
import pytest
from jax.sharding import PartitionSpec as JP

import mlax
import mlax.experimental.multihost_utils as mmu
from mlax.sharding import PartitionSpec as P

TREE = {"a": np.arange(6, dtype=np.float32).reshape(2, 3), "b": (np.int32(7), 2.5)}


def _same_host_tree(got, want):
    g_leaves, g_tree = jax.tree_util.tree_flatten(got)
    w_leaves, w_tree = jax.tree_util.tree_flatten(want)
    assert g_tree == w_tree
    for g, w in zip(g_leaves, w_leaves):
        assert type(g) is type(w), (type(g), type(w))
        assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, g.dtype, w.shape, w.dtype)
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("tiled", [False, True])
def test_process_allgather(tiled):
    ours = dict(TREE, c=mlax.numpy.arange(4.0))
    theirs = dict(TREE, c=jax.numpy.arange(4.0))
    _same_host_tree(mmu.process_allgather(ours, tiled=tiled),
                    jmu.process_allgather(theirs, tiled=tiled))


def test_process_allgather_of_a_sharded_array(meshes):
    m, j = meshes
    x = np.arange(16.0, dtype=np.float32).reshape(8, 2)
    ours = mlax.device_put(x, mlax.sharding.NamedSharding(m, P("data", "model")))
    theirs = jax.device_put(x, jax.sharding.NamedSharding(j, JP("data", "model")))
    for tiled in (False, True):
        _same_host_tree(mmu.process_allgather(ours, tiled=tiled),
                        jmu.process_allgather(theirs, tiled=tiled))


@pytest.mark.parametrize("is_source", [None, True, False])
def test_broadcast_one_to_all(is_source):
    _same_host_tree(mmu.broadcast_one_to_all(TREE, is_source=is_source),
                    jmu.broadcast_one_to_all(TREE, is_source=is_source))


def test_assert_equal_and_sync():
    assert mmu.assert_equal(TREE, "same") is None
    assert mmu.sync_global_devices("step") is None
    assert jmu.sync_global_devices("step") is None
    # A NaN never equals itself (==), so JAX's check fails even in one process.
    bad = {"x": np.array([1.0, np.nan], np.float32)}
    with pytest.raises(AssertionError) as want:
        jmu.assert_equal(bad, "differs")
    with pytest.raises(AssertionError) as got:
        mmu.assert_equal(bad, "differs")
    assert str(got.value) == str(want.value)


def test_preemption_and_live_devices_without_a_runtime():
    assert mmu.reached_preemption_sync_point(3) is jmu.reached_preemption_sync_point(3) is False
    with pytest.raises(RuntimeError) as want:
        with jmu.live_devices(jax.devices()):
            pass
    with pytest.raises(RuntimeError) as got:
        with mmu.live_devices(mlax.devices()):
            pass
    assert str(got.value) == str(want.value)
    err = mmu.ProcessFailureError({"d0"})
    assert err.failed_devices == {"d0"} and str(err) == str(jmu.ProcessFailureError({"d0"}))


def _spec_of(arr):
    return tuple(arr.sharding.spec)


def test_host_local_to_global_and_back(meshes):
    m, j = meshes
    local = {"x": np.arange(16.0, dtype=np.float64).reshape(8, 2),
             "y": np.arange(4, dtype=np.int32)}
    for ours_spec, their_spec in ((P("data"), JP("data")),
                                  ({"x": P("data", "model"), "y": P()},
                                   {"x": JP("data", "model"), "y": JP()})):
        got = mmu.host_local_array_to_global_array(local, m, ours_spec)
        want = jmu.host_local_array_to_global_array(local, j, their_spec)
        for k in local:
            assert isinstance(got[k], mlax.Array)
            assert got[k].shape == want[k].shape and got[k].dtype == want[k].dtype
            np.testing.assert_array_equal(np.asarray(got[k]), np.asarray(want[k]))
            assert _spec_of(got[k]) == _spec_of(want[k])
            assert got[k].sharding.mesh == m
            assert len(got[k].addressable_shards) == len(want[k].addressable_shards)
        back = mmu.global_array_to_host_local_array(got, m, ours_spec)
        assert all(back[k] is got[k] for k in local)  # host-local already: unchanged
    # A NumPy value becomes an array laid out as the spec says.
    host = mmu.global_array_to_host_local_array(local["x"], m, P("data"))
    want = jmu.global_array_to_host_local_array(local["x"], j, JP("data"))
    assert host.dtype == want.dtype and _spec_of(host) == _spec_of(want)
    np.testing.assert_array_equal(np.asarray(host), np.asarray(want))


def test_host_local_to_global_under_jit(meshes):
    m, j = meshes
    x = np.arange(8.0, dtype=np.float32)
    got = mlax.jit(lambda v: mmu.host_local_array_to_global_array(v, m, P("data")) * 2)(x)
    want = jax.jit(lambda v: jmu.host_local_array_to_global_array(v, j, JP("data")) * 2)(x)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


def test_conversion_errors(meshes):
    m, j = meshes
    x = np.zeros(8, np.float32)
    for fn_name in ("host_local_array_to_global_array", "global_array_to_host_local_array"):
        with pytest.raises(ValueError) as want:
            getattr(jmu, fn_name)(x, j, None)
        with pytest.raises(ValueError) as got:
            getattr(mmu, fn_name)(x, m, None)
        assert str(got.value) == str(want.value)
        # A pspec tree that is no prefix of the inputs.
        with pytest.raises(ValueError):
            getattr(jmu, fn_name)((x, x), j, (JP(), JP(), JP()))
        with pytest.raises(ValueError, match="pspecs"):
            getattr(mmu, fn_name)((x, x), m, (P(), P(), P()))

"""mlax.distributed: 2 and 4 processes on localhost form one mesh, a
data-parallel training step (each process feeding its part of the batch)
ends with the parameters and losses of a single-process run, and a
shard_map psum adds up every process's pieces."""
import os
import socket
import subprocess
import sys

import numpy as np
import pytest

import mlax
import mlax.numpy as mnp

WORKER = os.path.join(os.path.dirname(__file__), "_distributed_worker.py")


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _single_process(nproc):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(8 * nproc, 3)).astype(np.float32)
    Y = np.sin(X.sum(1)).astype(np.float32)
    w = mnp.full(3, 0.5, mnp.float32)

    def loss(w):
        return mnp.mean((mnp.tanh(mnp.asarray(X) @ w) - Y) ** 2)
    losses = []
    for _ in range(3):
        value, g = mlax.value_and_grad(loss)(w)
        w = w - 0.5 * g
        losses.append(float(value))
    return np.asarray(w), np.array(losses)


@pytest.mark.parametrize("nproc", [2, 4])
def test_data_parallel_step_over_processes(tmp_path, nproc):
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k != "XLA_FLAGS"}
    env["TF_CPP_MIN_LOG_LEVEL"] = "2"
    procs = [subprocess.Popen([sys.executable, WORKER, str(i), str(nproc), str(port),
                               str(tmp_path / f"out{i}.npz")], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
             for i in range(nproc)]
    try:
        outputs = [p.communicate(timeout=120)[0].decode() for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    for p, out in zip(procs, outputs):
        assert p.returncode == 0, out[-3000:]
    w_ref, losses_ref = _single_process(nproc)
    X = np.random.default_rng(0).normal(size=(8 * nproc, 3)).astype(np.float32)
    for i in range(nproc):
        got = np.load(tmp_path / f"out{i}.npz")
        np.testing.assert_allclose(got["psum"], X.sum(0), rtol=1e-5, atol=1e-5)
        np.testing.assert_array_equal(got["x"], X)
        np.testing.assert_array_equal(got["ids"], [[p, 10 * p] for p in range(nproc)])
        np.testing.assert_array_equal(got["first"], [1.0])
        np.testing.assert_allclose(got["losses"], losses_ref, rtol=1e-5)
        np.testing.assert_allclose(got["w"], w_ref, rtol=1e-5, atol=1e-6)
    assert losses_ref[-1] < losses_ref[0]


def test_initialize_after_the_backend_exists():
    mlax.devices()
    with pytest.raises(RuntimeError, match="before any mlax computation"):
        mlax.distributed.initialize("127.0.0.1:1", 2, 0)
    with pytest.raises(ValueError, match="process_id"):
        mlax.distributed.initialize("127.0.0.1:1", 2, 5)
    assert not mlax.distributed.is_initialized()


def test_multihost_utils_in_one_process():
    import jax
    from jax.experimental import multihost_utils as jmu

    from mlax.experimental import multihost_utils as mmu

    v = np.arange(3, dtype=np.float32)
    for tiled in (False, True):
        np.testing.assert_array_equal(mmu.process_allgather(v, tiled=tiled),
                                      jmu.process_allgather(v, tiled=tiled))
    np.testing.assert_array_equal(mmu.broadcast_one_to_all(v), jmu.broadcast_one_to_all(v))
    mmu.sync_global_devices("one")  # nothing to wait for
    assert jax.process_count() == mlax.process_count() == 1

"""One process of test_distributed.py's multi-process runs:
    python _distributed_worker.py PROCESS_ID NUM_PROCESSES PORT OUT.npz
A data-parallel training step on a mesh of every process's CPU devices:
each process feeds its part of the global batch and the gradients are
summed across processes by the compiled program's all-reduce (gloo over TCP)."""
import sys

import numpy as np

import mlax

pid, nproc, port, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
mlax.config.update("jax_num_cpu_devices", 2)
mlax.distributed.initialize(f"127.0.0.1:{port}", nproc, pid, initialization_timeout=60)

import mlax.numpy as mnp  # noqa: E402
from mlax.sharding import Mesh, NamedSharding, PartitionSpec as P  # noqa: E402

assert mlax.process_index() == pid and mlax.process_count() == nproc
assert len(mlax.devices()) == 2 * nproc and len(mlax.local_devices()) == 2
mesh = Mesh(np.array(mlax.devices()), ("data",))
batch = NamedSharding(mesh, P("data"))
replicated = NamedSharding(mesh, P())

rng = np.random.default_rng(0)
X = rng.normal(size=(8 * nproc, 3)).astype(np.float32)
Y = np.sin(X.sum(1)).astype(np.float32)
block = len(X) // nproc
x = mlax.make_array_from_process_local_data(batch, X[pid * block:(pid + 1) * block])
y = mlax.make_array_from_process_local_data(batch, Y[pid * block:(pid + 1) * block])
w = mlax.make_array_from_process_local_data(replicated, np.full(3, 0.5, np.float32))
assert x.shape == X.shape and not x.is_fully_addressable


def loss(w, x, y):
    return mnp.mean((mnp.tanh(x @ w) - y) ** 2)


@mlax.jit
def step(w, x, y):
    value, g = mlax.value_and_grad(loss)(w, x, y)
    return w - 0.5 * g, value


losses = []
for _ in range(3):
    w, value = step(w, x, y)
    losses.append(float(np.asarray(value.addressable_shards[0].data)))
# An explicit psum across processes: shard_map over the same mesh.
from mlax import lax  # noqa: E402

total = mlax.jit(mlax.shard_map(lambda v: lax.psum(mnp.sum(v, 0), "data"), mesh=mesh,
                                in_specs=P("data"), out_specs=P()))(x)
from mlax.experimental import multihost_utils  # noqa: E402

gathered_x = multihost_utils.process_allgather(x, tiled=True)  # a global array, whole
ids = multihost_utils.process_allgather(np.array([pid, 10 * pid]))  # host-local values
first = multihost_utils.broadcast_one_to_all(np.array([pid + 1.0]))
multihost_utils.sync_global_devices("done")
np.savez(out, w=np.asarray(w.addressable_shards[0].data), losses=np.array(losses),
         psum=np.asarray(total.addressable_shards[0].data), x=gathered_x, ids=ids,
         first=first)
mlax.distributed.shutdown()

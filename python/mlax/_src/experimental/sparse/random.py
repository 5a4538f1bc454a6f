"""random_bcoo (jax.experimental.sparse.random): a BCOO array with random
data and random (by default unique) indices, drawn as JAX draws them, so one
key gives the same array."""
from __future__ import annotations

import math
import operator

import numpy as np

from mlax._src.base import dtypes
from mlax._src.numpy import lax_numpy as mnp
from mlax._src.numpy.index_tricks import unravel_index
from mlax._src.numpy.manipulation import column_stack
from mlax._src.random import prng
from mlax._src.experimental.sparse.bcoo import BCOO
from mlax._src.transforms.vmap import vmap


def random_bcoo(key, shape, *, dtype=None, indices_dtype=None, nse=0.2, n_batch=0,
                n_dense=0, unique_indices=True, sorted_indices=False,
                generator=prng.uniform, **kwds):
    """A random BCOO array of `shape`: `nse` stored elements per batch (a
    fraction of the sparse size when 0 < nse < 1), data from
    `generator(key, shape=..., dtype=..., **kwds)`."""
    shape = tuple(map(operator.index, shape))
    n_batch, n_dense = operator.index(n_batch), operator.index(n_dense)
    if n_batch < 0 or n_dense < 0 or n_batch + n_dense > len(shape):
        raise ValueError(f"Invalid n_batch={n_batch}, n_dense={n_dense} for shape={shape}")
    n_sparse = len(shape) - n_batch - n_dense
    batch_shape = shape[:n_batch]
    sparse_shape = shape[n_batch:n_batch + n_sparse]
    dense_shape = shape[n_batch + n_sparse:]
    batch_size = math.prod(batch_shape)
    sparse_size = math.prod(sparse_shape)
    if not 0 <= nse < sparse_size:
        raise ValueError(f"got nse={nse}, expected to be between 0 and {sparse_size}")
    if 0 < nse < 1:
        nse = int(math.ceil(nse * sparse_size))
    nse = operator.index(nse)
    if dtype is None:
        dtype = dtypes.default_float()
    if indices_dtype is None:
        indices_dtype = dtypes.default_int()
    if sparse_size > np.iinfo(dtypes.canonicalize(indices_dtype)).max:
        raise ValueError(f"indices_dtype={indices_dtype} does not have enough range to "
                         f"generate sparse indices of size {sparse_size}.")

    def _indices(key):
        if not sparse_shape:
            return mnp.zeros((nse, n_sparse), dtype=indices_dtype)
        flat = prng.choice(key, sparse_size, shape=(nse,),
                           replace=not unique_indices).astype(indices_dtype)
        return column_stack(unravel_index(flat, sparse_shape))

    keys = prng.split(key, batch_size + 1)
    data = generator(keys[0], shape=batch_shape + (nse,) + dense_shape, dtype=dtype, **kwds)
    indices = vmap(_indices)(keys[1:]).reshape(batch_shape + (nse, n_sparse))
    mat = BCOO((data, indices), shape=shape)
    return mat.sort_indices() if sorted_indices else mat

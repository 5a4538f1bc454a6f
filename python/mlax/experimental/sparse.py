"""mlax.experimental.sparse: as jax.experimental.sparse, the BCOO (batched
COO) sparse array and its operations; the other formats, sparsify and the
sparse autodiff wrappers are not built (see test_api_surface's reasons)."""
from mlax._src.experimental.sparse.api import empty, eye, todense  # noqa: F401
from mlax._src.experimental.sparse.base import JAXSparse  # noqa: F401
from mlax._src.experimental.sparse.bcoo import (  # noqa: F401
    BCOO, bcoo_dot_general, bcoo_dot_general_sampled, bcoo_extract, bcoo_fromdense,
    bcoo_multiply_dense, bcoo_multiply_sparse, bcoo_reduce_sum, bcoo_sort_indices,
    bcoo_sum_duplicates, bcoo_todense, bcoo_transpose)
from mlax._src.experimental.sparse.random import random_bcoo  # noqa: F401
from mlax._src.experimental.sparse.util import (  # noqa: F401
    CuSparseEfficiencyWarning, SparseEfficiencyError, SparseEfficiencyWarning)

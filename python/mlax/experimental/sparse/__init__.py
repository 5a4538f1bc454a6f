"""mlax.experimental.sparse: as jax.experimental.sparse, the BCOO (batched
COO) and BCSR (batched CSR) sparse arrays and their operations, and the
legacy 2-D COO, CSR and CSC formats, and the sparse-aware autodiff wrappers
(grad, value_and_grad, jacfwd, jacrev, jacobian), and sparsify, which runs a
function written for dense arrays on BCOO and BCSR arrays; and the
submodules random (random_bcoo) and linalg (lobpcg_standard, spsolve)."""
from mlax._src.experimental.sparse.api import empty, eye, todense  # noqa: F401
from mlax._src.experimental.sparse.base import JAXSparse  # noqa: F401
from mlax._src.experimental.sparse.bcoo import (  # noqa: F401
    BCOO, bcoo_dot_general, bcoo_dot_general_sampled, bcoo_extract, bcoo_fromdense,
    bcoo_multiply_dense, bcoo_multiply_sparse, bcoo_reduce_sum, bcoo_sort_indices,
    bcoo_sum_duplicates, bcoo_todense, bcoo_transpose)
from mlax._src.experimental.sparse.bcoo_structural import (  # noqa: F401
    bcoo_broadcast_in_dim, bcoo_concatenate, bcoo_conv_general_dilated, bcoo_dynamic_slice,
    bcoo_gather, bcoo_reshape, bcoo_rev, bcoo_slice, bcoo_squeeze, bcoo_update_layout)
from mlax._src.experimental.sparse.bcsr import (  # noqa: F401
    BCSR, bcsr_broadcast_in_dim, bcsr_concatenate, bcsr_dot_general, bcsr_extract,
    bcsr_fromdense, bcsr_sum_duplicates, bcsr_todense)
from mlax._src.experimental.sparse.coo import (  # noqa: F401
    COO, coo_fromdense, coo_matmat, coo_matvec, coo_todense)
from mlax._src.experimental.sparse.csr import (  # noqa: F401
    CSC, CSR, csr_fromdense, csr_matmat, csr_matvec, csr_todense)
from mlax._src.experimental.sparse.random import random_bcoo  # noqa: F401
from mlax._src.experimental.sparse.util import (  # noqa: F401
    CuSparseEfficiencyWarning, SparseEfficiencyError, SparseEfficiencyWarning)
from mlax._src.experimental.sparse.ad import (  # noqa: F401
    grad, jacfwd, jacobian, jacrev, value_and_grad)

from mlax._src.experimental.sparse.transform import sparsify  # noqa: F401

from mlax.experimental.sparse import linalg, random  # noqa: F401,E402

"""mlax.numpy's products and contractions: dot, matmul, vdot, inner, outer,
tensordot, vecdot, matvec, vecmat."""
from __future__ import annotations

import numpy as np

from mlax._src.core import tracer as core
from mlax._src.base import dtypes
from mlax._src.lax import lax
from mlax._src.core.primitives import aval_of
from mlax._src.numpy import util
from mlax._src.numpy.util import (
    _check_arg, _is_array, broadcast_shapes, promote_dtypes)
from mlax._src.numpy.lax_numpy import asarray, broadcast_to, ravel, reshape, squeeze
from mlax._src.numpy.ufuncs import _conj_complex, multiply


# ---------------------------------------------------------------------------
# Linear algebra
# ---------------------------------------------------------------------------

def dot(a, b, precision=None, preferred_element_type=None, *, out_sharding=None):
    """The dot product of a and b (jax.numpy.dot).
    `out_sharding`: only None (JAX's default); mlax has no sharding yet, and
    any other value raises NotImplementedError."""
    util._check_out_sharding("dot", out_sharding)
    a, b = promote_dtypes("dot", a, b)
    _check_arg("dot", a)
    _check_arg("dot", b)
    # As JAX's: the result is weakly typed when the promoted operands are
    # (a Python scalar with an integer array gives a weak float).
    weak = aval_of(a).weak_type
    a = a if _is_array(a) else asarray(a)
    b = b if _is_array(b) else asarray(b)
    la, lb = aval_of(a), aval_of(b)
    if la.ndim == 0 or lb.ndim == 0:
        out = multiply(a, b)
        dt = aval_of(out).dtype
        return lax.convert_element_type(out, dt, weak_type=True) \
            if weak and not dtypes.is_bool(dt) else out
    contract_b = 0 if lb.ndim == 1 else lb.ndim - 2
    if la.shape[-1] != lb.shape[contract_b]:
        raise TypeError(f"mnp.dot: shapes {la.shape} and {lb.shape} are not aligned: "
                        f"{la.shape[-1]} (dim {la.ndim - 1}) != {lb.shape[contract_b]} "
                        f"(dim {contract_b}) (at {core.user_location_str()})")
    return lax.dot_general(a, b, (((la.ndim - 1,), (contract_b,)), ((), ())),
                           precision=precision, preferred_element_type=preferred_element_type)


def matmul(a, b, precision=None, preferred_element_type=None, *, out_sharding=None):
    """The matrix product of a and b, batched over leading axes
    (jax.numpy.matmul).
    `out_sharding`: only None (JAX's default); mlax has no sharding yet, and
    any other value raises NotImplementedError."""
    util._check_out_sharding("matmul", out_sharding)
    a, b = promote_dtypes("matmul", a, b)
    _check_arg("matmul", a)
    _check_arg("matmul", b)
    a = a if _is_array(a) else asarray(a)
    b = b if _is_array(b) else asarray(b)
    la, lb = aval_of(a), aval_of(b)
    if la.ndim == 0 or lb.ndim == 0:
        raise ValueError("mnp.matmul: operands must be at least 1-dimensional, got shapes "
                         f"{la.shape} and {lb.shape}")
    a_is_mat, b_is_mat = la.ndim > 1, lb.ndim > 1
    k_a, k_b = la.shape[-1], lb.shape[-2] if b_is_mat else lb.shape[-1]
    if k_a != k_b:
        raise TypeError(  # as JAX (dot_general's shape rule)
            f"mnp.matmul: input operand 1 has a mismatch in its core dimension 0 "
            f"(size {k_b} is different from {k_a}); shapes {la.shape} and {lb.shape} "
            f"(at {core.user_location_str()})")
    a_bd = la.shape[:-2] if a_is_mat else ()
    b_bd = lb.shape[:-2] if b_is_mat else ()
    broadcast_shapes(a_bd, b_bd, name="matmul")  # (the error for incompatible batches)
    # As jax.numpy.matmul: a batch dimension only one operand has (or where
    # the other's is 1) is a free dimension of that operand's, not broadcast
    # to the other's; only the ones both have are dot_general batch
    # dimensions. `x @ w` with w 2-D is then one matrix product (and its
    # gradient with respect to w one product over all of x's rows), not a
    # batch of them against copies of w.
    nb = max(len(a_bd), len(b_bd))
    a_bd = (None,) * (nb - len(a_bd)) + tuple(a_bd)
    b_bd = (None,) * (nb - len(b_bd)) + tuple(b_bd)
    a_squeeze, b_squeeze, a_batch, b_batch = [], [], [], []
    idx_batch, idx_a_other, idx_b_other = [], [], []
    for i, (ba, bb) in enumerate(zip(a_bd, b_bd)):
        if ba is None:
            idx_b_other.append(i)
        elif bb is None:
            idx_a_other.append(i)
        elif ba == 1:
            idx_b_other.append(i)
            a_squeeze.append(len(idx_batch) + len(idx_a_other) + len(a_squeeze))
        elif bb == 1:
            idx_a_other.append(i)
            b_squeeze.append(len(idx_batch) + len(idx_b_other) + len(b_squeeze))
        else:  # equal (broadcast_shapes checked)
            a_batch.append(len(idx_batch) + len(idx_a_other))
            b_batch.append(len(idx_batch) + len(idx_b_other))
            idx_batch.append(i)
    if a_is_mat:
        idx_a_other.append(nb)
    if b_is_mat:
        idx_b_other.append(nb + a_is_mat)
    perm = tuple(int(p) for p in np.argsort(idx_batch + idx_a_other + idx_b_other))
    if a_squeeze:
        a = squeeze(a, tuple(a_squeeze))
    if b_squeeze:
        b = squeeze(b, tuple(b_squeeze))
    na, nb_ = aval_of(a).ndim, aval_of(b).ndim
    out = lax.dot_general(a, b, (((na - 1,), (nb_ - 1 - b_is_mat,)),
                                 (tuple(a_batch), tuple(b_batch))),
                          precision=precision, preferred_element_type=preferred_element_type)
    return lax.transpose(out, perm)


def vdot(a, b, *, precision=None, preferred_element_type=None):
    """The dot product of a and b flattened, a conjugated (jax.numpy.vdot)."""
    a = a if _is_array(a) else asarray(a)
    if dtypes.is_complex(aval_of(a).dtype):  # as NumPy: conjugates the first argument
        a = _conj_complex(a)
    return dot(ravel(a), ravel(b), precision=precision,
               preferred_element_type=preferred_element_type)


def inner(a, b, *, precision=None, preferred_element_type=None):
    """The contraction of a's and b's last axes (jax.numpy.inner); with a
    scalar, the product (computed in preferred_element_type when given, as
    JAX's)."""
    a, b = promote_dtypes("inner", a, b)
    la, lb = aval_of(a), aval_of(b)
    if la.ndim == 0 or lb.ndim == 0:
        if preferred_element_type is not None:
            from mlax._src.numpy.lax_numpy import astype
            a, b = astype(a, preferred_element_type), astype(b, preferred_element_type)
        return multiply(a, b)
    return lax.dot_general(a, b, (((la.ndim - 1,), (lb.ndim - 1,)), ((), ())),
                           precision=precision, preferred_element_type=preferred_element_type)


def outer(a, b, out=None):
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.outer is not supported.")
    a, b = ravel(a), ravel(b)
    shape = (aval_of(a).shape[0], aval_of(b).shape[0])
    return multiply(broadcast_to(reshape(a, (-1, 1)), shape), broadcast_to(b, shape))


def einsum_path(subscripts, /, *operands, optimize="auto"):
    """The contraction order opt_einsum picks for einsum(subscripts,
    *operands) and its report, as jax.numpy.einsum_path (only the operands'
    shapes are used). optimize=False is the unoptimized left-to-right order."""
    import numpy as np
    import opt_einsum

    class _Unoptimized(opt_einsum.paths.PathOptimizer):
        def __call__(self, inputs, *args, **kwargs):
            return [(0, 1)] * (len(inputs) - 1)

    if not isinstance(subscripts, str):  # the operand-list form
        from mlax._src.numpy.manipulation import _einsum_sublists
        subscripts, operands = _einsum_sublists("einsum_path", (subscripts,) + operands)
    if isinstance(optimize, bool):
        optimize = "optimal" if optimize else _Unoptimized()
    shapes = [tuple(np.shape(o)) for o in operands]
    return opt_einsum.contract_path(subscripts, *shapes, optimize=optimize, shapes=True)


# One jit dispatch each when called outside a trace, as jax.numpy's are
# (JAX's static arguments; traced in place inside a trace).
inner = util._eager_jit(inner, ("precision", "preferred_element_type"))
outer = util._eager_jit(outer)
vdot = util._eager_jit(vdot, ("precision", "preferred_element_type"))

"""mlax.numpy's products and contractions: dot, matmul, vdot, inner, outer,
tensordot, vecdot, matvec, vecmat."""
from __future__ import annotations


from mlax._src.core import tracer as core
from mlax._src.base import dtypes
from mlax._src.lax import lax
from mlax._src.core.primitives import aval_of
from mlax._src.numpy import util
from mlax._src.numpy.util import (
    _broadcast_to_shape, _check_arg, _is_array, broadcast_shapes, promote_dtypes)
from mlax._src.numpy.lax_numpy import asarray, expand_dims, ravel, reshape, squeeze
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
    a = a if _is_array(a) else asarray(a)
    b = b if _is_array(b) else asarray(b)
    la, lb = aval_of(a), aval_of(b)
    if la.ndim == 0 or lb.ndim == 0:
        return multiply(a, b)
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
    a2 = expand_dims(a, 0) if la.ndim == 1 else a
    b2 = expand_dims(b, -1) if lb.ndim == 1 else b
    sa, sb = aval_of(a2).shape, aval_of(b2).shape
    if sa[-1] != sb[-2]:
        raise TypeError(  # as JAX (dot_general's shape rule)
            f"mnp.matmul: input operand 1 has a mismatch in its core dimension 0 "
            f"(size {sb[-2]} is different from {sa[-1]}); shapes {la.shape} and {lb.shape} "
            f"(at {core.user_location_str()})")
    batch = broadcast_shapes(sa[:-2], sb[:-2], name="matmul")
    a2 = _broadcast_to_shape(a2, batch + sa[-2:])
    b2 = _broadcast_to_shape(b2, batch + sb[-2:])
    nb = len(batch)
    out = lax.dot_general(a2, b2, (((nb + 1,), (nb,)), (tuple(range(nb)), tuple(range(nb)))),
                          precision=precision, preferred_element_type=preferred_element_type)
    if la.ndim == 1:
        out = squeeze(out, -2)
    if lb.ndim == 1:
        out = squeeze(out, -1)
    return out


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
    return multiply(reshape(ravel(a), (-1, 1)), ravel(b))


def einsum_path(subscripts, /, *operands, optimize="auto"):
    """The contraction order opt_einsum picks for einsum(subscripts,
    *operands) and its report, as jax.numpy.einsum_path (only the operands'
    shapes are used). optimize=False is the unoptimized left-to-right order."""
    import numpy as np
    import opt_einsum

    class _Unoptimized(opt_einsum.paths.PathOptimizer):
        def __call__(self, inputs, *args, **kwargs):
            return [(0, 1)] * (len(inputs) - 1)

    if isinstance(optimize, bool):
        optimize = "optimal" if optimize else _Unoptimized()
    shapes = [tuple(np.shape(o)) for o in operands]
    return opt_einsum.contract_path(subscripts, *shapes, optimize=optimize, shapes=True)


# One jit dispatch each when called outside a trace, as jax.numpy's are
# (JAX's static arguments; traced in place inside a trace).
inner = util._eager_jit(inner, ("precision", "preferred_element_type"))
outer = util._eager_jit(outer)
vdot = util._eager_jit(vdot, ("precision", "preferred_element_type"))

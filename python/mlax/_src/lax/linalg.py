"""lax's linear algebra: dot_general, dot and batch_matmul with their
Precision, cholesky, lu and eig (the other decompositions of jax.lax.linalg are in
mlax._src.numpy.linalg).
"""
from __future__ import annotations

import builtins
import enum
from typing import Sequence, Union

import numpy as np
from mlir import ir

from mlax._src.base import dtypes
from mlax._src.base import jaxlib_internals
from mlax._src.core import tracer as core
from mlax._src.core.primitives import Primitive, _ops, aval_of, bind, shape_error
from mlax._src.core.tracer import ShapedArray

from mlax._src.lax.elementwise import _i64_array, convert_element_type


class Precision(enum.Enum):
    """jax.lax.Precision: the speed / accuracy trade-off of float32 matrix
    products on accelerators (none on CPU). Also named by the strings of
    `_PRECISION_STRINGS`."""

    DEFAULT = 0
    HIGH = 1
    HIGHEST = 2

    @classmethod
    def _missing_(cls, value):
        return _PRECISION_STRINGS.get(value)

    def __repr__(self):
        return f"{self.__class__.__name__}.{self.name}"

    def __str__(self):
        return self.name


_PRECISION_STRINGS = {
    "highest": Precision.HIGHEST, "float32": Precision.HIGHEST, "high": Precision.HIGH,
    "bfloat16_3x": Precision.HIGH, "tensorfloat32": Precision.HIGH,
    "default": Precision.DEFAULT, "bfloat16": Precision.DEFAULT, "fastest": Precision.DEFAULT,
    None: Precision.DEFAULT}

PrecisionLike = Union[None, str, Precision, tuple[str, str], tuple[Precision, Precision]]
DotDimensionNumbers = tuple[tuple[Sequence[int], Sequence[int]],
                            tuple[Sequence[int], Sequence[int]]]


def canonicalize_precision(precision):
    """`precision` as None or a (lhs, rhs) pair of Precision, as jax.lax
    reads it; anything else is a ValueError. The mlax ops carry no precision
    config, so XLA's default applies whatever is asked (the same on CPU)."""
    if precision is None:
        return None
    if isinstance(precision, str) and precision in _PRECISION_STRINGS:
        return Precision(precision), Precision(precision)
    if isinstance(precision, Precision):
        return precision, precision
    if isinstance(precision, (list, tuple)) and len(precision) == 2:
        if builtins.all(isinstance(p, Precision) for p in precision):
            return tuple(precision)
        if builtins.all(isinstance(p, str) and p in _PRECISION_STRINGS for p in precision):
            return Precision(precision[0]), Precision(precision[1])
    raise ValueError(
        "Precision argument must be one of:\n- None,\n"
        f"- a string in {list(_PRECISION_STRINGS)},\n- a lax.Precision value,\n"
        f"- a tuple of two lax.Precision values or strings;\ngot {precision}.")


def _dot_general_eval(lhs, rhs, *, dimension_numbers, preferred_element_type):
    (lc, rc), (lb, rb) = dimension_numbers
    name = "lax.dot_general"
    if len(lc) != len(rc) or len(lb) != len(rb):
        raise shape_error(name, f"dimension_numbers {dimension_numbers} pair unequal "
                          "numbers of lhs and rhs dimensions")
    for dims, aval, side in ((lc + lb, lhs, "lhs"), (rc + rb, rhs, "rhs")):
        if len(set(dims)) != len(dims) or builtins.any(not 0 <= d < aval.ndim for d in dims):
            raise shape_error(name, f"{side} dimensions {dims} invalid for shape {aval.shape}")
    for l, r in zip(lc + lb, rc + rb):
        if lhs.shape[l] != rhs.shape[r]:
            raise shape_error(
                name, f"incompatible shapes {lhs.shape} and {rhs.shape}: lhs dimension {l} "
                f"(size {lhs.shape[l]}) vs rhs dimension {r} (size {rhs.shape[r]})")
    if lhs.dtype != rhs.dtype:
        raise TypeError(f"{name} requires operands of one dtype, got {lhs.dtype.name} and "
                        f"{rhs.dtype.name} (at {core.user_location_str()})")
    shape = ([lhs.shape[d] for d in lb]
             + [d for i, d in enumerate(lhs.shape) if i not in lc and i not in lb]
             + [d for i, d in enumerate(rhs.shape) if i not in rc and i not in rb])
    dtype = preferred_element_type or lhs.dtype
    return ShapedArray(shape, dtype, lhs.weak_type and rhs.weak_type
                       and preferred_element_type is None)


def _dot_general_emit(values, avals, out_aval, *, dimension_numbers, preferred_element_type):
    (lc, rc), (lb, rb) = dimension_numbers
    return _ops().DotGeneralOp(out_aval.mlir_type(), values[0], values[1], _i64_array(lb),
                               _i64_array(rb), _i64_array(lc), _i64_array(rc)).result


_dot_general_p = Primitive("dot_general", _dot_general_eval, _dot_general_emit)


def dot_general(lhs, rhs, dimension_numbers, precision=None, preferred_element_type=None):
    canonicalize_precision(precision)
    (lc, rc), (lb, rb) = dimension_numbers
    dn = ((tuple(int(d) for d in lc), tuple(int(d) for d in rc)),
          (tuple(int(d) for d in lb), tuple(int(d) for d in rb)))
    pet = dtypes.canonicalize(preferred_element_type) if preferred_element_type else None
    if pet is not None:
        ldt, rdt = aval_of(lhs).dtype, aval_of(rhs).dtype
        if ldt == rdt and _dtype_kind(pet) != _dtype_kind(ldt):
            # The op only widens within a kind (i8 x i8 -> i32); for another kind
            # (i8 x i8 -> f32, as JAX allows) convert the operands first.
            lhs = convert_element_type(lhs, pet)
            rhs = convert_element_type(rhs, pet)
    return bind(_dot_general_p, lhs, rhs, dimension_numbers=dn, preferred_element_type=pet)


def _dtype_kind(dtype):
    if dtypes.is_bool(dtype):
        return "b"
    if dtypes.is_int(dtype):
        return "i"
    return "c" if dtypes.is_complex(dtype) else "f"


def dot(lhs, rhs, precision=None, preferred_element_type=None):
    l, r = aval_of(lhs), aval_of(rhs)
    if l.ndim not in (1, 2) or r.ndim not in (1, 2):
        raise shape_error("lax.dot", f"needs 1D or 2D operands, got {l.shape} and {r.shape}; "
                          "give dimension numbers with lax.dot_general", ValueError)
    return dot_general(lhs, rhs, (((l.ndim - 1,), (0,)), ((), ())), precision=precision,
                       preferred_element_type=preferred_element_type)


def batch_matmul(lhs, rhs, precision=None):
    """jax.lax.batch_matmul: matrix products over equal leading batch dimensions."""
    l, r = aval_of(lhs), aval_of(rhs)
    if builtins.min(l.ndim, r.ndim) < 2:
        raise shape_error("lax.batch_matmul", f"Arguments to batch_matmul must be at least 2D, "
                          f"got {l.ndim}, {r.ndim}", ValueError)
    if l.ndim != r.ndim:
        raise shape_error("lax.batch_matmul", f"Arguments to batch_matmul must have same ndim, "
                          f"got {l.ndim}, {r.ndim}", ValueError)
    batch = tuple(range(l.ndim - 2))
    return dot_general(lhs, rhs, (((l.ndim - 1,), (r.ndim - 2,)), (batch, batch)),
                       precision=precision)


def _prepare_lapack(fn_base, dtype):
    """Readies jaxlib's LAPACK kernel `fn_base` for `dtype` before a lowering
    calls it: registers jaxlib's LAPACK FFI targets with XLA (once) and
    initialises the LAPACK library, as jax's linalg module and lowering rules
    do."""
    from jaxlib import lapack

    jaxlib_internals.register_lapack_kernels()

    lapack.prepare_lapack_call(fn_base, np.dtype(dtype))


def _cholesky_eval(x):
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise shape_error("lax.linalg.cholesky", f"needs square matrices (shape [..., n, n]), "
                          f"got shape {x.shape}", ValueError)
    if x.dtype not in (dtypes.float32, dtypes.float64):
        raise shape_error("lax.linalg.cholesky", f"supports float32 and float64, got "
                          f"{x.dtype.name}")
    return x.update(weak_type=False)


def _cholesky_emit(values, avals, out_aval):
    # The lowering calls jaxlib's LAPACK potrf kernel (as jnp.linalg.cholesky
    # on CPU does), which must be initialised before it runs.
    _prepare_lapack("potrf_ffi", avals[0].dtype)
    return _ops().CholeskyOp(values[0], results=[out_aval.mlir_type()]).result


_cholesky_p = Primitive("cholesky", _cholesky_eval, _cholesky_emit)


def cholesky(x):
    """Lower Cholesky factor of the symmetrised matrix (jax.lax.linalg.cholesky)."""
    return bind(_cholesky_p, x)


_LU_DTYPES = (np.dtype(np.float32), np.dtype(np.float64), np.dtype(np.complex64),
              np.dtype(np.complex128))


def _lu_eval(x):
    name = "lax.linalg.lu"
    if x.ndim < 2:
        raise shape_error(name, f"needs an array of at least 2 dimensions (shape [..., m, n]), "
                                f"got shape {x.shape}")
    if np.dtype(x.dtype) not in _LU_DTYPES:
        raise shape_error(name, "supports " + ", ".join(d.name for d in _LU_DTYPES)
                          + f", got {x.dtype.name}")
    *batch, m, n = x.shape
    batch = tuple(batch)
    x = x.update(weak_type=False)
    return [x, x.update(shape=batch + (builtins.min(m, n),), dtype=dtypes.int32),
            x.update(shape=batch + (m,), dtype=dtypes.int32)]


def _lu_emit(values, avals, outs):
    # The lowering calls jaxlib's LAPACK getrf kernel (as jax.lax.linalg.lu
    # on CPU does), which must be initialised before it runs.
    _prepare_lapack("getrf_ffi", avals[0].dtype)
    op = _ops().LuOp(*(o.mlir_type() for o in outs), values[0])
    return list(op.results)


_lu_p = Primitive("lu", _lu_eval, _lu_emit, multiple_results=True)


def lu(x):
    """LU decomposition with partial pivoting, `P x = L U`
    (jax.lax.linalg.lu): `(lu, pivots, permutation)`, where `lu` holds L
    (unit diagonal, not stored) below its diagonal and U on and above it,
    `pivots` the row swapped with row i at step i, and `permutation` the
    rows of `x` in the order of `L @ U`."""
    lu_, pivots, permutation = bind(_lu_p, x)
    return lu_, pivots, permutation


class EigImplementation(enum.Enum):
    """jax.lax.linalg.EigImplementation: the eig kernel. mlax calls LAPACK
    (on CPU) whatever is asked; the GPU ones (cuSOLVER, MAGMA) are not
    built."""

    CUSOLVER = "cusolver"
    MAGMA = "magma"
    LAPACK = "lapack"


_EIG_DTYPES = _LU_DTYPES


def _eig_eval(x, *, compute_left, compute_right):
    name = "lax.linalg.eig"
    if x.ndim < 2:
        raise shape_error(name, f"needs an array of at least 2 dimensions (shape [..., n, n]), "
                                f"got shape {x.shape}", TypeError)
    if x.shape[-1] != x.shape[-2]:
        raise shape_error(name, f"needs square matrices (shape [..., n, n]), got shape "
                                f"{x.shape}", ValueError)
    if np.dtype(x.dtype) not in _EIG_DTYPES:
        # JAX: a TypeError for non-float dtypes, NotImplementedError (no
        # LAPACK kernel) for the narrow floats.
        narrow = dtypes.is_float(x.dtype) or dtypes.is_complex(x.dtype)
        raise shape_error(name, "supports " + ", ".join(d.name for d in _EIG_DTYPES)
                          + f", got {x.dtype.name}", NotImplementedError if narrow else TypeError)
    cdt = np.dtype(np.complex64) if np.dtype(x.dtype) in (np.float32, np.complex64) \
        else np.dtype(np.complex128)
    vectors = x.update(dtype=cdt, weak_type=False)
    return [vectors.update(shape=x.shape[:-1]), vectors, vectors]


def _eig_emit(values, avals, outs, *, compute_left, compute_right):
    # The lowering calls jaxlib's LAPACK geev kernel (as jax.lax.linalg.eig
    # on CPU does), which must be initialised before it runs.
    _prepare_lapack("geev_ffi", avals[0].dtype)
    op = _ops().EigOp(*(o.mlir_type() for o in outs), values[0],
                      ir.BoolAttr.get(bool(compute_left)), ir.BoolAttr.get(bool(compute_right)))
    return list(op.results)


_eig_p = Primitive("eig", _eig_eval, _eig_emit, multiple_results=True)


def _check_eig_implementation(implementation):
    if implementation is not None and EigImplementation(implementation) != \
            EigImplementation.LAPACK:
        raise NotImplementedError(
            f"lax.linalg.eig: implementation={implementation} is not supported; mlax "
            f"calls LAPACK (EigImplementation.LAPACK)")


def eig(x, *, compute_left_eigenvectors=True, compute_right_eigenvectors=True,
        enable_eigvec_derivs=False, implementation=None, use_magma=None):
    """Eigendecomposition of a general (nonsymmetric) matrix
    (jax.lax.linalg.eig): `[w, vl, vr]`, `vl` and `vr` only where asked for.
    All complex (complex64 for 32-bit input, complex128 for 64-bit), in
    LAPACK geev's order; each eigenvector has unit 2-norm and its largest
    component real. Where LAPACK fails, that batch element is NaN. Only
    LAPACK (CPU) is built. No derivative here: mlax._src.numpy.linalg.eig (the
public one) adds JAX's eigenvalue rule."""
    del enable_eigvec_derivs, use_magma
    _check_eig_implementation(implementation)
    w, vl, vr = bind(_eig_p, x, compute_left=bool(compute_left_eigenvectors),
                     compute_right=bool(compute_right_eigenvectors))
    out = [w]
    if compute_left_eigenvectors:
        out.append(vl)
    if compute_right_eigenvectors:
        out.append(vr)
    return out

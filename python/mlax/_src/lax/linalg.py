"""lax's linear algebra: dot_general, dot and batch_matmul with their
Precision and DotAlgorithm(Preset), and the primitives of jax.lax.linalg: cholesky, lu, eig,
triangular_solve, eigh, qr, geqrf and svd (the public wrappers of the last
five, which take array-likes and symmetrize, are in mlax._src.numpy.linalg).

Each primitive emits one mlax op whose C++ shape rule (MlaxLinalgOps.cpp)
gives its result types; Python checks the dtypes, as JAX phrases it, and
picks the exception class of each C++ diagnostic.
"""
from __future__ import annotations

import builtins
import enum
from typing import Any, NamedTuple, Sequence, Union

import numpy as np
from mlir import ir

from mlax._src.base import dtypes
from mlax._src.base import jaxlib_internals
from mlax._src.base.config import config
from mlax._src.backend import runtime
from mlax._src.core.primitives import Primitive, _ops, aval_of, bind, shape_error

from mlax._src.lax.elementwise import _convert_p, _i64_array, convert_element_type


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

class DotAlgorithm(NamedTuple):
    """jax.lax.DotAlgorithm: the operand storage types and the accumulation
    type a dot product computes with (for `precision=`). JAX's CPU lowering
    accepts none but the presets below, and neither does mlax."""

    lhs_precision_type: Any
    rhs_precision_type: Any
    accumulation_type: Any
    lhs_component_count: int = 1
    rhs_component_count: int = 1
    num_primitive_operations: int = 1
    allow_imprecise_accumulation: bool = False


class DotAlgorithmPreset(enum.Enum):
    """jax.lax.DotAlgorithmPreset: named dot algorithms (for `precision=`).

    mlax's dot_general op carries no algorithm. As JAX's CPU lowering does
    (XLA's CPU backend ignores the algorithm attribute), the operands are
    converted to the algorithm's storage types and the product is
    accumulated in its accumulation type, then converted back; the presets
    JAX does not accept on CPU are its ValueError. On other platforms XLA
    would honour the attribute (TF32 or bf16 passes), which mlax cannot
    express: any preset but DEFAULT is a NotImplementedError there."""

    DEFAULT = enum.auto()
    ANY_F8_ANY_F8_F32 = enum.auto()
    ANY_F8_ANY_F8_F32_FAST_ACCUM = enum.auto()
    ANY_F8_ANY_F8_ANY = enum.auto()
    ANY_F8_ANY_F8_ANY_FAST_ACCUM = enum.auto()
    F16_F16_F16 = enum.auto()
    F16_F16_F32 = enum.auto()
    BF16_BF16_BF16 = enum.auto()
    BF16_BF16_F32 = enum.auto()
    BF16_BF16_F32_X3 = enum.auto()
    BF16_BF16_F32_X6 = enum.auto()
    BF16_BF16_F32_X9 = enum.auto()
    TF32_TF32_F32 = enum.auto()
    TF32_TF32_F32_X3 = enum.auto()
    F32_F32_F32 = enum.auto()
    F64_F64_F64 = enum.auto()

    def __repr__(self):
        return f"{self.__class__.__name__}.{self.name}"

    def __str__(self):
        return self.name


# The presets JAX's CPU lowering accepts: (operand storage types, the first
# used when an operand has none of them; accumulation type), None: as given.
_CPU_PRESETS = {
    DotAlgorithmPreset.DEFAULT: (None, None),
    DotAlgorithmPreset.F16_F16_F16: ((np.float16,), np.float16),
    DotAlgorithmPreset.F32_F32_F32: ((np.float32,), np.float32),
    DotAlgorithmPreset.F64_F64_F64: ((np.float64,), np.float64),
    DotAlgorithmPreset.BF16_BF16_F32: ((dtypes.bfloat16, np.float32), np.float32),
    DotAlgorithmPreset.BF16_BF16_F32_X3: ((np.float32,), np.float32),
    DotAlgorithmPreset.BF16_BF16_F32_X6: ((np.float32,), np.float32),
}


def _dot_with_algorithm(lhs, rhs, algorithm, dimension_numbers, preferred_element_type):
    """dot_general with a DotAlgorithm(Preset), computed as JAX's CPU
    lowering computes it (see DotAlgorithmPreset)."""
    platform = runtime.lowering_platform(runtime.default_device())
    if platform == "cpu" and algorithm not in _CPU_PRESETS:
        raise ValueError(f"The precision '{algorithm}' is not supported by dot_general on CPU")
    if platform != "cpu" and algorithm != DotAlgorithmPreset.DEFAULT:
        raise NotImplementedError(
            f"dot_general precision {algorithm!r} on {platform}: mlax's dot_general carries no "
            "algorithm, and XLA would use it there")
    storage, accumulation = _CPU_PRESETS[algorithm]
    l_aval, r_aval = aval_of(lhs), aval_of(rhs)
    if storage is None or l_aval.dtype != r_aval.dtype:  # (the latter: dot_general's error)
        return dot_general(lhs, rhs, dimension_numbers,
                           preferred_element_type=preferred_element_type)
    out_dtype = (dtypes.canonicalize(preferred_element_type) if preferred_element_type
                 else l_aval.dtype)
    weak = l_aval.weak_type and r_aval.weak_type and not preferred_element_type
    common = l_aval.dtype if l_aval.dtype in storage else np.dtype(storage[0])
    acc = np.dtype(accumulation)
    if algorithm == DotAlgorithmPreset.BF16_BF16_F32 and common == out_dtype == dtypes.bfloat16:
        acc = common  # (a bf16 output is this preset's, with bf16 operands)
    # (Not canonicalized: F64_F64_F64 computes in float64 without x64, as
    # JAX's lowering does.)
    lhs, rhs = (bind(_convert_p, x, new_dtype=common, weak_type=False) for x in (lhs, rhs))
    (lc, rc), (lb, rb) = dimension_numbers
    dn = ((tuple(int(d) for d in lc), tuple(int(d) for d in rc)),
          (tuple(int(d) for d in lb), tuple(int(d) for d in rb)))
    result = bind(_dot_general_p, lhs, rhs, dimension_numbers=dn,
                  preferred_element_type=None if acc == common else acc)
    return bind(_convert_p, result, new_dtype=out_dtype, weak_type=weak)


PrecisionLike = Union[None, str, Precision, tuple[str, str], tuple[Precision, Precision],
                      DotAlgorithm, DotAlgorithmPreset]
DotDimensionNumbers = tuple[tuple[Sequence[int], Sequence[int]],
                            tuple[Sequence[int], Sequence[int]]]


def canonicalize_precision(precision):
    """`precision` as None or a (lhs, rhs) pair of Precision, as jax.lax
    reads it; anything else is a ValueError. The mlax ops carry no precision
    config, so XLA's default applies whatever is asked (the same on CPU)."""
    if precision is None:
        default = config.jax_default_matmul_precision
        return None if default is None else canonicalize_precision(default)
    if isinstance(precision, str) and precision in _PRECISION_STRINGS:
        return Precision(precision), Precision(precision)
    if isinstance(precision, str) and precision in DotAlgorithmPreset.__members__:
        return DotAlgorithmPreset[precision]
    if isinstance(precision, (DotAlgorithm, DotAlgorithmPreset)):
        return precision
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
        "- a tuple of two lax.Precision values or strings,\n"
        "- a lax.DotAlgorithmPreset or the name of one of these presets, or\n"
        f"- a lax.DotAlgorithm value;\ngot {precision}.")


def _dot_general_check(lhs, rhs, *, dimension_numbers, preferred_element_type):
    if lhs.dtype != rhs.dtype:
        raise shape_error("lax.dot_general", f"requires operands of one dtype, got "
                          f"{lhs.dtype.name} and {rhs.dtype.name}")


def _dot_general_emit(values, avals, *, dimension_numbers, preferred_element_type):
    # The result's element type is the operands' or the preferred one (the
    # op's attribute; dot_general leaves it out when it is the operands').
    (lc, rc), (lb, rb) = dimension_numbers
    preferred = None
    if preferred_element_type is not None and preferred_element_type != avals[0].dtype:
        preferred = ir.TypeAttr.get(dtypes.mlir_element_type(preferred_element_type))
    return _ops().DotGeneralOp(values[0], values[1], _i64_array(lb), _i64_array(rb),
                               _i64_array(lc), _i64_array(rc),
                               preferred_element_type=preferred).result


_dot_general_p = Primitive(
    "dot_general", _dot_general_emit, check=_dot_general_check,
    weak_type=lambda lhs, rhs, *, preferred_element_type, **_: (
        lhs.weak_type and rhs.weak_type and preferred_element_type is None))


def dot_general(lhs, rhs, dimension_numbers, precision=None, preferred_element_type=None):
    precision = canonicalize_precision(precision)
    if isinstance(precision, (DotAlgorithm, DotAlgorithmPreset)):
        return _dot_with_algorithm(lhs, rhs, precision, dimension_numbers,
                                   preferred_element_type)
    (lc, rc), (lb, rb) = dimension_numbers
    dn = ((tuple(int(d) for d in lc), tuple(int(d) for d in rc)),
          (tuple(int(d) for d in lb), tuple(int(d) for d in rb)))
    pet = dtypes.canonicalize(preferred_element_type) if preferred_element_type else None
    la, ra = aval_of(lhs), aval_of(rhs)
    if la.dtype != ra.dtype:
        # Operands of two dtypes (as JAX takes them): both convert to the more
        # precise one, as XLA's dot computes them.
        common = _more_precise(la.dtype, ra.dtype)
        lhs = convert_element_type(lhs, common, weak_type=la.weak_type)
        rhs = convert_element_type(rhs, common, weak_type=ra.weak_type)
    if pet is not None:
        ldt, rdt = aval_of(lhs).dtype, aval_of(rhs).dtype
        if not dtypes.is_float(ldt) and _bit_width(pet) < _bit_width(ldt):
            raise shape_error("lax.dot_general", "`preferred_element_type` must not be "
                              f"narrower than the original type, got {pet.name} for operands "
                              f"of {ldt.name}")
        if ldt == rdt and _dtype_kind(pet) != _dtype_kind(ldt):
            # The op only widens within a kind (i8 x i8 -> i32); for another kind
            # (i8 x i8 -> f32, as JAX allows) convert the operands first.
            lhs = convert_element_type(lhs, pet)
            rhs = convert_element_type(rhs, pet)
    return bind(_dot_general_p, lhs, rhs, dimension_numbers=dn, preferred_element_type=pet)


def _bit_width(dt):
    if dtypes.is_bool(dt):
        return 1
    part = dtypes.real_part(dt)
    return dtypes.finfo(part).bits if dtypes.is_float(part) else dtypes.iinfo(part).bits


def _more_precise(a, b):
    """The dtype of a dot of an `a` and a `b` operand: JAX's rule (XLA's
    HigherPrecisionType): complex over real, then the larger exponent range,
    the longer mantissa, the wider type, signed over unsigned."""
    def rank(dt):
        part = dtypes.real_part(dt)
        floating = dtypes.is_float(part)
        return (dtypes.is_complex(dt), dtypes.finfo(part).maxexp if floating else -1,
                dtypes.finfo(part).nmant if floating else -1, _bit_width(dt),
                not (dtypes.is_int(dt) and not dtypes.is_signed_int(dt)))
    if rank(a) == rank(b):
        raise shape_error("lax.dot_general", f"operands of dtypes {a.name} and {b.name} "
                          "have no common type")
    return a if rank(a) > rank(b) else b


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


# f32, f64, complex64, complex128: the dtypes LAPACK has kernels for.
_LINALG_DTYPES = (np.dtype(np.float32), np.dtype(np.float64), np.dtype(np.complex64),
                  np.dtype(np.complex128))


def _check_dtype(name, x, supported=_LINALG_DTYPES, exc=TypeError):
    """The dtype check of a linalg primitive, as JAX phrases it; the shape
    checks are the op's C++ rule."""
    if np.dtype(x.dtype) not in supported:
        raise shape_error(name, "supports " + ", ".join(d.name for d in supported)
                          + f", got {x.dtype.name}", exc)


def _linalg_primitive(name, emit, errors=None, check=None, multiple_results=True):
    """A primitive of jax.lax.linalg: its results are never weak, and a C++
    diagnostic is a TypeError unless `errors` names another class. `check`
    defaults to the LAPACK dtypes' check."""
    label = f"lax.linalg.{name}"
    if check is None:
        def check(x, **params):
            _check_dtype(label, x)
    return Primitive(name, emit, multiple_results=multiple_results,
                     check=check, weak_type=lambda *avals, **params: False,
                     errors=errors or {}, label=lambda params: label)


def _bool(v):
    return ir.BoolAttr.get(bool(v))


# The C++ rule's messages for a vector and for a non-square matrix.
_NOT_MATRIX = "needs an array of at least 2"
_NOT_SQUARE = "needs square matrices"


def _cholesky_emit(values, avals):
    # The lowering calls jaxlib's LAPACK potrf kernel (as jnp.linalg.cholesky
    # on CPU does), which must be initialised before it runs.
    _prepare_lapack("potrf_ffi", avals[0].dtype)
    return _ops().CholeskyOp(values[0]).result


_cholesky_p = _linalg_primitive("cholesky", _cholesky_emit, errors={_NOT_SQUARE: ValueError},
                                multiple_results=False)


def cholesky(x):
    """Lower Cholesky factor of the symmetrised matrix (jax.lax.linalg.cholesky)."""
    return bind(_cholesky_p, x)


def _lu_emit(values, avals):
    # The lowering calls jaxlib's LAPACK getrf kernel (as jax.lax.linalg.lu
    # on CPU does), which must be initialised before it runs.
    _prepare_lapack("getrf_ffi", avals[0].dtype)
    return list(_ops().LuOp(values[0]).results)


_lu_p = _linalg_primitive("lu", _lu_emit)  # JAX: a vector is a TypeError too


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


def _eig_check(x, *, compute_left, compute_right):
    # JAX: a TypeError for non-float dtypes, NotImplementedError (no LAPACK
    # kernel) for the narrow floats.
    narrow = dtypes.is_float(x.dtype) or dtypes.is_complex(x.dtype)
    _check_dtype("lax.linalg.eig", x, exc=NotImplementedError if narrow else TypeError)


def _eig_emit(values, avals, *, compute_left, compute_right):
    # The lowering calls jaxlib's LAPACK geev kernel (as jax.lax.linalg.eig
    # on CPU does), which must be initialised before it runs.
    _prepare_lapack("geev_ffi", avals[0].dtype)
    return list(_ops().EigOp(values[0], _bool(compute_left), _bool(compute_right)).results)


# JAX: a vector is a TypeError, a non-square matrix a ValueError.
_eig_p = _linalg_primitive("eig", _eig_emit, errors={_NOT_SQUARE: ValueError},
                           check=_eig_check)


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
    public one) adds JAX's eigenvalue rule and, under enable_eigvec_derivs,
    its eigenvector rule."""
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


# ---------------------------------------------------------------------------
# triangular_solve, eigh, qr, geqrf, svd (public wrappers: numpy/linalg.py)
# ---------------------------------------------------------------------------

_TRANSPOSE = {"none": 0, "transpose": 1, "adjoint": 2}

# JAX: a vector or a non-square matrix is a ValueError, a wrong dtype or a
# misfit of shapes a TypeError.
_SHAPE_ERRORS = {_NOT_MATRIX: ValueError, _NOT_SQUARE: ValueError}


def _triangular_solve_check(a, b, *, left_side, lower, unit_diagonal, transpose):
    name = "lax.linalg.triangular_solve"
    _check_dtype(name, a)
    _check_dtype(name, b)
    if a.dtype != b.dtype:
        raise shape_error(name, f"needs a and b of one dtype, got {a.dtype.name} and "
                          f"{b.dtype.name}")


def _triangular_solve_emit(values, avals, *, left_side, lower, unit_diagonal, transpose):
    # On CPU the lowering calls jaxlib's LAPACK trsm kernel: initialised here,
    # or a process whose first LAPACK call this is crashes in the kernel.
    _prepare_lapack("trsm_ffi", avals[0].dtype)
    kind = ir.IntegerAttr.get(ir.IntegerType.get_signless(32), _TRANSPOSE[transpose])
    return _ops().TriangularSolveOp(values[0], values[1], _bool(left_side), _bool(lower),
                                    _bool(unit_diagonal), kind).result


_triangular_solve_p = Primitive(
    "triangular_solve", _triangular_solve_emit, check=_triangular_solve_check,
    weak_type=lambda *avals, **params: False, errors=_SHAPE_ERRORS,
    label=lambda params: "lax.linalg.triangular_solve")


def _eigh_emit(values, avals, *, lower):
    prefix = "he" if dtypes.is_complex(avals[0].dtype) else "sy"
    _prepare_lapack(f"{prefix}evd_ffi", avals[0].dtype)
    return list(_ops().EighOp(values[0], _bool(lower)).results)


_eigh_p = _linalg_primitive("eigh", _eigh_emit, errors=_SHAPE_ERRORS)


def _qr_emit(values, avals, *, full_matrices):
    dt = avals[0].dtype
    _prepare_lapack("geqrf_ffi", dt)
    _prepare_lapack(("un" if dtypes.is_complex(dt) else "or") + "gqr_ffi", dt)
    return list(_ops().QrOp(values[0], _bool(full_matrices)).results)


_qr_p = _linalg_primitive("qr", _qr_emit, errors=_SHAPE_ERRORS)


def _geqrf_emit(values, avals):
    _prepare_lapack("geqrf_ffi", avals[0].dtype)
    return list(_ops().GeqrfOp(values[0]).results)


_geqrf_p = _linalg_primitive("geqrf", _geqrf_emit, errors=_SHAPE_ERRORS)


def _geqp3_emit(values, avals):
    _prepare_lapack("geqp3_ffi", avals[0].dtype)
    return list(_ops().Geqp3Op(values[0], values[1]).results)


def _geqp3_check(x, jpvt):
    _check_dtype("lax.linalg.geqp3", x)
    if np.dtype(jpvt.dtype) != np.int32:
        raise shape_error("lax.linalg.geqp3", f"needs int32 jpvt, got {jpvt.dtype.name}",
                          TypeError)


_geqp3_p = _linalg_primitive("geqp3", _geqp3_emit, errors=_SHAPE_ERRORS, check=_geqp3_check)


def _svd_emit(values, avals, *, full_matrices):
    _prepare_lapack("gesdd_ffi", avals[0].dtype)
    return list(_ops().SvdOp(values[0], _bool(full_matrices)).results)


_svd_p = _linalg_primitive("svd", _svd_emit, errors=_SHAPE_ERRORS)


# ---------------------------------------------------------------------------
# schur, hessenberg, tridiagonal, householder_product, tridiagonal_solve
# ---------------------------------------------------------------------------

def _lapack_float_check(name):
    """JAX's dtype check of a LAPACK-only primitive: a TypeError for
    non-inexact dtypes, NotImplementedError (no LAPACK kernel) for the
    narrow floats."""
    label = f"lax.linalg.{name}"

    def check(*avals, **params):
        for x in avals:
            narrow = dtypes.is_float(x.dtype) or dtypes.is_complex(x.dtype)
            _check_dtype(label, x, exc=NotImplementedError if narrow else TypeError)
        if len({np.dtype(x.dtype) for x in avals}) > 1:
            raise shape_error(label, "needs operands of one dtype, got "
                              + ", ".join(x.dtype.name for x in avals))
    return check


def _schur_emit(values, avals, *, compute_schur_vectors):
    _prepare_lapack("gees_ffi", avals[0].dtype)
    return list(_ops().SchurOp(values[0], _bool(compute_schur_vectors)).results)


# JAX: a vector is a TypeError, a non-square matrix a ValueError.
_schur_p = _linalg_primitive("schur", _schur_emit, errors={_NOT_SQUARE: ValueError},
                             check=_lapack_float_check("schur"))


def schur(x, *, compute_schur_vectors=True, sort_eig_vals=False, select_callable=None):
    """Schur decomposition `x = q t q^H` (jax.lax.linalg.schur): `[t, q]`,
    or `[t]` without compute_schur_vectors. LAPACK gees (CPU), unsorted:
    `t` is upper triangular for complex input and quasi upper triangular
    (2x2 blocks for complex conjugate pairs) for real input. Not
    differentiable, as in JAX."""
    del select_callable  # (unused, as in JAX)
    if sort_eig_vals:
        raise NotImplementedError(
            "The sort feature of LAPACK's gees routine is not implemented.")
    t, q = bind(_schur_p, x, compute_schur_vectors=bool(compute_schur_vectors))
    return [t, q] if compute_schur_vectors else [t]  # (lists, as JAX's)


def _hessenberg_emit(values, avals):
    _prepare_lapack("gehrd_ffi", avals[0].dtype)
    return list(_ops().HessenbergOp(values[0]).results)


_hessenberg_p = _linalg_primitive("hessenberg", _hessenberg_emit,
                                  errors={_NOT_SQUARE: ValueError},
                                  check=_lapack_float_check("hessenberg"))


def hessenberg(a):
    """Reduction to upper Hessenberg form (jax.lax.linalg.hessenberg):
    `[a, taus]`, `a`'s upper triangle and first subdiagonal the Hessenberg
    matrix, below them the Householder vectors whose scale factors are
    `taus` (LAPACK gehrd, CPU)."""
    h, taus = bind(_hessenberg_p, a)
    return [h, taus]  # (a list, as JAX's)


def _tridiagonal_emit(values, avals, *, lower):
    prefix = "he" if dtypes.is_complex(avals[0].dtype) else "sy"
    _prepare_lapack(f"{prefix}trd_ffi", avals[0].dtype)
    return list(_ops().TridiagonalOp(values[0], _bool(lower)).results)


_tridiagonal_p = _linalg_primitive(
    "tridiagonal", _tridiagonal_emit,
    errors={_NOT_SQUARE: ValueError, "of at least one row": ValueError},
    check=_lapack_float_check("tridiagonal"))


def tridiagonal(a, *, lower=True):
    """Reduction of a symmetric (Hermitian) matrix to tridiagonal form
    (jax.lax.linalg.tridiagonal), reading its `lower` (or upper) triangle:
    `[a, d, e, taus]`, the diagonal `d` and off-diagonal `e` real (LAPACK
    sytrd/hetrd, CPU)."""
    r, d, e, taus = bind(_tridiagonal_p, a, lower=bool(lower))
    return [r, d, e, taus]  # (a list, as JAX's)


def _householder_product_emit(values, avals):
    prefix = "un" if dtypes.is_complex(avals[0].dtype) else "or"
    _prepare_lapack(f"{prefix}gqr_ffi", avals[0].dtype)
    return _ops().HouseholderProductOp(values[0], values[1]).result


_householder_product_p = _linalg_primitive(
    "householder_product", _householder_product_emit,
    errors={"at least as many rows": ValueError, "at most as many taus": ValueError,
            "batch dimensions": ValueError},
    check=_lapack_float_check("householder_product"), multiple_results=False)


def householder_product(a, taus):
    """The first columns of the product of the Householder reflectors stored
    below `a`'s diagonal, scaled by `taus` (jax.lax.linalg.householder_product;
    LAPACK orgqr/ungqr). `a` is `[..., m, n]` with m >= n, `taus`
    `[..., k]` with k <= n."""
    return bind(_householder_product_p, a, taus)


def _tridiagonal_solve_emit(values, avals, *, perturb_singular):
    if perturb_singular:
        jaxlib_internals.register_lapack_kernels()
    else:
        _prepare_lapack("gtsv_ffi", avals[3].dtype)
    return _ops().TridiagonalSolveOp(*values, _bool(perturb_singular)).result


# JAX: every misfit of shapes is a TypeError.
_tridiagonal_solve_p = _linalg_primitive(
    "tridiagonal_solve", _tridiagonal_solve_emit,
    check=_lapack_float_check("tridiagonal_solve"), multiple_results=False)


def tridiagonal_solve(dl, d, du, b, *, perturb_singular=False):
    """Solves the tridiagonal system `a x = b` (jax.lax.linalg.tridiagonal_solve):
    `dl`, `d`, `du` (each `[..., m]`) the diagonals below, on and above
    (`dl[0]` and `du[m - 1]` not read), `b` `[..., m, n]`. LAPACK gtsv
    (CPU); a singular matrix gives NaNs, unless `perturb_singular`, which
    perturbs tiny pivots (jaxlib's kernel, as JAX's)."""
    return bind(_tridiagonal_solve_p, dl, d, du, b, perturb_singular=bool(perturb_singular))

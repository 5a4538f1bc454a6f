"""mlax.numpy: NumPy's API on mlax arrays (import as `mnp`)."""
import numpy as _np

from mlax._src.core.array import Array as ndarray  # noqa: F401
from mlax._src.numpy.scalar_types import (  # noqa: F401
    bfloat16, bool_, complex64, complex128, float16, float32, float64, int8, int16, int32,
    int64, uint8, uint16, uint32, uint64)
from mlax._src.numpy.lax_numpy import (  # noqa: F401
    abs, absolute, add, all, amax, amin, any, arange, arctan2, around, array, asarray, astype,
    bitwise_and, bitwise_not, bitwise_or, bitwise_xor, broadcast_shapes, broadcast_to, ceil,
    clip, concatenate, cos, divide, dot, empty, equal, exp, expand_dims, expm1, eye, floor,
    floor_divide, fmod, full, full_like, greater, greater_equal, identity, inner, invert,
    isfinite, isinf, isnan, less, less_equal, linspace, log, log1p, logical_and, logical_not,
    logical_or, logical_xor, matmul, max, maximum, mean, min, minimum, mod, multiply, negative,
    not_equal, ones, ones_like, outer, positive, power, prod, ravel, reciprocal, remainder,
    reshape, round, sign, sin, sqrt, square, squeeze, stack, std, subtract, sum, swapaxes, tan,
    tanh, transpose, true_divide, trunc, var, vdot, where, zeros, zeros_like)

bool = bool_  # noqa: A001
pi = _np.pi
e = _np.e
inf = _np.inf
nan = _np.nan
newaxis = None
dtype = _np.dtype
from mlax._src.numpy.manipulation import (  # noqa: F401,E402
    allclose, argmax, argmin, argsort, argwhere, array_split, atleast_1d, atleast_2d,
    atleast_3d, column_stack, count_nonzero, cumprod, cumsum, cumulative_sum, diagonal, dstack,
    einsum, flatnonzero, flip, fliplr, flipud, hstack, hypot, isclose, logaddexp, meshgrid,
    nan_to_num, nonzero, repeat, roll, searchsorted, sort, split, take, take_along_axis,
    tensordot, tile, trace, tri, tril, triu, vstack)
from mlax._src.numpy.statistics import (  # noqa: F401,E402
    array_equal, array_equiv, average, bincount, corrcoef, cov, cross, diag, diff, digitize,
    ediff1d, empty_like, geomspace, histogram, histogram_bin_edges, interp, kron, logspace,
    median, moveaxis, nanargmax, nanargmin, nancumprod, nancumsum, nanmax, nanmean, nanmedian,
    nanmin, nanpercentile, nanprod, nanquantile, nanstd, nansum, nanvar, pad, percentile,
    polyval, quantile, rot90, select, unique)
from mlax.numpy import linalg  # noqa: F401,E402
from mlax.numpy import fft  # noqa: F401,E402
from mlax._src.numpy.convolution import convolve, correlate  # noqa: F401,E402
from mlax._src.numpy.ufuncs import (  # noqa: F401,E402
    acos, acosh, angle, arccos, arccosh, arcsin, arcsinh, arctan, arctanh, asin, asinh, atan,
    atan2, atanh, bitwise_count, bitwise_invert, bitwise_left_shift, bitwise_right_shift, cbrt,
    conj, conjugate, copysign, cosh, cumulative_prod, deg2rad, degrees, divmod, exp2, fabs,
    float_power, fmax, fmin, frexp, gcd, heaviside, imag, iscomplex, iscomplexobj, isneginf,
    isposinf, isreal, isrealobj, lcm, ldexp, left_shift, log2, log10, logaddexp2, modf, pow,
    ptp, rad2deg, radians, real, right_shift, rint, signbit, sinc, sinh, spacing)
from mlax._src.numpy.library import (  # noqa: F401,E402
    append, argpartition, block, broadcast_arrays, can_cast, choose, compress, concat, copy,
    delete, diagflat, dsplit, extract, fill_diagonal, finfo, gradient, hsplit, iinfo, insert,
    isdtype, isscalar, issubdtype, iterable, lexsort, matrix_transpose, matvec, ndim, partition,
    permute_dims, promote_types, resize, result_type, rollaxis, shape, size, sort_complex,
    trapezoid, trim_zeros, unstack, unwrap, vecdot, vecmat, vsplit)
from mlax._src.numpy.index_tricks import (  # noqa: F401,E402
    c_, diag_indices, diag_indices_from, index_exp, indices, ix_, mask_indices, mgrid, ogrid,
    r_, ravel_multi_index, s_, tril_indices, tril_indices_from, triu_indices, triu_indices_from,
    unravel_index)
from mlax._src.numpy.setops import (  # noqa: F401,E402
    intersect1d, isin, setdiff1d, setxor1d, union1d, unique_all, unique_counts, unique_inverse,
    unique_values)
from mlax._src.numpy.polynomial import (  # noqa: F401,E402
    poly, polyadd, polyder, polydiv, polyfit, polyint, polymul, polysub, vander)
from mlax._src.numpy.window_functions import (  # noqa: F401,E402
    bartlett, blackman, hamming, hanning)
from mlax._src.numpy.vectorize import (  # noqa: F401,E402
    apply_along_axis, apply_over_axes, fromfunction, piecewise, vectorize)
# NumPy's abstract scalar types and aliases, as jax.numpy re-exports them.
from numpy import (  # noqa: F401,E402
    character, complexfloating, flexible, floating, generic, inexact, integer, number,
    signedinteger, unsignedinteger)
float_ = float64
complex_ = complex128
int_ = int64
uint = uint64
single = float32
double = float64
csingle = complex64
cdouble = complex128

"""mlax.numpy: NumPy's API on mlax arrays (import as `mnp`)."""
import numpy as _np

from mlax._src.core.basearray import Array as ndarray  # noqa: F401
from mlax._src.numpy.scalar_types import (  # noqa: F401
    bfloat16, bool_, complex64, complex128, float16, float32, float64, int8, int16, int32,
    int64, uint8, uint16, uint32, uint64,
    float4_e2m1fn, float8_e3m4, float8_e4m3, float8_e4m3b11fnuz, float8_e4m3fn,
    float8_e4m3fnuz, float8_e5m2, float8_e5m2fnuz, float8_e8m0fnu, int4, uint4)
from mlax._src.numpy.ufuncs import (  # noqa: F401
    abs, absolute, acos, acosh, add, angle, arccos, arccosh, arcsin, arcsinh, arctan, arctan2,
    arctanh, around, asin, asinh, atan, atan2, atanh, bitwise_and, bitwise_count,
    bitwise_invert, bitwise_left_shift, bitwise_not, bitwise_or, bitwise_right_shift,
    bitwise_xor, cbrt, ceil, clip, conj, conjugate, copysign, cos, cosh, deg2rad, degrees,
    divide, divmod, equal, exp, exp2, expm1, fabs, float_power, floor, floor_divide, fmax,
    fmin, fmod, frexp, gcd, greater, greater_equal, heaviside, hypot, imag, invert, iscomplex,
    iscomplexobj, isfinite, isinf, isnan, isneginf, isposinf, isreal, isrealobj, lcm, ldexp,
    left_shift, less, less_equal, log, log10, log1p, log2, logaddexp, logaddexp2, logical_and,
    logical_not, logical_or, logical_xor, maximum, minimum, mod, modf, multiply, negative,
    not_equal, positive, pow, power, rad2deg, radians, real, reciprocal, remainder,
    right_shift, rint, round, sign, signbit, sin, sinc, sinh, spacing, sqrt, square, subtract,
    tan, tanh, true_divide, trunc, i0, nextafter)
# jax.numpy's ufunc objects replace the plain functions of the same names.
from mlax._src.numpy.ufunc_api import frompyfunc, ufunc  # noqa: F401,E402
from mlax._src.numpy.ufunc_objects import (  # noqa: F401,E402
    add, bitwise_and, bitwise_or, bitwise_xor, logaddexp, logaddexp2, logical_and, logical_or,
    logical_xor, maximum, minimum, multiply, negative, subtract)
from mlax._src.numpy.reductions import (  # noqa: F401,E402
    all, amax, amin, any, cumprod, cumsum, cumulative_prod, cumulative_sum, max, mean, min,
    prod, ptp, std, sum, var)
from mlax._src.numpy.array_creation import arange, eye, identity, linspace  # noqa: F401,E402
from mlax._src.numpy.lax_numpy import (  # noqa: F401,E402
    array, asarray, astype, broadcast_to, concatenate, empty, expand_dims, full, full_like,
    ones, ones_like, ravel, reshape, squeeze, stack, swapaxes, transpose, where, zeros,
    zeros_like)
from mlax._src.numpy.util import broadcast_shapes  # noqa: F401,E402
from mlax._src.numpy.tensor_contractions import (  # noqa: F401,E402
    dot, einsum_path, inner, matmul, outer, vdot)

bool = bool_  # noqa: A001
pi = _np.pi
e = _np.e
inf = _np.inf
nan = _np.nan
newaxis = None
dtype = _np.dtype
from mlax._src.numpy.manipulation import (  # noqa: F401,E402
    allclose, argmax, argmin, argsort, argwhere, array_split, atleast_1d, atleast_2d,
    atleast_3d, column_stack, count_nonzero, diagonal, dstack, einsum, flatnonzero, flip,
    fliplr, flipud, hstack, isclose, meshgrid, nan_to_num, nonzero, repeat, roll, searchsorted,
    sort, split, take, take_along_axis, tensordot, tile, trace, tri, tril, triu, vstack)
from mlax._src.numpy.statistics import (  # noqa: F401,E402
    array_equal, array_equiv, average, bincount, corrcoef, cov, cross, diag, diff, digitize,
    ediff1d, empty_like, geomspace, histogram, histogram_bin_edges, interp, kron, logspace,
    median, moveaxis, nanargmax, nanargmin, nancumprod, nancumsum, nanmax, nanmean, nanmedian,
    nanmin, nanpercentile, nanprod, nanquantile, nanstd, nansum, nanvar, pad, percentile,
    quantile, rot90, select)
from mlax._src.numpy.histograms import histogram2d, histogramdd  # noqa: F401,E402
from mlax._src.numpy.polynomial import (  # noqa: F401,E402
    poly, polyadd, polyder, polydiv, polyfit, polyint, polymul, polysub, polyval, roots,
    vander)
from mlax._src.numpy.setops import (  # noqa: F401,E402
    intersect1d, isin, setdiff1d, setxor1d, union1d, unique, unique_all, unique_counts,
    unique_inverse, unique_values)
from mlax.numpy import linalg  # noqa: F401,E402
from mlax.numpy import fft  # noqa: F401,E402
from mlax._src.numpy.convolution import convolve, correlate  # noqa: F401,E402
from mlax._src.numpy.library import (  # noqa: F401,E402
    append, argpartition, block, broadcast_arrays, can_cast, choose, compress, concat, copy,
    delete, diagflat, dsplit, extract, fill_diagonal, finfo, gradient, hsplit, iinfo, insert,
    isdtype, isscalar, iterable, lexsort, matrix_transpose, matvec, ndim,
    partition, permute_dims, promote_types, resize, result_type, rollaxis, shape, size,
    sort_complex, trapezoid, trim_zeros, unstack, unwrap, vecdot, vecmat, vsplit)
from mlax._src.numpy.library import issubdtype  # noqa: F401,E402
from mlax._src.numpy.index_tricks import (  # noqa: F401,E402
    c_, diag_indices, diag_indices_from, index_exp, indices, ix_, mask_indices, mgrid, ogrid,
    r_, ravel_multi_index, s_, tril_indices, tril_indices_from, triu_indices,
    triu_indices_from, unravel_index)
from mlax._src.numpy.window_functions import (  # noqa: F401,E402
    bartlett, blackman, hamming, hanning, kaiser)
from mlax._src.numpy.vectorize import (  # noqa: F401,E402
    apply_along_axis, apply_over_axes, fromfunction, piecewise, vectorize)
# NumPy's abstract scalar types and aliases, as jax.numpy re-exports them.
from numpy import (  # noqa: F401,E402
    character, complexfloating, flexible, floating, generic, inexact, integer, number, object_,
    signedinteger, unsignedinteger)
float_ = float64
complex_ = complex128
int_ = int64
uint = uint64
single = float32
double = float64
csingle = complex64
cdouble = complex128
from mlax._src.numpy.bits_and_updates import (  # noqa: F401,E402
    packbits, place, put, put_along_axis, unpackbits)
from mlax._src.numpy.io import (  # noqa: F401,E402
    ComplexWarning, array_repr, array_str, euler_gamma, from_dlpack, frombuffer, fromfile,
    fromiter, fromstring, get_printoptions, load, printoptions, save, savez, set_printoptions)


def _refuse_list_arguments():
    """As jax.numpy's (its ensure_arraylike): these refuse a Python list or
    tuple where an array goes (mnp.sort([3, 1]) is a TypeError; wrap it with
    mnp.array)."""
    from mlax._src.numpy.util import _refuse_lists
    table = {
        "sort": ("a",), "argsort": ("a",), "cumsum": ("a",), "cumprod": ("a",),
        "nancumsum": ("a",), "nancumprod": ("a",), "diff": ("a",), "argmax": ("a",),
        "argmin": ("a",), "nanargmax": ("a",), "nanargmin": ("a",), "unique": ("ar",),
        "flip": ("m",), "fliplr": ("m",), "flipud": ("m",), "roll": ("a",),
        "reshape": ("a",), "ravel": ("a",), "expand_dims": ("a",), "squeeze": ("a",),
        "take": ("a", "indices"), "nonzero": ("a",), "flatnonzero": ("a",),
        "searchsorted": ("a", "v"), "outer": ("a", "b"), "kron": ("a", "b"),
        "cross": ("a", "b"), "tile": ("A",), "repeat": ("a",), "pad": ("array",),
        "cov": ("m",), "corrcoef": ("x",), "bincount": ("x",), "tril": ("m",),
        "triu": ("m",), "trace": ("a",), "diagonal": ("a",), "lexsort": ("*keys",),
        "nanmax": ("a",), "nanmin": ("a",), "nansum": ("a",), "nanprod": ("a",),
        "nanmean": ("a",), "nanvar": ("a",), "nanstd": ("a",), "ptp": ("a",),
        "count_nonzero": ("a",), "ediff1d": ("ary",), "digitize": ("x", "bins"),
        "vander": ("x",), "roots": ("p",), "polyval": ("p", "x"),
        "interp": ("x", "xp", "fp"), "histogram": ("a",), "trapezoid": ("y",),
        "isclose": ("a", "b"), "allclose": ("a", "b"), "delete": ("arr",),
        "insert": ("arr",), "append": ("arr", "values"), "stack": ("*arrays",),
        "concatenate": ("*arrays",), "atleast_1d": ("*arys",), "atleast_2d": ("*arys",),
        "atleast_3d": ("*arys",), "rot90": ("m",),
        "moveaxis": ("a",), "swapaxes": ("a",), "transpose": ("a",),
        "take_along_axis": ("arr", "indices"), "argwhere": ("a",), "partition": ("a",),
        "argpartition": ("a",), "trim_zeros": ("filt",), "unwrap": ("p",),
    }
    g = globals()
    for fname, params in table.items():
        g[fname] = _refuse_lists(g[fname], fname, params)


_refuse_list_arguments()
del _refuse_list_arguments

from mlax._src.numpy import array_api_metadata as _array_api  # noqa: E402
from mlax._src.numpy.array_api_metadata import (  # noqa: E402,F401
    __array_api_version__, __array_namespace_info__)

_array_api._namespace = __import__("sys").modules[__name__]  # Array.__array_namespace__()
del _array_api

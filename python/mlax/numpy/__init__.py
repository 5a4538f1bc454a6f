"""mlax.numpy: NumPy's API on mlax arrays (import as `mnp`)."""
import numpy as _np

from mlax._src.array import Array as ndarray  # noqa: F401
from mlax._src.dtypes import (  # noqa: F401
    bfloat16, bool_, complex64, complex128, float16, float32, float64, int8, int16, int32,
    int64, uint8, uint16, uint32, uint64)
from mlax._src.numpy_impl import (  # noqa: F401
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
from mlax._src.numpy_composite import (  # noqa: F401,E402
    allclose, argmax, argmin, argsort, argwhere, array_split, atleast_1d, atleast_2d,
    atleast_3d, column_stack, count_nonzero, cumprod, cumsum, cumulative_sum, diagonal, dstack,
    einsum, flatnonzero, flip, fliplr, flipud, hstack, hypot, isclose, logaddexp, meshgrid,
    nan_to_num, nonzero, repeat, roll, searchsorted, sort, split, take, take_along_axis,
    tensordot, tile, trace, tri, tril, triu, vstack)
from mlax._src.numpy_extra import (  # noqa: F401,E402
    array_equal, array_equiv, average, bincount, corrcoef, cov, cross, diag, diff, digitize,
    ediff1d, empty_like, geomspace, histogram, histogram_bin_edges, interp, kron, logspace,
    median, moveaxis, nanargmax, nanargmin, nancumprod, nancumsum, nanmax, nanmean, nanmedian,
    nanmin, nanpercentile, nanprod, nanquantile, nanstd, nansum, nanvar, pad, percentile,
    polyval, quantile, rot90, select, unique)
from mlax.numpy import linalg  # noqa: F401,E402
from mlax._src.numpy_conv import convolve, correlate  # noqa: F401,E402

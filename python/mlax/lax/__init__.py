"""mlax.lax: the strict primitive layer, one function per mlax op."""
from mlax._src.lax.lax import (  # noqa: F401
    RoundingMethod, abs, add, atan2, bitwise_and, bitwise_not, bitwise_or, bitwise_xor,
    broadcast, broadcast_in_dim, broadcasted_iota, ceil, concatenate, convert_element_type,
    cos, div, dot, dot_general, eq, exp, expm1, floor, full, full_like, ge, gt, iota,
    is_finite, le, log, log1p, logistic, lt, max, min, mul, ne, neg, pad, pow, reduce_and,
    reduce_max, reduce_min, reduce_or, reduce_prod, reduce_sum, rem, reshape, round, rsqrt,
    select, select_n, sign, sin, slice, slice_in_dim, sqrt, square, stop_gradient, sub, tan,
    tanh, transpose)
from mlax._src.lax.lax import (  # noqa: F401,E402
    bitcast_convert_type, clz, cumsum, erf, erf_inv, nextafter, shift_left, shift_right_arithmetic,
    shift_right_logical, sort, sort_key_val)
from mlax._src.lax.elementwise import (  # noqa: F401,E402
    complex, conj, imag, real, reduce_precision)
from mlax._src.lax.lax import (  # noqa: F401,E402
    GatherDimensionNumbers, GatherScatterMode, ScatterDimensionNumbers, dynamic_index_in_dim,
    dynamic_slice, dynamic_slice_in_dim, dynamic_update_slice, dynamic_update_slice_in_dim,
    gather, rev, scatter, scatter_add, scatter_max, scatter_min, scatter_mul)
from mlax._src.lax.convolution import (  # noqa: F401,E402
    ConvDimensionNumbers, conv, conv_dimension_numbers, conv_general_dilated,
    conv_with_general_padding, padtype_to_pads, reduce_window)
from mlax._src.lax.control_flow import (  # noqa: F401,E402
    cond, fori_loop, map, scan, switch, while_loop)
from mlax.lax import linalg  # noqa: F401,E402
from mlax._src.lax.math import (  # noqa: F401,E402
    acos, acosh, asin, asinh, atan, atanh, cbrt, clamp, cosh, cumlogsumexp, cummax, cummin,
    cumprod, digamma, erfc, exp2, integer_pow, lgamma, polygamma, population_count, reciprocal,
    sinh, top_k, zeta)
from mlax._src.lax.reductions import argmax, argmin, reduce  # noqa: F401,E402
from mlax._src.lax.shape import (  # noqa: F401,E402
    broadcast_to_rank, collapse, expand_dims, index_in_dim, squeeze)
from mlax._src.lax.fft import FftType, fft  # noqa: F401,E402
from mlax._src.lax.rng import RandomAlgorithm, rng_bit_generator, rng_uniform  # noqa: F401,E402
from mlax._src.lax.composite import composite  # noqa: F401,E402
from mlax._src.lax.control_flow import associative_scan, platform_dependent  # noqa: F401,E402
from mlax._src.lax.solves import custom_linear_solve, custom_root  # noqa: F401,E402
from mlax._src.lax.convolution import (  # noqa: F401,E402
    conv_general_dilated_patches, conv_transpose)
from mlax._src.lax.special import (  # noqa: F401,E402
    bessel_i0e, bessel_i1e, betainc, igamma, igamma_grad_a, igammac, random_gamma_grad)
from mlax._src.lax.linalg import (  # noqa: F401,E402
    DotAlgorithm, DotAlgorithmPreset, DotDimensionNumbers, Precision, PrecisionLike,
    batch_matmul)
from mlax._src.lax.convolution import (  # noqa: F401,E402
    ConvGeneralDilatedDimensionNumbers, conv_general_dilated_local, conv_general_permutations,
    conv_general_shape_tuple,
    conv_shape_tuple, conv_transpose_shape_tuple, reduce_window_shape_tuple)
from mlax._src.lax.shape import (  # noqa: F401,E402
    broadcast_shapes, empty, split, stack, tile, unstack)
from mlax._src.lax.slicing import (  # noqa: F401,E402
    dynamic_update_index_in_dim, index_take, scatter_sub)
from mlax._src.lax.reductions import reduce_xor  # noqa: F401,E402
from mlax._src.lax.elementwise import dtype, mulhi  # noqa: F401,E402
from mlax._src.lax.lax import optimization_barrier  # noqa: F401,E402
from mlax._src.lax.shape import broadcast_like, shape_as_value  # noqa: F401,E402
from mlax._src.lax.math import approx_max_k, approx_min_k  # noqa: F401,E402
from mlax._src.lax.accuracy import AccuracyMode, Tolerance  # noqa: F401,E402

# Elementwise ops of several operands take rank-0 operands, and size-1 dimensions, as
# jax.lax 0.10 does (broadcast explicitly first; mlax's internals call the
# strict forms).
from mlax._src.lax.scatter_apply import scatter_apply  # noqa: E402,F401
from mlax._src.lax.lax import implicit_broadcasting as _implicit  # noqa: E402

(add, sub, mul, div, rem, pow, max, min, atan2, nextafter, bitwise_and, bitwise_or,  # noqa: A001
 bitwise_xor, shift_left, shift_right_arithmetic, shift_right_logical, eq, ne, lt, le, gt, ge,
 complex) = (_implicit(f) for f in (  # (`map` here is lax.map)
    add, sub, mul, div, rem, pow, max, min, atan2, nextafter, bitwise_and, bitwise_or,
    bitwise_xor, shift_left, shift_right_arithmetic, shift_right_logical, eq, ne, lt, le, gt, ge,
    complex))
# (and so do jax.lax's other n-ary elementwise functions)
(betainc, igamma, igamma_grad_a, igammac, mulhi, polygamma, random_gamma_grad,  # noqa: E402
 zeta) = (_implicit(f) for f in (betainc, igamma, igamma_grad_a, igammac, mulhi, polygamma,
                                 random_gamma_grad, zeta))
del _implicit
from mlax._src.lax.sharding import with_sharding_constraint  # noqa: F401,E402
from mlax._src.lax.parallel import (  # noqa: F401,E402
    all_gather, all_to_all, axis_index, axis_size, pbroadcast, pmax, pmean, pmin, ppermute,
    pshuffle, psum, psum_scatter, pswapaxes)
from mlax._src.lax.ragged import (  # noqa: E402,F401
    RaggedDotDimensionNumbers, ragged_dot, ragged_dot_general)

"""mlax.lax: the strict primitive layer (one function per mlax op).

Unlike mlax.numpy, these do not broadcast or promote: binary ops need equal
shapes and dtypes, as in jax.lax.

The ops live in one module per family (elementwise, shape, reductions,
linalg, slicing; math, convolution, fft and control_flow above them); this
module is the namespace the rest of mlax uses (`lax.add`, `lax.gather`, ...)
and holds the conveniences built from several families.
"""
from __future__ import annotations

from mlax._src.base import dtypes
from mlax._src.base.tree import tree_flatten, tree_unflatten
from mlax._src.core.primitives import Primitive, _ops, aval_of, bind, note_implicit_broadcast

from mlax._src.lax.elementwise import (  # noqa: F401
    abs as _abs_real, add, atan2, _binary, bitcast_convert_type, _bitcast_p, _bits_of,
    bitwise_and, bitwise_not, bitwise_or, bitwise_xor, ceil, _check_kind, clz, _compare_emit,
    _compare_p, _comparison, complex, conj, convert_element_type, _convert_p,
    cos, _DIRECTIONS, div, eq, erf, erf_inv, exp, expm1, floor, ge, gt, _i64, _i64_array,
    is_finite, _is_finite_p, _KIND_CHECKS, le, log, log1p, logistic, lt, max,
    min, mul, ne, neg, _nextafter, nextafter, _NUMPY_NAME, pow, rem, round, _round_afz,
    _round_even, RoundingMethod, real, imag, rsqrt, select, select_n, _select_n_p,
    shift_left, shift_right_arithmetic, shift_right_logical, sign, sin, sqrt, square, sub, tan,
    tanh, _unary)
from mlax._src.lax.shape import (  # noqa: F401
    broadcast, broadcast_in_dim, _broadcast_p, broadcasted_iota, concatenate,
    _concatenate_p, _full, full, full_like, iota, _iota_p, pad,
    _pad_p, reshape, _reshape_p, slice,
    slice_in_dim, _slice_p, transpose, _transpose_p)
from mlax._src.lax.reductions import (  # noqa: F401
    cumsum, _cumsum_emit, _cumsum_p, _reduce_and, reduce_and, reduce_max,
    reduce_min, _reduce_or, reduce_or, reduce_prod, reduce_sum, _reduction, sort, _sort_emit,
    sort_key_val, _sort_p)
from mlax._src.lax.linalg import (  # noqa: F401
    cholesky, _cholesky_emit, _cholesky_p, dot, dot_general, _dot_general_emit,
    _dot_general_p, _dtype_kind)
from mlax._src.lax.slicing import (  # noqa: F401
    _check_mode, _clamp_scatter_indices, _clamp_starts, _COMBINERS, _dus_p,
    dynamic_index_in_dim, dynamic_slice, dynamic_slice_in_dim, _dynamic_slice_p,
    dynamic_update_slice, dynamic_update_slice_in_dim, gather, _gather_emit, _gather_fill,
    gather_fill_value, _gather_p, GatherDimensionNumbers, GatherScatterMode,
    index_in_dim_static, _MODE_ALIASES, rev, _rev_p, _scatter, scatter, scatter_add,
    _scatter_emit, scatter_max, scatter_min, scatter_mul, _scatter_p, ScatterDimensionNumbers,
    _start_indices, take, _take_p, _tuple, _unit)


def implicit_broadcasting(fn):
    """`fn` (an elementwise lax op of two or more operands) taking operands
    as jax.lax 0.10 does: rank-0 operands broadcast to the others' shape, and
    operands of one rank broadcast their size-1 dimensions; ranks otherwise
    differing are a TypeError (jax.lax never adds dimensions): the strict
    op's own, which names the op, the shapes and the user's line."""
    name = fn.__name__

    def wrapped(*args, **kwargs):
        shapes = [aval_of(a).shape for a in args]
        ranked = [s for s in shapes if s]
        if len(set(shapes)) <= 1 or len({len(s) for s in ranked}) > 1:
            return fn(*args, **kwargs)
        if any(len({d for d in dims if d != 1}) > 1 for dims in zip(*ranked)):
            return fn(*args, **kwargs)
        target = tuple(next((d for d in dims if d != 1), 1) for dims in zip(*ranked))
        # (noted for sparsify, which tells these from arrays the function made)
        args = [a if s == target else note_implicit_broadcast(broadcast_in_dim(
            a, target, tuple(range(len(target))) if s else ())) for a, s in zip(args, shapes)]
        return fn(*args, **kwargs)

    wrapped.__name__ = wrapped.__qualname__ = name
    wrapped.__doc__ = fn.__doc__
    wrapped.__wrapped__ = fn  # lax.reduce knows its monoids by the strict op
    if hasattr(fn, "primitive"):
        wrapped.primitive = fn.primitive
    return wrapped


def reciprocal(x):
    return div(full_like(x, 1), x)


def abs(x):  # noqa: A001 (lax.abs, as in JAX)
    """Elementwise absolute value; of a complex array, its magnitude, a real
    array of the component dtype (as jax.lax.abs)."""
    if dtypes.is_complex(aval_of(x).dtype):
        return _complex_abs(x)
    return _abs_real(x)


abs.primitive = _abs_real.primitive


def _complex_abs(z):
    # |z| = big * sqrt(1 + (small / big)^2), big and small the larger and
    # smaller of |Re z| and |Im z|: the squares neither overflow nor
    # underflow. 0 where big is 0 (the derivative there is 0, as JAX's);
    # infinite where a part is infinite and neither is NaN; NaN where a part
    # is NaN (max propagates it), as JAX on XLA:CPU.
    a, b = _abs_real(real(z)), _abs_real(imag(z))
    big, small = max(a, b), min(a, b)
    zero, one = full_like(big, 0), full_like(big, 1)
    is_zero = eq(big, zero)
    safe = select(is_zero, one, big)
    ratio = div(small, safe)
    out = select(is_zero, zero, mul(safe, sqrt(add(one, mul(ratio, ratio)))))
    return select(eq(big, full_like(big, float("inf"))), big, out)


def stop_gradient(x):
    """The identity with a zero derivative (`mlax.stop_gradient`)."""
    from mlax._src.transforms import autodiff

    return autodiff.stop_gradient(x)


_optimization_barrier_p = Primitive(
    "optimization_barrier",
    lambda values, avals: list(_ops().OptimizationBarrierOp(values).results),
    multiple_results=True,
    weak_type=lambda *avals: [a.weak_type for a in avals])  # each leaf its own, as JAX


def optimization_barrier(operand, /):
    """jax.lax.optimization_barrier: the pytree `operand` unchanged, through
    one `mlax.optimization_barrier` that XLA may not move computation across
    (its derivative and batching pass through it)."""
    leaves, tree = tree_flatten(operand)
    if not leaves:
        return operand
    return tree_unflatten(tree, list(bind(_optimization_barrier_p, *leaves)))

"""lax.rng_bit_generator: XLA's stateless random bit generator
(mlax.rng_bit_generator, MlaxRandomOps.td); lax.rng_uniform: XLA's stateful
one (mlax.rng_uniform).

The rbg and unsafe_rbg PRNG implementations of mlax.random draw their bits
from rng_bit_generator, as JAX's do. Its batching rule (MlaxRandomOps.cpp) is
JAX's: under vmap over keys the first key draws every row of bits.
rng_uniform has neither a derivative nor a batching rule, as in JAX.
"""
from __future__ import annotations

import enum
import operator

import numpy as np
from mlir import ir

from mlax._src.base import dtypes
from mlax._src.base import errors
from mlax._src.core.primitives import Primitive, _ops, aval_of, bind, verified
from mlax._src.core.tracer import ShapedArray, Tracer


class RandomAlgorithm(enum.IntEnum):
    """The algorithm of rng_bit_generator (jax.lax.RandomAlgorithm)."""

    RNG_DEFAULT = 0
    "The platform's default algorithm."

    RNG_THREE_FRY = 1
    "The Threefry-2x32 PRNG algorithm."

    RNG_PHILOX = 2
    "The Philox-4x32 PRNG algorithm."

    def __str__(self):
        return self.name


_BIT_DTYPES = ("uint8", "uint16", "uint32", "uint64")


def _algorithm(algorithm) -> RandomAlgorithm:
    name = getattr(algorithm, "name", None)  # also jax.lax.RandomAlgorithm
    if isinstance(name, str) and name in RandomAlgorithm.__members__:
        return RandomAlgorithm[name]
    if isinstance(algorithm, (int, np.integer)) and not isinstance(algorithm, bool):
        try:
            return RandomAlgorithm(int(algorithm))
        except ValueError:
            pass
    raise ValueError(f"lax.rng_bit_generator: unknown algorithm {algorithm!r}; use "
                     "lax.RandomAlgorithm.RNG_DEFAULT, RNG_THREE_FRY or RNG_PHILOX")


def _shape(shape):
    if isinstance(shape, Tracer):
        raise errors.concretization(shape, "the shape argument of lax.rng_bit_generator")
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        shape = (shape,)
    try:
        out = tuple(operator.index(d) for d in shape)
    except TypeError:
        raise TypeError("Shapes must be 1D sequences of concrete values of integer type, "
                        f"got {shape!r}.") from None
    if any(d < 0 for d in out):
        raise TypeError("Shapes must be 1D sequences of integer scalars, got negative "
                        f"dimensions in {out}")
    return out


# The new key has the key's type; the verifier (MlaxRandomOps.cpp) checks
# the key (ui32[4] or ui64[2]) and the bits' dtype.
def _rbg_emit(values, avals, *, shape, dtype, algorithm):
    attr = ir.IntegerAttr.get(ir.IntegerType.get_signless(32), int(algorithm))
    bits_type = ShapedArray(shape, dtype).mlir_type()
    op = verified(_ops().RngBitGeneratorOp(values[0].type, bits_type, attr, values[0]))
    return [op.new_key, op.bits]


_rng_bit_generator_p = Primitive(
    "rng_bit_generator", _rbg_emit, multiple_results=True,
    weak_type=lambda key, **params: [key.weak_type, False])


def rng_bit_generator(key, shape, dtype=np.uint32,
                      algorithm=RandomAlgorithm.RNG_DEFAULT, *, out_sharding=None):
    """jax.lax.rng_bit_generator: `(new_key, bits)`, uniformly random bits of
    `shape` and unsigned `dtype` drawn from `key` (a uint32[4] array) by
    XLA's generator `algorithm`. The bits are XLA's, so they equal JAX's on
    the same backend; XLA does not promise them stable across backends or
    versions."""
    shape = _shape(shape)
    dtype = dtypes.canonicalize(dtype)
    if out_sharding is not None:
        raise NotImplementedError("lax.rng_bit_generator: out_sharding is not supported; "
                                  "use lax.with_sharding_constraint on the bits")
    if dtype.name not in _BIT_DTYPES:
        raise TypeError(f"rng_bit_generator: unsupported dtype {dtype}")
    aval_of(key)  # a TypeError for what is not an array
    return tuple(bind(_rng_bit_generator_p, key, shape=shape, dtype=dtype,
                      algorithm=int(_algorithm(algorithm))))


rng_bit_generator.primitive = _rng_bit_generator_p


# ---------------------------------------------------------------------------
# rng_uniform
# ---------------------------------------------------------------------------

def _rng_uniform_check(a, b, *, shape):
    if a.dtype != b.dtype:
        raise ValueError("Arguments to rng_uniform must have identical dtypes, got "
                         f"{a.dtype} and {b.dtype}.")
    if a.shape != () or b.shape != ():
        raise ValueError("Arguments to rng_uniform must be scalars; got shapes "
                         f"{a.shape} and {b.shape}.")


# The verifier (MlaxRandomOps.cpp) refuses the element types XLA's
# RngUniform cannot expand (it aborts on them): a ValueError, as JAX's
# verifier error for a complex operand is.
def _rng_uniform_emit(values, avals, *, shape):
    result = ShapedArray(shape, avals[0].dtype).mlir_type()
    return verified(_ops().RngUniformOp(result, values[0], values[1])).result


_rng_uniform_p = Primitive("rng_uniform", _rng_uniform_emit, check=_rng_uniform_check,
                           errors={"operands must be": ValueError})


def rng_uniform(a, b, shape):
    """jax.lax.rng_uniform: an array of `shape` of numbers drawn uniformly
    from [a, b) by XLA's stateful generator (`a` and `b` scalars of one
    dtype: f16, bf16, f32, f64, int32, int64, uint32 or uint64). Each run of
    a program draws new numbers; which ones is XLA's choice, as is the
    result where b <= a. Use mlax.random for reproducible numbers."""
    if isinstance(shape, Tracer):
        raise errors.concretization(shape, "the shape argument of lax.rng_uniform")
    return bind(_rng_uniform_p, a, b, shape=_shape(tuple(shape)))


rng_uniform.primitive = _rng_uniform_p

"""JAX's other counter-based PRNG implementations: philox2x32 (uint32[1]
keys), philox4x32 (uint32[2]) and threefry4x32 (uint32[4]), bit for bit as
jax._src.random's. Each is its block cipher on uint32 words (Random123's
Philox with 10 rounds, Threefry-4x32 with 20) and four functions on one
key's data, registered by name so that `key(0, impl="philox4x32")` and
`jax_default_prng_impl` find them.

The ciphers' rounds are loops (as mlax's threefry2x32, prng.threefry2x32),
where JAX unrolls them: unrolled and fused into its consumers, a vmapped
threefry4x32 split took XLA's CPU backend over two minutes on its first run.
"""
from __future__ import annotations

import math

import numpy as np

from mlax._src.lax import lax
from mlax._src.lax.elementwise import mulhi
from mlax._src.random.prng import (
    _U32, PRNGImpl, _bits_of_words, _iota_2x32, _rotate_left, _seed_words, aval_of,
    register_prng)


def _word(c, shape=()):
    return lax.full(shape, np.uint32(c), _U32)


def _xor(*xs):
    out = xs[0]
    for x in xs[1:]:
        out = lax.bitwise_xor(out, x)
    return out


def _along(k, shape):
    """The key word `k` (a uint32 scalar) over the counters' shape."""
    return lax.broadcast(k, shape)


# ---------------------------------------------------------------------------
# The ciphers: key words (scalars) and counter words (arrays of one shape)
# to as many output words.
# ---------------------------------------------------------------------------

_PHILOX_ROUNDS = 10
_PHILOX_BUMP = (0x9E3779B9, 0xBB67AE85)   # the Weyl sequence's key increments
_PHILOX_2X32_M = 0xD256D193
_PHILOX_4X32_M = (0xD2511F53, 0xCD9E8D57)


def _rounds(n, body, state):
    """`state` through `n` applications of `body`, as a loop (see the
    module's docstring); the bits are the same either way."""
    from mlax._src.lax.control_flow import fori_loop

    return fori_loop(0, n, lambda _, st: body(st), state)


def philox2x32(k0, x0, x1):
    """Philox-2x32-10: one key word, a two-word counter."""
    shape = aval_of(x0).shape

    def one_round(state):
        k0, x0, x1 = state
        m = _word(_PHILOX_2X32_M, shape)
        lo, hi = lax.mul(m, x0), mulhi(m, x0)
        # the key is bumped after each round (its first round uses the key)
        return lax.add(k0, _word(_PHILOX_BUMP[0])), _xor(hi, x1, _along(k0, shape)), lo

    _, x0, x1 = _rounds(_PHILOX_ROUNDS, one_round, (k0, x0, x1))
    return x0, x1


def philox4x32(k0, k1, x0, x1, x2, x3):
    """Philox-4x32-10: two key words, a four-word counter."""
    shape = aval_of(x0).shape

    def one_round(state):
        k0, k1, x0, x1, x2, x3 = state
        m0, m1 = (_word(m, shape) for m in _PHILOX_4X32_M)
        lo0, hi0 = lax.mul(m0, x0), mulhi(m0, x0)
        lo1, hi1 = lax.mul(m1, x2), mulhi(m1, x2)
        return (lax.add(k0, _word(_PHILOX_BUMP[0])), lax.add(k1, _word(_PHILOX_BUMP[1])),
                _xor(hi1, x1, _along(k0, shape)), lo1, _xor(hi0, x3, _along(k1, shape)), lo0)

    return _rounds(_PHILOX_ROUNDS, one_round, (k0, k1, x0, x1, x2, x3))[2:]


# Threefry-4x32's rotations by round (mod 8): the first four rounds' pairs,
# then the next four's; a group of four rounds uses one half.
_THREEFRY4_ROTATIONS = (((10, 26), (11, 21), (13, 27), (23, 5)),
                        ((6, 20), (17, 11), (25, 10), (18, 20)))
_SKEIN_PARITY = 0x1BD11BDA


def _table(pairs):
    return lax.concatenate([lax.reshape(_word(r), (1,)) for pair in pairs for r in pair], 0)


def threefry4x32(k0, k1, k2, k3, x0, x1, x2, x3):
    """Threefry-4x32-20: four key words, a four-word counter; five groups
    of four rounds, each followed by a key injection."""
    shape = aval_of(x0).shape
    ks = [k0, k1, k2, k3, _xor(k0, k1, k2, k3, _word(_SKEIN_PARITY))]
    x = [lax.add(xi, _along(ki, shape)) for xi, ki in zip((x0, x1, x2, x3), ks)]

    def group(state):
        x, ks, rot, next_rot, count = state
        x = list(x)
        for j in range(4):
            r0, r1 = (lax.reshape(lax.slice(rot, (2 * j + c,), (2 * j + c + 1,)), ())
                      for c in (0, 1))
            # even rounds mix words (0, 1) and (2, 3); odd rounds (0, 3) and (2, 1)
            a, b = (1, 3) if j % 2 == 0 else (3, 1)
            x[0] = lax.add(x[0], x[a])
            x[a] = lax.bitwise_xor(x[0], _rotate_left(x[a], r0))
            x[2] = lax.add(x[2], x[b])
            x[b] = lax.bitwise_xor(x[2], _rotate_left(x[b], r1))
        count = lax.add(count, _word(1))
        x = [lax.add(x[i], _along(ks[i + 1], shape)) for i in range(4)]
        x[3] = lax.add(x[3], _along(count, shape))
        return x, ks[1:] + ks[:1], next_rot, rot, count

    state = (x, ks, _table(_THREEFRY4_ROTATIONS[0]), _table(_THREEFRY4_ROTATIONS[1]), _word(0))
    return tuple(_rounds(5, group, state)[0])


# ---------------------------------------------------------------------------
# The implementations' functions on one key's data.
# ---------------------------------------------------------------------------

def _stack(words, shape):
    """The words (each of `shape`) as the trailing axis of one array."""
    nd = len(shape)
    return lax.concatenate([lax.reshape(w, shape + (1,)) for w in words], nd)


def _key_words(key, n):
    return [lax.reshape(lax.slice(key, (i,), (i + 1,)), ()) for i in range(n)]


def _check_size(shape):
    if math.prod(shape) > 2 ** 64:
        raise NotImplementedError("random bits array of size exceeding 2 ** 64")


def _philox2x32_seed(seed):
    hi, lo = _seed_words(seed)
    out0, _ = philox2x32(_word(0), hi, lo)
    return lax.reshape(out0, (1,))


def _philox2x32_split(key, shape):
    hi, lo = _iota_2x32(shape)
    out0, _ = philox2x32(_key_words(key, 1)[0], hi, lo)
    return lax.reshape(out0, shape + (1,))


def _philox2x32_fold_in(key, data):
    out0, _ = philox2x32(_key_words(key, 1)[0], _word(0), lax.reshape(data, ()))
    return lax.reshape(out0, (1,))


def _philox2x32_bits(key, bit_width, shape):
    _check_size(shape)
    hi, lo = _iota_2x32(shape)
    out = philox2x32(_key_words(key, 1)[0], hi, lo)
    return _bits_of_words(out, bit_width, out)


def _philox4x32_seed(seed):
    hi, lo = _seed_words(seed)
    zero = _word(0)
    out = philox4x32(zero, zero, hi, lo, zero, zero)
    return _stack(out[:2], ())


def _philox4x32_split(key, shape):
    hi, lo = _iota_2x32(shape)
    zeros = _word(0, shape)
    out = philox4x32(*_key_words(key, 2), zeros, zeros, hi, lo)
    return _stack(out[:2], shape)


def _philox4x32_fold_in(key, data):
    zero = _word(0)
    out = philox4x32(*_key_words(key, 2), zero, zero, zero, lax.reshape(data, ()))
    return _stack(out[:2], ())


def _philox4x32_bits(key, bit_width, shape):
    _check_size(shape)
    hi, lo = _iota_2x32(shape)
    zeros = _word(0, shape)
    out = philox4x32(*_key_words(key, 2), hi, lo, zeros, zeros)
    return _bits_of_words(out, bit_width, out[:2])


def _threefry4x32_seed(seed):
    hi, lo = _seed_words(seed)
    zero = _word(0)
    return _stack(threefry4x32(hi, lo, zero, zero, zero, zero, zero, zero), ())


def _threefry4x32_split(key, shape):
    hi, lo = _iota_2x32(shape)
    zeros = _word(0, shape)
    return _stack(threefry4x32(*_key_words(key, 4), zeros, zeros, hi, lo), shape)


def _threefry4x32_fold_in(key, data):
    zero = _word(0)
    return _stack(threefry4x32(*_key_words(key, 4), zero, zero, zero,
                               lax.reshape(data, ())), ())


def _threefry4x32_bits(key, bit_width, shape):
    _check_size(shape)
    hi, lo = _iota_2x32(shape)
    zeros = _word(0, shape)
    out = threefry4x32(*_key_words(key, 4), hi, lo, zeros, zeros)
    return _bits_of_words(out, bit_width, (_xor(out[0], out[2]), _xor(out[1], out[3])))


PHILOX2X32 = PRNGImpl("philox2x32", "phx2", (1,), _philox2x32_seed, _philox2x32_split,
                      _philox2x32_fold_in, _philox2x32_bits)
PHILOX4X32 = PRNGImpl("philox4x32", "phx4", (2,), _philox4x32_seed, _philox4x32_split,
                      _philox4x32_fold_in, _philox4x32_bits)
THREEFRY4X32 = PRNGImpl("threefry4x32", "fry4", (4,), _threefry4x32_seed,
                        _threefry4x32_split, _threefry4x32_fold_in, _threefry4x32_bits)
for _impl in (PHILOX2X32, PHILOX4X32, THREEFRY4X32):
    register_prng(_impl)
del _impl

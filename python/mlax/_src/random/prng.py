"""mlax.random: counter-based PRNG (threefry2x32), bit for bit as JAX.

Everything here is built from mlax ops (integer adds, xors, shifts,
bitcast_convert, erf_inv, sort, ...), so it traces under `jit` like any other
code. The algorithms follow jax.random with its default
`jax_threefry_partitionable=True`, and its earlier one when that switch is
off: the same key, shape and dtype give the same bits and the same floats
as JAX.

Keys are either raw uint32 arrays (`PRNGKey`, as `jax.random.PRNGKey`) or
typed key arrays (`key`, whose dtype names the implementation: `key<fry>`);
every function takes both and returns the kind it was given. JAX's
implementations, with JAX's names: threefry2x32 (the default; uint32[2]
keys) and rbg and unsafe_rbg (uint32[4] keys whose bits come from XLA's
rng_bit_generator, lax.rng_bit_generator) are here; philox2x32, philox4x32
and threefry4x32 in counter_impls.py; user-defined ones come from
define_prng_impl (mlax.extend.random). A typed key carries its
implementation; a raw key is read as the `jax_default_prng_impl` one, as
in JAX. Inside the samplers keys are always typed (`KeyArray`), so the
implementation is part of every jitted sampler's signature.
"""
from __future__ import annotations

import builtins
import math
import operator
import warnings
from collections.abc import Sequence

import ml_dtypes
import numpy as np

from mlax._src.base import dtypes
from mlax._src.base.config import config
from mlax._src.base import errors
from mlax._src.lax import lax
from mlax._src.lax.rng import rng_bit_generator
from mlax._src.numpy import lax_numpy as mnp
from mlax._src.core import basearray
from mlax._src.core.array import Array
from mlax._src.core.tracer import ShapedArray, Tracer, concretize, concretize_seq
from mlax._src.core.primitives import aval_of
from mlax._src.core import key_reuse
from mlax._src.base import public_tree
from mlax._src.base.tree import registry
from mlax._src.numpy import reductions
from mlax._src.numpy import ufuncs
from mlax._src.numpy import util

_U32 = dtypes.uint32
_UINT = {8: dtypes.uint8, 16: dtypes.uint16, 32: dtypes.uint32, 64: dtypes.uint64}


# ---------------------------------------------------------------------------
# Typed keys
# ---------------------------------------------------------------------------

class PRNGImpl:
    """A PRNG implementation (JAX's PRNGImpl): the key data's trailing shape
    and the functions on one key's data: `seed` (an integer scalar to key
    data), `split`, `fold_in`, `random_bits`. Hashed and printed by its tag,
    as JAX's; `name` is what `key(..., impl=name)` and key_impl use."""

    __slots__ = ("name", "tag", "key_shape", "seed", "split", "fold_in", "random_bits")

    def __init__(self, name, tag, key_shape, seed=None, split=None, fold_in=None,
                 random_bits=None):
        self.name, self.tag, self.key_shape = name, tag, tuple(key_shape)
        self.seed, self.split, self.fold_in, self.random_bits = seed, split, fold_in, random_bits

    def __repr__(self):
        return f"PRNGImpl(name={self.name!r}, tag={self.tag!r}, key_shape={self.key_shape})"

    def __str__(self):
        return self.tag

    def __hash__(self):
        return hash(self.tag)


class PRNGSpec:
    """A PRNG implementation as the `impl=` of key, PRNGKey, wrap_key_data
    and key_dtype take it (JAX's PRNGSpec; mlax.extend.random.define_prng_impl
    returns one)."""

    __slots__ = ("_impl",)

    def __init__(self, impl):
        self._impl = impl

    def __repr__(self):
        return f"PRNGSpec({self._impl.name!r})"

    def __str__(self):
        return str(self._impl)

    def __hash__(self):
        return hash(self._impl)

    def __eq__(self, other):
        return isinstance(other, PRNGSpec) and self._impl is other._impl


_THREEFRY = PRNGImpl("threefry2x32", "fry", (2,))
_RBG = PRNGImpl("rbg", "rbg", (4,))
_UNSAFE_RBG = PRNGImpl("unsafe_rbg", "urbg", (4,))
# By name, in JAX's registration order; mlax._src.random.counter_impls adds
# philox2x32, philox4x32 and threefry4x32.
_IMPLS = {impl.name: impl for impl in (_THREEFRY, _RBG, _UNSAFE_RBG)}


def register_prng(impl):
    """Makes `impl` nameable (key(..., impl=impl.name), jax_default_prng_impl)."""
    if impl.name in _IMPLS:
        raise ValueError(f"PRNG with name {impl.name} already registered: {impl!r}")
    _IMPLS[impl.name] = impl


class KeyDtype(dtypes.ExtendedDType):
    """The dtype of a typed key array, one per implementation (prints as
    JAX's: `key<fry>`, `key<rbg>`, `key<urbg>`; a sub-dtype of
    mlax.dtypes.prng_key)."""

    type = dtypes.prng_key

    def __init__(self, impl=_THREEFRY):
        self._impl = impl

    @property
    def name(self):
        return f"key<{self._impl.tag}>"

    @property
    def impl(self):
        return self._impl.name

    def __repr__(self):
        return self.name

    __str__ = __repr__

    def __eq__(self, other):
        if isinstance(other, KeyDtype):
            return other._impl is self._impl
        return other == self.name

    def __hash__(self):
        return hash(self.name)


_KEY_DTYPES = {}


def _key_dtype(impl):
    """The one KeyDtype of `impl`."""
    if impl not in _KEY_DTYPES:
        _KEY_DTYPES[impl] = KeyDtype(impl)
    return _KEY_DTYPES[impl]


class KeyArray(key_reuse.Tracked, basearray.Array):
    """A typed PRNG key array (`mlax.random.key`): uint32 key data whose
    trailing dimension(s) are the implementation's key shape, (2,) or (4,);
    the array's shape excludes them, as in JAX. `_state`: whether it has
    been consumed, while jax_debug_key_reuse is on (mlax._src.core.key_reuse)."""

    __slots__ = ("_data", "_impl", "_state")
    __array_priority__ = 100

    def __init__(self, data, impl=_THREEFRY, state=None):
        self._data = data
        self._impl = impl
        self._state = key_reuse.new_state(state)
        if not public_tree._made:
            public_tree.note_made()

    @property
    def shape(self):
        return tuple(aval_of(self._data).shape[:-1])

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        return math.prod(self.shape)

    @property
    def dtype(self):
        return _key_dtype(self._impl)

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __iter__(self):
        if not self.shape:
            raise TypeError("iteration over a 0-d key array")
        return (self[i] for i in range(self.shape[0]))

    def __getitem__(self, index):
        if not isinstance(index, tuple):
            index = (index,)
        if builtins.any(i is Ellipsis for i in index):
            raise IndexError("mlax.random: key arrays do not support `...` indexing")
        if len(index) > self.ndim:
            raise IndexError(f"too many indices for key array of shape {self.shape}")
        out = KeyArray(self._data[index], self._impl)
        if key_reuse.enabled():
            # As JAX: a static slice consumes that part of the array and is
            # fresh; one at traced indices is the array itself (forwarded).
            try:
                mask = np.zeros(self.shape, bool)
                mask[index] = True
            except (IndexError, TypeError):
                out._state = key_reuse.state_of(self)
            else:
                key_reuse.sink(self, "slice", mask=mask)
        return out

    # The shape methods JAX's PRNGKeyArray has (flatten, ravel, reshape,
    # squeeze, swapaxes, take, transpose, T): on the key data, its trailing
    # key dimensions kept. Under jax_debug_key_reuse the result's consumed
    # elements are the argument's, moved as its keys are.

    def _derived(self, data, move):
        out = KeyArray(data, self._impl)
        if key_reuse.enabled():
            state = key_reuse.state_of(self)
            out._state = key_reuse.KeyState(move(np.broadcast_to(state.consumed, self.shape)))
            out._state.scope = state.scope
        return out

    # Placement and lifetime, as JAX's PRNGKeyArray has them: those of the
    # key data (a traced key has none, as a tracer has none).
    @property
    def device(self):
        return self._data.device

    @property
    def sharding(self):
        return self._data.sharding

    def delete(self):
        self._data.delete()

    def is_deleted(self) -> bool:
        return self._data.is_deleted()

    def copy_to_host_async(self):
        self._data.copy_to_host_async()

    def copy(self):
        """A key array holding a copy of the key data (the same keys; under
        jax_debug_key_reuse the copy's elements are consumed where these are)."""
        return self._derived(mnp.array(self._data, copy=True), lambda consumed: consumed)

    @property
    def aval(self):
        """Its abstract value: the key array's shape and key dtype."""
        return ShapedArray(self.shape, self.dtype)

    @property
    def _key_ndim(self):
        return len(self._impl.key_shape)

    @property
    def itemsize(self):
        return aval_of(self._data).dtype.itemsize * math.prod(self._impl.key_shape)

    @property
    def nbytes(self):
        return self.size * self.itemsize

    def reshape(self, *shape, order="C"):
        if order != "C":
            raise NotImplementedError("mlax.random: key arrays reshape only in C order")
        if len(shape) == 1 and isinstance(shape[0], (tuple, list, np.ndarray)):
            shape = tuple(shape[0])
        shape = tuple(operator.index(d) for d in shape)
        try:  # (checks the sizes, fills in a -1)
            new = np.empty(self.shape, dtype=np.bool_).reshape(shape).shape
        except ValueError:
            raise TypeError(f"cannot reshape array of shape {self.shape} (size {self.size}) "
                            f"into shape {shape} (size {math.prod(shape)})") from None
        data = lax.reshape(self._data, new + tuple(self._impl.key_shape))
        return self._derived(data, lambda m: m.reshape(new))

    def ravel(self, order="C"):
        return self.reshape(-1, order=order)

    flatten = ravel

    def transpose(self, *axes):
        if len(axes) == 1 and (axes[0] is None or not isinstance(axes[0], (int, np.integer))):
            axes = axes[0]
        n = self.ndim
        axes = tuple(range(n))[::-1] if axes is None or axes == () else \
            tuple(mnp._normalize_axis("transpose", a, n) for a in axes)
        if sorted(axes) != list(range(n)):
            raise ValueError(f"axes {axes} don't match key array of shape {self.shape}")
        perm = axes + tuple(range(n, n + self._key_ndim))
        return self._derived(lax.transpose(self._data, perm), lambda m: m.transpose(axes))

    @property
    def T(self):
        return self.transpose()

    def swapaxes(self, axis1, axis2):
        n = self.ndim
        a1 = mnp._normalize_axis("swapaxes", axis1, n)
        a2 = mnp._normalize_axis("swapaxes", axis2, n)
        axes = list(range(n))
        axes[a1], axes[a2] = axes[a2], axes[a1]
        return self.transpose(tuple(axes))

    def squeeze(self, axis=None):
        n = self.ndim
        if axis is None:
            axes = tuple(i for i, d in enumerate(self.shape) if d == 1)
        else:
            axes = tuple(mnp._normalize_axis("squeeze", a, n)
                         for a in (axis if isinstance(axis, (tuple, list)) else (axis,)))
            for a in axes:
                if self.shape[a] != 1:
                    raise ValueError(f"cannot select an axis to squeeze out which has size not "
                                     f"equal to one, got shape={self.shape} and dimensions="
                                     f"{axes}")
        new = tuple(d for i, d in enumerate(self.shape) if i not in axes)
        return self.reshape(new)

    def take(self, indices, axis=None):
        keys = self.ravel() if axis is None else self
        axis = 0 if axis is None else mnp._normalize_axis("take", axis, self.ndim)
        from mlax._src.numpy.manipulation import take
        data = take(keys._data, indices, axis=axis)
        out = KeyArray(data, self._impl)
        if key_reuse.enabled():
            out._state = key_reuse.state_of(keys)
        return out

    @classmethod
    def _numpy_op(cls, name, *args, **kwargs):
        """mlax.numpy's `name` on key arrays, as JAX's jnp functions take
        them: on the key data, its trailing key dimensions kept."""
        ks = None
        args_flat = [x for a in args for x in (a if isinstance(a, (list, tuple)) else (a,))]

        def data(k, what):
            nonlocal ks
            # (JAX promotes the operands: a key dtype does not promote.)
            if not isinstance(k, KeyArray) or (ks is not None and k._impl is not ks._impl):
                bad = ks if isinstance(k, KeyArray) else next(
                    a for a in args_flat if isinstance(a, KeyArray))
                raise ValueError(f"dtype={bad.dtype if ks is None else ks.dtype} is not a "
                                 f"valid dtype for JAX type promotion.")
            ks = k if ks is None else ks
            return k._data

        if name == "asarray":
            (a,), dtype = args, kwargs.get("dtype")
            if dtype is not None and dtypes.canonicalize(dtype) != a.dtype:
                raise ValueError(f"Cannot convert_element_type from {a.dtype} to "
                                 f"{np.dtype(dtype) if not isinstance(dtype, KeyDtype) else dtype}")
            return a
        if name in ("concatenate", "stack"):
            arrays, axis = args
            datas = [data(k, name) for k in arrays]
            ndim = len(aval_of(datas[0]).shape) - len(ks._impl.key_shape)
            if name == "concatenate":
                if ndim == 0:
                    raise ValueError("Zero-dimensional arrays cannot be concatenated.")
                axis = mnp._normalize_axis(name, axis, ndim)
                return KeyArray(mnp.concatenate(datas, axis), ks._impl)
            axis = mnp._normalize_axis(name, axis, ndim + 1)
            return KeyArray(mnp.stack(datas, axis), ks._impl)
        if name == "where":
            cond, x, y = args
            dx, dy = data(x, "where"), data(y, "where")
            kshape = tuple(ks._impl.key_shape)
            cond = mnp.asarray(cond)
            shape = util.broadcast_shapes(aval_of(cond).shape, x.shape, y.shape)
            full = shape + kshape
            cond = lax.reshape(cond, aval_of(cond).shape + (1,) * len(kshape))
            return KeyArray(lax.select(mnp.broadcast_to(mnp.asarray(cond, bool), full),
                                       mnp.broadcast_to(dx, full), mnp.broadcast_to(dy, full)),
                            ks._impl)
        if name == "broadcast_to":
            k, shape = args
            shape = (shape,) if isinstance(shape, int) else tuple(shape)
            return KeyArray(mnp.broadcast_to(data(k, name), shape + tuple(k._impl.key_shape)),
                            k._impl)
        if name == "expand_dims":
            k, axis = args
            axes = axis if isinstance(axis, (tuple, list)) else (axis,)
            out_ndim = k.ndim + len(axes)
            axes = sorted(mnp._normalize_axis(name, a, out_ndim) for a in axes)
            shape = list(k.shape)
            for a in axes:
                shape.insert(a, 1)
            return k.reshape(tuple(shape))
        raise TypeError(f"{name} does not accept PRNG key arrays")

    def _abstract(name):  # noqa: N805 (a method factory)
        def method(self, *args, **kwargs):
            raise NotImplementedError(f"Cannot call abstract method {name}")
        method.__name__ = name
        return method

    for _name in ("all", "any", "argmax", "argmin", "argpartition", "argsort", "astype",
                  "choose", "clip", "compress", "conj", "conjugate", "cumprod", "cumsum",
                  "diagonal", "dot", "max", "mean", "min", "nonzero", "prod", "ptp",
                  "repeat", "round", "searchsorted", "sort", "std", "sum", "trace", "var",
                  "view", "item"):
        locals()[_name] = _abstract(_name)
    del _name, _abstract

    def __bool__(self):
        raise TypeError("key array cannot be converted to boolean.")

    def __array__(self, dtype=None, copy=None):
        raise TypeError("mlax array with PRNGKey dtype cannot be converted to a NumPy "
                        "array. Use mlax.random.key_data(arr) if you wish to extract the "
                        "underlying integer array.")

    __hash__ = None

    def block_until_ready(self):
        if isinstance(self._data, Array):
            self._data.block_until_ready()
        return self

    def devices(self):
        return self._data.devices()

    def __eq__(self, other):
        if not isinstance(other, KeyArray):
            return NotImplemented
        if other._impl is not self._impl:
            raise TypeError(f"cannot compare key arrays of dtypes {self.dtype} and "
                            f"{other.dtype}")
        return reductions.all(ufuncs.equal(self._data, other._data), axis=-1)

    def __ne__(self, other):
        if not isinstance(other, KeyArray):
            return NotImplemented
        return ufuncs.logical_not(self == other)

    def __repr__(self):
        if isinstance(self._data, Tracer):
            return f"Traced<{self.dtype}[{','.join(map(str, self.shape))}]>"
        return f"Array({self.shape}, dtype={self.dtype}) overlaying:\n{self._data}"


# The implementation is the node's static part: jitted samplers are traced
# once per implementation.
def _unflatten_key_array(impl, children):
    data = children[0]
    # A key array's tangent or cotangent (grad(..., allow_int=True) of a
    # key) is float0 zeros of the key array's shape, as JAX's.
    if isinstance(data, np.ndarray) and data.dtype == dtypes.float0:
        return np.zeros(data.shape[:data.ndim - len(impl.key_shape)], dtypes.float0)
    return KeyArray(data, impl)


# A node to mlax's transformations (they trace the key data), a leaf to
# users' tree functions, as JAX's key arrays are (base.public_tree).
registry.register_node(KeyArray, lambda k: ((k._data,), k._impl), _unflatten_key_array)
public_tree.register_leaf_type(KeyArray)


# ---------------------------------------------------------------------------
# Argument checks
# ---------------------------------------------------------------------------

def _is_arraylike(x):
    return isinstance(x, (Array, Tracer, np.ndarray, np.generic)) or hasattr(x, "__jax_array__") \
        or type(x).__module__.startswith("jax")


def _default_impl():
    return _IMPLS[config.jax_default_prng_impl]


def _check_key(name, key, allow_batched=False):
    """(the typed key array, was_raw). A raw key is uint32 data of the
    `jax_default_prng_impl` implementation, as in JAX."""
    if isinstance(key, KeyArray):
        typed, raw = key, False
    elif _is_arraylike(key):
        if type(key).__module__.startswith("jax") and "key<" in str(getattr(key, "dtype", "")):
            raise TypeError(f"mlax.random.{name}: got a JAX typed key; pass "
                            "jax.random.key_data(key) (or a mlax key) instead")
        impl = _default_impl()
        aval = aval_of(key)
        n = impl.key_shape[0]
        if aval.dtype != _U32 or not aval.shape or aval.shape[-1] != n:
            raise TypeError(
                f"mlax.random.{name}: a raw PRNG key of the default implementation "
                f"(jax_default_prng_impl: {impl.name}) must be a uint32 array whose last "
                f"dimension is {n} (from mlax.random.PRNGKey), got {aval.str_short()}")
        typed = KeyArray(key if isinstance(key, (Array, Tracer)) else mnp.asarray(key), impl)
        raw = True
        legacy = config.jax_legacy_prng_key
        if legacy != "allow":
            message = ("Legacy uint32 key array passed as key to jax.random function. Please "
                       "create keys using jax.random.key(). If use of a raw key array was "
                       'intended, set jax_legacy_prng_key="allow".')
            if legacy == "error":
                raise ValueError(message)
            warnings.warn(message, stacklevel=3)
        elif config.jax_enable_custom_prng:
            warnings.warn("Raw arrays as random keys to jax.random functions are deprecated. "
                          f"Assuming valid {impl.name} key for now.", FutureWarning,
                          stacklevel=3)
    else:
        raise TypeError(f"unexpected PRNG key type {type(key)}")
    if not allow_batched and typed.shape:
        raise ValueError(f"{name} accepts a single key, but was given a key array of "
                         f"shape {typed.shape} != (). Use mlax.vmap for batching.")
    return typed, raw


def _wrap(keys, raw):
    """Keys made from a raw key are raw too, unless jax_enable_custom_prng."""
    return keys._data if raw and not config.jax_enable_custom_prng else keys


def _canonicalize_shape(shape, name):
    shape = concretize_seq(shape)
    if isinstance(shape, Tracer):
        raise errors.concretization(shape, f"the shape argument of mlax.random.{name}")
    if isinstance(shape, int):  # (a Python int n is (n,), as JAX's canonicalize_shape)
        shape = (shape,)
    try:
        if isinstance(shape, np.integer) or not isinstance(shape, Sequence | np.ndarray):
            raise TypeError
        out = []
        for d in shape:
            if isinstance(d, Tracer):
                raise errors.concretization(d, f"the shape argument of mlax.random.{name}")
            out.append(operator.index(d))
    except TypeError as e:
        if isinstance(e, errors.ConcretizationTypeError):
            raise
        raise TypeError(f"Shapes must be 1D sequences of concrete values of integer type, "
                        f"got {shape!r}.") from None
    if builtins.any(d < 0 for d in out):
        raise TypeError(f"mlax.random.{name}: shape {tuple(out)} has negative dimensions")
    return tuple(out)


def _check_shape(name, shape, *param_shapes):
    if param_shapes:
        try:
            shape_ = util.broadcast_shapes(shape, *param_shapes)
        except ValueError:
            shape_ = None
        if tuple(shape) != shape_:
            raise ValueError(
                f"{name} parameter shapes must be broadcast-compatible with shape argument, "
                f"and the result of broadcasting the shapes must equal the shape argument, "
                f"but got result {shape_ if shape_ is not None else 'an error'} for shape "
                f"argument {tuple(shape)} (parameter shapes "
                f"{', '.join(map(str, param_shapes))}).")


def _float_dtype(dtype, name, allow_complex=False):
    dt = dtypes.default_float() if dtype is None else dtypes.canonicalize(dtype)
    ok = dtypes.is_float(dt) or (allow_complex and dtypes.is_complex(dt))
    if not ok:
        kind = "a float or complex" if allow_complex else "a float"
        raise ValueError(f"dtype argument to `{name}` must be {kind} dtype, got {dt}")
    return dt


def _finfo(dtype):
    return ml_dtypes.finfo(dtype)


def _const(value, dtype):
    """A non-weak constant array of `dtype`."""
    return mnp.asarray(np.asarray(value, dtype=dtype))


# ---------------------------------------------------------------------------
# threefry2x32
# ---------------------------------------------------------------------------

def _rotate_left(x, d):
    """x rotated left by `d` bits; `d` a uint32 scalar (traced: the round's
    rotation is read from the loop state)."""
    shape = aval_of(x).shape
    left = lax.broadcast(d, shape)
    right = lax.broadcast(lax.sub(lax.full((), 32, _U32), d), shape)
    return lax.bitwise_or(lax.shift_left(x, left), lax.shift_right_logical(x, right))


def _apply_round(v, rot):
    v0 = lax.add(v[0], v[1])
    v1 = _rotate_left(v[1], rot)
    return [v0, lax.bitwise_xor(v0, v1)]


_ROTATIONS = ((13, 15, 26, 6), (17, 29, 16, 24))


def _threefry_group(i, state):
    """One of the cipher's five groups of four rounds and its key injection.
    The key words and the two rotation tables rotate through the loop state
    (as JAX's `rolled_loop_step`), so one loop body serves all five."""
    x, ks, rotations = state
    shape = aval_of(x[0]).shape
    for j in range(4):
        x = _apply_round(x, lax.reshape(lax.slice(rotations[0], (j,), (j + 1,)), ()))
    count = lax.broadcast(lax.convert_element_type(lax.add(i, 1), _U32), shape)
    x = [lax.add(x[0], lax.broadcast(ks[0], shape)),
         lax.add(lax.add(x[1], lax.broadcast(ks[1], shape)), count)]
    return x, ks[1:] + ks[:1], rotations[1:] + rotations[:1]


def threefry2x32(key1, key2, x1, x2):
    """The Threefry-2x32 block cipher (20 rounds) on uint32 arrays of one
    shape, keyed by two uint32 scalars; returns the two output words.

    The rounds are a 5-step loop, not unrolled: that is what JAX hands XLA
    on CPU, and XLA compiles the unrolled 20 rounds (fused with whatever
    consumes them) many times slower. The bits are the same either way."""
    from mlax._src.lax.control_flow import fori_loop

    shape = aval_of(x1).shape
    k3 = lax.bitwise_xor(lax.bitwise_xor(key1, key2), lax.full((), 0x1BD11BDA, _U32))
    x = [lax.add(x1, lax.broadcast(key1, shape)), lax.add(x2, lax.broadcast(key2, shape))]
    rotations = [_const(r, _U32) for r in _ROTATIONS]
    x, _, _ = fori_loop(0, 5, _threefry_group, (x, [key2, k3, key1], rotations))
    return x[0], x[1]


def _threefry_2x32(key, count):
    """JAX's `threefry_2x32(keypair, count)`: hashes a uint32 array of any
    shape, its two halves forming the cipher's two words."""
    key1, key2 = key[0], key[1]
    shape = aval_of(count).shape
    flat = lax.reshape(count, (math.prod(shape),))
    n = aval_of(flat).shape[0]
    odd = n % 2
    if odd:
        flat = lax.concatenate([flat, lax.full((1,), 0, _U32)], 0)
    half = (n + odd) // 2
    x0 = lax.slice(flat, (0,), (half,))
    x1 = lax.slice(flat, (half,), (2 * half,))
    y0, y1 = threefry2x32(key1, key2, x0, x1)
    out = lax.concatenate([y0, y1], 0)
    if odd:
        out = lax.slice(out, (0,), (n,))
    return lax.reshape(out, shape)


def _iota_2x32(shape):
    """(high, low) 32-bit words of a row-major uint64 iota of `shape`."""
    size = math.prod(shape)
    if size >= 2 ** 32:
        # The flat index as (rows, 2**16): hi = row >> 16, lo = row << 16 | column
        # (wrapping), the padding past `size` cut off.
        k = 16
        rows = -(-size // 2 ** k)
        if rows >= 2 ** 32:
            raise NotImplementedError("mlax.random: more than 2**48 random values at once")
        r = lax.broadcasted_iota(_U32, (rows, 2 ** k), 0)
        c = lax.broadcasted_iota(_U32, (rows, 2 ** k), 1)
        hi = lax.shift_right_logical(r, lax.full((rows, 2 ** k), 32 - k, _U32))
        lo = lax.bitwise_or(lax.shift_left(r, lax.full((rows, 2 ** k), k, _U32)), c)

        def cut(w):
            w = lax.reshape(w, (rows * 2 ** k,))
            if rows * 2 ** k != size:
                w = lax.slice(w, (0,), (size,))
            return lax.reshape(w, shape)

        return cut(hi), cut(lo)
    hi = lax.full(shape, 0, _U32)
    if not shape:
        return hi, hi
    lo = lax.reshape(lax.iota(_U32, size), shape)
    return hi, lo


def _int_seed_words(seed):
    """The threefry key of a Python int seed, as a NumPy uint32[2]. As JAX:
    the int is taken as an int64, then canonicalized (to int32 unless x64
    is enabled)."""
    value = int(np.int64(seed))
    if not dtypes.canonicalize(np.int64) == dtypes.int64:
        value = int(np.int64(value).astype(np.int32))
        hi = 0
    else:
        hi = (value >> 32) & 0xFFFFFFFF
    return np.array([hi, value & 0xFFFFFFFF], dtype=np.uint32)


def _np_seed_words(seed):
    """The threefry key of a NumPy integer scalar seed: as JAX's
    threefry_seed of it as an array of its (canonicalized) dtype, the high
    word its upper 32 bits (0 for types of 32 bits or fewer), the low word
    its lower 32 bits."""
    a = np.asarray(seed)
    a = a.astype(dtypes.canonicalize(a.dtype))
    if a.dtype.itemsize == 8:
        u = int(a.astype(np.uint64))
        return np.array([u >> 32, u & 0xFFFFFFFF], dtype=np.uint32)
    return np.array([0, int(a.astype(np.uint32))], dtype=np.uint32)


def _seed_data(seed):
    """The uint32[2] key of an integer seed (JAX's threefry_seed)."""
    if isinstance(seed, (bool, np.bool_)) or (
            not isinstance(seed, (int, np.integer)) and not _is_arraylike(seed)):
        raise TypeError(f"PRNG key seed must be an integer; got {seed!r}")
    if isinstance(seed, int):
        return mnp.asarray(_int_seed_words(seed))
    hi, lo = _seed_words(seed)
    return lax.concatenate([lax.reshape(hi, (1,)), lax.reshape(lo, (1,))], 0)


def _seed_words(seed):
    """An integer array seed's high and low 32-bit words, as JAX's seed
    functions read them (the high word is 0 for a seed of 32 bits or fewer)."""
    aval = aval_of(seed)
    if aval.shape:
        raise TypeError(f"PRNG key seed must be a scalar; got {seed!r}.")
    if not dtypes.is_int(aval.dtype):
        raise TypeError(f"PRNG key seed must be an integer; got {seed!r}")
    seed = mnp.asarray(seed)
    if aval.dtype.itemsize == 8:
        hi = lax.convert_element_type(
            lax.shift_right_logical(seed, lax.full((), 32, aval.dtype)), _U32)
    else:
        hi = lax.full((), 0, _U32)
    return hi, lax.convert_element_type(seed, _U32)


def _threefry_split(key, shape):
    if not config.jax_threefry_partitionable:
        return _threefry_split_original(key, shape)
    hi, lo = _iota_2x32(shape)
    b1, b2 = threefry2x32(key[0], key[1], hi, lo)
    nd = len(shape)
    return lax.concatenate([lax.reshape(b1, shape + (1,)), lax.reshape(b2, shape + (1,))], nd)


def _threefry_fold_in(key, data):
    counts = lax.concatenate([lax.full((1,), 0, _U32), lax.reshape(data, (1,))], 0)
    return _threefry_2x32(key, counts)


def _threefry_split_original(key, shape):
    """JAX's split under jax_threefry_partitionable=False (its default
    before 0.5): the hash of an iota of twice as many counts."""
    num = math.prod(shape)
    return lax.reshape(_threefry_2x32(key, lax.iota(_U32, num * 2)), shape + (2,))


def _threefry_random_bits_original(key, bit_width, shape):
    """JAX's random bits under jax_threefry_partitionable=False: the hash of
    an iota of as many 32-bit words as the bits need, cut into `bit_width`
    pieces (64-bit: the two halves of the words joined)."""
    size = math.prod(shape)
    max_count = -(-bit_width * size // 32)
    if max_count >= np.iinfo(np.uint32).max:
        raise NotImplementedError("mlax.random: more than 2**32 random words at once")
    bits = _threefry_2x32(key, lax.iota(_U32, max_count))
    dtype = _UINT[bit_width]
    if bit_width == 64:
        half = max_count // 2
        hi = lax.convert_element_type(lax.slice(bits, (0,), (half,)), dtype)
        lo = lax.convert_element_type(lax.slice(bits, (half,), (max_count,)), dtype)
        bits = lax.bitwise_or(lax.shift_left(hi, lax.full((half,), 32, dtype)), lo)
    elif bit_width in (8, 16):
        per_word = 32 // bit_width
        shifts = lax.mul(lax.full((per_word, 1), bit_width, _U32),
                         lax.broadcasted_iota(_U32, (per_word, 1), 0))
        pieces = lax.bitwise_and(
            lax.full((per_word, max_count), np.iinfo(dtype).max, _U32),
            lax.shift_right_logical(lax.broadcast_in_dim(bits, (per_word, max_count), (1,)),
                                    lax.broadcast_in_dim(shifts, (per_word, max_count),
                                                         (0, 1))))
        pieces = lax.reshape(lax.transpose(pieces, (1, 0)), (max_count * per_word,))
        bits = lax.slice(lax.convert_element_type(pieces, dtype), (0,), (size,))
    return lax.reshape(bits, shape)


def _threefry_random_bits(key, bit_width, shape):
    if not config.jax_threefry_partitionable:
        return _threefry_random_bits_original(key, bit_width, shape)
    hi, lo = _iota_2x32(shape)
    words = threefry2x32(key[0], key[1], hi, lo)
    return _bits_of_words(words, bit_width, words)


def _bits_of_words(words, bit_width, hi_lo):
    """Random bits of `bit_width` from a cipher's output words (uint32
    arrays of one shape): 64-bit values join the `hi_lo` pair; narrower ones
    are the xor of all the words (JAX's rule for each of its ciphers)."""
    dtype = _UINT[bit_width]
    if bit_width == 64:
        hi, lo = (lax.convert_element_type(w, dtype) for w in hi_lo)
        shape = aval_of(hi).shape
        return lax.bitwise_or(lax.shift_left(hi, lax.full(shape, 32, dtype)), lo)
    bits = words[0]
    for w in words[1:]:
        bits = lax.bitwise_xor(bits, w)
    return bits if bit_width == 32 else lax.convert_element_type(bits, dtype)


# rbg and unsafe_rbg (JAX's jax/_src/random/rbg.py): uint32[4] keys whose
# bits come from XLA's rng_bit_generator. rbg splits and folds in with
# threefry on each half of the key; unsafe_rbg does both with the generator
# itself (cheaper, and with no guarantee that the streams are independent).

def _rbg_seed(half):
    """An rbg key from the threefry key of the same seed: the half twice."""
    return lax.concatenate([half, half], 0)


def _halves(key):
    return [lax.reshape(lax.slice(key, (2 * h,), (2 * h + 2,)), (2,)) for h in (0, 1)]


def _rbg_split(key, shape):
    # Each half split as a threefry key; key j of the result is
    # (half 0's key j, half 1's key j).
    nd = len(shape)
    parts = [lax.reshape(_threefry_split(half, shape), shape + (1, 2)) for half in _halves(key)]
    return lax.reshape(lax.concatenate(parts, nd), shape + (4,))


def _rbg_fold_in(key, data):
    return lax.concatenate([_threefry_fold_in(half, data) for half in _halves(key)], 0)


def _rbg_random_bits(key, bit_width, shape):
    _, bits = rng_bit_generator(key, shape, dtype=_UINT[bit_width])
    return bits


def _unsafe_rbg_split(key, shape):
    # Ten draws of the generator per new key, as a hash: every tenth row.
    num = math.prod(shape)
    _, keys = rng_bit_generator(key, (10 * num, 4), dtype=_U32)
    keys = lax.slice(keys, (0, 0), (10 * num, 4), (10, 1))
    return lax.reshape(keys, shape + (4,))


def _unsafe_rbg_fold_in(key, data):
    # The generator keyed by the rbg seed of `data` (threefry's [0, data],
    # twice); its tenth draw is xored into the key.
    seed = lax.concatenate([lax.full((1,), 0, _U32), lax.reshape(data, (1,))], 0)
    _, bits = rng_bit_generator(_rbg_seed(seed), (10, 4), dtype=_U32)
    return lax.bitwise_xor(key, lax.reshape(lax.slice(bits, (9, 0), (10, 4)), (4,)))


def _rbg_seed_data(seed):
    return _rbg_seed(_seed_data(seed))


_THREEFRY.seed, _THREEFRY.split, _THREEFRY.fold_in, _THREEFRY.random_bits = (
    _seed_data, _threefry_split, _threefry_fold_in, _threefry_random_bits)
_RBG.seed, _RBG.split, _RBG.fold_in, _RBG.random_bits = (
    _rbg_seed_data, _rbg_split, _rbg_fold_in, _rbg_random_bits)
_UNSAFE_RBG.seed, _UNSAFE_RBG.split, _UNSAFE_RBG.fold_in, _UNSAFE_RBG.random_bits = (
    _rbg_seed_data, _unsafe_rbg_split, _unsafe_rbg_fold_in, _rbg_random_bits)


# What the samplers call: typed keys in, typed keys (or bits) out, by the
# key's implementation.

def _split_key(key, shape):
    """`shape` new keys from the single typed key `key`."""
    key_reuse.sink(key, "random_split")
    return KeyArray(key._impl.split(key._data, tuple(shape)), key._impl)


def _fold_in_key(key, data):
    return KeyArray(key._impl.fold_in(key._data, data), key._impl)


def _random_bits(key, bit_width, shape):
    """Uniform bits of `shape` as unsigned ints of `bit_width` from the single
    typed key `key`."""
    key_reuse.sink(key, "random_bits")
    return key._impl.random_bits(key._data, bit_width, tuple(shape))


def _jit(static_argnums=()):
    """The samplers are jitted, as JAX's are, so XLA sees the same whole
    programs (and eager calls hit a compiled cache)."""
    def wrap(fun):
        from mlax._src.jit import api

        return api.jit(fun, static_argnums=static_argnums)

    return wrap


@_jit(static_argnums=(1,))
def _split_jit(key, shape):
    return _split_key(key, shape)


@_jit()
def _fold_in_jit(key, data):
    return _fold_in_key(key, data)


@_jit(static_argnums=(1, 2))
def _bits_jit(key, bit_width, shape):
    return _random_bits(key, bit_width, shape)


@_jit(static_argnums=(1,))
def _seed_jit(seeds, impl):
    """The key data of `impl` for integer seeds of any shape: its seed
    function, vmapped over the seeds' dimensions (JAX's random_seed)."""
    from mlax._src.transforms.vmap import vmap

    seed = impl.seed
    for _ in range(aval_of(seeds).ndim):
        seed = vmap(seed)
    return seed(seeds)


def _int_seed(seed):
    """A Python int seed as JAX's random_seed reads it: an int64,
    canonicalized (wrapped to int32 without x64)."""
    return np.asarray(np.int64(seed)).astype(dtypes.canonicalize(np.int64))


# ---------------------------------------------------------------------------
# Keys
# ---------------------------------------------------------------------------

def _make_key_data(ctor, seed, impl):
    """The raw key data of `impl` for an integer seed (JAX's `seed`: rbg's
    key is threefry's twice)."""
    if isinstance(seed, KeyArray):
        raise TypeError(f"{ctor} accepts a scalar seed, but was given a PRNG key.")
    if np.ndim(seed) if not isinstance(seed, (Array, Tracer)) else aval_of(seed).ndim:
        raise TypeError(f"{ctor} accepts a scalar seed, but was given an array of shape "
                        f"{aval_of(seed).shape} != (). Use mlax.vmap for batching")
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, (bool, np.bool_)):
        if impl in (_THREEFRY, _RBG, _UNSAFE_RBG):  # no compile for these
            words = (_int_seed_words(seed) if isinstance(seed, int)
                     else _np_seed_words(seed))
            if impl is not _THREEFRY:
                words = np.concatenate([words, words])
            return mnp.asarray(words)
        return _seed_jit(_int_seed(seed) if isinstance(seed, int) else mnp.asarray(seed), impl)
    if isinstance(seed, (Array, Tracer)) or _is_arraylike(seed):
        aval = aval_of(seed)
        if not dtypes.is_int(aval.dtype):
            raise TypeError(f"PRNG key seed must be an integer; got {seed!r}")
        return _seed_jit(seed, impl)
    raise TypeError(f"PRNG key seed must be an integer; got {seed!r}")


# JAX's PRNG implementations' names, in the order its error lists them.
_JAX_IMPLS = ("philox2x32", "philox4x32", "threefry2x32", "rbg", "unsafe_rbg", "threefry4x32")


def _resolve_impl(impl):
    """The implementation `impl` names, as JAX's PRNG functions take it: None
    (`jax_default_prng_impl`), a name, or an implementation object (mlax's
    or JAX's: jax.extend.random.rbg_prng_impl, a key dtype, the result of
    key_impl, define_prng_impl's spec). An unknown name is JAX's ValueError,
    another type JAX's TypeError."""
    if impl is None:
        return _default_impl()
    if isinstance(impl, PRNGImpl):
        return impl
    if isinstance(impl, (PRNGSpec, KeyDtype)):
        return impl._impl
    inner = getattr(impl, "_impl", None)  # JAX's PRNGSpec and key dtypes
    # (not a key array, which also knows its implementation: JAX refuses it)
    if inner is not None and not isinstance(impl, str) and not hasattr(impl, "shape"):
        impl = inner
    name = impl if isinstance(impl, str) else getattr(impl, "name", None)
    if not isinstance(name, str):
        raise TypeError(f"unrecognized type {type(impl)} for specifying PRNG implementation.")
    if name in _IMPLS:
        return _IMPLS[name]
    names = ", ".join(f'"{n}"' for n in _JAX_IMPLS)
    raise ValueError(f'unrecognized PRNG implementation "{name}". Did you mean one of: '
                     f"{names}?")


def _impl_or_dtype(impl, dtype, ctor):
    if dtype is not None:
        if impl is not None:
            raise ValueError(f"Cannot specify both `impl` and `dtype` arguments to "
                             f"mlax.random.{ctor}")
        impl = dtype
    return _resolve_impl(impl)


def PRNGKey(seed, *, impl=None):  # noqa: N802 (JAX's name)
    """A raw (legacy) PRNG key, as jax.random.PRNGKey: uint32[2] for
    threefry2x32, uint32[4] for rbg and unsafe_rbg. It does not carry its
    implementation: the functions that take it read it as the
    `jax_default_prng_impl` one. Under jax_enable_custom_prng it is a
    typed key, as JAX's."""
    impl = _resolve_impl(impl)
    data = _make_key_data("PRNGKey", seed, impl)
    return KeyArray(data, impl) if config.jax_enable_custom_prng else data


def key(seed, *, impl=None, dtype=None):
    """A typed PRNG key (shape (); dtype key<fry>, key<rbg> or key<urbg>),
    as jax.random.key."""
    impl = _impl_or_dtype(impl, dtype, "key")
    return KeyArray(_make_key_data("key", seed, impl), impl)


def define_prng_impl(*, key_shape, seed, split, random_bits, fold_in, name="<unnamed>",
                     tag="?"):
    """A user-defined PRNG implementation (jax.extend.random.define_prng_impl)
    for `key(..., impl=...)`, `wrap_key_data` and `random_seed`: functions
    on one key's uint32 data of shape `key_shape`, written with mlax ops
    (they are traced into the samplers' programs). Returns a PRNGSpec."""
    return PRNGSpec(PRNGImpl(name, tag, key_shape, seed, split, fold_in, random_bits))


def random_seed(seeds, impl):
    """Typed keys of `impl` from integer seeds of any shape, each seeded by
    the implementation's seed function (jax.extend.random.random_seed)."""
    impl = _resolve_impl(impl)
    if isinstance(seeds, (int, np.integer)) and not isinstance(seeds, (bool, np.bool_)):
        seeds = _int_seed(seeds)
    if not isinstance(seeds, (Array, Tracer)):
        seeds = mnp.asarray(seeds)
    return KeyArray(_seed_jit(seeds, impl), impl)


def seed_with_impl(impl, seed):
    """A typed key of `impl` from an integer seed (jax.extend.random's)."""
    return random_seed(seed, impl)


@_jit()
def _threefry_2x32_jit(keypair, count):
    return _threefry_2x32(keypair, count)


def threefry_2x32(keypair, count):
    """The Threefry-2x32 hash of the uint32 array `count` under the key
    pair (two uint32 scalars), as jax.extend.random.threefry_2x32: the
    array's two halves are the cipher's two words."""
    key1, key2 = keypair
    args = [x if isinstance(x, (Array, Tracer)) else mnp.asarray(x) for x in (key1, key2, count)]
    if any(aval_of(x).dtype != _U32 for x in args):
        raise TypeError("threefry_2x32 requires uint32 arguments, got "
                        f"{[aval_of(x).dtype for x in args]}")
    return _threefry_2x32_jit(tuple(args[:2]), args[2])


def key_data(keys):
    """The uint32 data under a key array (a raw key is returned as is)."""
    typed_key, _ = _check_key("key_data", keys, allow_batched=True)
    return typed_key._data


def _check_key_data(impl, data):
    """JAX's checks of the data wrap_key_data wraps, with its TypeErrors."""
    if isinstance(data, KeyArray):
        ndim, shape, dtype = data.ndim, data.shape, data.dtype
    elif _is_arraylike(data):
        aval = aval_of(data)
        ndim, shape, dtype = aval.ndim, aval.shape, aval.dtype
    else:
        raise TypeError("mlax encountered invalid PRNG key data: expected key_data to have "
                        f"ndim, shape, and dtype attributes. Got {data}")
    n = len(impl.key_shape)
    if ndim < 1:
        raise TypeError("mlax encountered invalid PRNG key data: expected key_data.ndim >= 1; "
                        f"got ndim={ndim}")
    if tuple(shape[-n:]) != impl.key_shape:
        raise TypeError("mlax encountered invalid PRNG key data: expected key_data.shape to "
                        f"end with {impl.key_shape}; got shape={tuple(shape)} for "
                        f"impl={impl.name}")
    if dtype != _U32:
        raise TypeError("mlax encountered invalid PRNG key data: expected key_data.dtype = "
                        f"uint32; got dtype={dtype}")


def wrap_key_data(key_bits_array, *, impl=None, dtype=None):
    """A typed key array over uint32 key data (trailing dimension 2 for
    threefry2x32, 4 for rbg and unsafe_rbg), as jax.random.wrap_key_data."""
    impl = _impl_or_dtype(impl, dtype, "wrap_key_data")
    _check_key_data(impl, key_bits_array)
    data = key_bits_array
    if not isinstance(data, (Array, Tracer)):
        data = mnp.asarray(data)
    return KeyArray(data, impl)


def key_dtype(impl=None):
    """The dtype of typed key arrays of an implementation (default: the
    `jax_default_prng_impl` one): key<fry>, key<rbg> or key<urbg>."""
    if impl == "threefry":  # an old alias mlax accepted
        impl = _THREEFRY
    return _key_dtype(_resolve_impl(impl))


def key_impl(keys):
    """The name of a key array's PRNG implementation, as jax.random.key_impl
    (a raw key's is `jax_default_prng_impl`)."""
    typed_key, _ = _check_key("key_impl", keys, allow_batched=True)
    return typed_key._impl.name


def split(key, num=2):
    """`num` new keys (or an array of keys of shape `num`) from one key."""
    typed_key, raw = _check_key("split", key)
    shape = tuple(num) if isinstance(num, Sequence) else (num,)
    shape = _canonicalize_shape(shape, "split")
    return _wrap(_split_jit(typed_key, shape), raw)


def fold_in(key, data):
    """A new key that is a deterministic function of `key` and the 32-bit
    integer `data`."""
    typed_key, raw = _check_key("fold_in", key)
    if np.ndim(data) if not isinstance(data, (Array, Tracer)) else aval_of(data).ndim:
        raise TypeError("fold_in accepts a scalar, but was given an array of"
                        f"shape {aval_of(data).shape} != (). Use mlax.vmap for batching.")
    if isinstance(data, int) and not isinstance(data, bool):
        if not 0 <= data < 2 ** 32:
            raise OverflowError(f"Python integer {data} out of bounds for uint32")
        msg = np.asarray(data, dtype=np.uint32)
    elif isinstance(data, np.integer):
        msg = np.asarray(data).astype(np.uint32)
    else:
        msg = lax.convert_element_type(data, _U32)
    return _wrap(_fold_in_jit(typed_key, msg), raw)


def clone(key):
    """`key` itself, as a key not consumed yet (JAX's clone: with
    jax_debug_key_reuse on, the copy may be used once more)."""
    if isinstance(key, KeyArray):
        return KeyArray(key._data, key._impl)
    return key


def bits(key, shape=(), dtype=None):
    """Uniform random bits as unsigned integers of `dtype` (default uint32)."""
    typed_key, _ = _check_key("bits", key)
    if dtype is None:
        dtype = dtypes.canonicalize(np.uint64)
    else:
        dtype = dtypes.canonicalize(dtype)
    if not dtypes.is_unsigned(dtype):
        raise ValueError(f"dtype argument to `bits` must be an unsigned int dtype, got {dtype}")
    shape = _canonicalize_shape(shape, "bits")
    return _bits_jit(typed_key, dtype.itemsize * 8, shape)


# ---------------------------------------------------------------------------
# Samplers
# ---------------------------------------------------------------------------

def _broadcast_to_rank(x, rank):
    aval = aval_of(x)
    if aval.ndim >= rank:
        return x
    return lax.reshape(x, (1,) * (rank - aval.ndim) + aval.shape)


def _uniform_impl(key, minval, maxval, shape, dtype):
    _check_shape("uniform", shape)
    minval = _broadcast_to_rank(lax.convert_element_type(minval, dtype), len(shape))
    maxval = _broadcast_to_rank(lax.convert_element_type(maxval, dtype), len(shape))
    finfo = _finfo(dtype)
    nbits, nmant = finfo.bits, finfo.nmant
    if nbits not in (8, 16, 32, 64):
        raise TypeError(f"uniform only accepts 8-, 16-, 32-, or 64-bit dtypes, got {dtype}.")
    rng_bits = 8 if nmant < 8 else nbits
    rbits = _random_bits(key, rng_bits, shape)
    uint_dtype = _UINT[nbits]
    if rng_bits != nbits:
        rbits = lax.convert_element_type(rbits, uint_dtype)
    float_bits = lax.shift_right_logical(rbits, lax.full(shape, rng_bits - nmant, uint_dtype))
    one_bits = int(np.array(1.0, dtype).view(uint_dtype))
    float_bits = lax.bitwise_or(float_bits,
                                lax.full(shape, np.asarray(one_bits, uint_dtype), uint_dtype))
    floats = lax.sub(lax.bitcast_convert_type(float_bits, dtype), lax.full(shape, 1, dtype))
    scaled = ufuncs.add(ufuncs.multiply(floats, lax.sub(maxval, minval)
                                  if aval_of(maxval).shape == aval_of(minval).shape
                                  else ufuncs.subtract(maxval, minval)), minval)
    return ufuncs.maximum(minval, lax.reshape(scaled, shape))


_uniform_jit = _jit(static_argnums=(3, 4))(_uniform_impl)


def uniform(key, shape=(), dtype=None, minval=0.0, maxval=1.0):
    """Uniform floats in [minval, maxval)."""
    typed_key, _ = _check_key("uniform", key)
    dtype = _float_dtype(dtype, "uniform")
    shape = _canonicalize_shape(shape, "uniform")
    util._check_arg("uniform", minval)
    util._check_arg("uniform", maxval)
    _check_shape("uniform", shape, aval_of(minval).shape, aval_of(maxval).shape)
    return _uniform_jit(typed_key, minval, maxval, shape, dtype)


def _normal_real(key, shape, dtype):
    _check_shape("normal", shape)
    lo = np.nextafter(np.array(-1.0, dtype), np.array(0.0, dtype), dtype=dtype)
    hi = np.array(1.0, dtype)
    u = _uniform_impl(key, lo, hi, shape, dtype)
    return lax.mul(lax.full(shape, np.sqrt(2), dtype), lax.erf_inv(u))


def _normal_impl(key, shape, dtype):
    if dtypes.is_complex(dtype):
        # As JAX's _normal: independent real and imaginary parts from the
        # key's two halves, each of variance 1/2.
        keys = _split_key(key, (2,))
        real_dtype = np.zeros((), dtype).real.dtype
        re = lax.convert_element_type(_normal_real(keys[0], shape, real_dtype), dtype)
        im = lax.convert_element_type(_normal_real(keys[1], shape, real_dtype), dtype)
        z = lax.add(re, lax.mul(lax.full(shape, 1j, dtype), im))
        return lax.div(z, lax.full(shape, np.sqrt(2), dtype))
    return _normal_real(key, shape, dtype)


_normal_jit = _jit(static_argnums=(1, 2))(_normal_impl)


def normal(key, shape=(), dtype=None):
    """Standard normal floats."""
    typed_key, _ = _check_key("normal", key)
    shape = _canonicalize_shape(shape, "normal")
    dtype = _float_dtype(dtype, "normal", allow_complex=True)
    return _normal_jit(typed_key, shape, dtype)


@_jit(static_argnums=(3, 4))
def _truncated_normal_jit(key, lower, upper, shape, dtype):
    if shape is None:
        shape = util.broadcast_shapes(aval_of(lower).shape, aval_of(upper).shape)
    else:
        _check_shape("truncated_normal", shape, aval_of(lower).shape, aval_of(upper).shape)
    lower = lax.convert_element_type(lower, dtype)
    upper = lax.convert_element_type(upper, dtype)
    sqrt2 = _const(np.sqrt(2), dtype)
    a = lax.erf(ufuncs.divide(lower, sqrt2))
    b = lax.erf(ufuncs.divide(upper, sqrt2))
    u = _uniform_impl(key, a, b, shape, dtype)
    out = ufuncs.multiply(sqrt2, lax.erf_inv(u))
    lo = lax.nextafter(lower, lax.full(aval_of(lower).shape, np.inf, dtype))
    hi = lax.nextafter(upper, lax.full(aval_of(upper).shape, -np.inf, dtype))
    return ufuncs.clip(out, lo, hi)


def truncated_normal(key, lower, upper, shape=None, dtype=None):
    """Standard normal floats truncated to (lower, upper)."""
    if shape is not None:
        shape = _canonicalize_shape(shape, "truncated_normal")
    typed_key, _ = _check_key("truncated_normal", key)
    dtype = _float_dtype(dtype, "truncated_normal")
    return _truncated_normal_jit(typed_key, lower, upper, shape, dtype)


@_jit(static_argnums=(2, 3))
def _bernoulli_jit(key, p, shape, mode):
    if shape is None:
        shape = aval_of(p).shape
    else:
        _check_shape("bernoulli", shape, aval_of(p).shape)
    dtype = aval_of(p).dtype
    if mode == "high":
        both = _uniform_impl(key, 0.0, 1.0, (2, *shape), dtype)
        u1, u2 = both[0], both[1]
        u2 = ufuncs.multiply(u2, 2.0 ** -_finfo(dtype).nmant)
        return ufuncs.less(u2, ufuncs.subtract(p, u1))
    return ufuncs.less(_uniform_impl(key, 0.0, 1.0, shape, dtype), p)


def bernoulli(key, p=0.5, shape=None, mode="low"):
    """Booleans that are True with probability p."""
    if shape is not None:
        shape = _canonicalize_shape(shape, "bernoulli")
    if mode not in ("high", "low"):
        raise ValueError(f"got mode={mode!r}, expected 'high' or 'low'")
    typed_key, _ = _check_key("bernoulli", key)
    aval = aval_of(p)
    if not dtypes.is_float(aval.dtype):
        raise TypeError(f"bernoulli probability `p` must have a floating dtype, got "
                        f"{aval.dtype}.")
    p = lax.convert_element_type(p, aval.dtype)
    return _bernoulli_jit(typed_key, p, shape, mode)


@_jit(static_argnums=(1, 2))
def _exponential_jit(key, shape, dtype):
    u = _uniform_impl(key, 0.0, 1.0, shape, dtype)
    return lax.neg(lax.log1p(lax.neg(u)))


def exponential(key, shape=(), dtype=None):
    """Exponential(1) floats."""
    typed_key, _ = _check_key("exponential", key)
    dtype = _float_dtype(dtype, "exponential")
    shape = _canonicalize_shape(shape, "exponential")
    return _exponential_jit(typed_key, shape, dtype)


def _safe_int_to_float(hi, lo):
    """Two uint32 words of a 64-bit fixed-point number in (0, 1) as a float32
    that keeps the precision of small values (JAX's _safe_int_to_float)."""
    shape = aval_of(hi).shape
    u32 = lambda v: lax.full(shape, np.uint32(v), _U32)  # noqa: E731
    hiclz, loclz = lax.clz(hi), lax.clz(lo)
    hi_is_zero = lax.eq(hiclz, u32(32))
    mantissa = lax.bitwise_or(
        lax.shift_left(hi, hiclz),
        lax.select(hi_is_zero, lax.shift_left(lo, loclz),
                   lax.shift_right_logical(lo, lax.sub(u32(32), hiclz))))
    mantissa = lax.shift_right_logical(mantissa, u32(32 - 23 - 1))
    mantissa = lax.bitwise_and(mantissa, u32((1 << 23) - 1))
    exp = lax.sub(u32(126), lax.select(hi_is_zero, lax.add(u32(32), loclz), hiclz))
    exp = lax.shift_left(exp, u32(23))
    exp = lax.bitwise_and(exp, u32((1 << 30) - (1 << 22)))
    return lax.bitcast_convert_type(lax.bitwise_or(exp, mantissa), dtypes.float32)


def _gumbel_highest_f32(key, shape):
    bits2 = _random_bits(key, 32, (2,) + shape)
    hi_bits, lo_bits = bits2[0], bits2[1]
    nhi, nlo = lax.bitwise_not(hi_bits), lax.bitwise_not(lo_bits)
    # 1 - bits in 64-bit fixed point.
    all_ones = lax.full(shape, np.uint32(2 ** 32 - 1), _U32)
    carry = lax.convert_element_type(lax.eq(nlo, all_ones), _U32)
    nhi = lax.add(nhi, carry)
    nlo = lax.add(nlo, lax.full(shape, 1, _U32))
    flip = lax.lt(hi_bits, lax.full(shape, np.uint32(1 << 31), _U32))
    x = _safe_int_to_float(lax.select(flip, hi_bits, nhi), lax.select(flip, lo_bits, nlo))
    low_half = lax.neg(lax.log(lax.neg(lax.log1p(lax.neg(x)))))
    high_half = lax.neg(lax.log(lax.neg(lax.log(x))))
    return lax.select(flip, low_half, high_half)


def _gumbel_impl(key, shape, dtype, mode):
    info = _finfo(dtype)
    if mode == "highest" and dtype == dtypes.float32:
        return _gumbel_highest_f32(key, shape)
    if mode in ("high", "highest"):
        both = _uniform_impl(key, 0.0, 1.0, (2,) + shape, dtype)
        high, low = both[0], both[1]
        x = mnp.where(ufuncs.greater_equal(high, 0.5), high,
                      ufuncs.add(ufuncs.add(high, ufuncs.multiply(2.0 ** -info.nmant, low)),
                              _const(info.tiny, dtype)))
        return lax.neg(lax.log(lax.neg(lax.log1p(lax.neg(x)))))
    u = _uniform_impl(key, np.asarray(info.tiny, dtype), 1.0, shape, dtype)
    return lax.neg(lax.log(lax.neg(lax.log(u))))


_gumbel_jit = _jit(static_argnums=(1, 2, 3))(_gumbel_impl)


def _gumbel_mode(mode):
    mode = "low" if mode is None else mode
    if mode not in ("highest", "high", "low"):
        raise ValueError(f"Must provide valid mode for gumbel got: {mode}")
    return mode


def gumbel(key, shape=(), dtype=None, mode=None):
    """Standard Gumbel floats."""
    typed_key, _ = _check_key("gumbel", key)
    dtype = _float_dtype(dtype, "gumbel")
    shape = _canonicalize_shape(shape, "gumbel")
    return _gumbel_jit(typed_key, shape, dtype, _gumbel_mode(mode))


def _argmax(x, axis):
    """First index of the maximum along `axis` (NaN counts as the maximum),
    as jnp.argmax (of the default int dtype)."""
    aval = aval_of(x)
    n = aval.shape[axis]
    m = lax.reduce_max(x, (axis,))
    m_b = lax.broadcast_in_dim(m, aval.shape, [d for d in range(aval.ndim) if d != axis])
    hit = lax.eq(x, m_b)
    if dtypes.is_float(aval.dtype):
        hit = lax.bitwise_or(hit, lax.bitwise_and(lax.ne(x, x), lax.ne(m_b, m_b)))
    int_t = dtypes.default_int()
    idx = lax.broadcasted_iota(int_t, aval.shape, axis)
    cand = lax.select(hit, idx, lax.full(aval.shape, n, int_t))
    return lax.reduce_min(cand, (axis,))


def _top_k_indices(x, k):
    """Indices of the k largest values along the last axis (ties: lower
    index first; NaN above everything), as lax.top_k's."""
    aval = aval_of(x)
    neg = lax.neg(x)
    idx = lax.broadcasted_iota(dtypes.int32, aval.shape, aval.ndim - 1)
    _, order = lax.sort_key_val(neg, idx, dimension=aval.ndim - 1)
    starts = (0,) * aval.ndim
    return lax.slice(order, starts, aval.shape[:-1] + (k,))


@_jit(static_argnums=(2, 3, 4, 5, 6))
def _categorical_jit(key, logits, shape, batch_shape, axis, replace, mode):
    shape_prefix = shape[:len(shape) - len(batch_shape)]
    ndim = aval_of(logits).ndim
    dtype = aval_of(logits).dtype
    if replace:
        if axis >= 0:
            axis -= ndim
        logits_shape = list(shape[len(shape) - len(batch_shape):])
        logits_shape.insert(axis % ndim, aval_of(logits).shape[axis])
        g = _gumbel_impl(key, (*shape_prefix, *logits_shape), dtype, mode)
        expanded = lax.reshape(logits, (1,) * len(shape_prefix) + aval_of(logits).shape)
        total = ufuncs.add(g, expanded)
        return _argmax(total, axis % aval_of(total).ndim)
    g = _gumbel_impl(key, aval_of(logits).shape, dtype, mode)
    logits = ufuncs.add(logits, g)
    k = math.prod(shape_prefix)
    n = aval_of(logits).shape[axis]
    if k > n:
        raise ValueError(f"Number of samples without replacement ({k}) cannot exceed "
                         f"number of categories ({n}).")
    moved = mnp.moveaxis(logits, axis, -1) if hasattr(mnp, "moveaxis") else \
        lax.transpose(logits, [d for d in range(ndim) if d != axis % ndim] + [axis % ndim])
    indices = _top_k_indices(moved, k)
    nd = aval_of(indices).ndim
    return lax.reshape(indices, shape, (nd - 1, *range(nd - 1)))


def categorical(key, logits, axis=-1, shape=None, replace=True, mode=None):
    """Samples from categorical distributions given by unnormalized log
    probabilities `logits` (Gumbel-max, or Gumbel-top-k without replacement)."""
    typed_key, _ = _check_key("categorical", key)
    util._check_arg("categorical", logits)
    logits = mnp.asarray(logits)
    aval = aval_of(logits)
    if not dtypes.is_float(aval.dtype):
        # As JAX (whose gumbel sampler gets the logits' dtype).
        raise ValueError(f"dtype argument to `gumbel` must be a float dtype, got {aval.dtype}")
    if not -aval.ndim <= axis < aval.ndim:
        raise ValueError(f"categorical: axis {axis} is out of bounds for logits of shape "
                         f"{aval.shape}")
    batch_shape = tuple(np.delete(np.array(aval.shape, dtype=np.int64), axis).tolist())
    if shape is None:
        shape = batch_shape
    else:
        shape = _canonicalize_shape(shape, "categorical")
        _check_shape("categorical", shape, batch_shape)
    return _categorical_jit(typed_key, logits, tuple(shape), batch_shape, int(axis), bool(replace),
                            _gumbel_mode(mode))


def _convert_and_clip_integer(val, dtype):
    vdt = aval_of(val).dtype
    lo = builtins.max(int(np.iinfo(dtype).min), int(np.iinfo(vdt).min))
    hi = builtins.min(int(np.iinfo(dtype).max), int(np.iinfo(vdt).max))
    clipped = ufuncs.clip(val, _const(lo, vdt), _const(hi, vdt))
    return lax.convert_element_type(clipped, dtype)


@_jit(static_argnums=(3, 4))
def _randint_jit(key, minval, maxval, shape, dtype):
    _check_shape("randint", shape, aval_of(minval).shape, aval_of(maxval).shape)
    minval = mnp.asarray(minval)
    maxval = mnp.asarray(maxval)
    if not dtypes.is_int(aval_of(minval).dtype):
        minval = mnp.astype(minval, dtypes.default_int())
    if not dtypes.is_int(aval_of(maxval).dtype):
        maxval = mnp.astype(maxval, dtypes.default_int())
    max_in_dtype = _convert_and_clip_integer(_const(np.iinfo(dtype).max, dtype),
                                             aval_of(maxval).dtype)
    maxval_out_of_range = ufuncs.greater(maxval, max_in_dtype)
    minval = _convert_and_clip_integer(minval, dtype)
    maxval = _convert_and_clip_integer(maxval, dtype)
    minval = _broadcast_to_rank(minval, len(shape))
    maxval = _broadcast_to_rank(maxval, len(shape))
    nbits = np.iinfo(dtype).bits
    keys = _split_key(key, (2,))
    higher_bits = _random_bits(keys[0], nbits, shape)
    lower_bits = _random_bits(keys[1], nbits, shape)
    udt = _UINT[nbits]
    span = lax.convert_element_type(ufuncs.subtract(maxval, minval), udt)
    span = mnp.where(ufuncs.less_equal(maxval, minval), _const(1, udt), span)
    span = mnp.where(ufuncs.logical_and(maxval_out_of_range, ufuncs.greater(maxval, minval)),
                     ufuncs.add(span, _const(1, udt)), span)
    span_full = mnp.broadcast_to(span, shape)
    multiplier = ufuncs.remainder(_const(2 ** (nbits // 2), udt), span)
    multiplier = lax.rem(lax.mul(multiplier, multiplier), span)
    multiplier = mnp.broadcast_to(multiplier, shape)
    random_offset = lax.add(lax.mul(lax.rem(higher_bits, span_full), multiplier),
                            lax.rem(lower_bits, span_full))
    random_offset = lax.rem(random_offset, span_full)
    return ufuncs.add(minval, lax.convert_element_type(random_offset, dtype))


def randint(key, shape, minval, maxval, dtype=None):
    """Uniform integers in [minval, maxval)."""
    typed_key, _ = _check_key("randint", key)
    dtype = dtypes.default_int() if dtype is None else dtypes.canonicalize(dtype)
    shape = _canonicalize_shape(shape, "randint")
    if not dtypes.is_int(dtype):
        raise TypeError(f"randint only accepts integer dtypes, got {dtype}")
    for v in (minval, maxval):
        util._check_arg("randint", v)
    info = ml_dtypes.iinfo(dtype)  # (int4 and uint4 too)
    sample_dtype = dtype
    if info.bits < 32:
        sample_dtype = dtypes.int32
        minval = ufuncs.clip(mnp.astype(mnp.asarray(minval), dtypes.int32), int(info.min),
                          int(info.max))
        maxval = ufuncs.clip(mnp.astype(mnp.asarray(maxval), dtypes.int32), int(info.min),
                          int(info.max) + 1)
    out = _randint_jit(typed_key, minval, maxval, shape, sample_dtype)
    return out if sample_dtype == dtype else mnp.astype(out, dtype)


def _take(arr, ind, axis):
    """jnp.take(arr, ind, axis) for in-range integer indices, as a gather
    (which vmap and grad know; mlax.take has no batching rule)."""
    aval, iaval = aval_of(arr), aval_of(ind)
    if dtypes.is_unsigned(iaval.dtype) or iaval.dtype.itemsize < 4:
        ind = lax.convert_element_type(ind, dtypes.int32)
    out_shape = aval.shape[:axis] + iaval.shape + aval.shape[axis + 1:]
    if aval.shape[axis] == 0 or iaval.size == 0:
        # Nothing to gather (and no gather with a slice of 1 fits an empty axis).
        return mnp.zeros(out_shape, aval.dtype)
    k = iaval.ndim
    dn = lax.GatherDimensionNumbers(
        offset_dims=tuple(range(axis)) + tuple(range(axis + k, aval.ndim - 1 + k)),
        collapsed_slice_dims=(axis,), start_index_map=(axis,))
    slice_sizes = aval.shape[:axis] + (1,) + aval.shape[axis + 1:]
    starts = lax.reshape(ind, iaval.shape + (1,))
    return lax.gather(arr, starts, dn, slice_sizes, mode="promise_in_bounds")


def _shuffle(key, x, axis):
    size = aval_of(x).size
    num_rounds = int(np.ceil(3 * np.log(builtins.max(1, size)) / np.log(np.iinfo(np.uint32).max)))
    for _ in range(num_rounds):
        keys = _split_key(key, (2,))
        key, subkey = keys[0], keys[1]
        sort_keys = _random_bits(subkey, 32, aval_of(x).shape)
        _, x = lax.sort_key_val(sort_keys, x, axis)
    return x


@_jit(static_argnums=(2, 3))
def _permutation_jit(key, x, axis, independent):
    if independent or aval_of(x).ndim == 1:
        return _shuffle(key, x, axis)
    ind = _shuffle(key, lax.iota(dtypes.default_int(), aval_of(x).shape[axis]), 0)
    return _take(x, ind, axis)


@_jit(static_argnums=(1,))
def _permutation_range_jit(key, n):
    return _shuffle(key, lax.iota(dtypes.default_int(), n), 0)


def permutation(key, x, axis=0, independent=False):
    """A random permutation of `arange(x)` (x an int) or of x along `axis`."""
    typed_key, _ = _check_key("permutation", key)
    util._check_arg("permutation", x)
    ndim = aval_of(x).ndim
    if not ndim:
        if not dtypes.is_int(aval_of(x).dtype):
            raise TypeError("x must be an integer or at least 1-dimensional")
        # (As JAX: the axis of arange(x), checked before x is read.)
        mnp._normalize_axis("permutation", axis, 1)
        x = concretize(x)
        if isinstance(x, Tracer):
            raise errors.concretization(x, "argument x of mlax.random.permutation()")
        return _permutation_range_jit(typed_key, int(x))
    axis = mnp._normalize_axis("permutation", axis, ndim)
    return _permutation_jit(typed_key, mnp.asarray(x), axis, bool(independent))


@_jit(static_argnums=(2,))
def _choice_p_jit(key, p, shape):
    p_cuml = lax.cumsum(p, 0)
    n = aval_of(p).shape[0]
    total = lax.slice(p_cuml, (n - 1,), (n,))
    total = lax.reshape(total, ())
    u = _uniform_impl(key, 0.0, 1.0, shape, aval_of(p).dtype)
    r = ufuncs.multiply(total, ufuncs.subtract(1, u))
    # searchsorted(p_cuml, r, side='left'): how many entries are < r.
    less = lax.lt(lax.broadcast_in_dim(p_cuml, shape + (n,), (len(shape),)),
                  lax.broadcast_in_dim(r, shape + (n,), tuple(range(len(shape)))))
    return lax.reduce_sum(lax.convert_element_type(less, dtypes.default_int()), (len(shape),))


def choice(key, a, shape=(), replace=True, p=None, axis=0, mode=None):
    """A random sample from `a` (an array, or `arange(a)` for an int)."""
    typed_key, _ = _check_key("choice", key)
    if not isinstance(shape, Sequence):
        raise TypeError(f"shape argument of mlax.random.choice must be a sequence, got {shape}")
    shape = _canonicalize_shape(shape, "choice")
    util._check_arg("choice", a)
    arr = mnp.asarray(a)
    aval = aval_of(arr)
    if aval.ndim == 0:
        a = concretize(a)
        if isinstance(a, Tracer):
            raise errors.concretization(a, "The error occurred in mlax.random.choice()")
        n_inputs = int(a)
    else:
        axis = mnp._normalize_axis("choice", axis, aval.ndim)
        n_inputs = aval.shape[axis]
    n_draws = math.prod(shape)
    if n_draws == 0:
        return mnp.zeros(shape, dtype=aval.dtype)
    if n_inputs <= 0:
        raise ValueError("a must be greater than 0 unless no samples are taken")
    if not replace and n_draws > n_inputs:
        raise ValueError(f"Cannot take a larger sample (size {n_draws}) than population "
                         f"(size {n_inputs}) when 'replace=False'")
    if p is None:
        if replace:
            ind = randint(typed_key, shape, 0, n_inputs)
            result = ind if aval.ndim == 0 else _take(arr, ind, axis)
        else:
            perm = permutation(typed_key, n_inputs if aval.ndim == 0 else arr, axis)
            index = (builtins.slice(None),) * axis + (builtins.slice(n_draws),)
            result = perm[index]
    else:
        util._check_arg("choice", p)
        p_arr, = util._promote_inexact("choice", p)
        p_arr = mnp.asarray(p_arr)
        if aval_of(p_arr).shape != (n_inputs,):
            raise ValueError(
                "p must be None or a 1D vector with the same size as a.shape[axis]. "
                f"p has shape {aval_of(p_arr).shape} and a.shape[axis] is {n_inputs}.")
        if replace:
            ind = _choice_p_jit(typed_key, p_arr, shape)
        else:
            g = ufuncs.add(gumbel(typed_key, (n_inputs,), dtype=aval_of(p_arr).dtype, mode=mode),
                        ufuncs.log(p_arr))
            ind = lax.convert_element_type(_top_k_indices(g, n_draws), dtypes.default_int())
        result = ind if aval.ndim == 0 else _take(arr, ind, axis)
    out_shape = (shape if aval.ndim == 0
                 else aval.shape[:axis] + tuple(shape) + aval.shape[axis + 1:])
    return mnp.reshape(result, out_shape)


@_jit(static_argnums=(3, 4, 5))
def _multivariate_normal_jit(key, mean, cov, shape, dtype, method):
    from mlax._src.numpy import linalg as np_linalg

    n = aval_of(mean).shape[-1]
    if shape is None:
        shape = util.broadcast_shapes(aval_of(mean).shape[:-1], aval_of(cov).shape[:-2])
    else:
        _check_shape("normal", shape, aval_of(mean).shape[:-1], aval_of(cov).shape[:-2])
    shape = tuple(shape)
    if method == "svd":  # (a singular covariance has a factor too)
        u, s, _ = np_linalg._np_svd(cov)
        factor = ufuncs.multiply(u, ufuncs.sqrt(mnp.expand_dims(s, -2)))
    elif method == "eigh":
        w, v = np_linalg._np_eigh(cov)
        factor = ufuncs.multiply(v, ufuncs.sqrt(mnp.expand_dims(w, -2)))
    else:
        factor = lax.cholesky(cov)
    samples = _normal_real(key, shape + (n,), dtype)
    # (Samples of another float dtype than the covariance's: the product in
    # their common type, as JAX's einsum promotes.)
    common = dtypes.canonicalize(np.result_type(aval_of(samples).dtype, aval_of(factor).dtype))
    samples, factor = (lax.convert_element_type(samples, common),
                       lax.convert_element_type(factor, common))
    nd = len(shape) + 1
    nb = aval_of(factor).ndim - 2  # batch dimensions of the covariance
    # einsum('...ij,...j->...i', factor, samples), as JAX contracts it: the
    # covariance's batch dimensions pair with the trailing ones of `shape`.
    free = nd - 1 - nb
    batch_s = tuple(range(free, nd - 1))
    prod = lax.dot_general(samples, factor, (((nd - 1,), (nb + 1,)),
                                             (batch_s, tuple(range(nb)))))
    if nb:
        # (batch, free, i) -> (free, batch, i)
        prod = lax.transpose(prod, tuple(range(nb, nb + free)) + tuple(range(nb)) + (nd - 1,))
    return ufuncs.add(mean, prod)


def multivariate_normal(key, mean, cov, shape=None, dtype=None, method="cholesky"):
    """Multivariate normal samples with the given mean and covariance."""
    typed_key, _ = _check_key("multivariate_normal", key)
    mean, cov = util._promote_inexact("multivariate_normal", mean, cov)
    mean, cov = mnp.asarray(mean), mnp.asarray(cov)
    if method not in {"svd", "eigh", "cholesky"}:
        raise ValueError("method must be one of {'svd', 'eigh', 'cholesky'}")
    dtype = aval_of(mean).dtype if dtype is None else _float_dtype(dtype, "multivariate_normal")
    if shape is not None:
        shape = _canonicalize_shape(shape, "multivariate_normal")
    if aval_of(mean).ndim < 1:
        raise ValueError(f"multivariate_normal requires mean.ndim >= 1, got mean.ndim == "
                         f"{aval_of(mean).ndim}")
    if aval_of(cov).ndim < 2:
        raise ValueError(f"multivariate_normal requires cov.ndim >= 2, got cov.ndim == "
                         f"{aval_of(cov).ndim}")
    n = aval_of(mean).shape[-1]
    if aval_of(cov).shape[-2:] != (n, n):
        raise ValueError(f"multivariate_normal requires cov.shape == (..., n, n) for n={n}, "
                         f"but got cov.shape == {aval_of(cov).shape}.")
    cov_batch = aval_of(cov).shape[:-2]
    out_batch = (util.broadcast_shapes(aval_of(mean).shape[:-1], cov_batch) if shape is None
                 else tuple(shape))
    if cov_batch and tuple(out_batch[len(out_batch) - len(cov_batch):]) != cov_batch:
        raise NotImplementedError(
            "mlax.random.multivariate_normal: a batch of covariances must match the trailing "
            f"dimensions of the result's batch shape exactly (got {cov_batch} for "
            f"{out_batch}); broadcast cov first")
    return _multivariate_normal_jit(typed_key, mean, cov, shape, dtype, method)

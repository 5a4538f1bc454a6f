"""Neural-network layers as (init_fun, apply_fun) pairs, as
jax.example_libraries.stax (same parameter shapes and initial values for the
same key).

    init_fun(rng, input_shape) -> (output_shape, params)
    apply_fun(params, inputs, **kwargs) -> outputs   (rng=key for Dropout)
"""
from __future__ import annotations

import functools
import math

import mlax.numpy as jnp
from mlax import lax, random
from mlax.nn import (elu, gelu, leaky_relu, log_softmax, relu, selu, sigmoid, softmax,  # noqa: F401
                     softplus, standardize)
from mlax.nn.initializers import glorot_normal, normal, ones, zeros

glorot = glorot_normal
randn = normal
logsoftmax = log_softmax


def Dense(out_dim, W_init=glorot_normal(), b_init=normal()):
    """A fully connected layer: inputs @ W + b."""
    def init_fun(rng, input_shape):
        output_shape = input_shape[:-1] + (out_dim,)
        k1, k2 = random.split(rng)
        return output_shape, (W_init(k1, (input_shape[-1], out_dim)), b_init(k2, (out_dim,)))

    def apply_fun(params, inputs, **kwargs):
        W, b = params
        return jnp.dot(inputs, W) + b
    return init_fun, apply_fun


def _kernel_shape(rhs_spec, lhs_spec, out_chan, filter_shape, input_shape):
    filters = iter(filter_shape)
    return [out_chan if c == "O" else input_shape[lhs_spec.index("C")] if c == "I"
            else next(filters) for c in rhs_spec]


def _general_conv(shape_tuple, conv, dimension_numbers, out_chan, filter_shape, strides,
                  padding, W_init, b_init):
    """The layer GeneralConv and GeneralConvTranspose share: `shape_tuple`
    gives the output shape, `conv(inputs, W, strides, padding)` the output."""
    lhs_spec, rhs_spec, out_spec = dimension_numbers
    strides = strides or (1,) * len(filter_shape)
    W_init = W_init or glorot_normal(rhs_spec.index("I"), rhs_spec.index("O"))

    def init_fun(rng, input_shape):
        kernel_shape = _kernel_shape(rhs_spec, lhs_spec, out_chan, filter_shape, input_shape)
        output_shape = shape_tuple(input_shape, kernel_shape, strides, padding,
                                   dimension_numbers)
        bias_shape = [out_chan if c == "C" else 1 for c in out_spec]
        k1, k2 = random.split(rng)
        return output_shape, (W_init(k1, kernel_shape), b_init(k2, bias_shape))

    def apply_fun(params, inputs, **kwargs):
        W, b = params
        return conv(inputs, W, strides, padding) + b
    return init_fun, apply_fun


def GeneralConv(dimension_numbers, out_chan, filter_shape, strides=None, padding="VALID",
                W_init=None, b_init=normal(1e-6)):
    """A convolution with the given (lhs, rhs, out) layout specs."""
    one = (1,) * len(filter_shape)

    def conv(inputs, W, strides, padding):
        return lax.conv_general_dilated(inputs, W, strides, padding, one, one,
                                        dimension_numbers=dimension_numbers)
    return _general_conv(lax.conv_general_shape_tuple, conv, dimension_numbers, out_chan,
                         filter_shape, strides, padding, W_init, b_init)


Conv = functools.partial(GeneralConv, ("NHWC", "HWIO", "NHWC"))


def GeneralConvTranspose(dimension_numbers, out_chan, filter_shape, strides=None,
                         padding="VALID", W_init=None, b_init=normal(1e-6)):
    """A transposed convolution with the given (lhs, rhs, out) layout specs."""
    def conv(inputs, W, strides, padding):
        return lax.conv_transpose(inputs, W, strides, padding,
                                  dimension_numbers=dimension_numbers)
    return _general_conv(lax.conv_transpose_shape_tuple, conv, dimension_numbers, out_chan,
                         filter_shape, strides, padding, W_init, b_init)


Conv1DTranspose = functools.partial(GeneralConvTranspose, ("NHC", "HIO", "NHC"))
ConvTranspose = functools.partial(GeneralConvTranspose, ("NHWC", "HWIO", "NHWC"))


def BatchNorm(axis=(0, 1, 2), epsilon=1e-5, center=True, scale=True, beta_init=zeros,
              gamma_init=ones):
    """Normalizes over `axis` (batch statistics only), then scales and shifts."""
    _beta_init = lambda rng, shape: beta_init(rng, shape) if center else ()  # noqa: E731
    _gamma_init = lambda rng, shape: gamma_init(rng, shape) if scale else ()  # noqa: E731
    axis = (axis,) if jnp.isscalar(axis) else axis

    def init_fun(rng, input_shape):
        shape = tuple(d for i, d in enumerate(input_shape) if i not in axis)
        k1, k2 = random.split(rng)
        return input_shape, (_beta_init(k1, shape), _gamma_init(k2, shape))

    def apply_fun(params, x, **kwargs):
        beta, gamma = params
        ed = tuple(None if i in axis else slice(None) for i in range(jnp.ndim(x)))
        z = standardize(x, axis, epsilon=epsilon)
        if center and scale:
            return gamma[ed] * z + beta[ed]
        if center:
            return z + beta[ed]
        if scale:
            return gamma[ed] * z
        return z
    return init_fun, apply_fun


def elementwise(fun, **fun_kwargs):
    """A parameterless layer applying fun to its input."""
    init_fun = lambda rng, input_shape: (input_shape, ())  # noqa: E731
    apply_fun = lambda params, inputs, **kwargs: fun(inputs, **fun_kwargs)  # noqa: E731
    return init_fun, apply_fun


Tanh = elementwise(jnp.tanh)
Relu = elementwise(relu)
Exp = elementwise(jnp.exp)
LogSoftmax = elementwise(log_softmax, axis=-1)
Softmax = elementwise(softmax, axis=-1)
Softplus = elementwise(softplus)
Sigmoid = elementwise(sigmoid)
Elu = elementwise(elu)
LeakyRelu = elementwise(leaky_relu)
Selu = elementwise(selu)
Gelu = elementwise(gelu)


def _pooling_layer(reducer, init_val, rescaler=None):
    def PoolingLayer(window_shape, strides=None, padding="VALID", spec=None):
        strides = strides or (1,) * len(window_shape)
        rescale = rescaler(window_shape, strides, padding) if rescaler else None
        non_spatial = (0, len(window_shape) + 1) if spec is None else (
            spec.index("N"), spec.index("C"))
        for i in sorted(non_spatial):
            window_shape = window_shape[:i] + (1,) + window_shape[i:]
            strides = strides[:i] + (1,) + strides[i:]

        def init_fun(rng, input_shape):
            pads = lax.padtype_to_pads(input_shape, window_shape, strides, padding)
            ones_ = (1,) * len(window_shape)
            return lax.reduce_window_shape_tuple(input_shape, window_shape, strides, pads,
                                                 ones_, ones_), ()

        def apply_fun(params, inputs, **kwargs):
            out = lax.reduce_window(inputs, init_val, reducer, window_shape, strides, padding)
            return rescale(out, inputs, spec) if rescale else out
        return init_fun, apply_fun
    return PoolingLayer


MaxPool = _pooling_layer(lax.max, -jnp.inf)
SumPool = _pooling_layer(lax.add, 0.0)


def _normalize_by_window_size(dims, strides, padding):
    def rescale(outputs, inputs, spec):
        non_spatial = (0, inputs.ndim - 1) if spec is None else (
            spec.index("N"), spec.index("C"))
        spatial_shape = tuple(inputs.shape[i] for i in range(inputs.ndim)
                              if i not in non_spatial)
        one = jnp.ones(spatial_shape, dtype=inputs.dtype)
        window_sizes = lax.reduce_window(one, 0.0, lax.add, dims, strides, padding)
        for i in sorted(non_spatial):
            window_sizes = jnp.expand_dims(window_sizes, i)
        return outputs / window_sizes
    return rescale


AvgPool = _pooling_layer(lax.add, 0.0, _normalize_by_window_size)


def _flatten():
    def init_fun(rng, input_shape):
        return (input_shape[0], math.prod(input_shape[1:])), ()

    def apply_fun(params, inputs, **kwargs):
        return jnp.reshape(inputs, (inputs.shape[0], -1))
    return init_fun, apply_fun


Flatten = _flatten()

Identity = ((lambda rng, input_shape: (input_shape, ())),
            (lambda params, inputs, **kwargs: inputs))


def FanOut(num):
    """num copies of the input, for parallel."""
    init_fun = lambda rng, input_shape: ([input_shape] * num, ())  # noqa: E731
    apply_fun = lambda params, inputs, **kwargs: [inputs] * num  # noqa: E731
    return init_fun, apply_fun


FanInSum = ((lambda rng, input_shape: (input_shape[0], ())),
            (lambda params, inputs, **kwargs: sum(inputs)))


def FanInConcat(axis=-1):
    """Concatenates a list of inputs along axis."""
    def init_fun(rng, input_shape):
        ax = axis % len(input_shape[0])
        concat_size = sum(shape[ax] for shape in input_shape)
        return input_shape[0][:ax] + (concat_size,) + input_shape[0][ax + 1:], ()

    def apply_fun(params, inputs, **kwargs):
        return jnp.concatenate(inputs, axis)
    return init_fun, apply_fun


def Dropout(rate, mode="train"):
    """Keeps each input with probability `rate` (scaled by 1/rate) in "train"
    mode; needs apply_fun(..., rng=key). (JAX's `rate` is the keep rate.)"""
    def init_fun(rng, input_shape):
        return input_shape, ()

    def apply_fun(params, inputs, **kwargs):
        rng = kwargs.get("rng", None)
        if rng is None:
            raise ValueError(
                "Dropout layer requires apply_fun to be called with a PRNG key argument. "
                "That is, instead of `apply_fun(params, inputs)`, call it like "
                "`apply_fun(params, inputs, rng)` where `rng` is a PRNG key (e.g. from "
                "`mlax.random.key`).")
        if mode == "train":
            keep = random.bernoulli(rng, rate, inputs.shape)
            return jnp.where(keep, inputs / rate, 0)
        return inputs
    return init_fun, apply_fun


def serial(*layers):
    """The layers one after another."""
    nlayers = len(layers)
    init_funs, apply_funs = zip(*layers)

    def init_fun(rng, input_shape):
        params = []
        for init in init_funs:
            rng, layer_rng = random.split(rng)
            input_shape, param = init(layer_rng, input_shape)
            params.append(param)
        return input_shape, params

    def apply_fun(params, inputs, **kwargs):
        rng = kwargs.pop("rng", None)
        rngs = random.split(rng, nlayers) if rng is not None else (None,) * nlayers
        for fun, param, r in zip(apply_funs, params, rngs):
            inputs = fun(param, inputs, rng=r, **kwargs)
        return inputs
    return init_fun, apply_fun


def parallel(*layers):
    """The layers side by side, the i-th on the i-th input (with FanOut and a
    FanIn, a residual block)."""
    nlayers = len(layers)
    init_funs, apply_funs = zip(*layers)

    def init_fun(rng, input_shape):
        rngs = random.split(rng, nlayers)
        return zip(*[init(r, shape) for init, r, shape in zip(init_funs, rngs, input_shape)])

    def apply_fun(params, inputs, **kwargs):
        rng = kwargs.pop("rng", None)
        rngs = random.split(rng, nlayers) if rng is not None else (None,) * nlayers
        return [f(p, x, rng=r, **kwargs)
                for f, p, x, r in zip(apply_funs, params, inputs, rngs)]
    return init_fun, apply_fun


def shape_dependent(make_layer):
    """A layer built from the input shape by make_layer(shape)."""
    def init_fun(rng, input_shape):
        return make_layer(input_shape)[0](rng, input_shape)

    def apply_fun(params, inputs, **kwargs):
        return make_layer(inputs.shape)[1](params, inputs, **kwargs)
    return init_fun, apply_fun

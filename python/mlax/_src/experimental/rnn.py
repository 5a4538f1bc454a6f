"""LSTM as jax.experimental.rnn has it: one flat weight vector in cuDNN's
layout (per pseudo-layer W_ih, W_hh; then per pseudo-layer b_ih, b_hh; a
bidirectional layer is two pseudo-layers, forward then reverse), batch-first
inputs, ragged sequences given by `seq_lengths`.

JAX runs `lstm` as a cuDNN kernel (GPU only) and keeps `lstm_ref`, a scan
of LSTM cells, as its reference. mlax computes `lstm` with that same
recurrence on every platform (its derivative is the scan's: `lstm_fwd`
keeps the inputs, `lstm_bwd` takes the vjp of the recurrence), so it gives
`lstm_ref`'s values. cuDNN's dropout masks cannot be reproduced: a nonzero
`dropout` is refused, as `lstm_ref` refuses it."""
from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

from mlax._src.jit.api import jit
from mlax._src.lax import control_flow
from mlax._src.lax.linalg import Precision
from mlax._src.nn import functions as nn
from mlax._src.numpy.array_creation import arange
from mlax._src.numpy.lax_numpy import asarray, concatenate, stack, where, zeros_like
from mlax._src.numpy.manipulation import roll, split
from mlax._src.numpy.ufuncs import tanh
from mlax._src.random import prng
from mlax._src.transforms.autodiff import custom_vjp, vjp
from mlax._src.transforms.vmap import vmap

PRNGKeyArray = Any
Shape = tuple


def _param_shapes(input_size, hidden_size, num_layers, bidirectional):
    """The shapes of the flat weight vector's pieces, in its order."""
    directions = 2 if bidirectional else 1
    pseudo = num_layers * directions
    linear, biases = [], []
    for i in range(pseudo):
        width = input_size if i < directions else directions * hidden_size
        linear += [(4 * hidden_size, width), (4 * hidden_size, hidden_size)]
        biases += [(4 * hidden_size,), (4 * hidden_size,)]
    return linear + biases


def get_num_params_in_lstm(input_size: int, hidden_size: int, num_layers: int,
                           bidirectional: bool) -> int:
    """The length of the flat weight vector of an LSTM."""
    return sum(math.prod(s) for s in _param_shapes(input_size, hidden_size, num_layers,
                                                   bidirectional))


def init_lstm_weight(rng: PRNGKeyArray, input_size: int, hidden_size: int, num_layers: int,
                     bidirectional: bool):
    """A flat weight vector drawn from U(-k, k), k = 1/sqrt(hidden_size)
    (JAX's draw for the same key)."""
    count = get_num_params_in_lstm(input_size, hidden_size, num_layers, bidirectional)
    k = np.sqrt(1.0 / hidden_size)
    return prng.uniform(rng, shape=(count,), dtype=np.float32, minval=-k, maxval=k)


def unpack_lstm_weights(weights, input_size: int, hidden_size: int, num_layers: int,
                        bidirectional: bool):
    """The flat weight vector cut into dicts {pseudo-layer: array}: W_ih
    (4*hidden, width; gates i, f, g, o stacked), W_hh, b_ih, b_hh."""
    shapes = _param_shapes(input_size, hidden_size, num_layers, bidirectional)
    pseudo = len(shapes) // 4
    pieces, offset = [], 0
    for shape in shapes:
        n = math.prod(shape)
        pieces.append(weights[offset:offset + n].reshape(shape))
        offset += n
    linear, biases = pieces[:2 * pseudo], pieces[2 * pseudo:]
    W_ih = {l: linear[2 * l] for l in range(pseudo)}
    W_hh = {l: linear[2 * l + 1] for l in range(pseudo)}
    b_ih = {l: biases[2 * l] for l in range(pseudo)}
    b_hh = {l: biases[2 * l + 1] for l in range(pseudo)}
    return W_ih, W_hh, b_ih, b_hh


def swap_lstm_gates(weights, input_size, hidden_size, num_layers, bidirectional):
    """The weight vector with the third and fourth gates of every piece
    swapped (between cuDNN's i, f, g, o order and i, f, o, g)."""
    weights = asarray(weights)
    shapes = _param_shapes(input_size, hidden_size, num_layers, bidirectional)
    pseudo = len(shapes) // 4
    # The pieces in JAX's visiting order: per layer and direction, its
    # W_ih, W_hh, b_ih, b_hh taken from the shape list in turn.
    out, offset = [], 0
    for shape in shapes[:4 * pseudo]:
        n = math.prod(shape)
        gates = split(weights[offset:offset + n].reshape(shape), 4, axis=0)
        out.append(concatenate([gates[0], gates[1], gates[3], gates[2]], axis=0).ravel())
        offset += n
    return concatenate(out + [weights[offset:]]) if out else weights


def _cell(carry, x, W_ih, W_hh, b_ih, b_hh):
    h, c = carry
    W_ii, W_if, W_ig, W_io = split(W_ih, 4, axis=0)
    W_hi, W_hf, W_hg, W_ho = split(W_hh, 4, axis=0)
    b_ii, b_if, b_ig, b_io = split(b_ih, 4, axis=0)
    b_hi, b_hf, b_hg, b_ho = split(b_hh, 4, axis=0)
    i = nn.sigmoid(x @ W_ii.T + b_ii[None] + h @ W_hi.T + b_hi[None])
    f = nn.sigmoid(x @ W_if.T + b_if[None] + h @ W_hf.T + b_hf[None])
    g = tanh(x @ W_ig.T + b_ig[None] + h @ W_hg.T + b_hg[None])
    o = nn.sigmoid(x @ W_io.T + b_io[None] + h @ W_ho.T + b_ho[None])
    c = f * c + i * g
    h = o * tanh(c)
    return (h, c), h


def _run_layer(weights, h0, c0, seq_first, seq_lengths):
    """One pseudo-layer over time: the outputs (zero past each sequence's
    end) and each sequence's carry at its last step."""
    def step(carry, x):
        carry, y = _cell(carry, x, *weights)
        return carry, (carry, y)

    _, ((hs, cs), ys) = control_flow.scan(step, (h0, c0), seq_first)
    rows = arange(hs.shape[1])
    h_t, c_t = hs[seq_lengths - 1, rows], cs[seq_lengths - 1, rows]
    mask = seq_lengths[None] > arange(ys.shape[0], dtype=np.int32)[:, None]
    return (h_t, c_t), where(mask[..., None], ys, 0)


def _flip(seq_first, seq_lengths):
    """Each sequence reversed in place, its padding kept at the end."""
    rolled = vmap(functools.partial(roll, axis=0), in_axes=(1, 0), out_axes=1)(
        seq_first, seq_first.shape[0] - seq_lengths)
    return rolled[::-1]


def _check(seq_lengths, dropout):
    if asarray(seq_lengths).dtype != np.dtype("int32"):
        raise NotImplementedError("`seq_lengths` can only be int32.")
    if dropout != 0.0:
        raise NotImplementedError(
            "LSTM dropout is not supported: cuDNN's dropout masks cannot be reproduced "
            "(lstm_ref refuses it too)")


def _lstm_ref(x, h_0, c_0, W_ih, W_hh, b_ih, b_hh, seq_lengths, input_size, hidden_size,
              num_layers, dropout, bidirectional):
    _check(seq_lengths, dropout)
    seq_first = x.transpose(1, 0, 2)
    final_h, final_c = [], []
    directions = 2 if bidirectional else 1
    for layer in range(num_layers):
        outputs = []
        for d in range(directions):
            l = layer * directions + d
            weights = (W_ih[l], W_hh[l], b_ih[l], b_hh[l])
            inputs = seq_first if d == 0 else _flip(seq_first, seq_lengths)
            (h_t, c_t), ys = _run_layer(weights, h_0[l], c_0[l], inputs, seq_lengths)
            outputs.append(ys if d == 0 else _flip(ys, seq_lengths))
            final_h.append(h_t)
            final_c.append(c_t)
        seq_first = outputs[0] if directions == 1 else concatenate(outputs, axis=-1)
    return seq_first.transpose(1, 0, 2), stack(final_h), stack(final_c)


lstm_ref = jit(_lstm_ref, static_argnums=(8, 9, 10, 11, 12))
lstm_ref.__doc__ = """The LSTM recurrence as a scan of cells (JAX's reference
implementation): x (batch, time, input_size), h_0 and c_0 (directions *
num_layers, batch, hidden_size), the weights as dicts from
`unpack_lstm_weights`, seq_lengths (batch,) int32. Returns y (batch, time,
directions * hidden_size), h_n, c_n."""


def _lstm_flat(x, h_0, c_0, weights, seq_lengths, input_size, hidden_size, num_layers, dropout,
               bidirectional):
    unpacked = unpack_lstm_weights(weights, input_size, hidden_size, num_layers, bidirectional)
    return _lstm_ref(x, h_0, c_0, *unpacked, seq_lengths, input_size, hidden_size, num_layers,
                     dropout, bidirectional)


def _check_precision(precision):
    """JAX's cuDNN LSTM takes one precision: HIGHEST or HIGH (or None);
    DEFAULT (bfloat16 passes) is refused, as JAX refuses it."""
    if precision is None:
        return
    first = precision[0] if isinstance(precision, (tuple, list)) else precision
    first = Precision(first) if isinstance(first, str) else first
    if first == Precision.DEFAULT:
        raise NotImplementedError("bfloat16 support not implemented for LSTM")
    if first not in (Precision.HIGH, Precision.HIGHEST):
        raise ValueError(f"Unexpected precision specifier value {precision}")


@functools.partial(custom_vjp, nondiff_argnums=(5, 6, 7, 8, 9, 10))
def lstm(x, h_0, c_0, weights, seq_lengths, input_size: int, hidden_size: int,
         num_layers: int, dropout: float, bidirectional: bool, precision=None):
    """An LSTM over batch-first `x` (batch, time, input_size) with the flat
    cuDNN-layout `weights` (see `init_lstm_weight`): returns y (batch, time,
    directions * hidden_size), h_n and c_n (directions * num_layers, batch,
    hidden_size). Sequences end at `seq_lengths` (int32): outputs past the
    end are zero and h_n, c_n are taken at each sequence's last step."""
    (y, h_n, c_n), _ = lstm_fwd(x, h_0, c_0, weights, seq_lengths, input_size, hidden_size,
                                num_layers, dropout, bidirectional, precision)
    return y, h_n, c_n


def lstm_fwd(x, h_0, c_0, w, seq_lengths, input_size: int, hidden_size: int, num_layers: int,
             dropout: float, bidirectional: bool, precision=None):
    """lstm's forward pass: its results and what lstm_bwd needs."""
    _check(seq_lengths, dropout)
    _check_precision(precision)
    out = _lstm_flat(x, h_0, c_0, w, seq_lengths, input_size, hidden_size, num_layers, dropout,
                     bidirectional)
    return out, (x, h_0, c_0, w, seq_lengths)


def lstm_bwd(input_size: int, hidden_size: int, num_layers: int, dropout: float,
             bidirectional: bool, precision, residuals, gradients):
    """lstm's backward pass: the cotangents of x, h_0, c_0, the weights and
    (zeros) seq_lengths."""
    x, h_0, c_0, w, seq_lengths = residuals
    _, pullback = vjp(lambda x, h, c, w: _lstm_flat(x, h, c, w, seq_lengths, input_size,
                                                    hidden_size, num_layers, dropout,
                                                    bidirectional), x, h_0, c_0, w)
    return (*pullback(tuple(gradients)), zeros_like(seq_lengths))


lstm.defvjp(lstm_fwd, lstm_bwd)

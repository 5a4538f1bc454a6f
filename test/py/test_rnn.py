"""mlax.experimental.rnn against jax.experimental.rnn: JAX's own `lstm` is a
cuDNN kernel (GPU only), so mlax's `lstm` (the recurrence as a scan) is
compared with JAX's reference `lstm_ref`, its values and its gradients."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.experimental import rnn as jrnn

import mlax
import mlax.numpy as mnp
from mlax.experimental import rnn as mrnn

B, T, I, H = 3, 5, 4, 6
SEQ = np.array([5, 3, 1], np.int32)  # ragged: outputs past each end are zero


def _inputs(layers, bidirectional):
    d = 2 if bidirectional else 1
    rs = np.random.RandomState(layers + 2 * bidirectional)
    return (rs.randn(B, T, I).astype(np.float32), rs.randn(d * layers, B, H).astype(np.float32),
            rs.randn(d * layers, B, H).astype(np.float32))


@pytest.mark.parametrize("layers,bidirectional", [(1, False), (2, True)])
def test_lstm_matches_jax_reference(layers, bidirectional):
    args = (I, H, layers, bidirectional)
    assert mrnn.get_num_params_in_lstm(*args) == jrnn.get_num_params_in_lstm(*args)
    w_ours = mrnn.init_lstm_weight(mlax.random.key(0), *args)
    w_theirs = jrnn.init_lstm_weight(jax.random.key(0), *args)
    np.testing.assert_array_equal(w_ours, w_theirs)  # the same draw
    for a, b in zip(jax.tree.leaves(mrnn.unpack_lstm_weights(w_ours, *args)),
                    jax.tree.leaves(jrnn.unpack_lstm_weights(w_theirs, *args))):
        np.testing.assert_array_equal(a, b)
    if layers == 1:  # (swap and lstm_ref are layer-wise: one case shows them)
        np.testing.assert_array_equal(mrnn.swap_lstm_gates(w_ours, *args),
                                      jrnn.swap_lstm_gates(w_theirs, *args))
    x, h0, c0 = _inputs(layers, bidirectional)
    theirs = jrnn.lstm_ref(x, h0, c0, *jrnn.unpack_lstm_weights(w_theirs, *args), SEQ, I, H,
                           layers, 0.0, bidirectional)
    out = mlax.jit(mrnn.lstm, static_argnums=(5, 6, 7, 8, 9))(x, h0, c0, w_ours, SEQ, *args[:3],
                                                              0.0, bidirectional)
    ref = () if layers > 1 else mrnn.lstm_ref(
        x, h0, c0, *mrnn.unpack_lstm_weights(w_ours, *args), SEQ, I, H, layers, 0.0,
        bidirectional)
    for ours in (out, ref) if ref else (out,):
        for a, b in zip(ours, theirs):
            assert a.shape == b.shape and a.dtype == b.dtype
            np.testing.assert_allclose(a, b, rtol=2e-5, atol=2e-6)
    assert not np.asarray(out[0])[2, 1:].any()  # past the third sequence's end

    def loss(api, lstm_of, w, x, h0):
        y, h_n, c_n = lstm_of(x, h0, c0, w)
        return (y ** 2).sum() + (h_n * c_n).sum()
    g_ours = mlax.grad(lambda w, x, h: loss(mlax, lambda *a: mrnn.lstm(
        *a, SEQ, I, H, layers, 0.0, bidirectional), w, x, h), argnums=(0, 1, 2))(w_ours, x, h0)
    g_theirs = jax.grad(lambda w, x, h: loss(jax, lambda x, h, c, w: jrnn.lstm_ref(
        x, h, c, *jrnn.unpack_lstm_weights(w, *args), SEQ, I, H, layers, 0.0, bidirectional),
        w, x, h), argnums=(0, 1, 2))(w_theirs, x, h0)
    for a, b in zip(g_ours, g_theirs):
        np.testing.assert_allclose(a, b, rtol=2e-4, atol=2e-5)


def test_lstm_gradient_against_finite_differences():
    args = (I, H, 1, False)
    w = np.asarray(mrnn.init_lstm_weight(mlax.random.key(1), *args), np.float64)
    x, h0, c0 = (a.astype(np.float64) for a in _inputs(1, False))
    with mlax.enable_x64():
        f = mlax.jit(lambda w: mrnn.lstm(x, h0, c0, w, SEQ, *args[:3], 0.0, False)[0].sum())
        g = np.asarray(mlax.grad(f)(w))
        direction = np.random.RandomState(0).randn(w.size)
        eps = 1e-6
        fd = (float(f(w + eps * direction)) - float(f(w - eps * direction))) / (2 * eps)
    np.testing.assert_allclose(g @ direction, fd, rtol=1e-6)


def test_lstm_errors_as_jax():
    args = (I, H, 1, False)
    w = mrnn.init_lstm_weight(mlax.random.key(0), *args)
    x, h0, c0 = _inputs(1, False)
    with pytest.raises(NotImplementedError, match="seq_lengths` can only be int32"):
        mrnn.lstm(x, h0, c0, w, SEQ.astype(np.int16), I, H, 1, 0.0, False)
    with pytest.raises(NotImplementedError, match="dropout"):
        mrnn.lstm(x, h0, c0, w, SEQ, I, H, 1, 0.5, False)
    with pytest.raises(NotImplementedError, match="Dropout|dropout"):
        jrnn.lstm_ref(x, h0, c0, *jrnn.unpack_lstm_weights(jnp.asarray(w), *args), SEQ, I, H,
                      1, 0.5, False)
    with pytest.raises(NotImplementedError, match="bfloat16"):
        mrnn.lstm(x, h0, c0, w, SEQ, I, H, 1, 0.0, False, mlax.lax.Precision.DEFAULT)
    assert mnp.asarray(mrnn.lstm(x, h0, c0, w, SEQ, I, H, 1, 0.0, False,
                                 mlax.lax.Precision.HIGHEST)[0]).shape == (B, T, H)

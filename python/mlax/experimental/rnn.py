"""mlax.experimental.rnn: as jax.experimental.rnn (an LSTM on cuDNN's flat
weight layout; mlax computes it as a scan on every platform)."""
from mlax._src.experimental.rnn import (  # noqa: F401
    PRNGKeyArray, Shape, get_num_params_in_lstm, init_lstm_weight, lstm, lstm_bwd, lstm_fwd,
    lstm_ref, swap_lstm_gates, unpack_lstm_weights)

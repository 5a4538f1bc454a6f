"""mlax.monitoring, as jax.monitoring: listeners for named events,
durations, time spans and scalars; mlax's compiles are recorded under JAX's
event names (see mlax._src.base.monitoring)."""
from mlax._src.base.monitoring import (  # noqa: F401
    clear_event_listeners, record_event, record_event_duration_secs, record_event_time_span,
    record_scalar, register_event_duration_secs_listener, register_event_listener,
    register_event_time_span_listener, register_scalar_listener,
    unregister_event_duration_listener, unregister_event_listener,
    unregister_event_time_span_listener, unregister_scalar_listener)

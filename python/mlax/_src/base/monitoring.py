"""Event listeners, as jax.monitoring: code points record named events,
durations, time spans and scalars, and every listener registered for that
kind is called with them (a metrics exporter, a test counting compiles).

mlax records JAX's compile events under JAX's names, with the function's
name as `fun_name`, so a listener written for JAX sees mlax's compiles:
  * TRACE_EVENT: tracing a jitted function to mlax's IR (JAX's jaxpr trace);
  * TO_MODULE_EVENT: mlax's passes and the lowering to StableHLO (JAX's
    jaxpr-to-MLIR-module step);
  * BACKEND_COMPILE_EVENT: XLA's compile of a program not already compiled;
and the persistent compilation cache's COMPILE_REQUESTS_USE_CACHE,
CACHE_HITS and CACHE_MISSES events. Each duration event is also recorded as
a time span (start and end, `time.time()` seconds) and, at its start, as a
scalar (the start time), as JAX's `log_elapsed_time` does.
"""
from __future__ import annotations

from typing import Protocol

TRACE_EVENT = "/jax/core/compile/jaxpr_trace_duration"
TO_MODULE_EVENT = "/jax/core/compile/jaxpr_to_mlir_module_duration"
BACKEND_COMPILE_EVENT = "/jax/core/compile/backend_compile_duration"
COMPILE_REQUESTS_USE_CACHE = "/jax/compilation_cache/compile_requests_use_cache"
CACHE_HITS = "/jax/compilation_cache/cache_hits"
CACHE_MISSES = "/jax/compilation_cache/cache_misses"


class EventListenerWithMetadata(Protocol):
    def __call__(self, event: str, **kwargs: str | int) -> None: ...


class EventDurationListenerWithMetadata(Protocol):
    def __call__(self, event: str, duration_secs: float, **kwargs: str | int) -> None: ...


class EventTimeSpanListenerWithMetadata(Protocol):
    def __call__(self, event: str, start_time: float, end_time: float,
                 **kwargs: str | int) -> None: ...


class ScalarListenerWithMetadata(Protocol):
    def __call__(self, event: str, value: float | int, **kwargs: str | int) -> None: ...


_event_listeners: list = []
_duration_listeners: list = []
_time_span_listeners: list = []
_scalar_listeners: list = []


def record_event(event: str, **kwargs: str | int) -> None:
    """Calls every event listener with `event` and `kwargs`."""
    for callback in tuple(_event_listeners):
        callback(event, **kwargs)


def record_event_duration_secs(event: str, duration: float, **kwargs: str | int) -> None:
    """Calls every duration listener with `event`, `duration` (seconds) and
    `kwargs`."""
    for callback in tuple(_duration_listeners):
        callback(event, duration, **kwargs)


def record_event_time_span(event: str, start_time: float, end_time: float,
                           **kwargs: str | int) -> None:
    """Calls every time-span listener with `event`, its start and end time."""
    for callback in tuple(_time_span_listeners):
        callback(event, start_time, end_time, **kwargs)


def record_scalar(event: str, value: float | int, **kwargs: str | int) -> None:
    """Calls every scalar listener with `event` and `value`."""
    for callback in tuple(_scalar_listeners):
        callback(event, value, **kwargs)


def register_event_listener(callback: EventListenerWithMetadata) -> None:
    _event_listeners.append(callback)


def register_event_duration_secs_listener(callback: EventDurationListenerWithMetadata) -> None:
    _duration_listeners.append(callback)


def register_event_time_span_listener(callback: EventTimeSpanListenerWithMetadata) -> None:
    _time_span_listeners.append(callback)


def register_scalar_listener(callback: ScalarListenerWithMetadata) -> None:
    _scalar_listeners.append(callback)


def _unregister(listeners: list, callback, kind: str) -> None:
    if callback not in listeners:
        # JAX asserts; an AssertionError is what a JAX user's code meets.
        raise AssertionError(f"{callback!r} is not a registered {kind} listener")
    listeners.remove(callback)


def unregister_event_listener(callback: EventListenerWithMetadata) -> None:
    _unregister(_event_listeners, callback, "event")


def unregister_event_duration_listener(callback: EventDurationListenerWithMetadata) -> None:
    _unregister(_duration_listeners, callback, "event duration")


def unregister_event_time_span_listener(callback: EventTimeSpanListenerWithMetadata) -> None:
    _unregister(_time_span_listeners, callback, "event time span")


def unregister_scalar_listener(callback: ScalarListenerWithMetadata) -> None:
    _unregister(_scalar_listeners, callback, "scalar")


def clear_event_listeners() -> None:
    """Removes every listener of every kind."""
    for listeners in (_event_listeners, _duration_listeners, _time_span_listeners,
                      _scalar_listeners):
        listeners.clear()


def listening() -> bool:
    """Whether any duration, time-span or scalar listener is registered (the
    jit compile path builds its events only then)."""
    return bool(_duration_listeners or _time_span_listeners or _scalar_listeners)


def record_elapsed(event: str, start_time: float, end_time: float, **kwargs) -> None:
    """A finished step, as JAX's `log_elapsed_time` reports it: a scalar at
    its start, its duration and its time span."""
    record_scalar(event, start_time, **kwargs)
    record_event_duration_secs(event, end_time - start_time, **kwargs)
    record_event_time_span(event, start_time, end_time, **kwargs)


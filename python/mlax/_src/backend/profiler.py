"""Profiling, as jax.profiler: traces of host and device activity written
for TensorBoard/XProf (and Perfetto), annotations that name spans of them,
a profiler server, and device memory profiles. All of it is jaxlib's
profiler (what JAX's module wraps too); mlax's programs run on jaxlib's
PJRT clients, so their executions appear in the traces as JAX's do.
"""
from __future__ import annotations

import contextlib
import functools
import gzip
import json
import os
import pathlib
import threading

from mlax._src.base import jaxlib_internals
from mlax._src.base.version import __version__ as _mlax_version

_profiler = jaxlib_internals.profiler()
_data = jaxlib_internals.profile_data()

ProfileData = _data.ProfileData
ProfileEvent = _data.ProfileEvent
ProfilePlane = _data.ProfilePlane


class ProfileOptions(_profiler.ProfileOptions):
    """Options of the profiler's collectors (host_tracer_level,
    python_tracer_level, duration_ms, ...)."""


class _State:
    def __init__(self):
        self.lock = threading.Lock()
        self.reset()

    def reset(self):
        self.session = None
        self.log_dir = None
        self.perfetto_trace = False
        self.perfetto_link = False


_state = _State()
_server = None


def start_server(port: int, requires_backend: bool = True):
    """Starts the profiler server on `port` (TensorBoard's profile plugin
    connects to it and samples traces). One at a time."""
    global _server
    if _server is not None:
        raise ValueError("Only one profiler server can be active at a time.")
    if requires_backend:
        _backend()
    _server = _profiler.start_server(port)
    return _server


def stop_server():
    """Stops the profiler server."""
    global _server
    if _server is None:
        raise ValueError("No active profiler server.")
    _server = None


def register_subprocess(pid: int, port: int):
    """Profiles the subprocess `pid` (its profiler server on `port`) with this
    process; returns the function that unregisters it."""
    return _profiler.register_subprocess(pid, port)


def _backend():
    from mlax._src.backend import runtime

    return runtime.backend()


def start_trace(log_dir: os.PathLike | str, create_perfetto_link: bool = False,
                create_perfetto_trace: bool = False,
                profiler_options: ProfileOptions | None = None) -> None:
    """Starts collecting a trace; `stop_trace` writes it under `log_dir`
    (plugins/profile/<run>/, as TensorBoard reads it). One trace at a time:
    a second start raises RuntimeError."""
    with _state.lock:
        if _state.session is not None:
            raise RuntimeError("Profile has already been started. "
                               "Only one profile may be run at a time.")
        _profiler.clear_metadata()
        backend = _backend()
        _profiler.set_metadata("mlax_version", _mlax_version)
        _profiler.set_metadata(f"{backend.platform}_version", str(backend.platform_version))
        _state.session = _profiler.ProfilerSession(profiler_options or ProfileOptions())
        _state.log_dir = str(log_dir)
        _state.perfetto_link = create_perfetto_link
        _state.perfetto_trace = create_perfetto_trace or create_perfetto_link


def stop_trace() -> None:
    """Stops the trace `start_trace` started and writes it to its log_dir
    (and, if asked, a perfetto_trace.json.gz beside it)."""
    with _state.lock:
        if _state.session is None:
            raise RuntimeError("No profile started")
        _state.session.stop_and_export(_state.log_dir)
        if _state.perfetto_trace:
            path = _write_perfetto_trace(_state.log_dir)
            if _state.perfetto_link:
                _serve_perfetto_trace(path)
        _state.reset()
        _profiler.clear_metadata()


def _write_perfetto_trace(log_dir) -> pathlib.Path:
    runs = (pathlib.Path(log_dir).absolute() / "plugins" / "profile").iterdir()
    latest = max(runs, key=os.path.getmtime)
    traces = list(latest.glob("*.trace.json.gz"))
    if len(traces) != 1:
        raise ValueError(f"Invalid trace folder: {latest}")
    with gzip.open(traces[0], "rb") as f:
        trace = json.load(f)
    trace.pop("metadata", None)
    out = latest / "perfetto_trace.json.gz"
    with gzip.open(out, "w") as f:
        f.write(json.dumps(trace).encode("utf-8"))
    return out


def _serve_perfetto_trace(path):
    """Serves `path` to ui.perfetto.dev once (blocks until it is fetched)."""
    import http.server
    import socketserver

    directory, filename = os.path.split(path)

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=directory, **kwargs)

        def end_headers(self):
            self.send_header("Access-Control-Allow-Origin", "*")
            super().end_headers()

        def do_GET(self):
            self.server.last_request = self.path
            super().do_GET()

    port = 9001
    socketserver.TCPServer.allow_reuse_address = True
    with socketserver.TCPServer(("127.0.0.1", port), Handler) as httpd:
        print(f"Open URL in browser: https://ui.perfetto.dev/#!/?url="
              f"http://127.0.0.1:{port}/{filename}")
        while getattr(httpd, "last_request", None) != "/" + filename:
            httpd.handle_request()


@contextlib.contextmanager
def trace(log_dir: os.PathLike | str, create_perfetto_link=False, create_perfetto_trace=False,
          profiler_options: ProfileOptions | None = None):
    """`with trace(log_dir):` (or `@trace(log_dir)`) collects a trace of the
    block: start_trace and stop_trace around it."""
    start_trace(log_dir, create_perfetto_link, create_perfetto_trace, profiler_options)
    try:
        yield
    finally:
        stop_trace()


class TraceAnnotation(_profiler.TraceMe):
    """`with TraceAnnotation("name"):` marks the block as an event named
    `name` (keyword arguments become its metadata) in a trace being
    collected."""


class StepTraceAnnotation(TraceAnnotation):
    """A TraceAnnotation that marks one step (`step_num=`) of a loop, for the
    profiler's per-step analysis."""

    def __init__(self, name: str, **kwargs):
        super().__init__(name, _r=1, **kwargs)


def annotate_function(func=None, name: str | None = None, **decorator_kwargs):
    """Decorator: each call of `func` is a TraceAnnotation named `name`
    (default: its qualified name)."""
    if func is None:
        return functools.partial(annotate_function, name=name, **decorator_kwargs)
    label = name or getattr(func, "__qualname__", None) or func.__name__

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        with TraceAnnotation(label, **decorator_kwargs):
            return func(*args, **kwargs)

    return wrapper


def device_memory_profile(backend: str | None = None) -> bytes:
    """A snapshot of the device memory the backend's arrays and executables
    hold, as a gzipped pprof protocol buffer (`pprof` reads it)."""
    from mlax._src.backend import runtime

    client = _backend() if backend is None else runtime.backend(backend)
    return gzip.compress(client.heap_profile())


def save_device_memory_profile(filename, backend: str | None = None) -> None:
    """Writes `device_memory_profile(backend)` to `filename`."""
    profile = device_memory_profile(backend)
    with open(filename, "wb") as f:
        f.write(profile)

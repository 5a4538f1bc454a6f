"""mlax.monitoring, mlax.profiler and mlax.experimental.mesh_utils against
jax.monitoring, jax.profiler and jax.experimental.mesh_utils."""
import gzip
import socket

import numpy as np
import pytest

import jax
import jax.numpy as jnp
from jax import monitoring as jmon
from jax.experimental import mesh_utils as jmesh

import mlax
import mlax.numpy as mnp
from mlax import monitoring as mmon
from mlax import profiler as mprof
from mlax.experimental import mesh_utils as mmesh


# -- monitoring ---------------------------------------------------------------

@pytest.fixture
def listeners():
    """Registers one recorder of each kind with both libraries; removes them after."""
    got = {"jax": [], "mlax": []}
    regs = []
    for name, mon in (("jax", jmon), ("mlax", mmon)):
        out = got[name]
        fns = (lambda e, out=out, **kw: out.append(("event", e, kw)),
               lambda e, d, out=out, **kw: out.append(("duration", e, kw, d)),
               lambda e, s, t, out=out, **kw: out.append(("span", e, kw, s, t)),
               lambda e, v, out=out, **kw: out.append(("scalar", e, kw, v)))
        mon.register_event_listener(fns[0])
        mon.register_event_duration_secs_listener(fns[1])
        mon.register_event_time_span_listener(fns[2])
        mon.register_scalar_listener(fns[3])
        regs.append((mon, fns))
    yield got
    for mon, fns in regs:
        mon.unregister_event_listener(fns[0])
        mon.unregister_event_duration_listener(fns[1])
        mon.unregister_event_time_span_listener(fns[2])
        mon.unregister_scalar_listener(fns[3])


def test_recorded_events_reach_every_listener_of_their_kind(listeners):
    for mon in (jmon, mmon):
        mon.record_event("/test/e", a=1)
        mon.record_event_duration_secs("/test/d", 0.5, b="x")
        mon.record_event_time_span("/test/t", 1.0, 2.0)
        mon.record_scalar("/test/s", 7, c=2)
    assert listeners["mlax"] == listeners["jax"] == [
        ("event", "/test/e", {"a": 1}), ("duration", "/test/d", {"b": "x"}, 0.5),
        ("span", "/test/t", {}, 1.0, 2.0), ("scalar", "/test/s", {"c": 2}, 7)]


def _compile_events(records):
    return [(kind, r[1], r[2].get("fun_name")) for r in records
            for kind in [r[0]] if r[1].startswith("/jax/core/compile/")]


def test_a_jit_compile_records_jaxs_events_with_jaxs_names(listeners):
    x_j, x_m = jnp.arange(3.0), mnp.arange(3.0)  # (their own compiles come first)

    def scaled_sum(x):
        return (x * 3.0).sum()

    listeners["jax"].clear()
    listeners["mlax"].clear()
    jax.jit(scaled_sum)(x_j)
    mlax.jit(scaled_sum)(x_m)
    ours, theirs = _compile_events(listeners["mlax"]), _compile_events(listeners["jax"])
    assert ours == theirs
    assert ("duration", "/jax/core/compile/backend_compile_duration",
            "jit(scaled_sum)") in ours
    for r in listeners["mlax"]:
        if r[0] == "duration":
            assert r[3] >= 0.0
        if r[0] == "span":
            assert r[3] <= r[4]
    # A cached call compiles nothing.
    listeners["mlax"].clear()
    mlax.jit(scaled_sum)(x_m)
    assert _compile_events(listeners["mlax"]) == []


def test_persistent_cache_events(listeners, tmp_path):
    from mlax._src.backend import runtime

    old = mlax.config.jax_compilation_cache_dir
    old_min = mlax.config.jax_persistent_cache_min_compile_time_secs
    mlax.config.update("jax_compilation_cache_dir", str(tmp_path))
    mlax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)
    try:
        def twice_plus(x):
            return x * 2 + 0.25

        x = mnp.arange(4.0)
        listeners["mlax"].clear()
        mlax.jit(twice_plus)(x)
        cache = [r[1] for r in listeners["mlax"] if r[1].startswith("/jax/compilation_cache")]
        assert cache == ["/jax/compilation_cache/compile_requests_use_cache",
                         "/jax/compilation_cache/cache_misses"]
        runtime._executables.clear()
        listeners["mlax"].clear()
        # Another function whose program is the same text: loaded from disk.
        np.testing.assert_array_equal(np.asarray(mlax.jit(lambda v: v * 2 + 0.25)(x)),
                                      np.arange(4.0) * 2 + 0.25)
        cache = [r[1] for r in listeners["mlax"] if r[1].startswith("/jax/compilation_cache")]
        assert cache == ["/jax/compilation_cache/compile_requests_use_cache",
                         "/jax/compilation_cache/cache_hits"]
        assert not any(r[1] == "/jax/core/compile/backend_compile_duration"
                       for r in listeners["mlax"])
    finally:
        mlax.config.update("jax_compilation_cache_dir", old)
        mlax.config.update("jax_persistent_cache_min_compile_time_secs", old_min)


def test_unregistering_an_unknown_listener_is_jaxs_assertion():
    for mon in (jmon, mmon):
        for unregister in (mon.unregister_event_listener, mon.unregister_event_duration_listener,
                           mon.unregister_event_time_span_listener,
                           mon.unregister_scalar_listener):
            with pytest.raises(AssertionError):
                unregister(lambda *a, **k: None)


def test_clear_event_listeners():
    seen = []
    mmon.register_event_listener(lambda e, **kw: seen.append(e))
    mmon.register_scalar_listener(lambda e, v, **kw: seen.append(e))
    mmon.clear_event_listeners()
    mmon.record_event("/test/cleared")
    mmon.record_scalar("/test/cleared", 1)
    assert seen == []


# -- profiler -----------------------------------------------------------------

def _event_names(log_dir):
    files = list(log_dir.rglob("*.xplane.pb"))
    assert len(files) == 1, files
    data = mprof.ProfileData.from_file(str(files[0]))
    return {e.name for plane in data.planes for line in plane.lines for e in line.events}


def test_a_trace_holds_the_annotations_and_the_program(tmp_path):
    @mprof.annotate_function
    def annotated_step(x):
        return mlax.jit(lambda v: v @ v)(x).block_until_ready()

    assert annotated_step.__name__ == "annotated_step"
    with mprof.trace(tmp_path):
        with mprof.TraceAnnotation("mlax_test_label", extra=1):
            annotated_step(mnp.ones((32, 32)))
        for step in range(2):
            with mprof.StepTraceAnnotation("train", step_num=step):
                (mnp.ones(4) + step).block_until_ready()
    names = _event_names(tmp_path)
    # (annotate_function names the event by the function's qualified name)
    assert {"mlax_test_label", annotated_step.__qualname__} <= names
    assert any(n.startswith("train") for n in names)
    assert list(tmp_path.rglob("*.trace.json.gz"))


def test_start_and_stop_trace_errors_are_jaxs(tmp_path):
    mprof.start_trace(tmp_path, create_perfetto_trace=True)
    try:
        with pytest.raises(RuntimeError, match="already been started"):
            mprof.start_trace(tmp_path)
    finally:
        mprof.stop_trace()
    assert list(tmp_path.rglob("perfetto_trace.json.gz"))
    for prof in (mprof, jax.profiler):
        with pytest.raises(RuntimeError, match="No profile started"):
            prof.stop_trace()


def test_annotate_function_with_a_name():
    f = mprof.annotate_function(lambda x: x + 1, name="plus_one")
    assert f(2) == 3
    g = mprof.annotate_function(name="named")(lambda x: x * 2)
    assert g(3) == 6


def test_profile_options():
    opts = mprof.ProfileOptions()
    opts.host_tracer_level = 1
    opts.python_tracer_level = 0
    assert opts.host_tracer_level == jax.profiler.ProfileOptions().host_tracer_level - 1


def test_device_memory_profile(tmp_path):
    keep = mnp.ones((256, 256))  # noqa: F841  (an allocation to profile)
    profile = mprof.device_memory_profile()
    assert isinstance(profile, bytes) and len(gzip.decompress(profile)) > 0
    path = tmp_path / "memory.prof"
    mprof.save_device_memory_profile(str(path))
    assert len(gzip.decompress(path.read_bytes())) > 0


def test_profiler_server():
    with pytest.raises(ValueError, match="No active profiler server"):
        mprof.stop_server()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = mprof.start_server(port)
    try:
        assert server is not None
        with pytest.raises(ValueError, match="Only one profiler server"):
            mprof.start_server(port)
    finally:
        mprof.stop_server()


def test_register_subprocess_error_is_jaxs():
    import os

    errors = []
    for prof in (mprof, jax.profiler):
        with pytest.raises(Exception) as info:
            prof.register_subprocess(os.getpid(), 1)
        errors.append((type(info.value).__name__, str(info.value)))
    assert errors[0] == errors[1]


# -- mesh_utils ---------------------------------------------------------------

def _ids(mesh):
    return np.vectorize(lambda d: d.id)(mesh)


@pytest.mark.parametrize("shape", [(8,), (2, 4), (4, 2), (2, 2, 2), (1, 8)])
def test_create_device_mesh_as_jax(shape):
    ours = mmesh.create_device_mesh(shape)
    theirs = jmesh.create_device_mesh(shape)
    assert ours.shape == theirs.shape == shape
    np.testing.assert_array_equal(_ids(ours), _ids(theirs))
    mesh = mlax.sharding.Mesh(ours, tuple("abc"[:len(shape)]))
    assert mesh.devices.shape == shape


def test_create_device_mesh_of_given_devices():
    devs = mlax.devices()[:4][::-1]
    ours = mmesh.create_device_mesh((2, 2), devs)
    theirs = jmesh.create_device_mesh((2, 2), jax.devices()[:4][::-1])
    np.testing.assert_array_equal(_ids(ours), _ids(theirs))


@pytest.mark.parametrize("shape", [(3,), (2, 3), ("a", 2)])
def test_create_device_mesh_errors_are_jaxs(shape):
    with pytest.raises(ValueError) as ours:
        mmesh.create_device_mesh(shape)
    with pytest.raises(ValueError) as theirs:
        jmesh.create_device_mesh(shape)
    assert str(ours.value) == str(theirs.value)


def test_device_kind_handler_is_called_first():
    kind = mlax.devices()[0].device_kind
    calls = []

    def handler(shape, devices, *, contiguous_submeshes):
        calls.append(shape)
        return np.asarray(devices[::-1]).reshape(shape)

    mmesh.device_kind_handler_dict[kind] = handler
    try:
        mesh = mmesh.create_device_mesh((8,))
    finally:
        del mmesh.device_kind_handler_dict[kind]
    assert calls == [(8,)]
    np.testing.assert_array_equal(_ids(mesh), np.arange(8)[::-1])


def test_create_hybrid_device_mesh_as_jax():
    ours = mmesh.create_hybrid_device_mesh((2, 4), (1, 1), process_is_granule=True)
    theirs = jmesh.create_hybrid_device_mesh((2, 4), (1, 1), process_is_granule=True)
    np.testing.assert_array_equal(_ids(ours), _ids(theirs))
    for kwargs in ({}, {"process_is_granule": True, "dcn_mesh_shape": (2, 1)}):
        kwargs = {"dcn_mesh_shape": (1, 1), **kwargs}
        with pytest.raises(ValueError) as a:
            mmesh.create_hybrid_device_mesh((2, 4), **kwargs)
        with pytest.raises(ValueError) as b:
            jmesh.create_hybrid_device_mesh((2, 4), **kwargs)
        assert str(a.value) == str(b.value)

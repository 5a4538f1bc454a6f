"""pytest hooks shared by the mlax suite."""
import collections
import os

import pytest

# Eight CPU devices in every test process, for mlax's and JAX's clients alike
# (as JAX's own suite runs): the sharding tests lay arrays out over meshes of
# them, and everything else runs on the first. Set before any client exists.
if "xla_force_host_platform_device_count" not in os.environ.get("XLA_FLAGS", ""):
    os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") +
                               " --xla_force_host_platform_device_count=8").strip()


# The slow tier: property-based search, fuzzing and subprocess crash and
# replay tests. `bash scripts/run.sh quick` leaves them out; CI runs them.
SLOW_MODULES = {"test_properties", "test_properties_more", "test_fuzz", "test_tracer_leaks",
                "test_crash_isolation", "test_reproducer"}


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.module is not None and item.module.__name__.rpartition(".")[2] in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session", autouse=True)
def _temporary_files_in_pytest_basetemp(tmp_path_factory):
    """Temporary files the suite makes (the reproducers mlax writes for the
    errors tests provoke, mlax_repro_*.mlir) go to pytest's own temporary
    directory, which pytest prunes, not the system's."""
    import tempfile

    old = tempfile.tempdir
    tempfile.tempdir = str(tmp_path_factory.mktemp("tempfiles"))
    try:
        yield
    finally:
        tempfile.tempdir = old


@pytest.fixture(scope="module")
def meshes():
    """The same 4x2 ("data", "model") mesh of CPU devices in mlax and in JAX
    (the sharding tests' processes have 8 CPU devices)."""
    import jax
    import numpy as np
    from jax.sharding import Mesh as JMesh

    import mlax
    from mlax.sharding import Mesh

    m = Mesh(np.array(mlax.devices("cpu")[:8]).reshape(4, 2), ("data", "model"))
    j = JMesh(np.array(jax.devices("cpu")[:8]).reshape(4, 2), ("data", "model"))
    return m, j


@pytest.fixture
def x64():
    """64-bit types in both mlax and JAX for the duration of a test."""
    import jax

    import mlax

    old = mlax.config.jax_enable_x64, jax.config.jax_enable_x64
    mlax.config.update("jax_enable_x64", True)
    jax.config.update("jax_enable_x64", True)
    try:
        yield
    finally:
        mlax.config.update("jax_enable_x64", old[0])
        jax.config.update("jax_enable_x64", old[1])


def _property_calls(config):
    return getattr(config, "_mlax_property_calls", None)


def pytest_sessionfinish(session):
    # Under pytest-xdist each worker hands its counts to the controller.
    calls = _property_calls(session.config)
    workeroutput = getattr(session.config, "workeroutput", None)
    if calls and workeroutput is not None:
        workeroutput["mlax_property_calls"] = dict(calls)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    calls = getattr(node, "workeroutput", {}).get("mlax_property_calls")
    if calls:
        total = getattr(node.config, "_mlax_property_calls", None)
        if total is None:
            total = node.config._mlax_property_calls = collections.Counter()
        total.update(calls)


def pytest_runtest_logreport(report):
    # Seconds per test file (setup, call and teardown), summed on the
    # controller from every worker's reports: where CI's time budget goes.
    _FILE_SECONDS[report.nodeid.partition("::")[0]] += report.duration


_FILE_SECONDS = collections.Counter()


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if _FILE_SECONDS:
        tr = terminalreporter
        total = sum(_FILE_SECONDS.values())
        tr.write_sep("-", f"test seconds per file: {total:.0f} s in all, the 25 largest")
        for path, sec in _FILE_SECONDS.most_common(25):
            tr.write_line(f"  {sec:7.1f} s  {100 * sec / total:4.1f}%  {path}")
    # Calls tried by the property tests (test_properties.py), per property.
    calls = _property_calls(config)
    if calls:
        tr = terminalreporter
        tr.write_sep("-", f"mlax property tests: {sum(calls.values())} calls tried")
        for name, n in sorted(calls.items()):
            tr.write_line(f"  {n:6d}  {name}")

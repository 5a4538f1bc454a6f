"""Transfer guards against JAX: mlax.transfer_guard and its three
directions, as context managers and config options, log or refuse the
same transfers JAX's do, with the same error class; explicit transfers
(device_put, device_get) pass the '*_explicit' levels."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mlax
import mlax.numpy as mnp

LEVELS = ["allow", "log", "disallow", "log_explicit", "disallow_explicit"]


def _actions(lib, np_lib):
    """Operations a user runs, by name: each a thunk that may transfer."""
    x = np_lib.arange(3.0, dtype=np.float32)
    x.block_until_ready()
    f = lib.jit(lambda a: a * 2)
    f(np.ones(3, np.float32)).block_until_ready()  # (cached below: the C++ path)
    return {
        "jit_numpy_cached": lambda: f(np.ones(3, np.float32)),
        "jit_numpy_new": lambda: lib.jit(lambda a: a + 3)(np.ones(3, np.float32)),
        "jit_python_scalar": lambda: lib.jit(lambda a: a - 1)(2.0),
        "jit_device_array": lambda: f(x),
        "array_from_numpy": lambda: np_lib.array(np.ones(3, np.float32)),
        "asarray_from_numpy": lambda: np_lib.asarray(np.ones(3, np.float32)),
        "op_on_numpy": lambda: np_lib.sin(np.ones(3, np.float32)),
        "op_with_python_scalar": lambda: x + 1,
        "op_on_device_arrays": lambda: x * x,
        "device_put": lambda: lib.device_put(np.ones(3, np.float32)),
        "device_get": lambda: lib.device_get(x),
        "to_numpy": lambda: np.asarray(x),
    }


def _outcome(thunk):
    try:
        out = thunk()
        if hasattr(out, "block_until_ready"):
            out.block_until_ready()
    except Exception as e:  # noqa: BLE001  (compared with JAX's)
        return type(e).__name__, str(e).split(":")[1].strip().split(" transfer")[0]
    return "ok"


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("guard", ["transfer_guard", "transfer_guard_host_to_device",
                                   "transfer_guard_device_to_host"])
def test_guarded_operations_match_jax(level, guard):
    ours, theirs = _actions(mlax, mnp), _actions(jax, jnp)
    for name in ours:
        with getattr(jax, guard)(level):
            want = _outcome(theirs[name])
        with getattr(mlax, guard)(level):
            got = _outcome(ours[name])
        assert got == want, (guard, level, name, got, want)
    # Left as before: nothing is refused.
    assert all(_outcome(t) == "ok" for t in ours.values())


def test_disallowed_transfers_raise_jaxs_error():
    with mlax.transfer_guard("disallow"), pytest.raises(
            jax.errors.JaxRuntimeError,
            match=r"Disallowed host-to-device transfer: aval=ShapedArray\(float32\[3\]\)"):
        mnp.asarray(np.ones(3, np.float32))
    # An explicit device_put passes 'disallow' but not 'disallow_explicit'.
    with mlax.transfer_guard("disallow"):
        assert mlax.device_put(np.ones(2)).shape == (2,)
    with mlax.transfer_guard("disallow_explicit"), pytest.raises(jax.errors.JaxRuntimeError):
        mlax.device_put(np.ones(2))


def test_config_options_and_values():
    assert mlax.transfer_guard_host_to_device.value is None
    mlax.config.update("jax_transfer_guard", "disallow")
    try:
        for d in ("host_to_device", "device_to_device", "device_to_host"):
            assert getattr(mlax.config, f"jax_transfer_guard_{d}") == "disallow"
            assert getattr(mlax, f"transfer_guard_{d}").value == "disallow"
        with pytest.raises(jax.errors.JaxRuntimeError):
            mnp.array(np.ones(3))
        # A thread's own level wins over the process's.
        with mlax.transfer_guard_host_to_device("allow"):
            assert mlax.transfer_guard_host_to_device.value == "allow"
            assert mnp.array(np.ones(3)).shape == (3,)
        assert mlax.transfer_guard_host_to_device.value == "disallow"
    finally:
        mlax.config.update("jax_transfer_guard", None)
    assert mnp.array(np.ones(3)).shape == (3,)
    mlax.config.update("jax_transfer_guard_host_to_device", "disallow")
    try:
        assert mlax.transfer_guard_device_to_host.value is None
        with pytest.raises(jax.errors.JaxRuntimeError):
            mnp.array(np.ones(3))
    finally:
        mlax.config.update("jax_transfer_guard_host_to_device", None)


@pytest.mark.parametrize("bad", ["bogus", 1, "Disallow"])
def test_bad_levels_raise_jaxs_error(bad):
    def errors(lib):
        out = []
        for make in (lambda: lib.transfer_guard(bad),
                     lambda: lib.transfer_guard_device_to_host(bad),
                     lambda: lib.config.update("jax_transfer_guard", bad),
                     lambda: lib.config.update("jax_transfer_guard_host_to_device", bad)):
            with pytest.raises(Exception) as info:
                thing = make()
                if thing is not None:
                    with thing:
                        pass
            out.append((type(info.value), str(info.value)))
        return out
    assert errors(mlax) == errors(jax)
    assert mlax.transfer_guard_host_to_device.value is None


def test_context_levels_are_per_thread():
    seen = {}

    def other():
        seen["level"] = mlax.transfer_guard_host_to_device.value
        seen["array"] = mnp.array(np.ones(2)).shape

    with mlax.transfer_guard("disallow"):
        t = threading.Thread(target=other)
        t.start()
        t.join()
        with pytest.raises(jax.errors.JaxRuntimeError):
            mnp.array(np.ones(2))
    assert seen == {"level": None, "array": (2,)}


_SCRIPT = textwrap.dedent("""
    import sys
    import numpy as np
    lib = sys.argv[1]
    if lib == "mlax":
        import mlax as lib, mlax.numpy as np_lib
    else:
        import jax as lib, jax.numpy as np_lib
    devices = lib.devices()
    x = np_lib.ones(3)
    x.block_until_ready()
    results = []

    def put():
        try:
            lib.device_put(x, devices[1]).block_until_ready()
            results.append("ok")
        except Exception as e:
            results.append(type(e).__name__ + ":" + str(e).split(":")[1].split(" transfer")[0])
    put()  # at the process's level
    for level in ("disallow", "disallow_explicit"):
        with lib.transfer_guard_device_to_device(level):
            put()
    with lib.transfer_guard("log"):
        np_lib.array(np.ones(3, np.float32)).block_until_ready()
    print(results)
""")


def _run(lib):
    # (warnings shown: JAX's default; mlax's hides them, see jaxlib_internals)
    environ = dict(os.environ, JAX_NUM_CPU_DEVICES="2", TF_CPP_MIN_LOG_LEVEL="1")
    proc = subprocess.run([sys.executable, "-c", _SCRIPT, lib], capture_output=True, text=True,
                          env=environ, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip(), proc.stderr


def test_device_to_device_and_log_in_a_fresh_process():
    ours, our_log = _run("mlax")
    theirs, their_log = _run("jax")
    assert ours == theirs == "['ok', 'ok', 'JaxRuntimeError: Disallowed device-to-device']"
    # 'log' goes to jaxlib's C++ log, as a warning.
    assert "host-to-device transfer: aval=ShapedArray(float32[3])" in our_log
    assert "host-to-device transfer" in their_log


"""Every use of jaxlib's (and JAX's) private internals, in one module.

mlax runs on jaxlib's PJRT/XLA through public entry points where there are
some; the rest, below, is private API that holds together only at the exact
jaxlib version mlax pins. Importing this module checks that version and fails
with a clear error otherwise, instead of an AttributeError deep in a call.
Nothing else in mlax may import `jaxlib._jax` or `jax._src`
(test/py/test_import_layers.py checks that).
"""
from __future__ import annotations

import functools

import jaxlib

SUPPORTED_JAXLIB = "0.10.2"  # as pinned in pyproject.toml (jax and jaxlib)


def check_version(found: str) -> None:
    if found != SUPPORTED_JAXLIB:
        raise ImportError(
            f"mlax needs jaxlib=={SUPPORTED_JAXLIB} (it uses jaxlib internals that change "
            f"between releases: its C++ jit dispatch, pytree registry and device_put), but "
            f"jaxlib {found} is installed; install jax=={SUPPORTED_JAXLIB} "
            f"jaxlib=={SUPPORTED_JAXLIB}")


check_version(getattr(jaxlib, "__version__", "unknown"))

from jaxlib import _jax  # noqa: E402

# Pytrees: jaxlib's C++ registry, the one JAX uses (base.tree).
pytree = _jax.pytree

# Cached jit dispatch on jaxlib's C++ PjitFunction (jit.dispatch).
PjitFunctionCache = _jax.PjitFunctionCache
pjit = _jax.pjit

# Part of the C++ jit signature (a jaxlib config in the jit key, thread-local):
# nonzero while this thread traces (core.tracing), so a jitted call inside a
# trace never hits a fast path recorded outside one and always comes back to
# Python (which inlines it into the trace as mlax.call).
tracing_flag = _jax.config.Config("mlax_tracing", 0, include_in_jit_key=True)


@functools.cache
def import_jax():
    """Imports the `jax` package (its PJRT backend helpers), leaving NumPy's
    global random state as the user set it: importing jax draws from it, and
    `np.random.seed(0); mnp.asarray(x); np.random.rand()` must give what it
    gives without mlax. (mlax should need only jaxlib; until then, every
    import of jax goes through here.)"""
    import numpy as np

    state = np.random.get_state()
    try:
        import jax
    finally:
        np.random.set_state(state)
    return jax


@functools.cache
def _jax_private():
    # Imported on first use: importing jax costs a second of startup.
    import_jax()
    from jax._src import config as jax_config
    from jax._src import core as jcore
    from jax._src.interpreters import pxla

    return jax_config, jcore, pxla


def mesh_executable_fastpath_data(*args):
    """JAX's `MeshExecutableFastpathData`: what the C++ dispatcher runs."""
    return _jax_private()[2].MeshExecutableFastpathData(*args)


def batched_device_put(array, sharding, device, enable_x64):
    """One host array onto `device`, as jax.device_put does it."""
    _, jcore, pxla = _jax_private()
    aval = jcore.ShapedArray(array.shape, array.dtype)
    return pxla.batched_device_put(aval, sharding, [array], [device], enable_x64=enable_x64)


def jax_x64_enabled() -> bool:
    """What JAX's own x64 switch says (the C++ dispatcher reads it)."""
    return bool(_jax_private()[0].enable_x64.value)


def enable_x64(value: bool):
    """JAX's scoped, thread-local x64 switch (a context manager)."""
    return _jax_private()[0].enable_x64(value)

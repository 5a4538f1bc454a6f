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
import os
import warnings

# XLA's C++ logs at INFO unless told otherwise before jaxlib loads; mlax,
# as JAX, shows warnings and errors only.
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import jaxlib  # noqa: E402

SUPPORTED_JAXLIB = "0.10.2"  # as pinned in pyproject.toml (jax and jaxlib)

# Names a jaxlib version other than the pinned one that mlax may run on (at
# the user's risk, with a warning); e.g. the version a GPU machine has.
ALLOW_VERSION_ENV = "MLAX_ALLOW_JAXLIB_VERSION"


def check_version(found: str, allowed: str | None = None) -> bool:
    """True for the pinned jaxlib. Any other version is an ImportError unless
    `allowed` ($MLAX_ALLOW_JAXLIB_VERSION by default) names exactly it: then
    mlax warns and returns False, and each private entry point below is used
    only where it still fits (the C++ jit dispatch falls back to the Python
    path otherwise)."""
    if found == SUPPORTED_JAXLIB:
        return True
    if allowed is None:
        allowed = os.environ.get(ALLOW_VERSION_ENV, "")
    if allowed and allowed.strip() == found:
        warnings.warn(
            f"mlax: running on jaxlib {found}, not the pinned {SUPPORTED_JAXLIB}, because "
            f"{ALLOW_VERSION_ENV}={allowed}; the jaxlib internals mlax uses are untested "
            f"there (jit dispatch falls back to Python where they differ)",
            RuntimeWarning, stacklevel=2)
        return False
    raise ImportError(
        f"mlax needs jaxlib=={SUPPORTED_JAXLIB} (it uses jaxlib internals that change "
        f"between releases: its C++ jit dispatch, pytree registry and device_put), but "
        f"jaxlib {found} is installed; install jax=={SUPPORTED_JAXLIB} "
        f"jaxlib=={SUPPORTED_JAXLIB} (or set {ALLOW_VERSION_ENV}={found} to try it anyway)")


PINNED = check_version(getattr(jaxlib, "__version__", "unknown"))

from jaxlib import _jax  # noqa: E402

# Pytrees: jaxlib's C++ registry, the one JAX uses (base.tree). Nothing
# works without it, on any version.
pytree = _jax.pytree

# Cached jit dispatch on jaxlib's C++ PjitFunction (jit.dispatch); None where
# an allowed other jaxlib lacks them (every call then takes the Python path).
PjitFunctionCache = getattr(_jax, "PjitFunctionCache", None)
pjit = getattr(_jax, "pjit", None)

# Part of the C++ jit signature (a jaxlib config in the jit key, thread-local):
# nonzero while this thread traces (core.tracing), so a jitted call inside a
# trace never hits a fast path recorded outside one and always comes back to
# Python (which inlines it into the trace as mlax.call).


class _NoTracingFlag:
    """Stands for the flag where jaxlib cannot make it (C++ dispatch is then
    off, so nothing reads it)."""

    def swap_local(self, value):
        return 0


try:
    tracing_flag = _jax.config.Config("mlax_tracing", 0, include_in_jit_key=True)
except (AttributeError, TypeError):
    tracing_flag = _NoTracingFlag()
    pjit = None


def cpp_dispatch_available() -> bool:
    """Whether jit calls can go through jaxlib's C++ dispatcher."""
    return pjit is not None and PjitFunctionCache is not None


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
    """JAX's `MeshExecutableFastpathData`: what the C++ dispatcher runs; None
    on an allowed other jaxlib whose one takes other fields (the call then
    stays on the Python path)."""
    try:
        return _jax_private()[2].MeshExecutableFastpathData(*args)
    except (AttributeError, TypeError):
        if PINNED:
            raise
        return None


def batched_device_put(array, sharding, device, enable_x64):
    """One host array onto `device`, as jax.device_put does it."""
    _, jcore, pxla = _jax_private()
    aval = jcore.ShapedArray(array.shape, array.dtype)
    try:
        return pxla.batched_device_put(aval, sharding, [array], [device],
                                       enable_x64=enable_x64)
    except (AttributeError, TypeError):
        if PINNED:
            raise
    import jax  # an allowed other jaxlib: the public route, under mlax's x64

    with _jax_private()[0].enable_x64(enable_x64):
        return jax.device_put(array, device)


def jax_x64_enabled() -> bool:
    """What JAX's own x64 switch says (the C++ dispatcher reads it)."""
    return bool(_jax_private()[0].enable_x64.value)


def enable_x64(value: bool):
    """JAX's scoped, thread-local x64 switch (a context manager)."""
    return _jax_private()[0].enable_x64(value)

"""mlax.experimental.compilation_cache.compilation_cache, as JAX's: the
persistent compilation cache's directory (`jax_compilation_cache_dir`).

mlax's persistent cache keeps no state but its hit/miss counters: every
compile reads the directory from the config, so `set_cache_dir` takes effect
at the next compile (JAX's takes effect before its cache is first used, or
after `reset_cache`)."""
from __future__ import annotations

from mlax._src.backend import runtime
from mlax._src.base.config import config


def set_cache_dir(path) -> None:
    """Sets the persistent compilation cache's directory: compiled programs
    are saved there and looked up there before compiling."""
    config.update("jax_compilation_cache_dir", path)


def reset_cache() -> None:
    """Back to the pristine state. mlax's cache has no handle to drop (the
    directory is read at each compile): its hit/miss counters start again.
    Entries on disk are kept, as in JAX."""
    runtime.reset_persistent_stats()

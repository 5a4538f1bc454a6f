"""Global configuration (`mlax.config.update`), named as in JAX."""
from __future__ import annotations

import os


def _env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in ("1", "true", "yes", "on")


class Config:
    def __init__(self):
        # JAX's name for the switch, in the environment and in update().
        self.jax_enable_x64 = _env_bool("JAX_ENABLE_X64", False)
        self.mlax_log_compiles = _env_bool("MLAX_LOG_COMPILES", False)

    _ALIASES = {"enable_x64": "jax_enable_x64", "log_compiles": "mlax_log_compiles"}

    def update(self, name: str, value):
        name = self._ALIASES.get(name, name)
        if not hasattr(self, name):
            raise AttributeError(f"mlax.config: unknown option {name!r}")
        setattr(self, name, value)
        if name == "jax_enable_x64":
            from mlax._src import api

            api.clear_caches()

    @property
    def x64_enabled(self) -> bool:
        return self.jax_enable_x64


config = Config()

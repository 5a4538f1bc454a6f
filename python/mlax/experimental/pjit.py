"""mlax.experimental.pjit, as jax.experimental.pjit: `pjit`, the deprecated
name of `mlax.jit` with in_shardings/out_shardings that programs written
for earlier JAX releases import."""
import warnings as _warnings

from mlax._src.jit.api import jit as _jit
from mlax._src.jit.partitioned import _UNSPECIFIED


def __getattr__(name):
    if name == "pjit":
        _warnings.warn("jax.experimental.pjit.pjit has been deprecated. Please use `jax.jit` "
                       "instead.", DeprecationWarning, stacklevel=2)
        return _pjit
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _pjit(fun, in_shardings=_UNSPECIFIED, out_shardings=_UNSPECIFIED, static_argnums=None,
          static_argnames=None, donate_argnums=None, donate_argnames=None,
          keep_unused=False, device=None, backend=None, inline=False, compiler_options=None):
    """`mlax.jit` under its deprecated name (JAX's signature: `fun` first)."""
    return _jit(fun, in_shardings=in_shardings, out_shardings=out_shardings,
                static_argnums=static_argnums or (), static_argnames=static_argnames or (),
                donate_argnums=donate_argnums or (), donate_argnames=donate_argnames or (),
                keep_unused=keep_unused, device=device, backend=backend, inline=inline,
                compiler_options=compiler_options)

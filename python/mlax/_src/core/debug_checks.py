"""JAX's jax_debug_nans / jax_debug_infs: while either is on, the float
outputs of every program mlax runs are checked on the host, and a NaN (or an
infinity) raises FloatingPointError naming where it came from, as in JAX:

* an op run eagerly names its primitive ("invalid value (nan) encountered
  in log");
* a jitted function whose output holds one is run again de-optimized (its
  Python function called directly, op by op, each op checked), so the error
  names the first op that produced the value; if that run produces none
  (XLA's optimizations made the value, or it was an input passed through),
  JAX's message saying so is raised;
* a transformation run outside jit (an eager grad, vjp or vmap) is one
  compiled program, so its error names the transformation.

Calls are checked only in Python: while a switch is on, the C++ dispatcher
hands every call back (mlax._src.jit.api), and turning it on drops the fast
paths made before. Outputs are read back to the host, so this is for
debugging, as in JAX.
"""
from __future__ import annotations

import numpy as np

from mlax._src.base import dtypes
from mlax._src.base.config import config
from mlax._src.base.tree import registry
from mlax._src.core.array import Array

DEOPTIMIZED = ("Invalid nan value encountered in the output of a jax.jit function. "
               "Calling the de-optimized version.")


def first_invalid(out) -> str | None:
    """'nan' or 'inf' when a float leaf of `out` holds one the switches
    look for (NaNs first, as JAX checks them), else None."""
    nans, infs = config.jax_debug_nans, config.jax_debug_infs
    for leaf in registry.flatten(out)[0]:
        if type(leaf) is not Array or not dtypes.issubdtype(leaf.dtype, np.inexact):
            continue
        value = np.asarray(leaf)
        if nans and np.isnan(value).any():
            return "nan"
        if infs and np.isinf(value).any():
            return "inf"
    return None


def invalid_value_error(kind: str, where: str) -> FloatingPointError:
    return FloatingPointError(f"invalid value ({kind}) encountered in {where}")


def check_outputs(jitted, out, args, kwargs) -> None:
    """Raises FloatingPointError if a call of `jitted` (an api.Jitted) on
    `args`/`kwargs` returned an invalid value; see the module's docstring."""
    kind = first_invalid(out)
    if kind is None:
        return
    primitive = getattr(jitted._fun, "_mlax_primitive", None)
    if primitive is not None:
        raise invalid_value_error(kind, primitive)
    print(DEOPTIMIZED)
    jitted._fun(*args, **kwargs)  # each op checked: raises naming the first bad one
    name = f"jit({jitted._fun_name()})"
    raise FloatingPointError(
        f"{(name, kind)}. Because jax_config.debug_nans.value and/or config.jax_debug_infs "
        "is set, the de-optimized function (i.e., the function as if the `jit` decorator were "
        "removed) was called in an attempt to get a more precise error message. However, the "
        "de-optimized function did not produce invalid values during its execution. This "
        "behavior can result from `jit` optimizations causing the invalid value to be "
        "produced. It may also arise from having nan/inf literals as inputs or outputs, like "
        "`jax.jit(lambda ...: jax.numpy.nan)(...)`. \n\nIt may be possible to avoid the "
        "invalid value by removing the `jit` decorator, at the cost of losing optimizations. "
        "\n\nIf you see this error, consider opening a bug report at "
        "https://github.com/jax-ml/jax.")

"""Why a jitted function traced again (`mlax_explain_cache_misses`).

With `mlax.config.update("mlax_explain_cache_misses", True)` (JAX's name,
`jax_explain_cache_misses`, works too) every trace logs, on the `mlax`
logger, the call site and why no cached executable fitted, as JAX does:

    TRACING CACHE MISS at /path/x.py:12 (<module>):
      for f defined at /path/x.py:3
      all previously seen cache keys differ. For the closest previous key:
      different input types:
      * at x, now f32[4] and before f32[3]
"""
from __future__ import annotations

import logging

from mlax._src.core import tracer as core
from mlax._src.base import config as config_lib
from mlax._src.base import debug_info

logger = logging.getLogger("mlax")


def _key_parts(key):
    treedef, static_key, avals = key
    return treedef, static_key, avals


def _differences(jitted, key, old, rebuild):
    treedef, static_key, avals = key[:3]
    o_treedef, o_static, o_avals = old[:3]
    if key[3] != old[3] and (treedef, static_key, avals) == (o_treedef, o_static, o_avals):
        # config.trace_context: an option programs depend on changed
        lines = [f"  * {name}: now {new!r} and before {before!r}"
                 for name, new, before in zip(config_lib.TRACE_CONTEXT_OPTIONS, key[3], old[3])
                 if new != before]
        return 0, "different config options:\n" + "\n".join(lines)
    if key[4:] != old[4:]:  # arguments on a non-default device (api._entry)
        def where(k):
            return str(k[4]) if k[4:] else "the default device"
        if (treedef, static_key, avals) == (o_treedef, o_static, o_avals):
            return 0, f"arguments on another device: now {where(key)} and before {where(old)}"
    if static_key != o_static:
        lines = []
        if static_key is not None and o_static is not None and static_key[:2] == o_static[:2]:
            pos, kws, vals = static_key
            names = _static_names(jitted, pos, kws)
            for name, new, before in zip(names, vals, o_static[2]):
                if new != before or type(new) is not type(before):
                    lines.append(f"  * at {name}, now {new!r} and before {before!r}")
        else:
            lines.append(f"  * now {static_key!r} and before {o_static!r}")
        return 2, "different static arguments:\n" + "\n".join(lines)
    if treedef != o_treedef:
        return 1, (f"different input pytree:\n  * now {treedef} and before {o_treedef}")
    names = debug_info.arg_names(jitted._fun, treedef, rebuild)
    lines = [f"  * at {n}, now {_weak(a)}{a.str_short()} and before {_weak(b)}{b.str_short()}"
             for n, a, b in zip(names, avals, o_avals) if a != b]
    return 0, "different input types:\n" + "\n".join(lines)


def _weak(aval):
    return "~" if aval.weak_type else ""  # JAX's mark of a weak type


def _static_names(jitted, positions, kws):
    try:
        import inspect

        params = list(inspect.signature(jitted._fun).parameters)
    except (TypeError, ValueError):
        params = []
    out = [params[p] if p < len(params) else f"args[{p}]" for p in positions]
    return out + list(kws)


def explain(jitted, key, rebuild):
    """Logs why `jitted` misses its cache for `key` (called before tracing)."""
    frame = core.user_frame()
    where = (f"{frame.f_code.co_filename}:{frame.f_lineno} ({frame.f_code.co_name})"
             if frame is not None else "<unknown>")
    fun = jitted._fun
    name = debug_info.fun_name(fun)
    src = debug_info.fun_source(fun)
    if src.startswith(core._MLAX_DIR):
        return  # mlax's own jits (eager ops, samplers) are not the user's
    if not jitted._cache:
        logger.warning("TRACING CACHE MISS at %s:\n  never seen function:\n    %s id=%d "
                       "defined at %s", where, name, id(fun), src)
        return
    best = None
    for old in jitted._cache:
        try:
            score, text = _differences(jitted, key, old, rebuild)
        except Exception:  # noqa: BLE001 (an explanation must never fail a call)
            continue
        if best is None or score < best[0]:
            best = (score, text)
    detail = best[1] if best else "the cache key is new"
    logger.warning("TRACING CACHE MISS at %s:\n  for %s defined at %s\n  all previously seen "
                   "cache keys differ. For the closest previous key:\n  %s",
                   where, name, src, detail)

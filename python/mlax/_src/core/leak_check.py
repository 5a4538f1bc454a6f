"""JAX's tracer-leak checker (`jax_check_tracer_leaks`, `mlax.checking_leaks()`).

When it is on, every trace is checked as it ends: a tracer of it that is
still referenced from outside (a global list, an object's attribute, a
closure cell) is a leak, and an Exception names the tracers and the chain
of objects that keeps each alive, as JAX's message does. Without the
checker a leaked tracer is found only when it is used
(UnexpectedTracerError, see tracer.check_tracer).
"""
from __future__ import annotations

import gc
import sys
import threading
import types
import weakref

from mlax._src.base import debug_info
from mlax._src.core.tracer import Tracer

# JAX's names of its traces, by the transformation that traces.
_TRACE_NAMES = {None: "DynamicJaxprTrace", "vmap": "BatchTrace", "jvp": "JVPTrace",
                "jacfwd": "JVPTrace", "hessian": "JVPTrace", "grad": "JVPTrace",
                "value_and_grad": "JVPTrace", "vjp": "JVPTrace", "jacrev": "JVPTrace"}


_ended = threading.local()


def ended(trace, outermost: bool) -> None:
    """Notes that `trace` ended; when it is the `outermost` one, raises if a
    tracer of it or of a trace that ended inside it is still alive."""
    # Weak references: the traces themselves (their functions, closures and
    # tracers) must be free to go.
    traces = getattr(_ended, "traces", None)
    if traces is None:
        traces = _ended.traces = []
    traces.append(weakref.ref(trace))
    if not outermost:
        return
    del trace
    _ended.traces = []
    # Most traces are freed by reference counting alone as they end; a
    # collection (slow in a large process) only when one is still alive.
    if all(r() is None for r in traces):
        return
    gc.collect()
    ids = {id(t) for t in (r() for r in traces) if t is not None}
    if not ids:
        return
    leaked = [o for o in gc.get_objects() if type(o) is Tracer and id(o.trace) in ids]
    if not leaked:
        return
    # The tracers the user's code holds first (a chain to a module global),
    # then those only reachable from them.
    reports = []
    for tracer in leaked[:8]:
        chain, rooted = _referrers(tracer, leaked)
        reports.append((not rooted, len(reports), tracer, chain))
    reports.sort(key=lambda r: r[:2])
    trace = reports[0][2].trace
    lines = [f"Leaked trace {_TRACE_NAMES.get(trace.transform, 'DynamicJaxprTrace')}. "
             "Leaked tracer(s):", ""]
    for _, _, tracer, chain in reports[:5]:
        lines.append(repr(tracer))
        fun = tracer.trace.debug[0] if getattr(tracer.trace, "debug", None) else None
        if fun is not None:
            what = tracer.trace.traced_for or tracer.trace.transform or "jit"
            lines.append(f"The error occurred while tracing the function "
                         f"{debug_info.fun_name(fun)} at {debug_info.fun_source(fun)} "
                         f"for {what}.")
        lines.extend(chain)
        lines.append("")
    if len(leaked) > 5:
        lines.append(f"... and {len(leaked) - 5} more")
    del leaked, reports, tracer
    raise Exception("\n".join(lines).rstrip())  # noqa: TRY002  (JAX's class)


def _describe(obj) -> str:
    if isinstance(obj, types.FunctionType):
        return f"<function {obj.__qualname__} at {obj.__code__.co_filename}:" \
               f"{obj.__code__.co_firstlineno}>"
    return f"<{type(obj).__name__} {id(obj)}>"


def _referrers(obj, ignore, depth: int = 6) -> tuple[list[str], bool]:
    """'<X> is referred to by <Y>[i]' lines: the shortest chain of
    referrers (breadth first, at most `depth` long) from the tracer to a
    module global, named `module.name`, and True; one step and False when
    there is none."""
    modules = {id(m.__dict__): m.__name__ for m in list(sys.modules.values())
               if getattr(m, "__dict__", None) is not None}
    seen = {id(ignore), id(obj)}
    level = [(obj, [])]
    first = None
    budget = 24  # each gc.get_referrers call scans every object of the process
    for _ in range(depth):
        following = []
        for child, chain in level:
            budget -= 1
            if budget < 0:
                return first or [], False
            for ref in gc.get_referrers(child):
                if id(ref) in seen or isinstance(ref, types.FrameType) or ref is level \
                        or ref is following:
                    continue
                seen.add(id(ref))
                if id(ref) in modules:
                    name = next((k for k, v in ref.items() if v is child), "?")
                    return chain + [f"{_describe(child)} is referred to by "
                                    f"{modules[id(ref)]}.{name}"], True
                step = f"{_describe(child)} is referred to by {_describe(ref)}{_where(ref, child)}"
                if first is None:
                    first = [step]
                following.append((ref, chain + [step]))
        level = following
    return first or [], False


def _where(container, child) -> str:
    if isinstance(container, (list, tuple)):
        return next((f"[{i}]" for i, v in enumerate(container) if v is child), "")
    if isinstance(container, dict):
        return next((f"[{k!r}]" for k, v in container.items() if v is child), "")
    return ""

"""jax.debug.breakpoint with JAX's command-line debugger (jdb).

At the call, the Python frames above it (mlax's own left out) are captured:
source, line and locals. Locals that are traced values become the arguments
of a debug callback (a pure callback returning `token` when one is given),
the rest stay as they are; when the program runs, the callback rebuilds the
frames with the values as arrays and reads commands from stdin: `p`/`pp`
expression, any expression, `u`/`d` (frame up/down), `l` (list), `w`/`bt`
(backtrace), `c` (continue), `q` (quit: SystemExit)."""
from __future__ import annotations

import cmd
import dataclasses
import inspect
import pprint
import sys
import threading
import traceback
from typing import Any

import numpy as np

from mlax._src.base.tree import registry
from mlax._src.core import tracer as core
from mlax._src.core.tracer import Tracer
from mlax._src.jit import api
from mlax._src.jit.callbacks import debug_callback, pure_callback
from mlax._src.jit.jaxpr import ShapeDtypeStruct


@dataclasses.dataclass(frozen=True)
class DebuggerFrame:
    """One Python frame, as the debugger shows it."""
    filename: str
    locals: dict
    globals: dict
    code_context: Any
    source: list
    lineno: int
    offset: int | None

    @classmethod
    def from_frameinfo(cls, frame_info) -> "DebuggerFrame":
        try:
            _, start = inspect.getsourcelines(frame_info.frame)
            source = inspect.getsource(frame_info.frame).split("\n")
            # getsource gives the enclosing block from line `start` (0: the
            # whole file); offset is the line's index in `source`.
            offset = frame_info.lineno - max(start, 1)
            if offset >= len(source):
                source, offset = [], None
        except OSError:
            source, offset = [], None
        return cls(frame_info.filename, dict(frame_info.frame.f_locals), {},
                   frame_info.code_context, source, frame_info.lineno, offset)


class CliDebugger(cmd.Cmd):
    """jdb: JAX's text debugger over the captured frames."""
    prompt = "(jdb) "

    def __init__(self, frames, thread_id, stdin=None, stdout=None, completekey="tab"):
        super().__init__(stdin=stdin, stdout=stdout, completekey=completekey)
        self.use_rawinput = stdin is None
        self.frames = frames
        self.frame_index = 0
        self.thread_id = thread_id
        self.intro = "Entering jdb:"

    def evaluate(self, expr):
        frame = self.frames[self.frame_index]
        return eval(expr, {}, {**frame.globals, **frame.locals})  # noqa: S307 (a debugger)

    def _error_message(self):
        exc_type, exc = sys.exc_info()[:2]
        msg = traceback.format_exception_only(exc_type, exc)[-1].strip()
        print("***", msg, file=self.stdout)

    def _print(self, fmt, arg):
        try:
            print(fmt(self.evaluate(arg)), file=self.stdout)
        except Exception:  # noqa: BLE001 (shown to the user, as pdb does)
            self._error_message()

    def default(self, line):
        """Evaluates an expression."""
        self._print(repr, line)

    def do_p(self, arg):
        """p expression: evaluates and prints an expression."""
        self._print(repr, arg)

    def do_pp(self, arg):
        """pp expression: evaluates and pretty-prints an expression."""
        self._print(pprint.pformat, arg)

    def print_context(self, num_lines=2):
        frame = self.frames[self.frame_index]
        context = [f"> {frame.filename}({frame.lineno})"]
        for i, line in enumerate(frame.source):
            if frame.offset is not None and \
                    frame.offset - 1 - num_lines <= i <= frame.offset + num_lines:
                context.append(f"->  {line}" if i == frame.offset else f"    {line}")
        print("\n".join(context), file=self.stdout)

    def print_backtrace(self):
        lines = ["Traceback:"]
        for frame in self.frames[::-1]:
            lines.append(f'  File "{frame.filename}", line {frame.lineno}')
            lines.append("    <no source>" if frame.offset is None
                         else f"    {frame.source[frame.offset].strip()}")
        print("\n".join(lines), file=self.stdout)

    def do_up(self, arg, /):
        """u(p): moves up a stack frame."""
        if self.frame_index == len(self.frames) - 1:
            print("At topmost frame.", file=self.stdout)
        else:
            self.frame_index += 1
        self.print_context()
    do_u = do_up

    def do_down(self, arg, /):
        """d(own): moves down a stack frame."""
        if self.frame_index == 0:
            print("At bottommost frame.", file=self.stdout)
        else:
            self.frame_index -= 1
        self.print_context()
    do_d = do_down

    def do_list(self, _):
        """l(ist): lists the source around the current line."""
        self.print_context(num_lines=5)
    do_l = do_list

    def do_continue(self, _):
        """c(ont(inue)): continues the program."""
        return True
    do_c = do_cont = do_continue

    def do_quit(self, _):
        """q(uit), exit: quits the debugger and the program."""
        sys.exit(0)
    do_q = do_EOF = do_exit = do_quit

    def do_where(self, _):
        """w(here), bt: prints the stack, most recent frame last."""
        self.print_backtrace()
    do_w = do_bt = do_where

    def run(self):
        while True:
            try:
                self.cmdloop()
                break
            except KeyboardInterrupt:
                print("--KeyboardInterrupt--", file=sys.stdout)


def run_debugger(frames, thread_id, **kwargs):
    CliDebugger(frames, thread_id, **kwargs).run()


_debuggers = {"cli": run_debugger}
_debug_lock = threading.Lock()


def _split_frames(frames):
    """(the frames with each traced local leaf replaced by its index in
    `dyn`, dyn): the traced values become callback arguments."""
    dyn = []

    def mark(leaf):
        if isinstance(leaf, Tracer):
            core.check_tracer(leaf)
            dyn.append(leaf)
            return _Slot(len(dyn) - 1)
        return leaf

    def split_value(value):
        try:
            leaves, tree = registry.flatten(value)
        except Exception:  # noqa: BLE001 (a local no pytree rule can take apart)
            return value
        if not any(isinstance(leaf, Tracer) for leaf in leaves):
            return value
        return _Rebuild(tree, [mark(leaf) for leaf in leaves])

    split = [dataclasses.replace(f, locals={k: split_value(v) for k, v in f.locals.items()})
             for f in frames]
    return split, dyn


class _Slot:
    def __init__(self, index):
        self.index = index


class _Rebuild:
    def __init__(self, tree, leaves):
        self.tree, self.leaves = tree, leaves

    def build(self, values):
        return self.tree.unflatten([api.device_put(np.asarray(values[x.index]))
                                    if isinstance(x, _Slot) else x for x in self.leaves])


def _filled(frames, values):
    return [dataclasses.replace(f, locals={k: v.build(values) if isinstance(v, _Rebuild) else v
                                           for k, v in f.locals.items()})
            for f in frames]


def breakpoint(*, backend=None, filter_frames=True, num_frames=None,  # noqa: A001
               ordered=False, token=None, **kwargs):
    """jax.debug.breakpoint: stops where the program reaches it (eagerly, or
    when the compiled program runs) in the command-line debugger, with the
    values of the calling frames' locals. `token` (a pytree of arrays): run
    once it is computed, and returned (pass it on, or the call is pruned)."""
    if token is not None and ordered:
        raise ValueError("`ordered` and `token` are mutually exclusive arguments.")
    if backend is not None and backend not in _debuggers:
        raise ValueError(f"No debugger registered with the name {backend!r}")
    frame_infos = inspect.stack()[1:]
    if filter_frames:
        frame_infos = [fi for fi in frame_infos
                       if not fi.filename.startswith(core._MLAX_DIR)]
    if num_frames is not None:
        frame_infos = frame_infos[:num_frames]
    frames, dyn = _split_frames([DebuggerFrame.from_frameinfo(fi) for fi in frame_infos])
    debugger = _debuggers[backend or "cli"]

    def _breakpoint_callback(*values):
        thread_id = None
        if threading.current_thread() is not threading.main_thread():
            thread_id = threading.get_ident()
        with _debug_lock:
            debugger(_filled(frames, values), thread_id, **kwargs)

    if token is None:
        debug_callback(_breakpoint_callback, *dyn, ordered=ordered)
        return None

    leaves, tree = registry.flatten(token)

    def _with_token(token_leaves, *values):
        _breakpoint_callback(*values)
        return token_leaves
    structs = [ShapeDtypeStruct(np.shape(x), np.asarray(x).dtype if not hasattr(x, "dtype")
                                else x.dtype) for x in leaves]
    return tree.unflatten(pure_callback(_with_token, structs, leaves, *dyn))

"""The pass pipeline `jit` runs and the hand-off to XLA.

    traced mlax module --mlax-simplify-pipeline--> simplified mlax
                       --extra passes (jit(passes=...), mlax_extra_passes)-->
                       --convert-mlax-to-stablehlo, mlax-drop-unused-arguments-->
                       StableHLO text --> XLA

Without extra passes these are the passes of `mlax-opt --mlax-default-pipeline`
in order, so `jit(f).lower(...).as_text()`, the binary's output and what XLA
compiles are one program, printed once.

Observing a compile (see docs/tutorial-writing-a-pass.md):
  * `mlax_dump_dir` / $MLAX_DUMP_DIR: the module after tracing, after every
    pass and the StableHLO, one file per stage, `NNNN_<fn>.SS_<stage>.mlir`;
  * `mlax_pass_timing` / $MLAX_PASS_TIMING: wall time per pass, on stderr;
  * `mlax_debug_passes` / $MLAX_DEBUG_PASSES: verify after every pass, so an
    error names the pass that broke the IR.
With none of these and no extra passes, the pipeline runs as one PassManager.
"""
from __future__ import annotations

import functools
import itertools
import os
import re
import sys
import threading
import time

from mlir import ir

from mlax._src.backend import passes as passes_lib
from mlax._src.base.config import config
from mlax._src.base.jaxlib_internals import JaxRuntimeError

SIMPLIFY = "builtin.module(mlax-simplify-pipeline)"
LOWER = "builtin.module(convert-mlax-to-stablehlo)"
# The last pass of mlax-default-pipeline: it erases the arguments @main does
# not use, as jax.jit does (keep_unused=False); `kept_arguments` reads which
# remain. A stage of its own, so a failing lowering's reproducer names only
# the lowering.
DROP_UNUSED = "builtin.module(mlax-drop-unused-arguments)"

_SIMPLIFY_STAGE = passes_lib.Stage("mlax-simplify-pipeline", pipeline=SIMPLIFY)
_DROP_UNUSED_STAGE = passes_lib.Stage("mlax-drop-unused-arguments", pipeline=DROP_UNUSED)


def lower_pipeline(platform: str = "cpu") -> str:
    """The lowering for `platform` ('cpu', 'cuda', 'rocm', 'tpu'; see
    runtime.lowering_platform): the decompositions call that platform's
    solver kernels. 'cpu' is the pass's default, so its pipeline names none."""
    if platform == "cpu":
        return LOWER
    return f"builtin.module(convert-mlax-to-stablehlo{{platform={platform}}})"


@functools.cache
def _lower_stage(platform: str) -> passes_lib.Stage:
    return passes_lib.Stage("convert-mlax-to-stablehlo", pipeline=lower_pipeline(platform))


def kept_arguments(module: ir.Module):
    """The indices of @main's arguments the lowered `module` still takes (the
    `mlax.kept_arguments` that mlax-drop-unused-arguments leaves on @main), or
    None if it takes them all: a caller passes only those buffers."""
    for op in module.body.operations:
        if op.operation.name == "func.func" and op.attributes["sym_name"].value == "main":
            break
    else:
        return None
    if "mlax.kept_arguments" not in op.attributes:
        return None
    return tuple(ir.DenseI64ArrayAttr(op.attributes["mlax.kept_arguments"]))


class CompileError(Exception):
    """A pass or XLA rejected the program; the message carries locations."""


class CompileValueError(CompileError, ValueError):
    """A pass diagnostic that is a ValueError in JAX."""


class CompileTypeError(CompileError, TypeError):
    """A pass diagnostic that is a TypeError in JAX."""


class CompileRuntimeError(CompileError, JaxRuntimeError):
    """XLA failed to compile the program (JAX raises jaxlib's JaxRuntimeError)."""


class CompileNotImplementedError(CompileError, NotImplementedError):
    """A pass diagnostic that is a NotImplementedError in JAX (or a case
    mlax does not implement yet)."""


# Pass diagnostics that are user errors in JAX, raised as JAX raises them:
# (words of the diagnostic, exception class, JAX's message or None to keep
# the diagnostic's). The first entry whose words the diagnostic holds wins.
_USER_ERRORS = (
    ("Reverse-mode differentiation does not work for lax.while_loop", CompileValueError, None),
    ("can't apply forward-mode autodiff (jvp) to a custom_vjp function", CompileTypeError,
     None),
    ("depends on the batch but its out_axes is none", CompileValueError,
     "at vmap out_axes, got axis spec None but output was batched on axis 0 (an output "
     "given out_axes=None must not depend on the mapped arguments)"),
    # vmap(spmd_axis_name=): axes not in the mesh, already in a spec, or not
    # dividing the batch (JAX: ValueError at the constraint / shard_map).
    ("vmap spmd_axis_name", CompileValueError, None),
    # Host callbacks (jax/_src/callback.py).
    ("Pure callbacks do not support JVP", CompileValueError, None),
    ("IO callbacks do not support JVP", CompileValueError, None),
    ("Cannot `vmap` ordered IO callback", CompileValueError, None),
    ("vmap is only supported for the pure_callback primitive", CompileNotImplementedError,
     None),
    # ffi_call (jax/_src/ffi.py).
    ("cannot be differentiated. You can use `jax.custom_jvp`", CompileValueError, None),
    ("vmap is only supported for the ffi_call primitive", CompileNotImplementedError, None),
    # lax.composite (jax/_src/lax/lax.py: composite_jvp raises ValueError; no
    # batching rule is JAX's NotImplementedError).
    ("JVP rule for composite not implemented", CompileValueError, None),
    ("Batching rule for 'composite' not implemented", CompileNotImplementedError, None),
    ("has no derivative rule", CompileNotImplementedError, None),
    ("has no batching rule", CompileNotImplementedError, None),
    ("has a derivative rule for real values only", CompileNotImplementedError, None),
    ("is not implemented", CompileNotImplementedError, None),
    ("are not implemented", CompileNotImplementedError, None),
)

_DIAGNOSTIC = re.compile(r'error: (?:"(?P<name>[^"]*)"\()?(?:"(?P<file>[^"]*)":(?P<line>\d+):\d+\)?: )?'
                         r"(?:'[\w.]+' op )?(?:mlax-\w+: )?(?P<message>[^\n]*)")

_MLAX_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _user_line() -> str:
    """`file:line` of the innermost frame outside mlax on the stack (the
    user's call that compiles), or ''."""
    frame = sys._getframe(1)
    while frame is not None:
        filename = frame.f_code.co_filename
        if not filename.startswith(_MLAX_DIR) and "importlib" not in filename:
            return f"{filename}:{frame.f_lineno}"
        frame = frame.f_back
    return ""


def _compile_error(pass_message: str, detail: str) -> CompileError:
    """The exception for a failed stage: JAX's class where the diagnostic is
    a JAX user error, with the user's line and the message first and the
    compiler's detail (pass pipeline, reproducer) in a note below."""
    for words, cls, jax_message in _USER_ERRORS:
        if words not in pass_message:
            continue
        for m in _DIAGNOSTIC.finditer(pass_message):
            if words not in m.group("message"):
                continue
            # The op's location when it is the user's; a location inside
            # mlax (a wrapper traced for the user's function) names no line
            # of theirs: the user's call on the stack does.
            file = m.group("file")
            where = (f"{file}:{m.group('line')}" if file and not file.startswith(_MLAX_DIR)
                     else _user_line())
            message = jax_message or m.group("message")
            error = cls(f"{where}: {message}" if where else message)
            error.add_note(f"mlax compiler detail:\n{pass_message}\n{detail}")
            return error
    return CompileError(f"{pass_message}\n{detail}")


def run_pipeline(module: ir.Module, pipeline: str) -> None:
    try:
        passes_lib.run_stage(passes_lib.Stage(pipeline, pipeline=pipeline), module)
    except passes_lib.PassError as e:
        raise CompileError(str(e)) from None


_dump_counter = itertools.count(1)
_dump_lock = threading.Lock()


class _Dumper:
    """Writes `NNNN_<fn>.SS_<stage>.mlir` files for one compile."""

    def __init__(self, directory: str, fn_name: str):
        os.makedirs(directory, exist_ok=True)
        with _dump_lock:
            n = next(_dump_counter)
        self.prefix = os.path.join(directory, f"{n:04d}_{fn_name}")
        self.step = 0

    def __call__(self, stage: str, module_or_text) -> None:
        text = module_or_text if isinstance(module_or_text, str) else \
            module_or_text.operation.get_asm(enable_debug_info=False)
        stage = re.sub(r"[^A-Za-z0-9_.-]", "_", stage)
        with open(f"{self.prefix}.{self.step:02d}_{stage}.mlir", "w") as f:
            f.write(text)
        self.step += 1


def _stages(extra_stages, fine: bool, lower: passes_lib.Stage):
    simplify = passes_lib.expand(SIMPLIFY) if fine else [_SIMPLIFY_STAGE]
    return simplify + list(extra_stages) + [lower, _DROP_UNUSED_STAGE]


def to_stablehlo(module: ir.Module, stats: dict | None = None, *,
                 name: str = "main", extra_passes=(), platform: str = "cpu") -> str:
    """Simplifies and lowers `module` in place for `platform`; returns the
    StableHLO text.

    `extra_passes` (pass entries, see mlax._src.backend.passes) run after the
    simplification and before the lowering, then the global
    `mlax_extra_passes`."""
    extra = [passes_lib.stage_of(e) for e in
             tuple(extra_passes) + tuple(config.mlax_extra_passes or ())]
    dump_dir = config.mlax_dump_dir
    timing = config.mlax_pass_timing
    debug = config.mlax_debug_passes
    fine = bool(dump_dir or timing or debug)
    dump = _Dumper(dump_dir, name) if dump_dir else None
    if dump:
        dump("traced", module)
    times = []
    t_start = time.perf_counter()
    t_lower = None
    lower = _lower_stage(platform)
    for stage in _stages(extra, fine, lower):
        if stage is lower:
            t_lower = time.perf_counter()
        t = time.perf_counter()
        # A copy of the IR before the stage, for a reproducer if it fails
        # (a clone is ~50x cheaper than printing; printed only on failure).
        before = module.operation.clone()
        try:
            passes_lib.run_stage(stage, module, verify=debug)
        except passes_lib.PassError as e:
            if dump:
                dump(f"failed_{stage.name}", module)
            repro = write_reproducer(before, stage, name, str(e))
            raise _compile_error(str(e), f"(while compiling {name})\n{repro}") from None
        del before
        times.append((stage.name, time.perf_counter() - t))
        if dump and stage not in (lower, _DROP_UNUSED_STAGE):
            dump(f"after_{stage.name}", module)
    text = module.operation.get_asm(enable_debug_info=False)
    t_end = time.perf_counter()
    if dump:
        dump("stablehlo", text)
    if timing:
        _report_timing(name, times)
    if stats is not None:
        stats["passes_s"] = t_lower - t_start
        stats["lower_s"] = t_end - t_lower
        stats["pass_times"] = times
    return text


def reproducer_command(stage: passes_lib.Stage, path: str) -> str:
    """The command line that reruns `stage` on the reproducer file `path`."""
    if not stage.is_python:
        return f"mlax-opt {path} --pass-pipeline='{stage.pipeline}'"
    fn = stage.fn
    mod = sys.modules.get(getattr(fn, "__module__", None) or "")
    # The defining file when there is one (importable from anywhere), else
    # the module's name; MODULE when neither (a pass defined interactively).
    where = getattr(mod, "__file__", None) or getattr(mod, "__name__", None) or "MODULE"
    if stage.name in passes_lib.registered():
        return f"python -m mlax.tools.opt {path} --load {where} --pass {stage.name}"
    qual = getattr(fn, "__qualname__", "")
    if "<" in qual or "." in qual:
        qual = "FUNCTION"  # a lambda or a nested function: not loadable by name
    return f"python -m mlax.tools.opt {path} --python-pass {where}:{qual}"


def write_reproducer(before: ir.Operation, stage: passes_lib.Stage, fn_name: str,
                     error: str) -> str:
    """Writes the IR before the failing `stage` and the command that reruns
    it to `mlax_dump_dir` (or a temporary file); returns a message naming
    the file. Never raises: a reproducer is a courtesy on an error path."""
    import tempfile

    try:
        text = before.get_asm(enable_debug_info=True)
        prefix = f"mlax_repro_{re.sub(r'[^A-Za-z0-9_]', '_', fn_name)}_"
        directory = config.mlax_dump_dir
        if directory:
            os.makedirs(directory, exist_ok=True)
        fd, path = tempfile.mkstemp(prefix=prefix, suffix=".mlir", dir=directory or None)
        command = reproducer_command(stage, path)
        header = [f"// mlax reproducer: pass `{stage.name}` failed while compiling "
                  f"{fn_name}; the IR below is the module before that pass.",
                  "// Reproduce with:", f"//   {command}", "// The error was:"]
        header += ["//   " + line for line in error.splitlines()]
        with os.fdopen(fd, "w") as f:
            f.write("\n".join(header) + "\n" + text)
        return f"reproducer (the IR before the pass): {path}\n  {command}"
    except Exception as e:  # noqa: BLE001
        return f"(no reproducer written: {type(e).__name__}: {e})"


# ---------------------------------------------------------------------------
# The hand-off to jaxlib: its StableHLO parser/verifier, then XLA's compiler.
# ---------------------------------------------------------------------------

_JAXLIB_STAGE = "jaxlib's StableHLO parser/verifier"
_XLA_STAGE = "XLA compilation"
# A position in the text jaxlib parsed (it was handed no locations).
_TEXT_POS = re.compile(r"(?:^|\s)-:(\d+):(\d+):")
_FILE_LOC = re.compile(r'"((?:[^"\\]|\\.)*)":(\d+):(\d+)')
_LOC_ALIAS_DEF = re.compile(r"^(#loc\d*) = (loc\(.*\))\s*$")
_TRAILING_LOC = re.compile(r"loc\((#loc\d*|.*)\)\s*$")


def compile_stablehlo(stablehlo: str, device=None, *, name: str = "main",
                      module: ir.Module | None = None, event_name: str | None = None,
                      compiler_options=None):
    """`runtime.compile(stablehlo, device)`. When jaxlib rejects the text or
    XLA fails to compile it, raises a CompileError that names the stage,
    the user's source lines of the ops jaxlib complains about (found in
    `module`, the lowered module `stablehlo` was printed from, which keeps
    the locations the text lacks) and a reproducer file holding the text.
    `event_name` is the fun_name monitoring's compile event reports
    (default "jit(<name>)"); `compiler_options`: runtime.compile_overrides'."""
    from mlax._src.backend import host_callbacks, runtime

    _refuse_oversized(stablehlo, module, name)
    try:
        table = host_callbacks.callbacks_of(module)
        # (monitoring's fun_name of the XLA compile, as JAX's: "jit(f)")
        event_name = event_name or f"jit({name})"
        if table:
            return runtime.compile_with_callbacks(stablehlo, table, device, event_name,
                                                  compiler_options)
        return runtime.compile(stablehlo, device, event_name, compiler_options)
    except Exception as e:  # noqa: BLE001  jaxlib's verifier or XLA
        error = str(e)
        if compiler_options and ("No such compile option" in error or
                                 "While setting option" in error):
            raise  # the caller's option, not the program: XLA's error as JAX's
        stage = _JAXLIB_STAGE if (_TEXT_POS.search(error) or
                                  "Failed to parse using StableHLO" in error) else _XLA_STAGE
        # jaxlib adds a line blaming version skew to every parse/verify error.
        shown = "\n".join(line for line in error.rstrip().splitlines()
                          if "Failed to parse using StableHLO" not in line)
        lines = [f"mlax: {stage} rejected the StableHLO of {name}: "
                 f"{type(e).__name__}: {shown}"]
        lines += _source_lines(error, stablehlo, module)
        lines.append(f"(while compiling {name})")
        lines.append(write_stablehlo_reproducer(stablehlo, stage, name, error, device))
        # XLA's own failures (a custom-call target that is not registered, ...)
        # are JAX's JaxRuntimeError too, as JAX raises them.
        cls = CompileRuntimeError if (stage == _XLA_STAGE and
                                      isinstance(e, JaxRuntimeError)) else CompileError
        raise cls("\n".join(lines)) from None


# The dimensions and element type of a static tensor type in StableHLO text.
_TENSOR_TYPE = re.compile(r"tensor<((?:\d+x)+)(complex<\w+>|\w+)>")


def _refuse_oversized(stablehlo: str, module, name: str) -> None:
    """XLA aborts the process (an unchecked status) on a program holding a
    value of 2**63 bytes or more (`mnp.zeros(2**61)`), as it does under JAX:
    such a program is refused first with NumPy's ValueError for an array too
    big, naming the op and the user's line. (Less than that fails cleanly as
    an allocation error.) Only types whose dimensions have 18 digits in all
    can be that large, so most programs are passed over by one scan."""
    found = None
    for m in _TENSOR_TYPE.finditer(stablehlo):
        dims = m.group(1)
        if len(dims) - dims.count("x") < 18:
            continue
        element = m.group(2)
        bits = re.search(r"\d+", element)
        n_bytes = max(1, (int(bits.group()) if bits else 64) // 8) * (
            2 if element.startswith("complex") else 1)
        for d in dims[:-1].split("x"):
            n_bytes *= int(d)
        if n_bytes < 2 ** 63:
            continue
        start = stablehlo.rfind("\n", 0, m.start()) + 1
        found = found or (m, n_bytes)
        if " = " in stablehlo[start:m.start()]:
            found = (m, n_bytes)  # an op's result (the function's signature names no line)
            break
    if found is not None:
        m, n_bytes = found
        dims, element = m.group(1), m.group(2)
        line = stablehlo.count("\n", 0, m.start()) + 1
        shape = tuple(int(d) for d in dims[:-1].split("x"))
        lines = [f"array is too big; a value of shape {shape} and element type "
                 f"{element} in {name} needs {n_bytes} bytes, more than the largest "
                 f"possible size (2**63 - 1)"]
        lines += _source_lines(f"-:{line}:1: error", stablehlo, module)
        raise ValueError("\n".join(lines))


def _source_lines(error: str, stablehlo: str, module) -> list[str]:
    """'at FILE:LINE (op, line N of the StableHLO)' for each text position
    jaxlib's message names, from the locations `module` holds. Never raises."""
    try:
        positions = sorted({int(m.group(1)) for m in _TEXT_POS.finditer(error)})
        if not positions or module is None:
            return []
        with_locs = module.operation.get_asm(enable_debug_info=True)
        aliases, body = {}, []
        for line in with_locs.splitlines():
            m = _LOC_ALIAS_DEF.match(line)
            if m:
                aliases[m.group(1)] = m.group(2)
            else:
                body.append(line)
        while body and not body[-1].strip():
            body.pop()
        plain = stablehlo.rstrip().splitlines()
        if len(body) != len(plain):
            return []  # not the module the text was printed from
        out = []
        for n in positions:
            if not 1 <= n <= len(body):
                continue
            i = n - 1
            if not body[i].startswith(plain[i].rstrip()):
                return []
            loc = _op_location(body, i, aliases)
            where = _first_file_location(loc, aliases) if loc else None
            op = re.search(r'"?([A-Za-z_][\w$.]*\.[\w$.]+)"?[ (]', plain[i].split("=", 1)[-1])
            what = f"{op.group(1)}, " if op else ""
            if where:
                out.append(f"  at {where} ({what}line {n} of the StableHLO)")
        return out
    except Exception:  # noqa: BLE001  a courtesy on an error path
        return []


def _op_location(body: list[str], i: int, aliases: dict) -> str | None:
    """The location printed for the op starting on line `i` (an op with
    regions prints it after its closing brace, at the same indentation)."""
    line = body[i].rstrip()
    if line.endswith("{"):
        indent = len(line) - len(line.lstrip())
        for j in range(i + 1, len(body)):
            close = body[j]
            if (len(close) - len(close.lstrip()) == indent and close.lstrip().startswith("}")
                    and not close.rstrip().endswith("{")):  # not `}, {` between regions
                line = close.rstrip()
                break
        else:
            return None
    m = _TRAILING_LOC.search(line)
    return m.group(0) if m else None


def _first_file_location(loc: str, aliases: dict) -> str | None:
    """The first `file:line` in `loc`, resolving `#locN` aliases."""
    for _ in range(32):  # aliases nest a few levels at most
        expanded = re.sub(r"#loc\d*\b", lambda m: aliases.get(m.group(0), m.group(0)), loc)
        if expanded == loc:
            break
        loc = expanded
    m = _FILE_LOC.search(loc)
    return f"{m.group(1)}:{m.group(2)}" if m else None


def stablehlo_replay_command(path: str, device=None) -> str:
    """The command line that hands the reproducer file `path` to jaxlib again."""
    platform = getattr(device, "platform", None)
    extra = f" --platform {platform}" if platform and platform != "cpu" else ""
    return f"python -m mlax.tools.compile_stablehlo {path}{extra}"


def write_stablehlo_reproducer(stablehlo: str, stage: str, fn_name: str, error: str,
                               device=None) -> str:
    """Writes the StableHLO text handed to jaxlib, exactly (so the line
    numbers of jaxlib's message are the file's), followed by comments naming
    the stage, the command that replays it and the error, to `mlax_dump_dir`
    (or a temporary file); returns a message naming the file. Never raises."""
    import tempfile

    try:
        prefix = f"mlax_repro_{re.sub(r'[^A-Za-z0-9_]', '_', fn_name)}_stablehlo_"
        directory = config.mlax_dump_dir
        if directory:
            os.makedirs(directory, exist_ok=True)
        fd, path = tempfile.mkstemp(prefix=prefix, suffix=".mlir", dir=directory or None)
        command = stablehlo_replay_command(path, device)
        trailer = [f"// mlax reproducer: {stage} rejected the StableHLO above (the text "
                   f"mlax handed to jaxlib while compiling {fn_name}).",
                   "// Replay with:", f"//   {command}", "// The error was:"]
        trailer += ["//   " + line for line in error.splitlines()]
        with os.fdopen(fd, "w") as f:
            f.write(stablehlo.rstrip("\n") + "\n" + "\n".join(trailer) + "\n")
        return f"reproducer (the StableHLO handed to jaxlib): {path}\n  {command}"
    except Exception as e:  # noqa: BLE001
        return f"(no reproducer written: {type(e).__name__}: {e})"


def _report_timing(name: str, times) -> None:
    total = sum(t for _, t in times) or 1e-12
    lines = [f"mlax pass timing: {name}",
             f"  {'wall (ms)':>10} {'share':>6}  pass"]
    for stage, t in times:
        lines.append(f"  {t * 1e3:10.3f} {100 * t / total:5.1f}%  {stage}")
    lines.append(f"  {total * 1e3:10.3f} 100.0%  total")
    print("\n".join(lines), file=sys.stderr)

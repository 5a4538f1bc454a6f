"""`python -m mlax.tools.opt`: run C++ and Python passes over a .mlir file.

The Python counterpart of `mlax-opt`, for passes written in Python (which
`mlax-opt`, a C++ binary, cannot load). Passes run in the order given:

    python -m mlax.tools.opt in.mlir \\
        --pass canonicalize \\
        --python-pass examples/square_to_pow.py:square_to_pow \\
        --pass 'mlax-fold-constants'

  --pass PIPELINE        C++ passes, as `mlax-opt --pass-pipeline` takes them
                         (the `builtin.module(...)` anchor is optional), or
                         the name of a Python pass registered with
                         `mlax.passes.register` (see --load)
  --python-pass SPEC     a Python pass `package.module:function` or
                         `path/to/file.py:function`
  --load SPEC            import a module or file first (to register passes)
  --split-input-file     treat `// -----` as separating independent inputs
  -o FILE                write the output there instead of stdout

Errors (parse errors, a pass failing, invalid IR after a Python pass) are
printed to stderr with their locations, and the exit status is 1. The IR is
verified after every pass.
"""
from __future__ import annotations

import argparse
import re
import sys

from mlir import ir

from mlax._src.backend import native
from mlax._src.backend import passes

SPLIT_MARKER = "// -----"


class _ParseError(Exception):
    pass


class _Ordered(argparse.Action):
    """Collects --pass / --python-pass into one list, keeping their order."""

    def __call__(self, parser, namespace, value, option_string=None):
        items = getattr(namespace, self.dest, None) or []
        items.append((self.const, value))
        setattr(namespace, self.dest, items)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m mlax.tools.opt",
        description="Run C++ and Python passes over an mlax .mlir file.",
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    p.add_argument("input", help="the .mlir file ('-' for stdin)")
    p.add_argument("--pass", "-p", dest="steps", action=_Ordered, const="pipeline",
                   metavar="PIPELINE", help="C++ pass pipeline or registered Python pass")
    p.add_argument("--python-pass", dest="steps", action=_Ordered, const="python",
                   metavar="MODULE:FN", help="a Python pass function")
    p.add_argument("--load", action="append", default=[], metavar="MODULE",
                   help="import a module or .py file first (e.g. to register passes)")
    p.add_argument("--split-input-file", action="store_true",
                   help="split the input at '// -----' lines")
    p.add_argument("-o", dest="output", default="-", help="output file")
    return p


def _entries(steps):
    out = []
    for kind, value in steps or ():
        out.append(passes.load_callable(value) if kind == "python" else value)
    return out


def _process(text: str, entries, name: str, first_line: int) -> str:
    ctx = native.context()
    with ctx:
        try:
            module = ir.Module.parse(text)
        except ir.MLIRError as e:
            # The bindings name the source "-"; point at the file and line.
            raise _ParseError(
                re.sub(r'"-":(\d+):(\d+)',
                       lambda m: f"{name}:{int(m.group(1)) + first_line - 1}:{m.group(2)}",
                       str(e))) from None
        for entry in entries:
            passes.run_stage(passes.stage_of(entry), module, verify=True)
        return str(module)


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    try:
        for spec in args.load:
            passes.load_module(spec)
        entries = _entries(args.steps)
    except (ImportError, ValueError, TypeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    name = "<stdin>" if args.input == "-" else args.input
    try:
        text = sys.stdin.read() if args.input == "-" else open(args.input).read()
    except OSError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    chunks = text.split(SPLIT_MARKER) if args.split_input_file else [text]
    outputs, failed, first_line = [], False, 1
    for chunk in chunks:
        try:
            outputs.append(_process(chunk, entries, name, first_line))
        except _ParseError as e:
            print(f"{name}: error: {e}", file=sys.stderr)
            failed = True
        except (passes.PassError, ValueError, TypeError) as e:
            print(f"{name}: error: {e}", file=sys.stderr)
            failed = True
        first_line += chunk.count("\n")
    result = f"\n{SPLIT_MARKER}\n".join(outputs)
    if args.output == "-":
        sys.stdout.write(result)
    else:
        with open(args.output, "w") as f:
            f.write(result)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

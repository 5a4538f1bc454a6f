"""`python -m mlax.tools.compile_stablehlo FILE`: hand a StableHLO text file
to jaxlib as mlax does (parse, verify, XLA compile) and report the result.

It replays the reproducer a failed hand-off writes (see
mlax._src.backend.compiler.compile_stablehlo): the file holds the exact text mlax
gave jaxlib, so the `-:LINE:COL` positions in jaxlib's message are lines of
the file.

  --platform NAME   the backend to compile for (default: cpu)

Exit status 0 when it compiles (prints "compiled"), 1 with jaxlib's error on
stderr when it does not.
"""
from __future__ import annotations

import argparse
import sys


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m mlax.tools.compile_stablehlo",
        description="Compile a StableHLO text file with jaxlib, as mlax does.",
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    p.add_argument("input", help="the StableHLO .mlir file ('-' for stdin)")
    p.add_argument("--platform", default="cpu", help="backend (default: cpu)")
    return p


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    text = sys.stdin.read() if args.input == "-" else open(args.input).read()
    from mlax._src.backend import runtime

    try:
        device = runtime.backend(args.platform).local_devices()[0]
        runtime.compile(text, device)
    except Exception as e:  # noqa: BLE001  jaxlib's verifier or XLA
        print(f"{type(e).__name__}: {e}", file=sys.stderr)
        return 1
    print("compiled")
    return 0


if __name__ == "__main__":
    sys.exit(main())

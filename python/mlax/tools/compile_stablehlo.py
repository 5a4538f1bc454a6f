"""`python -m mlax.tools.compile_stablehlo FILE`: hand a StableHLO text file
to jaxlib as mlax does (parse, verify, XLA compile) and report the result.

It replays the reproducer a failed hand-off writes (see
mlax._src.backend.compiler.compile_stablehlo): the file holds the exact text mlax
gave jaxlib, so the `-:LINE:COL` positions in jaxlib's message are lines of
the file.

  --platform NAME   the backend to compile for (default: cpu)
  --verify-only     parse and verify the text with jaxlib's MLIR (StableHLO,
                    CHLO and the upstream dialects jax registers) without
                    compiling it; modules separated by `// -----` lines (the
                    output of `mlax-opt --split-input-file`) are checked one
                    by one. The lit Conversion tests pipe their output here,
                    so an attribute string jaxlib would not parse fails there.

Exit status 0 when it compiles (prints "compiled") or verifies (prints
"verified N modules"), 1 with jaxlib's error on stderr when it does not.
"""
from __future__ import annotations

import argparse
import re
import sys


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m mlax.tools.compile_stablehlo",
        description="Compile a StableHLO text file with jaxlib, as mlax does.",
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    p.add_argument("input", help="the StableHLO .mlir file ('-' for stdin)")
    p.add_argument("--platform", default="cpu", help="backend (default: cpu)")
    p.add_argument("--verify-only", action="store_true",
                   help="parse and verify with jaxlib's MLIR; do not compile")
    return p


def _jaxlib_context():
    """An MLIR context of jaxlib's own bindings with the dialects jax uses."""
    from jaxlib.mlir import ir
    from jaxlib.mlir._mlir_libs import _jax_mlir_ext
    from jaxlib.mlir.dialects import chlo, stablehlo

    registry = ir.DialectRegistry()
    _jax_mlir_ext.register_dialects(registry)
    ctx = ir.Context()
    ctx.append_dialect_registry(registry)
    ctx.load_all_available_dialects()
    stablehlo.register_dialect(ctx)
    chlo.register_dialect(ctx)
    try:
        from jaxlib.mlir.dialects import mhlo
        mhlo.register_mhlo_dialect(ctx)
    except ImportError:
        pass
    return ctx


def verify(text: str) -> int:
    """Parses and verifies every `// -----`-separated module of `text` with
    jaxlib; returns how many there were. Raises jaxlib's MLIRError."""
    from jaxlib.mlir import ir

    chunks = [c for c in re.split(r"^// -----\s*$", text, flags=re.M) if c.strip()]
    if not chunks:
        raise ValueError("no module in the input")
    ctx = _jaxlib_context()
    for chunk in chunks:
        module = ir.Module.parse(chunk, ctx)
        if not module.operation.verify():
            raise ir.MLIRError("the module does not verify", [])
    return len(chunks)


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    text = sys.stdin.read() if args.input == "-" else open(args.input).read()
    if args.verify_only:
        try:
            n = verify(text)
        except Exception as e:  # noqa: BLE001  jaxlib's parser or verifier
            print(f"{type(e).__name__}: {e}", file=sys.stderr)
            return 1
        print(f"verified {n} modules")
        return 0
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

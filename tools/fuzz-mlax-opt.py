#!/usr/bin/env python3
"""Feeds mutated .mlir files to mlax-opt and reports any run that ends by a
signal or an LLVM abort instead of exit status 0 or 1 with diagnostics.

    tools/fuzz-mlax-opt.py [--count N] [--seconds S] [--seed K] [--mlax-opt PATH]

The corpus is the lit tests (test/lit/**/*.mlir, split at `// -----`, with
comments dropped). Each input gets 1-3 mutations (a dropped token, a type
swapped for another - including dynamic, zero-sized, complex and scalar
types -, a number replaced by an extreme one, truncation, a duplicated line,
two swapped tokens) and is run through one pass or pipeline chosen at random.
Seeded, so a failure reproduces; crashing inputs are written to --out.
`--include REGEX` restricts the corpus to the matching lit files (e.g. the
newer ones: --include 'control-flow|conv|cond').
Exit status 1 if anything crashed. The pytest suite runs a short version
(test/py/test_fuzz.py); run a long one on demand with a larger --count.
"""
from __future__ import annotations

import argparse
import collections
import glob
import os
import random
import re
import subprocess
import sys
import time

TYPES = ["tensor<f32>", "tensor<3xf32>", "tensor<2x3xf32>", "tensor<3xi32>", "tensor<i1>",
         "tensor<4xf64>", "tensor<0xf32>", "tensor<3xui8>", "tensor<?xf32>", "f32",
         "tensor<3xcomplex<f32>>", "tensor<3xbf16>", "tensor<*xf32>", "i32", "index"]
NUMBERS = ["0", "-1", "1", "7", "99999999999", "-2147483648", "3", "9223372036854775807"]
PIPELINES = ["--mlax-default-pipeline", "--mlax-expand-transforms", "--mlax-fold-constants",
             "--canonicalize", "--convert-mlax-to-stablehlo", "--mlax-autodiff",
             "--mlax-vectorize", "--mlax-simplify-pipeline", "--cse", "--inline"]


def corpus(root, include=None):
    out = []
    for path in sorted(glob.glob(os.path.join(root, "test/lit/**/*.mlir"), recursive=True)):
        if include and not re.search(include, os.path.relpath(path, root)):
            continue
        with open(path) as f:
            text = f.read()
        for chunk in text.split("// -----"):
            body = "\n".join(l for l in chunk.splitlines() if not l.strip().startswith("//"))
            if "func.func" in body:
                out.append(body)
    return out


def mutate(text, rng):
    kind = rng.randrange(6)
    if kind == 0:
        toks = re.split(r"(\s+)", text)
        if len(toks) > 3:
            del toks[rng.randrange(len(toks))]
            return "".join(toks)
    if kind == 1:
        types = re.findall(r"tensor<[^>]*>", text)
        if types:
            return text.replace(rng.choice(types), rng.choice(TYPES), 1)
    if kind == 2:
        nums = list(re.finditer(r"-?\d+", text))
        if nums:
            m = rng.choice(nums)
            return text[:m.start()] + rng.choice(NUMBERS) + text[m.end():]
    if kind == 3 and text:
        return text[:rng.randrange(len(text))]
    if kind == 4:
        lines = text.splitlines()
        if lines:
            lines.insert(rng.randrange(len(lines)), rng.choice(lines))
            return "\n".join(lines)
    toks = text.split()
    if len(toks) > 2:
        i, j = rng.randrange(len(toks)), rng.randrange(len(toks))
        toks[i], toks[j] = toks[j], toks[i]
        return " ".join(toks)
    return text


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=None, help="stop after this long")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--mlax-opt", default=None)
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser.add_argument("--out", default="fuzz-crashes")
    parser.add_argument("--include", default=None, metavar="REGEX",
                        help="only corpus files whose path (under the root) matches, "
                             "e.g. 'control-flow|conv'")
    opts = parser.parse_args(argv)
    opt = opts.mlax_opt
    if opt is None:
        from mlax._src.backend import native
        opt = native.mlax_opt_path()
    rng = random.Random(opts.seed)
    inputs = corpus(opts.root, opts.include)
    if not inputs:
        parser.error(f"no corpus entries match --include {opts.include!r}")
    crashes = collections.Counter()
    exits = collections.Counter()
    start = time.monotonic()
    tried = 0
    for _ in range(opts.count):
        if opts.seconds is not None and time.monotonic() - start > opts.seconds:
            break
        text = rng.choice(inputs)
        for _ in range(rng.randrange(1, 4)):
            text = mutate(text, rng)
        pipeline = rng.choice(PIPELINES)
        proc = subprocess.run([opt, "-", pipeline], input=text, capture_output=True, text=True,
                              timeout=120)
        tried += 1
        exits[proc.returncode] += 1
        if proc.returncode not in (0, 1) or (proc.returncode == 1 and not proc.stderr.strip()):
            first = (proc.stderr.strip().splitlines() or ["(no diagnostic)"])[0][:120]
            key = (pipeline, proc.returncode, first)
            if not crashes[key]:
                os.makedirs(opts.out, exist_ok=True)
                name = os.path.join(opts.out, f"crash-{opts.seed}-{tried}.mlir")
                with open(name, "w") as f:
                    f.write(f"// mlax-opt {pipeline} (exit {proc.returncode})\n{text}\n")
                print(f"CRASH: mlax-opt {pipeline} exit {proc.returncode}: {first} -> {name}")
            crashes[key] += 1
    print(f"fuzz-mlax-opt: seed {opts.seed}: {tried} inputs from {len(inputs)} corpus entries, "
          f"exit statuses {dict(sorted(exits.items()))}, {sum(crashes.values())} crashes "
          f"({time.monotonic() - start:.1f} s)")
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())

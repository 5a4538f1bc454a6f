#!/usr/bin/env python3
"""Writes FileCheck lines for the functions in `mlax-opt` output (a small
cousin of MLIR's utils/generate-test-checks.py).

    mlax-opt f.mlir --mlax-autodiff | tools/generate-test-checks.py --only '_(jvp|vjp)$'

For every `func.func` whose name matches `--only`, prints a CHECK-LABEL line
and one CHECK-NEXT per body line, with SSA names turned into FileCheck
variables (defined at their first appearance, used afterwards), so the test
does not depend on value numbering. Review the output before committing it:
it records what the pass does, not what it should do.
"""
import argparse
import re
import sys

SSA = re.compile(r"%([A-Za-z0-9_]+)(#\d+)?")


def checks_for(func_lines):
    names = {}
    out = []

    def sub(line, defining):
        def repl(m):
            name, suffix = m.group(1), m.group(2) or ""
            if name not in names:
                var = ("ARG" if name.startswith("arg") else "V") + str(len(names))
                names[name] = var
                return f"%[[{var}:[^ ,:)]*]]{suffix}"
            return f"%[[{names[name]}]]{suffix}"
        return SSA.sub(repl, line)

    header = func_lines[0].strip()
    m = re.match(r"func\.func (?:private )?@([\w$.]+)\((.*)\)(.*)\{$", header)
    out.append(f"// CHECK-LABEL: func.func {'private ' if ' private ' in header else ''}"
               f"@{m.group(1)}(")
    args = [a.strip() for a in m.group(2).split(", %") if a.strip()]
    for i, a in enumerate(args):
        a = a if a.startswith("%") else "%" + a
        out.append(f"// CHECK-SAME: {sub(a, True)}{',' if i + 1 < len(args) else ''}")
    indent = func_lines[0][:len(func_lines[0]) - len(func_lines[0].lstrip())]
    for line in func_lines[1:]:
        text = line.strip()
        if line.rstrip() == indent + "}":
            break
        out.append(f"// CHECK-NEXT: {sub(text, False)}")
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="regex on function names")
    opts = parser.parse_args()
    lines = sys.stdin.read().splitlines()
    i = 0
    while i < len(lines):
        m = re.match(r"\s*func\.func (?:private )?@([\w$.]+)", lines[i])
        if m and re.search(opts.only, m.group(1)):
            j = i
            indent = lines[i][:len(lines[i]) - len(lines[i].lstrip())]
            while lines[j].rstrip() != indent + "}":
                j += 1
            print("\n".join(checks_for(lines[i:j + 1])))
            print()
            i = j
        i += 1


if __name__ == "__main__":
    main()

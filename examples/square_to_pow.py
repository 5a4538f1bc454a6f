"""A Python pass over the mlax dialect: rewrite `x * x` into `x ** 2`.

Used by docs/tutorial-writing-a-pass.md, which walks through it; the lit
test test/lit/Workbench/square-to-pow.mlir and test/py/test_workbench.py run
it. Two passes live here:

* `square_to_pow` rewrites every float `mlax.mul %x, %x` into
  `mlax.pow %x, 2.0` with the upstream rewrite API (`mlir.rewrite`);
* `count_ops` walks the module and prints how many ops of each kind it has,
  changing nothing.
"""
import sys
from collections import Counter

from mlir import ir

import mlax


def _rewrite_square(op, rewriter):
    """`mlax.mul %x, %x` -> `mlax.pow %x, 2.0`. Returns True when `op` does
    not match (the `mlir.rewrite` convention)."""
    x, y = op.operands
    element = ir.RankedTensorType(x.type).element_type
    if x != y or not isinstance(element, ir.FloatType):
        return True
    mlax_ops = mlax.passes.dialect()
    with rewriter.ip, op.location:
        two = mlax_ops.ConstantOp(
            ir.DenseElementsAttr.get_splat(x.type, ir.FloatAttr.get(element, 2.0)))
        power = mlax_ops.PowOp(x, two.result)
    rewriter.replace_op(op, power)


square_to_pow = mlax.passes.pattern_pass({"mlax.mul": _rewrite_square},
                                         name="square_to_pow")
mlax.passes.register("square-to-pow", square_to_pow)


def count_ops(module):
    """Prints `<count> <op name>` for every op kind in the module, sorted, to
    stderr (stdout carries the IR when run by `python -m mlax.tools.opt`)."""
    counts = Counter()

    def visit(op):
        counts[op.name] += 1
        return ir.WalkResult.ADVANCE

    module.walk(visit, ir.WalkOrder.PRE_ORDER)
    for name, n in sorted(counts.items()):
        print(f"{n} {name}", file=sys.stderr)


mlax.passes.register("count-ops", count_ops)

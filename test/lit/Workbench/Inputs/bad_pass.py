"""Passes that fail, for test/lit/Workbench/python-pass-errors.mlir."""
from mlir import ir


def break_types(module):
    """Leaves invalid IR: the function's return no longer matches its type."""
    def visit(op):
        if op.name == "func.return":
            op.erase()
            return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    module.walk(visit, ir.WalkOrder.POST_ORDER)


def refuse(module):
    raise ValueError("this pass refuses to run")

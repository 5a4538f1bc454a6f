// RUN: not %PYTHON -m mlax.tools.opt %s --python-pass %S/Inputs/bad_pass.py:break_types 2>&1 | FileCheck %s --check-prefix=INVALID
// RUN: not %PYTHON -m mlax.tools.opt %s --python-pass %S/Inputs/bad_pass.py:refuse 2>&1 | FileCheck %s --check-prefix=RAISES
// RUN: not %PYTHON -m mlax.tools.opt %s --python-pass %S/Inputs/bad_pass.py:no_such_pass 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not %PYTHON -m mlax.tools.opt %s --pass no-such-pass 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not %PYTHON -m mlax.tools.opt %S/Inputs/malformed.mlir 2>&1 | FileCheck %s --check-prefix=PARSE

// A broken pass is reported by name, never a crash.

// INVALID: error: mlax: the IR is invalid after pass `break_types`
// INVALID: block with no terminator
// RAISES: error: mlax: Python pass `refuse` raised ValueError: this pass refuses to run
// MISSING: error: {{.*}}bad_pass.py has no attribute 'no_such_pass'
// UNKNOWN: error: mlax: cannot parse pass pipeline 'no-such-pass'
// PARSE: malformed.mlir: error: Unable to parse module assembly
// PARSE: malformed.mlir:2:19: expected
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.mul %x, %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

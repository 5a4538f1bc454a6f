// RUN: %PYTHON -m mlax.tools.opt %s --python-pass %examples/square_to_pow.py:count_ops -o /dev/null 2>&1 | FileCheck %s

// An analysis-only Python pass: it walks the module and reports op counts.

// CHECK: 1 builtin.module
// CHECK-NEXT: 1 func.func
// CHECK-NEXT: 1 func.return
// CHECK-NEXT: 1 mlax.exp
// CHECK-NEXT: 2 mlax.mul
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.mul %x, %x : tensor<4xf32>
  %1 = mlax.mul %0, %x : tensor<4xf32>
  %2 = mlax.exp %1 : tensor<4xf32>
  return %2 : tensor<4xf32>
}

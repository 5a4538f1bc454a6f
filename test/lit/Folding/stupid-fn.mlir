// RUN: mlax-opt %s --mlax-simplify-pipeline | FileCheck %s

// The issue's seed example, shortened: a chain of squarings whose result is
// discarded disappears before XLA sees it; only the returned value is left.

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NOT: mlax.mul
// CHECK-NEXT: return %[[X]]
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.mul %x, %x : tensor<4xf32>
  %1 = mlax.mul %0, %0 : tensor<4xf32>
  %2 = mlax.mul %1, %1 : tensor<4xf32>
  %3 = mlax.mul %2, %2 : tensor<4xf32>
  %4 = mlax.mul %3, %3 : tensor<4xf32>
  return %x : tensor<4xf32>
}

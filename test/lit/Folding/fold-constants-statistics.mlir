// RUN: mlax-opt %s --mlax-fold-constants | FileCheck %s
// RUN: mlax-opt %s --mlax-fold-constants --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// The pass reports what it did: two multiplications fold to a constant and
// x * 1 to x (3 folded); the exp and the two constants left unused are dead
// (3 dead); one constant is created (the splat 8.0).

// CHECK-LABEL: func.func @stats
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[C:.*]] = mlax.constant dense<8.000000e+00> : tensor<4xf32>
// CHECK-NEXT: return %[[C]], %[[X]]

// STATS: Pass statistics report
// STATS: MlaxFoldConstants
// STATS-NEXT: (S) 1 num-constants
// STATS-NEXT: (S) 3 num-dead
// STATS-NEXT: (S) 3 num-folded
func.func @stats(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %two = mlax.constant dense<2.0> : tensor<4xf32>
  %one = mlax.constant dense<1.0> : tensor<4xf32>
  %0 = mlax.mul %two, %two : tensor<4xf32>
  %1 = mlax.mul %0, %two : tensor<4xf32>
  %2 = mlax.mul %x, %one : tensor<4xf32>
  %3 = mlax.exp %x : tensor<4xf32>
  return %1, %2 : tensor<4xf32>, tensor<4xf32>
}

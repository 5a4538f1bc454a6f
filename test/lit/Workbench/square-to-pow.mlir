// RUN: %PYTHON -m mlax.tools.opt %s --split-input-file --python-pass %examples/square_to_pow.py:square_to_pow | FileCheck %s

// The tutorial's Python pass (examples/square_to_pow.py), run from the
// command line like a C++ pass.

// CHECK-LABEL: func.func @square_f32
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[TWO:.*]] = mlax.constant dense<2.000000e+00> : tensor<4xf32>
// CHECK-NEXT: %[[P:.*]] = mlax.pow %[[X]], %[[TWO]] : tensor<4xf32>
// CHECK-NEXT: return %[[P]]
func.func @square_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.mul %x, %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// x * y with y != x is not a square.
// CHECK-LABEL: func.func @product_kept
// CHECK: mlax.mul
// CHECK-NOT: mlax.pow
func.func @product_kept(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.mul %x, %y : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// mlax.pow takes floats only, so integer squares stay.
// CHECK-LABEL: func.func @integer_square_kept
// CHECK: mlax.mul
// CHECK-NOT: mlax.pow
func.func @integer_square_kept(%i: tensor<3xi32>) -> tensor<3xi32> {
  %0 = mlax.mul %i, %i : tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

// Chains rewrite link by link: (x*x)*(x*x) -> pow(pow(x, 2), 2).
// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[X:.*]]: tensor<f64>)
// CHECK: %[[TWO:.*]] = mlax.constant dense<2.000000e+00> : tensor<f64>
// CHECK: %[[A:.*]] = mlax.pow %[[X]], %[[TWO]]
// CHECK: %[[B:.*]] = mlax.pow %[[A]], %[[TWO]]
// CHECK: return %[[B]]
func.func @chain(%x: tensor<f64>) -> tensor<f64> {
  %0 = mlax.mul %x, %x : tensor<f64>
  %1 = mlax.mul %0, %0 : tensor<f64>
  return %1 : tensor<f64>
}

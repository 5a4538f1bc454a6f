// RUN: mlax-opt %s --split-input-file --canonicalize --cse | FileCheck %s

// Ops that differ only in their accuracy are different ops: CSE merges
// equal ones only. Constant folding computes a value exactly as the op
// without one (the host's libm in double precision, rounded once), which
// meets any accuracy.

// CHECK-LABEL: func.func @cse_by_accuracy
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-DAG: %[[H:.*]] = mlax.exp %[[X]] accuracy <highest> : tensor<4xf32>
// CHECK-DAG: %[[D:.*]] = mlax.exp %[[X]] accuracy <default> : tensor<4xf32>
// CHECK-DAG: %[[T:.*]] = mlax.exp %[[X]] accuracy <atol = 1.000000e-05> : tensor<4xf32>
// CHECK-DAG: %[[T2:.*]] = mlax.exp %[[X]] accuracy <atol = 2.000000e-05> : tensor<4xf32>
// CHECK-DAG: %[[N:.*]] = mlax.exp %[[X]] : tensor<4xf32>
// CHECK: return %[[H]], %[[H]], %[[D]], %[[T]], %[[T]], %[[T2]], %[[N]]
func.func @cse_by_accuracy(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = mlax.exp %x accuracy <highest> : tensor<4xf32>
  %1 = mlax.exp %x accuracy <highest> : tensor<4xf32>
  %2 = mlax.exp %x accuracy <default> : tensor<4xf32>
  %3 = mlax.exp %x accuracy <atol = 1.0e-05> : tensor<4xf32>
  %4 = mlax.exp %x accuracy <atol = 1.0e-05, rtol = 0.0> : tensor<4xf32>
  %5 = mlax.exp %x accuracy <atol = 2.0e-05> : tensor<4xf32>
  %6 = mlax.exp %x : tensor<4xf32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @fold_with_accuracy
// CHECK: %[[C:.*]] = mlax.constant dense<2.71828175> : tensor<f32>
// CHECK: return %[[C]], %[[C]]
func.func @fold_with_accuracy() -> (tensor<f32>, tensor<f32>) {
  %one = mlax.constant dense<1.0> : tensor<f32>
  %0 = mlax.exp %one accuracy <highest> : tensor<f32>
  %1 = mlax.exp %one : tensor<f32>
  return %0, %1 : tensor<f32>, tensor<f32>
}

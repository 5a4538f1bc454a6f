// RUN: mlax-opt %s --split-input-file --mlax-fold-constants | FileCheck %s

// CHECK-LABEL: func.func @reduce_constants
// CHECK-DAG: mlax.constant dense<[5, 7, 9]> : tensor<3xi32>
// CHECK-DAG: mlax.constant dense<[6, 120]> : tensor<2xi32>
// CHECK-DAG: mlax.constant dense<6> : tensor<i32>
// CHECK-DAG: mlax.constant dense<1> : tensor<i32>
func.func @reduce_constants() -> (tensor<3xi32>, tensor<2xi32>, tensor<i32>, tensor<i32>) {
  %a = mlax.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %0 = mlax.reduce_sum %a, axes = [0] : tensor<2x3xi32> -> tensor<3xi32>
  %1 = mlax.reduce_prod %a, axes = [1] : tensor<2x3xi32> -> tensor<2xi32>
  %2 = mlax.reduce_max %a, axes = [0, 1] : tensor<2x3xi32> -> tensor<i32>
  %3 = mlax.reduce_min %a, axes = [0, 1] : tensor<2x3xi32> -> tensor<i32>
  return %0, %1, %2, %3 : tensor<3xi32>, tensor<2xi32>, tensor<i32>, tensor<i32>
}

// -----

// NaN propagates through float reductions.
// CHECK-LABEL: func.func @reduce_float_nan
// CHECK-DAG: mlax.constant dense<[0x7FC00000, 7.000000e+00]> : tensor<2xf32>
// CHECK-DAG: mlax.constant dense<[0x7FC00000, 4.000000e+00]> : tensor<2xf32>
func.func @reduce_float_nan() -> (tensor<2xf32>, tensor<2xf32>) {
  %a = mlax.constant dense<[[1.0, 0x7FC00000], [3.0, 4.0]]> : tensor<2x2xf32>
  %0 = mlax.reduce_sum %a, axes = [1] : tensor<2x2xf32> -> tensor<2xf32>
  %1 = mlax.reduce_max %a, axes = [1] : tensor<2x2xf32> -> tensor<2xf32>
  return %0, %1 : tensor<2xf32>, tensor<2xf32>
}

// -----

// CHECK-LABEL: func.func @reduce_bool
// CHECK-DAG: mlax.constant dense<[false, true]> : tensor<2xi1>
// CHECK-DAG: mlax.constant dense<true> : tensor<2xi1>
func.func @reduce_bool() -> (tensor<2xi1>, tensor<2xi1>) {
  %a = mlax.constant dense<[[true, false], [true, true]]> : tensor<2x2xi1>
  %0 = mlax.reduce_and %a, axes = [1] : tensor<2x2xi1> -> tensor<2xi1>
  %1 = mlax.reduce_or %a, axes = [1] : tensor<2x2xi1> -> tensor<2xi1>
  return %0, %1 : tensor<2xi1>, tensor<2xi1>
}

// -----

// CHECK-LABEL: func.func @reduce_no_axes
// CHECK-SAME: (%[[X:.*]]: tensor<3xf32>)
// CHECK-NEXT: return %[[X]]
func.func @reduce_no_axes(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.reduce_sum %x, axes = [] : tensor<3xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// Reducing an empty tensor needs the identity; left to the runtime.
// CHECK-LABEL: func.func @reduce_empty_kept
// CHECK: mlax.reduce_sum
func.func @reduce_empty_kept() -> tensor<3xf32> {
  %a = mlax.constant dense<> : tensor<0x3xf32>
  %0 = mlax.reduce_sum %a, axes = [0] : tensor<0x3xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

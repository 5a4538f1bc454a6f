// Round trip of the reductions' custom assembly format:
// parse, print, parse the printed form again, print again.
//
// RUN: mlax-opt %s | mlax-opt | FileCheck %s
//
// The generic form must parse back into the same ops:
// RUN: mlax-opt %s --mlir-print-op-generic | mlax-opt | FileCheck %s
// RUN: mlax-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @reduce_sum(
// CHECK-SAME: %[[X:.*]]: tensor<2x3x4xf32>)
// CHECK: %[[R:.*]] = mlax.reduce_sum %[[X]], axes = [0, 2] : tensor<2x3x4xf32> -> tensor<3xf32>
// CHECK: return %[[R]] : tensor<3xf32>
func.func @reduce_sum(%x: tensor<2x3x4xf32>) -> tensor<3xf32> {
  %0 = mlax.reduce_sum %x, axes = [0, 2] : tensor<2x3x4xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// CHECK-LABEL: func.func @reduce_prod(
// CHECK-SAME: %[[X:.*]]: tensor<2x3x4xi32>)
// CHECK: %[[R:.*]] = mlax.reduce_prod %[[X]], axes = [0, 2] : tensor<2x3x4xi32> -> tensor<3xi32>
// CHECK: return %[[R]] : tensor<3xi32>
func.func @reduce_prod(%x: tensor<2x3x4xi32>) -> tensor<3xi32> {
  %0 = mlax.reduce_prod %x, axes = [0, 2] : tensor<2x3x4xi32> -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// CHECK-LABEL: func.func @reduce_max(
// CHECK-SAME: %[[X:.*]]: tensor<2x3x4xf32>)
// CHECK: %[[R:.*]] = mlax.reduce_max %[[X]], axes = [0, 2] : tensor<2x3x4xf32> -> tensor<3xf32>
// CHECK: return %[[R]] : tensor<3xf32>
func.func @reduce_max(%x: tensor<2x3x4xf32>) -> tensor<3xf32> {
  %0 = mlax.reduce_max %x, axes = [0, 2] : tensor<2x3x4xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// CHECK-LABEL: func.func @reduce_min(
// CHECK-SAME: %[[X:.*]]: tensor<2x3x4xui8>)
// CHECK: %[[R:.*]] = mlax.reduce_min %[[X]], axes = [0, 2] : tensor<2x3x4xui8> -> tensor<3xui8>
// CHECK: return %[[R]] : tensor<3xui8>
func.func @reduce_min(%x: tensor<2x3x4xui8>) -> tensor<3xui8> {
  %0 = mlax.reduce_min %x, axes = [0, 2] : tensor<2x3x4xui8> -> tensor<3xui8>
  return %0 : tensor<3xui8>
}

// CHECK-LABEL: func.func @reduce_and(
// CHECK-SAME: %[[X:.*]]: tensor<2x3x4xi1>)
// CHECK: %[[R:.*]] = mlax.reduce_and %[[X]], axes = [0, 2] : tensor<2x3x4xi1> -> tensor<3xi1>
// CHECK: return %[[R]] : tensor<3xi1>
func.func @reduce_and(%x: tensor<2x3x4xi1>) -> tensor<3xi1> {
  %0 = mlax.reduce_and %x, axes = [0, 2] : tensor<2x3x4xi1> -> tensor<3xi1>
  return %0 : tensor<3xi1>
}

// CHECK-LABEL: func.func @reduce_or(
// CHECK-SAME: %[[X:.*]]: tensor<2x3x4xi1>)
// CHECK: %[[R:.*]] = mlax.reduce_or %[[X]], axes = [0, 2] : tensor<2x3x4xi1> -> tensor<3xi1>
// CHECK: return %[[R]] : tensor<3xi1>
func.func @reduce_or(%x: tensor<2x3x4xi1>) -> tensor<3xi1> {
  %0 = mlax.reduce_or %x, axes = [0, 2] : tensor<2x3x4xi1> -> tensor<3xi1>
  return %0 : tensor<3xi1>
}

// GENERIC-LABEL: sym_name = "reduce_sum"
// GENERIC: "mlax.reduce_sum"(%{{.*}}) <{axes = array<i64: 0, 2>}> : (tensor<2x3x4xf32>) -> tensor<3xf32>

// CHECK-LABEL: func.func @reduce_sum_all(
// CHECK: mlax.reduce_sum %{{.*}}, axes = [0, 1] : tensor<2x3xf32> -> tensor<f32>
func.func @reduce_sum_all(%x: tensor<2x3xf32>) -> tensor<f32> {
  %0 = mlax.reduce_sum %x, axes = [0, 1] : tensor<2x3xf32> -> tensor<f32>
  return %0 : tensor<f32>
}

// CHECK-LABEL: func.func @reduce_max_no_axes(
// CHECK: mlax.reduce_max %{{.*}}, axes = [] : tensor<2x3xi32> -> tensor<2x3xi32>
func.func @reduce_max_no_axes(%x: tensor<2x3xi32>) -> tensor<2x3xi32> {
  %0 = mlax.reduce_max %x, axes = [] : tensor<2x3xi32> -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

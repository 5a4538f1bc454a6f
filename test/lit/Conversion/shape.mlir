// Lowering of the shape ops to (generic-form, unregistered) StableHLO.
//
// RUN: mlax-opt %s --convert-mlax-to-stablehlo | FileCheck %s
// RUN: mlax-opt %s --convert-mlax-to-stablehlo | FileCheck %s --check-prefix=NOMLAX
// RUN: mlax-opt %s --convert-mlax-to-stablehlo | %PYTHON -m mlax.tools.compile_stablehlo --verify-only -
//
// NOMLAX-NOT: mlax.

//===----------------------------------------------------------------------===//
// Shape ops keep their attributes
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @broadcast_in_dim(
// CHECK-SAME: %[[X:.*]]: tensor<3xf32>)
// CHECK: %[[R:.*]] = "stablehlo.broadcast_in_dim"(%[[X]]) {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>) -> tensor<2x3xf32>
// CHECK: return %[[R]]
func.func @broadcast_in_dim(%x: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = mlax.broadcast_in_dim %x, dims = [1] : tensor<3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @broadcast_in_dim_scalar(
// CHECK: "stablehlo.broadcast_in_dim"(%{{.*}}) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<2x3xf32>
func.func @broadcast_in_dim_scalar(%x: tensor<f32>) -> tensor<2x3xf32> {
  %0 = mlax.broadcast_in_dim %x, dims = [] : tensor<f32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @reshape(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>)
// CHECK: %[[R:.*]] = "stablehlo.reshape"(%[[X]]) : (tensor<2x3xf32>) -> tensor<6xf32>
// CHECK: return %[[R]]
func.func @reshape(%x: tensor<2x3xf32>) -> tensor<6xf32> {
  %0 = mlax.reshape %x : tensor<2x3xf32> -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// CHECK-LABEL: func.func @transpose(
// CHECK-SAME: %[[X:.*]]: tensor<2x3x4xf32>)
// CHECK: %[[R:.*]] = "stablehlo.transpose"(%[[X]]) {permutation = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
// CHECK: return %[[R]]
func.func @transpose(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = mlax.transpose %x, permutation = [2, 0, 1] : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  return %0 : tensor<4x2x3xf32>
}

// CHECK-LABEL: func.func @slice(
// CHECK-SAME: %[[X:.*]]: tensor<4x6xf32>)
// CHECK: %[[R:.*]] = "stablehlo.slice"(%[[X]]) {limit_indices = array<i64: 3, 5>, start_indices = array<i64: 1, 0>, strides = array<i64: 1, 2>} : (tensor<4x6xf32>) -> tensor<2x3xf32>
// CHECK: return %[[R]]
func.func @slice(%x: tensor<4x6xf32>) -> tensor<2x3xf32> {
  %0 = mlax.slice %x, start = [1, 0], limit = [3, 5], strides = [1, 2] : tensor<4x6xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @concatenate(
// CHECK-SAME: %[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<2x1xf32>)
// CHECK: %[[R:.*]] = "stablehlo.concatenate"(%[[A]], %[[B]], %[[A]]) {dimension = 1 : i64} : (tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x3xf32>) -> tensor<2x7xf32>
// CHECK: return %[[R]]
func.func @concatenate(%a: tensor<2x3xf32>, %b: tensor<2x1xf32>) -> tensor<2x7xf32> {
  %0 = "mlax.concatenate"(%a, %b, %a) {dimension = 1 : i64} : (tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x3xf32>) -> tensor<2x7xf32>
  return %0 : tensor<2x7xf32>
}

// CHECK-LABEL: func.func @pad(
// CHECK-SAME: %[[X:.*]]: tensor<3xf32>, %[[P:.*]]: tensor<f32>)
// CHECK: %[[R:.*]] = "stablehlo.pad"(%[[X]], %[[P]]) {edge_padding_high = array<i64: -1>, edge_padding_low = array<i64: 1>, interior_padding = array<i64: 2>} : (tensor<3xf32>, tensor<f32>) -> tensor<7xf32>
// CHECK: return %[[R]]
func.func @pad(%x: tensor<3xf32>, %p: tensor<f32>) -> tensor<7xf32> {
  %0 = mlax.pad %x, %p, low = [1], high = [-1], interior = [2] : tensor<3xf32>, tensor<f32> -> tensor<7xf32>
  return %0 : tensor<7xf32>
}

// CHECK-LABEL: func.func @iota(
// CHECK: %[[R:.*]] = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<2x3xi32>
// CHECK: return %[[R]]
func.func @iota() -> tensor<2x3xi32> {
  %0 = mlax.iota dim = 1 : tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

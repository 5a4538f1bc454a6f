// Round trip of the shape ops' custom assembly format:
// parse, print, parse the printed form again, print again.
//
// RUN: mlax-opt %s | mlax-opt | FileCheck %s
//
// The generic form must parse back into the same ops:
// RUN: mlax-opt %s --mlir-print-op-generic | mlax-opt | FileCheck %s
// RUN: mlax-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @broadcast_in_dim(
// CHECK-SAME: %[[X:.*]]: tensor<3xf32>)
// CHECK: %[[R:.*]] = mlax.broadcast_in_dim %[[X]], dims = [1] : tensor<3xf32> -> tensor<2x3xf32>
// CHECK: return %[[R]] : tensor<2x3xf32>
// GENERIC-LABEL: sym_name = "broadcast_in_dim"
// GENERIC: "mlax.broadcast_in_dim"(%{{.*}}) <{broadcast_dimensions = array<i64: 1>}> : (tensor<3xf32>) -> tensor<2x3xf32>
func.func @broadcast_in_dim(%x: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = mlax.broadcast_in_dim %x, dims = [1] : tensor<3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @broadcast_in_dim_size_one(
// CHECK: mlax.broadcast_in_dim %{{.*}}, dims = [0, 2] : tensor<1x3xf32> -> tensor<4x5x3xf32>
func.func @broadcast_in_dim_size_one(%x: tensor<1x3xf32>) -> tensor<4x5x3xf32> {
  %0 = mlax.broadcast_in_dim %x, dims = [0, 2] : tensor<1x3xf32> -> tensor<4x5x3xf32>
  return %0 : tensor<4x5x3xf32>
}

// CHECK-LABEL: func.func @broadcast_in_dim_scalar(
// CHECK: mlax.broadcast_in_dim %{{.*}}, dims = [] : tensor<i32> -> tensor<2x3xi32>
func.func @broadcast_in_dim_scalar(%x: tensor<i32>) -> tensor<2x3xi32> {
  %0 = mlax.broadcast_in_dim %x, dims = [] : tensor<i32> -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// CHECK-LABEL: func.func @reshape(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>)
// CHECK: %[[R:.*]] = mlax.reshape %[[X]] : tensor<2x3xf32> -> tensor<3x2xf32>
// CHECK: return %[[R]] : tensor<3x2xf32>
func.func @reshape(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = mlax.reshape %x : tensor<2x3xf32> -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @reshape_to_scalar(
// CHECK: mlax.reshape %{{.*}} : tensor<1x1xi32> -> tensor<i32>
func.func @reshape_to_scalar(%x: tensor<1x1xi32>) -> tensor<i32> {
  %0 = mlax.reshape %x : tensor<1x1xi32> -> tensor<i32>
  return %0 : tensor<i32>
}

// CHECK-LABEL: func.func @transpose(
// CHECK-SAME: %[[X:.*]]: tensor<2x3x4xf32>)
// CHECK: %[[R:.*]] = mlax.transpose %[[X]], permutation = [2, 0, 1] : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
// CHECK: return %[[R]] : tensor<4x2x3xf32>
func.func @transpose(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = mlax.transpose %x, permutation = [2, 0, 1] : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  return %0 : tensor<4x2x3xf32>
}

// CHECK-LABEL: func.func @slice(
// CHECK-SAME: %[[X:.*]]: tensor<4x6xf32>)
// CHECK: %[[R:.*]] = mlax.slice %[[X]], start = [1, 0], limit = [3, 5], strides = [1, 2] : tensor<4x6xf32> -> tensor<2x3xf32>
// CHECK: return %[[R]] : tensor<2x3xf32>
// GENERIC-LABEL: sym_name = "slice"
// GENERIC: "mlax.slice"(%{{.*}}) <{limit_indices = array<i64: 3, 5>, start_indices = array<i64: 1, 0>, strides = array<i64: 1, 2>}> : (tensor<4x6xf32>) -> tensor<2x3xf32>
func.func @slice(%x: tensor<4x6xf32>) -> tensor<2x3xf32> {
  %0 = mlax.slice %x, start = [1, 0], limit = [3, 5], strides = [1, 2] : tensor<4x6xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @slice_empty(
// CHECK: mlax.slice %{{.*}}, start = [2], limit = [2], strides = [1] : tensor<4xi32> -> tensor<0xi32>
func.func @slice_empty(%x: tensor<4xi32>) -> tensor<0xi32> {
  %0 = mlax.slice %x, start = [2], limit = [2], strides = [1] : tensor<4xi32> -> tensor<0xi32>
  return %0 : tensor<0xi32>
}

// The input is written in the generic form so that this test does not depend
// on the custom syntax; the printed custom form must parse back.
// CHECK-LABEL: func.func @concatenate(
// CHECK-SAME: %[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<4x3xf32>)
// CHECK: %[[R:.*]] = mlax.concatenate(%[[A]], %[[B]]) dim = 0 : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
// CHECK: return %[[R]] : tensor<6x3xf32>
// GENERIC-LABEL: sym_name = "concatenate"
// GENERIC: "mlax.concatenate"(%{{.*}}, %{{.*}}) <{dimension = 0 : i64}> : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
func.func @concatenate(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>) -> tensor<6x3xf32> {
  %0 = mlax.concatenate(%a, %b) dim = 0 : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
  return %0 : tensor<6x3xf32>
}

// CHECK-LABEL: func.func @concatenate_three(
// CHECK-SAME: %[[A:.*]]: tensor<2x1xi32>, %[[B:.*]]: tensor<2x2xi32>)
// CHECK: mlax.concatenate(%[[A]], %[[B]], %[[A]]) dim = 1 : (tensor<2x1xi32>, tensor<2x2xi32>, tensor<2x1xi32>) -> tensor<2x4xi32>
func.func @concatenate_three(%a: tensor<2x1xi32>, %b: tensor<2x2xi32>) -> tensor<2x4xi32> {
  %0 = mlax.concatenate(%a, %b, %a) dim = 1 : (tensor<2x1xi32>, tensor<2x2xi32>, tensor<2x1xi32>) -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}

// CHECK-LABEL: func.func @pad(
// CHECK-SAME: %[[X:.*]]: tensor<3xf32>, %[[P:.*]]: tensor<f32>)
// CHECK: %[[R:.*]] = mlax.pad %[[X]], %[[P]], low = [1], high = [2], interior = [1] : tensor<3xf32>, tensor<f32> -> tensor<8xf32>
// CHECK: return %[[R]] : tensor<8xf32>
// GENERIC-LABEL: sym_name = "pad"
// GENERIC: "mlax.pad"(%{{.*}}, %{{.*}}) <{edge_padding_high = array<i64: 2>, edge_padding_low = array<i64: 1>, interior_padding = array<i64: 1>}> : (tensor<3xf32>, tensor<f32>) -> tensor<8xf32>
func.func @pad(%x: tensor<3xf32>, %p: tensor<f32>) -> tensor<8xf32> {
  %0 = mlax.pad %x, %p, low = [1], high = [2], interior = [1] : tensor<3xf32>, tensor<f32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// Negative edge padding removes elements.
// CHECK-LABEL: func.func @pad_negative(
// CHECK: mlax.pad %{{.*}}, %{{.*}}, low = [-1, 0], high = [0, -2], interior = [0, 0] : tensor<4x5xi32>, tensor<i32> -> tensor<3x3xi32>
func.func @pad_negative(%x: tensor<4x5xi32>, %p: tensor<i32>) -> tensor<3x3xi32> {
  %0 = mlax.pad %x, %p, low = [-1, 0], high = [0, -2], interior = [0, 0] : tensor<4x5xi32>, tensor<i32> -> tensor<3x3xi32>
  return %0 : tensor<3x3xi32>
}

// CHECK-LABEL: func.func @iota(
// CHECK: %[[R:.*]] = mlax.iota dim = 1 : tensor<2x3xi32>
// CHECK: return %[[R]] : tensor<2x3xi32>
// GENERIC-LABEL: sym_name = "iota"
// GENERIC: "mlax.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<2x3xi32>
func.func @iota() -> tensor<2x3xi32> {
  %0 = mlax.iota dim = 1 : tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// CHECK-LABEL: func.func @iota_f32(
// CHECK: mlax.iota dim = 0 : tensor<5xf32>
func.func @iota_f32() -> tensor<5xf32> {
  %0 = mlax.iota dim = 0 : tensor<5xf32>
  return %0 : tensor<5xf32>
}

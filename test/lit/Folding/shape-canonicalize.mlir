// RUN: mlax-opt %s --split-input-file --canonicalize | FileCheck %s

// Chains of shape ops collapse (the shape family's canonicalization patterns).

// CHECK-LABEL: func.func @transpose_of_transpose
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[T:.*]] = mlax.transpose %[[X]], permutation = [2, 1, 0] : tensor<2x3x4xf32> -> tensor<4x3x2xf32>
// CHECK-NEXT: return %[[T]]
func.func @transpose_of_transpose(%x: tensor<2x3x4xf32>) -> tensor<4x3x2xf32> {
  %0 = mlax.transpose %x, permutation = [1, 2, 0] : tensor<2x3x4xf32> -> tensor<3x4x2xf32>
  %1 = mlax.transpose %0, permutation = [1, 0, 2] : tensor<3x4x2xf32> -> tensor<4x3x2xf32>
  return %1 : tensor<4x3x2xf32>
}

// -----

// CHECK-LABEL: func.func @transpose_round_trip
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT: return %[[X]]
func.func @transpose_round_trip(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = mlax.transpose %x, permutation = [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  %1 = mlax.transpose %0, permutation = [1, 0] : tensor<3x2xf32> -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_of_reshape
// CHECK-SAME: (%[[X:.*]]: tensor<6xf32>)
// CHECK-NEXT: %[[R:.*]] = mlax.reshape %[[X]] : tensor<6xf32> -> tensor<3x2xf32>
// CHECK-NEXT: return %[[R]], %[[X]]
func.func @reshape_of_reshape(%x: tensor<6xf32>) -> (tensor<3x2xf32>, tensor<6xf32>) {
  %0 = mlax.reshape %x : tensor<6xf32> -> tensor<2x3xf32>
  %1 = mlax.reshape %0 : tensor<2x3xf32> -> tensor<3x2xf32>
  %2 = mlax.reshape %1 : tensor<3x2xf32> -> tensor<6xf32>
  return %1, %2 : tensor<3x2xf32>, tensor<6xf32>
}

// -----

// CHECK-LABEL: func.func @broadcast_of_broadcast
// CHECK-SAME: (%[[X:.*]]: tensor<3xf32>)
// CHECK-NEXT: %[[B:.*]] = mlax.broadcast_in_dim %[[X]], dims = [2] : tensor<3xf32> -> tensor<4x2x3xf32>
// CHECK-NEXT: return %[[B]]
func.func @broadcast_of_broadcast(%x: tensor<3xf32>) -> tensor<4x2x3xf32> {
  %0 = mlax.broadcast_in_dim %x, dims = [1] : tensor<3xf32> -> tensor<2x3xf32>
  %1 = mlax.broadcast_in_dim %0, dims = [1, 2] : tensor<2x3xf32> -> tensor<4x2x3xf32>
  return %1 : tensor<4x2x3xf32>
}

// -----

// CHECK-LABEL: func.func @broadcast_of_size_one
// CHECK-SAME: (%[[X:.*]]: tensor<1xf32>)
// CHECK-NEXT: %[[B:.*]] = mlax.broadcast_in_dim %[[X]], dims = [1] : tensor<1xf32> -> tensor<4x5xf32>
// CHECK-NEXT: return %[[B]]
func.func @broadcast_of_size_one(%x: tensor<1xf32>) -> tensor<4x5xf32> {
  %0 = mlax.broadcast_in_dim %x, dims = [1] : tensor<1xf32> -> tensor<4x1xf32>
  %1 = mlax.broadcast_in_dim %0, dims = [0, 1] : tensor<4x1xf32> -> tensor<4x5xf32>
  return %1 : tensor<4x5xf32>
}


// -----

// CHECK-LABEL: func.func @slice_of_slice
// CHECK-SAME: (%[[X:.*]]: tensor<20xf32>)
// CHECK-NEXT: %[[S:.*]] = mlax.slice %[[X]], start = [5], limit = [18], strides = [6] : tensor<20xf32> -> tensor<3xf32>
// CHECK-NEXT: return %[[S]]
func.func @slice_of_slice(%x: tensor<20xf32>) -> tensor<3xf32> {
  // elements 1, 3, 5, ..., 19 then every third from the 2nd: 5, 11, 17
  %0 = mlax.slice %x, start = [1], limit = [20], strides = [2] : tensor<20xf32> -> tensor<10xf32>
  %1 = mlax.slice %0, start = [2], limit = [10], strides = [3] : tensor<10xf32> -> tensor<3xf32>
  return %1 : tensor<3xf32>
}

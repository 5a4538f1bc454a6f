// RUN: mlax-opt %s --mlax-vectorize | FileCheck %s

// The batched functions mlax-vectorize generates for conv_general_dilated
// and the window ops (rules in dialects/Mlax/MlaxConvOps.cpp). A batched
// convolution folds the batch into another dimension, as jax.lax's rule: a
// batched lhs into its batch dimension, a batched kernel into its output
// features, both into feature groups; the result's batch dimension is then
// split out and moved to the front. Window ops get a window of 1 over the
// batch dimension.
// Regenerate the CHECK lines with
// tools/generate-test-checks.py --only '_vmap$' and review them.

// CHECK-LABEL: func.func private @conv_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<6x2x3x5xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<4x3x2xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.reshape %[[ARG0]] : tensor<6x2x3x5xf32> -> tensor<12x3x5xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.conv_general_dilated %[[V2]], %[[ARG1]], dims = [0, 1, 2] x [0, 1, 2] -> [0, 1, 2], strides = [1], padding = [0, 0], lhs_dilation = [1], rhs_dilation = [1], feature_group_count = 1, batch_group_count = 1 : (tensor<12x3x5xf32>, tensor<4x3x2xf32>) -> tensor<12x4x4xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.reshape %[[V3]] : tensor<12x4x4xf32> -> tensor<6x2x4x4xf32>
// CHECK-NEXT: return %[[V4]] : tensor<6x2x4x4xf32>

// CHECK-LABEL: func.func private @conv_vmap_0(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2x3x5xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<6x4x3x2xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.reshape %[[ARG1]] : tensor<6x4x3x2xf32> -> tensor<24x3x2xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.conv_general_dilated %[[ARG0]], %[[V2]], dims = [0, 1, 2] x [0, 1, 2] -> [0, 1, 2], strides = [1], padding = [0, 0], lhs_dilation = [1], rhs_dilation = [1], feature_group_count = 1, batch_group_count = 1 : (tensor<2x3x5xf32>, tensor<24x3x2xf32>) -> tensor<2x24x4xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.reshape %[[V3]] : tensor<2x24x4xf32> -> tensor<2x6x4x4xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.transpose %[[V4]], permutation = [1, 0, 2, 3] : tensor<2x6x4x4xf32> -> tensor<6x2x4x4xf32>
// CHECK-NEXT: return %[[V5]] : tensor<6x2x4x4xf32>

// CHECK-LABEL: func.func private @conv_vmap_1(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<6x2x3x5xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<6x4x3x2xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.transpose %[[ARG0]], permutation = [1, 0, 2, 3] : tensor<6x2x3x5xf32> -> tensor<2x6x3x5xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.reshape %[[V2]] : tensor<2x6x3x5xf32> -> tensor<2x18x5xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.reshape %[[ARG1]] : tensor<6x4x3x2xf32> -> tensor<24x3x2xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.conv_general_dilated %[[V3]], %[[V4]], dims = [0, 1, 2] x [0, 1, 2] -> [0, 1, 2], strides = [1], padding = [0, 0], lhs_dilation = [1], rhs_dilation = [1], feature_group_count = 6, batch_group_count = 1 : (tensor<2x18x5xf32>, tensor<24x3x2xf32>) -> tensor<2x24x4xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.reshape %[[V5]] : tensor<2x24x4xf32> -> tensor<2x6x4x4xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.transpose %[[V6]], permutation = [1, 0, 2, 3] : tensor<2x6x4x4xf32> -> tensor<6x2x4x4xf32>
// CHECK-NEXT: return %[[V7]] : tensor<6x2x4x4xf32>

// CHECK-LABEL: func.func private @max_pool_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<6x4xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.transpose %[[ARG0]], permutation = [1, 0] : tensor<6x4xf32> -> tensor<4x6xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.reduce_window max %[[V1]], window = [1, 2], strides = [1, 2], padding = [0, 0, 0, 0], base_dilation = [1, 1], window_dilation = [1, 1] : tensor<4x6xf32> -> tensor<4x3xf32>
// CHECK-NEXT: return %[[V2]] : tensor<4x3xf32>

// CHECK-LABEL: func.func private @gather_scatter_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<4x6xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<6xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.broadcast_in_dim %[[ARG1]], dims = [1] : tensor<6xf32> -> tensor<4x6xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.select_and_gather_add GE %[[ARG0]], %[[V2]], window = [1, 2], strides = [1, 2], padding = [0, 0, 0, 0], base_dilation = [1, 1], window_dilation = [1, 1] : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.broadcast_in_dim %[[ARG1]], dims = [1] : tensor<6xf32> -> tensor<4x6xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.select_and_scatter_add GE %[[V3]], %[[V4]], window = [1, 2], strides = [1, 2], padding = [0, 0, 0, 0] : (tensor<4x3xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
// CHECK-NEXT: return %[[V5]] : tensor<4x6xf32>


func.func private @conv(%x: tensor<2x3x5xf32>, %k: tensor<4x3x2xf32>) -> tensor<2x4x4xf32> {
  %0 = mlax.conv_general_dilated %x, %k, dims = [0, 1, 2] x [0, 1, 2] -> [0, 1, 2],
      strides = [1], padding = [0, 0], lhs_dilation = [1], rhs_dilation = [1],
      feature_group_count = 1, batch_group_count = 1
      : (tensor<2x3x5xf32>, tensor<4x3x2xf32>) -> tensor<2x4x4xf32>
  return %0 : tensor<2x4x4xf32>
}
func.func @test_conv_lhs(%x: tensor<6x2x3x5xf32>, %k: tensor<4x3x2xf32>) -> tensor<6x2x4x4xf32> {
  %r = mlax.vmap @conv(%x, %k) in_axes = [0, -1] out_axes = [0] size = 6 : (tensor<6x2x3x5xf32>, tensor<4x3x2xf32>) -> tensor<6x2x4x4xf32>
  return %r : tensor<6x2x4x4xf32>
}
func.func @test_conv_rhs(%x: tensor<2x3x5xf32>, %k: tensor<6x4x3x2xf32>) -> tensor<6x2x4x4xf32> {
  %r = mlax.vmap @conv(%x, %k) in_axes = [-1, 0] out_axes = [0] size = 6 : (tensor<2x3x5xf32>, tensor<6x4x3x2xf32>) -> tensor<6x2x4x4xf32>
  return %r : tensor<6x2x4x4xf32>
}
func.func @test_conv_both(%x: tensor<6x2x3x5xf32>, %k: tensor<6x4x3x2xf32>) -> tensor<6x2x4x4xf32> {
  %r = mlax.vmap @conv(%x, %k) in_axes = [0, 0] out_axes = [0] size = 6 : (tensor<6x2x3x5xf32>, tensor<6x4x3x2xf32>) -> tensor<6x2x4x4xf32>
  return %r : tensor<6x2x4x4xf32>
}

func.func private @max_pool(%x: tensor<6xf32>) -> tensor<3xf32> {
  %0 = mlax.reduce_window max %x, window = [2], strides = [2], padding = [0, 0],
      base_dilation = [1], window_dilation = [1] : tensor<6xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_max_pool(%x: tensor<6x4xf32>) -> tensor<4x3xf32> {
  %r = mlax.vmap @max_pool(%x) in_axes = [1] out_axes = [0] size = 4 : (tensor<6x4xf32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

func.func private @gather_scatter(%t: tensor<6xf32>, %x: tensor<6xf32>) -> tensor<6xf32> {
  %0 = mlax.select_and_gather_add GE %t, %x, window = [2], strides = [2], padding = [0, 0],
      base_dilation = [1], window_dilation = [1] : (tensor<6xf32>, tensor<6xf32>) -> tensor<3xf32>
  %1 = mlax.select_and_scatter_add GE %0, %x, window = [2], strides = [2], padding = [0, 0]
      : (tensor<3xf32>, tensor<6xf32>) -> tensor<6xf32>
  return %1 : tensor<6xf32>
}
func.func @test_gather_scatter(%t: tensor<4x6xf32>, %x: tensor<6xf32>) -> tensor<4x6xf32> {
  %r = mlax.vmap @gather_scatter(%t, %x) in_axes = [0, -1] out_axes = [0] size = 4 : (tensor<4x6xf32>, tensor<6xf32>) -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}

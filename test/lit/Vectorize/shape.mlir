// RUN: mlax-opt %s --mlax-vectorize | FileCheck %s

// The batched function mlax-vectorize generates for the shape ops (moved
// from ops.mlir). The first listed operands are batched along axis 0, the
// others are not (in_axes -1). Regenerate the CHECK lines with
// tools/generate-test-checks.py --only '_vmap$' and review them.

// CHECK-LABEL: func.func private @broadcast_in_dim_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x1x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.broadcast_in_dim %[[ARG0]], dims = [0, 2, 3] : tensor<5x1x3xf32> -> tensor<5x2x4x3xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x2x4x3xf32>
func.func private @broadcast_in_dim(%a0: tensor<1x3xf32>) -> tensor<2x4x3xf32> {
  %0 = mlax.broadcast_in_dim %a0, dims = [1, 2] : tensor<1x3xf32> -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}
func.func @test_broadcast_in_dim(%a0: tensor<5x1x3xf32>) -> tensor<5x2x4x3xf32> {
  %r = mlax.vmap @broadcast_in_dim(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x1x3xf32>) -> tensor<5x2x4x3xf32>
  return %r : tensor<5x2x4x3xf32>
}

// CHECK-LABEL: func.func private @reshape_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x2x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.reshape %[[ARG0]] : tensor<5x2x3xf32> -> tensor<5x6xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x6xf32>
func.func private @reshape(%a0: tensor<2x3xf32>) -> tensor<6xf32> {
  %0 = mlax.reshape %a0 : tensor<2x3xf32> -> tensor<6xf32>
  return %0 : tensor<6xf32>
}
func.func @test_reshape(%a0: tensor<5x2x3xf32>) -> tensor<5x6xf32> {
  %r = mlax.vmap @reshape(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x2x3xf32>) -> tensor<5x6xf32>
  return %r : tensor<5x6xf32>
}

// CHECK-LABEL: func.func private @transpose_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x2x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.transpose %[[ARG0]], permutation = [0, 2, 1] : tensor<5x2x3xf32> -> tensor<5x3x2xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x3x2xf32>
func.func private @transpose(%a0: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = mlax.transpose %a0, permutation = [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
func.func @test_transpose(%a0: tensor<5x2x3xf32>) -> tensor<5x3x2xf32> {
  %r = mlax.vmap @transpose(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x2x3xf32>) -> tensor<5x3x2xf32>
  return %r : tensor<5x3x2xf32>
}

// CHECK-LABEL: func.func private @slice_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x6xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.slice %[[ARG0]], start = [0, 1], limit = [5, 5], strides = [1, 2] : tensor<5x6xf32> -> tensor<5x2xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x2xf32>
func.func private @slice(%a0: tensor<6xf32>) -> tensor<2xf32> {
  %0 = mlax.slice %a0, start = [1], limit = [5], strides = [2] : tensor<6xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @test_slice(%a0: tensor<5x6xf32>) -> tensor<5x2xf32> {
  %r = mlax.vmap @slice(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x6xf32>) -> tensor<5x2xf32>
  return %r : tensor<5x2xf32>
}

// CHECK-LABEL: func.func private @concatenate_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x2xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.concatenate(%[[ARG0]], %[[ARG1]]) dim = 1 : (tensor<5x2xf32>, tensor<5x3xf32>) -> tensor<5x5xf32>
// CHECK-NEXT: return %[[V2]] : tensor<5x5xf32>
func.func private @concatenate(%a0: tensor<2xf32>, %a1: tensor<3xf32>) -> tensor<5xf32> {
  %0 = mlax.concatenate(%a0, %a1) dim = 0 : (tensor<2xf32>, tensor<3xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}
func.func @test_concatenate(%a0: tensor<5x2xf32>, %a1: tensor<5x3xf32>) -> tensor<5x5xf32> {
  %r = mlax.vmap @concatenate(%a0, %a1) in_axes = [0, 0] out_axes = [0] size = 5 : (tensor<5x2xf32>, tensor<5x3xf32>) -> tensor<5x5xf32>
  return %r : tensor<5x5xf32>
}

// CHECK-LABEL: func.func private @pad_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<5xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.pad %[[ARG0]], %[[V2]], low = [0, 1], high = [0, 2], interior = [0, 1] : tensor<5x3xf32>, tensor<f32> -> tensor<5x8xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.constant dense<true> : tensor<5x3xi1>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.constant dense<false> : tensor<i1>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.pad %[[V4]], %[[V5]], low = [0, 1], high = [0, 2], interior = [0, 1] : tensor<5x3xi1>, tensor<i1> -> tensor<5x8xi1>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.broadcast_in_dim %[[ARG1]], dims = [0] : tensor<5xf32> -> tensor<5x8xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.select_n %[[V6]], %[[V7]], %[[V3]] : tensor<5x8xi1>, tensor<5x8xf32>, tensor<5x8xf32>
// CHECK-NEXT: return %[[V8]] : tensor<5x8xf32>
func.func private @pad(%a0: tensor<3xf32>, %a1: tensor<f32>) -> tensor<8xf32> {
  %0 = mlax.pad %a0, %a1, low = [1], high = [2], interior = [1] : tensor<3xf32>, tensor<f32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func @test_pad(%a0: tensor<5x3xf32>, %a1: tensor<5xf32>) -> tensor<5x8xf32> {
  %r = mlax.vmap @pad(%a0, %a1) in_axes = [0, 0] out_axes = [0] size = 5 : (tensor<5x3xf32>, tensor<5xf32>) -> tensor<5x8xf32>
  return %r : tensor<5x8xf32>
}

// CHECK-LABEL: func.func private @iota_add_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.iota dim = 0 : tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V1]], dims = [1] : tensor<3xf32> -> tensor<5x3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.add %[[ARG0]], %[[V2]] : tensor<5x3xf32>
// CHECK-NEXT: return %[[V3]] : tensor<5x3xf32>
func.func private @iota_add(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %i = mlax.iota dim = 0 : tensor<3xf32>
  %0 = mlax.add %a0, %i : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_iota_add(%a0: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %r = mlax.vmap @iota_add(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// RUN: mlax-opt %s --split-input-file --mlax-autodiff | FileCheck %s

// The derivative functions mlax-autodiff generates for the shape ops, forward
// (_jvp) then reverse (_vjp) mode (moved from rules-jvp.mlir and
// rules-vjp.mlir). Regenerate the CHECK lines with
// tools/generate-test-checks.py --only '_jvp$' / '_vjp$' and review them.

// CHECK-LABEL: func.func private @broadcast_in_dim_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<1x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<1x3xf32>) -> (tensor<2x4x3xf32>, tensor<2x4x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.broadcast_in_dim %[[ARG0]], dims = [1, 2] : tensor<1x3xf32> -> tensor<2x4x3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.broadcast_in_dim %[[ARG1]], dims = [1, 2] : tensor<1x3xf32> -> tensor<2x4x3xf32>
// CHECK-NEXT: return %[[V2]], %[[V3]] : tensor<2x4x3xf32>, tensor<2x4x3xf32>
func.func private @broadcast_in_dim(%a0: tensor<1x3xf32>) -> tensor<2x4x3xf32> {
  %0 = mlax.broadcast_in_dim %a0, dims = [1, 2] : tensor<1x3xf32> -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}
func.func @test_broadcast_in_dim(%a0: tensor<1x3xf32>, %t0: tensor<1x3xf32>) -> (tensor<2x4x3xf32>, tensor<2x4x3xf32>) {
  %r:2 = mlax.jvp @broadcast_in_dim(%a0) tangents(%t0) wrt = [0] : (tensor<1x3xf32>, tensor<1x3xf32>) -> (tensor<2x4x3xf32>, tensor<2x4x3xf32>)
  return %r#0, %r#1 : tensor<2x4x3xf32>, tensor<2x4x3xf32>
}

// CHECK-LABEL: func.func private @reshape_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2x3xf32>) -> (tensor<6xf32>, tensor<6xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.reshape %[[ARG0]] : tensor<2x3xf32> -> tensor<6xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.reshape %[[ARG1]] : tensor<2x3xf32> -> tensor<6xf32>
// CHECK-NEXT: return %[[V2]], %[[V3]] : tensor<6xf32>, tensor<6xf32>
func.func private @reshape(%a0: tensor<2x3xf32>) -> tensor<6xf32> {
  %0 = mlax.reshape %a0 : tensor<2x3xf32> -> tensor<6xf32>
  return %0 : tensor<6xf32>
}
func.func @test_reshape(%a0: tensor<2x3xf32>, %t0: tensor<2x3xf32>) -> (tensor<6xf32>, tensor<6xf32>) {
  %r:2 = mlax.jvp @reshape(%a0) tangents(%t0) wrt = [0] : (tensor<2x3xf32>, tensor<2x3xf32>) -> (tensor<6xf32>, tensor<6xf32>)
  return %r#0, %r#1 : tensor<6xf32>, tensor<6xf32>
}

// CHECK-LABEL: func.func private @transpose_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2x3xf32>) -> (tensor<3x2xf32>, tensor<3x2xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.transpose %[[ARG0]], permutation = [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.transpose %[[ARG1]], permutation = [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
// CHECK-NEXT: return %[[V2]], %[[V3]] : tensor<3x2xf32>, tensor<3x2xf32>
func.func private @transpose(%a0: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = mlax.transpose %a0, permutation = [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
func.func @test_transpose(%a0: tensor<2x3xf32>, %t0: tensor<2x3xf32>) -> (tensor<3x2xf32>, tensor<3x2xf32>) {
  %r:2 = mlax.jvp @transpose(%a0) tangents(%t0) wrt = [0] : (tensor<2x3xf32>, tensor<2x3xf32>) -> (tensor<3x2xf32>, tensor<3x2xf32>)
  return %r#0, %r#1 : tensor<3x2xf32>, tensor<3x2xf32>
}

// CHECK-LABEL: func.func private @slice_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<6xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<6xf32>) -> (tensor<2xf32>, tensor<2xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.slice %[[ARG0]], start = [1], limit = [5], strides = [2] : tensor<6xf32> -> tensor<2xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.slice %[[ARG1]], start = [1], limit = [5], strides = [2] : tensor<6xf32> -> tensor<2xf32>
// CHECK-NEXT: return %[[V2]], %[[V3]] : tensor<2xf32>, tensor<2xf32>
func.func private @slice(%a0: tensor<6xf32>) -> tensor<2xf32> {
  %0 = mlax.slice %a0, start = [1], limit = [5], strides = [2] : tensor<6xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @test_slice(%a0: tensor<6xf32>, %t0: tensor<6xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %r:2 = mlax.jvp @slice(%a0) tangents(%t0) wrt = [0] : (tensor<6xf32>, tensor<6xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return %r#0, %r#1 : tensor<2xf32>, tensor<2xf32>
}

// CHECK-LABEL: func.func private @concatenate_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<2xf32>,
// CHECK-SAME: %[[ARG3:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<5xf32>, tensor<5xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.concatenate(%[[ARG0]], %[[ARG1]]) dim = 0 : (tensor<2xf32>, tensor<3xf32>) -> tensor<5xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.concatenate(%[[ARG2]], %[[ARG3]]) dim = 0 : (tensor<2xf32>, tensor<3xf32>) -> tensor<5xf32>
// CHECK-NEXT: return %[[V4]], %[[V5]] : tensor<5xf32>, tensor<5xf32>
func.func private @concatenate(%a0: tensor<2xf32>, %a1: tensor<3xf32>) -> tensor<5xf32> {
  %0 = mlax.concatenate(%a0, %a1) dim = 0 : (tensor<2xf32>, tensor<3xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}
func.func @test_concatenate(%a0: tensor<2xf32>, %a1: tensor<3xf32>, %t0: tensor<2xf32>, %t1: tensor<3xf32>) -> (tensor<5xf32>, tensor<5xf32>) {
  %r:2 = mlax.jvp @concatenate(%a0, %a1) tangents(%t0, %t1) wrt = [0, 1] : (tensor<2xf32>, tensor<3xf32>, tensor<2xf32>, tensor<3xf32>) -> (tensor<5xf32>, tensor<5xf32>)
  return %r#0, %r#1 : tensor<5xf32>, tensor<5xf32>
}

// CHECK-LABEL: func.func private @pad_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG3:[^ ,:)]*]]: tensor<f32>) -> (tensor<8xf32>, tensor<8xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.pad %[[ARG0]], %[[ARG1]], low = [1], high = [2], interior = [1] : tensor<3xf32>, tensor<f32> -> tensor<8xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.pad %[[ARG2]], %[[ARG3]], low = [1], high = [2], interior = [1] : tensor<3xf32>, tensor<f32> -> tensor<8xf32>
// CHECK-NEXT: return %[[V4]], %[[V5]] : tensor<8xf32>, tensor<8xf32>
func.func private @pad(%a0: tensor<3xf32>, %a1: tensor<f32>) -> tensor<8xf32> {
  %0 = mlax.pad %a0, %a1, low = [1], high = [2], interior = [1] : tensor<3xf32>, tensor<f32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func @test_pad(%a0: tensor<3xf32>, %a1: tensor<f32>, %t0: tensor<3xf32>, %t1: tensor<f32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %r:2 = mlax.jvp @pad(%a0, %a1) tangents(%t0, %t1) wrt = [0, 1] : (tensor<3xf32>, tensor<f32>, tensor<3xf32>, tensor<f32>) -> (tensor<8xf32>, tensor<8xf32>)
  return %r#0, %r#1 : tensor<8xf32>, tensor<8xf32>
}

// -----

// CHECK-LABEL: func.func private @broadcast_in_dim_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<1x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2x4x3xf32>) -> (tensor<2x4x3xf32>, tensor<1x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.broadcast_in_dim %[[ARG0]], dims = [1, 2] : tensor<1x3xf32> -> tensor<2x4x3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.reduce_sum %[[ARG1]], axes = [0, 1] : tensor<2x4x3xf32> -> tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.reshape %[[V3]] : tensor<3xf32> -> tensor<1x3xf32>
// CHECK-NEXT: return %[[V2]], %[[V4]] : tensor<2x4x3xf32>, tensor<1x3xf32>
func.func private @broadcast_in_dim(%a0: tensor<1x3xf32>) -> tensor<2x4x3xf32> {
  %0 = mlax.broadcast_in_dim %a0, dims = [1, 2] : tensor<1x3xf32> -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}
func.func @test_broadcast_in_dim(%a0: tensor<1x3xf32>, %c: tensor<2x4x3xf32>) -> (tensor<2x4x3xf32>, tensor<1x3xf32>) {
  %r:2 = mlax.vjp @broadcast_in_dim(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<1x3xf32>, tensor<2x4x3xf32>) -> (tensor<2x4x3xf32>, tensor<1x3xf32>)
  return %r#0, %r#1 : tensor<2x4x3xf32>, tensor<1x3xf32>
}

// CHECK-LABEL: func.func private @reshape_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<6xf32>) -> (tensor<6xf32>, tensor<2x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.reshape %[[ARG0]] : tensor<2x3xf32> -> tensor<6xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.reshape %[[ARG1]] : tensor<6xf32> -> tensor<2x3xf32>
// CHECK-NEXT: return %[[V2]], %[[V3]] : tensor<6xf32>, tensor<2x3xf32>
func.func private @reshape(%a0: tensor<2x3xf32>) -> tensor<6xf32> {
  %0 = mlax.reshape %a0 : tensor<2x3xf32> -> tensor<6xf32>
  return %0 : tensor<6xf32>
}
func.func @test_reshape(%a0: tensor<2x3xf32>, %c: tensor<6xf32>) -> (tensor<6xf32>, tensor<2x3xf32>) {
  %r:2 = mlax.vjp @reshape(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<2x3xf32>, tensor<6xf32>) -> (tensor<6xf32>, tensor<2x3xf32>)
  return %r#0, %r#1 : tensor<6xf32>, tensor<2x3xf32>
}

// CHECK-LABEL: func.func private @transpose_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3x2xf32>) -> (tensor<3x2xf32>, tensor<2x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.transpose %[[ARG0]], permutation = [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.transpose %[[ARG1]], permutation = [1, 0] : tensor<3x2xf32> -> tensor<2x3xf32>
// CHECK-NEXT: return %[[V2]], %[[V3]] : tensor<3x2xf32>, tensor<2x3xf32>
func.func private @transpose(%a0: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = mlax.transpose %a0, permutation = [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
func.func @test_transpose(%a0: tensor<2x3xf32>, %c: tensor<3x2xf32>) -> (tensor<3x2xf32>, tensor<2x3xf32>) {
  %r:2 = mlax.vjp @transpose(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<2x3xf32>, tensor<3x2xf32>) -> (tensor<3x2xf32>, tensor<2x3xf32>)
  return %r#0, %r#1 : tensor<3x2xf32>, tensor<2x3xf32>
}

// CHECK-LABEL: func.func private @slice_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<6xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2xf32>) -> (tensor<2xf32>, tensor<6xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.slice %[[ARG0]], start = [1], limit = [5], strides = [2] : tensor<6xf32> -> tensor<2xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.pad %[[ARG1]], %[[V3]], low = [1], high = [2], interior = [1] : tensor<2xf32>, tensor<f32> -> tensor<6xf32>
// CHECK-NEXT: return %[[V2]], %[[V4]] : tensor<2xf32>, tensor<6xf32>
func.func private @slice(%a0: tensor<6xf32>) -> tensor<2xf32> {
  %0 = mlax.slice %a0, start = [1], limit = [5], strides = [2] : tensor<6xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @test_slice(%a0: tensor<6xf32>, %c: tensor<2xf32>) -> (tensor<2xf32>, tensor<6xf32>) {
  %r:2 = mlax.vjp @slice(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<6xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<6xf32>)
  return %r#0, %r#1 : tensor<2xf32>, tensor<6xf32>
}

// CHECK-LABEL: func.func private @concatenate_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<5xf32>) -> (tensor<5xf32>, tensor<2xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.concatenate(%[[ARG0]], %[[ARG1]]) dim = 0 : (tensor<2xf32>, tensor<3xf32>) -> tensor<5xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.slice %[[ARG2]], start = [0], limit = [2], strides = [1] : tensor<5xf32> -> tensor<2xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.slice %[[ARG2]], start = [2], limit = [5], strides = [1] : tensor<5xf32> -> tensor<3xf32>
// CHECK-NEXT: return %[[V3]], %[[V4]], %[[V5]] : tensor<5xf32>, tensor<2xf32>, tensor<3xf32>
func.func private @concatenate(%a0: tensor<2xf32>, %a1: tensor<3xf32>) -> tensor<5xf32> {
  %0 = mlax.concatenate(%a0, %a1) dim = 0 : (tensor<2xf32>, tensor<3xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}
func.func @test_concatenate(%a0: tensor<2xf32>, %a1: tensor<3xf32>, %c: tensor<5xf32>) -> (tensor<5xf32>, tensor<2xf32>, tensor<3xf32>) {
  %r:3 = mlax.vjp @concatenate(%a0, %a1) cotangents(%c) wrt = [0, 1] seeds = [0] : (tensor<2xf32>, tensor<3xf32>, tensor<5xf32>) -> (tensor<5xf32>, tensor<2xf32>, tensor<3xf32>)
  return %r#0, %r#1, %r#2 : tensor<5xf32>, tensor<2xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @pad_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<8xf32>) -> (tensor<8xf32>, tensor<3xf32>, tensor<f32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.pad %[[ARG0]], %[[ARG1]], low = [1], high = [2], interior = [1] : tensor<3xf32>, tensor<f32> -> tensor<8xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.pad %[[ARG2]], %[[V4]], low = [-1], high = [-2], interior = [0] : tensor<8xf32>, tensor<f32> -> tensor<5xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.slice %[[V5]], start = [0], limit = [5], strides = [2] : tensor<5xf32> -> tensor<3xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.reduce_sum %[[ARG2]], axes = [0] : tensor<8xf32> -> tensor<f32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.reduce_sum %[[V6]], axes = [0] : tensor<3xf32> -> tensor<f32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.sub %[[V7]], %[[V8]] : tensor<f32>
// CHECK-NEXT: return %[[V3]], %[[V6]], %[[V9]] : tensor<8xf32>, tensor<3xf32>, tensor<f32>
func.func private @pad(%a0: tensor<3xf32>, %a1: tensor<f32>) -> tensor<8xf32> {
  %0 = mlax.pad %a0, %a1, low = [1], high = [2], interior = [1] : tensor<3xf32>, tensor<f32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func @test_pad(%a0: tensor<3xf32>, %a1: tensor<f32>, %c: tensor<8xf32>) -> (tensor<8xf32>, tensor<3xf32>, tensor<f32>) {
  %r:3 = mlax.vjp @pad(%a0, %a1) cotangents(%c) wrt = [0, 1] seeds = [0] : (tensor<3xf32>, tensor<f32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<3xf32>, tensor<f32>)
  return %r#0, %r#1, %r#2 : tensor<8xf32>, tensor<3xf32>, tensor<f32>
}

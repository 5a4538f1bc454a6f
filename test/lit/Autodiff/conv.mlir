// RUN: mlax-opt %s --split-input-file --mlax-autodiff | FileCheck %s

// The derivative functions mlax-autodiff generates for conv_general_dilated
// and the window ops (rules in dialects/Mlax/MlaxConvOps.cpp, as jax.lax's):
// a convolution is bilinear, its transposes are convolutions (the lhs one
// with the kernel reversed and the strides become lhs dilation); a summing
// reduce_window transposes to a padded summing reduce_window; max pooling's
// forward derivative is select_and_gather_add, its reverse one
// select_and_scatter_add, which transpose to each other.
// Regenerate the CHECK lines with
// tools/generate-test-checks.py --only '_(jvp|vjp)$' and review them.

// CHECK-LABEL: func.func private @conv_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<1x2x5xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3x2x2xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<1x2x5xf32>,
// CHECK-SAME: %[[ARG3:[^ ,:)]*]]: tensor<3x2x2xf32>) -> (tensor<1x3x2xf32>, tensor<1x3x2xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.conv_general_dilated %[[ARG0]], %[[ARG1]], dims = [0, 1, 2] x [0, 1, 2] -> [0, 1, 2], strides = [2], padding = [0, 0], lhs_dilation = [1], rhs_dilation = [1], feature_group_count = 1, batch_group_count = 1 : (tensor<1x2x5xf32>, tensor<3x2x2xf32>) -> tensor<1x3x2xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.conv_general_dilated %[[ARG2]], %[[ARG1]], dims = [0, 1, 2] x [0, 1, 2] -> [0, 1, 2], strides = [2], padding = [0, 0], lhs_dilation = [1], rhs_dilation = [1], feature_group_count = 1, batch_group_count = 1 : (tensor<1x2x5xf32>, tensor<3x2x2xf32>) -> tensor<1x3x2xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.conv_general_dilated %[[ARG0]], %[[ARG3]], dims = [0, 1, 2] x [0, 1, 2] -> [0, 1, 2], strides = [2], padding = [0, 0], lhs_dilation = [1], rhs_dilation = [1], feature_group_count = 1, batch_group_count = 1 : (tensor<1x2x5xf32>, tensor<3x2x2xf32>) -> tensor<1x3x2xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.add %[[V5]], %[[V6]] : tensor<1x3x2xf32>
// CHECK-NEXT: return %[[V4]], %[[V7]] : tensor<1x3x2xf32>, tensor<1x3x2xf32>

// CHECK-LABEL: func.func private @conv_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<1x2x5xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3x2x2xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<1x3x2xf32>) -> (tensor<1x3x2xf32>, tensor<1x2x5xf32>, tensor<3x2x2xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.conv_general_dilated %[[ARG0]], %[[ARG1]], dims = [0, 1, 2] x [0, 1, 2] -> [0, 1, 2], strides = [2], padding = [0, 0], lhs_dilation = [1], rhs_dilation = [1], feature_group_count = 1, batch_group_count = 1 : (tensor<1x2x5xf32>, tensor<3x2x2xf32>) -> tensor<1x3x2xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.reverse %[[ARG1]], dims = [2] : tensor<3x2x2xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.conv_general_dilated %[[ARG2]], %[[V4]], dims = [0, 1, 2] x [1, 0, 2] -> [0, 1, 2], strides = [1], padding = [1, 2], lhs_dilation = [2], rhs_dilation = [1], feature_group_count = 1, batch_group_count = 1 : (tensor<1x3x2xf32>, tensor<3x2x2xf32>) -> tensor<1x2x5xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.conv_general_dilated %[[ARG0]], %[[ARG2]], dims = [1, 0, 2] x [1, 0, 2] -> [1, 0, 2], strides = [1], padding = [0, -1], lhs_dilation = [1], rhs_dilation = [2], feature_group_count = 1, batch_group_count = 1 : (tensor<1x2x5xf32>, tensor<1x3x2xf32>) -> tensor<3x2x2xf32>
// CHECK-NEXT: return %[[V3]], %[[V5]], %[[V6]] : tensor<1x3x2xf32>, tensor<1x2x5xf32>, tensor<3x2x2xf32>

// CHECK-LABEL: func.func private @conv_grouped_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<1x4x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2x2x2xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<1x2x2xf32>) -> (tensor<1x2x2xf32>, tensor<1x4x3xf32>, tensor<2x2x2xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.conv_general_dilated %[[ARG0]], %[[ARG1]], dims = [0, 1, 2] x [0, 1, 2] -> [0, 1, 2], strides = [1], padding = [0, 0], lhs_dilation = [1], rhs_dilation = [1], feature_group_count = 2, batch_group_count = 1 : (tensor<1x4x3xf32>, tensor<2x2x2xf32>) -> tensor<1x2x2xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.reshape %[[ARG1]] : tensor<2x2x2xf32> -> tensor<2x1x2x2xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.transpose %[[V4]], permutation = [1, 0, 2, 3] : tensor<2x1x2x2xf32> -> tensor<1x2x2x2xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.reshape %[[V5]] : tensor<1x2x2x2xf32> -> tensor<1x4x2xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.reverse %[[V6]], dims = [2] : tensor<1x4x2xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.conv_general_dilated %[[ARG2]], %[[V7]], dims = [0, 1, 2] x [1, 0, 2] -> [0, 1, 2], strides = [1], padding = [1, 1], lhs_dilation = [1], rhs_dilation = [1], feature_group_count = 2, batch_group_count = 1 : (tensor<1x2x2xf32>, tensor<1x4x2xf32>) -> tensor<1x4x3xf32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.conv_general_dilated %[[ARG0]], %[[ARG2]], dims = [1, 0, 2] x [1, 0, 2] -> [1, 0, 2], strides = [1], padding = [0, 0], lhs_dilation = [1], rhs_dilation = [1], feature_group_count = 1, batch_group_count = 2 : (tensor<1x4x3xf32>, tensor<1x2x2xf32>) -> tensor<2x2x2xf32>
// CHECK-NEXT: return %[[V3]], %[[V8]], %[[V9]] : tensor<1x2x2xf32>, tensor<1x4x3xf32>, tensor<2x2x2xf32>

// CHECK-LABEL: func.func private @sum_pool_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2xf32>) -> (tensor<2xf32>, tensor<5xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.reduce_window add %[[ARG0]], window = [2], strides = [2], padding = [0, 1], base_dilation = [1], window_dilation = [1] : tensor<5xf32> -> tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.slice %[[V2]], start = [0], limit = [2], strides = [1] : tensor<3xf32> -> tensor<2xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.pad %[[ARG1]], %[[V4]], low = [0], high = [1], interior = [0] : tensor<2xf32>, tensor<f32> -> tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.pad %[[V5]], %[[V6]], low = [1], high = [0], interior = [1] : tensor<3xf32>, tensor<f32> -> tensor<6xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.reduce_window add %[[V7]], window = [2], strides = [1], padding = [0, 0], base_dilation = [1], window_dilation = [1] : tensor<6xf32> -> tensor<5xf32>
// CHECK-NEXT: return %[[V3]], %[[V8]] : tensor<2xf32>, tensor<5xf32>

// CHECK-LABEL: func.func private @max_pool_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<6xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<6xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.reduce_window max %[[ARG0]], window = [2], strides = [2], padding = [0, 0], base_dilation = [1], window_dilation = [1] : tensor<6xf32> -> tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.select_and_gather_add GE %[[ARG1]], %[[ARG0]], window = [2], strides = [2], padding = [0, 0], base_dilation = [1], window_dilation = [1] : (tensor<6xf32>, tensor<6xf32>) -> tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V3]] : tensor<3xf32>, tensor<3xf32>

// CHECK-LABEL: func.func private @max_pool_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<6xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<6xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.reduce_window max %[[ARG0]], window = [2], strides = [2], padding = [0, 0], base_dilation = [1], window_dilation = [1] : tensor<6xf32> -> tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.select_and_scatter_add GE %[[ARG1]], %[[ARG0]], window = [2], strides = [2], padding = [0, 0] : (tensor<3xf32>, tensor<6xf32>) -> tensor<6xf32>
// CHECK-NEXT: return %[[V2]], %[[V3]] : tensor<3xf32>, tensor<6xf32>

// CHECK-LABEL: func.func private @min_pool_dilated_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2xf32>) -> (tensor<2xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.reduce_window min %[[ARG0]], window = [2], strides = [2], padding = [0, 0], base_dilation = [2], window_dilation = [1] : tensor<3xf32> -> tensor<2xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.constant dense<0x7F800000> : tensor<f32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.pad %[[ARG0]], %[[V3]], low = [0], high = [0], interior = [1] : tensor<3xf32>, tensor<f32> -> tensor<5xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.select_and_scatter_add LE %[[ARG1]], %[[V4]], window = [2], strides = [2], padding = [0, 0] : (tensor<2xf32>, tensor<5xf32>) -> tensor<5xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.slice %[[V5]], start = [0], limit = [5], strides = [2] : tensor<5xf32> -> tensor<3xf32>
// CHECK-NEXT: return %[[V2]], %[[V6]] : tensor<2xf32>, tensor<3xf32>

// CHECK-LABEL: func.func private @gather_scatter_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<6xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<6xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<6xf32>,
// CHECK-SAME: %[[ARG3:[^ ,:)]*]]: tensor<6xf32>) -> (tensor<6xf32>, tensor<6xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.select_and_gather_add GE %[[ARG0]], %[[ARG1]], window = [2], strides = [2], padding = [0, 0], base_dilation = [1], window_dilation = [1] : (tensor<6xf32>, tensor<6xf32>) -> tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.select_and_gather_add GE %[[ARG2]], %[[ARG1]], window = [2], strides = [2], padding = [0, 0], base_dilation = [1], window_dilation = [1] : (tensor<6xf32>, tensor<6xf32>) -> tensor<3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.select_and_scatter_add GE %[[V4]], %[[ARG1]], window = [2], strides = [2], padding = [0, 0] : (tensor<3xf32>, tensor<6xf32>) -> tensor<6xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.select_and_scatter_add GE %[[V6]], %[[ARG1]], window = [2], strides = [2], padding = [0, 0] : (tensor<3xf32>, tensor<6xf32>) -> tensor<6xf32>
// CHECK-NEXT: return %[[V5]], %[[V7]] : tensor<6xf32>, tensor<6xf32>

// CHECK-LABEL: func.func private @gather_scatter_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<6xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<6xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<6xf32>) -> (tensor<6xf32>, tensor<6xf32>, tensor<6xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.select_and_gather_add GE %[[ARG0]], %[[ARG1]], window = [2], strides = [2], padding = [0, 0], base_dilation = [1], window_dilation = [1] : (tensor<6xf32>, tensor<6xf32>) -> tensor<3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.select_and_scatter_add GE %[[V3]], %[[ARG1]], window = [2], strides = [2], padding = [0, 0] : (tensor<3xf32>, tensor<6xf32>) -> tensor<6xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.select_and_gather_add GE %[[ARG2]], %[[ARG1]], window = [2], strides = [2], padding = [0, 0], base_dilation = [1], window_dilation = [1] : (tensor<6xf32>, tensor<6xf32>) -> tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.select_and_scatter_add GE %[[V5]], %[[ARG1]], window = [2], strides = [2], padding = [0, 0] : (tensor<3xf32>, tensor<6xf32>) -> tensor<6xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<6xf32>
// CHECK-NEXT: return %[[V4]], %[[V6]], %[[V7]] : tensor<6xf32>, tensor<6xf32>, tensor<6xf32>

func.func private @conv(%x: tensor<1x2x5xf32>, %k: tensor<3x2x2xf32>) -> tensor<1x3x2xf32> {
  %0 = mlax.conv_general_dilated %x, %k, dims = [0, 1, 2] x [0, 1, 2] -> [0, 1, 2],
      strides = [2], padding = [0, 0], lhs_dilation = [1], rhs_dilation = [1],
      feature_group_count = 1, batch_group_count = 1
      : (tensor<1x2x5xf32>, tensor<3x2x2xf32>) -> tensor<1x3x2xf32>
  return %0 : tensor<1x3x2xf32>
}
func.func @test_conv_jvp(%x: tensor<1x2x5xf32>, %k: tensor<3x2x2xf32>, %dx: tensor<1x2x5xf32>, %dk: tensor<3x2x2xf32>) -> (tensor<1x3x2xf32>, tensor<1x3x2xf32>) {
  %r:2 = mlax.jvp @conv(%x, %k) tangents(%dx, %dk) wrt = [0, 1] : (tensor<1x2x5xf32>, tensor<3x2x2xf32>, tensor<1x2x5xf32>, tensor<3x2x2xf32>) -> (tensor<1x3x2xf32>, tensor<1x3x2xf32>)
  return %r#0, %r#1 : tensor<1x3x2xf32>, tensor<1x3x2xf32>
}
func.func @test_conv_vjp(%x: tensor<1x2x5xf32>, %k: tensor<3x2x2xf32>, %c: tensor<1x3x2xf32>) -> (tensor<1x3x2xf32>, tensor<1x2x5xf32>, tensor<3x2x2xf32>) {
  %r:3 = mlax.vjp @conv(%x, %k) cotangents(%c) wrt = [0, 1] seeds = [0] : (tensor<1x2x5xf32>, tensor<3x2x2xf32>, tensor<1x3x2xf32>) -> (tensor<1x3x2xf32>, tensor<1x2x5xf32>, tensor<3x2x2xf32>)
  return %r#0, %r#1, %r#2 : tensor<1x3x2xf32>, tensor<1x2x5xf32>, tensor<3x2x2xf32>
}

func.func private @conv_grouped(%x: tensor<1x4x3xf32>, %k: tensor<2x2x2xf32>) -> tensor<1x2x2xf32> {
  %0 = mlax.conv_general_dilated %x, %k, dims = [0, 1, 2] x [0, 1, 2] -> [0, 1, 2],
      strides = [1], padding = [0, 0], lhs_dilation = [1], rhs_dilation = [1],
      feature_group_count = 2, batch_group_count = 1
      : (tensor<1x4x3xf32>, tensor<2x2x2xf32>) -> tensor<1x2x2xf32>
  return %0 : tensor<1x2x2xf32>
}
func.func @test_conv_grouped_vjp(%x: tensor<1x4x3xf32>, %k: tensor<2x2x2xf32>, %c: tensor<1x2x2xf32>) -> (tensor<1x2x2xf32>, tensor<1x4x3xf32>, tensor<2x2x2xf32>) {
  %r:3 = mlax.vjp @conv_grouped(%x, %k) cotangents(%c) wrt = [0, 1] seeds = [0] : (tensor<1x4x3xf32>, tensor<2x2x2xf32>, tensor<1x2x2xf32>) -> (tensor<1x2x2xf32>, tensor<1x4x3xf32>, tensor<2x2x2xf32>)
  return %r#0, %r#1, %r#2 : tensor<1x2x2xf32>, tensor<1x4x3xf32>, tensor<2x2x2xf32>
}

func.func private @sum_pool(%x: tensor<5xf32>) -> tensor<2xf32> {
  %0 = mlax.reduce_window add %x, window = [2], strides = [2], padding = [0, 1],
      base_dilation = [1], window_dilation = [1] : tensor<5xf32> -> tensor<3xf32>
  %1 = mlax.slice %0, start = [0], limit = [2], strides = [1] : tensor<3xf32> -> tensor<2xf32>
  return %1 : tensor<2xf32>
}
func.func @test_sum_pool_vjp(%x: tensor<5xf32>, %c: tensor<2xf32>) -> (tensor<2xf32>, tensor<5xf32>) {
  %r:2 = mlax.vjp @sum_pool(%x) cotangents(%c) wrt = [0] seeds = [0] : (tensor<5xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<5xf32>)
  return %r#0, %r#1 : tensor<2xf32>, tensor<5xf32>
}

func.func private @max_pool(%x: tensor<6xf32>) -> tensor<3xf32> {
  %0 = mlax.reduce_window max %x, window = [2], strides = [2], padding = [0, 0],
      base_dilation = [1], window_dilation = [1] : tensor<6xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_max_pool_jvp(%x: tensor<6xf32>, %t: tensor<6xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @max_pool(%x) tangents(%t) wrt = [0] : (tensor<6xf32>, tensor<6xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}
func.func @test_max_pool_vjp(%x: tensor<6xf32>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<6xf32>) {
  %r:2 = mlax.vjp @max_pool(%x) cotangents(%c) wrt = [0] seeds = [0] : (tensor<6xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<6xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<6xf32>
}

func.func private @min_pool_dilated(%x: tensor<3xf32>) -> tensor<2xf32> {
  %0 = mlax.reduce_window min %x, window = [2], strides = [2], padding = [0, 0],
      base_dilation = [2], window_dilation = [1] : tensor<3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @test_min_pool_dilated_vjp(%x: tensor<3xf32>, %c: tensor<2xf32>) -> (tensor<2xf32>, tensor<3xf32>) {
  %r:2 = mlax.vjp @min_pool_dilated(%x) cotangents(%c) wrt = [0] seeds = [0] : (tensor<3xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<2xf32>, tensor<3xf32>
}

func.func private @gather_scatter(%t: tensor<6xf32>, %x: tensor<6xf32>) -> tensor<6xf32> {
  %0 = mlax.select_and_gather_add GE %t, %x, window = [2], strides = [2], padding = [0, 0],
      base_dilation = [1], window_dilation = [1] : (tensor<6xf32>, tensor<6xf32>) -> tensor<3xf32>
  %1 = mlax.select_and_scatter_add GE %0, %x, window = [2], strides = [2], padding = [0, 0]
      : (tensor<3xf32>, tensor<6xf32>) -> tensor<6xf32>
  return %1 : tensor<6xf32>
}
func.func @test_gather_scatter_jvp(%t: tensor<6xf32>, %x: tensor<6xf32>, %dt: tensor<6xf32>, %dx: tensor<6xf32>) -> (tensor<6xf32>, tensor<6xf32>) {
  %r:2 = mlax.jvp @gather_scatter(%t, %x) tangents(%dt, %dx) wrt = [0, 1] : (tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) -> (tensor<6xf32>, tensor<6xf32>)
  return %r#0, %r#1 : tensor<6xf32>, tensor<6xf32>
}
func.func @test_gather_scatter_vjp(%t: tensor<6xf32>, %x: tensor<6xf32>, %c: tensor<6xf32>) -> (tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) {
  %r:3 = mlax.vjp @gather_scatter(%t, %x) cotangents(%c) wrt = [0, 1] seeds = [0] : (tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) -> (tensor<6xf32>, tensor<6xf32>, tensor<6xf32>)
  return %r#0, %r#1, %r#2 : tensor<6xf32>, tensor<6xf32>, tensor<6xf32>
}

// -----

// The derivatives of a `mul` window reduction (rules in
// dialects/Mlax/MlaxConvOps.cpp). jax.lax has a forward rule only; mlax lays
// the windows out as patches (the operand padded with the identity, one
// strided slice per window offset, stacked on a trailing axis) and reuses
// reduce_prod's exact rule (exclusive prefix/suffix products, so zeros in a
// window are exact). The reverse rule carries the patches' cotangent back
// through each slice's transpose (a pad) and the padding's transpose.
// Regenerate the CHECK lines with
// tools/generate-test-checks.py --only '_(jvp|vjp)$' and review them.

func.func private @prod_pool(%x: tensor<5xf32>) -> tensor<2xf32> {
  %0 = mlax.reduce_window mul %x, window = [2], strides = [2], padding = [0, 1],
      base_dilation = [1], window_dilation = [1] : tensor<5xf32> -> tensor<3xf32>
  %1 = mlax.slice %0, start = [0], limit = [2], strides = [1] : tensor<3xf32> -> tensor<2xf32>
  return %1 : tensor<2xf32>
}
func.func @test_prod_pool_jvp(%x: tensor<5xf32>, %t: tensor<5xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %r:2 = mlax.jvp @prod_pool(%x) tangents(%t) wrt = [0] : (tensor<5xf32>, tensor<5xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return %r#0, %r#1 : tensor<2xf32>, tensor<2xf32>
}
func.func @test_prod_pool_vjp(%x: tensor<5xf32>, %c: tensor<2xf32>) -> (tensor<2xf32>, tensor<5xf32>) {
  %r:2 = mlax.vjp @prod_pool(%x) cotangents(%c) wrt = [0] seeds = [0] : (tensor<5xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<5xf32>)
  return %r#0, %r#1 : tensor<2xf32>, tensor<5xf32>
}

// A single-offset window: one patch, no concatenate; base dilation holes
// hold the identity.
func.func private @prod_dilated(%x: tensor<3xf32>) -> tensor<5xf32> {
  %0 = mlax.reduce_window mul %x, window = [1], strides = [1], padding = [0, 0],
      base_dilation = [2], window_dilation = [1] : tensor<3xf32> -> tensor<5xf32>
  return %0 : tensor<5xf32>
}
func.func @test_prod_dilated_vjp(%x: tensor<3xf32>, %c: tensor<5xf32>) -> (tensor<5xf32>, tensor<3xf32>) {
  %r:2 = mlax.vjp @prod_dilated(%x) cotangents(%c) wrt = [0] seeds = [0] : (tensor<3xf32>, tensor<5xf32>) -> (tensor<5xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<5xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func private @prod_pool_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<5xf32>) -> (tensor<2xf32>, tensor<2xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.reduce_window mul %[[ARG0]], window = [2], strides = [2], padding = [0, 1], base_dilation = [1], window_dilation = [1] : tensor<5xf32> -> tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.pad %[[ARG0]], %[[V3]], low = [0], high = [1], interior = [0] : tensor<5xf32>, tensor<f32> -> tensor<6xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.slice %[[V4]], start = [0], limit = [5], strides = [2] : tensor<6xf32> -> tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.reshape %[[V5]] : tensor<3xf32> -> tensor<3x1xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.slice %[[V4]], start = [1], limit = [6], strides = [2] : tensor<6xf32> -> tensor<3xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.reshape %[[V7]] : tensor<3xf32> -> tensor<3x1xf32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.concatenate(%[[V6]], %[[V8]]) dim = 1 : (tensor<3x1xf32>, tensor<3x1xf32>) -> tensor<3x2xf32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.pad %[[ARG1]], %[[V10]], low = [0], high = [1], interior = [0] : tensor<5xf32>, tensor<f32> -> tensor<6xf32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.slice %[[V11]], start = [0], limit = [5], strides = [2] : tensor<6xf32> -> tensor<3xf32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.reshape %[[V12]] : tensor<3xf32> -> tensor<3x1xf32>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.slice %[[V11]], start = [1], limit = [6], strides = [2] : tensor<6xf32> -> tensor<3xf32>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.reshape %[[V14]] : tensor<3xf32> -> tensor<3x1xf32>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.concatenate(%[[V13]], %[[V15]]) dim = 1 : (tensor<3x1xf32>, tensor<3x1xf32>) -> tensor<3x2xf32>
// CHECK-NEXT: %[[V17:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V18:[^ ,:)]*]] = mlax.pad %[[V9]], %[[V17]], low = [0, -1], high = [0, 1], interior = [0, 0] : tensor<3x2xf32>, tensor<f32> -> tensor<3x2xf32>
// CHECK-NEXT: %[[V19:[^ ,:)]*]] = mlax.mul %[[V9]], %[[V18]] : tensor<3x2xf32>
// CHECK-NEXT: %[[V20:[^ ,:)]*]] = mlax.pad %[[V19]], %[[V17]], low = [0, -1], high = [0, 1], interior = [0, 0] : tensor<3x2xf32>, tensor<f32> -> tensor<3x2xf32>
// CHECK-NEXT: %[[V21:[^ ,:)]*]] = mlax.pad %[[V9]], %[[V17]], low = [0, 1], high = [0, -1], interior = [0, 0] : tensor<3x2xf32>, tensor<f32> -> tensor<3x2xf32>
// CHECK-NEXT: %[[V22:[^ ,:)]*]] = mlax.mul %[[V9]], %[[V21]] : tensor<3x2xf32>
// CHECK-NEXT: %[[V23:[^ ,:)]*]] = mlax.pad %[[V22]], %[[V17]], low = [0, 1], high = [0, -1], interior = [0, 0] : tensor<3x2xf32>, tensor<f32> -> tensor<3x2xf32>
// CHECK-NEXT: %[[V24:[^ ,:)]*]] = mlax.mul %[[V23]], %[[V20]] : tensor<3x2xf32>
// CHECK-NEXT: %[[V25:[^ ,:)]*]] = mlax.mul %[[V16]], %[[V24]] : tensor<3x2xf32>
// CHECK-NEXT: %[[V26:[^ ,:)]*]] = mlax.reduce_sum %[[V25]], axes = [1] : tensor<3x2xf32> -> tensor<3xf32>
// CHECK-NEXT: %[[V27:[^ ,:)]*]] = mlax.slice %[[V2]], start = [0], limit = [2], strides = [1] : tensor<3xf32> -> tensor<2xf32>
// CHECK-NEXT: %[[V28:[^ ,:)]*]] = mlax.slice %[[V26]], start = [0], limit = [2], strides = [1] : tensor<3xf32> -> tensor<2xf32>
// CHECK-NEXT: return %[[V27]], %[[V28]] : tensor<2xf32>, tensor<2xf32>

// CHECK-LABEL: func.func private @prod_pool_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2xf32>) -> (tensor<2xf32>, tensor<5xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.reduce_window mul %[[ARG0]], window = [2], strides = [2], padding = [0, 1], base_dilation = [1], window_dilation = [1] : tensor<5xf32> -> tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.slice %[[V2]], start = [0], limit = [2], strides = [1] : tensor<3xf32> -> tensor<2xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.pad %[[ARG1]], %[[V4]], low = [0], high = [1], interior = [0] : tensor<2xf32>, tensor<f32> -> tensor<3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.pad %[[ARG0]], %[[V6]], low = [0], high = [1], interior = [0] : tensor<5xf32>, tensor<f32> -> tensor<6xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.slice %[[V7]], start = [0], limit = [5], strides = [2] : tensor<6xf32> -> tensor<3xf32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.reshape %[[V8]] : tensor<3xf32> -> tensor<3x1xf32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.slice %[[V7]], start = [1], limit = [6], strides = [2] : tensor<6xf32> -> tensor<3xf32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.reshape %[[V10]] : tensor<3xf32> -> tensor<3x1xf32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.concatenate(%[[V9]], %[[V11]]) dim = 1 : (tensor<3x1xf32>, tensor<3x1xf32>) -> tensor<3x2xf32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.pad %[[V12]], %[[V13]], low = [0, -1], high = [0, 1], interior = [0, 0] : tensor<3x2xf32>, tensor<f32> -> tensor<3x2xf32>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.mul %[[V12]], %[[V14]] : tensor<3x2xf32>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.pad %[[V15]], %[[V13]], low = [0, -1], high = [0, 1], interior = [0, 0] : tensor<3x2xf32>, tensor<f32> -> tensor<3x2xf32>
// CHECK-NEXT: %[[V17:[^ ,:)]*]] = mlax.pad %[[V12]], %[[V13]], low = [0, 1], high = [0, -1], interior = [0, 0] : tensor<3x2xf32>, tensor<f32> -> tensor<3x2xf32>
// CHECK-NEXT: %[[V18:[^ ,:)]*]] = mlax.mul %[[V12]], %[[V17]] : tensor<3x2xf32>
// CHECK-NEXT: %[[V19:[^ ,:)]*]] = mlax.pad %[[V18]], %[[V13]], low = [0, 1], high = [0, -1], interior = [0, 0] : tensor<3x2xf32>, tensor<f32> -> tensor<3x2xf32>
// CHECK-NEXT: %[[V20:[^ ,:)]*]] = mlax.mul %[[V19]], %[[V16]] : tensor<3x2xf32>
// CHECK-NEXT: %[[V21:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V5]], dims = [0] : tensor<3xf32> -> tensor<3x2xf32>
// CHECK-NEXT: %[[V22:[^ ,:)]*]] = mlax.mul %[[V21]], %[[V20]] : tensor<3x2xf32>
// CHECK-NEXT: %[[V23:[^ ,:)]*]] = mlax.slice %[[V22]], start = [0, 0], limit = [3, 1], strides = [1, 1] : tensor<3x2xf32> -> tensor<3x1xf32>
// CHECK-NEXT: %[[V24:[^ ,:)]*]] = mlax.reshape %[[V23]] : tensor<3x1xf32> -> tensor<3xf32>
// CHECK-NEXT: %[[V25:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V26:[^ ,:)]*]] = mlax.pad %[[V24]], %[[V25]], low = [0], high = [1], interior = [1] : tensor<3xf32>, tensor<f32> -> tensor<6xf32>
// CHECK-NEXT: %[[V27:[^ ,:)]*]] = mlax.slice %[[V22]], start = [0, 1], limit = [3, 2], strides = [1, 1] : tensor<3x2xf32> -> tensor<3x1xf32>
// CHECK-NEXT: %[[V28:[^ ,:)]*]] = mlax.reshape %[[V27]] : tensor<3x1xf32> -> tensor<3xf32>
// CHECK-NEXT: %[[V29:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V30:[^ ,:)]*]] = mlax.pad %[[V28]], %[[V29]], low = [1], high = [0], interior = [1] : tensor<3xf32>, tensor<f32> -> tensor<6xf32>
// CHECK-NEXT: %[[V31:[^ ,:)]*]] = mlax.add %[[V26]], %[[V30]] : tensor<6xf32>
// CHECK-NEXT: %[[V32:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V33:[^ ,:)]*]] = mlax.pad %[[V31]], %[[V32]], low = [0], high = [-1], interior = [0] : tensor<6xf32>, tensor<f32> -> tensor<5xf32>
// CHECK-NEXT: %[[V34:[^ ,:)]*]] = mlax.slice %[[V33]], start = [0], limit = [5], strides = [1] : tensor<5xf32> -> tensor<5xf32>
// CHECK-NEXT: %[[V35:[^ ,:)]*]] = mlax.reduce_sum %[[V31]], axes = [0] : tensor<6xf32> -> tensor<f32>
// CHECK-NEXT: %[[V36:[^ ,:)]*]] = mlax.reduce_sum %[[V34]], axes = [0] : tensor<5xf32> -> tensor<f32>
// CHECK-NEXT: %[[V37:[^ ,:)]*]] = mlax.sub %[[V35]], %[[V36]] : tensor<f32>
// CHECK-NEXT: return %[[V3]], %[[V34]] : tensor<2xf32>, tensor<5xf32>

// CHECK-LABEL: func.func @test_prod_pool_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<5xf32>) -> (tensor<2xf32>, tensor<2xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]]:2 = mlax.call @prod_pool_jvp(%[[ARG0]], %[[ARG1]]) : (tensor<5xf32>, tensor<5xf32>) -> (tensor<2xf32>, tensor<2xf32>)
// CHECK-NEXT: return %[[V2]]#0, %[[V2]]#1 : tensor<2xf32>, tensor<2xf32>

// CHECK-LABEL: func.func @test_prod_pool_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2xf32>) -> (tensor<2xf32>, tensor<5xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]]:2 = mlax.call @prod_pool_vjp(%[[ARG0]], %[[ARG1]]) : (tensor<5xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<5xf32>)
// CHECK-NEXT: return %[[V2]]#0, %[[V2]]#1 : tensor<2xf32>, tensor<5xf32>

// CHECK-LABEL: func.func private @prod_dilated_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<5xf32>) -> (tensor<5xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.reduce_window mul %[[ARG0]], window = [1], strides = [1], padding = [0, 0], base_dilation = [2], window_dilation = [1] : tensor<3xf32> -> tensor<5xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.pad %[[ARG0]], %[[V3]], low = [0], high = [0], interior = [1] : tensor<3xf32>, tensor<f32> -> tensor<5xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.slice %[[V4]], start = [0], limit = [5], strides = [1] : tensor<5xf32> -> tensor<5xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.reshape %[[V5]] : tensor<5xf32> -> tensor<5x1xf32>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.constant dense<1.000000e+00> : tensor<5x1xf32>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.broadcast_in_dim %[[ARG1]], dims = [0] : tensor<5xf32> -> tensor<5x1xf32>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.mul %[[V9]], %[[V8]] : tensor<5x1xf32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.slice %[[V10]], start = [0, 0], limit = [5, 1], strides = [1, 1] : tensor<5x1xf32> -> tensor<5x1xf32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.reshape %[[V11]] : tensor<5x1xf32> -> tensor<5xf32>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V14:[^ ,:)]*]] = mlax.pad %[[V12]], %[[V13]], low = [0], high = [0], interior = [0] : tensor<5xf32>, tensor<f32> -> tensor<5xf32>
// CHECK-NEXT: %[[V15:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V16:[^ ,:)]*]] = mlax.pad %[[V14]], %[[V15]], low = [0], high = [0], interior = [0] : tensor<5xf32>, tensor<f32> -> tensor<5xf32>
// CHECK-NEXT: %[[V17:[^ ,:)]*]] = mlax.slice %[[V16]], start = [0], limit = [5], strides = [2] : tensor<5xf32> -> tensor<3xf32>
// CHECK-NEXT: %[[V18:[^ ,:)]*]] = mlax.reduce_sum %[[V14]], axes = [0] : tensor<5xf32> -> tensor<f32>
// CHECK-NEXT: %[[V19:[^ ,:)]*]] = mlax.reduce_sum %[[V17]], axes = [0] : tensor<3xf32> -> tensor<f32>
// CHECK-NEXT: %[[V20:[^ ,:)]*]] = mlax.sub %[[V18]], %[[V19]] : tensor<f32>
// CHECK-NEXT: return %[[V2]], %[[V17]] : tensor<5xf32>, tensor<3xf32>

// CHECK-LABEL: func.func @test_prod_dilated_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<5xf32>) -> (tensor<5xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]]:2 = mlax.call @prod_dilated_vjp(%[[ARG0]], %[[ARG1]]) : (tensor<3xf32>, tensor<5xf32>) -> (tensor<5xf32>, tensor<3xf32>)
// CHECK-NEXT: return %[[V2]]#0, %[[V2]]#1 : tensor<5xf32>, tensor<3xf32>

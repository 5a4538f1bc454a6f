// RUN: mlax-opt %s --mlax-vectorize | FileCheck %s

// The batched functions mlax-vectorize generates for the ops of
// MlaxMathOps.td that are not elementwise (rules in
// dialects/Mlax/MlaxMathOps.cpp), plus one elementwise op. The first listed
// operands are batched along axis 0, the others are not (in_axes -1).
// Regenerate the CHECK lines with tools/generate-test-checks.py --only
// '_vmap$' and review them.

// CHECK-LABEL: func.func private @sinh_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.sinh %[[ARG0]] : tensor<5x3xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x3xf32>

func.func private @sinh(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.sinh %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_sinh(%a0: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %r = mlax.vmap @sinh(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// A scalar bound that is not batched stays a scalar.
// CHECK-LABEL: func.func private @clamp_scalar_bounds_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x2x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<f32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<f32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.clamp %[[ARG1]], %[[ARG0]], %[[ARG2]] : tensor<f32>, tensor<5x2x3xf32>, tensor<f32>
// CHECK-NEXT: return %[[V3]] : tensor<5x2x3xf32>

func.func private @clamp_scalar_bounds(%x: tensor<2x3xf32>, %lo: tensor<f32>, %hi: tensor<f32>) -> tensor<2x3xf32> {
  %0 = mlax.clamp %lo, %x, %hi : tensor<f32>, tensor<2x3xf32>, tensor<f32>
  return %0 : tensor<2x3xf32>
}
func.func @test_clamp_scalar_bounds(%x: tensor<5x2x3xf32>, %lo: tensor<f32>, %hi: tensor<f32>) -> tensor<5x2x3xf32> {
  %r = mlax.vmap @clamp_scalar_bounds(%x, %lo, %hi) in_axes = [0, -1, -1] out_axes = [0] size = 5 : (tensor<5x2x3xf32>, tensor<f32>, tensor<f32>) -> tensor<5x2x3xf32>
  return %r : tensor<5x2x3xf32>
}

// A batched scalar bound is broadcast to the batched operand's shape; an
// unbatched operand is broadcast along the batch.
// CHECK-LABEL: func.func private @clamp_batched_bound_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.broadcast_in_dim %[[ARG1]], dims = [1] : tensor<3xf32> -> tensor<5x3xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.broadcast_in_dim %[[ARG0]], dims = [0] : tensor<5xf32> -> tensor<5x3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.broadcast_in_dim %[[ARG2]], dims = [1] : tensor<3xf32> -> tensor<5x3xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.clamp %[[V4]], %[[V3]], %[[V5]] : tensor<5x3xf32>, tensor<5x3xf32>, tensor<5x3xf32>
// CHECK-NEXT: return %[[V6]] : tensor<5x3xf32>

func.func private @clamp_batched_bound(%lo: tensor<f32>, %x: tensor<3xf32>, %hi: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.clamp %lo, %x, %hi : tensor<f32>, tensor<3xf32>, tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_clamp_batched_bound(%lo: tensor<5xf32>, %x: tensor<3xf32>, %hi: tensor<3xf32>) -> tensor<5x3xf32> {
  %r = mlax.vmap @clamp_batched_bound(%lo, %x, %hi) in_axes = [0, -1, -1] out_axes = [0] size = 5 : (tensor<5xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// CHECK-LABEL: func.func private @top_k_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x2x4xf32>) -> (tensor<5x2x3xf32>, tensor<5x2x3xi32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]], %[[V2:[^ ,:)]*]] = mlax.top_k %[[ARG0]], k = 3 : tensor<5x2x4xf32> -> tensor<5x2x3xf32>, tensor<5x2x3xi32>
// CHECK-NEXT: return %[[V1]], %[[V2]] : tensor<5x2x3xf32>, tensor<5x2x3xi32>

func.func private @top_k(%a0: tensor<2x4xf32>) -> (tensor<2x3xf32>, tensor<2x3xi32>) {
  %v, %i = mlax.top_k %a0, k = 3 : tensor<2x4xf32> -> tensor<2x3xf32>, tensor<2x3xi32>
  return %v, %i : tensor<2x3xf32>, tensor<2x3xi32>
}
func.func @test_top_k(%a0: tensor<5x2x4xf32>) -> (tensor<5x2x3xf32>, tensor<5x2x3xi32>) {
  %r:2 = mlax.vmap @top_k(%a0) in_axes = [0] out_axes = [0, 0] size = 5 : (tensor<5x2x4xf32>) -> (tensor<5x2x3xf32>, tensor<5x2x3xi32>)
  return %r#0, %r#1 : tensor<5x2x3xf32>, tensor<5x2x3xi32>
}

// CHECK-LABEL: func.func private @cumprod_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x2x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.cumprod %[[ARG0]], axis = 2 : tensor<5x2x3xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x2x3xf32>

func.func private @cumprod(%a0: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = mlax.cumprod %a0, axis = 1 : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @test_cumprod(%a0: tensor<5x2x3xf32>) -> tensor<5x2x3xf32> {
  %r = mlax.vmap @cumprod(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x2x3xf32>) -> tensor<5x2x3xf32>
  return %r : tensor<5x2x3xf32>
}

// CHECK-LABEL: func.func private @cummax_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x2x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.cummax %[[ARG0]], axis = 1 reverse : tensor<5x2x3xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x2x3xf32>

func.func private @cummax(%a0: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = mlax.cummax %a0, axis = 0 reverse : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @test_cummax(%a0: tensor<5x2x3xf32>) -> tensor<5x2x3xf32> {
  %r = mlax.vmap @cummax(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x2x3xf32>) -> tensor<5x2x3xf32>
  return %r : tensor<5x2x3xf32>
}

// CHECK-LABEL: func.func private @cummin_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xi32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.cummin %[[ARG0]], axis = 1 : tensor<5x3xi32>
// CHECK-NEXT: return %[[V1]] : tensor<5x3xi32>

func.func private @cummin(%a0: tensor<3xi32>) -> tensor<3xi32> {
  %0 = mlax.cummin %a0, axis = 0 : tensor<3xi32>
  return %0 : tensor<3xi32>
}
func.func @test_cummin(%a0: tensor<5x3xi32>) -> tensor<5x3xi32> {
  %r = mlax.vmap @cummin(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x3xi32>) -> tensor<5x3xi32>
  return %r : tensor<5x3xi32>
}

// CHECK-LABEL: func.func private @cumlogsumexp_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.cumlogsumexp %[[ARG0]], axis = 1 reverse : tensor<5x3xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x3xf32>

func.func private @cumlogsumexp(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.cumlogsumexp %a0, axis = 0 reverse : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_cumlogsumexp(%a0: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %r = mlax.vmap @cumlogsumexp(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// CHECK-LABEL: func.func private @cumsum_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x2x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.cumsum %[[ARG0]], axis = 2 : tensor<5x2x3xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x2x3xf32>
func.func private @cumsum(%a0: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = mlax.cumsum %a0, axis = 1 : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @test_cumsum(%a0: tensor<5x2x3xf32>) -> tensor<5x2x3xf32> {
  %r = mlax.vmap @cumsum(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x2x3xf32>) -> tensor<5x2x3xf32>
  return %r : tensor<5x2x3xf32>
}

// CHECK-LABEL: func.func private @sort_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.sort %[[ARG0]] {dimension = 1 : i64, is_stable = true, num_keys = 1 : i64} : (tensor<5x3xf32>) -> tensor<5x3xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x3xf32>
func.func private @sort(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.sort %a0 {dimension = 0 : i64, is_stable = true, num_keys = 1 : i64} : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_sort(%a0: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %r = mlax.vmap @sort(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// RUN: mlax-opt %s --mlax-vectorize | FileCheck %s

// The batched function mlax-vectorize generates for the reduction ops (moved
// from ops.mlir). The first listed operands are batched along axis 0, the
// others are not (in_axes -1). Regenerate the CHECK lines with
// tools/generate-test-checks.py --only '_vmap$' and review them.

// CHECK-LABEL: func.func private @reduce_sum_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x2x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.reduce_sum %[[ARG0]], axes = [2] : tensor<5x2x3xf32> -> tensor<5x2xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x2xf32>
func.func private @reduce_sum(%a0: tensor<2x3xf32>) -> tensor<2xf32> {
  %0 = mlax.reduce_sum %a0, axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @test_reduce_sum(%a0: tensor<5x2x3xf32>) -> tensor<5x2xf32> {
  %r = mlax.vmap @reduce_sum(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x2x3xf32>) -> tensor<5x2xf32>
  return %r : tensor<5x2xf32>
}

// CHECK-LABEL: func.func private @reduce_prod_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x2x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.reduce_prod %[[ARG0]], axes = [2] : tensor<5x2x3xf32> -> tensor<5x2xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x2xf32>
func.func private @reduce_prod(%a0: tensor<2x3xf32>) -> tensor<2xf32> {
  %0 = mlax.reduce_prod %a0, axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @test_reduce_prod(%a0: tensor<5x2x3xf32>) -> tensor<5x2xf32> {
  %r = mlax.vmap @reduce_prod(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x2x3xf32>) -> tensor<5x2xf32>
  return %r : tensor<5x2xf32>
}

// CHECK-LABEL: func.func private @reduce_max_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x2x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.reduce_max %[[ARG0]], axes = [2] : tensor<5x2x3xf32> -> tensor<5x2xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x2xf32>
func.func private @reduce_max(%a0: tensor<2x3xf32>) -> tensor<2xf32> {
  %0 = mlax.reduce_max %a0, axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @test_reduce_max(%a0: tensor<5x2x3xf32>) -> tensor<5x2xf32> {
  %r = mlax.vmap @reduce_max(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x2x3xf32>) -> tensor<5x2xf32>
  return %r : tensor<5x2xf32>
}

// CHECK-LABEL: func.func private @reduce_min_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x2x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.reduce_min %[[ARG0]], axes = [2] : tensor<5x2x3xf32> -> tensor<5x2xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x2xf32>
func.func private @reduce_min(%a0: tensor<2x3xf32>) -> tensor<2xf32> {
  %0 = mlax.reduce_min %a0, axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @test_reduce_min(%a0: tensor<5x2x3xf32>) -> tensor<5x2xf32> {
  %r = mlax.vmap @reduce_min(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x2x3xf32>) -> tensor<5x2xf32>
  return %r : tensor<5x2xf32>
}

// reduce (general): the same reduce over shifted dimensions, the body
// unchanged; an unbatched operand is broadcast along the batch.
// CHECK-LABEL: func.func private @reduce_general_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x2x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<2x3xi32>) -> (tensor<5x2xf32>, tensor<5x2xi32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.constant dense<0xFF800000> : tensor<f32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.constant dense<0> : tensor<i32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.broadcast_in_dim %[[ARG1]], dims = [1, 2] : tensor<2x3xi32> -> tensor<5x2x3xi32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]]:2 = mlax.reduce(%[[ARG0]], %[[V4]]) init(%[[V2]], %[[V3]]) dimensions = [2] : (tensor<5x2x3xf32>, tensor<5x2x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<5x2xf32>, tensor<5x2xi32>) {
// CHECK-NEXT: ^bb0(%[[ARG6:[^ ,:)]*]]: tensor<f32>, %[[ARG7:[^ ,:)]*]]: tensor<i32>, %[[ARG8:[^ ,:)]*]]: tensor<f32>, %[[ARG9:[^ ,:)]*]]: tensor<i32>):
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.compare LT, %[[ARG6]], %[[ARG8]] : tensor<f32>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.select_n %[[V10]], %[[ARG6]], %[[ARG8]] : tensor<i1>, tensor<f32>, tensor<f32>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.select_n %[[V10]], %[[ARG7]], %[[ARG9]] : tensor<i1>, tensor<i32>, tensor<i32>
// CHECK-NEXT: mlax.yield %[[V11]], %[[V12]] : tensor<f32>, tensor<i32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[V5]]#0, %[[V5]]#1 : tensor<5x2xf32>, tensor<5x2xi32>
func.func private @reduce_general(%a0: tensor<2x3xf32>, %a1: tensor<2x3xi32>) -> (tensor<2xf32>, tensor<2xi32>) {
  %c = mlax.constant dense<0xFF800000> : tensor<f32>
  %z = mlax.constant dense<0> : tensor<i32>
  %r:2 = mlax.reduce(%a0, %a1) init(%c, %z) dimensions = [1]
      : (tensor<2x3xf32>, tensor<2x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>) {
  ^bb0(%p: tensor<f32>, %pi: tensor<i32>, %q: tensor<f32>, %qi: tensor<i32>):
    %lt = mlax.compare LT, %p, %q : tensor<f32>
    %m = mlax.select_n %lt, %p, %q : tensor<i1>, tensor<f32>, tensor<f32>
    %j = mlax.select_n %lt, %pi, %qi : tensor<i1>, tensor<i32>, tensor<i32>
    mlax.yield %m, %j : tensor<f32>, tensor<i32>
  }
  return %r#0, %r#1 : tensor<2xf32>, tensor<2xi32>
}
func.func @test_reduce_general(%a0: tensor<5x2x3xf32>, %a1: tensor<2x3xi32>) -> (tensor<5x2xf32>, tensor<5x2xi32>) {
  %r:2 = mlax.vmap @reduce_general(%a0, %a1) in_axes = [0, -1] out_axes = [0, 0] size = 5 : (tensor<5x2x3xf32>, tensor<2x3xi32>) -> (tensor<5x2xf32>, tensor<5x2xi32>)
  return %r#0, %r#1 : tensor<5x2xf32>, tensor<5x2xi32>
}

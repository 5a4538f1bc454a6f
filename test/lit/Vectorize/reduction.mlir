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

// RUN: mlax-opt %s --mlax-vectorize | FileCheck %s

// The batching rule of mlax.rng_bit_generator (MlaxRandomOps.cpp), jax's:
// the first key of the batch draws bits of shape (batch, *shape), and the
// new keys are the old ones with the first replaced by its successor.

// CHECK-LABEL: func.func private @draw_vmap(
// CHECK-SAME: %[[KS:[^ ,:)]*]]: tensor<3x4xui32>) -> (tensor<3x4xui32>, tensor<3x2xui8>)
// CHECK: %[[FIRST:.*]] = mlax.slice %[[KS]], start = [0, 0], limit = [1, 4], strides = [1, 1]
// CHECK: %[[K:.*]] = mlax.reshape %[[FIRST]] : tensor<1x4xui32> -> tensor<4xui32>
// CHECK: %[[NK:.*]], %[[BITS:.*]] = mlax.rng_bit_generator THREE_FRY %[[K]] : tensor<4xui32> -> tensor<3x2xui8>
// CHECK: %[[ROW:.*]] = mlax.reshape %[[NK]] : tensor<4xui32> -> tensor<1x4xui32>
// CHECK: %[[REST:.*]] = mlax.slice %[[KS]], start = [1, 0], limit = [3, 4], strides = [1, 1]
// CHECK: %[[NKS:.*]] = mlax.concatenate(%[[ROW]], %[[REST]]) dim = 0
// CHECK: return %[[NKS]], %[[BITS]]
func.func private @draw(%k: tensor<4xui32>) -> (tensor<4xui32>, tensor<2xui8>) {
  %nk, %bits = mlax.rng_bit_generator THREE_FRY %k : tensor<4xui32> -> tensor<2xui8>
  return %nk, %bits : tensor<4xui32>, tensor<2xui8>
}
func.func @test_draw(%ks: tensor<3x4xui32>) -> (tensor<3x4xui32>, tensor<3x2xui8>) {
  %r:2 = mlax.vmap @draw(%ks) in_axes = [0] out_axes = [0, 0] size = 3 : (tensor<3x4xui32>) -> (tensor<3x4xui32>, tensor<3x2xui8>)
  return %r#0, %r#1 : tensor<3x4xui32>, tensor<3x2xui8>
}

// A batch of one: the new keys are the first key's successor alone.
// CHECK-LABEL: func.func private @single_vmap(
// CHECK: mlax.rng_bit_generator DEFAULT %{{.*}} : tensor<4xui32> -> tensor<1x5xui32>
// CHECK-NOT: mlax.concatenate
// CHECK: return
func.func private @single(%k: tensor<4xui32>) -> tensor<5xui32> {
  %nk, %bits = mlax.rng_bit_generator DEFAULT %k : tensor<4xui32> -> tensor<5xui32>
  return %bits : tensor<5xui32>
}
func.func @test_single(%ks: tensor<1x4xui32>) -> tensor<1x5xui32> {
  %r = mlax.vmap @single(%ks) in_axes = [0] out_axes = [0] size = 1 : (tensor<1x4xui32>) -> tensor<1x5xui32>
  return %r : tensor<1x5xui32>
}

// mlax.rng_uniform with unbatched bounds is copied once into the batched
// function and its one draw broadcast over the batch, as JAX's vmap gives
// (random-errors.mlir: batched bounds).

// CHECK-LABEL: func.func private @f_vmap(
// CHECK-SAME: %[[XS:[^ ,:]*]]: tensor<2x3xf32>, %[[A:[^ ,:]*]]: tensor<f32>)
// CHECK: %[[R:.*]] = mlax.rng_uniform %[[A]], %[[A]] : tensor<f32> -> tensor<3xf32>
// CHECK-NOT: mlax.rng_uniform
// CHECK: %[[RB:.*]] = mlax.broadcast_in_dim %[[R]]
// CHECK: mlax.add %[[XS]], %[[RB]]
func.func private @f(%x: tensor<3xf32>, %a: tensor<f32>) -> tensor<3xf32> {
  %r = mlax.rng_uniform %a, %a : tensor<f32> -> tensor<3xf32>
  %y = mlax.add %x, %r : tensor<3xf32>
  return %y : tensor<3xf32>
}
func.func @unbatched_bound(%xs: tensor<2x3xf32>, %a: tensor<f32>) -> tensor<2x3xf32> {
  %r = mlax.vmap @f(%xs, %a) in_axes = [0, -1] out_axes = [0] size = 2 : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

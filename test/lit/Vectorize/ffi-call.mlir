// Batching mlax.ffi_call by vmap_method (jax/_src/ffi.py ffi_batching_rule):
// "sequential" loops over the batch in an mlax.scan (unbatched operands its
// consts), "sequential_unrolled" makes one call per element; "expand_dims"
// / "broadcast_all" make one call on the batch with unbatched operands given
// a leading dimension of size 1 / the batch size, "legacy_vectorized" one
// call with them as they are. A call on the whole batch puts the new
// dimension slowest in every layout of a batched operand and result.
//
// RUN: mlax-opt %s --split-input-file --mlax-vectorize | FileCheck %s

func.func private @seq(%x: tensor<2xf32>, %s: tensor<f32>) -> tensor<f32> {
  %y = mlax.ffi_call "t"(%x, %s) {backend_config = {k = 1 : i64}, vmap_method = "sequential"} : (tensor<2xf32>, tensor<f32>) -> tensor<f32>
  return %y : tensor<f32>
}
// CHECK-LABEL: func.func private @seq_vmap(
// CHECK-SAME: %[[XS:[^ ,:)]*]]: tensor<3x2xf32>, %[[S:[^ ,:)]*]]: tensor<f32>
// CHECK: %[[R:.*]] = mlax.scan init() xs(%[[XS]]) consts(%[[S]]) length = 3 : (tensor<3x2xf32>, tensor<f32>) -> tensor<3xf32> {
// CHECK-NEXT: ^bb0(%[[X:.*]]: tensor<2xf32>, %[[C:.*]]: tensor<f32>):
// CHECK-NEXT: %[[Y:.*]] = mlax.ffi_call "t"(%[[X]], %[[C]]) {backend_config = {k = 1 : i64}, vmap_method = "sequential"} : (tensor<2xf32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: mlax.yield %[[Y]] : tensor<f32>
// CHECK: return %[[R]] : tensor<3xf32>
func.func @test_seq(%xs: tensor<3x2xf32>, %s: tensor<f32>) -> tensor<3xf32> {
  %r = mlax.vmap @seq(%xs, %s) in_axes = [0, -1] out_axes = [0] size = 3 : (tensor<3x2xf32>, tensor<f32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

func.func private @unrolled(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = mlax.ffi_call "t"(%x) {has_side_effect, vmap_method = "sequential_unrolled"} : (tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}
// CHECK-LABEL: func.func private @unrolled_vmap(
// CHECK-COUNT-3: mlax.ffi_call "t"(%{{.*}}) {has_side_effect, vmap_method = "sequential_unrolled"} : (tensor<2xf32>) -> tensor<2xf32>
// CHECK: mlax.concatenate({{.*}}) dim = 0 : (tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<3x2xf32>
func.func @test_unrolled(%xs: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %r = mlax.vmap @unrolled(%xs) in_axes = [0] out_axes = [0] size = 3 : (tensor<3x2xf32>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}

// -----

func.func private @expand(%x: tensor<2x3xf32>, %s: tensor<5xf32>) -> tensor<2x3xf32> {
  %y = mlax.ffi_call "t"(%x, %s) {operand_layouts = [array<i64: 0, 1>, array<i64: 0>], result_layouts = [array<i64: 1, 0>], vmap_method = "expand_dims"} : (tensor<2x3xf32>, tensor<5xf32>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}
// CHECK-LABEL: func.func private @expand_vmap(
// CHECK: %[[S1:.*]] = mlax.reshape %{{.*}} : tensor<5xf32> -> tensor<1x5xf32>
// CHECK: mlax.ffi_call "t"(%{{.*}}, %[[S1]]) {operand_layouts = [array<i64: 1, 2, 0>, array<i64: 1, 0>], result_layouts = [array<i64: 2, 1, 0>], vmap_method = "expand_dims"} : (tensor<4x2x3xf32>, tensor<1x5xf32>) -> tensor<4x2x3xf32>
func.func @test_expand(%xs: tensor<4x2x3xf32>, %s: tensor<5xf32>) -> tensor<4x2x3xf32> {
  %r = mlax.vmap @expand(%xs, %s) in_axes = [0, -1] out_axes = [0] size = 4 : (tensor<4x2x3xf32>, tensor<5xf32>) -> tensor<4x2x3xf32>
  return %r : tensor<4x2x3xf32>
}

// -----

func.func private @bcast(%x: tensor<2xf32>, %s: tensor<f32>) -> tensor<2xf32> {
  %y = mlax.ffi_call "t"(%x, %s) {vmap_method = "broadcast_all"} : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}
// CHECK-LABEL: func.func private @bcast_vmap(
// CHECK: mlax.ffi_call "t"(%{{.*}}, %{{.*}}) {vmap_method = "broadcast_all"} : (tensor<4x2xf32>, tensor<4xf32>) -> tensor<4x2xf32>
func.func @test_bcast(%xs: tensor<4x2xf32>, %s: tensor<f32>) -> tensor<4x2xf32> {
  %r = mlax.vmap @bcast(%xs, %s) in_axes = [0, -1] out_axes = [0] size = 4 : (tensor<4x2xf32>, tensor<f32>) -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}

// -----

func.func private @legacy(%x: tensor<2xf32>, %s: tensor<3xf32>) -> tensor<2xf32> {
  %y = mlax.ffi_call "t"(%x, %s) {operand_layouts = [array<i64: 0>, array<i64: 0>], result_layouts = [array<i64: 0>], vmap_method = "legacy_vectorized"} : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}
// CHECK-LABEL: func.func private @legacy_vmap(
// CHECK-SAME: %[[XS:[^ ,:)]*]]: tensor<4x2xf32>, %[[S:[^ ,:)]*]]: tensor<3xf32>
// CHECK: mlax.ffi_call "t"(%[[XS]], %[[S]]) {operand_layouts = [array<i64: 1, 0>, array<i64: 0>], result_layouts = [array<i64: 1, 0>], vmap_method = "legacy_vectorized"} : (tensor<4x2xf32>, tensor<3xf32>) -> tensor<4x2xf32>
func.func @test_legacy(%xs: tensor<4x2xf32>, %s: tensor<3xf32>) -> tensor<4x2xf32> {
  %r = mlax.vmap @legacy(%xs, %s) in_axes = [0, -1] out_axes = [0] size = 4 : (tensor<4x2xf32>, tensor<3xf32>) -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}

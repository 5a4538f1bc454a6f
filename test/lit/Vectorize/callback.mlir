// Batching mlax.host_callback: debug callbacks, and pure ones with
// vmap_method "sequential_unrolled", are called once per batch element,
// unrolled (JAX's debug_batching_rule); pure "sequential" and io callbacks
// loop over the batch in an mlax.scan (JAX's lax.map); "expand_dims" /
// "broadcast_all" make one call on the batch, with unbatched operands given a
// leading dimension of size 1 or of the batch size.
//
// RUN: mlax-opt %s --split-input-file --mlax-vectorize | FileCheck %s

func.func private @debug(%x: tensor<2xf32>, %s: tensor<f32>) -> tensor<2xf32> {
  mlax.host_callback %x, %s {callback = 0 : i64, kind = "debug"} : (tensor<2xf32>, tensor<f32>) -> ()
  return %x : tensor<2xf32>
}
// CHECK-LABEL: func.func private @debug_vmap(
// CHECK-SAME: %[[X:[^ ,:)]*]]: tensor<3x2xf32>, %[[S:[^ ,:)]*]]: tensor<f32>
// CHECK-COUNT-3: mlax.host_callback %{{.*}}, %[[S]] {callback = 0 : i64, kind = "debug"} : (tensor<2xf32>, tensor<f32>) -> ()
// CHECK-NEXT: return %{{.*}} : tensor<3x2xf32>
func.func @test_debug(%xs: tensor<3x2xf32>, %s: tensor<f32>) -> tensor<3x2xf32> {
  %r = mlax.vmap @debug(%xs, %s) in_axes = [0, -1] out_axes = [0] size = 3 : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}

// -----

func.func private @seq(%x: tensor<2xf32>, %s: tensor<f32>) -> tensor<f32> {
  %y = mlax.host_callback %x, %s {callback = 0 : i64, kind = "pure", vmap_method = "sequential"} : (tensor<2xf32>, tensor<f32>) -> tensor<f32>
  return %y : tensor<f32>
}
// CHECK-LABEL: func.func private @seq_vmap(
// CHECK-SAME: %[[XS:[^ ,:)]*]]: tensor<2x2xf32>, %[[S:[^ ,:)]*]]: tensor<f32>
// CHECK: %[[R:.*]] = mlax.scan init() xs(%[[XS]]) consts(%[[S]]) length = 2 : (tensor<2x2xf32>, tensor<f32>) -> tensor<2xf32> {
// CHECK-NEXT: ^bb0(%[[X:.*]]: tensor<2xf32>, %[[C:.*]]: tensor<f32>):
// CHECK-NEXT: %[[Y:.*]] = mlax.host_callback %[[X]], %[[C]] {callback = 0 : i64, kind = "pure", vmap_method = "sequential"} : (tensor<2xf32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: mlax.yield %[[Y]] : tensor<f32>
// CHECK: return %[[R]] : tensor<2xf32>
func.func @test_seq(%xs: tensor<2x2xf32>, %s: tensor<f32>) -> tensor<2xf32> {
  %r = mlax.vmap @seq(%xs, %s) in_axes = [0, -1] out_axes = [0] size = 2 : (tensor<2x2xf32>, tensor<f32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

func.func private @unrolled(%x: tensor<2xf32>) -> tensor<f32> {
  %y = mlax.host_callback %x {callback = 0 : i64, kind = "pure", vmap_method = "sequential_unrolled"} : (tensor<2xf32>) -> tensor<f32>
  return %y : tensor<f32>
}
// CHECK-LABEL: func.func private @unrolled_vmap(
// CHECK-COUNT-2: mlax.host_callback %{{.*}} {callback = 0 : i64, kind = "pure", vmap_method = "sequential_unrolled"} : (tensor<2xf32>) -> tensor<f32>
// CHECK: mlax.concatenate({{.*}}) dim = 0 : (tensor<1xf32>, tensor<1xf32>) -> tensor<2xf32>
func.func @test_unrolled(%xs: tensor<2x2xf32>) -> tensor<2xf32> {
  %r = mlax.vmap @unrolled(%xs) in_axes = [0] out_axes = [0] size = 2 : (tensor<2x2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

func.func private @expand(%x: tensor<2xf32>, %s: tensor<f32>) -> tensor<2xf32> {
  %y = mlax.host_callback %x, %s {callback = 0 : i64, kind = "pure", vmap_method = "expand_dims"} : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}
// CHECK-LABEL: func.func private @expand_vmap(
// CHECK: %[[S1:.*]] = mlax.reshape %{{.*}} : tensor<f32> -> tensor<1xf32>
// CHECK: mlax.host_callback %{{.*}}, %[[S1]] {callback = 0 : i64, kind = "pure", vmap_method = "expand_dims"} : (tensor<4x2xf32>, tensor<1xf32>) -> tensor<4x2xf32>
func.func @test_expand(%xs: tensor<4x2xf32>, %s: tensor<f32>) -> tensor<4x2xf32> {
  %r = mlax.vmap @expand(%xs, %s) in_axes = [0, -1] out_axes = [0] size = 4 : (tensor<4x2xf32>, tensor<f32>) -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}

// -----

func.func private @bcast(%x: tensor<2xf32>, %s: tensor<f32>) -> tensor<2xf32> {
  %y = mlax.host_callback %x, %s {callback = 0 : i64, kind = "pure", vmap_method = "broadcast_all"} : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}
// CHECK-LABEL: func.func private @bcast_vmap(
// CHECK: mlax.host_callback %{{.*}}, %{{.*}} {callback = 0 : i64, kind = "pure", vmap_method = "broadcast_all"} : (tensor<4x2xf32>, tensor<4xf32>) -> tensor<4x2xf32>
func.func @test_bcast(%xs: tensor<4x2xf32>, %s: tensor<f32>) -> tensor<4x2xf32> {
  %r = mlax.vmap @bcast(%xs, %s) in_axes = [0, -1] out_axes = [0] size = 4 : (tensor<4x2xf32>, tensor<f32>) -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}

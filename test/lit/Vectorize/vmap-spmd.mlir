// RUN: mlax-opt %s --split-input-file --mlax-vectorize | FileCheck %s

// vmap(spmd_axis_name=...): a batched sharding_constraint splits the batch
// dimension (in front) over the spmd axes (JAX's
// _sharding_constraint_batcher); without them it stays replicated.

// CHECK-LABEL: func.func private @f_vmap(
// CHECK-SAME: %[[X:[^ ,:)]*]]: tensor<8x3x4xf32>)
// CHECK-NEXT: %[[S:.*]] = mlax.sin %[[X]]
// CHECK-NEXT: %[[C:.*]] = mlax.sharding_constraint %[[S]] {sharding = #mlax.sharding<["data"=4, "model"=2], [{"data"}, {}, {"model"}]>} : tensor<8x3x4xf32>
// CHECK-NEXT: return %[[C]]
// CHECK-LABEL: func.func private @f_vmap_0(
// CHECK: mlax.sharding_constraint %{{.*}} {sharding = #mlax.sharding<["data"=4, "model"=2], [{}, {}, {"model"}]>}
// CHECK-LABEL: func.func private @f2_vmap(
// CHECK: mlax.sharding_constraint %{{.*}} {sharding = #mlax.sharding<["data"=4, "model"=2], [{"model", "data"}, {}, {}]>}
func.func private @f(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %0 = mlax.sin %x : tensor<3x4xf32>
  %1 = mlax.sharding_constraint %0 {sharding = #mlax.sharding<["data"=4, "model"=2], [{}, {"model"}]>} : tensor<3x4xf32>
  return %1 : tensor<3x4xf32>
}
func.func private @f2(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %0 = mlax.sharding_constraint %x {sharding = #mlax.sharding<["data"=4, "model"=2], []>} : tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
func.func @test(%xs: tensor<8x3x4xf32>) -> (tensor<8x3x4xf32>, tensor<8x3x4xf32>, tensor<8x3x4xf32>) {
  %a = mlax.vmap @f(%xs) in_axes = [0] out_axes = [0] size = 8 spmd_axis_name = ["data"] : (tensor<8x3x4xf32>) -> tensor<8x3x4xf32>
  %c = mlax.vmap @f(%xs) in_axes = [0] out_axes = [0] size = 8 : (tensor<8x3x4xf32>) -> tensor<8x3x4xf32>
  %b = mlax.vmap @f2(%xs) in_axes = [0] out_axes = [0] size = 8 spmd_axis_name = ["model", "data"] : (tensor<8x3x4xf32>) -> tensor<8x3x4xf32>
  return %a, %b, %c : tensor<8x3x4xf32>, tensor<8x3x4xf32>, tensor<8x3x4xf32>
}

// -----

// Nested vmaps, each with its own spmd axes: the inner one expands first,
// then the outer one inserts its axes in front. An unbatched constraint
// stays as it is.

// CHECK-LABEL: func.func private @outer_vmap(
// CHECK: mlax.sharding_constraint %{{.*}} {sharding = #mlax.sharding<["data"=4, "model"=2], [{"data"}, {"model"}, {}]>} : tensor<4x2x3xf32>
// CHECK: mlax.sharding_constraint %{{.*}} {sharding = #mlax.sharding<["data"=4, "model"=2], [{}]>} : tensor<3xf32>
func.func private @g(%x: tensor<3xf32>, %w: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %0 = mlax.sharding_constraint %x {sharding = #mlax.sharding<["data"=4, "model"=2], []>} : tensor<3xf32>
  %1 = mlax.sharding_constraint %w {sharding = #mlax.sharding<["data"=4, "model"=2], [{}]>} : tensor<3xf32>
  return %0, %1 : tensor<3xf32>, tensor<3xf32>
}
func.func private @outer(%x: tensor<2x3xf32>, %w: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>) {
  %r:2 = mlax.vmap @g(%x, %w) in_axes = [0, -1] out_axes = [0, -1] size = 2 spmd_axis_name = ["model"] : (tensor<2x3xf32>, tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<2x3xf32>, tensor<3xf32>
}
func.func @test(%x: tensor<4x2x3xf32>, %w: tensor<3xf32>) -> (tensor<4x2x3xf32>, tensor<3xf32>) {
  %r:2 = mlax.vmap @outer(%x, %w) in_axes = [0, -1] out_axes = [0, -1] size = 4 spmd_axis_name = ["data"] : (tensor<4x2x3xf32>, tensor<3xf32>) -> (tensor<4x2x3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<4x2x3xf32>, tensor<3xf32>
}

// -----

// shard_map (JAX's _shard_map_batch with spmd_axis_name): the batch
// dimension of each batched operand and of every result is split over the
// spmd axes, and the body is vmapped over its device's part of the batch
// (8 / 4 = 2 examples). An unbatched operand keeps its sharding.

// CHECK-LABEL: func.func private @h_vmap(
// CHECK-SAME: %[[X:[^ ,:)]*]]: tensor<8x3x4xf32>, %[[W:[^ ,:)]*]]: tensor<4xf32>)
// CHECK-NEXT: %[[R:.*]] = mlax.shard_map @hbody_vmap(%[[X]], %[[W]]) in [#mlax.sharding<["data"=4, "model"=2], [{"data"}, {}, {"model"}]>, #mlax.sharding<["data"=4, "model"=2], []>] out [#mlax.sharding<["data"=4, "model"=2], [{"data"}, {}, {}]>] : (tensor<8x3x4xf32>, tensor<4xf32>) -> tensor<8x3x2xf32>
// CHECK-NEXT: return %[[R]]
// CHECK-LABEL: func.func private @hbody_vmap(
// CHECK-SAME: %{{[^ ,:)]*}}: tensor<2x3x2xf32>, %{{[^ ,:)]*}}: tensor<4xf32>) -> tensor<2x3x2xf32>
// CHECK: mlax.all_reduce sum %{{.*}} in #mlax.mesh<["data"=4, "model"=2]> over ["model"] : tensor<2x3x2xf32>
func.func private @h(%x: tensor<3x4xf32>, %w: tensor<4xf32>) -> tensor<3x2xf32> {
  %r = mlax.shard_map @hbody(%x, %w) in [#mlax.sharding<["data"=4, "model"=2], [{}, {"model"}]>, #mlax.sharding<["data"=4, "model"=2], []>] out [#mlax.sharding<["data"=4, "model"=2], []>] : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}
func.func private @hbody(%x: tensor<3x2xf32>, %w: tensor<4xf32>) -> tensor<3x2xf32> {
  %0 = mlax.all_reduce sum %x in #mlax.mesh<["data"=4, "model"=2]> over ["model"] : tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
func.func @test(%xs: tensor<8x3x4xf32>, %w: tensor<4xf32>) -> tensor<8x3x2xf32> {
  %r = mlax.vmap @h(%xs, %w) in_axes = [0, -1] out_axes = [0] size = 8 spmd_axis_name = ["data"] : (tensor<8x3x4xf32>, tensor<4xf32>) -> tensor<8x3x2xf32>
  return %r : tensor<8x3x2xf32>
}

// RUN: mlax-opt %s --split-input-file --mlax-vectorize | FileCheck %s

// shard_map: the callee is vmapped per device, the batch dimension (in front)
// replicated: `{}` goes in front of the batched operands' and every result's
// spec (padded to the rank first). An unbatched operand keeps its sharding.

// CHECK-LABEL: func.func private @f_vmap(
// CHECK-SAME: %[[X:[^ ,:)]*]]: tensor<3x8x4xf32>, %[[W:[^ ,:)]*]]: tensor<4xf32>)
// CHECK-NEXT: %[[R:.*]] = mlax.shard_map @body_vmap(%[[X]], %[[W]]) in [#mlax.sharding<["data"=4, "model"=2], [{}, {"data"}, {}]>, #mlax.sharding<["data"=4, "model"=2], []>] out [#mlax.sharding<["data"=4, "model"=2], [{}, {}, {}]>] : (tensor<3x8x4xf32>, tensor<4xf32>) -> tensor<3x2x4xf32>
// CHECK-NEXT: return %[[R]]

// CHECK-LABEL: func.func private @body_vmap(
// CHECK-SAME: %[[X:[^ ,:)]*]]: tensor<3x2x4xf32>, %[[W:[^ ,:)]*]]: tensor<4xf32>)
// CHECK: %[[S:.*]] = mlax.all_reduce sum %{{.*}} in #mlax.mesh<["data"=4, "model"=2]> over ["data"] : tensor<3x2x4xf32>
// CHECK-NEXT: return %[[S]]
func.func private @f(%x: tensor<8x4xf32>, %w: tensor<4xf32>) -> tensor<2x4xf32> {
  %r = mlax.shard_map @body(%x, %w) in [#mlax.sharding<["data"=4, "model"=2], [{"data"}]>, #mlax.sharding<["data"=4, "model"=2], []>] out [#mlax.sharding<["data"=4, "model"=2], []>] : (tensor<8x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}
func.func private @body(%x: tensor<2x4xf32>, %w: tensor<4xf32>) -> tensor<2x4xf32> {
  %b = mlax.broadcast_in_dim %w, dims = [1] : tensor<4xf32> -> tensor<2x4xf32>
  %0 = mlax.mul %x, %b : tensor<2x4xf32>
  %1 = mlax.all_reduce sum %0 in #mlax.mesh<["data"=4, "model"=2]> over ["data"] : tensor<2x4xf32>
  return %1 : tensor<2x4xf32>
}
func.func @test(%xs: tensor<3x8x4xf32>, %w: tensor<4xf32>) -> tensor<3x2x4xf32> {
  %r = mlax.vmap @f(%xs, %w) in_axes = [0, -1] out_axes = [0] size = 3 : (tensor<3x8x4xf32>, tensor<4xf32>) -> tensor<3x2x4xf32>
  return %r : tensor<3x2x4xf32>
}

// -----

// The collectives on a batched operand: all_reduce, ppermute unchanged;
// dimension attributes shift by one (the batch dimension comes first);
// axis_index has no operands and stays unbatched.

// CHECK-LABEL: func.func private @g_vmap(
// CHECK-SAME: %[[X:[^ ,:)]*]]: tensor<5x2x4xf32>)
// CHECK-NEXT: %[[A:.*]] = mlax.all_reduce sum %[[X]] {{.*}} over ["data"] : tensor<5x2x4xf32>
// CHECK-NEXT: %[[B:.*]] = mlax.ppermute %[[A]] {{.*}} over ["data"] {pairs = array<i64: 0, 1, 1, 0>} : tensor<5x2x4xf32>
// CHECK-NEXT: %[[C:.*]] = mlax.all_gather %[[B]] {{.*}} over ["model"] {dimension = 1 : i64} : tensor<5x2x4xf32> -> tensor<5x2x2x4xf32>
// CHECK-NEXT: %[[D:.*]] = mlax.reduce_scatter %[[C]] {{.*}} over ["model"] {dimension = 2 : i64, tiled} : tensor<5x2x2x4xf32> -> tensor<5x2x1x4xf32>
// CHECK-NEXT: %[[E:.*]] = mlax.reshape %[[D]] : tensor<5x2x1x4xf32> -> tensor<5x2x4xf32>
// CHECK-NEXT: %[[F:.*]] = mlax.all_to_all %[[E]] {{.*}} over ["model"] {concat_dimension = 2 : i64, split_dimension = 1 : i64} : tensor<5x2x4xf32> -> tensor<5x4x2xf32>
// CHECK-NEXT: %[[I:.*]] = mlax.axis_index {{.*}} over ["data"]
// CHECK-NEXT: return %[[F]], %[[I]]
func.func private @g(%x: tensor<2x4xf32>) -> (tensor<4x2xf32>, tensor<i32>) {
  %0 = mlax.all_reduce sum %x in #mlax.mesh<["data"=4, "model"=2]> over ["data"] : tensor<2x4xf32>
  %1 = mlax.ppermute %0 in #mlax.mesh<["data"=4, "model"=2]> over ["data"] {pairs = array<i64: 0, 1, 1, 0>} : tensor<2x4xf32>
  %2 = mlax.all_gather %1 in #mlax.mesh<["data"=4, "model"=2]> over ["model"] {dimension = 0 : i64} : tensor<2x4xf32> -> tensor<2x2x4xf32>
  %3 = mlax.reduce_scatter %2 in #mlax.mesh<["data"=4, "model"=2]> over ["model"] {dimension = 1 : i64, tiled} : tensor<2x2x4xf32> -> tensor<2x1x4xf32>
  %4 = mlax.reshape %3 : tensor<2x1x4xf32> -> tensor<2x4xf32>
  %5 = mlax.all_to_all %4 in #mlax.mesh<["data"=4, "model"=2]> over ["model"] {split_dimension = 0 : i64, concat_dimension = 1 : i64} : tensor<2x4xf32> -> tensor<4x2xf32>
  %i = mlax.axis_index in #mlax.mesh<["data"=4, "model"=2]> over ["data"]
  return %5, %i : tensor<4x2xf32>, tensor<i32>
}
func.func @test(%xs: tensor<5x2x4xf32>) -> (tensor<5x4x2xf32>, tensor<i32>) {
  %r:2 = mlax.vmap @g(%xs) in_axes = [0] out_axes = [0, -1] size = 5 : (tensor<5x2x4xf32>) -> (tensor<5x4x2xf32>, tensor<i32>)
  return %r#0, %r#1 : tensor<5x4x2xf32>, tensor<i32>
}

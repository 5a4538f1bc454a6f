// RUN: mlax-opt %s --split-input-file --mlax-autodiff | FileCheck %s

// shard_map: forward mode is the shard_map of the callee's jvp (tangents
// sharded as their primals); reverse mode the shard_map of a per-device
// transpose that divides the result cotangent by the size of the mesh axes
// its out sharding replicates it over (here all 8 devices) and psums the
// operand cotangent over the axes its in sharding replicates it over
// ("model"), as jax's _shard_map_transpose.

// CHECK-LABEL: func.func private @f_jvp(
// CHECK-SAME: %[[X:[^ ,:)]*]]: tensor<8x4xf32>, %[[T:[^ ,:)]*]]: tensor<8x4xf32>)
// CHECK-NEXT: %[[R:.*]]:2 = mlax.shard_map @body_jvp(%[[X]], %[[T]]) in [#mlax.sharding<["data"=4, "model"=2], [{"data"}]>, #mlax.sharding<["data"=4, "model"=2], [{"data"}]>] out [#mlax.sharding<["data"=4, "model"=2], []>, #mlax.sharding<["data"=4, "model"=2], []>] : (tensor<8x4xf32>, tensor<8x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>)
// CHECK-NEXT: return %[[R]]#0, %[[R]]#1

// CHECK-LABEL: func.func private @f_vjp(
// CHECK-SAME: %[[X:[^ ,:)]*]]: tensor<8x4xf32>, %[[CT:[^ ,:)]*]]: tensor<2x4xf32>)
// CHECK-NEXT: %[[Y:.*]] = mlax.shard_map @body(%[[X]])
// CHECK-NEXT: %[[G:.*]] = mlax.shard_map @body_transpose(%[[X]], %[[CT]]) in [#mlax.sharding<["data"=4, "model"=2], [{"data"}]>, #mlax.sharding<["data"=4, "model"=2], []>] out [#mlax.sharding<["data"=4, "model"=2], [{"data"}]>] : (tensor<8x4xf32>, tensor<2x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT: return %[[Y]], %[[G]]

// CHECK-LABEL: func.func private @body_jvp(
// CHECK-SAME: %[[X:[^ ,:)]*]]: tensor<2x4xf32>, %[[T:[^ ,:)]*]]: tensor<2x4xf32>)
// CHECK: %[[DS:.*]] = mlax.mul %[[T]], %{{.*}}
// CHECK: mlax.all_reduce sum %{{.*}} in #mlax.mesh<["data"=4, "model"=2]> over ["data"]
// CHECK-NEXT: %[[DY:.*]] = mlax.all_reduce sum %[[DS]] in #mlax.mesh<["data"=4, "model"=2]> over ["data"] : tensor<2x4xf32>
// CHECK-NEXT: return %{{.*}}, %[[DY]]

// CHECK-LABEL: func.func private @body_vjp(
// CHECK-SAME: %[[X:[^ ,:)]*]]: tensor<2x4xf32>, %[[CT:[^ ,:)]*]]: tensor<2x4xf32>)
// CHECK: %[[S:.*]] = mlax.all_reduce sum %[[CT]] in #mlax.mesh<["data"=4, "model"=2]> over ["data"] : tensor<2x4xf32>
// CHECK: mlax.mul %[[S]], %{{.*}}

// CHECK-LABEL: func.func private @body_transpose(
// CHECK-SAME: %[[X:[^ ,:)]*]]: tensor<2x4xf32>, %[[CT:[^ ,:)]*]]: tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %[[N:.*]] = mlax.constant dense<8.000000e+00> : tensor<2x4xf32>
// CHECK-NEXT: %[[SHARE:.*]] = mlax.div %[[CT]], %[[N]]
// CHECK-NEXT: %[[V:.*]]:2 = mlax.call @body_vjp(%[[X]], %[[SHARE]])
// CHECK-NEXT: %[[SUM:.*]] = mlax.all_reduce sum %[[V]]#1 in #mlax.mesh<["data"=4, "model"=2]> over ["model"] : tensor<2x4xf32>
// CHECK-NEXT: return %[[SUM]]
func.func private @f(%x: tensor<8x4xf32>) -> tensor<2x4xf32> {
  %r = mlax.shard_map @body(%x) in [#mlax.sharding<["data"=4, "model"=2], [{"data"}]>] out [#mlax.sharding<["data"=4, "model"=2], []>] : (tensor<8x4xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}
func.func private @body(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %0 = mlax.sin %x : tensor<2x4xf32>
  %1 = mlax.all_reduce sum %0 in #mlax.mesh<["data"=4, "model"=2]> over ["data"] : tensor<2x4xf32>
  return %1 : tensor<2x4xf32>
}
func.func @test_jvp(%x: tensor<8x4xf32>, %t: tensor<8x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  %r:2 = mlax.jvp @f(%x) tangents(%t) wrt = [0] : (tensor<8x4xf32>, tensor<8x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>)
  return %r#0, %r#1 : tensor<2x4xf32>, tensor<2x4xf32>
}
func.func @test_vjp(%x: tensor<8x4xf32>, %ct: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<8x4xf32>) {
  %r:2 = mlax.vjp @f(%x) cotangents(%ct) wrt = [0] seeds = [0] : (tensor<8x4xf32>, tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<8x4xf32>)
  return %r#0, %r#1 : tensor<2x4xf32>, tensor<8x4xf32>
}

// -----

// The collectives' transposes: all_gather -> reduce_scatter and back (same
// dimension and tiling), ppermute -> the inverse pairs, all_to_all -> split
// and concat dimensions swapped; each jvp is the same collective.

// CHECK-LABEL: func.func private @g_jvp(
// CHECK: mlax.all_gather %{{.*}} over ["model"] {dimension = 1 : i64} : tensor<2x4xf32> -> tensor<2x2x4xf32>
// CHECK: mlax.all_gather %{{.*}} over ["model"] {dimension = 1 : i64} : tensor<2x4xf32> -> tensor<2x2x4xf32>
// CHECK: mlax.reduce_scatter %{{.*}} over ["model"] {dimension = 1 : i64} : tensor<2x2x4xf32> -> tensor<2x4xf32>
// CHECK: mlax.reduce_scatter %{{.*}} over ["model"] {dimension = 1 : i64} : tensor<2x2x4xf32> -> tensor<2x4xf32>
// CHECK: mlax.ppermute %{{.*}} over ["data"] {pairs = array<i64: 0, 1, 1, 3>}
// CHECK: mlax.ppermute %{{.*}} over ["data"] {pairs = array<i64: 0, 1, 1, 3>}
// CHECK: mlax.all_to_all %{{.*}} over ["model"] {concat_dimension = 1 : i64, split_dimension = 0 : i64} : tensor<2x4xf32> -> tensor<4x2xf32>
// CHECK: mlax.all_to_all %{{.*}} over ["model"] {concat_dimension = 1 : i64, split_dimension = 0 : i64} : tensor<2x4xf32> -> tensor<4x2xf32>

// CHECK-LABEL: func.func private @g_vjp(
// CHECK-SAME: %[[CT:[^ ,:)]*]]: tensor<4x2xf32>)
// CHECK: %[[A:.*]] = mlax.all_to_all %[[CT]] in #mlax.mesh<["data"=4, "model"=2]> over ["model"] {concat_dimension = 0 : i64, split_dimension = 1 : i64} : tensor<4x2xf32> -> tensor<2x4xf32>
// CHECK-NEXT: %[[P:.*]] = mlax.ppermute %[[A]] in #mlax.mesh<["data"=4, "model"=2]> over ["data"] {pairs = array<i64: 1, 0, 3, 1>} : tensor<2x4xf32>
// CHECK-NEXT: %[[G:.*]] = mlax.all_gather %[[P]] in #mlax.mesh<["data"=4, "model"=2]> over ["model"] {dimension = 1 : i64} : tensor<2x4xf32> -> tensor<2x2x4xf32>
// CHECK-NEXT: %[[S:.*]] = mlax.reduce_scatter %[[G]] in #mlax.mesh<["data"=4, "model"=2]> over ["model"] {dimension = 1 : i64} : tensor<2x2x4xf32> -> tensor<2x4xf32>
// CHECK-NEXT: return %{{.*}}, %[[S]]
func.func private @g(%x: tensor<2x4xf32>) -> tensor<4x2xf32> {
  %0 = mlax.all_gather %x in #mlax.mesh<["data"=4, "model"=2]> over ["model"] {dimension = 1 : i64} : tensor<2x4xf32> -> tensor<2x2x4xf32>
  %1 = mlax.reduce_scatter %0 in #mlax.mesh<["data"=4, "model"=2]> over ["model"] {dimension = 1 : i64} : tensor<2x2x4xf32> -> tensor<2x4xf32>
  %2 = mlax.ppermute %1 in #mlax.mesh<["data"=4, "model"=2]> over ["data"] {pairs = array<i64: 0, 1, 1, 3>} : tensor<2x4xf32>
  %3 = mlax.all_to_all %2 in #mlax.mesh<["data"=4, "model"=2]> over ["model"] {split_dimension = 0 : i64, concat_dimension = 1 : i64} : tensor<2x4xf32> -> tensor<4x2xf32>
  return %3 : tensor<4x2xf32>
}
func.func @test_jvp(%x: tensor<2x4xf32>, %t: tensor<2x4xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>) {
  %r:2 = mlax.jvp @g(%x) tangents(%t) wrt = [0] : (tensor<2x4xf32>, tensor<2x4xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>)
  return %r#0, %r#1 : tensor<4x2xf32>, tensor<4x2xf32>
}
func.func @test_vjp(%x: tensor<2x4xf32>, %ct: tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<2x4xf32>) {
  %r:2 = mlax.vjp @g(%x) cotangents(%ct) wrt = [0] seeds = [0] : (tensor<2x4xf32>, tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<2x4xf32>)
  return %r#0, %r#1 : tensor<4x2xf32>, tensor<2x4xf32>
}

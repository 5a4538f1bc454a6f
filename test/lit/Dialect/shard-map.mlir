// #mlax.mesh, mlax.shard_map and the SPMD collectives (all_reduce,
// all_gather, reduce_scatter, ppermute, all_to_all, axis_index) parse,
// verify and print back, in the custom and in the generic form.
//
// RUN: mlax-opt %s | mlax-opt | FileCheck %s
// RUN: mlax-opt %s --mlir-print-op-generic | mlax-opt | FileCheck %s

// CHECK-LABEL: func.func @main(
// CHECK: %{{.*}} = mlax.shard_map @body(%{{.*}}, %{{.*}}) in [#mlax.sharding<["data"=4, "model"=2], [{"data"}]>, #mlax.sharding<["data"=4, "model"=2], []>] out [#mlax.sharding<["data"=4, "model"=2], [{"data"}]>, #mlax.sharding<["data"=4, "model"=2], []>] : (tensor<8x4xf32>, tensor<4xf32>) -> (tensor<8x4xf32>, tensor<i32>)
func.func @main(%a: tensor<8x4xf32>, %b: tensor<4xf32>) -> (tensor<8x4xf32>, tensor<i32>) {
  %r:2 = mlax.shard_map @body(%a, %b)
      in [#mlax.sharding<["data"=4, "model"=2], [{"data"}]>, #mlax.sharding<["data"=4, "model"=2], []>]
      out [#mlax.sharding<["data"=4, "model"=2], [{"data"}]>, #mlax.sharding<["data"=4, "model"=2], []>]
      : (tensor<8x4xf32>, tensor<4xf32>) -> (tensor<8x4xf32>, tensor<i32>)
  return %r#0, %r#1 : tensor<8x4xf32>, tensor<i32>
}

// CHECK-LABEL: func.func private @body(
// CHECK-NEXT: mlax.all_reduce sum %{{.*}} in #mlax.mesh<["data"=4, "model"=2]> over ["data"] : tensor<2x4xf32>
// CHECK-NEXT: mlax.all_reduce max %{{.*}} in #mlax.mesh<["data"=4, "model"=2]> over ["model", "data"] : tensor<2x4xf32>
// CHECK-NEXT: mlax.all_reduce min %{{.*}} in #mlax.mesh<["data"=4, "model"=2]> over ["model"] : tensor<2x4xf32>
// CHECK-NEXT: mlax.all_gather %{{.*}} in #mlax.mesh<["data"=4, "model"=2]> over ["data"] {dimension = 0 : i64} : tensor<2x4xf32> -> tensor<4x2x4xf32>
// CHECK-NEXT: mlax.all_gather %{{.*}} in #mlax.mesh<["data"=4, "model"=2]> over ["data", "model"] {dimension = 1 : i64, tiled} : tensor<2x4xf32> -> tensor<2x32xf32>
// CHECK-NEXT: mlax.all_gather %{{.*}} in #mlax.mesh<["data"=4, "model"=2]> over ["model"] {dimension = 2 : i64} : tensor<2x4xf32> -> tensor<2x4x2xf32>
// CHECK-NEXT: mlax.reduce_scatter %{{.*}} in #mlax.mesh<["data"=4, "model"=2]> over ["model"] {dimension = 0 : i64} : tensor<2x4xf32> -> tensor<4xf32>
// CHECK-NEXT: mlax.reduce_scatter %{{.*}} in #mlax.mesh<["data"=4, "model"=2]> over ["data"] {dimension = 1 : i64, tiled} : tensor<2x4xf32> -> tensor<2x1xf32>
// CHECK-NEXT: mlax.ppermute %{{.*}} in #mlax.mesh<["data"=4, "model"=2]> over ["data"] {pairs = array<i64: 0, 1, 1, 2, 2, 3, 3, 0>} : tensor<2x4xf32>
// CHECK-NEXT: mlax.ppermute %{{.*}} in #mlax.mesh<["data"=4, "model"=2]> over ["data", "model"] {pairs = array<i64: 7, 0>} : tensor<2x4xf32>
// CHECK-NEXT: mlax.all_to_all %{{.*}} in #mlax.mesh<["data"=4, "model"=2]> over ["model"] {concat_dimension = 1 : i64, split_dimension = 0 : i64} : tensor<2x4xf32> -> tensor<4x2xf32>
// CHECK-NEXT: mlax.all_to_all %{{.*}} in #mlax.mesh<["data"=4, "model"=2]> over ["model"] {concat_dimension = 0 : i64, split_dimension = 1 : i64, tiled} : tensor<2x4xf32> -> tensor<4x2xf32>
// CHECK-NEXT: mlax.all_to_all %{{.*}} in #mlax.mesh<["data"=4, "model"=2]> over ["model"] {concat_dimension = 0 : i64, split_dimension = 0 : i64} : tensor<2x4xf32> -> tensor<2x4xf32>
// CHECK-NEXT: mlax.axis_index in #mlax.mesh<["data"=4, "model"=2]> over ["data", "model"]
// CHECK-NEXT: return
func.func private @body(%a: tensor<2x4xf32>, %b: tensor<4xf32>) -> (tensor<2x4xf32>, tensor<i32>) {
  %0 = mlax.all_reduce sum %a in #mlax.mesh<["data"=4, "model"=2]> over ["data"] : tensor<2x4xf32>
  %1 = mlax.all_reduce max %0 in #mlax.mesh<["data" = 4, "model" = 2]> over ["model", "data"] : tensor<2x4xf32>
  %2 = mlax.all_reduce min %1 in #mlax.mesh<["data"=4, "model"=2]> over ["model"] : tensor<2x4xf32>
  %3 = mlax.all_gather %2 in #mlax.mesh<["data"=4, "model"=2]> over ["data"] {dimension = 0 : i64} : tensor<2x4xf32> -> tensor<4x2x4xf32>
  %4 = mlax.all_gather %2 in #mlax.mesh<["data"=4, "model"=2]> over ["data", "model"] {dimension = 1 : i64, tiled} : tensor<2x4xf32> -> tensor<2x32xf32>
  %5 = mlax.all_gather %2 in #mlax.mesh<["data"=4, "model"=2]> over ["model"] {dimension = 2 : i64} : tensor<2x4xf32> -> tensor<2x4x2xf32>
  %6 = mlax.reduce_scatter %2 in #mlax.mesh<["data"=4, "model"=2]> over ["model"] {dimension = 0 : i64} : tensor<2x4xf32> -> tensor<4xf32>
  %7 = mlax.reduce_scatter %2 in #mlax.mesh<["data"=4, "model"=2]> over ["data"] {dimension = 1 : i64, tiled} : tensor<2x4xf32> -> tensor<2x1xf32>
  %8 = mlax.ppermute %2 in #mlax.mesh<["data"=4, "model"=2]> over ["data"] {pairs = array<i64: 0, 1, 1, 2, 2, 3, 3, 0>} : tensor<2x4xf32>
  %9 = mlax.ppermute %8 in #mlax.mesh<["data"=4, "model"=2]> over ["data", "model"] {pairs = array<i64: 7, 0>} : tensor<2x4xf32>
  %10 = mlax.all_to_all %9 in #mlax.mesh<["data"=4, "model"=2]> over ["model"] {split_dimension = 0 : i64, concat_dimension = 1 : i64} : tensor<2x4xf32> -> tensor<4x2xf32>
  %11 = mlax.all_to_all %9 in #mlax.mesh<["data"=4, "model"=2]> over ["model"] {split_dimension = 1 : i64, concat_dimension = 0 : i64, tiled} : tensor<2x4xf32> -> tensor<4x2xf32>
  %12 = mlax.all_to_all %9 in #mlax.mesh<["data"=4, "model"=2]> over ["model"] {split_dimension = 0 : i64, concat_dimension = 0 : i64} : tensor<2x4xf32> -> tensor<2x4xf32>
  %i = mlax.axis_index in #mlax.mesh<["data"=4, "model"=2]> over ["data", "model"]
  return %12, %i : tensor<2x4xf32>, tensor<i32>
}

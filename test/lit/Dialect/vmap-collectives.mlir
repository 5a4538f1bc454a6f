// Collectives over vmap axes (vmap_axes: the vmap axes they name, with their
// sizes, as a #mlax.mesh), alone or with mesh axes, and mlax.vmap's
// axis_name: parse, verify and print back, in the custom and generic forms.
//
// RUN: mlax-opt %s | mlax-opt | FileCheck %s
// RUN: mlax-opt %s --mlir-print-op-generic | mlax-opt | FileCheck %s

// CHECK-LABEL: func.func private @body(
// CHECK: mlax.all_reduce sum %{{.*}} vmap #mlax.mesh<["i"=4]> over ["i"] : tensor<3xf32>
// CHECK: mlax.all_reduce max %{{.*}} in #mlax.mesh<["data"=2]> vmap #mlax.mesh<["i"=4]> over ["data", "i"] : tensor<3xf32>
// CHECK: mlax.all_gather %{{.*}} vmap #mlax.mesh<["j"=2, "i"=4]> over ["j", "i"] {dimension = 0 : i64} : tensor<3xf32> -> tensor<8x3xf32>
// CHECK: mlax.reduce_scatter %{{.*}} vmap #mlax.mesh<["i"=4]> over ["i"] {dimension = 0 : i64, tiled} : tensor<8x3xf32> -> tensor<2x3xf32>
// CHECK: mlax.ppermute %{{.*}} vmap #mlax.mesh<["i"=4]> over ["i"] {pairs = array<i64: 0, 1, 1, 0>} : tensor<3xf32>
// CHECK: mlax.all_to_all %{{.*}} vmap #mlax.mesh<["i"=4]> over ["i"] {concat_dimension = 1 : i64, split_dimension = 0 : i64} : tensor<4x3xf32> -> tensor<3x4xf32>
// CHECK: mlax.axis_index in #mlax.mesh<["data"=2]> vmap #mlax.mesh<["i"=4]> over ["i", "data"]
func.func private @body(%x: tensor<3xf32>, %y: tensor<8x3xf32>, %z: tensor<4x3xf32>) -> tensor<i32> {
  %0 = mlax.all_reduce sum %x vmap #mlax.mesh<["i"=4]> over ["i"] : tensor<3xf32>
  %1 = mlax.all_reduce max %x in #mlax.mesh<["data"=2]> vmap #mlax.mesh<["i"=4]> over ["data", "i"] : tensor<3xf32>
  %2 = mlax.all_gather %x vmap #mlax.mesh<["j"=2, "i"=4]> over ["j", "i"] {dimension = 0 : i64} : tensor<3xf32> -> tensor<8x3xf32>
  %3 = mlax.reduce_scatter %y vmap #mlax.mesh<["i"=4]> over ["i"] {dimension = 0 : i64, tiled} : tensor<8x3xf32> -> tensor<2x3xf32>
  %4 = mlax.ppermute %x vmap #mlax.mesh<["i"=4]> over ["i"] {pairs = array<i64: 0, 1, 1, 0>} : tensor<3xf32>
  %5 = mlax.all_to_all %z vmap #mlax.mesh<["i"=4]> over ["i"] {concat_dimension = 1 : i64, split_dimension = 0 : i64} : tensor<4x3xf32> -> tensor<3x4xf32>
  %6 = mlax.axis_index in #mlax.mesh<["data"=2]> vmap #mlax.mesh<["i"=4]> over ["i", "data"]
  return %6 : tensor<i32>
}

// CHECK-LABEL: func.func @test(
// CHECK: mlax.vmap @body(%{{.*}}) in_axes = [0, 0, 0] out_axes = [0] size = 4 axis_name = "i"
func.func @test(%x: tensor<4x3xf32>, %y: tensor<4x8x3xf32>, %z: tensor<4x4x3xf32>) -> tensor<4xi32> {
  %r = mlax.vmap @body(%x, %y, %z) in_axes = [0, 0, 0] out_axes = [0] size = 4 axis_name = "i" : (tensor<4x3xf32>, tensor<4x8x3xf32>, tensor<4x4x3xf32>) -> tensor<4xi32>
  return %r : tensor<4xi32>
}

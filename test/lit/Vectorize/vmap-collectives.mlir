// RUN: mlax-opt %s --split-input-file --mlax-vectorize | FileCheck %s
// mlax-vectorize, expanding a vmap with axis_name = "i", rewrites the
// collectives naming "i" (NamedAxisOpInterface) into ops over the batch
// dimension; what they name besides stays a collective.

// psum over the vmap's axis: a reduce_sum over the batch dimension, the same
// for every example (out_axes -1 is allowed).
// CHECK-LABEL: func.func private @psum_vmap(
// CHECK-NEXT: %0 = mlax.reduce_sum %arg0, axes = [0] : tensor<4x3xf32> -> tensor<3xf32>
// CHECK-NEXT: return %0 : tensor<3xf32>
func.func private @psum(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.all_reduce sum %x vmap #mlax.mesh<["i"=4]> over ["i"] : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_psum(%xs: tensor<4x3xf32>) -> tensor<3xf32> {
  %r = mlax.vmap @psum(%xs) in_axes = [0] out_axes = [-1] size = 4 axis_name = "i" : (tensor<4x3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

// Unbatched operand: pmax keeps it, psum multiplies it by the batch size.
// CHECK-LABEL: func.func private @pmax_unbatched_vmap(
// CHECK-NEXT: %0 = mlax.constant dense<4> : tensor<3xi32>
// CHECK-NEXT: %1 = mlax.mul %arg0, %0 : tensor<3xi32>
// CHECK-NEXT: return %arg0, %1 : tensor<3xi32>, tensor<3xi32>
func.func private @pmax_unbatched(%x: tensor<3xi32>) -> (tensor<3xi32>, tensor<3xi32>) {
  %0 = mlax.all_reduce max %x vmap #mlax.mesh<["i"=4]> over ["i"] : tensor<3xi32>
  %1 = mlax.all_reduce sum %x vmap #mlax.mesh<["i"=4]> over ["i"] : tensor<3xi32>
  return %0, %1 : tensor<3xi32>, tensor<3xi32>
}
func.func @test_pmax_unbatched(%x: tensor<3xi32>) -> (tensor<3xi32>, tensor<3xi32>) {
  %r:2 = mlax.vmap @pmax_unbatched(%x) in_axes = [-1] out_axes = [-1, -1] size = 4 axis_name = "i" : (tensor<3xi32>) -> (tensor<3xi32>, tensor<3xi32>)
  return %r#0, %r#1 : tensor<3xi32>, tensor<3xi32>
}

// -----

// axis_index: an iota along the batch (no operand: batched anyway).
// CHECK-LABEL: func.func private @index_vmap(
// CHECK-NEXT: %0 = mlax.iota dim = 0 : tensor<4xi32>
// CHECK-NEXT: return %0 : tensor<4xi32>
func.func private @index() -> tensor<i32> {
  %0 = mlax.axis_index vmap #mlax.mesh<["i"=4]> over ["i"]
  return %0 : tensor<i32>
}
func.func @test_index() -> tensor<4xi32> {
  %r = mlax.vmap @index() in_axes = [] out_axes = [0] size = 4 axis_name = "i" : () -> tensor<4xi32>
  return %r : tensor<4xi32>
}

// -----

// axis_index over a mesh axis and the vmap axis: the mesh index (major)
// scaled by the batch size plus the iota.
// CHECK-LABEL: func.func private @index2_vmap(
// CHECK-NEXT: %0 = mlax.iota dim = 0 : tensor<4xi32>
// CHECK-NEXT: %1 = mlax.axis_index in #mlax.mesh<["data"=2]> over ["data"]
// CHECK-NEXT: %2 = mlax.constant dense<4> : tensor<i32>
// CHECK-NEXT: %3 = mlax.mul %1, %2 : tensor<i32>
// CHECK-NEXT: %4 = mlax.broadcast_in_dim %3, dims = [] : tensor<i32> -> tensor<4xi32>
// CHECK-NEXT: %5 = mlax.add %4, %0 : tensor<4xi32>
// CHECK-NEXT: return %5 : tensor<4xi32>
func.func private @index2() -> tensor<i32> {
  %0 = mlax.axis_index in #mlax.mesh<["data"=2]> vmap #mlax.mesh<["i"=4]> over ["data", "i"]
  return %0 : tensor<i32>
}
func.func @test_index_mixed() -> tensor<4xi32> {
  %r = mlax.vmap @index2() in_axes = [] out_axes = [0] size = 4 axis_name = "i" : () -> tensor<4xi32>
  return %r : tensor<4xi32>
}

// -----

// all_gather tiled: the batch moved to the gathered dimension and merged into
// it (the same for every example).
// CHECK-LABEL: func.func private @gather_vmap(
// CHECK-NEXT: %0 = mlax.transpose %arg0, permutation = [1, 0, 2] : tensor<4x3x2xf32> -> tensor<3x4x2xf32>
// CHECK-NEXT: %1 = mlax.reshape %0 : tensor<3x4x2xf32> -> tensor<3x8xf32>
// CHECK-NEXT: return %1 : tensor<3x8xf32>
func.func private @gather(%x: tensor<3x2xf32>) -> tensor<3x8xf32> {
  %0 = mlax.all_gather %x vmap #mlax.mesh<["i"=4]> over ["i"] {dimension = 1 : i64, tiled} : tensor<3x2xf32> -> tensor<3x8xf32>
  return %0 : tensor<3x8xf32>
}
func.func @test_gather(%xs: tensor<4x3x2xf32>) -> tensor<3x8xf32> {
  %r = mlax.vmap @gather(%xs) in_axes = [0] out_axes = [-1] size = 4 axis_name = "i" : (tensor<4x3x2xf32>) -> tensor<3x8xf32>
  return %r : tensor<3x8xf32>
}

// -----

// all_gather over two vmap axes, the inner vmap's (i) minor: the batch is the
// gathered dimension, then a tiled all_gather over j remains for the outer vmap.
// CHECK-LABEL: func.func private @gather2_vmap(
// CHECK-NEXT: %0 = mlax.all_gather %arg0 vmap #mlax.mesh<["j"=2]> over ["j"] {dimension = 0 : i64, tiled} : tensor<4x3xf32> -> tensor<8x3xf32>
// CHECK-NEXT: return %0 : tensor<8x3xf32>
func.func private @gather2(%x: tensor<3xf32>) -> tensor<8x3xf32> {
  %0 = mlax.all_gather %x vmap #mlax.mesh<["j"=2, "i"=4]> over ["j", "i"] {dimension = 0 : i64} : tensor<3xf32> -> tensor<8x3xf32>
  return %0 : tensor<8x3xf32>
}
func.func @test_gather_two(%xs: tensor<4x3xf32>) -> tensor<8x3xf32> {
  %r = mlax.vmap @gather2(%xs) in_axes = [0] out_axes = [-1] size = 4 axis_name = "i" : (tensor<4x3xf32>) -> tensor<8x3xf32>
  return %r : tensor<8x3xf32>
}

// -----

// psum_scatter: the sum over the batch, its pieces along the dimension
// become the batch.
// CHECK-LABEL: func.func private @scatter_vmap(
// CHECK-NEXT: %0 = mlax.reduce_sum %arg0, axes = [0] : tensor<4x4x3xf32> -> tensor<4x3xf32>
// CHECK-NEXT: %1 = mlax.reshape %0 : tensor<4x3xf32> -> tensor<1x4x1x3xf32>
// CHECK-NEXT: %2 = mlax.transpose %1, permutation = [1, 0, 2, 3] : tensor<1x4x1x3xf32> -> tensor<4x1x1x3xf32>
// CHECK-NEXT: %3 = mlax.reshape %2 : tensor<4x1x1x3xf32> -> tensor<4x1x3xf32>
// CHECK-NEXT: %4 = mlax.reshape %3 : tensor<4x1x3xf32> -> tensor<4x3xf32>
// CHECK-NEXT: return %4 : tensor<4x3xf32>
func.func private @scatter(%x: tensor<4x3xf32>) -> tensor<3xf32> {
  %0 = mlax.reduce_scatter %x vmap #mlax.mesh<["i"=4]> over ["i"] {dimension = 0 : i64} : tensor<4x3xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_scatter(%xs: tensor<4x4x3xf32>) -> tensor<4x3xf32> {
  %r = mlax.vmap @scatter(%xs) in_axes = [0] out_axes = [0] size = 4 axis_name = "i" : (tensor<4x4x3xf32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

// -----

// ppermute: example dst gets example src's row, zeros where no pair sends.
// CHECK-LABEL: func.func private @permute_vmap(
// CHECK-NEXT: %0 = mlax.constant dense<0.000000e+00> : tensor<1x3xf32>
// CHECK-NEXT: %1 = mlax.slice %arg0, start = [0, 0], limit = [1, 3], strides = [1, 1] : tensor<3x3xf32> -> tensor<1x3xf32>
// CHECK-NEXT: %2 = mlax.slice %arg0, start = [1, 0], limit = [2, 3], strides = [1, 1] : tensor<3x3xf32> -> tensor<1x3xf32>
// CHECK-NEXT: %3 = mlax.concatenate(%0, %1, %2) dim = 0 : (tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: return %3 : tensor<3x3xf32>
func.func private @permute(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.ppermute %x vmap #mlax.mesh<["i"=3]> over ["i"] {pairs = array<i64: 0, 1, 1, 2>} : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_permute(%xs: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %r = mlax.vmap @permute(%xs) in_axes = [0] out_axes = [0] size = 3 axis_name = "i" : (tensor<3x3xf32>) -> tensor<3x3xf32>
  return %r : tensor<3x3xf32>
}

// -----

// all_to_all: the split dimension becomes the batch, the batch goes to the
// concat dimension.
// CHECK-LABEL: func.func private @a2a_vmap(
// CHECK-NEXT: %0 = mlax.transpose %arg0, permutation = [1, 0, 2] : tensor<4x4x3xf32> -> tensor<4x4x3xf32>
// CHECK-NEXT: %1 = mlax.transpose %0, permutation = [0, 2, 1] : tensor<4x4x3xf32> -> tensor<4x3x4xf32>
// CHECK-NEXT: return %1 : tensor<4x3x4xf32>
func.func private @a2a(%x: tensor<4x3xf32>) -> tensor<3x4xf32> {
  %0 = mlax.all_to_all %x vmap #mlax.mesh<["i"=4]> over ["i"] {concat_dimension = 1 : i64, split_dimension = 0 : i64} : tensor<4x3xf32> -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
func.func @test_a2a(%xs: tensor<4x4x3xf32>) -> tensor<4x3x4xf32> {
  %r = mlax.vmap @a2a(%xs) in_axes = [0] out_axes = [0] size = 4 axis_name = "i" : (tensor<4x4x3xf32>) -> tensor<4x3x4xf32>
  return %r : tensor<4x3x4xf32>
}

// -----

// A collective over another axis (an enclosing vmap's) keeps its ordinary
// batching rule.
// CHECK-LABEL: func.func private @other_vmap(
// CHECK-NEXT: %0 = mlax.all_reduce sum %arg0 vmap #mlax.mesh<["j"=2]> over ["j"] : tensor<4x3xf32>
// CHECK-NEXT: return %0 : tensor<4x3xf32>
func.func private @other(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.all_reduce sum %x vmap #mlax.mesh<["j"=2]> over ["j"] : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_other_axis(%xs: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %r = mlax.vmap @other(%xs) in_axes = [0] out_axes = [0] size = 4 axis_name = "i" : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}


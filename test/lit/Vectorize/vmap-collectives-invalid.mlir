// Errors of mlax-vectorize's rules for collectives over the vmap's axis.
//
// RUN: mlax-opt %s --split-input-file --mlax-vectorize --verify-diagnostics

func.func private @size(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{names vmap axis "i" of size 2, but the mlax.vmap binding it has size 4}}
  %0 = mlax.all_reduce sum %x vmap #mlax.mesh<["i"=2]> over ["i"] : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test(%xs: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %r = mlax.vmap @size(%xs) in_axes = [0] out_axes = [0] size = 4 axis_name = "i" : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

// -----

func.func private @two(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{over the vmap axis "i" together with other axes ["i", "j"] is not supported}}
  %0 = mlax.ppermute %x vmap #mlax.mesh<["i"=4, "j"=2]> over ["i", "j"] {pairs = array<i64: 0, 1>} : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test(%xs: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %r = mlax.vmap @two(%xs) in_axes = [0] out_axes = [0] size = 4 axis_name = "i" : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

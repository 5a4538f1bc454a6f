// Batching errors of mlax.host_callback, with JAX's words.
//
// RUN: mlax-opt %s --split-input-file --mlax-vectorize --verify-diagnostics

func.func private @f(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{vmap is only supported for the pure_callback primitive when vmap_method is one of 'sequential', 'sequential_unrolled', 'expand_dims', 'broadcast_all', or 'legacy_vectorized'. Got vmap_method=None.}}
  %y = mlax.host_callback %x {callback = 0 : i64, kind = "pure"} : (tensor<f32>) -> tensor<f32>
  return %y : tensor<f32>
}
func.func @test(%xs: tensor<3xf32>) -> tensor<3xf32> {
  %r = mlax.vmap @f(%xs) in_axes = [0] out_axes = [0] size = 3 : (tensor<3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

func.func private @f(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{Cannot `vmap` ordered IO callback.}}
  %y = mlax.host_callback %x {callback = 0 : i64, kind = "io", ordered} : (tensor<f32>) -> tensor<f32>
  return %y : tensor<f32>
}
func.func @test(%xs: tensor<3xf32>) -> tensor<3xf32> {
  %r = mlax.vmap @f(%xs) in_axes = [0] out_axes = [0] size = 3 : (tensor<3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

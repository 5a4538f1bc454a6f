// Batching mlax.ffi_call without a vmap_method: JAX's error.
//
// RUN: mlax-opt %s --mlax-vectorize --verify-diagnostics

func.func private @f(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{vmap is only supported for the ffi_call primitive when vmap_method is one of 'sequential', 'sequential_unrolled', 'expand_dims', 'broadcast_all', or 'legacy_vectorized'. Got vmap_method=None.}}
  %y = mlax.ffi_call "t"(%x) : (tensor<f32>) -> tensor<f32>
  return %y : tensor<f32>
}
func.func @test(%xs: tensor<3xf32>) -> tensor<3xf32> {
  %r = mlax.vmap @f(%xs) in_axes = [0] out_axes = [0] size = 3 : (tensor<3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

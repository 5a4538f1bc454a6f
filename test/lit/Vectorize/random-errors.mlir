// mlax.rng_uniform with batched bounds is an error, as in JAX: it has no
// batching rule (random.mlir: unbatched bounds, copied once).
//
// RUN: mlax-opt %s --mlax-vectorize --verify-diagnostics

func.func private @f(%a: tensor<f32>) -> tensor<3xf32> {
  // expected-error @+1 {{'mlax.rng_uniform' op has no batching rule (BatchableOpInterface); mlax-vectorize cannot batch it}}
  %r = mlax.rng_uniform %a, %a : tensor<f32> -> tensor<3xf32>
  return %r : tensor<3xf32>
}
func.func @batched_bound(%as: tensor<2xf32>) -> tensor<2x3xf32> {
  %r = mlax.vmap @f(%as) in_axes = [0] out_axes = [0] size = 2 : (tensor<2xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// A batched operand of a composite is JAX's error: composite_p has no
// batching rule (it is not batched through its decomposition).
//
// RUN: mlax-opt %s --mlax-vectorize --verify-diagnostics

func.func private @my.double(%y: tensor<2xf32>) -> tensor<2xf32> {
  %z = mlax.add %y, %y : tensor<2xf32>
  return %z : tensor<2xf32>
}
func.func private @f(%y: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'mlax.composite' op Batching rule for 'composite' not implemented}}
  %d = mlax.composite "my.double" @my.double(%y) : (tensor<2xf32>) -> tensor<2xf32>
  return %d : tensor<2xf32>
}
func.func @batch_y(%ys: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %r = mlax.vmap @f(%ys) in_axes = [0] out_axes = [0] size = 3
      : (tensor<3x2xf32>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}

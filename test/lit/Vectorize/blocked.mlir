// A single-kind pass refuses a request whose callee holds a request of the
// other kind; mlax-expand-transforms expands both (see compose.mlir).
//
// RUN: mlax-opt %s --mlax-autodiff --verify-diagnostics

func.func private @f(%x: tensor<f32>) -> tensor<f32> {
  %0 = mlax.sin %x : tensor<f32>
  return %0 : tensor<f32>
}
func.func private @batched_sum(%xs: tensor<4xf32>) -> tensor<f32> {
  %y = mlax.vmap @f(%xs) in_axes = [0] out_axes = [0] size = 4 : (tensor<4xf32>) -> tensor<4xf32>
  %s = mlax.reduce_sum %y, axes = [0] : tensor<4xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @grad_of_vmap(%xs: tensor<4xf32>) -> tensor<4xf32> {
  %one = mlax.constant dense<1.0> : tensor<f32>
  // expected-error @+1 {{'mlax.vjp' op cannot be expanded: its callee contains transformation requests that this pass does not expand, or requests that form a cycle (mlax-expand-transforms expands every kind)}}
  %r:2 = mlax.vjp @batched_sum(%xs) cotangents(%one) wrt = [0] seeds = [0]
      : (tensor<4xf32>, tensor<f32>) -> (tensor<f32>, tensor<4xf32>)
  return %r#1 : tensor<4xf32>
}

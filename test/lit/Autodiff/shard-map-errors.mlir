// pmax and pmin (mlax.all_reduce max / min) have no derivative, as in JAX.
//
// RUN: mlax-opt %s --split-input-file --mlax-autodiff --verify-diagnostics

func.func private @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'mlax.all_reduce' op with kind 'max' is not differentiable (as jax.lax.pmax and pmin); only 'sum' (psum) is}}
  %0 = mlax.all_reduce max %x in #mlax.mesh<["data"=4, "model"=2]> over ["data"] : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @test(%x: tensor<4xf32>, %ct: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %r:2 = mlax.vjp @f(%x) cotangents(%ct) wrt = [0] seeds = [0] : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

func.func private @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'mlax.all_reduce' op with kind 'min' is not differentiable}}
  %0 = mlax.all_reduce min %x in #mlax.mesh<["data"=4, "model"=2]> over ["data"] : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @test(%x: tensor<4xf32>, %t: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %r:2 = mlax.jvp @f(%x) tangents(%t) wrt = [0] : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}

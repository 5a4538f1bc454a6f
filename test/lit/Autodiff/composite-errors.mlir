// A composite has no derivative (JAX's composite_p raises in its JVP rule):
// JAX's error once a nonzero tangent or cotangent reaches it.
//
// RUN: mlax-opt %s --split-input-file --mlax-autodiff --verify-diagnostics

func.func private @my.tangent(%x: tensor<f32>) -> tensor<f32> {
  %s = mlax.sin %x : tensor<f32>
  %c = mlax.cos %x : tensor<f32>
  %t = mlax.div %s, %c : tensor<f32>
  return %t : tensor<f32>
}
func.func private @f(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.composite' op JVP rule for composite not implemented. You can use `jax.custom_jvp` to add support. See https://docs.jax.dev/en/latest/_autosummary/jax.custom_jvp.html}}
  %y = mlax.composite "my.tangent" @my.tangent(%x) : (tensor<f32>) -> tensor<f32>
  return %y : tensor<f32>
}
func.func @jvp(%x: tensor<f32>, %dx: tensor<f32>) -> tensor<f32> {
  %r:2 = mlax.jvp @f(%x) tangents(%dx) wrt = [0]
      : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %r#1 : tensor<f32>
}

// -----

func.func private @my.tangent(%x: tensor<f32>) -> tensor<f32> {
  %s = mlax.sin %x : tensor<f32>
  %c = mlax.cos %x : tensor<f32>
  %t = mlax.div %s, %c : tensor<f32>
  return %t : tensor<f32>
}
func.func private @f(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.composite' op JVP rule for composite not implemented.}}
  %y = mlax.composite "my.tangent" @my.tangent(%x) : (tensor<f32>) -> tensor<f32>
  %z = mlax.mul %y, %x : tensor<f32>
  return %z : tensor<f32>
}
func.func @grad(%x: tensor<f32>) -> tensor<f32> {
  %one = mlax.constant dense<1.0> : tensor<f32>
  %r:2 = mlax.vjp @f(%x) cotangents(%one) wrt = [0] seeds = [0]
      : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %r#1 : tensor<f32>
}

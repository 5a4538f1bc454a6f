// pure and io callbacks have no derivative: JAX's errors, once a nonzero
// tangent or cotangent reaches them.
//
// RUN: mlax-opt %s --split-input-file --mlax-autodiff --verify-diagnostics

func.func private @f(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.host_callback' op Pure callbacks do not support JVP. Please use `jax.custom_jvp` to use callbacks while taking gradients.}}
  %y = mlax.host_callback %x {callback = 0 : i64, kind = "pure"} : (tensor<f32>) -> tensor<f32>
  return %y : tensor<f32>
}
func.func @grad(%x: tensor<f32>) -> tensor<f32> {
  %one = mlax.constant dense<1.0> : tensor<f32>
  %r:2 = mlax.vjp @f(%x) cotangents(%one) wrt = [0] seeds = [0]
      : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %r#1 : tensor<f32>
}

// -----

func.func private @f(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.host_callback' op IO callbacks do not support JVP.}}
  %y = mlax.host_callback %x {callback = 0 : i64, kind = "io"} : (tensor<f32>) -> tensor<f32>
  return %y : tensor<f32>
}
func.func @jvp(%x: tensor<f32>, %dx: tensor<f32>) -> tensor<f32> {
  %r:2 = mlax.jvp @f(%x) tangents(%dx) wrt = [0]
      : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %r#1 : tensor<f32>
}

// mlax.ffi_call has no derivative: JAX's error once a nonzero tangent or
// cotangent reaches it (a call on values that carry none is fine).
//
// RUN: mlax-opt %s --split-input-file --mlax-autodiff --verify-diagnostics

func.func private @f(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.ffi_call' op The FFI call to `rms_norm` cannot be differentiated. You can use `jax.custom_jvp` or `jax.custom_jvp` to add support.}}
  %y = mlax.ffi_call "rms_norm"(%x) : (tensor<f32>) -> tensor<f32>
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
  // expected-error @+1 {{'mlax.ffi_call' op The FFI call to `t` cannot be differentiated.}}
  %y = mlax.ffi_call "t"(%x) : (tensor<f32>) -> tensor<f32>
  return %y : tensor<f32>
}
func.func @jvp(%x: tensor<f32>, %dx: tensor<f32>) -> tensor<f32> {
  %r:2 = mlax.jvp @f(%x) tangents(%dx) wrt = [0]
      : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %r#1 : tensor<f32>
}

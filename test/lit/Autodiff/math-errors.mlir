// Derivatives the ops of MlaxMathOps.td do not have, refused at the op (as
// jax.lax refuses them): polygamma in its order m, zeta in x.
//
// RUN: mlax-opt %s --split-input-file --mlax-autodiff --verify-diagnostics

func.func private @polygamma(%m: tensor<3xf32>, %x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'mlax.polygamma' op cannot be differentiated with respect to m (the order), as in jax.lax.polygamma}}
  %0 = mlax.polygamma %m, %x : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @wrt_m(%m: tensor<3xf32>, %x: tensor<3xf32>, %t: tensor<3xf32>) -> tensor<3xf32> {
  %r:2 = mlax.jvp @polygamma(%m, %x) tangents(%t) wrt = [0] : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#1 : tensor<3xf32>
}

// -----

func.func private @zeta(%x: tensor<3xf32>, %q: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'mlax.zeta' op cannot be differentiated with respect to x (only q)}}
  %0 = mlax.zeta %x, %q : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @wrt_x(%x: tensor<3xf32>, %q: tensor<3xf32>, %t: tensor<3xf32>) -> tensor<3xf32> {
  %r:2 = mlax.jvp @zeta(%x, %q) tangents(%t) wrt = [0] : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#1 : tensor<3xf32>
}

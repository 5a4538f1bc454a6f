// mlax.rng_uniform has no derivative rule, as JAX's rng_uniform has none:
// a tangent reaching its bounds is an error.
//
// RUN: mlax-opt %s --split-input-file --mlax-autodiff --verify-diagnostics

func.func private @f(%a: tensor<f32>) -> tensor<3xf32> {
  %one = mlax.constant dense<1.0> : tensor<f32>
  // expected-error @+1 {{'mlax.rng_uniform' op has no derivative rule (DifferentiableOpInterface); mlax-autodiff cannot differentiate through it}}
  %r = mlax.rng_uniform %a, %one : tensor<f32> -> tensor<3xf32>
  return %r : tensor<3xf32>
}
func.func @jvp(%a: tensor<f32>, %da: tensor<f32>) -> tensor<3xf32> {
  %r:2 = mlax.jvp @f(%a) tangents(%da) wrt = [0]
      : (tensor<f32>, tensor<f32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#1 : tensor<3xf32>
}

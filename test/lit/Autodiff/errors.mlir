// What mlax-autodiff refuses, with a diagnostic at the offending op.
//
// RUN: mlax-opt %s --split-input-file --mlax-autodiff --verify-diagnostics

func.func private @g(%x: tensor<f32>) -> tensor<f32> { return %x : tensor<f32> }
func.func private @g_fwd(%x: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  return %x, %x : tensor<f32>, tensor<f32>
}
func.func private @g_bwd(%r: tensor<f32>, %ct: tensor<f32>) -> tensor<f32> { return %ct : tensor<f32> }
func.func private @uses_g(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.custom_vjp_call' op can't apply forward-mode autodiff (jvp) to a custom_vjp function}}
  %0 = mlax.custom_vjp_call @g(%x) fwd = @g_fwd bwd = @g_bwd : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
func.func @fwd(%x: tensor<f32>) -> tensor<f32> {
  %a:2 = mlax.jvp @uses_g(%x) tangents(%x) wrt = [0] : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %a#1 : tensor<f32>
}

// -----

func.func private @opaque(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'test.opaque' op has no derivative rule (DifferentiableOpInterface); mlax-autodiff cannot differentiate through it}}
  %0 = "test.opaque"(%x) : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
func.func @no_rule(%x: tensor<f32>) -> tensor<f32> {
  %a:2 = mlax.vjp @opaque(%x) cotangents(%x) wrt = [0] seeds = [0] : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %a#1 : tensor<f32>
}

// -----

// expected-error @+1 {{'func.func' op mlax-autodiff: cannot differentiate a recursive function}}
func.func private @rec(%x: tensor<f32>) -> tensor<f32> {
  %0 = mlax.call @rec(%x) : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
func.func @recursive(%x: tensor<f32>) -> tensor<f32> {
  %a:2 = mlax.jvp @rec(%x) tangents(%x) wrt = [0] : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %a#1 : tensor<f32>
}

// -----

// Integer values carry no tangents: their ops need no rule.
func.func private @count(%x: tensor<f32>) -> tensor<f32> {
  %0 = mlax.convert %x : tensor<f32> -> tensor<i32>
  %1 = "test.int_only"(%0) : (tensor<i32>) -> tensor<i32>
  %2 = mlax.convert %1 : tensor<i32> -> tensor<f32>
  %3 = mlax.mul %2, %x : tensor<f32>
  return %3 : tensor<f32>
}
func.func @ints_are_constants(%x: tensor<f32>) -> tensor<f32> {
  %a:2 = mlax.vjp @count(%x) cotangents(%x) wrt = [0] seeds = [0] : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %a#1 : tensor<f32>
}

// -----

// A general reduce's rule is written for real values (Mlax_RealDerivativeOnly):
// a complex operand carrying a tangent is refused.
func.func private @reduce_complex(%x: tensor<3xcomplex<f32>>, %i: tensor<complex<f32>>) -> tensor<complex<f32>> {
  // expected-error @+1 {{'mlax.reduce' op has a derivative rule for real values only; mlax does not differentiate it on complex values yet}}
  %r = mlax.reduce(%x) init(%i) dimensions = [0]
      : (tensor<3xcomplex<f32>>, tensor<complex<f32>>) -> tensor<complex<f32>> {
  ^bb0(%p: tensor<complex<f32>>, %q: tensor<complex<f32>>):
    %s = mlax.add %p, %q : tensor<complex<f32>>
    mlax.yield %s : tensor<complex<f32>>
  }
  return %r : tensor<complex<f32>>
}
func.func @reduce_complex_jvp(%x: tensor<3xcomplex<f32>>, %i: tensor<complex<f32>>, %t: tensor<3xcomplex<f32>>) -> tensor<complex<f32>> {
  %r:2 = mlax.jvp @reduce_complex(%x, %i) tangents(%t) wrt = [0] : (tensor<3xcomplex<f32>>, tensor<complex<f32>>, tensor<3xcomplex<f32>>) -> (tensor<complex<f32>>, tensor<complex<f32>>)
  return %r#1 : tensor<complex<f32>>
}

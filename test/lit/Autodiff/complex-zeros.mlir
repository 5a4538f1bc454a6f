// A complex value gets no derivative; where one is needed as a zero (the
// tangent of a complex output no input reaches), it is a complex zero
// constant (building it used to abort on a non-float element type).
//
// RUN: mlax-opt %s --mlax-autodiff | FileCheck %s

// CHECK-LABEL: func.func private @prod_jvp(
// CHECK: %[[P:.*]] = mlax.reduce_prod %arg0, axes = [0] : tensor<2xcomplex<f32>> -> tensor<complex<f32>>
// CHECK: %[[Z:.*]] = mlax.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
// CHECK: return %[[P]], %[[Z]]
func.func @main(%arg0: tensor<2xcomplex<f32>>) -> (tensor<complex<f32>>, tensor<complex<f32>>) {
  %0:2 = mlax.jvp @prod(%arg0) tangents() wrt = [] : (tensor<2xcomplex<f32>>) -> (tensor<complex<f32>>, tensor<complex<f32>>)
  return %0#0, %0#1 : tensor<complex<f32>>, tensor<complex<f32>>
}
func.func private @prod(%arg0: tensor<2xcomplex<f32>>) -> tensor<complex<f32>> {
  %0 = mlax.reduce_prod %arg0, axes = [0] : tensor<2xcomplex<f32>> -> tensor<complex<f32>>
  return %0 : tensor<complex<f32>>
}

// RUN: mlax-opt %s --split-input-file --mlax-autodiff | FileCheck %s

// The derivative functions mlax-autodiff generates for the transformation
// ops (stop_gradient), forward then (after the split) reverse mode. The
// other ops' rules are tested in the file of their family (elementwise.mlir,
// shape.mlir, ...). Regenerate the CHECK lines with
// tools/generate-test-checks.py --only '_jvp$' / '_vjp$' and review them.

// CHECK-LABEL: func.func private @stop_gradient_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT: return %[[ARG0]], %[[V2]] : tensor<3xf32>, tensor<3xf32>
func.func private @stop_gradient(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.stop_gradient %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_stop_gradient(%a0: tensor<3xf32>, %t0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.jvp @stop_gradient(%a0) tangents(%t0) wrt = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// -----

// CHECK-LABEL: func.func private @stop_gradient_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT: return %[[ARG0]], %[[V2]] : tensor<3xf32>, tensor<3xf32>
func.func private @stop_gradient(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.stop_gradient %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_stop_gradient(%a0: tensor<3xf32>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = mlax.vjp @stop_gradient(%a0) cotangents(%c) wrt = [0] seeds = [0] : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

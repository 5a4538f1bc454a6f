// RUN: mlax-opt %s --mlax-vectorize | FileCheck %s

// The batched function mlax-vectorize generates for the transformation ops
// (stop_gradient); the other ops' rules are tested in the file of their
// family (elementwise.mlir, shape.mlir, ...). Regenerate the CHECK lines with
// tools/generate-test-checks.py --only '_vmap$' and review them.

// CHECK-LABEL: func.func private @stop_gradient_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.stop_gradient %[[ARG0]] : tensor<5x3xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x3xf32>
func.func private @stop_gradient(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.stop_gradient %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_stop_gradient(%a0: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %r = mlax.vmap @stop_gradient(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// RUN: mlax-opt %s --mlax-vectorize | FileCheck %s

// Batching keeps an op's accuracy (`#mlax.accuracy`), as JAX's vmap keeps
// the `accuracy` parameter. Regenerate the CHECK lines with
// tools/generate-test-checks.py --only '_vmap$' and review them.

// CHECK-LABEL: func.func private @hinted_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>) -> (tensor<5x3xf32>, tensor<5x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.sin %[[ARG0]] accuracy <highest> : tensor<5x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.cbrt %[[V1]] accuracy <atol = 1.000000e-05, ulps = 2> : tensor<5x3xf32>
// CHECK-NEXT: return %[[V1]], %[[V2]] : tensor<5x3xf32>, tensor<5x3xf32>

func.func private @hinted(%a0: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %0 = mlax.sin %a0 accuracy <highest> : tensor<3xf32>
  %1 = mlax.cbrt %0 accuracy <atol = 1.0e-05, ulps = 2> : tensor<3xf32>
  return %0, %1 : tensor<3xf32>, tensor<3xf32>
}
func.func @test_hinted(%a0: tensor<5x3xf32>) -> (tensor<5x3xf32>, tensor<5x3xf32>) {
  %r:2 = mlax.vmap @hinted(%a0) in_axes = [0] out_axes = [0, 0] size = 5 : (tensor<5x3xf32>) -> (tensor<5x3xf32>, tensor<5x3xf32>)
  return %r#0, %r#1 : tensor<5x3xf32>, tensor<5x3xf32>
}

// Two draws of mlax.rng_uniform are two draws: XLA's generator is stateful,
// so the simplification pipeline neither merges them (CSE) nor erases an
// unused one.
//
// RUN: mlax-opt %s --mlax-default-pipeline | FileCheck %s

// CHECK-LABEL: func.func @main(
// CHECK: %[[S:.*]] = "stablehlo.constant"() {value = dense<3> : tensor<1xi64>}
// CHECK: %[[A:.*]] = "stablehlo.rng"(%{{.*}}, %{{.*}}, %[[S]])
// CHECK: %[[B:.*]] = "stablehlo.rng"(%{{.*}}, %{{.*}}, %{{.*}})
// CHECK: "stablehlo.rng"
// CHECK: "stablehlo.subtract"(%[[A]], %[[B]])
func.func @main(%a: tensor<f32>, %b: tensor<f32>) -> tensor<3xf32> {
  %x = mlax.rng_uniform %a, %b : tensor<f32> -> tensor<3xf32>
  %y = mlax.rng_uniform %a, %b : tensor<f32> -> tensor<3xf32>
  %unused = mlax.rng_uniform %a, %b : tensor<f32> -> tensor<3xf32>
  %d = mlax.sub %x, %y : tensor<3xf32>
  return %d : tensor<3xf32>
}

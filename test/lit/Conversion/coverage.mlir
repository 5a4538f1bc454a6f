// Every registered mlax op has a lowering pattern (mlax.jvp / mlax.vjp /
// mlax.vmap excepted: mlax-expand-transforms replaces them first). A new op
// without one makes this test fail, naming it.
//
// RUN: mlax-opt %s --convert-mlax-to-stablehlo=check-coverage | FileCheck %s

// CHECK-LABEL: func.func @main(
// CHECK-NEXT: return %arg0 : tensor<f32>
func.func @main(%x: tensor<f32>) -> tensor<f32> {
  return %x : tensor<f32>
}

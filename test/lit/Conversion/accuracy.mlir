// Lowering of `#mlax.accuracy` to StableHLO's `result_accuracy`, printed as
// JAX's lowering prints it (the tolerances that are 0 left out); jaxlib
// parses and verifies the result.
//
// RUN: mlax-opt %s --convert-mlax-to-stablehlo | FileCheck %s
// RUN: mlax-opt %s --convert-mlax-to-stablehlo | %PYTHON -m mlax.tools.compile_stablehlo --verify-only -

// CHECK-LABEL: func.func @main(
// CHECK: "stablehlo.exponential"(%{{.*}}) {result_accuracy = #stablehlo.result_accuracy<mode = #stablehlo.result_accuracy_mode<HIGHEST>>} : (tensor<4xf32>)
// CHECK: "stablehlo.log"(%{{.*}}) {result_accuracy = #stablehlo.result_accuracy<mode = #stablehlo.result_accuracy_mode<DEFAULT>>}
// CHECK: "stablehlo.sine"(%{{.*}}) {result_accuracy = #stablehlo.result_accuracy<atol = 1.000000e-05, rtol = 1.000000e-03, mode = #stablehlo.result_accuracy_mode<TOLERANCE>>}
// CHECK: "stablehlo.cosine"(%{{.*}}) {result_accuracy = #stablehlo.result_accuracy<ulps = 2, mode = #stablehlo.result_accuracy_mode<TOLERANCE>>}
// CHECK: "stablehlo.tan"(%{{.*}}) {result_accuracy = #stablehlo.result_accuracy<atol = 0x7FF0000000000000, ulps = 1099511627776, mode = #stablehlo.result_accuracy_mode<TOLERANCE>>}
// CHECK: "stablehlo.tanh"(%{{.*}}) {result_accuracy = #stablehlo.result_accuracy<rtol = 0.33333333333333331, mode = #stablehlo.result_accuracy_mode<TOLERANCE>>}
// CHECK: "stablehlo.exponential_minus_one"(%{{.*}}) {result_accuracy = #stablehlo.result_accuracy<mode = #stablehlo.result_accuracy_mode<HIGHEST>>}
// CHECK: "stablehlo.log_plus_one"(%{{.*}}) {result_accuracy = #stablehlo.result_accuracy<mode = #stablehlo.result_accuracy_mode<HIGHEST>>}
// CHECK: "stablehlo.logistic"(%{{.*}}) {result_accuracy = #stablehlo.result_accuracy<mode = #stablehlo.result_accuracy_mode<HIGHEST>>}
// CHECK: "stablehlo.sqrt"(%{{.*}}) {result_accuracy = #stablehlo.result_accuracy<mode = #stablehlo.result_accuracy_mode<HIGHEST>>}
// CHECK: "stablehlo.rsqrt"(%{{.*}}) {result_accuracy = #stablehlo.result_accuracy<mode = #stablehlo.result_accuracy_mode<HIGHEST>>}
// CHECK: "stablehlo.cbrt"(%{{.*}}) {result_accuracy = #stablehlo.result_accuracy<mode = #stablehlo.result_accuracy_mode<HIGHEST>>}
// CHECK: "stablehlo.sine"(%{{.*}}) {result_accuracy = #stablehlo.result_accuracy<mode = #stablehlo.result_accuracy_mode<HIGHEST>>} : (tensor<2xcomplex<f32>>)
// Without one, none.
// CHECK: "stablehlo.exponential"(%{{.*}}) : (tensor<4xf32>)
func.func @main(%x: tensor<4xf32>, %z: tensor<2xcomplex<f32>>)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>,
        tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>,
        tensor<4xf32>, tensor<4xf32>, tensor<2xcomplex<f32>>, tensor<4xf32>) {
  %0 = mlax.exp %x accuracy <highest> : tensor<4xf32>
  %1 = mlax.log %x accuracy <default> : tensor<4xf32>
  %2 = mlax.sin %x accuracy <atol = 1.0e-05, rtol = 1.0e-03> : tensor<4xf32>
  %3 = mlax.cos %x accuracy <ulps = 2> : tensor<4xf32>
  %4 = mlax.tan %x accuracy <atol = 0x7FF0000000000000, ulps = 1099511627776> : tensor<4xf32>
  %5 = mlax.tanh %x accuracy <rtol = 0.33333333333333331> : tensor<4xf32>
  %6 = mlax.expm1 %x accuracy <highest> : tensor<4xf32>
  %7 = mlax.log1p %x accuracy <highest> : tensor<4xf32>
  %8 = mlax.logistic %x accuracy <highest> : tensor<4xf32>
  %9 = mlax.sqrt %x accuracy <highest> : tensor<4xf32>
  %10 = mlax.rsqrt %x accuracy <highest> : tensor<4xf32>
  %11 = mlax.cbrt %x accuracy <highest> : tensor<4xf32>
  %12 = mlax.sin %z accuracy <highest> : tensor<2xcomplex<f32>>
  %13 = mlax.exp %x : tensor<4xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13
      : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>,
        tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>,
        tensor<4xf32>, tensor<4xf32>, tensor<2xcomplex<f32>>, tensor<4xf32>
}

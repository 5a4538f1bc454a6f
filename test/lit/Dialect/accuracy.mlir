// Round trip of `#mlax.accuracy` (lax.Tolerance / lax.AccuracyMode) on the
// transcendental ops that take it: parse, print, parse the printed form
// again, print again; the generic form parses back into the same ops.
//
// RUN: mlax-opt %s | mlax-opt | FileCheck %s
// RUN: mlax-opt %s --mlir-print-op-generic | mlax-opt | FileCheck %s
// RUN: mlax-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @modes(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK: mlax.exp %[[X]] accuracy <highest> : tensor<4xf32>
// CHECK: mlax.log %[[X]] accuracy <default> : tensor<4xf32>
// CHECK: mlax.sin %[[X]] : tensor<4xf32>
// GENERIC-LABEL: sym_name = "modes"
// GENERIC: "mlax.exp"(%{{.*}}) <{result_accuracy = #mlax.accuracy<highest>}>
// GENERIC: "mlax.log"(%{{.*}}) <{result_accuracy = #mlax.accuracy<default>}>
func.func @modes(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = mlax.exp %x accuracy <highest> : tensor<4xf32>
  %1 = mlax.log %x accuracy <default> : tensor<4xf32>
  %2 = mlax.sin %x : tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// Tolerances in any order, the ones left out 0; printed in the order atol,
// rtol, ulps without the zeros. Floats read back exactly (hex bit patterns
// too, as infinities print).
// CHECK-LABEL: func.func @tolerances(
// CHECK: mlax.sin %{{.*}} accuracy <atol = 1.000000e-05, rtol = 1.000000e-03> : tensor<4xf32>
// CHECK: mlax.cos %{{.*}} accuracy <ulps = 2> : tensor<4xf32>
// CHECK: mlax.tan %{{.*}} accuracy <atol = 1.000000e-01, ulps = 1099511627776> : tensor<4xf32>
// CHECK: mlax.tanh %{{.*}} accuracy <rtol = 0x7FF0000000000000> : tensor<4xf32>
// GENERIC-LABEL: sym_name = "tolerances"
// GENERIC: "mlax.sin"(%{{.*}}) <{result_accuracy = #mlax.accuracy<atol = 1.000000e-05, rtol = 1.000000e-03>}>
func.func @tolerances(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = mlax.sin %x accuracy <rtol = 1.0e-03, atol = 1.0e-05> : tensor<4xf32>
  %1 = mlax.cos %x accuracy <atol = 0.0, ulps = 2> : tensor<4xf32>
  %2 = mlax.tan %x accuracy <atol = 0.1, ulps = 1099511627776> : tensor<4xf32>
  %3 = mlax.tanh %x accuracy <rtol = 0x7FF0000000000000> : tensor<4xf32>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// Every op that takes it, on the element types it takes (cbrt: real only).
// CHECK-LABEL: func.func @every_op(
// CHECK: mlax.exp %{{.*}} accuracy <highest> : tensor<2xcomplex<f32>>
// CHECK: mlax.expm1 %{{.*}} accuracy <highest> : tensor<2xf64>
// CHECK: mlax.log %{{.*}} accuracy <highest> : tensor<2xbf16>
// CHECK: mlax.log1p %{{.*}} accuracy <highest> : tensor<2xf16>
// CHECK: mlax.logistic %{{.*}} accuracy <highest> : tensor<2xf32>
// CHECK: mlax.sin %{{.*}} accuracy <highest> : tensor<2xcomplex<f32>>
// CHECK: mlax.cos %{{.*}} accuracy <highest> : tensor<2xf32>
// CHECK: mlax.tan %{{.*}} accuracy <highest> : tensor<2xf32>
// CHECK: mlax.tanh %{{.*}} accuracy <highest> : tensor<2xf32>
// CHECK: mlax.sqrt %{{.*}} accuracy <highest> : tensor<2xf32>
// CHECK: mlax.rsqrt %{{.*}} accuracy <highest> : tensor<2xf32>
// CHECK: mlax.cbrt %{{.*}} accuracy <highest> : tensor<2xf32>
func.func @every_op(%x: tensor<2xf32>, %z: tensor<2xcomplex<f32>>, %d: tensor<2xf64>,
                    %b: tensor<2xbf16>, %h: tensor<2xf16>)
    -> (tensor<2xcomplex<f32>>, tensor<2xf64>, tensor<2xbf16>, tensor<2xf16>, tensor<2xf32>,
        tensor<2xcomplex<f32>>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>,
        tensor<2xf32>, tensor<2xf32>) {
  %0 = mlax.exp %z accuracy <highest> : tensor<2xcomplex<f32>>
  %1 = mlax.expm1 %d accuracy <highest> : tensor<2xf64>
  %2 = mlax.log %b accuracy <highest> : tensor<2xbf16>
  %3 = mlax.log1p %h accuracy <highest> : tensor<2xf16>
  %4 = mlax.logistic %x accuracy <highest> : tensor<2xf32>
  %5 = mlax.sin %z accuracy <highest> : tensor<2xcomplex<f32>>
  %6 = mlax.cos %x accuracy <highest> : tensor<2xf32>
  %7 = mlax.tan %x accuracy <highest> : tensor<2xf32>
  %8 = mlax.tanh %x accuracy <highest> : tensor<2xf32>
  %9 = mlax.sqrt %x accuracy <highest> : tensor<2xf32>
  %10 = mlax.rsqrt %x accuracy <highest> : tensor<2xf32>
  %11 = mlax.cbrt %x accuracy <highest> : tensor<2xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11
      : tensor<2xcomplex<f32>>, tensor<2xf64>, tensor<2xbf16>, tensor<2xf16>, tensor<2xf32>,
        tensor<2xcomplex<f32>>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>,
        tensor<2xf32>, tensor<2xf32>
}
